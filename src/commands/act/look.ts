// A look at the screen (its grid, elements and text) and what acting reads off two looks: whether they differ, how
// the screen ends, what a table shows now that it did not. Sends nothing.
import type { CellGrid } from "../../terminal/cell-grid.ts";
import type { Element } from "../../terminal/elements.ts";

export interface Look {
  grid: CellGrid;
  elements: Element[];
  text: string;
}

/**
 * The same characters in the same places but another style counts as a change (a highlight moved),
 * and so does the cursor moving (a line read after Enter: the cursor goes to the next row, nothing drawn).
 */
export function sameLook(a: Look, b: Look): boolean {
  if (a.grid.cursor.row !== b.grid.cursor.row || a.grid.cursor.col !== b.grid.cursor.col) return false;
  const { flags: fa, bg: ba, fg: ga } = a.grid;
  const { flags: fb, bg: bb, fg: gb } = b.grid;
  if (fa.length !== fb.length) return false;
  for (let i = 0; i < fa.length; i++) if (fa[i] !== fb[i] || ba[i] !== bb[i] || ga[i] !== gb[i]) return false;
  return true;
}

/** The screen's last two rows that hold text, joined with " / ": what it ends with. */
export function screenEnds(text: string): string {
  return text
    .split("\n")
    .map((r) => r.trim())
    .filter(Boolean)
    .slice(-2)
    .join(" / ");
}

/**
 * What a table shows after an action that it did not show before: `before` and `rest` the looks bounding a time the
 * table stood still (nothing changed it while the caller typed, where `rest` shows it), `after` the settled look. Only
 * a table under `below` (a row), found again by its header at the same row, whose rows now differ, with no dialog or
 * question new in `after`: undefined otherwise. Says how many rows it shows and its first, as drawn.
 */
export function tableChanged(before: Look, rest: Look, after: Look, below: number): string | undefined {
  const same = (a: Element, b: Element) => a.kind === b.kind && a.row === b.row && a.col === b.col;
  const popped = after.elements.some(
    (e) => (e.kind === "dialog" || e.kind === "question") && !before.elements.some((old) => same(old, e)),
  );
  if (popped) return undefined;
  for (const table of before.elements) {
    if (table.kind !== "table" || table.row <= below) continue;
    // (Found again at its row, its first column's name the same: a program may draw its columns narrower for rows.)
    const again = (e: Element) => e.kind === "table" && e.row === table.row && e.header?.[0] === table.header?.[0];
    // (At rest: the same rows where `rest` shows it whole; a pop-up under the field, its completions, may hide it or
    // part of it there.)
    const still = rest.elements.find((e) => again(e) && e.col === table.col && e.width === table.width);
    const now = after.elements.find(again);
    if ((still && still.text !== table.text) || !now || now.text === table.text) continue;
    const first = (now.text ?? "").split("\n")[0]!.slice(0, 80);
    return (
      `the table ${below >= 0 ? "under it " : ""}(${table.header!.slice(0, 4).join(" | ")}) ` +
      `shows ${now.rows} rows where it showed ` +
      `${table.rows}${first ? ` (first: ${JSON.stringify(first)})` : ""}`
    );
  }
  return undefined;
}

/**
 * What was put in at the cursor between two looks, when nothing else changed: the cursor's row the same up to where the
 * cursor was, then the text put in, then the rest of the row as it was (moved on, or typed over), the cursor right
 * after it on that row, every other row the same (unless `othersMayChange`: an editor's title saying "Modified"), and
 * the row changed. A line editor's echo (a REPL's), an editor's Tab: text typed, no key a program took as a command.
 * Undefined otherwise.
 */
export function putAtCursor(before: Look, after: Look, othersMayChange = false): string | undefined {
  const { row, col } = before.grid.cursor;
  const cursor = after.grid.cursor;
  if (cursor.row !== row || cursor.col <= col) return undefined;
  const rowsBefore = before.text.split("\n");
  const rowsAfter = after.text.split("\n");
  if (
    rowsBefore.length !== rowsAfter.length ||
    (!othersMayChange && rowsBefore.some((r, i) => i !== row && r !== rowsAfter[i]))
  )
    return undefined;
  const was = rowsBefore[row]!.padEnd(col);
  const now = rowsAfter[row]!;
  if (now.slice(0, col) !== was.slice(0, col)) return undefined;
  // (A Tab put in on blanks shows no text: the row as it was, the cursor moved on over blanks. Asked for Tab only:
  // nano's buffer on a blank row got twelve, attack round of session 14.)
  if (now === rowsBefore[row]) {
    const over = now.padEnd(cursor.col).slice(col, cursor.col);
    return othersMayChange && !over.trim() ? over : undefined;
  }
  const put = now.slice(col, cursor.col);
  const rest = now.slice(cursor.col).trimEnd();
  return was.slice(col).startsWith(rest) || rest === was.slice(col + put.length).trimEnd() ? put : undefined;
}
