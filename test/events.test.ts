// Events, waits and runs against real shells: is it done, and did it work?
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DaemonConnection, type Reply } from "../src/client/connection.ts";
import { readFileSync } from "node:fs";
import { Sandbox, rssBytes, sessionMembers, waitFor } from "./harness.ts";

function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

let sandbox: Sandbox;
let t: DaemonConnection;
beforeAll(async () => {
  sandbox = new Sandbox();
  t = await sandbox.connect();
});
afterAll(async () => {
  t.close();
  await sandbox.cleanup();
});

async function request(req: Reply): Promise<Reply> {
  return (await t.request(req)).reply;
}

async function create(cmdArgs: string[], extra: Reply = {}): Promise<string> {
  const reply = await request({ cmd: "create", cmd_args: cmdArgs, cwd: sandbox.dir, ...extra });
  expect(reply.ok).toBe(true);
  return reply.id as string;
}

/** Events of one terminal (or all) on their own connection, collected as they come. */
async function subscribe(id?: string) {
  const connection = await DaemonConnection.open(sandbox.socket);
  expect((await connection.request({ cmd: "events", terminal: id })).reply.ok).toBe(true);
  const events: Reply[] = [];
  void (async () => {
    for (let event = await connection.readLine(); event; event = await connection.readLine()) events.push(event);
  })();
  return {
    events,
    next: (kind: string) => waitFor(() => events.find((event) => event.event === kind), 15_000, `a ${kind} event`),
    close: () => connection.close(),
  };
}

const shells: Array<[string, string[]]> = [
  ["bash", ["bash", "--norc", "--noprofile"]],
  ["zsh", ["zsh"]],
  ["fish", ["fish", "--no-config"]],
];

for (const [name, argv] of shells) {
  describe.skipIf(!Bun.which(name))(`${name} with shell integration`, () => {
    test("run answers exit codes 0, 1, 127 and exactly the command's output", async () => {
      const id = await create(argv, { env: { HOME: sandbox.dir } });
      expect(await request({ cmd: "run", id, command: "echo one; echo two", timeout_ms: 15_000 })).toMatchObject({
        ok: true,
        code: 0,
        lines: ["one", "two"],
        total_lines: 2,
        truncated: false,
      });
      expect(await request({ cmd: "run", id, command: "false", timeout_ms: 15_000 })).toMatchObject({
        ok: true,
        code: 1,
        lines: [],
      });
      const missing = await request({ cmd: "run", id, command: "no-such-command-t4a", timeout_ms: 15_000 });
      expect(missing).toMatchObject({ ok: true, code: 127 });
      expect((missing.lines as string[]).join("\n")).toContain("no-such-command-t4a");
      expect(await request({ cmd: "run", id, command: "printf 'no newline'", timeout_ms: 15_000 })).toMatchObject({
        code: 0,
        lines: ["no newline"],
      });
      await request({ cmd: "kill", id });
    });

    test("run ends on a line the shell cannot run: a syntax error answers its words, an incomplete line is cancelled; the session stays usable", async () => {
      const id = await create(argv, { env: { HOME: sandbox.dir } });
      await request({ cmd: "run", id, command: "true", timeout_ms: 15_000 });
      for (const command of ["echo a((", 'echo "abc', "echo 'x", "if true"]) {
        const reply = await request({ cmd: "run", id, command, timeout_ms: 15_000 });
        if (reply.ok) {
          // Read and refused by the shell (bash's syntax error): its code and its words.
          expect(reply.code).not.toBe(0);
          expect((reply.lines as string[]).join("\n")).toMatch(/syntax|parse|unexpected/i);
        } else {
          expect(reply).toMatchObject({ ok: false, code: "invalid_params" });
          expect(reply.error as string).toMatch(/incomplete|not complete/);
        }
        // Nothing half-typed is left behind: the next command runs alone.
        expect(await request({ cmd: "run", id, command: "echo fine", timeout_ms: 15_000 })).toMatchObject({
          ok: true,
          code: 0,
          lines: ["fine"],
        });
      }
      await request({ cmd: "kill", id });
    });

    test("run of a command that ends the shell answers its output and code, as ssh does", async () => {
      const id = await create(argv, { env: { HOME: sandbox.dir } });
      const reply = await request({ cmd: "run", id, command: "echo x; exit 3", timeout_ms: 15_000 });
      expect(reply).toMatchObject({ ok: true, code: 3, lines: ["x"], total_lines: 1 });
      // fish reports the command done before it leaves: the same answer, as a command's.
      if (name !== "fish") expect(reply.shell_exited).toBe(true);
    });

    test("wait --text matches output only: never a typed line, an earlier line inside it, or a wrapped piece of it", async () => {
      // Narrow and short: typed lines wrap, and the screen scrolls (rows typed earlier are read again).
      const id = await create(argv, { cols: 30, rows: 6, env: { HOME: sandbox.dir } });
      await request({ cmd: "run", id, command: "true", timeout_ms: 15_000 });
      const long = "true aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa MARK";
      for (const command of ["true MARK", long, long, long, long]) {
        const waiter = await DaemonConnection.open(sandbox.socket);
        const waiting = waiter.request({ cmd: "wait", id, text: "MARK", timeout_ms: 1500, tag: "wait" });
        // In order on one connection: the wait is in place before the line is typed.
        await waiter.request({ cmd: "run", id, command, timeout_ms: 15_000, tag: "run" });
        expect((await waiting).reply).toMatchObject({ ok: false, code: "timeout" });
        waiter.close();
      }
      const waiter = await DaemonConnection.open(sandbox.socket);
      const waiting = waiter.request({ cmd: "wait", id, text: "MARK", timeout_ms: 15_000, tag: "wait" });
      await waiter.request({ cmd: "run", id, command: "echo M''ARK", timeout_ms: 15_000, tag: "run" });
      expect((await waiting).reply).toMatchObject({ ok: true, condition: "text", line: "MARK" });
      waiter.close();
      await request({ cmd: "kill", id });
    });

    test("run keeps output longer than the screen, from the scrollback", async () => {
      const id = await create(argv, { rows: 10, env: { HOME: sandbox.dir } });
      const reply = await request({ cmd: "run", id, command: "seq 1 500", timeout_ms: 15_000 });
      expect(reply).toMatchObject({ ok: true, code: 0, total_lines: 500, truncated: false });
      expect(reply.lines).toEqual(Array.from({ length: 500 }, (_, i) => String(i + 1)));
      const capped = await request({ cmd: "run", id, command: "seq 1 500", max_lines: 3, timeout_ms: 15_000 });
      expect(capped).toMatchObject({ lines: ["498", "499", "500"], total_lines: 500, truncated: true });
      await request({ cmd: "kill", id });
    });

    test("Ctrl-C during run gives 130", async () => {
      const id = await create(argv, { env: { HOME: sandbox.dir } });
      await request({ cmd: "run", id, command: "true", timeout_ms: 15_000 }); // the shell is ready
      const events = await subscribe(id);
      const other = await DaemonConnection.open(sandbox.socket);
      const running = other.request({ cmd: "run", id, command: "sleep 30", timeout_ms: 15_000 });
      await events.next("command_start");
      // The shell announces the command just before handing it the terminal: wait for sleep itself.
      const shellPid = ((await request({ cmd: "list" })).terminals as Reply[]).find((x) => x.id === id)!.pid as number;
      await waitFor(
        () => sessionMembers(shellPid).some((pid) => commandName(pid) === "sleep"),
        10_000,
        "sleep to start",
      );
      await request({ cmd: "send", id, keys: ["C-c"] });
      expect((await running).reply).toMatchObject({ ok: true, code: 130 });
      other.close();
      events.close();
      await request({ cmd: "kill", id });
    });

    test("command_done events carry the exit code", async () => {
      const id = await create(argv, { env: { HOME: sandbox.dir } });
      await request({ cmd: "run", id, command: "true", timeout_ms: 15_000 });
      const events = await subscribe(id);
      await request({ cmd: "send", id, input: "sh -c 'exit 7'\r" });
      expect(await events.next("command_done")).toEqual({
        event: "command_done",
        terminal: id,
        code: 7,
        seq: expect.any(Number),
      });
      events.close();
      await request({ cmd: "kill", id });
    });
  });
}

test("wait --text matches the output, not the echo of the typed command", async () => {
  const id = await create(["bash", "--norc", "--noprofile"]);
  await request({ cmd: "run", id, command: "true", timeout_ms: 15_000 });
  const waiter = await DaemonConnection.open(sandbox.socket);
  // Tagged requests on one connection start in order: the wait is in place before the input goes.
  const waiting = waiter.request({ cmd: "wait", id, text: "READY", timeout_ms: 10_000, tag: "wait" });
  expect((await waiter.request({ cmd: "send", id, input: "sleep 1; echo READY\n", tag: "send" })).reply.ok).toBe(true);
  const { reply } = await waiting;
  expect(reply).toMatchObject({ ok: true, condition: "text", line: "READY" });
  expect(reply.elapsed_ms as number).toBeGreaterThanOrEqual(1000);
  waiter.close();

  // Text already on the screen does not satisfy a new wait.
  expect(await request({ cmd: "wait", id, text: "READY", timeout_ms: 300 })).toMatchObject({
    ok: false,
    code: "timeout",
  });
  await request({ cmd: "kill", id });
});

test("wait via the CLI: send then wait --text returns after the command's delay", async () => {
  const id = await create(["bash", "--norc", "--noprofile"]);
  await request({ cmd: "run", id, command: "true", timeout_ms: 15_000 });
  const started = performance.now();
  await sandbox.ok(["send", id, "sleep 1; echo READY\\n"]);
  expect(await sandbox.ok(["wait", id, "--text", "READY", "--timeout", "10s"])).toBe("READY");
  expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
  const timedOut = await sandbox.run(["wait", id, "--text", "NEVER", "--timeout", "200ms"]);
  expect(timedOut.code).toBe(1);
  expect(timedOut.stderr).toContain("nothing matched within 200 ms");
  await request({ cmd: "kill", id });
});

test("wait for regex, gone, exit and command_done", async () => {
  const id = await create(["bash", "--norc", "--noprofile"]);
  await request({ cmd: "run", id, command: "true", timeout_ms: 15_000 });
  // Replies keep request order per connection, so each blocking wait gets its own.
  const w = await DaemonConnection.open(sandbox.socket);
  const regexWait = w.request({ cmd: "wait", id, regex: "port (\\d+)$", timeout_ms: 10_000 });
  await request({ cmd: "send", id, input: "sleep 0.2; echo listening on port 8080\n" });
  expect((await regexWait).reply).toMatchObject({ ok: true, condition: "regex", match: "port 8080" });
  await request({ cmd: "wait", id, idle_ms: 300 }); // that command's done mark and prompt

  const w2 = await DaemonConnection.open(sandbox.socket);
  const goneWait = w2.request({ cmd: "wait", id, gone: "listening on", timeout_ms: 10_000 });
  const doneWait = w.request({ cmd: "wait", id, command_done: true, timeout_ms: 10_000 });
  await request({ cmd: "send", id, input: "clear; sleep 0.3; (exit 4)\n" });
  expect((await goneWait).reply).toMatchObject({ ok: true, condition: "gone" });
  expect((await doneWait).reply).toMatchObject({ ok: true, condition: "command_done", code: 4 });
  w2.close();

  const exitWait = w.request({ cmd: "wait", id, exit: true, timeout_ms: 10_000 });
  await request({ cmd: "send", id, input: "exit 9\n" });
  expect((await exitWait).reply).toMatchObject({ ok: true, condition: "exit", code: 9 });
  w.close();
  await request({ cmd: "kill", id });
});

test("a forged OSC 133/7777 mark printed mid-command does not end a run", async () => {
  const id = await create(["bash", "--norc", "--noprofile"]);
  const reply = await request({
    cmd: "run",
    id,
    command: "printf '\\033]133;D;0\\007\\033]7777;done;0\\007forged\\n'; sleep 0.3; echo real-end; false",
    timeout_ms: 15_000,
  });
  expect(reply).toMatchObject({ ok: true, code: 1, lines: ["forged", "real-end"] });
  await request({ cmd: "kill", id });
});

test("native OSC 133 marks are understood in a session without injected integration", async () => {
  const script =
    "import sys,time\nfor code in (0, 3):\n  sys.stdout.write('\\x1b]133;C\\x07out\\n\\x1b]133;D;%d\\x07' % code); sys.stdout.flush(); time.sleep(0.3)\ntime.sleep(30)";
  const events = await subscribeAll();
  const id = await create(["python3", "-c", script]);
  await waitFor(
    () => events.filter((e) => e.terminal === id && e.event === "command_done").length === 2,
    10_000,
    "two command_done events",
  );
  expect(events.filter((e) => e.terminal === id && e.event === "command_done").map((e) => e.code)).toEqual([0, 3]);
  await request({ cmd: "kill", id });
});

test("idle does not fire while a spinner prints every 200 ms (idle_ms 1000)", async () => {
  const spinner =
    "import sys,time\nfor i in range(15):\n  sys.stdout.write('\\r' + '|/-\\\\'[i % 4]); sys.stdout.flush(); time.sleep(0.2)\nsys.stdout.write(' spun'); sys.stdout.flush()\ntime.sleep(30)";
  const events = await subscribeAll();
  const id = await create(["python3", "-c", spinner], { idle_timeout_ms: 1000 });
  // Python can take over a second to start on a loaded machine: the wait begins at the first frame.
  await waitFor(
    async () => /[|/\\-]/.test(((await request({ cmd: "text", id })).lines as string[]).join("")),
    15_000,
    "the first frame",
  );
  const idleWait = await request({ cmd: "wait", id, idle_ms: 1000, timeout_ms: 15_000 });
  expect(idleWait).toMatchObject({ ok: true, condition: "idle" });
  // 15 frames 200 ms apart never leave 1 s of quiet: idle comes only once the spinning is over.
  expect(((await request({ cmd: "text", id })).lines as string[]).join("")).toContain("spun");
  const idle = await waitFor(() => events.find((e) => e.terminal === id && e.event === "idle"), 5000, "the idle event");
  expect(idle).toEqual({ event: "idle", terminal: id, after_ms: 1000, seq: expect.any(Number) });
  // One idle for the spinning and the quiet after it; a slow start may have been idle (and then
  // active) before the first frame, which is right and not counted. The wait's reply can come before
  // the event on the other connection (a loaded run): the idle after the spinning is waited for.
  const idlesAfter = () => {
    const mine = events.filter((e) => e.terminal === id && (e.event === "idle" || e.event === "activity"));
    const resumed = mine.findIndex((e) => e.event === "activity");
    return mine.slice(resumed + 1).filter((e) => e.event === "idle");
  };
  await waitFor(() => idlesAfter().length > 0 || undefined, 5000, "the idle after the spinning");
  expect(idlesAfter()).toHaveLength(1);
  await request({ cmd: "kill", id });
});

test("activity follows idle when output resumes", async () => {
  const events = await subscribeAll();
  const id = await create(["bash", "--norc", "--noprofile"], { idle_timeout_ms: 300 });
  await waitFor(() => events.find((e) => e.terminal === id && e.event === "idle"), 5000, "idle");
  await request({ cmd: "send", id, input: "echo wake\n" });
  await waitFor(() => events.find((e) => e.terminal === id && e.event === "activity"), 5000, "activity");
  await request({ cmd: "kill", id });
});

test("wait times out when nothing happens, and always has a bound", async () => {
  const id = await create(["cat"]);
  const started = performance.now();
  expect(await request({ cmd: "wait", id, text: "x", timeout_ms: 200 })).toMatchObject({ ok: false, code: "timeout" });
  expect(performance.now() - started).toBeGreaterThanOrEqual(200);
  expect(await request({ cmd: "wait", id, text: "x", timeout_ms: 99_999_999 })).toMatchObject({
    ok: false,
    code: "invalid_params",
  });
  expect(await request({ cmd: "wait", id })).toMatchObject({ ok: false, code: "invalid_params" });
  expect(await request({ cmd: "run", id, command: "ls" })).toMatchObject({ ok: false, code: "unsupported" });
  await request({ cmd: "kill", id });
});

test("text since a token returns only the rows that changed", async () => {
  const id = await create(["bash", "--norc", "--noprofile"], { rows: 10 });
  await request({ cmd: "run", id, command: "true", timeout_ms: 15_000 });
  await request({ cmd: "wait", id, idle_ms: 200 }); // the prompt is drawn after the done mark
  const first = await request({ cmd: "text", id });
  const token = first.token as string;
  expect(token).toMatch(/^\d+\.\d+\.\d+$/);
  expect(await request({ cmd: "text", id, since: token })).toMatchObject({ lines: [], rows: [], full: false });
  await request({ cmd: "run", id, command: "echo delta-line", timeout_ms: 15_000 });
  await request({ cmd: "wait", id, idle_ms: 200 });
  const delta = await request({ cmd: "text", id, since: token });
  expect(delta.lines as string[]).toContain("delta-line");
  expect((delta.lines as string[]).length).toBeLessThanOrEqual(4);
  expect(delta.full).toBe(false);
  const rows = delta.rows as number[];
  const all = (await request({ cmd: "text", id })).lines as string[];
  expect(rows.map((row) => all[all.length - 1 - row])).toEqual(delta.lines as string[]);
  await request({ cmd: "resize", id, cols: 100, rows: 12 });
  expect(await request({ cmd: "text", id, since: delta.token })).toMatchObject({ full: true });
  await request({ cmd: "kill", id });
});

test("a subscriber that never reads does not grow the daemon; it is told it lagged", async () => {
  const daemon = await sandbox.daemonPid();
  const before = rssBytes(daemon);
  const sleeper = await DaemonConnection.open(sandbox.socket);
  sleeper.send({ cmd: "events" }); // subscribes, then never reads while the flood runs
  // A command starting, then done: every one is an event (bells are told 200 ms apart at most,
  // titles when they change).
  const id = await create(["bash", "-c", "yes $'\\e]133;C\\a\\e]133;D;0\\a' | head -c 4000000; sleep 30"]);
  const deadline = performance.now() + 5000;
  let maxRss = 0;
  while (performance.now() < deadline) {
    maxRss = Math.max(maxRss, rssBytes(daemon));
    await Bun.sleep(100);
  }
  // ~470 000 events: queued, they would be ~28 MB of lines and many more of objects. Dropped,
  // they leave garbage that the daemon's heap collects late (~100 MB here at 8 MB of marks).
  expect(maxRss - before).toBeLessThan(200 * 1024 * 1024);
  // Reading now drains the queue; the lagged notice follows the events that fit.
  let lagged: Reply | undefined;
  for (let line = await sleeper.readLine(); line && !lagged; line = await sleeper.readLine()) {
    if (line.event === "lagged") lagged = line;
  }
  expect(lagged?.dropped as number).toBeGreaterThan(0);
  sleeper.close();
  await request({ cmd: "kill", id });
}, 60_000);

async function subscribeAll(): Promise<Reply[]> {
  return (await subscribe()).events;
}
