import { expect, test } from "bun:test";
import { ColourMode, packColour } from "../terminal/cell-grid.ts";
import { DEFAULT_BG, DEFAULT_FG, mix, PALETTE, resolveColour } from "./palette.ts";

test("xterm's 256 colours: ANSI, cube corners, greys", () => {
  expect(PALETTE[1]).toBe(0xcd0000);
  expect(PALETTE[12]).toBe(0x5c5cff);
  expect(PALETTE[16]).toBe(0x000000);
  expect(PALETTE[21]).toBe(0x0000ff);
  expect(PALETTE[196]).toBe(0xff0000);
  expect(PALETTE[208]).toBe(0xff8700);
  expect(PALETTE[231]).toBe(0xffffff);
  expect(PALETTE[232]).toBe(0x080808);
  expect(PALETTE[255]).toBe(0xeeeeee);
});

test("packed colours resolve by mode; bold brightens only palette 0–7", () => {
  const red = packColour(ColourMode.palette, 1);
  expect(resolveColour(red, DEFAULT_FG)).toBe(0xcd0000);
  expect(resolveColour(red, DEFAULT_FG, true)).toBe(0xff0000);
  expect(resolveColour(packColour(ColourMode.palette, 9), DEFAULT_FG, true)).toBe(0xff0000);
  expect(resolveColour(packColour(ColourMode.palette, 100), DEFAULT_FG, true)).toBe(PALETTE[100]);
  expect(resolveColour(packColour(ColourMode.rgb, 0x123456), DEFAULT_FG, true)).toBe(0x123456);
  expect(resolveColour(packColour(ColourMode.default, 0), DEFAULT_FG, true)).toBe(DEFAULT_FG);
  expect(resolveColour(packColour(ColourMode.default, 0), DEFAULT_BG)).toBe(DEFAULT_BG);
});

test("mix goes from one colour to the other", () => {
  expect(mix(0x000000, 0xffffff, 0)).toBe(0x000000);
  expect(mix(0x000000, 0xffffff, 256)).toBe(0xffffff);
  expect(mix(0x000000, 0xff8040, 128)).toBe(0x804020);
  expect(mix(0xffffff, 0x000000, 128)).toBe(0x808080);
});
