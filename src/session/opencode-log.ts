// opencode's conversations: 1.18 keeps them in a SQLite database (~/.local/share/opencode/
// opencode.db, in WAL mode: the newest rows are in opencode.db-wal until a checkpoint). The
// database is tainted (a sandboxed opencode keeps it writable), and SQLite opens by path
// (following symlinks, blocking on a FIFO): both files are read through readTaintedBytes, whole
// and size-capped, into a private directory of t4a's, and only that copy is opened, with
// schema-defined functions untrusted, its tables checked to be tables, read-only queries only.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTaintedBytes, TaintedReadError } from "../spawn/tainted-files.ts";
import { call, result, type Message } from "./messages.ts";

/** The tables read; each must be a table (not a view a planted schema made). */
const TABLES = ["session", "message", "part"];

type Json = Record<string, any>;

export interface OpencodePlace {
  cwd: string;
  startedAt: number;
  /** It resumed its directory's latest conversation (`--continue`), begun before it started. */
  resumed?: boolean;
}

/**
 * The messages of this session's conversation in the database at `path` (under `root`): its
 * directory's newest top-level conversation begun since the session started (any, resumed);
 * undefined when there is none (yet). Throws TaintedReadError for anything but regular files.
 */
export function readOpencode(path: string, root: string, maxBytes: number, place: OpencodePlace): Message[] | undefined {
  const copy = mkdtempSync(join(tmpdir(), "t4a-opencode-"));
  try {
    const db = readTaintedBytes(path, { root, maxBytes });
    let wal: Uint8Array | undefined;
    try {
      wal = readTaintedBytes(`${path}-wal`, { root, maxBytes });
    } catch (error) {
      if (!(error instanceof TaintedReadError && error.reason === "missing")) throw error;
    }
    writeFileSync(join(copy, "db"), db, { mode: 0o600 });
    if (wal) writeFileSync(join(copy, "db-wal"), wal, { mode: 0o600 });
    const sqlite = new Database(join(copy, "db"));
    try {
      sqlite.run("PRAGMA trusted_schema = OFF");
      const kinds = sqlite.query(`SELECT name, type FROM sqlite_master WHERE name IN (${TABLES.map(() => "?").join(",")})`).all(...TABLES) as Array<{ name: string; type: string }>;
      if (kinds.length !== TABLES.length || kinds.some((kind) => kind.type !== "table")) return undefined;
      const session = sqlite
        .query("SELECT id FROM session WHERE directory = ? AND parent_id IS NULL AND time_created >= ? ORDER BY time_updated DESC LIMIT 1")
        .get(place.cwd, place.resumed ? 0 : place.startedAt) as { id: string } | null;
      if (!session) return undefined;
      const rows = sqlite
        .query("SELECT m.data AS message, p.data AS part FROM message m JOIN part p ON p.message_id = m.id WHERE m.session_id = ? ORDER BY m.time_created, m.id, p.id")
        .all(session.id) as Array<{ message: string; part: string }>;
      return rows.flatMap((row) => partMessages(parse(row.message), parse(row.part)));
    } finally {
      sqlite.close();
    }
  } catch (error) {
    if (error instanceof TaintedReadError) throw error;
    // Not a database opencode wrote (a planted or half-written one): no conversation read.
    return undefined;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

function parse(text: string): Json {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

/** One part of a message: its text (user's or agent's), or a tool's call and its result. */
function partMessages(message: Json, part: Json): Message[] {
  const role = message.role === "user" ? "user" : message.role === "assistant" ? "assistant" : undefined;
  if (!role) return [];
  if (part.type === "text" && typeof part.text === "string" && part.text && !part.synthetic) return [{ role, text: part.text }];
  if (part.type === "tool" && typeof part.tool === "string") {
    const state = part.state ?? {};
    const messages: Message[] = [call(part.tool, state.input)];
    if (state.status === "completed" || state.status === "error") messages.push(result(state.output ?? state.error));
    return messages;
  }
  return [];
}
