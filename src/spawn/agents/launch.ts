// An agent's command line: arguments in seed 003's order (resume, default args, auto-approve,
// prompt, extra args), t4a's state hooks, the deterministic conversation id, and the three spawn
// modes (login shell, direct, ssh). Every argument is shell-quoted where a shell will read it:
// a prompt holding quotes, newlines, $(…), backticks or ; reaches the agent byte for byte.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { T4aError } from "../../protocol/errors.ts";
import { readTainted, TaintedReadError } from "../tainted-files.ts";
import type { Agent } from "./agents.ts";

export type SpawnMode = "login" | "direct" | "ssh";

export interface LaunchOptions {
  agent: Agent;
  mode: SpawnMode;
  /** The conversation's id (deterministic, from the session's name: see conversations.ts). */
  conversationId: string;
  cwd: string;
  home: string;
  shell: string;
  prompt?: string;
  yolo: boolean;
  resume: boolean;
  extraArgs: string[];
  /** `t4a notify` as the hooks call it (absolute path of this binary, session id). */
  notify: { t4a: string; id: string };
  ssh?: { target: string; args: string[] };
  /** Resolved executable for direct mode. */
  cliPath?: string;
}

export interface Launch {
  argv: string[];
  /** The conversation's UUID, when the CLI takes one. */
  conversationId?: string;
  /** True when the arguments resume an earlier conversation. */
  resumed: boolean;
  /** A prompt to type once the TUI is ready (prompt via "type"). */
  typedPrompt?: string;
}

/** sha256 of the name, version-4 and variant bits set (seed 003's deterministicUuid). */
export function deterministicUuid(input: string): string {
  const hash = createHash("sha256").update(input).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x40;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** POSIX shell single quoting: safe for every byte but NUL. */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_\-+=/.,:@%]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** fish does not take '\'' inside single quotes the POSIX way: it escapes \ and ' instead. */
function fishQuote(arg: string): string {
  if (/^[A-Za-z0-9_\-+=/.,:@%]+$/.test(arg)) return arg;
  return `'${arg.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/** The CLI's arguments, in seed 003's order. */
export function agentArgs(options: LaunchOptions): Omit<Launch, "argv"> & { args: string[] } {
  const { agent } = options;
  const args: string[] = [];
  const id = options.conversationId;
  let conversationId: string | undefined;
  let resumed = false;
  // 1. resume
  if (options.resume && agent.resume.byId && canResume(agent.name, id, options)) {
    args.push(...agent.resume.byId.map((arg) => arg.replaceAll("{id}", id)));
    conversationId = id;
    resumed = true;
  } else if (options.resume && agent.resume.latest) {
    args.push(...agent.resume.latest);
    resumed = true;
  } else if (agent.resume.sessionIdFlag) {
    args.push(agent.resume.sessionIdFlag, id);
    conversationId = id;
  }
  // 2. default args, and the hooks that report the agent's state to t4a
  args.push(...agent.defaultArgs, ...hookArgs(agent, options.notify));
  // 3. auto-approve
  if (options.yolo) args.push(...agent.autoApprove);
  // 4. the prompt
  let typedPrompt: string | undefined;
  const via = (resumed && agent.resume.prompt) || agent.prompt;
  if (options.prompt !== undefined) {
    if (via.via === "flag") args.push(via.flag, options.prompt);
    else if (via.via === "positional") args.push(options.prompt);
    else typedPrompt = options.prompt;
  }
  // 5. extra args: the user's agents.json, then this session's
  args.push(...agent.extraArgs, ...options.extraArgs);
  return { args, conversationId, resumed, typedPrompt };
}

/** Where claude's log names its cwd (gemini's its project): its first records, within this much. */
const RESUME_HEAD_BYTES = 1024 * 1024;

/**
 * claude resumes a conversation only in the directory it started in, and only when its file
 * exists (~/.claude/projects/<cwd with every non-alphanumeric as ->/<uuid>.jsonl); otherwise
 * the same id starts fresh. gemini 0.61 resumes a UUID only from its current project's chats
 * (~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl, whose first record names the
 * project's sha256); otherwise it exits, so its latest conversation is resumed instead. Other
 * CLIs keep their sessions where t4a cannot check: trust the flag.
 * The files are tainted (a sandboxed CLI keeps them writable): read through readTainted, their
 * head only; a FIFO, a symlink or a file elsewhere refuses the create, named.
 */
function canResume(name: string, id: string, options: LaunchOptions): boolean {
  if (name === "claude") {
    const projects = join(options.home, ".claude", "projects");
    const file = join(projects, options.cwd.replace(/[^a-zA-Z0-9]/g, "-"), `${id}.jsonl`);
    const head = existsSync(file) ? logHead(name, file, projects) : undefined;
    if (head === undefined) return false;
    // Its records carry the cwd they ran in; a file for another directory is not this conversation.
    const cwd = /"cwd":"((?:[^"\\]|\\.)*)"/.exec(head)?.[1];
    return cwd === undefined || JSON.parse(`"${cwd}"`) === options.cwd;
  }
  if (name === "gemini") {
    const tmp = join(options.home, ".gemini", "tmp");
    const project = createHash("sha256").update(options.cwd).digest("hex");
    const files = existsSync(tmp)
      ? [...new Bun.Glob(`*/chats/session-*-${id.slice(0, 8)}.jsonl`).scanSync({ cwd: tmp, absolute: true })]
      : [];
    return files.some((file) => {
      const head = logHead(name, file, tmp);
      return head?.includes(`"sessionId":"${id}"`) && head.includes(`"projectHash":"${project}"`);
    });
  }
  return true;
}

/** The first RESUME_HEAD_BYTES of a CLI's conversation log, undefined when it is gone. */
function logHead(name: string, file: string, root: string): string | undefined {
  try {
    return readTainted(file, { root, maxBytes: RESUME_HEAD_BYTES, over: "head" });
  } catch (error) {
    if (error instanceof TaintedReadError && error.reason === "missing") return undefined;
    if (error instanceof TaintedReadError)
      throw new T4aError("spawn_failed", `cannot resume: ${name}'s conversation log ${error.message}`);
    throw error;
  }
}

/**
 * claude's hooks, each calling `t4a notify` at once: a prompt or a tool starts or resumes work,
 * a permission dialog is a question, Stop ends the turn. Not Notification: it comes seconds late.
 */
function hookArgs(agent: Agent, notify: LaunchOptions["notify"]): string[] {
  if (agent.hooks !== "claude-settings") return [];
  const call = (state: string) => `${shellQuote(notify.t4a)} notify ${shellQuote(notify.id)} ${state}`;
  const hook = (state: string) => [{ hooks: [{ type: "command", command: call(state) }] }];
  const settings = {
    hooks: {
      UserPromptSubmit: hook("working"),
      PreToolUse: hook("working"),
      PermissionRequest: hook("waiting"),
      PostToolUse: hook("working"),
      PostToolUseFailure: hook("working"),
      Stop: hook("idle"),
    },
  };
  return ["--settings", JSON.stringify(settings)];
}

/** The argv the PTY runs, for the spawn mode. */
export function launch(options: LaunchOptions): Launch {
  const built = agentArgs(options);
  const { args } = built;
  const cli = options.agent.cli;
  const isFish = /(^|\/)fish$/.test(options.shell);
  const quote = isFish ? fishQuote : shellQuote;
  const status = isFish ? "$status" : "$?";
  const exited = `${quote(options.notify.t4a)} notify ${quote(options.notify.id)} exited ${status} >/dev/null 2>&1`;
  if (options.mode === "ssh") {
    const remote = `cd ${shellQuote(options.cwd)} && ${[cli, ...args].map(shellQuote).join(" ")}`;
    return { ...built, argv: ["ssh", "-tt", ...(options.ssh?.args ?? []), options.ssh!.target, remote] };
  }
  if (options.mode === "direct") {
    // No login shell to start first; when the agent exits, a shell in the same terminal. The
    // wrapper shares the agent's process group, so Ctrl-C (how claude and codex are quit) reaches
    // it too: it catches SIGINT and SIGQUIT (a handler, which the agent does not inherit as an
    // ignore) and goes on to the shell.
    const script = `trap : INT QUIT; "$@"; ${exited.replace(status, "$?")}; exec "\${SHELL:-/bin/sh}" -il`;
    return { ...built, argv: ["/bin/sh", "-c", script, "t4a-agent", options.cliPath ?? cli, ...args] };
  }
  // The path found at create, not the bare name: a login shell's startup files may reset PATH
  // (Debian's /etc/profile does) and lose the directory the client found the CLI in.
  const line = `${[options.cliPath ?? cli, ...args].map(quote).join(" ")}; ${exited}; exec ${quote(options.shell)} -il`;
  return { ...built, argv: [options.shell, ...loginFlags(options.shell), line] };
}

/** zsh and bash: -lic; fish: -l -i -c; sh and the rest: -lc (POSIX sh has no -i with -c). */
export function loginFlags(shell: string): string[] {
  if (/(^|\/)(bash|zsh)$/.test(shell)) return ["-lic"];
  if (/(^|\/)fish$/.test(shell)) return ["-l", "-i", "-c"];
  return ["-lc"];
}
