// send: write input to a terminal: text, raw bytes (base64) and/or named keys, in that order.
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import { TerminalId } from "../protocol/fields.ts";
import { keyBytes } from "../terminal/keys.ts";
import { listOption } from "./cli-helpers.ts";
import { defineCommand } from "./command.ts";
import { unescapeInput } from "../cli/escapes.ts";

export const SendParams = v.object({
  id: TerminalId,
  input: v.optional(v.string()),
  input_base64: v.optional(v.pipe(v.string(), v.base64("input_base64 is not valid base64"))),
  keys: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
});

export const send = defineCommand({
  name: "send",
  params: SendParams,
  handle(params, ctx) {
    const terminal = ctx.pool.get(params.id);
    if (!terminal.alive) throw new T4aError("exited", `terminal "${params.id}" has exited`);
    // Resolve every key before writing anything: a bad name must not leave half the input sent.
    const keys = (params.keys ?? []).map((name) => keyBytes(name, terminal.screen));
    if (params.input_base64 !== undefined) terminal.write(Buffer.from(params.input_base64, "base64"));
    if (params.input !== undefined) terminal.write(params.input);
    if (keys.length) terminal.write(keys.join(""));
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
});
