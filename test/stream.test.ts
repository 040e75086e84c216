// Streams end to end: the attach seam under a flood (replayed screen + stream = the screen),
// `t4a attach` driven through a real PTY (itself inside a t4a session) with vim and less, several viewers, the
// daemon going away mid-attach, and asciicast recordings played back by the real asciinema.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DaemonConnection } from "../src/client/connection.ts";
import { encodeFrame, Frame, FrameReader } from "../src/protocol/frames.ts";
import { Screen } from "../src/terminal/screen.ts";
import { BIN, Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

/** A raw attach: the reply, then every frame, fed into a screen of our own. */
async function viewer(id: string, cols = 80, rows = 24, scrollback = 0) {
  const connection = await DaemonConnection.open(sandbox.socket);
  const { reply } = await connection.request({ cmd: "attach", id, read_only: true, scrollback });
  const screen = new Screen({ cols: (reply.cols as number) ?? cols, rows: (reply.rows as number) ?? rows, scrollback });
  const reader = new FrameReader();
  const events: Array<Record<string, unknown>> = [];
  let bytes = 0;
  connection.takeRaw(
    (chunk) => {
      for (const frame of reader.push(chunk)) {
        if (frame.type === Frame.screen || frame.type === Frame.output) {
          screen.write(frame.payload);
          bytes += frame.payload.length;
        } else events.push(JSON.parse(new TextDecoder().decode(frame.payload)));
      }
    },
    () => events.push({ event: "closed" }),
  );
  return {
    connection,
    screen,
    events,
    get bytes() {
      return bytes;
    },
  };
}

test("the seam: 100 attaches during a flood each rebuild exactly the screen text shows", async () => {
  // Numbered, coloured lines, some wrapping, then quiet.
  const script =
    "import sys\nfor i in range(30000):\n    sys.stdout.write(f'\\x1b[3{i%8}m{i:06d}\\x1b[0m ' + 'x' * (i % 97) + '\\n')\nsys.stdout.flush()\nimport time; time.sleep(1000)";
  const { reply } = await sandbox.request({ cmd: "create", name: "flood", cmd_args: ["python3", "-c", script] });
  expect(reply.ok).toBe(true);
  const viewers: Array<Awaited<ReturnType<typeof viewer>>> = [];
  for (let i = 0; i < 100; i++) viewers.push(await viewer("flood"));
  // The last line, not a quiet moment: with 100 viewers a busy machine can pause the flood (flow
  // control) for longer than any idle window, which once ended this wait early.
  const expected = await waitFor(
    async () => {
      const screen = await sandbox.screen("flood");
      return screen.includes("029999") && screen;
    },
    60_000,
    "the flood's last line",
  );
  // Let the last bytes reach every viewer.
  await waitFor(
    () => viewers.every((v) => v.screen.lines("viewport", 0, 24, true).join("\n") === expected),
    20_000,
    "every viewer to show the screen",
  );
  for (const v of viewers) {
    expect(v.screen.lines("viewport", 0, 24, true).join("\n")).toBe(expected);
    v.connection.close();
    v.screen.dispose();
  }
  await sandbox.request({ cmd: "kill", id: "flood" });
}, 120_000);

test("attach --scrollback replays 1000 archived rows above the screen, soft-wrapped rows as they were", async () => {
  const script =
    "import sys\nfor i in range(3000):\n    sys.stdout.write(f'\\x1b[3{i%8}mrow {i:04d}\\x1b[0m ' + 'w' * (i % 150) + '\\n')\nsys.stdout.flush()\nimport time; time.sleep(1000)";
  await sandbox.request({ cmd: "create", name: "history", cmd_args: ["python3", "-c", script] });
  await waitFor(async () => (await sandbox.screen("history")).includes("row 2999"), 20_000, "the rows");
  const { reply } = await sandbox.request({ cmd: "text", id: "history", region: "all", start: 0, end: 1024 });
  const expected = reply.lines as string[];
  const v = await viewer("history", 80, 24, 1000);
  await waitFor(() => v.screen.regionLength("all") === 1024, 10_000, "the replay");
  expect(v.screen.lines("all", 0, 1024, true)).toEqual(expected);
  v.connection.close();
  v.screen.dispose();
  await sandbox.request({ cmd: "kill", id: "history" });
});

test("a viewer that never reads is dropped with lagged; the program and the other viewers go on", async () => {
  // Paced (at most ~13 MB/s): a reader keeps up, the stuck one passes 8 MiB in a second. (With `yes`, the
  // daemon out-writes any reader, and rightly dropped the test's reader too on a busy machine.)
  const gush =
    "import sys, time\nchunk = b'a line of output to fill the viewer queue\\n' * 6400\nwhile True:\n    sys.stdout.buffer.write(chunk); sys.stdout.flush(); time.sleep(0.02)";
  await sandbox.request({ cmd: "create", name: "gush", cmd_args: ["python3", "-c", gush] });
  // A client that reads the attach reply and then never reads a byte more. (A Bun socket with an
  // empty data handler still reads as fast as it can: it lagged only when the machine was busy.)
  const stuck = Bun.spawn(
    [
      "python3",
      "-c",
      `import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b'{"cmd":"attach","id":"gush","read_only":true}\\n')
while s.recv(1) != b"\\n": pass
print("attached", flush=True)
time.sleep(600)`,
      sandbox.socket,
    ],
    { stdout: "pipe" },
  );
  const said = await stuck.stdout.getReader().read();
  expect(new TextDecoder().decode(said.value)).toStartWith("attached");
  const reader = await viewer("gush");
  // Past 8 MiB waiting for it, the stuck one is dropped; the reading one stays.
  await waitFor(async () => (await sandbox.viewers("gush")) === 1, 60_000, "the stuck viewer to be dropped");
  const before = reader.bytes;
  await waitFor(() => reader.bytes > before + 1_000_000, 20_000, "output to keep flowing to the reader");
  expect(reader.events.filter((e) => e.event === "lagged")).toEqual([]);
  expect((await sandbox.request({ cmd: "list" })).reply.ok).toBe(true);
  stuck.kill();
  reader.connection.close();
  await sandbox.request({ cmd: "kill", id: "gush" });
}, 90_000);

test("several viewers see the same; the last to resize sets the size; read-only viewers change nothing", async () => {
  await sandbox.request({ cmd: "create", name: "shared", cmd_args: ["bash", "--norc", "--noprofile"] });
  const a = await DaemonConnection.open(sandbox.socket);
  await a.request({ cmd: "attach", id: "shared", cols: 100, rows: 30 });
  const aLink = a.takeRaw(
    () => {},
    () => {},
  );
  const watcher = await viewer("shared");
  expect((await sandbox.request({ cmd: "list" })).reply.terminals).toContainEqual(
    expect.objectContaining({ id: "shared", cols: 100, rows: 30 }),
  );
  aLink.write(encodeFrame(Frame.input, "echo from-viewer-a\r"));
  await waitFor(
    () => watcher.screen.lines("viewport", 0, 30, true).some((line) => line === "from-viewer-a"),
    10_000,
    "the watcher to see a's command",
  );
  aLink.write(encodeFrame(Frame.resize, JSON.stringify({ cols: 90, rows: 20 })));
  await waitFor(
    async () =>
      ((await sandbox.request({ cmd: "list" })).reply.terminals as Array<{ id: string; cols: number }>).find(
        (t) => t.id === "shared",
      )?.cols === 90,
    5000,
    "the resize",
  );
  expect(watcher.events).toContainEqual({ event: "resize", cols: 90, rows: 20 });
  // The read-only viewer's keys and size go nowhere.
  const ro = await DaemonConnection.open(sandbox.socket);
  await ro.request({ cmd: "attach", id: "shared", read_only: true, cols: 40, rows: 10 });
  const roLink = ro.takeRaw(
    () => {},
    () => {},
  );
  roLink.write(encodeFrame(Frame.input, "echo from-read-only\r"));
  roLink.write(encodeFrame(Frame.resize, JSON.stringify({ cols: 40, rows: 10 })));
  // The daemon reads a connection's bytes before its end: once the viewer is gone, its frames were
  // handled; a marker typed after them reaches the shell after anything they could have typed.
  const withRo = await sandbox.viewers("shared");
  ro.close();
  await waitFor(async () => (await sandbox.viewers("shared")) < withRo, 10_000, "the read-only viewer to be gone");
  await sandbox.request({ cmd: "send", id: "shared", input: "echo marker-$((6*7))\r" });
  await waitFor(async () => (await sandbox.screen("shared")).includes("marker-42"), 10_000, "the marker");
  expect(await sandbox.screen("shared")).not.toContain("from-read-only");
  expect((await sandbox.request({ cmd: "list" })).reply.terminals).toContainEqual(
    expect.objectContaining({ id: "shared", cols: 90, rows: 20 }),
  );
  for (const c of [a, watcher.connection]) c.close();
  await sandbox.request({ cmd: "kill", id: "shared" });
});

test("t4a attach in a real PTY: type into vim, detach, reattach with the screen intact; read-only ignores keys", async () => {
  const file = join(sandbox.dir, "attached.txt");
  await sandbox.request({
    cmd: "create",
    name: "editor",
    cmd_args: ["vim", "-u", "NONE", "-N", "-n", "-i", "NONE", file],
  });
  await waitFor(async () => (await sandbox.screen("editor")).includes("attached.txt"), 10_000, "vim");
  // The client runs in a terminal of its own: a t4a session (80x24 like the one it attaches to).
  const attachArgv = [BIN, "attach", "editor"];
  await sandbox.request({ cmd: "create", name: "client", cmd_args: attachArgv, env: { T4A_SOCKET: sandbox.socket } });
  await waitFor(
    async () => (await sandbox.screen("client")).includes("attached.txt"),
    10_000,
    "the replayed vim screen in the client",
  );
  await sandbox.ok(["send", "client", "ihello through attach"]);
  await sandbox.ok(["send", "client", "-k", "Escape"]);
  await waitFor(
    async () => (await sandbox.screen("editor")).includes("hello through attach"),
    10_000,
    "the keys to reach vim",
  );
  await waitFor(
    async () => (await sandbox.screen("client")).includes("hello through attach"),
    10_000,
    "the client to show it",
  );
  await sandbox.ok(["send", "client", "\\x1c"]); // C-\ detaches
  await waitFor(
    async () => (await sandbox.screen("client")).includes("[t4a: detached from editor; it goes on]"),
    10_000,
    "the detach",
  );
  await waitFor(
    async () =>
      ((await sandbox.request({ cmd: "list" })).reply.terminals as Array<{ id: string; alive: boolean }>).some(
        (t) => t.id === "client" && !t.alive,
      ),
    5000,
    "the client to exit",
  );
  const afterDetach = (await sandbox.request({ cmd: "list" })).reply.terminals as Array<{
    id: string;
    alive: boolean;
    exit_code?: number;
  }>;
  expect(afterDetach.find((t) => t.id === "client")).toMatchObject({ alive: false, exit_code: 0 });
  expect(afterDetach.find((t) => t.id === "editor")).toMatchObject({ alive: true });
  // The client's terminal was given back: no alternate screen, cursor shown, modes off.
  const clientCursor = (await sandbox.request({ cmd: "cursor", id: "client" })).reply;
  expect(clientCursor.visible).toBe(true);
  // Reattach (with another detach key): the screen is whole.
  await sandbox.request({
    cmd: "create",
    name: "client2",
    cmd_args: [...attachArgv, "--detach-key", "C-]"],
    env: { T4A_SOCKET: sandbox.socket },
  });
  await waitFor(
    async () => (await sandbox.screen("client2")).includes("hello through attach"),
    10_000,
    "the screen after reattach",
  );
  await sandbox.ok(["send", "client2", "\\x1d"]);
  await waitFor(
    async () => (await sandbox.screen("client2")).includes("[t4a: detached from editor"),
    10_000,
    "C-] detaches",
  );
  // Read-only: the keys go nowhere.
  await sandbox.request({
    cmd: "create",
    name: "ro",
    cmd_args: [...attachArgv, "--read-only"],
    env: { T4A_SOCKET: sandbox.socket },
  });
  await waitFor(
    async () => (await sandbox.screen("ro")).includes("hello through attach"),
    10_000,
    "the read-only view",
  );
  await sandbox.ok(["send", "ro", "ddiREAD-ONLY-KEYS"]);
  // The client reads its keys in order: once the detach key after them has worked, they were handled.
  await sandbox.ok(["send", "ro", "\\x1c"]);
  await waitFor(
    async () => (await sandbox.screen("ro")).includes("[t4a: detached from editor"),
    10_000,
    "the read-only client to detach",
  );
  await sandbox.request({ cmd: "wait", id: "editor", idle_ms: 300, timeout_ms: 10_000 });
  expect(await sandbox.screen("editor")).not.toContain("READ-ONLY-KEYS");
  for (const id of ["editor", "client", "client2", "ro"]) await sandbox.request({ cmd: "kill", id });
});

test("a viewer's terminal does not answer a query the session's emulator answers: the program gets one answer", async () => {
  // Answers for 3 s after "g": one from the session's emulator; a second, from the terminal that
  // `t4a attach` runs in, came back as typed input (vim took it for keys and ate what followed).
  const asker = [
    "import os, select, time, tty",
    "tty.setraw(0)",
    "os.write(1, b'ready\\r\\n')",
    "os.read(0, 1)",
    "os.write(1, b'\\x1b[c')",
    "got, end = b'', time.time() + 3",
    "while time.time() < end:",
    "    if select.select([0], [], [], 0.2)[0]: got += os.read(0, 100)",
    "os.write(1, ('answers ' + got.hex() + ' end\\r\\n').encode())",
    "time.sleep(60)",
  ].join("\n");
  await sandbox.request({ cmd: "create", name: "asker", cmd_args: ["python3", "-c", asker] });
  await waitFor(async () => (await sandbox.screen("asker")).includes("ready"), 10_000, "the asker");
  await sandbox.request({
    cmd: "create",
    name: "looker",
    cmd_args: [BIN, "attach", "asker"],
    env: { T4A_SOCKET: sandbox.socket },
  });
  await waitFor(
    async () => (await sandbox.screen("looker")).includes("ready"),
    10_000,
    "the replayed screen in the viewer",
  );
  await sandbox.request({ cmd: "send", id: "asker", input: "g" });
  const screen = await waitFor(
    async () => /answers (\w*) end/.exec(await sandbox.screen("asker")),
    15_000,
    "the answers",
  );
  expect(screen[1]).toBe(Buffer.from("\x1b[?1;2c").toString("hex"));
  for (const id of ["asker", "looker"]) await sandbox.request({ cmd: "kill", id });
});

test("t4a attach drives less: search, jump, the client's screen the same as the session's, then quit", async () => {
  const file = join(sandbox.dir, "pager.txt");
  await Bun.write(
    file,
    `${Array.from(
      { length: 300 },
      (_, i) => `line ${String(i).padStart(3, "0")} ${i % 7 === 0 ? "needle" : "hay"}`,
    ).join("\n")}\n`,
  );
  await sandbox.request({
    cmd: "create",
    name: "pager",
    cmd_args: ["less", file],
    env: { LESS: "", LESSHISTFILE: "-" },
  });
  await waitFor(async () => (await sandbox.screen("pager")).includes("line 000"), 10_000, "less");
  await sandbox.request({
    cmd: "create",
    name: "pclient",
    cmd_args: [BIN, "attach", "pager"],
    env: { T4A_SOCKET: sandbox.socket },
  });
  await waitFor(async () => (await sandbox.screen("pclient")).includes("line 000"), 10_000, "the replayed less screen");
  await sandbox.ok(["send", "pclient", "G"]);
  await waitFor(async () => (await sandbox.screen("pager")).includes("line 299"), 10_000, "G to reach less");
  await sandbox.ok(["send", "pclient", "g/line 250\r"]); // off screen: less brings it to the top
  await waitFor(async () => (await sandbox.screen("pager")).split("\n")[0] === "line 250 hay", 10_000, "the search");
  // What the client's terminal shows is the session's screen, row for row.
  await waitFor(
    async () => (await sandbox.screen("pclient")) === (await sandbox.screen("pager")),
    10_000,
    "the client to mirror the session",
  );
  await sandbox.ok(["send", "pclient", "q"]);
  await waitFor(
    async () =>
      ((await sandbox.request({ cmd: "list" })).reply.terminals as Array<{ id: string; alive: boolean }>).every(
        (t) => !["pager", "pclient"].includes(t.id) || !t.alive,
      ),
    10_000,
    "less to quit and the client to end with it",
  );
  for (const id of ["pager", "pclient"]) await sandbox.request({ cmd: "kill", id });
});

test("the daemon going away mid-attach: the terminal is given back, a clear message, exit code 3", async () => {
  const other = new Sandbox();
  try {
    await other.ok(["create", "--name", "victim", "--", "bash", "--norc", "--noprofile"]);
    const pid = await other.daemonPid();
    // The attach client runs in a PTY of the first daemon, talking to the second.
    await sandbox.request({
      cmd: "create",
      name: "orphaned",
      cmd_args: [BIN, "attach", "victim"],
      env: { T4A_SOCKET: other.socket },
    });
    await waitFor(async () => /[$#] ?$/m.test(await sandbox.screen("orphaned")), 10_000, "the attached prompt");
    process.kill(pid, "SIGKILL");
    await waitFor(
      async () => (await sandbox.screen("orphaned")).includes("t4a: the daemon went away"),
      10_000,
      "the message",
    );
    const info = await waitFor(
      async () =>
        (
          (await sandbox.request({ cmd: "list" })).reply.terminals as Array<{
            id: string;
            alive: boolean;
            exit_code?: number;
          }>
        ).find((t) => t.id === "orphaned" && !t.alive),
      5000,
      "the client to exit",
    );
    expect(info?.exit_code).toBe(3);
    await sandbox.request({ cmd: "kill", id: "orphaned" });
  } finally {
    await other.cleanup();
  }
});

test.if(Bun.which("asciinema") !== null)(
  "a recording of vim and commands plays back in asciinema to the same screen; markers carry the exit codes",
  async () => {
    const cast = join(sandbox.dir, "session.cast");
    const id = await sandbox.ok([
      "create",
      "--name",
      "recorded",
      "--record",
      cast,
      "--",
      "bash",
      "--norc",
      "--noprofile",
    ]);
    await sandbox.ok(["run", id, "--", "echo one; (exit 3)"]).catch(() => undefined);
    await sandbox.ok(["run", id, "--", "printf '\\033[1;32mgreen\\033[0m\\n'"]);
    await sandbox.ok(["send", id, `vim -u NONE -N -n -i NONE ${join(sandbox.dir, "rec.txt")}\\n`]);
    await waitFor(async () => (await sandbox.screen(id)).includes("rec.txt"), 10_000, "vim");
    await sandbox.ok(["send", id, "irecorded text"]);
    await sandbox.ok(["send", id, "-k", "Escape"]);
    await sandbox.ok(["send", id, ":wq\\n"]);
    await waitFor(async () => (await sandbox.screen(id)).includes("written"), 10_000, "vim to write");
    await sandbox.request({ cmd: "wait", id, idle_ms: 300 });
    const expected = await sandbox.screen(id);
    expect((await sandbox.run(["record", id, "--stop"])).stderr).toContain("stopped recording");
    const lines = readFileSync(cast, "utf8").trim().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ version: 2, width: 80, height: 24, env: { TERM: "xterm-256color" } });
    const markers = lines
      .slice(1)
      .map((line) => JSON.parse(line))
      .filter((event) => event[1] === "m")
      .map((event) => event[2]);
    expect(markers).toContain("command_done exit=3");
    expect(markers).toContain("command_done exit=0");
    // The cast holds vim's queries: the player's terminal answers them as any terminal would, and
    // with echo on, answers written while asciinema still runs (a loaded machine) showed on screen.
    const player = await sandbox.ok([
      "create",
      "--name",
      "player",
      "--",
      "sh",
      "-c",
      `stty -echo; exec asciinema cat ${cast}`,
    ]);
    await waitFor(async () => (await sandbox.screen(player)) === expected, 10_000, "the played-back screen to match");
    for (const t of [id, player]) await sandbox.request({ cmd: "kill", id: t });
  },
);

test("recording mid-session opens with the screen; v3 times events from the one before; input when asked", async () => {
  const id = await sandbox.ok(["create", "--", "bash", "--norc", "--noprofile"]);
  await sandbox.ok(["run", id, "--", "echo already-there"]);
  const cast = join(sandbox.dir, "late.cast");
  await sandbox.ok(["record", id, "-o", cast, "--cast-format", "v3", "--input"]);
  await sandbox.ok(["send", id, "echo later\\n"]);
  await waitFor(async () => (await sandbox.screen(id)).includes("\nlater"), 5000, "later");
  await sandbox.ok(["resize", id, "100", "30"]);
  await sandbox.ok(["record", id, "--stop"]);
  const events = readFileSync(cast, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(events[0]).toMatchObject({ version: 3, term: { cols: 80, rows: 24, type: "xterm-256color" } });
  expect(events[1][1]).toBe("o");
  expect(events[1][2]).toContain("already-there"); // the screen as it was
  expect(events.some((e) => e[1] === "i" && e[2] === "echo later\n")).toBe(true);
  expect(events.some((e) => e[1] === "r" && e[2] === "100x30")).toBe(true);
  const intervals = events.slice(1).map((e) => e[0] as number);
  expect(intervals.every((t) => t >= 0 && t < 5)).toBe(true);
  await sandbox.request({ cmd: "kill", id });
});

test("record --stop answers once the file holds every byte: the cast read right after it ends with the last output", async () => {
  // The last events were written after the reply (an async write, or one behind a write in
  // flight), so a script reading the file at once found it short.
  for (let round = 0; round < 5; round++) {
    const cast = join(sandbox.dir, `stop-${round}.cast`);
    const id = await sandbox.ok(["create", "--record", cast, "--", "bash", "--norc", "--noprofile"]);
    await sandbox.ok(["run", id, "--", `seq 1 30000; echo last-line-${round}`]);
    await sandbox.ok(["record", id, "--stop"]);
    const text = readFileSync(cast, "utf8");
    expect({ round, ends: text.endsWith("\n"), last: text.includes(`last-line-${round}`) }).toEqual({
      round,
      ends: true,
      last: true,
    });
    await sandbox.request({ cmd: "kill", id });
  }
});
