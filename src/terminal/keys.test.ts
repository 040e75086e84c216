import { expect, test } from "bun:test";
import { keyBytes } from "./keys.ts";

const normal = { applicationCursorKeys: false };
const app = { applicationCursorKeys: true };

test("named keys become the bytes a terminal sends", () => {
  expect(keyBytes("Enter", normal)).toBe("\r");
  expect(keyBytes("Tab", normal)).toBe("\t");
  expect(keyBytes("Escape", normal)).toBe("\x1b");
  expect(keyBytes("C-c", normal)).toBe("\x03");
  expect(keyBytes("C-[", normal)).toBe("\x1b");
  expect(keyBytes("M-x", normal)).toBe("\x1bx");
  expect(keyBytes("C-M-a", normal)).toBe("\x1b\x01");
  expect(keyBytes("S-Tab", normal)).toBe("\x1b[Z");
  expect(keyBytes("F1", normal)).toBe("\x1bOP");
  expect(keyBytes("F5", normal)).toBe("\x1b[15~");
  expect(keyBytes("C-F5", normal)).toBe("\x1b[15;5~");
  expect(keyBytes("PageDown", normal)).toBe("\x1b[6~");
  expect(keyBytes("C-Left", normal)).toBe("\x1b[1;5D");
  expect(keyBytes("BSpace", normal)).toBe("\x7f");
  expect(keyBytes("x", normal)).toBe("x");
});

test("cursor keys follow application cursor-key mode", () => {
  expect(keyBytes("Up", normal)).toBe("\x1b[A");
  expect(keyBytes("Up", app)).toBe("\x1bOA");
  expect(keyBytes("Home", app)).toBe("\x1bOH");
});

test("unknown names are refused", () => {
  expect(() => keyBytes("Bogus", normal)).toThrow('unknown key "Bogus"');
  expect(() => keyBytes("C-é", normal)).toThrow("no control form");
});
