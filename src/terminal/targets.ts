// What choose/click/fill act on: an element or item of a snapshot found by its ref or its text, found
// again on a later screen (refs are renumbered as the screen changes), and the cell to click. Pure.
import { T4aError } from "../protocol/errors.ts";
import type { CellGrid } from "./cell-grid.ts";
import type { Element, Item, Kind } from "./elements.ts";

/** An element, or one item of a menu or question. */
export interface Target {
  element: Element;
  item?: Item;
}

/**
 * A label as compared: case, runs of blanks, and a leading marker or number aside ("● 1. Allow once"
 * is "allow once": the marker moves with the selection, and a list may draw it in the label).
 */
const norm = (text: string): string =>
  text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[^\p{L}\p{N}"'`([]*(?:\d{1,2}[.)] )?/u, "")
    .toLowerCase();

/** The name a target is said by in messages: its label, else its ref. */
export const nameOf = (target: Target): string =>
  JSON.stringify(target.item?.label ?? target.element.label ?? target.element.ref);

/**
 * The target `query` names on this screen: a ref ("e3", "e3.2"), else the item or element whose
 * label is the text (case and runs of blanks aside), else the only one whose label contains it.
 * Only elements of `kinds` (and their items) count. Throws not_found, naming what is there.
 */
export function findTarget(
  elements: Element[],
  query: { ref?: string; text?: string },
  kinds: readonly Kind[],
): Target {
  const candidates: Target[] = [];
  for (const element of elements) {
    if (!kinds.includes(element.kind)) continue;
    if (element.items?.length) for (const item of element.items) candidates.push({ element, item });
    else candidates.push({ element });
  }
  if (query.ref !== undefined) {
    const ref = query.ref;
    const element = elements.find((e) => e.ref === ref || e.items?.some((i) => i.ref === ref));
    const item = element?.items?.find((i) => i.ref === ref);
    if (!element)
      throw new T4aError(
        "not_found",
        `no element ${ref} on the screen now (take a new snapshot: refs follow the screen)`,
      );
    if (!kinds.includes(element.kind))
      throw new T4aError("invalid_params", `${ref} is a ${element.kind}; this acts on ${kinds.join(", ")}`);
    if (!item && element.items?.length)
      throw new T4aError(
        "invalid_params",
        `${ref} is a ${element.kind}: name one of its items (${element.items.map((i) => i.ref).join(", ")})`,
      );
    return { element, item };
  }
  const text = norm(query.text ?? "");
  const label = (t: Target) => norm(t.item?.label ?? t.element.label ?? "");
  const exact = candidates.filter((t) => label(t) === text);
  const found = exact.length ? exact : candidates.filter((t) => text !== "" && label(t).includes(text));
  if (found.length === 1) return found[0]!;
  const names = (list: Target[]) => list.map((t) => `${t.item?.ref ?? t.element.ref} ${nameOf(t)}`).join(", ");
  if (found.length > 1)
    throw new T4aError(
      "invalid_params",
      `${JSON.stringify(query.text)} names ${found.length} things: ${names(found)}; give a ref`,
    );
  throw new T4aError(
    "not_found",
    `no ${kinds.join(", ")} ${JSON.stringify(query.text)} on the screen${candidates.length ? ` (there: ${names(candidates.slice(0, 12))})` : ""}`,
  );
}

/**
 * The same target on a later screen: an item with the same label in an element of the same kind,
 * or an element of the same kind and label (the nearest to where it was). Undefined when gone.
 */
export function findAgain(elements: Element[], target: Target): Target | undefined {
  const { element, item } = target;
  const distance = (e: { row: number; col: number }) =>
    Math.abs(e.row - (item ?? element).row) * 1000 + Math.abs(e.col - (item ?? element).col);
  let best: Target | undefined;
  let grown: Target | undefined;
  for (const e of elements) {
    if (e.kind !== element.kind) continue;
    if (item) {
      for (const i of e.items ?? []) {
        if (norm(i.label) === norm(item.label) && (!best || distance(i) < distance(best.item!)))
          best = { element: e, item: i };
        // (A label grows in place: an item elsewhere that starts with the words is another item.)
        else if (i.row === item.row && sameItem(i.label, item.label) && (!grown || distance(i) < distance(grown.item!)))
          grown = { element: e, item: i };
      }
    } else if (norm(e.label ?? "") === norm(element.label ?? "") && (!best || distance(e) < distance(best.element)))
      best = { element: e };
  }
  return best ?? grown;
}

/**
 * Two labels of one item: equal, or one the other with words added after it. A list may append a
 * description to the item in focus (`Router` -> `Router (SPA development)`), and take it away when
 * the focus leaves.
 */
export function sameItem(a: string, b: string): boolean {
  const [x, y] = [norm(a), norm(b)];
  if (x === y) return true;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  return short.length > 0 && long.startsWith(short) && /^[\s(\[:—–-]/.test(long.slice(short.length));
}

/** The cell to click: the middle of the item's or element's first row. */
export function cellOf(target: Target): { row: number; col: number } {
  const { row, col, width } = target.item ?? target.element;
  return { row, col: col + Math.floor(Math.max(width - 1, 0) / 2) };
}

/** The text of one row of the grid from column `from` on. */
export function rowText(grid: CellGrid, row: number, from = 0): string {
  let text = "";
  for (let col = from; col < grid.cols; col++) {
    const i = row * grid.cols + col;
    if (grid.widths[i] === 0) continue;
    const code = grid.codepoints[i]!;
    text += code ? String.fromCodePoint(code) : " ";
  }
  return text;
}

/** A function-key bar's button ("10Quit", "F10 Quit") as the key that presses it ("F10"), if it is one. */
export function functionKeyOf(grid: CellGrid, element: Element): string | undefined {
  if (element.kind !== "button") return undefined;
  const match = /^F?(\d{1,2})\s?\S/.exec(rowText(grid, element.row, element.col));
  const n = match ? Number(match[1]) : 0;
  return n >= 1 && n <= 12 ? `F${n}` : undefined;
}

/**
 * The key that picks an item, when it is one letter, digit or "?": the screen is the program's to
 * draw, and a tag read from it ("C-c", "Escape", "F5", a word) must never become a named key or text.
 */
export function itemKey(item: Item): string | undefined {
  return item.key !== undefined && (/^[\p{L}\p{N}?]$/u.test(item.key) || /^\d{2,3}$/.test(item.key))
    ? item.key
    : undefined;
}

/**
 * The key the screen itself shows for an item, checked before anything is typed: the number right
 * before its label on its row (`43) Spain` among columns, `2. No`), else the item's own key as its
 * cells show it (the case kept where another item's key differs only in case: unzip's `[n]o` and
 * `[N]one`). Undefined, with what the row shows, when the screen does not bear the key out.
 */
export function shownKey(grid: CellGrid, target: Target): { key?: string; shows: string } {
  const item = target.item!;
  const row = rowText(grid, item.row);
  const shows = row.trim();
  const key = itemKey(item);
  const label = item.label.trim();
  const at = label ? row.toLowerCase().indexOf(label.toLowerCase(), Math.max(0, item.col - 1)) : -1;
  if (at >= 0) {
    const number = /(?:^|[^\p{L}\p{N}])(\d{1,3})\s*[).:\]]?\s*$/u.exec(row.slice(Math.max(0, at - 8), at));
    if (number && (!key || /^\d+$/.test(key))) return { key: number[1], shows };
  }
  if (!key) return { shows };
  const cells = row.slice(item.col, item.col + Math.max(item.width, 1));
  if (/^\d+$/.test(key)) {
    return new RegExp(`(^|[^\\d])${key}([^\\d]|$)`).test(cells) ? { key, shows } : { shows };
  }
  const twin = target.element.items?.some(
    (other) =>
      other !== item && other.key !== undefined && other.key !== key && other.key.toLowerCase() === key.toLowerCase(),
  );
  const letters = [...cells.matchAll(/(?<![\p{L}])[\p{L}](?![\p{L}])|[\[(]([\p{L}])[\])]/gu)].map((m) => m[2] ?? m[0]);
  const exact = letters.find((letter) => letter === key);
  if (exact) return { key, shows };
  const other = letters.find((letter) => letter.toLowerCase() === key.toLowerCase());
  if (other) return { key: twin ? other : key, shows };
  // A letter drawn apart from the item's cells (a dialog tag column) is kept as the detector read it.
  return { key, shows };
}

/**
 * Where `text` shows on the screen as words (case and runs of blanks aside, not inside a longer
 * word), one row at a time: each place's middle cell. What `click --text` falls back to when no
 * element has the text: a mouse click on words the detector did not read as a button.
 */
export function textCells(grid: CellGrid, text: string): Array<{ row: number; col: number }> {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+");
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "giu");
  const found: Array<{ row: number; col: number }> = [];
  for (let row = 0; row < grid.rows; row++) {
    // The row's text and, for each UTF-16 index, the column it is drawn in (wide characters take two).
    let line = "";
    const colAt: number[] = [];
    for (let col = 0; col < grid.cols; col++) {
      const i = row * grid.cols + col;
      if (grid.widths[i] === 0) continue;
      const code = grid.codepoints[i]!;
      const char = code ? String.fromCodePoint(code) : " ";
      for (let k = 0; k < char.length; k++) colAt.push(col);
      line += char;
    }
    for (const match of line.matchAll(pattern)) {
      const first = colAt[match.index]!;
      const last = colAt[match.index + match[0].length - 1]!;
      found.push({ row, col: first + Math.floor((last - first) / 2) });
    }
  }
  return found;
}
