// ask: hand an agent session a prompt and get its answer in one call. Types the prompt (as typed
// prompts are), waits for the turn to end, and answers how it ended (idle, waiting with the
// question, exited, timeout) and the agent's answer: from its CLI's own conversation log where
// the preset names one, else the words drawn since the prompt without the TUI's frame.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { DEFAULT_MAX_OUTPUT } from "../protocol/budget.ts";
import { actingFields, Milliseconds, TerminalId } from "../protocol/fields.ts";
import { ACTING_OPTIONS, actingRequest, actor, intOption } from "./cli-helpers.ts";
import { defineCommand, textContent } from "./command.ts";
import { durationOption } from "./durations.ts";
import { MAX_WAIT_MS } from "./wait.ts";

export const ask = defineCommand({
  name: "ask",
  params: deferred(() =>
    v.object({
      id: TerminalId,
      prompt: v.pipe(v.string(), v.minLength(1, "prompt must not be empty"), v.description("what to ask, as typed")),
      timeout_ms: v.optional(
        v.pipe(
          Milliseconds,
          v.minValue(1),
          v.maxValue(MAX_WAIT_MS),
          v.description("stop waiting after this many ms (default 10 min)"),
        ),
        600_000,
      ),
      max_output: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(100),
          v.description("at most this many characters of answer (default 16000)"),
        ),
        DEFAULT_MAX_OUTPUT,
      ),
      no_wait: v.optional(v.pipe(v.boolean(), v.description("busy at once, not queued behind another turn"))),
      ...actingFields(),
    }),
  ),
  reply: deferred(() =>
    v.object({
      ended: v.picklist(["idle", "waiting", "exited", "timeout", "error"]),
      /** The CLI's own error line, when it ended error. */
      error: v.optional(v.string()),
      question: v.optional(v.string()),
      question_id: v.optional(v.number()),
      answer: v.string(),
      source: v.picklist(["log", "screen"]),
      cut: v.number(),
      elapsed_ms: v.number(),
    }),
  ),
  handle: (params, ctx) =>
    ctx.sessions
      .get(params.id)
      .ask(params.prompt, params.timeout_ms, params.max_output, params.no_wait === true, actor(params, ctx)),
  cli: {
    usage: "ask <id> <prompt>",
    summary:
      "Give an agent a prompt, wait for its turn to end, print its answer (exit 0 idle, " +
      "4 waiting on a question, 5 the CLI's error line (its API refused), 1 otherwise)",
    options: [
      ["--timeout <duration>", "stop waiting after this long (default 10m); the turn goes on"],
      ["--max-output <n>", "print at most n characters of the answer (default 16000); the middle is cut"],
      [
        "--no-wait",
        "fail with busy at once when another turn runs, instead of waiting for it (asks take turns, in order)",
      ],
      ...ACTING_OPTIONS,
    ],
    examples: ['t4a ask t1 "Summarise the failing tests"', 't4a ask t1 "Fix it" || t4a approve t1'],
    request: ([id, prompt], options) => ({
      id,
      prompt,
      timeout_ms: durationOption(options.timeout, "--timeout"),
      max_output: intOption(options.maxOutput, "--max-output"),
      no_wait: options.wait === false ? true : undefined,
      ...actingRequest(options),
    }),
    exit: (response) =>
      response.ended === "idle" ? 0 : response.ended === "waiting" ? 4 : response.ended === "error" ? 5 : 1,
    print(response) {
      if (response.answer) console.log(response.answer);
      if (response.cut) console.error(`t4a: ${response.cut} characters of the answer cut`);
      if (response.ended === "waiting") console.error(`t4a: waiting: ${response.question}`);
      else if (response.ended === "error") console.error(`t4a: the turn ended on the agent's error: ${response.error}`);
      else if (response.ended !== "idle") console.error(`t4a: the turn ended ${response.ended}`);
    },
  },
  mcp: {
    tool: "agent_ask",
    description:
      "Give an agent terminal (terminal_create agent) a prompt and wait for its turn to end: " +
      "how it ended (idle; waiting: it asks a question, answer with agent_approve/agent_deny; " +
      "error: its API refused; exited; timeout) and its answer text.",
    blocking: true,
    // One model's calls come one at a time; a second ask queues behind the first all the same.
    hide: ["no_wait", "worker", "force"],
    result: (response) =>
      textContent(
        `[${response.ended}${response.question ? `: ${response.question}` : ""}; ` +
          `${response.elapsed_ms} ms${response.cut ? `; ${response.cut} characters cut` : ""}]\n${response.answer}`,
      ),
  },
  http: [{ method: "POST", path: "/api/sessions/:id/ask" }],
});
