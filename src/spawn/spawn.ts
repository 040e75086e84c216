// A session spec becomes what src/terminal/ spawns: the plugin chain worktree → scratchpad →
// env → agent → the user's external plugins → sandbox → limits → setup → timeout (the sandbox
// reads the final cwd and wraps whatever came before it; the limits' cgroup holds the sandbox;
// setup runs inside both; seed 001). A plugin that cannot do
// its job fails the create and the chain undoes what it did: no half-made worktree, never an
// unsandboxed program. The terminal layer never learns what a plugin is.
import type { SessionSpec } from "../protocol/session-spec.ts";
import type { Plugin, SpawnContext, SpawnPlan } from "./plan.ts";
import { runCleanups } from "./plan.ts";
import { clientEnv, SessionEnv } from "./session-env.ts";
import { agent } from "./plugins/agent.ts";
import { environment } from "./plugins/env.ts";
import { external } from "./plugins/external.ts";
import { sandbox } from "./plugins/sandbox.ts";
import { limits } from "./plugins/limits.ts";
import { scratchpad } from "./plugins/scratchpad.ts";
import { setup } from "./plugins/setup.ts";
import { timeout } from "./plugins/timeout.ts";
import { worktree } from "./plugins/worktree.ts";

/** The agent plugin builds the command once cwd and env are final, before the sandbox wraps it. */
const CHAIN: Plugin[] = [worktree, scratchpad, environment, agent, external, sandbox, limits, setup, timeout];

/** `startIn`: a restored session's last directory, inside the one it started in (SpawnPlan.startIn). */
export async function prepareSession(
  spec: SessionSpec,
  ctx: SpawnContext,
  id: string,
  startIn?: string,
): Promise<SpawnPlan> {
  const source = clientEnv(spec, ctx.daemonEnv);
  const plan: SpawnPlan = {
    argv: spec.cmd_args ?? defaultShell(source.SHELL),
    cwd: spec.cwd ?? source.HOME ?? ctx.daemonEnv.HOME ?? "/",
    env: new SessionEnv(),
    mounts: [],
    allowDomains: [],
    cleanups: [],
    facts: {},
  };
  try {
    for (const plugin of CHAIN) await plugin(spec, plan, ctx, id);
    if (startIn !== undefined && startIn !== plan.cwd) plan.startIn = startIn;
  } catch (error) {
    await runCleanups(plan.cleanups);
    throw error;
  }
  return plan;
}

/** $SHELL, else bash, else sh (DESIGN.md "Sessions"). */
function defaultShell(shell: string | undefined): string[] {
  if (shell && Bun.which(shell)) return [shell];
  return [Bun.which("bash") ? "bash" : "sh"];
}
