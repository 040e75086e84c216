// The guards that refuse acting on a shell's or a REPL's printed output: a menu, question, button or field a command
// printed asks nothing, and the keys would go to the shell or REPL reading the line. They read the screen and the
// scrollback; they send nothing.
import { T4aError } from "../../protocol/errors.ts";
import type { CellGrid } from "../../terminal/cell-grid.ts";
import { type Element, isReplPrompt, isShellPrompt } from "../../terminal/elements.ts";
import { beforeCursor, nameOf, rowText, type Target } from "../../terminal/targets.ts";
import type { Actor } from "./actor.ts";
import type { Look } from "./look.ts";

/**
 * Refuses a target above the prompt of a shell that is at its prompt (its integration says so): a menu, question,
 * button or field printed by a command (`cat` of a file holding "❯ 1. Yes") asks nothing, and the keys would go to
 * the shell. Only the shell's own command line, the input holding the cursor, may be acted on there.
 */
export function refuseShellOutput(actor: Actor, look: Look, target?: Target): void {
  const { row } = look.grid.cursor;
  const element = target?.element;
  // (Without the marks, the screen: a shell's prompt holding the cursor on the normal screen, the target above it.
  // A full-screen program draws on the alternate one, mc its own command line there.)
  // (Nor above a REPL's prompt, python's ">>> ", or a prompt that stands above the target too with a line typed
  // after it: the target is that line's output, and the REPL would read the keys.)
  // (A question's rows may end in the prompt holding the cursor: its top above the REPL's prompt is enough.)
  // (Hidden or not: on the normal screen the cursor stands where the next line is read, and a file's "\e[?25l" hides
  // it under a shell's prompt drawn after the file.)
  const normal = !actor.alternate;
  // (Every line scrolled off that the terminal still holds, its scrollback: a command row 2000 lines up was once past
  // what was read, and the list its output ended in was answered in the REPL.)
  let scrolled: string[] | undefined;
  const earlier = () => {
    scrolled ??= actor.history(actor.historyLength());
    return scrolled;
  };
  // (And the lines entered at the terminal, read by the program holding it now: output longer than the scrollback, a
  // clear, or rows drawn over erase a REPL's command row from the screen and the scrollback, never from these.)
  const entered = () => actor.enteredLines();
  const prompt = normal ? beforeCursor(look.grid) : "";
  const above = normal && (!element || element.row < row);
  const [who, why] = actor.atShellPrompt
    ? ["shell", "its integration says so"]
    : above && (!element || element.row + element.height <= row) && isShellPrompt(prompt)
      ? ["shell", "the cursor stands after one"]
      : above && isReplPrompt(prompt)
        ? ["REPL", "python's or IPython's prompt holds the cursor"]
        : above && askedBefore(look.grid, prompt, element, earlier())
          ? ["REPL", "the same prompt stands above it, a line typed after it"]
          : above && askedBefore(look.grid, prompt, element, commands(prompt, entered()))
            ? ["REPL", "a line was entered after the same prompt, though the screen no longer shows that row"]
            : [];
  const holds = !!element && element.row <= row && row < element.row + element.height;
  // (The prompt holding the cursor may end in the program's own, seen above the target with a command typed after
  // it: the words before it on its row are that command's output printed with no newline at its end, and so is the
  // target, there or above.)
  const own =
    normal && element && (holds || above)
      ? promptAfterOutput(
          look.grid,
          prompt,
          element,
          entered()
            .map((entered) => entered.line)
            .concat(earlier()),
        )
      : undefined;
  if (own !== undefined)
    throw new T4aError(
      "invalid_params",
      `${nameOf(target!)} is output: the cursor waits after ${JSON.stringify(own)}, a prompt that opens an earlier ` +
        "row with a command typed after it; the words before it on the row were printed by that command, and the " +
        "program would read the keys; nothing was sent",
    );
  if (!why || (element?.kind === "input" && holds)) return;
  throw new T4aError(
    "invalid_params",
    `${target ? nameOf(target) : "that text"} is output: the ${who} is at its prompt (${why}) and would read the ` +
      "keys; nothing was sent",
  );
}

/**
 * The lines entered, each one entered after `prompt` with those entered after it at another prompt joined on (a REPL's
 * continuation, ".. " or "... ", which is not its first): one command, though its first line alone reads as an answer
 * ("(" then "cat notes.txt)"). A line an answer was typed on before a program's other prompt ("2" at "> ", then "bob"
 * at "Name: ") reads as a command too: errs toward typing nothing.
 */
function commands(prompt: string, entered: { line: string; typed: string }[]): string[] {
  const joined: string[] = [];
  let open = false;
  for (const { line, typed } of entered) {
    if (prompt && line.startsWith(prompt)) {
      joined.push(line);
      open = true;
    } else if (open && typed.trim()) joined[joined.length - 1] += ` ${typed.trim()}`;
    else {
      joined.push(line);
      open = false;
    }
  }
  return joined;
}

/** A line typed that answers a question or a numbered list: a number, one character, yes or no. */
const ANSWER_TYPED = /^(?:\d{1,3}|\S|yes|no)$/i;

/**
 * The prompt holding the cursor (`db> `, what stands before it on its row) stands at the start of a row above the
 * target too, a line typed after it that answers none of its items (no key, no label) and is no answer at all (a
 * number, one character, yes, no): a REPL's or a shell's command, whose output the rows under it are, on the screen or
 * in the lines scrolled off (`earlier`, oldest first). (A program asking again had an answer typed there: 7z's
 * "(Q)uit? u", tzselect's "#? 43" over the next list, a menu loop's "Choice: 2".)
 */
function askedBefore(grid: CellGrid, prompt: string, element: Element | undefined, earlier: string[]): boolean {
  if (!prompt.trim()) return false;
  const answers = new Set(
    (element && "items" in element ? (element.items ?? []) : []).flatMap((item) =>
      [item.key, item.label].filter((a): a is string => !!a).map((a) => a.toLowerCase()),
    ),
  );
  // (The lines scrolled off the top count as rows above: a command whose output pushed its own row away, sbcl's
  // "* (load …)" over a file's mail-like headers, is still the command they are the output of.)
  const rows = earlier.concat(Array.from({ length: element?.row ?? grid.cursor.row }, (_, r) => rowText(grid, r)));
  for (const text of rows) {
    const typed = text.startsWith(prompt) ? text.slice(prompt.length).trim() : "";
    if (typed && !answers.has(typed.toLowerCase()) && !ANSWER_TYPED.test(typed)) return true;
  }
  return false;
}

/** A program's own prompt's last mark ("> ", "(gdb) ", "* ", swipl's "?- "; not "- " or ": ", which open lists). */
const OWN_PROMPT_END = /(?:[>)$#%*&❯›»]|\?-)\s*$/u;

/**
 * The end of `prompt` (what stands before the cursor, the field's typed value aside) that opens a row above the target,
 * on the screen or scrolled off (`earlier`), with a command typed after it: a REPL's "> " or "(gdb) " drawn after
 * words a command printed with no newline at their end ("Enter your name: " then "> "). Undefined when no such end, or
 * when the target is a field and the whole prompt reads as a shell's (its command line, after a README's "$ npm
 * install" rows).
 */
function promptAfterOutput(grid: CellGrid, prompt: string, element: Element, earlier: string[]): string | undefined {
  const typed = (element.kind === "input" ? (element.value ?? "") : "").trim();
  const asked =
    typed && prompt.trimEnd().endsWith(typed) ? prompt.slice(0, prompt.trimEnd().length - typed.length) : prompt;
  // (The whole prompt reading as a shell's spares only a field, the shell's own command line: a question or list before
  // a prompt such as guile's "scheme@(guile-user)> ", or "ada@vm:~$ ", is that prompt's command's output.)
  if (!asked.trim() || (element.kind === "input" && isShellPrompt(asked))) return undefined;
  const rows = earlier.concat(Array.from({ length: element.row }, (_, r) => rowText(grid, r)));
  for (let i = 1; i < asked.length; i++) {
    const end = asked.slice(i);
    // (Words before it, not a frame's side: claude's "│ > " under its earlier "> fix the bug" is its own box.)
    if (/^\s/.test(end) || !OWN_PROMPT_END.test(end) || !/[\p{L}\p{N}]/u.test(asked.slice(0, i))) continue;
    for (const text of rows) {
      const after = text.startsWith(end) ? text.slice(end.length).trim() : "";
      if (after && !ANSWER_TYPED.test(after)) return end;
    }
  }
  return undefined;
}

/**
 * A field whose label ends in a shell's prompt ("TIDE_MODE  *$": a file printed with no newline at its end, bash's "$ "
 * after it) is the line that shell reads: named by text, only by words that reach the prompt (or by its ref), never by
 * the printed words before it alone.
 */
export function refuseShortOfPrompt(target: Target, named: string | undefined): void {
  const label = (target.element.label ?? "").trim();
  if (!named || target.element.kind !== "input" || !isShellPrompt(label) || isShellPrompt(named.trim())) return;
  throw new T4aError(
    "invalid_params",
    `${JSON.stringify(named)} names the line read after ${JSON.stringify(label)}, which ends in a shell's prompt: ` +
      "the words before it are output printed there, no field's label; nothing was typed (give the ref to type there)",
  );
}
