// Scaling by area averaging, cell by cell: each cell's 1-bit mask becomes coverage levels for the
// cell's box in the output, so 1 px strokes survive a 66% shrink as grey instead of vanishing (as
// nearest neighbour would drop them). Integer maths only: same input, same bytes. No colours here.

/** Coverage is quantised to 0..LEVELS: few enough shades that a screen fits a 256-colour PNG. */
export const LEVELS = 8;

/** Output pixel edges of `count` cells of `size` px at `scale` percent: cell i spans [e[i], e[i+1]). */
export function cellEdges(count: number, size: number, scale: number): Int32Array {
  const edges = new Int32Array(count + 1);
  for (let i = 0; i <= count; i++) edges[i] = Math.round((i * size * scale) / 100);
  return edges;
}

/** Per output pixel: the first source pixel it covers, how many, and weights summing to 256. */
interface Taps {
  first: Int32Array;
  count: Uint8Array;
  offset: Int32Array;
  weights: Uint16Array;
}

const tapsCache = new Map<number, Taps>();

function taps(source: number, target: number): Taps {
  const key = source * 4096 + target;
  const cached = tapsCache.get(key);
  if (cached) return cached;
  const first = new Int32Array(target);
  const count = new Uint8Array(target);
  const offset = new Int32Array(target);
  const weights: number[] = [];
  for (let i = 0; i < target; i++) {
    // In units of 1/target source pixels, output i covers [i*source, (i+1)*source).
    const lo = i * source;
    const hi = lo + source;
    first[i] = Math.floor(lo / target);
    offset[i] = weights.length;
    let remaining = 256;
    let biggest = weights.length;
    for (let j = first[i]; j * target < hi; j++) {
      const overlap = Math.min(hi, (j + 1) * target) - Math.max(lo, j * target);
      const weight = Math.floor((overlap * 256) / source);
      if (weights.length === offset[i] || weight > weights[biggest]) biggest = weights.length;
      weights.push(weight);
      remaining -= weight;
    }
    // Rounding leftovers go to the biggest share, so a full area stays exactly full.
    weights[biggest] += remaining;
    count[i] = weights.length - offset[i];
  }
  const result = { first, count, offset, weights: Uint16Array.from(weights) };
  tapsCache.set(key, result);
  return result;
}

/**
 * Coverage levels (0..LEVELS) of a `sourceWidth` x rows.length mask (bit x of rows[y]) shrunk
 * or grown to `width` x `height` by area averaging.
 */
export function coverage(rows: Uint32Array, sourceWidth: number, width: number, height: number): Uint8Array {
  const across = taps(sourceWidth, width);
  const down = taps(rows.length, height);
  // Horizontal pass: per source row, each output column's covered area out of 256.
  const partial = new Uint16Array(rows.length * width);
  for (let y = 0; y < rows.length; y++) {
    const bits = rows[y];
    if (bits === 0) continue;
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = 0; k < across.count[x]; k++) {
        if (bits & (1 << (across.first[x] + k))) sum += across.weights[across.offset[x] + k];
      }
      partial[y * width + x] = sum;
    }
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let k = 0; k < down.count[y]; k++)
        sum += partial[(down.first[y] + k) * width + x] * down.weights[down.offset[y] + k];
      out[y * width + x] = (sum * LEVELS + 32768) >>> 16;
    }
  }
  return out;
}
