// The seed's commands round-trip with the seed's fields, and bad input gets a clear error
// while the daemon keeps serving.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { DaemonConnection } from "../src/client/connection.ts";
import { Sandbox, waitFor } from "./harness.ts";
import { RawClient } from "./torture-kit.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

test("every seed command round-trips with the seed's field names", async () => {
  const t = await sandbox.connect();
  const created = (
    await t.request({
      cmd: "create",
      cols: 90,
      rows: 20,
      cmd_args: ["bash", "--norc"],
      cwd: sandbox.dir,
      env: { GREETING: "hi" },
    })
  ).reply;
  expect(created).toMatchObject({ ok: true, cols: 90, rows: 20 });
  expect(created.id).toMatch(/^t\d+$/);
  expect(created.pid).toBeGreaterThan(0);
  const id = created.id as string;

  const listed = (await t.request({ cmd: "list" })).reply;
  expect(listed.terminals).toContainEqual(
    expect.objectContaining({ id, cols: 90, rows: 20, pid: created.pid, alive: true, title: expect.any(String) }),
  );

  expect((await t.request({ cmd: "send", id, input: "echo $GREETING-$((40+2)); pwd\n" })).reply).toEqual({ ok: true });
  await waitFor(async () => (await sandbox.screen(id)).includes("hi-42"), 5000, "command output");
  expect(await sandbox.screen(id)).toContain(sandbox.dir);

  const lastRows = (await t.request({ cmd: "text", id, start: 0, end: 5, trim: true })).reply;
  expect(lastRows).toMatchObject({ ok: true, region: "viewport", start: 0, end: 5, total_lines: 20 });
  expect(lastRows.lines).toHaveLength(5);

  await t.request({ cmd: "wait", id, idle_ms: 200 }); // the next prompt is drawn
  const screen = (await t.request({ cmd: "text", id })).reply.lines as string[];
  const promptRow = screen.findLastIndex((line) => line !== "");
  const cursor = (await t.request({ cmd: "cursor", id })).reply;
  expect(cursor).toMatchObject({
    ok: true,
    visible: true,
    row: promptRow,
    col: screen[promptRow]!.length + 1,
    style: "block",
  });

  expect((await t.request({ cmd: "resize", id, cols: 100, rows: 30 })).reply).toMatchObject({ ok: true });
  expect((await t.request({ cmd: "config", idle_timeout_ms: 1500 })).reply).toMatchObject({
    ok: true,
    config: { idle_timeout_ms: 1500 },
  });
  expect((await t.request({ cmd: "info" })).reply).toMatchObject({
    ok: true,
    version: expect.any(String),
    sessions: 1,
    rss_bytes: expect.any(Number),
  });

  // events: ack first, then the title and exit of this terminal.
  const events = await DaemonConnection.open(sandbox.socket);
  expect((await events.request({ cmd: "events", terminal: id })).reply).toEqual({
    ok: true,
    instance: expect.any(String),
    seq: expect.any(Number),
  });
  await t.request({ cmd: "send", id, input: "printf '\\033]2;my title\\007'; exit 3\n" });
  const seen = [];
  for (;;) {
    const event = (await events.readLine())!;
    if (event.event === "title" || event.event === "exit") seen.push(event);
    if (event.event === "exit") break;
  }
  expect(seen).toEqual([
    { event: "title", terminal: id, title: "my title", seq: expect.any(Number) },
    // A failed exit begins a need: it carries the need's id (issue 57).
    { event: "exit", terminal: id, code: 3, seq: expect.any(Number), need_id: expect.any(Number) },
  ]);
  events.close();

  const dead = (await t.request({ cmd: "list" })).reply.terminals as Array<Record<string, unknown>>;
  expect(dead.find((x) => x.id === id)).toMatchObject({ alive: false, exit_code: 3, title: "my title" });
  expect((await t.request({ cmd: "kill", id })).reply).toEqual({ ok: true });
  expect((await t.request({ cmd: "list" })).reply.terminals).toEqual([]);
  t.close();
});

test("tags are echoed and replies keep request order on one connection", async () => {
  const t = await sandbox.connect();
  for (let i = 0; i < 20; i++) t.send({ cmd: i % 2 ? "list" : "info", tag: i });
  for (let i = 0; i < 20; i++) expect((await t.readLine())?.tag).toBe(i);
  t.send({ cmd: "nope", tag: "x" });
  expect(await t.readLine()).toEqual({ ok: false, error: 'unknown cmd "nope"', code: "unknown_cmd", tag: "x" });
  t.close();
});

test("item 9: a tagged request is answered when done; untagged ones keep request order", async () => {
  const { id } = (await sandbox.request({ cmd: "create", cmd_args: ["cat"] })).reply as { id: string };
  const t = await sandbox.connect();
  // Tagged: the slow wait does not hold up the text sent after it on the same connection.
  t.send({ cmd: "wait", id, text: "never", timeout_ms: 1500, tag: "slow" });
  t.send({ cmd: "text", id, tag: "quick" });
  expect((await t.readLine())?.tag).toBe("quick");
  expect(await t.readLine()).toMatchObject({ ok: false, code: "timeout", tag: "slow" });
  // Untagged: the text waits for the wait before it, as seed clients expect.
  t.send({ cmd: "wait", id, idle_ms: 300, timeout_ms: 5000 });
  t.send({ cmd: "text", id });
  expect(await t.readLine()).toMatchObject({ ok: true, condition: "idle" });
  expect(await t.readLine()).toMatchObject({ ok: true, region: "viewport" });
  // The client library matches tagged replies by tag while others are pending.
  const [slow, quick] = [t.request({ cmd: "wait", id, idle_ms: 400, tag: 1 }), t.request({ cmd: "list", tag: 2 })];
  const first = await Promise.race([slow.then(() => "wait"), quick.then(() => "list")]);
  expect(first).toBe("list");
  expect((await slow).reply).toMatchObject({ ok: true, tag: 1 });
  t.close();
  await sandbox.request({ cmd: "kill", id });
});

test("item 4: a raw create without cwd starts in the daemon user's home, and the schema says so", async () => {
  const { id } = (await sandbox.request({ cmd: "create", cmd_args: ["sh", "-c", "pwd; exec sleep 100"] })).reply as {
    id: string;
  };
  await waitFor(async () => (await sandbox.screen(id)).trim() !== "", 5000, "pwd");
  expect((await sandbox.screen(id)).split("\n")[0]).toBe(process.env.HOME!);
  await sandbox.request({ cmd: "kill", id });
  const created = await sandbox.ok(["create", "--", "sh", "-c", "pwd; exec sleep 100"]); // the CLI sends its own cwd
  await waitFor(async () => (await sandbox.screen(created)).trim() !== "", 5000, "pwd");
  expect((await sandbox.screen(created)).split("\n")[0]).toBe(sandbox.dir);
  await sandbox.request({ cmd: "kill", id: created });
  const { CreateParams } = await import("../src/commands/create.ts");
  expect(JSON.stringify(CreateParams)).toContain("else the daemon's home");
});

test("item 8: text --tail N reads the last N rows that hold something, and the wire's tail does the same", async () => {
  const id = await sandbox.ok(["create", "--", "sh", "-c", "printf 'one\\ntwo\\nthree\\n> '; exec sleep 100"]);
  await waitFor(async () => (await sandbox.screen(id)).includes("three\n>"), 5000, "the prompt");
  expect(await sandbox.ok(["text", id, "0:3"])).toBe("\n\n"); // rows from the bottom: blank on a fresh screen
  expect(await sandbox.ok(["text", id, "--tail", "3"])).toBe("two\nthree\n>");
  expect((await sandbox.request({ cmd: "text", id, tail: 2 })).reply).toMatchObject({
    lines: ["three", ">"],
    start: 20,
    end: 22,
  });
  // The cursor's row counts even when blank: a program waiting on an empty line.
  const blank = await sandbox.ok(["create", "--", "sh", "-c", "printf 'a\\nb\\n\\n'; exec sleep 100"]);
  await waitFor(async () => (await sandbox.screen(blank)).startsWith("a\nb"), 5000, "a b");
  expect((await sandbox.request({ cmd: "text", id: blank, tail: 3 })).reply.lines).toEqual(["b", "", ""]);
  expect((await sandbox.request({ cmd: "text", id: blank, trim_rows: true })).reply).toMatchObject({
    lines: ["a", "b", "", ""],
    trimmed_rows: 20,
  });
  await sandbox.request({ cmd: "kill", id });
  await sandbox.request({ cmd: "kill", id: blank });
});

test("malformed requests each get an error and the daemon keeps serving", async () => {
  const { id } = (await sandbox.request({ cmd: "create", cmd_args: ["cat"] })).reply as { id: string };
  const raw = await RawClient.open(sandbox.socket);
  const cases: Array<[Uint8Array | string, string]> = [
    ["{not json", "bad_request"],
    ['"just a string"', "bad_request"],
    ['{"cmd": 5}', "bad_request"],
    ['{"cmd": "explode"}', "unknown_cmd"],
    ['{"cmd": "create", "cols": "wide"}', "invalid_params"],
    ['{"cmd": "create", "cols": 0}', "invalid_params"],
    ['{"cmd": "resize", "id": "t1", "cols": 1001, "rows": 10}', "invalid_params"],
    ['{"cmd": "text", "id": "nope"}', "not_found"],
    ['{"cmd": "send", "id": 7, "input": "x"}', "invalid_params"],
    ['{"cmd": "send", "keys": ["Enter"]}', "invalid_params"],
    [`{"cmd": "send", "id": "${id}", "keys": ["NoSuchKey"]}`, "invalid_params"],
    ['{"cmd": "create", "cmd_args": ["/no/such/program"]}', "spawn_failed"],
    ['{"cmd": "create", "cwd": "/no/such/dir"}', "invalid_params"],
    ['{"cmd": "create", "name": "-bad"}', "invalid_params"],
    [new Uint8Array([0x7b, 0x22, 0x63, 0x6d, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), "bad_request"], // invalid UTF-8
    ['{"cmd": "li\u0000st"}', "bad_request"], // raw NUL inside a JSON string
    ["x".repeat(10 * 1024 * 1024), "bad_request"], // a 10 MB line
    ["[".repeat(100000), "bad_request"], // deep nesting
  ];
  for (const [line, code] of cases) {
    raw.write(line);
    raw.write("\n");
    const reply = JSON.parse(await raw.readLine());
    expect({ line: String(line).slice(0, 60), ok: reply.ok, code: reply.code }).toEqual({
      line: String(line).slice(0, 60),
      ok: false,
      code,
    });
    expect(reply.error).toEqual(expect.any(String));
  }
  raw.write('{"cmd":"list"}\n');
  expect(JSON.parse(await raw.readLine())).toMatchObject({ ok: true });
  raw.close();
  expect((await sandbox.request({ cmd: "list" })).reply.terminals).toContainEqual(
    expect.objectContaining({ id, alive: true }),
  );
  await sandbox.request({ cmd: "kill", id });
});

test("a client of another protocol number is refused with version_mismatch, naming the daemon's version and what to do; none or the same is served", async () => {
  const t = await sandbox.connect();
  try {
    const other = (await t.request({ cmd: "list", protocol: 999 })).reply;
    expect(other).toMatchObject({ ok: false, code: "version_mismatch" });
    expect(String(other.error)).toMatch(
      /^this daemon runs t4a \S+, which speaks protocol 1; the client speaks 999: `t4a shutdown` and call again/,
    );
    expect((await t.request({ cmd: "list", protocol: 1 })).reply.ok).toBe(true);
    expect((await t.request({ cmd: "list" })).reply.ok).toBe(true); // raw clients and older ones
    // The CLI sends its number with every call (and is served).
    expect((await sandbox.run(["list"])).code).toBe(0);
  } finally {
    t.close();
  }
});

test("a local peer whose reply lacks what the command prints: one clear error naming what came back, exit 3, no stack", async () => {
  // The CLI prints its own daemon's replies without building their schemas (only a peer over ssh
  // is checked first: the local socket is in a directory only we can use, and a daemon of
  // another protocol number refuses). A reply it cannot print is still said to be the peer's.
  const own = new Sandbox();
  const { mkdirSync } = await import("node:fs");
  mkdirSync(own.socket.slice(0, own.socket.lastIndexOf("/")), { recursive: true, mode: 0o700 });
  const fake = Bun.listen({ unix: own.socket, socket: { data: (socket) => void socket.write('{"ok":true}\n') } });
  try {
    for (const args of [["list"], ["text", "t1"]]) {
      const { code, stderr } = await own.run(args);
      expect({ args, code }).toEqual({ args, code: 3 });
      expect(stderr).toMatch(
        new RegExp(`^t4a: the daemon at \\S+ answered "\\{\\\\"ok\\\\":true\\}", not a ${args[0]} reply: `),
      );
      expect(stderr.trim().split("\n")).toHaveLength(1);
    }
  } finally {
    fake.stop(true);
    await own.cleanup();
  }
});
