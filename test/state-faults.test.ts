// State that must survive what a machine does to it: a /tmp cleaner deleting the socket and its
// pid file, a garbled pid file, a second daemon started beside a live one. Each test runs its own
// daemon in its own sandbox and state dir.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BIN, Sandbox, isAlive, waitFor } from "./harness.ts";

/** A sandbox whose daemon keeps its state (manifest, lock) inside it. */
function own() {
  const box = new Sandbox();
  const env = { ...box.env, XDG_STATE_HOME: join(box.dir, "state") };
  const t4a = async (args: string[], extraEnv: Record<string, string> = {}) => {
    const child = Bun.spawn([BIN, ...args], {
      cwd: box.dir,
      env: { ...env, ...extraEnv },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { code, stdout: stdout.trim(), stderr: stderr.trim() };
  };
  const ok = async (args: string[]) => {
    const result = await t4a(args);
    if (result.code !== 0) throw new Error(`t4a ${args.join(" ")}: ${result.code} ${result.stderr}`);
    return result.stdout;
  };
  /** The sandbox's daemons, even one a failed test left without its socket: none outlives the test. */
  const done = async () => {
    const pids = daemonsOf(box.socket);
    await box.cleanup().catch(() => {});
    for (const pid of pids) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  };
  return { box, env, t4a, ok, done };
}

/** The live `t4a daemon` processes whose T4A_SOCKET is this one. */
function daemonsOf(socket: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "latin1").split("\0");
      if (
        environ.includes(`T4A_SOCKET=${socket}`) &&
        readFileSync(`/proc/${entry}/cmdline`, "latin1").includes("\0daemon")
      )
        found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

test("a deleted socket and pid file (a /tmp cleaner), or a garbled pid file: no second daemon, the first one's sessions live on", async () => {
  const { box, t4a, ok, done } = own();
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
    expect(second.stderr).toMatch(
      new RegExp(
        `a daemon \\(pid ${daemon}\\) holds ${join(box.dir, "state", "t4a")}/daemon-[0-9a-f]{8}\\.lock|already listening`,
      ),
    );
    expect(isAlive(sleeper)).toBe(true);
    await waitFor(() => existsSync(box.socket), 10_000, "the first daemon's socket again");
    expect(JSON.parse(await ok(["list", "--json"])).terminals.map((t: { id: string }) => t.id)).toContain("keep");
  } finally {
    await done();
  }
}, 60_000);

test("a lock held by a live daemon whose socket stays gone: the client says so, names the lock and the pid, exit 3", async () => {
  const { box, t4a, ok, done } = own();
  try {
    await ok(["create", "--name", "keep", "--", "sleep", "1000"]);
    const daemon = Number(JSON.parse(await ok(["info", "--json"])).pid);
    const sleeper = JSON.parse(await ok(["list", "--json"])).terminals[0].pid as number;
    // Stopped, it cannot make its socket again: the lock is all that says it is there.
    process.kill(daemon, "SIGSTOP");
    try {
      rmSync(box.socket);
      rmSync(`${box.socket}.pid`, { force: true });
      // A read-only call says so too, never "no daemon" and an empty list.
      const listed = await t4a(["list"]);
      expect(listed.code).toBe(3);
      expect(listed.stderr).toContain(`a daemon (pid ${daemon}) holds`);
      expect(listed.stderr).toContain(`its socket ${box.socket} is gone`);
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
    // A clean stop takes its lock file along (the kernel released the lock itself).
    await ok(["shutdown"]);
    expect(readdirSync(join(box.dir, "state", "t4a")).filter((name) => name.endsWith(".lock"))).toEqual([]);
  } finally {
    await done();
  }
}, 60_000);

/** The daemon SIGKILLed (a crash): the next call starts one that restores from the manifest. */
async function crash(ok: (args: string[]) => Promise<string>) {
  const daemon = Number(JSON.parse(await ok(["info", "--json"])).pid);
  process.kill(daemon, "SIGKILL");
  await waitFor(() => !isAlive(daemon), 30_000, "the daemon to die");
}

const manifestOf = (box: Sandbox) => {
  const dir = join(box.dir, "state", "t4a");
  return join(dir, readdirSync(dir).find((name) => /^sessions-[0-9a-f]{8}\.json$/.test(name))!);
};
const corruptCopies = (box: Sandbox) =>
  readdirSync(join(box.dir, "state", "t4a")).filter((name) => name.includes(".json.corrupt-"));

test("a corrupt manifest: the readable entries come back, the others are named (log, list, info), a copy is kept, nothing is silently dropped", async () => {
  const { box, t4a, ok, done } = own();
  try {
    await ok(["create", "--persist", "--name", "a", "--", "sleep", "1001"]);
    await ok(["create", "--persist", "--name", "b", "--", "sleep", "1002"]);
    const file = manifestOf(box);
    await crash(ok);
    // One entry with a null spec must not block the others.
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    manifest.sessions.find((entry: { id: string }) => entry.id === "a").spec = null;
    writeFileSync(file, JSON.stringify(manifest));
    const listed = JSON.parse(await ok(["list", "--json"]));
    expect(listed.terminals.map((t: { id: string }) => t.id)).toEqual(["b"]);
    expect(listed.warnings.join("\n")).toContain(`session "a" of the manifest cannot be restored: its spec is null`);
    expect(listed.warnings.join("\n")).toContain(file);
    const plain = await t4a(["list"]);
    expect(plain.stderr).toContain(`warning: session "a" of the manifest cannot be restored`);
    expect((await t4a(["info"])).stderr).toContain(`session "a"`);
    expect(readFileSync(join(box.dir, "run", "t4a.log"), "utf8")).toContain(
      `session "a" of the manifest cannot be restored`,
    );
    expect(corruptCopies(box)).toHaveLength(1);
    expect(
      JSON.parse(readFileSync(join(box.dir, "state", "t4a", corruptCopies(box)[0]!), "utf8")).sessions[0].spec,
    ).toBeNull();

    // Truncated, or null: nothing readable, but said so and kept before any write replaces it.
    for (const broken of [readFileSync(file, "utf8").slice(0, 40), "null", '{"sessions": {"id": 3}}']) {
      await crash(ok);
      writeFileSync(file, broken);
      const before = corruptCopies(box).length;
      const again = JSON.parse(
        await ok(["create", "--persist", "--name", `c${before}`, "--", "sleep", "1003"]).then(() =>
          ok(["list", "--json"]),
        ),
      );
      expect(again.warnings.join("\n")).toContain(`${file} is unreadable`);
      expect(corruptCopies(box).length).toBe(before + 1);
      const kept = corruptCopies(box).map((name) => readFileSync(join(box.dir, "state", "t4a", name), "utf8"));
      expect(kept).toContain(broken);
    }
  } finally {
    await done();
  }
}, 90_000);

test("a failed restore keeps the session: list says restore_failed and why, the next start and `restore` try again, only kill forgets it", async () => {
  const { box, t4a, ok, done } = own();
  try {
    const casts = join(box.dir, "casts");
    mkdirSync(casts);
    await ok(["create", "--persist", "--name", "rec", "--record", join(casts, "rec.cast"), "--", "sleep", "1004"]);
    const file = manifestOf(box);
    await crash(ok);
    renameSync(casts, `${casts}-away`); // the cast's directory moved away
    const listed = JSON.parse(await ok(["list", "--json"]));
    expect(listed.terminals).toEqual([]);
    expect(listed.restore_failed).toHaveLength(1);
    expect(listed.restore_failed[0].id).toBe("rec");
    expect(listed.restore_failed[0].error).toContain(casts);
    expect(await ok(["list"])).toMatch(/^rec\t.*restore_failed\t/);
    expect(readFileSync(file, "utf8")).toContain('"rec"');
    // Its name stays its own while it waits.
    expect((await t4a(["create", "--name", "rec", "--", "true"])).stderr).toContain("waiting to be restored");
    // The next start tries again (and fails again: still kept).
    await crash(ok);
    expect(JSON.parse(await ok(["list", "--json"])).restore_failed[0].id).toBe("rec");
    // Back in place: `restore` brings it back.
    renameSync(`${casts}-away`, casts);
    await ok(["restore", "rec"]);
    const back = JSON.parse(await ok(["list", "--json"]));
    expect(back.terminals.map((t: { id: string }) => t.id)).toEqual(["rec"]);
    expect(back.restore_failed).toBeUndefined();
    // Failed once more, kill forgets it for good.
    await crash(ok);
    renameSync(casts, `${casts}-away`);
    expect(JSON.parse(await ok(["list", "--json"])).restore_failed[0].id).toBe("rec");
    await ok(["kill", "rec"]);
    expect(existsSync(file)).toBe(false);
    expect(JSON.parse(await ok(["list", "--json"])).restore_failed).toBeUndefined();
  } finally {
    await done();
  }
}, 90_000);

const isRoot = process.getuid?.() === 0;
if (!isRoot) console.error("state-faults: the full-disk test needs root to mount a 64 KiB tmpfs; skipped");

test.if(isRoot)(
  "a full state disk: web and trust name the file and ENOSPC (no internal error, no empty token file); a logins file of null is named and kept, and web still works",
  async () => {
    const { box, t4a, ok, done } = own();
    const state = join(box.dir, "state");
    mkdirSync(state);
    expect(Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", state]).exitCode).toBe(0);
    try {
      const repo = join(box.dir, "repo");
      mkdirSync(join(repo, ".t4a"), { recursive: true });
      writeFileSync(join(repo, ".t4a", "setup"), "echo set up\n");
      expect(Bun.spawnSync(["git", "init", "-q", repo]).exitCode).toBe(0);
      await ok(["create", "--name", "s", "--", "sleep", "1005"]); // the daemon, its lock on the small disk
      Bun.spawnSync(["sh", "-c", `head -c 1000000 /dev/zero > ${join(state, "filler")}`]);

      const web = await t4a(["web", "--listen", "127.0.0.1:0"]);
      expect(web.code).not.toBe(0);
      expect(web.stderr).toContain(`cannot write ${join(state, "t4a", "web", "token")}: ENOSPC`);
      expect(existsSync(join(state, "t4a", "web", "token"))).toBe(false);
      const trust = await t4a(["trust", repo]);
      expect(trust.code).not.toBe(0);
      expect(trust.stderr).toContain(`cannot write ${join(state, "t4a", "trusted-setup.json")}: ENOSPC`);
      expect(trust.stderr).not.toContain("internal error");

      // Room again; a logins file that is null.
      rmSync(join(state, "filler"));
      mkdirSync(join(state, "t4a", "web"), { recursive: true });
      writeFileSync(join(state, "t4a", "web", "logins.json"), "null");
      const served = await t4a(["web", "--listen", "127.0.0.1:0"]);
      expect(served.stderr).not.toContain("Object.values");
      expect(served.code).toBe(0);
      expect(readFileSync(join(box.dir, "run", "t4a.log"), "utf8")).toContain(
        `${join(state, "t4a", "web", "logins.json")} is unreadable (the logins file is null, not an object)`,
      );
      expect(readdirSync(join(state, "t4a", "web")).some((name) => name.startsWith("logins.json.corrupt-"))).toBe(true);
      await ok(["web", "--stop"]);
    } finally {
      await done();
      Bun.spawnSync(["umount", "-l", state]);
      rmSync(box.dir, { recursive: true, force: true });
    }
  },
  60_000,
);

test("-e K=V survives a restart: the values are kept 0600 beside the manifest (which holds only the names), and the restored session has them", async () => {
  const { box, ok, done } = own();
  try {
    const secret = `value-${process.pid}-${Date.now()}`;
    await ok([
      "create",
      "--persist",
      "--name",
      "envy",
      "-e",
      `FAKE_SCENARIO=${secret}`,
      "--",
      "bash",
      "--norc",
      "--noprofile",
    ]);
    expect(await ok(["run", "envy", "echo got-$FAKE_SCENARIO"])).toContain(`got-${secret}`);
    const file = manifestOf(box);
    const values = file.replace(/\.json$/, ".env.json");
    expect(readFileSync(file, "utf8")).not.toContain(secret);
    expect(readFileSync(values, "utf8")).toContain(secret);
    expect(statSync(values).mode & 0o777).toBe(0o600);
    await crash(ok);
    expect(JSON.parse(await ok(["list", "--json"])).terminals.map((t: { id: string }) => t.id)).toEqual(["envy"]);
    expect(await ok(["run", "envy", "echo got-$FAKE_SCENARIO"])).toContain(`got-${secret}`);
    await ok(["kill", "envy"]);
    expect(existsSync(values)).toBe(false);
  } finally {
    await done();
  }
}, 60_000);

test("a daemon that is there but cannot take a connection (its queue full): list and info exit 3 saying so, never 'no daemon' or an empty list", async () => {
  const { box, t4a, ok, done } = own();
  await ok(["create", "--name", "s", "--", "sleep", "1006"]);
  const daemon = Number(JSON.parse(await ok(["info", "--json"])).pid);
  // Stopped, it accepts nothing: connections queue until the kernel's backlog is full.
  process.kill(daemon, "SIGSTOP");
  const filler = Bun.spawn(
    [
      "python3",
      "-c",
      `
import socket, sys, time
held = []
while True:
    s = socket.socket(socket.AF_UNIX)
    s.setblocking(False)
    try:
        s.connect(sys.argv[1])
    except (BlockingIOError, ConnectionRefusedError):
        break
    held.append(s)
print("full", len(held), flush=True)
time.sleep(120)
`,
      box.socket,
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  try {
    const reader = filler.stdout.getReader();
    let first = "";
    while (!first.includes("\n")) first += new TextDecoder().decode((await reader.read()).value);
    expect(first).toMatch(/^full \d+\n/);
    const list = await t4a(["list"]);
    expect(list.code).toBe(3);
    expect(list.stderr).toContain(`daemon ${daemon} runs on ${box.socket} but does not take connections`);
    const info = await t4a(["info"]);
    expect(info.code).toBe(3);
    expect(info.stderr).not.toContain("no daemon");
    expect(info.stderr).toContain(`daemon ${daemon}`);
  } finally {
    filler.kill();
    await filler.exited;
    process.kill(daemon, "SIGCONT");
    await done();
  }
}, 60_000);

test.if(isRoot)(
  "a full socket directory: a create either succeeds or leaves nothing running, and says which directory is full",
  async () => {
    const { box, t4a, ok, done } = own();
    const run = dirname(box.socket);
    mkdirSync(run, { recursive: true, mode: 0o700 });
    expect(Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", run]).exitCode).toBe(0);
    try {
      await ok(["create", "--name", "first", "--", "sleep", "1006"]); // the daemon, its socket and log on the small disk
      Bun.spawnSync(["sh", "-c", `head -c 1000000 /dev/zero > ${join(run, "filler")}`]);
      for (const name of ["a", "b", "c"]) {
        const made = await t4a(["create", "--name", name, "--", "sleep", "1007"]);
        const listed = JSON.parse(await ok(["list", "--json"])).terminals.map((t: { id: string }) => t.id);
        if (made.code === 0) {
          expect(listed).toContain(name);
        } else {
          expect(made.stderr).toContain(`cannot write ${run}`);
          expect(made.stderr).toContain("ENOSPC");
          expect(made.stderr).not.toContain("internal error");
          expect(listed).not.toContain(name);
          expect(Bun.spawnSync(["pgrep", "-f", "sleep 1007"]).stdout.toString().trim()).toBe("");
        }
      }
    } finally {
      Bun.spawnSync(["pkill", "-f", "sleep 1007"]);
      await done();
      Bun.spawnSync(["umount", "-l", run]);
      rmSync(box.dir, { recursive: true, force: true });
    }
  },
  60_000,
);
