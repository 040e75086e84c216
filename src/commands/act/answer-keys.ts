// Answers typed as keys: the key the screen shows for an item ("y", "43"), typed with Enter where the program reads
// lines (or where a raw one shows no more than its echo), and the Enter or Escape a question's bracket names for an
// answer. What was taken is seen by answered.ts, or said `uncertain`.
import { T4aError } from "../../protocol/errors.ts";
import { findAgain, nameOf, rowText, shownKey, type Target, wordKey } from "../../terminal/targets.ts";
import { type ActReply, type Actor, SHELL } from "./actor.ts";
import { answered } from "./answered.ts";
import { erase } from "./fields.ts";
import type { Look } from "./look.ts";

/**
 * Press the key a question names for the answer (namedAnswerKey: Enter or Escape, in its bracket or a row of pairs),
 * the question the last thing on the screen or in a box, then watch it go on. Nothing but the program's own next lines
 * follows such a key (dar prints its next question under the first): no line shows which answer was taken, so the
 * reply is `uncertain`, saying what the screen went on with, never `answered` on that alone; but a pause of one answer
 * ("Press return to continue.") that no longer waits took the only one.
 */
export async function pressNamedAnswer(actor: Actor, look: Look, target: Target, key: string): Promise<ActReply> {
  refuseCursorBefore(look, target);
  const { element } = target;
  const last = element.row + element.height - 1;
  // (Or inside a box drawn over a full-screen program, whatever is under it: perf's "Do you really want to exit?" box
  // over its report. A box printed by `cat` above a shell's prompt leaves the cursor on the prompt, off the question.)
  const boxed = look.elements.some(
    (e) =>
      e.kind === "dialog" &&
      e.row < element.row &&
      e.row + e.height > last + 1 &&
      e.col < element.col &&
      e.col + e.width > element.col + element.width,
  );
  if (
    !boxed &&
    look.text
      .split("\n")
      .slice(last + 1)
      .some((r) => r.trim())
  )
    throw new T4aError("unsupported", `${nameOf(target)}: the question is not the last thing on the screen`);
  // (A program reading a line would take Escape as a character of it.)
  if (key === "Escape" && actor.readsLines)
    throw new T4aError(
      "unsupported",
      `${nameOf(target)} is answered by Escape, but the program reads a line (Escape would be typed into it)`,
    );
  const asked = Array.from({ length: element.height }, (_, i) => rowText(look.grid, element.row + i)).join("\n");
  const waiting = (now: Look) =>
    now.grid.cursor.row === look.grid.cursor.row &&
    now.grid.cursor.col === look.grid.cursor.col &&
    now.text
      .split("\n")
      .slice(element.row, last + 1)
      .join("\n") === asked;
  await actor.keys(key);
  const moved = await actor.until((now) => (waiting(now) ? undefined : now));
  const only = element.items?.length === 1;
  const pressed = only
    ? `${key} pressed, as the pause's words name it`
    : `${key} pressed for ${nameOf(target)}, as the question pairs them`;
  if (!moved) {
    if (actor.exited) return actor.reply("uncertain", `${pressed}; the program exited, nothing showing which answer`);
    throw new T4aError("timeout", `${actor.sent.join(" ")}: the question still waits as it was`);
  }
  // (Let the next lines come.)
  await actor.until((now) => (now.text !== moved.text ? now : undefined), 500);
  const now = actor.exited ? moved : await actor.look();
  const under = now.text
    .split("\n")
    .slice(last + 1)
    .map((r) => r.trim())
    .filter(Boolean);
  // A pause of one answer that no longer waits took it: there was nothing else to take.
  if (only && !actor.exited)
    return actor.reply(
      "answered",
      `${pressed}; the pause no longer waits` +
        (under.length
          ? `, the screen goes on with ${JSON.stringify(under.slice(0, 2).join(" / ").slice(0, 160))}`
          : ""),
    );
  return actor.reply(
    "uncertain",
    `${pressed}; the question no longer waits` +
      (under.length
        ? `, the screen goes on under it with ${JSON.stringify(under.slice(0, 2).join(" / ").slice(0, 160))}`
        : "") +
      (actor.exited ? " and the program exited" : "") +
      `; no line shows which answer was taken`,
  );
}

/**
 * Refuses an answer typed where a visible cursor stands before the question's end: on a row of it above its last, or on
 * its last before its last word. A program that asks waits after its question; a cursor before it is an editor's, in a
 * buffer holding the question's words as text (nano or vim showing a file), and the keys would edit that text.
 */
function refuseCursorBefore(look: Look, target: Target): void {
  const { element } = target;
  const { row, col, visible } = look.grid.cursor;
  const last = element.row + element.height - 1;
  if (!visible || row < element.row || row > last) return;
  const end = element.col + rowText(look.grid, last, element.col).slice(0, element.width).trimEnd().length;
  if (row === last && col >= end) return;
  throw new T4aError(
    "unsupported",
    `${nameOf(target)}: the cursor stands before the question's end (row ${row}, column ${col}), where no answer is ` +
      "typed: text being edited (an editor showing a file), not a program asking; nothing was sent",
  );
}

/**
 * Answer a question or pick a keyed item with the key the screen shows for it (checked before it
 * is sent: `43) Spain` among columns is 43, not the 9 of the row's first item), then see it taken.
 */
export async function answerWithKey(actor: Actor, look: Look, target: Target, word?: string): Promise<ActReply> {
  refuseCursorBefore(look, target);
  const { key, shows } = word ? shownKey(look.grid, target, word) : shownKey(look.grid, target);
  const said = target.item?.key;
  if (
    !key &&
    !word &&
    said &&
    wordKey(target.item!, said) &&
    look.grid.cursor.row === target.element.row + target.element.height - 1
  )
    throw new T4aError(
      "unsupported",
      `${nameOf(target)} is answered by typing a word (${JSON.stringify(said)}): name that word to have it typed ` +
        "(choose types a word only as the caller's text)",
    );
  if (!key)
    throw new T4aError(
      "unsupported",
      `${nameOf(target)} has no key the screen shows to press (its row: ${JSON.stringify(shows.slice(0, 120))}), ` +
        `and nothing in ${target.element.ref} is shown selected to count from`,
    );
  // A word asked for with no prompt of its own, under the statement that asked it, whose line ended in ";" or "$"
  // (maxima's "(%i1) integrate(…);" then "Is k positive, negative or zero?"): the program reads the answer as a
  // statement too, ended the same ("positive;"); without it the line is taken and more is waited for.
  const ended = word !== undefined && bare(look, target) ? await statementEnd(actor, look, target) : undefined;
  return typeAnswer(actor, look, target, ended && key === word ? `${key}${ended}` : key);
}

/** A question with no prompt of its own: the cursor at the start of an empty row under it. */
const bare = (look: Look, target: Target) =>
  look.grid.cursor.col === 0 &&
  look.grid.cursor.row >= target.element.row + target.element.height &&
  !rowText(look.grid, look.grid.cursor.row).trim();

/**
 * A question with no prompt of its own is answered only as the program that asked it reads: no shell (whose prompt
 * may be empty), and the row right above the question ends in the last line entered at the terminal, the statement
 * it asks under (maxima's "(%i1) integrate(…);"); a question printed by `cat` follows no line entered. The mark that
 * ended that statement (";", "$"), if any: the answer is typed ended the same.
 */
async function statementEnd(actor: Actor, look: Look, target: Target): Promise<string | undefined> {
  const refuse = (why: string) =>
    new T4aError("unsupported", `${nameOf(target)} has no prompt of its own and ${why}; nothing was sent`);
  const reader = await actor.pollingReader();
  if (!reader?.executable || SHELL.test(reader.executable))
    throw refuse(`the program reading the terminal is ${reader?.executable ? "a shell" : "not known"}`);
  let above = "";
  for (let r = target.element.row - 1; r >= 0 && !above; r--) above = rowText(look.grid, r).trimEnd();
  const typed = actor.enteredLines().at(-1)?.typed.trim();
  if (!typed || !above.endsWith(typed))
    throw refuse("the row above it is no line entered at the terminal (the statement it would be asked under)");
  return /[^;$\s][;$]$/.exec(above)?.[0].slice(1);
}

/** Type an answer's key, then see it taken. */
async function typeAnswer(actor: Actor, look: Look, target: Target, key: string): Promise<ActReply> {
  // A default the prompt holds already, one of the question's keys put there to be edited (debconf's readline
  // "Geographic area: 8"): erased first, else the key typed would go after it ("82").
  const field = look.elements.find((e) => e.kind === "input" && e.cursor && e.row === look.grid.cursor.row);
  const preset = field?.value?.trim();
  if (field && preset && target.element.items?.some((i) => i.key === preset)) {
    await erase(actor, { element: field }, field.value!);
    look = await actor.look();
    if (findAgain(look.elements, { element: field })?.element.value?.trim())
      throw new T4aError("unsupported", `the prompt still holds ${JSON.stringify(preset)} after erasing it`);
  }
  // (A prompt that filled its row, the cursor gone on to the next row's start: the row above is the prompt.)
  const { row: at, col } = look.grid.cursor;
  const filled =
    at > 0 &&
    col === 0 &&
    !rowText(look.grid, at).trim() &&
    rowText(look.grid, at - 1).trimEnd().length >= look.grid.cols - 1;
  const prompt = filled ? rowText(look.grid, at - 1).trimEnd() : rowText(look.grid, at).slice(0, col).trimEnd();
  const history = actor.historyLength();
  const echo = await answerKey(actor, look, key);
  return answered(actor, look, target, { key, prompt, history, echo });
}

/** How long a one-line prompt in raw mode is given to show what its key did before Enter is sent. */
const KEY_ECHO_MS = 1500;

/**
 * Type an answer's key ("y", "43"). A program that reads lines (the terminal in canonical mode: a
 * shell's `read`, apt, tzselect) gets the key and Enter. One in raw mode may act on a key alone
 * (`git add -p` with interactive.singleKey, a pager's y/n): Enter is sent only when the key shows
 * no more than its echo on the prompt's row (a numbered list waiting for Enter after the number),
 * else it would answer the next question.
 */
async function answerKey(actor: Actor, look: Look, key: string): Promise<string | undefined> {
  const row = look.grid.cursor.row;
  // The key echoed at the end of the prompt's row: what the program was given to read.
  const echoOf = (seen: Look | undefined) => {
    const echo = seen ? rowText(seen.grid, row).trim() : "";
    return echo.endsWith(key) ? echo : undefined;
  };
  if (actor.readsLines) {
    if (key.length === 1) await actor.keys(key);
    else await actor.type(key);
    // (Nothing reaches the program before Enter: the tty's echo of the key is seen first, where it echoes.)
    const seen = actor.echoes
      ? await actor.until((now) => (now.text !== look.text ? now : undefined), KEY_ECHO_MS)
      : undefined;
    await actor.keys("Enter");
    return echoOf(seen);
  }
  const others = (seen: Look) =>
    seen.text
      .split("\n")
      .filter((_, index) => index !== row)
      .join("\n");
  if (key.length === 1) await actor.keys(key);
  else await actor.type(key);
  const seen = await actor.until((now) => (now.text !== look.text ? now : undefined), KEY_ECHO_MS);
  if (actor.exited) return undefined;
  if (seen && !(seen.grid.cursor.row === row && others(seen) === others(look))) return undefined;
  await actor.keys("Enter");
  return echoOf(seen);
}
