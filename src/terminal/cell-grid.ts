// The visible screen as flat typed arrays: what screen.ts hands to the renderer.
// Plain data only: this file must not import xterm (the renderer never sees the emulator).

/** Colour of a cell, packed: `mode << 24 | value`. */
export const ColourMode = { default: 0, palette: 1, rgb: 2 } as const;
export const packColour = (mode: number, value: number): number => ((mode << 24) | value) >>> 0;
export const colourMode = (packed: number): number => packed >>> 24;
export const colourValue = (packed: number): number => packed & 0xffffff;

/** Attribute bits in `CellGrid.flags`. */
export const CellFlag = {
  bold: 1 << 0,
  dim: 1 << 1,
  italic: 1 << 2,
  underline: 1 << 3,
  inverse: 1 << 4,
  invisible: 1 << 5,
  strikethrough: 1 << 6,
  blink: 1 << 7,
  overline: 1 << 8,
} as const;

export type CursorStyle = "block" | "underline" | "bar";

/** Which mouse reports the program turned on (DECSET 9, 1000, 1002, 1003), as xterm names them. */
export type MouseMode = "none" | "x10" | "vt200" | "drag" | "any";
/** How reports are spelled: classic bytes, UTF-8 (1005), SGR (1006), urxvt (1015), SGR pixels (1016). */
export type MouseEncoding = "default" | "utf8" | "sgr" | "urxvt" | "sgr-pixels";
/** What a click must be encoded as: the reports turned on, and their encoding. */
export interface MouseReporting {
  mode: MouseMode;
  encoding: MouseEncoding;
}

export interface CellGrid {
  cols: number;
  rows: number;
  /** Row-major, `cols * rows` entries. First code point of the cell's text; 0 = blank. */
  codepoints: Uint32Array;
  /** The code points after the first, for the few cells that have them (combining marks, VS16, ZWJ). */
  combining: Map<number, number[]>;
  /** 1 = normal, 2 = first half of a wide character, 0 = the right half it covers. */
  widths: Uint8Array;
  fg: Uint32Array;
  bg: Uint32Array;
  flags: Uint16Array;
  cursor: { row: number; col: number; visible: boolean; style: CursorStyle };
  /** The program has ended: it reads no keys, so its cursor marks no field (elements read none there). */
  ended?: boolean;
  /** The mouse reporting the program asked for (what a click must be encoded as); absent: none. */
  mouse?: MouseReporting;
}
