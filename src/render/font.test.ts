import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { proceduralGlyph } from "./box-drawing.ts";
import { buildFontAsset, parsePcf, parseUnifontHex } from "./font-build.ts";
import { CELL_H, CELL_W } from "./font-format.ts";

// font.ts embeds dist/font.bin, which the build makes: make it before loading font.ts.
buildFontAsset();
const { font } = await import("./font.ts");

const bits = (rows: Uint32Array) => rows.reduce((n, row) => n + row.toString(2).replaceAll("0", "").length, 0);
const fitsIn = (rows: Uint32Array, width: number) => rows.every((row) => row >>> width === 0);

test("the primary font has every printable ASCII character, regular and bold, in one cell", () => {
  for (let cp = 0x21; cp < 0x7f; cp++) {
    for (const bold of [false, true]) {
      const glyph = font().glyph(cp, bold)!;
      expect(glyph.wide).toBe(false);
      expect(glyph.rows.length).toBe(CELL_H);
      expect(bits(glyph.rows)).toBeGreaterThan(0);
      expect(fitsIn(glyph.rows, CELL_W)).toBe(true);
    }
  }
});

test("bold is a heavier drawing of the same letter", () => {
  const regular = font().glyph(0x41, false)!;
  const bold = font().glyph(0x41, true)!;
  expect(bits(bold.rows)).toBeGreaterThan(bits(regular.rows));
});

test("Latin, Greek and Cyrillic come from the primary font, CJK from Unifont across two cells", () => {
  for (const ch of "éßΩЖ") expect(font().glyph(ch.codePointAt(0)!, false)?.wide).toBe(false);
  for (const ch of "中한あ") {
    const glyph = font().glyph(ch.codePointAt(0)!, false)!;
    expect(glyph.wide).toBe(true);
    expect(fitsIn(glyph.rows, 2 * CELL_W)).toBe(true);
    // Unifont's 16 px box sits 2 px from the top, on the primary font's baseline.
    expect(glyph.rows[0] | glyph.rows[1] | glyph.rows[CELL_H - 1]).toBe(0);
  }
});

test("emoji come from Unifont's upper planes, across two cells", () => {
  for (const ch of "😀🚀👍") {
    const glyph = font().glyph(ch.codePointAt(0)!, false)!;
    expect(glyph.wide).toBe(true);
    expect(bits(glyph.rows)).toBeGreaterThan(20);
  }
});

test("a fallback glyph drawn bold is widened by a pixel", () => {
  const regular = font().glyph(0x4e2d, false)!;
  const bold = font().glyph(0x4e2d, true)!;
  expect(bold.rows).toEqual(regular.rows.map((row) => row | (row << 1)));
});

test("box drawing comes from the procedural glyphs, bold or not", () => {
  expect(font().glyph(0x253c, false)!.rows).toEqual(proceduralGlyph(0x253c));
  expect(font().glyph(0x253c, true)!.rows).toEqual(proceduralGlyph(0x253c));
});

test("a code point no font has gets nothing, and the placeholder is a visible box", () => {
  expect(font().glyph(0x10ffff, false)).toBeUndefined();
  const { narrow, wide } = font().placeholder;
  expect(bits(narrow.rows)).toBeGreaterThan(20);
  expect(fitsIn(narrow.rows, CELL_W)).toBe(true);
  expect(fitsIn(wide.rows, 2 * CELL_W)).toBe(true);
  expect(wide.rows.some((row) => row >>> CELL_W !== 0)).toBe(true);
});

test("PCF and .hex parsers read the committed fonts", () => {
  const terminus = parsePcf(Bun.gunzipSync(readFileSync(join(import.meta.dir, "../../fonts/ter-u20n_unicode.pcf.gz"))));
  const a = terminus.find((glyph) => glyph.codepoint === 0x41)!;
  // Terminus 10x20 "A": a flat top at row 3 (pixels 2–6), legs at pixels 1 and 7 down to the
  // baseline; bit x is pixel x.
  expect(a.rows[3]).toBe(0b0001111100);
  expect(a.rows[15]).toBe(0b0010000010);
  expect(a.rows[16]).toBe(0);
  const [hex] = parseUnifontHex("0041:0000000018242442427E424242420000\n");
  expect(hex.codepoint).toBe(0x41);
  expect(hex.wide).toBe(false);
  expect(hex.rows[4]).toBe(0b00011000);
  expect(hex.rows[2]).toBe(0);
  const [wide] = parseUnifontHex(`4E00:${"0".repeat(12)}8000${"0".repeat(48)}\n`);
  // Leftmost pixel: most significant digit in .hex, bit 0 here.
  expect(wide.wide).toBe(true);
  expect(wide.rows[3]).toBe(1);
});
