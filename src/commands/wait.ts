// wait: block until a condition holds on a terminal — idle, text or regex in new output (never the
// echo of typed input), text gone, a command done, exit — or the timeout passes (a `timeout` error).
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import { Milliseconds, TerminalId } from "../protocol/fields.ts";
import { defineCommand } from "./command.ts";
import { durationOption } from "./durations.ts";

export const MAX_WAIT_MS = 3_600_000;
export const DEFAULT_WAIT_MS = 30_000;

export const WaitParams = v.object({
  id: TerminalId,
  idle_ms: v.optional(v.pipe(Milliseconds, v.minValue(1))),
  text: v.optional(v.pipe(v.string(), v.minLength(1))),
  regex: v.optional(v.pipe(v.string(), v.minLength(1))),
  gone: v.optional(v.pipe(v.string(), v.minLength(1))),
  command_done: v.optional(v.boolean()),
  exit: v.optional(v.boolean()),
  timeout_ms: v.optional(v.pipe(Milliseconds, v.minValue(1), v.maxValue(MAX_WAIT_MS)), DEFAULT_WAIT_MS),
});

export const wait = defineCommand({
  name: "wait",
  params: WaitParams,
  async handle(params, ctx) {
    const terminal = ctx.pool.get(params.id);
    const { idle_ms, text, gone, command_done, exit } = params;
    if (idle_ms === undefined && text === undefined && params.regex === undefined && gone === undefined && !command_done && !exit) {
      throw new T4aError("invalid_params", "wait needs a condition: idle_ms, text, regex, gone, command_done or exit");
    }
    let regex: RegExp | undefined;
    try {
      regex = params.regex === undefined ? undefined : new RegExp(params.regex);
    } catch (error) {
      throw new T4aError("invalid_params", `invalid regex: ${(error as Error).message}`);
    }
    return { ...(await terminal.wait({ idle_ms, text, regex, gone, command_done, exit }, params.timeout_ms)) };
  },
  cli: {
    usage: "wait <id>",
    summary: "Wait until idle, text appears (in new output), text is gone, a command is done, or exit",
    options: [
      ["--idle [duration]", "no output for this long (default 2s)"],
      ["--text <text>", "this text appears in output that arrives after the wait began"],
      ["--regex <regex>", "a line of new output matches (JavaScript syntax)"],
      ["--gone <text>", "this text is no longer on the screen"],
      ["--done", "the running shell command finishes (needs shell integration)"],
      ["--exit", "the program exits"],
      ["--timeout <duration>", "give up after this long: 500ms, 30s, 2m (default 30s)"],
    ],
    examples: ['t4a send t1 "make\\n" && t4a wait t1 --done --timeout 10m', "t4a wait t1 --text 'Listening on' --timeout 1m", "t4a wait t1 --idle 1s"],
    request([id], options) {
      return {
        id,
        idle_ms: options.idle === undefined ? undefined : options.idle === true ? 2000 : durationOption(options.idle, "--idle"),
        text: options.text === undefined ? undefined : String(options.text),
        regex: options.regex === undefined ? undefined : String(options.regex),
        gone: options.gone === undefined ? undefined : String(options.gone),
        command_done: options.done ? true : undefined,
        exit: options.exit ? true : undefined,
        timeout_ms: durationOption(options.timeout, "--timeout"),
      };
    },
    print(response) {
      if (response.line !== undefined) console.log(response.line);
      else if (response.code !== undefined) console.log(response.code ?? response.signal);
    },
  },
});
