// dispatch in-process, no socket: the wire surface is frozen by a snapshot (its diff is the review),
// and errors take their wire form here.
import { afterAll, expect, test } from "bun:test";
import * as v from "valibot";
import { commands } from "../commands/index.ts";
import { ErrorCodes } from "../protocol/errors.ts";
import { TerminalEvent, ViewerEvent } from "../protocol/events.ts";
import { EventBus } from "../terminal/event-bus.ts";
import type { DaemonContext } from "../commands/context.ts";
import { dispatch, dispatchLine } from "./dispatch.ts";
import { Manifest } from "../service/manifest.ts";
import { Sessions } from "../session/sessions.ts";
import { ScreenPool } from "../terminal/screen-pool.ts";

const bus = new EventBus();
const config = {
  idle_timeout_ms: 2000,
  scrollback_lines: 1000,
  scrollback_bytes: 0,
  kill_grace_ms: 200,
  max_sessions: 2,
};
const spawn = {
  socketPath: "/nowhere",
  stateDir: "/nowhere/state",
  configDir: "/nowhere/config/t4a",
  worktreesDir: "/nowhere/state/worktrees",
  conversationsFile: "/nowhere/state/conversations.json",
  integrationDir: "/nowhere/shell-integration",
  daemonEnv: process.env as Record<string, string>,
  t4aPath: "t4a",
  selfArgv: ["t4a"],
};
const ctx: DaemonContext = {
  sessions: new Sessions({
    bus,
    config,
    spawn,
    manifest: new Manifest("/nowhere/manifest.json"),
    screens: new ScreenPool(),
  }),
  bus,
  config,
  version: "test",
  startedAt: performance.now(),
  socketPath: "/nowhere",
  stateDir: "/nowhere/state",
  daemonEnv: spawn.daemonEnv,
  requestShutdown: () => {},
};
afterAll(() => ctx.sessions.killAll());

/** A readable type for a valibot schema: `string`, `number?`, `"a"|"b"`, `{…}`. */
function describe(schema: v.GenericSchema): string {
  const s = schema as unknown as {
    type: string;
    wrapped?: v.GenericSchema;
    entries?: Record<string, v.GenericSchema>;
    item?: v.GenericSchema;
    options?: unknown[];
    value?: v.GenericSchema;
    literal?: unknown;
  };
  // v.partial of an optional field wraps it twice: one "?" says it.
  if (s.type === "optional") return `${describe(s.wrapped!).replace(/\?$/, "")}?`;
  if (s.type === "nullable") return `${describe(s.wrapped!)}|null`;
  if (s.type === "literal") return JSON.stringify(s.literal);
  if (s.type === "variant") return (s.options as v.GenericSchema[]).map(describe).join(" | ");
  if (s.type === "object")
    return `{ ${Object.entries(s.entries!)
      .map(([key, value]) => `${key}: ${describe(value)}`)
      .join(", ")} }`;
  if (s.type === "array") return `${describe(s.item!)}[]`;
  if (s.type === "picklist") return s.options!.map((o) => JSON.stringify(o)).join("|");
  if (s.type === "record") return `record<string, ${describe(s.value!)}>`;
  if (s.type === "union") return (s.options as v.GenericSchema[]).map(describe).join("|");
  return s.type;
}

test("the wire surface: commands, their params and the error codes", () => {
  const surface = commands.map((command) => `${command.name} ${describe(command.params)}`);
  expect({ commands: surface, errors: ErrorCodes }).toMatchSnapshot();
});

test("the wire surface: every command's reply, the events and what a viewer is told", () => {
  const replies = commands.map((command) => `${command.name} -> ${describe(command.reply)}`);
  const events = (TerminalEvent.options as v.GenericSchema[]).map(describe);
  expect({
    replies,
    events,
    viewer_events: (ViewerEvent.options as v.GenericSchema[]).map(describe),
  }).toMatchSnapshot();
});

test("a reply that does not match its schema is an internal error while replies are checked", async () => {
  const list = commands.find((command) => command.name === "list")!;
  expect(v.safeParse(list.reply, { terminals: [{ id: "t1" }] }).success).toBe(false);
  expect(v.safeParse(list.reply, { terminals: [] }).success).toBe(true);
});

test("errors take their wire form, with the tag echoed", async () => {
  expect((await dispatch({ cmd: "text", id: "t9", tag: 7 }, ctx)).reply).toEqual({
    ok: false,
    error: 'terminal "t9" not found',
    code: "not_found",
    tag: 7,
  });
  expect((await dispatch({ cmd: "resize", id: "t1", cols: 0, rows: 5 }, ctx)).reply).toMatchObject({
    ok: false,
    code: "invalid_params",
    error: "invalid resize request: cols: must be at least 1",
  });
  expect((await dispatch([], ctx)).reply).toMatchObject({ ok: false, code: "bad_request" });
  expect((await dispatchLine(new TextEncoder().encode("{"), ctx)).reply).toMatchObject({
    ok: false,
    code: "bad_request",
    error: "request is not valid JSON",
  });
  expect((await dispatchLine(new Uint8Array([0x22, 0xc3, 0x22]), ctx)).reply).toMatchObject({
    ok: false,
    code: "bad_request",
    error: "request is not valid UTF-8",
  });
});

test("the session limit and name clashes are refused", async () => {
  const first = (await dispatch({ cmd: "create", name: "one", cmd_args: ["cat"] }, ctx)).reply;
  expect(first).toMatchObject({ ok: true, id: "one" });
  expect((await dispatch({ cmd: "create", name: "one", cmd_args: ["cat"] }, ctx)).reply).toMatchObject({
    ok: false,
    code: "exists",
  });
  expect((await dispatch({ cmd: "create", cmd_args: ["cat"] }, ctx)).reply).toMatchObject({ ok: true, id: "t1" });
  expect((await dispatch({ cmd: "create", cmd_args: ["cat"] }, ctx)).reply).toMatchObject({ ok: false, code: "busy" });
  expect((await dispatch({ cmd: "kill", id: "one" }, ctx)).reply).toEqual({ ok: true });
  expect((await dispatch({ cmd: "kill", id: "t1" }, ctx)).reply).toEqual({ ok: true });
});
