// choose and click on a screen's elements: an item of a menu or question picked (a click, arrows from the one
// selected, Tab through a completion pop-up or a Tab-cycled list, or the key the screen shows for it), a checkbox or
// radio toggled, a button pressed (buttons.ts); then the goal state seen (answered.ts). Not a command.
import { T4aError } from "../../protocol/errors.ts";
import type { Element } from "../../terminal/elements.ts";
import {
  beforeCursor,
  cellOf,
  findAgain,
  itemKey,
  namedAnswerKey,
  nameOf,
  rowText,
  type Target,
  wordKey,
} from "../../terminal/targets.ts";
import { keyHints } from "../../terminal/hints.ts";
import { answerWithKey, pressNamedAnswer } from "./answer-keys.ts";
import { answered } from "./answered.ts";
import { type ActReply, type Actor, SETTLE_MS } from "./actor.ts";
import { press } from "./buttons.ts";
import { escapeRegExp } from "../../terminal/elements/view.ts";
import { type Look, sameLook } from "./look.ts";

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
  // (Or one blank row under it: rspamadm's numbered list, a blank row, "Enter your choice (1, 2, 3, 4) [default: 1]:".)
  const gap = cursor === element.row + element.height + 1 && !rowText(look.grid, cursor - 1).trim();
  const promptUnder =
    (cursor === element.row + element.height || gap) && !inline && beforeCursor(look.grid).trim() !== "";
  // (Or no prompt of its own: the cursor at the start of an empty row under it, one blank row between at most, nothing
  // below; maxima's "Is k positive, negative or zero?", read as a line. Not where an item is drawn selected: that
  // program moves a selection by keys, and a word or number typed with Enter is no answer to it.)
  const end = element.row + element.height;
  const rows = Array.from({ length: look.grid.rows - cursor }, (_, i) => rowText(look.grid, cursor + i));
  const bareUnder =
    look.grid.cursor.col === 0 &&
    !element.items?.some((item) => item.selected) &&
    (cursor === end || (cursor === end + 1 && !rowText(look.grid, end).trim())) &&
    rows.every((r) => !r.trim());
  const atPrompt = element.kind === "question" && visible && (cursor === end - 1 || promptUnder || bareUnder);
  // An answer whose key the question's bracket names ("[return = YES | Esc = NO]"), the question waiting last.
  const namedKey =
    atPrompt || (visible && cursor === element.row + element.height && look.grid.cursor.col === 0)
      ? namedAnswerKey(look.grid, target)
      : undefined;
  if (namedKey) return pressNamedAnswer(actor, look, target, namedKey);
  // A word ("minitest", "df") only at the question's own prompt, and only the word the caller named.
  const word = atPrompt ? wordKey(item, named) : undefined;
  const keyed = word !== undefined || (itemKey(item) !== undefined && (inline || atPrompt));
  // (A question answered at its prompt by keys, one of them the default drawn selected, takes no arrows: samba-tool's
  // "(dc, member, standalone) [dc]:" is answered by typing a word, or refused.)
  const typed = element.kind === "question" && atPrompt && items.every((i) => i.key !== undefined);
  if (selected < 0 || keyed || typed) {
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
    if (selected < 0 || keyed || inline || typed) return answerWithKey(actor, look, target, word);
  }
  // A list cycled with Tab, its hint saying so (nimble's "Select Cycle with 'Tab', 'Enter' when done" over
  // "Choices:> library <"): Tab, not arrows, moves its marks.
  if (element.kind === "menu" && selected >= 0 && tabCycled(look, element)) return cycleWithTab(actor, look, target);
  // A full-screen list whose bar names the keys that move its selection (mprocs's "<j: Next>  <k: Prev>", turbo's
  // "↑ ↓ - Select") is chosen by moving with them alone: its Enter may be an action of its own (turbo's "interact").
  const mover = element.kind === "menu" && actor.alternate ? movingKeys(look) : undefined;
  if (mover) {
    const there = await actor.arrowTo(
      (seen) => {
        const again = findAgain(seen.elements, target);
        const list = again?.element.items;
        return list && { at: list.findIndex((i) => i.selected), to: list.indexOf(again.item!) };
      },
      false,
      mover,
    );
    if (there)
      return actor.reply(
        "selected",
        `${nameOf(target)} shows selected; the bar says ${JSON.stringify(mover.said)} moves the selection, so Enter ` +
          "(an action of its own there) was not pressed",
      );
    if (actor.exited) return actor.reply("uncertain", `the program exited before ${nameOf(target)} showed selected`);
    throw new T4aError("timeout", `${actor.sent.join(" ")}: the selection did not reach ${nameOf(target)}`);
  }
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

/** Press a button (or a function-key bar's entry): a click, its F-key, or Tab to it and Enter. An item is chosen. */
export async function click(actor: Actor, look: Look, target: Target): Promise<ActReply> {
  const { element } = target;
  if (target.item || element.kind === "checkbox" || element.kind === "radio") return choose(actor, look, target);
  return press(actor, look, target);
}

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

/** A hint that a list moves with Tab: "Cycle with 'Tab'", "Tab to cycle", "press <Tab> to move". */
const TAB_CYCLES = /\bcycle\b.{0,12}\btab\b|\btab\b.{0,12}\b(?:cycle|move|next)\b/i;

/** Rows above a list its Tab hint may stand on. */
const TAB_HINT_ROWS = 3;

/** Arrows and what they do on a bar: turbo's "↑ ↓ - Select", "↑/↓: Move". */
const ARROWS_SELECT = /(?<=^|\s)↑\s?\/?\s?↓\s?(?:-|:)\s(?:Select|Move|Navigate)\b/i;

/**
 * The keys a full-screen list's bar (a status at the screen's top or foot) says move its selection: one-key hints
 * "Next" and "Prev" (mprocs's "<j: Next>  <k: Prev>"), or the arrows named as selecting (turbo's "↑ ↓ - Select").
 */
function movingKeys(look: Look): { next: string; back: string; said: string } | undefined {
  const hints = keyHints(look.grid, look.elements).filter(
    (h) => h.key && (h.element.row === 0 || h.element.row + h.element.height >= look.grid.rows - 3),
  );
  const next = hints.find((h) => /^(?:next|down)$/i.test(h.words));
  const back = hints.find((h) => /^(?:prev|previous|up)$/i.test(h.words));
  if (next && back && next.key !== back.key)
    return { next: next.key!, back: back.key!, said: `${next.text}  ${back.text}` };
  for (const e of look.elements) {
    if (e.kind !== "status" || (e.row !== 0 && e.row + e.height < look.grid.rows - 3)) continue;
    for (let row = e.row; row < e.row + e.height; row++) {
      const said = ARROWS_SELECT.exec(rowText(look.grid, row))?.[0];
      if (said) return { next: "Down", back: "Up", said };
    }
  }
  return undefined;
}

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
