// A narrow resize must not cost the archive its lines: the row limit counts logical lines, and a
// narrower width may hold as many more rows as it wraps them into (issue: `resize 20` then
// `resize 200` on 10 000 lines left 1 002; tmux keeps all 10 000). Proven against xterm's own
// rewrap with a limit large enough that xterm drops nothing.
import { Terminal as XTerm } from "@xterm/headless";
import { afterEach, expect, test } from "bun:test";
import { Scrollback, type PackedRow } from "./scrollback.ts";
import { Screen } from "./screen.ts";
import { currentUnicode } from "./unicode-width.ts";

let screen: Screen | undefined;
let oracle: XTerm | undefined;
afterEach(() => {
  screen?.dispose();
  oracle?.dispose();
  screen = oracle = undefined;
});

function oracleOf(cols: number, rows: number, scrollback: number): XTerm {
  const xterm = new XTerm({ cols, rows, scrollback, allowProposedApi: true, logLevel: "off" });
  xterm.unicode.register(currentUnicode);
  xterm.unicode.activeVersion = currentUnicode.version;
  return xterm;
}

function oracleLines(xterm: XTerm): string[] {
  const buffer = xterm.buffer.active;
  const out: string[] = [];
  for (let i = 0; i < buffer.length; i++) out.push(buffer.getLine(i)!.translateToString(true).replace(/ +$/, ""));
  return out;
}

function feed(input: string): void {
  for (let i = 0; i < input.length; i += 4096) {
    screen!.write(input.slice(i, i + 4096));
    (oracle as unknown as { _core: { _writeBuffer: { writeSync(d: string): void } } })._core._writeBuffer.writeSync(
      input.slice(i, i + 4096),
    );
  }
}

const all = () => screen!.lines("all", 0, screen!.regionLength("all"), true);

test("resize 20 then 200 keeps all 10 000 lines of a full archive, as xterm's rewrap with room for them", () => {
  screen = new Screen({ cols: 80, rows: 24, scrollback: 10_000 });
  oracle = oracleOf(80, 24, 1_000_000);
  let input = "";
  // 10 000 lines in the archive and 23 on the screen; lines of 5 to 79 characters.
  for (let i = 0; i < 10_023; i++) input += `${String(i).padStart(5, "0")} ${"x".repeat(i % 74)}\r\n`;
  feed(input);
  expect(screen.regionLength("scrollback")).toBe(10_000);
  expect(all()).toEqual(oracleLines(oracle));
  for (const [cols, rows] of [
    [20, 24],
    [200, 24],
    [7, 24],
    [80, 24],
  ] as const) {
    screen.resize(cols, rows);
    oracle.resize(cols, rows);
    const ours = all();
    expect({ cols, rows: ours.length, first: ours[0] }).toEqual({
      cols,
      rows: oracleLines(oracle).length,
      first: oracleLines(oracle)[0],
    });
    expect(ours).toEqual(oracleLines(oracle));
  }
  expect(all()[0]).toBe("00000");
});

test("a line that never ends is bounded: the archive holds no more cells than the row limit", () => {
  const archive = new Scrollback({ rows: 1000, bytes: 0 });
  const row = (cols: number, wrapped: boolean): PackedRow => {
    const data = new Uint32Array(cols * 3);
    for (let col = 0; col < cols; col++) data[col * 3] = 0x61 | (1 << 22);
    return { data, length: cols, combined: {}, extended: {}, wrapped };
  };
  for (let i = 0; i < 5000; i++) archive.append(row(80, i > 0));
  expect(archive.length).toBe(1000);
  archive.reflow(80, 20);
  expect(archive.length).toBe(4000);
  for (let i = 0; i < 5000; i++) archive.append(row(20, true));
  expect(archive.length).toBe(4000);
  archive.reflow(20, 80);
  expect(archive.length).toBe(1000);
});

test("the row limit counts logical lines: wrapped lines at a narrow width drop whole, oldest first", () => {
  screen = new Screen({ cols: 80, rows: 4, scrollback: 100 });
  for (let i = 0; i < 300; i++) screen.write(`${String(i).padStart(3, "0")} ${"y".repeat(70)}\r\n`);
  screen.resize(20, 4);
  for (let i = 300; i < 350; i++) screen.write(`${String(i).padStart(3, "0")} ${"y".repeat(70)}\r\n`);
  const held = screen.lines("scrollback", 0, screen.regionLength("scrollback"), true);
  const starts = held.filter((text) => /^\d{3} /.test(text));
  // 100 lines, and those the resize moved from the 4-row screen into the archive (it drops none).
  expect(starts.length).toBeGreaterThanOrEqual(100);
  expect(starts.length).toBeLessThanOrEqual(104);
  expect(held[0]).toMatch(/^\d{3} /);
  expect(starts.at(-1)).toStartWith("349 "); // its rows run onto the 4-row screen
});

test(
  "a width set before anything scrolled counts too: narrowed " +
    "at once, then printed, then widened, every line is kept",
  () => {
    screen = new Screen({ cols: 80, rows: 24, scrollback: 1000 });
    oracle = oracleOf(80, 24, 1_000_000);
    screen.resize(20, 24);
    oracle.resize(20, 24);
    let input = "";
    for (let i = 0; i < 1000; i++) input += `${String(i).padStart(4, "0")} ${"z".repeat(60)}\r\n`;
    feed(input);
    screen.resize(80, 24);
    oracle.resize(80, 24);
    const theirs = oracleLines(oracle);
    const ours = all();
    expect(ours).toEqual(theirs.slice(-ours.length));
    expect(ours.filter((row) => /^\d{4} z+$/.test(row)).length).toBeGreaterThanOrEqual(1000 - 1);
  },
);
