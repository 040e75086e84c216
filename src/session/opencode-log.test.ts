// opencode's conversation from its SQLite database, and what a sandboxed opencode could plant in
// its place (it keeps ~/.local/share/opencode writable): a symlink to a database of the user's,
// a FIFO, a view in a table's place, a file over the cap. Each is refused or read as nothing,
// never followed, never blocked on; only t4a's private copy is ever opened.
import { Database } from "bun:sqlite";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TaintedReadError } from "../spawn/tainted-files.ts";
import { readOpencode } from "./opencode-log.ts";

let dir: string;
let root: string;
/** Where the reader's private copies go (TMPDIR for these tests): empty after each read. */
let copies: string;
const tmpBefore = process.env.TMPDIR;
let db: string;
const place = { cwd: "/work/repo", startedAt: 1000 };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "t4a-opencode-test-"));
  root = join(dir, "home", ".local", "share", "opencode");
  mkdirSync(root, { recursive: true });
  db = join(root, "opencode.db");
  copies = join(dir, "tmp");
  mkdirSync(copies);
  process.env.TMPDIR = copies;
});
afterEach(() => {
  if (tmpBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpBefore;
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A database shaped as opencode 1.18's (the columns read), in WAL mode as it keeps it, left open so the newest rows
 * stay in the -wal.
 */
function write(
  path: string,
  sessions: Array<{ id: string; directory: string; created: number; parent?: string }>,
  rows: Array<[string, string, number, object, object[]]>,
): Database {
  const sqlite = new Database(path);
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run(
    "CREATE TABLE session (id TEXT PRIMARY KEY, parent_id TEXT, " +
      "directory TEXT, time_created INTEGER, time_updated INTEGER)",
  );
  sqlite.run(
    "CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, " +
      "time_created INTEGER, time_updated INTEGER, data TEXT)",
  );
  sqlite.run(
    "CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id " +
      "TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)",
  );
  for (const s of sessions)
    sqlite.run("INSERT INTO session VALUES (?, ?, ?, ?, ?)", [
      s.id,
      s.parent ?? null,
      s.directory,
      s.created,
      s.created,
    ]);
  for (const [id, session, at, message, parts] of rows) {
    sqlite.run("INSERT INTO message VALUES (?, ?, ?, ?, ?)", [id, session, at, at, JSON.stringify(message)]);
    parts.forEach((part, i) =>
      sqlite.run("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)", [
        `${id}-p${i}`,
        id,
        session,
        at,
        at,
        JSON.stringify(part),
      ]),
    );
  }
  return sqlite;
}

test(
  "this directory's conversation begun since the session started: user " +
    "and agent text, a tool's call and result, in order (from the -wal too)",
  () => {
    const open = write(
      db,
      [
        { id: "ses_old", directory: "/work/repo", created: 500 },
        { id: "ses_other", directory: "/elsewhere", created: 2000 },
        { id: "ses_new", directory: "/work/repo", created: 1500 },
        { id: "ses_sub", directory: "/work/repo", created: 1600, parent: "ses_new" },
      ],
      [
        ["msg_1", "ses_old", 600, { role: "user" }, [{ type: "text", text: "an earlier session's" }]],
        ["msg_2", "ses_new", 1500, { role: "user" }, [{ type: "text", text: "write it" }]],
        [
          "msg_3",
          "ses_new",
          1600,
          { role: "assistant" },
          [
            { type: "step-start" },
            { type: "text", text: "Writing." },
            {
              type: "tool",
              tool: "write",
              state: { status: "completed", input: { filePath: "/work/repo/a" }, output: "Wrote file" },
            },
            { type: "step-finish" },
          ],
        ],
        [
          "msg_4",
          "ses_new",
          1700,
          { role: "assistant" },
          [
            { type: "reasoning", text: "hidden" },
            { type: "text", text: "Done." },
          ],
        ],
        ["msg_5", "ses_sub", 1650, { role: "user" }, [{ type: "text", text: "a subagent's" }]],
      ],
    );
    try {
      expect(readdirSync(root)).toContain("opencode.db-wal");
      expect(readOpencode(db, root, 1 << 20, place)).toEqual([
        { role: "user", text: "write it" },
        { role: "assistant", text: "Writing." },
        { role: "tool_call", text: 'write {"filePath":"/work/repo/a"}' },
        { role: "tool_result", text: "Wrote file" },
        { role: "assistant", text: "Done." },
      ]);
      // Resumed (--continue): its directory's newest, begun before the session.
      expect(readOpencode(db, root, 1 << 20, { ...place, startedAt: 1_000_000, resumed: true })?.[0]).toEqual({
        role: "user",
        text: "write it",
      });
      expect(readOpencode(db, root, 1 << 20, { ...place, startedAt: 1_000_000 })).toBeUndefined();
    } finally {
      open.close();
    }
  },
);

test(
  "attacks: a symlink to the user's database is not followed, a FIFO not blocked on, " +
    "a view in a table's place not read, an oversized file refused; no copy is left",
  () => {
    const secret = join(dir, "secret.db");
    write(
      secret,
      [{ id: "s", directory: "/work/repo", created: 2000 }],
      [["m", "s", 2000, { role: "user" }, [{ type: "text", text: "the user's secret" }]]],
    ).close();
    symlinkSync(secret, db);
    expect(() => readOpencode(db, root, 1 << 20, place)).toThrow("is a symbolic link; not followed");
    rmSync(db);
    Bun.spawnSync(["mkfifo", db]);
    expect(() => readOpencode(db, root, 1 << 20, place)).toThrow(TaintedReadError);
    rmSync(db);
    // The database fine, its -wal a FIFO: refused too, at once.
    write(db, [], []).close();
    Bun.spawnSync(["mkfifo", `${db}-wal`]);
    expect(() => readOpencode(db, root, 1 << 20, place)).toThrow("is not a regular file");
    rmSync(`${db}-wal`);
    rmSync(db);
    // `message` made a view over another table: not opencode's database, nothing read.
    const planted = new Database(db);
    planted.run(
      "CREATE TABLE session (id TEXT, parent_id TEXT, directory TEXT, time_created INTEGER, time_updated INTEGER)",
    );
    planted.run(
      "CREATE TABLE part (id TEXT, message_id TEXT, session_id " +
        "TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)",
    );
    planted.run("CREATE TABLE stash (id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)");
    planted.run("CREATE VIEW message AS SELECT * FROM stash");
    planted.run("INSERT INTO session VALUES ('s', NULL, '/work/repo', 2000, 2000)");
    planted.close();
    expect(readOpencode(db, root, 1 << 20, place)).toBeUndefined();
    // Not a database at all, or over the cap.
    Bun.write(db, "not sqlite at all".repeat(100));
    expect(readOpencode(db, root, 1 << 20, place)).toBeUndefined();
    expect(() => readOpencode(db, root, 100, place)).toThrow("more than the 100 read");
    expect(readdirSync(copies)).toEqual([]);
  },
);

test("attacks that would hold the daemon: a generated column that computes for seconds a row, or a virtual " +
  "table, is no table of opencode's; ids repeated so the join multiplies rows answer each part once", () => {
  // `directory` computed per row (20 MB of hex each): only plain tables are read.
  const planted = new Database(db);
  planted.run(
    "CREATE TABLE session (id TEXT, x TEXT, directory TEXT GENERATED ALWAYS " +
      "AS (CASE WHEN length(hex(zeroblob(20000000 + length(x)))) > 0 THEN x " +
      "END) VIRTUAL, parent_id TEXT, time_created INTEGER, time_updated INTEGER)",
  );
  planted.run("CREATE TABLE message (id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)");
  planted.run(
    "CREATE TABLE part (id TEXT, message_id TEXT, session_id " +
      "TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)",
  );
  for (let i = 0; i < 50; i++)
    planted.run(
      "INSERT INTO session (id, x, parent_id, time_created, time_updated) VALUES (?, '/work/repo', NULL, 2000, 2000)",
      [`s${i}`],
    );
  planted.run(`INSERT INTO message VALUES ('m', 's0', 2000, 2000, '{"role":"user"}')`);
  planted.run(`INSERT INTO part VALUES ('p', 'm', 's0', 2000, 2000, '{"type":"text","text":"planted"}')`);
  planted.close();
  expect(readOpencode(db, root, 1 << 20, place)).toBeUndefined();
  rmSync(db);
  const virtual = new Database(db);
  virtual.run("CREATE VIRTUAL TABLE session USING fts5(id, parent_id, directory, time_created, time_updated)");
  virtual.run("CREATE TABLE message (id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)");
  virtual.run(
    "CREATE TABLE part (id TEXT, message_id TEXT, session_id " +
      "TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)",
  );
  virtual.run("INSERT INTO session VALUES ('s', NULL, '/work/repo', 2000, 2000)");
  virtual.run(`INSERT INTO message VALUES ('m', 's', 2000, 2000, '{"role":"user"}')`);
  virtual.run(`INSERT INTO part VALUES ('p', 'm', 's', 2000, 2000, '{"type":"text","text":"planted"}')`);
  virtual.close();
  expect(readOpencode(db, root, 1 << 20, place)).toBeUndefined();
  rmSync(db);
  // 2000 messages and 2000 parts under one id: a join would answer 4 000 000 rows; each part comes once.
  const repeated = new Database(db);
  repeated.run(
    "CREATE TABLE session (id TEXT, parent_id TEXT, directory TEXT, time_created INTEGER, time_updated INTEGER)",
  );
  repeated.run(
    "CREATE TABLE message (id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)",
  );
  repeated.run(
    "CREATE TABLE part (id TEXT, message_id TEXT, session_id " +
      "TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)",
  );
  repeated.run("INSERT INTO session VALUES ('s', NULL, '/work/repo', 2000, 2000)");
  repeated.run("BEGIN");
  for (let i = 0; i < 2000; i++) {
    repeated.run(`INSERT INTO message VALUES ('m', 's', 2000, 2000, '{"role":"user"}')`);
    repeated.run(`INSERT INTO part VALUES (?, 'm', 's', 2000, 2000, '{"type":"text","text":"again"}')`, [
      `p${String(i).padStart(4, "0")}`,
    ]);
  }
  repeated.run("COMMIT");
  repeated.close();
  expect(readOpencode(db, root, 1 << 20, place)?.length).toBe(2000);
  expect(readdirSync(copies)).toEqual([]);
}, 120_000);
