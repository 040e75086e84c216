// An agent's conversation as messages, read from the CLI's own log (where the preset names it):
// the answer to "what did it do" when its TUI draws on the alternate screen and keeps no
// scrollback, and the exact text of its answers for `ask`. One small reader per log format;
// each keeps the conversation's order and leaves out what the CLI adds for itself (its context
// preambles, hook and bookkeeping records). Tool calls and results are one line each.
// The logs are tainted (a sandboxed CLI writes them): read only through readTainted, under the
// directory the preset's pattern names, never a FIFO, a symlink or more than LOG_MAX_BYTES.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { ConversationLog } from "../spawn/agents/registry.ts";
import { readTainted, TaintedReadError } from "../spawn/tainted-files.ts";
import { call, result, type Message } from "./messages.ts";
import { readOpencodeApart } from "./opencode-log.ts";

export type { Message };

/** Of a log, only its last this many bytes are read (its newest messages; the first line cut is skipped). */
export const LOG_MAX_BYTES = 64 * 1024 * 1024;

/** Where to look: the session's HOME and directory, the conversation id t4a gave it, when it started. */
export interface LogPlace {
  home: string;
  cwd: string;
  conversationId: string | undefined;
  startedAt: number;
  /** It resumed its directory's latest conversation (codex's `resume --last`), begun before it started. */
  resumed?: boolean;
  /**
   * The files its processes hold open, asked only when a log has no id of ours: of two sessions
   * of one CLI in one directory, the log open by this one's is its own.
   */
  openFiles?: () => ReadonlySet<string>;
}

/**
 * The log file of this session's conversation and the directory it must be in, or undefined when
 * there is none (yet); `held` when its processes were seen holding it open (it is surely its own).
 */
export function findLog(
  log: ConversationLog,
  place: LogPlace,
): { path: string; root: string; held?: boolean } | undefined {
  for (const pattern of log.paths) {
    const byId = pattern.includes("{id");
    if (byId && !place.conversationId) continue;
    const glob = pattern
      .replaceAll("{id8}", place.conversationId?.slice(0, 8) ?? "")
      .replaceAll("{id}", place.conversationId ?? "");
    const root = logRoot(place.home, pattern);
    const candidates: Array<{ path: string; mtime: number }> = [];
    for (const path of new Bun.Glob(glob).scanSync({ cwd: place.home, absolute: true, dot: true })) {
      // lstat: a symlink's own time, never its target's (it is refused when read anyway).
      const mtime = lstatSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
      // Without an id of ours: a conversation of its directory begun since the session started
      // (an earlier session's log there may still be written to as this one starts); resumed,
      // its directory's newest, which is the one the CLI resumed (codex appends to it).
      // (opencode's one database holds every conversation: its reader picks this session's.)
      if (
        !byId &&
        log.format !== "opencode" &&
        ((!place.resumed && mtime < place.startedAt) || !begunBy(path, root, log.format, place))
      )
        continue;
      candidates.push({ path, mtime });
    }
    const open = !byId && candidates.length > 1 ? place.openFiles?.() : undefined;
    const own = open ? candidates.filter((candidate) => open.has(candidate.path)) : [];
    const newest = (own.length ? own : candidates).reduce<{ path: string; mtime: number } | undefined>(
      (best, candidate) => (!best || candidate.mtime > best.mtime ? candidate : best),
      undefined,
    );
    if (newest) return { path: newest.path, root, ...(own.length ? { held: true } : {}) };
  }
  return undefined;
}

/**
 * The pattern's fixed directories under home (`.claude/projects` of `.claude/projects/*\/{id}.jsonl`): where its logs
 * must really be.
 */
function logRoot(home: string, pattern: string): string {
  const parts = pattern.split("/");
  const fixed = parts.slice(0, -1).findIndex((part) => /[*?[{]/.test(part));
  return join(home, ...parts.slice(0, fixed < 0 ? parts.length - 1 : fixed));
}

/**
 * The messages of a log file under `root`, oldest first. Throws TaintedReadError for anything but a regular file there.
 */
export async function readTranscript(
  path: string,
  root: string,
  format: ConversationLog["format"],
  place: LogPlace,
): Promise<Message[]> {
  // A database is read on a worker thread, bounded in rows and time (opencode-log.ts).
  if (format === "opencode") return (await readOpencodeApart(path, root, LOG_MAX_BYTES, place)) ?? [];
  const records = jsonLines(path, root);
  switch (format) {
    case "claude":
      return records.flatMap(claudeMessages);
    case "codex":
      return records.flatMap(codexMessages);
    case "gemini":
      return geminiRecords(records).flatMap(geminiMessages);
    case "qwen":
      return records.flatMap(qwenMessages);
    case "pi":
      return records.flatMap(piMessages);
    case "droid":
      return records.flatMap(droidMessages);
    case "copilot":
      return records.flatMap(copilotMessages);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: another program's JSON, each field checked where it is read
type Json = Record<string, any>;

function jsonLines(path: string, root: string): Json[] {
  let text: string;
  try {
    text = readTainted(path, { root, maxBytes: LOG_MAX_BYTES, over: "tail" });
  } catch (error) {
    // Gone between the glob and the read: no log (yet). Anything else is the log made a trap.
    if (error instanceof TaintedReadError && error.reason === "missing") return [];
    throw error;
  }
  const records: Json[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      // A line being written as we read: the next read has it whole.
    }
  }
  return records;
}

/**
 * Whether a log without our id is this session's: its first records name its directory and start (any, resumed).
 * codex's session_meta and pi's session record carry both; droid's session_start its directory, its first message
 * the time.
 */
function begunBy(path: string, root: string, format: ConversationLog["format"], place: LogPlace): boolean {
  if (format !== "codex" && format !== "pi" && format !== "droid") return false;
  let records: Json[];
  try {
    records = jsonLines(path, root);
  } catch {
    return false; // not a log t4a reads: not this session's
  }
  const meta =
    format === "codex"
      ? records.find((record) => record.type === "session_meta")?.payload
      : format === "pi"
        ? records.find((record) => record.type === "session")
        : {
            cwd: records.find((record) => record.type === "session_start")?.cwd,
            timestamp: records.find((record) => typeof record.timestamp === "string")?.timestamp,
          };
  return meta?.cwd === place.cwd && (place.resumed === true || Date.parse(meta?.timestamp ?? "") >= place.startedAt);
}

/** Context a CLI sends as if the user wrote it (`<environment_context>`, `<system-reminder>`). */
const isPreamble = (text: string) => /^\s*<[a-z_-]+>/.test(text);

function claudeMessages(record: Json): Message[] {
  if ((record.type !== "user" && record.type !== "assistant") || record.isMeta || record.isSidechain) return [];
  const content = record.message?.content;
  const role = record.type as "user" | "assistant";
  // claude writes its API's refusals as its own answer ("Credit balance is too low"), marked:
  // worded as its other API errors are ("API Error: 400 …"), so ask ends such a turn as an error.
  if (record.isApiErrorMessage === true && role === "assistant") return apiError(record, content);
  return anthropicParts(role, content);
}

/** Anthropic-API content: a string, or text, tool_use and tool_result parts (claude's and droid's logs). */
function anthropicParts(role: "user" | "assistant", content: unknown): Message[] {
  if (typeof content === "string") return isPreamble(content) ? [] : [{ role, text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: Json): Message[] => {
    if (part.type === "text" && typeof part.text === "string" && !isPreamble(part.text))
      return [{ role, text: part.text }];
    if (part.type === "tool_use") return [call(part.name, part.input)];
    if (part.type === "tool_result") {
      const output = Array.isArray(part.content)
        ? part.content.map((item: Json) => item.text ?? "").join(" ")
        : part.content;
      return [result(output)];
    }
    return [];
  });
}

function apiError(record: Json, content: unknown): Message[] {
  const text = (
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content.map((part: Json) => (typeof part?.text === "string" ? part.text : "")).join(" ")
        : ""
  ).trim();
  if (/^API Error\b/.test(text)) return [{ role: "assistant", text }];
  const status = typeof record.apiErrorStatus === "number" ? `${record.apiErrorStatus} ` : "";
  return [{ role: "assistant", text: `API Error: ${status}${text || String(record.error ?? "error")}` }];
}

function codexMessages(record: Json): Message[] {
  if (record.type !== "response_item") return [];
  const item = record.payload ?? {};
  if (item.type === "message" && (item.role === "user" || item.role === "assistant")) {
    const text = (item.content ?? []).map((part: Json) => part.text ?? "").join("");
    return text && !isPreamble(text) ? [{ role: item.role, text }] : [];
  }
  if (item.type === "function_call" || item.type === "custom_tool_call")
    return [call(item.name, item.arguments ?? item.input)];
  if (item.type === "function_call_output" || item.type === "custom_tool_call_output") return [result(item.output)];
  return [];
}

/**
 * gemini's log: messages by id, a later record replacing an earlier one with its id; a
 * `$set.messages` record is the whole history again (0.61 rewrites it after a cancelled turn: the
 * earlier messages under new ids, consecutive user parts merged, the cancelled turn left out).
 */
function geminiRecords(records: Json[]): Json[] {
  let messages: Json[] = [];
  const at = new Map<string, number>();
  const put = (message: Json) => {
    if (typeof message?.id !== "string" || !message.type) return;
    const index = at.get(message.id);
    if (index === undefined) at.set(message.id, messages.push(message) - 1);
    else messages[index] = message;
  };
  for (const record of records) {
    if (!Array.isArray(record.$set?.messages)) {
      put(record);
      continue;
    }
    messages = [];
    at.clear();
    for (const message of record.$set.messages) put(message);
  }
  return messages;
}

function geminiMessages(record: Json): Message[] {
  if (record.type === "user") return partsMessages("user", record.content);
  if (record.type !== "gemini") return [];
  // Its text: a string as it answers, parts once its history is rewritten.
  const messages =
    typeof record.content === "string"
      ? record.content
        ? [{ role: "assistant" as const, text: record.content }]
        : []
      : partsMessages("assistant", record.content);
  for (const tool of record.toolCalls ?? []) messages.push(call(tool.name, tool.args));
  return messages;
}

function qwenMessages(record: Json): Message[] {
  if (record.type === "user" || record.type === "tool_result") return partsMessages("user", record.message?.parts);
  if (record.type === "assistant") return partsMessages("assistant", record.message?.parts);
  return [];
}

/** Gemini-API parts: text, functionCall, functionResponse. */
function partsMessages(role: "user" | "assistant", parts: unknown): Message[] {
  if (!Array.isArray(parts)) return [];
  return parts.flatMap((part: Json): Message[] => {
    if (typeof part.text === "string" && part.text && !part.thought && !isPreamble(part.text))
      return [{ role, text: part.text }];
    if (part.functionCall) return [call(part.functionCall.name, part.functionCall.args)];
    if (part.functionResponse)
      return [
        result(
          part.functionResponse.response?.output ??
            part.functionResponse.response?.error ??
            part.functionResponse.response,
        ),
      ];
    return [];
  });
}

/**
 * pi's log (0.73, version 3): a `session` record, then `message` records whose message is a user's, an assistant's
 * (text, toolCall and thinking parts) or a `toolResult`; model and thinking-level changes are its own.
 */
function piMessages(record: Json): Message[] {
  if (record.type !== "message") return [];
  const message = record.message ?? {};
  const texts = (content: unknown) =>
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content
            .map((part: Json) => (part?.type === "text" && typeof part.text === "string" ? part.text : ""))
            .join("")
        : "";
  if (message.role === "toolResult") return [result(texts(message.content))];
  if (message.role !== "user" && message.role !== "assistant") return [];
  const role = message.role as "user" | "assistant";
  if (typeof message.content === "string") return isPreamble(message.content) ? [] : [{ role, text: message.content }];
  if (!Array.isArray(message.content)) return [];
  return message.content.flatMap((part: Json): Message[] => {
    if (part.type === "text" && typeof part.text === "string" && part.text && !isPreamble(part.text))
      return [{ role, text: part.text }];
    if (part.type === "toolCall") return [call(part.name, part.arguments)];
    return [];
  });
}

/**
 * droid's log (0.225): `message` records in Anthropic's shape; the first, `context-…`, is its own preamble
 * (`<system-reminder>` parts); `session_start` and `agent_turn_outcome` are bookkeeping.
 */
function droidMessages(record: Json): Message[] {
  if (record.type !== "message" || String(record.id ?? "").startsWith("context-")) return [];
  const role = record.message?.role;
  return role === "user" || role === "assistant" ? anthropicParts(role, record.message.content) : [];
}

/**
 * copilot's events (1.0): user.message (`content` as typed; `transformedContent` its own with a datetime preamble),
 * assistant.message (text and `toolRequests`), tool.execution_complete; its system prompt, turns and usage its own.
 */
function copilotMessages(record: Json): Message[] {
  const data = record.data ?? {};
  if (record.type === "user.message")
    return typeof data.content === "string" && data.content ? [{ role: "user", text: data.content }] : [];
  if (record.type === "assistant.message") {
    const messages: Message[] =
      typeof data.content === "string" && data.content ? [{ role: "assistant", text: data.content }] : [];
    for (const tool of Array.isArray(data.toolRequests) ? data.toolRequests : [])
      messages.push(call(tool?.name, tool?.arguments));
    return messages;
  }
  if (record.type === "tool.execution_complete")
    return [result(data.result?.content ?? data.error?.message ?? data.error)];
  return [];
}
