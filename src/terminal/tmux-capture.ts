// Rows as tmux's `capture-pane -p` prints them: trailing blanks trimmed (or kept, -N/-J), wrapped
// rows joined (-J), and each cell's style change as the SGR codes tmux 3.3a writes for it (-e),
// the last style carried from row to row as tmux does. Pure: reads packed rows (scrollback.ts's
// layout, xterm's own), imports nothing of xterm.
import { CELL_WORDS, type PackedRow } from "./scrollback.ts";

export interface CaptureOptions {
  /** SGR codes before each style change (tmux -e). */
  styles: boolean;
  /** Soft-wrapped rows joined into one line, trailing spaces kept (tmux -J). */
  join: boolean;
  /** Trailing spaces the program wrote kept (tmux -N); cells it never wrote are left out either way. */
  keepSpaces: boolean;
}

// xterm's cell words (common/buffer/Constants.ts).
const CODEPOINT_MASK = 0x1fffff;
const COMBINED = 0x200000;
const HAS_CONTENT = 0x3fffff;
const WIDTH_SHIFT = 22;
const COLOUR_MODE = 0x3000000;
const P16 = 0x1000000;
const P256 = 0x2000000;
const RGB = 0x3000000;
const FG_INVERSE = 0x4000000;
const FG_BOLD = 0x8000000;
const FG_UNDERLINE = 0x10000000;
const FG_BLINK = 0x20000000;
const FG_INVISIBLE = 0x40000000;
const FG_STRIKETHROUGH = 0x80000000;
const BG_ITALIC = 0x4000000;
const BG_DIM = 0x8000000;
const BG_HAS_EXTENDED = 0x10000000;
const BG_OVERLINE = 0x40000000;
const UNDERLINE_STYLE_SHIFT = 26;

/** The style of a cell as tmux compares it: attribute codes in tmux's order, fg and bg parameters. */
interface Style {
  attrs: number[];
  fg: string;
  bg: string;
}

const DEFAULT_STYLE: Style = { attrs: [], fg: "39", bg: "49" };

// tmux's grid_string_cells_code order: bright, dim, italics, underscore, blink, reverse, hidden,
// strikethrough, the underscore styles (4:2…4:5), overline.
function attributesOf(fg: number, bg: number, ext: number): number[] {
  const attrs: number[] = [];
  if (fg & FG_BOLD) attrs.push(1);
  if (bg & BG_DIM) attrs.push(2);
  if (bg & BG_ITALIC) attrs.push(3);
  const underline = fg & FG_UNDERLINE ? (bg & BG_HAS_EXTENDED ? (ext >>> UNDERLINE_STYLE_SHIFT) & 7 : 1) || 1 : 0;
  if (underline === 1) attrs.push(4);
  if (fg & FG_BLINK) attrs.push(5);
  if (fg & FG_INVERSE) attrs.push(7);
  if (fg & FG_INVISIBLE) attrs.push(8);
  if (fg & FG_STRIKETHROUGH) attrs.push(9);
  if (underline >= 2 && underline <= 5) attrs.push(40 + underline);
  if (bg & BG_OVERLINE) attrs.push(53);
  return attrs;
}

function colourOf(word: number, base: 30 | 40): string {
  const value = word & 0xffffff;
  switch (word & COLOUR_MODE) {
    case P16:
      return String(value < 8 ? base + value : base + 60 + (value - 8));
    case P256:
      return `${base + 8};5;${value & 0xff}`;
    case RGB:
      return `${base + 8};2;${(value >> 16) & 0xff};${(value >> 8) & 0xff};${value & 0xff}`;
    default:
      return String(base + 9);
  }
}

/** The codes tmux writes between a cell of style `last` and one of style `next` ("" when none). */
function codesBetween(last: Style, next: Style): string {
  let codes = "";
  const written: number[] = [];
  let lastAttrs = last.attrs;
  // Any attribute removed: tmux starts again from 0, then writes every one still set.
  if (lastAttrs.some((code) => !next.attrs.includes(code))) {
    written.push(0);
    lastAttrs = [];
  }
  for (const code of next.attrs) if (!lastAttrs.includes(code)) written.push(code);
  // An underscore style is kept as 4N: written 4:N.
  const sgr = (code: number) => (code < 10 ? String(code) : `${Math.floor(code / 10)}:${code % 10}`);
  if (written.length) codes += `\x1b[${written.map(sgr).join(";")}m`;
  const reset = written[0] === 0;
  if (next.fg !== last.fg || reset) codes += `\x1b[${next.fg}m`;
  if (next.bg !== last.bg || reset) codes += `\x1b[${next.bg}m`;
  return codes;
}

function styleAt(row: PackedRow, col: number): Style {
  const fg = row.data[col * CELL_WORDS + 1]!;
  const bg = row.data[col * CELL_WORDS + 2]!;
  const ext = bg & BG_HAS_EXTENDED ? (row.extended[col]?.ext ?? 0) : 0;
  return { attrs: attributesOf(fg, bg, ext), fg: colourOf(fg, 30), bg: colourOf(bg, 40) };
}

/** Columns up to the row's last written cell (xterm's getTrimmedLength; tmux's cellused). */
function usedColumns(row: PackedRow): number {
  for (let col = row.length - 1; col >= 0; col--) {
    const content = row.data[col * CELL_WORDS]!;
    if (content & HAS_CONTENT) return col + (content >>> WIDTH_SHIFT);
  }
  return 0;
}

/**
 * Captures rows top to bottom as tmux prints them. `rows[i]` is undefined for a row that cannot be
 * read (it counts as empty). A row is followed by a line break unless joining and the next row
 * continues it.
 */
export class TmuxCapture {
  readonly #options: CaptureOptions;
  #last: Style = DEFAULT_STYLE;
  #line = "";
  readonly lines: string[] = [];

  constructor(options: CaptureOptions) {
    this.#options = options;
  }

  /** One row; `continued`: the next row is this one's soft-wrapped continuation. */
  add(row: PackedRow | undefined, continued: boolean): void {
    let text = "";
    const used = row ? Math.min(usedColumns(row), row.length) : 0;
    for (let col = 0; col < used; col++) {
      const content = row!.data[col * CELL_WORDS]!;
      if (content >>> WIDTH_SHIFT === 0) continue; // the right half of a wide character
      if (this.#options.styles) {
        const style = styleAt(row!, col);
        text += codesBetween(this.#last, style);
        this.#last = style;
      }
      const codepoint = content & CODEPOINT_MASK;
      text += content & COMBINED ? (row!.combined[col] ?? " ") : codepoint ? String.fromCodePoint(codepoint) : " ";
    }
    if (!this.#options.join && !this.#options.keepSpaces) text = text.replace(/ +$/, "");
    this.#line += text;
    if (this.#options.join && continued) return;
    this.lines.push(this.#line);
    this.#line = "";
  }

  /** The lines, a last joined row whose continuation was out of range included. */
  finish(): string[] {
    if (this.#line) this.lines.push(this.#line);
    this.#line = "";
    return this.lines;
  }
}
