// run: type a command into a terminal's integrated shell, wait for it to finish, and answer its
// exit code and output lines — `t4a run t1 -- make test` behaves like `ssh host make test`.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { shownRows } from "../protocol/program-text.ts";
import { Milliseconds, TerminalId } from "../protocol/fields.ts";
import { intOption } from "./cli-helpers.ts";
import { defineCommand, textContent } from "./command.ts";
import { durationOption } from "./durations.ts";
import { MAX_WAIT_MS } from "./wait.ts";

export const RunParams = deferred(() =>
  v.object({
    id: TerminalId,
    command: v.pipe(
      v.string(),
      v.minLength(1, "command must not be empty"),
      v.description("a shell command line, as you would type it"),
    ),
    timeout_ms: v.optional(
      v.pipe(
        Milliseconds,
        v.minValue(1),
        v.maxValue(MAX_WAIT_MS),
        v.description("give up after this many ms; the command keeps running"),
      ),
      600_000,
    ),
    max_lines: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(100_000),
        v.description("answer at most the last this many output lines"),
      ),
      1000,
    ),
  }),
);

export const RunReply = deferred(() =>
  v.object({
    code: v.nullable(v.number()),
    shell_exited: v.optional(
      v.pipe(v.literal(true), v.description("the command ended the shell; code is the shell's exit status")),
    ),
    lines: v.array(v.string()),
    total_lines: v.number(),
    truncated: v.boolean(),
    elapsed_ms: v.number(),
  }),
);

export const run = defineCommand({
  name: "run",
  params: RunParams,
  reply: RunReply,
  async handle(params, ctx) {
    const terminal = ctx.sessions.get(params.id).alive;
    const ran = await terminal.run(params.command, params.timeout_ms, params.max_lines);
    // The command's rows, off its screen: no bidi control reorders the reader's terminal.
    return { ...ran, lines: shownRows(ran.lines) };
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
        max_lines: intOption(options.maxLines, "--max-lines"),
      };
    },
    print(response) {
      const lines = response.lines as string[];
      if (lines.length) console.log(lines.join("\n"));
      if (response.truncated)
        console.error(`t4a: showing the last ${lines.length} of ${response.total_lines} output lines`);
      const code = response.code as number | null;
      return code === null ? 1 : code;
    },
  },
  mcp: {
    tool: "terminal_run",
    description:
      "Run a shell command in a terminal's shell and get its exit code and output lines in one call, like `ssh " +
      "host cmd`: for builds, tests, git. Keep output small with max_lines or tail/grep. A timeout (default 10 " +
      "min) is a tool error and the command keeps running; for long commands prefer terminal_exec, which yields.",
    blocking: true,
    result(response) {
      const lines = response.lines as string[];
      const shown = response.truncated ? `the last ${lines.length} of ${response.total_lines}` : `${lines.length}`;
      return textContent(
        [`[exit code ${response.code}; ${shown} output lines; ${response.elapsed_ms} ms]`, ...lines].join("\n"),
      );
    },
  },
  http: [{ method: "POST", path: "/api/sessions/:id/run" }],
});
