import { afterEach, expect, test } from "bun:test";
import { CellFlag, colourMode, colourValue } from "./cell-grid.ts";
import { Screen } from "./screen.ts";

let screen: Screen;
afterEach(() => screen?.dispose());

test("rows are counted from the bottom and returned top to bottom", () => {
  screen = new Screen({ cols: 20, rows: 4, scrollback: 100 });
  screen.write("a\r\nb\r\nc\r\nd\r\ne\r\nf");
  expect(screen.lines("viewport", 0, 4, true)).toEqual(["c", "d", "e", "f"]);
  expect(screen.lines("viewport", 0, 2, true)).toEqual(["e", "f"]);
  expect(screen.lines("scrollback", 0, 2, true)).toEqual(["a", "b"]);
  expect(screen.regionLength("all")).toBe(6);
  expect(screen.lines("all", 4, 6, true)).toEqual(["a", "b"]);
});

test("trim removes trailing blanks only when asked", () => {
  screen = new Screen({ cols: 6, rows: 1, scrollback: 0 });
  screen.write("hi  ");
  expect(screen.lines("viewport", 0, 1, false)).toEqual(["hi    "]);
  expect(screen.lines("viewport", 0, 1, true)).toEqual(["hi"]);
});

test("scrollback is bounded", () => {
  screen = new Screen({ cols: 10, rows: 2, scrollback: 5 });
  for (let i = 0; i < 50; i++) screen.write(`${i}\r\n`);
  expect(screen.regionLength("scrollback")).toBe(5);
});

test("wide characters take two cells and the text reads naturally", () => {
  screen = new Screen({ cols: 10, rows: 1, scrollback: 0 });
  screen.write("中😀x");
  expect(screen.lines("viewport", 0, 1, true)).toEqual(["中😀x"]);
  expect(screen.cursor().col).toBe(5);
  const grid = screen.cellGrid();
  expect([...grid.widths.slice(0, 5)]).toEqual([2, 0, 2, 0, 1]);
});

test("title, bell and terminal replies reach their callbacks", () => {
  const seen: string[] = [];
  screen = new Screen(
    { cols: 10, rows: 2, scrollback: 0 },
    {
      title: (t) => seen.push(`title:${t}`),
      bell: () => seen.push("bell"),
      reply: (d) => seen.push(`reply:${JSON.stringify(d)}`),
    },
  );
  screen.write("\x1b]2;hello\x07\x07\x1b[6n");
  expect(seen).toEqual(["title:hello", "bell", 'reply:"\\u001b[1;1R"']);
  expect(screen.title).toBe("hello");
});

test("cell grid carries colours, attributes and cursor state", () => {
  screen = new Screen({ cols: 10, rows: 2, scrollback: 0 });
  screen.write("\x1b[1;31mA\x1b[0;38;5;200;48;2;1;2;3;4;7mB\x1b[0m\x1b[?25l\x1b[4 q");
  const grid = screen.cellGrid();
  expect(grid.codepoints[0]).toBe(65);
  expect(grid.flags[0]).toBe(CellFlag.bold);
  expect([colourMode(grid.fg[0]), colourValue(grid.fg[0])]).toEqual([1, 1]);
  expect([colourMode(grid.fg[1]), colourValue(grid.fg[1])]).toEqual([1, 200]);
  expect([colourMode(grid.bg[1]), colourValue(grid.bg[1])]).toEqual([2, 0x010203]);
  expect(grid.flags[1]).toBe(CellFlag.underline | CellFlag.inverse);
  expect(grid.cursor).toEqual({ row: 0, col: 2, visible: false, style: "underline" });
});

test("synchronized output frames are visible to readers", () => {
  screen = new Screen({ cols: 10, rows: 2, scrollback: 0 });
  screen.write("\x1b[?2026h");
  expect(screen.inSyncFrame).toBe(true);
  screen.write("\x1b[?2026l");
  expect(screen.inSyncFrame).toBe(false);
});

test("huge CSI counts are clamped to the screen: fast, same screen as the count that fits", () => {
  // Unclamped, these take seconds (one unit per loop turn) or throw; 2^31-1 would take half an hour.
  const counts: Record<string, number> = { S: 5e6, T: 5e6, L: 5e6, M: 5e6, I: 1e8, Z: 1e8, b: 2147483647 };
  for (const [final, count] of Object.entries(counts)) {
    const reference = new Screen({ cols: 20, rows: 5, scrollback: 0 });
    reference.write(`a\r\nb\r\nxy\x1b[100${final}after`);
    screen = new Screen({ cols: 20, rows: 5, scrollback: 0 });
    const started = performance.now();
    screen.write(`a\r\nb\r\nxy\x1b[${count}${final}after`);
    expect({ final, ms: performance.now() - started < 1000 }).toEqual({ final, ms: true });
    expect({ final, lines: screen.lines("viewport", 0, 5, true) }).toEqual({
      final,
      lines: reference.lines("viewport", 0, 5, true),
    });
    reference.dispose();
    screen.dispose();
  }
  screen = new Screen({ cols: 20, rows: 5, scrollback: 0 });
});

test("a parser exception loses the rest of its chunk, never the session", () => {
  screen = new Screen({ cols: 20, rows: 3, scrollback: 0 });
  screen.onOsc(4242, () => {
    throw new Error("boom");
  });
  const logged = console.error;
  console.error = () => {};
  try {
    screen.write("before\r\n\x1b]4242;x\x07lost");
  } finally {
    console.error = logged;
  }
  screen.write("after\r\n");
  screen.write("more");
  expect(screen.lines("viewport", 0, 3, true)).toEqual(["before", "after", "more"]);
});

test("output inside a hyperlink left open is as fast as any other", () => {
  screen = new Screen({ cols: 80, rows: 24, scrollback: 10_000 });
  screen.write("\x1b]8;;http://example.com/\x1b\\");
  const started = performance.now();
  // xterm.js gave every row in an open link a marker updated on each scroll: ~10 s for these.
  for (let i = 0; i < 20; i++) screen.write(`${i} linked\r\n`.repeat(1000));
  expect(performance.now() - started).toBeLessThan(2000);
  expect(screen.lines("viewport", 1, 2, true)).toEqual(["19 linked"]);
});

test(
  "DECCOLM (CSI ?3h, ?3l) keeps the size, clears the screen, " +
    "resets the margins and homes the cursor, as tmux does",
  () => {
    for (const mode of ["h", "l"]) {
      screen = new Screen({ cols: 20, rows: 5, scrollback: 10 });
      screen.write("one\r\ntwo\r\nthree\r\n\x1b[2;4r\x1b[3;5H");
      screen.write(`\x1b[?3${mode}X`);
      expect([screen.cols, screen.rows]).toEqual([20, 5]);
      expect(screen.lines("viewport", 0, 5, true)).toEqual(["X", "", "", "", ""]);
      // The margins are the whole screen again: five line feeds from the top scroll only at the bottom.
      screen.write("\r\na\r\nb\r\nc\r\nd");
      expect(screen.lines("viewport", 0, 5, true)).toEqual(["X", "a", "b", "c", "d"]);
      // Other modes in the same sequence still apply (?3;25l hides the cursor too).
      screen.write("\x1b[?3;25l");
      expect(screen.cursor().visible).toBe(false);
      screen.dispose();
    }
  },
);

test(
  "the mouse mode: which reports (9, 1000, 1002, 1003) and the " +
    "encoding last set (1005, 1006, 1015), as xterm keeps them",
  () => {
    screen = new Screen({ cols: 20, rows: 4, scrollback: 0 });
    expect(screen.mouse()).toEqual({ mode: "none", encoding: "default" });
    screen.write("\x1b[?1000h\x1b[?1006h");
    expect(screen.mouse()).toEqual({ mode: "vt200", encoding: "sgr" });
    // xterm.js drops urxvt; the screen still knows it, and it is the last one set.
    screen.write("\x1b[?1002;1015h");
    expect(screen.mouse()).toEqual({ mode: "drag", encoding: "urxvt" });
    // A reset undoes only the encoding in effect.
    screen.write("\x1b[?1006l");
    expect(screen.mouse().encoding).toBe("urxvt");
    screen.write("\x1b[?1015l");
    expect(screen.mouse().encoding).toBe("default");
    screen.write("\x1b[?9h\x1b[?1005h");
    expect(screen.mouse()).toEqual({ mode: "x10", encoding: "utf8" });
    screen.write("\x1b[?9l");
    expect(screen.mouse().mode).toBe("none");
    screen.write("\x1b[?1003h\x1b[?1015h\x1bc");
    expect(screen.mouse()).toEqual({ mode: "none", encoding: "default" });
  },
);

test("the cell grid carries the mouse mode as the screen tracks it (urxvt, which xterm.js drops)", () => {
  screen = new Screen({ cols: 20, rows: 4, scrollback: 0 });
  screen.write("\x1b[?1000h\x1b[?1015h");
  expect(screen.cellGrid().mouse).toEqual({ mode: "vt200", encoding: "urxvt" });
});
