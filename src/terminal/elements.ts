// The screen as elements (docs/elements.md): menus, questions, buttons, inputs, checkboxes,
// radios, progress bars, tables, status lines and dialogs, plus text blocks for the rest. Pure: one
// CellGrid in (cells, attributes, cursor, mouse mode), a list out; the same grid gives the same
// list and refs. Heuristics over what programs draw, tuned on test/fixtures/screens/ (train set).
// The detectors, by element kind, live in elements/.
import type { CellGrid } from "./cell-grid.ts";
import type { Element, Found } from "./elements/types.ts";
import { contains, HORIZONTAL, panes, VERTICAL, View } from "./elements/view.ts";
import { findBoxes, panelDialogs, ruleDialogs } from "./elements/dialogs.ts";
import { buttonHelp, findFunctionKeys, findStatus, footerStatus, keysUnderMenu } from "./elements/bars.ts";
import {
  findButtons,
  findInputs,
  findProgress,
  findToggles,
  formRows,
  offeredDefaults,
  placeholderBox,
  settingsForm,
} from "./elements/fields.ts";
import {
  barMenus,
  circleMenus,
  gridMenus,
  highlightMenus,
  keyBarMenus,
  hintedList,
  markerMenus,
  numberedButtonRows,
  popUpMenu,
  styleMenus,
} from "./elements/menus.ts";
import { findQuestions } from "./elements/questions.ts";
export { isReplPrompt, isShellPrompt } from "./elements/questions.ts";
import { barHeaderTables, findTables } from "./elements/tables.ts";

export type { Element, Item, Kind } from "./elements/types.ts";

/** A border's key hint saying Esc (or Escape) cancels or closes: "[Press Esc to Cancel]", "Esc: close". */
const ESC_CANCELS = /\b(?:Esc|Escape)\b[^\]─]{0,6}\b(?:cancel|close)\b/i;

/** Elements on one screen, in reading order, with refs e1, e2… (items e1.1…). */
export function detectElements(grid: CellGrid): Element[] {
  const view = new View(grid);
  const found: Found[] = [];
  const boxes = findBoxes(view);
  // A frame round the whole screen is the program's window (nmon's); or nearly the whole screen: nconf's, inset by a
  // cell, under its title line.
  // (Not a frame whose bottom border says Esc cancels it, lldb gui's "└─[Press Alt+Enter to Attach]──[Press Esc to
  // Cancel]─┘" round its "Attach Process" form: a dialog over the program's window, whatever its size.)
  const cancelled = (box: (typeof boxes)[number]) => ESC_CANCELS.test(view.text(box.bottom, box.left, box.right + 1));
  const screenWindow = (box: (typeof boxes)[number]) =>
    !cancelled(box) &&
    box.top <= 2 &&
    box.left <= 1 &&
    box.right >= view.cols - 2 &&
    box.bottom >= view.rows - 3 &&
    box.bottom - box.top >= view.rows - 5;
  for (const box of boxes) {
    // A frame another is drawn over (mc's panel behind its hotlist): on its top or bottom border
    // row, the other's sides stand where its rule would run.
    const over = boxes.filter(
      (other) =>
        other !== box &&
        [box.top, box.bottom].some(
          (row) =>
            row > other.top &&
            row < other.bottom &&
            other.left > box.left &&
            other.left < box.right &&
            VERTICAL.includes(view.char(row, other.left)),
        ),
    );
    // The frame is not text; what is inside is read on its own (not what the other holds across its border).
    // (Not where another box drawn over it hides the side: that cell is the other's.)
    const under = (row: number, col: number) =>
      boxes.some(
        (o) =>
          o !== box &&
          !contains(box, o) &&
          !contains(o, box) &&
          row >= o.top &&
          row <= o.bottom &&
          col >= o.left &&
          col <= o.right,
      );
    for (let row = box.top; row <= box.bottom; row++) {
      for (const col of [box.left, box.right]) if (!under(row, col)) view.use(row, col, 1);
    }
    for (const row of [box.top, box.bottom]) {
      for (let col = box.left; col <= box.right; col++)
        if (!over.some((other) => row > other.top && row < other.bottom && col >= other.left && col <= other.right))
          view.use(row, col, 1);
    }
    // A box no other box holds: an inner frame, titled or not, is a list's, a field's or a gauge's.
    // Boxes that tile the screen side by side, abutting, are the program's panes (calcurse's), not dialogs that float.
    // (Or stacked, one's top right under the other's bottom over the same columns: blessed-contrib's grid.)
    const abuts = (other: typeof box) =>
      other !== box &&
      ((other.top <= box.bottom &&
        other.bottom >= box.top &&
        (other.left === box.right + 1 || other.right === box.left - 1)) ||
        (other.left <= box.right &&
          other.right >= box.left &&
          (other.top === box.bottom + 1 || other.bottom === box.top - 1)));
    // The program's window (`screenWindow`): its title is a status line.
    if (screenWindow(box)) {
      if (box.title && box.top === 0)
        found.push({ kind: "status", row: 0, col: 0, width: view.cols, height: 1, text: box.title });
      continue;
    }
    // A frame from the screen's top row to its bottom row against one side is a pane beside the rest (fzf's preview),
    // not a dialog over it.
    // (Or across the whole width against the top or the bottom, the cursor outside it: fzf's preview above or below its
    // list.)
    const outside = !(view.cursor.visible && view.cursor.row > box.top && view.cursor.row < box.bottom);
    const tall =
      (box.top === 0 && box.bottom === view.rows - 1 && (box.left === 0) !== (box.right === view.cols - 1)) ||
      (box.left === 0 && box.right === view.cols - 1 && (box.top === 0) !== (box.bottom === view.rows - 1) && outside);
    // A frame mostly hidden under another dialog, its top border crossed by the other's sides (mc's
    // progress dialog under its "File exists"), is not one: its "title" is the other's text.
    const buried = (box.title !== undefined && /[│┃║]/.test(box.title)) || over.length > 0;
    // An untitled frame across the screen cut into panes (ytree's tree and file list beside its statistics) is the
    // program's layout, not a dialog.
    const paned = !box.title && box.left <= 1 && box.right >= view.cols - 2 && panes(view, box).length > 1;
    // (Or a frame against another pane's side on every row of it, that pane's corners hidden by a drop-down over them:
    // lldb gui's "Variables" beside its "Threads" under the View menu.)
    const sided = (col: number) =>
      col >= 0 &&
      col < view.cols &&
      Array.from({ length: box.bottom - box.top + 1 }, (_, i) => view.char(box.top + i, col)).every((c) =>
        /[│┃║┌┐└┘├┤┬┴┼╭╮╰╯┏┓┗┛]/.test(c),
      );
    if (
      !paned &&
      // (A box floating inside the program's window, a frame round the screen, is a dialog over it: hte's "goto".)
      !boxes.some((other) => other !== box && contains(other, box) && !screenWindow(other)) &&
      !boxes.some(abuts) &&
      !sided(box.right + 1) &&
      !sided(box.left - 1) &&
      !tall &&
      !buried &&
      !placeholderBox(view, box)
    ) {
      found.push({
        kind: "dialog",
        row: box.top,
        col: box.left,
        width: box.right - box.left + 1,
        height: box.bottom - box.top + 1,
        ...(box.title ? { label: box.title } : {}),
      });
    }
  }
  // Separator rows inside boxes (├───┤) and stray rules are frame too; a lone "─" is a tree's guide
  // ("├─>").
  for (let row = 0; row < view.rows; row++) {
    const rule = (col: number) => HORIZONTAL.includes(view.char(row, col));
    for (let col = 0; col < view.cols; col++) if (rule(col) && (rule(col - 1) || rule(col + 1))) view.use(row, col, 1);
  }
  found.push(...panelDialogs(view, boxes));
  found.push(...barHeaderTables(view, boxes));
  found.push(...numberedButtonRows(view));
  found.push(...findFunctionKeys(view));
  found.push(...findQuestions(view));
  found.push(...findStatus(view));
  found.push(...findProgress(view, boxes));
  found.push(...circleMenus(view));
  found.push(...settingsForm(view));
  found.push(...findToggles(view));
  found.push(...findButtons(view, boxes));
  found.push(...gridMenus(view));
  found.push(...findInputs(view, boxes));
  found.push(...formRows(view, boxes, found));
  found.push(...hintedList(view));
  // A marker (❯, ›) says a list is one to choose from, whatever its columns look like.
  found.push(...markerMenus(view));
  found.push(...styleMenus(view));
  found.push(...popUpMenu(view, found));
  footerStatus(view, found);
  buttonHelp(view, found);
  found.push(...keyBarMenus(view, boxes));
  found.push(...highlightMenus(view, boxes));
  found.push(...findTables(view));
  found.push(...barMenus(view, boxes));
  keysUnderMenu(view, found);
  found.push(...ruleDialogs(view, found));
  found.push(...findText(view));
  // A box holding a table is a panel (mc's file lists), not a dialog.
  const tables = found.filter((e) => e.kind === "table");
  const panels = new Set(
    found.filter(
      (e) =>
        e.kind === "dialog" &&
        tables.some((t) => t.row > e.row && t.row < e.row + e.height && t.col >= e.col && t.col < e.col + e.width),
    ),
  );
  // An untitled frame a menu fills from its top to its bottom is the menu's (a drop-down: mc's "Left"), not a dialog.
  for (const e of found) {
    if (
      e.kind === "dialog" &&
      !e.label &&
      found.some(
        (m) =>
          m.kind === "menu" &&
          m.row === e.row + 1 &&
          m.row + m.height === e.row + e.height - 1 &&
          m.col > e.col &&
          m.col < e.col + e.width,
      )
    )
      panels.add(e);
  }
  // An untitled frame round one row that holds a field (a filter bar: "┃Filter: [      ] <Apply>┃") is the field's, not
  // a dialog over the screen. (A titled one is a small dialog asking for it: mc's "Quick cd".)
  for (const e of found) {
    if (
      e.kind === "dialog" &&
      !e.label &&
      e.height === 3 &&
      found.some((f) => f.kind === "input" && f.row === e.row + 1 && f.col > e.col && f.col < e.col + e.width)
    )
      panels.add(e);
  }
  offeredDefaults(view, found);
  return number(found.filter((e) => !panels.has(e)));
}

function number(found: Found[]): Element[] {
  found.sort((a, b) => a.row - b.row || a.col - b.col || (a.kind === "dialog" ? -1 : b.kind === "dialog" ? 1 : 0));
  return found.map((element, index) => {
    const ref = `e${index + 1}`;
    const { items, ...rest } = element;
    const out: Element = { ref, ...rest };
    if (items) out.items = items.map((item, i) => ({ ref: `${ref}.${i + 1}`, ...item }));
    return out;
  });
}

function findText(view: View): Found[] {
  const out: Found[] = [];
  let block: { row: number; lines: { col: number; text: string }[] } | undefined;
  const flush = () => {
    if (!block) return;
    const col = Math.min(...block.lines.map((l) => l.col));
    const width = Math.max(...block.lines.map((l) => l.col + l.text.length)) - col;
    out.push({
      kind: "text",
      row: block.row,
      col,
      width,
      height: block.lines.length,
      text: block.lines.map((l) => " ".repeat(l.col - col) + l.text).join("\n"),
    });
    block = undefined;
  };
  for (let row = 0; row < view.rows; row++) {
    let text = "";
    let first = -1;
    for (let col = 0; col < view.cols; col++) {
      const char = view.isUsed(row, col) ? " " : view.char(row, col);
      if (char.trim() !== "" && first < 0) first = col;
      if (first >= 0) text += char;
    }
    text = text.trimEnd();
    if (!text) {
      flush();
      continue;
    }
    block ??= { row, lines: [] };
    block.lines.push({ col: first, text });
  }
  flush();
  return out;
}

/**
 * `- menu [e3]:` then `  - item "One" [e3.1] (selected) key=1`…: one element per line, buttons on
 * one row together, no coordinates (--json has them): what an agent reads, in few tokens.
 */
export function outline(elements: Element[]): string {
  const lines: string[] = [];
  const q = (text: string) => JSON.stringify(text);
  const stateOf = (e: { selected?: boolean; checked?: boolean; cursor?: boolean }) => {
    const states: string[] = [];
    if (e.selected) states.push("selected");
    if (e.checked !== undefined) states.push(e.checked ? "checked" : "unchecked");
    if (e.cursor) states.push("cursor");
    return states.length ? ` (${states.join(", ")})` : "";
  };
  // A drawn rule says nothing past its first few cells.
  const short = (text: string) => text.replace(/([─━═╌┄┈▀▄])\1{3,}/g, "$1$1$1…");
  const rows = (text: string) => {
    // Runs of one row repeated (vim's "~" filler) cost one line.
    const all = short(text).split("\n");
    for (let i = 0; i < all.length; ) {
      let j = i;
      while (j + 1 < all.length && all[j + 1] === all[i]) j++;
      lines.push(`  | ${all[i]!.trimEnd()}${j - i >= 2 ? `   (×${j - i + 1})` : ""}`);
      if (j - i === 1) lines.push(`  | ${all[i]!.trimEnd()}`);
      i = j + 1;
    }
  };
  for (let index = 0; index < elements.length; index++) {
    const e = elements[index]!;
    switch (e.kind) {
      case "text":
      case "status":
        if (!e.text!.includes("\n")) lines.push(`- ${e.kind} [${e.ref}]: ${q(short(e.text!.trim()))}`);
        else {
          lines.push(`- ${e.kind} [${e.ref}]:`);
          rows(e.text!);
        }
        break;
      case "table":
        lines.push(`- table [${e.ref}]: ${e.header!.join(" | ")} (${e.rows} rows)`);
        if (e.text) rows(e.text);
        break;
      case "progress":
        lines.push(`- progress${e.label ? ` ${q(e.label)}` : ""} [${e.ref}]: ${e.percent}%`);
        break;
      case "input": {
        // (The default a prompt offers, Enter's answer, beside the states: `(cursor, default "8080")`.)
        const states = stateOf(e);
        const offered = e.default === undefined ? "" : `default ${q(e.default)}`;
        const shown = offered ? (states ? `${states.slice(0, -1)}, ${offered})` : ` (${offered})`) : states;
        lines.push(`- input${e.label ? ` ${q(e.label)}` : ""} [${e.ref}]${shown}: ${q(e.value ?? "")}`);
        break;
      }
      case "dialog":
        lines.push(`- dialog${e.label ? ` ${q(e.label)}` : ""} [${e.ref}]`);
        break;
      case "button": {
        // The buttons of one row (a dialog's, a function-key bar) on one line.
        const row: Element[] = [e];
        while (elements[index + 1]?.kind === "button" && elements[index + 1]!.row === e.row)
          row.push(elements[++index]!);
        const buttons = row.map((b) => `${q(b.label ?? "")} [${b.ref}]${stateOf(b)}`);
        lines.push(`- button${row.length > 1 ? "s" : ""}: ${buttons.join(", ")}`);
        break;
      }
      default: {
        lines.push(
          `- ${e.kind}${e.label !== undefined ? ` ${q(e.label)}` : ""} [${e.ref}]${stateOf(e)}${e.items ? ":" : ""}`,
        );
        for (const item of e.items ?? []) {
          const key = item.key !== undefined ? ` key=${item.key}` : "";
          lines.push(`  - item ${q(item.label)} [${item.ref}]${stateOf(item)}${key}`);
        }
      }
    }
  }
  return lines.join("\n");
}
