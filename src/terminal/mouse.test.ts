// Mouse reports against the spec (xterm's ctlseqs) and, for the modes it implements, against what
// xterm.js's own CoreMouseService sends for the same event.
import { expect, test } from "bun:test";
import { Terminal as XTerm } from "@xterm/headless";
import { mouseBytes, type MouseAction } from "./mouse.ts";
import type { MouseReporting } from "./cell-grid.ts";

const size = { cols: 300, rows: 50 };
const text = (action: MouseAction, mode: MouseReporting) =>
  Buffer.from(mouseBytes(action, mode, size)).toString("latin1");

/** What xterm.js sends for a press (action 1) or release (0) of a button (0 left, 1 middle, 2 right, 4 wheel). */
function xtermSends(
  setModes: string,
  events: Array<{ button: number; action: number; row: number; col: number }>,
): string {
  const xterm = new XTerm({ cols: size.cols, rows: size.rows, allowProposedApi: true });
  let out = "";
  xterm.onData((data) => (out += data));
  xterm.onBinary((data) => (out += data));
  const core = (
    xterm as unknown as {
      _core: {
        _inputHandler: { parse(data: string): void };
        coreMouseService: { triggerMouseEvent(e: object): boolean };
      };
    }
  )._core;
  core._inputHandler.parse(setModes);
  for (const event of events)
    core.coreMouseService.triggerMouseEvent({ ...event, x: 0, y: 0, ctrl: false, alt: false, shift: false });
  xterm.dispose();
  return out;
}

test("a left click in SGR (1006) is a press M and a release m naming the button, 1-based", () => {
  const mode: MouseReporting = { mode: "vt200", encoding: "sgr" };
  expect(text({ click: "left", row: 4, col: 9 }, mode)).toBe("\x1b[<0;10;5M\x1b[<0;10;5m");
  expect(text({ click: "left", row: 4, col: 9 }, mode)).toBe(
    xtermSends("\x1b[?1000h\x1b[?1006h", [
      { button: 0, action: 1, row: 4, col: 9 },
      { button: 0, action: 0, row: 4, col: 9 },
    ]),
  );
  expect(text({ click: "right", row: 0, col: 250 }, mode)).toBe("\x1b[<2;251;1M\x1b[<2;251;1m");
  expect(text({ click: "middle", row: 0, col: 0, double: true }, { mode: "any", encoding: "sgr" })).toBe(
    "\x1b[<1;1;1M\x1b[<1;1;1m".repeat(2),
  );
});

test("the default encoding is CSI M and three bytes of value + 32; a release is button 3", () => {
  const mode: MouseReporting = { mode: "vt200", encoding: "default" };
  expect(text({ click: "left", row: 4, col: 9 }, mode)).toBe("\x1b[M\x20\x2a\x25\x1b[M\x23\x2a\x25");
  for (const [button, code] of [
    ["left", 0],
    ["middle", 1],
    ["right", 2],
  ] as const) {
    expect(text({ click: button, row: 20, col: 200 }, mode)).toBe(
      xtermSends("\x1b[?1000h", [
        { button: code, action: 1, row: 20, col: 200 },
        { button: code, action: 0, row: 20, col: 200 },
      ]),
    );
  }
  // Column 223 is the last a byte carries; xterm.js then sends nothing, we refuse and say so.
  expect(Buffer.from(mouseBytes({ click: "left", row: 0, col: 222 }, mode, size))[4]).toBe(255);
  expect(() => mouseBytes({ click: "left", row: 0, col: 223 }, mode, size)).toThrow("reaches row and column 223");
  expect(xtermSends("\x1b[?1000h", [{ button: 0, action: 1, row: 0, col: 223 }])).toBe("");
});

test("X10 mode (9) reports presses only, and no wheel", () => {
  const mode: MouseReporting = { mode: "x10", encoding: "default" };
  expect(text({ click: "left", row: 1, col: 2 }, mode)).toBe("\x1b[M\x20\x23\x22");
  expect(text({ click: "left", row: 1, col: 2 }, mode)).toBe(
    xtermSends("\x1b[?9h", [
      { button: 0, action: 1, row: 1, col: 2 },
      { button: 0, action: 0, row: 1, col: 2 },
    ]),
  );
  expect(text({ click: "left", row: 1, col: 2, double: true }, mode)).toBe("\x1b[M\x20\x23\x22".repeat(2));
  expect(() => mouseBytes({ scroll: "up", row: 1, col: 2 }, mode, size)).toThrow("reports no wheel");
});

test("the wheel is button 4 (up) or 5 (down): code 64 or 65, pressed and never released", () => {
  for (const [modes, encoding] of [
    ["\x1b[?1002h", "default"],
    ["\x1b[?1003h\x1b[?1006h", "sgr"],
  ] as const) {
    const mode: MouseReporting = { mode: modes.includes("1002") ? "drag" : "any", encoding };
    // xterm.js's wheel: button 4, action 1 (down) for wheel down, 0 (up) for wheel up.
    expect(text({ scroll: "up", row: 3, col: 3 }, mode)).toBe(
      xtermSends(modes, [{ button: 4, action: 0, row: 3, col: 3 }]),
    );
    expect(text({ scroll: "down", row: 3, col: 3, count: 2 }, mode)).toBe(
      xtermSends(modes, [
        { button: 4, action: 1, row: 3, col: 3 },
        { button: 4, action: 1, row: 3, col: 3 },
      ]),
    );
  }
  expect(text({ scroll: "down", row: 0, col: 0 }, { mode: "vt200", encoding: "sgr" })).toBe("\x1b[<65;1;1M");
});

test("urxvt (1015): CSI code+32 ; x ; y M in decimal, a release is 35 (xterm.js dropped it; ctlseqs)", () => {
  const mode: MouseReporting = { mode: "vt200", encoding: "urxvt" };
  expect(text({ click: "left", row: 4, col: 9 }, mode)).toBe("\x1b[32;10;5M\x1b[35;10;5M");
  expect(text({ click: "right", row: 40, col: 299 }, mode)).toBe("\x1b[34;300;41M\x1b[35;300;41M");
  expect(text({ scroll: "up", row: 0, col: 0 }, mode)).toBe("\x1b[96;1;1M");
});

test("UTF-8 (1005): the default's values, each a UTF-8 character, so columns past 223 fit", () => {
  const mode: MouseReporting = { mode: "vt200", encoding: "utf8" };
  expect(Buffer.from(mouseBytes({ click: "left", row: 0, col: 0 }, mode, size)).toString("latin1")).toBe(
    "\x1b[M\x20\x21\x21\x1b[M\x23\x21\x21",
  );
  // Column 250 is 251 + 32 = 283 = U+011B, two bytes: c4 9b.
  expect([...mouseBytes({ click: "left", row: 0, col: 250 }, mode, size)].slice(0, 7)).toEqual([
    0x1b, 0x5b, 0x4d, 0x20, 0xc4, 0x9b, 0x21,
  ]);
});

test("no mouse mode: no bytes, an error saying so; a cell off the screen is refused", () => {
  expect(() => mouseBytes({ click: "left", row: 0, col: 0 }, { mode: "none", encoding: "sgr" }, size)).toThrow(
    expect.objectContaining({ code: "no_mouse" }),
  );
  expect(() => mouseBytes({ click: "left", row: 50, col: 0 }, { mode: "vt200", encoding: "sgr" }, size)).toThrow(
    "off the screen (rows 0-49",
  );
  expect(() => mouseBytes({ click: "left", row: 0, col: 0 }, { mode: "vt200", encoding: "sgr-pixels" }, size)).toThrow(
    expect.objectContaining({ code: "unsupported" }),
  );
});
