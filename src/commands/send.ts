// send: write input to a terminal: text, raw bytes (base64) and/or named keys, in that order.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { EmptyReply, TerminalId } from "../protocol/fields.ts";
import { keyBytes } from "../terminal/keys.ts";
import { listOption } from "./cli-helpers.ts";
import { defineCommand } from "./command.ts";
import { unescapeInput } from "../terminal/escapes.ts";

export const SendParams = deferred(() => v.object({
  id: TerminalId,
  input: v.optional(v.pipe(v.string(), v.description("text to type, written as-is: a newline presses Enter"))),
  input_base64: v.optional(v.pipe(v.string(), v.base64("input_base64 is not valid base64"))),
  keys: v.optional(
    v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.description('named keys to press after the input, in order, e.g. ["C-c"] or ["Down", "Enter"]')),
  ),
}));

export const send = defineCommand({
  name: "send",
  params: SendParams,
  reply: EmptyReply,
  async handle(params, ctx) {
    const terminal = ctx.sessions.get(params.id).alive;
    // Resolve every key before writing anything: a bad name must not leave half the input sent.
    const keys = (params.keys ?? []).map((name) => keyBytes(name, terminal.screen));
    const parts: Array<string | Uint8Array> = [];
    if (params.input_base64 !== undefined) parts.push(Buffer.from(params.input_base64, "base64"));
    if (params.input !== undefined) parts.push(params.input);
    if (keys.length) parts.push(keys.join(""));
    await terminal.send(parts);
    return {};
  },
  cli: {
    usage: "send <id> [input]",
    summary: "Type into a terminal (C escapes like \\n \\e \\x03 are interpreted; stdin when no input)",
    options: [["-k, --key <name>", "send a named key after the input: Enter, Tab, C-c, M-x, Up, F5… (repeatable)"]],
    examples: ['t4a send t1 "ls -la\\n"', "t4a send t1 -k C-c", "printf 'exit\\n' | t4a send t1"],
    async request([id, input], options) {
      const keys = listOption(options.key);
      if (input !== undefined) return { id, input: unescapeInput(input), keys: keys.length ? keys : undefined };
      if (keys.length) return { id, keys };
      const bytes = new Uint8Array(await Bun.stdin.arrayBuffer());
      return { id, input_base64: Buffer.from(bytes).toString("base64") };
    },
  },
  mcp: {
    tool: "terminal_send",
    description:
      "Type into a terminal: `input` as text (a newline presses Enter), then `keys` in order: Enter Tab Escape BSpace Up Down Left Right Home End " +
      "PageUp PageDown Delete F1…F12, single characters, with C- M- S- prefixes (C-c, M-x, S-Tab). Answers \"ok\" at once: follow with " +
      "terminal_wait (idle_ms), then terminal_screenshot or terminal_read. For a shell command and its output, terminal_exec is one call.",
    // Raw bytes are for shell pipes; JSON strings already carry any character a model would type.
    hide: ["input_base64"],
  },
  http: [{ method: "POST", path: "/api/sessions/:id/send" }],
});
