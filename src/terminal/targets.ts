// What choose/click/fill act on: an element or item of a snapshot found by its ref or its text, found
// again on a later screen (refs are renumbered as the screen changes), and the cell to click. Pure.
import { T4aError } from "../protocol/errors.ts";
import type { CellGrid } from "./cell-grid.ts";
import type { Element, Item, Kind } from "./elements.ts";
import { escapeRegExp } from "./elements/view.ts";

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

/**
 * A label without the marks round its key: "[y]es" → "yes", "[v]iew patch" → "view patch", "'f'ile" → "file",
 * "(Y)es" → "yes", "a(u)to rename all" → "auto rename all" (a letter in parentheses only inside a word: "(c) copy"
 * keeps its own), "o)verwrite" → "overwrite" (a key and ")" opening a word, mcopy's).
 */
const unmarked = (label: string): string =>
  label.replace(/\[(\w)\]|'(\w)'|\((\w)\)(?=\w)|(?<=\w)\((\w)\)|(?<=^|\s)(\w)\)(?=\w)/g, "$1$2$3$4$5");

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
  // An answer with its key marked ("[y]es", "'f'ile") is named by its word too ("yes"). A field by its label and the
  // default its prompt offers, as the screen shows them ("Port [8080]", "Do you confirm generation [yes]?"): their
  // words, the brackets aside.
  const bare = (name: string) =>
    name
      .replace(/[[(]\s*default:?\s+/gi, " ")
      .replace(/[[\]():?]/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  const offered = (t: Target) =>
    !t.item && t.element.default !== undefined ? [bare(norm(`${t.element.label ?? ""} ${t.element.default}`))] : [];
  const said = (t: Target) => [label(t), unmarked(label(t))];
  const exact = candidates.filter((t) => said(t).includes(text) || offered(t).includes(bare(text)));
  // No label is it: an item named by its key whole (svn's "(df) Show diff" as "df"; fossil's "N" of "(a=all/c=convert/
  // y/N)", not the n inside "convert"), before a label that holds the text.
  const byKey = exact.length ? exact : candidates.filter((t) => text !== "" && t.item?.key?.toLowerCase() === text);
  const found = byKey.length
    ? byKey
    : candidates.filter((t) => text !== "" && said(t).some((name) => name.includes(text)));
  if (found.length === 1 || aliases(found)) return found[0]!;
  const names = (list: Target[]) => list.map((t) => `${t.item?.ref ?? t.element.ref} ${nameOf(t)}`).join(", ");
  if (found.length > 1)
    throw new T4aError(
      "invalid_params",
      `${JSON.stringify(query.text)} names ${found.length} things: ${names(found)}; give a ref`,
    );
  throw new T4aError(
    "not_found",
    `no ${kinds.join(", ")} ${JSON.stringify(query.text)} on the screen` +
      (candidates.length ? ` (there: ${names(candidates.slice(0, 12))})` : ""),
  );
}

/**
 * Items of one element with one label are keys for one answer (dpkg's "Y or I  : install the
 * package maintainer's version"): any of them is the answer named.
 */
const aliases = (found: Target[]): boolean =>
  found.length > 1 &&
  found.every((t) => t.item && t.element === found[0]!.element && t.item.label === found[0]!.item!.label);

/**
 * The same target on a later screen: an item with the same label in an element of the same kind,
 * or an element of the same kind and label (the nearest to where it was). Undefined when gone. With `below`, the
 * target's question drawn again below that row (its answered line): the program did not take the answer and asks
 * again.
 */
export function findAgain(elements: Element[], target: Target, options: { below?: number } = {}): Target | undefined {
  const { element, item } = target;
  // Asked again under its answered line (wipe's "Okay to WIPE 1 regular file ? (Yes/No)" under "… (Yes/No) y"): the
  // same question (kind and words) below that row, whatever its items.
  if (options.below !== undefined) {
    const label = norm(element.label ?? "");
    const again = elements.find(
      (e) => e.kind === element.kind && e.row > options.below! && norm(e.label ?? "") === label,
    );
    return label !== "" && again
      ? { element: again, item: again.items?.find((i) => norm(i.label) === norm(item?.label ?? "")) }
      : undefined;
  }
  const distance = (e: { row: number; col: number }) =>
    Math.abs(e.row - (item ?? element).row) * 1000 + Math.abs(e.col - (item ?? element).col);
  let best: Target | undefined;
  let grown: Target | undefined;
  for (const e of elements) {
    if (e.kind !== element.kind) continue;
    // (The next question's "No" is not this one's: a question asked again keeps its words.)
    if (item && element.label && e.label && norm(e.label) !== norm(element.label)) continue;
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
  return short.length > 0 && long.startsWith(short) && /^[\s([:—–-]/.test(long.slice(short.length));
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

/** What stands before the cursor on its row: the prompt it waits after, and what was typed there. */
export function beforeCursor(grid: CellGrid): string {
  return rowText(grid, grid.cursor.row).slice(0, grid.cursor.col);
}

/** A function-key bar's button ("10Quit", "F10 Quit") as the key that presses it ("F10"), if it is one. */
export function functionKeyOf(grid: CellGrid, element: Element): string | undefined {
  if (element.kind !== "button") return undefined;
  // (Or a menu bar's entry ending in its key in parentheses, on its own cells: lldb gui's "Target (F2)".)
  const own = /^\S.*\(F(\d{1,2})\)$/.exec(rowText(grid, element.row, element.col).slice(0, element.width));
  const match = own ?? /^F?(\d{1,2})\s?\S/.exec(rowText(grid, element.row, element.col));
  const n = match ? Number(match[1]) : 0;
  return n >= 1 && n <= 12 ? `F${n}` : undefined;
}

/** A key that is safe to type as read from the screen: one letter, digit or "?", a number, or yes/no typed whole. */
const TYPABLE_KEY = /^(?:[\p{L}\p{N}?]|\d{2,3}|yes|no)$/iu;

/**
 * The key that picks an item, when it is one letter, digit or "?", a number of two or three
 * digits, or the word "yes" or "no" (ssh's "(yes/no/[fingerprint])"): the screen is the program's
 * to draw, and a tag read from it ("C-c", "Escape", "F5", any other word) must never become a named
 * key or text.
 */
export function itemKey(item: Item): string | undefined {
  return item.key !== undefined && (TYPABLE_KEY.test(item.key) || RESTART_KEY.test(item.key)) ? item.key : undefined;
}

/** A debugger restart's key, a colon, a capital and its number (clisp's ":R2"): typed as its item's cells draw it. */
const RESTART_KEY = /^:[A-Z]\d{1,2}$/;

/** The names the detector gives a key read off the screen ("Press ENTER …", plink's "Return cancels …"). */
const KEY_NAMES = /^(?:Enter|Return|Space|Tab|Escape|Esc)$/;

/** The keys a question's bracket may name for its answers ("[return = YES | Esc = NO]"), and what presses each. */
const NAMED_ANSWER_KEYS: Record<string, string> = { return: "Enter", enter: "Enter", esc: "Escape", escape: "Escape" };

/**
 * The named key that answers an item of a question whose answers are keys named in its bracket (dar's "[return = YES |
 * Esc = NO]", keyNamedAnswers): Enter or Escape, only when the question's own rows, joined, draw that key "=" the
 * item's word inside the bracket that ends them. Undefined otherwise: a key's name read from the screen is pressed
 * only as the question's own bracket pairs it with the answer named.
 */
export function namedAnswerKey(grid: CellGrid, target: Target): string | undefined {
  const { element, item } = target;
  if (element.kind !== "question" || !item?.key) return undefined;
  const key = NAMED_ANSWER_KEYS[item.key.toLowerCase()];
  if (!key) return undefined;
  const rows = Array.from({ length: element.height }, (_, i) => rowText(grid, element.row + i));
  // A pause of one answer whose words name its key and end it (unison's "Press return to continue."): that key. (Not
  // words going on after it: "Press ENTER to continue>>> ", a REPL's prompt after a printed line, is no pause.)
  const said = escapeRegExp(item.label);
  const pause = new RegExp(`(?:^|[.!] )(?:press|hit) \\[?${said}\\]? to [a-z]+(?: [a-z]+){0,3}[.!]?$`, "i");
  if (element.items?.length === 1 && pause.test(element.label ?? "")) return key;
  // (Or a row of the question's own cells that pairs each key with its answer, "key: Word", ", " between: perf's box
  // "Enter: Yes, ESC: No".)
  const own = rows.map((r) => r.slice(element.col, element.col + element.width));
  const paired = own.map((r) => KEYS_COLON_WORDS.exec(r)).find(Boolean);
  if (paired) {
    const pair = paired[0].split(",").map((part) => /^\s*(\w+): ?([A-Za-z][\w-]*)\s*$/.exec(part));
    const found = pair.find((p) => p && p[2] === item.label);
    return found && NAMED_ANSWER_KEYS[found[1]!.toLowerCase()] === key ? key : undefined;
  }
  const text = rows.map((r, i) => (i < rows.length - 1 ? r.padEnd(grid.cols) : r)).join("");
  const bracket = /\[([^[\]]*)\]\s*$/.exec(text);
  if (!bracket) return undefined;
  const pairs = bracket[1]!.split("|").map((part) => /^\s*(\w+) ?= ?([A-Za-z][\w-]*)\s*$/.exec(part));
  const pair = pairs.find((p) => p && p[2] === item.label);
  return pair && NAMED_ANSWER_KEYS[pair[1]!.toLowerCase()] === key ? key : undefined;
}

/** A row that is only named keys each paired with an answer, "Enter: Yes, ESC: No". */
const KEYS_COLON_WORDS =
  /^\s*(?:return|enter|esc|escape): ?[A-Za-z][\w-]*(?:, (?:return|enter|esc|escape): ?[A-Za-z][\w-]*)+\s*$/i;

/** A word an answer is typed as: a letter or digit, then letters, digits, "-" or "_", 2 to 24 in all. */
const WORD_KEY = /^[\p{L}\p{N}][\p{L}\p{N}_-]{1,23}$/u;

/**
 * An item's key that is a word (bundler's "rspec/minitest/(none):", svn's "(df) Show diff"), when the caller named
 * it whole (`named`, the text given to choose, is the key, case aside): the word typed is then the caller's, in
 * the screen's spelling, never one read from the screen alone. Whether the screen shows it, and the cursor waits at
 * its question's prompt, is the caller's to check (shownKey, choose).
 */
export function wordKey(item: Item, named: string | undefined): string | undefined {
  const key = item.key;
  if (key === undefined || itemKey(item) !== undefined || !WORD_KEY.test(key) || named === undefined) return undefined;
  // (A key's name is no word: "Press ENTER to continue" is keyed Enter, and the caller naming "ENTER" typed the word.)
  if (KEY_NAMES.test(key)) return undefined;
  return named.trim().toLowerCase() === key.toLowerCase() ? key : undefined;
}

/**
 * The key the screen itself shows for an item, checked before anything is typed: the number right
 * before its label on its row (`43) Spain` among columns, `2. No`), else the item's own key as its
 * cells show it (the case kept where another item's key differs only in case: unzip's `[n]o` and
 * `[N]one`). Undefined, with what the row shows, when the screen does not bear the key out.
 */
export function shownKey(grid: CellGrid, target: Target, key = itemKey(target.item!)): { key?: string; shows: string } {
  const item = target.item!;
  const row = rowText(grid, item.row);
  const shows = row.trim();
  const label = item.label.trim();
  const at = label ? row.toLowerCase().indexOf(label.toLowerCase(), Math.max(0, item.col - 1)) : -1;
  if (at >= 0) {
    const number = /(?:^|[^\p{L}\p{N}])(\d{1,3})\s*[).:\]]?\s*$/u.exec(row.slice(Math.max(0, at - 8), at));
    if (number && (!key || /^\d+$/.test(key))) return { key: number[1], shows };
  }
  if (!key) return { shows };
  const cells = row.slice(item.col, item.col + Math.max(item.width, 1));
  // A word is typed only as the item's cells draw it, whole.
  if (!TYPABLE_KEY.test(key) || RESTART_KEY.test(key)) {
    const escaped = escapeRegExp(key);
    const drawn = new RegExp(`(?<![\\p{L}\\p{N}_-])${escaped}(?![\\p{L}\\p{N}_-])`, "iu").exec(cells);
    return drawn ? { key: drawn[0], shows } : { shows };
  }
  if (/^\d+$/.test(key)) {
    return new RegExp(`(^|[^\\d])${key}([^\\d]|$)`).test(cells) ? { key, shows } : { shows };
  }
  const twin = target.element.items?.some(
    (other) =>
      other !== item && other.key !== undefined && other.key !== key && other.key.toLowerCase() === key.toLowerCase(),
  );
  const letters = [...cells.matchAll(/(?<![\p{L}])[\p{L}](?![\p{L}])|[[(]([\p{L}])[\])]/gu)].map((m) => m[2] ?? m[0]);
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
  const escaped = words.map(escapeRegExp).join("\\s+");
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

/** A table row that starts with its number (update-alternatives' "* 0   /usr/bin/vim.basic   30   auto mode"). */
const NUMBERED_ROW = /^\s*[*+>]?\s*(\d{1,3})\s{2,}(\S.*?)\s*$/;

/** A prompt that asks for a row's number ("or type selection number:", "Enter number:"). */
const ASKS_NUMBER = /\b(?:number|selection|choice)\b/i;

/**
 * A row of a table to choose by one of its cells, where the table is a numbered choice: its body
 * rows start with their numbers and the field with the cursor asks for one (update-alternatives
 * --config: `choose /usr/bin/vim.basic`). The item is the row, keyed by its number, labelled by the
 * cell named; the table is given the rows as items so the choice is checked like a numbered
 * question's. Undefined when no table is such a choice or no row's cell is `text`; throws when
 * several rows are.
 */
export function tableChoice(grid: CellGrid, elements: Element[], text: string): Target | undefined {
  const asking = elements.some((e) => e.kind === "input" && e.cursor && ASKS_NUMBER.test(e.label ?? ""));
  if (!asking) return undefined;
  const wanted = norm(text);
  // (A table the detector left as text, its rule shorter than its rows, is one too.)
  for (const table of elements.filter((e) => e.kind === "table" || e.kind === "text")) {
    const rows: Array<{ key: string; cells: string[]; row: number; line: string }> = [];
    for (let row = table.row + 1; row < table.row + table.height; row++) {
      const line = rowText(grid, row).slice(table.col, table.col + table.width);
      const numbered = NUMBERED_ROW.exec(line);
      if (numbered) rows.push({ key: numbered[1]!, cells: numbered[2]!.split(/\s{2,}/), row, line });
      else if (!/^[\s─━=-]*$/.test(line)) rows.splice(0);
    }
    if (rows.length < 2 || new Set(rows.map((r) => r.key)).size !== rows.length) continue;
    const exact = rows.filter((r) => r.cells.some((cell) => norm(cell) === wanted));
    const found = exact.length
      ? exact
      : rows.filter((r) => wanted && r.cells.some((cell) => norm(cell).includes(wanted)));
    if (!found.length) continue;
    const cellOfRow = (r: (typeof rows)[number]) =>
      r.cells.find((cell) => norm(cell) === wanted) ?? r.cells.find((cell) => norm(cell).includes(wanted))!;
    if (found.length > 1)
      throw new T4aError(
        "invalid_params",
        `${JSON.stringify(text)} is in ${found.length} rows of ${table.ref} ` +
          `(numbers ${found.map((r) => r.key).join(", ")}): give the number with fill`,
      );
    const items: Item[] = rows.map((r, index) => ({
      ref: `${table.ref}.${index + 1}`,
      label: r === found[0] ? cellOfRow(r) : r.cells[0]!,
      row: r.row,
      col: table.col,
      width: r.line.trimEnd().length,
      key: r.key,
    }));
    const element = { ...table, items };
    return { element, item: items[rows.indexOf(found[0]!)]! };
  }
  return undefined;
}
