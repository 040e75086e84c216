// The compact scrollback against the emulator it replaces: an xterm that keeps every row itself
// (the oracle, as the screen was before the archive) is fed the same bytes, and every reader must
// see the same rows, the same attributes and the same rewrapping.
import { SerializeAddon } from "@xterm/addon-serialize";
import { Terminal as XTerm } from "@xterm/headless";
import { afterEach, expect, test } from "bun:test";
import { RAW_SEALED_BYTES, Scrollback, type PackedRow } from "./scrollback.ts";
import { Screen } from "./screen.ts";
import { currentUnicode } from "./unicode-width.ts";

class Oracle {
  readonly xterm: XTerm;
  readonly #serializer = new SerializeAddon();
  constructor(cols: number, rows: number, scrollback: number) {
    this.xterm = new XTerm({ cols, rows, scrollback, allowProposedApi: true, logLevel: "off" });
    this.xterm.unicode.register(currentUnicode);
    this.xterm.unicode.activeVersion = currentUnicode.version;
    this.xterm.loadAddon(this.#serializer as unknown as Parameters<XTerm["loadAddon"]>[0]);
  }
  write(data: string): void {
    (this.xterm as unknown as { _core: { _writeBuffer: { writeSync(d: string): void } } })._core._writeBuffer.writeSync(
      data,
    );
  }
  all(trim: boolean): string[] {
    const buffer = this.xterm.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < buffer.length; i++) {
      const text = buffer.getLine(i)!.translateToString(trim);
      out.push(trim ? text.replace(/ +$/, "") : text);
    }
    return out;
  }
  serialize(scrollback: number): string {
    return this.#serializer.serialize({ scrollback });
  }
}

let screen: Screen;
let oracle: Oracle;
afterEach(() => {
  screen?.dispose();
  oracle?.xterm.dispose();
});

const all = (trim: boolean) => screen.lines("all", 0, screen.regionLength("all"), trim);

function feed(input: string): void {
  for (let i = 0; i < input.length; i += 4096) {
    screen.write(input.slice(i, i + 4096));
    oracle.write(input.slice(i, i + 4096));
  }
}

/**
 * Colours (palette, RGB), every SGR attribute, curly coloured underlines, wide and combining characters, erased
 * coloured rows, long wrapped lines.
 */
function mixedOutput(lines: number): string {
  const attributes = ["1", "2", "3", "4", "5", "7", "8", "9", "53", "4:3;58:2::255:0:0", "21"];
  let out = "";
  for (let i = 0; i < lines; i++) {
    out += `\x1b[3${i % 8}m${i}\x1b[0m plain \x1b[${attributes[i % attributes.length]}mattr\x1b[0m `;
    out += "中😀e\u0301👩‍👩‍👧".repeat(i % 4);
    out += ` \x1b[48;2;${i % 256};20;30mrgb\x1b[0m ${"x".repeat(i % 170)}\r\n`;
    if (i % 97 === 0) out += "\x1b[41m\x1b[K\x1b[0m\r\n";
    if (i % 89 === 0) out += `${"y".repeat(79)}中\r\n`; // a wide character that does not fit: the row wraps before it
  }
  return out;
}

test("the archive round-trips every attribute, wide and combining character", () => {
  screen = new Screen({ cols: 80, rows: 24, scrollback: 10_000 });
  oracle = new Oracle(80, 24, 10_000);
  feed(mixedOutput(2000));
  expect(screen.scrollbackUsage.rows).toBeGreaterThan(2000);
  expect(all(true)).toEqual(oracle.all(true));
  expect(all(false)).toEqual(oracle.all(false));
  // The serialize addon writes out every cell's attributes: the same string means the same cells.
  expect(screen.serialize(100_000)).toBe(oracle.serialize(100_000));
  expect(screen.serialize(50)).toBe(oracle.serialize(50));
});

test("text --all after 50k lines is what the emulator alone gave, and the oldest rows are dropped at the limit", () => {
  screen = new Screen({ cols: 80, rows: 24, scrollback: 10_000 });
  oracle = new Oracle(80, 24, 10_000);
  let input = "";
  for (let i = 0; i < 50_000; i++)
    input += i % 7 === 0 ? `\x1b[32m${i}\x1b[0m ${"wrapped ".repeat(i % 23)}\r\n` : `${i}\r\n`;
  feed(input);
  expect(screen.regionLength("scrollback")).toBe(10_000);
  expect(all(true)).toEqual(oracle.all(true));
  // Rows keep their stable numbers: the newest row read by number and through its logical line.
  const bottom = screen.bottomStableRow;
  const last = screen.logicalLine(bottom - 2)!;
  expect(last.text).toBe(oracle.all(true).at(-3)!);
  // Soft-wrapped rows in the archive join into their logical line, across the archive's rows.
  let joined = 0;
  for (let row = bottom - screen.regionLength("all") + 1; row < bottom - 24; row++) {
    if (!screen.row(row)!.wrapped) continue;
    const logical = screen.logicalLine(row)!;
    expect(logical.first).toBeLessThan(row);
    expect(logical.text).toMatch(/^\d+ (wrapped )*wrapped$/);
    joined++;
  }
  expect(joined).toBeGreaterThan(100);
});

test(
  "resize rewraps the archived rows as xterm rewraps its " +
    "own: narrower, wider, taller, shorter, down to one column",
  () => {
    // The row limit counts lines: a narrow width keeps them all in more rows, as an xterm with
    // room for every row does (one with the same row count drops the oldest as it narrows).
    screen = new Screen({ cols: 80, rows: 24, scrollback: 10_000 });
    oracle = new Oracle(80, 24, 1_000_000);
    feed(mixedOutput(1500));
    feed("a prompt$ ");
    for (const [cols, rows] of [
      [60, 24],
      [100, 30],
      [37, 10],
      [1, 1],
      [80, 24],
      [200, 50],
      [3, 2],
      [81, 24],
      [79, 5],
    ] as const) {
      screen.resize(cols, rows);
      oracle.xterm.resize(cols, rows);
      expect({ cols, rows, text: all(true) }).toEqual({ cols, rows, text: oracle.all(true) });
      expect(screen.cursor()).toMatchObject({
        row: oracle.xterm.buffer.active.cursorY,
        col: oracle.xterm.buffer.active.cursorX,
      });
    }
    expect(screen.serialize(100_000)).toBe(oracle.serialize(100_000));
  },
);

test("a resize keeps the unchanged chunks and rewraps the others: the rows of xterm's whole rewrap", () => {
  // A shell's output: short rows nearly everywhere, a long line now and then (wrapped at 80,
  // or wider than the narrower sizes), and a row limit that has dropped part of the first chunk.
  screen = new Screen({ cols: 80, rows: 24, scrollback: 15_000 });
  oracle = new Oracle(80, 24, 1_000_000);
  let input = "";
  for (let i = 0; i < 20_000; i++) {
    if (i === 9000 || i === 17_000) input += `${i} ${"long ".repeat(40)}\r\n`;
    else if (i === 13_000) input += `\x1b[33m${i}\x1b[0m ${"w".repeat(70)}\r\n`;
    else input += `${i} ok\r\n`;
  }
  feed(input);
  // The oracle keeps every row: t4a holds the newest 15 000 lines of it, whole, at every width.
  const newest = () => oracle.all(true).slice(-all(true).length);
  const lines = () => {
    const top = screen.bottomStableRow - screen.regionLength("all") + 1;
    let count = 0;
    for (let row = top; row <= screen.bottomStableRow; row++)
      if (!screen.row(row)!.wrapped && screen.row(row)!.text !== "") count++;
    return count;
  };
  expect(all(true)).toEqual(newest());
  for (const cols of [120, 60, 75, 200, 80, 9, 80]) {
    const rows = 24;
    const before = lines();
    screen.resize(cols, rows);
    oracle.xterm.resize(cols, rows);
    expect({ cols, rows, text: all(true) }).toEqual({ cols, rows, text: newest() });
    // No line is lost to the rewrap, and the oldest one held is whole.
    expect({ cols, lines: lines() }).toEqual({ cols, lines: before });
    expect(screen.row(screen.bottomStableRow - screen.regionLength("all") + 1)!.wrapped).toBe(false);
    feed(`after ${cols}\r\n`);
  }
  expect(screen.serialize(5_000)).toBe(oracle.serialize(5_000));
  const bottom = screen.bottomStableRow;
  expect(screen.logicalLine(bottom - 2)!.text).toBe(oracle.all(true).at(-3)!);
});

test("a byte budget drops the oldest rows first", () => {
  screen = new Screen({ cols: 80, rows: 4, scrollback: 100_000, scrollbackBytes: 20_000 });
  for (let i = 0; i < 5000; i++) screen.write(`row ${String(i).padStart(5, "0")} ${"z".repeat(40)}\r\n`);
  const { rows, bytes } = screen.scrollbackUsage;
  expect(bytes).toBeLessThanOrEqual(20_000);
  expect(bytes).toBeGreaterThan(19_000);
  const kept = screen.lines("scrollback", 0, rows, true);
  // The newest rows survive, in order, up to the one just above the screen.
  expect(kept.at(-1)).toStartWith("row 04996");
  expect(kept[0]).toStartWith(`row ${String(4997 - rows).padStart(5, "0")}`);
});

test("CSI 3 J and a reset (RIS) clear the scrollback; the alternate screen adds nothing to it", () => {
  screen = new Screen({ cols: 20, rows: 3, scrollback: 100 });
  for (let i = 0; i < 10; i++) screen.write(`${i}\r\n`);
  expect(screen.regionLength("scrollback")).toBe(8);
  screen.write("\x1b[3J");
  expect(screen.regionLength("scrollback")).toBe(0);
  for (let i = 0; i < 10; i++) screen.write(`${i}\r\n`);
  screen.write("\x1b[?1049h");
  for (let i = 0; i < 10; i++) screen.write(`alt ${i}\r\n`);
  expect(screen.regionLength("scrollback")).toBe(0); // the alternate screen has none
  screen.write("\x1b[?1049l");
  expect(screen.regionLength("scrollback")).toBe(10);
  screen.write("\x1bc");
  expect(screen.regionLength("scrollback")).toBe(0);
  expect(screen.lines("all", 0, screen.regionLength("all"), true)).toEqual(["", "", ""]);
});

test("scrollback 0 keeps nothing above the screen", () => {
  screen = new Screen({ cols: 20, rows: 3, scrollback: 0 });
  for (let i = 0; i < 1000; i++) screen.write(`${i}\r\n`);
  expect(screen.regionLength("scrollback")).toBe(0);
  expect(screen.lines("all", 0, 3, true)).toEqual(["998", "999", ""]);
});

test("full chunks past the first 128 KB are kept compressed; dropping the newest rows reaches back into them", () => {
  const archive = new Scrollback({ rows: 100_000, bytes: 0 });
  const row = (text: string): PackedRow => {
    const data = new Uint32Array(80 * 3);
    for (let col = 0; col < 80; col++) data[col * 3] = (col < text.length ? text.charCodeAt(col) : 0) | (1 << 22);
    return { data, length: 80, combined: {}, extended: {}, wrapped: false };
  };
  const line = (i: number) =>
    `${new Date(1e12 + i * 1000).toISOString()} INFO worker-${i % 7} request ${(i * 7919) % 100_000}`;
  for (let i = 0; i < 20_000; i++) archive.append(row(line(i)));
  // ~1 MB of records: 128 KB of full chunks and the open one stay as they are, the rest ~5x smaller.
  expect(archive.storedBytes).toBeLessThan(RAW_SEALED_BYTES + 32 * 1024 + archive.byteLength / 4);
  expect(archive.text(archive.start + 12_345)).toBe(line(12_345));
  archive.dropNewest(5_000);
  expect(archive.length).toBe(15_000);
  expect(archive.text(archive.end - 1)).toBe(line(14_999));
  for (let i = 15_000; i < 16_000; i++) archive.append(row(`again ${i}`));
  expect(archive.text(archive.end - 1)).toBe("again 15999");
  expect(archive.text(archive.end - 1001)).toBe(line(14_999));
  expect(archive.text(archive.start)).toBe(line(0));
});
