import { expect, test } from "bun:test";
import { codepointWidth } from "./unicode-width.ts";

test("ASCII is one cell, CJK and emoji two, combining marks zero", () => {
  expect(codepointWidth(0x41)).toBe(1);
  expect(codepointWidth(0x4e2d)).toBe(2); // 中
  expect(codepointWidth(0x1f600)).toBe(2); // 😀 (Unicode 6 tables say 1)
  expect(codepointWidth(0x301)).toBe(0); // combining acute
  expect(codepointWidth(0x2502)).toBe(1); // │
  expect(codepointWidth(0x07)).toBe(0);
});
