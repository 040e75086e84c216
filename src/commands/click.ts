// click: press a button or a function-key bar's entry (or pick an item) by ref or text: a mouse
// click where the program turned mouse reporting on, else its F-key, or Tab to it and Enter;
// answers once the screen changes (the dialog gone, the program exited). MCP: terminal_choose
// presses buttons too.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { TerminalId } from "../protocol/fields.ts";
import { findTarget } from "../terminal/targets.ts";
import { ActReply, actFields, Actor, click as clickTarget, printAct } from "./act.ts";
import { refOrText } from "./choose.ts";
import { defineCommand } from "./command.ts";
import { durationOption } from "./durations.ts";

export const ClickParams = deferred(() => v.object({ id: TerminalId, ...actFields() }));

export const click = defineCommand({
  name: "click",
  params: ClickParams,
  reply: deferred(ActReply),
  async handle(params, ctx) {
    const actor = new Actor(ctx.sessions.get(params.id).alive, params.timeout_ms);
    const look = await actor.look();
    const target = findTarget(look.elements, refOrText(params.target), ["button", "menu", "question", "checkbox", "radio"]);
    return clickTarget(actor, look, target);
  },
  cli: {
    usage: "click <id> [ref]",
    summary: "Press a button (< OK >, 10Quit…) by ref or --text, by mouse or keys; waits for the screen to change",
    options: [
      ["--text <text>", "the button's text instead of a ref"],
      ["--timeout <duration>", "wait this long for the effect (default 10s)"],
    ],
    examples: ['t4a click t1 --text "OK"', "t4a click t1 e5"],
    request([id, ref], options) {
      const target = options.text === undefined ? ref : String(options.text);
      if (target === undefined) throw new T4aError("invalid_params", "click: give a ref (e5) or --text");
      return { id, target, timeout_ms: durationOption(options.timeout, "--timeout") };
    },
    print: printAct,
  },
  http: [{ method: "POST", path: "/api/sessions/:id/click" }],
});
