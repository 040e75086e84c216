// run: type a command into a terminal's integrated shell, wait for it to finish, and answer its
// exit code and output lines — `t4a run t1 -- make test` behaves like `ssh host make test`.
import * as v from "valibot";
import { Milliseconds, TerminalId } from "../protocol/fields.ts";
import { intOption } from "./cli-helpers.ts";
import { defineCommand } from "./command.ts";
import { durationOption } from "./durations.ts";
import { MAX_WAIT_MS } from "./wait.ts";

export const RunParams = v.object({
  id: TerminalId,
  command: v.pipe(v.string(), v.minLength(1, "command must not be empty")),
  timeout_ms: v.optional(v.pipe(Milliseconds, v.minValue(1), v.maxValue(MAX_WAIT_MS)), 600_000),
  max_lines: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100_000)), 1000),
});

export const run = defineCommand({
  name: "run",
  params: RunParams,
  async handle(params, ctx) {
    const terminal = ctx.pool.get(params.id);
    return { ...(await terminal.run(params.command, params.timeout_ms, params.max_lines)) };
  },
  cli: {
    usage: "run <id> [...command]",
    summary: "Run a shell command in a terminal; print its output and exit with its exit code",
    options: [
      ["--timeout <duration>", "give up after this long (default 10m); the command keeps running"],
      ["--max-lines <n>", "print at most the last n output lines (default 1000)"],
    ],
    examples: ["t4a run t1 -- make test", "t4a run t1 'cd /src && git status --short'"],
    request(args, options) {
      return {
        id: args[0],
        command: args.slice(1).join(" "),
        timeout_ms: durationOption(options.timeout, "--timeout"),
        max_lines: intOption(options.maxLines),
      };
    },
    print(response) {
      const lines = response.lines as string[];
      if (lines.length) console.log(lines.join("\n"));
      if (response.truncated) console.error(`t4a: showing the last ${lines.length} of ${response.total_lines} output lines`);
      const code = response.code as number | null;
      return code === null ? 1 : code;
    },
  },
});
