// The flood path (Screen#parse): plain lines a write scrolls straight through are archived without
// xterm printing them. It must leave exactly what feeding every byte to xterm leaves. Each case
// feeds one random stream twice: in large chunks (where the path runs) and a few bytes at a time
// (where it never can, a chunk holding fewer lines than a screen), then compares everything a
// reader can see: every row's text and wrap flag, the styles (serialized), cursor, modes, sizes.
import { expect, test } from "bun:test";
import { Screen, type ScreenOptions } from "./screen.ts";

/** A small deterministic PRNG (mulberry32): a failing seed replays. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces of output: runs of plain lines (the path's case) among everything that must stop it. */
function stream(next: () => number, cols: number): string {
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)]!;
  const word = (length: number) =>
    Array.from({ length }, () => String.fromCharCode(0x20 + Math.floor(next() * 95))).join("");
  const parts: string[] = [];
  for (let piece = 0; piece < 40; piece++) {
    const kind = next();
    if (kind < 0.45) {
      // A flood of plain lines, some empty, some exactly a row wide, a few one past it (they wrap).
      const count = 20 + Math.floor(next() * 600);
      for (let i = 0; i < count; i++) {
        const length = next() < 0.01 ? cols + 1 : pick([0, 1, 3, 7, cols - 1, cols, Math.floor(next() * cols)]);
        parts.push(`${word(length)}\r\n`);
      }
    } else {
      parts.push(
        pick([
          "\x1b[31mred\r\nstill red\r\n", // a colour left set: lines after it are styled
          "\x1b[0m",
          "\x1b[44m\r\n\x1b[0m", // a bottom row filled with a background colour
          "bare\nnewline\n", // LF without CR: the cursor keeps its column
          "tab\there\r\n",
          "é中😀 wide\r\n",
          "\x1b[3;1H", // the cursor moved off the bottom row
          "\x1b[999;1Hbottom\x1b[A\rup one\r\n", // a line feed onto a bottom row that holds text
          "\x1b[2J\x1b[H",
          `\x1b[2;${Math.max(2, Math.floor(cols / 2))}r`, // a scroll region
          "\x1b[r",
          "\x1b[?1049h alternate \r\n\r\n", // the alternate screen keeps no scrollback
          "\x1b[?1049l",
          "\x1b(0qqqq\r\n", // DEC line drawing maps plain ASCII to other characters
          "\x1b(B",
          "\x1b[4hinsert", // insert mode shifts what the row held
          "\x1b[4l",
          "overwritten\rover\r\n",
          "\x1b[?7l", // autowrap off
          "\x1b[?7h",
          "\x1b]0;a title\x07",
          "\x1b[12", // an escape sequence a chunk may cut
          "5m",
          "partial line without an end",
          "\x1bc", // RIS: clears the scrollback too
        ]),
      );
    }
  }
  return parts.join("");
}

function everything(screen: Screen): unknown {
  const all = screen.regionLength("all");
  const rows: Array<{ text: string; wrapped: boolean } | undefined> = [];
  const bottom = screen.bottomStableRow;
  for (let row = bottom - all + 1; row <= bottom; row++) rows.push(screen.row(row));
  return {
    rows,
    serialized: screen.serialize(all),
    cursor: screen.cursor(),
    cursorRow: screen.cursorStableRow(),
    usage: { rows: screen.scrollbackUsage.rows, bytes: screen.scrollbackUsage.bytes },
    title: screen.title,
  };
}

function feed(screen: Screen, bytes: Uint8Array, chunk: () => number): void {
  for (let at = 0; at < bytes.length; ) {
    const size = chunk();
    screen.write(bytes.subarray(at, at + size));
    at += size;
  }
}

const shapes: Array<ScreenOptions & { name: string }> = [
  { name: "80x24, 10 000 rows", cols: 80, rows: 24, scrollback: 10_000 },
  { name: "12x4, 50 rows", cols: 12, rows: 4, scrollback: 50 },
  { name: "20x1, 30 rows", cols: 20, rows: 1, scrollback: 30 },
  { name: "30x6, no scrollback", cols: 30, rows: 6, scrollback: 0 },
  { name: "40x5, a byte limit", cols: 40, rows: 5, scrollback: 1000, scrollbackBytes: 600 },
];

for (const shape of shapes) {
  test(`plain lines archived without xterm leave what xterm leaves: ${shape.name}`, () => {
    for (let seed = 1; seed <= 12; seed++) {
      const next = random(seed * 7919 + shape.cols);
      const bytes = new TextEncoder().encode(stream(next, shape.cols));
      const fast = new Screen(shape);
      const slow = new Screen(shape);
      try {
        feed(fast, bytes, () => 1 + Math.floor(next() * 32_768));
        feed(slow, bytes, () => 1 + Math.floor(next() * 8));
        expect({ seed, ...(everything(fast) as object) }).toEqual({ seed, ...(everything(slow) as object) });
      } finally {
        fast.dispose();
        slow.dispose();
      }
    }
  });
}

// Each state that makes a plain line print differently, set up by the writes before a flood whose
// first line feed lands the cursor where the flood starts. Each must stop the path.
const floodAfter: Record<string, { before: string; first?: string }> = {
  "a bottom row holding text": { before: "\x1b[999;1Hbottom\x1b[A\r" },
  "a bottom row filled with a background colour": { before: "\x1b[999;1H\x1b[44m\x1b[K\x1b[0m\x1b[A\r" },
  // ECH blanks the one character wrapped onto the bottom row and keeps the row a continuation
  // (until the line feed onto it).
  "a blank bottom row that continued the row above": { before: `\x1b[999;1H\x1b[A\r${"w".repeat(21)}\r\x1b[X\x1b[A\r` },
  "a colour set": { before: "\x1b[31m" },
  "DEC line drawing": { before: "\x1b(0" },
  "insert mode (it prints a blank row as it is)": { before: "\x1b[4h" },
  "a scroll region": { before: "\x1b[2;4r\x1b[4;1H" },
  "a scroll region ending above the bottom": { before: "\x1b[1;5r\x1b[6;1H" },
  "an OSC string left open": { before: "\x1b]0;a title" },
  "a CSI sequence cut short": { before: "\x1b[3" },
  "a UTF-8 character cut short (the line feed ends it)": { before: "\xe4\xb8" },
  "the alternate screen": { before: "\x1b[?1049h" },
  "a line feed without a carriage return": { before: "", first: "indented\n" },
  "the cursor above the bottom row": { before: "\x1b[2;1H" },
};

for (const [name, { before, first = "first\r\n" }] of Object.entries(floodAfter)) {
  test(`a flood after ${name} leaves what xterm leaves`, () => {
    const flood = `${first}${Array.from({ length: 200 }, (_, i) => `line ${i}\r\n`).join("")}last`;
    const writes = [...Array.from({ length: 30 }, (_, i) => `filler ${i}\r\n`), before, flood].map((text) =>
      Uint8Array.from(text, (char) => char.charCodeAt(0)),
    );
    const fast = new Screen({ cols: 20, rows: 6, scrollback: 500 });
    const slow = new Screen({ cols: 20, rows: 6, scrollback: 500 });
    try {
      for (const bytes of writes) {
        fast.write(bytes);
        feed(slow, bytes, () => 1);
      }
      expect(everything(fast)).toEqual(everything(slow));
    } finally {
      fast.dispose();
      slow.dispose();
    }
  });
}

test("a flood of plain lines in one write: the screen, the archive and the rows it changed", () => {
  const screen = new Screen({ cols: 20, rows: 5, scrollback: 1000 });
  try {
    screen.write("\r\n\r\n\r\n\r\nprompt$ seq 1 500\r\n");
    const token = screen.changeToken();
    screen.write(`${Array.from({ length: 500 }, (_, i) => `${i + 1}\r\n`).join("")}prompt$ `);
    expect(screen.lines("viewport", 0, 5, true)).toEqual(["497", "498", "499", "500", "prompt$"]);
    expect(screen.lines("scrollback", 0, 3, true)).toEqual(["494", "495", "496"]);
    const all = screen.regionLength("all");
    expect(all).toBe(506);
    expect(screen.lines("all", all - 5, all - 4, true)).toEqual(["prompt$ seq 1 500"]);
    expect(screen.cursor()).toMatchObject({ col: 8 });
    // Every row the flood went through counts as changed since before it.
    const changed = screen.changedSince(token, "all");
    expect(changed.lines.slice(0, 2)).toEqual(["1", "2"]);
    expect(changed.lines.at(-1)).toBe("prompt$");
  } finally {
    screen.dispose();
  }
});
