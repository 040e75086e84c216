import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { otfBitmaps } from "./otf-bitmaps.ts";

const upper = otfBitmaps(
  Bun.gunzipSync(readFileSync(join(import.meta.dir, "../../fonts/unifont_upper-15.0.01.otf.gz"))),
  16,
  14,
);
const drawn = (codepoint: number) => {
  const glyph = upper.find((g) => g.codepoint === codepoint)!;
  return Array.from(glyph.rows, (row) =>
    Array.from({ length: glyph.width }, (_, x) => ((row >>> x) & 1 ? "#" : ".")).join(""),
  );
};

test("reads every glyph of Unifont's upper planes as 8 or 16 px wide bitmaps inside their box", () => {
  expect(upper.length).toBeGreaterThan(13_000);
  for (const glyph of upper) {
    expect([0, 8, 16]).toContain(glyph.width);
    expect(glyph.rows.length).toBe(16);
    expect(glyph.rows.every((row) => row >>> glyph.width === 0)).toBe(true);
  }
  expect(upper.filter((g) => g.codepoint >= 0x1f300 && g.codepoint < 0x1fb00).length).toBeGreaterThan(1800);
});

test("outlines fill back to their pixels: 😀 and 𝐀", () => {
  expect(drawn(0x1f600)).toEqual([
    "................",
    "......#####.....",
    "....##.....##...",
    "...#.........#..",
    "..#...........#.",
    "..#..##...##..#.",
    ".#...##...##...#",
    ".#.............#",
    ".#.............#",
    ".#..#########..#",
    "..#.#.#.#.#.#.#.",
    "..#..##.#.##..#.",
    "...#..#####..#..",
    "....##.....##...",
    "......#####.....",
    "................",
  ]);
  // MATHEMATICAL BOLD CAPITAL A: solid strokes, so holes and winding must come out right.
  const boldA = drawn(0x1d400);
  expect(boldA.length).toBe(16);
  expect(boldA.some((row) => row.includes("##.") && row.includes(".##"))).toBe(true);
});
