// Sessions in process with real PTYs and a real git worktree: the order in which a session ends
// (its cleanups and manifest entry settled before its exit event goes out; its watch, recording and
// viewers let go after), ids and limits, and kill's report of what was kept.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import type { TerminalEvent } from "../protocol/events.ts";
import { SessionSpec } from "../protocol/session-spec.ts";
import { Manifest } from "../service/manifest.ts";
import { EventBus } from "../terminal/event-bus.ts";
import { defaultConfig } from "./config.ts";
import { Sessions } from "./sessions.ts";
import { ScreenPool } from "../terminal/screen-pool.ts";

const dir = mkdtempSync(join(tmpdir(), "t4a-sessions-"));
const repo = join(dir, "repo");
const git = (...args: string[]) =>
  Bun.spawnSync(["git", "-C", repo, ...args], {
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });
Bun.spawnSync(["git", "init", "-q", repo]);
writeFileSync(join(repo, "README"), "hello\n");
git("add", ".");
git("commit", "-qm", "first");

const bus = new EventBus();
const manifest = new Manifest(join(dir, "manifest.json"));
const config = { ...defaultConfig(), kill_grace_ms: 200, max_sessions: 3 };
const env = { ...(process.env as Record<string, string>), HOME: dir };
const sessions = new Sessions({
  bus,
  config,
  screens: new ScreenPool(),
  manifest,
  spawn: {
    t4aPath: "t4a",
    selfArgv: [process.execPath, "src/main.ts"],
    socketPath: join(dir, "run", "t4a.sock"),
    stateDir: join(dir, "state"),
    configDir: join(dir, "config", "t4a"),
    worktreesDir: join(dir, "worktrees"),
    conversationsFile: join(dir, "state", "conversations.json"),
    integrationDir: join(dir, "integration"),
    daemonEnv: env,
  },
});
afterAll(async () => {
  await sessions.killAll();
  rmSync(dir, { recursive: true, force: true });
});

function nextExit(id: string): Promise<{ event: TerminalEvent; worktreeThere: boolean; inManifest: boolean }> {
  const worktree = worktreeOf(id);
  return new Promise((resolve) => {
    const stop = bus.subscribe(id, (event) => {
      if (event.event !== "exit") return;
      stop();
      // Seen by a subscriber the moment the event goes out.
      resolve({
        event,
        worktreeThere: worktree !== "" && existsSync(worktree),
        inManifest: manifest.entries().some((entry) => entry.id === id),
      });
    });
  });
}
/** A spec as the wire would bring it, defaults filled in. */
const spec = (fields: Record<string, unknown>) => v.parse(SessionSpec, fields);
const worktreeOf = (id: string) => sessions.get(id).facts.worktree ?? "";

test("a session's end: cleanups and the manifest settle before the exit event; then the rest lets go", async () => {
  const session = await sessions.create(
    spec({
      name: "ending",
      cwd: repo,
      worktree: "ending",
      persist: true,
      timeout_ms: 60_000,
      cmd_args: ["sh", "-c", "read line; exit 3"],
      client_env: env,
    }),
  );
  expect(existsSync(worktreeOf("ending"))).toBe(true);
  expect(manifest.entries().map((entry) => entry.id)).toContain("ending");
  const exit = nextExit("ending");
  session.alive.write("go\r");
  const seen = await exit;
  expect(seen.event).toMatchObject({ event: "exit", code: 3 });
  expect(seen.worktreeThere).toBe(false); // a clean worktree is removed before the event
  expect(seen.inManifest).toBe(false); // ended for good: not brought back
  expect(session.info()).toMatchObject({ alive: false, exit_code: 3, persist: true });
  // Still listed (its last screen can be read) until killed; the kill then lets go of everything.
  expect(sessions.has("ending")).toBe(true);
  expect(await sessions.kill("ending")).toEqual({});
  expect(sessions.has("ending")).toBe(false);
});

test("kill reports a dirty worktree as kept, and its reason joins the exit event", async () => {
  const session = await sessions.create(
    spec({ name: "dirty", cwd: repo, worktree: "dirty", cmd_args: ["sleep", "60"], client_env: env }),
  );
  writeFileSync(join(worktreeOf("dirty"), "new.txt"), "work\n");
  const exit = nextExit("dirty");
  const report = await sessions.kill("dirty");
  expect(report.kept).toEqual([
    { what: "worktree", path: session.facts.worktree!, reason: "1 uncommitted or untracked file" },
  ]);
  expect((await exit).event).toMatchObject({ event: "exit", kept: report.kept });
});

test("a daemon shutdown keeps persisted sessions in the manifest to come back", async () => {
  await sessions.create(spec({ name: "kept", persist: true, cmd_args: ["sleep", "60"], cwd: dir, client_env: env }));
  await sessions.kill("kept", "shutdown");
  expect(manifest.entries().map((entry) => entry.id)).toContain("kept");
  manifest.remove("kept");
});

test("ids: t1, t2…, names taken once, the session limit refused at once", async () => {
  const made = [];
  for (let i = 0; i < 3; i++)
    made.push(await sessions.create(spec({ cmd_args: ["sleep", "60"], cwd: dir, client_env: env })));
  expect(made.map((session) => session.id)).toEqual(["t1", "t2", "t3"]);
  await expect(sessions.create(spec({ cmd_args: ["true"], cwd: dir }))).rejects.toThrow("session limit reached (3)");
  await sessions.kill("t2");
  await expect(sessions.create(spec({ name: "t1", cmd_args: ["true"], cwd: dir }))).rejects.toThrow(
    'terminal "t1" already exists',
  );
  for (const id of ["t1", "t3"]) await sessions.kill(id);
});
