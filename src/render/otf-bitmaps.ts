// Build-time only: reads an OpenType font whose CFF outlines trace pixel squares (how Unifont
// ships planes 1+, emoji included, in unifont_upper.otf) back into bitmaps. Lines only: a curve
// means the font is not a pixel font, and the build fails rather than guess.

/** A glyph box of `width` x `height` px: bit x of rows[y] is pixel (x, y), row 0 at the top. */
export interface OutlineBitmap {
  codepoint: number;
  width: number;
  rows: Uint32Array;
}

type Point = [number, number];

function tables(font: DataView): Map<string, number> {
  const found = new Map<string, number>();
  const count = font.getUint16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(...[0, 1, 2, 3].map((k) => font.getUint8(at + k)));
    found.set(tag, font.getUint32(at + 8));
  }
  return found;
}

/** Code point → glyph id, from the full-repertoire cmap subtable (format 12). */
function cmap12(font: DataView, cmap: number): Map<number, number> {
  const map = new Map<number, number>();
  const subtables = font.getUint16(cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const at = cmap + font.getUint32(cmap + 8 + i * 8);
    if (font.getUint16(at) !== 12) continue;
    const groups = font.getUint32(at + 12);
    for (let g = 0; g < groups; g++) {
      const group = at + 16 + g * 12;
      const first = font.getUint32(group);
      const last = font.getUint32(group + 4);
      const glyph = font.getUint32(group + 8);
      for (let cp = first; cp <= last; cp++) map.set(cp, glyph + cp - first);
    }
  }
  return map;
}

/** A CFF INDEX: its items' byte ranges, and where the data after it starts. */
function readIndex(cff: DataView, at: number): { items: [number, number][]; end: number } {
  const count = cff.getUint16(at);
  if (count === 0) return { items: [], end: at + 2 };
  const offSize = cff.getUint8(at + 2);
  const offset = (i: number) => {
    let value = 0;
    for (let k = 0; k < offSize; k++) value = value * 256 + cff.getUint8(at + 3 + i * offSize + k);
    return value;
  };
  const data = at + 2 + (count + 1) * offSize;
  const items: [number, number][] = [];
  for (let i = 0; i < count; i++) items.push([data + offset(i), data + offset(i + 1)]);
  return { items, end: data + offset(count) };
}

/** A CFF DICT: operator (12 x as 1200 + x) → operands. */
function readDict(cff: DataView, [start, end]: [number, number]): Map<number, number[]> {
  const dict = new Map<number, number[]>();
  let operands: number[] = [];
  for (let at = start; at < end; ) {
    const b0 = cff.getUint8(at++);
    if (b0 <= 21) {
      const op = b0 === 12 ? 1200 + cff.getUint8(at++) : b0;
      dict.set(op, operands);
      operands = [];
    } else if (b0 === 28) {
      operands.push(cff.getInt16(at));
      at += 2;
    } else if (b0 === 29) {
      operands.push(cff.getInt32(at));
      at += 4;
    } else if (b0 === 30) {
      // Real numbers (FontMatrix and the like): skip their nibbles, no operator here needs them.
      while ((cff.getUint8(at) & 0x0f) !== 0x0f && (cff.getUint8(at) & 0xf0) !== 0xf0) at++;
      at++;
      operands.push(0);
    } else if (b0 <= 246) operands.push(b0 - 139);
    else if (b0 <= 250) operands.push((b0 - 247) * 256 + cff.getUint8(at++) + 108);
    else operands.push(-(b0 - 251) * 256 - cff.getUint8(at++) - 108);
  }
  return dict;
}

const subrBias = (count: number) => (count < 1240 ? 107 : count < 33900 ? 1131 : 32768);

/** Runs a Type 2 charstring, collecting its closed contours. */
function contours(
  cff: DataView,
  charstring: [number, number],
  globals: [number, number][],
  locals: [number, number][],
): Point[][] {
  const shapes: Point[][] = [];
  let current: Point[] = [];
  let x = 0;
  let y = 0;
  let stems = 0;
  let stack: number[] = [];
  let widthSeen = false;
  // The first stack-clearing operator may carry the advance width as an extra first operand.
  const dropWidth = (expected: number) => {
    if (!widthSeen && stack.length > expected) stack.shift();
    widthSeen = true;
  };
  const moveTo = (dx: number, dy: number) => {
    if (current.length) shapes.push(current);
    x += dx;
    y += dy;
    current = [[x, y]];
  };
  const lineTo = (dx: number, dy: number) => {
    x += dx;
    y += dy;
    current.push([x, y]);
  };
  const run = ([start, end]: [number, number]): boolean => {
    for (let at = start; at < end; ) {
      const b0 = cff.getUint8(at++);
      if (b0 >= 32 || b0 === 28) {
        if (b0 === 28) {
          stack.push(cff.getInt16(at));
          at += 2;
        } else if (b0 <= 246) stack.push(b0 - 139);
        else if (b0 <= 250) stack.push((b0 - 247) * 256 + cff.getUint8(at++) + 108);
        else if (b0 <= 254) stack.push(-(b0 - 251) * 256 - cff.getUint8(at++) - 108);
        else {
          stack.push(cff.getInt32(at) / 65536);
          at += 4;
        }
        continue;
      }
      switch (b0) {
        case 1:
        case 3:
        case 18:
        case 23: // hstem vstem hstemhm vstemhm
          dropWidth(stack.length & ~1);
          stems += stack.length >> 1;
          stack = [];
          break;
        case 19:
        case 20: // hintmask cntrmask: implicit vstems, then the mask bytes
          dropWidth(stack.length & ~1);
          stems += stack.length >> 1;
          stack = [];
          at += (stems + 7) >> 3;
          break;
        case 21:
          dropWidth(2);
          moveTo(stack[0], stack[1]);
          stack = [];
          break;
        case 22:
          dropWidth(1);
          moveTo(stack[0], 0);
          stack = [];
          break;
        case 4:
          dropWidth(1);
          moveTo(0, stack[0]);
          stack = [];
          break;
        case 5:
          for (let i = 0; i + 1 < stack.length; i += 2) lineTo(stack[i], stack[i + 1]);
          stack = [];
          break;
        case 6:
        case 7: // hlineto vlineto: alternating directions
          stack.forEach((d, i) => ((i % 2 === 0) === (b0 === 6) ? lineTo(d, 0) : lineTo(0, d)));
          stack = [];
          break;
        case 10:
        case 29: {
          // callsubr callgsubr
          const subrs = b0 === 10 ? locals : globals;
          const index = stack.pop()! + subrBias(subrs.length);
          if (run(subrs[index])) return true;
          break;
        }
        case 11:
          return false; // return
        case 14: // endchar
          dropWidth(0);
          if (current.length) shapes.push(current);
          current = [];
          return true;
        default:
          throw new Error(`charstring operator ${b0} is not a straight line: not a pixel font`);
      }
    }
    return false;
  };
  run(charstring);
  return shapes;
}

/** Pixels whose centres fall inside the contours (non-zero winding), one row at a time. */
function fill(shapes: Point[][], width: number, unitsPerPixel: number, ascent: number, height: number): Uint32Array {
  const rows = new Uint32Array(height);
  const edges = shapes.flatMap((shape) => shape.map((from, i) => [from, shape[(i + 1) % shape.length]] as const));
  for (let row = 0; row < height; row++) {
    const sy = ascent - (row + 0.5) * unitsPerPixel;
    const crossings: [number, number][] = [];
    for (const [[x0, y0], [x1, y1]] of edges) {
      if (y0 <= sy === y1 <= sy) continue;
      crossings.push([x0 + ((sy - y0) * (x1 - x0)) / (y1 - y0), y1 > y0 ? 1 : -1]);
    }
    crossings.sort((a, b) => a[0] - b[0]);
    for (let px = 0; px < width; px++) {
      const sx = (px + 0.5) * unitsPerPixel;
      let winding = 0;
      for (const [cx, direction] of crossings) if (cx < sx) winding += direction;
      if (winding !== 0) rows[row] |= 1 << px;
    }
  }
  return rows;
}

/**
 * Every code point of a pixel-outline OpenType/CFF font as a bitmap `boxHeight` px tall (one em),
 * with `ascentPx` rows above the baseline; the width comes from the glyph's advance.
 */
export function otfBitmaps(bytes: Uint8Array, boxHeight: number, ascentPx: number): OutlineBitmap[] {
  const font = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = tables(font);
  const [head, hhea, hmtx, cmap, cffAt] = ["head", "hhea", "hmtx", "cmap", "CFF "].map((tag) => {
    const offset = at.get(tag);
    if (offset === undefined) throw new Error(`OpenType table ${tag} missing`);
    return offset;
  });
  const unitsPerPixel = font.getUint16(head + 18) / boxHeight;
  const metrics = font.getUint16(hhea + 34);
  const advance = (glyph: number) => font.getUint16(hmtx + Math.min(glyph, metrics - 1) * 4);

  const cff = new DataView(bytes.buffer, bytes.byteOffset + cffAt);
  const names = readIndex(cff, cff.getUint8(2));
  const topDicts = readIndex(cff, names.end);
  const strings = readIndex(cff, topDicts.end);
  const globals = readIndex(cff, strings.end).items;
  const top = readDict(cff, topDicts.items[0]);
  const charstrings = readIndex(cff, top.get(17)![0]).items;
  const [privateSize, privateAt] = top.get(18) ?? [0, 0];
  const privateDict = readDict(cff, [privateAt, privateAt + privateSize]);
  const locals = privateDict.has(19) ? readIndex(cff, privateAt + privateDict.get(19)![0]).items : [];

  const bitmaps: OutlineBitmap[] = [];
  for (const [codepoint, glyph] of cmap12(font, cmap)) {
    const width = Math.round(advance(glyph) / unitsPerPixel);
    const shapes = contours(cff, charstrings[glyph], globals, locals);
    bitmaps.push({ codepoint, width, rows: fill(shapes, width, unitsPerPixel, ascentPx * unitsPerPixel, boxHeight) });
  }
  return bitmaps;
}
