import { describe, expect, test } from "bun:test";
import { isProcedural, proceduralGlyph } from "./box-drawing.ts";
import { CELL_H, CELL_W } from "./font-format.ts";

const pixel = (rows: Uint32Array, x: number, y: number) => (rows[y] >>> x) & 1;
const column = (rows: Uint32Array, x: number) => Array.from(rows, (_, y) => pixel(rows, x, y));
const row = (rows: Uint32Array, y: number) => Array.from({ length: CELL_W }, (_, x) => pixel(rows, x, y));
function count(rows: Uint32Array): number {
  let n = 0;
  for (let bits of rows) for (; bits; bits &= bits - 1) n++;
  return n;
}

/** What a line of each weight leaves on the edge it crosses: none, light, heavy, double. */
function edgeProfile(size: number, weight: number): number[] {
  const middle = (size - 1) >> 1;
  const on =
    weight === 1
      ? [middle]
      : weight === 2
        ? [middle - 1, middle, middle + 1]
        : weight === 3
          ? [middle - 1, middle + 1]
          : [];
  return Array.from({ length: size }, (_, i) => (on.includes(i) ? 1 : 0));
}

describe("box drawing", () => {
  // Two cells join without a gap or a step when both draw the same pixels on their shared edge,
  // so every arm must leave exactly its weight's profile on the edge it reaches.
  const lines = [...Array(0x80).keys()].map((i) => 0x2500 + i).filter((cp) => !(cp >= 0x256d && cp <= 0x2573));
  const weights: Record<number, [number, number, number, number]> = {
    0x2500: [0, 1, 0, 1],
    0x2503: [2, 0, 2, 0],
    0x250c: [0, 1, 1, 0],
    0x254b: [2, 2, 2, 2],
    0x2550: [0, 3, 0, 3],
    0x2554: [0, 3, 3, 0],
    0x256a: [1, 3, 1, 3],
    0x256b: [3, 1, 3, 1],
    0x2564: [0, 3, 1, 3],
    0x255f: [3, 1, 3, 0],
    0x257c: [0, 2, 0, 1],
    0x2541: [1, 1, 2, 1],
  };
  for (const [cp, [up, right, down, left]] of Object.entries(weights).map(([k, v]) => [Number(k), v] as const)) {
    test(`${String.fromCodePoint(cp)} leaves its arms' profiles on the cell edges`, () => {
      const rows = proceduralGlyph(cp);
      expect(column(rows, 0)).toEqual(edgeProfile(CELL_H, left));
      expect(column(rows, CELL_W - 1)).toEqual(edgeProfile(CELL_H, right));
      expect(row(rows, 0)).toEqual(edgeProfile(CELL_W, up));
      expect(row(rows, CELL_H - 1)).toEqual(edgeProfile(CELL_W, down));
    });
  }

  test("every line character draws something and stays inside its cell", () => {
    for (const cp of lines) {
      const rows = proceduralGlyph(cp);
      expect(rows.some((bits) => bits !== 0)).toBe(true);
      expect(rows.every((bits) => bits >>> CELL_W === 0)).toBe(true);
    }
  });

  test("dashed lines have gaps, solid ones none", () => {
    expect(row(proceduralGlyph(0x2500), 9)).toEqual(Array(CELL_W).fill(1));
    const dashed = row(proceduralGlyph(0x2504), 9);
    expect(dashed.includes(0)).toBe(true);
    expect(dashed[0]).toBe(1);
  });

  test("arcs meet the centre lines of their neighbours", () => {
    const arc = proceduralGlyph(0x256d); // ╭
    expect(column(arc, CELL_W - 1)).toEqual(edgeProfile(CELL_H, 1));
    expect(row(arc, CELL_H - 1)).toEqual(edgeProfile(CELL_W, 1));
    expect(row(arc, 0)).toEqual(Array(CELL_W).fill(0));
  });

  test("diagonals run corner to corner", () => {
    const rising = proceduralGlyph(0x2571); // ╱
    expect(pixel(rising, CELL_W - 1, 0)).toBe(1);
    expect(pixel(rising, 0, CELL_H - 1)).toBe(1);
  });
});

describe("block elements", () => {
  test("full, halves and eighths cover what their names say", () => {
    expect(count(proceduralGlyph(0x2588))).toBe(CELL_W * CELL_H);
    expect(Array.from(proceduralGlyph(0x2580))).toEqual([...Array(10).fill(0x3ff), ...Array(10).fill(0)]);
    expect(Array.from(proceduralGlyph(0x2584))).toEqual([...Array(10).fill(0), ...Array(10).fill(0x3ff)]);
    expect(column(proceduralGlyph(0x258c), 4)).toEqual(Array(CELL_H).fill(1));
    expect(column(proceduralGlyph(0x258c), 5)).toEqual(Array(CELL_H).fill(0));
    for (let eighths = 1; eighths <= 8; eighths++) {
      expect(count(proceduralGlyph(0x2580 + eighths))).toBe(CELL_W * Math.round((CELL_H * eighths) / 8));
    }
  });

  test("quadrants", () => {
    const quadrant = (cp: number) => [
      pixel(proceduralGlyph(cp), 0, 0),
      pixel(proceduralGlyph(cp), 9, 0),
      pixel(proceduralGlyph(cp), 0, 19),
      pixel(proceduralGlyph(cp), 9, 19),
    ];
    expect(quadrant(0x2596)).toEqual([0, 0, 1, 0]); // ▖
    expect(quadrant(0x259a)).toEqual([1, 0, 0, 1]); // ▚
    expect(quadrant(0x259f)).toEqual([0, 1, 1, 1]); // ▟
  });

  test("shades cover a quarter, half and three quarters", () => {
    const area = CELL_W * CELL_H;
    expect(count(proceduralGlyph(0x2591))).toBe(area / 4);
    expect(count(proceduralGlyph(0x2592))).toBe(area / 2);
    expect(count(proceduralGlyph(0x2593))).toBe((area * 3) / 4);
  });
});

describe("braille", () => {
  test("one 2x2 dot per raised dot", () => {
    expect(count(proceduralGlyph(0x2800))).toBe(0);
    expect(count(proceduralGlyph(0x28ff))).toBe(8 * 4);
    const dot1 = proceduralGlyph(0x2801);
    const dot8 = proceduralGlyph(0x2880);
    expect(count(dot1)).toBe(4);
    // Dot 1 is top left, dot 8 bottom right.
    expect(dot1.findIndex((bits) => bits !== 0)).toBeLessThan(5);
    expect(dot8.findLastIndex((bits) => bits !== 0)).toBeGreaterThan(14);
    expect(Math.clz32(dot8[dot8.findLastIndex((bits) => bits !== 0)])).toBeLessThan(Math.clz32(dot1[1]));
  });
});

test("procedural ranges", () => {
  expect(isProcedural(0x2500)).toBe(true);
  expect(isProcedural(0x259f)).toBe(true);
  expect(isProcedural(0x28ff)).toBe(true);
  expect(isProcedural(0x25a0)).toBe(false);
  expect(isProcedural(0x41)).toBe(false);
});
