// The type half of issue 56's rule, checked by tsc (`npm test` runs it first; so does
// session-env-types.test.ts, which removes each @ts-expect-error and sees that line fail): the
// session's environment (SessionEnv) reaches no spawn, no helper and none of the daemon's own
// lookups or home building, and neither does a plain record (the spec's env) where the client's
// environment (ClientEnv) is asked for. Never called; only compiled.
import { spawn as nodeSpawn } from "node:child_process";
import type { SessionSpec } from "../../src/protocol/session-spec.ts";
import { findAgent } from "../../src/spawn/agents/agents.ts";
import { runBounded } from "../../src/spawn/bounded.ts";
import type { SpawnContext, SpawnPlan } from "../../src/spawn/plan.ts";
import { sandboxedCommand } from "../../src/spawn/plugins/sandbox.ts";
import { agentHomeMounts } from "../../src/spawn/sandbox/agent-home.ts";
import { withoutLoaderVariables } from "../../src/spawn/loader-variables.ts";
import { clientEnv } from "../../src/spawn/session-env.ts";

export async function misuses(plan: SpawnPlan, spec: SessionSpec, ctx: SpawnContext): Promise<void> {
  const layout = { config: [], keep: [".claude/projects/"] };
  // @ts-expect-error the session's environment as a spawn's
  Bun.spawn(["git", "status"], { env: plan.env });
  // @ts-expect-error the session's environment as a spawn's (Node's)
  nodeSpawn("git", ["status"], { env: plan.env });
  // @ts-expect-error the session's environment for a helper run outside the sandbox
  await runBounded(["true"], { cwd: "/", env: plan.env, timeoutMs: 1000 });
  // @ts-expect-error the session's environment stripped only of loader variables: still the session's
  withoutLoaderVariables(plan.env);
  // @ts-expect-error the session's environment for a command run in a sandbox of t4a's own
  await sandboxedCommand(ctx, "/", "none", ["true"], plan.env);
  // @ts-expect-error the session's environment where the agent lookup wants the client's
  findAgent("claude", plan.env);
  // @ts-expect-error the spec's env (-e, --env-file) where the agent lookup wants the client's
  findAgent("claude", spec.env ?? {});
  // @ts-expect-error the session's environment as the agent's home
  agentHomeMounts(plan.env, layout, "/tmp/private");
  // @ts-expect-error the spec's env (HOME=… from an env file) as the agent's home
  agentHomeMounts(spec.env ?? {}, layout, "/tmp/private");
  // @ts-expect-error a variable read as if the session's environment were a record
  Bun.which("claude", { PATH: plan.env.PATH });

  // What the guards allow: the client's environment for the daemon's own work, named variables
  // of the session's read one at a time, and the two guards.
  findAgent("claude", clientEnv(spec, ctx.daemonEnv));
  agentHomeMounts(clientEnv(spec, ctx.daemonEnv), layout, "/tmp/private");
  await runBounded(["true"], { cwd: "/", env: plan.env.forHelper(clientEnv(spec, ctx.daemonEnv)), timeoutMs: 1000 });
  Bun.spawn(["true"], { env: plan.env.forProgram() });
  plan.env.get("PATH");
}
