// Torture, session side: hundreds of create/kill cycles with fds, threads, zombies and orphans
// back at baseline; floods in several sessions while another answers; a slow event subscriber.
// Long versions: T4A_SOAK=1. Figures are printed; bounds asserted here are liveness, not speed.
// Serial phase: counts the daemon's fds and threads back at baseline and bounds the p95 of answers
// and RSS during floods in several sessions; other files' load would be in those figures.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { DaemonConnection, type Reply } from "../src/client/connection.ts";
import { Sandbox, fdCount, rssBytes, waitFor } from "./harness.ts";
import {
  SOAK,
  distribution,
  leftInSessions,
  logProblems,
  pick,
  ownThreadCount,
  zombieChildren,
} from "./torture-kit.ts";

let sandbox: Sandbox;
let defaults: Reply;
beforeAll(async () => {
  sandbox = new Sandbox();
  defaults = (await sandbox.request({ cmd: "config" })).reply.config as Reply;
});
// Whatever a test left behind (a failed one included) must not load the next: no floods, no config.
afterEach(async () => {
  const terminals = (await sandbox.request({ cmd: "list" })).reply.terminals as Reply[];
  await Promise.all(terminals.map((t) => sandbox.request({ cmd: "kill", id: t.id as string })));
  await sandbox.request({ cmd: "config", ...defaults });
});
afterAll(() => sandbox.cleanup());

async function screenOf(connection: DaemonConnection, id: string): Promise<string> {
  return ((await connection.request({ cmd: "text", id })).reply.lines as string[]).join("\n");
}

/**
 * Programs a cycle may run, each ended by kill in a different state: exited already, a process
 * tree with a background child, an integrated shell with a background job, SIGHUP ignored (needs
 * the SIGKILL), flooding output, exiting with output still in flight.
 */
const PROGRAMS: Array<{ argv: string[]; ready?: string }> = [
  { argv: ["true"] },
  { argv: ["sh", "-c", "sleep 1001 & echo up; exec sleep 1002"], ready: "up" },
  { argv: ["bash", "--norc", "--noprofile", "-i"] },
  { argv: ["bash", "-c", "trap '' HUP; echo up; sleep 1003"], ready: "up" },
  { argv: ["yes", "cycle"], ready: "cycle" },
  { argv: ["sh", "-c", "seq 1 3000"] },
  { argv: ["sleep", "1004"] },
];

async function cycle(connection: DaemonConnection, index: number, pids: number[]): Promise<void> {
  const program = PROGRAMS[index % PROGRAMS.length]!;
  const { reply } = await connection.request({ cmd: "create", cmd_args: program.argv, cols: 40, rows: 10 });
  if (reply.ok !== true) throw new Error(`create ${program.argv.join(" ")}: ${JSON.stringify(reply)}`);
  const id = reply.id as string;
  pids.push(reply.pid as number);
  // Half the time kill at once (mid-exec), half the time once the program is up.
  if (program.ready && index % 2 === 0) {
    await waitFor(
      async () => (await screenOf(connection, id)).includes(program.ready!),
      10_000,
      `${program.argv.join(" ")} to start`,
    );
  }
  const killed = (await connection.request({ cmd: "kill", id })).reply;
  if (killed.ok !== true) throw new Error(`kill ${id}: ${JSON.stringify(killed)}`);
}

test(
  `${pick(200, 1000)} create/kill cycles: fds, threads, zombies and orphans back at baseline`,
  async () => {
    const cycles = pick(200, 1000);
    const workers = 4;
    const daemon = await sandbox.daemonPid();
    const connections = await Promise.all(Array.from({ length: workers }, () => DaemonConnection.open(sandbox.socket)));
    // A short grace keeps the HUP-ignoring program's SIGKILL from dominating the run time.
    await connections[0]!.request({ cmd: "config", kill_grace_ms: 50 });

    // Warm-up: one cycle of every program, so lazily created threads and fds exist before the
    // baseline; then sessions on every connection at once, which starts every screen worker.
    const warmupPids: number[] = [];
    for (let i = 0; i < PROGRAMS.length * 2; i++) await cycle(connections[0]!, i, warmupPids);
    await Promise.all(connections.map((connection, i) => cycle(connection, PROGRAMS.length * 2 + i, warmupPids)));
    await waitFor(() => leftInSessions(warmupPids).length === 0, 10_000, "the warm-up sessions to end");
    const before = {
      fds: fdCount(daemon),
      threads: ownThreadCount(daemon),
      zombies: zombieChildren(daemon).length,
      rss: rssBytes(daemon),
    };

    const pids: number[] = [];
    const started = performance.now();
    let next = 0;
    await Promise.all(
      connections.map(async (connection) => {
        while (next < cycles) await cycle(connection, next++, pids);
      }),
    );
    const elapsed = performance.now() - started;
    for (const connection of connections) connection.close();

    expect(pids.length).toBe(cycles);
    expect((await sandbox.request({ cmd: "list" })).reply.terminals).toEqual([]);
    // Every process of every killed session is gone, zombies included (the session's pid is its sid).
    await waitFor(() => leftInSessions(pids).length === 0, 10_000, "every session's processes to end").catch(
      () => undefined,
    );
    expect(leftInSessions(pids).map((p) => `${p.pid} ${p.state} ${p.comm} (sid ${p.sid})`)).toEqual([]);
    expect(zombieChildren(daemon)).toEqual([]);
    // A leak shows as more than the baseline, never fewer (the baseline may hold a closing connection).
    await waitFor(
      () => fdCount(daemon) <= before.fds && ownThreadCount(daemon) <= before.threads,
      10_000,
      "fds and threads back at baseline",
    ).catch(() => undefined);
    const after = {
      fds: fdCount(daemon),
      threads: ownThreadCount(daemon),
      zombies: zombieChildren(daemon).length,
      rss: rssBytes(daemon),
    };
    console.log(
      `create/kill: ${cycles} cycles in ${(elapsed / 1000).toFixed(1)} s (${(elapsed / cycles).toFixed(1)} ms each, ${workers} at a time); ` +
        `fds ${before.fds} -> ${after.fds}, threads ${before.threads} -> ${after.threads}, zombies ${before.zombies} -> ${after.zombies}, ` +
        `RSS ${(before.rss / 1e6).toFixed(0)} -> ${(after.rss / 1e6).toFixed(0)} MB`,
    );
    expect(after.fds).toBeLessThanOrEqual(before.fds);
    expect(after.threads).toBeLessThanOrEqual(before.threads);
    expect(await sandbox.daemonPid()).toBe(daemon);
    expect(logProblems(sandbox)).toEqual([]);
  },
  SOAK ? 900_000 : 120_000,
);

test(
  `floods in several sessions at once (${pick(5, 30)} s): another session answers text and echoes input`,
  async () => {
    const seconds = pick(5, 30);
    const daemon = await sandbox.daemonPid();
    const control = await DaemonConnection.open(sandbox.socket);
    const quiet = (
      await control.request({ cmd: "create", cmd_args: ["sh", "-c", "echo quiet-ready; exec sleep 100000"] })
    ).reply.id as string;
    const typist = (
      await control.request({ cmd: "create", cmd_args: ["bash", "--norc", "--noprofile"], cwd: sandbox.dir })
    ).reply.id as string;
    expect(
      (await control.request({ cmd: "run", id: typist, command: "true", timeout_ms: 15_000 })).reply,
    ).toMatchObject({ ok: true, code: 0 });
    await waitFor(async () => (await screenOf(control, quiet)).includes("quiet-ready"), 10_000, "the quiet session");
    const floodArgs = [
      ["yes"],
      ["cat", "/dev/urandom"],
      ["seq", "1", "inf"],
      ["yes", "\u001b[31mred\u001b[0m 中文 ".repeat(40)],
    ];
    const floods: string[] = [];
    for (const argv of floodArgs)
      floods.push((await control.request({ cmd: "create", cmd_args: argv })).reply.id as string);
    const tokens: string[] = [];
    for (const id of floods) tokens.push((await control.request({ cmd: "text", id })).reply.token as string);

    // One connection reads the quiet screen over and over; another types into a shell and waits for the echo.
    const reader = await DaemonConnection.open(sandbox.socket);
    const textMs: number[] = [];
    const echoMs: number[] = [];
    let maxRss = 0;
    const deadline = performance.now() + seconds * 1000;
    const reading = (async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const { reply } = await reader.request({ cmd: "text", id: quiet });
        textMs.push(performance.now() - started);
        if (!(reply.lines as string[]).includes("quiet-ready")) throw new Error("the quiet session lost its screen");
        maxRss = Math.max(maxRss, rssBytes(daemon));
        await Bun.sleep(20);
      }
    })();
    const typing = (async () => {
      for (let i = 0; performance.now() < deadline; i++) {
        const started = performance.now();
        await control.request({ cmd: "send", id: typist, input: `: ping-${i}\n` });
        await waitFor(
          async () => (await screenOf(control, typist)).includes(`: ping-${i}`),
          20_000,
          `echo of ping-${i}`,
        );
        echoMs.push(performance.now() - started);
        await Bun.sleep(50);
      }
    })();
    await Promise.all([reading, typing]);
    reader.close();

    // Every flood made progress, and each ends promptly when killed.
    for (const [i, id] of floods.entries()) {
      const delta = (await control.request({ cmd: "text", id, since: tokens[i] })).reply;
      expect({ id, changed: (delta.lines as string[]).length > 0 }).toEqual({ id, changed: true });
    }
    // Nothing lost under contention: seq's scrollback and screen hold consecutive numbers.
    const seqId = floods[floodArgs.findIndex((argv) => argv[0] === "seq")]!;
    const numbers = ((await control.request({ cmd: "text", id: seqId, region: "all" })).reply.lines as string[])
      .filter((line) => line !== "")
      .map(Number);
    numbers.pop(); // the row being written may be cut short
    expect(numbers.length).toBeGreaterThan(1000);
    expect(numbers.filter((n, i) => i > 0 && n !== numbers[i - 1]! + 1).slice(0, 5)).toEqual([]);
    const killStarted = performance.now();
    // One connection per kill: a DaemonConnection reads one reply at a time.
    await Promise.all(floods.map((id) => sandbox.request({ cmd: "kill", id })));
    const killMs = performance.now() - killStarted;
    control.close();

    const text = distribution(textMs);
    const echo = distribution(echoMs);
    console.log(
      `floods (${floodArgs.map((a) => a[0]).join(", ")}) for ${seconds} s: text ${text.text}; send->echo ${echo.text}; ` +
        `kill of ${floods.length} floods ${killMs.toFixed(0)} ms; daemon max RSS ${(maxRss / 1e6).toFixed(0)} MB`,
    );
    // Liveness bounds, not the 100 ms target (a benchmark figure, printed above). Measured
    // on 2 cores with these 4 floods: text p50 ~300 ms, p95 ~1.4 s; echo p50 ~1.6 s, p95 ~5 s.
    // Bun's PTY reader drains a flooding terminal for up to ~15 chunks (~0.5 s of parsing) before
    // the event loop serves anything else, and an echo needs several turns of that loop.
    expect(text.p95).toBeLessThan(3000);
    expect(echo.p95).toBeLessThan(10_000);
    expect(maxRss).toBeLessThan(600 * 1024 * 1024);
    expect(await sandbox.daemonPid()).toBe(daemon);
    expect(logProblems(sandbox)).toEqual([]);
  },
  SOAK ? 300_000 : 60_000,
);

/**
 * A program that starts and ends a command (OSC 133 C, D) `count` times as fast as it can, then
 * exits: two events each. (Bells are told 200 ms apart at most and a run of titles is its last,
 * so a storm of those is a handful of events.)
 */
const EVENT_STORM = (count: number) => [
  "python3",
  "-c",
  `import os\nchunk = b''.join(b'\\x1b]133;C\\x07\\x1b]133;D;%d\\x07' % (i % 256) for i in range(1000))\nfor _ in range(${count / 1000}): os.write(1, chunk)`,
];

/** Runs the storm in a fresh session and answers how long it took to exit (the PTY's pace). */
async function storm(connection: DaemonConnection, count: number): Promise<{ id: string; ms: number }> {
  const started = performance.now();
  const { reply } = await connection.request({ cmd: "create", cmd_args: EVENT_STORM(count) });
  const id = reply.id as string;
  const exited = (await connection.request({ cmd: "wait", id, exit: true, timeout_ms: 120_000 })).reply;
  expect(exited).toMatchObject({ ok: true, code: 0 });
  return { id, ms: performance.now() - started };
}

/**
 * A subscriber that reads one line per 100 ms, for real: a separate process with a small receive
 * buffer, so the daemon sees a slow socket (an in-process client would buffer everything at once).
 * Once the file argv[2] exists it drains quickly until the daemon has been quiet for a second,
 * which is when a lagged notice reaches it (after the backlog it was still sent).
 */
const SLOW_READER = `
import json, os, socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(sys.argv[1])
s.sendall(b'{"cmd":"events"}\\n')
buf = b''
counts = {"lines": 0, "slow_lines": 0, "lagged": 0, "dropped": 0}
while True:
    fast = os.path.exists(sys.argv[2])
    s.settimeout(1.0 if fast else None)
    try:
        while b'\\n' not in buf:
            data = s.recv(65536 if fast else 256)
            if not data: raise EOFError
            buf += data
    except (socket.timeout, EOFError):
        break
    line, buf = buf.split(b'\\n', 1)
    counts["lines"] += 1
    event = json.loads(line)
    if event.get("event") == "lagged":
        counts["lagged"] += 1
        counts["dropped"] += event["dropped"]
    if not fast:
        counts["slow_lines"] += 1
        time.sleep(0.1)
print(json.dumps(counts), flush=True)
`;

test(
  "a slow event subscriber is told it lagged; it neither slows the PTY nor grows the daemon",
  async () => {
    // 600 000 events, ~40x the 1 MB a subscriber may queue: enough to lag it, and done within the
    // minute on a busy machine (2 000 000 took 29 s with two test suites beside it, over 60 s once).
    const count = pick(300_000, 5_000_000);
    const daemon = await sandbox.daemonPid();
    const connection = await DaemonConnection.open(sandbox.socket);
    const alone = await storm(connection, count);

    const goFast = `${sandbox.dir}/storm-done`;
    const reader = Bun.spawn(["python3", "-c", SLOW_READER, sandbox.socket, goFast], {
      stdout: "pipe",
      stderr: "inherit",
    });
    await waitFor(
      async () => ((await connection.request({ cmd: "info" })).reply.subscribers as number) >= 1,
      10_000,
      "the slow subscriber",
    );
    const rssBefore = rssBytes(daemon);
    let maxRss = rssBefore;
    const sampler = setInterval(() => (maxRss = Math.max(maxRss, rssBytes(daemon))), 50);
    let watched: { id: string; ms: number };
    try {
      watched = await storm(connection, count);
    } finally {
      clearInterval(sampler);
      writeFileSync(goFast, "");
    }
    const report = JSON.parse(await new Response(reader.stdout).text()) as {
      lines: number;
      slow_lines: number;
      lagged: number;
      dropped: number;
    };
    await reader.exited;

    console.log(
      `slow subscriber: ${count * 2} events; storm ${alone.ms.toFixed(0)} ms alone, ${watched.ms.toFixed(0)} ms with a reader at 10 lines/s; ` +
        `reader got ${report.slow_lines} lines slowly, ${report.lines} in all, lagged ${report.lagged}x, ${report.dropped} dropped; daemon RSS ${(rssBefore / 1e6).toFixed(0)} -> max ${(maxRss / 1e6).toFixed(0)} MB`,
    );
    expect(report.lagged).toBeGreaterThan(0);
    expect(report.dropped).toBeGreaterThan(0);
    // The storm did not wait for the reader: it was told it lagged and events were dropped for it
    // (the pace with and without it is printed above; a timing bound here would fail on a busy machine).
    expect(maxRss - rssBefore).toBeLessThan(200 * 1024 * 1024);
    expect(await sandbox.daemonPid()).toBe(daemon);
    connection.close();
  },
  SOAK ? 300_000 : 60_000,
);
