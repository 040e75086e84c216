// Screenshots of real screens: escape sequences go through the real emulator (Screen), the
// PNG is decoded by an independent decoder (upng) and checked pixel by pixel.
// Golden images live in test/fixtures/screenshots; regenerate with UPDATE_GOLDEN=1 bun test src/render
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CellGrid } from "../terminal/cell-grid.ts";
import { Screen } from "../terminal/screen.ts";
import { buildFontAsset } from "./font-build.ts";
import { CELL_H, CELL_W } from "./font-format.ts";
import { DEFAULT_BG, DEFAULT_FG, mix, PALETTE } from "./palette.ts";
import { decodePng } from "./png.ts";
import type { ScreenshotOptions } from "./screenshot.ts";

// The renderer embeds dist/font.bin, which the build makes: make it before loading the renderer.
buildFontAsset();
const { renderScreenshot } = await import("./screenshot.ts");
const { font } = await import("./font.ts");

const GOLDEN_DIR = join(import.meta.dir, "../../test/fixtures/screenshots");
const UPDATE = process.env.UPDATE_GOLDEN === "1";
const ESC = "\x1b[";

function gridOf(cols: number, rows: number, input: string): CellGrid {
  const screen = new Screen({ cols, rows, scrollback: 0 });
  screen.write(input);
  const grid = screen.cellGrid();
  screen.dispose();
  return grid;
}

/** A decoded screenshot with pixel and cell accessors (cells only meaningful at scale 100). */
function shot(grid: CellGrid, options: ScreenshotOptions = {}) {
  const image = decodePng(renderScreenshot(grid, options));
  const at = (x: number, y: number) => {
    const i = (y * image.width + x) * 4;
    return (image.rgba[i] << 16) | (image.rgba[i + 1] << 8) | image.rgba[i + 2];
  };
  /** The cell's pixels as 0xRRGGBB, row by row, `span` cells wide. */
  const cell = (col: number, row: number, span = 1) => {
    const out: number[] = [];
    for (let y = 0; y < CELL_H; y++)
      for (let x = 0; x < span * CELL_W; x++) out.push(at(col * CELL_W + x, row * CELL_H + y));
    return out;
  };
  return { ...image, at, cell };
}

/** What a glyph's cell looks like: fg where its mask is set, bg elsewhere. */
function expectedCell(rows: Uint32Array, span: number, fg: number, bg: number): number[] {
  const out: number[] = [];
  for (let y = 0; y < CELL_H; y++) for (let x = 0; x < span * CELL_W; x++) out.push((rows[y] >>> x) & 1 ? fg : bg);
  return out;
}

const FULL = { scale: 100, cursor: false };

describe("size and options", () => {
  const grid = gridOf(80, 24, "hello");
  test("80x24 is 800x480 at 100%, 528x317 by default (66%)", () => {
    expect([shot(grid, { scale: 100 }).width, shot(grid, { scale: 100 }).height]).toEqual([800, 480]);
    expect([shot(grid).width, shot(grid).height]).toEqual([528, 317]);
  });

  test("pad adds whole cells of default background on every side", () => {
    const padded = shot(grid, { pad: 1, scale: 100 });
    expect([padded.width, padded.height]).toEqual([820, 520]);
    for (let x = 0; x < 820; x += 7) expect(padded.at(x, 5)).toBe(DEFAULT_BG);
    expect(padded.cell(1, 1)).toEqual(shot(grid, FULL).cell(0, 0));
    expect([shot(grid, { pad: 1 }).width, shot(grid, { pad: 1 }).height]).toEqual([541, 343]);
  });

  test("out-of-range or fractional pad and scale are refused", () => {
    for (const options of [{ pad: -1 }, { pad: 11 }, { pad: 0.5 }, { scale: 9 }, { scale: 401 }, { scale: 66.6 }]) {
      expect(() => renderScreenshot(grid, options)).toThrow(RangeError);
    }
    expect(() => renderScreenshot(grid, { pad: 10, scale: 10 })).not.toThrow();
  });

  test("same screen, same bytes, also from a second emulator fed the same input", () => {
    const input = `${ESC}1;31mred ${ESC}0m中文 ┌─┐ ⣿ ${ESC}38;2;1;2;3m${ESC}48;5;200mrgb`;
    const first = renderScreenshot(gridOf(40, 5, input));
    expect(renderScreenshot(gridOf(40, 5, input))).toEqual(first);
    expect(renderScreenshot(gridOf(40, 5, input))).toEqual(renderScreenshot(gridOf(40, 5, input)));
    expect(renderScreenshot(gridOf(40, 5, `${input}!`))).not.toEqual(first);
  });
});

describe("glyphs", () => {
  test("each cell shows the glyph of the character the screen's text says is there", () => {
    const input = [
      "The quick brown fox jumps over the lazy dog 0123456789",
      "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ éàüßñ ΩΣλπ ЖЯщ",
      "中文字符 日本語 한국어 ┌─┬─┐ ╔═╗ ▀▄█░▒▓ ⠁⡇⣿ ←↑→↓ ∑∫√∞",
    ].join("\r\n");
    const screen = new Screen({ cols: 60, rows: 3, scrollback: 0 });
    screen.write(input);
    const grid = screen.cellGrid();
    const text = screen.lines("viewport", 0, 3, false);
    screen.dispose();
    const image = shot(grid, FULL);
    let checked = 0;
    text.forEach((line, row) => {
      let col = 0;
      for (const ch of line) {
        const span = grid.widths[row * grid.cols + col] === 2 ? 2 : 1;
        const cp = ch.codePointAt(0)!;
        const rows = cp === 0x20 ? new Uint32Array(CELL_H) : font().glyph(cp, false)!.rows;
        expect({ ch, col, row, pixels: image.cell(col, row, span) }).toEqual({
          ch,
          col,
          row,
          pixels: expectedCell(rows, span, DEFAULT_FG, DEFAULT_BG),
        });
        checked++;
        col += span;
      }
    });
    expect(checked).toBeGreaterThan(150);
  });

  test("box lines join across cells and rows", () => {
    const image = shot(gridOf(6, 3, "┌────┐\r\n│    │\r\n└────┘"), FULL);
    const middleRow = CELL_H / 2 - 1;
    const middleCol = CELL_W / 2 - 1;
    // From the centre of the first cell to the centre of the last, with no gap.
    for (let x = middleCol; x <= 5 * CELL_W + middleCol; x++) {
      expect(image.at(x, middleRow)).toBe(DEFAULT_FG);
      expect(image.at(x, 2 * CELL_H + middleRow)).toBe(DEFAULT_FG);
    }
    for (let y = middleRow; y <= 2 * CELL_H + middleRow; y++) {
      expect(image.at(middleCol, y)).toBe(DEFAULT_FG);
      expect(image.at(5 * CELL_W + middleCol, y)).toBe(DEFAULT_FG);
    }
  });

  test("a wide character covers both of its cells", () => {
    const image = shot(gridOf(4, 1, "中a"), FULL);
    expect(image.cell(1, 0).some((pixel) => pixel === DEFAULT_FG)).toBe(true);
    expect(image.cell(2, 0)).toEqual(expectedCell(font().glyph(0x61, false)!.rows, 1, DEFAULT_FG, DEFAULT_BG));
  });

  test("a character no font has shows a box, not nothing", () => {
    const image = shot(gridOf(2, 1, "\u{10ffff}"), FULL);
    expect(image.cell(0, 0)).toEqual(expectedCell(font().placeholder.narrow.rows, 1, DEFAULT_FG, DEFAULT_BG));
  });
});

describe("attributes", () => {
  const colours = (pixels: number[]) => new Set(pixels);

  test("16-colour foreground and background; bold brightens colours 0–7 and uses the bold face", () => {
    const image = shot(gridOf(6, 1, `${ESC}31;44mA${ESC}1mA${ESC}0;91mA${ESC}1;38;5;1mA`), FULL);
    expect(colours(image.cell(0, 0))).toEqual(new Set([PALETTE[1], PALETTE[4]]));
    expect(colours(image.cell(1, 0))).toEqual(new Set([PALETTE[9], PALETTE[4]]));
    expect(image.cell(1, 0)).toEqual(expectedCell(font().glyph(0x41, true)!.rows, 1, PALETTE[9], PALETTE[4]));
    expect(colours(image.cell(2, 0))).toEqual(new Set([PALETTE[9], DEFAULT_BG]));
    expect(colours(image.cell(3, 0))).toEqual(new Set([PALETTE[9], DEFAULT_BG]));
  });

  test("256-colour and truecolour are exact", () => {
    const image = shot(gridOf(4, 1, `${ESC}38;5;208;48;5;27mA${ESC}38;2;1;2;3;48;2;250;251;252mA`), FULL);
    expect(colours(image.cell(0, 0))).toEqual(new Set([0xff8700, 0x005fff]));
    expect(colours(image.cell(1, 0))).toEqual(new Set([0x010203, 0xfafbfc]));
  });

  test("dim, inverse, invisible", () => {
    const image = shot(gridOf(5, 1, `${ESC}2;32mA${ESC}0;7mA${ESC}0;8mA${ESC}0;2;7mA`), FULL);
    expect(colours(image.cell(0, 0))).toEqual(new Set([mix(PALETTE[2], DEFAULT_BG, 128), DEFAULT_BG]));
    expect(image.cell(1, 0)).toEqual(expectedCell(font().glyph(0x41, false)!.rows, 1, DEFAULT_BG, DEFAULT_FG));
    expect(colours(image.cell(2, 0))).toEqual(new Set([DEFAULT_BG]));
    // Dim and inverse: the glyph, now drawn in the background colour, fades toward the new background.
    expect(colours(image.cell(3, 0))).toEqual(new Set([mix(DEFAULT_BG, DEFAULT_FG, 128), DEFAULT_FG]));
  });

  test("underline, strikethrough and overline are full-width lines, on spaces too", () => {
    const image = shot(gridOf(4, 1, `${ESC}4m ${ESC}0;9m ${ESC}0;53m `), FULL);
    const lines = (col: number) => [...Array(CELL_H).keys()].filter((y) => image.at(col * CELL_W, y) === DEFAULT_FG);
    expect(lines(0)).toEqual([17]);
    expect(lines(1)).toEqual([11]);
    expect(lines(2)).toEqual([0]);
    for (let x = 0; x < CELL_W; x++) expect(image.at(x, 17)).toBe(DEFAULT_FG);
  });

  test("italic leans the glyph right above the baseline", () => {
    const image = shot(gridOf(2, 1, `${ESC}3mI`), FULL);
    const upright = expectedCell(font().glyph(0x49, false)!.rows, 1, DEFAULT_FG, DEFAULT_BG);
    const slanted = image.cell(0, 0);
    expect(slanted).not.toEqual(upright);
    const leftmost = (pixels: number[], y: number) => pixels.slice(y * CELL_W, (y + 1) * CELL_W).indexOf(DEFAULT_FG);
    expect(leftmost(slanted, 4)).toBeGreaterThan(leftmost(upright, 4));
    expect(leftmost(slanted, 15)).toBe(leftmost(upright, 15));
  });
});

describe("cursor", () => {
  const at = (style: string) => gridOf(6, 1, `$ ls${style}`);
  const cursorCell = (grid: CellGrid, options = {}) => shot(grid, { ...FULL, cursor: true, ...options }).cell(4, 0);
  const blank = expectedCell(new Uint32Array(CELL_H), 1, DEFAULT_FG, DEFAULT_BG);

  test("block inverts the cell", () => {
    expect(cursorCell(at(`${ESC}2 q`))).toEqual(expectedCell(new Uint32Array(CELL_H), 1, DEFAULT_BG, DEFAULT_FG));
    const onLetter = shot(gridOf(6, 1, `abc${ESC}2D`), { ...FULL, cursor: true }).cell(1, 0);
    expect(onLetter).toEqual(expectedCell(font().glyph(0x62, false)!.rows, 1, DEFAULT_BG, DEFAULT_FG));
  });

  test("underline is the bottom two rows, bar the left two columns", () => {
    const underline = cursorCell(at(`${ESC}4 q`));
    const bar = cursorCell(at(`${ESC}6 q`));
    for (let y = 0; y < CELL_H; y++) {
      for (let x = 0; x < CELL_W; x++) {
        expect(underline[y * CELL_W + x]).toBe(y >= CELL_H - 2 ? DEFAULT_FG : DEFAULT_BG);
        expect(bar[y * CELL_W + x]).toBe(x < 2 ? DEFAULT_FG : DEFAULT_BG);
      }
    }
  });

  test("hidden by the program or by the caller: not drawn", () => {
    expect(cursorCell(at(`${ESC}?25l`))).toEqual(blank);
    expect(cursorCell(at(""), { cursor: false })).toEqual(blank);
  });

  test("on a wide character it covers both cells", () => {
    const image = shot(gridOf(6, 1, `中${ESC}2D`), { ...FULL, cursor: true });
    expect(image.cell(0, 0, 2)).toEqual(expectedCell(font().glyph(0x4e2d, false)!.rows, 2, DEFAULT_BG, DEFAULT_FG));
  });
});

/** Screens whose whole screenshot is pinned by a committed PNG. */
const GOLDEN: Record<string, { grid: () => CellGrid; options?: ScreenshotOptions }> = {
  "colours-16": {
    grid: () => {
      let input = "";
      for (const base of [30, 90, 40, 100]) {
        for (let i = 0; i < 8; i++) input += `${ESC}${base + i}m ${base + i} `;
        input += `${ESC}0m\r\n`;
      }
      for (let i = 0; i < 8; i++) input += `${ESC}1;${30 + i}m bold${i} `;
      return gridOf(64, 6, `${input}${ESC}0m\r\n${ESC}30;47m black on white ${ESC}97;41m white on red ${ESC}0m`);
    },
  },
  "colours-256": {
    grid: () => {
      let input = "";
      for (let row = 0; row < 16; row++) {
        for (let col = 0; col < 16; col++) input += `${ESC}48;5;${row * 16 + col}m  `;
        input += `${ESC}0m `;
        for (let col = 0; col < 16; col++) input += `${ESC}38;5;${row * 16 + col}m#`;
        input += `${ESC}0m\r\n`;
      }
      return gridOf(50, 17, input);
    },
  },
  truecolour: {
    grid: () => {
      let input = "";
      for (let row = 0; row < 6; row++) {
        for (let col = 0; col < 48; col++) {
          const r = Math.round((col * 255) / 47);
          const g = Math.round((row * 255) / 5);
          input += `${ESC}48;2;${r};${g};${255 - r}m${ESC}38;2;${255 - r};${255 - g};${r}m${"TRUECOLOR"[col % 9]}`;
        }
        input += `${ESC}0m\r\n`;
      }
      return gridOf(48, 7, input);
    },
  },
  attributes: {
    grid: () =>
      gridOf(
        48,
        6,
        [
          `plain ${ESC}1mbold${ESC}0m ${ESC}2mdim${ESC}0m ${ESC}3mitalic${ESC}0m ${ESC}4munderline${ESC}0m`,
          `${ESC}7minverse${ESC}0m [${ESC}8minvisible${ESC}0m] ${ESC}9mstrike${ESC}0m ${ESC}53moverline${ESC}0m`,
          `${ESC}1;3mbold italic${ESC}0m ${ESC}1;4;32mbold underline green${ESC}0m`,
          `${ESC}2;31mdim red${ESC}0m ${ESC}7;34minverse blue${ESC}0m ${ESC}3;9;33mitalic strike${ESC}0m`,
          `${ESC}1;7;35mbold inverse magenta${ESC}0m ${ESC}4;38;5;208;48;5;236munder 256${ESC}0m`,
          `${ESC}5mblink${ESC}0m ${ESC}1;2mbold dim${ESC}0m ${ESC}3;4;53mital under over${ESC}0m`,
        ].join("\r\n"),
      ),
  },
  "boxes-blocks-braille": {
    grid: () =>
      gridOf(
        40,
        8,
        [
          "┌──┬──┐ ╔══╦══╗ ┏━━┳━━┓ ╭──╮ ╒═╤═╕",
          "│ab│cd│ ║ab║cd║ ┃ab┃cd┃ │ab│ ╞═╪═╡",
          "├──┼──┤ ╠══╬══╣ ┣━━╋━━┫ ╰──╯ ╘═╧═╛",
          "└──┴──┘ ╚══╩══╝ ┗━━┻━━┛ ╱╲╳ ┄┅┆┇╌╍",
          "░░▒▒▓▓██ ▀▄▌▐ ▖▗▘▝▙▚▛▜▞▟ ▔▕",
          "▁▂▃▄▅▆▇█ ▏▎▍▌▋▊▉█ ╴╵╶╷╸╹╺╻╼╽╾╿",
          "⠁⠃⠇⡇⣇⣧⣷⣿ ⢀⣀⣤⣶⣿ ⣿⣿⣿⣿ ┍┑┎┒┞┟╃╄╅╆",
          `${ESC}32m┌─${ESC}1m┬─${ESC}0;44m┐${ESC}0m ${ESC}7m╔═╗${ESC}0m`,
        ].join("\r\n"),
      ),
  },
  "wide-cjk-emoji": {
    grid: () =>
      gridOf(
        40,
        4,
        [
          "中文字符 日本語のテキスト 한국어",
          `emoji: 😀🎉👍🚀 ★☀✔⚠ ${ESC}1m中文${ESC}0m ${ESC}3m中文${ESC}0m`,
          "unknown: \u{10ffff} \u{e5000} mixed: a中b文c",
          `${ESC}31;47m红色${ESC}0m ${ESC}4m下划线${ESC}0m ${ESC}7m反转${ESC}0m`,
        ].join("\r\n"),
      ),
  },
  "cursor-block": { grid: () => gridOf(20, 2, `$ echo hi\r\nhi\r\n$ ${ESC}2 q`), options: { cursor: true } },
  "cursor-underline": { grid: () => gridOf(20, 2, `$ echo hi\r\nhi\r\n$ ${ESC}4 q`), options: { cursor: true } },
  "cursor-bar": { grid: () => gridOf(20, 2, `$ echo hi\r\nhi\r\n$ ${ESC}6 q`), options: { cursor: true } },
  "cursor-on-text-hidden": { grid: () => gridOf(20, 2, `vim-ish text${ESC}4D${ESC}?25l`), options: { cursor: true } },
  "pad-2-scale-100": {
    grid: () => gridOf(20, 3, `${ESC}1;32mok${ESC}0m padded\r\n┌──┐\r\n└──┘`),
    options: { pad: 2, scale: 100 },
  },
  "scale-150": {
    grid: () => gridOf(20, 2, `scale ${ESC}1m150${ESC}0m ┼─┼ ⣿\r\n中文 ${ESC}4mund${ESC}0m`),
    options: { scale: 150 },
  },
};

describe("golden images", () => {
  for (const [name, { grid, options }] of Object.entries(GOLDEN)) {
    test(name, () => {
      const png = renderScreenshot(grid(), options);
      const file = join(GOLDEN_DIR, `${name}.png`);
      if (UPDATE) {
        mkdirSync(GOLDEN_DIR, { recursive: true });
        writeFileSync(file, png);
        return;
      }
      expect(existsSync(file)).toBe(true);
      const expected = decodePng(readFileSync(file));
      const actual = decodePng(png);
      expect([actual.width, actual.height]).toEqual([expected.width, expected.height]);
      let differing = 0;
      for (let i = 0; i < actual.rgba.length; i += 4) {
        if (
          actual.rgba[i] !== expected.rgba[i] ||
          actual.rgba[i + 1] !== expected.rgba[i + 1] ||
          actual.rgba[i + 2] !== expected.rgba[i + 2]
        )
          differing++;
      }
      if (differing) {
        const saved = join(tmpdir(), `t4a-${name}.actual.png`);
        writeFileSync(saved, png);
        throw new Error(
          `${differing} pixels differ from ${file}; this render is in ${saved} (UPDATE_GOLDEN=1 to accept)`,
        );
      }
    });
  }
});

describe("combining marks and emoji", () => {
  test("item 10: a combining mark is drawn over its base cell (e + U+0301)", () => {
    const plain = shot(gridOf(4, 1, "e"), FULL).cell(0, 0);
    const accented = shot(gridOf(4, 1, "e\u0301"), FULL).cell(0, 0);
    const acute = font().glyph(0x301, false)!;
    const e = font().glyph(0x65, false)!;
    // Exactly the OR of the two glyphs: the e is kept, the accent added above it.
    expect(accented).toEqual(
      expectedCell(
        e.rows.map((row, y) => row | acute.rows[y]!),
        1,
        DEFAULT_FG,
        DEFAULT_BG,
      ),
    );
    expect(accented).not.toEqual(plain);
    // Marks of other scripts too: a Devanagari sign over its consonant, a cedilla under c.
    expect(shot(gridOf(4, 1, "c\u0327"), FULL).cell(0, 0)).not.toEqual(shot(gridOf(4, 1, "c"), FULL).cell(0, 0));
    expect(shot(gridOf(4, 1, "\u0915\u0941"), FULL).cell(0, 0, 2)).not.toEqual(
      shot(gridOf(4, 1, "\u0915"), FULL).cell(0, 0, 2),
    );
  });

  test("item 11: emoji are drawn in colour, 😀 yellow and ✅ green; text keeps its colour", () => {
    const image = shot(gridOf(8, 1, "😀✅ab"), FULL);
    const colours = (col: number) => new Set(image.cell(col, 0, 2));
    expect(colours(0)).toContain(0xf7c744);
    expect(colours(2)).toContain(0x3fb950);
    expect(colours(0)).not.toContain(DEFAULT_FG);
    expect(new Set(image.cell(4, 0))).toContain(DEFAULT_FG); // "a"
    // VS16 turns a text-default symbol into an emoji: ❤️ red, ❤ alone in the text colour.
    expect(new Set(shot(gridOf(4, 1, "\u2764\ufe0f"), FULL).cell(0, 0))).toContain(0xe5534b);
    expect(new Set(shot(gridOf(4, 1, "\u2764"), FULL).cell(0, 0))).not.toContain(0xe5534b);
  });
});
