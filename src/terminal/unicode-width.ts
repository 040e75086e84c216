// Character widths from current Unicode (Bun.stringWidth), as an xterm Unicode version provider.
// xterm's built-in table is Unicode 6: emoji that vim, tmux and modern shells draw two cells wide
// would take one, and every later column of that row would be off by one. No xterm import here.

const UNKNOWN = 3;
/** One byte per code point, computed on first use: 1.1 MB at most, filled lazily. */
const widths = new Uint8Array(0x110000).fill(UNKNOWN);

export function codepointWidth(codepoint: number): 0 | 1 | 2 {
  if (codepoint >= 0x20 && codepoint < 0x7f) return 1;
  let width = widths[codepoint];
  if (width === UNKNOWN) {
    width = codepoint < 0x20 || (codepoint >= 0x7f && codepoint < 0xa0) ? 0 : Bun.stringWidth(String.fromCodePoint(codepoint));
    widths[codepoint] = width > 2 ? 2 : width;
  }
  return width as 0 | 1 | 2;
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
