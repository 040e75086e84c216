// setup: shell commands run before the program (seed 003's shellSetup: `source .venv/bin/activate`,
// `source ~/.nvm/nvm.sh && nvm use`). They run in a shell of their own, in the session's final
// directory and environment and inside its sandbox (the last link but the timeout, after the
// sandbox has made its wrapper), and the create waits for them: a failure refuses the create with
// their words, and the chain is undone. What they leave in the environment (set, changed or unset
// variables) becomes the program's; functions and aliases do not carry over.
// Its shell is the client's (never a SHELL the session's env names: t4a chooses it). Unsandboxed,
// it never gets the session's variables that steer loaders, shells or runtimes (BASH_ENV,
// LD_PRELOAD, BUN_OPTIONS…: tainted, a sandbox can write the `.env`), and its PATH, HOME, XDG
// directories and tools' configuration locations are the client's (SessionEnv.forHelper); the
// program still gets the session's.
// Sandboxed, the sandbox's wrapper hands them over only after its filter.
import { T4aError } from "../../protocol/errors.ts";
import { runBounded } from "../bounded.ts";
import type { Plugin } from "../plan.ts";
import { clientEnv } from "../session-env.ts";

/** Setup is for activating things, not installing them: longer than this and the create is refused. */
export const SETUP_TIMEOUT_MS = 120_000;

/** Between the environment before and after, in the setup shell's output. */
const SPLIT = "\0T4A-SETUP-DONE\0";

/** What every shell changes by running at all: never the setup's doing. */
const SHELL_OWN = new Set([
  "_",
  "SHLVL",
  "PWD",
  "OLDPWD",
  "PS1",
  "PS2",
  "PS4",
  "OPTIND",
  "PPID",
  "LINENO",
  "RANDOM",
  "SECONDS",
  "BASH_EXECUTION_STRING",
]);

export const setup: Plugin = async (spec, plan, ctx) => {
  if (spec.setup === undefined) return;
  const client = clientEnv(spec, ctx.daemonEnv);
  const shell = setupShell(client.SHELL);
  // The setup's own output goes to stderr, so stdout carries only the two environments. A group,
  // not a subshell: what it sets stays for the second dump.
  const printSplit = `printf '${SPLIT.replace(/\0/g, "\\000")}'`;
  const failIfFailed = '[ "$t4a_setup_status" -eq 0 ] || exit "$t4a_setup_status"';
  const script = `env -0; ${printSplit}; {\n${spec.setup}\n} >&2; t4a_setup_status=$?; ${failIfFailed}; env -0`;
  const unwrapped = { argv: [shell, "-c", script] };
  const { argv, env } = plan.wrap
    ? plan.wrap({ ...unwrapped, env: plan.env.forProgram() })
    : { ...unwrapped, env: plan.env.forHelper(client) };
  const outcome = await runBounded(argv, { cwd: plan.cwd, env, timeoutMs: SETUP_TIMEOUT_MS });
  if (outcome === "late") {
    throw new T4aError(
      "spawn_failed",
      `setup did not finish within ${SETUP_TIMEOUT_MS / 1000} s; ` +
        "the program did not start (run long installs in the session itself)",
    );
  }
  const { stdout, stderr, code } = outcome;
  const said = stderr.trim().split("\n").slice(-10).join("\n");
  const split = stdout.indexOf(SPLIT);
  if (code !== 0 || split < 0 || !stdout.endsWith("\0")) {
    throw new T4aError(
      "spawn_failed",
      `setup failed (exit ${code ?? outcome.signal}); the program did not start${said ? `:\n${said}` : ""}`,
    );
  }
  const before = parseEnv(stdout.slice(0, split));
  const after = parseEnv(stdout.slice(split + SPLIT.length));
  for (const [key, value] of Object.entries(after))
    if (!SHELL_OWN.has(key) && before[key] !== value) plan.env.set(key, value);
  for (const key of Object.keys(before)) if (!SHELL_OWN.has(key) && !(key in after)) plan.env.unset(key);
};

/** The user's shell when it reads sh syntax (bash, zsh, sh, dash, ksh); else bash; else sh. */
function setupShell(shell: string | undefined): string {
  if (shell?.startsWith("/") && /(^|\/)(ba|z|k|da)?sh$/.test(shell) && Bun.which(shell)) return shell;
  return Bun.which("bash") ?? "sh";
}

/** `env -0` output: NAME=value entries ended by NUL. */
function parseEnv(dump: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of dump.split("\0")) {
    const equals = entry.indexOf("=");
    if (equals > 0) env[entry.slice(0, equals)] = entry.slice(equals + 1);
  }
  return env;
}
