import { expect, test } from "bun:test";
import type { Element } from "./elements.ts";
import { Screen } from "./screen.ts";
import { cellOf, findAgain, findTarget, functionKeyOf, itemKey, shownKey, textCells, wordKey } from "./targets.ts";

const menu: Element = {
  ref: "e2",
  kind: "menu",
  row: 7,
  col: 35,
  width: 10,
  height: 3,
  items: [
    { ref: "e2.1", label: "One", row: 7, col: 35, width: 6, selected: true, key: "1" },
    { ref: "e2.2", label: "Two", row: 8, col: 35, width: 6, key: "2" },
    { ref: "e2.3", label: "Yes, and don't ask again", row: 9, col: 35, width: 24, key: "3" },
  ],
};
const ok: Element = { ref: "e3", kind: "button", row: 17, col: 27, width: 8, height: 1, label: "OK", selected: true };
const cancel: Element = { ref: "e4", kind: "button", row: 17, col: 39, width: 8, height: 1, label: "Cancel" };
const elements = [menu, ok, cancel];
const all = ["menu", "question", "button", "checkbox", "radio"] as const;

test("a target by ref, by exact text (case and blanks aside), or by the only label containing it", () => {
  expect(findTarget(elements, { ref: "e2.2" }, all).item?.label).toBe("Two");
  expect(findTarget(elements, { ref: "e4" }, all).element).toBe(cancel);
  expect(findTarget(elements, { text: "ok" }, all).element).toBe(ok);
  expect(findTarget(elements, { text: "yes,  and DON'T ask again" }, all).item?.ref).toBe("e2.3");
  expect(findTarget(elements, { text: "don't ask" }, all).item?.ref).toBe("e2.3");
});

test("what is not there, or names several, is refused with what is there", () => {
  expect(() => findTarget(elements, { text: "Quit" }, all)).toThrow(
    'no menu, question, button, checkbox, radio "Quit" on the screen (there: e2.1 "One"',
  );
  expect(() => findTarget(elements, { text: "o" }, all)).toThrow("names 4 things");
  expect(() => findTarget(elements, { ref: "e9" }, all)).toThrow("no element e9");
  expect(() => findTarget(elements, { ref: "e2" }, all)).toThrow("name one of its items");
  expect(() => findTarget(elements, { ref: "e3" }, ["input"])).toThrow("e3 is a button");
});

test("a label's leading marker and number do not count: the marker moves with the selection", () => {
  const drawn = (labels: string[]): Element => ({
    ...menu,
    items: labels.map((label, i) => ({ ...menu.items![i]!, label })),
  });
  const before = drawn(["● 1. Allow once", "2. Allow for this session", "3. No"]);
  const after = drawn(["1. Allow once", "● 2. Allow for this session", "3. No"]);
  const target = findTarget([before], { text: "allow for this session" }, all);
  expect(target.item?.ref).toBe("e2.2");
  expect(findAgain([after], target)?.item?.label).toBe("● 2. Allow for this session");
  expect(findTarget([before], { text: "1. Allow once" }, all).item?.ref).toBe("e2.1");
});

test("found again on a later screen by kind and label, the nearest; gone when it is not there", () => {
  const moved: Element = {
    ...menu,
    ref: "e5",
    items: menu.items!.map((item, i) => ({ ...item, ref: `e5.${i + 1}`, selected: i === 1 })),
  };
  const again = findAgain([moved], { element: menu, item: menu.items![1]! });
  expect(again?.item).toMatchObject({ ref: "e5.2", selected: true });
  expect(findAgain([menu], { element: ok })).toBeUndefined();
});

test("the cell to click is the middle of the label's first row", () => {
  expect(cellOf({ element: ok })).toEqual({ row: 17, col: 30 });
  expect(cellOf({ element: menu, item: menu.items![1]! })).toEqual({ row: 8, col: 37 });
});

test("a function-key bar's entry is its F-key (mc's 10Quit, F10 Quit), a plain button none", () => {
  const screen = new Screen({ cols: 80, rows: 2, scrollback: 0 });
  screen.write(" 1Help   2Menu   9PullDn10Quit\r\n F1 Help  F10 Quit  [ OK ]");
  const grid = screen.cellGrid();
  screen.dispose();
  const button = (row: number, col: number): Element => ({ ref: "e1", kind: "button", row, col, width: 4, height: 1 });
  expect(functionKeyOf(grid, button(0, 1))).toBe("F1");
  expect(functionKeyOf(grid, button(0, 24))).toBe("F10");
  expect(functionKeyOf(grid, button(1, 10))).toBe("F10");
  expect(functionKeyOf(grid, button(1, 20))).toBeUndefined();
});

test(
  "an item's key from the screen is pressed only when it is one letter, digit " +
    "or ?, or a number of two or three digits: never a named key or a word",
  () => {
    const item = (key: string) => ({ ref: "e1.1", label: "x", row: 0, col: 0, width: 1, key });
    expect(["y", "N", "3", "?", "é", "10", "123"].map((key) => itemKey(item(key)))).toEqual([
      "y",
      "N",
      "3",
      "?",
      "é",
      "10",
      "123",
    ]);
    expect(["C-c", "Escape", "F5", "rm", "\x03", " ", "1234", "1a"].map((key) => itemKey(item(key)))).toEqual(
      Array(8).fill(undefined),
    );
  },
);

test(
  "a word key (bundler's 'minitest', svn's 'df') is typed only when the caller named it whole, " +
    "and only as the screen shows it among the question's answers",
  () => {
    const item = (key: string, label = key) => ({ ref: "e1.1", label, row: 1, col: 0, width: key.length, key });
    // The caller's word, the screen's spelling (case aside): what is typed is what was named.
    expect(wordKey(item("minitest"), "minitest")).toBe("minitest");
    expect(wordKey(item("test-unit"), "Test-Unit")).toBe("test-unit");
    expect(wordKey(item("df", "Show diff"), "df")).toBe("df");
    // Named by its label, a part of it, or not at all: never typed.
    expect(wordKey(item("df", "Show diff"), "Show diff")).toBeUndefined();
    expect(wordKey(item("minitest"), "mini")).toBeUndefined();
    expect(wordKey(item("minitest"), undefined)).toBeUndefined();
    // Not a word: blanks, controls, a key name's shape with a space, one character (itemKey's), too long.
    for (const key of ["rm -rf", "a;b", "x\x03", "\x1b[A", "y", "a".repeat(25)])
      expect(wordKey(item(key), key)).toBeUndefined();
    // Checked against the screen before it is typed: the word is drawn whole in the item's cells.
    const screen = new Screen({ cols: 60, rows: 3, scrollback: 0 });
    screen.write("Do you want tests?\r\nEnter a test framework. rspec/minitest/(none): ");
    const grid = screen.cellGrid();
    screen.dispose();
    const question: Element = {
      ref: "e1",
      kind: "question",
      row: 0,
      col: 0,
      width: 50,
      height: 2,
      items: [
        { ref: "e1.1", label: "rspec", row: 1, col: 24, width: 5, key: "rspec" },
        { ref: "e1.2", label: "minitest", row: 1, col: 30, width: 8, key: "minitest" },
        { ref: "e1.3", label: "none", row: 1, col: 39, width: 6, key: "none" },
        { ref: "e1.4", label: "unit", row: 1, col: 30, width: 8, key: "unit" },
      ],
    };
    expect(question.items!.map((i) => shownKey(grid, { element: question, item: i }, i.key).key)).toEqual([
      "rspec",
      "minitest",
      "none",
      undefined,
    ]);
  },
);

test("an item is named by its key when no label is: svn's '(df) Show diff' as 'df'", () => {
  const listed: Element = {
    ref: "e5",
    kind: "question",
    row: 0,
    col: 0,
    width: 60,
    height: 2,
    items: [
      { ref: "e5.1", label: "Postpone", row: 0, col: 8, width: 12, key: "p" },
      { ref: "e5.2", label: "Show diff", row: 0, col: 22, width: 13, key: "df" },
      { ref: "e5.3", label: "Edit file", row: 0, col: 37, width: 13, key: "e" },
    ],
  };
  expect(findTarget([listed], { text: "df" }, ["question"]).item?.label).toBe("Show diff");
  expect(findTarget([listed], { text: "DF" }, ["question"]).item?.label).toBe("Show diff");
  // A label that holds the text still wins over a key.
  expect(findTarget([listed], { text: "diff" }, ["question"]).item?.key).toBe("df");
  expect(findTarget([listed], { text: "p" }, ["question"]).item?.label).toBe("Postpone");
});

test(
  "text on the screen is found as whole words, case and " +
    "blanks aside, at its middle cell; wide characters count two",
  () => {
    const screen = new Screen({ cols: 40, rows: 3, scrollback: 0 });
    screen.write("  BOOKS  [ Launch  now ]  ok\r\n漢字 Launch now\r\nnothing");
    const grid = screen.cellGrid();
    screen.dispose();
    expect(textCells(grid, "launch now")).toEqual([
      { row: 0, col: 16 },
      { row: 1, col: 9 },
    ]);
    expect(textCells(grid, "OK")).toEqual([{ row: 0, col: 26 }]);
    expect(textCells(grid, "oo")).toEqual([]);
    expect(textCells(grid, "  ")).toEqual([]);
    expect(textCells(grid, "a.b")).toEqual([]);
  },
);

test("an answer with its key marked ('[y]es', '[v]iew patch') is named as shown or by its words", () => {
  const labels = ["[y]es", "[n]o", "[e]dit", "[v]iew patch", "[a]ccept all"];
  const question: Element = {
    ref: "e2",
    kind: "question",
    row: 4,
    col: 0,
    width: 51,
    height: 1,
    label: "Apply?",
    items: labels.map((label, i) => ({ ref: `e2.${i + 1}`, label, row: 4, col: 7 + i * 6, width: label.length })),
  };
  expect(findTarget([question], { text: "[y]es" }, all).item?.ref).toBe("e2.1");
  expect(findTarget([question], { text: "yes" }, all).item?.ref).toBe("e2.1");
  expect(findTarget([question], { text: "No" }, all).item?.ref).toBe("e2.2");
  expect(findTarget([question], { text: "view patch" }, all).item?.ref).toBe("e2.4");
  expect(findTarget([question], { text: "accept" }, all).item?.ref).toBe("e2.5");
});

test("an answer with its key in parentheses inside its word ('(Y)es', 'A(u)to rename all') is named either way", () => {
  const labels = ["(Y)es", "(N)o", "(A)lways", "(S)kip all", "A(u)to rename all", "(Q)uit"];
  const question: Element = {
    ref: "e4",
    kind: "question",
    row: 15,
    col: 0,
    width: 68,
    height: 9,
    label: "Would you like to replace the existing file",
    items: labels.map((label, i) => ({ ref: `e4.${i + 1}`, label, row: 23, col: 2 + i * 10, width: label.length })),
  };
  expect(findTarget([question], { text: "(Y)es" }, all).item?.ref).toBe("e4.1");
  expect(findTarget([question], { text: "Yes" }, all).item?.ref).toBe("e4.1");
  expect(findTarget([question], { text: "no" }, all).item?.ref).toBe("e4.2");
  expect(findTarget([question], { text: "Auto rename all" }, all).item?.ref).toBe("e4.5");
  expect(findTarget([question], { text: "A(u)to rename all" }, all).item?.ref).toBe("e4.5");
  expect(findTarget([question], { text: "skip all" }, all).item?.ref).toBe("e4.4");
});

test("an item named by its key whole before a label holding the text ('N' is No, not the n in 'convert')", () => {
  const fossil: Element = {
    ref: "e2",
    kind: "question",
    row: 2,
    col: 0,
    width: 36,
    height: 1,
    label: "Commit anyhow",
    items: [
      { ref: "e2.1", label: "all", row: 2, col: 15, width: 5, key: "a" },
      { ref: "e2.2", label: "convert", row: 2, col: 21, width: 9, key: "c" },
      { ref: "e2.3", label: "Yes", row: 2, col: 31, width: 1, key: "y" },
      { ref: "e2.4", label: "No", row: 2, col: 33, width: 1, key: "n", selected: true },
    ],
  };
  expect(findTarget([fossil], { text: "N" }, all).item?.ref).toBe("e2.4");
  expect(findTarget([fossil], { text: "conv" }, all).item?.ref).toBe("e2.2");
  // mcopy's "o)verwrite" by its word; "O)verwrite-all" is another answer.
  const mcopy: Element = {
    ref: "e3",
    kind: "question",
    row: 0,
    col: 0,
    width: 73,
    height: 3,
    items: [
      { ref: "e3.1", label: "o)verwrite", row: 1, col: 48, width: 10, key: "o" },
      { ref: "e3.2", label: "O)verwrite-all", row: 1, col: 59, width: 14, key: "O" },
    ],
  };
  expect(findTarget([mcopy], { text: "overwrite" }, all).item?.ref).toBe("e3.1");
  expect(findTarget([mcopy], { text: "Overwrite-all" }, all).item?.ref).toBe("e3.2");
});

test("a field whose prompt offers a default is named by its label, or by the label and the default as shown", () => {
  const field = (label: string, offered: string): Element => ({
    ref: "e2",
    kind: "input",
    row: 3,
    col: 0,
    width: 80,
    height: 1,
    label,
    value: "",
    default: offered,
    cursor: true,
  });
  const name = field("Your full name", "root");
  expect(findTarget([name], { text: "Your full name" }, ["input"]).element).toBe(name);
  expect(findTarget([name], { text: "Your full name [root]" }, ["input"]).element).toBe(name);
  expect(findTarget([name], { text: "your full name (root)" }, ["input"]).element).toBe(name);
  const choice = field("Your choice?", "2.4 (+ support for '**' globbing)");
  expect(
    findTarget([choice], { text: "Your choice? [default: 2.4 (+ support for '**' globbing)]" }, ["input"]).element,
  ).toBe(choice);
  const confirm = field("Do you confirm generation?", "yes");
  expect(findTarget([confirm], { text: "Do you confirm generation [yes]?" }, ["input"]).element).toBe(confirm);
  // (Another default is another field's.)
  expect(() => findTarget([name], { text: "Your full name [ada]" }, ["input"])).toThrow(
    'no input "Your full name [ada]"',
  );
});
