// Draws a CellGrid as a palette image at the requested scale: backgrounds, glyphs, attributes,
// cursor. Each cell becomes a 1-bit mask at 10x20, then coverage levels in its output box
// (scale.ts), then shades between its colours. Knows nothing of the emulator or PNG.
import { CellFlag, type CellGrid } from "../terminal/cell-grid.ts";
import { emojiColour } from "./emoji-colours.ts";
import { font, type Glyph } from "./font.ts";
import { CELL_H, CELL_W } from "./font-format.ts";
import { DEFAULT_BG, DEFAULT_FG, mix, resolveColour } from "./palette.ts";
import { cellEdges, coverage, LEVELS } from "./scale.ts";

/** An image as palette indices: colours are few, so the PNG encoder needs no colour search. */
export interface Frame {
  width: number;
  height: number;
  /** 0xRRGGBB, each colour once, in order of first use. */
  palette: number[];
  /** Row-major indices into `palette`. */
  pixels: Uint32Array;
}

// Rows inside a cell. The font's baseline is row 16 and its x-height spans rows 7–15.
const BASELINE = 16;
const UNDERLINE_Y = 17;
const STRIKE_Y = 11;
const OVERLINE_Y = 0;
const CURSOR_THICKNESS = 2;

/** Mask parts beyond the glyph, as bits of the coverage cache key. */
const Mark = { italic: 1, underline: 2, strike: 4, overline: 8, cursorUnderline: 16, cursorBar: 32 } as const;

const NO_GLYPH: Glyph = { rows: new Uint32Array(CELL_H), wide: false };

/** Merges each pair of columns into one: a 2-cell glyph drawn in a 1-cell space. */
function halveColumns(row: number): number {
  let out = 0;
  for (let x = 0; x < CELL_W; x++) if (row & (3 << (2 * x))) out |= 1 << x;
  return out;
}

/** Code points that join a cell but draw nothing themselves: variation selectors, ZWJ, ZWNJ. */
const INVISIBLE_JOINERS = new Set([0xfe0e, 0xfe0f, 0x200d, 0x200c]);

/** Base glyphs with their combining marks drawn over them, by base, marks and weight. */
const composed = new Map<string, Glyph>();

/**
 * A base glyph with combining marks over it (e + U+0301 = é, 1 + U+20E3 = a keycap): the font
 * places each mark within the cell where it belongs (above, below, around), so the marks' bits
 * are ORed onto the base, fitted to the base's width.
 */
function withMarks(
  base: Glyph,
  baseCodepoint: number,
  marks: number[],
  bold: boolean,
  glyphs: ReturnType<typeof font>,
): Glyph {
  const key = `${baseCodepoint},${marks.join(",")},${bold ? 1 : 0}`;
  let glyph = composed.get(key);
  if (glyph) return glyph;
  const rows = Uint32Array.from(base.rows);
  for (const mark of marks) {
    if (INVISIBLE_JOINERS.has(mark)) continue;
    const markGlyph = glyphs.glyph(mark, bold);
    if (!markGlyph) continue;
    for (let y = 0; y < CELL_H; y++) {
      const bits = markGlyph.rows[y]!;
      rows[y]! |= base.wide === markGlyph.wide ? bits : base.wide ? bits << (CELL_W >> 1) : halveColumns(bits);
    }
  }
  glyph = { rows, wide: base.wide };
  if (composed.size > 4096) composed.clear();
  composed.set(key, glyph);
  return glyph;
}

/** The cell's full-size 1-bit mask: glyph (fitted to the span, sheared if italic) plus lines. */
function cellMask(glyph: Glyph, span: number, marks: number): Uint32Array {
  const width = span * CELL_W;
  const all = width >= 32 ? -1 : (1 << width) - 1;
  // A narrow glyph in a wide cell is centred; a wide glyph in a narrow cell is squeezed to fit.
  const shift = span === 2 && !glyph.wide ? CELL_W >> 1 : 0;
  const squeeze = span === 1 && glyph.wide;
  const rows = new Uint32Array(CELL_H);
  for (let y = 0; y < CELL_H; y++) {
    let bits = squeeze ? halveColumns(glyph.rows[y]) : glyph.rows[y] << shift;
    if (marks & Mark.italic) {
      // A shear of one pixel per five rows, pivoting on the baseline.
      const slant = Math.floor((BASELINE - y) / 5);
      bits = slant >= 0 ? bits << slant : bits >>> -slant;
    }
    rows[y] = bits & all;
  }
  if (marks & Mark.underline) rows[UNDERLINE_Y] = all;
  if (marks & Mark.strike) rows[STRIKE_Y] = all;
  if (marks & Mark.overline) rows[OVERLINE_Y] = all;
  if (marks & Mark.cursorUnderline) rows.fill(all, CELL_H - CURSOR_THICKNESS);
  if (marks & Mark.cursorBar) for (let y = 0; y < CELL_H; y++) rows[y] |= (1 << CURSOR_THICKNESS) - 1;
  return rows;
}

/** A cell's coverage levels in its output box, and which levels occur (bit n = level n). */
interface CellCoverage {
  levels: Uint8Array;
  used: number;
}

/** Coverage per glyph and variant (marks, span, output box). Cleared when large, never stale. */
const coverageCache = new Map<Glyph, Map<number, CellCoverage>>();
const COVERAGE_CACHE_LIMIT = 20_000;
let coverageEntries = 0;

function cellCoverage(glyph: Glyph, span: number, marks: number, width: number, height: number): CellCoverage {
  let variants = coverageCache.get(glyph);
  if (!variants) {
    if (coverageEntries > COVERAGE_CACHE_LIMIT) {
      coverageCache.clear();
      coverageEntries = 0;
    }
    variants = new Map();
    coverageCache.set(glyph, variants);
  }
  const key = marks | (span << 6) | (width << 8) | (height << 18);
  let found = variants.get(key);
  if (!found) {
    const levels = coverage(cellMask(glyph, span, marks), span * CELL_W, width, height);
    found = { levels, used: levels.reduce((used, level) => used | (1 << level), 0) };
    variants.set(key, found);
    coverageEntries++;
  }
  return found;
}

export function rasterise(grid: CellGrid, options: { cursor: boolean; pad: number; scale: number }): Frame {
  const { cols, rows, codepoints, widths, flags, cursor } = grid;
  const { pad, scale } = options;
  const xs = cellEdges(cols + 2 * pad, CELL_W, scale);
  const ys = cellEdges(rows + 2 * pad, CELL_H, scale);
  const width = xs[cols + 2 * pad];
  const height = ys[rows + 2 * pad];
  const glyphs = font();

  const palette: number[] = [];
  const paletteIndex = new Map<number, number>();
  const indexOf = (colour: number): number => {
    let index = paletteIndex.get(colour);
    if (index === undefined) {
      index = palette.push(colour) - 1;
      paletteIndex.set(colour, index);
    }
    return index;
  };
  // Index 0 is the default background, so a fresh (zeroed) array is already cleared to it.
  indexOf(DEFAULT_BG);
  const pixels = new Uint32Array(width * height);

  // fg/bg pair → palette index at each coverage level, filled on first use so unused shades
  // never reach the palette.
  const UNSET = 0xffffffff;
  const ramps = new Map<number, Uint32Array>();
  const ramp = (fg: number, bg: number): Uint32Array => {
    const key = fg * 0x1000000 + bg;
    let found = ramps.get(key);
    if (!found) {
      found = new Uint32Array(LEVELS + 1).fill(UNSET);
      ramps.set(key, found);
    }
    return found;
  };

  let cursorIndex = -1;
  if (
    options.cursor &&
    cursor.visible &&
    cursor.row >= 0 &&
    cursor.row < rows &&
    cursor.col >= 0 &&
    cursor.col < cols
  ) {
    cursorIndex = cursor.row * cols + cursor.col;
    // On the right half of a wide character the cursor covers the whole character.
    if (widths[cursorIndex] === 0 && cursor.col > 0 && widths[cursorIndex - 1] === 2) cursorIndex--;
  }

  for (let row = 0; row < rows; row++) {
    const y0 = ys[pad + row];
    const cellHeight = ys[pad + row + 1] - y0;
    for (let col = 0; col < cols; col++) {
      const i = row * cols + col;
      // The right half of a wide character was drawn with its left half.
      if (widths[i] === 0 && col > 0 && widths[i - 1] === 2) continue;
      const span = widths[i] === 2 && col + 1 < cols ? 2 : 1;
      const x0 = xs[pad + col];
      const cellWidth = xs[pad + col + span] - x0;
      const cellFlags = flags[i];
      const bold = (cellFlags & CellFlag.bold) !== 0;
      let fg = resolveColour(grid.fg[i], DEFAULT_FG, bold);
      let bg = resolveColour(grid.bg[i], DEFAULT_BG);
      const isCursor = i === cursorIndex;
      // A block cursor shows the cell inverted, as xterm does; on an inverse cell that undoes it.
      if (((cellFlags & CellFlag.inverse) !== 0) !== (isCursor && cursor.style === "block")) [fg, bg] = [bg, fg];
      // Dim fades whatever colour the glyph is drawn in, after inversion, as xterm.js does.
      if (cellFlags & CellFlag.dim) fg = mix(fg, bg, 128);
      if (bg !== DEFAULT_BG) {
        const index = indexOf(bg);
        for (let y = y0; y < y0 + cellHeight; y++) pixels.fill(index, y * width + x0, y * width + x0 + cellWidth);
      }

      let glyph = NO_GLYPH;
      let marks = 0;
      if (!(cellFlags & CellFlag.invisible)) {
        const codepoint = codepoints[i];
        const following = grid.combining.get(i);
        if (codepoint > 0x20)
          glyph = glyphs.glyph(codepoint, bold) ?? glyphs.placeholder[span === 2 ? "wide" : "narrow"];
        if (following && glyph !== NO_GLYPH) glyph = withMarks(glyph, codepoint, following, bold, glyphs);
        const emoji = emojiColour(codepoint, following);
        if (emoji !== undefined) fg = emoji;
        if (cellFlags & CellFlag.italic) marks |= Mark.italic;
        if (cellFlags & CellFlag.underline) marks |= Mark.underline;
        if (cellFlags & CellFlag.strikethrough) marks |= Mark.strike;
        if (cellFlags & CellFlag.overline) marks |= Mark.overline;
      }
      if (isCursor && cursor.style === "underline") marks |= Mark.cursorUnderline;
      if (isCursor && cursor.style === "bar") marks |= Mark.cursorBar;
      if (glyph === NO_GLYPH && (marks & ~Mark.italic) === 0) continue;

      const { levels, used } = cellCoverage(glyph, span, marks, cellWidth, cellHeight);
      const shades = ramp(fg, bg);
      for (let level = 1; level <= LEVELS; level++) {
        if (used & (1 << level) && shades[level] === UNSET)
          shades[level] = indexOf(mix(bg, fg, Math.round((level * 256) / LEVELS)));
      }
      for (let y = 0; y < cellHeight; y++) {
        const line = (y0 + y) * width + x0;
        const from = y * cellWidth;
        for (let x = 0; x < cellWidth; x++) {
          const level = levels[from + x];
          if (level) pixels[line + x] = shades[level];
        }
      }
    }
  }
  return { width, height, palette, pixels };
}
