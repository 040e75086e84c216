// Run-time glyph lookup: the embedded font table (dist/font.bin, made by font-build.ts), then the
// procedural box/block/braille glyphs, then a hollow box. Reads no font files from disk at run time
// other than the asset the compiled binary carries.
import { readFileSync } from "node:fs";
import fontAsset from "../../dist/font.bin" with { type: "file" };
import { isProcedural, proceduralGlyph } from "./box-drawing.ts";
import { CELL_H, CELL_W, FONT_MAGIC, FONT_VERSION } from "./font-format.ts";

/** Rows of a glyph's 1- or 2-cell box: bit x of rows[y] is pixel (x, y). */
export interface Glyph {
  rows: Uint32Array;
  wide: boolean;
}

interface Face {
  keys: Uint32Array;
  rows: Uint16Array;
  rowsPerGlyph: number;
  top: number;
  leftNarrow: number;
  leftWide: number;
}

const CODEPOINT_MASK = 0x1fffff;
const WIDE = 0x80000000;

function find(face: Face, codepoint: number): Glyph | undefined {
  let lo = 0;
  let hi = face.keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = face.keys[mid] & CODEPOINT_MASK;
    if (at < codepoint) lo = mid + 1;
    else if (at > codepoint) hi = mid - 1;
    else {
      const wide = (face.keys[mid] & WIDE) !== 0;
      const left = wide ? face.leftWide : face.leftNarrow;
      const rows = new Uint32Array(CELL_H);
      for (let y = 0; y < face.rowsPerGlyph; y++) rows[face.top + y] = face.rows[mid * face.rowsPerGlyph + y] << left;
      return { rows, wide };
    }
  }
  return undefined;
}

function parseFaces(bytes: Uint8Array): Face[] {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  if (words[0] !== FONT_MAGIC || words[1] !== FONT_VERSION) throw new Error("font asset: wrong magic or version");
  if (words[2] !== (CELL_W | (CELL_H << 16))) throw new Error("font asset: cell size differs from the renderer's");
  const faces: Face[] = [];
  let at = 4 + 4 * words[3];
  for (let i = 0; i < words[3]; i++) {
    const [count, rowsPerGlyph, top, left] = words.subarray(4 + i * 4, 8 + i * 4);
    const keys = words.subarray(at, at + count);
    at += count;
    const rows = new Uint16Array(bytes.buffer, bytes.byteOffset + at * 4, count * rowsPerGlyph);
    at += (count * rowsPerGlyph) / 2;
    faces.push({ keys, rows, rowsPerGlyph, top, leftNarrow: left & 0xff, leftWide: left >> 8 });
  }
  return faces;
}

function emboldened(glyph: Glyph): Glyph {
  return { rows: glyph.rows.map((row) => row | (row << 1)), wide: glyph.wide };
}

function hollowBox(wide: boolean): Glyph {
  const rows = new Uint32Array(CELL_H);
  const right = (wide ? 2 : 1) * CELL_W - 2;
  const side = (1 << 1) | (1 << right);
  const top = ((1 << (right + 1)) - 1) & ~1;
  rows.fill(side, 3, CELL_H - 3);
  rows[3] = rows[CELL_H - 4] = top;
  return { rows, wide };
}

class Font {
  readonly #regular: Face;
  readonly #bold: Face;
  readonly #fallback: Face;
  readonly #cache = new Map<number, Glyph | null>();

  constructor(asset: Uint8Array) {
    [this.#regular, this.#bold, this.#fallback] = parseFaces(asset);
  }

  /**
   * The glyph for a code point, or undefined when no font has it. Bold comes from the bold face,
   * else is made by smearing one pixel right (Unifont has no bold). Procedural glyphs ignore bold,
   * as terminals do, so bold and plain box lines still join.
   */
  glyph(codepoint: number, bold: boolean): Glyph | undefined {
    const key = codepoint * 2 + (bold ? 1 : 0);
    let found = this.#cache.get(key);
    if (found === undefined) {
      if (isProcedural(codepoint)) found = { rows: proceduralGlyph(codepoint), wide: false };
      else if (bold) {
        found = find(this.#bold, codepoint) ?? null;
        if (!found) {
          const plain = this.glyph(codepoint, false);
          found = plain ? emboldened(plain) : null;
        }
      } else found = find(this.#regular, codepoint) ?? find(this.#fallback, codepoint) ?? null;
      this.#cache.set(key, found);
    }
    return found ?? undefined;
  }

  /** What to draw for a code point no font has: a visible box, never nothing. */
  readonly placeholder = { narrow: hollowBox(false), wide: hollowBox(true) };
}

let loaded: Font | undefined;

/** The embedded font, unpacked on first use (~10 ms, 2 MB) and kept for the process's life. */
export function font(): Font {
  loaded ??= new Font(Bun.gunzipSync(readFileSync(fontAsset)));
  return loaded;
}
