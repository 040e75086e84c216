// create: spawn a program on a new PTY, through the session plugins (worktree, scratchpad, env,
// sandbox, timeout). Answers {id, cols, rows, pid} and what the plugins made.
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import { CreateReply } from "../protocol/session-info.ts";
import { SessionSpec } from "../protocol/session-spec.ts";
import type { Session } from "../session/session.ts";
import { readDotenvFile } from "../spawn/dotenv.ts";
import { callerEnv } from "../spawn/env-keys.ts";
import { absolutePath, intOption, listOption, remoteHost } from "./cli-helpers.ts";
import { defineCommand, type CliOptions } from "./command.ts";
import { durationOption } from "./durations.ts";

export const CreateParams = SessionSpec;

/** What create (and up) answer: the id, the size, the pid, and what the plugins made of it. */
export function createdReply(session: Session): CreateReply {
  return v.parse(CreateReply, session.info());
}

export const create = defineCommand({
  name: "create",
  params: CreateParams,
  reply: CreateReply,
  handle: async (params, ctx) => createdReply(await ctx.sessions.create(params)),
  cli: {
    usage: "create [...cmd]",
    summary: "Start a program (default: $SHELL) on a new terminal; prints its id",
    options: [
      ["--cols <n>", "columns (default 80)"],
      ["--rows <n>", "rows (default 24)"],
      ["-n, --name <name>", "use this name as the id"],
      ["--cwd <dir>", "working directory (default: the current one)"],
      ["-e, --env <KEY=VALUE>", "set an environment variable (repeatable)"],
      ["--env-file <file>", "set the variables of a dotenv file (-e wins)"],
      ["--inherit-env", "pass this shell's whole environment, not only the policy's variables"],
      [
        "--worktree <name>",
        "run in git worktree t4a/NAME of the repo here (made or reused; removed at the end if clean)",
      ],
      ["--base <ref>", "the commit a new worktree starts from (default HEAD)"],
      ["--scratchpad <name>", "share $T4A_SCRATCHPAD with every session naming it"],
      [
        "--sandbox",
        "run in a bubblewrap sandbox: read-only but cwd and /tmp, no network but allowed hosts, no way to t4a",
      ],
      ["--sandbox-net", "give the sandbox the whole network (instead of an allow-list)"],
      [
        "--sandbox-allow-domain <host>",
        "let the sandbox reach this host: api.example.com, *.example.com, an IP (repeatable)",
      ],
      ["--sandbox-allow <path>", "let the sandbox write this path too (repeatable)"],
      ["--timeout <duration>", "end the session after this long: 90s, 30m, 2h"],
      [
        "--limit-memory <size>",
        "memory for the whole process tree: 512M, 2G (cgroup; refused where it cannot be enforced)",
      ],
      ["--limit-cpu <percent>", "CPU for the whole process tree: 50% = half a core, 200% = two"],
      ["--limit-pids <n>", "at most n processes and threads in the tree"],
      ["--plugin <name[=arg]>", "run your plugin $XDG_CONFIG_HOME/t4a/plugins/NAME on the plan (repeatable, in order)"],
      [
        "--setup <commands>",
        "shell commands run before the program, in its directory and sandbox; the variables they set reach it",
      ],
      [
        "--agent <name>",
        "run a coding agent: claude, codex, gemini, qwen, opencode (see t4a agents); args " +
          "after -- go to it. auto: any CLI, the command after -- (--agent auto -- CLI ARGS)",
      ],
      ["--prompt <text>", "the agent's first prompt (verbatim)"],
      ["--yolo", "start the agent with its auto-approve flag"],
      ["--resume", "resume this session name's earlier conversation"],
      ["--direct", "exec the agent CLI without a login shell (faster start); a shell follows when it exits"],
      ["--ssh <target>", "run the agent on [user@]host over ssh -tt"],
      ["--ssh-arg <arg>", "one more ssh argument (repeatable)"],
      ["--sandbox-no-net", "no network for a sandboxed agent (by default it reaches its API hosts)"],
      ["--persist", "bring the session back when the daemon restarts (default for agents)"],
      ["--no-persist", "do not bring an agent session back"],
      ["--record <file>", "record the session to an asciicast file from its first byte"],
      ["--scrollback <lines>", "scrollback lines to keep"],
      ["--idle <ms>", "quiet time before this terminal's idle event"],
      ["--no-integration", "do not inject shell integration into bash/zsh/fish"],
    ],
    examples: [
      "id=$(t4a create -- bash)",
      "t4a create --cols 120 --rows 40 --name build -- make -j4",
      "t4a create --worktree fix-42 --sandbox --timeout 30m -- bash",
      "id=$(t4a create --name fix-42 --agent claude --worktree fix-42 --prompt " +
        "'Fix the failing test') && t4a wait $id --agent idle --timeout 30m",
    ],
    async request(args, options) {
      const env = await envOptions(options);
      const agent = stringOption(options.agent);
      if (options.direct && options.ssh !== undefined)
        throw new T4aError("invalid_params", "--direct and --ssh: choose one");
      return {
        agent,
        prompt: stringOption(options.prompt),
        yolo: options.yolo === true ? true : undefined,
        resume: options.resume === true ? true : undefined,
        spawn_mode: options.direct ? "direct" : options.ssh !== undefined ? "ssh" : undefined,
        ssh_target: stringOption(options.ssh),
        ssh_args: options.sshArg === undefined ? undefined : listOption(options.sshArg),
        sandbox_no_net: options.sandboxNoNet === true ? true : undefined,
        cols: intOption(options.cols, "--cols"),
        rows: intOption(options.rows, "--rows"),
        name: options.name === undefined ? undefined : String(options.name),
        // On another machine (--host) this machine's directory and environment mean nothing there.
        cwd: options.cwd !== undefined ? String(options.cwd) : remoteHost(options) ? undefined : process.cwd(),
        // With --agent, what follows -- is for the agent CLI.
        cmd_args: args.length && !agent ? args : undefined,
        agent_args: args.length && agent ? args : undefined,
        env: Object.keys(env).length ? env : undefined,
        client_env: remoteHost(options) ? undefined : callerEnv(options.inheritEnv === true),
        inherit_env: options.inheritEnv === true ? true : undefined,
        worktree: stringOption(options.worktree),
        base: stringOption(options.base),
        scratchpad: stringOption(options.scratchpad),
        sandbox: options.sandbox === true ? true : undefined,
        sandbox_net: options.sandboxNet === true ? true : undefined,
        sandbox_allow: options.sandboxAllow === undefined ? undefined : listOption(options.sandboxAllow),
        sandbox_allow_domain:
          options.sandboxAllowDomain === undefined ? undefined : listOption(options.sandboxAllowDomain),
        timeout_ms: durationOption(options.timeout, "--timeout"),
        limit_memory: stringOption(options.limitMemory),
        limit_cpu: options.limitCpu === undefined ? undefined : percentOption(String(options.limitCpu)),
        limit_pids: intOption(options.limitPids, "--limit-pids"),
        plugins: options.plugin === undefined ? undefined : listOption(options.plugin),
        setup: stringOption(options.setup),
        persist: options.persist === true ? true : options.persist === false ? false : undefined,
        record: options.record === undefined ? undefined : absolutePath(String(options.record)),
        scrollback: intOption(options.scrollback, "--scrollback"),
        idle_timeout_ms: intOption(options.idle, "--idle"),
        shell_integration: options.integration === false ? false : undefined,
      };
    },
    print(response) {
      // A repository's setup script that was not approved: the session started without it.
      if (response.worktree_setup?.startsWith("not run"))
        console.error(`t4a: worktree setup ${response.worktree_setup}`);
      console.log(response.id);
    },
    startsDaemon: true,
  },
  mcp: {
    tool: "terminal_create",
    description:
      "Start a program on a new terminal (a real PTY); answers its id (t1, t2, …). Without cmd_args: " +
      "the user's shell, with the integration terminal_run/terminal_exec need. worktree: its own git " +
      "worktree and branch (kept only if dirty). agent: a coding-agent CLI with prompt/yolo/resume; " +
      "drive it with agent_ask, agent_approve/agent_deny, terminal_wait agent. sandbox: read-only " +
      "but cwd and /tmp, no network. It lives until terminal_kill, even after its program exits.",
    group: {
      field: "more",
      fields: [
        "scrollback",
        "shell_integration",
        "base",
        "worktree_path",
        "branch",
        "scratchpad",
        "sandbox_allow",
        "sandbox_allow_domain",
        "sandbox_net",
        "sandbox_no_net",
        "agent_args",
        "spawn_mode",
        "ssh_target",
        "ssh_args",
        "persist",
        "record",
        "record_input",
        "cast_format",
        "inherit_env",
      ],
      description:
        "rare, as in connector.json: scrollback (lines), shell_integration (bool), " +
        "base/branch/worktree_path (worktree), scratchpad, sandbox_allow (paths), sandbox_allow_domain " +
        "(hosts), sandbox_net, sandbox_no_net, agent_args, spawn_mode (login|direct|ssh), ssh_target, " +
        "ssh_args, persist, record (.cast path), record_input, cast_format (v2|v3), inherit_env",
    },
    // Idle events are not offered over MCP; the environment comes from the server's own.
    // Plugins and setup are the user's own machinery, chosen by people (CLI, connector.json, web).
    hide: ["idle_timeout_ms", "client_env", "plugins", "setup", "limit_memory", "limit_cpu", "limit_pids"],
    // Like the CLI: terminals start where the agent works, with the agent's environment.
    fleet: { field: "host", type: "string", description: "a host of hosts.json; its ids are HOST:ID" },
    request: (args) => ({ cwd: process.cwd(), ...args, client_env: callerEnv(args.inherit_env === true) }),
  },
  http: [{ method: "POST", path: "/api/sessions", status: 201 }],
});

function stringOption(value: unknown): string | undefined {
  return value === undefined ? undefined : String(value);
}

/** `--env-file` then `-e` (the flag wins over the file). */
async function envOptions(options: CliOptions): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  if (options.envFile !== undefined) {
    Object.assign(env, readDotenvFile(String(options.envFile), "--env-file"));
  }
  for (const pair of listOption(options.env)) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new T4aError("invalid_params", `--env expects KEY=VALUE, got "${pair}"`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

/** "50%" or "50": a percentage of one core. */
function percentOption(text: string): number {
  const value = Number(text.replace(/%$/, ""));
  if (!Number.isFinite(value) || value <= 0)
    throw new T4aError("invalid_params", `--limit-cpu: "${text}" is not a percentage (50%, 200%)`);
  return value;
}
