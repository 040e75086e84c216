// send: write input to a terminal: a mouse click or wheel turn, raw bytes (base64), text and/or
// named keys, in that order. A mouse report is refused (no_mouse) when the program turned none on.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { actingFields, EmptyReply, TerminalId } from "../protocol/fields.ts";
import { T4aError } from "../protocol/errors.ts";
import { keyBytes } from "../terminal/keys.ts";
import { mouseBytes } from "../terminal/mouse.ts";
import { ACTING_OPTIONS, actingRequest, actor, intOption, listOption } from "./cli-helpers.ts";
import { defineCommand, type CliOptions } from "./command.ts";
import { bracketedPaste, PASTE_END, PASTE_START, unescapeInput } from "../terminal/escapes.ts";

/** A screen cell on the wire: 0-based, as cursor and snapshot count. */
const cell = () => ({
  row: v.pipe(v.number(), v.integer(), v.minValue(0)),
  col: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

export const SendParams = deferred(() =>
  v.object({
    id: TerminalId,
    input: v.optional(v.pipe(v.string(), v.description("text to type, as-is"))),
    input_base64: v.optional(v.pipe(v.string(), v.base64("input_base64 is not valid base64"))),
    keys: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.minLength(1))),
        v.description('named keys after the input, e.g. ["Down", "Enter"]'),
      ),
    ),
    paste: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "input sent as a bracketed paste when the program turned bracketed paste on (tmux paste-buffer -p)",
        ),
      ),
    ),
    click: v.optional(
      v.pipe(
        v.object({
          ...cell(),
          button: v.optional(v.picklist(["left", "middle", "right"])),
          double: v.optional(v.boolean()),
        }),
        v.description("a mouse click at a 0-based cell, before any input (button: left)"),
      ),
    ),
    scroll: v.optional(
      v.pipe(
        v.object({
          direction: v.picklist(["up", "down"]),
          ...cell(),
          count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
        }),
        v.description("mouse wheel turns (count, default 1) at a 0-based cell"),
      ),
    ),
    ...actingFields(),
  }),
);

export const send = defineCommand({
  name: "send",
  params: SendParams,
  reply: EmptyReply,
  async handle(params, ctx) {
    const session = ctx.sessions.get(params.id);
    const terminal = session.alive;
    // Input to a terminal whose need another worker holds is refused; its holder's takes the need.
    const acted = session.sending(actor(params, ctx));
    // Resolve every key before writing anything: a bad name must not leave half the input sent.
    const keys = (params.keys ?? []).map((name) => keyBytes(name, terminal.screen));
    const parts: Array<string | Uint8Array> = [];
    if (params.click && params.scroll)
      throw new T4aError("invalid_params", "click and scroll: one mouse action per send");
    const mouse = params.click
      ? { ...params.click, click: params.click.button ?? "left" }
      : params.scroll
        ? { ...params.scroll, scroll: params.scroll.direction }
        : undefined;
    if (mouse) {
      // The mode of the screen as the program left it with all its output so far.
      await terminal.settled();
      parts.push(mouseBytes(mouse, terminal.screen.mouse(), terminal.screen));
    }
    let bracketed = false;
    if (params.paste && (params.input !== undefined || params.input_base64 !== undefined)) {
      await terminal.settled();
      bracketed = terminal.screen.bracketedPaste;
    }
    const typed: Array<string | Uint8Array> = [];
    if (params.input_base64 !== undefined) typed.push(Buffer.from(params.input_base64, "base64"));
    if (params.input !== undefined) typed.push(params.input);
    // A paste is one part: the terminal types it whole (its lines are text to the shell, not commands).
    if (bracketed) parts.push(pasted(typed));
    else parts.push(...typed);
    if (keys.length) parts.push(keys.join(""));
    await terminal.send(parts);
    acted();
    return {};
  },
  cli: {
    usage: "send <id> [input]",
    summary: "Type into a terminal (C escapes like \\n \\e \\x03 are interpreted; stdin when no input)",
    options: [
      ["-k, --key <name>", "send a named key after the input: Enter, Tab, C-c, M-x, Up, F5… (repeatable)"],
      [
        "--click <row:col>",
        "click the mouse at a cell, 0-based from the top left as cursor and " +
          "snapshot count (the program must have turned mouse reporting on)",
      ],
      ["--button <name>", "with --click: left (default), middle or right"],
      ["--double", "with --click: a double click"],
      ["--scroll <up|down>", "turn the mouse wheel at the cell given next: --scroll down 10:5"],
      ["--count <n>", "with --scroll: wheel turns (default 1)"],
      ...ACTING_OPTIONS,
    ],
    examples: [
      't4a send t1 "ls -la\\n"',
      "t4a send t1 -k C-c",
      "printf 'exit\\n' | t4a send t1",
      "t4a send t1 --click 23:70",
      "t4a send t1 --scroll down 5:10 --count 3",
    ],
    async request([id, ...rest], options) {
      const mouse = mouseRequest(rest, options);
      // --scroll's cell is the first word after it.
      const input = options.scroll === undefined ? rest[0] : rest[1];
      const keys = listOption(options.key);
      const acting = actingRequest(options);
      if (input !== undefined)
        return { id, ...mouse, input: unescapeInput(input), keys: keys.length ? keys : undefined, ...acting };
      if (keys.length || mouse) return { id, ...mouse, keys: keys.length ? keys : undefined, ...acting };
      const bytes = new Uint8Array(await Bun.stdin.arrayBuffer());
      return { id, input_base64: Buffer.from(bytes).toString("base64"), ...acting };
    },
  },
  mcp: {
    tool: "terminal_send",
    description:
      "Type into a terminal: `input` as text (a newline presses Enter), " +
      "then `keys`: Enter Tab Escape BSpace Up Down Left Right Home End " +
      "PageUp PageDown Delete F1…F12, single characters, C- M- " +
      'S- prefixes (C-c, M-x, S-Tab). Answers "ok" at once: then ' +
      "terminal_wait (idle_ms). A shell command and its output: terminal_exec.",
    // Raw bytes are for shell pipes; JSON strings already carry any character a model would type.
    hide: ["input_base64", "paste", "worker", "force"],
    group: {
      field: "mouse",
      fields: ["click", "scroll"],
      description:
        "click {row,col,button?,double?} or scroll {direction:up|down,row,col,count?}, 0-based; no_mouse: mouse is off",
    },
  },
  http: [{ method: "POST", path: "/api/sessions/:id/send" }],
});

/** --click ROW:COL [--button B] [--double], or --scroll up|down ROW:COL [--count N], as wire fields. */
function mouseRequest(args: string[], options: CliOptions): { click: object } | { scroll: object } | undefined {
  if (options.click === undefined && options.scroll === undefined) return undefined;
  const at = (value: unknown, flag: string) => {
    const match = /^(\d+):(\d+)$/.exec(String(value ?? ""));
    if (!match)
      throw new T4aError(
        "invalid_params",
        `${flag}: expected a cell as ROW:COL (0-based), got ${value === undefined ? "nothing" : `"${value}"`}`,
      );
    return { row: Number(match[1]), col: Number(match[2]) };
  };
  if (options.click !== undefined) {
    const button = options.button === undefined ? undefined : String(options.button);
    return { click: { ...at(options.click, "--click"), button, double: options.double === true || undefined } };
  }
  return {
    scroll: {
      direction: String(options.scroll),
      ...at(args[0], "--scroll"),
      count: intOption(options.count, "--count"),
    },
  };
}

/** Input as one bracketed paste: a string when it is text (so waits know its echo), else bytes. */
function pasted(typed: Array<string | Uint8Array>): string | Uint8Array {
  if (typed.every((part) => typeof part === "string")) return bracketedPaste(typed.join(""));
  return Buffer.concat([Buffer.from(PASTE_START), ...typed.map((part) => Buffer.from(part)), Buffer.from(PASTE_END)]);
}
