// transcript: an agent's conversation as messages (user, assistant, a tool call or its result in
// one line each), read from its CLI's own log; `since` continues from an earlier read.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { DEFAULT_MAX_OUTPUT, withinBudget } from "../protocol/budget.ts";
import { T4aError } from "../protocol/errors.ts";
import { forDisplay, fromProgram } from "../protocol/program-text.ts";
import { TerminalId } from "../protocol/fields.ts";
import { intOption } from "./cli-helpers.ts";
import { defineCommand } from "./command.ts";

const Message = deferred(() =>
  v.object({ role: v.picklist(["user", "assistant", "tool_call", "tool_result"]), text: v.string() }),
);

/** How each role reads in the plain output. */
const MARK = { user: "user:", assistant: "agent:", tool_call: "  →", tool_result: "  ←" } as const;

export const transcript = defineCommand({
  name: "transcript",
  params: deferred(() =>
    v.object({
      id: TerminalId,
      since: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(0),
          v.description("only messages after this many (an earlier read's next)"),
        ),
      ),
      max_output: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(100),
          v.description("at most this many characters of message text (default 16000); the oldest go first"),
        ),
        DEFAULT_MAX_OUTPUT,
      ),
    }),
  ),
  reply: deferred(() =>
    v.object({
      messages: v.array(Message),
      /** Pass as since to read only what comes after. */
      next: v.number(),
      /** Messages left out (the oldest) to keep within max_output. */
      cut: v.number(),
      path: v.string(),
    }),
  ),
  async handle(params, ctx) {
    const session = ctx.sessions.get(params.id);
    const read = await session.settledTranscript();
    if (!read) {
      const agent = session.agent?.agent;
      throw new T4aError(
        agent?.log ? "not_found" : "unsupported",
        agent?.log
          ? `no conversation log of "${params.id}" yet`
          : `${agent?.name ?? "this agent"} keeps no conversation log t4a can read; read its screen (text)`,
      );
    }
    const messages = read.messages.slice(params.since ?? 0);
    // Newest first within the budget: a long conversation answers its end.
    let kept = messages.length;
    let size = 0;
    while (kept > 0 && size + messages[kept - 1]!.text.length <= params.max_output)
      size += messages[--kept]!.text.length;
    const shown = messages.slice(kept);
    // Not even the newest fits: it comes alone, its middle cut.
    const newest = messages.at(-1);
    if (!shown.length && newest) shown.push({ ...newest, text: withinBudget(newest.text, params.max_output).text });
    // A message is the log's text, which the agent wrote: no escape sequence reaches a reader's terminal.
    return {
      messages: shown.map((message) => ({ ...message, text: forDisplay(fromProgram(message.text), "lines") })),
      next: read.messages.length,
      cut: messages.length - shown.length,
      // Found by a glob in the agent's kept home, whose directories it names itself (U+202E, U+009B).
      path: forDisplay(fromProgram(read.path)),
    };
  },
  cli: {
    usage: "transcript <id>",
    summary:
      "An agent's conversation from its CLI's log: one message per line (tool calls and results in one line each)",
    options: [
      ["--since <n>", "only messages after the first n (the next of an earlier --json read)"],
      ["--max-output <n>", "at most n characters of message text (default 16000); the oldest messages go first"],
    ],
    examples: ["t4a transcript t1", "t4a transcript t1 --json --since 12"],
    request: ([id], options) => ({
      id,
      since: intOption(options.since, "--since"),
      max_output: intOption(options.maxOutput, "--max-output"),
    }),
    print(response) {
      if (response.cut) console.log(`(${response.cut} earlier messages left out)`);
      for (const message of response.messages) console.log(`${MARK[message.role]} ${message.text}`);
    },
  },
  http: [{ method: "GET", path: "/api/sessions/:id/transcript" }],
});
