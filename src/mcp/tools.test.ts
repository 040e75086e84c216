// The tool table in-process: what the command files declare must match their schemas, and
// replies take the tool-result shape the model reads.
import { expect, test } from "bun:test";
import * as v from "valibot";
import { commands } from "../commands/index.ts";
import { mcpSpecs, toolRequest, toolResult, tools, toolsByName } from "./tools.ts";

test("tool names are unique and every hidden field is a real param (a typo would hide nothing)", () => {
  expect(toolsByName.size).toBe(tools.length);
  for (const command of commands) {
    const entries = (command.params as unknown as v.ObjectSchema<v.ObjectEntries, undefined>).entries;
    for (const field of mcpSpecs(command).flatMap((spec) => spec.hide ?? [])) expect({ command: command.name, field, known: field in entries }).toMatchObject({ known: true });
  }
});

test("hidden fields never reach the daemon, and a call cannot rename its command", () => {
  const screenshot = toolsByName.get("terminal_screenshot")!;
  expect(toolRequest(screenshot, { id: "t1", encoding: "base64", cmd: "shutdown" })).toEqual({ id: "t1", cmd: "screenshot" });
});

test("a refusal is a tool error with the daemon's code; a reply without fields reads ok", () => {
  const kill = toolsByName.get("terminal_kill")!;
  expect(toolResult(kill, { ok: false, error: 'terminal "t9" not found', code: "not_found" })).toEqual({
    isError: true,
    content: [{ type: "text", text: 'not_found: terminal "t9" not found' }],
  });
  expect(toolResult(kill, { ok: true, tag: 3 })).toEqual({ content: [{ type: "text", text: "ok" }] });
});
