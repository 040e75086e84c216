// PNG encoding of a Frame (and decoding, for tests): the only file that imports upng-js.
// Indexed colour at the smallest bit depth when the frame has ≤ 256 colours, else RGB.
// Deflate is node:zlib (native), not upng's pako: ~5x faster; see the bench for numbers.
import { crc32, deflateSync } from "node:zlib";
import UPNG from "upng-js";
import type { Frame } from "./rasterise.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Past this many raw bytes zlib's level 6 costs much more time than level 4 saves in size. */
const LARGE_RAW_BYTES = 300_000;

/** Scanlines with filter type 0 (none, the usual best for palette images), indices packed. */
function indexedScanlines({ width, height, pixels }: Frame, depth: number): Uint8Array {
  const stride = Math.ceil((width * depth) / 8) + 1;
  const out = new Uint8Array(stride * height);
  const perByte = 8 / depth;
  for (let y = 0; y < height; y++) {
    let at = y * stride + 1;
    let from = y * width;
    const end = from + width;
    if (depth === 8) {
      for (; from < end; from++) out[at++] = pixels[from];
      continue;
    }
    // Pack whole bytes, most significant bits first, as PNG orders sub-byte pixels.
    while (from < end) {
      let byte = 0;
      for (let k = 0; k < perByte; k++) byte = (byte << depth) | (from + k < end ? pixels[from + k] : 0);
      out[at++] = byte;
      from += perByte;
    }
  }
  return out;
}

/** RGB scanlines, filter Up: terminal images repeat row to row far more than along a row. */
function rgbScanlines({ width, height, palette, pixels }: Frame): Uint8Array {
  const stride = width * 3 + 1;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const line = y * stride;
    out[line] = 2;
    for (let x = 0; x < width; x++) {
      const pixel = palette[pixels[y * width + x]];
      const above = y > 0 ? palette[pixels[(y - 1) * width + x]] : 0;
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
  const { width, height, palette } = frame;
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  const chunks: Uint8Array[] = [];
  let scanlines: Uint8Array;
  if (palette.length <= 256) {
    const depth = palette.length <= 2 ? 1 : palette.length <= 4 ? 2 : palette.length <= 16 ? 4 : 8;
    header.set([depth, 3], 8);
    const plte = new Uint8Array(palette.length * 3);
    palette.forEach((colour, i) => plte.set([colour >>> 16, (colour >>> 8) & 0xff, colour & 0xff], i * 3));
    chunks.push(chunk("IHDR", header), chunk("PLTE", plte));
    scanlines = indexedScanlines(frame, depth);
  } else {
    header.set([8, 2], 8);
    chunks.push(chunk("IHDR", header));
    scanlines = rgbScanlines(frame);
  }
  const level = scanlines.length > LARGE_RAW_BYTES ? 4 : 6;
  chunks.push(chunk("IDAT", deflateSync(scanlines, { level })), chunk("IEND", new Uint8Array(0)));
  const out = new Uint8Array(SIGNATURE.length + chunks.reduce((sum, c) => sum + c.length, 0));
  out.set(SIGNATURE);
  let at = SIGNATURE.length;
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
