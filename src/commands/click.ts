// click: press a button or a function-key bar's entry (or pick an item) by ref or text: a mouse
// click where the program turned mouse reporting on, else its F-key, or Tab to it and Enter;
// answers once the screen changes (the dialog gone, the program exited). Text no element holds is
// clicked where it shows, when it shows once and the program takes the mouse. MCP: terminal_choose
// presses buttons too.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { TerminalId } from "../protocol/fields.ts";
import { hintTarget } from "../terminal/hints.ts";
import { findTarget, functionKeyOf, textCells } from "../terminal/targets.ts";
import { ActReply, actFields, Actor, printAct } from "./act/actor.ts";
import { clickText } from "./act/buttons.ts";
import { click as clickTarget } from "./act/choose.ts";
import { hintInstead, pressHint } from "./act/key-hints.ts";
import { refuseShellOutput } from "./act/shell-output.ts";
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
    const query = refOrText(params.target);
    let target: ReturnType<typeof findTarget>;
    try {
      target = findTarget(look.elements, query, ["button", "menu", "question", "checkbox", "radio"]);
    } catch (error) {
      if (!(error instanceof T4aError && error.code === "not_found" && query.text !== undefined)) throw error;
      // A button named as drawn with its key ("Process (F3)", lldb gui's menu bar): its name, that key its own.
      const keyed = /^(.+) \((F\d{1,2})\)$/.exec(query.text.trim());
      const named = keyed ? look.elements.filter((e) => e.kind === "button" && e.label === keyed[1]) : [];
      if (named.length === 1 && functionKeyOf(look.grid, named[0]!) === keyed![2])
        return clickTarget(actor, look, findTarget(look.elements, { ref: named[0]!.ref }, ["button"]));
      // No element has the text: an action offered only as a key hint on a bar ("c: confirm"), its key pressed.
      const hint = hintTarget(look.grid, look.elements, query.text);
      if (hint) return pressHint(actor, look, hint);
      // Else the words themselves, clicked by mouse, when they show once.
      const cells = textCells(look.grid, query.text);
      if (cells.length === 1 && actor.mouseOn(look)) {
        refuseShellOutput(actor, look);
        return clickText(actor, look, cells[0]!);
      }
      const where =
        cells.length === 1
          ? `the text shows at ${cells[0]!.row}:${cells[0]!.col}, but the program turned no mouse reporting on`
          : cells.length
            ? `the text shows in ${cells.length} places`
            : "";
      throw where ? new T4aError("not_found", `${error.message}; ${where}, so nothing was sent`) : error;
    }
    const hinted = hintInstead(actor, look, target, query.text);
    if (hinted) return hinted;
    return clickTarget(actor, look, target);
  },
  cli: {
    usage: "click <id> [ref]",
    summary: "Press a button (< OK >, 10Quit…) by ref or --text, by mouse or keys; waits for the screen to change",
    options: [
      [
        "--text <text>",
        "the button's text instead of a ref (words no element holds are clicked where they show, by mouse)",
      ],
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
