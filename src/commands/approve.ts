// approve / deny: answer the question an agent session waits on (a permission to write, to run)
// with the keys its preset names for yes, yes-always or no, so a script needs not know which key
// each CLI wants. Refused when the agent waits on nothing (not_waiting) or has ended (exited). A
// question is answered once: a second answer, or one naming another question, is not_waiting.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { actingFields, TerminalId } from "../protocol/fields.ts";
import { forDisplay, fromProgram } from "../protocol/program-text.ts";
import { sameQuestion } from "../session/agent-watch.ts";
import { findQuestion, pickChoice } from "../session/generic-agent.ts";
import type { Picker, Session } from "../session/session.ts";
import { ACT_TIMEOUT_MS, Actor } from "./act/actor.ts";
import { choose } from "./act/choose.ts";
import { ACTING_OPTIONS, actingRequest, actor, intOption } from "./cli-helpers.ts";
import { defineCommand } from "./command.ts";

const questionId = () =>
  v.optional(v.pipe(v.number(), v.integer(), v.description("only if this question is the one on screen")));

const AnswerReply = deferred(() =>
  v.object({
    /** The question that was answered, as the agent state reported it, and its id. */
    question: v.string(),
    question_id: v.number(),
    /** The keys pressed, by name. */
    keys: v.array(v.string()),
  }),
);

export const approve = defineCommand({
  name: "approve",
  params: deferred(() =>
    v.object({
      id: TerminalId,
      always: v.optional(
        v.pipe(v.boolean(), v.description("yes, and do not ask again for this kind of action (this session)")),
      ),
      question_id: questionId(),
      ...actingFields(),
    }),
  ),
  reply: AnswerReply,
  handle: (params, ctx) => {
    const session = ctx.sessions.get(params.id);
    return session.answer(params.always ? "always" : "yes", params.question_id, actor(params, ctx), picker(session));
  },
  cli: {
    usage: "approve <id>",
    summary: "Say yes to the question an agent waits on (the key its CLI wants); prints the question",
    options: [
      ["--always", "yes, and do not ask again for this kind of action"],
      ["--question <n>", "only if question n (its question_id) is the one on screen"],
      ...ACTING_OPTIONS,
    ],
    examples: ["t4a wait t1 --agent waiting && t4a approve t1"],
    request: ([id], options) => ({
      id,
      always: options.always ? true : undefined,
      question_id: intOption(options.question, "--question"),
      ...actingRequest(options),
    }),
    print: (response) => console.log(response.question),
  },
  mcp: {
    tool: "agent_approve",
    description:
      "Say yes to the question an agent terminal waits on, with the key its CLI wants; " +
      "always: yes for the rest of the session. Fails with not_waiting otherwise.",
    // Within the tool definitions' budget (src/mcp/tools.test.ts); a second answer is refused all the same.
    hide: ["question_id", "worker", "force"],
  },
  http: [{ method: "POST", path: "/api/sessions/:id/approve" }],
});

export const deny = defineCommand({
  name: "deny",
  params: deferred(() => v.object({ id: TerminalId, question_id: questionId(), ...actingFields() })),
  reply: AnswerReply,
  handle: (params, ctx) => {
    const session = ctx.sessions.get(params.id);
    return session.answer("no", params.question_id, actor(params, ctx), picker(session));
  },
  cli: {
    usage: "deny <id>",
    summary: "Say no to the question an agent waits on (the key its CLI wants); prints the question",
    options: [["--question <n>", "only if question n (its question_id) is the one on screen"], ...ACTING_OPTIONS],
    request: ([id], options) => ({
      id,
      question_id: intOption(options.question, "--question"),
      ...actingRequest(options),
    }),
    print: (response) => console.log(response.question),
  },
  mcp: {
    tool: "agent_deny",
    description:
      "Say no to the question an agent terminal waits on, with the key its CLI wants. Fails with not_waiting if none.",
    hide: ["question_id", "worker", "force"],
  },
  http: [{ method: "POST", path: "/api/sessions/:id/deny" }],
});

/**
 * For a CLI with no preset (`--agent auto`): the question's own choice that says yes, always or
 * no, picked the way choose picks it (arrows and Enter, its key, a click); no choice that says no
 * is Escape.
 */
/** A choice's label (program text) as a refusal quotes it. */
const shownLabel = (label: string) => JSON.stringify(forDisplay(fromProgram(label)));

function picker(session: Session): Picker {
  return {
    check(kind) {
      const found = session.agent?.screenQuestion();
      if (kind === "always" && !(found && pickChoice(found, kind)))
        throw new T4aError(
          "unsupported",
          `the question offers no choice that says always` +
            (found ? ` (its choices: ${found.choices.map((c) => shownLabel(c.label)).join(", ")})` : ""),
        );
      return async (taken) => {
        const actor = new Actor(session.alive, ACT_TIMEOUT_MS);
        const look = await actor.look();
        const question = findQuestion(look.elements, look.text.split("\n"));
        // Another question drawn since it was taken (the look waits for the screen to settle):
        // no key for it, the answer was for the one taken. The one taken, read by another rule
        // (its choices the same, its words still drawn: continue's frame redrawn), is no other.
        const other = question && !sameQuestion(forDisplay(fromProgram(question.line)), taken);
        if (other && !session.agent?.sameAsked(question))
          throw new T4aError(
            "not_waiting",
            `agent "${session.id}": another question was drawn before the answer went in; ` +
              "nothing was sent (read it again)",
          );
        const choice = question && pickChoice(question, kind);
        if (!question || !choice) {
          await actor.keys("Escape");
          return actor.sent;
        }
        const target = choice.item
          ? { element: question.element, item: choice.item }
          : choice.button && { element: choice.button };
        if (target) await choose(actor, look, target);
        return actor.sent;
      };
    },
  };
}
