// Torture, lifecycle side: the daemon SIGKILLed or SIGTERMed while sessions flood, clients wait and
// subscribers listen. What is left running, and the next call recovering the socket. (The plain
// stale-socket and one-session SIGTERM cases are in daemon.test.ts.)
import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { DaemonConnection, type Reply } from "../src/client/connection.ts";
import { Sandbox, isAlive, waitFor } from "./harness.ts";
import { RawClient, leftInSessions, type ProcessEntry } from "./torture-kit.ts";

const sandboxes: Sandbox[] = [];
const strays: number[] = [];
afterEach(async () => {
  for (const pid of strays.splice(0)) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.cleanup()));
});

/** Every kind of session a daemon may be holding when it dies. */
const PROGRAMS: Record<string, string[]> = {
  sleep: ["sleep", "1000"],
  "process tree": ["sh", "-c", "sleep 1001 & sleep 1002"],
  "interactive bash with a background job": ["bash", "--norc", "--noprofile", "-i"],
  "integrated bash": ["bash", "--norc", "--noprofile"],
  "yes flood": ["yes"],
  "urandom flood": ["cat", "/dev/urandom"],
  vim: ["vim", "-u", "NONE", "-N", "-n", "-i", "NONE"],
  python: ["python3", "-c", "import time; time.sleep(1000)"],
  "SIGHUP ignored": ["bash", "-c", "trap '' HUP; exec sleep 1003"],
};

/** A daemon holding one session of each kind, plus a subscriber and a client blocked in a wait. */
async function busyDaemon() {
  const sandbox = new Sandbox();
  sandboxes.push(sandbox);
  const daemon = await sandbox.daemonPid();
  const control = await DaemonConnection.open(sandbox.socket);
  const sessions: Record<string, { id: string; pid: number }> = {};
  for (const [name, argv] of Object.entries(PROGRAMS)) {
    const { reply } = await control.request({ cmd: "create", cmd_args: argv, cwd: sandbox.dir });
    expect({ name, ok: reply.ok }).toEqual({ name, ok: true });
    sessions[name] = { id: reply.id as string, pid: reply.pid as number };
  }
  const shell = sessions["interactive bash with a background job"]!;
  await waitFor(
    async () =>
      ((await control.request({ cmd: "text", id: shell.id })).reply.lines as string[]).some(
        (l) => l.includes("$") || l.includes("#"),
      ),
    10_000,
    "the interactive prompt",
  );
  await control.request({ cmd: "send", id: shell.id, input: "sleep 1004 &\n" });
  await waitFor(() => leftInSessions([shell.pid]).some((p) => p.comm === "sleep"), 10_000, "the background job");
  await waitFor(() => leftInSessions([sessions["process tree"]!.pid]).length >= 3, 10_000, "the process tree");

  const subscriber = await DaemonConnection.open(sandbox.socket);
  expect((await subscriber.request({ cmd: "events" })).reply.ok).toBe(true);
  const waiter = await DaemonConnection.open(sandbox.socket);
  const waiting = waiter.request({ cmd: "wait", id: sessions.sleep!.id, text: "never", timeout_ms: 600_000 }).then(
    (response) => response.reply,
    (error: Error) => ({ closed: error.message }) as Reply,
  );
  return { sandbox, daemon, control, sessions, subscriber, waiter, waiting };
}

/** Drains a connection until the daemon closes it; resolves true then (false if it stays open). */
async function closedWithin(connection: DaemonConnection, ms: number): Promise<boolean> {
  const drained = (async () => {
    while ((await connection.readLine()) !== undefined);
    return true;
  })();
  return Promise.race([drained, Bun.sleep(ms).then(() => false)]);
}

const describe = (processes: ProcessEntry[]) => processes.map((p) => `${p.pid} ${p.comm} (${p.state}, ppid ${p.ppid})`);

test("item 17: SIGKILL mid-flood: the PTY hangup ends every session but those ignoring SIGHUP; the next daemon ends those", async () => {
  const { sandbox, daemon, sessions, subscriber, waiter, waiting } = await busyDaemon();
  process.kill(daemon, "SIGKILL");
  await waitFor(() => !isAlive(daemon), 30_000, "the daemon to die");

  // Clients see the connection close instead of hanging.
  expect(await closedWithin(subscriber, 5000)).toBe(true);
  expect(await waiting).toEqual({ closed: "the daemon closed the connection" });
  waiter.close();

  // Closing the PTY master hangs up each terminal: the kernel sends SIGHUP to the session leader,
  // and its exit hangs up the foreground group; bash passes SIGHUP on to its jobs.
  const { "SIGHUP ignored": ignoring, ...ordinary } = sessions;
  const ordinarySids = Object.values(ordinary).map((s) => s.pid);
  await waitFor(() => leftInSessions(ordinarySids).length === 0, 10_000, "the hung-up sessions to end").catch(
    () => undefined,
  );
  expect(describe(leftInSessions(ordinarySids))).toEqual([]);
  // Nothing was left to send SIGKILL after a grace period: a program ignoring SIGHUP survives,
  // reparented to init...
  const survivors = leftInSessions([ignoring!.pid]);
  strays.push(...survivors.map((p) => p.pid));
  expect(survivors.length).toBeGreaterThan(0);

  // The stale socket is still there; a read-only call starts nothing and sees no terminals.
  expect(existsSync(sandbox.socket)).toBe(true);
  const listed = await sandbox.run(["list", "--json"]);
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout)).toMatchObject({ ok: true, terminals: [] });
  expect(describe(leftInSessions([ignoring!.pid]))).toEqual(describe(survivors));
  // ...until the next daemon starts (item 17): it finds the recorded session and ends what is left.
  await sandbox.ok(["create", "--", "true"]);
  expect(await sandbox.daemonPid()).not.toBe(daemon);
  // Dead, at most a zombie until init reaps it.
  expect(describe(leftInSessions([ignoring!.pid]).filter((p) => p.state !== "Z"))).toEqual([]);
  const log = await Bun.file(join(dirname(sandbox.socket), "t4a.log")).text();
  expect(log).toContain(`left of session ${ignoring!.id} by a previous daemon`);
}, 60_000);

test("SIGTERM mid-flood with clients attached: every process ends, clients are closed, the socket is removed", async () => {
  const { sandbox, daemon, control, sessions, subscriber, waiter, waiting } = await busyDaemon();
  await control.request({ cmd: "config", kill_grace_ms: 300 });
  // Screenshots in flight on their own connection when the signal lands. (Not the CLI: a CLI call
  // that finds no daemon answering would rightly start a new one.)
  const shooter = await RawClient.open(sandbox.socket);
  for (let i = 0; i < 5; i++) shooter.write(`{"cmd":"screenshot","id":"${sessions["yes flood"]!.id}","scale":400}\n`);
  await shooter.flushed();
  const started = performance.now();
  process.kill(daemon, "SIGTERM");
  process.kill(daemon, "SIGINT"); // a second signal during shutdown changes nothing
  await waitFor(() => !isAlive(daemon), 10_000, "the daemon to exit");
  const exitMs = performance.now() - started;

  expect(await closedWithin(subscriber, 5000)).toBe(true);
  // Shutdown closes every connection at once (listener.stop(true)), before ending the sessions.
  expect(await waiting).toEqual({ closed: "the daemon closed the connection" });
  waiter.close();
  control.close();
  await waitFor(() => shooter.closed, 5000, "the screenshot connection to close");
  const sids = Object.values(sessions).map((s) => s.pid);
  // The SIGKILL after the grace period reaches even the program that ignores SIGHUP.
  await waitFor(() => leftInSessions(sids).length === 0, 5000, "every session's processes to end").catch(
    () => undefined,
  );
  expect(describe(leftInSessions(sids))).toEqual([]);
  expect(existsSync(sandbox.socket)).toBe(false);
  console.log(
    `SIGTERM with ${sids.length} sessions (2 flooding), a subscriber, a wait and a screenshot in flight: daemon gone in ${exitMs.toFixed(0)} ms`,
  );
  expect(await sandbox.daemonPid()).not.toBe(daemon);
}, 60_000);

test("a daemon stopped (SIGSTOP) while clients send: every request is answered after SIGCONT", async () => {
  const sandbox = new Sandbox();
  sandboxes.push(sandbox);
  const daemon = await sandbox.daemonPid();
  const connection = await DaemonConnection.open(sandbox.socket);
  const { id } = (await connection.request({ cmd: "create", cmd_args: ["yes", "stopped"] })).reply as { id: string };
  process.kill(daemon, "SIGSTOP");
  try {
    const clients = Array.from({ length: 8 }, () => sandbox.run(["text", id]));
    await Bun.sleep(1000);
    process.kill(daemon, "SIGCONT");
    const results = await Promise.all(clients);
    expect(results.map((r) => [r.code, r.stdout.includes("stopped\nstopped\n")])).toEqual(results.map(() => [0, true]));
  } finally {
    process.kill(daemon, "SIGCONT");
  }
  expect(await sandbox.daemonPid()).toBe(daemon);
  await connection.request({ cmd: "kill", id });
  connection.close();
}, 60_000);
