// wait: block until a condition holds on a terminal — idle, text or regex in new output (never the
// echo of typed input), text gone, a command done, exit — or the timeout passes (a `timeout` error).
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { AgentStateName, Milliseconds, TerminalId } from "../protocol/fields.ts";
import { defineCommand } from "./command.ts";
import { durationOption } from "./durations.ts";

export const MAX_WAIT_MS = 3_600_000;
export const DEFAULT_WAIT_MS = 30_000;

const agentWaitState = () => v.picklist(["working", "waiting", "idle", "exited"]);

export const WaitParams = deferred(() => v.object({
  id: TerminalId,
  idle_ms: v.optional(v.pipe(Milliseconds, v.minValue(1), v.description("no output for this many ms (counted from the wait's start at the earliest)"))),
  text: v.optional(v.pipe(v.string(), v.minLength(1), v.description("this text appears in output that arrives after the wait began"))),
  regex: v.optional(v.pipe(v.string(), v.minLength(1), v.description("a line of new output matches this JavaScript regular expression"))),
  gone: v.optional(v.pipe(v.string(), v.minLength(1), v.description("this text is no longer anywhere on the screen"))),
  command_done: v.optional(v.pipe(v.boolean(), v.description("the running shell command finishes; answers its exit code (needs shell integration)"))),
  exit: v.optional(v.pipe(v.boolean(), v.description("the program exits; answers its exit code or signal"))),
  input: v.optional(
    v.pipe(v.boolean(), v.description("the program is blocked reading the terminal (a password, y/n or REPL prompt, a shell's prompt), now or later (Linux)")),
  ),
  agent: v.optional(
    v.pipe(
      v.union([agentWaitState(), v.array(agentWaitState())]),
      v.description("agent state(s): waiting (for the user), idle (turn done), working, exited"),
    ),
  ),
  timeout_ms: v.optional(v.pipe(Milliseconds, v.minValue(1), v.maxValue(MAX_WAIT_MS), v.description("give up after this many ms")), DEFAULT_WAIT_MS),
}));

export const WaitReply = deferred(() => v.object({
  condition: v.picklist(["idle", "text", "regex", "gone", "command_done", "exit", "input", "agent"]),
  elapsed_ms: v.number(),
  line: v.optional(v.string()),
  row: v.optional(v.number()),
  match: v.optional(v.string()),
  code: v.optional(v.nullable(v.number())),
  signal: v.optional(v.nullable(v.string())),
  state: v.optional(AgentStateName),
  question_id: v.optional(v.number()),
  process: v.optional(v.string()),
}));

/** `waiting,idle` → ["waiting", "idle"]; one state stays a string. */
function agentStates(option: string): string | string[] {
  const states = option.split(",").map((state) => state.trim()).filter(Boolean);
  return states.length === 1 ? states[0]! : states;
}

export const wait = defineCommand({
  name: "wait",
  params: WaitParams,
  reply: WaitReply,
  async handle(params, ctx) {
    const session = ctx.sessions.get(params.id);
    const { idle_ms, text, gone, command_done, exit, input } = params;
    const others = idle_ms !== undefined || text !== undefined || params.regex !== undefined || gone !== undefined || command_done || exit || input;
    if (params.agent !== undefined) {
      if (others) throw new T4aError("invalid_params", "agent is a condition of its own: wait for it alone");
      const watch = session.agent;
      if (!watch) throw new T4aError("unsupported", `terminal "${params.id}" runs no agent (create it with --agent)`);
      if (Array.isArray(params.agent) && params.agent.length === 0) throw new T4aError("invalid_params", "agent: name at least one state");
      return { condition: "agent" as const, ...(await watch.until(params.agent, params.timeout_ms)) };
    }
    if (!others) {
      throw new T4aError("invalid_params", "wait needs a condition: idle_ms, text, regex, gone, command_done, exit, input or agent");
    }
    let regex: RegExp | undefined;
    try {
      regex = params.regex === undefined ? undefined : new RegExp(params.regex);
    } catch (error) {
      throw new T4aError("invalid_params", `invalid regex: ${(error as Error).message}`);
    }
    return { ...(await session.terminal.wait({ idle_ms, text, regex, gone, command_done, exit, input }, params.timeout_ms)) };
  },
  cli: {
    usage: "wait <id>",
    summary: "Wait until idle, text appears (in new output), text is gone, a command is done, exit, or an agent's state",
    options: [
      ["--idle [duration]", "no output for this long (default 2s)"],
      ["--text <text>", "this text appears in output that arrives after the wait began"],
      ["--regex <regex>", "a line of new output matches (JavaScript syntax)"],
      ["--gone <text>", "this text is no longer on the screen"],
      ["--done", "the running shell command finishes (needs shell integration)"],
      ["--exit", "the program exits"],
      ["--input", "the program waits for input: blocked reading the terminal (Linux)"],
      ["--agent <states>", "an agent session is waiting (for you), idle (turn done), working or exited; several: waiting,idle"],
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
        input: options.input ? true : undefined,
        agent: options.agent === undefined ? undefined : agentStates(String(options.agent)),
        timeout_ms: durationOption(options.timeout, "--timeout"),
      };
    },
    print(response) {
      if (response.condition === "agent") console.log(`${response.state}\t${response.line}`);
      else if (response.condition === "input") console.log(`${response.process}\t${response.line}`);
      else if (response.line !== undefined) console.log(response.line);
      else if (response.code !== undefined) console.log(response.code ?? response.signal);
    },
  },
  mcp: {
    tool: "terminal_wait",
    description:
      "Block until something happens on a terminal instead of polling; the first condition given that holds wins. " +
      "text/regex see only output arriving after the call starts (never the echo of typed input). " +
      "After typing into an interactive program, idle_ms 300–1000. input: it waits for someone to type (password, y/n, REPL). " +
      "Answers the condition, elapsed_ms, and the matching line (row from the bottom), exit code or agent state. " +
      "A timeout (default 30 s) is a tool error with code timeout.",
    blocking: true,
  },
  http: [{ method: "POST", path: "/api/sessions/:id/wait" }],
});
