// Colours: xterm's default 256-colour palette and how a cell's packed colour becomes 0xRRGGBB.
// No drawing here; attributes other than bold's bright-colour rule belong to the rasteriser.
import { ColourMode, colourMode, colourValue } from "../terminal/cell-grid.ts";

/**
 * Default colours for cells that set none: xterm's reverse-video look (light grey on black),
 * the dark screen people and models expect from a terminal. Cursor uses the foreground.
 */
export const DEFAULT_FG = 0xe5e5e5;
export const DEFAULT_BG = 0x000000;

const ANSI = [
  0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00,
  0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
];

/** xterm's 256 colours: 16 ANSI, a 6x6x6 cube, 24 greys. */
export const PALETTE: Uint32Array = (() => {
  const palette = new Uint32Array(256);
  palette.set(ANSI);
  const level = (n: number) => (n === 0 ? 0 : 55 + n * 40);
  for (let i = 0; i < 216; i++) {
    palette[16 + i] = (level(Math.floor(i / 36)) << 16) | (level(Math.floor(i / 6) % 6) << 8) | level(i % 6);
  }
  for (let i = 0; i < 24; i++) {
    const grey = 8 + i * 10;
    palette[232 + i] = (grey << 16) | (grey << 8) | grey;
  }
  return palette;
})();

/**
 * A packed cell colour as 0xRRGGBB. `bright` applies the bold convention: palette colours 0–7
 * drawn bold become 8–15.
 */
export function resolveColour(packed: number, fallback: number, bright = false): number {
  const mode = colourMode(packed);
  if (mode === ColourMode.palette) {
    const index = colourValue(packed) & 0xff;
    return PALETTE[bright && index < 8 ? index + 8 : index];
  }
  if (mode === ColourMode.rgb) return colourValue(packed);
  return fallback;
}

/** `a` moved `weight`/256 of the way to `b`, per channel. */
export function mix(a: number, b: number, weight: number): number {
  const channel = (shift: number) => {
    const x = (a >> shift) & 0xff;
    const y = (b >> shift) & 0xff;
    return (x + (((y - x) * weight + 128) >> 8)) & 0xff;
  };
  return (channel(16) << 16) | (channel(8) << 8) | channel(0);
}
