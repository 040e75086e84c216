// `t4a mcp` end to end: the compiled binary as a subprocess, driven by the MCP SDK's own stdio
// client. Every tool listed with a schema, an agent's turn, tool errors that leave the server
// serving, blocking calls beside quick ones, a daemon restart, and how fast the server answers.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { decodePng } from "../src/render/png.ts";
import { BIN, fdCount, isAlive, Sandbox, waitFor } from "./harness.ts";

const TOOLS = [
  "agent_approve",
  "agent_ask",
  "agent_deny",
  "terminal_choose",
  "terminal_create",
  "terminal_cursor",
  "terminal_exec",
  "terminal_fill",
  "terminal_kill",
  "terminal_list",
  "terminal_read",
  "terminal_resize",
  "terminal_run",
  "terminal_screenshot",
  "terminal_send",
  "terminal_snapshot",
  "terminal_wait",
  "terminal_write",
];
const BASH = ["bash", "--norc", "--noprofile"];

let sandbox: Sandbox;
let transport: StdioClientTransport;
let client: Client;

beforeAll(async () => {
  sandbox = new Sandbox();
  transport = new StdioClientTransport({
    command: BIN,
    args: ["mcp"],
    env: sandbox.env,
    cwd: sandbox.dir,
    stderr: "pipe",
  });
  client = new Client({ name: "t4a-test", version: "0" });
  await client.connect(transport);
});

afterAll(async () => {
  await client.close();
  await sandbox.cleanup();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a successful call; a tool error fails the test with its message. */
async function ok(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await call(name, args);
  const text = textOf(result);
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return text;
}

function textOf(result: CallToolResult): string {
  return result.content.map((item) => (item.type === "text" ? item.text : `<${item.type}>`)).join("\n");
}

async function createBash(): Promise<string> {
  return JSON.parse(await ok("terminal_create", { cmd_args: BASH, env: { HOME: sandbox.dir } })).id;
}

test("tools/list offers every tool with a description and a JSON Schema whose fields are described", async () => {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
  for (const tool of tools) {
    expect(tool.description!.length).toBeGreaterThan(100);
    expect(tool.inputSchema.type).toBe("object");
    for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      expect({
        tool: tool.name,
        field,
        described: typeof (schema as { description?: unknown }).description,
      }).toMatchObject({ described: "string" });
    }
  }
  const byName = new Map(tools.map((tool) => [tool.name, tool.inputSchema]));
  expect(byName.get("terminal_send")).toMatchObject({
    required: ["id"],
    properties: { input: { type: "string" }, keys: { type: "array" } },
  });
  expect(byName.get("terminal_read")!.properties!.region).toMatchObject({
    enum: ["viewport", "scrollback", "all"],
    default: "viewport",
  });
  expect(byName.get("terminal_resize")!.required).toEqual(["id", "cols", "rows"]);
  expect(byName.get("terminal_create")!.properties!.cols).toMatchObject({
    type: "integer",
    minimum: 1,
    maximum: 1000,
    default: 80,
  });
  // What the tools leave out: the image always comes inline, bytes go as text, idle events are not offered.
  expect(Object.keys(byName.get("terminal_screenshot")!.properties!)).not.toContain("encoding");
  expect(Object.keys(byName.get("terminal_send")!.properties!)).not.toContain("input_base64");
  expect(Object.keys(byName.get("terminal_create")!.properties!)).not.toContain("idle_timeout_ms");
});

test("an agent's turn: create, send, wait, screenshot, read, run, resize, list, kill", async () => {
  const id = await createBash();
  expect(id).toMatch(/^t\d+$/);
  expect(await ok("terminal_send", { id, input: "echo hello-$((6*7))", keys: ["Enter"] })).toBe("ok");
  expect(JSON.parse(await ok("terminal_wait", { id, idle_ms: 300, timeout_ms: 10_000 }))).toMatchObject({
    condition: "idle",
  });

  const shot = await call("terminal_screenshot", { id });
  expect(shot.isError).toBeFalsy();
  expect(shot.content).toHaveLength(1);
  const image = shot.content[0];
  if (image.type !== "image") throw new Error(`expected an image, got ${image.type}`);
  expect(image.mimeType).toBe("image/png");
  expect(decodePng(Buffer.from(image.data, "base64"))).toMatchObject({ width: 528, height: 317 });

  // Plain lines under a one-line header: counts, the rows read and the token for delta reads.
  const screen = await waitFor(
    async () => {
      const text = await ok("terminal_read", { id });
      return text.includes("\nhello-42") && text;
    },
    10_000,
    "hello-42 on the screen",
  );
  const [header, ...lines] = screen.split("\n");
  // Item 14: the blank rows below the prompt are left out, and the header says how many.
  const [, shown, lowest, trimmed] =
    /^\[(\d+) of 24 viewport lines, rows 23\.\.(\d+) from the bottom, (\d+) blank rows below left out; token \S+\]$/
      .exec(header)!
      .map(Number);
  expect(lines).toHaveLength(shown!);
  expect(shown! + trimmed!).toBe(24);
  expect(lowest).toBe(trimmed);
  expect(lines).toContain("hello-42");
  expect(lines.at(-1)).toMatch(/[$#] ?$/); // the prompt on the cursor row is kept
  const whole = (await ok("terminal_read", { id, trim_rows: false })).split("\n");
  expect(whole[0]).toMatch(/^\[24 of 24 viewport lines, rows 23\.\.0 from the bottom; token/);
  expect(whole).toHaveLength(25);
  const token = /token (\S+)\]/.exec(header)![1];
  expect((await ok("terminal_read", { id, start: 0, end: 2 })).split("\n")[0]).toMatch(
    /^\[2 of 24 viewport lines, rows 1\.\.0 from the bottom;/,
  );

  await ok("terminal_send", { id, input: "echo second\n" });
  const delta = await waitFor(
    async () => {
      const text = await ok("terminal_read", { id, since: token });
      return text.includes(": second") && text;
    },
    10_000,
    "the delta read to show the new line",
  );
  expect(delta.split("\n")[0]).toMatch(/^\[\d+ of 24 viewport lines changed, as "row: text", 0 = bottom; token \S+\]$/);
  expect(delta).toMatch(/\n\d+: second\n/);

  const run = await ok("terminal_run", { id, command: "pwd; echo run-out; (exit 3)", timeout_ms: 15_000 });
  expect(run.split("\n")).toEqual([
    expect.stringMatching(/^\[exit code 3; 2 output lines; \d+ ms\]$/),
    sandbox.dir,
    "run-out",
  ]);

  expect(JSON.parse(await ok("terminal_resize", { id, cols: 100, rows: 30 }))).toEqual({ cols: 100, rows: 30 });
  expect(await ok("terminal_list")).toMatch(new RegExp(`^${id}\\t100x30\\t\\d+\\talive\\t`, "m"));
  expect(await ok("terminal_kill", { id })).toBe("ok");
  expect(await ok("terminal_list")).not.toMatch(new RegExp(`^${id}\\t`, "m"));
});

test("bad calls are tool errors with the daemon's code and message, and the server keeps serving", async () => {
  const missing = await call("terminal_read", { id: "t404" });
  expect(missing).toMatchObject({ isError: true });
  expect(textOf(missing)).toBe('not_found: terminal "t404" not found');
  const wrongType = await call("terminal_create", { cols: "wide" });
  expect(wrongType.isError).toBe(true);
  expect(textOf(wrongType)).toStartWith("invalid_params: ");
  expect(textOf(wrongType)).toContain("cols");
  expect(textOf(await call("terminal_send", { id: 42, input: "x" }))).toStartWith("invalid_params: ");
  expect(textOf(await call("terminal_wait", { id: "t404", idle_ms: 10 }))).toStartWith("not_found: ");
  await expect(client.callTool({ name: "terminal_frobnicate", arguments: {} })).rejects.toThrow(
    'unknown tool "terminal_frobnicate"',
  );
  expect(await ok("terminal_list")).toBeString();
});

test("a blocking wait holds up no other call, and answers once its text arrives", async () => {
  const id = await createBash();
  let settled = false;
  const waiting = ok("terminal_wait", { id, text: "marker-7", timeout_ms: 20_000 }).finally(() => (settled = true));
  let answeredWhileWaiting = 0;
  // The wait starts on its own connection at its own pace: type until it has seen the marker.
  await waitFor(
    async () => {
      await ok("terminal_list");
      if (!settled) answeredWhileWaiting++;
      await ok("terminal_send", { id, input: "echo marker-$((3+4))\n" });
      return settled;
    },
    15_000,
    "the wait to see the marker",
  );
  expect(answeredWhileWaiting).toBeGreaterThan(0);
  expect(JSON.parse(await waiting)).toMatchObject({ condition: "text", line: "marker-7" });
  await ok("terminal_kill", { id });
});

test("item 9: blocking and quick calls share one tagged connection; a cancelled wait lets go at once", async () => {
  const id = await createBash();
  await ok("terminal_list"); // the shared connection is open before counting
  const before = fdCount(transport.pid!);
  const cancel = new AbortController();
  const waiting = client.callTool(
    { name: "terminal_wait", arguments: { id, text: "never-printed", timeout_ms: 60_000 } },
    undefined,
    { signal: cancel.signal },
  );
  for (let i = 0; i < 5; i++) expect(await ok("terminal_list")).toContain(`${id}\t`);
  expect(fdCount(transport.pid!)).toBe(before);
  cancel.abort();
  await expect(waiting).rejects.toThrow();
  expect(await ok("terminal_list")).toContain(`${id}\t`);
  await ok("terminal_kill", { id });
});

test("item 15: terminal_cursor tells where the cursor is", async () => {
  const id = JSON.parse(
    await ok("terminal_create", { cmd_args: ["sh", "-c", "printf 'ab\\ncdef'; exec sleep 100"] }),
  ).id;
  await waitFor(async () => (await ok("terminal_read", { id })).includes("cdef"), 10_000, "the text");
  expect(JSON.parse(await ok("terminal_cursor", { id }))).toEqual({ row: 1, col: 4, visible: true, style: "block" });
  await ok("terminal_kill", { id });
});

test("terminal_snapshot: a whiptail yes/no as an outline, its buttons on one line with the focused one", async () => {
  const id = JSON.parse(
    await ok("terminal_create", {
      cmd_args: ["whiptail", "--title", "Confirm", "--yesno", "Delete all files?", "8", "40"],
    }),
  ).id;
  await waitFor(async () => (await ok("terminal_snapshot", { id })).includes("buttons:"), 30_000, "the dialog");
  const outline = await ok("terminal_snapshot", { id });
  expect(outline).toMatch(/^\[80x24, cursor \d+:\d+/);
  expect(outline).toContain('- dialog "Confirm" [e1]');
  expect(outline).toMatch(/- buttons: "Yes" \[e\d+\] \(selected\), "No" \[e\d+\]/);
  await ok("terminal_kill", { id });
});

test("item 16: a long wait sends progress notifications with the elapsed time and the last line", async () => {
  const id = await createBash();
  await ok("terminal_send", { id, input: "echo progress-line; sleep 2.5; echo finished-$((1+1))\n" });
  const progress: Array<{ progress: number; message?: string }> = [];
  const result = await client.callTool(
    { name: "terminal_wait", arguments: { id, text: "finished-2", timeout_ms: 20_000 } },
    undefined,
    {
      onprogress: (notification) => progress.push(notification),
    },
  );
  expect(textOf(result as CallToolResult)).toContain("finished-2");
  expect(progress.length).toBeGreaterThanOrEqual(1);
  expect(progress[0]!.progress).toBeGreaterThan(0.5);
  expect(progress.some((p) => /^waiting [\d.]+ s; last line: /.test(p.message ?? ""))).toBe(true);
  await ok("terminal_kill", { id });
});

test("after the daemon restarts, the next call reaches a new one", async () => {
  await ok("terminal_list");
  const first = await sandbox.daemonPid();
  await sandbox.ok(["shutdown"]);
  await waitFor(() => !isAlive(first), 5000, "the daemon to exit");
  const id = JSON.parse(await ok("terminal_create", { cmd_args: ["cat"] })).id;
  const second = await sandbox.daemonPid();
  expect(second).not.toBe(first);
  expect(await ok("terminal_list")).toContain(`${id}\t`);
  await ok("terminal_kill", { id });
});

test("a client that ends stdin after its requests still gets every answer", async () => {
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "0" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "terminal_list", arguments: {} } },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "terminal_read", arguments: { id: "t404" } } },
  ];
  const input = `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
  const result = await sandbox.run(["mcp"], input);
  expect(result.code).toBe(0);
  const answers = result.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2, 3]);
  expect(answers.find((answer) => answer.id === 3).result).toMatchObject({ isError: true });
});

// Its times are printed, not held to a bound: a loaded machine took 1.8 s from process start where
// an idle one takes tens of ms, and no test here depends on speed.
test("the server answers a fresh process's initialize and tools/list, seven times (its times printed)", async () => {
  const handshake: number[] = [];
  const total: number[] = [];
  for (let run = 0; run < 7; run++) {
    const times = await timeStartup();
    handshake.push(times.handshakeMs);
    total.push(times.totalMs);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];
  console.log(
    `t4a mcp: initialize → tools/list median ${median(handshake).toFixed(1)} ms; process start → tools/list median ${median(total).toFixed(1)} ms (7 runs)`,
  );
  expect(handshake.length).toBe(7);
});

/**
 * Raw JSON-RPC over pipes, to time the two spans apart: a ping tells when the process serves,
 * then initialize, initialized and tools/list.
 */
async function timeStartup(): Promise<{ handshakeMs: number; totalMs: number }> {
  const started = performance.now();
  const child = Bun.spawn([BIN, "mcp"], { env: sandbox.env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  const reader = child.stdout.getReader();
  let buffered = "";
  const answer = async (id: number) => {
    for (;;) {
      const newline = buffered.indexOf("\n");
      if (newline !== -1) {
        const message = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (message.id === id) return message;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error(`t4a mcp closed stdout before answering ${id}`);
      buffered += new TextDecoder().decode(value);
    }
  };
  const send = (message: object) => {
    child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stdin.flush();
  };
  try {
    send({ jsonrpc: "2.0", id: 0, method: "ping" });
    await answer(0);
    const initializing = performance.now();
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "timer", version: "0" } },
    });
    await answer(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect((await answer(2)).result.tools).toHaveLength(TOOLS.length);
    const listed = performance.now();
    return { handshakeMs: listed - initializing, totalMs: listed - started };
  } finally {
    child.stdin.end();
    await child.exited;
  }
}
