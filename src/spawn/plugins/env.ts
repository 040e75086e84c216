// env: the environment policy (seed 003). A session gets a minimal base and the agent keys, taken
// from the creating client's environment when it sent one (the CLI does, like tmux's
// update-environment) or else the daemon's; never the daemon's whole stale environment unless
// inherit_env asks for it. Then what earlier plugins set, then the spec's own env.
import type { Plugin } from "../plan.ts";
import { policyEnv } from "../env-keys.ts";
import { clientEnv } from "../session-env.ts";

export const environment: Plugin = (spec, plan, ctx) => {
  const source = clientEnv(spec, ctx.daemonEnv);
  const base = spec.inherit_env ? { ...source } : policyEnv(source);
  const earlier = plan.env.entries();
  plan.env.assign({
    ...base,
    // A login shell rebuilds the rest from the user's startup files.
    HOME: base.HOME ?? ctx.daemonEnv.HOME ?? "/",
    PATH: base.PATH ?? ctx.daemonEnv.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    TERM: "xterm-256color",
    COLORTERM: "truecolor",
    TERM_PROGRAM: "t4a",
    T4A_SOCKET: ctx.socketPath,
  });
  plan.env.assign(Object.fromEntries(earlier));
  plan.env.assign(spec.env);
};
