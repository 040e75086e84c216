// opencode's conversations: 1.18 keeps them in a SQLite database (~/.local/share/opencode/
// opencode.db, in WAL mode: the newest rows are in opencode.db-wal until a checkpoint). The
// database is tainted (a sandboxed opencode keeps it writable), and SQLite opens by path
// (following symlinks, blocking on a FIFO): both files are read through readTaintedBytes, whole
// and size-capped, into a private directory of t4a's, and only that copy is opened, with
// schema-defined functions untrusted, its tables checked to be plain tables (no view, virtual
// table or generated column: a planted schema could make each row cost seconds), read-only
// queries only, and no join that repeated ids can multiply. The daemon reads it on a worker thread
// (readOpencodeApart), at most READ_MS, and at most MAX_MESSAGES messages and MAX_PARTS parts.
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTaintedBytes, TaintedReadError } from "../spawn/tainted-files.ts";
import { call, result, type Message } from "./messages.ts";

/**
 * A conversation's newest messages read, and parts of them: a planted million tiny rows took 797 MB of the daemon's
 * RSS.
 */
export const MAX_MESSAGES = 10_000;
export const MAX_PARTS = 50_000;
/** One read's bound (on its worker thread): past it, the read is stopped and refused. */
export const READ_MS = 10_000;

/** The tables read; each must be a table (not a view a planted schema made). */
const TABLES = ["session", "message", "part"];

// biome-ignore lint/suspicious/noExplicitAny: another program's JSON, each field checked where it is read
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
export function readOpencode(
  path: string,
  root: string,
  maxBytes: number,
  place: OpencodePlace,
  /** A private directory made for the copy (removed after, by whoever made it too): a stopped worker cleans nothing. */
  copyDir?: string,
): Message[] | undefined {
  const copy = copyDir ?? mkdtempSync(join(tmpdir(), "t4a-opencode-"));
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
      sqlite.run("PRAGMA query_only = ON");
      if (!plainTables(sqlite)) return undefined;
      const session = sqlite
        .query(
          "SELECT id FROM session WHERE directory = ? AND parent_id IS " +
            "NULL AND time_created >= ? ORDER BY time_updated DESC LIMIT 1",
        )
        .get(place.cwd, place.resumed ? 0 : place.startedAt) as { id: string } | null;
      if (!session) return undefined;
      // Messages and parts read apart and matched here, each message id once: a join over ids the
      // planter repeated would answer every message times every part (2000 x 2000 = 4 000 000 rows).
      // The newest MAX_MESSAGES messages, and the newest MAX_PARTS parts of them, oldest first.
      const messages = (
        sqlite
          .query("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT ?")
          .all(session.id, MAX_MESSAGES) as Array<{ id: string; data: string }>
      ).reverse();
      const parts = new Map<string, string[]>();
      const partRows = (
        sqlite
          .query(
            "SELECT message_id, data FROM part WHERE message_id IN (SELECT id FROM message WHERE " +
              "session_id = ? ORDER BY time_created DESC, id DESC LIMIT ?) ORDER BY id DESC LIMIT ?",
          )
          .all(session.id, MAX_MESSAGES, MAX_PARTS) as Array<{ message_id: string; data: string }>
      ).reverse();
      for (const part of partRows) {
        const its = parts.get(part.message_id);
        if (its) its.push(part.data);
        else parts.set(part.message_id, [part.data]);
      }
      return messages.flatMap((message) => {
        const its = parts.get(message.id) ?? [];
        parts.delete(message.id);
        const parsed = parse(message.data);
        return [...its.flatMap((part) => partMessages(parsed, parse(part))), ...errorMessage(parsed)];
      });
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

/**
 * The tables read are plain tables of stored columns: not views, not virtual tables, no generated
 * column (whose expression, evaluated for each row read, a planter can make take seconds a row).
 */
function plainTables(sqlite: Database): boolean {
  const kinds = sqlite
    .query(`SELECT name, type, sql FROM sqlite_master WHERE name IN (${TABLES.map(() => "?").join(",")})`)
    .all(...TABLES) as Array<{ name: string; type: string; sql: string | null }>;
  if (
    kinds.length !== TABLES.length ||
    kinds.some((kind) => kind.type !== "table" || !/^\s*CREATE\s+TABLE\b/i.test(kind.sql ?? ""))
  )
    return false;
  return TABLES.every((table) =>
    (sqlite.query(`SELECT hidden FROM pragma_table_xinfo(?)`).all(table) as Array<{ hidden: number }>).every(
      (column) => column.hidden === 0,
    ),
  );
}

function parse(text: string): Json {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : {};
  } catch {
    return {};
  }
}

/**
 * The API's refusal that ended an agent's message (credit, quota, auth, rate limit, overload),
 * as opencode keeps it on the message: its answer, as the other CLIs' logs word theirs
 * (`API Error: 400 …`), for ask's error line. An interrupt (MessageAbortedError) is no error.
 */
function errorMessage(message: Json): Message[] {
  const error = message.role === "assistant" ? message.error : undefined;
  if (!error || typeof error !== "object" || error.name === "MessageAbortedError") return [];
  const data = error.data && typeof error.data === "object" ? error.data : {};
  const words = typeof data.message === "string" ? data.message : String(error.name ?? "error");
  const status = typeof data.statusCode === "number" ? `${data.statusCode} ` : "";
  return [{ role: "assistant", text: `API Error: ${status}${words}`.replace(/\s+/g, " ").slice(0, 2000) }];
}

/** One part of a message: its text (user's or agent's), or a tool's call and its result. */
function partMessages(message: Json, part: Json): Message[] {
  const role = message.role === "user" ? "user" : message.role === "assistant" ? "assistant" : undefined;
  if (!role) return [];
  if (part.type === "text" && typeof part.text === "string" && part.text && !part.synthetic)
    return [{ role, text: part.text }];
  if (part.type === "tool" && typeof part.tool === "string") {
    const state = part.state ?? {};
    const messages: Message[] = [call(part.tool, state.input)];
    if (state.status === "completed" || state.status === "error") messages.push(result(state.output ?? state.error));
    return messages;
  }
  return [];
}

/**
 * The worker's entry: beside this file in the source tree; in the compiled binary, at the root of
 * its embedded tree under the entry's own path (build.ts lists it), as the screen pool's worker.
 */
const WORKER_ENTRY = new URL(
  import.meta.url.startsWith("file:///$bunfs/") ? "./session/opencode-worker.ts" : "./opencode-worker.ts",
  import.meta.url,
);

/**
 * readOpencode on a worker thread of its own, stopped after `timeoutMs`: the daemon's thread
 * answers other calls meanwhile. A read stopped so is a TaintedReadError (the agent can shape the
 * database): `ask` answers from the screen, `transcript` says why.
 */
export function readOpencodeApart(
  path: string,
  root: string,
  maxBytes: number,
  place: OpencodePlace,
  timeoutMs = READ_MS,
): Promise<Message[] | undefined> {
  const copyDir = mkdtempSync(join(tmpdir(), "t4a-opencode-"));
  const worker = new Worker(WORKER_ENTRY);
  return new Promise<Message[] | undefined>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new TaintedReadError(path, "unreadable", `not read within ${timeoutMs / 1000} s; stopped`)),
      timeoutMs,
    );
    worker.onmessage = ({ data }) => {
      clearTimeout(timer);
      if (data.tainted) {
        const { path: at, reason, message } = data.tainted;
        const error = new TaintedReadError(at, reason, "");
        error.message = message;
        reject(error);
      } else if (data.failed !== undefined) resolve(undefined);
      else resolve(data.messages);
    };
    worker.onerror = (event) => {
      clearTimeout(timer);
      reject(new Error(`the opencode database reader failed: ${event.message}`));
    };
    // Only the fields it reads: a place may carry functions (LogPlace's openFiles), which a worker is not sent.
    const { cwd, startedAt, resumed } = place;
    worker.postMessage({ path, root, maxBytes, place: { cwd, startedAt, resumed }, copyDir });
  }).finally(async () => {
    await worker.terminate();
    rmSync(copyDir, { recursive: true, force: true });
  });
}
