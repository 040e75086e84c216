// Resizes a frame by area averaging: each output pixel is the exact area-weighted mean of the
// source pixels it covers, so 1 px strokes survive a 66% shrink as grey instead of vanishing
// (nearest neighbour drops whole rows and columns of the font). Integer maths only, so same bytes.
import type { Frame } from "./rasterise.ts";

/** Per output pixel: the first source pixel it covers and 8-bit weights that sum to 256. */
interface Taps {
  first: Int32Array;
  count: Uint8Array;
  weights: Uint16Array;
  /** Index of each output pixel's first weight in `weights`. */
  offset: Int32Array;
}

function taps(source: number, target: number): Taps {
  const first = new Int32Array(target);
  const count = new Uint8Array(target);
  const offset = new Int32Array(target);
  const weights: number[] = [];
  for (let i = 0; i < target; i++) {
    // Work in units of 1/target source pixels: output i covers [i*source, (i+1)*source).
    const lo = i * source;
    const hi = lo + source;
    first[i] = Math.floor(lo / target);
    offset[i] = weights.length;
    let remaining = 256;
    let biggest = weights.length;
    for (let j = first[i]; j * target < hi; j++) {
      const overlap = Math.min(hi, (j + 1) * target) - Math.max(lo, j * target);
      const weight = Math.floor((overlap * 256) / source);
      if (weight > weights[biggest]) biggest = weights.length;
      weights.push(weight);
      remaining -= weight;
    }
    // Rounding leftovers go to the biggest share, so a flat colour stays exactly that colour.
    weights[biggest] += remaining;
    count[i] = weights.length - offset[i];
  }
  return { first, count, weights: Uint16Array.from(weights), offset };
}

export function resize(frame: Frame, width: number, height: number): Frame {
  if (width === frame.width && height === frame.height) return frame;
  const across = taps(frame.width, width);
  const down = taps(frame.height, height);
  const source = frame.pixels;

  // Horizontal pass into 16-bit channels (value × 256), then vertical pass back to 8 bits.
  const red = new Uint16Array(width * frame.height);
  const green = new Uint16Array(width * frame.height);
  const blue = new Uint16Array(width * frame.height);
  for (let y = 0; y < frame.height; y++) {
    const line = y * frame.width;
    const out = y * width;
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      const from = line + across.first[x];
      const at = across.offset[x];
      for (let k = 0; k < across.count[x]; k++) {
        const pixel = source[from + k];
        const weight = across.weights[at + k];
        r += (pixel >>> 16) * weight;
        g += ((pixel >>> 8) & 0xff) * weight;
        b += (pixel & 0xff) * weight;
      }
      red[out + x] = r;
      green[out + x] = g;
      blue[out + x] = b;
    }
  }

  const pixels = new Uint32Array(width * height);
  for (let y = 0; y < height; y++) {
    const out = y * width;
    const at = down.offset[y];
    const rowsUsed = down.count[y];
    for (let x = 0; x < width; x++) {
      let r = 0x8000;
      let g = 0x8000;
      let b = 0x8000;
      for (let k = 0; k < rowsUsed; k++) {
        const from = (down.first[y] + k) * width + x;
        const weight = down.weights[at + k];
        r += red[from] * weight;
        g += green[from] * weight;
        b += blue[from] * weight;
      }
      pixels[out + x] = ((r >>> 16) << 16) | ((g >>> 16) << 8) | (b >>> 16);
    }
  }
  return { width, height, pixels };
}
