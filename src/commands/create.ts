// create: spawn a program on a new PTY. Answers {id, cols, rows, pid}.
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import { Dimension, Milliseconds, TerminalName } from "../protocol/fields.ts";
import { DEFAULT_COLS, DEFAULT_ROWS, MAX_SCROLLBACK_LINES } from "../protocol/limits.ts";
import { defineCommand } from "./command.ts";
import { intOption, listOption } from "./cli-helpers.ts";

export const CreateParams = v.object({
  cols: v.optional(v.pipe(Dimension, v.description("columns, 1..1000")), DEFAULT_COLS),
  rows: v.optional(v.pipe(Dimension, v.description("rows, 1..1000")), DEFAULT_ROWS),
  cmd_args: v.optional(
    v.pipe(
      v.array(v.string()),
      v.minLength(1, "cmd_args must not be empty"),
      v.description('the program and its arguments, e.g. ["python3", "-q"]; never a shell string (default: the user\'s shell)'),
    ),
  ),
  cwd: v.optional(v.pipe(v.string(), v.minLength(1), v.description("working directory (default: the daemon user's home directory; the CLI and MCP send their own current directory)"))),
  env: v.optional(v.pipe(v.record(v.string(), v.string()), v.description("extra environment variables for the program"))),
  name: v.optional(v.pipe(TerminalName, v.description("a readable id to use instead of t1, t2, …"))),
  scrollback: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_SCROLLBACK_LINES), v.description("scrollback lines to keep (default 10000)")),
  ),
  /** Quiet time before this terminal's idle event (default: the daemon's idle_timeout_ms). */
  idle_timeout_ms: v.optional(v.pipe(Milliseconds, v.minValue(10))),
  shell_integration: v.optional(
    v.pipe(
      v.boolean(),
      v.description("inject t4a's hooks into bash, zsh or fish so it knows when a command finishes and its exit code (run, wait command_done)"),
    ),
    true,
  ),
});

export const create = defineCommand({
  name: "create",
  params: CreateParams,
  handle(params, ctx) {
    const cwd = params.cwd ?? process.env.HOME ?? "/";
    const terminal = ctx.pool.create(
      {
        argv: params.cmd_args ?? defaultShell(),
        cwd,
        // TERM is set explicitly: the daemon may have been started from anywhere (or nowhere).
        env: { ...stringEnv(process.env), TERM: "xterm-256color", COLORTERM: "truecolor", T4A_SOCKET: ctx.socketPath, ...params.env },
        cols: params.cols,
        rows: params.rows,
        scrollback: params.scrollback ?? ctx.config.scrollback_lines,
        idleMs: () => params.idle_timeout_ms ?? ctx.config.idle_timeout_ms,
        integrationDir: params.shell_integration ? ctx.integrationDir : undefined,
      },
      params.name,
      ctx.config.max_sessions,
    );
    return { id: terminal.id, cols: terminal.screen.cols, rows: terminal.screen.rows, pid: terminal.pid };
  },
  cli: {
    usage: "create [...cmd]",
    summary: "Start a program (default: $SHELL) on a new terminal; prints its id",
    options: [
      ["--cols <n>", "columns (default 80)"],
      ["--rows <n>", "rows (default 24)"],
      ["-n, --name <name>", "use this name as the id"],
      ["--cwd <dir>", "working directory (default: the current one)"],
      ["-e, --env <KEY=VALUE>", "set an environment variable (repeatable)"],
      ["--scrollback <lines>", "scrollback lines to keep"],
      ["--idle <ms>", "quiet time before this terminal's idle event"],
      ["--no-integration", "do not inject shell integration into bash/zsh/fish"],
    ],
    examples: ["id=$(t4a create -- bash)", "t4a create --cols 120 --rows 40 --name build -- make -j4"],
    request(args, options) {
      const env: Record<string, string> = {};
      for (const pair of listOption(options.env)) {
        const eq = pair.indexOf("=");
        if (eq <= 0) throw new T4aError("invalid_params", `--env expects KEY=VALUE, got "${pair}"`);
        env[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      return {
        cols: intOption(options.cols),
        rows: intOption(options.rows),
        name: options.name === undefined ? undefined : String(options.name),
        cwd: options.cwd === undefined ? process.cwd() : String(options.cwd),
        cmd_args: args.length ? args : undefined,
        env: Object.keys(env).length ? env : undefined,
        scrollback: intOption(options.scrollback),
        idle_timeout_ms: intOption(options.idle),
        shell_integration: options.integration === false ? false : undefined,
      };
    },
    print(response) {
      console.log(response.id);
    },
    startsDaemon: true,
  },
  mcp: {
    tool: "terminal_create",
    description:
      "Start a program on a new terminal (a real PTY, 80x24 unless told) and return its id (t1, t2, …), size and pid as short JSON. " +
      "Without cmd_args it starts the user's shell with shell integration, which terminal_run and terminal_wait's command_done need. " +
      "The terminal lives until terminal_kill, even after its program exits, so its last screen can still be read.",
    // Idle events are not offered over MCP; terminal_wait takes its own idle_ms.
    hide: ["idle_timeout_ms"],
    // Like the CLI: terminals start where the agent works, not in the daemon's home.
    request: (args) => ({ cwd: process.cwd(), ...args }),
  },
});

/** $SHELL, else bash, else sh (DESIGN.md "Sessions"). */
function defaultShell(): string[] {
  const shell = process.env.SHELL;
  if (shell && Bun.which(shell)) return [shell];
  return [Bun.which("bash") ? "bash" : "sh"];
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
