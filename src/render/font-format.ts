// Constants shared by the build-time font converter and the run-time loader.
// Plain values only: no file access here.

/** Every cell is this many pixels; the primary font's glyph box. */
export const CELL_W = 10;
export const CELL_H = 20;
/** "T4AF" read as a little-endian u32. */
export const FONT_MAGIC = 0x46413454;
export const FONT_VERSION = 1;
