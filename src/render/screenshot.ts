// The renderer's one entry point: CellGrid in, PNG bytes out. Same grid and options, same bytes.
// Takes plain data only: never imports the emulator, the PTY or the protocol.
import type { CellGrid } from "../terminal/cell-grid.ts";
import { encodePng } from "./png.ts";
import { rasterise } from "./rasterise.ts";

export interface ScreenshotOptions {
  /** Draw the cursor (when the program has not hidden it). Default true. */
  cursor?: boolean;
  /** Border of default background around the screen, in cells. 0–10, default 0. */
  pad?: number;
  /** Size in percent of the 10x20 px-per-cell image. 10–400, default 66 (80x24 → 528x317). */
  scale?: number;
}

export const SCREENSHOT_DEFAULTS = { cursor: true, pad: 0, scale: 66 } as const;
export const SCREENSHOT_LIMITS = { pad: { min: 0, max: 10 }, scale: { min: 10, max: 400 } } as const;

function checkRange(name: "pad" | "scale", value: number): number {
  const { min, max } = SCREENSHOT_LIMITS[name];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

export function renderScreenshot(grid: CellGrid, options: ScreenshotOptions = {}): Uint8Array {
  const cursor = options.cursor ?? SCREENSHOT_DEFAULTS.cursor;
  const pad = checkRange("pad", options.pad ?? SCREENSHOT_DEFAULTS.pad);
  const scale = checkRange("scale", options.scale ?? SCREENSHOT_DEFAULTS.scale);
  return encodePng(rasterise(grid, { cursor, pad, scale }));
}
