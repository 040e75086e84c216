// What the plugin chain builds: the plain {argv, cwd, env} the terminal layer spawns, plus what
// the chain leaves to the session's end (cleanups) and what `list` shows about it (facts).
// Types, the plugin contract and the cleanup runner only.
import type { KeptItem } from "../protocol/fields.ts";
import type { Wrap } from "../terminal/terminal.ts";
import type { SessionSpec } from "../protocol/session-spec.ts";
import type { Agent } from "./agents/agents.ts";
import type { SessionLimits } from "./limits.ts";
import type { SessionEnv } from "./session-env.ts";

/** One link of the chain. `id`: the session's id, reserved before the chain runs (agents' hooks and ids need it). */
export type Plugin = (spec: SessionSpec, plan: SpawnPlan, ctx: SpawnContext, id: string) => void | Promise<void>;

/** What the plugins report about the session: shown by create, list and info, as these fields. */
export interface SpawnFacts {
  worktree?: string;
  branch?: string;
  /** The worktree was made for this session (not reused). */
  worktree_created?: true;
  /** Git-ignored files copied from the main checkout, as its .worktreeinclude lists. */
  worktree_included?: number;
  /** What became of the repository's setup script: ran, or why not. */
  worktree_setup?: string;
  scratchpad?: string;
  /** How it is confined, e.g. "bwrap, no network". */
  sandbox?: string;
  timeout_ms?: number;
  agent?: string;
  spawn_mode?: string;
  conversation_id?: string;
  resumed?: true;
  /** The external plugins that ran, in order. */
  plugins?: string[];
}

/**
 * One mount inside a sandbox, over what came before it: `bind` writable, `ro-bind` read-only
 * (both from `source`, the same path when absent), `tmpfs` an empty private directory.
 */
export type Mount = { kind: "bind" | "ro-bind"; path: string; source?: string } | { kind: "tmpfs"; path: string };

/** Runs at the session's end (exit, kill, timeout, daemon shutdown); reports what it kept. */
// biome-ignore lint/suspicious/noConfusingVoidType: a cleanup that keeps nothing returns nothing
export type Cleanup = () => Promise<KeptItem[] | void>;

export interface SpawnPlan {
  argv: string[];
  cwd: string;
  /**
   * Where the program starts when not `cwd` (a restored sandbox or worktree session's last
   * directory, checked to lie inside it): a sandbox still makes `cwd` writable and only changes
   * into this inside (bwrap's --chdir), so a link swapped in meanwhile leads to nothing writable.
   */
  startIn?: string;
  /** The session's environment: tainted, opaque (session-env.ts); the daemon's own actions read the client's. */
  env: SessionEnv;
  /** Applied to the final argv and env, after shell integration is set up (the sandbox's bwrap). */
  wrap?: Wrap;
  /** What a sandbox must show besides its cwd (an agent's home, its notify channel), in order. */
  mounts: Mount[];
  /** Hosts a sandbox lets the program reach (an agent's API), besides the spec's own. */
  allowDomains: string[];
  /** The agent this session runs, when it runs one: its watch is set up once the terminal exists. */
  agent?: AgentPlan;
  /** End the session after this long. */
  timeoutMs?: number;
  /** The cgroup holding the session's processes, when limits were asked for. */
  limits?: SessionLimits;
  /** Undone in reverse order. */
  cleanups: Cleanup[];
  facts: SpawnFacts;
}

export interface AgentPlan {
  agent: Agent;
  typedPrompt?: string;
  /** A prompt went on its command line: its first turn starts by itself. */
  promptGiven: boolean;
  /** It resumes a conversation: a typed prompt waits for the conversation to be drawn. */
  resumed: boolean;
  /** The session's notify channel, a FIFO the watch reads (the env's T4A_NOTIFY outside a sandbox). */
  notifyPath: string;
}

/** What the plugins need from the daemon, as plain values. */
export interface SpawnContext {
  /** This executable, as hooks and wrappers call it back (`t4a notify`). */
  t4aPath: string;
  /** How to run this executable with arguments: the binary, or bun and the entry script in development. */
  selfArgv: string[];
  socketPath: string;
  /** $XDG_STATE_HOME/t4a (or ~/.local/state/t4a): worktrees and scratchpads live under it. */
  stateDir: string;
  /** $XDG_CONFIG_HOME/t4a of the daemon's user: external plugins, agents.json; never writable in a sandbox. */
  configDir: string;
  worktreesDir: string;
  /** Which conversation id each agent session name used last (agents/conversations.ts). */
  conversationsFile: string;
  /** Where shell-integration files live: a sandbox must let the shell read them. */
  integrationDir: string;
  /** The daemon's own environment (the client's when a create sends no client_env: session-env.ts's clientEnv). */
  daemonEnv: Record<string, string>;
}

/** Runs every cleanup (the last added first), even when one fails, and collects what was kept. */
export async function runCleanups(cleanups: Cleanup[]): Promise<KeptItem[]> {
  const kept: KeptItem[] = [];
  for (const cleanup of [...cleanups].reverse()) {
    try {
      kept.push(...((await cleanup()) ?? []));
    } catch (error) {
      console.error("t4a daemon: a session cleanup failed:", error);
    }
  }
  return kept;
}
