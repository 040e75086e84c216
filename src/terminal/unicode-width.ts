// Character widths as the programs in the terminal count them, as an xterm Unicode provider.
// vim, nano and readline place the cursor by libc's wcwidth, so that is asked first (cached per
// code point); where libc has no answer (another OS, or a code point newer than its tables)
// Bun.stringWidth's current Unicode decides. xterm's own table is Unicode 6 and would put emoji
// at one cell; Bun.stringWidth alone measures strings, not code points (U+20E3 keycap: 2, libc 0).
// No xterm import here.
import { libcWcwidth } from "./libc.ts";

const UNKNOWN = 3;
/** One byte per code point, computed on first use: 1.1 MB at most, filled lazily. */
const widths = new Uint8Array(0x110000).fill(UNKNOWN);

export function codepointWidth(codepoint: number): 0 | 1 | 2 {
  if (codepoint >= 0x20 && codepoint < 0x7f) return 1;
  let width = widths[codepoint];
  if (width === UNKNOWN) {
    width = codepoint < 0x20 || (codepoint >= 0x7f && codepoint < 0xa0) ? 0 : measure(codepoint);
    widths[codepoint] = width;
  }
  return width as 0 | 1 | 2;
}

function measure(codepoint: number): number {
  const libc = libcWcwidth(codepoint);
  if (libc !== undefined && libc >= 0) return Math.min(libc, 2);
  return Math.min(Bun.stringWidth(String.fromCodePoint(codepoint)), 2);
}

/**
 * Same packing as xterm's UnicodeService.createPropertyValue: `state << 3 | width << 1 | join`.
 * A zero-width code point after a printed one joins it (combining marks, ZWJ sequences),
 * keeping the wider of the two widths, exactly like xterm's own v6 provider.
 */
function charProperties(codepoint: number, preceding: number): number {
  let width: number = codepointWidth(codepoint);
  let join = width === 0 && preceding !== 0;
  if (join) {
    const precedingWidth = (preceding >> 1) & 3;
    if (precedingWidth === 0) join = false;
    else if (precedingWidth > width) width = precedingWidth;
  }
  return (width << 1) | (join ? 1 : 0);
}

export const currentUnicode = {
  version: "t4a-current",
  wcwidth: codepointWidth,
  charProperties,
};
