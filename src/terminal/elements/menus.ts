// Menus: lists of items of which one is selected, told by a marker (❯, ●, (x)), a bar or a
// highlight, in a box or out of one, down a column or across a grid of words.
import { CellFlag, ColourMode, packColour } from "../cell-grid.ts";
import type { Found, Item } from "./types.ts";
import {
  type Box,
  BOX_CHARS,
  boxAround,
  clean,
  contains,
  lineBackground,
  MARKERS,
  panes,
  VERTICAL,
  type View,
  drawnApart,
} from "./view.ts";

/**
 * A list's row: its number (the key, group 1), its name (group 2), then a mark (claude's ✔ on the
 * current model, codex's "(current)") and a column two blanks on, neither part of the name.
 */
const NUMBERED_ROW = /^(?:(\d{1,2})[.)] )?(.*?)(?: [✔✓]| \((?:current|default|selected)\))?(?:\s{2,}\S.*)?$/;

/**
 * A select drawn as radio marks (clack's "○ TypeScript" / "● JavaScript"): one filled mark among
 * empty ones in a column, each before its text, is a menu (the filled one moves with the arrows);
 * "● Yes / ○ No" on one row under a question is that question's answers. A dim hint after an
 * item in parentheses ("(no types)") is not part of its label.
 */
export function circleMenus(view: View): Found[] {
  const out: Found[] = [];
  const mark = (r: number, col: number) =>
    r >= 0 &&
    r < view.rows &&
    "○●".includes(view.char(r, col)) &&
    view.char(r, col + 1) === " " &&
    view.char(r, col + 2).trim() !== "" &&
    view.free(r, col, col + 3);
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const pair = /([●○]) (\S[^/]*?) \/ ([●○]) (\S.*?)\s*$/.exec(line);
    if (pair && pair[1] !== pair[3] && view.free(row, pair.index!, line.trimEnd().length)) {
      let q = row - 1;
      while (q >= 0 && !/[\p{L}\p{N}]/u.test(view.flat[q]!)) q--;
      const label = q >= 0 ? clean(view.flat[q]!).replace(/^[^\p{L}\p{N}\s"'(]+ +/u, "") : "";
      const col = pair.index!;
      const second = col + pair[0].indexOf(pair[3]!, pair[1]!.length + pair[2]!.length + 2);
      const items = [
        { label: pair[2]!, row, col, width: pair[2]!.length + 2, ...(pair[1] === "●" ? { selected: true } : {}) },
        {
          label: pair[4]!,
          row,
          col: second,
          width: pair[4]!.length + 2,
          ...(pair[3] === "●" ? { selected: true } : {}),
        },
      ];
      if (!label.endsWith("?") || !view.free(q, 0, view.cols)) continue;
      const qCol = view.flat[q]!.search(/[\p{L}\p{N}"'(]/u);
      out.push({
        kind: "question",
        row: q,
        col: qCol,
        width: Math.max(view.flat[q]!.trimEnd().length, line.trimEnd().length) - qCol,
        height: row - q + 1,
        label,
        items,
      });
      view.use(q, qCol, view.cols - qCol);
      view.use(row, col, line.trimEnd().length - col);
      continue;
    }
    // Or "( )"/"(x)" marks outside any frame, right under a question (cli-select's): one choice, a menu.
    const paren = (r: number) =>
      r >= 0 && r < view.rows && /^\((?:[ xX*•])\) \S/.test(view.flat[r]!) && view.free(r, 0, 4);
    if (
      paren(row) &&
      !paren(row - 1) &&
      row > 0 &&
      /\?\s*$/.test(view.flat[row - 1]!) &&
      !/[│┃║┌└]/.test(view.flat[row]!)
    ) {
      let end = row;
      while (paren(end + 1)) end++;
      const marked = Array.from({ length: end - row + 1 }, (_, i) => row + i).filter((r) => view.char(r, 1) !== " ");
      if (end > row && marked.length === 1) {
        const items = Array.from({ length: end - row + 1 }, (_, i) => row + i).map((r) => ({
          label: view.text(r, 4, view.cols).trim(),
          row: r,
          col: 0,
          width: view.text(r, 0, view.cols).trimEnd().length,
          ...(r === marked[0] ? { selected: true } : {}),
        }));
        const width = Math.max(...items.map((i) => i.width));
        out.push({ kind: "menu", row, col: 0, width, height: end - row + 1, items });
        view.use(row, 0, width, end - row + 1);
        row = end;
        continue;
      }
    }
    const at = line.search(/[○●] \S/);
    if (at < 0 || !mark(row, at) || mark(row - 1, at)) continue;
    let last = row;
    while (mark(last + 1, at)) last++;
    const rows = Array.from({ length: last - row + 1 }, (_, i) => row + i);
    if (rows.length < 2 || rows.filter((r) => view.char(r, at) === "●").length !== 1) continue;
    const items = rows.map((r) => {
      const text = view.text(r, at + 2, view.cols).trimEnd();
      // The hint drawn apart from the name: in parentheses at its end, in another style.
      const hint = /\s+\([^)]*\)$/.exec(text);
      const cut =
        hint && view.style(r, at + 2 + hint.index! + hint[0].length - 1) !== view.style(r, at + 2)
          ? hint.index!
          : text.length;
      return {
        label: text.slice(0, cut),
        row: r,
        col: at,
        width: text.length + 2,
        ...(view.char(r, at) === "●" ? { selected: true } : {}),
      };
    });
    const width = Math.max(...items.map((i) => i.width));
    out.push({ kind: "menu", row, col: at, width, height: rows.length, items });
    view.use(row, at, width, rows.length);
    row = last;
  }
  return out;
}

/** A prompt library's question row: "? Select a React template - Press return to submit.". */
const PROMPT_QUESTION = /^\s*\? \S/;

/** A tag in brackets, then what it does: testdisk's "[ Analyse  ] Analyse current partition structure…". */
const TAG_ROW = /^\[ ?([A-Za-z][\w .-]{0,14}?) *\] (\S.*)$/;

/** The item a Tab-cycled list marks, between ">" and "<" (nimble's "> library <"), the row ending there. */
const CYCLE_MARKED = /^(.*?)> (\S+(?: \S+)*) <\s*$/;

/** An item of such a list left unmarked: blanks up to its column, then one name, nothing after it. */
const CYCLE_ITEM = /^ *(\S+(?: \S+)*)\s*$/;

/**
 * A list cycled with a key, the item it stands on between ">" and "<" (nimble's "Choices:> library <" over "binary",
 * "hybrid", Tab moving the marks): the other rows, right above and under it, each one name starting at the marked
 * name's column and blanks before it (the list's first row may open with its label ending in ":", "Choices:"), the
 * list the last thing written and the cursor on one of its rows. A menu from the ">" to the end of its longest row,
 * its items the names, the marked one selected.
 */
function cycledLists(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    const marked = CYCLE_MARKED.exec(view.flat[row]!);
    if (!marked || !view.free(row, 0, view.cols)) continue;
    const markerCol = marked[1]!.length;
    const col = markerCol + 2;
    // (What stands before the marks is blank, or the list's label on its first row.)
    const lead = (r: number) => view.flat[r]!.slice(0, markerCol);
    if (lead(row).trim() && !/^\s*\S.*:\s*$/.test(lead(row))) continue;
    const unmarked = (r: number, first: boolean) => {
      const line = view.flat[r];
      if (line === undefined || !view.free(r, 0, view.cols) || line[col] === " " || line[col - 1] !== " ")
        return undefined;
      if (line.slice(0, markerCol).trim() && !(first && /^\s*\S.*:\s*$/.test(line.slice(0, markerCol))))
        return undefined;
      return CYCLE_ITEM.exec(line.slice(markerCol))?.[1];
    };
    let top = row;
    // (Above the marked row, only while it had no label: the label opens the list.)
    while (!lead(top).trim() && top > 0 && unmarked(top - 1, true) !== undefined) {
      top--;
      if (lead(top).trim()) break;
    }
    let bottom = row;
    while (bottom + 1 < view.rows && unmarked(bottom + 1, false) !== undefined) bottom++;
    // (Waiting: the last thing written, the cursor, shown or not, on one of its rows. Printed above a shell's prompt it
    // is output, and Tab there would complete a command.)
    const { cursor } = view;
    if (bottom === top || cursor.row < top || cursor.row > bottom || view.flat.slice(bottom + 1).some((l) => l.trim()))
      continue;
    const items: Omit<Item, "ref">[] = [];
    for (let r = top; r <= bottom; r++) {
      const label = r === row ? marked[2]! : unmarked(r, r === top)!;
      items.push({ label, row: r, col, width: label.length, ...(r === row ? { selected: true } : {}) });
    }
    const right = Math.max(...items.map((i) => view.flat[i.row]!.trimEnd().length));
    out.push({ kind: "menu", row: top, col: markerCol, width: right - markerCol, height: bottom - top + 1, items });
    for (let r = top; r <= bottom; r++) view.use(r, markerCol, view.cols - markerCol);
    row = bottom;
  }
  return out;
}

/**
 * A source listing's lines at the marker's row: numbered at one column counting up by one past it, the code after the
 * numbers not starting at one column (indented) or a numbered line empty (node inspect's "> 4   for (const x of xs)"
 * under "  3   let s = 0;", a debugger's current line): no list.
 */
function sourceListing(lines: string[], row: number, textCol: number): boolean {
  const numbered = (r: number) => /^(\d+)( +|$)/.exec(lines[r]?.slice(textCol) ?? "");
  const here = numbered(row);
  if (!here) return false;
  const starts = [here[0].length];
  let empty = here[0].length === here[1]!.length;
  let count = 0;
  for (const step of [-1, 1])
    for (let r = row + step, n = Number(here[1]) + step; r >= 0 && r < lines.length; r += step, n += step) {
      const m = numbered(r);
      if (!m || Number(m[1]) !== n) break;
      count++;
      starts.push(m[0].length);
      empty ||= lines[r]!.slice(textCol + m[0].length).trim() === "";
    }
  return count >= 1 && (empty || new Set(starts).size > 1);
}

/**
 * Whether rows `first`..`last` each hold, right before `col`, a number and a gutter's bar ("  4 │", a mark may follow
 * the bar), the numbers counting up by one, and the row above or below goes on counting the same way: a source
 * listing's numbered lines (lldb gui's Sources pane), its current line lit.
 */
function gutterNumbered(view: View, first: number, last: number, col: number): boolean {
  const number = (r: number) => {
    const m = /(\d{1,6}) ?[│┃|]\S?\s*$/u.exec(view.flat[r]?.slice(0, col) ?? "");
    return m ? Number(m[1]) : undefined;
  };
  const start = number(first);
  if (start === undefined) return false;
  for (let r = first + 1; r <= last; r++) if (number(r) !== start + (r - first)) return false;
  return number(first - 1) === start - 1 || number(last + 1) === start + (last - first) + 1;
}

/** A list whose selected row carries a marker (❯, >, ›) and whose other rows are indented to match. */
export function markerMenus(view: View): Found[] {
  const out: Found[] = cycledLists(view);
  // A frame's sides are blanks here: a list inside a box (qwen's pickers) indents like one outside.
  const lines = view.flat.map((l) => l.replace(/[│┃║]/g, " "));
  for (let row = 0; row < view.rows; row++) {
    const line = lines[row]!;
    // (fzf's cursor right before its multi-select mark: ">>./CHANGELOG.md".)
    const match = /^(\s*)(\S)((?<=>)>)?( {0,3})(\S)/.exec(line);
    // (Or a marker right before a tag in brackets, the two in reverse: testdisk's ">[ Geometry ] Change disk geometry"
    // among " [ Analyse  ] Analyse current partition structure…".)
    const tagged =
      match !== null &&
      match[2] === ">" &&
      !match[3] &&
      !match[4] &&
      TAG_ROW.test(line.slice(match[1]!.length + 1)) &&
      view.has(row, match[1]!.length, CellFlag.inverse);
    if (!match || !MARKERS.includes(match[2]!) || (!match[3] === !match[4] && !tagged)) continue;
    const markerCol = match[1]!.length;
    const textCol = markerCol + 1 + (match[3]?.length ?? 0) + match[4]!.length;
    if (!view.free(row, markerCol, textCol + 1)) continue;
    // Rows above and below with blank marker column and text at textCol (±1).
    const fits = (r: number) => {
      const l = lines[r];
      if (!l || !view.free(r, markerCol, textCol + 1)) return false;
      // fzf's multi-select marks a chosen row in the column between the cursor's marker and the
      // text; claude's current choice has its ✔ there too, a column or two further left.
      return (
        l.slice(0, markerCol + 1).trim() === "" &&
        /^ *[>*✓✔+●]? *$/.test(l.slice(markerCol + 1, textCol)) &&
        l[textCol] !== undefined &&
        !" ⎿└├".includes(l[textCol]!) &&
        !/[─━═]{3}/.test(l)
      );
    };
    // A separator between groups of items (inquirer's "──────", " -- embedded --") is stepped over.
    const separator = (r: number) =>
      r >= 0 &&
      r < view.rows &&
      /^\s*(?:[─━-]{4,}|--? \S.{0,30} --?)\s*$/.test(lines[r]!) &&
      lines[r]!.search(/\S/) <= textCol;
    let first = row;
    while (first - 1 >= 0 && (fits(first - 1) || (separator(first - 1) && fits(first - 2)))) first--;
    // A code excerpt's lines, each numbered before a "|" gutter, the ">" at the failing one (jest's, babel's code
    // frame: "> 3 | test('low tide', …)"): no list.
    if (/^\d+ \|/.test(line.slice(textCol)) && [row - 1, row + 1].some((r) => /^\s*\d+ \|/.test(lines[r] ?? "")))
      continue;
    if (sourceListing(lines, row, textCol)) continue;
    // Rows indented past the items' text are an item's description wrapped (claude's /model): stepped over.
    const more = (r: number) => lines[r]!.slice(0, textCol + 2).trim() === "" && lines[r]!.trim() !== "";
    let last = row;
    for (let r = row + 1; r < view.rows; r++) {
      if (fits(r)) last = r;
      else if (!more(r) && !(separator(r) && fits(r + 1))) break;
    }
    // The same mark again right past the rows is a bullet list (qwen's "●︎ Extensions changed…" over
    // its wrapped line, then "●︎ Read context files"), not a selection.
    const mark = match[2]!;
    if (
      mark === "●" &&
      [first - 1, last + 1].some(
        (r) => r >= 0 && r < view.rows && lines[r]![markerCol] === mark && lines[r]!.slice(0, markerCol).trim() === "",
      )
    )
      continue;
    // A first row above the selected one in an ink no other row has, the others sharing one, is the
    // list's heading (gemini's "Apply To" over "● User Settings", "Workspace Settings").
    const inkAt = (r: number) => view.ink(r, textCol);
    const rest = Array.from({ length: last - first }, (_, i) => first + 1 + i).filter((r) => r !== row && fits(r));
    // (Not right under a prompt library's question, which is the list's heading: bun's "? Select a React template"
    // over "Default (blank)", each item in an ink of its own.)
    const asked = first > 0 && PROMPT_QUESTION.test(lines[first - 1]!);
    if (
      first < row &&
      !asked &&
      rest.length >= 1 &&
      new Set(rest.map(inkAt)).size === 1 &&
      inkAt(first) !== inkAt(rest[0]!)
    )
      first++;
    // One item is a list too when it is numbered (qwen's picker with one model: "› 1. fake-model").
    // (Or the one match under the field that filters it, the cursor there: clack's autocomplete.)
    // (Its marker in an ink of its own: not inquirer's red "> Please enter a number" under its field.)
    const inked = view.ink(row, markerCol) !== view.ink(row, textCol);
    // (Or under a search box's bottom edge: claude's "❯ Add a new rule…" under its "⌕ Search…".)
    const boxedField =
      row >= 3 &&
      /^\s*[╰└]─+[╯┘]\s*$/.test(view.flat[row - 1]!) &&
      !view.free(row - 2, view.flat[row - 1]!.search(/\S/) + 1, view.flat[row - 1]!.trimEnd().length - 1);
    const filtered =
      ((view.cursor.visible && view.cursor.row === row - 1 && !view.free(row - 1, 0, view.cols)) || boxedField) &&
      inked;
    // (Or one item with a tag, under the question it answers, the cursor hidden and nothing under it: a prompt
    // library's select that offers one choice, hanji's "❯ + piers create table" under "Is piers table created …?".)
    const alone =
      !view.cursor.visible &&
      row > 0 &&
      /\?\s*$/.test(lines[row - 1]!) &&
      tagAt(view, row, textCol) &&
      lines.slice(row + 1).every((l) => !l.trim());
    if (last === first && !/^\d{1,2}[.)] /.test(view.text(row, textCol, textCol + 4)) && !filtered && !alone) continue;
    const items: Omit<Item, "ref">[] = [];
    for (let r = first; r <= last; r++) {
      if (r !== row && !fits(r)) continue;
      const text = view.text(r, textCol, view.cols).replace(/[\s│┃║]+$/, "");
      // "1. GPT-6.1-Sol    Latest workhorse…": the number is the key, a column after two blanks a description.
      // A mark after the name (claude's ✔ on the current model, codex's "(current)") is not part of it.
      // (A record whose first field is a figure, fzf's "230   pg     postgres -D …", is read whole.)
      const [, key, name] = /^\d+\s{2,}\S/.test(text.trim())
        ? [undefined, undefined, clean(text)]
        : NUMBERED_ROW.exec(text.trim())!;
      const checked = r !== row ? view.char(r, textCol - 1) !== " " : match[3] !== undefined;
      // A last word in another colour than the name's first (qwen's dim "Light" after "Qwen Light") is a column of its
      // own.
      const at = view.flat[r]!.indexOf(name!, textCol);
      const lastWord = / (\S+)$/.exec(name!);
      const ink = (col: number) => view.ink(r, col);
      // (Only when drawn in the list's chrome, its frame's ink: gemini's theme names are each in colours of their own.)
      const chrome = new Set([...view.flat[r]!].flatMap((ch, col) => ("│┃║".includes(ch) ? [ink(col)] : [])));
      // (A dim hint in parentheses after it, clack's "fastify (fast)", is not part of it either.)
      const hint = /\s+\([^)]*\)$/.exec(name!);
      const dimHint =
        at >= 0 && hint && view.has(r, at + hint.index + 1, CellFlag.dim) && !view.has(r, at, CellFlag.dim);
      const label = dimHint
        ? name!.slice(0, hint!.index)
        : at >= 0 && lastWord && ink(at + lastWord.index! + 1) !== ink(at) && chrome.has(ink(at + lastWord.index! + 1))
          ? name!.slice(0, lastWord.index)
          : name!;
      items.push({
        label,
        row: r,
        col: textCol,
        width: text.length,
        ...(key ? { key } : {}),
        ...(r === row ? { selected: true } : {}),
        ...(checked ? { checked } : {}),
      });
    }
    // Every item a sign in an ink of its own, then its name, then what it does in one other ink (hanji's "+ harbour
    // create column", "~ place › harbour rename column"): the name alone is the label, as the item reads when answered.
    if (items.every((i) => tagAt(view, i.row, i.col))) cutTagAndDescription(view, items);
    // Every item a tag in brackets, then what it does (testdisk's "[ Geometry ] Change disk geometry"): the tag is its
    // key, what it does its label (as whiptail's tag and item).
    const drawn = (i: Omit<Item, "ref">) => view.text(i.row, i.col, view.cols).trim();
    if (tagged && items.length >= 2 && items.every((i) => TAG_ROW.test(drawn(i))))
      for (const i of items) {
        const [, tag, label] = TAG_ROW.exec(drawn(i))!;
        [i.key, i.label] = [tag!.trim(), label!];
      }
    // Every item a name, " - ", then what it does (qwen's /approval-mode): the name is the label.
    else if (items.length >= 2 && items.every((i) => / - \S/.test(i.label)))
      for (const i of items) i.label = i.label.slice(0, i.label.indexOf(" - "));
    else cutFocusDescription(view, items);
    // Every name with a colon after it, its description cut (commitizen's "docs:     Documentation only changes"):
    // the colon parts name from description, no part of the name.
    if (items.length >= 2 && items.every((i) => /^[\w-]+:$/.test(i.label)))
      for (const i of items) i.label = i.label.slice(0, -1);
    const width = Math.max(...items.map((i) => i.col + i.width)) - markerCol;
    out.push({ kind: "menu", row: first, col: markerCol, width, height: last - first + 1, items });
    view.use(first, markerCol, width, last - first + 1);
    row = last;
  }
  return out;
}

/** A sign, a blank, then a word in another ink than the sign's, at `col`: hanji's green "+" before "harbour". */
function tagAt(view: View, row: number, col: number): boolean {
  return (
    /^[^\p{L}\p{N}\s] \S/u.test(view.text(row, col, col + 3)) &&
    !"([{<|│".includes(view.char(row, col)) &&
    view.ink(row, col) !== view.ink(row, col + 2)
  );
}

/**
 * The items' signs cut from their labels, and a description after the name in one ink none of the names has (the
 * same on every item that shows one): what stays is the name.
 */
function cutTagAndDescription(view: View, items: Omit<Item, "ref">[]): void {
  const cuts = items.map((i) => {
    const at = view.flat[i.row]!.indexOf(i.label, i.col);
    if (at !== i.col) return undefined;
    const name = view.ink(i.row, i.col + 2);
    // The last word boundary from which every drawn cell to the end is in one ink, not the name's.
    let cut: number | undefined;
    for (let k = i.label.length - 1; k > 2; k--) {
      const ch = i.label[k]!;
      if (ch === " ") {
        if (i.label[k - 1] !== " ") cut = k;
        continue;
      }
      const ink = view.ink(i.row, at + k);
      if (ink === name) break;
      if (cut !== undefined && ink !== view.ink(i.row, at + cut + 1)) {
        cut = undefined;
        break;
      }
    }
    return cut === undefined ? undefined : { cut, ink: view.ink(i.row, at + cut + 1) };
  });
  const inks = new Set(cuts.flatMap((c) => (c ? [c.ink] : [])));
  items.forEach((item, n) => {
    const c = cuts[n];
    if (inks.size === 1 && c && view.ink(item.row, item.col + 2) !== c.ink) item.label = item.label.slice(0, c.cut);
    item.label = item.label.slice(2).trim();
  });
}

/**
 * A prompt library's list with neither marker nor bar (enquirer's autocomplete): rows from one
 * column under its "? Question" row, one of them drawn in a style (underline, colour) none of the
 * others has, which is the selected one.
 */
export function styleMenus(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 0; row + 2 < view.rows; row++) {
    if (!/^[?◆◇] \S/.test(view.flat[row]!) || !view.free(row + 1, 0, view.cols)) continue;
    // (A question's row is no item: answered ones one under another, "? Component kind widget", are history.)
    const asks = (r: number) => /^[?◆◇] \S/.test(view.flat[r]!);
    if (asks(row + 1)) continue;
    // Rows start in one column; a mark in the margin before one (enquirer's sort: "≡ 3 - test") is not its text.
    const startOf = (r: number) => {
      const m = /^(\s*(?:[^\s\p{L}\p{N}] +)?)\S/u.exec(view.flat[r]!);
      return m ? m[1]!.length : -1;
    };
    const col = view.flat[row + 1]!.search(/\S/);
    if (col < 0) continue;
    let last = row + 1;
    while (
      last + 1 < view.rows &&
      (view.flat[last + 1]!.search(/\S/) === col || startOf(last + 1) === col) &&
      !asks(last + 1) &&
      view.free(last + 1, 0, view.cols)
    )
      last++;
    const rows = Array.from({ length: last - row }, (_, i) => row + 1 + i);
    if (rows.length < 3) continue;
    // Each row's look past what the rows share at their start (the typed filter's matches, "Eur").
    const look = (r: number) => {
      const text = view.flat[r]!.trimEnd();
      return view.spanStyle(r, Math.min(col + 3, text.length - 1), text.length);
    };
    const looks = rows.map(look);
    const lone = drawnApart(rows, looks);
    if (lone.length !== 1 || new Set(looks).size !== 2) continue;
    // "1 - lint": the number is its key.
    const items = rows.map((r) => {
      const text = view.flat[r]!.slice(col).trim();
      const numbered = /^(\d{1,2}) - (\S.*)$/.exec(text);
      return {
        label: numbered ? numbered[2]! : text,
        row: r,
        col,
        width: view.flat[r]!.trimEnd().length - col,
        ...(numbered ? { key: numbered[1]! } : {}),
        ...(r === lone[0] ? { selected: true } : {}),
      };
    });
    out.push({
      kind: "menu",
      row: row + 1,
      col,
      width: Math.max(...items.map((i) => i.width)),
      height: rows.length,
      items,
    });
    view.use(row + 1, 0, view.cols, rows.length);
    row = last;
  }
  return out;
}

/** A row of a frame, not a list's: only box characters, or one at its edge (a tree's "├─>" in a row is not). */
const frameRow = (text: string): boolean =>
  BOX_CHARS.test(text) && (!/[\p{L}\p{N}]/u.test(text) || /^\s*[│┃║┌┐└┘├┤╭╮╰╯]|[│┃║┌┐└┘├┤╭╮╰╯]\s*$/.test(text));

/**
 * An item's text as a list shows it: a "(3)" before it is its key (tmux's choose-tree), a tree's
 * guides ("├─> ", "--- ", "+ ") and expanders ("[+] ", "[-] ": gowid's tree) are not part of it, nor a single hot key
 * after it (aptitude's "  g").
 */
function treeItem(text: string): { label: string; key?: string } {
  let rest = clean(text);
  let key: string | undefined;
  const numbered = /^\((\d{1,3})\)\s+/.exec(rest);
  if (numbered) [key, rest] = [numbered[1], rest.slice(numbered[0].length)];
  rest = rest.replace(/^(?:[├└│─>\\|`-]{2,}\s|[+-]\s|\[[+-]\]\s|\*(?=\S))/, "");
  const hot =
    /\s([a-zA-Z])$/.exec(text.trimEnd()) && /\s{2,}[a-zA-Z]$/.test(text.trimEnd())
      ? /\s([a-zA-Z])$/.exec(text.trimEnd())
      : null;
  if (hot && !key) [key, rest] = [hot[1], rest.slice(0, -2).trim()];
  return { label: rest, ...(key ? { key } : {}) };
}

/**
 * Lists outside boxes whose selected row is a bar: a span on its own background (reverse video or
 * colour) the rows above and below lack, with items over the same columns starting where its text
 * does (tig's commits, ranger's columns). A bar without neighbours is a one-item list only when it
 * shares its row with other bars (ranger's preview column) and heads nothing found (htop's
 * "For current screen tab" over its checkboxes).
 */
export function barMenus(view: View, boxes: Box[]): Found[] {
  const bars: { row: number; start: number; end: number }[] = [];
  for (let row = 0; row < view.rows; row++) {
    for (let col = 0; col < view.cols; ) {
      const bg = view.background(row, col);
      let end = col + 1;
      while (end < view.cols && view.background(row, end) === bg) end++;
      // (A neighbour already read as another element, mutt's help bar over its index, does not count.)
      const differs = (r: number) =>
        r < 0 ||
        r >= view.rows ||
        (view.background(r, col) !== bg && view.background(r, end - 1) !== bg) ||
        !view.free(r, col, end);
      // (Nor a diff's line on its colour, "2 +  console.log(…)", beside another: each is on a colour of its own.)
      const diffLine = (r: number) =>
        r >= 0 &&
        r < view.rows &&
        /^\s*(?:\d+\s+)?[-+](?:\s|$)/.test(view.text(r, col, end)) &&
        view.background(r, col) !== "0";
      // A short one in reverse over a name alone (nnn's "src") counts too, if a list is around it (below).
      const wide = end - col >= 8 && view.char(row, end - 1) === " ";
      // (Not a word of a sentence, a search hit: "- buy milk".)
      const word =
        bg.startsWith("i") &&
        end - col >= 2 &&
        view.char(row, col).trim() !== "" &&
        view.char(row, col - 1).trim() === "" &&
        /^[\s/]?$/.test(view.char(row, end)) &&
        !/^ \p{L}/u.test(view.text(row, end, end + 2));
      if (
        bg !== "0" &&
        bg !== view.backdrop &&
        (wide || word) &&
        view.text(row, col, end).trim() &&
        !VERTICAL.includes(view.char(row, col - 1)) &&
        differs(row - 1) &&
        differs(row + 1) &&
        !(diffLine(row) && (diffLine(row - 1) || diffLine(row + 1))) &&
        view.free(row, col, end) &&
        !boxAround(boxes, row, col) &&
        // (Nor the rest of a tab strip, a bar that starts where a tab on another colour ends: lnav's " Syntax Help "
        // then its bar across the row.)
        !(col > 0 && end === view.cols && view.background(row, col - 1) !== view.backdrop)
      )
        bars.push({
          row,
          start: col,
          end: wide ? end : Math.max(end, col + view.text(row, col, view.cols).search(/\s{2,}|\s*$/)),
        });
      col = end;
    }
  }
  // A bar at the top of a list that holds another bar of its own colour is the list's heading
  // (htop's "Categories" over its selected "Display options", "Sort by" over "PERCENT_CPU"): a list
  // has one selected row.
  const lead = (r: number, start: number, end: number) => view.text(r, start, end).search(/\S/);
  const over = (a: { row: number; start: number; end: number }, b: { row: number; start: number; end: number }) => {
    if (
      b.row <= a.row ||
      b.start >= a.end ||
      a.start >= b.end ||
      view.background(a.row, a.start) === view.background(b.row, b.start)
    )
      return false;
    for (let r = a.row + 1; r < b.row; r++) if (lead(r, a.start, a.end) !== lead(a.row, a.start, a.end)) return false;
    return true;
  };
  // (Not when its colour goes on under the other bar: that is the list's own rows, emacs's drop-down.)
  const again = (a: { row: number; start: number }, b: { row: number }) =>
    b.row + 1 < view.rows && view.background(b.row + 1, a.start) === view.background(a.row, a.start);
  const headings = new Set(bars.filter((a) => bars.some((b) => over(a, b) && !again(a, b))).map((a) => a.row));
  // A bar across the screen in the colour of bars read already as a table's header or a status (dselect's access
  // list: "Access method 'media'." over its description, on the blue of the "Abbrev.  Description" header and the
  // "Explanation" bar) is a pane's title in the screen's chrome, no list's selected row.
  const chrome = (r: number) => {
    const bg = view.background(r, 0);
    const across = (o: number) => {
      let n = 0;
      for (let col = 0; col < view.cols; col++) if (view.background(o, col) === bg) n++;
      return n >= view.cols * 0.9;
    };
    return (
      across(r) &&
      view.flat.filter((_, o) => o !== r && Math.abs(o - r) > 1 && across(o) && !view.free(o, 0, view.cols)).length >= 2
    );
  };
  // (Over one row at most, a blank row under it: a list's rows go on around its selected one, mutt's under its bars.)
  const run = (r: number) => {
    let [a, b] = [r, r];
    while (a > 0 && view.flat[a - 1]!.trim()) a--;
    while (b + 1 < view.rows && view.flat[b + 1]!.trim()) b++;
    return b - a + 1;
  };
  for (const bar of bars)
    if (bar.start === 0 && bar.end - bar.start >= view.cols * 0.9 && run(bar.row) <= 2 && chrome(bar.row))
      headings.add(bar.row);
  const out: Found[] = [];
  for (const bar of bars) {
    const { row, start, end } = bar;
    if (headings.has(row)) continue;
    const lead = (r: number) => view.text(r, start, end).search(/\S/);
    // A mark before the selected row's name (opencode's "● Fake model", the current one) stands left of the names.
    // (Or dselect's "*" before its lit item's number, " * 0. [A]ccess" over "   1. [U]pdate".)
    const marked = /^\s*[●•✓✔*] (?=\S)/.exec(view.text(row, start, end));
    const textCol = marked ? marked[0].length : lead(row);
    // Beside a gutter of line numbers counting up (micro's "1 first line"), it is an editor's current line.
    const number = (r: number) =>
      r >= 0 && r < view.rows && start > 0 ? /^\s*(\d+)\s*$/.exec(view.text(r, 0, start))?.[1] : undefined;
    const numbered = (r: number) => number(r) !== undefined && Number(number(r)) === Number(number(row)) + r - row;
    if (numbered(row + 1) && (numbered(row - 1) || numbered(row + 2))) continue;
    // (A mark before the selected row's name, vifm's "*", shifts it by one, as do numbers right-aligned: htop's " 9
    // SIGKILL" over "15 SIGTERM".)
    // A pop-up's rows share a background of their own (vim's completion menu over the text): the list is those rows.
    // (Not a heading across panes over it, its row barred beside: htop's "Categories" by "Display options".)
    const paneHeading = (r: number) => headings.has(r) && bars.filter((b) => b.row === r).length >= 2;
    const popup = [row - 1, row + 1]
      .filter((r) => r >= 0 && r < view.rows && !paneHeading(r))
      .map((r) => {
        // (Floating: its colour stops where the bar does.)
        const b = view.spanBackground(r, start, end);
        const [left, right] = [
          start === 0 || view.background(r, start - 1) !== b,
          end === view.cols || view.background(r, end) !== b,
        ];
        return left && right && (start > 0 || end < view.cols) ? b : undefined;
      })
      .find((b) => b !== undefined && b !== "0" && b !== view.backdrop && b !== view.background(row, start));
    // (A row with that mark, the current one when another is selected, has its name at the names' column.)
    const named = (r: number) => /^\s*[●•✓✔*] (?=\S)/.exec(view.text(r, start, end))?.[0].length ?? lead(r);
    const figureEnd = (r: number) => /^\s*\d+(?:[.,]\d+)?(?=\s)/.exec(view.text(r, start, end))?.[0].length ?? -1;
    const fits = (r: number) =>
      r >= 0 &&
      r < view.rows &&
      !headings.has(r) &&
      (popup === undefined || view.spanBackground(r, start, end) === popup) &&
      view.free(r, start, end) &&
      !/^\s*(?:[-─━=▀▄]{5,}|[▲▼↑↓]|\(\d+\/\d+\))\s*$/.test(view.text(r, start, end)) &&
      lead(r) >= 0 &&
      (Math.abs(named(r) - textCol) <=
        (/[*+]/.test(view.char(row, start + textCol)) ||
        (/\d/.test(view.char(row, start + textCol)) && /\d/.test(view.char(r, start + lead(r))))
          ? 1
          : 0) ||
        // (Figures right-aligned, ending in one column: gdu's "    2.9 MiB" over "  496.0 KiB".)
        (figureEnd(r) > 0 && figureEnd(r) === figureEnd(row))) &&
      !frameRow(view.text(r, start, end)) &&
      view.spanBackground(r, start, end) !== view.background(row, start);
    let [first, last] = [row, row];
    while (fits(first - 1)) first--;
    while (fits(last + 1)) last++;
    // Items a blank row apart (alpine's main menu), three or more.
    let step = 1;
    const blankRow = (r: number) => r >= 0 && r < view.rows && view.text(r, start, end).trim() === "";
    if (first === last) {
      let [above, below] = [row, row];
      while (blankRow(above - 1) && fits(above - 2)) above -= 2;
      while (blankRow(below + 1) && fits(below + 2)) below += 2;
      if (below - above >= 4) [first, last, step] = [above, below, 2];
    }
    // A first row above the bar, bold in a style no other row has, is a heading (opencode's "Suggested").
    const style = (r: number) => view.spanStyle(r, start, end);
    const boldAt = (r: number) => view.has(r, start + lead(r), CellFlag.bold);
    // (Not one drawn in the selected row's own colour: nnn's folders, bold blue, the selected one among them.)
    const sameInk = (a: number, b: number) => view.ink(a, start + lead(a)) === view.ink(b, start + lead(b));
    // Groups a blank row apart, each under its heading (opencode's model picker: "Fake" over "● Fake
    // model", a blank row, "Google" over its models): one list across them, headings not its items.
    const heading = (r: number) => r !== row && fits(r) && boldAt(r) && !sameInk(r, row) && !boldAt(row);
    const headed = new Set<number>();
    if (step === 1) {
      for (;;) {
        if (blankRow(first - 1) && fits(first - 2) && (heading(first) || heading(first - 2))) first -= 2;
        else if (blankRow(last + 1) && fits(last + 2) && (heading(last + 2) || heading(last))) last += 2;
        else break;
        while (fits(first - 1)) first--;
        while (fits(last + 1)) last++;
      }
      for (let r = first; r <= last; r++) if (heading(r) || blankRow(r)) headed.add(r);
      // (Bold rows one under another are items drawn alike, not headings: a file manager's folders, lf's "docs"
      // over "src" above its lit file.)
      const stacked = [...headed].some((r) => !blankRow(r) && headed.has(r + 1) && !blankRow(r + 1));
      if (headed.size && !stacked && [...headed].some((r) => !blankRow(r))) while (headed.has(first)) first++;
      else headed.clear();
    }
    const others = Array.from({ length: last - first }, (_, i) => first + 1 + i)
      .filter((r) => r !== row)
      .map(style);
    // (Not one opening with a figure right-aligned with the selected row's: an item, gdu's "    2.9 MiB […]".)
    if (
      first < row &&
      boldAt(first) &&
      others.length &&
      !others.includes(style(first)) &&
      !sameInk(first, row) &&
      !(figureEnd(first) > 0 && figureEnd(first) === figureEnd(row))
    )
      first++;
    // So is a first row that ends in a colon (htop's "Send signal:").
    else if (first < row && /:$/.test(view.text(first, start, end).trim())) first++;
    if (
      first === last &&
      (!bars.some((other) => other !== bar && other.row === row) ||
        (row + 1 < view.rows && !view.free(row + 1, start, end)))
    )
      continue;
    // A short bar is a list's only with neighbours enough to be one.
    if (end - start < 8 && last - first < 2) continue;
    // The bar over a name alone (nnn's) spans the list's longest name.
    const right =
      end - start < 8
        ? Math.max(
            end,
            ...Array.from(
              { length: last - first + 1 },
              (_, i) => start + view.text(first + i, start, view.cols).search(/\s{2,}|\s*$/),
            ),
          )
        : end;
    // Its colour again in the list: this bar is one of its rows, another is the selected one (emacs's drop-down).
    const alike = (r: number) =>
      r >= 0 &&
      r < view.rows &&
      r !== row &&
      view.background(r, start) === view.background(row, start) &&
      lead(r) === textCol &&
      view.background(r, end - 1) === view.background(row, end - 1);
    if (last - first >= 1 && (alike(first - 1) || alike(last + 1))) continue;
    const items: Omit<Item, "ref">[] = [];
    const itemRows = Array.from({ length: last - first + 1 }, (_, i) => first + i).filter(
      (r) => (r - first) % step === 0 && !headed.has(r),
    );
    const states = stateMarks(itemRows.map((r) => view.text(r, start, right)));
    for (let r = first; r <= last; r += step) {
      if (headed.has(r)) continue;
      // A figure or key right-aligned at the list's edge (ranger's sizes, opencode's "ctrl+x l") is not part of the
      // name.
      const drawn = view.text(r, start, right).trimEnd();
      const text = drawn.slice(states);
      const name = right - (start + drawn.length) <= 4 ? text.replace(/\s{2,}\S+(?: \S+)?$/, "") : text;
      // "A     ADDRESS BOOK       -  Update address book": a key, the name, a dash, what it does.
      const described = /^\s*(\S)\s{2,}(\S.*?)\s{2,}-\s+\S/.exec(text);
      const mark = /^\s*[●•✓✔*] (?=\S)/.exec(name);
      const { label, key } = described
        ? { label: described[2]!, key: described[1]!.toLowerCase() }
        : treeItem(mark && (r === row ? marked : named(r) === textCol) ? name.replace(mark[0], "") : name);
      items.push({
        label,
        row: r,
        col: start,
        width: right - start,
        ...(key ? { key } : {}),
        ...(r === row ? { selected: true } : {}),
      });
    }
    // Every item numbered ("15 SIGTERM", dselect's "0. [A]ccess"): the number is its key; not a record's first field,
    // columns following it (mutt's "2 N   Jan 02 Alice 2   (1) Report…", a message number: it is typed to jump, not
    // to pick).
    const record = (label: string) => label.split(" ").length > 4;
    // (dselect's items are numbered "0." and go on in a column of sentences: no record.)
    const numberedAt = (label: string) => /^\d{1,3}\.? (?=\S)/.exec(label)?.[0].length ?? 0;
    const allNumbered =
      items.length >= 3 &&
      items.every((i) => numberedAt(i.label) && !i.key) &&
      (!items.every((i) => record(i.label)) || items.every((i) => /^\d+\./.test(i.label)));
    const texts = new Map<Omit<Item, "ref">, string>();
    if (allNumbered) {
      for (const i of items) {
        const at = numberedAt(i.label);
        [i.key, i.label] = [/^\d+/.exec(i.label)![0], i.label.slice(at)];
        // (What follows the number as drawn, its blanks kept: the column of sentences is told by them.)
        const raw = view
          .text(i.row, start, right)
          .trim()
          .replace(/^[●•✓✔*] /, "");
        texts.set(i, raw.slice(numberedAt(raw)));
      }
    }
    // Names in one column, each then what it does in a column of sentences (gemini's slash commands:
    // "compress         Compresses the context…"): the name is the label.
    const sentences = items.map((i) =>
      i.key && !texts.has(i)
        ? null
        : /^(\S{2,})(\s{2,})(\S+(?: \S+)*)$/.exec(texts.get(i) ?? view.text(i.row, start, right).trim()),
    );
    const column = (i: number) => sentences[i]![1]!.length + sentences[i]![2]!.length;
    if (
      items.length >= 3 &&
      sentences.every((d, i) => d && column(i) === column(0)) &&
      sentences.filter((d) => d![3]!.split(" ").length >= 3).length > items.length / 2
    ) {
      items.forEach((item, i) => (item.label = sentences[i]![1]!));
    }
    // (A source listing's lit line and the next, each after its number and a gutter's bar: no menu.)
    if (gutterNumbered(view, first, last, start)) continue;
    out.push({ kind: "menu", row: first, col: start, width: right - start, height: last - first + 1, items });
    view.use(first, start, right - start, last - first + 1);
  }
  return out;
}

/**
 * A state mark before every item's name (`STATE_MARK`: turbo's "»  tides#dev" running over "✓  tides#build" done):
 * one sign, no letter or digit, at one column on every row, the names after it at one column. Where the names
 * start (what to cut from each row), or 0 when the rows show no such marks.
 */
function stateMarks(texts: string[]): number {
  const marks = texts.map((t) => STATE_MARK.exec(t));
  if (texts.length < 2 || marks.some((m) => !m)) return 0;
  const at = marks[0]![0].length;
  return marks.every((m) => m![0].length === at && m![1]!.length === marks[0]![1]!.length) ? at : 0;
}
/** One sign, no letter, digit, bracket or tree guide, then blanks, before a name. */
const STATE_MARK = /^(\s*)[^\s\p{L}\p{N}[\](){}<>|│├└─+-](?:\s+)(?=\S)/u;

/**
 * A row of single words one blank apart, one alone in reverse, the terminal's cursor hidden at that row (smenu's
 * "staging production canary …" under its "Deploy to which environment?"): a menu of the words. (A word lit in a
 * sentence, a search hit, has the cursor elsewhere or shown.)
 */
function wordRow(view: View): Found[] {
  const { cursor } = view.grid;
  if (cursor.visible) return [];
  const row = cursor.row;
  const line = view.flat[row]!;
  const words = [...line.matchAll(/\S+/g)];
  if (words.length < 3 || !view.free(row, 0, view.cols) || /\S {2,}\S/.test(line.trim())) return [];
  if (!words.every((w) => /^[\p{L}\p{N}][\p{L}\p{N}._/-]*$/u.test(w[0]))) return [];
  const lit = words.filter((w) => {
    const [from, to] = [w.index!, w.index! + w[0].length];
    for (let col = from; col < to; col++) if (!view.has(row, col, CellFlag.inverse)) return false;
    return !view.has(row, from - 1, CellFlag.inverse) && !view.has(row, to, CellFlag.inverse);
  });
  const reversed = [...line].filter((_, col) => view.has(row, col, CellFlag.inverse)).length;
  if (lit.length !== 1 || reversed !== lit[0]![0].length) return [];
  const items: Omit<Item, "ref">[] = words.map((w) => ({
    label: w[0],
    row,
    col: w.index!,
    width: w[0].length,
    ...(w === lit[0] ? { selected: true } : {}),
  }));
  const col = words[0]!.index!;
  const width = line.trimEnd().length - col;
  view.use(row, col, width);
  return [{ kind: "menu", row, col, width, height: 1, items }];
}

/**
 * whiptail pads its tags to the longest and one blank ("es Spanish" over "fi Finnish"): the column
 * where every row's description starts after a one-word tag, when the tags' lengths differ (the
 * padding shows) or all are short lowercase codes. Undefined when the rows show no such column.
 */
function tagColumn(texts: string[]): number | undefined {
  const tags = texts.map((t) => /^(\s*)(\S{1,12})( +)\S/.exec(t));
  if (texts.length < 2 || tags.some((m) => !m)) return undefined;
  const at = tags[0]![0].length - 1;
  if (tags.some((m) => m![0].length - 1 !== at)) return undefined;
  const lengths = new Set(tags.map((m) => m![2]!.length));
  const padded = lengths.size > 1 && tags.some((m) => m![3] === " ");
  // (A capital alone is a hot key too: wordgrinder's "F File ▷" over "E Edit ▷".)
  return padded || tags.every((m) => /^(?:[a-z0-9]{1,4}|[A-Z])$/.test(m![2]!) && m![3] === " ") ? at : undefined;
}

/**
 * A state column at a list's right edge (`STATE_WORD`: mprocs's "tide-logger             UP" over "buoy-check
 * DOWN"): every row a name, two blanks or more, then one word ending at the same column as every other row's, the
 * words repeating or all in capitals: each row's state, not its label (a tag's item, whiptail's, is a sentence of
 * its own, left-aligned).
 */
function stateColumn(texts: string[]): boolean {
  const rows = texts.map((t) => STATE_ROW.exec(t.trimEnd()));
  if (texts.length < 2 || rows.some((m) => !m)) return false;
  const ends = new Set(texts.map((t) => t.trimEnd().length));
  const words = rows.map((m) => m![2]!);
  return ends.size === 1 && (new Set(words).size < words.length || words.every((w) => STATE_WORD.test(w)));
}
/**
 * Commands, one a row, each a name of one word in a column, what it does in the next column from one column on (a
 * blank before it on every row), maybe its key right-aligned at the list's edge (`KEY_AT_EDGE`: mprocs's palette,
 * "quit                Quit                              q" over "close-current-modal Close current modal"): the name
 * is the label, the key the item's key. Three rows or more, a name longer than a tag (13 characters or more: a tag
 * column is read by tagColumn) on one of them at least.
 */
function commandColumns(texts: string[]): { at: number; keys: (string | undefined)[] } | undefined {
  if (texts.length < 3) return undefined;
  const start = texts[0]!.search(/\S/);
  if (start < 0 || texts.some((t) => t.search(/\S/) !== start)) return undefined;
  const width = Math.max(...texts.map((t) => t.trimEnd().length));
  let at = -1;
  for (let col = start + 2; col < width && at < 0; col++)
    if (texts.every((t) => t[col - 1] === " " && /\S/.test(t[col] ?? "") && !/\s/.test(t.slice(start, col).trim())))
      at = col;
  if (at < 0 || !texts.some((t) => t.slice(start, at).trim().length >= 13)) return undefined;
  const ends = texts.map((t) => t.trimEnd().length);
  const edge = Math.max(...ends);
  const keys = texts.map((t, i) => (ends[i] === edge ? KEY_AT_EDGE.exec(t.trimEnd().slice(at))?.[1] : undefined));
  return { at, keys };
}
/** A key right-aligned after what a command does, two blanks or more before it: "q", "C-a", "^X", "F10". */
const KEY_AT_EDGE = /\S\s{2,}((?:[CMSA]-\S|\^\S|F\d{1,2}|\S))$/;

/** A name, two blanks or more, then one word (a state). */
const STATE_ROW = /^\s*(\S.*?)\s{2,}(\S+)$/;
/** A state in capitals: "UP", "DOWN", "RUNNING", "OK". */
const STATE_WORD = /^\p{Lu}{2,10}$/u;

/** A drop-down's row: its shortcut (maybe none) right-aligned before a bar, then its name ("Ctrl-L| Refresh"). */
const KEY_BAR_ROW = /^(\s*)(\S{0,12})\| (\S.*?)\s*$/;

/**
 * A drop-down whose rows each hold a shortcut, a "|" in one column, then the entry's name, rule rows between groups
 * (gowid's menus: "Ctrl-L| Refresh Screen" over "     d| Toggle Dark Mode"): a menu over the box's inner width, each
 * shortcut its item's key, the entry drawn on a background of its own selected.
 */
export function keyBarMenus(view: View, boxes: Box[]): Found[] {
  const out: Found[] = [];
  for (const box of boxes) {
    const left = box.left + 1;
    const right = box.right;
    if (right - left < 6 || box.bottom - box.top < 2) continue;
    const items: Omit<Item, "ref">[] = [];
    let bar = -1;
    let fits = true;
    let first = -1;
    let last = -1;
    for (let row = box.top + 1; row < box.bottom && fits; row++) {
      const text = view.text(row, left, right);
      if (/^[─━═]+$/.test(text.trim()) || !text.trim()) continue;
      if (!view.free(row, left, right)) {
        fits = false;
        break;
      }
      const match = KEY_BAR_ROW.exec(text);
      const at = match ? match[1]!.length + match[2]!.length : -1;
      if (!match || (bar >= 0 && at !== bar)) {
        fits = false;
        break;
      }
      bar = at;
      if (first < 0) first = row;
      last = row;
      const nameCol = left + at + 2;
      const look = view.spanBackground(row, nameCol, nameCol + match[3]!.length);
      items.push({
        label: match[3]!,
        row,
        col: left,
        width: right - left,
        ...(match[2] ? { key: match[2] } : {}),
        ...(look !== view.background(row, left + at) ? { selected: true } : {}),
      });
    }
    if (!fits || items.length < 2 || items.filter((i) => i.selected).length > 1) continue;
    out.push({ kind: "menu", row: first, col: left, width: right - left, height: last - first + 1, items });
    view.use(box.top + 1, left, right - left, box.bottom - box.top - 1);
  }
  return out;
}

/** dialog/whiptail menus: rows in a box, one drawn highlighted; "tag  Label" rows give each a key. */
/** A tagged item's name without the shortcut far right of it (wordgrinder's "S Save document set   ^S"). */
function tagShortcut(rest: string): string {
  const parts = rest.split(/\s{2,}/);
  return parts.length === 2 && /^(?:\^\S|[CMSA]-\S|F\d{1,2})$/.test(parts[1]!) ? parts[0]! : rest;
}

/** A tree's guides before an item's name ("└─", "  ├─", ytree's; hte's "- "): no part of it. */
const TREE_GUIDES = /^(?:[│├└]─*\s*)+|^- (?=\S)/;

/** A radio's mark, the one chosen: lldb gui's "◆", "●", "◉". */
const RADIO_MARK = /^[◆●◉]$/u;

/**
 * Rows in a box inside another (a form's group), each opening at one column, one with a filled mark there, the others
 * with a blank before their name (lldb gui's "Attach By": "◆Name" over " PID"): a radio group, the marked one checked.
 * Pushes the radios and answers true; else nothing.
 */
function radioGroup(
  view: View,
  boxes: Box[],
  box: Box,
  rows: number[],
  inner: { start: number; end: number },
  out: Found[],
): boolean {
  if (!boxes.some((outer) => outer !== box && contains(outer, box))) return false;
  const texts = rows.map((r) => view.text(r, inner.start, inner.end));
  const at = Math.min(...texts.map((t) => t.search(/\S/)));
  const marked = texts.filter((t) => RADIO_MARK.test(t[at] ?? ""));
  const named = (t: string) => /^\p{L}/u.test(t.slice(at + 1));
  if (marked.length !== 1 || !texts.every((t) => (RADIO_MARK.test(t[at] ?? "") || t[at] === " ") && named(t)))
    return false;
  // (The one in reverse is the focus: selected.)
  const lit = rows.filter((r, i) =>
    view.spanStyle(r, inner.start + at + 1, inner.start + texts[i]!.trimEnd().length).includes("/i"),
  );
  for (const [i, r] of rows.entries())
    out.push({
      kind: "radio",
      row: r,
      col: inner.start,
      width: inner.end - inner.start,
      height: 1,
      label: texts[i]!.slice(at + 1).trim(),
      checked: RADIO_MARK.test(texts[i]![at]!),
      ...(lit.length === 1 ? { selected: lit[0] === r } : {}),
    });
  for (const r of rows) view.use(r, inner.start, inner.end - inner.start);
  return true;
}

/** White ink (palette 7) in a style, and the default ink it looks like. */
const WHITE = `/${packColour(ColourMode.palette, 7)}/`;
const DEFAULT_INK = `/${packColour(ColourMode.default, 0)}/`;

export function highlightMenus(view: View, boxes: Box[]): Found[] {
  const out: Found[] = [];
  for (const box of boxes.flatMap((b) => (/[┬┳╤╥╦]/.test(view.text(b.top, b.left, b.right)) ? panes(view, b) : [b]))) {
    // A frame whose top joins column rules ("┌────┬────┐") holds a table, its highlighted row one of it (pspg).
    if (box.bottom - box.top < 3 || /[┬┳╤╥╦]/.test(view.text(box.top, box.left + 1, box.right))) continue;
    const inner = { start: box.left + 1, end: box.right };
    // Runs of free non-blank rows inside the box.
    let row = box.top + 1;
    while (row < box.bottom) {
      const rows: number[] = [];
      // A rule between groups of items (├────┤: mc's drop-downs) does not end the list.
      // (Not under a field holding the cursor alone above it: a palette's filter line over its list, mprocs's "/".)
      const field = (r: number) => view.cursor.visible && view.cursor.row === r;
      const rule = (r: number) =>
        /^[─━═]+$/.test(view.text(r, inner.start, inner.end).trim()) &&
        rows.length > 0 &&
        !(rows.length === 1 && field(rows[0]!)) &&
        r + 1 < box.bottom &&
        view.free(r + 1, inner.start, inner.end);
      while (
        row < box.bottom &&
        ((view.free(row, inner.start, inner.end) && view.text(row, inner.start, inner.end).trim() !== "") || rule(row))
      ) {
        if (!rule(row)) rows.push(row);
        row++;
      }
      row++;
      if (rows.length < 2) continue;
      if (radioGroup(view, boxes, box, rows, inner, out)) continue;
      const lone = (looks: string[]) => rows.filter((_, i) => looks.filter((b) => b === looks[i]).length === 1);
      // The one row on a background of its own is the selected one, whatever its letters' colours
      // (debconf colours each item's hot key: "U" red, "S" blue, a tie); else the one drawn unlike the rest.
      const bgOnly = lone(
        rows.map((r) => {
          const t = view.text(r, inner.start, inner.end);
          return view.spanBackground(r, inner.start + t.search(/\S/), inner.start + t.trimEnd().length);
        }),
      );
      // (White letters and the default ones look alike: a row told only by that is not lit, blessed's first row of
      // pm2 monit's metrics drawn in the default colour over the others' white.)
      const odd =
        bgOnly.length === 1 && rows.length > 2
          ? bgOnly
          : lone(rows.map((r) => lineBackground(view, r, inner.start, inner.end).replace(WHITE, DEFAULT_INK)));
      const lead = rows.map((r) => view.text(r, inner.start, inner.end).search(/\S/));
      if (odd.length !== 1 && !(rows.length === 2 && odd.length === 2)) continue;
      if (new Set(lead).size > 2) continue;
      // A column rule down every row (mc's panel in its brief format, "│/jars   │ quinoa.txt") makes columns: a
      // table's, read later.
      // (All but a status row under them.)
      const ruled = [...view.text(rows[0]!, inner.start, inner.end)].some(
        (ch, i) =>
          VERTICAL.includes(ch) &&
          rows.filter((r) => VERTICAL.includes(view.char(r, inner.start + i))).length >= rows.length - 1 &&
          rows.length >= 3,
      );
      if (ruled) continue;
      // (Of two rows, the one on a background unlike the box's own, the other on it: pm2 monit's process list. Its
      // bar across the list, not a field's run: hte's drop-down under its caption.)
      const barred = (r: number) => {
        const bg = view.background(r, inner.start + view.text(r, inner.start, inner.end).search(/\S/));
        let n = 0;
        for (let c = inner.start; c < inner.end; c++) if (view.background(r, c) === bg) n++;
        return n >= inner.end - inner.start - 2;
      };
      // (Two rows of one shape, both opening with a letter or with the same sign: not a heading bar over a value,
      // goaccess's " Log Format - [c] …" over "%h %^[%d:%t %^] …".)
      const alike = () => {
        const [a, b] = rows.map((r) => view.text(r, inner.start, inner.end).trim()[0] ?? "");
        return a === b || (/\p{L}/u.test(a!) && /\p{L}/u.test(b!));
      };
      const boxBg = rows.includes(box.bottom - 1) ? undefined : view.background(box.bottom - 1, inner.end - 1);
      const onOwn = rows.filter((r) => {
        const t = view.text(r, inner.start, inner.end);
        return view.spanBackground(r, inner.start + t.search(/\S/), inner.start + t.trimEnd().length) !== boxBg;
      });
      const selectedRow =
        odd.length === 1
          ? odd[0]!
          : (rows.find((r) => view.spanStyle(r, inner.start, inner.end).includes("/i")) ??
            (rows.length === 2 && boxBg !== undefined && onOwn.length === 1 && barred(onOwn[0]!) && alike()
              ? onOwn[0]
              : undefined));
      if (selectedRow === undefined) continue;
      // (The lit row first and set out left of every other row, those all at one indent: a section's heading over its
      // lines, bmon's help "Navigation" over "  Up, Down      Previous/Next element": no menu.)
      // (Opening with a letter, two columns out at least: a tree's root, "└─/tmp", or a lit mark, "•tide", is a row.)
      const heading =
        rows[0] === selectedRow &&
        rows.length >= 3 &&
        /^\p{L}/u.test(view.text(rows[0]!, inner.start, inner.end).trim()) &&
        lead.slice(1).every((l) => l === lead[1]! && l >= lead[0]! + 2);
      if (heading) continue;
      // A scroll bar at the list's right edge (arrows, its thumb and track) is not part of an item.
      // (Or a bar of "^" over "▒" rows over "v" down its last column: hte's.)
      const bar = inner.end - 1;
      const arrows =
        rows.length >= 3 &&
        view.char(rows[0]!, bar) === "^" &&
        view.char(rows[rows.length - 1]!, bar) === "v" &&
        rows.slice(1, -1).every((r) => "▒░▓█ ".includes(view.char(r, bar)));
      const texts = rows.map((r) =>
        view.text(r, inner.start, arrows ? bar : inner.end).replace(/[↑↓▲▼▒▮█░▓■]\s*$/, ""),
      );
      const tagAt = tagColumn(texts);
      const state = stateColumn(texts);
      // A mark right before the lit row's name, a blank there on every other row (mprocs's "•tide-logger" over "
      // pier-lights"): no part of the name.
      const leads = texts.map((t) => t.search(/\S/));
      // (Or a bar and a blank: mprocs's palette, "▎ quit" over "  force-quit".)
      const litMark = (index: number) => {
        const mark = /^[•●◦▪▸▶►▎▌*] ?(?=\S)/.exec(texts[index]!.slice(leads[index]!));
        return rows[index] === selectedRow &&
          mark &&
          leads.every((l, i) => i === index || l === leads[index]! + mark[0].length)
          ? mark[0].length
          : 0;
      };
      const unmarked = texts.map((raw, index) => {
        const cut = litMark(index);
        return cut ? `${raw.slice(0, leads[index]!)}${" ".repeat(cut)}${raw.slice(leads[index]! + cut)}` : raw;
      });
      const commands = tagAt === undefined && !state ? commandColumns(unmarked) : undefined;
      const items: Omit<Item, "ref">[] = rows.map((r, index) => {
        const text = unmarked[index]!;
        const start = text.search(/\S/);
        const body = text.trimEnd().slice(start);
        const parts = state
          ? [body.split(/\s{2,}/)[0]!]
          : commands
            ? [text.slice(start, commands.at).trim()]
            : tagAt !== undefined
              ? [text.slice(start, tagAt).trim(), text.slice(tagAt).trim()]
              : body.split(/\s{2,}/);
        // "Quick view   C-x q": a key combination after the name is its shortcut, not a tag before it.
        // So is a lone character there (links2's "Go to URL   g", its submenu's ">", which is no key).
        const shortcut =
          parts.length === 2 &&
          /^(?:[CMSA]-\S(?: \S)?|\^\S(?:\^?\S){0,2}|F\d{1,2}|(?:ctrl|alt|shift)[+-]\S+|\S)$/i.test(parts[1]!);
        const tagged = parts.length === 2 && parts[0]!.length <= 12 && !shortcut;
        // A letter alone at the frame's edge after the name is its hot key (aptitude's "Install/remove packages g").
        const hot =
          !state && !tagged && !shortcut && text.trimEnd().length === text.length ? / ([a-zA-Z])$/.exec(body) : null;
        // menuconfig's "[*] Networking support (NEW)", "(widget) Default host name", "Drivers  --->":
        // the mark or value before the name, the "(NEW)" after it and the arrow are not its label.
        const mark = /^(\[[ *xM]\]|<[ *M]>|\([^)]{1,20}\)) (?=\S)/.exec(body);
        const named = (text: string) =>
          (mark ? text.slice(mark[0].length) : text)
            .replace(/\s+\(NEW\)$/, "")
            .replace(/\s+-{2,3}>$/, "")
            // A submenu's mark after the name (wordgrinder's "File ▷") is no part of it.
            .replace(/\s+[▷▶►]$/, "")
            .trim();
        const item: Omit<Item, "ref"> = {
          label: named(
            tagged
              ? tagShortcut(parts[1]!)
              : shortcut
                ? parts[0]!
                : hot
                  ? body.slice(0, hot.index).trim()
                  : state || commands
                    ? parts[0]!
                    : body.trim(),
          ).replace(TREE_GUIDES, ""),
          row: r,
          col: inner.start + start,
          width: body.length,
        };
        if (mark && /^\[[ *xM]\]$/.test(mark[1]!)) item.checked = mark[1] !== "[ ]";
        if (hot) item.key = hot[1]!;
        if (shortcut && !/^[>►▶→]$/.test(parts[1]!)) item.key = parts[1]!;
        if (tagged) item.key = parts[0]!;
        if (commands?.keys[index]) item.key = commands.keys[index];
        if (r === selectedRow) item.selected = true;
        return item;
      });
      // Every item opening with its number in brackets (pm2 monit's "[ 1] buoy-sync"): the number is its key.
      const numbered = items.map((i) => /^\[\s*(\d{1,4})\]\s+(?=\S)/.exec(i.label));
      if (numbered.every(Boolean) && !items.some((i) => i.key))
        items.forEach((i, n) =>
          Object.assign(i, { key: numbered[n]![1]!, label: i.label.slice(numbered[n]![0].length) }),
        );
      const col = Math.min(...items.map((i) => i.col));
      const width = Math.max(...items.map((i) => i.col + i.width)) - col;
      // (Each row a source line after its number and a gutter's bar, counting up past the rows lit: a listing's
      // current line, lldb gui's "│  4 │◆  int depth = …": no menu.)
      if (gutterNumbered(view, rows[0]!, rows.at(-1)!, col)) continue;
      // Menus carry no label: their prompt is a text block of its own (test/fixtures/screens/README.md).
      out.push({ kind: "menu", row: rows[0]!, col, width, height: rows[rows.length - 1]! - rows[0]! + 1, items });
      for (const r of rows) view.use(r, inner.start, inner.end - inner.start);
    }
  }
  return out;
}

/**
 * Words laid out in a grid, one of them lit (zsh's and fish's completion rows, kakoune's, a
 * terminal-kit grid or column menu): a menu whose items are the words, read row by row. Lit is a
 * background its word alone has, every other word sharing one; a bar across the row is a list's
 * selected row, not a word's (barMenus). Capitalised words on a bar are a menu bar: buttons.
 */
export function gridMenus(view: View): Found[] {
  const out: Found[] = wordRow(view);
  type Word = { row: number; col: number; end: number; text: string; bg: string };
  const wordsOf = (row: number): Word[] | undefined => {
    const words: Word[] = [];
    for (const m of view.flat[row]!.matchAll(/\S+(?: \S+){0,2}/g)) {
      const [col, end] = [m.index!, m.index! + m[0].length];
      // A scroll bar's block, a frame or a key's "█" is no word.
      if (/^[█▌▐░▒▓│┃║↑↓▲▼▮■]+$/.test(m[0])) continue;
      if (!view.free(row, col, end) || m[0].length > 30) return undefined;
      words.push({ row, col, end, text: m[0], bg: view.spanBackground(row, col, end) });
    }
    return words;
  };
  for (let row = 0; row < view.rows; row++) {
    const first = wordsOf(row);
    if (!first?.length || first.some((w) => /^[-─━=]{5,}$/.test(w.text))) continue;
    // The rows under it whose words start in the first row's columns (or a one-column list's).
    const block: Word[][] = [first];
    const columns = new Set(first.map((w) => w.col));
    // (A rule under a header ends it: a table's, not a grid of words.)
    while (row + block.length < view.rows) {
      const next = wordsOf(row + block.length);
      if (!next?.length || !next.every((w) => columns.has(w.col)) || next.some((w) => /^[-─━=]{5,}$/.test(w.text)))
        break;
      block.push(next);
    }
    // A last row wholly on a background of its own under the grid is a description of the lit
    // word (ptpython's " function "), not more of it.
    const tail = block[block.length - 1]!;
    if (
      block.length >= 3 &&
      tail.every((w) => w.bg === tail[0]!.bg) &&
      block
        .slice(0, -1)
        .flat()
        .every((w) => w.bg !== tail[0]!.bg)
    )
      block.pop();
    const words = block.flat();
    const looks = new Map<string, number>();
    for (const w of words) looks.set(w.bg, (looks.get(w.bg) ?? 0) + 1);
    const lit = words.filter((w) => looks.get(w.bg) === 1);
    const last = row + block.length - 1;
    const skip = () => (row = last);
    // (Drawn on the screen's own backdrop, a word is outside the list, not lit in it; words between
    // rules are a panel's columns; a question is no word to choose: create-astro's "deps" badge lit
    // before "Install dependencies?".)
    if (
      words.length < 3 ||
      words.some((w) => /\?$/.test(w.text)) ||
      looks.size !== 2 ||
      lit.length !== 1 ||
      (lit[0]!.bg === view.backdrop && view.backdrop !== "0") ||
      words.some((w) => BOX_CHARS.test(w.text))
    ) {
      skip();
      continue;
    }
    const selected = lit[0]!;
    // The lit span is the word's, with at most its column's padding: not a bar across the row.
    let [from, to] = [selected.col, selected.end];
    while (from > 0 && view.background(selected.row, from - 1) === selected.bg) from--;
    while (to < view.cols && view.background(selected.row, to) === selected.bg) to++;
    const nextCol = Math.min(
      ...words.filter((w) => w.row === selected.row && w.col > selected.col).map((w) => w.col),
      view.cols,
    );
    const prevEnd = Math.max(
      ...words.filter((w) => w.row === selected.row && w.col < selected.col).map((w) => w.end),
      0,
    );
    // A table's header with its sort column lit (htop's PERCENT_CPU) and its figures: no words to choose.
    const data = words.filter((w) => !/\p{Ll}/u.test(w.text)).length;
    if (data >= words.length / 2) {
      skip();
      continue;
    }
    // Buttons in brackets ("< OK >  <Cancel>") and "key Name" hints are not a list of words.
    if (
      from < prevEnd ||
      to > nextCol ||
      to - from > view.cols * 0.6 ||
      words.some((w) => /^[<[(].*[>\])]$/.test(w.text) || /^(?:\^|M-|F\d)\S* /.test(w.text))
    ) {
      skip();
      continue;
    }
    // Nor a line of prose with one word marked (a search hit): words of a grid stand two blanks apart.
    if (words.some((w, i) => i > 0 && w.row === words[i - 1]!.row && w.col - words[i - 1]!.end < 2)) {
      skip();
      continue;
    }
    const bar =
      block.length === 1 &&
      words.every((w) => /^[A-Z][a-z]{1,11}$/.test(w.text)) &&
      view.spanBackground(row, words[0]!.col, words[words.length - 1]!.end) !== view.backdrop;
    if (bar) {
      for (const w of words)
        out.push({
          kind: "button",
          row,
          col: w.col,
          width: w.end - w.col,
          height: 1,
          label: w.text,
          selected: w === selected,
        });
    } else {
      const items = words.map((w) => ({
        label: w.text,
        row: w.row,
        col: w.col,
        width: w.end - w.col,
        ...(w === selected ? { selected: true } : {}),
      }));
      const col = Math.min(...words.map((w) => w.col));
      out.push({
        kind: "menu",
        row,
        col,
        width: Math.max(...words.map((w) => w.end)) - col,
        height: block.length,
        items,
      });
    }
    // (The lit padding too: a program may park the cursor there.)
    for (const w of words) view.use(w.row, w.col, w.end - w.col);
    view.use(selected.row, from, to - from);
    skip();
  }
  return out;
}

/**
 * A description only the focused item shows, after " - " in another ink than its name (prompts'
 * "❯   None - Skip linter configuration", the name underlined, the rest grey; the other rows a name
 * alone): not part of the label, which is the name the item has when the focus is elsewhere.
 */
function cutFocusDescription(view: View, items: Omit<Item, "ref">[]): void {
  const focused = items.find((i) => i.selected);
  if (!focused || items.length < 2 || items.some((i) => i !== focused && i.label.includes(" - "))) return;
  const dash = focused.label.indexOf(" - ");
  if (dash <= 0) return;
  const at = view.flat[focused.row]!.indexOf(focused.label, focused.col);
  const inkOf = (col: number) => view.ink(focused.row, col) + view.spanStyle(focused.row, col, col + 1);
  if (at < 0 || inkOf(at) === inkOf(at + dash + 3)) return;
  focused.label = focused.label.slice(0, dash);
  focused.width = dash;
}

/** A word a completion offers: a name, a method, a path ("deploy_staging", "File.exist?", "src/"). */
const COMPLETION = /^[\p{L}_$@.:/~][\p{L}\p{N}_$@.:/~?!=-]*$/u;

/**
 * A completion pop-up with nothing selected yet: two rows or more right under the field holding the cursor, from a
 * column inside it, each one word on a box of one background the screen's backdrop is not, the box starting at that
 * column (irb's reline dialog under "irb(main):001:0> deploy_"): a menu of the words, none selected; or one row lit
 * apart in another background, the one selected. `choose` Tabs through one with nothing selected.
 */
export function popUpMenu(view: View, found: Found[]): Found[] {
  const { cursor } = view;
  const field = found.find((e) => e.kind === "input" && e.cursor && e.row === cursor.row);
  const top = cursor.row + 1;
  if (!field || !cursor.visible || top >= view.rows) return [];
  const col = view.flat[top]!.search(/\S/);
  if (col <= field.col || col > cursor.col) return [];
  const bg = view.background(top, col);
  if (bg === view.backdrop || (col > 0 && view.background(top, col - 1) === bg)) return [];
  let end = col;
  while (end < view.cols && view.background(top, end) === bg) end++;
  const items: Array<Omit<Item, "ref"> & { bg: string }> = [];
  for (let r = top; r < view.rows; r++) {
    const word = view.text(r, col, end).trim();
    const rowBg = view.background(r, col);
    const boxed =
      rowBg !== view.backdrop &&
      view.spanBackground(r, col, end) === rowBg &&
      (end >= view.cols || view.background(r, end) !== rowBg);
    if (!boxed || !COMPLETION.test(word) || view.char(r, col) === " " || !view.free(r, col, end)) break;
    items.push({ label: word, row: r, col, width: end - col, bg: rowBg });
  }
  // One background for all, or one row lit apart in another: the selection.
  const looks = [...new Set(items.map((i) => i.bg))];
  const lone = looks.filter((look) => items.filter((i) => i.bg === look).length === 1);
  if (items.length < 2 || looks.length > 2 || (looks.length === 2 && lone.length === 0)) return [];
  // (Of two rows each lit its own way, the one the field holds: reline writes the selection into the line.)
  const lit =
    looks.length === 2 ? (lone.length === 1 ? lone[0] : items.find((i) => i.label === field.value)?.bg) : undefined;
  if (looks.length === 2 && lit === undefined) return [];
  view.use(top, col, end - col, items.length);
  return [
    {
      kind: "menu",
      row: top,
      col,
      width: end - col,
      height: items.length,
      items: items.map(({ bg: look, ...item }) => (lit && look === lit ? { ...item, selected: true } : item)),
    },
  ];
}

/** A numbered row drawn as a button to the row's end: "[1]   < https://harbour.example/tides.pdf        >". */
const NUMBERED_BUTTON_ROW = /^(\s*)\[(\d{1,3})\]\s+<\s(\S(?:.*\S)?)\s*>\s*$/;

/**
 * Rows of numbered buttons one under another, two or more (urlscan's "[1]   < url   >" list): a menu, each item
 * the words between the angle brackets keyed by its number, the one on a background of its own (the focus) selected.
 * Read before the bars and the fields, so the lit row is no field and the others no status.
 */
export function numberedButtonRows(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 0; row + 1 < view.rows; row++) {
    const rows: { row: number; m: RegExpExecArray }[] = [];
    for (let r = row; r < view.rows; r++) {
      const m = NUMBERED_BUTTON_ROW.exec(view.flat[r]!);
      if (!m || !view.free(r, 0, view.cols)) break;
      rows.push({ row: r, m });
    }
    if (rows.length < 2) continue;
    const at = (r: { row: number; m: RegExpExecArray }) => view.flat[r.row]!.indexOf("<", r.m[1]!.length);
    const looks = rows.map((r) => view.spanBackground(r.row, at(r), view.cols));
    const lone = drawnApart(looks, looks);
    const items: Omit<Item, "ref">[] = rows.map((r, i) => ({
      label: r.m[3]!,
      row: r.row,
      col: at(r) + 2,
      width: r.m[3]!.length,
      key: r.m[2]!,
      ...(lone.length === 1 && looks[i] === lone[0] ? { selected: true } : {}),
    }));
    out.push({ kind: "menu", row, col: 0, width: view.cols, height: rows.length, items });
    view.use(row, 0, view.cols, rows.length);
    row += rows.length - 1;
  }
  return out;
}

/** Key help telling how to move in a list with the arrow keys ("Use up/down arrow keys to select a version"). */
const ARROWS_HINT = /\b(?:arrow|cursor) keys\b|\b(?:up|down)\/(?:up|down)\b/i;
/** And how to pick: Return or Enter to do something ("return key to install", "Enter to select"). */
const PICK_HINT = /\b(?:return|enter)(?: key)? to \w+/i;

/**
 * A list over its key help, the last thing on the screen (n's "Use up/down arrow keys to select a version, return key
 * to install, d to delete, q to quit" under its Node versions, one blank row between): rows of one word-run each at one
 * column, all free, right over the help (one blank row between at most); the row a sign stands before, alone two
 * columns left of the names (n's cyan "ο"), is the selected one, and with no sign none is. Two items at least, the
 * help naming both the arrow keys and Return's action, the cursor hidden or on a row of the list (shown under the help,
 * a prompt waits there: output printed above it). The help itself is keysUnderMenu's status.
 */
export function hintedList(view: View): Found[] {
  let last = view.rows - 1;
  while (last > 0 && !view.flat[last]!.trim()) last--;
  let top = last;
  while (top > 0 && last - top < 2 && view.flat[top - 1]!.trim()) top--;
  const help = view.flat
    .slice(top, last + 1)
    .map((l) => (l.at(-1) === " " ? `${l.trimEnd()} ` : l))
    .join("");
  if (!ARROWS_HINT.test(help) || !PICK_HINT.test(help)) return [];
  let end = top - 1;
  if (end > 0 && !view.flat[end]!.trim()) end--;
  const rows: { row: number; text: string; mark?: number }[] = [];
  for (let row = end; row >= 0 && view.flat[row]!.trim(); row--) {
    const match = /^( *)(?:(\S) )?(\S(?:.{0,58}\S)?)\s*$/.exec(view.flat[row]!);
    if (!match || !view.free(row, 0, view.cols) || /\s{2}/.test(match[3]!)) return [];
    const col = match[1]!.length + (match[2] ? 2 : 0);
    rows.unshift({ row, text: match[3]!, ...(match[2] ? { mark: match[1]!.length } : {}) });
    if (rows.some((r) => r.row !== row && view.flat[r.row]!.search(/\S/) + (r.mark !== undefined ? 2 : 0) !== col))
      return [];
  }
  // (The cursor hidden, or on one of the rows: a program drawing its list; shown under them, a prompt reads there.)
  if (view.cursor.visible && !rows.some((r) => r.row === view.cursor.row)) return [];
  const marked = rows.filter((r) => r.mark !== undefined);
  if (
    rows.length < 2 ||
    marked.length > 1 ||
    (marked[0] &&
      /[\p{L}\p{N}]/u.test(view.char(marked[0].row, marked[0].mark!)) &&
      view.style(marked[0].row, marked[0].mark!) === view.style(marked[0].row, marked[0].mark! + 2))
  )
    return [];
  const textCol = view.flat[rows[0]!.row]!.search(/\S/) + (rows[0]!.mark !== undefined ? 2 : 0);
  const col = marked[0] ? marked[0].mark! : textCol;
  const items: Omit<Item, "ref">[] = rows.map((r) => ({
    label: r.text,
    row: r.row,
    col,
    width: textCol + r.text.length - col,
    selected: r.mark !== undefined,
  }));
  const first = rows[0]!.row;
  view.use(first, 0, view.cols, rows.length);
  const width = Math.max(...items.map((i) => i.width));
  return [{ kind: "menu", row: first, col, width, height: rows.length, items }];
}
