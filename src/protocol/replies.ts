// What the daemon answers, as valibot schemas: one per command (the fields after `"ok":true`),
// and the session as list, info and the page see it. The daemon's handlers are typed by these,
// the CLI and MCP read replies through them, the page imports their types, and the wire snapshot
// freezes them. Objects allow fields they do not name: clients ignore what they do not know.
import * as v from "valibot";
import { AgentStateName, KeptItem } from "./events.ts";

const Kept = v.optional(v.array(KeptItem));

/** A session as list shows it (and GET /api/sessions/:id, with its seed-002 state). */
export const SessionInfo = v.object({
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
  kept: Kept,
  answers_dropped: v.optional(v.number()),
  // What the spawn plugins made of it.
  worktree: v.optional(v.string()),
  branch: v.optional(v.string()),
  worktree_created: v.optional(v.literal(true)),
  scratchpad: v.optional(v.string()),
  sandbox: v.optional(v.string()),
  timeout_ms: v.optional(v.number()),
  agent: v.optional(v.string()),
  spawn_mode: v.optional(v.string()),
  conversation_id: v.optional(v.string()),
  resumed: v.optional(v.literal(true)),
  // What the session holds now.
  agent_state: v.optional(AgentStateName),
  restored: v.optional(v.literal(true)),
  persist: v.optional(v.literal(true)),
  recording: v.optional(v.string()),
  viewers: v.optional(v.number()),
});
export type SessionInfo = v.InferOutput<typeof SessionInfo>;

/** create, and each session up made: the id, size and pid, and what the plugins made. */
export const CreateReply = v.object({
  ...v.omit(SessionInfo, ["alive", "title", "cmd_args", "cwd", "shell_integration"]).entries,
});
export const ListReply = v.object({ terminals: v.array(SessionInfo) });
export const EmptyReply = v.object({});
export const TextReply = v.object({
  lines: v.array(v.string()),
  region: v.picklist(["viewport", "scrollback", "all"]),
  total_lines: v.number(),
  /** Hand it back as `since` for the rows changed after this read. */
  token: v.string(),
  start: v.optional(v.number()),
  end: v.optional(v.number()),
  trimmed_rows: v.optional(v.number()),
  /** Delta reads: each line's row from the bottom, and whether every row came (the token was too old). */
  rows: v.optional(v.array(v.number())),
  full: v.optional(v.boolean()),
});
/** The PNG follows the line as `len` raw bytes, or comes inline as base64 `png`. */
export const ScreenshotReply = v.object({ len: v.number(), png: v.optional(v.string()) });
export const CursorReply = v.object({ row: v.number(), col: v.number(), visible: v.boolean(), style: v.string() });
export const WaitReply = v.object({
  condition: v.picklist(["idle", "text", "regex", "gone", "command_done", "exit", "agent"]),
  elapsed_ms: v.number(),
  line: v.optional(v.string()),
  row: v.optional(v.number()),
  match: v.optional(v.string()),
  code: v.optional(v.nullable(v.number())),
  signal: v.optional(v.nullable(v.string())),
  state: v.optional(AgentStateName),
});
export const RunReply = v.object({
  code: v.nullable(v.number()),
  lines: v.array(v.string()),
  total_lines: v.number(),
  truncated: v.boolean(),
  elapsed_ms: v.number(),
});
export const ResizeReply = v.object({ cols: v.number(), rows: v.number() });
export const AttachReply = v.object({ id: v.string(), cols: v.number(), rows: v.number(), alive: v.boolean(), framing: v.literal("t4a-frames-1") });
export const RecordReply = v.object({ recording: v.optional(v.string()), format: v.optional(v.picklist(["v2", "v3"])), stopped: v.optional(v.string()) });
export const KillReply = v.object({ kept: Kept });
export const UpReply = v.object({
  /** A session already running is reported by id alone. */
  sessions: v.array(v.object({ ...v.partial(CreateReply).entries, id: v.string(), state: v.picklist(["created", "exists"]) })),
});
export const DownReply = v.object({ ended: v.array(v.string()), missing: v.array(v.string()), kept: v.array(KeptItem) });
export const AgentsReply = v.object({
  agents: v.array(v.object({ name: v.string(), cli: v.string(), installed: v.boolean(), path: v.nullable(v.string()), version: v.nullable(v.string()) })),
});
export const NotifyReply = v.object({ state: AgentStateName, line: v.string() });
export const WebReply = v.object({
  url: v.optional(v.string()),
  login_url: v.optional(v.string()),
  listen: v.optional(v.string()),
  read_only: v.optional(v.boolean()),
  warning: v.optional(v.string()),
  stopped: v.optional(v.literal(true)),
});
export const ConfigReply = v.object({
  config: v.object({ idle_timeout_ms: v.number(), scrollback_lines: v.number(), scrollback_bytes: v.number(), kill_grace_ms: v.number(), max_sessions: v.number() }),
});
export const InfoReply = v.object({
  version: v.string(),
  pid: v.number(),
  uptime_ms: v.number(),
  sessions: v.number(),
  subscribers: v.number(),
  rss_bytes: v.number(),
  socket: v.string(),
});
export const ShutdownReply = v.object({ pid: v.number() });
