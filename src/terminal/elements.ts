// The screen as elements (docs/elements.md): menus, questions, buttons, inputs, checkboxes,
// radios, progress bars, tables, status lines and dialogs, plus text blocks for the rest. Pure: one
// CellGrid in (cells, attributes, cursor, mouse mode), a list out; the same grid gives the same
// list and refs. Heuristics over what programs draw, tuned on test/fixtures/screens/ (train set).
import { CellFlag, type CellGrid } from "./cell-grid.ts";

export type Kind = "menu" | "question" | "button" | "input" | "checkbox" | "radio" | "progress" | "table" | "status" | "dialog" | "text";

export interface Item {
  ref: string;
  label: string;
  row: number;
  col: number;
  width: number;
  selected?: boolean;
  checked?: boolean;
  key?: string;
}

export interface Element {
  ref: string;
  kind: Kind;
  row: number;
  col: number;
  width: number;
  height: number;
  label?: string;
  value?: string;
  cursor?: boolean;
  checked?: boolean;
  selected?: boolean;
  percent?: number;
  items?: Item[];
  header?: string[];
  rows?: number;
  text?: string;
}

/** An element before refs are given (in reading order, at the end). */
type Found = Omit<Element, "ref" | "items"> & { items?: Omit<Item, "ref">[] };

const EMPHASIS = CellFlag.inverse | CellFlag.bold | CellFlag.underline | CellFlag.dim;
const VERTICAL = "│┃║|";
const HORIZONTAL = "─━═";
const BOX_CHARS = /[─━═│┃║┌┍┎┏╒╓╔╭┐┑┒┓╕╖╗╮└┕┖┗╘╙╚╰┘┙┚┛╛╜╝╯├┝┞┟┠┡┢┣╞╟╠┤┥┦┧┨┩┪┫╡╢╣┬┭┮┯┰┱┲┳╤╥╦┴┵┶┷┸┹┺┻╧╨╩┼╪╫╬]/;
const TOP_LEFT = "┌┍┎┏╒╓╔╭";
const TOP_RIGHT = "┐┑┒┓╕╖╗╮";
const BOTTOM_LEFT = "└┕┖┗╘╙╚╰";
const BOTTOM_RIGHT = "┘┙┚┛╛╜╝╯";
/** Left markers of a selected row in a list (fzf, inquirer, agent CLIs' selects). */
const MARKERS = ">❯›▸►▶→➜●";

/** Read access to a CellGrid by row and column, with one string per column (wide characters' right halves are ""). */
class View {
  readonly cols: number;
  readonly rows: number;
  readonly chars: string[][];
  /** Each row as a string of exactly `cols` UTF-16 units (anything wider is "\uE000"): regexes give columns. */
  readonly flat: string[];
  /** Cells already part of an element: text blocks get the rest. */
  readonly used: Uint8Array;

  /**
   * Where typing goes: the terminal's cursor, or when it is hidden, the one cell a program draws in
   * reverse video as its own cursor (Ink's CLIs: claude); visible false when there is neither.
   */
  readonly cursor: { row: number; col: number; visible: boolean };

  constructor(readonly grid: CellGrid) {
    this.cols = grid.cols;
    this.rows = grid.rows;
    this.used = new Uint8Array(grid.cols * grid.rows);
    this.cursor = grid.cursor;
    if (!grid.cursor.visible) {
      const drawn = [];
      for (let i = 0; i < grid.flags.length && drawn.length < 2; i++) if (grid.flags[i]! & CellFlag.inverse) drawn.push(i);
      if (drawn.length === 1) this.cursor = { row: Math.floor(drawn[0]! / grid.cols), col: drawn[0]! % grid.cols, visible: true };
    }
    this.chars = [];
    this.flat = [];
    for (let row = 0; row < grid.rows; row++) {
      const chars: string[] = [];
      let flat = "";
      for (let col = 0; col < grid.cols; col++) {
        const i = row * grid.cols + col;
        const cp = grid.codepoints[i]!;
        if (grid.widths[i] === 0) {
          chars.push("");
          flat += "\uE000";
          continue;
        }
        let char = cp === 0 ? " " : String.fromCodePoint(cp);
        const marks = grid.combining.get(i);
        if (marks) char += String.fromCodePoint(...marks);
        chars.push(char);
        flat += char.length === 1 ? char : "\uE000";
      }
      this.chars.push(chars);
      this.flat.push(flat);
    }
  }

  text(row: number, start: number, end: number): string {
    return this.chars[row]!.slice(Math.max(0, start), Math.min(this.cols, end)).join("");
  }

  char(row: number, col: number): string {
    return this.chars[row]?.[col] ?? " ";
  }

  /** What makes a cell stand out: inverse/bold/underline/dim, and its colours. */
  style(row: number, col: number): string {
    const i = row * this.cols + col;
    const g = this.grid;
    const inverse = (g.flags[i]! & CellFlag.inverse) !== 0;
    // Inverse swaps the colours: compare what is drawn, not how it was asked for.
    const [fg, bg] = inverse ? [g.bg[i]!, g.fg[i]!] : [g.fg[i]!, g.bg[i]!];
    return `${g.flags[i]! & EMPHASIS & ~CellFlag.inverse}/${inverse ? "i" : ""}${fg}/${bg}`;
  }

  /** The background drawn under a cell (inverse counts as a background of its own). */
  background(row: number, col: number): string {
    const i = row * this.cols + col;
    const g = this.grid;
    return (g.flags[i]! & CellFlag.inverse) !== 0 ? `i${g.fg[i]}` : `${g.bg[i]}`;
  }

  /** The style most of the non-blank cells in a span have. */
  spanStyle(row: number, start: number, end: number): string {
    const counts = new Map<string, number>();
    for (let col = start; col < end; col++) {
      if (this.char(row, col).trim() === "") continue;
      const style = this.style(row, col);
      counts.set(style, (counts.get(style) ?? 0) + 1);
    }
    let best = "";
    let most = 0;
    for (const [style, count] of counts) if (count > most) [best, most] = [style, count];
    return best;
  }

  /** The background most cells of a span have (blank ones too: a highlight bar spans the row). */
  spanBackground(row: number, start: number, end: number): string {
    const counts = new Map<string, number>();
    for (let col = start; col < end; col++) {
      const bg = this.background(row, col);
      counts.set(bg, (counts.get(bg) ?? 0) + 1);
    }
    let best = "";
    let most = 0;
    for (const [bg, count] of counts) if (count > most) [best, most] = [bg, count];
    return best;
  }

  use(row: number, col: number, width: number, height = 1): void {
    for (let r = row; r < row + height && r < this.rows; r++) {
      for (let c = Math.max(0, col); c < col + width && c < this.cols; c++) this.used[r * this.cols + c] = 1;
    }
  }

  isUsed(row: number, col: number): boolean {
    return this.used[row * this.cols + col] === 1;
  }

  /** Whether a span is free of elements found so far. */
  free(row: number, start: number, end: number): boolean {
    for (let col = start; col < end; col++) if (this.isUsed(row, col)) return false;
    return true;
  }
}

interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
  title: string;
}

/** Collapse runs of blanks and trim. */
const clean = (text: string): string => text.replace(/\s+/g, " ").trim();

/** Elements on one screen, in reading order, with refs e1, e2… (items e1.1…). */
export function detectElements(grid: CellGrid): Element[] {
  const view = new View(grid);
  const found: Found[] = [];
  const boxes = findBoxes(view);
  for (const box of boxes) {
    // The frame is not text; what is inside is read on its own.
    for (let row = box.top; row <= box.bottom; row++) {
      view.use(row, box.left, 1);
      view.use(row, box.right, 1);
    }
    view.use(box.top, box.left, box.right - box.left + 1);
    view.use(box.bottom, box.left, box.right - box.left + 1);
    // A titled box, or one no other box holds (an inner frame is a list's or a field's).
    if (box.title || !boxes.some((other) => other !== box && contains(other, box))) {
      found.push({ kind: "dialog", row: box.top, col: box.left, width: box.right - box.left + 1, height: box.bottom - box.top + 1, ...(box.title ? { label: box.title } : {}) });
    }
  }
  // Separator rows inside boxes (├───┤) and stray rules are frame too.
  for (let row = 0; row < view.rows; row++) {
    for (let col = 0; col < view.cols; col++) if (BOX_CHARS.test(view.char(row, col)) && HORIZONTAL.includes(view.char(row, col))) view.use(row, col, 1);
  }
  found.push(...panelDialogs(view, boxes));
  found.push(...findFunctionKeys(view));
  found.push(...findStatus(view));
  found.push(...findProgress(view, boxes));
  found.push(...findQuestions(view));
  found.push(...findToggles(view));
  found.push(...findButtons(view));
  found.push(...findInputs(view, boxes));
  footerStatus(view, found);
  // A marker (❯, ›) says a list is one to choose from, whatever its columns look like.
  found.push(...markerMenus(view));
  found.push(...highlightMenus(view, boxes));
  found.push(...findTables(view));
  found.push(...barMenus(view, boxes));
  found.push(...ruleDialogs(view, found));
  found.push(...findText(view));
  // A box holding a table is a panel (mc's file lists), not a dialog.
  const tables = found.filter((e) => e.kind === "table");
  const panels = new Set(found.filter((e) => e.kind === "dialog" && tables.some((t) => t.row > e.row && t.row < e.row + e.height && t.col >= e.col && t.col < e.col + e.width)));
  return number(found.filter((e) => !panels.has(e)));
}

function number(found: Found[]): Element[] {
  found.sort((a, b) => a.row - b.row || a.col - b.col || (a.kind === "dialog" ? -1 : b.kind === "dialog" ? 1 : 0));
  return found.map((element, index) => {
    const ref = `e${index + 1}`;
    const { items, ...rest } = element;
    const out: Element = { ref, ...rest };
    if (items) out.items = items.map((item, i) => ({ ref: `${ref}.${i + 1}`, ...item }));
    return out;
  });
}

// ---------------------------------------------------------------------------------------------
// Boxes and dialogs

/**
 * Most boxes read on one screen, in reading order; frames past them are text. The screen is the
 * program's to draw and the daemon reads it in its one thread: boxes are compared pairwise, and a
 * 1000x1000 screen tiled with 83 584 of them took 19 s (real screens hold a handful).
 */
const MAX_BOXES = 256;

function findBoxes(view: View): Box[] {
  const boxes: Box[] = [];
  for (let top = 0; top < view.rows && boxes.length < MAX_BOXES; top++) {
    for (let left = 0; left < view.cols && boxes.length < MAX_BOXES; left++) {
      if (!TOP_LEFT.includes(view.char(top, left))) continue;
      // The top border runs right to a corner; a title may interrupt it.
      let right = -1;
      for (let col = left + 1; col < view.cols; col++) {
        const char = view.char(top, col);
        if (TOP_RIGHT.includes(char)) {
          right = col;
          break;
        }
        if (TOP_LEFT.includes(char)) break;
      }
      if (right < left + 2) continue;
      let bottom = -1;
      for (let row = top + 1; row < view.rows; row++) {
        const l = view.char(row, left);
        const r = view.char(row, right);
        if (BOTTOM_LEFT.includes(l) && BOTTOM_RIGHT.includes(r)) {
          bottom = row;
          break;
        }
        if (!(VERTICAL.includes(l) || "├╟┝┠╞┣".includes(l)) || !(VERTICAL.includes(r) || "┤╢┥┨╡┫".includes(r))) break;
      }
      if (bottom < 0) continue;
      const border = view.text(top, left + 1, right);
      // mc's panels: "<─ /tmp ───.[^]>": the arrows and the history button are not the title.
      const title = clean(border.replace(/\.?\[\^\]|\[[v^]\]/g, " ").replace(/[─━═┤├┨┠╡╞╢╟]/g, " ").replace(/^[<\s]+|[>\s]+$/g, " "));
      boxes.push({ top, left, bottom, right, title: /[\p{L}\p{N}]/u.test(title) ? title : "" });
    }
  }
  return boxes;
}

const contains = (outer: Box, inner: Box): boolean =>
  outer.top <= inner.top && outer.bottom >= inner.bottom && outer.left <= inner.left && outer.right >= inner.right;

/**
 * A frameless dialog: a rectangle on a background of its own, three rows or more, over a backdrop
 * that fills the rows above and below it with one other background and shows on both its sides, the
 * rectangle centred (opencode's command palette over its dimmed screen). Its title is the first words of its first line.
 */
function panelDialogs(view: View, boxes: Box[]): Found[] {
  const out: Found[] = [];
  const backdrop = (row: number) => {
    const bg = view.background(row, 0);
    for (let col = 1; col < view.cols; col++) if (view.background(row, col) !== bg) return undefined;
    return bg === "0" ? undefined : bg;
  };
  for (let top = 1; top < view.rows - 3; top++) {
    const above = backdrop(top - 1);
    if (!above) continue;
    let start = 0;
    while (start < view.cols && view.background(top, start) === above) start++;
    const bg = view.background(top, start);
    let end = start;
    while (end < view.cols && view.background(top, end) === bg) end++;
    // It floats: centred, the backdrop showing on both sides.
    if (start < 4 || Math.abs(start - (view.cols - end)) > 2 || end - start < 10) continue;
    // Its rows keep its background at both edges (what it holds may have others), until the backdrop again.
    let bottom = top;
    while (bottom + 1 < view.rows && view.background(bottom + 1, start) === bg && view.background(bottom + 1, end - 1) === bg && view.background(bottom + 1, end) !== bg) bottom++;
    if (bottom - top < 2 || bottom + 1 >= view.rows || backdrop(bottom + 1) !== above) continue;
    if (boxes.some((b) => b.top <= bottom && b.bottom >= top && b.left < end && b.right >= start)) continue;
    let first = top;
    while (first < bottom && !view.text(first, start, end).trim()) first++;
    const label = view.text(first, start, end).trim().split(/\s{2,}/)[0];
    out.push({ kind: "dialog", row: top, col: start, width: end - start, height: bottom - top + 1, ...(label ? { label } : {}) });
    top = bottom;
  }
  return out;
}

/** The innermost box around a cell, if any. */
function boxAround(boxes: Box[], row: number, col: number): Box | undefined {
  let best: Box | undefined;
  for (const box of boxes) {
    if (row > box.top && row < box.bottom && col > box.left && col < box.right) {
      if (!best || (box.bottom - box.top) * (box.right - box.left) < (best.bottom - best.top) * (best.right - best.left)) best = box;
    }
  }
  return best;
}

/**
 * Claude Code's permission dialog: a full-width rule, a title under it, then a question or
 * buttons; it runs down to the block's last row (before two blank rows or the screen's end).
 */
function ruleDialogs(view: View, found: Found[]): Found[] {
  const out: Found[] = [];
  const blank = (row: number) => view.text(row, 0, view.cols).trim() === "";
  for (let row = 0; row + 1 < view.rows; row++) {
    const rule = view.flat[row]!.trimEnd();
    if (rule.length < view.cols * 0.9 || !/^[─━]+$/.test(rule)) continue;
    const title = clean(view.text(row + 1, 0, view.cols));
    if (!title || title.length > 40 || !view.free(row + 1, 0, view.cols)) continue;
    let last = row + 1;
    for (let r = row + 2; r < view.rows && !(blank(r) && (r + 1 >= view.rows || blank(r + 1))); r++) if (!blank(r)) last = r;
    const actionable = found.some((e) => e.row > row + 1 && e.row <= last && (e.kind === "question" || e.kind === "button" || e.kind === "menu"));
    if (!actionable) continue;
    out.push({ kind: "dialog", row, col: 0, width: view.cols, height: last - row + 1, label: title });
    view.use(row + 1, 0, view.cols);
    row = last;
  }
  // opencode's: rows joined by a bar down their left side ("┃"), its first line the title; what
  // another dialog holds (the command palette drawn over a toast) is not the bar's.
  const dialogs = found.filter((e) => e.kind === "dialog");
  const held = (e: Found) => dialogs.some((d) => d.row < e.row && e.row < d.row + d.height && d.col <= e.col && e.col < d.col + d.width);
  for (let row = 0; row < view.rows; row++) {
    const col = view.flat[row]!.search(/[┃▌]/);
    if (col < 0 || col > 8) continue;
    let last = row;
    while (last + 1 < view.rows && view.flat[last + 1]![col] === view.flat[row]![col]) last++;
    const actionable = found.some((e) => e.row > row && e.row <= last && (e.kind === "question" || e.kind === "button" || e.kind === "menu") && !held(e));
    let titleRow = row;
    while (titleRow <= last && clean(view.text(titleRow, col + 1, view.cols)) === "") titleRow++;
    if (actionable && titleRow <= last) {
      const title = clean(view.text(titleRow, col + 1, view.cols)).replace(/^[△⚠!?✱*] /, "");
      const right = Math.max(...Array.from({ length: last - row + 1 }, (_, i) => view.text(row + i, 0, view.cols).trimEnd().length));
      out.push({ kind: "dialog", row, col, width: right - col, height: last - row + 1, ...(title && title.length <= 40 ? { label: title } : {}) });
      if (title.length <= 40) view.use(titleRow, col + 1, view.cols - col - 1);
      view.use(row, col, 1, last - row + 1);
    }
    row = last;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Status and key-hint lines, function-key bars

/** `^G Help`, `M-U Undo`: nano-style key hints, three or more on a row. */
const KEY_HINT = /(?:\^|M-)[^\s]{1,2} [A-Za-z][\w-]*(?: [A-Za-z][\w-]*)*/g;

function findStatus(view: View): Found[] {
  const out: Found[] = [];
  const hintRows: number[] = [];
  for (let row = 0; row < view.rows; row++) {
    const matches = view.flat[row]!.match(KEY_HINT);
    if (matches && matches.length >= 3) hintRows.push(row);
  }
  // Consecutive hint rows are one status element.
  for (let i = 0; i < hintRows.length; ) {
    let j = i;
    while (j + 1 < hintRows.length && hintRows[j + 1] === hintRows[j]! + 1) j++;
    out.push(status(view, hintRows[i]!, hintRows[j]!));
    i = j + 1;
  }
  // A full-width highlighted row at the very top or bottom: a title or mode line, or a menu bar.
  for (const row of [0, view.rows - 1, view.rows - 2]) {
    if (row < 0 || !view.free(row, 0, view.cols)) continue;
    const text = view.text(row, 0, view.cols);
    if (!text.trim() || /^\s*\S+\s*$/.test(text) && text.trim().length < 3) continue;
    let lit = 0;
    for (let col = 0; col < view.cols; col++) if (view.background(row, col) !== view.background(Math.max(0, row === 0 ? 1 : row - 1), col)) lit++;
    const highlighted = lit >= view.cols * 0.8 && view.background(row, 0) !== `${0}`;
    // A top row shaped like the one under it (tig's "2026-11-26 21:00 …" over "2026-11-26 20:34 …") is a list's selected row.
    const shape = (r: number) => /^\s*\S+/.exec(view.flat[r] ?? "")?.[0].replace(/\d/g, "9").replace(/\p{L}/gu, "a");
    if (!highlighted || row === 0 && shape(0) === shape(1)) continue;
    // mc's "  Left     File     Command…": single words far apart are menus to open.
    const words = [...view.flat[row]!.matchAll(/\S+/g)];
    const gaps = words.slice(1).map((w, i) => w.index! - (words[i]!.index! + words[i]![0].length));
    if (words.length >= 3 && words.every((w) => /^[A-Z][a-z]+$/.test(w[0])) && gaps.every((gap) => gap >= 3)) {
      for (const w of words) out.push({ kind: "button", row, col: w.index!, width: w[0].length, height: 1, label: w[0] });
      view.use(row, 0, view.cols);
    } else out.push(status(view, row, row));
  }
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    // Inside a frame (a dialog's hint row), the frame is not part of the line.
    const trimmed = stripFrame(line);
    const start = trimmed ? line.indexOf(trimmed) : 0;
    if (!view.free(row, start, start + trimmed.length) && !/[─━]{5}/.test(line)) continue;
    const near = row >= view.rows - 3;
    // fzf's "8/8 ────": a counter on a rule.
    const counter = /^\d+\/\d+(?: \(\d+\))?(?: [^─━]{0,20})? ?[─━]{5,}$/.test(trimmed);
    // inquirer's "↑↓ navigate • ⏎ select": key hints between bullets.
    const bullets = /\S • \S/.test(trimmed) && /[↑↓←→⏎]|\b(?:navigate|select|submit|cancel|enter|esc)\b/i.test(trimmed);
    // nano's "[ Read 1 line ]": a message in brackets over the key hints.
    const message = near && /^\[ .+ \]$/.test(trimmed) && trimmed.length < view.cols;
    // Agent CLIs' "Esc to cancel · Tab to amend", "Press enter to confirm or esc to cancel", a spinner's line.
    // A line of only "ctrl+t toggle visibility": a key and what it does.
    const keys = (/\b(?:esc|enter|tab|ctrl\+\w|space)\b (?:to \w+|\w+ ·)/i.test(trimmed) || /^(?:(?:ctrl|alt|shift)\+\w+|esc|tab) [a-z]+(?: [a-z]+)?$/i.test(trimmed)) && trimmed.length < 80;
    const spinner = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] \S/.test(trimmed);
    // Where you are, at the screen's top or bottom edge: a backtitle on a coloured backdrop, over a
    // blank row, above a dialog (dialog's, debconf's), a position ("1/9  All", "Top", "42%") on the last row, a folder's path
    // (ranger's title, opencode's footer) that is not a shell's prompt.
    const edge = row === 0 || row >= view.rows - 2 && !view.flat.slice(row + 1).some((l) => l.trim());
    const backtitle = row === 0 && trimmed !== "" && trimmed.length < view.cols / 2 && !view.flat[1]!.replace(/[─━]/g, "").trim() && view.background(0, view.cols - 1) !== "0" && view.flat.some((l) => /[┌╔╭]/.test(l));
    const position = row === view.rows - 1 && /\s(?:\d+\/\d+\s+)?(?:All|Top|Bot|\d{1,3}%)$/.test(trimmed);
    const place = edge && /(?:^|\s|@\S*[\s:])(?:~|\/[\w.-]+)\/[\w./:-]*(?:\s|$)/.test(trimmed) && !/[$#%>]\s*$/.test(trimmed);
    if (counter || bullets || message || keys || spinner || backtitle || position || place) {
      out.push({ kind: "status", row, col: start, width: trimmed.length, height: 1, text: view.text(row, start, start + trimmed.length) });
      view.use(row, start, trimmed.length);
    }
  }
  return out;
}

/**
 * The lines under the input that has the cursor, past its frame's rule, when nothing follows them
 * down to the screen's bottom: an agent CLI's footer (model, folder, mode), one status.
 */
function footerStatus(view: View, found: Found[]): void {
  const input = found.find((e) => e.kind === "input" && e.cursor);
  if (!input) return;
  const blank = (row: number) => /^[\s─━]*$/.test(view.flat[row]!);
  let first = input.row + input.height;
  while (first < view.rows && first <= input.row + 2 && blank(first)) first++;
  let last = first;
  while (last + 1 < view.rows && !blank(last + 1)) last++;
  if (first >= view.rows || blank(first) || last - first > 2) return;
  for (let row = last + 1; row < view.rows; row++) if (!blank(row)) return;
  const within = (e: Found) => e.row >= first && e.row <= last;
  for (let row = first; row <= last; row++) if (!view.free(row, 0, view.cols) && !found.some((e) => e.kind === "status" && e.row === row)) return;
  const kept = found.filter((e) => !(e.kind === "status" && within(e)));
  found.splice(0, found.length, ...kept, status(view, first, last));
}

function status(view: View, first: number, last: number): Found {
  const lines: string[] = [];
  for (let row = first; row <= last; row++) lines.push(view.text(row, 0, view.cols).trimEnd());
  const start = Math.min(...lines.map((line) => line.length - line.trimStart().length));
  const width = Math.max(...lines.map((line) => line.length)) - start;
  view.use(first, 0, view.cols, last - first + 1);
  return { kind: "status", row: first, col: start, width, height: last - first + 1, text: lines.map((line) => line.slice(start)).join("\n") };
}

/** `1Help 2Menu…` (mc), `F1Help F2Setup…` (htop), `F10 Quit`: four or more numbered keys on a row. */
const FUNCTION_KEY = /(?:(?<![\w])|(?<=[a-z]))F?(\d{1,2}) ?([A-Za-z][a-z]*(?:[A-Z][a-z]+)*(?: ?[+-](?=\s|F\d|$))?)/g;

function findFunctionKeys(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    if (!view.free(row, 0, view.cols)) continue;
    const line = view.flat[row]!;
    const matches = [...line.matchAll(FUNCTION_KEY)];
    if (matches.length < 4) continue;
    // The numbers count up: 1, 2, 3…
    const numbers = matches.map((match) => Number(match[1]));
    if (!numbers.every((n, i) => i === 0 || n > numbers[i - 1]!)) continue;
    // What is left on the row besides the keys is blank.
    if (line.replace(FUNCTION_KEY, "").trim() !== "") continue;
    for (const match of matches) {
      const label = match[2]!.trim();
      const col = match.index!;
      const width = match[0].trimEnd().length;
      out.push({ kind: "button", row, col, width, height: 1, label });
      view.use(row, col, width);
    }
    view.use(row, 0, view.cols);
  }
  out.push(...keyBar(view, view.rows - 1));
  return out;
}

/** A key as a key bar names it: "F3", "S-F3", "Esc", "^X". */
const KEY = /^(?:[SCAM]-)?(?:F\d{1,2}|Esc|Tab|Enter|Space|\^\S)$/;

/**
 * htop's bar in its search or filter mode: "F3Next  S-F3Prev  EscCancel", each key plain and its
 * name on a coloured background, three or more in a row; what follows (a prompt) is left.
 */
function keyBar(view: View, row: number): Found[] {
  const runs: { start: number; end: number; lit: boolean }[] = [];
  for (let col = 0; col < view.cols; ) {
    const lit = view.background(row, col) !== "0";
    let end = col + 1;
    while (end < view.cols && (view.background(row, end) !== "0") === lit) end++;
    runs.push({ start: col, end, lit });
    col = end;
  }
  const out: Found[] = [];
  for (let i = 0; i + 1 < runs.length; i += 2) {
    const [key, name] = [runs[i]!, runs[i + 1]!];
    const label = view.text(row, name.start, name.end).trim();
    if (key.lit || !view.free(row, key.start, name.end) || !KEY.test(view.text(row, key.start, key.end).trim()) || !/^[A-Z][a-z]+$/.test(label)) break;
    out.push({ kind: "button", row, col: key.start, width: name.end - key.start, height: 1, label });
  }
  if (out.length < 3) return [];
  for (const b of out) view.use(row, b.col, b.width);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Progress bars

const PERCENT = /(\d{1,3}(?:\.\d+)?)%/g;
const BAR = /[|█▉▊▋▌▍▎▏▓▒░#=■━>-]{3,}/;

function findProgress(view: View, boxes: Box[]): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    let brackets: RegExpExecArray[] | undefined;
    for (const match of line.matchAll(PERCENT)) {
      const col = match.index!;
      if (!view.free(row, col, col + match[0].length)) continue;
      const percent = Number(match[1]);
      if (percent > 100) continue;
      // A meter: "Cpu[|||||   42.0%]" or "[#####   ] 42%" or "42% ███".
      let bar: { col: number; width: number; label: string } | undefined;
      for (const m of (brackets ??= [...line.matchAll(/(\S*?)\s*\[([^\]]*)\]/g)])) {
        const start = m.index!;
        const end = start + m[0].length;
        if (col >= start && col < end + 2 && (BAR.test(m[2]!) || col < end)) {
          bar = { col: start, width: Math.max(end, col + match[0].length) - start, label: m[1]! };
        }
      }
      if (!bar) {
        const before = line.slice(Math.max(0, col - 60), col);
        const after = line.slice(col + match[0].length, col + match[0].length + 60);
        if (BAR.test(before.slice(-40)) || BAR.test(after.slice(0, 40))) {
          const left = before.search(/[|█▉▊▋▌▍▎▏▓▒░#=■━[]{2,}[^]*$/);
          const start = left >= 0 ? col - before.length + left : col;
          const tail = /^[\s|█▉▊▋▌▍▎▏▓▒░#=■━\]]*/.exec(after)![0].trimEnd().length;
          bar = { col: start, width: col + match[0].length + tail - start, label: "" };
        }
      }
      if (!bar) {
        // dialog --gauge: the percent alone in a box, the done part drawn in reverse.
        const box = boxAround(boxes, row, col);
        if (box && box.bottom - box.top === 2 && clean(view.text(row, box.left + 1, box.right)) === match[0]) {
          const outer = boxAround(boxes.filter((b) => b !== box), box.top, box.left);
          const caption = outer ? clean(view.text(outer.top + 1, outer.left + 1, outer.right)) : "";
          out.push({ kind: "progress", row: box.top + 1, col: box.left + 1, width: box.right - box.left - 1, height: 1, percent, ...(caption ? { label: caption } : {}) });
          view.use(box.top, box.left, box.right - box.left + 1, 3);
          if (outer) view.use(outer.top + 1, outer.left + 1, outer.right - outer.left - 1);
          continue;
        }
        // whiptail --gauge: the percent alone on its row, centred in a bar whose done part has its own background.
        if (box && clean(view.text(row, box.left + 1, box.right)) === match[0]) {
          let start = box.left + 1;
          while (start < col && view.background(row, start) === view.background(row, box.left)) start++;
          if (start < col && view.text(row, start, col).trim() === "") bar = { col: start, width: box.right + box.left + 1 - 2 * start, label: "" };
        }
      }
      if (!bar) continue;
      const label = clean(bar.label);
      out.push({ kind: "progress", row, col: bar.col, width: bar.width, height: 1, percent, ...(label ? { label } : {}) });
      view.use(row, bar.col, bar.width);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Inputs

function findInputs(view: View, boxes: Box[]): Found[] {
  const { cursor } = view;
  const found: Found[] = [];
  // dialog --form: "Label:" then a field drawn on a background of its own, one per row.
  for (let row = 0; row < view.rows; row++) {
    for (const match of view.flat[row]!.matchAll(/([A-Za-z][\w .'-]{0,30}):/g)) {
      const labelBg = view.background(row, match.index!);
      let start = match.index! + match[0].length;
      while (start < view.cols && start < match.index! + match[0].length + 12 && view.char(row, start) === " " && view.background(row, start) === labelBg) start++;
      const bg = view.background(row, start);
      if (bg === labelBg || !view.free(row, match.index!, start + 1)) continue;
      let end = start;
      while (end < view.cols && view.background(row, end) === bg && !VERTICAL.includes(view.char(row, end))) end++;
      if (end - start < 3 || end - start > view.cols * 0.8) continue;
      const here = cursor.visible && cursor.row === row && cursor.col >= start && cursor.col <= end;
      found.push({ kind: "input", row, col: start, width: end - start, height: 1, label: match[1]!.trim(), value: view.text(row, start, end).replace(/_+\s*$/, "").trim(), cursor: here });
      view.use(row, match.index!, end - match.index!);
    }
  }
  if (cursor.visible && !found.some((e) => e.cursor)) found.push(...cursorInput(view, boxes));
  // mc's fields without the cursor: a wide run on a background of its own in a box, under a line ending in ":".
  for (const box of boxes) {
    for (let row = box.top + 2; row < box.bottom; row++) {
      const inside = view.background(row, box.left + 1);
      let start = box.left + 1;
      while (start < box.right && view.background(row, start) === inside) start++;
      let end = start;
      while (end < box.right && view.background(row, end) === view.background(row, start)) end++;
      if (start >= box.right || (end - start) * 2 < box.right - box.left || !view.free(row, start, end)) continue;
      if (!/:\s*$/.test(view.text(row - 1, box.left + 1, box.right))) continue;
      const label = labelAbove(view, boxes, row, start);
      found.push({ kind: "input", row, col: start, width: end - start, height: 1, ...(label ? { label } : {}), value: view.text(row, start, end).trim(), cursor: false });
      view.use(row, start, end - start);
    }
  }
  // A shell prompt with nothing typed yet, the cursor elsewhere (mc's command line under a dialog).
  {
    for (let row = view.rows - 1; row >= Math.max(0, view.rows - 3); row--) {
      const match = /^(\S{0,40}[$#%])\s*$/.exec(view.flat[row]!);
      if (!match || !view.free(row, 0, view.cols)) continue;
      view.use(row, 0, view.cols);
      found.push({ kind: "input", row, col: 0, width: view.cols, height: 1, value: "", cursor: false });
      break;
    }
  }
  return found;
}

function cursorInput(view: View, boxes: Box[]): Found[] {
  const { cursor } = view;
  const row = cursor.row;
  if (!view.free(row, cursor.col, cursor.col + 1)) return [];
  // dialog --inputbox: a one-row box holding the cursor; its label is the text above the box.
  const box = boxAround(boxes, row, cursor.col);
  if (box && box.bottom - box.top === 2) {
    const value = view.text(row, box.left + 1, box.right).trimEnd();
    view.use(box.top, box.left, box.right - box.left + 1, 3);
    const label = labelAbove(view, boxes, box.top, box.left);
    return [{ kind: "input", row: box.top + 1, col: box.left + 1, width: box.right - box.left - 1, height: 1, ...(label ? { label } : {}), value: value.trim(), cursor: true }];
  }
  // whiptail: a field drawn on its own background around the cursor (blanks shown as "_").
  const bg = view.background(row, cursor.col);
  let start = cursor.col;
  let end = cursor.col + 1;
  while (start > 0 && view.background(row, start - 1) === bg && !VERTICAL.includes(view.char(row, start - 1))) start--;
  while (end < view.cols && view.background(row, end) === bg && !VERTICAL.includes(view.char(row, end))) end++;
  const outside = [view.background(row, start - 1), view.background(row, end)].filter((b, i) => (i === 0 ? start > 0 : end < view.cols));
  const prompted = /\S:\s/.test(view.text(row, start, cursor.col));
  if (bg !== "0" && end - start >= 5 && end - start < view.cols * 0.9 && !prompted && outside.length && outside.every((b) => b !== bg)) {
    const value = placeholder(view, start, end) ? "" : view.text(row, start, end).replace(/_+\s*$/, "").trim();
    view.use(row, start, end - start);
    const label = labelAbove(view, boxes, row, start);
    return [{ kind: "input", row, col: start, width: end - start, height: 1, ...(label ? { label } : {}), value, cursor: true }];
  }
  // The prompt starts after what the row already holds (htop's key hints before its "Search:").
  let from = cursor.col;
  while (from > 0 && view.free(row, from - 1, from)) from--;
  const line = view.text(row, from, view.cols);
  const before = view.chars[row]!.slice(from, cursor.col).join("");
  // inquirer: "? Project name shop": the icon, the question in bold, the answer typed so far.
  const asked = from === 0 && /^(\s*)[?✔] (\S)/.exec(before);
  if (asked) {
    const start = asked[0].length - 1;
    let end = start;
    const bold = (col: number) => (view.grid.flags[row * view.cols + col]! & CellFlag.bold) !== 0;
    if (bold(start)) {
      while (end < cursor.col && (bold(end) || view.char(row, end) === " " && bold(end + 1))) end++;
      const label = clean(view.text(row, start, end));
      const first = asked[1]!.length;
      view.use(row, first, view.cols - first);
      return [{ kind: "input", row, col: first, width: view.cols - first, height: 1, label, value: view.text(row, end, view.cols).trim(), cursor: true }];
    }
  }
  // A prompt: text ending in ":", ">", "?", "$", "#" or "❯" before the cursor on its row.
  // vim's and less's command lines: ":", "/" or "?" alone in the first column of the last row.
  const inverse = (view.grid.flags[row * view.cols]! & CellFlag.inverse) !== 0;
  const commandLine = row === view.rows - 1 && !inverse && from === 0 ? /^([:/?])(?=\S)/.exec(before) : null;
  const match = commandLine ?? /^(.*?[^\s].*?[:>?$#❯›]|[>❯›$#])\s/.exec(before) ?? /^(.*[:?>$#❯›])\s*$/.exec(before);
  if (!match || /[│┃║]/.test(match[0])) return [];
  const promptEnd = match[0].length;
  const labelText = commandLine ? commandLine[1]! : clean(match[1]!).replace(/:$/, "");
  const first = from + before.length - before.trimStart().length;
  // npm's and readline's "name: (proj) ": a default in parentheses, the cursor after it, is no value.
  const value = placeholder(view, from + promptEnd, view.cols) || /^\s*\([^)]*\)\s*$/.test(line.slice(promptEnd, cursor.col - from + 1)) ? "" : line.slice(promptEnd).trimEnd();
  // A question's own prompt (Continue? [Y/n]) is a question, not an input.
  if (/[[(][yY]\/[nN][\])]|\[[yn],/.test(line)) return [];
  // "rm: remove regular file 'notes.txt'? ": a question of several words, nothing typed yet, asks for a yes or no.
  const asked_ = /^(\s*)(\S+(?: \S+)+\?)\s*$/.exec(before);
  if (asked_ && !commandLine && !line.slice(cursor.col - from).trim()) {
    const [q, first_] = [asked_[2]!, from + asked_[1]!.length];
    view.use(row, first_, q.length);
    return [{ kind: "question", row, col: first_, width: q.length, height: 1, label: q, items: [] }];
  }
  // The field runs to the end of the row.
  const width = view.cols - first;
  view.use(row, first, width);
  return [{ kind: "input", row, col: first, width, height: 1, label: labelText, value: value.trim(), cursor: true }];
}

/**
 * A field's placeholder ("Type your message…", "Search"): nothing typed before the cursor, and the
 * text right after it drawn dim or in a colour the field's blanks do not have.
 */
function placeholder(view: View, start: number, end: number): boolean {
  const { row, col } = view.cursor;
  if (view.text(row, start, col).trim()) return false;
  const text = view.text(row, col, end).trimEnd();
  const first = col + text.search(/\S/);
  if (first < col || first > col + 2) return false;
  const i = row * view.cols + first;
  const blank = row * view.cols + Math.min(col + text.length, end - 1, view.cols - 1);
  return (view.grid.flags[i]! & CellFlag.dim) !== 0 || (view.char(row, blank) === " " && view.grid.fg[i] !== view.grid.fg[blank]);
}

/** The nearest text above a field inside its dialog (its prompt), a trailing colon dropped. */
function labelAbove(view: View, boxes: Box[], top: number, col: number): string {
  const outer = boxAround(boxes, top, col);
  const left = outer ? outer.left + 1 : 0;
  const right = outer ? outer.right : view.cols;
  for (let r = top - 1; r > (outer ? outer.top : -1); r--) {
    const label = clean(view.text(r, left, right));
    if (!label) continue;
    view.use(r, left, right - left);
    return label.replace(/:$/, "");
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Questions

const YES_NO = /[[(]([yYnN](?:\/(?:\^?[\w?]+))+|[yn](?:,[\w?])+)[\])]\??/;

function findQuestions(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    const line = view.text(row, 0, view.cols);
    const match = YES_NO.exec(view.flat[row]!);
    if (!match) continue;
    const start = line.length - line.trimStart().length;
    const end = line.trimEnd().length;
    const options = match[1]!.split(/[/,]/);
    const col = match.index! + 1;
    const items: Omit<Item, "ref">[] = [];
    let c = col;
    for (const option of options) {
      const key = option.toLowerCase();
      const name = { y: "Yes", n: "No", yes: "Yes", no: "No", q: "Quit", a: "All", d: "Done", e: "Edit", "?": "Help" }[key] ?? option;
      // The capital letter is the default: what Enter picks.
      items.push({ label: name, row, col: c, width: option.length, key: option.startsWith("^") ? option : key.slice(0, 1), ...(option !== key && option.length === 1 ? { selected: true } : {}) });
      c += option.length + 1;
    }
    // inquirer's "? " before its question is an icon, not text.
    const label = clean(view.text(row, start, match.index!)).replace(/^[?✔✖] /, "");
    out.push({ kind: "question", row, col: start, width: end - start, height: 1, label, items });
    view.use(row, start, end - start);
  }
  // vim's and more's "Press ENTER or type command to continue": a question with one answer.
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const match = /(?:Press|Hit) (ENTER|RETURN|any key)\b[^│]*\bto continue\b[^│]*/i.exec(line);
    if (!match || !view.free(row, match.index!, match.index! + match[0].trimEnd().length)) continue;
    const col = match.index!;
    const text = match[0].trimEnd();
    const keyCol = col + match[0].indexOf(match[1]!);
    out.push({ kind: "question", row, col, width: text.length, height: 1, label: text, items: [{ label: match[1]!, row, col: keyCol, width: match[1]!.length, key: "Enter" }] });
    view.use(row, col, text.length);
  }
  // Numbered options under a question: "Do you want to proceed?" then "❯ 1. Yes", "  2. No".
  for (let row = 0; row + 1 < view.rows; row++) {
    const options = numberedRun(view, row);
    if (options.length < 2) continue;
    // The question is a row ending in "?" a little above (codex shows the command between), inside the same frame.
    let q = row - 1;
    const question_ = (r: number) => clean(stripFrame(view.text(r, 0, view.cols)));
    // The question may open a paragraph ("Trust this folder? Codex can read…"): its first sentence ending in "?".
    // inquirer's rawlist: "? Choose a license", its "?" an icon before the question drawn bold.
    const icon = (r: number) => /^\s*\? \S/.test(view.flat[r]!) && (view.grid.flags[r * view.cols + view.flat[r]!.indexOf("?") + 2]! & CellFlag.bold) !== 0;
    const bold = (r: number) => {
      let end = view.flat[r]!.indexOf("?") + 2;
      while (end < view.cols && (view.grid.flags[r * view.cols + end]! & CellFlag.bold) !== 0) end++;
      return clean(view.text(r, view.flat[r]!.indexOf("?") + 2, end));
    };
    const asks = (r: number) => (icon(r) ? bold(r) : /^[^?]*\?(?=\s|$)/.exec(question_(r))?.[0] ?? "");
    while (q >= 0 && q >= row - 12 && !asks(q) && !/^[\s│┃║]*[╭┌├╰└─━]/.test(view.flat[q]!)) q--;
    const question = q >= 0 ? asks(q) : "";
    if (!question.endsWith("?") && !(question && icon(q))) {
      row += options.length - 1;
      continue;
    }
    const col = Math.min(...options.map((o) => o.markerCol));
    const width = Math.max(...options.map((o) => o.col + o.width)) - col;
    const qStart = view.text(q, 0, view.cols).search(/[^\s│┃║|]/);
    // No marker: the one option drawn in a style none of the others has is the selected one (inquirer's colour).
    if (!options.some((o) => o.selected)) {
      const styles = options.map((o) => view.spanStyle(o.row, o.col, o.col + o.width));
      const lone = options.filter((_, i) => styles.filter((st) => st === styles[i]).length === 1);
      if (lone.length === 1) lone[0]!.selected = true;
    }
    const selected = options.filter((o) => o.selected).length === 1;
    out.push({
      kind: "question",
      row: q,
      col: Math.min(col, qStart),
      width,
      height: options[options.length - 1]!.row - q + 1,
      label: question,
      items: options.map((o) => ({ label: o.label, row: o.row, col: o.col, width: o.width, key: o.key, ...(selected && o.selected ? { selected: true } : {}) })),
    });
    // An inquirer question's row is also its input (the number typed after it).
    if (!icon(q)) view.use(q, qStart, view.text(q, 0, view.cols).trimEnd().length - qStart);
    for (const o of options) view.use(o.row, o.markerCol, view.flat[o.row]!.replace(/[\s│┃║|]+$/, "").length - o.markerCol);
    row = options[options.length - 1]!.row;
  }
  return out;
}

/** Drop box frame characters at the ends of a row's text. */
const stripFrame = (text: string): string => text.replace(/^[\s│┃║|]+|[\s│┃║|]+$/g, "");

interface Option {
  row: number;
  markerCol: number;
  col: number;
  width: number;
  key: string;
  label: string;
  selected: boolean;
}

/** Rows from `row` down numbered 1., 2., 3.… (a marker before the number says which one is selected). */
function numberedRun(view: View, row: number): Option[] {
  const options: Option[] = [];
  for (let r = row; r < view.rows; r++) {
    const line = view.flat[r]!;
    const match = /^([\s│┃║|]*?)([>❯›▸►▶→➜●]?)(\s*)(\d{1,2})[.)] (.+?)\s*(?:[│┃║|]\s*)?$/.exec(line);
    if (!match || Number(match[4]) !== options.length + 1) break;
    if (!view.free(r, match[1]!.length, line.replace(/[\s│┃║|]+$/, "").length)) break;
    const markerCol = match[1]!.length;
    const col = markerCol + match[2]!.length + match[3]!.length;
    // "Yes, proceed (y)": the key in parentheses is not the label.
    const label = view.text(r, col + match[4]!.length + 2, col + match[0].length).replace(/[\s│┃║|]+$/, "").trim().replace(/\s+\((?:\w|esc|enter|tab)\)$/i, "");
    options.push({ row: r, markerCol, col, width: match[4]!.length + 2 + label.length, key: match[4]!, label, selected: match[2] !== "" || highlighted(view, r, col, col + match[4]!.length + 2 + label.length) });
  }
  return options;
}

/** A span drawn unlike the rest of its row (reverse video or its own background). */
function highlighted(view: View, row: number, start: number, end: number): boolean {
  const i = row * view.cols + start;
  return (view.grid.flags[i]! & CellFlag.inverse) !== 0 && view.char(row, start).trim() !== "" && end > start;
}

// ---------------------------------------------------------------------------------------------
// Checkboxes and radios

const TOGGLE = /(\[[ xX*✓✔✗]\]|\([ *•xXo]\)|[◉◯◻◼☐☑☒○◎])(?: (\S.*?))?(?=\s{6,}|\s*[│┃║|]|\s*$)/g;

function findToggles(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    for (const match of line.matchAll(TOGGLE)) {
      const col = match.index!;
      if (!match[2] || !view.free(row, col, col + match[0].length)) continue;
      const marker = match[1]!;
      const radio = marker.startsWith("(");
      const checked = /[xX*✓✔◉◼☑☒•o◎]/.test(marker);
      // "tag  Description" (dialog/whiptail lists): the label is the description.
      let label = view.text(row, col + marker.length + 1, col + match[0].length).trim();
      const parts = label.split(/\s{2,}/);
      if (parts.length === 2) label = parts[1]!;
      // inquirer: "❯◯ Vitest", the focus marker right before the box.
      const marked = col > 0 && MARKERS.includes(view.char(row, col - 1)) || col > 1 && MARKERS.includes(view.char(row, col - 2)) && view.char(row, col - 1) === " ";
      out.push({ kind: radio ? "radio" : "checkbox", row, col, width: match[0].length, height: 1, label, checked, ...(marked ? { selected: true } : {}) });
      view.use(row, col, match[0].length);
      if (marked) view.use(row, col - 2, 2);
    }
  }
  if (!out.some((e) => e.selected)) markFocused(view, out);
  return out;
}

/** The backgrounds under a span, as a set: a highlight bar or a lit marker changes it. */
function backgrounds(view: View, row: number, start: number, end: number): string {
  const set = new Set<string>();
  for (let col = start; col < end; col++) set.add(view.background(row, col));
  return [...set].sort().join(",");
}

/**
 * Mark the focused one among siblings: the one under the cursor, else the one drawn on
 * backgrounds none of the others have (a single one: drawn in reverse).
 */
function markFocused(view: View, siblings: Found[]): void {
  const { cursor } = view.grid;
  const under = siblings.filter((e) => cursor.row === e.row && cursor.col >= e.col && cursor.col < e.col + e.width);
  if (under.length === 1) {
    under[0]!.selected = true;
    return;
  }
  const looks = siblings.map((e) => backgrounds(view, e.row, e.col, e.col + e.width));
  // Drawn on other backgrounds than the cells around it: a highlight.
  const lit = siblings.filter((e, i) => {
    const around = new Set([view.background(e.row, e.col - 1), view.background(e.row, e.col + e.width)]);
    return e.col > 0 && e.col + e.width < view.cols && !looks[i]!.split(",").every((bg) => around.has(bg));
  });
  if (lit.length === 1 && siblings.length > 1) {
    lit[0]!.selected = true;
    return;
  }
  if (siblings.length === 1) {
    if (view.spanStyle(siblings[0]!.row, siblings[0]!.col, siblings[0]!.col + siblings[0]!.width).includes("/i")) siblings[0]!.selected = true;
    return;
  }
  const counts = new Map<string, number>();
  for (const look of looks) counts.set(look, (counts.get(look) ?? 0) + 1);
  const unique = siblings.filter((_, i) => counts.get(looks[i]!) === 1);
  if (unique.length === 1) unique[0]!.selected = true;
}

// ---------------------------------------------------------------------------------------------
// Buttons

/** `< OK >`, `<Cancel>`, `[ Cancel ]`, `[ OK ]`. */
const BUTTON = /<\s{0,3}([A-Za-z][\w .'&-]{0,18}?)\s{0,3}>|\[ ([A-Za-z][\w .'&-]{0,18}?) \]/g;

function findButtons(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const pills = pillButtons(view, row);
    if (pills.length) {
      out.push(...pills);
      continue;
    }
    // htop's "[Main] [I/O]": a row of bracketed names alone is tabs.
    if (/^\s*(?:\[[A-Za-z][\w/ .-]{1,15}\]\s*){2,}$/.test(line) && view.free(row, 0, view.cols)) {
      const tabs: Found[] = [...line.matchAll(/\[([A-Za-z][\w/ .-]{1,15})\]/g)].map((m) => ({ kind: "button", row, col: m.index!, width: m[0].length, height: 1, label: m[1]! }));
      markFocused(view, tabs);
      out.push(...tabs);
      view.use(row, 0, view.cols);
      continue;
    }
    // A "<pkg>" glued to the text after it ("`npm install <pkg>` afterwards") is a placeholder in prose.
    const glued = (m: RegExpExecArray) => /^[^\s\]│┃║|]/.test(line.slice(m.index! + m[0].length));
    const matches = [...line.matchAll(BUTTON)].filter((m) => view.free(row, m.index!, m.index! + m[0].length) && !glued(m));
    // A lone "[ New File ]" in a row of text is a message, not a button; brackets need company.
    const buttons = matches.filter((m) => m[1] !== undefined || matches.length > 1 || line.slice(0, m.index!).trim() === "" && /^\s*$/.test(line.slice(m.index! + m[0].length)) === false);
    const row_: Found[] = [];
    for (const m of buttons) {
      const col = m.index!;
      const width = m[0].length;
      row_.push({ kind: "button", row, col, width, height: 1, label: (m[1] ?? m[2])!.trim() });
      view.use(row, col, width);
    }
    markFocused(view, row_);
    out.push(...row_);
  }
  return out;
}

/**
 * opencode's "▌ Allow once ▐  Allow always   Reject  ctrl+f fullscreen…": the focused choice a
 * pill of its own background, the others plain words after it, key hints after those.
 */
function pillButtons(view: View, row: number): Found[] {
  const line = view.flat[row]!;
  for (let col = 1; col < view.cols - 3; col++) {
    const bg = view.background(row, col);
    if (bg === view.background(row, col - 1) || line[col] !== " " || line[col + 1] === " ") continue;
    let end = col + 1;
    while (end < view.cols && view.background(row, end) === bg) end++;
    const text = line.slice(col, end);
    if (!/^ [A-Z][A-Za-z ,'-]{0,23}[a-z] $/.test(text) || !view.free(row, col, end)) continue;
    // Plain choices follow, two or more blanks apart, up to the key hints.
    const rest = line.slice(end);
    const buttons: Found[] = [{ kind: "button", row, col, width: end - col, height: 1, label: text.trim(), selected: true }];
    let at = end;
    for (const piece of rest.matchAll(/(\s{2,})(\S+(?: \S+)?)/g)) {
      const start = end + piece.index! + piece[1]!.length;
      if (!/^[A-Z][a-z]+(?: [a-z]+)?$/.test(piece[2]!) || !view.free(row, start, start + piece[2]!.length)) break;
      buttons.push({ kind: "button", row, col: start, width: piece[2]!.length, height: 1, label: piece[2]! });
      at = start + piece[2]!.length;
    }
    if (buttons.length < 2) continue;
    for (const b of buttons) view.use(b.row, b.col, b.width);
    const hints = line.slice(at).trim();
    if (hints) {
      const start = at + line.slice(at).search(/\S/);
      buttons.push({ kind: "status", row, col: start, width: line.trimEnd().length - start, height: 1, text: hints });
      view.use(row, start, line.trimEnd().length - start);
    }
    return buttons;
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Tables

/** Header candidates whose body is read, per screen: the work stays bounded on any screen. */
const MAX_TABLE_CANDIDATES = 10;

function findTables(view: View): Found[] {
  const out: Found[] = [];
  let candidates = 0;
  for (let row = 0; row + 2 < view.rows && candidates < MAX_TABLE_CANDIDATES; row++) {
    const line = view.flat[row]!;
    // Headers: three or more words, no digits, in one segment between frame characters.
    for (const segment of segments(line)) {
      const text = line.slice(segment.start, segment.end);
      if (!view.free(row, segment.start, segment.end)) continue;
      const words = [...text.replace(/[▽△▼▲]/g, " ").matchAll(/\S+/g)].filter((w) => /[A-Za-z]/.test(w[0]));
      const cells = text.replace(/[▽△▼▲]/g, " ").split(/[│┃║|]/).map((t) => t.trim()).filter(Boolean);
      const names = cells.length >= 3 ? cells : words.map((w) => w[0].trim());
      if (names.length < 3 || names.some((n) => /\d{2,}/.test(n) || n.length > 20)) continue;
      if (!names.every((n) => /^[A-Za-z.#%+/▽△▼▲ _-]+[0-9]?[%+]?[A-Za-z.#%+/▽△▼▲ _-]*$/.test(n))) continue;
      // A header is drawn apart (colour, bold, reverse) or split by column rules.
      const styled = view.spanStyle(row, segment.start, segment.end) !== view.spanStyle(row + 1, segment.start, segment.end);
      const separated = cells.length >= 3;
      if (!styled && !separated) continue;
      candidates++;
      const body = bodyRows(view, row, segment.start, segment.end);
      if (body < 2) continue;
      if (!separated && !aligned(view, row, body, words.map((w) => ({ start: segment.start + w.index!, end: segment.start + w.index! + w[0].length })))) continue;
      let col = segment.start + (text.length - text.trimStart().length);
      let end = col + text.trim().length;
      // Body rows may reach past the header's words, up to the frame around them.
      for (let r = row + 1; r <= row + body; r++) {
        const bodyText = view.text(r, segment.outerStart, segment.outerEnd);
        const first = bodyText.search(/[^\s│┃║]/);
        if (first < 0) continue;
        col = Math.min(col, segment.outerStart + first);
        end = Math.max(end, segment.outerStart + bodyText.replace(/[\s│┃║]+$/, "").length);
      }
      // The body rows themselves, blanks between cells collapsed: what the table says.
      const lines: string[] = [];
      for (let r = row + 1; r <= row + body; r++) lines.push(view.text(r, col, end).replace(/[│┃║]/g, " ").trim().replace(/\s+/g, " "));
      // A panel's empty rows below its last entry (only column rules) are not rows.
      while (lines.length && !lines[lines.length - 1]) lines.pop();
      out.push({ kind: "table", row, col, width: end - col, height: body + 1, header: names, rows: lines.length, text: lines.join("\n") });
      view.use(row, col, end - col, body + 1);
    }
  }
  return out;
}

/** Whether the body's words line up under the header's (left- or right-aligned) in most places. */
function aligned(view: View, header: number, body: number, words: { start: number; end: number }[]): boolean {
  let agree = 0;
  let total = 0;
  const blank = (row: number, col: number) => col < 0 || col >= view.cols || view.char(row, col).trim() === "";
  for (let row = header + 1; row <= header + body; row++) {
    for (const word of words) {
      total++;
      const starts = [-1, 0, 1].some((d) => !blank(row, word.start + d) && blank(row, word.start + d - 1));
      const ends = [-1, 0, 1].some((d) => !blank(row, word.end - 1 + d) && blank(row, word.end + d));
      if (starts || ends) agree++;
    }
  }
  return total > 0 && agree / total >= 0.6;
}

/** Stretches of a row between box frames (a panel's inside). */
function segments(line: string): { start: number; end: number; outerStart: number; outerEnd: number }[] {
  const out: { start: number; end: number }[] = [];
  const frames: number[] = [];
  for (let i = 0; i < line.length; i++) if ("│┃║".includes(line[i]!)) frames.push(i);
  // Frames that are column separators inside a table stay inside: only pairs of "││" split.
  let start = 0;
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    if (line[f + 1] !== undefined && "│┃║".includes(line[f + 1]!)) {
      out.push({ start, end: f });
      start = f + 2;
      i++;
    }
  }
  out.push({ start, end: line.length });
  return out.map(({ start: s, end: e }) => {
    let a = s;
    let b = e;
    while (a < b && " │┃║".includes(line[a]!)) a++;
    while (b > a && " │┃║".includes(line[b - 1]!)) b--;
    return { start: a, end: b, outerStart: s, outerEnd: e };
  }).filter((s) => s.end - s.start >= 10);
}

/** Non-blank rows under a header in the same columns, until a blank row or a frame. */
function bodyRows(view: View, header: number, start: number, end: number): number {
  let rows = 0;
  for (let row = header + 1; row < view.rows; row++) {
    const text = view.text(row, start, end);
    if (text.trim() === "" || /^[─━═├┤┌┐└┘\s]+$/.test(text) || !view.free(row, start, end)) break;
    rows++;
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Menus

/** A list whose selected row carries a marker (❯, >, ›) and whose other rows are indented to match. */
function markerMenus(view: View): Found[] {
  const out: Found[] = [];
  // A frame's sides are blanks here: a list inside a box (qwen's pickers) indents like one outside.
  const lines = view.flat.map((l) => l.replace(/[│┃║]/g, " "));
  for (let row = 0; row < view.rows; row++) {
    const line = lines[row]!;
    const match = /^(\s*)(\S)( {1,2})(\S)/.exec(line);
    if (!match || !MARKERS.includes(match[2]!)) continue;
    const markerCol = match[1]!.length;
    const textCol = markerCol + 1 + match[3]!.length;
    if (!view.free(row, markerCol, textCol + 1)) continue;
    // Rows above and below with blank marker column and text at textCol (±1).
    const fits = (r: number) => {
      const l = lines[r];
      if (!l || !view.free(r, markerCol, textCol + 1)) return false;
      // fzf's multi-select marks a chosen row in the column between the cursor's marker and the text.
      return l.slice(0, textCol - 1).trim() === "" && /[ >*✓✔+●]/.test(l[textCol - 1]!) && l[textCol] !== undefined && !" ⎿└├".includes(l[textCol]!) && !/[─━═]{3}/.test(l);
    };
    let first = row;
    while (first - 1 >= 0 && fits(first - 1)) first--;
    // Rows indented past the items' text are an item's description wrapped (claude's /model): stepped over.
    const more = (r: number) => lines[r]!.slice(0, textCol + 2).trim() === "" && lines[r]!.trim() !== "";
    let last = row;
    for (let r = row + 1; r < view.rows; r++) {
      if (fits(r)) last = r;
      else if (!more(r)) break;
    }
    if (last === first) continue;
    const items: Omit<Item, "ref">[] = [];
    for (let r = first; r <= last; r++) {
      if (r !== row && !fits(r)) continue;
      const text = view.text(r, textCol, view.cols).replace(/[\s│┃║]+$/, "");
      // "1. GPT-6.1-Sol    Latest workhorse…": the number is the key, a column after two blanks a description.
      // A mark after the name (claude's ✔ on the current model) is not part of it.
      const [, key, name] = /^(?:(\d{1,2})[.)] )?(.*?)(?: [✔✓])?(?:\s{2,}\S.*)?$/.exec(text.trim())!;
      const checked = r !== row && view.char(r, textCol - 1) !== " ";
      items.push({ label: name!, row: r, col: textCol, width: text.length, ...(key ? { key } : {}), ...(r === row ? { selected: true } : {}), ...(checked ? { checked } : {}) });
    }
    const width = Math.max(...items.map((i) => i.col + i.width)) - markerCol;
    out.push({ kind: "menu", row: first, col: markerCol, width, height: last - first + 1, items });
    view.use(first, markerCol, width, last - first + 1);
    row = last;
  }
  return out;
}

/**
 * Lists outside boxes whose selected row is a bar: a span on its own background (reverse video or
 * colour) the rows above and below lack, with items over the same columns starting where its text
 * does (tig's commits, ranger's columns). A bar without neighbours is a one-item list only when it
 * shares its row with other bars (ranger's preview column).
 */
function barMenus(view: View, boxes: Box[]): Found[] {
  const bars: { row: number; start: number; end: number }[] = [];
  for (let row = 0; row < view.rows; row++) {
    for (let col = 0; col < view.cols; ) {
      const bg = view.background(row, col);
      let end = col + 1;
      while (end < view.cols && view.background(row, end) === bg) end++;
      const differs = (r: number) => r < 0 || r >= view.rows || view.background(r, col) !== bg && view.background(r, end - 1) !== bg;
      if (bg !== "0" && end - col >= 8 && view.text(row, col, end).trim() && view.char(row, end - 1) === " " && !VERTICAL.includes(view.char(row, col - 1)) && differs(row - 1) && differs(row + 1) && view.free(row, col, end) && !boxAround(boxes, row, col)) bars.push({ row, start: col, end });
      col = end;
    }
  }
  const out: Found[] = [];
  for (const bar of bars) {
    const { row, start, end } = bar;
    const lead = (r: number) => view.text(r, start, end).search(/\S/);
    const textCol = lead(row);
    const fits = (r: number) => r >= 0 && r < view.rows && view.free(r, start, end) && lead(r) === textCol && !BOX_CHARS.test(view.text(r, start, end)) && view.spanBackground(r, start, end) !== view.background(row, start);
    let [first, last] = [row, row];
    while (fits(first - 1)) first--;
    while (fits(last + 1)) last++;
    // A first row above the bar, bold in a style no other row has, is a heading (opencode's "Suggested").
    const style = (r: number) => view.spanStyle(r, start, end);
    const others = Array.from({ length: last - first }, (_, i) => first + 1 + i).filter((r) => r !== row).map(style);
    const boldAt = (r: number) => (view.grid.flags[r * view.cols + start + lead(r)]! & CellFlag.bold) !== 0;
    if (first < row && boldAt(first) && others.length && !others.includes(style(first))) first++;
    if (first === last && !bars.some((other) => other !== bar && other.row === row)) continue;
    const items: Omit<Item, "ref">[] = [];
    for (let r = first; r <= last; r++) {
      // A figure or key right-aligned at the list's edge (ranger's sizes, opencode's "ctrl+x l") is not part of the name.
      const text = view.text(r, start, end).trimEnd();
      const name = end - (start + text.length) <= 4 ? text.replace(/\s{2,}\S+(?: \S+)?$/, "") : text;
      items.push({ label: clean(name), row: r, col: start, width: end - start, ...(r === row ? { selected: true } : {}) });
    }
    out.push({ kind: "menu", row: first, col: start, width: end - start, height: last - first + 1, items });
    view.use(first, start, end - start, last - first + 1);
  }
  return out;
}

/** dialog/whiptail menus: rows in a box, one drawn highlighted; "tag  Label" rows give each a key. */
function highlightMenus(view: View, boxes: Box[]): Found[] {
  const out: Found[] = [];
  for (const box of boxes) {
    if (box.bottom - box.top < 3) continue;
    const inner = { start: box.left + 1, end: box.right };
    // Runs of free non-blank rows inside the box.
    let row = box.top + 1;
    while (row < box.bottom) {
      const rows: number[] = [];
      while (row < box.bottom && view.free(row, inner.start, inner.end) && view.text(row, inner.start, inner.end).trim() !== "") rows.push(row++);
      row++;
      if (rows.length < 2) continue;
      const bgs = rows.map((r) => lineBackground(view, r, inner.start, inner.end));
      const odd = rows.filter((_, i) => bgs.filter((b) => b === bgs[i]).length === 1);
      const lead = rows.map((r) => view.text(r, inner.start, inner.end).search(/\S/));
      if (odd.length !== 1 && !(rows.length === 2 && odd.length === 2)) continue;
      if (new Set(lead).size > 2) continue;
      const selectedRow = odd.length === 1 ? odd[0]! : rows.find((r) => view.spanStyle(r, inner.start, inner.end).includes("/i"));
      if (selectedRow === undefined) continue;
      const items: Omit<Item, "ref">[] = rows.map((r) => {
        // A scroll arrow at the list's right edge is not part of an item.
        const text = view.text(r, inner.start, inner.end).replace(/[↑↓▲▼]\s*$/, "");
        const start = text.search(/\S/);
        const body = text.trimEnd().slice(start);
        const parts = body.split(/\s{2,}/);
        const tagged = parts.length === 2 && parts[0]!.length <= 12;
        const item: Omit<Item, "ref"> = { label: tagged ? parts[1]! : body.trim(), row: r, col: inner.start + start, width: body.length };
        if (tagged) item.key = parts[0]!;
        if (r === selectedRow) item.selected = true;
        return item;
      });
      const col = Math.min(...items.map((i) => i.col));
      const width = Math.max(...items.map((i) => i.col + i.width)) - col;
      // Menus carry no label: their prompt is a text block of its own (test/fixtures/screens/README.md).
      out.push({ kind: "menu", row: rows[0]!, col, width, height: rows.length, items });
      for (const r of rows) view.use(r, inner.start, inner.end - inner.start);
    }
  }
  return out;
}

/** The background of a row's text cells (where a highlight bar shows). */
function lineBackground(view: View, row: number, start: number, end: number): string {
  const text = view.text(row, start, end);
  const first = start + text.search(/\S/);
  const last = start + text.trimEnd().length;
  return view.spanBackground(row, first, last) + view.spanStyle(row, first, last);
}

// ---------------------------------------------------------------------------------------------
// Text blocks

function findText(view: View): Found[] {
  const out: Found[] = [];
  let block: { row: number; lines: { col: number; text: string }[] } | undefined;
  const flush = () => {
    if (!block) return;
    const col = Math.min(...block.lines.map((l) => l.col));
    const width = Math.max(...block.lines.map((l) => l.col + l.text.length)) - col;
    out.push({ kind: "text", row: block.row, col, width, height: block.lines.length, text: block.lines.map((l) => " ".repeat(l.col - col) + l.text).join("\n") });
    block = undefined;
  };
  for (let row = 0; row < view.rows; row++) {
    let text = "";
    let first = -1;
    for (let col = 0; col < view.cols; col++) {
      const char = view.isUsed(row, col) ? " " : view.char(row, col);
      if (char.trim() !== "" && first < 0) first = col;
      if (first >= 0) text += char;
    }
    text = text.trimEnd();
    if (!text) {
      flush();
      continue;
    }
    block ??= { row, lines: [] };
    block.lines.push({ col: first, text });
  }
  flush();
  return out;
}

// ---------------------------------------------------------------------------------------------
// The outline an agent reads (Playwright's aria snapshot, for a terminal)

/**
 * `- menu [e3]:` then `  - item "One" [e3.1] (selected) key=1`…: one element per line, buttons on
 * one row together, no coordinates (--json has them): what an agent reads, in few tokens.
 */
export function outline(elements: Element[]): string {
  const lines: string[] = [];
  const q = (text: string) => JSON.stringify(text);
  const stateOf = (e: { selected?: boolean; checked?: boolean; cursor?: boolean }) => {
    const states: string[] = [];
    if (e.selected) states.push("selected");
    if (e.checked !== undefined) states.push(e.checked ? "checked" : "unchecked");
    if (e.cursor) states.push("cursor");
    return states.length ? ` (${states.join(", ")})` : "";
  };
  // A drawn rule says nothing past its first few cells.
  const short = (text: string) => text.replace(/([─━═╌┄┈▀▄])\1{3,}/g, "$1$1$1…");
  const rows = (text: string) => {
    // Runs of one row repeated (vim's "~" filler) cost one line.
    const all = short(text).split("\n");
    for (let i = 0; i < all.length; ) {
      let j = i;
      while (j + 1 < all.length && all[j + 1] === all[i]) j++;
      lines.push(`  | ${all[i]!.trimEnd()}${j - i >= 2 ? `   (×${j - i + 1})` : ""}`);
      if (j - i === 1) lines.push(`  | ${all[i]!.trimEnd()}`);
      i = j + 1;
    }
  };
  for (let index = 0; index < elements.length; index++) {
    const e = elements[index]!;
    switch (e.kind) {
      case "text":
      case "status":
        if (!e.text!.includes("\n")) lines.push(`- ${e.kind} [${e.ref}]: ${q(short(e.text!.trim()))}`);
        else {
          lines.push(`- ${e.kind} [${e.ref}]:`);
          rows(e.text!);
        }
        break;
      case "table":
        lines.push(`- table [${e.ref}]: ${e.header!.join(" | ")} (${e.rows} rows)`);
        if (e.text) rows(e.text);
        break;
      case "progress":
        lines.push(`- progress${e.label ? ` ${q(e.label)}` : ""} [${e.ref}]: ${e.percent}%`);
        break;
      case "input":
        lines.push(`- input${e.label ? ` ${q(e.label)}` : ""} [${e.ref}]${stateOf(e)}: ${q(e.value ?? "")}`);
        break;
      case "dialog":
        lines.push(`- dialog${e.label ? ` ${q(e.label)}` : ""} [${e.ref}]`);
        break;
      case "button": {
        // The buttons of one row (a dialog's, a function-key bar) on one line.
        const row: Element[] = [e];
        while (elements[index + 1]?.kind === "button" && elements[index + 1]!.row === e.row) row.push(elements[++index]!);
        lines.push(`- button${row.length > 1 ? "s" : ""}: ${row.map((b) => `${q(b.label ?? "")} [${b.ref}]${stateOf(b)}`).join(", ")}`);
        break;
      }
      default: {
        lines.push(`- ${e.kind}${e.label !== undefined ? ` ${q(e.label)}` : ""} [${e.ref}]${stateOf(e)}${e.items ? ":" : ""}`);
        for (const item of e.items ?? []) {
          lines.push(`  - item ${q(item.label)} [${item.ref}]${stateOf(item)}${item.key !== undefined ? ` key=${item.key}` : ""}`);
        }
      }
    }
  }
  return lines.join("\n");
}
