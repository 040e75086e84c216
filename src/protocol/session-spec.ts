// What to run and how: the one session spec that `create`, `up` (connector.json), the CLI flags
// and MCP's terminal_create all produce. src/spawn/ turns it into a plain {argv, cwd, env}.
// Schemas only; no spawning here.
import * as v from "valibot";
import { deferred } from "./deferred.ts";
import { Dimension, Milliseconds, TerminalName } from "./fields.ts";
import { DEFAULT_COLS, DEFAULT_ROWS, MAX_SCROLLBACK_LINES } from "./limits.ts";

/** A worktree or scratchpad name: becomes a path component and a branch name. */
export const PluginName = deferred(() =>
  v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(64),
    v.regex(/^[^/\\\x00-\x20\x7f~^:?*[]+$/, "must not contain '/', '\\', spaces, control characters or any of ~^:?*["),
    v.check(
      (name) => !name.startsWith("-") && !name.startsWith(".") && !name.includes("..") && !name.endsWith(".lock"),
      "must not start with '-' or '.', contain '..' or end in '.lock'",
    ),
  ),
);

const AbsolutePath = deferred(() => v.pipe(v.string(), v.minLength(1), v.startsWith("/", "must be an absolute path")));

/** Longest a session may be given to run: 30 days. */
export const MAX_SESSION_TIMEOUT_MS = 30 * 24 * 3600 * 1000;

export const SessionSpec = deferred(() =>
  v.object({
    cols: v.optional(v.pipe(Dimension, v.description("columns, 1..1000")), DEFAULT_COLS),
    rows: v.optional(v.pipe(Dimension, v.description("rows, 1..1000")), DEFAULT_ROWS),
    cmd_args: v.optional(
      v.pipe(
        v.array(v.string()),
        v.minLength(1, "cmd_args must not be empty"),
        v.description(
          'the program and its arguments, e.g. ["python3", "-q"]; never a shell string (default: the user\'s shell)',
        ),
      ),
    ),
    cwd: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.description("working directory (default: the CLI's and MCP's own; else the daemon's home)"),
      ),
    ),
    env: v.optional(
      v.pipe(
        v.record(v.string(), v.string()),
        v.description("environment variables to set for the program, over the environment policy's"),
      ),
    ),
    name: v.optional(v.pipe(TerminalName, v.description("a readable id to use instead of t1, t2, …"))),
    scrollback: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(MAX_SCROLLBACK_LINES),
        v.description("scrollback lines to keep (default 10000)"),
      ),
    ),
    /** Quiet time before this terminal's idle event (default: the daemon's idle_timeout_ms). */
    idle_timeout_ms: v.optional(v.pipe(Milliseconds, v.minValue(10))),
    shell_integration: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "inject t4a's hooks into bash, zsh or fish so it knows when a " +
            "command finishes and its exit code (run, wait command_done)",
        ),
      ),
      true,
    ),
    worktree: v.optional(
      v.pipe(
        PluginName,
        v.description(
          "a git worktree of cwd's repo, on branch t4a/NAME (made, or " +
            "reused); removed at the end only when it holds no uncommitted work",
        ),
      ),
    ),
    base: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.check((ref) => !ref.startsWith("-"), "must not start with '-'"),
        v.description("the commit or branch a new worktree starts from (default HEAD)"),
      ),
    ),
    worktree_path: v.optional(
      v.pipe(
        v.string(),
        v.startsWith("/", "must be an absolute path"),
        v.description("where the worktree goes, instead of $XDG_STATE_HOME/t4a/worktrees/<repo>-NAME"),
      ),
    ),
    branch: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.check((ref) => !ref.startsWith("-"), "must not start with '-'"),
        v.description("the worktree's branch, instead of t4a/NAME"),
      ),
    ),
    scratchpad: v.optional(
      v.pipe(
        PluginName,
        v.description(
          "a directory shared by every session naming it, in $T4A_SCRATCHPAD (and scratchpad/ in a worktree)",
        ),
      ),
    ),
    sandbox: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "run inside a sandbox (bubblewrap): the filesystem read-only but cwd, /tmp and " +
            "sandbox_allow; no network but sandbox_allow_domain; no unix sockets; t4a itself out of reach",
        ),
      ),
    ),
    sandbox_net: v.optional(
      v.pipe(
        v.boolean(),
        v.description("give the sandboxed program the host's whole network (instead of an allow-list)"),
      ),
    ),
    sandbox_allow_domain: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(253))),
        v.description(
          "hosts the sandboxed program may reach, through t4a's allow-listing " +
            "proxy: api.example.com, *.example.com (subdomains), or an exact IP",
        ),
      ),
    ),
    sandbox_allow: v.optional(
      v.pipe(v.array(AbsolutePath), v.description("more paths the sandboxed program may write (each must exist)")),
    ),
    timeout_ms: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(MAX_SESSION_TIMEOUT_MS),
        v.description("end the session (as kill does) after it has run this long"),
      ),
    ),
    agent: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[a-z0-9][a-z0-9._-]*$/i, "agent names are letters, digits, . _ -"),
        v.description("a coding-agent CLI: a preset (`t4a agents`) or agents.json's; auto: any CLI, in cmd_args"),
      ),
    ),
    prompt: v.optional(
      v.pipe(
        v.string(),
        v.description("the agent's first prompt, passed verbatim (quotes, newlines and $(…) included)"),
      ),
    ),
    yolo: v.optional(
      v.pipe(v.boolean(), v.description("start the agent with its auto-approve flag (no permission questions)")),
    ),
    resume: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "resume this session name's earlier conversation when the agent has it, else start it fresh with the same id",
        ),
      ),
    ),
    agent_args: v.optional(v.pipe(v.array(v.string()), v.description("more arguments for the agent CLI, after t4a's"))),
    spawn_mode: v.optional(
      v.pipe(
        v.picklist(["login", "direct", "ssh"]),
        v.description(
          "login: through $SHELL -lic, so the user's PATH and version managers " +
            "load (default); direct: exec the CLI (faster start); ssh: on ssh_target",
        ),
      ),
    ),
    ssh_target: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.check((target) => !target.startsWith("-"), "must not start with '-'"),
        v.description("where spawn_mode ssh runs the agent: [user@]host or an ~/.ssh/config alias"),
      ),
    ),
    ssh_args: v.optional(v.pipe(v.array(v.string()), v.description('more ssh arguments, e.g. ["-p", "2222"]'))),
    sandbox_no_net: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "an agent in a sandbox reaches its API hosts (its preset's domains and its *_BASE_URL) unless this is set",
        ),
      ),
    ),
    limit_memory: v.optional(
      v.pipe(
        v.union([v.pipe(v.number(), v.integer()), v.string()]),
        v.description(
          "memory for the session's whole process tree: bytes, or 512M, " +
            "2G; past it the kernel kills (the exit event says memory_limit)",
        ),
      ),
    ),
    limit_cpu: v.optional(
      v.pipe(
        v.number(),
        v.minValue(1),
        v.maxValue(100_000),
        v.description("CPU for the whole process tree, in percent of one core (50 = half a core, 200 = two)"),
      ),
    ),
    limit_pids: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.description("at most this many processes and threads in the session's tree"),
      ),
    ),
    plugins: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string(),
            v.regex(/^[a-z0-9][a-z0-9._-]*(=[\s\S]*)?$/i, "must be NAME or NAME=ARG (NAME: letters, digits, . _ -)"),
          ),
        ),
        v.description(
          "external plugins to run, in order: NAME or NAME=ARG, each an executable $XDG_CONFIG_HOME/t4a/plugins/NAME",
        ),
      ),
    ),
    setup: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.description(
          "shell commands run in the final directory and environment (inside the " +
            'sandbox) before the program starts, e.g. "source .venv/bin/activate"; ' +
            "the variables they set reach the program; a failure refuses the create",
        ),
      ),
    ),
    persist: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "bring the session back when the daemon starts again (after " +
            "a crash, a reboot, an upgrade); default on for agents",
        ),
      ),
    ),
    record: v.optional(
      v.pipe(
        v.string(),
        v.startsWith("/", "must be an absolute path"),
        v.description("record the session from its first byte to this asciicast file"),
      ),
    ),
    record_input: v.optional(v.pipe(v.boolean(), v.description("record typed input too"))),
    cast_format: v.optional(
      v.pipe(v.picklist(["v2", "v3"]), v.description("asciicast version of the recording (default v2)")),
    ),
    client_env: v.optional(
      v.pipe(
        v.record(v.string(), v.string()),
        v.description(
          "the creating client's environment: the policy's variables are taken from here instead of the daemon's",
        ),
      ),
    ),
    inherit_env: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "give the program all of client_env (or the daemon's environment), not only the policy's variables",
        ),
      ),
    ),
  }),
);
export type SessionSpec = v.InferOutput<typeof SessionSpec>;
export type SessionSpecInput = v.InferInput<typeof SessionSpec>;

/** The spec's fields a file may set: all but the creating client's environment. */
function fileFields() {
  const { client_env: _clientEnv, ...fields } = SessionSpec.entries;
  return fields;
}

/** One session as a connector.json file writes it: `cmd` for the argv, `env_file` beside `env`. */
export const ConnectorSession = deferred(() =>
  v.strictObject({
    ...fileFields(),
    cmd: v.optional(
      v.pipe(
        v.array(v.string()),
        v.minLength(1, "cmd must not be empty"),
        v.description('the program and its arguments, e.g. ["npm", "test"]'),
      ),
    ),
    env_file: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.description("a dotenv file (relative to this file) whose variables are set; env wins"),
      ),
    ),
  }),
);
export type ConnectorSession = v.InferOutput<typeof ConnectorSession>;

/** connector.json: one session, a list of them, or {"sessions": [...]}. */
export const ConnectorFile = deferred(() =>
  v.union([
    v.strictObject({
      sessions: v.pipe(
        v.array(ConnectorSession),
        v.minLength(1),
        v.description("the sessions `t4a up` creates and `t4a down` ends"),
      ),
    }),
    v.pipe(v.array(ConnectorSession), v.minLength(1)),
    ConnectorSession,
  ]),
);
