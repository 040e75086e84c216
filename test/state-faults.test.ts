// State that must survive what a machine does to it: a /tmp cleaner deleting the socket and its
// pid file, a garbled pid file, a second daemon started beside a live one. Each test runs its own
// daemon in its own sandbox and state dir.
import { expect, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, isAlive, waitFor } from "./harness.ts";

/** A sandbox whose daemon keeps its state (manifest, lock) inside it. */
function own() {
  const box = new Sandbox();
  const env = { ...box.env, XDG_STATE_HOME: join(box.dir, "state") };
  const t4a = async (args: string[], extraEnv: Record<string, string> = {}) => {
    const child = Bun.spawn([BIN, ...args], { cwd: box.dir, env: { ...env, ...extraEnv }, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    return { code, stdout: stdout.trim(), stderr: stderr.trim() };
  };
  const ok = async (args: string[]) => {
    const result = await t4a(args);
    if (result.code !== 0) throw new Error(`t4a ${args.join(" ")}: ${result.code} ${result.stderr}`);
    return result.stdout;
  };
  return { box, env, t4a, ok };
}

test("a deleted socket and pid file (a /tmp cleaner), or a garbled pid file: no second daemon, the first one's sessions live on", async () => {
  const { box, t4a, ok } = own();
  try {
    await ok(["create", "--name", "keep", "--", "sleep", "1000"]);
    const daemon = Number(JSON.parse(await ok(["info", "--json"])).pid);
    const sleeper = JSON.parse(await ok(["list", "--json"])).terminals[0].pid as number;

    // What a /tmp cleaner does: the socket and its pid file are gone.
    rmSync(box.socket);
    rmSync(`${box.socket}.pid`, { force: true });
    const again = await t4a(["create", "--name", "after-cleaner", "--", "true"]);
    expect(isAlive(sleeper)).toBe(true);
    expect(isAlive(daemon)).toBe(true);
    expect(again.code).toBe(0); // the first daemon made its socket again and answered
    expect(Number(JSON.parse(await ok(["info", "--json"])).pid)).toBe(daemon);

    // A garbled pid file and no socket.
    rmSync(box.socket);
    writeFileSync(`${box.socket}.pid`, "garbage\n");
    expect((await t4a(["create", "--name", "after-garbage", "--", "true"])).code).toBe(0);
    expect(isAlive(sleeper)).toBe(true);
    expect(Number(JSON.parse(await ok(["info", "--json"])).pid)).toBe(daemon);

    // A daemon started by hand beside it refuses, naming the lock and the pid that holds it.
    rmSync(`${box.socket}.pid`, { force: true });
    rmSync(box.socket);
    const second = await t4a(["daemon"]);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(new RegExp(`a daemon \\(pid ${daemon}\\) holds ${join(box.dir, "state", "t4a")}/daemon-[0-9a-f]{8}\\.lock|already listening`));
    expect(isAlive(sleeper)).toBe(true);
    await waitFor(() => existsSync(box.socket), 10_000, "the first daemon's socket again");
    expect(JSON.parse(await ok(["list", "--json"])).terminals.map((t: { id: string }) => t.id)).toContain("keep");
  } finally {
    await box.cleanup();
  }
}, 60_000);

test("a lock held by a live daemon whose socket stays gone: the client says so, names the lock and the pid, exit 3", async () => {
  const { box, t4a, ok } = own();
  try {
    await ok(["create", "--name", "keep", "--", "sleep", "1000"]);
    const daemon = Number(JSON.parse(await ok(["info", "--json"])).pid);
    const sleeper = JSON.parse(await ok(["list", "--json"])).terminals[0].pid as number;
    // Stopped, it cannot make its socket again: the lock is all that says it is there.
    process.kill(daemon, "SIGSTOP");
    try {
      rmSync(box.socket);
      rmSync(`${box.socket}.pid`, { force: true });
      const refused = await t4a(["create", "--", "true"]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain(`a daemon (pid ${daemon}) holds`);
      expect(refused.stderr).toMatch(/daemon-[0-9a-f]{8}\.lock/);
      expect(isAlive(sleeper)).toBe(true);
    } finally {
      process.kill(daemon, "SIGCONT");
    }
    await waitFor(() => existsSync(box.socket), 10_000, "the daemon's socket again");
    expect(Number(JSON.parse(await ok(["info", "--json"])).pid)).toBe(daemon);
  } finally {
    await box.cleanup();
  }
}, 60_000);
