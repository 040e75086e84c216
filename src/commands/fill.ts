// fill: put text in an input field (by ref or label) in place of what it holds: focus it (a click,
// or Tab), erase, type; answers once the field shows the text (or a masked or unechoed field took it,
// said so). Presses Enter only with submit, then sees the field taken.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { TerminalId } from "../protocol/fields.ts";
import { findTarget } from "../terminal/targets.ts";
import { ActReply, actFields, Actor, printAct } from "./act/actor.ts";
import { fill as fillTarget } from "./act/fields.ts";
import { refuseShellOutput, refuseShortOfPrompt } from "./act/shell-output.ts";
import { refOrText } from "./choose.ts";
import { defineCommand } from "./command.ts";
import { durationOption } from "./durations.ts";
import { unescapeInput } from "../terminal/escapes.ts";

export const FillParams = deferred(() =>
  v.object({
    id: TerminalId,
    ...actFields(),
    value: v.pipe(v.string(), v.description("the text it should hold")),
    submit: v.optional(v.pipe(v.boolean(), v.description("then Enter"))),
  }),
);

export const fill = defineCommand({
  name: "fill",
  params: FillParams,
  reply: deferred(ActReply),
  async handle(params, ctx) {
    const actor = new Actor(ctx.sessions.get(params.id).alive, params.timeout_ms);
    const look = await actor.look();
    const query = refOrText(params.target);
    const target = findTarget(look.elements, query, ["input"]);
    refuseShortOfPrompt(target, query.text);
    refuseShellOutput(actor, look, target);
    return fillTarget(actor, look, target, params.value, params.submit ?? false);
  },
  cli: {
    usage: "fill <id> <target> <value>",
    summary: "Put text in an input field (by ref or label) in place of its value; waits until it shows",
    options: [
      ["--submit", "then press Enter and see the field taken"],
      ["--timeout <duration>", "wait this long for the effect (default 10s)"],
    ],
    examples: ['t4a fill t1 e1 "Ada Lovelace"', 't4a fill t1 Name "Ada"', 't4a fill t1 "Project name" shop --submit'],
    request: ([id, target, value], options) => ({
      id,
      target,
      value: unescapeInput(value ?? ""),
      ...(options.submit ? { submit: true } : {}),
      timeout_ms: durationOption(options.timeout, "--timeout"),
    }),
    print: printAct,
  },
  mcp: {
    tool: "terminal_fill",
    description:
      "Put text in an input field (snapshot ref or label) in place of its " +
      "value: focus, erase, type; Enter only with submit; returns once shown.",
    hide: ["timeout_ms"],
  },
  http: [{ method: "POST", path: "/api/sessions/:id/fill" }],
});
