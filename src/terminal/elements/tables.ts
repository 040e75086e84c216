// Tables: a header of column names (styled, split by rules, underlined, or set apart by a blank row)
// over body rows whose cells line up under it.
import type { Found } from "./types.ts";
import type { Box, View } from "./view.ts";

/** Header candidates whose body is read, per screen: the work stays bounded on any screen. */
const MAX_TABLE_CANDIDATES = 10;

/** A page count at a header bar's right end, two blanks or more after its last name: vfu's "1 of     5". */
const PAGE_COUNT = /(?<=\S\s{2,})\d+ of\s+\d+\s*$/;

/** A sort mark after a column's name: " -" before a blank or the row's end. */
const SORT_MARK = /(?<=\w) -(?= |$)/g;

export function findTables(view: View): Found[] {
  const out: Found[] = [];
  let candidates = 0;
  for (let row = 0; row + 2 < view.rows && candidates < MAX_TABLE_CANDIDATES; row++) {
    const line = view.flat[row]!;
    // (A prompt library's question, "? Order the build steps …", heads its choices, not a table.)
    if (/^\s*[?✔◆◇] \S/.test(line)) continue;
    // (Nor its intro, clack's "┌  Vue.js - The Progressive JavaScript Framework": a corner, blanks, then words.)
    if (/^\s*┌ {1,3}\S/.test(line)) continue;
    // (Nor is a line after a program's picture, one it puts before every line it writes: changeset's "🦋  Summary · …".)
    if (/^\s*\p{Extended_Pictographic}/u.test(view.chars[row]!.join(""))) continue;
    // Headers: three or more words, no digits, in one segment between frame characters or gutters.
    for (const whole of segments(line).flatMap((seg) =>
      view.background(row, seg.start) === "0" ? [seg] : gutters(view, row, seg),
    )) {
      // A pop-up read already over the header's right part (a drop-down hung from a menu bar): the header is what
      // shows left of it, its blanks before the pop-up's side aside.
      let over = whole.start;
      while (over < whole.end && !view.isUsed(row, over)) over++;
      const shownEnd = whole.start + line.slice(whole.start, over).replace(/[\s│┃║]+$/, "").length;
      const segment =
        over < whole.end && over > whole.start && shownEnd - whole.start >= 10
          ? { ...whole, end: shownEnd, outerEnd: over }
          : whole;
      // Sort marks after names, two or more (gowid's "No. Time - Source Dest - Proto"), are no names: blanks, as long.
      // A page count ending the bar (`PAGE_COUNT`: vfu's "#NAM    1 of     5") is no name, nor a data row's figure.
      const drawn = line.slice(segment.start, segment.end).replace(PAGE_COUNT, (count) => " ".repeat(count.length));
      const text = (drawn.match(SORT_MARK) ?? []).length >= 2 ? drawn.replace(SORT_MARK, "  ") : drawn;
      if (!view.free(row, segment.start, segment.end)) continue;
      const words = [...text.replace(/[▽△▼▲]/g, " ").matchAll(/\S+/g)].filter((w) => /[A-Za-z]/.test(w[0]));
      // (A wide panel pads its first column's names apart: mc's ".n               Name".)
      const cells = text
        .replace(/[▽△▼▲]/g, " ")
        .split(/[│┃║|]/)
        .map((t) => t.trim().replace(/\s{2,}/g, " "))
        .filter(Boolean);
      const names = cells.length >= 3 ? cells : words.map((w) => w[0].trim());
      // (Key combinations, "C-x C-s" after a menu entry's name, are no column names.)
      if (
        (names.length < 3 && !(names.length === 2 && twoNamesOnBar(view, row, segment.start, text))) ||
        names.some((n) => /\d{2,}/.test(n) || n.length > 20 || /^[CMSA]-\S/.test(n))
      )
        continue;
      // Weekdays over numbers are a month's grid (calcurse's, dialog --calendar's), read as text.
      if (names.every((n) => /^(?:Mo|Tu|We|Th|Fr|Sa|Su)/i.test(n) && n.length <= 3)) continue;
      // Words one blank apart all along, six or more, are a sentence, not column names.
      if (words.length >= 6 && !/\S\s{2,}\S/.test(text.trim()) && cells.length < 3) continue;
      // A lone figure among them ("   1 N   Jan 01 Alice") makes it a row of data, not names.
      if (/(?:^|\s)\(?\d+\)?(?=\s|$)/.test(text)) continue;
      if (!names.every((n) => /^[A-Za-z.#%+/▽△▼▲ _-]+[0-9]?[%+]?[A-Za-z.#%+/▽△▼▲ _-]*$/.test(n))) continue;
      // A header is drawn apart (colour, bold, reverse) or split by column rules.
      // (Not a list's row drawn like the rows below its highlighted neighbour: mutt's index over its cursor bar.)
      const look = view.spanStyle(row, segment.start, segment.end);
      const alike = (a: number, b: number) =>
        a >= 0 &&
        b < view.rows &&
        view.text(a, segment.start, segment.end).trim() !== "" &&
        view.spanStyle(a, segment.start, segment.end) === view.spanStyle(b, segment.start, segment.end);
      const styled =
        look !== view.spanStyle(row + 1, segment.start, segment.end) &&
        (!view.text(row + 2, segment.start, segment.end).trim() ||
          look !== view.spanStyle(row + 2, segment.start, segment.end)) &&
        !alike(row - 1, row + 1);
      const separated = cells.length >= 3;
      // Or underlined by a rule of dashes under each name (sqlite's column mode "--  ----", psql's "---+---").
      // (Not a banner between two rules alike, "-----" over "Varnish Cache CLI 1.0" over "-----": a title boxed in, its
      // words one blank apart; column names stand apart, dnf's " Package   Architecture   Version" between "====".)
      const boxedIn =
        row > 0 &&
        !/\S\s{2,}\S/.test(text.trim()) &&
        /^\s*[-=─━]{5,}\s*$/.test(view.flat[row - 1]!) &&
        view.flat[row - 1] === view.flat[row + 1];
      const ruled = !boxedIn && ruledUnder(view, row, segment.start, segment.end, words);
      // Or names alone, far apart, a blank row under them, then rows under their columns (GNU screen's window list).
      const gapped =
        !styled &&
        !separated &&
        !ruled &&
        view.text(row + 1, segment.start, segment.end).trim() === "" &&
        /\S\s{8,}\S/.test(text.trim()) &&
        !/\d/.test(text) &&
        names.every((n) => /^[A-Z][a-z]*$/.test(n));
      // Or plain names each standing where a cell starts in every row under them (cscope's "  File   Function  Line"
      // over "0 main.c main       6 printf(…)").
      const startsUnder = !styled && !separated && !ruled && !gapped && cellsStartUnder(view, row, segment.start, text);
      if (!styled && !separated && !ruled && !gapped && !startsUnder) continue;
      candidates++;
      // The rule is the header's, not a row of the body; so is the blank row.
      const skip = ruled || gapped ? 1 : 0;
      // A spreadsheet's column letters (A B C D…) head its grid however empty its cells are: its rows are those
      // numbered at the left.
      const letters =
        names.length >= 3 &&
        names.every((n, i) => n.length === 1 && n.charCodeAt(0) === names[0]!.charCodeAt(0) + i && /[A-Z]/.test(n));
      let body = bodyRows(view, row + skip, segment.start, segment.end);
      if (letters)
        while (row + body + 1 < view.rows && /^\s*\d+\s*$/.test(view.text(row + body + 1, 0, segment.start))) body++;
      // Names of several words ("Partition Type") line up as one: their words, one blank apart, are a column.
      const groups = [...text.matchAll(/\S+(?: \S+)*/g)];
      const spans = (groups.length >= 3 && groups.length < words.length ? groups : words).map((w) => ({
        start: segment.start + w.index!,
        end: segment.start + w.index! + w[0].length,
      }));
      // One row under a header is a table only when its words stand under the names (git add -i's "staged unstaged
      // path").
      // (and the header is only names: no figures, no list's row read as one, tig's dated commit.)
      const onlyNames =
        !/\d/.test(text) &&
        words.length === text.trim().split(/\s+/).length &&
        names.every((n) => /^[A-Za-z%#]/.test(n));
      // (A ruled header whose rows the screen's bottom bar cuts off, nothing under its rule but that bar: goaccess's
      // last panel over its key-hint row. A table of no rows shown.)
      const cut =
        ruled && body < 1 && row + 2 >= view.rows - 2 && !view.free(row + 2, segment.start, segment.end) && onlyNames;
      if (
        (body < 1 && !cut) ||
        (body < 2 &&
          !cut &&
          !ruled &&
          (!onlyNames ||
            view
              .text(row + 1, segment.start, segment.end)
              .trim()
              .split(/\s+/).length < 3 ||
            !aligned(view, row, body, spans)))
      )
        continue;
      if (!separated && !letters && !cut && !aligned(view, row + skip, body, spans)) continue;
      let col = segment.start + (text.length - text.trimStart().length);
      let end = col + text.trim().length;
      // Body rows may reach past the header's words, up to the frame around them.
      for (let r = row + 1 + skip; r <= row + skip + body; r++) {
        const bodyText = view.text(r, segment.outerStart, shown(view, r, segment.start, segment.outerEnd));
        const first = bodyText.search(/[^\s│┃║]/);
        if (first < 0) continue;
        col = Math.min(col, segment.outerStart + first);
        end = Math.max(end, segment.outerStart + bodyText.replace(/[\s│┃║]+$/, "").length);
      }
      // The body rows themselves, blanks between cells collapsed: what the table says.
      const lines: string[] = [];
      for (let r = row + 1 + skip; r <= row + skip + body; r++)
        lines.push(
          view
            .text(r, col, shown(view, r, col, end))
            .replace(/[│┃║]/g, " ")
            .trim()
            .replace(/\s+/g, " "),
        );
      // A panel's empty rows below its last entry (only column rules) are not rows.
      while (lines.length && !lines[lines.length - 1]) lines.pop();
      out.push({
        kind: "table",
        row,
        col,
        width: end - col,
        height: body + 1 + skip,
        header: names,
        rows: lines.length,
        text: lines.join("\n"),
      });
      for (let r = row; r <= row + skip + body; r++) view.use(r, col, shown(view, r, col, end) - col);
    }
  }
  out.push(...ruledTables(view));
  return out;
}

/** A column's name on a header bar: a word, maybe with a figure after "_" (varnishstat's "AVG_10"), or "%CPU". */
const BAR_NAME = /^[%#]?[A-Z][A-Za-z.%#/-]*(?:_\d+)?$/;

/**
 * A header bar over the body of a full-screen list (hatop's reversed "NAME  W STATUS CHECK …", varnishstat's "^^^ NAME
 * CURRENT CHANGE …", sngrep's "^Idx Method SIP From …" on cyan): a row drawn on a bar across the screen, off the top
 * and bottom rows, three names or more (a sort mark "^" before one is no part of it), no figure, over rows whose
 * cells line up under the names. The body may hold a lit row (the list's cursor) and single blank rows between its
 * groups (hatop's proxies); two blank rows end it. Read before the bars and the marks, so the header is not taken for
 * a status bar, nor its rows' "[ ]" marks for checkboxes.
 */
export function barHeaderTables(view: View, boxes: Box[] = []): Found[] {
  const out: Found[] = [];
  for (let row = 1; row + 3 < view.rows; row++) {
    // A dialog drawn over the list (sngrep's forms over its calls) hides part of each row: the rest is read, the names
    // and cells that still show.
    const over = boxes.filter((b) => b.top <= row && b.bottom > row && (b.left > 0 || b.right < view.cols - 1));
    const hidden = (r: number, col: number) =>
      over.some((b) => r >= b.top && r <= b.bottom && col >= b.left && col <= b.right);
    const shows = (r: number) => {
      let line = "";
      for (let col = 0; col < view.cols; col++) line += hidden(r, col) ? " " : view.flat[r]![col]!;
      return line;
    };
    const open = Array.from({ length: view.cols }, (_, col) => col).filter((col) => !hidden(row, col));
    if (open.length < view.cols * 0.2 || open.some((col) => view.isUsed(row, col))) continue;
    let barred = 0;
    for (const col of open)
      if (view.background(row, col) !== view.backdrop && view.background(row, col) !== view.background(row + 1, col))
        barred++;
    if (barred < open.length * 0.9) continue;
    const text = shows(row).replace(/(?<=^|\s)\^+(?=\w|\s|$)/g, (m) => " ".repeat(m.length));
    const words = [...text.matchAll(/\S+/g)];
    // (Hidden in part, two names that still show will do: sngrep's "^Idx" and "Msgs" either side of its form.)
    const fewest = open.length < view.cols ? 2 : 3;
    if (words.length < fewest || !words.every((w) => BAR_NAME.test(w[0]))) continue;
    // (Three names or more two blanks apart, each of a few words: a sentence on a bar, a title, a list's lit row
    // "compress   Compresses the context …" is not a header, nor a pane's "Categories   Display options".)
    const groups = [...text.matchAll(/\S+(?: \S+)*/g)].map((g) => g[0]);
    if (groups.length < fewest || groups.some((g) => g.split(" ").length > 3)) continue;
    let last = row;
    let rows = 0;
    for (let r = row + 1; r < view.rows - 1; r++) {
      if (Array.from({ length: view.cols }, (_, col) => col).some((col) => !hidden(r, col) && view.isUsed(r, col)))
        break;
      if (!shows(r).trim()) {
        if (!shows(r + 1).trim()) break;
        continue;
      }
      last = r;
      rows++;
    }
    if (rows < 2) continue;
    // (Each row on one background: lit items in some columns only are panes' cursors, htop's setup screen under its
    // "Categories   Screens   Active Columns" bar, not a table's rows.)
    const pieced = (r: number) => {
      const cols = Array.from({ length: view.cols }, (_, col) => col).filter((col) => !hidden(r, col));
      const count = new Map<string, number>();
      for (const col of cols) count.set(view.background(r, col), (count.get(view.background(r, col)) ?? 0) + 1);
      return Math.max(...count.values()) < cols.length * 0.9;
    };
    if (Array.from({ length: last - row }, (_, i) => row + 1 + i).some(pieced)) continue;
    const spans = words.map((w) => ({ start: w.index!, end: w.index! + w[0].length }));
    // Only rows with text count for the alignment: blank rows between groups say nothing.
    let agree = 0;
    let total = 0;
    const blank = (r: number, col: number) =>
      col < 0 || col >= view.cols || hidden(r, col) || view.char(r, col).trim() === "";
    for (let r = row + 1; r <= last; r++) {
      if (!shows(r).trim()) continue;
      for (const word of spans) {
        if (
          shows(r)
            .slice(Math.max(0, word.start - 1), word.end + 1)
            .trim() === ""
        )
          continue;
        total++;
        const starts = [-1, 0, 1].some((d) => !blank(r, word.start + d) && blank(r, word.start + d - 1));
        const ends = [-1, 0, 1].some((d) => !blank(r, word.end - 1 + d) && blank(r, word.end + d));
        if (starts || ends) agree++;
      }
    }
    if (total < Math.min(2, spans.length) * rows || agree / total < 0.6) continue;
    const lines: string[] = [];
    for (let r = row + 1; r <= last; r++) if (shows(r).trim()) lines.push(shows(r).trim().replace(/\s+/g, " "));
    out.push({
      kind: "table",
      row,
      col: 0,
      width: view.cols,
      height: last - row + 1,
      header: groups,
      rows: lines.length,
      text: lines.join("\n"),
    });
    for (let r = row; r <= last; r++)
      for (let col = 0; col < view.cols; col++) if (!hidden(r, col)) view.use(r, col, 1);
    row = last;
  }
  return out;
}

/** A rule of "=" or dashes under one column's name, exactly as long (rclone's "====" under "Name"). */
const NAME_RULE = /[=─━-]+/g;

/**
 * A rule of dashes crossed by "+" where the header's "|" part its cells (svn's "-------+-------"), or framed by "+" at
 * both ends too (a database client's "+-------+-------+" over "| place | level |").
 */
const CROSSED_RULE = /^-+(?:\+-+)+$|^\+-+(?:\+-+)*\+$/;

/**
 * Tables a rule under the header says are one, whatever their names hold (read after the others, on free rows):
 * each name over a rule of its own as long, two names or more (rclone's "Name                 Type" over
 * "====                 ===="); or cells parted by "|" over a rule of dashes crossed by "+" right under each "|"
 * (svn's "(1) their version (at line 2)   |(2) your version …" over "------+------"), the body closed by the same
 * rule. Body rows run to a blank row or that rule.
 */
function ruledTables(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 0; row + 2 < view.rows; row++) {
    const line = view.flat[row]!.trimEnd();
    const under = view.flat[row + 1]!.trimEnd();
    if (!line.trim() || !under || !view.free(row, 0, view.cols) || !view.free(row + 1, 0, view.cols)) continue;
    let header: string[] = [];
    let crossed = false;
    if (CROSSED_RULE.test(under) && line.includes("|")) {
      const bars = [...line.matchAll(/\|/g)].map((m) => m.index!);
      const crosses = [...under.matchAll(/\+/g)].map((m) => m.index!);
      if (bars.join() !== crosses.join()) continue;
      header = line.split("|").map((cell) => cell.trim());
      // (Framed: the cells outside the outer bars are none.)
      if (under.startsWith("+")) header = header.slice(1, -1);
      crossed = true;
    } else {
      const names = [...line.matchAll(/\S+(?: \S+)*/g)];
      const rules = [...under.matchAll(NAME_RULE)];
      if (
        names.length < 2 ||
        rules.length !== names.length ||
        under.replace(NAME_RULE, "").trim() !== "" ||
        !names.every((n, i) => n.index === rules[i]!.index && n[0].length === rules[i]![0].length)
      )
        continue;
      header = names.map((n) => n[0]);
    }
    if (header.some((name) => !/\p{L}/u.test(name))) continue;
    const lines: string[] = [];
    let r = row + 2;
    for (; r < view.rows; r++) {
      const text = view.flat[r]!.trimEnd();
      if (!text.trim() || !view.free(r, 0, view.cols) || (crossed && CROSSED_RULE.test(text))) break;
      lines.push(text.trim().replace(/\s+/g, " "));
    }
    if (!lines.length) continue;
    // (A framed table's bottom rule closes it outside its height: its rows end over it.)
    const closed = crossed && !under.startsWith("+") && r < view.rows && view.flat[r]!.trimEnd() === under;
    const last = closed ? r : r - 1;
    const col = Math.min(...Array.from({ length: last - row + 1 }, (_, i) => view.flat[row + i]!.search(/\S/)));
    const width = Math.max(...Array.from({ length: last - row + 1 }, (_, i) => view.flat[row + i]!.trimEnd().length));
    out.push({
      kind: "table",
      row,
      col,
      width: width - col,
      height: last - row + 1,
      header,
      rows: lines.length,
      text: lines.join("\n"),
    });
    view.use(row, col, width - col, last - row + 1);
    row = last;
  }
  return out;
}

/** Whether the body's words line up under the header's (left- or right-aligned) in most places. */
function aligned(view: View, header: number, body: number, words: { start: number; end: number }[]): boolean {
  let agree = 0;
  let total = 0;
  const blank = (row: number, col: number) => col < 0 || col >= view.cols || view.char(row, col).trim() === "";
  for (let row = header + 1; row <= header + body; row++) {
    for (const word of words) {
      // An empty cell of a column says nothing either way (cgdisk's names before any are given).
      if (view.text(row, word.start - 1, word.end + 1).trim() === "") continue;
      total++;
      const starts = [-1, 0, 1].some((d) => !blank(row, word.start + d) && blank(row, word.start + d - 1));
      const ends = [-1, 0, 1].some((d) => !blank(row, word.end - 1 + d) && blank(row, word.end + d));
      if (starts || ends) agree++;
    }
  }
  // (Most rows fill two columns or more: a column of lines under a title is not a table.)
  return total >= 2 * body && agree / total >= 0.6;
}

interface Segment {
  start: number;
  end: number;
  outerStart: number;
  outerEnd: number;
}

/** Stretches of a row between box frames (a panel's inside). */
function segments(line: string): Segment[] {
  const out: { start: number; end: number }[] = [];
  const frames: number[] = [];
  for (let i = 0; i < line.length; i++) if ("│┃║".includes(line[i]!)) frames.push(i);
  // Frames that are column separators inside a table stay inside: only pairs of "││" split.
  let start = 0;
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    if (line[f + 1] !== undefined && "│┃║".includes(line[f + 1]!)) {
      out.push({ start, end: f });
      start = f + 2;
      i++;
    }
  }
  out.push({ start, end: line.length });
  return out
    .map(({ start: s, end: e }) => {
      let a = s;
      let b = e;
      while (a < b && " │┃║".includes(line[a]!)) a++;
      while (b > a && " │┃║".includes(line[b - 1]!)) b--;
      return { start: a, end: b, outerStart: s, outerEnd: e };
    })
    .filter((s) => s.end - s.start >= 10);
}

/**
 * A header bar broken by unlit blanks (htop's "Sort by" beside its process list's "PID USER…"):
 * each lit stretch is the header of a pane of its own.
 */
function gutters(view: View, row: number, segment: Segment): Segment[] {
  const lit = (col: number) => view.background(row, col) !== "0";
  const out: Segment[] = [];
  let start = segment.start;
  for (let col = segment.start + 1; col < segment.end - 1; col++) {
    if (!lit(col) && lit(col - 1) && lit(col + 1) && view.char(row, col) === " ") {
      out.push({ ...segment, start, end: col, outerEnd: col });
      start = col + 1;
    }
  }
  if (out.length === 0) return [segment];
  out.push({ ...segment, start, outerStart: start });
  return out
    .map((seg) => {
      const text = view.text(row, seg.start, seg.end);
      return {
        ...seg,
        start: seg.start + text.length - text.trimStart().length,
        end: seg.start + text.trimEnd().length,
      };
    })
    .filter((seg) => seg.end - seg.start >= 10);
}

/**
 * Non-blank rows under a header in the same columns, until a blank row or a frame, or a row holding only a "~" at its
 * start (a list's filler past its end, vi-like: vfu's).
 */
function bodyRows(view: View, header: number, start: number, end: number): number {
  let rows = 0;
  for (let row = header + 1; row < view.rows; row++) {
    const to = shown(view, row, start, end);
    const text = view.text(row, start, to);
    if (
      text.trim() === "" ||
      /^~\s*$/.test(text) ||
      /^[─━═├┤┌┐└┘\s]+$/.test(text) ||
      (to < end && !view.free(row, start, end) && to === start)
    )
      break;
    rows++;
  }
  return rows;
}

/**
 * Where a row's cells from START stop showing: END, or the frame of a dialog drawn over the rest
 * (mc's panel under its "Listing format"), when ten cells or more show before it; START when the
 * row is hidden or taken by another element.
 */
function shown(view: View, row: number, start: number, end: number): number {
  let to = start;
  while (to < end && view.free(row, to, to + 1)) to++;
  if (to === end) return end;
  return to - start >= 10 && "┌│├└┃║╔╚╟".includes(view.char(row, to)) ? to : start;
}

/**
 * A rule of dashes under each column name (sqlite's column mode "--  ----", psql's "---+---"), or
 * one run of dashes under the first names that stops short of the last ones, nothing under them
 * (update-alternatives' 60 dashes under "Selection  Path  Priority  Status" with long paths).
 */
function ruledUnder(view: View, row: number, start: number, end: number, words: RegExpMatchArray[]): boolean {
  const under = view.text(row + 1, start, end);
  if (!/^[\s─━═=+┼╋┿╇╪|│┃├┤┡┩╞╡-]+$/.test(under)) return false;
  const dashed = (w: RegExpMatchArray) => "─━=-".includes(view.char(row + 1, start + w.index!));
  if (words.every(dashed)) return true;
  const run = /^\s*[─━=-]+/.exec(under);
  const covered = words.filter(dashed);
  return (
    run !== null &&
    covered.length >= 2 &&
    words.slice(0, covered.length).every(dashed) &&
    under.slice(run[0].length).trim() === ""
  );
}

/** Column names of one capitalised word each, two blanks or more apart: "File   Function  Line". */
const PLAIN_NAMES = /^\s*[A-Z][a-z]+(?: {2,}[A-Z][a-z]+){2,}\s*$/;

/**
 * Plain names over rows where a cell starts under each name in every row (a blank before the name's first column,
 * the cell's first character under the name: a number may stand right-aligned, cscope's "Line" over " 6" and "12"),
 * two rows at least, up to a blank row: the rows' cells stand under the names.
 */
function cellsStartUnder(view: View, row: number, start: number, text: string): boolean {
  if (!PLAIN_NAMES.test(text)) return false;
  const names = [...text.matchAll(/\S+/g)].map((w) => ({ from: start + w.index!, to: start + w.index! + w[0].length }));
  const under = (line: string, { from, to }: { from: number; to: number }) => {
    if (from > 0 && line[from - 1] !== " ") return false;
    const first = line.slice(from, to).search(/\S/);
    return first >= 0 && (first === 0 || /^\d/.test(line.slice(from + first)));
  };
  let rows = 0;
  for (let r = row + 1; r < view.rows && view.flat[r]!.trim(); r++, rows++)
    if (!names.every((name) => under(view.flat[r]!, name))) return false;
  return rows >= 2;
}

/**
 * Two names on a bar across the screen, far apart, over rows whose cells each start under both names (dselect's
 * access methods: "  Abbrev.        Description" on its own colour over "  media          Install from a media set…"):
 * a header of two columns. (Two words alone are no header elsewhere: a title and its count, a label and its value.)
 */
function twoNamesOnBar(view: View, row: number, start: number, text: string): boolean {
  let barred = 0;
  for (let col = 0; col < view.cols; col++) if (view.background(row, col) !== view.backdrop) barred++;
  if (barred < view.cols * 0.9 || !/^\s*\S+\s{4,}\S+\s*$/.test(text)) return false;
  const names = [...text.matchAll(/\S+/g)].map((w) => start + w.index!);
  let rows = 0;
  for (let r = row + 1; r < view.rows && view.flat[r]!.trim(); r++, rows++) {
    const line = view.flat[r]!;
    if (!names.every((col) => line[col] !== " " && (col === 0 || line[col - 1] === " "))) return false;
    if (line.slice(0, names[0]).trim()) return false;
  }
  return rows >= 2;
}
