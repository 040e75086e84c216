// Key hints read off real screens' bars (ccmake's "Keys:" block, hg's curses chunk selector, nano's), each with the one
// key it draws or none; and which hint a caller's words name.
import { expect, test } from "bun:test";
import { blindDir, fixtureTerminal, loadFixture, writeAll } from "../../test/fixtures/screens/score.ts";
import { detectElements } from "./elements.ts";
import { hintsNamed, hintTarget, keyHints, sentenceHints } from "./hints.ts";
import { cellGridOf } from "./screen.ts";

async function hintsOf(name: string, dir?: string) {
  const fixture = await loadFixture(name, dir);
  try {
    const grid = cellGridOf(fixture.term);
    const elements = detectElements(grid);
    return { grid, elements, hints: keyHints(grid, elements) };
  } finally {
    fixture.term.dispose();
  }
}

const pairs = (hints: Awaited<ReturnType<typeof hintsOf>>["hints"]) => hints.map((h) => [h.text, h.key ?? null]);

test("ccmake's 'Keys:' block: one status of four rows, no question; each hint presses its bracketed key", async () => {
  const { elements, hints } = await hintsOf("b6-ccmake-generate", blindDir("blind6"));
  expect(elements.filter((e) => e.kind === "question")).toEqual([]);
  expect(elements.find((e) => e.kind === "status" && e.row === 20)?.height).toBe(4);
  expect(pairs(hints)).toEqual([
    ["[enter] Edit an entry", "Enter"],
    ["[d] Delete an entry", "d"],
    ["[l] Show log output", "l"],
    ["[c] Configure", "c"],
    ["[g] Generate", "g"],
    ["[h] Help", "h"],
    ["[q] Quit without generating", "q"],
    ["[t] Toggle advanced mode", "t"],
  ]);
});

test("hg's chunk selector: 'c: confirm' presses c; 'space/enter:' is no one key; 'arrow keys:' no hint", async () => {
  const { hints } = await hintsOf("b4-hg-chunks", blindDir("blind4"));
  expect(pairs(hints)).toEqual([
    ["c: confirm", "c"],
    ["q: abort", "q"],
    ["space/enter: deselect", null],
    ["?: help", "?"],
  ]);
});

test("nano's bar: '^X Exit' presses C-x; '^\\ Replace' draws no one key to press", async () => {
  const { hints } = await hintsOf("nano-main");
  expect(pairs(hints)).toContainEqual(["^X Exit", "C-x"]);
  expect(pairs(hints)).toContainEqual(["^O Write Out", "C-o"]);
  expect(pairs(hints)).toContainEqual(["^\\ Replace", null]);
});

test("a hint is named by its words whole or as drawn, case aside; not by a part of its words", async () => {
  const { grid, elements, hints } = await hintsOf("b6-ccmake-generate", blindDir("blind6"));
  expect(hintsNamed(hints, "configure").map((h) => h.key)).toEqual(["c"]);
  expect(hintsNamed(hints, "[g]  Generate").map((h) => h.key)).toEqual(["g"]);
  expect(hintsNamed(hints, "Quit")).toEqual([]);
  expect(hintTarget(grid, elements, "Quit without generating")?.key).toBe("q");
  // Words naming an element and a hint elsewhere are two things.
  const entry = elements.find((e) => e.kind === "checkbox")!;
  expect(() => hintTarget(grid, elements, "Configure", { element: entry })).toThrow("names both");
});

test("turbo's foot: 'i - Interact' presses i, named only as drawn; 'u/d - Scroll logs' is no one key", async () => {
  const { hints } = await hintsOf("b12-turbo-tasks", blindDir("blind12"));
  expect(pairs(hints)).toEqual([
    ["m - More binds", "m"],
    ["i - Interact", "i"],
    ["u/d - Scroll logs", null],
    ["U/D - Page logs", null],
  ]);
  expect(hintsNamed(hints, "i - Interact").map((h) => h.key)).toEqual(["i"]);
  expect(hintsNamed(hints, "Interact")).toEqual([]);
});

test("mprocs's help bar: '<q: Quit>' presses q, '<C-a: Toggle focus>' nothing; by words or as drawn", async () => {
  const { hints } = await hintsOf("b12-mprocs-main", blindDir("blind12"));
  expect(pairs(hints).slice(0, 4)).toEqual([
    ["C-a: Toggle focus", null],
    ["q: Quit", "q"],
    ["j: Next", "j"],
    ["k: Prev", "k"],
  ]);
  expect(hintsNamed(hints, "Quit").map((h) => h.key)).toEqual(["q"]);
  expect(hintsNamed(hints, "q: Quit").map((h) => h.key)).toEqual(["q"]);
});

test("lldb gui's help: '[Press any key to exit]' on a box's border presses Space, named as drawn", async () => {
  const { hints } = await hintsOf("b13-lldb-gui-help", blindDir("blind13"));
  expect(pairs(hints)).toEqual([["Press any key to exit", "Space"]]);
  expect(hintsNamed(hints, "[Press any key to exit]").map((h) => h.key)).toEqual(["Space"]);
});

test("vite's 'press h + enter to show help': a sentence hint, h then Enter; its help's rows each one", async () => {
  const fixture = await loadFixture("b13-vite-help", blindDir("blind13"));
  try {
    const grid = cellGridOf(fixture.term);
    const hints = sentenceHints(grid, detectElements(grid));
    expect(hints.map((h) => [h.words, h.key, h.enter ?? false])).toContainEqual(["quit", "q", true]);
    expect(hints.map((h) => [h.words, h.key, h.enter ?? false])).toContainEqual(["show help", "h", true]);
  } finally {
    fixture.term.dispose();
  }
});

test("a help page's 'Press q to quit' over a bar's 'q:Quit': the bar's hint is the one 'quit' names", async () => {
  const term = fixtureTerminal(80, 24);
  try {
    const bar = "q:Quit  d:Del  c:Confirm  ?:Help";
    await writeAll(term, `\x1b[?1049h\x1b[HTide viewer help\r\n\r\nPress q to quit, h for help\x1b[24;1H${bar}`);
    const grid = cellGridOf(term);
    const hint = hintTarget(grid, detectElements(grid), "quit");
    expect([hint?.text, hint?.row, hint?.sentence ?? false]).toEqual(["q:Quit", 23, false]);
  } finally {
    term.dispose();
  }
});
