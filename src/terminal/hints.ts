// Key hints: actions a full-screen program offers only as words in its status or help rows (ccmake's "[c] Configure",
// hg's curses "c: confirm", nano's "^X Exit", "press [enter] to confirm"), read off the status elements, each with
// the one key it draws. What `choose` presses when no element is named (src/commands/act/key-hints.ts pressHint,
// which guards where it may type). Pure.
import { T4aError } from "../protocol/errors.ts";
import type { CellGrid } from "./cell-grid.ts";
import type { Element, Item } from "./elements.ts";
import { rowText } from "./targets.ts";

export interface Hint {
  /**
   * The key to press, as a key name (src/terminal/keys.ts): one character as drawn ("c", "?", "C"), "C-x" for `^X`,
   * "Enter", "Space". Undefined when what is drawn is no one such key (several keys, `^[`, `M-x`, `Esc`, `C-x C-c`).
   */
  key?: string;
  /** The key as drawn: "[c]", "c", "^X", "<enter>". */
  drawn: string;
  /** What it does, as drawn: "Configure", "confirm", "Quit without generating". */
  words: string;
  /** The hint's cells as drawn, key and words: "[c] Configure", "c: confirm", "press [enter] to confirm". */
  text: string;
  row: number;
  col: number;
  width: number;
  /** The status element it is read from. */
  element: Element;
  /**
   * Named only as drawn, key and all ("F2 Save", "5-CLI", "Q=QUIT"): a key bar's words alone ("Save") are as often a
   * button's of the dialog the key opens.
   */
  asDrawn?: boolean;
  /**
   * Written as a sentence opening its row ("Press [q] to stop", "press h + enter to show help", ffmpeg's and vite's),
   * read off any row: on the normal screen a program's own words above where it reads (src/commands/act/key-hints.ts
   * guards which).
   */
  sentence?: boolean;
  /** The key is typed then Enter ("press h + enter"): the program reads lines. */
  enter?: boolean;
}

/**
 * A key as hints draw it: in brackets ("[c]", "[enter]"), in angle brackets ("<space>"), nano's "^X" and "M-U", or a
 * key and a colon ("c:", "?:", "q:quit"); "press" may come before it. On a key bar also a function key or a named key
 * before a capitalised word ("F2 Save", "F10 Exit", "Enter Show"), a digit and a dash before one ("5-CLI", a mode's
 * tab), one character and "=" before a word ("Q=QUIT"); at the bottom a key, " - " and a capitalised word ("i -
 * Interact", turbo's).
 */
const HINT_KEY = new RegExp(
  String.raw`(?<=^|\s)(?:press\s+)?(?:\[([^[\]\s]{1,10})\]|<([^<>\s]{1,10})>|(\^\S|M-\S)|([^\s:[\]<>]{1,12}):` +
    // A key bar's: "F2 Save", "Enter Show"; "5-CLI"; "Q=QUIT".
    String.raw`|(F(?:1[0-2]|[1-9])|Esc|Enter|Space|Tab)(?= \p{Lu})|(\d)-(?=\p{Lu})|([!-<>-~])=(?=\p{L})` +
    // A key, " - ", a capitalised word ("i - Interact", "Ctrl-z - Stop interacting"; no figure: "1 - MIT" is no hint).
    String.raw`|([^\s\d:[\]<>]{1,3}|(?:ctrl|alt|shift)[-+]\S) - (?=\p{Lu})` +
    // A key, a colon and its words together in angle brackets ("<q: Quit>", "<C-a: Toggle focus>", mprocs's).
    String.raw`|<([^<>\s:]{1,10}):(?= \p{L}[^<>]*>))`,
  "giu",
);

/** "[Press any key to exit]": a hint of any key, whole in brackets. */
const ANY_KEY = /\[((?:press|hit) any key to (\p{L}[\p{L} ]{0,30}))\]/giu;

/** What the hint does: words opening with a letter, after an optional "to". */
const HINT_WORDS = /^:?\s?(?:to\s+)?(\p{L}[\p{L}\p{N}'/-]*(?: [\p{L}\p{N}'/-]+)*)/u;

/** Named keys a hint may draw, to the key's name. */
const NAMED_KEYS: Record<string, string> = { enter: "Enter", return: "Enter", space: "Space", spacebar: "Space" };

/**
 * The one key a hint draws, as a key name: one printable character as drawn, a letter after "^" as Ctrl and the
 * letter, Enter or Space named. Anything else (an escape, a Meta chord, several keys) is no key to press.
 */
function keyOf(drawn: string): string | undefined {
  if (/^\^[A-Za-z]$/.test(drawn)) return `C-${drawn[1]!.toLowerCase()}`;
  if (/^F(?:1[0-2]|[1-9])$/.test(drawn)) return drawn;
  if (/^[!-~]$/.test(drawn) || /^\p{L}$/u.test(drawn)) return drawn;
  return NAMED_KEYS[drawn.toLowerCase()];
}

/**
 * The key hints on a screen: in its status elements only, each a key drawn as a key and the words after it (up to two
 * blanks, a comma or stop, or the next key). A hint whose key is no one key is listed with `key` undefined.
 */
export function keyHints(grid: CellGrid, elements: Element[]): Hint[] {
  const hints: Hint[] = [];
  for (const element of elements) {
    if (element.kind !== "status") continue;
    for (let row = element.row; row < element.row + element.height; row++) {
      const line = rowText(grid, row).slice(0, element.col + element.width);
      // "[Press any key to exit]" whole in brackets (lldb gui's help, on its border): Space, which goes on anywhere.
      for (const any of line.matchAll(ANY_KEY))
        if (any.index! >= element.col)
          hints.push({
            key: "Space",
            drawn: "any key",
            words: any[2]!,
            text: any[1]!,
            row,
            col: any.index! + 1,
            width: any[1]!.length,
            element,
          });
      const keys = [...line.matchAll(HINT_KEY)].filter((m) => m.index! >= element.col);
      for (const [n, match] of keys.entries()) {
        const colonForm = match[4] !== undefined;
        // (A bar's key before a word stands before a capital as drawn, case and all: "F2 Save", "5-CLI"; not "tab
        // characters", "enter the name".)
        if (
          (match[5] !== undefined || match[6] !== undefined) &&
          (!/^(?:F\d{1,2}|Esc|Enter|Space|Tab|\d)$/.test(match[5] ?? match[6]!) ||
            !/^ ?\p{Lu}/u.test(line.slice(match.index! + match[0].length)))
        )
          continue;
        // (The dash form's word a capital as drawn, and its key a hint's start: the row's, or after two blanks.)
        if (
          match[8] !== undefined &&
          (!/^\p{Lu}/u.test(line.slice(match.index! + match[0].length)) ||
            (match.index! > 0 && !/(?:^|\s{2})$/.test(line.slice(0, match.index!))))
        )
          continue;
        // (A key and a colon opens a hint only at a hint's start: the row's, or after two blanks: hg's "c: confirm",
        // not "arrow keys:".)
        if (colonForm && match.index! > 0 && !/(?:^|\s{2}|[,(])\s*$/.test(line.slice(0, match.index!))) continue;
        // (Nor inside quotes: a name quoted, vim's '"notes  [u] Update" 2L, 12B' for the file it opened.)
        if (quoted(line.slice(0, match.index!))) continue;
        const end = keys[n + 1]?.index ?? line.length;
        const after = line.slice(match.index! + match[0].length, end);
        const words = HINT_WORDS.exec(after)?.[1];
        if (!words) continue;
        // The words end at two blanks, a comma, a stop or a parenthesis.
        const said = words.split(/\s{2,}|[,.;()]/)[0]!.trim();
        if (!said) continue;
        const drawn =
          match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6] ?? match[7] ?? match[8] ?? match[9]!;
        // (In angle brackets with its words, the hint is what they hold: "q: Quit".)
        const start = match.index! + (match[9] !== undefined ? 1 : 0);
        const text = line.slice(start, match.index! + match[0].length + after.indexOf(said) + said.length);
        hints.push({
          key: keyOf(drawn),
          drawn,
          words: said,
          text,
          row,
          col: start,
          width: text.length,
          element,
          ...(match[5] !== undefined || match[6] !== undefined || match[7] !== undefined || match[8] !== undefined
            ? { asDrawn: true }
            : {}),
        });
      }
    }
  }
  return hints;
}

/**
 * A key hint written as a sentence opening a row (a mark such as vite's "➜" may come first): "press", the key (in
 * brackets, in angle brackets, or one character alone), maybe "+ enter", then "to" or "for" and the action's words:
 * "Press [q] to stop", "press h + enter to show help", "Press <space> to select". More clauses may follow after a
 * comma ("Press [q] to stop, [?] for help").
 */
const SENTENCE_OPENS = /^\s*(?:[^\p{L}\p{N}\s]{1,2}\s+)?(?=(?:press|hit)\s)/iu;
const SENTENCE_CLAUSE =
  /(?:press|hit)?\s*(?:\[([^[\]\s]{1,10})\]|<([^<>\s]{1,10})>|([!-~]))(\s*\+\s*(?:enter|return))?\s+(?:to|for)\s+/iuy;

/**
 * The key hints written as sentences opening a row, anywhere on the screen (ffmpeg's "Press [q] to stop, [?] for
 * help" among its log, vite's "➜  press h + enter to show help"), each with the element holding its row, if any.
 */
export function sentenceHints(grid: CellGrid, elements: Element[]): Hint[] {
  const hints: Hint[] = [];
  for (let row = 0; row < grid.rows; row++) {
    const line = rowText(grid, row);
    const opens = SENTENCE_OPENS.exec(line);
    if (!opens) continue;
    const element = elements.find(
      (e) => e.row <= row && row < e.row + e.height && e.col <= opens[0].length && opens[0].length < e.col + e.width,
    );
    if (!element) continue;
    let at = opens[0].length;
    for (let first = true; ; first = false) {
      if (!first) {
        const comma = /,\s*(?:or\s+|and\s+)?/iy;
        comma.lastIndex = at;
        const sep = comma.exec(line);
        if (!sep) break;
        at = comma.lastIndex;
      }
      SENTENCE_CLAUSE.lastIndex = at;
      const clause = SENTENCE_CLAUSE.exec(line);
      // (The first clause says "press"; a later one may leave it out: "[?] for help".)
      if (!clause || (first && !/^(?:press|hit)\s/i.test(clause[0]))) break;
      const words = /^(\p{L}[\p{L}\p{N}'/-]*(?: [\p{L}\p{N}'/-]+)*)/u.exec(line.slice(SENTENCE_CLAUSE.lastIndex))?.[1];
      const said = (words ?? "").split(/\s{2,}|[,.;()]/)[0]!.trim();
      if (!said) break;
      const drawn = clause[1] ?? clause[2] ?? clause[3]!;
      const end = SENTENCE_CLAUSE.lastIndex + said.length;
      const text = line.slice(at, end).trim();
      const key = keyOf(drawn);
      hints.push({
        ...(key ? { key } : {}),
        drawn,
        words: said,
        text,
        row,
        col: at + (line.slice(at).length - line.slice(at).trimStart().length),
        width: text.length,
        element,
        sentence: true,
        ...(clause[4] ? { enter: true } : {}),
      });
      at = end;
    }
  }
  return hints;
}

/**
 * Every key hint on a screen: the sentences opening rows (sentenceHints), and its bars' (keyHints) on other cells (a
 * sentence on a bar is read as one, whose guards on the normal screen are its own).
 */
export function allHints(grid: CellGrid, elements: Element[]): Hint[] {
  const sentences = sentenceHints(grid, elements);
  const bars = keyHints(grid, elements).filter(
    (b) => !sentences.some((s) => b.row === s.row && b.col < s.col + s.width && s.col < b.col + b.width),
  );
  // (A sentence in a program's text, no bar's, saying what a bar's hint says too: the bar's is the one to press, a
  // help page's "Press q to quit" over its bar's "q Quit".)
  const said = new Set(bars.map((b) => norm(b.words)));
  return [...bars, ...sentences.filter((s) => s.element.kind === "status" || !said.has(norm(s.words)))];
}

/** Whether a quote opened in `before` (a row up to a hint) is still open: what follows is a name quoted. */
function quoted(before: string): boolean {
  const count = (pattern: RegExp) => (before.match(pattern) ?? []).length;
  return (
    count(/"/g) % 2 === 1 ||
    count(/“/g) > count(/”/g) ||
    count(/‘/g) > count(/’/g) ||
    count(/(?<=^|\s)'/g) > count(/'(?=\s|$|[.,:;!?)])/g)
  );
}

const norm = (text: string): string => text.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * The hints `text` names: their words whole ("Configure", "confirm"), or the hint as drawn ("[c] Configure", "c:
 * confirm"; a key bar's "F2 Save" only so); case and runs of blanks aside.
 */
export function hintsNamed(hints: Hint[], text: string): Hint[] {
  const wanted = norm(text);
  if (!wanted) return [];
  // (A hint drawn in brackets whole, "[Press any key to exit]", named with them too.)
  return hints.filter(
    (hint) =>
      (!hint.asDrawn && norm(hint.words) === wanted) || norm(hint.text) === wanted || norm(`[${hint.text}]`) === wanted,
  );
}

/** Whether an element's or item's cells and a hint's share a row and columns. */
const overlaps = (place: { row: number; col: number; width: number }, hint: Hint): boolean =>
  place.row === hint.row && place.col < hint.col + hint.width && hint.col < place.col + place.width;

/**
 * The hint `text` names on this screen, if any, for `choose` and `click` to press. `found` is the element or item the
 * text named, if it named one: the same text naming a hint elsewhere too is refused as naming two things (nothing is
 * typed; a ref, or the hint as drawn, says which); a hint on the very cells of the element found (a key-hint row read
 * as a question) is the hint. Several hints named (other keys, or the same in several places) are refused too.
 */
export function hintTarget(
  grid: CellGrid,
  elements: Element[],
  text: string,
  found?: { element: Element; item?: Item },
): Hint | undefined {
  const named = hintsNamed(allHints(grid, elements), text);
  if (!named.length) return undefined;
  const shown = (hint: Hint) => JSON.stringify(hint.text);
  // (A bar draws its hint once: the same hint in several places is output going past, a log's lines.)
  if (named.length > 1)
    throw new T4aError(
      "invalid_params",
      `${JSON.stringify(text)} names ${named.length} key hints (${named.map(shown).join(", ")}, rows ` +
        `${named.map((hint) => hint.row).join(", ")}): a program's bar draws a hint once; nothing was sent`,
    );
  const hint = named[0]!;
  if (!found) return hint;
  const place = found.item ?? found.element;
  if (named.some((h) => overlaps(place, h))) return hint;
  throw new T4aError(
    "invalid_params",
    `${JSON.stringify(text)} names both ${place.ref} ` +
      `${JSON.stringify(found.item?.label ?? found.element.label ?? "")} ` +
      `and the key hint ${shown(hint)}; nothing was sent: give the ref, or the hint as drawn (${shown(hint)})`,
  );
}
