// PNG encoding of a Frame (and decoding, for tests): the only file that imports upng-js.
// Indexed colour at the smallest bit depth when the frame has ≤ 256 colours, else RGB.
// Deflate is Bun's native zlib, not upng's pako (~5x slower); Bun.deflateSync rather than
// node:zlib, whose JS layer would add 0.8 MB to the binary.
import UPNG from "upng-js";
import type { Frame } from "./rasterise.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/**
 * zlib level 5 is within 0.5% of level 6's size on terminal frames in three quarters of the time.
 * Big frames (200x50 at 66% is 870 KB of scanlines) take level 3: ~8% bigger, a third faster.
 */
const deflateLevel = (bytes: number) => (bytes > 400_000 ? 3 : 5);

/** Scanlines with filter type 0 (none, the usual best for palette images), indices packed. */
function indexedScanlines({ width, height, pixels }: Frame, depth: number): Uint8Array {
  const stride = Math.ceil((width * depth) / 8) + 1;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    let at = y * stride + 1;
    let from = y * width;
    const end = from + width;
    if (depth === 8) {
      for (; from < end; from++) out[at++] = pixels[from];
    } else if (depth === 4) {
      for (; from + 1 < end; from += 2) out[at++] = (pixels[from] << 4) | pixels[from + 1];
      if (from < end) out[at] = pixels[from] << 4;
    } else {
      // Depths 1 and 2: most significant bits first, as PNG orders sub-byte pixels.
      for (let x = 0; from < end; from++, x++)
        out[at + ((x * depth) >> 3)] |= pixels[from] << (8 - depth - ((x * depth) & 7));
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
  view.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A zlib stream (RFC 1950) around Bun's raw deflate: 32 KiB window header, Adler-32 trailer. */
function zlibCompress(data: Uint8Array): Uint8Array {
  const raw = Bun.deflateSync(data as Uint8Array<ArrayBuffer>, { level: deflateLevel(data.length) });
  const out = new Uint8Array(raw.length + 6);
  out.set([0x78, 0x9c]);
  out.set(raw, 2);
  new DataView(out.buffer).setUint32(raw.length + 2, Number(Bun.hash.adler32(data)));
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
  chunks.push(chunk("IDAT", zlibCompress(scanlines)), chunk("IEND", new Uint8Array(0)));
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
