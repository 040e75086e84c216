// PNG encoding (and decoding, for tests): the only file that imports upng-js.
// Encodes with an exact palette when a frame has ≤ 256 colours, else RGB; deflate is node:zlib.
import { crc32, deflateSync } from "node:zlib";
import UPNG from "upng-js";
import type { Frame } from "./rasterise.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const TABLE_SIZE = 1024;

/**
 * The frame's colours in first-seen order and each pixel's index, or undefined past 256 colours.
 * Open addressing on a small table: far faster than a Map for the ~1M pixel lookups of a frame.
 */
function indexColours(pixels: Uint32Array): { palette: number[]; indices: Uint8Array } | undefined {
  const keys = new Int32Array(TABLE_SIZE).fill(-1);
  const values = new Uint8Array(TABLE_SIZE);
  const palette: number[] = [];
  const indices = new Uint8Array(pixels.length);
  let previous = -1;
  let previousIndex = 0;
  for (let i = 0; i < pixels.length; i++) {
    const colour = pixels[i];
    if (colour === previous) {
      indices[i] = previousIndex;
      continue;
    }
    let slot = Math.imul(colour, 0x9e3779b1) >>> 22;
    while (keys[slot] !== colour && keys[slot] !== -1) slot = (slot + 1) & (TABLE_SIZE - 1);
    if (keys[slot] === -1) {
      if (palette.length === 256) return undefined;
      keys[slot] = colour;
      values[slot] = palette.length;
      palette.push(colour);
    }
    previous = colour;
    previousIndex = indices[i] = values[slot];
  }
  return { palette, indices };
}

/** Scanlines with a filter byte each: indices packed at the smallest depth that holds them. */
function indexedScanlines(indices: Uint8Array, width: number, height: number, depth: number): Uint8Array {
  const stride = Math.ceil((width * depth) / 8) + 1;
  const out = new Uint8Array(stride * height);
  const perByte = 8 / depth;
  for (let y = 0; y < height; y++) {
    const line = y * stride + 1;
    const from = y * width;
    if (depth === 8) {
      out.set(indices.subarray(from, from + width), line);
      continue;
    }
    for (let x = 0; x < width; x++) {
      out[line + Math.floor(x / perByte)] |= indices[from + x] << (8 - depth * (1 + (x % perByte)));
    }
  }
  return out;
}

/** RGB scanlines with the Up filter: terminal images repeat row to row far more than along a row. */
function rgbScanlines(pixels: Uint32Array, width: number, height: number): Uint8Array {
  const stride = width * 3 + 1;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const line = y * stride;
    out[line] = 2;
    for (let x = 0; x < width; x++) {
      const pixel = pixels[y * width + x];
      const above = y > 0 ? pixels[(y - 1) * width + x] : 0;
      const at = line + 1 + x * 3;
      out[at] = (pixel >>> 16) - (above >>> 16);
      out[at + 1] = ((pixel >>> 8) & 0xff) - ((above >>> 8) & 0xff);
      out[at + 2] = (pixel & 0xff) - (above & 0xff);
    }
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export function encodePng(frame: Frame): Uint8Array {
  const { width, height, pixels } = frame;
  const indexed = indexColours(pixels);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  const chunks: Uint8Array[] = [];
  let scanlines: Uint8Array;
  if (indexed) {
    const { palette, indices } = indexed;
    const depth = palette.length <= 2 ? 1 : palette.length <= 4 ? 2 : palette.length <= 16 ? 4 : 8;
    header.set([depth, 3], 8);
    const plte = new Uint8Array(palette.length * 3);
    palette.forEach((colour, i) => plte.set([colour >>> 16, (colour >>> 8) & 0xff, colour & 0xff], i * 3));
    chunks.push(chunk("IHDR", header), chunk("PLTE", plte));
    scanlines = indexedScanlines(indices, width, height, depth);
  } else {
    header.set([8, 2], 8);
    chunks.push(chunk("IHDR", header));
    scanlines = rgbScanlines(pixels, width, height);
  }
  chunks.push(chunk("IDAT", deflateSync(scanlines, { level: 6 })), chunk("IEND", new Uint8Array(0)));
  const out = new Uint8Array(8 + chunks.reduce((sum, c) => sum + c.length, 0));
  out.set(SIGNATURE);
  let at = 8;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Decodes any PNG to width, height and RGBA bytes: for tests and tools, not the daemon's path. */
export function decodePng(png: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const image = UPNG.decode(png.slice().buffer);
  return { width: image.width, height: image.height, rgba: new Uint8Array(UPNG.toRGBA8(image)[0]) };
}
