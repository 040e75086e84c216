import { expect, test } from "bun:test";
import { inflateSync } from "node:zlib";
import { decodePng, encodePng } from "./png.ts";
import type { Frame } from "./rasterise.ts";

function frame(width: number, height: number, colours: number): Frame {
  const palette = Array.from({ length: colours }, (_, i) => (i * 0x010203 * 37) & 0xffffff);
  // Distinct colours: the palette must not repeat one.
  expect(new Set(palette).size).toBe(colours);
  const pixels = new Uint32Array(width * height).map((_, i) => (i * 7 + (i >> 3)) % colours);
  return { width, height, palette, pixels };
}

function rgba(f: Frame): Uint8Array {
  const out = new Uint8Array(f.width * f.height * 4);
  f.pixels.forEach((index, i) =>
    out.set([f.palette[index] >>> 16, (f.palette[index] >>> 8) & 0xff, f.palette[index] & 0xff, 255], i * 4),
  );
  return out;
}

function chunks(png: Uint8Array): Map<string, Uint8Array> {
  const found = new Map<string, Uint8Array>();
  const view = new DataView(png.buffer, png.byteOffset);
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const body = png.subarray(at + 8, at + 8 + length);
    expect(view.getUint32(at + 8 + length)).toBe(Bun.hash.crc32(png.subarray(at + 4, at + 8 + length)));
    found.set(type, body);
    at += 12 + length;
  }
  return found;
}

for (const [colours, depth] of [
  [2, 1],
  [3, 2],
  [16, 4],
  [17, 8],
  [256, 8],
] as const) {
  test(`${colours} colours: indexed at depth ${depth}, decodes to the same pixels`, () => {
    const f = frame(13, 5, colours);
    const png = encodePng(f);
    const parts = chunks(png);
    const header = parts.get("IHDR")!;
    expect([header[8], header[9]]).toEqual([depth, 3]);
    expect(parts.get("PLTE")!.length).toBe(colours * 3);
    const decoded = decodePng(png);
    expect([decoded.width, decoded.height]).toEqual([13, 5]);
    expect(decoded.rgba).toEqual(rgba(f));
  });
}

test("more than 256 colours: RGB, decodes to the same pixels", () => {
  const f = frame(31, 17, 300);
  const png = encodePng(f);
  const parts = chunks(png);
  expect([parts.get("IHDR")![8], parts.get("IHDR")![9]]).toEqual([8, 2]);
  expect(parts.has("PLTE")).toBe(false);
  expect(decodePng(png).rgba).toEqual(rgba(f));
});

test("IDAT is a valid zlib stream (header and Adler-32 checked by inflate)", () => {
  const png = encodePng(frame(100, 40, 50));
  const raw = inflateSync(chunks(png).get("IDAT")!);
  expect(raw.length).toBe((100 + 1) * 40);
});

test("same frame, same bytes", () => {
  expect(encodePng(frame(64, 32, 40))).toEqual(encodePng(frame(64, 32, 40)));
});
