// opencode's database is tainted (a sandboxed opencode keeps it writable), and within both caps
// (64 MiB each for the database and its -wal) a million tiny rows held the daemon's thread for
// 3.3 s (10 s under load; `t4a list` waited meanwhile) and took its RSS from 75 to 797 MB for one
// transcript (issue 56). The read runs on a worker thread, bounded in rows and in time.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTranscript } from "../../src/session/transcript.ts";

/** The parts read at most (opencode-log.ts MAX_PARTS). */
const MAX_PARTS = 50_000;
const ROWS = 1_000_000;

let dir: string;
let root: string;
let db: string;
let copies: string;
const tmpBefore = process.env.TMPDIR;
const place = { home: "", cwd: "/work/repo", conversationId: undefined, startedAt: 1000 };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "t4a-opencode-flood-"));
  root = join(dir, "home", ".local", "share", "opencode");
  mkdirSync(root, { recursive: true });
  db = join(root, "opencode.db");
  copies = join(dir, "tmp");
  mkdirSync(copies);
  process.env.TMPDIR = copies;
  // One conversation of one message with a million one-character parts, as opencode's tables.
  const sqlite = new Database(db);
  sqlite.run(
    "CREATE TABLE session (id TEXT, parent_id TEXT, directory TEXT, time_created INTEGER, time_updated INTEGER)",
  );
  sqlite.run("CREATE TABLE message (id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)");
  sqlite.run(
    "CREATE TABLE part (id TEXT, message_id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT)",
  );
  sqlite.run("INSERT INTO session VALUES ('s', NULL, '/work/repo', 2000, 2000)");
  sqlite.run(`INSERT INTO message VALUES ('m', 's', 2000, 2000, '{"role":"user"}')`);
  sqlite.run(
    `INSERT INTO part WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS}) SELECT printf('p%07d', i), 'm', 's', 2000, 2000, '{"type":"text","text":"x"}' FROM n`,
  );
  sqlite.close();
}, 60_000);
afterAll(() => {
  if (tmpBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpBefore;
  rmSync(dir, { recursive: true, force: true });
});

test("a million tiny rows in opencode's database: read off the daemon's thread (its timers run meanwhile), at most 50 000 parts, no copy left", async () => {
  const rssBefore = process.memoryUsage().rss;
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  let ticksWhenCalled = -1;
  const reading = Promise.resolve(readTranscript(db, root, "opencode", place)).finally(() => {
    ticksWhenCalled = ticks;
  });
  const messages = await reading;
  clearInterval(timer);
  console.log(
    `a million parts: ${messages.length} messages read; the thread ran its timer ${ticksWhenCalled} times meanwhile; RSS ${Math.round(rssBefore / 2 ** 20)} -> ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`,
  );
  // The daemon's own thread went on while the database was read (before: it was held throughout).
  expect(ticksWhenCalled).toBeGreaterThan(0);
  expect(messages.length).toBeGreaterThan(0);
  expect(messages.length).toBeLessThanOrEqual(MAX_PARTS);
  expect(messages.at(-1)).toEqual({ role: "user", text: "x" });
  expect(readdirSync(copies)).toEqual([]);
}, 60_000);
