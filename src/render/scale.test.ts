import { expect, test } from "bun:test";
import { cellEdges, coverage, LEVELS } from "./scale.ts";

test("cell edges tile the image exactly", () => {
  const edges = cellEdges(80, 10, 66);
  expect(edges[0]).toBe(0);
  expect(edges[80]).toBe(528);
  for (let i = 0; i < 80; i++) expect([6, 7]).toContain(edges[i + 1] - edges[i]);
  expect(Array.from(cellEdges(3, 20, 100))).toEqual([0, 20, 40, 60]);
});

const full = () => new Uint32Array(20).fill(0x3ff);
const stroke = () => new Uint32Array(20).fill(1 << 4);

test("full and empty masks stay full and empty at any size", () => {
  for (const [w, h] of [
    [10, 20],
    [7, 13],
    [6, 14],
    [1, 2],
    [40, 80],
  ]) {
    expect(coverage(full(), 10, w, h).every((level) => level === LEVELS)).toBe(true);
    expect(coverage(new Uint32Array(20), 10, w, h).every((level) => level === 0)).toBe(true);
  }
});

test("100% is the mask itself; 200% doubles each pixel", () => {
  const mask = stroke();
  mask[3] = 0b1010101010;
  const same = coverage(mask, 10, 10, 20);
  for (let y = 0; y < 20; y++)
    for (let x = 0; x < 10; x++) expect(same[y * 10 + x]).toBe((mask[y] >> x) & 1 ? LEVELS : 0);
  const double = coverage(mask, 10, 20, 40);
  for (let y = 0; y < 40; y++)
    for (let x = 0; x < 20; x++) expect(double[y * 20 + x]).toBe(same[(y >> 1) * 10 + (x >> 1)]);
});

test("area averaging keeps a 1 px stroke visible at 66% (nearest neighbour can drop it)", () => {
  for (const width of [6, 7]) {
    const levels = coverage(stroke(), 10, width, 13);
    for (let y = 0; y < 13; y++) {
      const row = Array.from(levels.subarray(y * width, (y + 1) * width));
      // The stroke's whole area is still there, spread over one or two columns.
      const total = row.reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThanOrEqual(Math.floor((LEVELS * width) / 10));
      expect(total).toBeLessThanOrEqual(Math.ceil((LEVELS * width) / 10) + 1);
    }
  }
});
