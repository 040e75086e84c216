// Build-time font conversion: reads the bitmap fonts in fonts/ and writes the compact glyph table
// that font.ts embeds. Runs under build.ts and the render tests only; never imported at run time.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { isProcedural } from "./box-drawing.ts";
import { CELL_H, CELL_W, FONT_MAGIC, FONT_VERSION } from "./font-format.ts";
import { otfBitmaps } from "./otf-bitmaps.ts";

const ROOT = join(import.meta.dir, "../..");
const FONT_ASSET = join(ROOT, "dist/font.bin");
const SOURCES = {
  regular: join(ROOT, "fonts/ter-u20n_unicode.pcf.gz"),
  bold: join(ROOT, "fonts/ter-u20b_unicode.pcf.gz"),
  fallback: join(ROOT, "fonts/unifont-15.0.01.hex.gz"),
  /** Planes 1+ (emoji, symbols, historic scripts): Unifont ships these only as OpenType. */
  fallbackUpper: join(ROOT, "fonts/unifont_upper-15.0.01.otf.gz"),
};

/** One glyph: bit x of rows[y] is pixel (x, y) of its own box, before placement in the cell. */
interface Glyph {
  codepoint: number;
  wide: boolean;
  rows: Uint32Array;
}

/** Glyphs of one font and where their boxes sit in a cell (wide glyphs: in two cells). */
interface Face {
  glyphs: Glyph[];
  rowsPerGlyph: number;
  top: number;
  leftNarrow: number;
  leftWide: number;
}

/** Writes dist/font.bin unless it is newer than every source and every file of this converter. */
export function buildFontAsset(): void {
  const converter = ["font-build.ts", "font-format.ts", "otf-bitmaps.ts", "box-drawing.ts"].map((file) =>
    join(import.meta.dir, file),
  );
  const inputs = [...Object.values(SOURCES), ...converter];
  if (existsSync(FONT_ASSET) && inputs.every((file) => statSync(file).mtimeMs <= statSync(FONT_ASSET).mtimeMs)) return;
  const terminus = (file: string): Face => ({
    glyphs: parsePcf(gunzipSync(readFileSync(file))),
    rowsPerGlyph: CELL_H,
    top: 0,
    leftNarrow: 0,
    leftWide: 0,
  });
  const regular = terminus(SOURCES.regular);
  const bold = terminus(SOURCES.bold);
  const primary = new Set(regular.glyphs.map((glyph) => glyph.codepoint));
  const plane0 = parseUnifontHex(gunzipSync(readFileSync(SOURCES.fallback)).toString("latin1"));
  // Zero-width glyphs are combining marks drawn left of their origin; a cell holds only its
  // first code point, so they would never be asked for.
  const upper = otfBitmaps(gunzipSync(readFileSync(SOURCES.fallbackUpper)), 16, 14)
    .filter((glyph) => glyph.codepoint > 0xffff && (glyph.width === 8 || glyph.width === 16))
    .map(({ codepoint, width, rows }) => ({ codepoint, wide: width === 16, rows }));
  const fallback: Face = {
    glyphs: [...plane0, ...upper].filter((glyph) => !primary.has(glyph.codepoint)),
    rowsPerGlyph: 16,
    // Unifont's baseline sits 14 px down its 16 px box, Terminus's 16 px down the 20 px cell.
    top: 2,
    leftNarrow: (CELL_W - 8) >> 1,
    leftWide: (2 * CELL_W - 16) >> 1,
  };
  mkdirSync(dirname(FONT_ASSET), { recursive: true });
  // Write then rename, so a build and a test run racing never read half a file.
  const partial = `${FONT_ASSET}.${process.pid}.tmp`;
  writeFileSync(partial, gzipSync(encodeFaces([regular, bold, fallback]), { level: 9 }));
  renameSync(partial, FONT_ASSET);
}

/**
 * Layout, little-endian: u32 magic, version, cellW | cellH << 16, face count; per face u32 glyph
 * count, rows per glyph, top, leftNarrow | leftWide << 8; then per face its sorted u32 keys
 * (code point | wide << 31) and u16 rows (glyph boxes are at most 16 px wide).
 */
function encodeFaces(faces: Face[]): Uint8Array {
  const sorted = faces.map((face) => ({
    ...face,
    glyphs: face.glyphs.filter((glyph) => !isProcedural(glyph.codepoint)).sort((a, b) => a.codepoint - b.codepoint),
  }));
  const headerWords = 4 + 4 * sorted.length;
  // Row counts are even (16, 20), so every face's u16 rows end on a u32 boundary.
  const totalWords = sorted.reduce((sum, face) => sum + face.glyphs.length * (1 + face.rowsPerGlyph / 2), headerWords);
  const words = new Uint32Array(totalWords);
  const halves = new Uint16Array(words.buffer);
  words.set([FONT_MAGIC, FONT_VERSION, CELL_W | (CELL_H << 16), sorted.length]);
  sorted.forEach((face, i) =>
    words.set([face.glyphs.length, face.rowsPerGlyph, face.top, face.leftNarrow | (face.leftWide << 8)], 4 + i * 4),
  );
  let at = headerWords;
  for (const face of sorted) {
    for (const glyph of face.glyphs) words[at++] = (glyph.codepoint | (glyph.wide ? 0x80000000 : 0)) >>> 0;
    let half = at * 2;
    for (const glyph of face.glyphs) {
      for (const row of glyph.rows) {
        if (row > 0xffff) throw new Error(`glyph U+${glyph.codepoint.toString(16)} is wider than 16 px`);
        halves[half++] = row;
      }
    }
    at = half / 2;
  }
  return new Uint8Array(words.buffer);
}

// PCF (X11 portable compiled font), as documented in the X.Org fontfile sources.
const PCF_ACCELERATORS = 1 << 1;
const PCF_METRICS = 1 << 2;
const PCF_BITMAPS = 1 << 3;
const PCF_BDF_ENCODINGS = 1 << 5;
const PCF_BDF_ACCELERATORS = 1 << 8;
const PCF_COMPRESSED_METRICS = 0x100;

interface Metrics {
  left: number;
  right: number;
  ascent: number;
  descent: number;
}

export function parsePcf(bytes: Uint8Array): Glyph[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== 0x70636601) throw new Error("not a PCF font");
  const tables = new Map<number, { format: number; offset: number }>();
  const tableCount = view.getUint32(4, true);
  for (let i = 0; i < tableCount; i++) {
    const at = 8 + i * 16;
    tables.set(view.getUint32(at, true), {
      format: view.getUint32(at + 4, true),
      offset: view.getUint32(at + 12, true),
    });
  }
  const table = (type: number) => {
    const found = tables.get(type);
    if (!found) throw new Error(`PCF table ${type} missing`);
    // Each table repeats its format; bit 2 says big-endian.
    const little = (found.format & 4) === 0;
    return {
      format: found.format,
      at: found.offset + 4,
      u8: (at: number) => view.getUint8(at),
      i16: (at: number) => view.getInt16(at, little),
      u16: (at: number) => view.getUint16(at, little),
      u32: (at: number) => view.getUint32(at, little),
    };
  };

  const accel = table(tables.has(PCF_BDF_ACCELERATORS) ? PCF_BDF_ACCELERATORS : PCF_ACCELERATORS);
  const fontAscent = accel.u32(accel.at + 8) | 0;
  const fontDescent = accel.u32(accel.at + 12) | 0;
  if (fontAscent + fontDescent !== CELL_H)
    throw new Error(`font is ${fontAscent + fontDescent} px tall, want ${CELL_H}`);

  const metricsTable = table(PCF_METRICS);
  const metrics: Metrics[] = [];
  if (metricsTable.format & PCF_COMPRESSED_METRICS) {
    const count = metricsTable.u16(metricsTable.at);
    for (let i = 0, at = metricsTable.at + 2; i < count; i++, at += 5) {
      metrics.push({
        left: metricsTable.u8(at) - 0x80,
        right: metricsTable.u8(at + 1) - 0x80,
        ascent: metricsTable.u8(at + 3) - 0x80,
        descent: metricsTable.u8(at + 4) - 0x80,
      });
    }
  } else {
    const count = metricsTable.u32(metricsTable.at);
    for (let i = 0, at = metricsTable.at + 4; i < count; i++, at += 12) {
      metrics.push({
        left: metricsTable.i16(at),
        right: metricsTable.i16(at + 2),
        ascent: metricsTable.i16(at + 6),
        descent: metricsTable.i16(at + 8),
      });
    }
  }

  const bitmaps = table(PCF_BITMAPS);
  const glyphCount = bitmaps.u32(bitmaps.at);
  const offsetsAt = bitmaps.at + 4;
  const dataAt = offsetsAt + glyphCount * 4 + 16;
  const pad = 1 << (bitmaps.format & 3);
  const msbFirst = (bitmaps.format & 8) !== 0;
  if ((bitmaps.format >> 4) & 3) throw new Error("PCF scan units other than bytes are not supported");

  const glyphRows = (index: number): Uint32Array => {
    const m = metrics[index];
    const width = m.right - m.left;
    const stride = Math.ceil(Math.ceil(width / 8) / pad) * pad;
    const top = fontAscent - m.ascent;
    const rows = new Uint32Array(CELL_H);
    const start = dataAt + bitmaps.u32(offsetsAt + index * 4);
    for (let y = 0; y < m.ascent + m.descent; y++) {
      for (let x = 0; x < width; x++) {
        const byte = bytes[start + y * stride + (x >> 3)];
        const bit = msbFirst ? 0x80 >> (x & 7) : 1 << (x & 7);
        if (!(byte & bit)) continue;
        const px = m.left + x;
        const py = top + y;
        if (px < 0 || px >= CELL_W || py < 0 || py >= CELL_H) throw new Error(`glyph ${index} leaves the cell`);
        rows[py] |= 1 << px;
      }
    }
    return rows;
  };

  const encodings = table(PCF_BDF_ENCODINGS);
  const minByte2 = encodings.u16(encodings.at);
  const maxByte2 = encodings.u16(encodings.at + 2);
  const minByte1 = encodings.u16(encodings.at + 4);
  const maxByte1 = encodings.u16(encodings.at + 6);
  const span = maxByte2 - minByte2 + 1;
  const glyphs: Glyph[] = [];
  for (let byte1 = minByte1; byte1 <= maxByte1; byte1++) {
    for (let byte2 = minByte2; byte2 <= maxByte2; byte2++) {
      const index = encodings.u16(encodings.at + 10 + ((byte1 - minByte1) * span + (byte2 - minByte2)) * 2);
      if (index === 0xffff) continue;
      glyphs.push({ codepoint: (byte1 << 8) | byte2, wide: false, rows: glyphRows(index) });
    }
  }
  return glyphs;
}

/** Unifont .hex: `XXXX:` then 32 hex digits (8x16) or 64 (16x16), one row per 2 or 4 digits. */
export function parseUnifontHex(text: string): Glyph[] {
  const glyphs: Glyph[] = [];
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const hex = line.slice(colon + 1).trim();
    const width = hex.length === 64 ? 16 : 8;
    const digits = width / 4;
    const rows = new Uint32Array(16);
    for (let y = 0; y < 16; y++) {
      const bits = parseInt(hex.slice(y * digits, (y + 1) * digits), 16);
      // .hex puts the leftmost pixel in the most significant bit; rows here put it in bit 0.
      for (let x = 0; x < width; x++) if (bits & (1 << (width - 1 - x))) rows[y] |= 1 << x;
    }
    glyphs.push({ codepoint: parseInt(line.slice(0, colon), 16), wide: width === 16, rows });
  }
  return glyphs;
}
