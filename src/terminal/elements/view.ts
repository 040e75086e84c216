// Reading a CellGrid for the detectors: cells by row and column, their styles, boxes, and the
// helpers several detectors share (frames, focus, highlights).
import { CellFlag, type CellGrid } from "../cell-grid.ts";
import type { Found } from "./types.ts";

const EMPHASIS = CellFlag.inverse | CellFlag.bold | CellFlag.underline | CellFlag.dim;
export const VERTICAL = "│┃║|";
export const HORIZONTAL = "─━═";
export const BOX_CHARS = /[─━═│┃║┌┍┎┏╒╓╔╭┐┑┒┓╕╖╗╮└┕┖┗╘╙╚╰┘┙┚┛╛╜╝╯├┝┞┟┠┡┢┣╞╟╠┤┥┦┧┨┩┪┫╡╢╣┬┭┮┯┰┱┲┳╤╥╦┴┵┶┷┸┹┺┻╧╨╩┼╪╫╬]/;
export const TOP_LEFT = "┌┍┎┏╒╓╔╭";
export const TOP_RIGHT = "┐┑┒┓╕╖╗╮";
export const BOTTOM_LEFT = "└┕┖┗╘╙╚╰";
export const BOTTOM_RIGHT = "┘┙┚┛╛╜╝╯";
/** Left markers of a selected row in a list (fzf, inquirer, agent CLIs' selects; tty-prompt's "‣"). */
/** A mark in brackets opening a line, then words: znc's "[ ?? ] ", "[ ** ] ", "[ !! ] " (no letter or digit inside). */
export const LINE_MARK = /^\[ [^\s\p{L}\p{N}\]]{1,3} \] (?=.*\p{L})/u;
export const MARKERS = ">❯›▸►▶→➜●‣";

/** Read access to a CellGrid by row and column, with one string per column (wide characters' right halves are ""). */
export class View {
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
      for (let i = 0; i < grid.flags.length && drawn.length < 2; i++)
        if (grid.flags[i]! & CellFlag.inverse) drawn.push(i);
      // Else a lone block ("█", clack's) or a lone cell on a background of its own (enquirer's).
      if (drawn.length === 0) {
        const block = [];
        const lit = [];
        for (let i = 0; i < grid.codepoints.length && block.length < 2; i++)
          if (grid.codepoints[i] === 0x2588) block.push(i);
        for (let i = 0; i < grid.bg.length && lit.length < 2; i++) if (grid.bg[i] !== grid.bg[0]) lit.push(i);
        if (block.length === 1) drawn.push(block[0]!);
        else if (lit.length === 1) drawn.push(lit[0]!);
      }
      if (drawn.length === 1)
        this.cursor = { row: Math.floor(drawn[0]! / grid.cols), col: drawn[0]! % grid.cols, visible: true };
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
        // A no-break space (elinks's "[\u00a0Clear\u00a0]") reads as a blank.
        let char = cp === 0 || cp === 0xa0 ? " " : String.fromCodePoint(cp);
        const marks = grid.combining.get(i);
        if (marks) char += String.fromCodePoint(...marks);
        chars.push(char);
        // (A variation selector after a mark, qwen's "●︎", leaves it the mark it is.)
        const base = marks?.every((m) => m >= 0xfe00 && m <= 0xfe0f) ? String.fromCodePoint(cp) : char;
        flat += base.length === 1 ? base : "\uE000";
      }
      this.chars.push(chars);
      this.flat.push(flat);
    }
  }

  #backdrop: string | undefined;

  /** The background most of the screen is drawn on ("0" when none is set; lynx paints its own). */
  get backdrop(): string {
    if (this.#backdrop === undefined) {
      const counts = new Map<string, number>();
      // Every 7th cell is enough to tell, and keeps this cheap on any screen.
      for (let i = 0; i < this.grid.flags.length; i += 7) {
        const bg = this.background(Math.floor(i / this.cols), i % this.cols);
        counts.set(bg, (counts.get(bg) ?? 0) + 1);
      }
      let most = 0;
      this.#backdrop = "0";
      for (const [bg, count] of counts) if (count > most) [this.#backdrop, most] = [bg, count];
    }
    return this.#backdrop;
  }

  /** The characters of a row from `start` to `end`; a row off the screen (past a list on the last row) has none. */
  text(row: number, start: number, end: number): string {
    return this.chars[row]?.slice(Math.max(0, start), Math.min(this.cols, end)).join("") ?? "";
  }

  char(row: number, col: number): string {
    return this.chars[row]?.[col] ?? " ";
  }

  /** Whether a cell is drawn with a flag (CellFlag.bold, dim, inverse…). */
  has(row: number, col: number, flag: number): boolean {
    return (this.grid.flags[row * this.cols + col]! & flag) !== 0;
  }

  /** A cell's foreground colour, packed (cell-grid.ts): equal inks compare equal. */
  ink(row: number, col: number): number {
    return this.grid.fg[row * this.cols + col]!;
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

export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
  title: string;
}

/** Collapse runs of blanks and trim. */
export const clean = (text: string): string => text.replace(/\s+/g, " ").trim();

export const contains = (outer: Box, inner: Box): boolean =>
  outer.top <= inner.top && outer.bottom >= inner.bottom && outer.left <= inner.left && outer.right >= inner.right;

/** The innermost box around a cell, if any. */
export function boxAround(boxes: Box[], row: number, col: number): Box | undefined {
  let best: Box | undefined;
  for (const box of boxes) {
    if (row > box.top && row < box.bottom && col > box.left && col < box.right) {
      if (
        !best ||
        (box.bottom - box.top) * (box.right - box.left) < (best.bottom - best.top) * (best.right - best.left)
      )
        best = box;
    }
  }
  return best;
}

/** Drop box frame characters at the ends of a row's text. */
export const stripFrame = (text: string): string => text.replace(/^[\s│┃║|]+|[\s│┃║|]+$/g, "");

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
export function markFocused(view: View, siblings: Found[]): void {
  const { cursor } = view.grid;
  const looks = siblings.map((e) => backgrounds(view, e.row, e.col, e.col + e.width));
  // The cursor on one says it, unless a row of them all drawn alike leaves it on a hot key while
  // the focus is elsewhere (mc's "[< Chdir >]" under its results list).
  const under = siblings.filter((e) => cursor.row === e.row && cursor.col >= e.col && cursor.col < e.col + e.width);
  const alike =
    siblings.length >= 2 &&
    siblings.every(
      (e) =>
        e.kind === "button" &&
        view.spanStyle(e.row, e.col, e.col + e.width) ===
          view.spanStyle(siblings[0]!.row, siblings[0]!.col, siblings[0]!.col + siblings[0]!.width),
    );
  if (under.length === 1 && !alike) {
    under[0]!.selected = true;
    return;
  }
  // Drawn on other backgrounds than the cells around it: a highlight. (Not one drawn as all its
  // siblings are, whose span happens to end where their common background does.)
  const lit = siblings.filter((e, i) => {
    const around = new Set([view.background(e.row, e.col - 1), view.background(e.row, e.col + e.width)]);
    const alike = looks.filter((look) => look === looks[i]).length;
    return (
      e.col > 0 &&
      e.col + e.width < view.cols &&
      !looks[i]!.split(",").every((bg) => around.has(bg)) &&
      (alike === 1 || siblings.length < 3)
    );
  });
  if (lit.length === 1 && siblings.length > 1) {
    lit[0]!.selected = true;
    return;
  }
  if (siblings.length === 1) {
    // A lone one is focused when drawn in reverse or on a background the cells around it do not
    // have (dialog's "< EXIT >").
    if (
      view.spanStyle(siblings[0]!.row, siblings[0]!.col, siblings[0]!.col + siblings[0]!.width).includes("/i") ||
      lit.length === 1
    )
      siblings[0]!.selected = true;
    return;
  }
  const counts = new Map<string, number>();
  for (const look of looks) counts.set(look, (counts.get(look) ?? 0) + 1);
  const unique = siblings.filter((_, i) => counts.get(looks[i]!) === 1);
  if (unique.length === 1) unique[0]!.selected = true;
}

/** A span drawn unlike the rest of its row (reverse video or its own background). */
export function highlighted(view: View, row: number, start: number, end: number): boolean {
  return view.has(row, start, CellFlag.inverse) && view.char(row, start).trim() !== "" && end > start;
}

/** The background of a row's text cells (where a highlight bar shows). */
export function lineBackground(view: View, row: number, start: number, end: number): string {
  const text = view.text(row, start, end);
  const first = start + text.search(/\S/);
  const last = start + text.trimEnd().length;
  return view.spanBackground(row, first, last) + view.spanStyle(row, first, last);
}

/**
 * Two rows of one text the terminal wrapped, as one. A row written to its last column, the next going on without a
 * blank, broke where the terminal wrapped, maybe mid-word ("…s3.am" over "azonaws.com]"): nothing goes between; else
 * a blank. `first` is the first row as drawn (its end's blanks aside), `kept` what of it is kept (all of it, or an
 * option's label without its key).
 */
export function joinWrapped(cols: number, first: string, rest: string, kept = first): string {
  return kept + (first.length >= cols && /\S$/.test(first) && /^\S/.test(rest) ? "" : " ") + rest;
}

/**
 * Whether the cursor waits at the start of an empty row under a row written to its last column: a prompt that filled
 * its row, the terminal's cursor gone on to the next (bundler's "… see https://bit.ly/coc-enforcement. y/(n): ").
 */
export function filledAbove(view: View): boolean {
  const { row, col } = view.cursor;
  return row > 0 && col === 0 && !view.flat[row]!.trim() && view.flat[row - 1]!.trimEnd().length >= view.cols - 1;
}

/**
 * A frame cut into panes by rules from a "┬" in its top to a "┴" in its bottom, crossing no rule ("┼": a table's
 * cells, pspg's), is its panes (ytree's directory tree and file list left, its statistics right).
 */
export function panes(view: View, box: Box): Box[] {
  const cuts: number[] = [];
  for (let col = box.left + 1; col < box.right; col++) {
    if (!"┬┳╤╥╦".includes(view.char(box.top, col)) || !"┴┻╧╨╩".includes(view.char(box.bottom, col))) continue;
    let down = true;
    for (let row = box.top + 1; row < box.bottom && down; row++) down = "│┃║├┤┝┥┠┨".includes(view.char(row, col));
    if (!down) return [];
    cuts.push(col);
  }
  const edges = [box.left, ...cuts, box.right];
  return edges.slice(1).map((right, i) => ({ ...box, left: edges[i]!, right }));
}

/** Of items, those whose look (`looks[i]`, a span's style or background) no other has: the one drawn apart. */
export function drawnApart<T>(items: readonly T[], looks: readonly string[]): T[] {
  return items.filter((_, i) => looks.filter((l) => l === looks[i]).length === 1);
}

/** Text matched as itself in a RegExp: its special characters escaped. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A key's name in angle brackets within square ones, glued to a sentence's end: the default (unison's ".[<spc>]"). */
export const GLUED_DEFAULT_KEY = /(?<=\p{L}[.!?:])\[<[\w-]{1,8}>\]$/u;
