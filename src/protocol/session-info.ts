// A session as list, create and the page see it: the terminal's own state and what t4a made of it.
// Shared by the commands that answer sessions (list, create, up) and the page's types.
import * as v from "valibot";
import { deferred } from "./deferred.ts";
import { AgentStateName, KeptItem } from "./fields.ts";
import { NeedInfo } from "./need.ts";

/** A session as list shows it (and GET /api/sessions/:id, with its seed-002 state). */
export const SessionInfo = deferred(() =>
  v.object({
    id: v.string(),
    cols: v.number(),
    rows: v.number(),
    pid: v.number(),
    alive: v.boolean(),
    title: v.string(),
    cmd_args: v.array(v.string()),
    cwd: v.string(),
    shell_integration: v.nullable(v.picklist(["bash", "zsh", "fish"])),
    exit_code: v.optional(v.nullable(v.number())),
    signal: v.optional(v.nullable(v.string())),
    reason: v.optional(v.string()),
    kept: v.optional(v.array(KeptItem)),
    answers_dropped: v.optional(v.number()),
    // What the spawn plugins made of it.
    worktree: v.optional(v.string()),
    branch: v.optional(v.string()),
    worktree_created: v.optional(v.literal(true)),
    /** Git-ignored files copied from the main checkout, as its .worktreeinclude lists. */
    worktree_included: v.optional(v.number()),
    /** What became of the repository's setup script (.t4a/setup): ran, or why not. */
    worktree_setup: v.optional(v.string()),
    scratchpad: v.optional(v.string()),
    sandbox: v.optional(v.string()),
    timeout_ms: v.optional(v.number()),
    agent: v.optional(v.string()),
    spawn_mode: v.optional(v.string()),
    conversation_id: v.optional(v.string()),
    resumed: v.optional(v.literal(true)),
    /** The external plugins that ran, in order. */
    plugins: v.optional(v.array(v.string())),
    // What the session holds now.
    agent_state: v.optional(AgentStateName),
    /** When the agent entered that state (ms since the epoch). */
    agent_since: v.optional(v.number()),
    /** The line the agent state was read from: the question it waits on, what it works on. */
    agent_line: v.optional(v.string()),
    /** While the agent waits: which question (counted per session), for approve/deny to name. */
    agent_question_id: v.optional(v.number()),
    /** That question has been answered (approve, deny); the CLI has not drawn what follows yet. */
    agent_question_answered: v.optional(v.literal(true)),
    /** What it needs now, with its id and who holds it; absent while it needs nothing (or an ask has its turn). */
    need: v.optional(NeedInfo),
    /** When the session started (ms since the epoch; a restored one: when it came back). */
    started_at: v.optional(v.number()),
    /** When the program last wrote output (ms since the epoch). */
    last_output_at: v.optional(v.number()),
    /** The program reading the terminal now, waiting for someone to type (Linux). */
    input_wanted: v.optional(v.string()),
    restored: v.optional(v.literal(true)),
    /** Why a restored session is not where it was (its directory was deleted). */
    restore_note: v.optional(v.string()),
    persist: v.optional(v.literal(true)),
    /** The limits of its process tree and where they live ("cgroup v1", "systemd scope"). */
    limits: v.optional(
      v.object({
        memory_bytes: v.optional(v.number()),
        cpu_percent: v.optional(v.number()),
        pids: v.optional(v.number()),
        how: v.string(),
      }),
    ),
    /** What its process tree uses now (with limits). */
    usage: v.optional(v.object({ memory_bytes: v.optional(v.number()), pids: v.optional(v.number()) })),
    recording: v.optional(v.string()),
    viewers: v.optional(v.number()),
  }),
);
export type SessionInfo = v.InferOutput<typeof SessionInfo>;

/** create, and each session up made: the id, size and pid, and what the plugins made. */
export const CreateReply = deferred(() =>
  v.object({
    ...v.omit(SessionInfo, ["alive", "title", "cmd_args", "cwd", "shell_integration"]).entries,
  }),
);
export type CreateReply = v.InferOutput<typeof CreateReply>;
