// Box drawing (U+2500–257F), block elements (U+2580–259F) and braille (U+2800–28FF), drawn at cell
// size so lines and blocks meet their neighbours without gaps, as kitty, foot and alacritty do.
// Pure geometry: no font data, no colours.
import { CELL_H, CELL_W } from "./font-format.ts";

export const isProcedural = (codepoint: number): boolean =>
  (codepoint >= 0x2500 && codepoint <= 0x259f) || (codepoint >= 0x2800 && codepoint <= 0x28ff);

/**
 * Arms of U+2500–257F, four digits each (up, right, down, left): 0 none, 1 light, 2 heavy,
 * 3 double; 0000 for the arcs and diagonals. Generated from the Unicode character names.
 */
const ARMS =
  "0101020210102020010102021010202001010202101020200110021001200220" +
  "0011001200210022110012002100220010011002200120021110121021101120" +
  "2120221012202220101110122011102120212012102220220111011202110212" +
  "0121012202210222110111021201120221012102220122021111111212111212" +
  "2111112121212112221111221221221212222122222122220101020210102020" +
  "0303303003100130033000130031003313003100330010033001300313103130" +
  "3330101330313033031301310333130331013303131331313333000000000000" +
  "0000000000000000000110000100001000022000020000200201102001022010";

/** Dashed lines: code point → number of dashes per cell. */
const DASHES = new Map([
  [0x2504, 3],
  [0x2505, 3],
  [0x2506, 3],
  [0x2507, 3],
  [0x2508, 4],
  [0x2509, 4],
  [0x250a, 4],
  [0x250b, 4],
  [0x254c, 2],
  [0x254d, 2],
  [0x254e, 2],
  [0x254f, 2],
]);

type Rows = Uint32Array;

const span = (x0: number, x1: number): number => (x1 >= 32 ? 0xffffffff : (1 << x1) - 1) & ~((1 << x0) - 1);

function fill(rows: Rows, x0: number, x1: number, y0: number, y1: number): void {
  const bits = span(x0, x1);
  for (let y = y0; y < y1; y++) rows[y] |= bits;
}

function clear(rows: Rows, x0: number, x1: number, y0: number, y1: number): void {
  const bits = ~span(x0, x1);
  for (let y = y0; y < y1; y++) rows[y] &= bits;
}

/** Light lines are 1 px, like the font's strokes; heavy and double lines span 3 px. */
const thickness = (weight: number): number => (weight === 0 ? 0 : weight === 1 ? 1 : 3);

/** The [start, end) pixels of a line of `width` px centred in `size`; a 1 px line matches the font's. */
function band(size: number, width: number): [number, number] {
  const start = (size - width) >> 1;
  return [start, start + width];
}

function drawArms(rows: Rows, up: number, right: number, down: number, left: number): void {
  const [vx0, vx1] = band(CELL_W, Math.max(thickness(up), thickness(down), 1));
  const [hy0, hy1] = band(CELL_H, Math.max(thickness(left), thickness(right), 1));
  // Each arm reaches across the perpendicular band so corners and junctions come out solid.
  if (left) fill(rows, 0, vx1, ...band(CELL_H, thickness(left)));
  if (right) fill(rows, vx0, CELL_W, ...band(CELL_H, thickness(right)));
  if (up) fill(rows, ...band(CELL_W, thickness(up)), 0, hy1);
  if (down) fill(rows, ...band(CELL_W, thickness(down)), hy0, CELL_H);

  // A double line is a 3 px line with its middle removed. The middle is cut through the centre
  // when nothing single crosses there (═ ╔ ╬ ╤), and stops short of a single line that does (╪ ╒).
  const [cx] = band(CELL_W, 1);
  const [cy] = band(CELL_H, 1);
  const through = (a: number, b: number, opposite: number): boolean =>
    ((a === 0 || a === 3) && (b === 0 || b === 3)) || (opposite === 3 && !(a && b));
  if (left === 3) clear(rows, 0, through(up, down, right) ? cx + 1 : vx0, cy, cy + 1);
  if (right === 3) clear(rows, through(up, down, left) ? cx : vx1, CELL_W, cy, cy + 1);
  if (up === 3) clear(rows, cx, cx + 1, 0, through(left, right, down) ? cy + 1 : hy0);
  if (down === 3) clear(rows, cx, cx + 1, through(left, right, up) ? cy : hy1, CELL_H);
}

/** Cuts a line into `count` dashes per cell, each followed by its gap, so the rhythm continues. */
function dash(rows: Rows, count: number, horizontal: boolean): void {
  const length = horizontal ? CELL_W : CELL_H;
  const gap = Math.max(1, Math.round(length / count / 3));
  for (let i = 1; i <= count; i++) {
    const end = Math.floor((i * length) / count);
    if (horizontal) clear(rows, end - gap, end, 0, CELL_H);
    else clear(rows, 0, CELL_W, end - gap, end);
  }
}

/** Quarter circle joining the centre lines; `dx`/`dy` (±1) say which way its two arms leave. */
function arc(rows: Rows, dx: number, dy: number): void {
  const [cx] = band(CELL_W, 1);
  const [cy] = band(CELL_H, 1);
  const radius = CELL_W >> 1;
  const centreX = cx + 0.5 + dx * radius;
  const centreY = cy + 0.5 + dy * radius;
  for (let y = 0; y < CELL_H; y++) {
    for (let x = 0; x < CELL_W; x++) {
      const inQuadrant = (x + 0.5 - centreX) * dx <= 0 && (y + 0.5 - centreY) * dy <= 0;
      if (inQuadrant && Math.abs(Math.hypot(x + 0.5 - centreX, y + 0.5 - centreY) - radius) < 0.5) rows[y] |= 1 << x;
    }
  }
  // Straight runs from the arc's ends to the cell edges.
  if (dy > 0) fill(rows, cx, cx + 1, Math.floor(centreY), CELL_H);
  else fill(rows, cx, cx + 1, 0, Math.ceil(centreY));
  if (dx > 0) fill(rows, Math.floor(centreX), CELL_W, cy, cy + 1);
  else fill(rows, 0, Math.ceil(centreX), cy, cy + 1);
}

function diagonal(rows: Rows, rising: boolean): void {
  for (let y = 0; y < CELL_H; y++) {
    const x = Math.floor(((y + 0.5) * CELL_W) / CELL_H);
    rows[y] |= 1 << (rising ? CELL_W - 1 - x : x);
  }
}

function block(rows: Rows, codepoint: number): void {
  const eighthH = (n: number) => Math.round((CELL_H * n) / 8);
  const eighthW = (n: number) => Math.round((CELL_W * n) / 8);
  const midX = CELL_W >> 1;
  const midY = CELL_H >> 1;
  if (codepoint === 0x2580) fill(rows, 0, CELL_W, 0, midY);
  else if (codepoint <= 0x2588) fill(rows, 0, CELL_W, CELL_H - eighthH(codepoint - 0x2580), CELL_H);
  else if (codepoint <= 0x258f) fill(rows, 0, eighthW(0x2590 - codepoint), 0, CELL_H);
  else if (codepoint === 0x2590) fill(rows, midX, CELL_W, 0, CELL_H);
  else if (codepoint <= 0x2593) shade(rows, codepoint - 0x2590);
  else if (codepoint === 0x2594) fill(rows, 0, CELL_W, 0, eighthH(1));
  else if (codepoint === 0x2595) fill(rows, CELL_W - eighthW(1), CELL_W, 0, CELL_H);
  else {
    // Quadrants, as bits: upper-left 1, upper-right 2, lower-left 4, lower-right 8.
    const quadrants = [4, 8, 1, 13, 9, 7, 11, 2, 6, 14][codepoint - 0x2596];
    if (quadrants & 1) fill(rows, 0, midX, 0, midY);
    if (quadrants & 2) fill(rows, midX, CELL_W, 0, midY);
    if (quadrants & 4) fill(rows, 0, midX, midY, CELL_H);
    if (quadrants & 8) fill(rows, midX, CELL_W, midY, CELL_H);
  }
}

/** ░ ▒ ▓ as 1-in-4, 2-in-4 and 3-in-4 pixel patterns; even cell sizes keep them seamless. */
function shade(rows: Rows, level: number): void {
  for (let y = 0; y < CELL_H; y++) {
    for (let x = 0; x < CELL_W; x++) {
      const rank = [0, 2, 3, 1][(y & 1) * 2 + (x & 1)];
      if (rank < level) rows[y] |= 1 << x;
    }
  }
}

/** Braille dots 1–8 on a 2x4 grid of 2x2 px dots, evenly spaced across cells. */
function braille(rows: Rows, dots: number): void {
  const columns = [0, 0, 0, 1, 1, 1, 0, 1];
  const lines = [0, 1, 2, 0, 1, 2, 3, 3];
  const stepX = CELL_W >> 1;
  const stepY = CELL_H >> 2;
  for (let dot = 0; dot < 8; dot++) {
    if (!(dots & (1 << dot))) continue;
    const x = columns[dot] * stepX + ((stepX - 2) >> 1);
    const y = lines[dot] * stepY + ((stepY - 2) >> 1);
    fill(rows, x, x + 2, y, y + 2);
  }
}

/** The glyph of a procedural code point as cell rows (bit x of rows[y] is pixel x, y). */
export function proceduralGlyph(codepoint: number): Uint32Array {
  const rows = new Uint32Array(CELL_H);
  if (codepoint >= 0x2800) braille(rows, codepoint - 0x2800);
  else if (codepoint >= 0x2580) block(rows, codepoint);
  else if (codepoint >= 0x256d && codepoint <= 0x2570) {
    const [dx, dy] = [
      [1, 1],
      [-1, 1],
      [-1, -1],
      [1, -1],
    ][codepoint - 0x256d];
    arc(rows, dx, dy);
  } else if (codepoint >= 0x2571 && codepoint <= 0x2573) {
    if (codepoint !== 0x2572) diagonal(rows, true);
    if (codepoint !== 0x2571) diagonal(rows, false);
  } else {
    const at = (codepoint - 0x2500) * 4;
    const [up, right, down, left] = [0, 1, 2, 3].map((i) => ARMS.charCodeAt(at + i) - 48);
    drawArms(rows, up, right, down, left);
    const dashes = DASHES.get(codepoint);
    if (dashes) dash(rows, dashes, right !== 0);
  }
  return rows;
}
