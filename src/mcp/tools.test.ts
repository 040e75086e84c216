// The tool table in-process: what the command files declare must match their schemas, and
// replies take the tool-result shape the model reads.
import { expect, test } from "bun:test";
import type * as v from "valibot";
import { commands } from "../commands/index.ts";
import { mcpSpecs, toolRequest, toolResult, tools, toolsByName } from "./tools.ts";

test("tool names are unique and every hidden field is a real param (a typo would hide nothing)", () => {
  expect(toolsByName.size).toBe(tools.length);
  for (const command of commands) {
    const entries = (command.params as unknown as v.ObjectSchema<v.ObjectEntries, undefined>).entries;
    for (const field of mcpSpecs(command).flatMap((spec) => spec.hide ?? []))
      expect({ command: command.name, field, known: field in entries }).toMatchObject({ known: true });
  }
});

test("hidden fields never reach the daemon, and a call cannot rename its command", () => {
  const screenshot = toolsByName.get("terminal_screenshot")!;
  expect(toolRequest(screenshot, { id: "t1", encoding: "base64", cmd: "shutdown" })).toEqual({
    id: "t1",
    cmd: "screenshot",
  });
});

test("a refusal is a tool error with the daemon's code; a reply without fields reads ok", () => {
  const kill = toolsByName.get("terminal_kill")!;
  expect(toolResult(kill, { ok: false, error: 'terminal "t9" not found', code: "not_found" })).toEqual({
    isError: true,
    content: [{ type: "text", text: 'not_found: terminal "t9" not found' }],
  });
  expect(toolResult(kill, { ok: true, tag: 3 })).toEqual({ content: [{ type: "text", text: "ok" }] });
});

test(
  "the tool definitions a client pays for on every turn stay " +
    "within wave 2's size (10 tools, ~4.0k tokens) as tools are added",
  () => {
    // Measured as the JSON a client lists (name, description, schema), ~4 characters a token;
    // 16 111 characters is what the 10 tools of wave 2 cost (about 4.1k tokens by the MCP Inspector).
    const size = tools.reduce(
      (sum, tool) =>
        sum + JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }).length,
      0,
    );
    expect(size).toBeLessThanOrEqual(16_111);
  },
);

test("terminal_create's rarely used fields come in one `more` object and go out flat; nothing else rides in it", () => {
  const create = toolsByName.get("terminal_create")!;
  expect(create.inputSchema.properties).not.toHaveProperty("scrollback");
  expect(create.inputSchema.properties).toHaveProperty("more");
  const request = toolRequest(create, {
    cmd_args: ["bash"],
    more: { scrollback: 50, persist: true, cmd: "shutdown", client_env: { X: "1" } },
  });
  expect(request).toMatchObject({ cmd: "create", cmd_args: ["bash"], scrollback: 50, persist: true });
  expect(request).not.toHaveProperty("more");
  // client_env is the server's own to fill (hidden), never the caller's.
  expect(request.client_env).not.toEqual({ X: "1" });
});

test("terminal_send's mouse object goes out as the wire's click or scroll, and nothing else rides in it", () => {
  const send = toolsByName.get("terminal_send")!;
  expect(send.inputSchema.properties).not.toHaveProperty("click");
  expect(toolRequest(send, { id: "t1", mouse: { click: { row: 3, col: 4 }, input: "x" } })).toEqual({
    id: "t1",
    click: { row: 3, col: 4 },
    cmd: "send",
  });
  expect(toolRequest(send, { id: "t1", mouse: { scroll: { direction: "down", row: 0, col: 0 } } })).toMatchObject({
    scroll: { direction: "down" },
  });
});
