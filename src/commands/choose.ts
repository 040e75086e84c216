// choose: pick an item of a menu or question (an agent CLI's permission question, dialog --menu,
// fzf, [Y/n]) or toggle a checkbox or radio, by ref or text, the way the program understands;
// answers once the screen shows it (the selection there and Enter taken, the box toggled).
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { TerminalId } from "../protocol/fields.ts";
import { T4aError } from "../protocol/errors.ts";
import { hintTarget } from "../terminal/hints.ts";
import { findTarget, type Target, tableChoice } from "../terminal/targets.ts";
import { ActReply, actFields, Actor, printAct } from "./act/actor.ts";
import { choose as chooseTarget, submitChoice } from "./act/choose.ts";
import { hintInstead, pressHint } from "./act/key-hints.ts";
import { defineCommand } from "./command.ts";
import { durationOption } from "./durations.ts";

export const ChooseParams = deferred(() =>
  v.object({
    id: TerminalId,
    ...actFields(),
    submit: v.optional(v.pipe(v.boolean(), v.description("then Enter"))),
  }),
);

export const choose = defineCommand({
  name: "choose",
  params: ChooseParams,
  reply: deferred(ActReply),
  async handle(params, ctx) {
    const actor = new Actor(ctx.sessions.get(params.id).alive, params.timeout_ms);
    const look = await actor.look();
    const query = refOrText(params.target);
    let target: Target;
    try {
      target = findTarget(look.elements, query, ["menu", "question", "checkbox", "radio", "button"]);
    } catch (error) {
      // A table that is a numbered choice (update-alternatives --config) is chosen from by a cell.
      const row =
        query.text && error instanceof T4aError && error.code === "not_found"
          ? tableChoice(look.grid, look.elements, query.text)
          : undefined;
      // Or an action offered only as a key hint on a bar ("[c] Configure", "c: confirm", "^X Exit").
      const hint =
        !row && query.text && error instanceof T4aError && error.code === "not_found"
          ? hintTarget(look.grid, look.elements, query.text)
          : undefined;
      if (hint) return pressHint(actor, look, hint);
      if (!row) throw error;
      target = row;
    }
    const hinted = hintInstead(actor, look, target, query.text);
    if (hinted) return hinted;
    const reply = await chooseTarget(actor, look, target, query.text);
    return params.submit ? submitChoice(actor, target, reply) : reply;
  },
  cli: {
    usage: "choose <id> <target>",
    summary: "Pick a menu item, answer a question, toggle a checkbox, by ref (e3.2) or text; waits for the effect",
    options: [
      ["--submit", "then press Enter and see the list taken (a multi-select whose submit is only a hint)"],
      ["--timeout <duration>", "wait this long for the effect (default 10s)"],
    ],
    examples: ['t4a choose t1 "Yes, and don\'t ask again"', "t4a choose t1 e2.3", "t4a choose t1 Prettier --submit"],
    request: ([id, target], options) => ({
      id,
      target,
      ...(options.submit ? { submit: true } : {}),
      timeout_ms: durationOption(options.timeout, "--timeout"),
    }),
    print: printAct,
  },
  mcp: {
    tool: "terminal_choose",
    // It presses buttons too (click's tool would cost the list as much again for the same thing).
    description:
      "Pick a menu item or answer, toggle a checkbox, press a button (OK): by mouse or keys; returns once shown.",
    hide: ["timeout_ms"],
  },
  http: [{ method: "POST", path: "/api/sessions/:id/choose" }],
});

/** "e3" and "e3.2" are refs; anything else is text. */
export const refOrText = (target: string): { ref?: string; text?: string } =>
  /^e\d+(\.\d+)?$/.test(target) ? { ref: target } : { text: target };
