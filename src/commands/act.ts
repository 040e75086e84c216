// How choose, click and fill act on a screen's elements: the way the program understands (a mouse
// click where it turned mouse reporting on, else the keys that move its selection or focus there),
// then a bounded wait until the screen shows the effect. Not a command; the three files share it.
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import { forDisplay, fromProgram } from "../protocol/program-text.ts";
import { type CellGrid, CellFlag } from "../terminal/cell-grid.ts";
import { detectElements, type Element, isReplPrompt, isShellPrompt } from "../terminal/elements.ts";
import { type Hint, hintTarget, keyHints } from "../terminal/hints.ts";
import { keyBytes } from "../terminal/keys.ts";
import { mouseBytes } from "../terminal/mouse.ts";
import {
  beforeCursor,
  cellOf,
  findAgain,
  functionKeyOf,
  itemKey,
  nameOf,
  namedAnswerKey,
  rowText,
  shownKey,
  type Target,
  wordKey,
} from "../terminal/targets.ts";
import type { Terminal } from "../terminal/terminal.ts";

export const ACT_TIMEOUT_MS = 10_000;

/** The fields every action takes besides its own: which terminal, what to act on, how long to wait. */
export const actFields = () => ({
  target: v.pipe(v.string(), v.minLength(1), v.description("a snapshot ref (e3, e3.2) or its text")),
  timeout_ms: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(600_000),
      v.description("wait this long for the effect (default 10 s)"),
    ),
    ACT_TIMEOUT_MS,
  ),
});

export const ActReply = () =>
  v.object({
    /** How it acted: a mouse click, or keys only. */
    via: v.picklist(["mouse", "keys"]),
    /** What was sent, in order: key names, "click ROW:COL", typed text in quotes. */
    sent: v.array(v.string()),
    /**
     * What the screen showed at the end, the action's goal state only: the item shown selected, the
     * question answered (gone, and a line showing the item meant), a box checked or unchecked, the
     * field holding the value (submitted: then taken with Enter), a button's dialog gone, a menu bar's button's
     * drop-down opened (a menu new on the screen, hung from it), a key hint's dialog opened (new, holding its words) or
     * its tab made current (selected), the program exited. `uncertain` when the screen
     * changed but shows none of these: `seen` says what it shows.
     */
    effect: v.picklist([
      "selected",
      "answered",
      "checked",
      "unchecked",
      "filled",
      "submitted",
      "gone",
      "opened",
      "exited",
      "uncertain",
    ]),
    /** What the screen shows when the effect is uncertain, or how a field that hides its text was judged. */
    seen: v.optional(v.string()),
    elapsed_ms: v.number(),
  });
export type ActReply = v.InferOutput<ReturnType<typeof ActReply>>;
export type Effect = ActReply["effect"];

export interface Look {
  grid: CellGrid;
  elements: Element[];
  text: string;
}

/** Rounds of arrows, and how long each waits for the selection to show, before giving up. */
const MAX_ARROW_ROUNDS = 4;
const ARROW_ROUND_MS = 3000;

/** How long a screen that changed is watched for the goal state before the action says it is uncertain. */
const SETTLE_MS = 2000;

/** How long a full-screen form's table, gone after Enter in a field that keeps its text, is waited for to come back. */
const RELOAD_MS = 6000;

/** How long the screen off a filled field's row must stand still before Enter for a table's change to count. */
const REST_MS = 700;

/** Most Tab presses tried to bring the focus to a button or field. */
const MAX_TABS = 12;

/** One action on one terminal: what it sent, and a deadline for everything it waits on. */
export class Actor {
  readonly sent: string[] = [];
  via: "mouse" | "keys" = "keys";
  readonly #terminal: Terminal;
  readonly #started = performance.now();
  readonly #deadline: number;

  constructor(terminal: Terminal, timeoutMs: number) {
    this.#terminal = terminal;
    this.#deadline = this.#started + timeoutMs;
  }

  async look(): Promise<Look> {
    await this.#terminal.settled();
    const grid = this.#terminal.screen.cellGrid();
    const text = Array.from({ length: grid.rows }, (_, row) => rowText(grid, row)).join("\n");
    return { grid, elements: detectElements(grid), text };
  }

  /** How many lines have scrolled off the top into the history. */
  historyLength(): number {
    return this.#terminal.screen.regionLength("scrollback");
  }

  /** The last `count` lines that scrolled off the top (oldest first). */
  history(count: number): string[] {
    const total = this.historyLength();
    return count > 0 ? this.#terminal.screen.lines("scrollback", 0, Math.min(count, total), true) : [];
  }

  /** The program reading the terminal now (null: none; undefined: not known here). */
  reader(): ReturnType<Terminal["reader"]> {
    return this.#terminal.reader();
  }

  /** The programs of the terminal's foreground process group (undefined: not known here). */
  foregroundPrograms(): ReturnType<Terminal["foregroundPrograms"]> {
    return this.#terminal.foregroundPrograms();
  }

  /** Whether a process of the terminal's still runs. */
  running(pid: number): boolean {
    return this.#terminal.running(pid);
  }

  /**
   * Whether the program's output pauses for `ms` within `withinMs` and the action's deadline (a screen at rest, not
   * output going past).
   */
  async quiet(ms: number, withinMs: number): Promise<boolean> {
    const left = Math.min(withinMs, this.#deadline - performance.now());
    if (left < ms) return false;
    try {
      await this.#terminal.wait({ idle_ms: ms }, left);
      return true;
    } catch (error) {
      if (error instanceof T4aError && (error.code === "timeout" || error.code === "exited")) return false;
      throw error;
    }
  }

  mouseOn(look: Look): boolean {
    return (look.grid.mouse?.mode ?? "none") !== "none";
  }

  async keys(...names: string[]): Promise<void> {
    if (!names.length) return;
    const bytes = names.map((name) => keyBytes(name, this.#terminal.screen)).join("");
    this.#live();
    await this.#terminal.send([bytes]);
    this.sent.push(...names);
  }

  async type(text: string): Promise<void> {
    this.#live();
    await this.#terminal.send([text]);
    this.sent.push(JSON.stringify(text));
  }

  async click(cell: { row: number; col: number }): Promise<void> {
    const bytes = mouseBytes({ click: "left", ...cell }, this.#terminal.screen.mouse(), this.#terminal.screen);
    this.#live();
    await this.#terminal.send([bytes]);
    this.sent.push(`click ${cell.row}:${cell.col}`);
    this.via = "mouse";
  }

  #live(): void {
    if (!this.#terminal.alive) throw new T4aError("exited", `terminal "${this.#terminal.id}" has exited`);
  }

  get exited(): boolean {
    return !this.#terminal.alive;
  }

  /** The program reads input a line at a time (canonical mode): nothing typed reaches it before Enter. */
  get readsLines(): boolean {
    return this.#terminal.readsLines;
  }

  /**
   * Re-read the screen each time the program's output pauses until `check` answers, at most until
   * `ms` from now (and the deadline). Undefined when time runs out or the program exits.
   */
  async until<T>(check: (look: Look) => T | undefined, ms = Infinity): Promise<T | undefined> {
    const end = Math.min(this.#deadline, performance.now() + ms);
    for (;;) {
      if (!this.#terminal.alive) return undefined;
      const answer = check(await this.look());
      if (answer !== undefined) return answer;
      const left = end - performance.now();
      if (left <= 0) return undefined;
      try {
        await this.#terminal.wait({ idle_ms: Math.max(1, Math.min(100, Math.floor(left))) }, Math.ceil(left));
      } catch (error) {
        if (error instanceof T4aError && (error.code === "timeout" || error.code === "exited")) continue;
        throw error;
      }
    }
  }

  /**
   * The effect of pressing a button: `target` gone from the screen, or the program exited. A screen
   * that changed with the button still there is uncertain (a press that moved the focus, or did nothing).
   */
  async effect(before: Look, target: Target): Promise<ActReply> {
    let changedAt = 0;
    let last: Look | undefined;
    const seen = await this.until((look) => {
      if (!findAgain(look.elements, target)) return "gone" as const;
      if (look.text === before.text && sameLook(look, before)) return undefined;
      changedAt ||= performance.now();
      last = look;
      return performance.now() - changedAt > SETTLE_MS ? ("uncertain" as const) : undefined;
    });
    if (seen === "gone") return this.reply("gone");
    const opened = seen === "uncertain" && last ? menuOpened(before, last, target) : undefined;
    if (opened) {
      const names = opened.items!.map((item) => JSON.stringify(item.label));
      return this.reply(
        "opened",
        `a menu opened under ${nameOf(target)}, ${opened.ref}: ${names.slice(0, 6).join(", ")}` +
          (names.length > 6 ? `, … (${names.length} items)` : ""),
      );
    }
    if (this.exited) return this.reply("exited");
    if (seen === "uncertain" || changedAt) {
      // (Said, not claimed: a button that stays names no state to check, whatever a table then shows.)
      const changed = last ? tableChanged(before, before, last, -1) : undefined;
      return this.reply(
        "uncertain",
        `the screen changed, but ${nameOf(target)} is still there${changed ? `; ${changed}` : ""}`,
      );
    }
    throw new T4aError(
      "timeout",
      `${this.sent.join(" ")}: the screen did not change within the wait (the program may not have taken it)`,
    );
  }

  reply(effect: Effect, seen?: string): ActReply {
    return {
      via: this.via,
      sent: this.sent,
      effect,
      // It quotes the screen (labels, its last rows): program text.
      ...(seen ? { seen: forDisplay(fromProgram(seen)) } : {}),
      elapsed_ms: Math.round(performance.now() - this.#started),
    };
  }

  /** A full-screen program holds the alternate screen. */
  get alternate(): boolean {
    return this.#terminal.screen.alternate;
  }

  /** The tty echoes what is typed. */
  get echoes(): boolean {
    return this.#terminal.echoes;
  }

  /**
   * Refuses a target above the prompt of a shell that is at its prompt (its integration says so): a menu, question,
   * button or field printed by a command (`cat` of a file holding "❯ 1. Yes") asks nothing, and the keys would go to
   * the shell. Only the shell's own command line, the input holding the cursor, may be acted on there.
   */
  refuseShellOutput(look: Look, target?: Target): void {
    const { row } = look.grid.cursor;
    const element = target?.element;
    // (Without the marks, the screen: a shell's prompt holding the cursor on the normal screen, the target above it.
    // A full-screen program draws on the alternate one, mc its own command line there.)
    // (Nor above a REPL's prompt, python's ">>> ", or a prompt that stands above the target too with a line typed
    // after it: the target is that line's output, and the REPL would read the keys.)
    // (A question's rows may end in the prompt holding the cursor: its top above the REPL's prompt is enough.)
    // (Hidden or not: on the normal screen the cursor stands where the next line is read, and a file's "\e[?25l" hides
    // it under a shell's prompt drawn after the file.)
    const normal = !this.alternate;
    // (Every line scrolled off that the terminal still holds, its scrollback: a command row 2000 lines up was once past
    // what was read, and the list its output ended in was answered in the REPL.)
    let scrolled: string[] | undefined;
    const earlier = () => {
      scrolled ??= this.history(this.historyLength());
      return scrolled;
    };
    const prompt = normal ? beforeCursor(look.grid) : "";
    const above = normal && (!element || element.row < row);
    const [who, why] = this.#terminal.atShellPrompt
      ? ["shell", "its integration says so"]
      : above && (!element || element.row + element.height <= row) && isShellPrompt(prompt)
        ? ["shell", "the cursor stands after one"]
        : above && isReplPrompt(prompt)
          ? ["REPL", "python's or IPython's prompt holds the cursor"]
          : above && askedBefore(look.grid, prompt, element, earlier())
            ? ["REPL", "the same prompt stands above it, a line typed after it"]
            : [];
    const holds = !!element && element.row <= row && row < element.row + element.height;
    // (The prompt holding the cursor may end in the program's own, seen above the target with a command typed after
    // it: the words before it on its row are that command's output printed with no newline at its end, and so is the
    // target, there or above.)
    const own =
      normal && element && (holds || above) ? promptAfterOutput(look.grid, prompt, element, earlier()) : undefined;
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
   * Arrows until `position` says the target is the selected one, counted from the one shown
   * selected each time: keys a program drops while it draws (codex, under load) are sent again
   * once the screen shows no move for a while, and an overshoot is walked back. Undefined when it
   * never gets there.
   */
  async arrowTo(
    position: (look: Look) => { at: number; to: number } | undefined,
    sideways = false,
  ): Promise<Look | undefined> {
    for (let attempt = 0; attempt < MAX_ARROW_ROUNDS; attempt++) {
      const look = await this.look();
      const place = position(look);
      if (!place || place.at < 0) return undefined;
      if (place.at === place.to) return look;
      const delta = place.to - place.at;
      const [next, back] = sideways ? ["Right", "Left"] : ["Down", "Up"];
      await this.keys(...Array<string>(Math.abs(delta)).fill(delta > 0 ? next! : back!));
      const there = await this.until((seen) => {
        const now = position(seen);
        return now && now.at === now.to ? seen : undefined;
      }, ARROW_ROUND_MS);
      if (there) return there;
    }
    return undefined;
  }

  /** Press Tab until `focused` says the target has the focus; throws when it never does. */
  async tabTo(target: Target, focused: (again: Target) => boolean, what: string): Promise<void> {
    for (let i = 0; i < MAX_TABS; i++) {
      const before = await this.look();
      await this.keys("Tab");
      // The program redraws the focus: wait for the screen to change (briefly: a Tab onto something drawn alike changes
      // nothing).
      const again = await this.until(
        (look) =>
          look.text !== before.text || !sameLook(look, before) ? (findAgain(look.elements, target) ?? null) : undefined,
        1500,
      );
      if (again && focused(again)) return;
    }
    throw new T4aError("timeout", `${MAX_TABS} Tab presses never brought the focus to ${nameOf(target)} (${what})`);
  }
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
 * The same characters in the same places but another style counts as a change (a highlight moved),
 * and so does the cursor moving (a line read after Enter: the cursor goes to the next row, nothing drawn).
 */
function sameLook(a: Look, b: Look): boolean {
  if (a.grid.cursor.row !== b.grid.cursor.row || a.grid.cursor.col !== b.grid.cursor.col) return false;
  const { flags: fa, bg: ba, fg: ga } = a.grid;
  const { flags: fb, bg: bb, fg: gb } = b.grid;
  if (fa.length !== fb.length) return false;
  for (let i = 0; i < fa.length; i++) if (fa[i] !== fb[i] || ba[i] !== bb[i] || ga[i] !== gb[i]) return false;
  return true;
}

/**
 * Choose an item of a menu or question, or toggle a checkbox or radio; a button is clicked. `named` is the caller's
 * text for the target, if it gave one: an answer typed as a word (wordKey) is typed only when it names the word.
 */
export async function choose(actor: Actor, look: Look, target: Target, named?: string): Promise<ActReply> {
  const { element, item } = target;
  if (element.kind === "button") return click(actor, look, target);
  if (element.kind === "checkbox" || element.kind === "radio" || item?.checked !== undefined)
    return toggle(actor, look, target);
  if (!item) throw new T4aError("invalid_params", `${element.ref} is a ${element.kind}: name one of its items`);
  const items = element.items!;
  // Items side by side on one row: an inline answer (`[Y/n]`) or a toggle (`● Yes / ○ No`).
  const inline = items.every((i) => i.row === items[0]!.row);
  const selected = items.findIndex((i) => i.selected);
  // A question answered by typing a key at its prompt: its answers on the prompt's row (`[Y/n]`,
  // whose "selected" is the default, not a cursor), or described in a legend above the prompt
  // holding the cursor (dpkg's conffile question).
  const { row: cursor, visible } = look.grid.cursor;
  // (Or on the prompt right under it: a list of numbered rows over the prompt that reads the number, mail's headers
  // over "&", one marked current. A blank row under a list whose selection moves, "❯ 1. Yes", is no prompt.)
  const promptUnder = cursor === element.row + element.height && !inline && beforeCursor(look.grid).trim() !== "";
  const atPrompt =
    element.kind === "question" && visible && (cursor === element.row + element.height - 1 || promptUnder);
  // An answer whose key the question's bracket names ("[return = YES | Esc = NO]"), the question waiting last.
  const namedKey =
    atPrompt || (visible && cursor === element.row + element.height && look.grid.cursor.col === 0)
      ? namedAnswerKey(look.grid, target)
      : undefined;
  if (namedKey) return pressNamedAnswer(actor, look, target, namedKey);
  // A word ("minitest", "df") only at the question's own prompt, and only the word the caller named.
  const word = atPrompt ? wordKey(item, named) : undefined;
  const keyed = word !== undefined || (itemKey(item) !== undefined && (inline || atPrompt));
  if (selected < 0 || keyed) {
    if (selected < 0 && !inline && !itemKey(item) && actor.mouseOn(look) && element.kind === "menu") {
      await actor.click(cellOf(target));
      const moved = await actor.until((seen) => (findAgain(seen.elements, target)?.item?.selected ? seen : undefined));
      if (!moved) {
        if (actor.exited) return actor.reply("uncertain", `the program exited after the click on ${nameOf(target)}`);
        throw new T4aError("timeout", `${actor.sent.join(" ")}: ${nameOf(target)} never showed selected`);
      }
      await actor.keys("Enter");
      return answered(actor, moved, target);
    }
    if (selected < 0 && !inline && !itemKey(item) && element.kind === "menu" && completionPopUp(look, element))
      return tabThrough(actor, look, target);
    if (selected < 0 || keyed || inline) return answerWithKey(actor, look, target, word);
  }
  // A list cycled with Tab, its hint saying so (nimble's "Select Cycle with 'Tab', 'Enter' when done" over
  // "Choices:> library <"): Tab, not arrows, moves its marks.
  if (element.kind === "menu" && selected >= 0 && tabCycled(look, element)) return cycleWithTab(actor, look, target);
  // Arrows from the selected item: every list takes them, while a program may turn the mouse on
  // for its wheel alone (codex asks for every motion) and a click is only as good as its handling.
  // Items side by side on one row (a `● Yes / ○ No` toggle) move with Left and Right.
  const moved = await actor.arrowTo((seen) => {
    const again = findAgain(seen.elements, target);
    const list = again?.element.items;
    return list && { at: list.findIndex((i) => i.selected), to: list.indexOf(again.item!) };
  }, inline);
  if (!moved) {
    if (actor.exited) return actor.reply("uncertain", `the program exited before ${nameOf(target)} showed selected`);
    const now = findAgain((await actor.look()).elements, target);
    const at = now?.element.items?.find((i) => i.selected);
    throw new T4aError(
      "timeout",
      `${actor.sent.join(" ")}: the selection did not reach ${nameOf(target)}` +
        (at ? ` (it shows ${JSON.stringify(at.label)} selected)` : ""),
    );
  }
  await actor.keys("Enter");
  return answered(actor, moved, target);
}

/** A hint that a list moves with Tab: "Cycle with 'Tab'", "Tab to cycle", "press <Tab> to move". */
const TAB_CYCLES = /\bcycle\b.{0,12}\btab\b|\btab\b.{0,12}\b(?:cycle|move|next)\b/i;

/** Rows above a list its Tab hint may stand on. */
const TAB_HINT_ROWS = 3;

/**
 * A list whose selected item stands between ">" and "<" (cycledLists' marks, drawn on its row) under a hint, in the
 * rows right above it, that Tab cycles it.
 */
function tabCycled(look: Look, menu: Element): boolean {
  const at = menu.items?.find((i) => i.selected);
  if (
    !at ||
    !/>\s*$/.test(rowText(look.grid, at.row).slice(0, at.col)) ||
    !/^\s*</.test(rowText(look.grid, at.row, at.col + at.width))
  )
    return false;
  for (let row = menu.row - 1; row >= Math.max(0, menu.row - TAB_HINT_ROWS); row--)
    if (TAB_CYCLES.test(rowText(look.grid, row))) return true;
  return false;
}

/**
 * Press Tab until the item named shows selected, looking after each press (at most once per item: the list cycles),
 * then Enter, and see it taken. Throws when the selection never reaches it.
 */
async function cycleWithTab(actor: Actor, look: Look, target: Target): Promise<ActReply> {
  const selectedIn = (now: Look) => findAgain(now.elements, target)?.element.items?.find((i) => i.selected)?.label;
  let seen = look;
  for (let i = 0; i < target.element.items!.length && !findAgain(seen.elements, target)?.item?.selected; i++) {
    const was = selectedIn(seen);
    await actor.keys("Tab");
    const next = await actor.until((now) => {
      const at = selectedIn(now);
      return at !== undefined && at !== was ? now : undefined;
    }, 1500);
    if (!next) break;
    seen = next;
  }
  if (!findAgain(seen.elements, target)?.item?.selected) {
    if (actor.exited) return actor.reply("uncertain", `the program exited before ${nameOf(target)} showed selected`);
    const at = selectedIn(await actor.look());
    throw new T4aError(
      "timeout",
      `${actor.sent.join(" ")}: Tab never brought the marks to ${nameOf(target)}` +
        (at ? ` (they stand on ${JSON.stringify(at)})` : ""),
    );
  }
  await actor.keys("Enter");
  return answered(actor, seen, target);
}

/**
 * Press the key a question's bracket names for the answer (namedAnswerKey: Enter or Escape), the question the last
 * thing on the screen, then watch it go on. Nothing but the program's own next lines follows such a key (dar prints its
 * next question under the first): no line shows which answer was taken, so the reply is `uncertain`, saying what the
 * screen went on with, never `answered` on that alone.
 */
async function pressNamedAnswer(actor: Actor, look: Look, target: Target, key: string): Promise<ActReply> {
  const { element } = target;
  const last = element.row + element.height - 1;
  if (
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
  const pressed = `${key} pressed for ${nameOf(target)}, as the question's bracket pairs them`;
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

/** Whether `text` holds `word` whole (not inside a longer word). */
const wordIn = (text: string, word: string): boolean =>
  new RegExp(`(^|[^\\p{L}\\p{N}_])${escapeRegExp(word.trim())}($|[^\\p{L}\\p{N}_])`, "u").test(text);

/**
 * A completion pop-up: a menu right under the field holding the cursor, from inside it (irb's reline dialog under
 * "irb(main):001:0> deploy_"), nothing selected in it yet.
 */
function completionPopUp(look: Look, menu: Element): boolean {
  const { row, col, visible } = look.grid.cursor;
  return (
    visible &&
    menu.row === row + 1 &&
    menu.col <= col &&
    look.elements.some((e) => e.kind === "input" && e.cursor && e.row === row && e.col <= menu.col)
  );
}

/**
 * Tab through a completion pop-up with nothing selected (each Tab selects the next item, the first Tab the first),
 * at most once per item, until the item named shows selected; then Enter, and see it taken. Throws when it never does.
 */
async function tabThrough(actor: Actor, look: Look, target: Target): Promise<ActReply> {
  const count = target.element.items!.length;
  // The item a look shows selected in the pop-up, if any.
  const selectedIn = (now: Look) => findAgain(now.elements, target)?.element.items?.find((i) => i.selected)?.label;
  let seen = look;
  for (let i = 0; i < count; i++) {
    const was = selectedIn(seen);
    await actor.keys("Tab");
    // (The pop-up is redrawn after the line: wait for the selection to move, not for the first change.)
    const next = await actor.until((now) => {
      const at = selectedIn(now);
      return at !== undefined && at !== was ? now : undefined;
    }, 1500);
    if (!next) break;
    seen = next;
    const again = findAgain(seen.elements, target);
    if (again?.item?.selected) {
      // The field shows the item once it is selected (reline writes it in): after Enter, the pop-up gone and the
      // cursor off that line, the line is taken.
      const row = seen.grid.cursor.row;
      const line = rowText(seen.grid, row).trim();
      await actor.keys("Enter");
      if (!wordIn(line, again.item.label)) return answered(actor, seen, target);
      const taken = await actor.until((now) =>
        !findAgain(now.elements, target) &&
        now.grid.cursor.row !== row &&
        now.text.split("\n").some((r, i) => i !== now.grid.cursor.row && r.trim() === line)
          ? now
          : undefined,
      );
      if (taken) return actor.reply("answered", `the pop-up is gone and the line taken shows ${JSON.stringify(line)}`);
      return answered(actor, seen, target);
    }
  }
  if (actor.exited) return actor.reply("uncertain", `the program exited before ${nameOf(target)} showed selected`);
  throw new T4aError("timeout", `${actor.sent.join(" ")}: Tab never brought the selection to ${nameOf(target)}`);
}

/**
 * Answer a question or pick a keyed item with the key the screen shows for it (checked before it
 * is sent: `43) Spain` among columns is 43, not the 9 of the row's first item), then see it taken.
 */
async function answerWithKey(actor: Actor, look: Look, target: Target, word?: string): Promise<ActReply> {
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

/**
 * How long keys typed into a field read key by key with the tty's echo off must leave the screen as it was (the
 * cursor where it was: nothing drawn) to count as read unshown.
 */
const KEYS_UNSHOWN_MS = 1500;

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

/**
 * After the keys that answer: the goal state, seen. The item still listed and shown selected is
 * `selected`; the question gone (or left above as history) with a line that shows the item meant
 * (its label outside the list's rows, or the prompt's row holding the key typed: `#? 43`) is
 * `answered`; anything else after the screen settles is `uncertain`, saying what it shows.
 */
async function answered(
  actor: Actor,
  before: Look,
  target: Target,
  typed?: { key: string; prompt: string; history: number; echo?: string },
): Promise<ActReply> {
  const label = target.item!.label;
  const listRows = new Set(
    (target.element.items ?? [])
      .map((i) => rowText(before.grid, i.row).trim())
      .concat(rowText(before.grid, target.element.row).trim()),
  );
  // The answers of a one-row toggle or inline question, when all are on one row.
  const answers = target.element.items ?? [];
  const inline =
    !typed && answers.length > 1 && answers.every((i) => i.row === answers[0]!.row)
      ? answers.map((i) => i.label)
      : undefined;
  let otherMarked: string | undefined;
  // (Lines that stood above the question, or inside it: its own text, bundler's "* GitHub Actions: https://github…"
  // under "Do you want to set up continuous integration…?", is no answer "github".)
  const earlier = new Set(
    before.text
      .split("\n")
      .slice(0, target.element.row + target.element.height)
      .filter((_, i) => i < target.element.row || !listRows.has(rowText(before.grid, i).trim()))
      .map((r) => r.trim()),
  );
  let markNote = "";
  // The line that shows the item meant, and its row (the first of two rows joined).
  const evidence = (look: Look, exited: boolean): { line: string; row: number } | undefined => {
    const rows = look.text.split("\n");
    const cursor = look.grid.cursor.row;
    // (A question that takes its answer on a row under it, its own row still there as it was: the key's line there
    // is typed, not taken; deno's "> y" under "┗ Allow? …", its input flushed if typed before it read.)
    const { row: top, height, items: answersOf = [] } = target.element;
    const waiting =
      !exited &&
      height > 1 &&
      answersOf.every((i) => i.row === top) &&
      rowText(look.grid, top).trim() === rowText(before.grid, top).trim();
    if (typed) {
      const line = `${typed.prompt} ${typed.key}`.replace(/\s+/g, " ").trim();
      const at = rows.findIndex(
        (r, i) =>
          (exited || i !== cursor) &&
          !(waiting && i > top && i < top + height) &&
          r.replace(/\s+/g, " ").trim() === line,
      );
      if (at >= 0 && (exited || look.text !== before.text)) return { line: rows[at]!.trim(), row: at };
      // (Or over two rows: a prompt that filled its row, the key at the next row's start.)
      const over = rows.findIndex(
        (r, i) =>
          i + 1 < rows.length &&
          (exited || (i !== cursor && i + 1 !== cursor)) &&
          r.trimEnd().length >= look.grid.cols - 1 &&
          `${r} ${rows[i + 1]}`.replace(/\s+/g, " ").trim() === line,
      );
      if (over >= 0 && (exited || look.text !== before.text))
        return { line: `${rows[over]!.trim()} ${rows[over + 1]!.trim()}`, row: over };
      const ends = (r: string, i: number) =>
        (exited || i !== cursor) &&
        !(waiting && i > top && i < top + height) &&
        r.replace(/\s+/g, " ").trim().endsWith(line);
      const end = typed.prompt ? rows.findIndex(ends) : -1;
      if (end >= 0) return { line, row: end };
    }
    const word = wholeWord(label);
    const again = findAgain(look.elements, target);
    const live = new Set((again?.element.items ?? []).map((i) => i.row));
    // (A line showing another item whose name holds this one's is that item's: "~ place › harbour column will be
    // renamed" answers "place › harbour", not "harbour".)
    const wider = (target.element.items ?? [])
      .filter((i) => i.label.trim().length > label.trim().length && word.test(i.label))
      .map((i) => wholeWord(i.label));
    const answers = (r: string, i: number) =>
      !live.has(i) &&
      !listRows.has(r.trim()) &&
      word.test(r) &&
      !wider.some((w) => w.test(r)) &&
      (exited || i !== cursor || !typed);
    // (Not a line that stood above the question before: an earlier answer holding the same word,
    // "✔ … language · TypeScript / JavaScript" over the flavor asked next. Unless it stands right under this
    // question's own words: two confirms answered alike leave two "│  No" lines, the second under its question.)
    const asked = target.element.label?.trim() ?? "";
    const underAsked = (i: number) => asked.length >= 8 && i > 0 && !live.has(i - 1) && rows[i - 1]!.includes(asked);
    // (A key typed: a line that was there before is no evidence at all, under the question's words or not.)
    const fresh = (r: string, i: number) => !earlier.has(r.trim()) || (!typed && underAsked(i));
    if (!inline) {
      const hit = rows.findIndex((r, i) => fresh(r, i) && answers(r, i));
      return hit >= 0 ? { line: rows[hit]!.trim(), row: hit } : undefined;
    }
    // A toggle left as history ("✔ Use TypeScript? … No / Yes") holds every answer: the one taken
    // is the one drawn apart, and it must be the one meant. (Lines that stood above it before are
    // earlier questions' answers, wherever output has scrolled them since.)
    const hit = rows.findIndex((r, i) => fresh(r, i) && answers(r, i));
    if (hit < 0) return undefined;
    const marked = markedAnswer(look.grid, hit, inline);
    if (marked === undefined) return { line: rows[hit]!.trim(), row: hit };
    if (marked === label) {
      markNote = `, ${JSON.stringify(label)} drawn apart as the answer taken`;
      return { line: rows[hit]!.trim(), row: hit };
    }
    otherMarked = marked;
    return undefined;
  };
  // The question drawn again under its answered line, its rows as they were (wipe's "Okay to WIPE 1 regular file ?
  // (Yes/No)" under "… (Yes/No) y"): the answer was not taken. (The same words asking other answers are the next
  // question: fossil's "Commit anyhow (a=all/y/N)?" for the next file, under "… (a=all/c=convert/y/N)? y".)
  // (Every row of it compared: 7z asks "Would you like to replace the existing file:" with the same answers for the
  // next file, its name in the rows between.)
  const rowsOf = (grid: CellGrid, element: Element) =>
    Array.from({ length: element.height }, (_, i) => rowText(grid, element.row + i).trim()).join("\n");
  // (And the rows between the answered line and it naming another thing than the rows the question stood under: pip
  // asks "Proceed (Y/n)?" for the next package under "Found existing installation: reefwatch 0.3", its first one
  // under "… tidepool 1.0". A refusal between, "Please answer …", names nothing the question stood under.)
  const context = rowsAbove(before.grid, target.element.row, rowText(before.grid, target.element.row).trim());
  const askedAgain = (look: Look, row: number) => {
    const again = findAgain(look.elements, target, { below: row });
    if (again === undefined || rowsOf(look.grid, again.element) !== rowsOf(before.grid, target.element)) return false;
    const between = Array.from({ length: again.element.row - row - 1 }, (_, i) =>
      rowText(look.grid, row + 1 + i).trim(),
    );
    return !between.some(
      (b) =>
        !context.includes(b) &&
        context.some((c) => !between.includes(c) && (namesAnother(c, b) || anotherUnderLabel(c, b, typed?.key))),
    );
  };
  const takenOther = (marked: string) =>
    `the answered line shows ${JSON.stringify(marked)} drawn as the answer taken, not ${nameOf(target)}`;
  let changedAt = 0;
  const result = await actor.until((look): ActReply | undefined => {
    if (look.text === before.text && sameLook(look, before)) return undefined;
    changedAt ||= performance.now();
    const again = findAgain(look.elements, target);
    // A long answer (the next list, a scaffolder's output) may push the answered line off the top: it is in the lines
    // that scrolled off since the key was sent, and only there. (Looked for before the label in new output, which a
    // typed answer's own line outranks.)
    if (typed) {
      const line = `${typed.prompt} ${typed.key}`.replace(/\s+/g, " ").trim();
      const gone = actor.history(Math.min(actor.historyLength() - typed.history, 500));
      if (typed.prompt && gone.some((r) => r.replace(/\s+/g, " ").trim() === line))
        return actor.reply("answered", `the answered line ${JSON.stringify(line)} scrolled off the top`);
    }
    if (!again || typed) {
      const seen = evidence(look, false);
      if (seen && typed && askedAgain(look, seen.row))
        return actor.reply(
          "uncertain",
          `the question was asked again under the answered line ${JSON.stringify(seen.line)}`,
        );
      if (seen) return actor.reply("answered", `the answered line shows ${JSON.stringify(seen.line)}${markNote}`);
    }
    if (performance.now() - changedAt <= SETTLE_MS) return undefined;
    // No other evidence once the screen settled: the key was seen on the question's own prompt before Enter ("> y"),
    // and after it the question is gone: a program that clears its question once answered (deno's "✅ Granted …").
    // (Another question of the same words, its row saying other things, is the next one; the same row again is this
    // one asked again.)
    if (typed?.echo) {
      const asked = rowText(before.grid, target.element.row).trim();
      if (!again || rowText(look.grid, again.element.row).trim() !== asked)
        return actor.reply(
          "answered",
          `${JSON.stringify(typed.key)} showed on the question's prompt (${JSON.stringify(typed.echo)}) ` +
            "before Enter, and the question is gone",
        );
    }
    // The list stayed, the item named selected in it: a list that keeps its choice shown.
    if (!typed && again?.item?.selected && again.element.items!.length > 1)
      return actor.reply("selected", `after Enter the list is still there with ${nameOf(target)} selected`);
    return actor.reply("uncertain", otherMarked ? takenOther(otherMarked) : uncertainty(look, target, again));
  });
  if (result) return result;
  if (actor.exited) {
    const last = await actor.look();
    const seen = evidence(last, true);
    if (seen) return actor.reply("answered", `the program exited; its screen shows ${JSON.stringify(seen.line)}`);
    return typed
      ? actor.reply("uncertain", `the program exited; nothing on its screen shows ${JSON.stringify(label)}`)
      : actor.reply("exited", `after Enter on ${nameOf(target)}, shown selected`);
  }
  if (changedAt)
    return actor.reply("uncertain", otherMarked ? takenOther(otherMarked) : uncertainty(await actor.look(), target));
  throw new T4aError(
    "timeout",
    `${actor.sent.join(" ")}: the screen did not change within the wait (the program may not have taken it)`,
  );
}

/** A label as a whole word in a line, in any case. */
function wholeWord(label: string): RegExp {
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(label.trim())}($|[^\\p{L}\\p{N}])`, "iu");
}

/** Most rows read above a question as what it stands under. */
const CONTEXT_ROWS = 12;

/**
 * The rows right above `row`, nearest first, up to a blank row, a row that asks `asked` again (an earlier answered
 * ask of it) or CONTEXT_ROWS: what a question stands under.
 */
function rowsAbove(grid: CellGrid, row: number, asked: string): string[] {
  const rows: string[] = [];
  for (let r = row - 1; r >= 0 && rows.length < CONTEXT_ROWS; r--) {
    const text = rowText(grid, r).trim();
    if (!text || (asked && text.startsWith(asked))) break;
    rows.push(text);
  }
  return rows;
}

/**
 * Two rows saying the same of another thing: as many words, two or more, the first the same, at least half of them
 * the same in place, and every word that differs a name on both sides (letters in it, not only a count: "Try 2/3" is
 * no other thing than "Try 1/3"). pip's "Found existing installation: reefwatch 0.3" and "… tidepool 1.0".
 */
function namesAnother(a: string, b: string): boolean {
  const [x, y] = [a.split(/\s+/), b.split(/\s+/)];
  if (a === b || x.length < 2 || x.length !== y.length || x[0] !== y[0]) return false;
  const differ = x.flatMap((w, i) => (w === y[i] ? [] : [[w, y[i]!] as const]));
  const named = differ.some(([v, w]) => /\p{L}/u.test(v) && /\p{L}/u.test(w));
  return (
    named &&
    (x.length - differ.length) * 2 >= x.length &&
    differ.every(([v, w]) => /\p{L}/u.test(v) === /\p{L}/u.test(w))
  );
}

/** A row's leading label: a word in capitals ("WARNING") or a capitalised word and a colon ("Warning:"). */
const LEAD_LABEL = /^([A-Z]{3,}|[A-Z][a-z]+:)\s+(\S.*)$/;

/** Words that refuse an answer: a row holding one is the program asking again, whatever its label. */
const REFUSAL = /\b(?:invalid|please (?:answer|enter|type)|try again|not (?:a )?valid|unknown|unrecognized|must be)\b/i;

/**
 * Two rows under one label saying other things (vsce's " WARNING  A 'repository' field is missing …" then " WARNING
 * LICENSE, LICENSE.md, or LICENSE.txt not found", each over "Do you want to continue? [y/N]"): the second warns of
 * another thing, so the question under it is the next one. Not a row refusing the answer, nor one quoting it.
 */
function anotherUnderLabel(a: string, b: string, key: string | undefined): boolean {
  const [x, y] = [LEAD_LABEL.exec(a), LEAD_LABEL.exec(b)];
  if (!x || !y || x[1] !== y[1] || x[2] === y[2] || y[2]!.split(/\s+/).length < 3 || REFUSAL.test(b)) return false;
  return !key || !new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(key)}($|[^\\p{L}\\p{N}])`, "iu").test(y[2]!);
}

/** The screen's last two rows that hold text, joined with " / ": what it ends with. */
function screenEnds(text: string): string {
  return text
    .split("\n")
    .map((r) => r.trim())
    .filter(Boolean)
    .slice(-2)
    .join(" / ");
}

/** What the screen shows when the goal state is not seen, in a few words. */
function uncertainty(look: Look, target: Target, again = findAgain(look.elements, target)): string {
  const name = nameOf(target);
  if (!again) {
    const last = screenEnds(look.text);
    // (A question answered by a key read without echo leaves no answered line: kpcli's "… save it now? [y/N]:" then
    // its next prompt. Gone, the next prompt under it, is all the screen says: not which answer was taken.)
    const gone = target.element.kind === "question" ? "the question is gone" : "the list is gone";
    const below =
      target.element.kind === "question" && look.grid.cursor.row > target.element.row + target.element.height - 1
        ? ", a prompt under it holding the cursor"
        : "";
    return `${gone}${below} and no line shows ${name}; the screen ends with ${JSON.stringify(last.slice(0, 160))}`;
  }
  const at = again.element.items?.find((i) => i.selected);
  return at && at !== again.item
    ? `the list is still there with ${JSON.stringify(at.label)} selected, not ${name}`
    : `the screen changed, but ${name} is still listed and not shown answered`;
}

/** Attributes that set one answer apart from the others on its row. */
const MARKING = CellFlag.underline | CellFlag.inverse | CellFlag.bold;

/**
 * Which of `labels`, side by side on `row` in that order ("No / Yes"), is drawn apart as the one
 * taken: the only one underlined, reversed or bold, or (three or more) the only one in a look of
 * its own. Undefined when the row does not hold them all in a row, or no one alone is drawn apart.
 */
export function markedAnswer(grid: CellGrid, row: number, labels: string[]): string | undefined {
  const cols: number[] = [];
  let line = "";
  for (let col = 0; col < grid.cols; col++) {
    const i = row * grid.cols + col;
    if (grid.widths[i] === 0) continue;
    const char = grid.codepoints[i] ? String.fromCodePoint(grid.codepoints[i]!) : " ";
    for (let k = 0; k < char.length; k++) cols.push(col);
    line += char;
  }
  const between = "\\s*[/|,]?\\s*";
  const found = [...line.matchAll(new RegExp(labels.map((l) => `(${escapeRegExp(l)})`).join(between), "gd"))].at(-1);
  if (!found?.indices) return undefined;
  // Each answer's first cell: its attributes and colours.
  const cells = labels.map((_, k) => row * grid.cols + cols[found.indices![k + 1]![0]]!);
  const marked = cells.filter((i) => grid.flags[i]! & MARKING);
  if (marked.length === 1) return labels[cells.indexOf(marked[0]!)];
  if (marked.length || labels.length < 3) return undefined;
  const looks = cells.map((i) => `${grid.flags[i]}/${grid.fg[i]}/${grid.bg[i]}`);
  const apart = looks.filter((look) => looks.indexOf(look) === looks.lastIndexOf(look));
  return apart.length === 1 ? labels[looks.indexOf(apart[0]!)] : undefined;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Check or uncheck a checkbox, select a radio: bring the focus to it (a click, or arrows from the focused one) and
 * press Space.
 */
async function toggle(actor: Actor, look: Look, target: Target): Promise<ActReply> {
  const state = (t: Target | undefined) => (t?.item ?? t?.element)?.checked;
  const focused = (t: Target | undefined) => (t?.item ?? t?.element)?.selected === true;
  const before = state(target);
  if (actor.mouseOn(look)) await actor.click(cellOf(target));
  else {
    // Siblings in reading order: a checklist's items, or the toggles of the same kind.
    const siblings = (elements: Element[], again: Target): Target[] =>
      again.item
        ? again.element.items!.map((item) => ({ element: again.element, item }))
        : elements.filter((e) => e.kind === again.element.kind).map((element) => ({ element }));
    const place = (seen: Look) => {
      const again = findAgain(seen.elements, target);
      if (!again) return undefined;
      const list = siblings(seen.elements, again);
      return {
        at: list.findIndex(focused),
        to: list.findIndex((t) => (t.item ?? t.element) === (again.item ?? again.element)),
      };
    };
    if ((place(look)?.at ?? -1) < 0)
      throw new T4aError("unsupported", `none of the ${target.element.kind}es is shown focused to count from`);
    if (!(await actor.arrowTo(place)))
      throw new T4aError("timeout", `${actor.sent.join(" ")}: the focus did not reach ${nameOf(target)}`);
    await actor.keys("Space");
  }
  const after = await actor.until((seen) => {
    const now = state(findAgain(seen.elements, target));
    return now !== undefined && now !== before ? now : undefined;
  });
  if (after === undefined) {
    if (actor.exited) return actor.reply("exited");
    throw new T4aError(
      "timeout",
      `${actor.sent.join(" ")}: ${nameOf(target)} stayed ${before ? "checked" : "unchecked"}`,
    );
  }
  return actor.reply(after ? "checked" : "unchecked");
}

/**
 * A hint that names the key taking a multi-select: inquirer's "⏎ submit" and "<enter> to proceed",
 * prompts' "enter/return: Complete answer", clack's "Enter: confirm", "Return to submit".
 */
const SUBMIT_HINT =
  /(?:⏎|<?\b(?:enter|return)\b>?)(?:\/return)?\s*(?::|to)?\s*(?:submit|proceed|confirm|complete|accept|finish|done)/i;

/**
 * `choose --submit` on a checkbox or radio, once toggled: Enter (the key a multi-select's hint
 * names for taking the list), then its goal state: the list gone and, the box checked, a line
 * showing its label outside the list's old rows (inquirer's "✔ Select features TypeScript,
 * Prettier"). An item chosen was already taken with Enter: its reply stands.
 */
export async function submitChoice(actor: Actor, target: Target, toggled: ActReply): Promise<ActReply> {
  if (toggled.effect !== "checked" && toggled.effect !== "unchecked") return toggled;
  const before = await actor.look();
  const boxes = before.elements.filter(
    (e) => e.kind === target.element.kind || e.items?.some((i) => i.checked !== undefined),
  );
  const listRows = new Set(
    boxes.flatMap((e) => [e.row, ...(e.items ?? []).map((i) => i.row)]).map((r) => rowText(before.grid, r).trim()),
  );
  const hint = SUBMIT_HINT.test(before.text)
    ? ""
    : " (no hint on the screen names the key that submits: Enter was tried)";
  const label = (target.item ?? target.element).label ?? "";
  const word = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(label.trim())}($|[^\\p{L}\\p{N}])`, "iu");
  await actor.keys("Enter");
  let changedAt = 0;
  const result = await actor.until((look): ActReply | undefined => {
    if (look.text === before.text && sameLook(look, before)) return undefined;
    changedAt ||= performance.now();
    if (!findAgain(look.elements, target)) {
      if (toggled.effect === "unchecked") return actor.reply("submitted", `the list is gone${hint}`);
      const line = look.text.split("\n").find((r) => !listRows.has(r.trim()) && word.test(r));
      if (line) return actor.reply("submitted", `the answered line shows ${JSON.stringify(line.trim())}${hint}`);
    }
    if (performance.now() - changedAt <= SETTLE_MS) return undefined;
    const still = findAgain(look.elements, target)
      ? `${nameOf(target)} is still listed`
      : `no line shows ${nameOf(target)}`;
    return actor.reply("uncertain", `after Enter ${still}${hint}`);
  });
  if (result) return result;
  if (actor.exited) return actor.reply("exited", hint.trim() || undefined);
  throw new T4aError("timeout", `Enter after ${nameOf(target)}: the screen did not change within the wait${hint}`);
}

/** Press a button (or a function-key bar's entry): a click, its F-key, or Tab to it and Enter. An item is chosen. */
export async function click(actor: Actor, look: Look, target: Target): Promise<ActReply> {
  const { element } = target;
  if (target.item || element.kind === "checkbox" || element.kind === "radio") return choose(actor, look, target);
  if (actor.mouseOn(look)) {
    await actor.click(cellOf(target));
    return actor.effect(look, target);
  }
  const key = functionKeyOf(look.grid, element);
  if (key) await actor.keys(key);
  else {
    if (!element.selected) await actor.tabTo(target, (again) => again.element.selected === true, "its highlight");
    await actor.keys("Enter");
  }
  return actor.effect(look, target);
}

/**
 * What a table shows after an action that it did not show before: `before` and `rest` the looks bounding a time the
 * table stood still (nothing changed it while the caller typed, where `rest` shows it), `after` the settled look. Only
 * a table under `below` (a row), found again by its header at the same row, whose rows now differ, with no dialog or
 * question new in `after`: undefined otherwise. Says how many rows it shows and its first, as drawn.
 */
function tableChanged(before: Look, rest: Look, after: Look, below: number): string | undefined {
  const same = (a: Element, b: Element) => a.kind === b.kind && a.row === b.row && a.col === b.col;
  const popped = after.elements.some(
    (e) => (e.kind === "dialog" || e.kind === "question") && !before.elements.some((old) => same(old, e)),
  );
  if (popped) return undefined;
  for (const table of before.elements) {
    if (table.kind !== "table" || table.row <= below) continue;
    // (Found again at its row, its first column's name the same: a program may draw its columns narrower for rows.)
    const again = (e: Element) => e.kind === "table" && e.row === table.row && e.header?.[0] === table.header?.[0];
    // (At rest: the same rows where `rest` shows it whole; a pop-up under the field, its completions, may hide it or
    // part of it there.)
    const still = rest.elements.find((e) => again(e) && e.col === table.col && e.width === table.width);
    const now = after.elements.find(again);
    if ((still && still.text !== table.text) || !now || now.text === table.text) continue;
    const first = (now.text ?? "").split("\n")[0]!.slice(0, 80);
    return (
      `the table ${below >= 0 ? "under it " : ""}(${table.header!.slice(0, 4).join(" | ")}) ` +
      `shows ${now.rows} rows where it showed ` +
      `${table.rows}${first ? ` (first: ${JSON.stringify(first)})` : ""}`
    );
  }
  return undefined;
}

/**
 * A drop-down a menu bar's button opened: a menu on the settled screen that the screen before the press did not hold,
 * its first row under the button's within a few rows, over or beside the button's columns, and the button still on
 * its row (drawn open or not). What was seen, nothing more: the menu is the program's, its items named as drawn.
 */
function menuOpened(before: Look, after: Look, target: Target): Element | undefined {
  const button = findAgain(after.elements, target)?.element;
  if (button?.kind !== "button" || target.element.row > 1) return undefined;
  const was = (menu: Element) =>
    before.elements.some(
      (old) =>
        old.kind === "menu" &&
        old.row === menu.row &&
        old.col === menu.col &&
        old.items?.map((i) => i.label).join("\n") === menu.items?.map((i) => i.label).join("\n"),
    );
  return after.elements.find(
    (menu) =>
      menu.kind === "menu" &&
      (menu.items?.length ?? 0) > 0 &&
      menu.row > button.row &&
      menu.row <= button.row + 3 &&
      menu.col <= button.col + button.width &&
      menu.col + menu.width >= button.col &&
      !was(menu),
  );
}

/**
 * Click words on the screen that no element holds (a button the detector did not read): only by
 * mouse, since keys need to know what the words are. What it did is not known: a change of the
 * screen is `uncertain`.
 */
export async function clickText(actor: Actor, look: Look, cell: { row: number; col: number }): Promise<ActReply> {
  await actor.click(cell);
  const seen = await actor.until((now) => (now.text !== look.text || !sameLook(now, look) ? true : undefined));
  if (seen) return actor.reply("uncertain", "the screen changed after the click; nothing names what the words did");
  if (actor.exited) return actor.reply("exited");
  throw new T4aError(
    "timeout",
    `${actor.sent.join(" ")}: the screen did not change within the wait (the program may not have taken it)`,
  );
}

/**
 * A prompt's closing mark where the cursor waits: "$", "#", "%", ">", "❯". Wider than isShellPrompt (the elements'
 * test, which must not take a program's "What now> " for a shell's) on purpose: no hint is pressed after any of them.
 */
const PROMPT_MARK = /[$#%>❯➜»]$/u;

/** Shells, by the file name of the program the process reading the terminal runs. */
const SHELL = /^(?:(?:ba|da|z|k|mk|pdk|tc|c|a|y|po|rba|lk|o)?sh|fish|busybox|nu|elvish|pwsh|ksh93|ion)$/;

/**
 * A prompt holding the cursor, from its row's start: a few words ending in ">", ")", ":" or "?" and a blank (pdb's
 * "(Pdb) ", "sqlite> ", python's ">>> "): a REPL reads the line there, whatever bar was drawn under it.
 */
const LINE_PROMPT = /^\s*\S.{0,38}[>):?] $/;

/** How long a screen rests before a hint's key is pressed: output going past is no program's bar. */
const HINT_QUIET_MS = 300;

/**
 * Before `target` is chosen or clicked: the key hint the caller's words name on its very cells, pressed instead (a
 * key-hint row read as the element; words naming a hint elsewhere too are refused by hintTarget); else the guard
 * against a shell's or a REPL's output. Undefined: go on with the target.
 */
export function hintInstead(
  actor: Actor,
  look: Look,
  target: Target,
  words: string | undefined,
): Promise<ActReply> | undefined {
  const hint = words ? hintTarget(look.grid, look.elements, words, target) : undefined;
  if (hint) return pressHint(actor, look, hint);
  actor.refuseShellOutput(look, target);
  return undefined;
}

/**
 * Whether two looks show the same bar at `row`: that row the same, and most rows (a monitor redraws its figures and
 * clock every second, the bar staying; output going past moves every row).
 */
function sameBar(a: Look, b: Look, row: number): boolean {
  const rowsA = a.text.split("\n");
  const rowsB = b.text.split("\n");
  const moved = rowsA.filter((r, i) => r !== rowsB[i]).length;
  return rowsA[row] === rowsB[row] && moved * 2 < rowsA.length;
}

/** How often, and how far apart, the terminal's reader is looked for when none reads at the first look. */
const READER_LOOKS = 4;
const READER_GAP_MS = 60;

/**
 * The program reading the terminal (Actor.reader); when none reads at any of a few looks, a full-screen program that
 * polls its keys between sleeps (curses' nodelay, hatop): the foreground group's one program that is no shell, the
 * tty left by it in raw mode (no line discipline, no echo: a shell sets both back before it runs a command). A shell
 * seen reading at any look is the reader.
 */
async function pollingReader(actor: Actor): Promise<ReturnType<Actor["reader"]>> {
  for (let i = 0; i < READER_LOOKS; i++) {
    const reader = actor.reader();
    if (reader !== null) return reader;
    await Bun.sleep(READER_GAP_MS);
  }
  const own = (actor.foregroundPrograms() ?? []).filter((p) => !SHELL.test(p.executable));
  if (new Set(own.map((p) => p.executable)).size !== 1 || actor.readsLines || actor.echoes) return null;
  return own[0]!;
}

/**
 * Press the one key a key hint draws (ccmake's "[c] Configure", hg's "c: confirm", nano's "^X Exit"): only on a
 * full-screen program's bar at the screen's top or bottom, the screen at rest, with no shell reading the terminal and
 * no shell's prompt or cursor under or after the hint, the program taking keys one by one. A hint names no state to
 * check: the reply is `uncertain`, saying what changed (or `exited`).
 */
export async function pressHint(actor: Actor, look: Look, hint: Hint): Promise<ActReply> {
  const refuse = (why: string) =>
    new T4aError("unsupported", `the key hint ${JSON.stringify(hint.text)}: ${why}; nothing was sent`);
  if (!hint.key)
    throw refuse(
      `${JSON.stringify(hint.drawn)} is no one key to press (a letter, digit or mark as drawn, ^ and a letter, ` +
        "Enter or Space)",
    );
  const { grid } = look;
  const { element } = hint;
  const last = element.row + element.height - 1;
  const blankBelow = Array.from({ length: grid.rows - last - 1 }, (_, i) => rowText(grid, last + 1 + i)).every(
    (r) => !r.trim(),
  );
  if (!(element.row === 0 || (last >= grid.rows - 4 && blankBelow)))
    throw refuse("it is not on a bar at the screen's top or bottom");
  if (!actor.alternate)
    throw refuse("it is on the normal screen (a program's output, a shell's scrollback), not a full-screen program's");
  const { row, col, visible } = grid.cursor;
  if (visible && (row > hint.row || (row === hint.row && col > hint.col)))
    throw refuse("the cursor waits under it or after it (text printed above a prompt, not a program's bar)");
  if (visible && PROMPT_MARK.test(beforeCursor(grid).trimEnd()))
    throw refuse("the cursor waits after a shell's prompt");
  if (visible && LINE_PROMPT.test(beforeCursor(grid)))
    throw refuse("the cursor waits after a prompt (a REPL's line being typed, not a program's bar)");
  if (actor.readsLines) throw refuse("the program reads whole lines (canonical mode), not one key");
  // (Or its output draws the same screen again and again, sngrep's every 200 ms: the hint's row the same, and most
  // rows, over as long.)
  if (!(await actor.quiet(HINT_QUIET_MS, SETTLE_MS))) {
    const first = await actor.look();
    await Bun.sleep(HINT_QUIET_MS);
    if (!sameBar(first, await actor.look(), hint.row)) throw refuse("the screen does not rest (output going past)");
  }
  const reader = await pollingReader(actor);
  if (reader === undefined) throw refuse("which program reads the terminal cannot be told here");
  if (reader === null) throw refuse("no program is reading the terminal now");
  if (!reader.executable || SHELL.test(reader.executable))
    throw refuse(`the program reading the terminal is a shell (${reader.executable ?? "unknown"})`);
  const now = await actor.look();
  if (!sameBar(look, now, hint.row)) throw refuse("the screen changed while it was read");
  await actor.keys(hint.key);
  const changed = await actor.until((seen) => (seen.text !== now.text || !sameLook(seen, now) ? seen : undefined));
  if (!changed) {
    if (actor.exited) return actor.reply("exited", `after ${hint.key} (the key hint ${JSON.stringify(hint.text)})`);
    throw new T4aError(
      "timeout",
      `${actor.sent.join(" ")}: the screen did not change within the wait (the program may not have taken it)`,
    );
  }
  await actor.quiet(HINT_QUIET_MS, SETTLE_MS);
  if (actor.exited) return actor.reply("exited", `after ${hint.key} (the key hint ${JSON.stringify(hint.text)})`);
  const after = await actor.look();
  const pressed = `pressed ${hint.key} for the key hint ${JSON.stringify(hint.text)}`;
  // The program that read the key ended, the terminal's shell going on after it (hatop's "Q=QUIT").
  if (reader.pid > 0 && !actor.running(reader.pid))
    return actor.reply("exited", `${pressed}: the program reading the keys (${reader.executable}) ended`);
  if (tabMadeCurrent(now, after, hint))
    return actor.reply("selected", `${pressed}: it is drawn as the current one of its bar now, as it was not before`);
  const dialog = dialogNaming(now, after, hint.words);
  if (dialog) return actor.reply("opened", `${pressed}: a dialog new on the screen says ${JSON.stringify(dialog)}`);
  const still = keyHints(after.grid, after.elements).some((h) => h.text === hint.text && h.row === hint.row);
  const ends = screenEnds(after.text);
  return actor.reply(
    "uncertain",
    `pressed ${hint.key} for the key hint ${JSON.stringify(hint.text)}, which names no state to check: the screen ` +
      `changed, the hint ${still ? "still shows" : "is gone"}; it ends with ${JSON.stringify(ends.slice(0, 160))}`,
  );
}

/** How a cell is drawn: bold and reverse, its colours. */
function drawnAs(grid: CellGrid, row: number, col: number): string {
  const i = row * grid.cols + col;
  return `${grid.flags[i]! & (CellFlag.bold | CellFlag.inverse)}/${grid.fg[i]}/${grid.bg[i]}`;
}

/**
 * Whether a pressed hint is a mode's tab made current (hatop's "1-STATUS  2-TRAFFIC … 5-CLI"): before the key it was
 * drawn as another hint of its bar was, after it unlike every other (two others at least), each hint's cells still
 * holding its text.
 */
function tabMadeCurrent(before: Look, after: Look, hint: Hint): boolean {
  const kept = (h: Hint) => rowText(after.grid, h.row).slice(h.col, h.col + h.width) === h.text;
  // (The bar's other hints may change with the mode: "PGUP/PGDOWN=SCROLL" for "H=HELP Q=QUIT". The tabs stay.)
  const others = keyHints(before.grid, before.elements).filter(
    (h) => h.row === hint.row && h.col !== hint.col && kept(h),
  );
  if (others.length < 2 || !kept(hint)) return false;
  const look = (grid: CellGrid, h: Hint) => drawnAs(grid, h.row, h.col);
  return (
    others.some((h) => look(before.grid, h) === look(before.grid, hint)) &&
    others.every((h) => look(after.grid, h) !== look(after.grid, hint))
  );
}

/**
 * The words of a dialog on `after` that `before` did not hold (not at the same place and size), when they hold the
 * hint's words whole (sngrep's "F2 Save": its "Save capture" form): what the key opened, as drawn.
 */
function dialogNaming(before: Look, after: Look, words: string): string | undefined {
  const same = (a: Element, b: Element) =>
    a.kind === b.kind && a.row === b.row && a.col === b.col && a.width === b.width && a.height === b.height;
  const wanted = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(words)}(?![\\p{L}\\p{N}])`, "iu");
  for (const dialog of after.elements) {
    if (dialog.kind !== "dialog" || before.elements.some((old) => same(old, dialog))) continue;
    const inside = Array.from({ length: dialog.height }, (_, i) =>
      rowText(after.grid, dialog.row + i).slice(dialog.col, dialog.col + dialog.width),
    )
      .join(" ")
      .replace(/[\s│┃║─━═┌┐└┘╭╮╰╯]+/g, " ")
      .trim();
    if (wanted.test(`${dialog.label ?? ""} ${inside}`)) return (dialog.label ?? inside).slice(0, 80);
  }
  return undefined;
}

/**
 * Type `value` into an input in place of what it holds: focus it (a click, or Tab), erase, type; then wait to see it
 * there.
 */
export async function fill(actor: Actor, look: Look, target: Target, value: string, submit = false): Promise<ActReply> {
  if (target.element.kind !== "input")
    throw new T4aError("invalid_params", `${target.element.ref} is a ${target.element.kind}, not an input`);
  let field = target.element;
  const shownValue = (field.value ?? "").trim();
  if (field.cursor && PROMPT_AS_VALUE.test(shownValue) && beforeCursor(look.grid).endsWith(`${shownValue} `))
    throw new T4aError(
      "invalid_params",
      `${nameOf(target)} shows ${JSON.stringify(shownValue)} right before the cursor, a prompt's last mark: ` +
        "the prompt of the program reading the line (a shell's, a REPL's), drawn after text that reads as a field; " +
        "nothing was typed",
    );
  if (!field.cursor) {
    if (actor.mouseOn(look)) {
      await actor.click(cellOf(target));
      field =
        (await actor.until((seen) =>
          findAgain(seen.elements, target)?.element.cursor ? findAgain(seen.elements, target)!.element : undefined,
        )) ?? field;
    }
    if (!field.cursor) {
      await actor.tabTo(target, (again) => again.element.cursor === true, "the cursor");
      field = findAgain((await actor.look()).elements, target)?.element ?? field;
    }
  }
  // A line read with the tty's echo off (getpass, `read -s`, sudo) shows nothing of what is typed. So do keys read one
  // by one with it off by a program writing lines, not a full-screen one (kpcli's "Password:", read with
  // Term::ReadKey): there, only once the screen stayed as it was, the cursor too, for a while (a line editor or a
  // prompt library draws what it reads and moves the cursor).
  const unechoed = !actor.echoes && (actor.readsLines || !actor.alternate);
  await erase(actor, target, field.value ?? "");
  const typedAt = await actor.look();
  // (Read before typing: a program taking one key raw may read its next line in canonical mode at once.)
  const raw = !actor.readsLines;
  if (value) await actor.type(value);
  const typedTime = performance.now();
  const norm = (text: string | undefined) => (text ?? "").trim();
  const length = [...value].length;
  let how: string | undefined;
  // A prompt whose program reads one key raw and takes it at once (swipl's 'Correct to: "save_depth(42)"?' answers
  // "yes" to y and runs on): the prompt's row shows the prompt, then a word opening with the key; the cursor left it.
  const promptRow = typedAt.grid.cursor.row;
  const prompt = beforeCursor(typedAt.grid).trimEnd();
  const oneKey = raw && length === 1;
  let tookKey: string | undefined;
  const shown = await actor.until((seen) => {
    if (oneKey && prompt && seen.grid.cursor.row !== promptRow) {
      const row = rowText(seen.grid, promptRow).trimEnd();
      const word = row.startsWith(prompt) ? /^\s(\p{L}+)$/u.exec(row.slice(prompt.length))?.[1] : undefined;
      if (word?.toLowerCase().startsWith(value.toLowerCase())) {
        tookKey = row.trim();
        return true;
      }
    }
    const now = findAgain(seen.elements, target)?.element.value;
    if (norm(now) === norm(value)) return true;
    if (echoedAfterPrompt(typedAt.grid, seen.grid, value)) return true;
    // A masked field: one mask character for each character typed.
    if (length && now && [...now].length === length && /^([*•●▪·∙◆■#])\1*$/u.test(now)) {
      how = `the field is masked: it shows ${length} ${JSON.stringify([...now][0])} for the ${length} characters typed`;
      return true;
    }
    if (
      unechoed &&
      (now ?? "") === "" &&
      !actor.echoes &&
      (actor.readsLines ||
        (performance.now() - typedTime >= KEYS_UNSHOWN_MS &&
          seen.text === typedAt.text &&
          seen.grid.cursor.row === typedAt.grid.cursor.row &&
          seen.grid.cursor.col === typedAt.grid.cursor.col))
    ) {
      how = `the field echoes nothing (the tty's echo is off): ${length} characters typed, none shown`;
      return true;
    }
    return undefined;
  });
  if (!shown) {
    if (actor.exited) return actor.reply("uncertain", "the program exited before the field showed the value");
    const now = findAgain((await actor.look()).elements, target)?.element.value;
    throw new T4aError("timeout", `${nameOf(target)} shows ${JSON.stringify(now ?? "")}, not ${JSON.stringify(value)}`);
  }
  // (Taken already: an Enter now would answer whatever it asks next.)
  if (tookKey)
    return actor.reply(
      "submitted",
      `the program took the key at once, no Enter sent: the prompt's row shows ${JSON.stringify(tookKey)}`,
    );
  if (!submit) return actor.reply("filled", how);
  return submitted(actor, typedAt, target, how ? undefined : value, how, look);
}

/**
 * What was typed, echoed right after the prompt it was typed at: the prompt's row as it was up to the cursor, then the
 * value, the cursor after it. A prompt with no blank after its mark ("Username:") reads as no field once a value
 * follows it ("Username:ops"), but the row it was typed on says the same as a field's value would.
 */
function echoedAfterPrompt(before: CellGrid, after: CellGrid, value: string): boolean {
  const { row, col } = before.cursor;
  // (Printable ASCII only: one character, one cell; and on the one row, not wrapped.)
  if (!/^[ -~]+$/.test(value) || col + value.length >= before.cols) return false;
  if (after.cursor.row !== row || after.cursor.col !== col + value.length) return false;
  const [was, now] = [rowText(before, row), rowText(after, row)];
  return now.slice(0, col) === was.slice(0, col) && now.slice(col).trimEnd() === value && !was.slice(col).trim();
}

/**
 * A prompt library redraws an answered field as its label and the value (dialoguer's "? Project name (tauri-app) ›"
 * left as "✔ Project name · notes-app"): the line holds the field's worded label, the value after it.
 */
function labelThenValue(line: string, label: string | undefined, value: string): boolean {
  if (!label || !/\p{L}{2}/u.test(label)) return false;
  const at = line.indexOf(label);
  return at >= 0 && line.indexOf(value, at + label.length) >= 0;
}

/**
 * Enter after a filled field, and its goal state: the field gone or left behind (the cursor on
 * another row), the line it was on showing the value (what a masked or unechoed field cannot).
 * `start` is the screen before the field was focused (a table under it then, before a pop-up hid it).
 */
async function submitted(
  actor: Actor,
  before: Look,
  target: Target,
  value: string | undefined,
  how: string | undefined,
  start = before,
): Promise<ActReply> {
  const row = before.grid.cursor.row;
  const prompt = beforeCursor(before.grid).trim();
  let filledLook = await actor.look();
  const history = actor.historyLength();
  // A table under a full-screen form's field may tell that Enter took it (tableChanged): only one at rest before Enter,
  // the screen off the field's row unchanged for a while (a live capture's rows come and go by themselves).
  const others = (look: Look) =>
    look.text
      .split("\n")
      .filter((_, i) => i !== row)
      .join("\n");
  // (Given a few windows to come to rest: a pop-up's completions may still be drawn after the value shows.)
  let tabled = false;
  if (actor.alternate && start.elements.some((e) => e.kind === "table" && e.row > target.element.row)) {
    for (let tries = 0; tries < 3 && !tabled; tries++) {
      const base = tries === 0 ? filledLook : await actor.look();
      tabled = !(await actor.until((look) => (others(look) !== others(base) ? true : undefined), REST_MS));
      if (tabled) filledLook = base;
    }
  }
  await actor.keys("Enter");
  let changedAt = 0;
  let quiet: Look | undefined;
  let quietAt = 0;
  const result = await actor.until((look): ActReply | undefined => {
    if (look.text === filledLook.text && sameLook(look, filledLook)) return undefined;
    changedAt ||= performance.now();
    const again = findAgain(look.elements, target);
    const left = !again?.element.cursor || look.grid.cursor.row !== again.element.row;
    // A field that shows nothing of what is typed (masked, or the tty's echo off), asked by the same words on a row
    // below the one it was on, that row still showing the prompt: the line was entered and the next prompt reads like
    // it (gocryptfs's old then new "Password:"). What stands between is quoted: it may also say the value was refused.
    // (So too an empty line entered at a pause asked again after the next page: gnuplot's "Press return for more:".)
    const next =
      !left && (value === undefined || value === "")
        ? nextPrompt(look, again, row - (actor.historyLength() - history), prompt)
        : undefined;
    // (A refusal between them, sudo's "Sorry, try again.": the line was entered, and not taken.)
    if (next !== undefined && REFUSED.test(next))
      return actor.reply(
        "uncertain",
        `the line was entered, but ${nameOf(target)} asks again on a row below ` +
          `after ${JSON.stringify(next.slice(0, 160))}`,
      );
    if (next !== undefined)
      return actor.reply(
        "submitted",
        `${how ?? "an empty line entered"}; the prompt stays above as entered, ` +
          `and ${nameOf(target)} asks on a row below` +
          (next ? ` (between them: ${JSON.stringify(next.slice(0, 160))})` : ""),
      );
    // A REPL's prompt comes back empty on a new row once the line is taken (R's ">", jshell's "jshell>"): found again
    // holding the cursor, but the line entered now stands above it as one more line than before Enter.
    if (
      !left &&
      value !== undefined &&
      promptBack(filledLook, look, again, prompt, value, actor.historyLength() > history)
    )
      return actor.reply(
        "submitted",
        `the prompt came back empty under the line entered (${JSON.stringify(`${prompt} ${value.trim()}`.trim())})`,
      );
    if (left) {
      if (value === undefined) return actor.reply("submitted", how);
      // (A row the prompt filled to its end goes on at the next one: systemd-firstboot's value under its prompt.)
      const rows = look.text.split("\n");
      const cursorRow = look.grid.cursor.row;
      const lines = rows.concat(
        rows.flatMap((r, i) =>
          r.trimEnd().length >= look.grid.cols - 1 && i + 1 < rows.length && i !== cursorRow && i + 1 !== cursorRow
            ? [r.trimEnd() + rows[i + 1]!]
            : [],
        ),
      );
      // An empty line entered (a pause's "Hit return when …"): only the field's own row, moved up by what scrolled off,
      // showing its prompt and nothing after it; any other line holding the prompt's words is no evidence.
      if (!value.trim()) {
        const was = row - (actor.historyLength() - history);
        const own = was >= 0 && was !== cursorRow ? rowText(look.grid, was).trim() : "";
        if (prompt && own === prompt)
          return actor.reply("submitted", `the prompt's row stays as entered, nothing typed: ${JSON.stringify(own)}`);
        // (Or pushed off the top by a long output since Enter: certtool's last prompt under its certificate.)
        const off = prompt && was < 0 ? actor.history(Math.min(actor.historyLength() - history, 500)) : [];
        if (off.some((r) => r.trim() === prompt))
          return actor.reply("submitted", `the answered line ${JSON.stringify(prompt)} scrolled off the top`);
        return performance.now() - changedAt > SETTLE_MS
          ? actor.reply("uncertain", `after Enter the prompt's row does not show ${JSON.stringify(prompt)} as entered`)
          : undefined;
      }
      const line = lines.find(
        (r, i) =>
          i !== cursorRow &&
          r.includes(value.trim()) &&
          (!prompt || r.includes(prompt) || labelThenValue(r, target.element.label, value.trim())),
      );
      if (line) return actor.reply("submitted", `the answered line shows ${JSON.stringify(line.trim())}`);
      // A long answer may push the answered line off the top (certtool's certificate after its last prompt): it is
      // in the lines that scrolled off since Enter, and only there.
      const gone = prompt ? actor.history(Math.min(actor.historyLength() - history, 500)) : [];
      const scrolled = gone.find((r) => r.trim() === `${prompt} ${value.trim()}`.trim());
      if (scrolled)
        return actor.reply("submitted", `the answered line ${JSON.stringify(scrolled.trim())} scrolled off the top`);
    }
    // A full-screen form's field that keeps its text after Enter (a filter bar): taken only when a table under it,
    // at rest while the value was typed, shows other rows now, and no dialog or question came up instead.
    const kept =
      tabled && again?.element.cursor && value?.trim() && (again.element.value ?? "").trim() === value.trim();
    const applied = kept ? tableChanged(start, filledLook, look, target.element.row) : undefined;
    if (applied)
      return actor.reply("submitted", `after Enter ${nameOf(target)} keeps ${JSON.stringify(value)}, and ${applied}`);
    // (Such a field's program may redraw for a while, its table emptied and filled again: settled from its last
    // change.)
    if (kept && (!quiet || look.text !== quiet.text || !sameLook(look, quiet))) {
      quiet = look;
      quietAt = performance.now();
    }
    // (Its table gone from under it while it loads the rows again: given longer.)
    const loading =
      kept &&
      start.elements.some((e) => e.kind === "table" && e.row > target.element.row) &&
      !look.elements.some((e) => e.kind === "table" && e.row > target.element.row);
    if (performance.now() - (kept ? quietAt : changedAt) <= (loading ? RELOAD_MS : SETTLE_MS)) return undefined;
    const changed = tableChanged(filledLook, filledLook, look, -1);
    return actor.reply(
      "uncertain",
      (again?.element.cursor
        ? `after Enter ${nameOf(target)} still holds the cursor, showing ${JSON.stringify(again.element.value ?? "")}`
        : `after Enter no line shows ${JSON.stringify(value)}`) + (changed ? `; ${changed}` : ""),
    );
  });
  if (result) return result;
  if (actor.exited) return actor.reply("exited", how);
  // (Changed, and still changing or loading when the wait ran out: what it shows is said, nothing claimed.)
  if (changedAt) return actor.reply("uncertain", `after Enter the screen was still changing when the wait ran out`);
  throw new T4aError("timeout", `Enter after ${nameOf(target)}: the screen did not change within the wait`);
}

/** Words refusing a line just entered: sudo's "Sorry, try again.", "incorrect password", "Passwords do not match". */
const REFUSED = /\b(?:sorry|try again|incorrect|wrong|invalid|denied|failed|do(?:es)? not match|mismatch)\b/i;

/**
 * A field that shows nothing typed, entered: its row (`was`, moved up by what scrolled off since) still shows its
 * prompt, and a field of the same words holds the cursor on a row below it. The rows between them, joined with " / "
 * ("" when none); undefined when the screen does not show that.
 */
function nextPrompt(look: Look, again: Target | undefined, was: number, prompt: string): string | undefined {
  if (!again?.element.cursor || !prompt || was < 0 || again.element.row <= was) return undefined;
  if (look.grid.cursor.row !== again.element.row || !rowText(look.grid, was).trim().startsWith(prompt))
    return undefined;
  return Array.from({ length: again.element.row - was - 1 }, (_, i) => rowText(look.grid, was + 1 + i).trim())
    .filter(Boolean)
    .join(" / ");
}

/**
 * The line entered at a REPL's prompt is taken when the prompt comes back empty (R's ">", jshell's "jshell>"): the
 * field found again holds the cursor and nothing, on another row (or the screen scrolled), and one line more than
 * before Enter shows the prompt and the value, off the cursor's row: the entered line, now history. (The same line
 * entered earlier is counted on both screens: it is no evidence; a line scrolled off leaves this uncertain.)
 */
function promptBack(
  filled: Look,
  look: Look,
  again: Target | undefined,
  prompt: string,
  value: string,
  scrolled: boolean,
): boolean {
  const typed = value.trim();
  if (!again?.element.cursor || (again.element.value ?? "").trim() || !typed || !prompt) return false;
  if (look.grid.cursor.row === filled.grid.cursor.row && !scrolled) return false;
  // (A line longer than its row goes on at the next one: guile's "scheme@(guile-user) [1]> (call-with-output-file …
  // (writ" over "e (length …)))", read joined.)
  const count = (seen: Look) => {
    const rows = seen.text.split("\n");
    const cursor = seen.grid.cursor.row;
    return rows.filter((r, i) => {
      if (i === cursor) return false;
      const full = r.trimEnd().length >= seen.grid.cols - 1 && i + 1 < rows.length && i + 1 !== cursor;
      const line = full ? r + rows[i + 1] : r;
      return line.includes(prompt) && line.includes(typed, line.indexOf(prompt));
    }).length;
  };
  return count(look) > count(filled);
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

/**
 * A field's value ending in a prompt's closing mark ("$", ">>>", "(gdb)", sbcl's "*", swipl's "?-"), the cursor one
 * blank after it: what a line-oriented program drew after a row printed with no newline (`cat` of a file ending in
 * "extract ‘a.txt’?"), not a value typed.
 */
const PROMPT_AS_VALUE = /(?:[$#%>❯➜»)*&]|\?-)$/u;

/** Erasing a field stops once it shows nothing, or after this many rounds that changed nothing seen. */
const MAX_STILL_ROUNDS = 2;
const MAX_ERASE_ROUNDS = 16;
/** How long a round waits to see the field change before it looks again anyway. */
const ERASE_ROUND_MS = 600;

/**
 * Erase what a field shows, from its end: as many Backspaces as it shows characters, again while
 * it shows more (a value longer than the field: dialog shows a window of its end, which may look
 * the same after a round, "xxxx…"), until it shows nothing, or rounds change nothing seen (a field
 * that cannot be erased). A field that shows nothing of what it holds (a password box echoing
 * nothing) cannot be seen to be empty, and is typed into as it is.
 */
async function erase(actor: Actor, target: Target, shown: string): Promise<void> {
  const valueIn = (seen: Look) => findAgain(seen.elements, target)?.element.value ?? "";
  let still = 0;
  for (let round = 0; shown && round < MAX_ERASE_ROUNDS && still < MAX_STILL_ROUNDS; round++) {
    const before = await actor.look();
    await actor.keys(...(round === 0 ? ["End"] : []), ...Array<string>([...shown].length).fill("BSpace"));
    const changed = await actor.until(
      (seen) => (seen.text !== before.text || !sameLook(seen, before) ? seen : undefined),
      ERASE_ROUND_MS,
    );
    if (actor.exited) return;
    still = changed ? 0 : still + 1;
    shown = valueIn(changed ?? (await actor.look()));
  }
}

/** One line for people: what happened and how. */
export function printAct(reply: ActReply): void {
  console.log(`${reply.effect}${reply.seen ? `: ${reply.seen}` : ""} (${reply.via}: ${reply.sent.join(" ")})`);
}
