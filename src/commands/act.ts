// How choose, click and fill act on a screen's elements: the way the program understands (a mouse
// click where it turned mouse reporting on, else the keys that move its selection or focus there),
// then a bounded wait until the screen shows the effect. Not a command; the three files share it.
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import type { CellGrid } from "../terminal/cell-grid.ts";
import { detectElements, type Element } from "../terminal/elements.ts";
import { keyBytes } from "../terminal/keys.ts";
import { mouseBytes } from "../terminal/mouse.ts";
import { cellOf, findAgain, functionKeyOf, itemKey, nameOf, rowText, type Target } from "../terminal/targets.ts";
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
    /** What the screen showed at the end: the item selected, a box checked or unchecked, the field's value, the element gone, the program exited, or the screen changed. */
    effect: v.picklist(["selected", "checked", "unchecked", "filled", "gone", "exited", "changed"]),
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

  /** The effect of a last key or click: `target` gone from the screen, the program exited, or the screen changed from `before`. */
  async effect(before: Look, target: Target): Promise<Effect> {
    const seen = await this.until((look) =>
      !findAgain(look.elements, target) ? "gone" : look.text !== before.text ? "changed" : undefined,
    );
    if (seen) return seen;
    if (this.exited) return "exited";
    throw new T4aError(
      "timeout",
      `${this.sent.join(" ")}: the screen did not change within the wait (the program may not have taken it)`,
    );
  }

  reply(effect: Effect): ActReply {
    return { via: this.via, sent: this.sent, effect, elapsed_ms: Math.round(performance.now() - this.#started) };
  }

  /**
   * Arrows until `position` says the target is the selected one, counted from the one shown
   * selected each time: keys a program drops while it draws (codex, under load) are sent again
   * once the screen shows no move for a while, and an overshoot is walked back. Undefined when it
   * never gets there.
   */
  async arrowTo(position: (look: Look) => { at: number; to: number } | undefined): Promise<Look | undefined> {
    for (let attempt = 0; attempt < MAX_ARROW_ROUNDS; attempt++) {
      const look = await this.look();
      const place = position(look);
      if (!place || place.at < 0) return undefined;
      if (place.at === place.to) return look;
      const delta = place.to - place.at;
      await this.keys(...Array<string>(Math.abs(delta)).fill(delta > 0 ? "Down" : "Up"));
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
      // The program redraws the focus: wait for the screen to change (briefly: a Tab onto something drawn alike changes nothing).
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

/** The same characters in the same places but another style counts as a change (a highlight moved). */
function sameLook(a: Look, b: Look): boolean {
  const { flags: fa, bg: ba, fg: ga } = a.grid;
  const { flags: fb, bg: bb, fg: gb } = b.grid;
  if (fa.length !== fb.length) return false;
  for (let i = 0; i < fa.length; i++) if (fa[i] !== fb[i] || ba[i] !== bb[i] || ga[i] !== gb[i]) return false;
  return true;
}

/** Choose an item of a menu or question, or toggle a checkbox or radio; a button is clicked. */
export async function choose(actor: Actor, look: Look, target: Target): Promise<ActReply> {
  const { element, item } = target;
  if (element.kind === "button") return click(actor, look, target);
  if (element.kind === "checkbox" || element.kind === "radio" || item?.checked !== undefined)
    return toggle(actor, look, target);
  if (!item) throw new T4aError("invalid_params", `${element.ref} is a ${element.kind}: name one of its items`);
  const items = element.items!;
  const inline = items.every((i) => i.row === element.row);
  const selected = items.findIndex((i) => i.selected);
  if (inline) {
    const key = itemKey(item);
    if (!key) throw new T4aError("unsupported", `${nameOf(target)} has no one-character key to press`);
    await answerInline(actor, look, key);
    return actor.reply(await actor.effect(look, target));
  }
  let moved: Look | undefined;
  if (selected >= 0) {
    // Arrows from the selected item: every list takes them, while a program may turn the mouse on
    // for its wheel alone (codex asks for every motion) and a click is only as good as its handling.
    moved = await actor.arrowTo((seen) => {
      const again = findAgain(seen.elements, target);
      const list = again?.element.items;
      return list && { at: list.findIndex((i) => i.selected), to: list.indexOf(again.item!) };
    });
  } else if (actor.mouseOn(look) && element.kind === "menu") {
    await actor.click(cellOf(target));
    moved = await actor.until((seen) => (findAgain(seen.elements, target)?.item?.selected ? seen : undefined));
  } else if (itemKey(item)) {
    // A list with keys and nothing shown selected (a dialog tag, "1."): its key picks it.
    await actor.keys(itemKey(item)!);
    return actor.reply(await actor.effect(look, target));
  } else
    throw new T4aError(
      "unsupported",
      `nothing in ${element.ref} is shown selected to count from, and ${nameOf(target)} has no one-character key`,
    );
  if (!moved) {
    if (actor.exited) return actor.reply("exited");
    throw new T4aError("timeout", `${actor.sent.join(" ")}: the selection did not reach ${nameOf(target)}`);
  }
  await actor.keys("Enter");
  return actor.reply(await actor.effect(moved, target));
}

/** How long a one-line prompt in raw mode is given to show what its key did before Enter is sent. */
const KEY_ECHO_MS = 1500;

/**
 * Answer a prompt on one line ("Continue? [Y/n]") with its key. A program that reads lines (the
 * terminal in canonical mode: a shell's `read`, apt) gets the key and Enter. One in raw mode may
 * act on the key alone (`git add -p` with interactive.singleKey, a pager's y/n): Enter is sent
 * only when the key shows no more than its echo on the prompt's row, else it would answer the
 * next question.
 */
async function answerInline(actor: Actor, look: Look, key: string): Promise<void> {
  if (actor.readsLines) {
    await actor.keys(key, "Enter");
    return;
  }
  const row = look.grid.cursor.row;
  const others = (seen: Look) =>
    seen.text
      .split("\n")
      .filter((_, index) => index !== row)
      .join("\n");
  await actor.keys(key);
  const seen = await actor.until((now) => (now.text !== look.text ? now : undefined), KEY_ECHO_MS);
  if (actor.exited) return;
  if (!seen || (seen.grid.cursor.row === row && others(seen) === others(look))) await actor.keys("Enter");
}

/** Check or uncheck a checkbox, select a radio: bring the focus to it (a click, or arrows from the focused one) and press Space. */
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

/** Press a button (or a function-key bar's entry): a click, its F-key, or Tab to it and Enter. An item is chosen. */
export async function click(actor: Actor, look: Look, target: Target): Promise<ActReply> {
  const { element } = target;
  if (target.item || element.kind === "checkbox" || element.kind === "radio") return choose(actor, look, target);
  if (actor.mouseOn(look)) {
    await actor.click(cellOf(target));
    return actor.reply(await actor.effect(look, target));
  }
  const key = functionKeyOf(look.grid, element);
  if (key) await actor.keys(key);
  else {
    if (!element.selected) await actor.tabTo(target, (again) => again.element.selected === true, "its highlight");
    await actor.keys("Enter");
  }
  return actor.reply(await actor.effect(look, target));
}

/**
 * Click words on the screen that no element holds (a button the detector did not read): only by
 * mouse, since keys need to know what the words are. The effect is any change of the screen.
 */
export async function clickText(actor: Actor, look: Look, cell: { row: number; col: number }): Promise<ActReply> {
  await actor.click(cell);
  const seen = await actor.until((now) => (now.text !== look.text || !sameLook(now, look) ? true : undefined));
  if (seen) return actor.reply("changed");
  if (actor.exited) return actor.reply("exited");
  throw new T4aError(
    "timeout",
    `${actor.sent.join(" ")}: the screen did not change within the wait (the program may not have taken it)`,
  );
}

/** Type `value` into an input in place of what it holds: focus it (a click, or Tab), erase, type; then wait to see it there. */
export async function fill(actor: Actor, look: Look, target: Target, value: string): Promise<ActReply> {
  if (target.element.kind !== "input")
    throw new T4aError("invalid_params", `${target.element.ref} is a ${target.element.kind}, not an input`);
  let field = target.element;
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
  await erase(actor, target, field.value ?? "");
  if (value) await actor.type(value);
  const norm = (text: string | undefined) => (text ?? "").trim();
  const shown = await actor.until((seen) =>
    norm(findAgain(seen.elements, target)?.element.value) === norm(value) ? true : undefined,
  );
  if (!shown) {
    if (actor.exited) return actor.reply("exited");
    const now = findAgain((await actor.look()).elements, target)?.element.value;
    throw new T4aError("timeout", `${nameOf(target)} shows ${JSON.stringify(now ?? "")}, not ${JSON.stringify(value)}`);
  }
  return actor.reply("filled");
}

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
  console.log(`${reply.effect} (${reply.via}: ${reply.sent.join(" ")})`);
}
