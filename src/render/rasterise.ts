// Draws a CellGrid at full cell size into 0xRRGGBB pixels: backgrounds, glyphs, attributes, cursor.
// Knows nothing of the emulator, scaling or PNG.
import { CellFlag, type CellGrid } from "../terminal/cell-grid.ts";
import { font, type Glyph } from "./font.ts";
import { CELL_H, CELL_W } from "./font-format.ts";
import { DEFAULT_BG, DEFAULT_FG, mix, resolveColour } from "./palette.ts";

export interface Frame {
  width: number;
  height: number;
  /** Row-major 0xRRGGBB. */
  pixels: Uint32Array;
}

// Decoration rows inside a cell. The font's baseline is row 16 and its x-height spans rows 7–15.
const UNDERLINE_Y = 17;
const STRIKE_Y = 11;
const OVERLINE_Y = 0;
const CURSOR_THICKNESS = 2;
const BASELINE = 16;

/** Italic as a shear of one pixel per five rows, pivoting on the baseline. */
function italicShift(y: number): number {
  return Math.floor((BASELINE - y) / 5);
}

/** Merges each pair of columns into one: a 2-cell glyph drawn in a 1-cell space. */
function halveColumns(row: number): number {
  let out = 0;
  for (let x = 0; x < CELL_W; x++) if (row & (3 << (2 * x))) out |= 1 << x;
  return out;
}

export function rasterise(grid: CellGrid, options: { cursor: boolean; pad: number }): Frame {
  const { cols, rows, codepoints, widths, flags } = grid;
  const { pad } = options;
  const width = (cols + 2 * pad) * CELL_W;
  const height = (rows + 2 * pad) * CELL_H;
  const pixels = new Uint32Array(width * height).fill(DEFAULT_BG);
  const glyphs = font();

  const fillRect = (x: number, y: number, w: number, h: number, colour: number) => {
    for (let row = y; row < y + h; row++) pixels.fill(colour, row * width + x, row * width + x + w);
  };

  const drawGlyph = (glyph: Glyph, span: number, italic: boolean, x0: number, y0: number, colour: number) => {
    // A narrow glyph in a wide cell is centred; a wide glyph in a narrow cell is squeezed to fit.
    const shift = span === 2 && !glyph.wide ? CELL_W >> 1 : 0;
    const squeeze = span === 1 && glyph.wide;
    const mask = (1 << (span * CELL_W)) - 1;
    for (let y = 0; y < CELL_H; y++) {
      let bits = squeeze ? halveColumns(glyph.rows[y]) : glyph.rows[y] << shift;
      if (italic) {
        const slant = italicShift(y);
        bits = slant >= 0 ? bits << slant : bits >>> -slant;
      }
      bits &= mask;
      const line = (y0 + y) * width + x0;
      while (bits) {
        const lowest = bits & -bits;
        pixels[line + 31 - Math.clz32(lowest)] = colour;
        bits ^= lowest;
      }
    }
  };

  let cursorIndex = -1;
  const { cursor } = grid;
  if (options.cursor && cursor.visible && cursor.row >= 0 && cursor.row < rows && cursor.col >= 0 && cursor.col < cols) {
    cursorIndex = cursor.row * cols + cursor.col;
    // On the right half of a wide character the cursor covers the whole character.
    if (widths[cursorIndex] === 0 && cursor.col > 0 && widths[cursorIndex - 1] === 2) cursorIndex--;
  }

  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const i = row * cols + col;
      // The right half of a wide character was drawn with its left half.
      if (widths[i] === 0 && col > 0 && widths[i - 1] === 2) continue;
      const span = widths[i] === 2 && col + 1 < cols ? 2 : 1;
      const cellFlags = flags[i];
      const bold = (cellFlags & CellFlag.bold) !== 0;
      let fg = resolveColour(grid.fg[i], DEFAULT_FG, bold);
      let bg = resolveColour(grid.bg[i], DEFAULT_BG);
      if (cellFlags & CellFlag.dim) fg = mix(fg, bg, 128);
      const isCursor = i === cursorIndex;
      // A block cursor shows the cell inverted, as xterm does; on an inverse cell that undoes it.
      if ((cellFlags & CellFlag.inverse) !== 0 !== (isCursor && cursor.style === "block")) [fg, bg] = [bg, fg];

      const x0 = (pad + col) * CELL_W;
      const y0 = (pad + row) * CELL_H;
      const cellWidth = span * CELL_W;
      if (bg !== DEFAULT_BG) fillRect(x0, y0, cellWidth, CELL_H, bg);

      if (!(cellFlags & CellFlag.invisible)) {
        const codepoint = codepoints[i];
        if (codepoint > 0x20) {
          const glyph = glyphs.glyph(codepoint, bold) ?? glyphs.placeholder[span === 2 ? "wide" : "narrow"];
          drawGlyph(glyph, span, (cellFlags & CellFlag.italic) !== 0, x0, y0, fg);
        }
        if (cellFlags & CellFlag.underline) fillRect(x0, y0 + UNDERLINE_Y, cellWidth, 1, fg);
        if (cellFlags & CellFlag.strikethrough) fillRect(x0, y0 + STRIKE_Y, cellWidth, 1, fg);
        if (cellFlags & CellFlag.overline) fillRect(x0, y0 + OVERLINE_Y, cellWidth, 1, fg);
      }

      if (isCursor && cursor.style === "underline") fillRect(x0, y0 + CELL_H - CURSOR_THICKNESS, cellWidth, CURSOR_THICKNESS, fg);
      if (isCursor && cursor.style === "bar") fillRect(x0, y0, CURSOR_THICKNESS, CELL_H, fg);
    }
  }
  return { width, height, pixels };
}
