// limits: the session's whole process tree in a cgroup of its own with the memory, CPU and process
// limits asked for (limits.ts). After the sandbox and before setup: the cgroup shim wraps the
// sandbox's wrapper from outside, and the setup runs inside the limits like the program. Refuses
// the create when a limit cannot be enforced here.
import { T4aError } from "../../protocol/errors.ts";
import { makeLimits, parseBytes, type LimitRequest } from "../limits.ts";
import type { Plugin } from "../plan.ts";

export const limits: Plugin = async (spec, plan, ctx, id) => {
  const request: LimitRequest = {};
  if (spec.limit_memory !== undefined) {
    const bytes = typeof spec.limit_memory === "number" ? spec.limit_memory : parseBytes(spec.limit_memory);
    if (bytes === undefined || bytes < 1024 * 1024)
      throw new T4aError(
        "invalid_params",
        `limit_memory: "${spec.limit_memory}" is not a size of at least 1M (512M, 2G, or bytes)`,
      );
    request.memory_bytes = bytes;
  }
  if (spec.limit_cpu !== undefined) request.cpu_percent = spec.limit_cpu;
  if (spec.limit_pids !== undefined) request.pids = spec.limit_pids;
  if (!Object.keys(request).length) return;
  const made = await makeLimits(id, request, ctx.daemonEnv);
  plan.cleanups.push(async () => {
    await made.remove();
  });
  const inner = plan.wrap;
  plan.wrap = (spawn) => {
    const wrapped = inner ? inner(spawn) : spawn;
    return { argv: [...made.prefix, ...wrapped.argv], env: wrapped.env };
  };
  plan.limits = made;
};
