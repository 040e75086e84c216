// Boxes and dialogs: frames drawn with box characters, and the frameless panels of agent CLIs.
import type { Found } from "./types.ts";
import { BOTTOM_LEFT, BOTTOM_RIGHT, type Box, clean, TOP_LEFT, TOP_RIGHT, VERTICAL, type View } from "./view.ts";

/**
 * Most boxes read on one screen, in reading order; frames past them are text. The screen is the
 * program's to draw and the daemon reads it in its one thread: boxes are compared pairwise, and a
 * 1000x1000 screen tiled with 83 584 of them took 19 s (real screens hold a handful).
 */
const MAX_BOXES = 256;
/** The rows a frame cut by the screen's bottom must show (its top and sides) to be read as a box. */
const CUT_TALL = 12;
/**
 * A window's widgets in its top border: close ("[◆]", Turbo Vision's "[■]", hte's "[x]" first in the border), zoom
 * ("[Z]", "[↕]") after its number.
 */
const WINDOW_WIDGET = /\[[◆■]\]|(?:\b\d{1,2}\s+)?\[[Z↕↑]\]|^─?\[[x×]\]/g;

export function findBoxes(view: View): Box[] {
  const boxes = scanBoxes(view, []);
  // A frame another box is drawn across (mprocs's "Processes" list, its right side under the "Add process" box): its
  // side goes on under the other, read again with the rows that box covers allowed.
  if (boxes.length && boxes.length < MAX_BOXES) {
    const more = scanBoxes(view, boxes).filter(
      (b) => !boxes.some((o) => o.top === b.top && o.left === b.left) && b.bottom - b.top >= 4,
    );
    if (more.length) {
      boxes.push(...more.slice(0, MAX_BOXES - boxes.length));
      boxes.sort((a, b) => a.top - b.top || a.left - b.left);
    }
  }
  return boxes;
}

/**
 * Boxes read from their corners down their sides. `over`: boxes found already, drawn over others: a side may be
 * hidden in the rows one of them covers at the side's column (crossed by its border, or under its inside).
 */
function scanBoxes(view: View, over: Box[]): Box[] {
  const boxes: Box[] = [];
  const hidden = (row: number, col: number) =>
    over.some((o) => row >= o.top && row <= o.bottom && col >= o.left && col <= o.right);
  let hiddenRows = 0;
  for (let top = 0; top < view.rows && boxes.length < MAX_BOXES; top++) {
    for (let left = 0; left < view.cols && boxes.length < MAX_BOXES; left++) {
      // Frames drawn in ASCII ("+---- Welcome ----+" over "|" sides: links2's) count when they
      // stand alone, a few rows tall (an ASCII table's "+----+----+" is cells, not boxes).
      const ascii =
        view.char(top, left) === "+" && view.char(top, left + 1) === "-" && !"-+".includes(view.char(top, left - 1));
      // Frames drawn in half blocks ("▛▀▀▜" over "▌  ▐" and "▙▄▄▟": gowid's dialogs), their top border all "▀".
      const half = view.char(top, left) === "▛" && view.char(top, left + 1) === "▀";
      if (!TOP_LEFT.includes(view.char(top, left)) && !ascii && !half) continue;
      const [topRight, bottomLeft, bottomRight, sides] = ascii
        ? ["+", "+", "+", "|"]
        : half
          ? ["▜", "▙", "▟", ""]
          : [TOP_RIGHT, BOTTOM_LEFT, BOTTOM_RIGHT, VERTICAL];
      // The top border runs right to a corner; a title may interrupt it.
      let right = -1;
      for (let col = left + 1; col < view.cols; col++) {
        const char = view.char(top, col);
        if (topRight.includes(char)) {
          right = col;
          break;
        }
        if (TOP_LEFT.includes(char) || (half && char !== "▀")) break;
      }
      if (right < left + 2 || (ascii && (right - left < 10 || "-+".includes(view.char(top, right + 1))))) continue;
      let bottom = -1;
      hiddenRows = 0;
      let row = top + 1;
      for (; row < view.rows; row++) {
        const l = view.char(row, left);
        const r = view.char(row, right);
        if (bottomLeft.includes(l) && bottomRight.includes(r) && (!ascii || row - top >= 3)) {
          bottom = row;
          break;
        }
        if (half) {
          if (l !== "▌" || r !== "▐") break;
          continue;
        }
        // (A side left unpainted where text was drawn over it, whiptail's textbox, still closes on its corners.)
        // (Nor a list's scroll marks drawn on its right side: mc's "^", "*" and "v".)
        const [leftSide, rightSide] = [
          sides.includes(l) || "├╟┝┠╞┣".includes(l),
          sides.includes(r) || "┤╢┥┨╡┫ ".includes(r) || (!ascii && "^v*↑↓▲▼█▒░▮■".includes(r)),
        ];
        if (over.length && (!leftSide || !rightSide)) hiddenRows++;
        if (!(leftSide || (over.length && hidden(row, left))) || !(rightSide || (over.length && hidden(row, right))))
          break;
      }
      // A frame whose sides run down to the screen's last row, its bottom cut by the edge (imediff's help box, taller
      // than the screen): read to that row, when it is tall and its sides stand on every row (`CUT_TALL` rows).
      if (bottom < 0 && row === view.rows && !ascii && !half && !over.length && view.rows - top >= CUT_TALL)
        bottom = view.rows - 1;
      if (bottom < 0) continue;
      // (Hidden for a few rows only: a small box across the side, not a dialog over most of a panel, mc's.)
      if (hiddenRows > Math.max(3, (bottom - top) / 5)) continue;
      const border = view.text(top, left + 1, right);
      // mc's panels: "<─ /tmp ───.[^]>": the arrows and the history button are not the title; nor a window's
      // close and zoom widgets and its number (xwpe's "─[◆]─── tide.c ───1─[Z]─", `WINDOW_WIDGET`).
      const title = clean(
        border
          .replace(/\.?\[\^\]|\[[v^]\]/g, " ")
          .replace(WINDOW_WIDGET, " ")
          .replace(ascii ? /-{2,}/g : /[─━═┤├┨┠╡╞╢╟▀]/g, " ")
          .replace(/^[<\s]+|[>\s]+$/g, " "),
      );
      // A title set off by bars or brackets ("─| Export |─", "─[ Log ]─") is the words between.
      const bare = title.replace(/^[|[(]\s*(.*?)\s*[|\])]$/, "$1");
      boxes.push({ top, left, bottom, right, title: /[\p{L}\p{N}]/u.test(bare) ? bare : "" });
    }
  }
  return boxes;
}

/**
 * A frameless dialog: a rectangle on a background of its own, three rows or more, over a backdrop
 * that fills the rows above and below it with one other background and shows on both its sides, the
 * rectangle centred (opencode's command palette over its dimmed screen). Its title is the first
 * words of its first line.
 */
export function panelDialogs(view: View, boxes: Box[]): Found[] {
  const out: Found[] = [];
  const backdrop = (row: number) => {
    const bg = view.background(row, 0);
    for (let col = 1; col < view.cols; col++) if (view.background(row, col) !== bg) return undefined;
    return bg === "0" ? undefined : bg;
  };
  for (let top = 1; top < view.rows - 3; top++) {
    const above = backdrop(top - 1);
    if (!above) continue;
    let start = 0;
    while (start < view.cols && view.background(top, start) === above) start++;
    const bg = view.background(top, start);
    let end = start;
    while (end < view.cols && view.background(top, end) === bg) end++;
    // It floats: centred, the backdrop showing on both sides.
    if (start < 4 || Math.abs(start - (view.cols - end)) > 2 || end - start < 10) continue;
    // Its rows keep its background at both edges (what it holds may have others), until the backdrop again.
    let bottom = top;
    while (
      bottom + 1 < view.rows &&
      view.background(bottom + 1, start) === bg &&
      view.background(bottom + 1, end - 1) === bg &&
      view.background(bottom + 1, end) !== bg
    )
      bottom++;
    if (bottom - top < 2 || bottom + 1 >= view.rows || backdrop(bottom + 1) !== above) continue;
    if (boxes.some((b) => b.top <= bottom && b.bottom >= top && b.left < end && b.right >= start)) continue;
    let first = top;
    while (first < bottom && !view.text(first, start, end).trim()) first++;
    const label = view
      .text(first, start, end)
      .trim()
      .split(/\s{2,}/)[0];
    out.push({
      kind: "dialog",
      row: top,
      col: start,
      width: end - start,
      height: bottom - top + 1,
      ...(label ? { label } : {}),
    });
    top = bottom;
  }
  return out;
}

/**
 * Claude Code's permission dialog: a full-width rule, a title under it, then a question or
 * buttons; it runs down to the block's last row (before two blank rows or the screen's end).
 */
export function ruleDialogs(view: View, found: Found[]): Found[] {
  const out: Found[] = [];
  const blank = (row: number) => view.text(row, 0, view.cols).trim() === "";
  for (let row = 0; row + 1 < view.rows; row++) {
    const rule = view.flat[row]!.trimEnd();
    if (rule.length < view.cols * 0.9 || !/^[─━]+$/.test(rule)) continue;
    const line = view.text(row + 1, 0, view.cols);
    // Or a title, then tabs found as buttons on its row (claude's "Permissions  Recently blocked  Allow…").
    const lead = line.search(/\S/);
    const phrase = lead >= 0 ? /^\S+(?: \S+)*/.exec(line.slice(lead))![0] : "";
    const tabbed =
      phrase !== "" &&
      view.free(row + 1, lead, lead + phrase.length) &&
      found.some((e) => e.kind === "button" && e.row === row + 1 && e.col > lead + phrase.length);
    const title = tabbed ? phrase : clean(line);
    // (One phrase: fzf's header of key hints, "ENTER open  CTRL-C quit", under its rule is not a title.)
    if (
      !title ||
      title.length > 40 ||
      (!tabbed && (/\S\s{2,}\S/.test(line.trim()) || !view.free(row + 1, 0, view.cols)))
    )
      continue;
    let last = row + 1;
    for (let r = row + 2; r < view.rows && !(blank(r) && (r + 1 >= view.rows || blank(r + 1))); r++)
      if (!blank(r)) last = r;
    const actionable =
      tabbed ||
      found.some(
        (e) => e.row > row + 1 && e.row <= last && (e.kind === "question" || e.kind === "button" || e.kind === "menu"),
      );
    if (!actionable) continue;
    out.push({ kind: "dialog", row, col: 0, width: view.cols, height: last - row + 1, label: title });
    view.use(row + 1, tabbed ? lead : 0, tabbed ? phrase.length : view.cols);
    row = last;
  }
  // opencode's: rows joined by a bar down their left side ("┃"), its first line the title; what
  // another dialog holds (the command palette drawn over a toast) is not the bar's.
  const dialogs = found.filter((e) => e.kind === "dialog");
  const held = (e: Found) =>
    dialogs.some((d) => d.row < e.row && e.row < d.row + d.height && d.col <= e.col && e.col < d.col + d.width);
  for (let row = 0; row < view.rows; row++) {
    const col = view.flat[row]!.search(/[┃▌]/);
    if (col < 0 || col > 8) continue;
    let last = row;
    while (last + 1 < view.rows && view.flat[last + 1]![col] === view.flat[row]![col]) last++;
    const actionable = found.some(
      (e) =>
        e.row > row && e.row <= last && (e.kind === "question" || e.kind === "button" || e.kind === "menu") && !held(e),
    );
    let titleRow = row;
    while (titleRow <= last && clean(view.text(titleRow, col + 1, view.cols)) === "") titleRow++;
    if (actionable && titleRow <= last) {
      const title = clean(view.text(titleRow, col + 1, view.cols)).replace(/^[△⚠!?✱*] /, "");
      const right = Math.max(
        ...Array.from({ length: last - row + 1 }, (_, i) => view.text(row + i, 0, view.cols).trimEnd().length),
      );
      out.push({
        kind: "dialog",
        row,
        col,
        width: right - col,
        height: last - row + 1,
        ...(title && title.length <= 40 ? { label: title } : {}),
      });
      if (title.length <= 40) view.use(titleRow, col + 1, view.cols - col - 1);
      view.use(row, col, 1, last - row + 1);
    }
    row = last;
  }
  out.push(...sideBarDialogs(view, found));
  return out;
}

/** A side bar's opening corner, its continuations and its closing corner down one column: deno's "┏", "┠─", "┗". */
const SIDE_BAR_TOP = /^\s{0,8}[┏┍┎┌╭]\s/;
const SIDE_BAR_MIDDLE = "┃┠┣┝┞┟│├";
const SIDE_BAR_BOTTOM = "┗┖┕└╰";
/** A warning sign before a panel's title ("⚠️  Deno requests…"): no part of it. */
const TITLE_SIGN = /^[△⚠!?✱*]\uFE0F?\s+/u;

/**
 * A block a side bar opens and closes (deno's permission prompt: "┏ ⚠️  Deno requests read access…", "┠─ …" rows,
 * "┗ Allow? [y/n/A]"), holding a question: a dialog, its title the first row's words. A row the one above wrapped
 * into (a full row, then "ental variable.") is the block's though the bar is not drawn on it.
 */
function sideBarDialogs(view: View, found: Found[]): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    if (!SIDE_BAR_TOP.test(view.flat[row]!)) continue;
    const col = view.flat[row]!.search(/\S/);
    let last = row;
    let closed = false;
    for (let r = row + 1; r < view.rows && !closed; r++) {
      const ch = view.flat[r]![col] ?? " ";
      const wrapped = view.flat[r - 1]!.trimEnd().length >= view.cols - 1 && view.flat[r]!.trim() !== "";
      if (SIDE_BAR_BOTTOM.includes(ch)) closed = true;
      else if (!SIDE_BAR_MIDDLE.includes(ch) && !wrapped) break;
      last = r;
    }
    const asks = found.some((e) => e.kind === "question" && e.row > row && e.row <= last);
    if (!closed || !asks) continue;
    const title = clean(view.text(row, col + 1, view.cols)).replace(TITLE_SIGN, "");
    const right = Math.max(
      ...Array.from({ length: last - row + 1 }, (_, i) => view.text(row + i, 0, view.cols).trimEnd().length),
    );
    out.push({
      kind: "dialog",
      row,
      col,
      width: right - col,
      height: last - row + 1,
      ...(title ? { label: title } : {}),
    });
    view.use(row, col, view.cols - col);
    row = last;
  }
  return out;
}
