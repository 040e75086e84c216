// exec: run a command in a terminal's shell and return when it ends, when it waits for input, or
// when the yield passes, whichever is first: its output so far (within a budget, the cut counted)
// and a token. `continue` with that token writes input (optional) and returns the output since.
// The shape of Codex's and OpenHands' exec_command / write_stdin: a tool call never blocks past
// a client's limit, and a password prompt comes back as soon as it is asked.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { DEFAULT_MAX_OUTPUT } from "../protocol/budget.ts";
import { forDisplay, fromProgram } from "../protocol/program-text.ts";
import { T4aError } from "../protocol/errors.ts";
import { Milliseconds, TerminalId } from "../protocol/fields.ts";
import { unescapeInput } from "../terminal/escapes.ts";
import { intOption } from "./cli-helpers.ts";
import { defineCommand, textContent } from "./command.ts";
import { durationOption } from "./durations.ts";
import { MAX_WAIT_MS } from "./wait.ts";

export const DEFAULT_YIELD_MS = 10_000;

export const ExecParams = deferred(() =>
  v.object({
    id: TerminalId,
    command: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1, "command must not be empty"),
        v.description("a shell command line to start, as you would type it"),
      ),
    ),
    continue: v.optional(
      v.pipe(
        v.string(),
        v.description("the token of an earlier exec: continue that command from where its last answer stopped"),
      ),
    ),
    input: v.optional(
      v.pipe(
        v.string(),
        v.description("with continue: text to type first (a password, an answer; a newline presses Enter)"),
      ),
    ),
    yield_ms: v.optional(
      v.pipe(
        Milliseconds,
        v.minValue(1),
        v.maxValue(MAX_WAIT_MS),
        v.description("return after this many ms at the latest (default 10000); the command keeps running"),
      ),
      DEFAULT_YIELD_MS,
    ),
    max_output: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(100),
        v.maxValue(10_000_000),
        v.description("answer at most this many characters of output (default 16000); the middle is cut"),
      ),
      DEFAULT_MAX_OUTPUT,
    ),
  }),
);

export const ExecReply = deferred(() =>
  v.object({
    output: v.string(),
    cut: v.number(),
    lost_lines: v.optional(v.number()),
    running: v.boolean(),
    token: v.string(),
    code: v.optional(v.nullable(v.number())),
    shell_exited: v.optional(v.literal(true)),
    input_wanted: v.optional(v.string()),
    screen: v.optional(
      v.pipe(
        v.literal(true),
        v.description("a full-screen program holds the terminal: output is its screen, not output"),
      ),
    ),
    elapsed_ms: v.number(),
  }),
);

type ExecAnswer = v.InferOutput<typeof ExecReply>;

/** One line saying how the call ended, for people and models. */
function status(response: ExecAnswer): string {
  const parts = [
    response.running
      ? response.input_wanted
        ? `waiting for input (${response.input_wanted} reads the terminal)`
        : "still running"
      : `exit code ${response.code}`,
  ];
  if (response.screen) parts.push("a full-screen program: this is its screen");
  if (response.cut) parts.push(`${response.cut} characters cut`);
  if (response.lost_lines) parts.push(`${response.lost_lines} lines scrolled away unread`);
  parts.push(`${response.elapsed_ms} ms`);
  if (response.running) parts.push(`continue with token ${response.token}`);
  return `[${parts.join("; ")}]`;
}

export const exec = defineCommand({
  name: "exec",
  params: ExecParams,
  reply: ExecReply,
  async handle(params, ctx) {
    if ((params.command === undefined) === (params.continue === undefined)) {
      throw new T4aError("invalid_params", "exec needs a command to start, or continue with the token of one");
    }
    if (params.input !== undefined && params.continue === undefined)
      throw new T4aError("invalid_params", "input goes with continue");
    const session = ctx.sessions.get(params.id);
    // A new command needs a live shell; a continuation may read what an ended one left.
    if (params.command !== undefined)
      return shown(await session.alive.exec(params.command, params.yield_ms, params.max_output));
    return {
      ...shown(await session.terminal.execContinue(params.continue!, params.input, params.yield_ms, params.max_output)),
    };
  },
  cli: {
    usage: "exec <id> [...command]",
    summary:
      "Run a shell command; return when it ends, waits for input, " +
      "or the yield passes, with its output so far and a token",
    options: [
      ["--yield <duration>", "return after this long at the latest (default 10s); the command keeps running"],
      ["--max-output <n>", "print at most n characters of output (default 16000); the middle is cut"],
      ["--continue <token>", "continue the command of an earlier exec: print its output since then"],
      ["--input <text>", "with --continue: type this first (C escapes like \\n are interpreted)"],
    ],
    examples: ["t4a exec t1 --yield 30s -- make test", "t4a exec t1 --continue 4.17.0 --input 's3cret\\n'"],
    request(args, options) {
      const command = args.slice(1).join(" ");
      return {
        id: args[0],
        command: command === "" ? undefined : command,
        continue: options.continue === undefined ? undefined : String(options.continue),
        input: options.input === undefined ? undefined : unescapeInput(String(options.input)),
        yield_ms: durationOption(options.yield, "--yield"),
        max_output: intOption(options.maxOutput, "--max-output"),
      };
    },
    print(response) {
      if (response.output) console.log(response.output.replace(/\n$/, ""));
      console.error(`t4a: ${status(response).slice(1, -1)}`);
      // Still running answers 0, as any yield does; an ended command answers its own code.
      return response.running ? 0 : response.code === null || response.code === undefined ? 1 : response.code;
    },
  },
  mcp: [
    {
      tool: "terminal_exec",
      description:
        "Start a shell command in a terminal's shell and get its output within yield_ms (default 10 s): it returns " +
        "as soon as the command ends (with its exit code), or asks for input (a password, a y/n: input_wanted names " +
        "the process), or the yield passes (running: true). Continue a running command with terminal_write and the " +
        "token. Output is the screen's text, at most max_output characters (default 16000; the middle is cut).",
      hide: ["continue", "input"],
      require: ["command"],
      blocking: true,
      result: (response) => textContent(`${status(response)}\n${response.output}`),
    },
    {
      tool: "terminal_write",
      description:
        "Continue a command started by terminal_exec: type `input` (optional; a newline presses Enter), " +
        "then return as terminal_exec does, with the output since the token's answer and a new token.",
      hide: ["command"],
      require: ["continue"],
      blocking: true,
      result: (response) => textContent(`${status(response)}\n${response.output}`),
    },
  ],
  http: [{ method: "POST", path: "/api/sessions/:id/exec" }],
});

/** An outcome as shown: its output is the screen's rows (no bidi control), the reader's name the program's own. */
function shown<T extends { output: string }>(outcome: T): T {
  return { ...outcome, output: forDisplay(fromProgram(outcome.output), "lines") };
}
