// The daemon's life from the outside: auto-start races, hostile socket directories,
// stale sockets, clean shutdown, CLI exit codes.
import { afterEach, expect, test } from "bun:test";
import { chmodSync, chownSync, existsSync, mkdirSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { Sandbox, isAlive, sessionMembers, waitFor } from "./harness.ts";

const sandboxes: Sandbox[] = [];
function fresh(): Sandbox {
  const sandbox = new Sandbox();
  sandboxes.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

test("50 simultaneous first creates start exactly one daemon", async () => {
  const sandbox = fresh();
  const results = await Promise.all(
    Array.from({ length: 50 }, () => sandbox.run(["create", "--json", "--", "sleep", "30"])),
  );
  const failures = results.filter((result) => result.code !== 0);
  expect(failures).toEqual([]);
  const { reply } = await sandbox.request({ cmd: "list" });
  expect((reply.terminals as unknown[]).length).toBe(50);
  const started = (await Bun.file(join(dirname(sandbox.socket), "t4a.log")).text()).match(/listening on/g) ?? [];
  expect(started.length).toBe(1);
  expect(existsSync(`${sandbox.socket}.lock`)).toBe(false);
}, 60_000);

test("item 5: read-only commands never start a daemon; list says nothing, info says no daemon", async () => {
  const sandbox = fresh();
  expect(await sandbox.run(["list"])).toEqual({ code: 0, stdout: "", stderr: "" });
  expect(JSON.parse((await sandbox.run(["list", "--json"])).stdout)).toEqual({ ok: true, terminals: [] });
  expect(await sandbox.run(["info"])).toMatchObject({ code: 3, stderr: "t4a: no daemon\n" });
  for (const args of [["text", "t1"], ["send", "t1", "x"], ["kill", "t1"], ["config"], ["events"]]) {
    const result = await sandbox.run(args);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("no daemon answers");
  }
  expect(existsSync(sandbox.socket)).toBe(false);
  await sandbox.ok(["create", "--", "true"]); // creating something does start one
  expect(existsSync(sandbox.socket)).toBe(true);
});

test("item 6: shutdown returns only once the daemon has exited, so shutdown && create is safe", async () => {
  const sandbox = fresh();
  // A session that ignores SIGHUP keeps the old daemon busy for the whole kill grace period.
  await sandbox.ok(["create", "--", "bash", "-c", "trap '' HUP; sleep 1000"]);
  const first = await sandbox.daemonPid();
  await sandbox.ok(["shutdown"]);
  expect(isAlive(first)).toBe(false);
  expect(existsSync(sandbox.socket)).toBe(false);
  await sandbox.ok(["create", "--", "true"]);
  expect(await sandbox.daemonPid()).not.toBe(first);
});

test("a stale socket left by a killed daemon is recovered on the next call", async () => {
  const sandbox = fresh();
  const first = await sandbox.daemonPid();
  process.kill(first, "SIGKILL");
  await waitFor(() => !isAlive(first), 5000, "the daemon to die");
  expect(existsSync(sandbox.socket)).toBe(true);
  await sandbox.ok(["create", "--", "true"]);
  const second = await sandbox.daemonPid();
  expect(second).not.toBe(first);
});

test("SIGTERM ends every session's processes and removes the socket", async () => {
  const sandbox = fresh();
  const created = JSON.parse(await sandbox.ok(["create", "--json", "--", "bash", "-c", "trap '' HUP; sleep 1000"]));
  const daemon = await sandbox.daemonPid();
  await waitFor(() => sessionMembers(created.pid).length >= 1, 5000, "the session");
  process.kill(daemon, "SIGTERM");
  await waitFor(() => !isAlive(daemon), 10_000, "the daemon to exit");
  expect(sessionMembers(created.pid)).toEqual([]);
  expect(existsSync(sandbox.socket)).toBe(false);
});

test("the shutdown command stops the daemon; later calls start a new one", async () => {
  const sandbox = fresh();
  const first = await sandbox.daemonPid();
  await sandbox.ok(["shutdown"]);
  await waitFor(() => !isAlive(first), 10_000, "the daemon to exit");
  await sandbox.ok(["create", "--", "true"]);
  expect(await sandbox.daemonPid()).not.toBe(first);
});

test("hostile socket directories are refused with a clear message", async () => {
  const sandbox = fresh();
  const dir = dirname(sandbox.socket);

  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o777);
  let result = await sandbox.run(["list"]);
  expect(result.code).toBe(3);
  expect(result.stderr).toContain(`refusing socket directory ${dir}: its mode is 777`);

  // Another user's daemon listening there: the client connects while it checks the directory,
  // and must send it nothing (keys typed into `send` would reach it).
  let received = "";
  let connections = 0;
  const listener = Bun.listen({
    unix: sandbox.socket,
    socket: {
      open: () => void connections++,
      data(socket, bytes) {
        received += bytes.toString();
        socket.end(); // an answer-less end: the client exits instead of waiting
      },
    },
  });
  try {
    result = await sandbox.run(["send", "t1", "my secret"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("refusing socket directory");
    await Bun.sleep(100); // anything written before the refusal has arrived by now
    expect({ connections: connections <= 1, received }).toEqual({ connections: true, received: "" });
  } finally {
    listener.stop(true);
  }

  chmodSync(dir, 0o700);
  chownSync(dir, 65534, 65534);
  result = await sandbox.run(["list"]);
  expect(result.code).toBe(3);
  expect(result.stderr).toContain("is owned by uid 65534");

  const linked = join(sandbox.dir, "elsewhere");
  mkdirSync(linked, { mode: 0o700 });
  const viaLink = join(sandbox.dir, "link");
  symlinkSync(linked, viaLink);
  // Reading through a link to a private directory is safe; starting a daemon there is refused.
  expect((await sandbox.run(["--socket", join(viaLink, "t4a.sock"), "list"])).code).toBe(0);
  result = await sandbox.run(["--socket", join(viaLink, "t4a.sock"), "create"]);
  expect(result.code).toBe(3);
  expect(result.stderr).toContain("it is a symlink");

  // The foreground daemon refuses too.
  const daemon = await sandbox.run(["daemon"]);
  expect(daemon.code).not.toBe(0);
  expect(daemon.stderr).toContain("refusing socket directory");
  chownSync(dir, process.getuid!(), process.getgid!());
});

test("CLI exit codes: 0 ok, 1 refused, 2 usage, 3 unreachable", async () => {
  const sandbox = fresh();
  expect((await sandbox.run(["list"])).code).toBe(0);
  await sandbox.start();
  const refused = await sandbox.run(["text", "t404"]);
  expect(refused).toMatchObject({ code: 1, stderr: 't4a: terminal "t404" not found\n' });
  expect((await sandbox.run(["frobnicate"])).code).toBe(2);
  expect((await sandbox.run(["resize", "t1", "wide", "10"])).code).toBe(2);
  expect((await sandbox.run(["text", "t1", "a:b"])).code).toBe(2);
  const json = await sandbox.run(["text", "t404", "--json"]);
  expect(JSON.parse(json.stdout)).toEqual({ ok: false, error: 'terminal "t404" not found', code: "not_found" });
  await sandbox.ok(["shutdown"]);
  const unreachable = new Sandbox();
  sandboxes.push(unreachable);
  const result = await unreachable.run(["shutdown"]);
  expect(result.code).toBe(3);
  expect(result.stderr).toContain("no daemon answers");
});

test("--help lists every command and --version prints the version", async () => {
  const sandbox = fresh();
  const help = await sandbox.ok(["--help"]);
  for (const name of [
    "create",
    "list",
    "send",
    "text",
    "cursor",
    "resize",
    "events",
    "kill",
    "config",
    "info",
    "shutdown",
    "daemon",
  ]) {
    expect(help).toContain(`  ${name}`);
  }
  expect(await sandbox.ok(["--version"])).toMatch(/^t4a \d+\.\d+\.\d+/);
});
