// Screenshot benchmark: median render time (CellGrid → PNG bytes, many renders) and PNG size for a
// full, coloured screen at 80x24 and 200x50, scales 66 and 100, plus the first render of the
// process (which unpacks the font). Writes bench/results/screenshot.json. Run: bun bench/screenshot.ts
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildFontAsset } from "../src/render/font-build.ts";
import { Screen } from "../src/terminal/screen.ts";

buildFontAsset();
const { renderScreenshot } = await import("../src/render/screenshot.ts");

/** Worst case for size and time: every row full of coloured code tokens, a boxed panel, an inverse status line. */
function busyScreen(cols: number, rows: number): Screen {
  const screen = new Screen({ cols, rows, scrollback: 0 });
  const words = [
    "const",
    "return",
    "function",
    "value",
    "render",
    "screen",
    "=",
    "{",
    "}",
    "(",
    ")",
    "42",
    '"text"',
    "if",
    "else",
  ];
  const colours = [0, 31, 32, 33, 34, 35, 36, 90];
  const lines: string[] = [];
  let seed = 1;
  // High bits of an LCG: its low bits repeat with a short period.
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 16;
  for (let row = 0; row < rows - 4; row++) {
    let line = "";
    let length = 0;
    const indent = (row % 5) * 2;
    line += " ".repeat(indent);
    length += indent;
    while (true) {
      const word = words[next() % words.length];
      if (length + word.length + 1 > cols - 2) break;
      const colour = colours[next() % colours.length];
      line += colour ? `\x1b[${colour}m${word}\x1b[0m ` : `${word} `;
      length += word.length + 1;
    }
    lines.push(line);
  }
  const inner = cols - 2;
  lines.push(`┌${"─".repeat(inner)}┐`);
  lines.push(`│\x1b[1;32m${" build ok: 128 tests passed".padEnd(inner)}\x1b[0m│`);
  lines.push(`└${"─".repeat(inner)}┘`);
  screen.write(`${lines.join("\r\n")}\r\n\x1b[7m${" NORMAL  src/render/screenshot.ts".padEnd(cols - 1)}\x1b[0m`);
  return screen;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

const results: Record<
  string,
  { cols: number; rows: number; scale: number; median_ms: number; png_bytes: number; width_px: number }
> = {};
const first = busyScreen(80, 24);
const coldStarted = performance.now();
renderScreenshot(first.cellGrid());
const firstRenderMs = Number((performance.now() - coldStarted).toFixed(2));
first.dispose();
console.log(`first render (unpacks the font) ${firstRenderMs} ms`);

for (const [cols, rows] of [
  [80, 24],
  [200, 50],
] as const) {
  const screen = busyScreen(cols, rows);
  const grid = screen.cellGrid();
  screen.dispose();
  for (const scale of [66, 100]) {
    const options = { scale, pad: 0, cursor: true };
    for (let i = 0; i < 10; i++) renderScreenshot(grid, options);
    const times: number[] = [];
    let png: Uint8Array = new Uint8Array();
    const runs = cols === 80 ? 200 : 60;
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      png = renderScreenshot(grid, options);
      times.push(performance.now() - started);
    }
    const key = `${cols}x${rows}@${scale}`;
    results[key] = {
      cols,
      rows,
      scale,
      median_ms: Number(median(times).toFixed(2)),
      png_bytes: png.length,
      width_px: new DataView(png.buffer, png.byteOffset).getUint32(16),
    };
    console.log(`${key.padEnd(12)} median ${results[key].median_ms.toFixed(2)} ms  ${png.length} bytes`);
  }
}

const out = join(import.meta.dir, "results");
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, "screenshot.json"),
  `${JSON.stringify({ bun: Bun.version, first_render_ms: firstRenderMs, results }, null, 2)}\n`,
);
