// Controls on one row: progress bars, input fields, checkboxes and radios, buttons.
import { CellFlag, ColourMode, colourMode, colourValue } from "../cell-grid.ts";
import type { Found } from "./types.ts";
import {
  type Box,
  boxAround,
  clean,
  contains,
  escapeRegExp,
  joinWrapped,
  GLUED_DEFAULT_KEY,
  LINE_MARK,
  MARKERS,
  markFocused,
  panes,
  VERTICAL,
  type View,
  drawnApart,
} from "./view.ts";

const PERCENT = /(\d{1,3}(?:\.\d+)?)%/g;
const BAR = /[|█▉▊▋▌▍▎▏▓▒░#=■━>-]{3,}/;

/** A meter's inside: its fill (blanks or bars), then a count over a total at its right end ("  0/9986"). */
const METER_COUNT = /^[\s|#=*]{3,}\d[\d.]*[KMGTP]?i?B?\/\d[\d.]*[KMGTP]?i?B?$/;

export function findProgress(view: View, boxes: Box[]): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    let brackets: RegExpExecArray[] | undefined;
    for (const match of line.matchAll(PERCENT)) {
      const col = match.index!;
      if (!view.free(row, col, col + match[0].length)) continue;
      const percent = Number(match[1]);
      if (percent > 100) continue;
      // A meter: "Cpu[|||||   42.0%]" or "[#####   ] 42%" or "42% ███".
      let bar: { row?: number; col: number; width: number; label: string } | undefined;
      for (const m of (brackets ??= [...line.matchAll(/(\S*?)\s*\[([^\]]*)\]/g)])) {
        const start = m.index!;
        const end = start + m[0].length;
        // "40.5% [=====>    ]": the percent just before the bar (prompt_toolkit's ProgressBar) is no caption.
        if (m[1]!.includes(match[0]) && BAR.test(m[2]!)) {
          const bracket = end - m[2]!.length - 2;
          bar = { col: bracket, width: end - bracket, label: "" };
        } else if (col >= start && col < end + 3 && (BAR.test(m[2]!) || col < end)) {
          bar = { col: start, width: Math.max(end, col + match[0].length) - start, label: m[1]! };
        }
      }
      // Without a caption glued to it, a bar's caption is the row's first word, set off by a colon
      // or two blanks ("image.iso: 7.63MiB …", "photos  40.5% […]").
      const first = /^\s*([^\s:]*[A-Za-z][^\s:]*(?: [a-z][\w.-]*){0,3})(?::\s|\s{2})/.exec(line);
      if (bar && !bar.label.trim() && first && line.indexOf(first[1]!) < bar.col) bar.label = first[1]!;
      if (!bar) {
        const before = line.slice(Math.max(0, col - 60), col);
        const after = line.slice(col + match[0].length, col + match[0].length + 60);
        // (A percent in a column of them, words between it and the bar, is a table's cell: goaccess's "12 20.00%    9
        // 20.45%  19.66 KiB 05/Dec/2026 |||||||" rows under "Hits     h% …".)
        const end = col + match[0].length;
        const aligned = [row - 1, row + 1].some((r) =>
          [...(view.flat[r] ?? "").matchAll(PERCENT)].some((m) => m.index! + m[0].length === end),
        );
        const cell =
          aligned &&
          (/^\s*[^\s|█▉▊▋▌▍▎▏▓▒░#=■━[\]]/.test(after) || /[^\s|█▉▊▋▌▍▎▏▓▒░#=■━[\]]\s*$/.test(before)) &&
          !/^\]?\s*[|█▉▊▋▌▍▎▏▓▒░#=■━>-]{3}/.test(after) &&
          !/[|█▉▊▋▌▍▎▏▓▒░#=■━>-]{3}\[?\s*$/.test(before);
        if (!cell && (BAR.test(before.slice(-40)) || BAR.test(after.slice(0, 40)))) {
          const left = before.search(/[|█▉▊▋▌▍▎▏▓▒░#=■━[]{2,}[\s\S]*$/);
          const start = left >= 0 ? col - before.length + left : col;
          const tail = /^[\s|█▉▊▋▌▍▎▏▓▒░#=■━\]]*/.exec(after)![0].trimEnd().length;
          // Its caption: words before the bar ("Downloading ━━━"), or else a name between rules after
          // it ("█░░ | video.mp4 | 60%"), not a count, a rate or a time.
          const lead = line.slice(0, start).trim().replace(/:$/, "");
          const named = [...line.slice(start).split("|").slice(1)]
            .map((p) => p.trim())
            .find(
              (p) =>
                /^[\p{L}\w][\w.-]*(?: [\w.-]+){0,2}$/u.test(p) && /\p{L}{2}/u.test(p) && !/^ETA\b|\d+\/\d+|^\d/.test(p),
            );
          bar = {
            col: start,
            width: col + match[0].length + tail - start,
            label: /\p{L}{2}/u.test(lead) && lead.length <= 30 ? lead : (named ?? ""),
          };
        }
      }
      if (!bar) {
        // dialog --gauge: the percent alone in a box, the done part drawn in reverse.
        const box = boxAround(boxes, row, col);
        if (box && box.bottom - box.top === 2 && clean(view.text(row, box.left + 1, box.right)) === match[0]) {
          const outer = boxAround(
            boxes.filter((b) => b !== box),
            box.top,
            box.left,
          );
          // Its caption: the gauge's own frame's title (dialog --mixedgauge), else the dialog's first row.
          const caption = box.title || (outer ? clean(view.text(outer.top + 1, outer.left + 1, outer.right)) : "");
          out.push({
            kind: "progress",
            row: box.top + 1,
            col: box.left + 1,
            width: box.right - box.left - 1,
            height: 1,
            percent,
            ...(caption ? { label: caption } : {}),
          });
          view.use(box.top, box.left, box.right - box.left + 1, 3);
          if (outer && !box.title) view.use(outer.top + 1, outer.left + 1, outer.right - outer.left - 1);
          continue;
        }
        // whiptail --gauge: the percent alone on its row, centred in a bar whose done part has its own background.
        if (box && clean(view.text(row, box.left + 1, box.right)) === match[0]) {
          let start = box.left + 1;
          while (start < col && view.background(row, start) === view.background(row, box.left)) start++;
          if (start < col && view.text(row, start, col).trim() === "")
            bar = { col: start, width: box.right + box.left + 1 - 2 * start, label: "" };
        }
      }
      // The percent in a caption over the bar (blessed's "Uploading snapshot: 64%"): a run of colour
      // under it, a few rows down, as long as the percent says of the width around it.
      if (
        !bar &&
        !line
          .slice(col + match[0].length)
          .replace(/[│┃║]/g, "")
          .trim()
      )
        bar = barUnder(view, boxes, row, col, percent);
      if (!bar) continue;
      const label = clean(bar.label);
      out.push({
        kind: "progress",
        row: bar.row ?? row,
        col: bar.col,
        width: bar.width,
        height: 1,
        percent,
        ...(label ? { label } : {}),
      });
      view.use(bar.row ?? row, bar.col, bar.width);
    }
  }
  return out;
}

function barUnder(
  view: View,
  boxes: Box[],
  row: number,
  col: number,
  percent: number,
): { row: number; col: number; width: number; label: string } | undefined {
  const box = boxAround(boxes, row, col);
  const caption = view.flat[row]!.slice(box ? box.left + 1 : 0).search(/\S/) + (box ? box.left + 1 : 0);
  for (let r = row + 1; r <= row + 3 && r < view.rows && (!box || r < box.bottom); r++) {
    const start = Array.from({ length: 7 }, (_, i) => caption - 3 + i).find(
      (c) => c >= 0 && view.background(r, c) !== view.backdrop && view.background(r, c) !== view.background(r, c - 1),
    );
    if (start === undefined) continue;
    let end = start;
    while (end < view.cols && view.background(r, end) === view.background(r, start) && view.char(r, end) === " ") end++;
    const right = box ? box.right - 1 : view.flat[row]!.trimEnd().length;
    const width = right - start;
    if (
      width < 10 ||
      view.text(r, start, right).trim() !== "" ||
      Math.abs((end - start) / width - percent / 100) > 0.15
    )
      continue;
    return { row: r, col: start, width, label: "" };
  }
  return undefined;
}

/** A row of a column of fields: a label of words ending in ":", what is typed after it (cscope's "Find this file:"). */
const FIELD_ROW = /^([A-Z][\w#'-]*(?: [\w#'-]+){1,7}):(?: (.*))?$/;

/** How many such rows a column needs to be read as a form. */
const FIELD_COLUMN_ROWS = 4;

/**
 * A column of fields at the screen's foot, one a row (cscope's ten "Find this C symbol:" … "Find assignments to this
 * symbol:" under its results): at least four rows in a run, each a label of words ending in ":" at the first column,
 * none holding anything after it but the one with the cursor, nothing under them. Each is an input, the cursor's the
 * one it is in (with the cursor elsewhere, in a list above, none holds it).
 */
function fieldColumn(view: View): Found[] {
  let last = view.rows - 1;
  while (last >= 0 && !view.flat[last]!.trim()) last--;
  let top = last;
  while (top >= 0 && FIELD_ROW.test(view.flat[top]!.trimEnd())) top--;
  top++;
  if (last - top + 1 < FIELD_COLUMN_ROWS) return [];
  const { cursor } = view;
  const found: Found[] = [];
  for (let row = top; row <= last; row++) {
    const match = FIELD_ROW.exec(view.flat[row]!.trimEnd())!;
    const here = cursor.visible && cursor.row === row;
    if ((match[2] && !here) || !view.free(row, 0, view.cols)) return [];
    found.push({
      kind: "input",
      row,
      col: 0,
      width: view.cols,
      height: 1,
      label: match[1]!,
      value: (match[2] ?? "").trim(),
      cursor: here,
    });
  }
  view.use(top, 0, view.cols, last - top + 1);
  return found;
}

/** A setting's name in a form of settings: a word of letters, digits, `_`, `.` or `-` (ccmake's `CMAKE_BUILD_TYPE`). */
const SETTING_NAME = /^[A-Za-z_][\w.-]*$/;

/** A setting whose value is `ON` or `OFF` is a checkbox (ccmake's bool entries). */
const ON_OFF = /^(ON|OFF)$/;

/**
 * A form of settings, one a row (ccmake's cache: ` CMAKE_BUILD_TYPE                *Release`): two rows or more in a
 * run, each a name (`SETTING_NAME`) at one column, then two blanks or more and the value at one column for all (a `*`
 * just before it marks a new setting, no part of the value); the focus is the one row whose name alone is drawn in
 * reverse video, the cursor on that row at or past the values' column. Each row is an input labelled with its name
 * (an `ON`/`OFF` value a checkbox, checked when ON), the focused one `selected`. The focused input holds the cursor
 * only while it stands past the value's first cell (a value being edited, the cursor at its end): at its first cell
 * the program reads keys as commands (ccmake's `d` deletes an entry, `g` generates), so nothing may be typed there.
 */
export function settingsForm(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible) return [];
  const nameAt = (row: number): { col: number; name: string; rest: number } | undefined => {
    const text = view.flat[row]!;
    const col = text.search(/\S/);
    if (col < 0) return undefined;
    const name = /^\S+/.exec(text.slice(col))![0];
    if (!SETTING_NAME.test(name)) return undefined;
    return { col, name, rest: col + name.length };
  };
  const lit = (row: number, at: { col: number; rest: number }) =>
    view.has(row, at.col, CellFlag.inverse) &&
    view.has(row, at.rest - 1, CellFlag.inverse) &&
    !view.has(row, at.rest, CellFlag.inverse) &&
    (at.col === 0 || !view.has(row, at.col - 1, CellFlag.inverse));
  const focus = nameAt(cursor.row);
  if (!focus || !lit(cursor.row, focus)) return [];
  const rows: number[] = [cursor.row];
  for (let row = cursor.row - 1; row >= 0 && nameAt(row)?.col === focus.col; row--) rows.unshift(row);
  for (let row = cursor.row + 1; row < view.rows && nameAt(row)?.col === focus.col; row++) rows.push(row);
  if (rows.length < 2) return [];
  // Where each row's value starts: after two blanks or more, past a `*` standing just before it.
  let valueCol: number | undefined;
  const values = new Map<number, string>();
  for (const row of rows) {
    const at = nameAt(row)!;
    if (row !== cursor.row && view.has(row, at.col, CellFlag.inverse)) return [];
    const after = view.flat[row]!.slice(at.rest);
    const gap = after.search(/\S/);
    if (gap < 0) {
      values.set(row, "");
      continue;
    }
    if (gap < 2) return [];
    const col = at.rest + gap + (after[gap] === "*" ? 1 : 0);
    if (valueCol !== undefined && col !== valueCol) return [];
    valueCol = col;
    values.set(row, view.flat[row]!.slice(col).trim());
  }
  if (valueCol === undefined || cursor.col < valueCol) return [];
  // (The cursor within the focused value or right at its end: past it stands what another program drew after printed
  // rows, a shell's "$ " or a REPL's "* " on the last row a file left unended.)
  if (cursor.col > valueCol + values.get(cursor.row)!.length) return [];
  if (!rows.every((row) => view.free(row, 0, view.cols))) return [];
  const found: Found[] = rows.map((row) => {
    const value = values.get(row)!;
    const here = row === cursor.row;
    if (ON_OFF.test(value))
      return {
        kind: "checkbox",
        row,
        col: focus.col,
        width: valueCol! + value.length - focus.col,
        height: 1,
        label: nameAt(row)!.name,
        checked: value === "ON",
        selected: here,
      };
    return {
      kind: "input",
      row,
      col: focus.col,
      width: view.cols - focus.col,
      height: 1,
      label: nameAt(row)!.name,
      value,
      cursor: here && cursor.col > valueCol!,
      ...(here ? { selected: true } : {}),
    };
  });
  view.use(rows[0]!, 0, view.cols, rows.length);
  return found;
}

/** A stacked field's row: a one-sign marker at the first column, then what is typed (aerc's "> Work"; "]" focused). */
const STACKED_FIELD = /^([>\]›❯])(?: (.*?))?\s*$/;

/**
 * A wizard's fields stacked one under another (aerc's new account form: the bold "Name for this account? (e.g.
 * 'Personal' or 'Work')" over "> Work", a blank row, the next): two or more rows opening with a one-sign marker, each
 * right under a bold row of words that is its label, the cursor in one of them. Each is an input labelled with the row
 * above, its value what follows the marker; a word in brackets alone a row or two under them, its button.
 */
function stackedFields(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible) return [];
  const pairs: number[] = [];
  for (let row = 1; row < view.rows; row++) {
    const label = view.flat[row - 1]!.trim();
    const at = view.flat[row - 1]!.search(/\S/);
    if (
      STACKED_FIELD.test(view.flat[row]!) &&
      /^\p{L}/u.test(label) &&
      at === 0 &&
      view.has(row - 1, 0, CellFlag.bold) &&
      view.free(row - 1, 0, view.cols) &&
      view.free(row, 0, view.cols)
    )
      pairs.push(row);
  }
  if (pairs.length < 2 || !pairs.includes(cursor.row)) return [];
  // (A wizard draws on under the field holding the cursor: more fields, its button, its bar. A line-oriented program's
  // prompt is the last thing on its screen: a bold row printed right over a REPL's "> " is output, no label.)
  if (view.flat.slice(cursor.row + 1).every((row) => !row.trim())) return [];
  const found: Found[] = pairs.map((row) => ({
    kind: "input",
    row,
    col: 0,
    width: view.cols,
    height: 1,
    label: clean(view.flat[row - 1]!),
    value: STACKED_FIELD.exec(view.flat[row]!)![2] ?? "",
    cursor: row === cursor.row,
  }));
  for (const row of pairs) view.use(row - 1, 0, view.cols, 2);
  // A word in brackets alone on a row a blank row or two under them is the form's button (aerc's "  [Next]").
  const last = pairs[pairs.length - 1]!;
  for (let row = last + 1; row <= last + 3 && row < view.rows; row++) {
    const button = /^(\s*)\[([A-Z][\w ]{0,15}[\w])\]\s*$/.exec(view.flat[row]!);
    if (button && view.free(row, 0, view.cols)) {
      const col = button[1]!.length;
      found.push({
        kind: "button",
        row,
        col,
        width: button[2]!.length + 2,
        height: 1,
        label: button[2]!,
        selected: false,
      });
      view.use(row, col, button[2]!.length + 2);
      break;
    }
    if (view.flat[row]!.trim()) break;
  }
  return found;
}

export function findInputs(view: View, boxes: Box[]): Found[] {
  const { cursor } = view;
  const found: Found[] = [...fieldColumn(view), ...stackedFields(view)];
  // A field drawn on a background of its own, labelled by a "Label:" just before it on its row
  // (dialog --form) or over its columns on the row above (mc's find: "File name:", "Content:", side
  // by side). A label's words are one blank apart: two blanks part columns.
  for (let row = 0; row < view.rows; row++) {
    if (
      !view.flat[row]!.includes(":") &&
      !view.flat[row]!.includes("___") &&
      !(row > 0 && view.flat[row - 1]!.includes(":"))
    )
      continue;
    for (let start = 0; start < view.cols; ) {
      let end = start + 1;
      while (
        end < view.cols &&
        view.background(row, end) === view.background(row, start) &&
        !VERTICAL.includes(view.char(row, end))
      )
        end++;
      const [from, to] = [start, end];
      start = end;
      if (
        from === 0 ||
        view.background(row, from) === view.background(row, from - 1) ||
        to - from < 3 ||
        to - from > view.cols * 0.8 ||
        VERTICAL.includes(view.char(row, from)) ||
        !view.free(row, from, to)
      )
        continue;
      // The label before it is drawn on the backdrop, as the cells just before the field are.
      // (Or, before a field drawn with underscores, a label without its colon: finch's "Local Port      5298____".)
      const drawn = /_{3}/.test(view.text(row, from, to));
      const before =
        /([A-Za-z][\w.'-]*(?: [\w.'-]+| \([\w.' -]+\)){0,5}):( {0,20})$/.exec(
          view.text(row, Math.max(0, from - 50), from),
        ) ??
        (drawn
          ? /(?<=^|[│┃║]|\s{2})([A-Z][\w.'-]*(?: [\w.'-]+){0,3})( {2,20})$/.exec(
              view.text(row, Math.max(0, from - 50), from),
            )
          : null);
      const left =
        before && view.background(row, from - before[0].length) === view.background(row, from - 1)
          ? from - before[0].length
          : -1;
      // (Or a field drawn with underscores in a dialog, its prompt the text above it: whiptail's
      // password box with the focus on its buttons.)
      const prompted = row > 0 && to - from >= 8 && /:\s*$/.test(view.text(row - 1, from, to));
      const underscored = drawn && to - from >= 8 && boxAround(boxes, row, from) !== undefined;
      if (left < 0 && !prompted && !underscored) continue;
      const here = cursor.visible && cursor.row === row && cursor.col >= from && cursor.col <= to;
      const label = left >= 0 ? before![1]!.trim() : labelAbove(view, boxes, row, from, to);
      found.push({
        kind: "input",
        row,
        col: from,
        width: to - from,
        height: 1,
        ...(label ? { label } : {}),
        value: view
          .text(row, from, to)
          .replace(/_+\s*$/, "")
          .trim(),
        cursor: here,
      });
      view.use(row, left >= 0 ? left : from, to - (left >= 0 ? left : from));
    }
  }
  // A web page's form field after its label (w3m's "Name: [Ada     ]", lynx's "Name: Ada______"): brackets
  // around blanks or a run of underscores are a field's drawn extent, whatever colours the page has.
  for (let row = 0; row < view.rows; row++) {
    for (const m of view.flat[row]!.matchAll(
      /(?<=^|\s)([A-Za-z][\w'-]*(?: [\w'-]+){0,3}):(?!\/\/)\s?(\[[^\][]{3,}\]|[^\s_]*_{3,})(?=\s|$)/g,
    )) {
      const from = m.index! + m[0].length - m[2]!.length;
      const to = from + m[2]!.length;
      const inner = m[2]!.startsWith("[") ? m[2]!.slice(1, -1) : m[2]!;
      // (A bracketed word is a field when drawn apart from its label: links2's closed select "[France]", bold.)
      const apart = view.spanStyle(row, from + 1, to - 1) !== view.spanStyle(row, m.index!, m.index! + m[1]!.length);
      // (Nor is a meter a field: a count over its total kept at the bracket's right end, its fill on the left,
      // "Pipes: [               0/0]", "Connections: [|||     12/9986]".)
      if (
        !view.free(row, m.index!, to) ||
        METER_COUNT.test(inner) ||
        (m[2]!.startsWith("[") && !/ {2}/.test(inner) && !inner.includes("_") && !apart)
      )
        continue;
      const here = cursor.visible && cursor.row === row && cursor.col >= from && cursor.col < to;
      found.push({
        kind: "input",
        row,
        col: from,
        width: to - from,
        height: 1,
        label: m[1]!,
        value: inner.replace(/_+/g, " ").trim(),
        cursor: here,
      });
      view.use(row, m.index!, to - m.index!);
    }
  }
  // A form of "Label : value" rows, the colons in one column, the cursor in one of them (enquirer's
  // form): each row a field. (Without the cursor it is a listing, pacman -Qi's "Name : bash".)
  for (let row = 0; row + 1 < view.rows; row++) {
    const colon = / : /.exec(view.flat[row]!)?.index ?? -1;
    const at = (r: number) =>
      r < view.rows &&
      colon > 0 &&
      view.flat[r]!.slice(colon, colon + 3) === " : " &&
      /[A-Za-z]/.test(view.char(r, colon - 1)) &&
      view.free(r, 0, view.cols);
    if (!at(row) || !at(row + 1)) continue;
    let last = row + 1;
    while (at(last + 1)) last++;
    if (!(cursor.visible && cursor.row >= row && cursor.row <= last && cursor.col > colon)) {
      row = last;
      continue;
    }
    for (let r = row; r <= last; r++) {
      const label = /([A-Za-z][\w'-]*(?: [\w'-]+){0,4})$/.exec(view.text(r, 0, colon))![1]!;
      found.push({
        kind: "input",
        row: r,
        col: colon + 3,
        width: view.cols - colon - 3,
        height: 1,
        label,
        cursor: cursor.row === r,
      });
      view.use(r, colon - label.length, view.cols - colon + label.length);
    }
    row = last;
  }
  // One-row boxes stacked in a column, each after a tag on its row (dialog --inputmenu's "web  │web-01│"),
  // are a menu of values: the tag is the key, the one drawn on another background the selected one.
  const fields = boxes.filter((b) => b.bottom - b.top === 2 && boxes.some((o) => o !== b && contains(o, b)));
  const stacked = fields.filter((b) => fields.some((o) => o !== b && o.left === b.left && o.right === b.right));
  const tag = (b: Box) =>
    /(\S+)\s*$/.exec(
      view
        .text(
          b.top + 1,
          boxAround(
            boxes.filter((o) => o !== b),
            b.top,
            b.left,
          )?.left ?? 0,
          b.left,
        )
        .replace(/^[\s│┃║]+/, ""),
    );
  if (
    stacked.length >= 2 &&
    stacked.every((b) => tag(b)) &&
    stacked.every((b) => view.free(b.top + 1, b.left + 1, b.right))
  ) {
    stacked.sort((a, b) => a.top - b.top);
    const items = stacked.map((b) => {
      const key = tag(b)![1]!;
      const col = b.left - view.text(b.top + 1, 0, b.left).length + view.text(b.top + 1, 0, b.left).lastIndexOf(key);
      const value = view.text(b.top + 1, b.left + 1, b.right).trim();
      return { label: value, row: b.top + 1, col, width: b.left + 1 + value.length - col, key };
    });
    const looks = items.map((i) => view.spanBackground(i.row, i.col, i.col + i.key.length));
    const lone = drawnApart(looks, looks);
    const menu = items.map((i, n) => ({ ...i, selected: lone.length === 1 && looks[n] === lone[0] }));
    const col = Math.min(...menu.map((i) => i.col));
    found.push({
      kind: "menu",
      row: menu[0]!.row,
      col,
      width: Math.max(...menu.map((i) => i.col + i.width)) - col,
      height: menu[menu.length - 1]!.row - menu[0]!.row + 1,
      items: menu,
    });
    stacked.forEach((b, n) => view.use(b.top, items[n]!.col, b.right - items[n]!.col + 1, 3));
  }
  // A one-row box inside a dialog, empty or its text from its first cell on, is a field (dialog
  // --inputbox), the cursor in it or not (the focus on the buttons); its label is the text above it.
  // A short name padded in such a box is a button (finch's "│ Cancel │"); a label before the box on
  // its row ("Protocol:│Bonjour  │↓│") is the field's.
  // (Or a titled one alone, holding the cursor, its text from its first cell: a small dialog asking for one line,
  // mprocs's "Add process" over its panes; not mc's "Quick cd", its label " cd" inside.)
  for (const box of boxes) {
    const row = box.top + 1;
    const inner = view.text(row, box.left + 1, box.right);
    const asking =
      box.title !== "" &&
      !/^\s+\S/.test(inner) &&
      cursor.visible &&
      cursor.row === row &&
      cursor.col > box.left &&
      cursor.col < box.right;
    if (
      box.bottom - box.top !== 2 ||
      !(asking || boxes.some((outer) => outer !== box && contains(outer, box))) ||
      !view.free(row, box.left + 1, box.right)
    )
      continue;
    const name = /^ +([A-Z][\w'-]*(?: [\w'-]+)?) +$/.exec(inner);
    if (name && inner.length <= 20) {
      view.use(box.top, box.left, box.right - box.left + 1, 3);
      found.push({
        kind: "button",
        row,
        col: box.left,
        width: box.right - box.left + 1,
        height: 1,
        label: name[1]!,
        selected: false,
      });
      continue;
    }
    // (A titled one, the cursor not in it, shows a value: mc's hotlist "┌ Directory path ─┐".)
    const here = cursor.visible && cursor.row === row && cursor.col > box.left && cursor.col < box.right;
    // (Text not from its first cell is a label in a box, unless the cursor is in it:
    // gemini's " Search to filter" placeholder.)
    if (inner.length < 8 || (/^\s+\S/.test(inner) && !here) || (box.title && !here)) continue;
    view.use(box.top, box.left, box.right - box.left + 1, 3);
    const beside = /([A-Za-z][\w.'-]*(?: [\w.'-]+){0,3}):\s*[│┃║]?$/.exec(
      view.text(row, Math.max(0, box.left - 30), box.left + 1),
    );
    const label = beside ? beside[1]! : labelAbove(view, boxes, box.top, box.left, box.right + 1);
    const value =
      here && placeholder(view, box.left + 1, box.right)
        ? ""
        : view
            .text(row, box.left + 1, box.right)
            .replace(/\s*[│┃║]?\s*[↓▼]\s*$/, "")
            .trim();
    found.push({
      kind: "input",
      row,
      col: box.left + 1,
      width: box.right - box.left - 1,
      height: 1,
      ...(label ? { label } : {}),
      value,
      cursor: here,
    });
  }
  // A field drawn as a run of its own colour in a box, after its label on its row (hte's "from ofs  [          ]" on
  // blue in a grey dialog), the cursor elsewhere: the box's colour on both sides of it. A mark "v" at its end opens a
  // list: no part of the value.
  for (const box of boxes) {
    for (let row = box.top + 1; row < box.bottom; row++) {
      const boxBg = view.background(row, box.left + 1);
      let col = box.left + 1;
      while (col < box.right) {
        const bg = view.background(row, col);
        if (bg === boxBg) {
          col++;
          continue;
        }
        let end = col;
        while (end < box.right && view.background(row, end) === bg) end++;
        const start = col;
        col = end;
        const before = view.text(row, box.left + 1, start);
        const label = /^\s*([A-Za-z][\w.'-]*(?: [\w.'-]+){0,2}):?( {1,4})$/.exec(before);
        // (Not a list's lit row, its neighbours' text at its column on the box's colour: dialog's "tue  Tuesday".)
        const listed = [row - 1, row + 1].some(
          (r) => r > box.top && r < box.bottom && /\S/.test(view.char(r, start)) && view.background(r, start) === boxBg,
        );
        const here = cursor.visible && cursor.row === row && cursor.col >= start && cursor.col < end;
        if (
          !label ||
          listed ||
          here ||
          end - start < 5 ||
          view.background(row, end) !== boxBg ||
          !view.free(row, start, end) ||
          !view.free(row, box.left + 1, start) ||
          /[│┃║─━═]/.test(view.text(row, start, end))
        )
          continue;
        view.use(row, box.left + 1, end - box.left - 1);
        found.push({
          kind: "input",
          row,
          col: start,
          width: end - start,
          height: 1,
          label: label[1]!,
          value: view
            .text(row, start, end)
            .replace(/\s+v\s*$/, "")
            .trim(),
          cursor: false,
        });
      }
    }
  }
  // A one-row box, untitled, holding only a placeholder (claude's and qwen's "⌕ Search…"): a search field.
  for (const box of boxes) {
    if (!placeholderBox(view, box) || !view.free(box.top + 1, box.left + 1, box.right)) continue;
    const row = box.top + 1;
    view.use(box.top, box.left, box.right - box.left + 1, 3);
    found.push({
      kind: "input",
      row,
      col: box.left + 1,
      width: box.right - box.left - 1,
      height: 1,
      value: "",
      cursor: cursor.visible && cursor.row === row,
    });
  }
  // Boxed buttons side by side: the focused one is told as any row of buttons' is (newt's; finch's are alike).
  const boxed = found.filter((e) => e.kind === "button");
  for (const row of new Set(boxed.map((b) => b.row))) {
    const siblings = boxed.filter((b) => b.row === row);
    if (siblings.length >= 2) markFocused(view, siblings);
  }
  const placeholderField = !cursor.visible && !view.grid.ended ? placeholderAnswer(view) : undefined;
  if (cursor.visible && !found.some((e) => e.cursor)) found.push(...cursorInput(view, boxes));
  else if (placeholderField) found.push(placeholderField);
  // A prompt library that hides the cursor and echoes nothing (a password) still asks on the cursor's row.
  // (Not a select's question: the rows under it hold its choices.)
  // (Nor over choices found already further down: enquirer's scale, its legend between.)
  else if (
    !cursor.visible &&
    !view.grid.ended &&
    !/^\s*[^\s\p{L}\p{N}]|^\s*\S+\s*$/u.test(view.flat[view.grid.cursor.row + 1] ?? "") &&
    !(view.flat[view.grid.cursor.row + 1]?.trim() && view.free(view.grid.cursor.row + 1, 0, view.cols)) &&
    !choicesBelow(view, view.grid.cursor.row)
  ) {
    found.push(...askedInput(view, view.grid.cursor.row, view.grid.cursor.col, 0));
  }
  // A form's rows, "Label: value" two or more in a column (urwid's "Name: Ada" over "Email:", alpine's
  // "To      :" over "Cc      :"), one of them empty or holding the cursor: each row is a field, to
  // its frame's inner edge (or the row's end).
  const formRow = (row: number) => {
    // (The innermost frame around the row's first word: a form's own box inside the dialog's.)
    const box = boxAround(boxes, row, view.flat[row]!.search(/[^\s│┃║]/));
    const [from, to] = box ? [box.left + 1, box.right] : [0, view.cols];
    const m = /^(\s*)([A-Z][A-Za-z'.-]*(?: [A-Za-z'.-]+){0,2}) *:(?: +(\S.*?))?\s*$/.exec(view.text(row, from, to));
    return m && !/:\s/.test(m[3] ?? "")
      ? {
          row,
          from,
          to,
          col: from + m[1]!.length,
          colon: from + m[0].indexOf(":"),
          padded: / :/.test(m[0]),
          boxed: !!box,
          label: m[2]!,
          value: m[3] ?? "",
        }
      : undefined;
  };
  for (let row = 0; row < view.rows; row++) {
    const rows: NonNullable<ReturnType<typeof formRow>>[] = [];
    for (
      let r = row, f = formRow(r);
      f && (!rows.length || f.col === rows[0]!.col);
      f = ++r < view.rows ? formRow(r) : undefined
    )
      rows.push(f);
    // (In a frame, or with the colons lined up by padding: not a line-mode program's answered prompts.)
    const laidOut =
      rows.every((f) => f.boxed) || (rows.every((f) => f.colon === rows[0]!.colon) && rows.some((f) => f.padded));
    if (rows.length >= 2 && laidOut && rows.some((f) => !f.value || (cursor.visible && cursor.row === f.row))) {
      // Where the others are fields on their own background (dialog --mixedform), a value on the
      // label's background is read-only ("Read only: fixed"), not a field; an empty one is a field.
      const drawn = rows.some((f) => !view.free(f.row, f.col, f.to));
      const readOnly = (f: (typeof rows)[number]) =>
        drawn &&
        f.value !== "" &&
        view.background(f.row, view.flat[f.row]!.indexOf(f.value, f.colon)) === view.background(f.row, f.col);
      for (const f of rows) {
        if (!view.free(f.row, f.col, f.to) || readOnly(f)) continue;
        view.use(f.row, f.col, f.to - f.col);
        found.push({
          kind: "input",
          row: f.row,
          col: f.col,
          width: f.to - f.col,
          height: 1,
          label: f.label,
          value: f.value,
          cursor: cursor.visible && cursor.row === f.row,
        });
      }
    }
    row += Math.max(0, rows.length - 1);
  }
  // A shell's prompt, the last of the output with nothing typed after it, while the cursor is in
  // something drawn over the shell (tmux's prompt or its confirm): where the shell takes input next.
  if (view.cursor.visible) {
    let last = view.cursor.row - 1;
    while (last >= 0 && !view.flat[last]!.trim()) last--;
    if (
      last >= 0 &&
      last < view.cursor.row - 1 &&
      /^\S*[@:]\S*[#$%] ?$/.test(`${view.flat[last]!.trimEnd()} `) &&
      view.free(last, 0, view.cols)
    ) {
      view.use(last, 0, view.cols);
      found.push({ kind: "input", row: last, col: 0, width: view.cols, height: 1, value: "", cursor: false });
    }
  }
  // The cursor parked elsewhere (prompts' autocomplete, under its list): a question with an answer typed after its "›".
  if (!found.some((e) => e.cursor)) {
    for (let row = 0; row < view.rows; row++) {
      // (Or typed right after the question, a filter over its choices: inquirer's checkbox-plus "? Pick fruit ap".)
      if (!(/^\s*[?✔] \S.*? › \S/.test(view.flat[row]!) || filterTyped(view, row)) || !view.free(row, 0, view.cols))
        continue;
      const [asked] = askedInput(view, row, view.flat[row]!.trimEnd().length, 0);
      if (!asked) continue;
      if (asked.value) found.push({ ...asked, cursor: false });
      else view.used.fill(0, row * view.cols, (row + 1) * view.cols);
    }
  }
  // A shell prompt with nothing typed yet, the cursor elsewhere (mc's command line under a dialog).
  for (let row = view.rows - 1; row >= Math.max(0, view.rows - 3); row--) {
    const match = /^(\S{0,40}[$#%])\s*$/.exec(view.flat[row]!.replace(DROP_DOWN, ""));
    if (!match || !view.free(row, 0, view.cols)) continue;
    view.use(row, 0, view.cols);
    found.push({ kind: "input", row, col: 0, width: view.cols, height: 1, value: "", cursor: false });
    break;
  }
  return found;
}

/**
 * The hidden cursor right after a dim placeholder alone on its row, under the question it answers from the same column
 * (create-astro's "Where should we create your new project?" over a dim "./red-radiation", its cursor hidden at the
 * placeholder's end): an input labelled by the question, nothing typed. Undefined (nothing taken) otherwise.
 */
function placeholderAnswer(view: View): Found | undefined {
  const { row, col } = view.grid.cursor;
  if (row < 1) return undefined;
  const line = view.flat[row]!;
  const start = line.search(/\S/);
  if (start < 0 || line.trimEnd().length !== col || !view.free(row, start, view.cols)) return undefined;
  for (let c = start; c < col; c++) if (view.char(row, c) !== " " && !view.has(row, c, CellFlag.dim)) return undefined;
  const asked = /^\S[^?]*\?/.exec(view.text(row - 1, start, view.cols));
  if (!asked || view.char(row - 1, start - 1) !== " " || !view.free(row - 1, start, start + asked[0].length))
    return undefined;
  view.use(row - 1, start, asked[0].length);
  view.use(row, start, view.cols - start);
  return {
    kind: "input",
    row,
    col: start,
    width: view.cols - start,
    height: 1,
    label: clean(asked[0]),
    value: "",
    cursor: true,
  };
}

/**
 * A filter typed right after a prompt library's bold question, in the row's plain ink ("? Pick
 * fruit ap"): a few words, no hint in brackets, the question's "?" in the first column.
 */
function filterTyped(view: View, row: number): boolean {
  if (!/^\? \S/.test(view.flat[row]!)) return false;
  // (A question asked under it makes it answered: plop's "? Component name Cart" over "? Component kind widget".)
  if (view.flat.slice(row + 1).some((line) => /^\? \S/.test(line))) return false;
  const bold = (col: number) => view.has(row, col, CellFlag.bold);
  let end = 2;
  while (end < view.cols && (bold(end) || (view.char(row, end) === " " && bold(end + 1)))) end++;
  const after = view.text(row, end, view.cols).trim();
  const at = view.flat[row]!.indexOf(after, end);
  const plain = (col: number) =>
    view.ink(row, col) === view.ink(row, view.cols - 1) && !bold(col) && !view.has(row, col, CellFlag.dim);
  return (
    end > 2 &&
    /^[^()<>[\]…›»]{1,30}$/.test(after) &&
    Array.from({ length: after.length }, (_, i) => at + i).every(plain)
  );
}

/** Radios or checkboxes found already within a few rows under ROW. */
function choicesBelow(view: View, row: number): boolean {
  for (let r = row + 1; r < Math.min(view.rows, row + 10); r++)
    if (/[◯○◉●◎◻◼☐☑☒⬡⬢]/.test(view.flat[r]!) && !view.free(r, 0, view.cols)) return true;
  return false;
}

/**
 * A one-row box, untitled, whose row holds only a few words all drawn dim or in a grey of their own
 * (a placeholder: "⌕ Search…"), the cursor not in it: a field, not a dialog.
 */
export function placeholderBox(view: View, box: Box): boolean {
  if (box.bottom - box.top !== 2 || box.title) return false;
  const row = box.top + 1;
  const text = view.text(row, box.left + 1, box.right);
  const first = text.search(/\S/);
  if (first < 0 || first > 2 || text.trim().split(/\s+/).length > 4 || (view.cursor.visible && view.cursor.row === row))
    return false;
  const at = box.left + 1 + first;
  return (
    view.has(row, at, CellFlag.dim) ||
    (view.char(row, box.right - 1) === " " &&
      view.ink(row, at) !== view.ink(row, box.right - 1) &&
      !view.has(row, at, CellFlag.bold) &&
      /…$|\.\.\.$/.test(text.trim()))
  );
}

/**
 * A question's words, then a remark in parentheses ending in the colon the cursor follows: the whole is the prompt
 * (cryptsetup's "Are you sure? (Type 'yes' in capital letters): "), not a question and a value.
 */
const REMARKED_PROMPT = /^(.*?\S.*?[?:] \([^)]*\):)(?=\s)/;

/**
 * A question whose last words are a name it quotes, right before its "?" (tar -w's "extract ‘a.txt’?", swipl's
 * "Correct to: \"save_depth(42)\"?"): without a tool's name before it ("rm: remove … 'a'?") it reads a line, an input.
 */
const QUOTED_LAST = /(?:‘[^’]+’|"[^"]+"|'[^']+')\?$/;

/** A question asking for a thing, not a yes or no: it opens with "which", "what", "who" … (after a tool's name). */
const ASKS_WHICH = /^(?:[\w.-]+: )?(?:which|what|who|whom|whose|where|when|how)\b/i;
/** A `QUOTED_LAST` question of two words or more at the row's start, then what is typed after it. */
const QUOTED_ASK = /^\s*(\S+ (?:\S+ )*?\S*(?:‘[^’]+’|"[^"]+"|'[^']+')\?)(.*)$/;

/** What stands right of a field's cursor past three blanks or more, wholly in parentheses: a hint, not the value. */
const HINT_RIGHT = /^\s{3,}\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$/;

/** A history or drop-down button at a field's right end ("[^]", "[v]", "[↓]"): not the field's value. */
const DROP_DOWN = /\s{2,}\[[^\w\s]\]\s*$/;

/** A filter line: "/", a blank, what is typed, then a count of matches ("1/26") maybe, right-aligned. */
const FILTER_LINE = /^\/ ?(\S*(?: \S+)*)\s*?(\s{2,}\d+\/\d+)?\s*$/;

function cursorInput(view: View, boxes: Box[]): Found[] {
  const { cursor } = view;
  const row = cursor.row;
  if (!view.free(row, cursor.col, cursor.col + 1)) return [];
  // vim's mode on its last row ("-- INSERT --", "-- File name completion … match 1 of 3"): the cursor
  // is in the text being edited, and "buy: " before it is the text's, no prompt.
  if (row < view.rows - 1 && /^-- [A-Z][\w ()^-]*?(?: --|\bmatch \d+ of \d+|\s*$)/.test(view.flat[view.rows - 1]!))
    return [];
  // The cursor on a drop-down's highlighted row (jed's), its neighbours alike: a list's selection, not a field.
  const box = boxAround(boxes, row, cursor.col);
  if (box && row > box.top + 1 && row < box.bottom - 1) {
    // (Told by the whole row, or where the cursor is: menuconfig's bar covers only the item's text.)
    const lone = (bg: (r: number) => string) => bg(row) !== bg(row - 1) && bg(row - 1) === bg(row + 1);
    // (Neighbours that are items: not a rule under the field, mc's "├───┤" under its "Command" field.)
    const item = (r: number) => /[^\s─━═├┤]/.test(view.text(r, box.left + 1, box.right));
    const listed = item(row - 1) && item(row + 1);
    if (
      listed &&
      (lone((r) => view.spanBackground(r, box.left + 1, box.right)) || lone((r) => view.background(r, cursor.col + 1)))
    )
      return [];
  }
  // whiptail: a field drawn on its own background around the cursor (blanks shown as "_").
  const bg = view.background(row, cursor.col);
  let start = cursor.col;
  let end = cursor.col + 1;
  while (start > 0 && view.background(row, start - 1) === bg && !VERTICAL.includes(view.char(row, start - 1))) start--;
  while (end < view.cols && view.background(row, end) === bg && !VERTICAL.includes(view.char(row, end))) end++;
  const outside = [view.background(row, start - 1), view.background(row, end)].filter((_, i) =>
    i === 0 ? start > 0 : end < view.cols,
  );
  const prompted = /\S:\s/.test(view.text(row, start, cursor.col));
  // (Not words in reverse video filling their run, the cursor on its first cell: a highlighted item the cursor marks,
  // ccmake's "EMPTY CACHE"; a field has room left after its value.)
  const item =
    bg.startsWith("i") && cursor.col === start && /^\S(?:.*\S)?$/.test(view.text(row, start, end)) && end < view.cols;
  if (
    !item &&
    bg !== "0" &&
    end - start >= 5 &&
    end - start < view.cols * 0.9 &&
    !prompted &&
    outside.length &&
    outside.every((b) => b !== bg)
  ) {
    const value = placeholder(view, start, end)
      ? ""
      : view
          .text(row, start, end)
          .replace(/_+\s*$/, "")
          .trim();
    view.use(row, start, end - start);
    // Its prompt before it on its row (mc's "cd [docs    ]"), else the text above it.
    const outer = boxAround(boxes, row, start);
    const before = clean(view.text(row, outer ? outer.left + 1 : 0, start)).replace(/:$/, "");
    const label =
      /\p{L}/u.test(before) && before.length <= 30 && view.free(row, start - before.length - 1, start)
        ? before
        : labelAbove(view, boxes, row, start, end);
    if (label === before) view.use(row, start - before.length - 1, before.length + 1);
    return [
      {
        kind: "input",
        row,
        col: start,
        width: end - start,
        height: 1,
        ...(label ? { label } : {}),
        value,
        cursor: true,
      },
    ];
  }
  // The prompt starts after what the row already holds (htop's key hints before its "Search:").
  let from = cursor.col;
  while (from > 0 && view.free(row, from - 1, from)) from--;
  // (Blanks before the prompt, inside a frame: fzf's "│ > ht".)
  while (from < cursor.col && view.char(row, from) === " ") from++;
  // (And a prompt library's gutter: clack's "│  Search: f█".)
  if (
    /[│┃]/.test(view.char(row, from)) &&
    view.char(row, from + 1) === " " &&
    !boxAround(boxes, row, from + 1) &&
    /[│┃]/.test(view.char(row - 1, from))
  ) {
    from++;
    while (from < cursor.col && view.char(row, from) === " ") from++;
  }
  // (A line mark in brackets opening the row is the program's, not the prompt's: znc's "[ ?? ] Listen on port:".)
  const mark = from === 0 ? LINE_MARK.exec(view.chars[row]!.slice(0, cursor.col).join("")) : null;
  if (mark) from = mark[0].length;
  const line = view.text(row, from, view.cols);
  const before = view.chars[row]!.slice(from, cursor.col).join("");
  if (from === 0 && pendingChoice(view, row)) return [];
  const under = view.text(row, 0, from).trim() === "" ? askedAbove(view, row, cursor.col) : undefined;
  if (under) return [under];
  const asked = askedInput(view, row, cursor.col, from);
  if (asked.length) return asked;
  const wrapped = from === 0 ? valueWrapped(view, row, before) : undefined;
  if (wrapped) return [wrapped];
  // A prompt: text ending in ":", ">", "?", "$", "#" or "❯" before the cursor on its row.
  // vim's and less's command lines: ":", "/" or "?" alone in the first column of the last row.
  const inverse = view.has(row, 0, CellFlag.inverse);
  const commandLine = row === view.rows - 1 && !inverse && from === 0 ? /^([:/?])(?=\S)/.exec(before) : null;
  // A debugger's "(Pdb) ", "(gdb) ": the program's name in parentheses is the prompt.
  const named = /^\s*\([\w-]{1,12}\)\s/.exec(before);
  // A REPL's continuation prompt ("... "): a marker, and the indent after it is part of what is typed.
  const continued = /^\.\.\. /.exec(before);
  if (continued && from === 0) {
    view.use(row, 0, view.cols);
    return [
      {
        kind: "input",
        row,
        col: 0,
        width: view.cols,
        height: 1,
        label: "",
        value: line.slice(4).trimEnd(),
        cursor: true,
      },
    ];
  }
  // A question on its own row right over the cursor's, answered on the row under it (a2enmod's "Which module(s) do you
  // want to enable (wildcards ok)?" over the cursor at column 0): one input of both rows, labelled with it, what is
  // typed under it its value.
  const askedRight = askedRightAbove(view, row, from);
  if (askedRight) return [askedRight];
  // No prompt at all (bc): the cursor alone at the start of an empty row under the program's output, nothing below.
  // (Not under a question, which is answered with a key: terminal-kit's "[Y|n]".)
  if (
    cursor.col === 0 &&
    !line.trim() &&
    row > 0 &&
    view.flat[row - 1]!.trim() &&
    view.free(row - 1, 0, view.cols) &&
    view.flat.slice(row + 1).every((l) => !l.trim())
  ) {
    view.use(row, 0, view.cols);
    return [{ kind: "input", row, col: 0, width: view.cols, height: 1, value: "", cursor: true }];
  }
  // Or under a question ending in "?" and one blank row (maxima's "Is a equal to - 1?"): labelled with it. (Not one
  // listing its answers, "Is k positive, negative or zero?": those are a question's items.) What is typed there is
  // its value ("no;"), no prompt's mark in it.
  const typedOver = view.flat[row]!.slice(0, cursor.col);
  const askedOver =
    from === 0 && row > 1 && !/[:?>$#]\s/.test(typedOver) && !view.flat[row]!.slice(cursor.col).trim()
      ? view.flat[row - 2]!.trim()
      : "";
  if (
    /^\p{L}.{0,78}\?$/u.test(askedOver) &&
    !/, [\p{L}-]+,? or [\p{L}-]+\?$/u.test(askedOver) &&
    !view.flat[row - 1]!.trim() &&
    view.free(row - 2, 0, view.cols) &&
    view.flat.slice(row + 1).every((l) => !l.trim())
  ) {
    view.use(row - 2, 0, view.cols);
    view.use(row, 0, view.cols);
    const value = typedOver.trim();
    return [{ kind: "input", row, col: 0, width: view.cols, height: 1, label: clean(askedOver), value, cursor: true }];
  }
  // A line ending in a key in brackets, or none ("[]"), the cursor one blank after it, nothing below: a sync tool's
  // change awaiting its key, the bracket its default action (unison's "file  <-?-> file  tides.txt  []", "file  ---->
  // buoys.txt  [f]"), or a question's "?" and empty brackets (unison's "Proceed with propagating updates? []"). A
  // question whose keys the screen does not list, unlabelled but for that question: no field to type words into.
  // (A key after a "?", patch's "Assume -R? [n]", and a bracket before a ":" read a line: inputs.)
  const awaited = KEY_AWAITED.exec(before);
  if (
    awaited &&
    !/[:>]$/.test(awaited[2]!) &&
    (!awaited[2]!.endsWith("?") || awaited[3] === "") &&
    !line.slice(cursor.col - from).trim() &&
    view.flat.slice(row + 1).every((l) => !l.trim())
  ) {
    const [col, width] = [from + awaited[1]!.length, awaited[0].trimEnd().length - awaited[1]!.length];
    view.use(row, col, width);
    const label = awaited[2]!.endsWith("?") ? { label: clean(awaited[2]!) } : {};
    return [{ kind: "question", row, col, width, height: 1, ...label, items: [] }];
  }
  // A progress bar's row ("███░░ 56% | ETA: 1s"), the cursor parked after it: no prompt.
  if (/[█░▓▒■━#=]{5}/.test(view.flat[row]!.slice(0, from))) return [];
  // irssi's "[(status)] ": a bracketed name at the row's start is a marker; openssl's
  // "Name (full name) [Some-State]:Noord": a default in brackets, then the colon, then what is typed.
  // (Not a tag before a prompt's words ending in its ":" or "?", the cursor right after: sudo's "[sudo] password for
  // ada: " is one prompt.)
  const bracketed = /^\[[^\]\s][^\]]{0,20}\] (?![^:?]*\p{L}[:?] ?$)/u.exec(before);
  // A prompt's last mark alone at the row's start, the row above full: the terminal wrapped it there (composer's
  // "… interactively [yes]" over "? no").
  const wrappedMark =
    from === 0 && row > 0 && view.flat[row - 1]!.trimEnd().length >= view.cols - 1 && view.free(row - 1, 0, view.cols)
      ? /^([:?])\s/.exec(before)
      : null;
  // A question ending in the name it quotes, no tool named before it (`QUOTED_LAST`), reads a line: an input labelled
  // with the whole question, what is typed after its "?" (with or without a blank) the value.
  const quotedAsk = from === 0 && !commandLine && !/[>$#❯›]\s/.test(before) ? QUOTED_ASK.exec(before) : null;
  if (
    quotedAsk &&
    !/^\s*[\w.-]+: /.test(quotedAsk[1]!) &&
    !BRACKETED_DEFAULT.test(quotedAsk[1]!) &&
    !line.slice(cursor.col - from).trim()
  ) {
    view.use(row, 0, view.cols);
    const [label, typedThere] = [clean(quotedAsk[1]!), quotedAsk[2]!.trim()];
    return [{ kind: "input", row, col: 0, width: view.cols, height: 1, label, value: typedThere, cursor: true }];
  }
  // A palette's filter line: "/" opening a box's first row, the cursor after it and what is typed, a count of the
  // matches maybe at the row's end (`FILTER_LINE`: mprocs's "Commands" box, "/" over its list, "1/26" at the right).
  const palette = boxAround(boxes, row, from);
  const filter =
    palette && row === palette.top + 1 && from === palette.left + 1
      ? FILTER_LINE.exec(view.text(row, from, palette.right))
      : null;
  if (filter && cursor.col >= from + 1 && cursor.col <= from + filter[0].trimEnd().length + 1) {
    // (To the count, a blank before it; else to the frame.)
    const width = filter[2] ? filter[0].lastIndexOf(filter[2].trim()) - 1 : palette!.right - from;
    view.use(row, from, palette!.right - from);
    return [{ kind: "input", row, col: from, width, height: 1, value: filter[1]!.trim(), cursor: true }];
  }
  // (A lone ":" or "?" at the row's start, nothing typed, is a REPL's mark as it is with a line typed: gp's "? ".)
  const loneMark =
    from === 0 && !commandLine && !wrappedMark && /^[:?] ?$/.test(before) && !line.slice(cursor.col - from).trim();
  let found = loneMark
    ? null
    : (commandLine ??
      named ??
      bracketed ??
      wrappedMark ??
      REMARKED_PROMPT.exec(before) ??
      /^(.*?[^\s].*?(?:[:?$#❯›]|(?<!<[\w-]{1,10})>)|[>❯›$#])\s/.exec(before) ??
      ASKS_ON.exec(before) ??
      /^(.*[:?>$#❯›])\s*$/.exec(before) ??
      /^(.*?\S.*?\]:)(?=\S)/.exec(before));
  // A lowercase word and its colon opening the row, before words that end in their own colon, is the library's tag,
  // no prompt of its own (`TAG_BEFORE_PROMPT`: flatiron prompt's "prompt: Station name:  (Harbour)"): the prompt is
  // the words after it, what follows their colon typed.
  const tag = !commandLine && !named && !bracketed && from === 0 ? TAG_BEFORE_PROMPT.exec(before) : null;
  const tagged = tag && found && found[0].trimEnd() === tag[1] ? TAGGED_WORDS.exec(before.slice(tag[0].length)) : null;
  if (tag && tagged) {
    tagged[0] = tag[0] + tagged[0];
    found = tagged;
  }
  // (A lone "?" after a ">" found as the mark is the prompt's own last mark, not what was typed: find -ok's
  // "< rm … > ? ". After a "?" it is typed: visudo's "What now? ?" asks for its options.)
  const lone =
    found && !commandLine && !named && !bracketed && /> ?$/.test(found[0])
      ? LONE_ASK.exec(before.slice(found[0].length))
      : null;
  const match = lone ? LONE_ASK_PROMPT.exec(before) : outsideParens(before, found);
  if (!match) {
    // A prompt that is only a mark (`MARK_ONLY`: swipl's "?-", maxima's "(%i1)", sdiff's "%") at the first column, the
    // cursor after it (a line typed maybe, no prompt's words: no mark of one in it), nothing below: a REPL's line.
    // (After a lone ":" or "?" words with blanks are a prompt's: inquirer's "? Package name", jove's ": find-file
    // (default notes.txt)"; one word is typed, jove's ": write-fi".)
    // (Or a REPL's continuation prompt, its name and "|", the row above opening with the same name and ">" or "|":
    // ghci's "ghci| " under "ghci> :{".)
    const continued = from === 0 && row > 0 ? CONTINUATION.exec(before) : null;
    const continuation =
      continued && new RegExp(`^${escapeRegExp(continued[1]!)}[>|] `).test(view.flat[row - 1]!) ? continued : null;
    const mark = from === 0 ? (MARK_ONLY.exec(before) ?? continuation) : null;
    const typed = mark ? before.slice(mark[0].length) : "";
    if (
      mark &&
      !/[:?>]\s/.test(`${typed} `) &&
      !(/^[:?] $/.test(mark[0]) && /\S\s+\S/.test(typed) && !CODE_TYPED.test(typed)) &&
      !line.slice(cursor.col - from).trim() &&
      view.flat.slice(row + 1).every((l) => !l.trim())
    ) {
      view.use(row, 0, view.cols);
      // (A command line's mark under a bar that names it, lnav's "/" under " Search for:": labelled so.)
      const label = row === view.rows - 1 && /^[:/?] ?$/.test(mark[0]) ? barLabel(view, row) : "";
      return [{ kind: "input", row, col: 0, width: view.cols, height: 1, label, value: typed.trim(), cursor: true }];
    }
  }
  if (!match || /[│┃║]/.test(match[0])) return answerUnder(view, row, from, before);
  // The default a prompt offers in brackets after its "?" ("Assume -R? [n] ", "journal ? [y]: ") is part of the
  // prompt: what is typed comes after it.
  const offered = commandLine || named || bracketed ? null : DEFAULT_AFTER_PROMPT.exec(before.slice(match[0].length));
  // A marker after the prompt's colon, what is typed after it, is the prompt's own (certutil's "Enter the path length
  // constraint, enter to skip [<0 for unlimited path]: > 1"; the label drops it, as a ">" ending a prompt's words).
  const marked =
    commandLine || named || bracketed || offered || !/[:?]\s$/.test(match[0])
      ? null
      : MARK_AFTER_PROMPT.exec(before.slice(match[0].length));
  const promptEnd = match[0].length + (offered?.[0].length ?? 0) + (marked?.[0].length ?? 0);
  const labelText = commandLine
    ? barLabel(view, row) || commandLine[1]!
    : named || bracketed
      ? ""
      : clean(offered ? `${match[1]!} ${offered[0]}` : match[1]!)
          // (A prompt's words before its mark, jest's "pattern ›": the mark is no part of them.)
          .replace(/:$|(?<=\w)>$|(?<=\w)\s+[›❯]$|(?<=^\[[^\]]{1,40}\])>$/, "")
          .replace(LEAD_BULLET, "");
  // A default alone before the answer, its question on the row above (keytool's "What is your first and last
  // name?" over "  [Unknown]:  Ada"): the question and its default are the label.
  const question = BRACKETS_ONLY.test(labelText) ? questionAbove(view, row) : "";
  // A marker alone under a prompt's words ending in ":" on the row above, nothing after them (checkinstall's "Enter
  // new version:" over ">>"): those words are the label.
  const asking = !question && from === 0 && MARKER_ONLY_LABEL.test(labelText) ? promptAbove(view, row) : "";
  // The prompt on the row above asked again with a remark in parentheses after its mark (ccrypt's "Enter encryption
  // key:" over "Enter encryption key: (repeat)"): the remark names this one apart, part of its label, no default.
  const remark = /^\s*\([^)]*\)\s*$/.exec(before.slice(promptEnd));
  const repeated =
    !question && !asking && remark && row > 0 && labelText && view.flat[row - 1]!.trim() === match[0].trim()
      ? clean(before).replace(/:$/, "")
      : "";
  const first = from + before.length - before.trimStart().length;
  // npm's and readline's "name: (proj) ": a default in parentheses, the cursor after it, is no value
  // (nor part of what is typed after it: gpg's "What keysize do you want? (3072) 40").
  // (The cursor a program draws, "█", is not typed; nor a dim count after it: clack's "f█ (1 match)".)
  const drawn = view.char(row, cursor.col) === "█" && !view.grid.cursor.visible;
  const hint = /\s+\([^)]*\)\s*$/.exec(line);
  const shown = drawn ? line.slice(0, cursor.col - from) + line.slice(cursor.col - from + 1) : line;
  // (Nor a remark in parentheses three blanks or more right of the cursor: kpcli's "Password:" then, far right, '("g"
  // or "w" to auto-generate, "i" for interactive)'. An unechoed field shows nothing typed: `HINT_RIGHT`.)
  // (Nor an argument hint drawn faint after what is typed: redis-cli's "HSET station:pier" then, grey, "field value
  // [field value ...]". `argumentHint`.)
  const typed =
    drawn && hint && view.spanStyle(row, from + hint.index + 1, view.cols).startsWith(`${CellFlag.dim}/`)
      ? shown.slice(0, hint.index - 1)
      : HINT_RIGHT.test(line.slice(cursor.col - from)) || argumentHint(view, row, from + promptEnd)
        ? shown.slice(0, cursor.col - from)
        : shown;
  // (Not after a REPL's ">": clisp's "[1]> (+ 1 2)" is code typed, a form in parentheses, no default.)
  const offersDefault = !/>\s*$/.test(match[0]);
  // That default is the input's `default` (npm's "(proj)", gpg's "(3072)"); not a remark naming this prompt apart
  // (ccrypt's "(repeat)", part of its label), nor one of several words (a hint).
  const offered_ =
    offersDefault && !repeated
      ? OFFERED_AFTER.exec(line.slice(promptEnd, Math.max(promptEnd, cursor.col - from + 1)))
      : null;
  const value =
    placeholder(view, from + promptEnd, view.cols) ||
    (offersDefault && /^\s*\([^)]*\)\s*$/.test(line.slice(promptEnd, cursor.col - from + 1)))
      ? ""
      : typed
          .slice(promptEnd)
          .replace(DROP_DOWN, "")
          .replace(/\s*[│┃║]\s*$/, "")
          .replace(offersDefault ? /^\s*\([^)]*\) (?=\S)/ : /^$/, "")
          .trimEnd();
  // A question's own prompt (Continue? [Y/n]) is a question, not an input.
  if (/[[(][yY]\/[nN][\])]|\[[yn],/.test(line)) return [];
  // "rm: remove regular file 'notes.txt'? ": a question of several words, nothing typed yet, asks for a yes or no.
  const asked_ = /^(\s*)(\S+(?: \S+)+\?)\s*$/.exec(before);
  // (Not under a list of options it picks from: gpg's "Your selection?" is their input.)
  const picks = row > 0 && !view.free(row - 1, 0, view.cols) && /^\s*[([]?\d{1,3}[)\].:]/.test(view.flat[row - 1]!);
  // (A tool's "rm: …?", about something it names or with keys to type; git's "search for regex? " asks for text.)
  // (Not a default in brackets right before the "?": composer's "Do you confirm generation [yes]?" reads a line.)
  // (Nor a question that ends in the name it quotes, no tool named before it: tar -w's "extract ‘a.txt’?" reads a
  // line, "y" or "n" typed and Enter: `QUOTED_LAST`.)
  // (Nor one asking which, what, who …: ikiwiki's "Which user (wiki account, openid, or email) will be admin?" reads a
  // name, whatever its parentheses hold. `ASKS_WHICH`.)
  const yesNo =
    asked_ &&
    !BRACKETED_DEFAULT.test(asked_[2]!) &&
    !ASKS_WHICH.test(asked_[2]!) &&
    (/^\s*[\w.-]+: /.test(asked_[2]!) || (/[(['"‘]/.test(asked_[2]!) && !QUOTED_LAST.test(asked_[2]!)));
  // (Nor code typed after a REPL's or shell's prompt, irb's "irb(main):001:0> File.exist?": its "?" is the code's.)
  const typedAfterMark = /[>$#❯›]\s$/.test(match[0]);
  if (asked_ && yesNo && !commandLine && !picks && !typedAfterMark && !line.slice(cursor.col - from).trim()) {
    const [q, first_] = [asked_[2]!, from + asked_[1]!.length];
    view.use(row, first_, q.length);
    return [{ kind: "question", row, col: first_, width: q.length, height: 1, label: q, items: [] }];
  }
  // The field runs to the end of the row, or to a status the program keeps at its right end, far
  // past the cursor (peco's "IgnoreCase [2 (1/1)]", kakoune's "notes.txt 1:1  prompt").
  // (Up to the frame of a box the field is in: sngrep's "Filename:   …   .pcap  │", what shows beyond it aside.)
  const frame = boxAround(boxes, row, cursor.col)?.right ?? view.cols;
  const right = /\S(?: ?\S)*(?:\s{2}\S(?: ?\S)*)*\s{0,2}$/.exec(view.text(row, cursor.col + 8, frame));
  const status =
    right &&
    view.text(row, cursor.col, cursor.col + 8 + right.index).trim() === "" &&
    labelText !== "" &&
    /[\p{L}\p{N}]{3}/u.test(right[0])
      ? cursor.col + 8 + right.index
      : -1;
  // Or to what an element found before holds (fzf's inline "< 8/17 ───" counter).
  let taken = cursor.col;
  while (taken < view.cols && (view.free(row, taken, taken + 1) || /[─━═]/.test(view.char(row, taken)))) taken++;
  const stop = status > 0 ? status : taken;
  view.use(row, first, stop - first);
  if (question || asking) view.use(row - 1, 0, view.cols);
  const input: Found = {
    kind: "input",
    row,
    col: first,
    width: stop - first,
    height: 1,
    label: question ? `${question} ${labelText}` : asking || repeated || labelText,
    value: stop < view.cols ? value.slice(0, stop - first - promptEnd).trim() : value.trim(),
    ...(offered_ ? { default: offered_[1]!.trim() } : {}),
    cursor: true,
  };
  // A prompt too long for its row wraps: it starts on the row above, filled to its end (vim's
  // "Type number and <Enter> or click with the mouse (q or empty" over "cancels): "), what is typed after it
  // (s3cmd's "…[%(bucket)s.s3.am" over "azonaws.com]: %(bucket)s.s3.amazonaws.com").
  const above = row > 0 ? view.flat[row - 1]!.trimEnd() : "";
  // (Only a short rest ending in ":" or "?": a shell's prompt under a long line of output is its own.)
  // (A long rest only: a short one may be a word broken mid-way, s3cmd's "…s3.am" over "azonaws.com]: ".)
  const sentence =
    !WRAPPED_REST.test(before.slice(0, promptEnd)) &&
    SENTENCE_REST.test(before.slice(0, promptEnd)) &&
    !/[.!?:;]$/.test(above);
  if (
    stop === view.cols &&
    first === 0 &&
    !commandLine &&
    (WRAPPED_REST.test(before.slice(0, promptEnd)) || sentence) &&
    above.length >= view.cols - 2 &&
    !/^\s/.test(above) &&
    // (Not an answered prompt that happens to be long: composer's "Package Type (…) []: library" over "License []: ".)
    !ANSWERED_PROMPT.test(above) &&
    view.free(row - 1, 0, view.cols)
  ) {
    view.use(row - 1, 0, view.cols);
    // (A sentence broken at a blank, as textwrap breaks it, keeps that blank.)
    const label = sentence ? `${above} ${labelText}` : joinWrapped(view.cols, above, labelText);
    return [{ ...input, row: row - 1, height: 2, label: clean(label) }];
  }
  // (In a form's frame, what stands right of the field is the form's text: a fixed suffix, sngrep's ".pcap".)
  if (status < 0 || frame < view.cols) return [input];
  const text = view.text(row, status, view.cols).trimEnd();
  view.use(row, status, view.cols - status);
  return [input, { kind: "status", row, col: status, width: text.length, height: 1, text }];
}

/**
 * Code typed at a REPL's lone mark, not a prompt's words: a call, a quote or an assignment (gp's "? write("sum.txt",
 * sum(i=1,100,i))"; inquirer's "? Package name" and jove's ": find-file (default notes.txt)" are words).
 */
const CODE_TYPED = /\w\(|["=]/;

/** A marker standing after a prompt's colon, the answer typed after it: certutil's "…: > ". */
const MARK_AFTER_PROMPT = /^[>›❯] (?=\S|$)|^[>›❯]$/;

/** The rest of a wrapped prompt on the cursor's row: a few words ending in ":" or "?", no shell's mark. */
const WRAPPED_REST = /^[^@~$#%>]{0,20}[:?]\s*$/;

/**
 * Or the rest of a sentence the row above broke off mid-way, opening in lower case, as long as it takes (certbot's
 * "Select the appropriate numbers … or leave input" over "blank to select all options shown (Enter 'c' to cancel):").
 */
const SENTENCE_REST = /^[a-z][^@~$#%>]*[:?]\s*$/;

/** A mark that opens or ends a prompt on the cursor's row (`$ `, `name: `, `> `): the row is its own prompt. */
const PROMPT_MARK = /^[$#>%❯›]|[:?$#>❯›%]\s/;

/**
 * What is typed after a line prompt that filled its row goes on at the next row's start (systemd-firstboot's
 * "‣ Please enter timezone name or number (…, "list" to list options): " over "Europe/Lisbon"): the field is the
 * prompt's row and the cursor's, labelled with the prompt, its value the cursor's row. The row above ends in ":" or
 * "?" at its last column or the one before; the cursor's row holds no prompt of its own.
 */
function valueWrapped(view: View, row: number, before: string): Found | undefined {
  if (row === 0 || !before.trim() || PROMPT_MARK.test(before)) return undefined;
  const above = view.flat[row - 1]!.trimEnd();
  if (above.length < view.cols - 1 || !/^\S/.test(above)) return undefined;
  // The prompt ends the row above, or the value began on it (phpunit's "… default: vendor/autoload.php): t" over
  // "ests/bootstrap.php", the terminal breaking it at the last column): its prompt the first mark outside parentheses.
  // (Or a REPL's line too long for its row, its prompt opening the row above: clisp's "[1]> (with-open-file (s …
  // (qu" over "ote tide-level)) 8) s))", the terminal's break joined as it fell.)
  const repl = REPL_LINE.exec(above);
  if (repl && view.free(row - 1, 0, view.cols) && view.free(row, 0, view.cols)) {
    view.use(row - 1, 0, view.cols, 2);
    const typed = joinWrapped(view.cols, view.flat[row - 1]!, view.text(row, 0, view.cols).trim(), above);
    return {
      kind: "input",
      row: row - 1,
      col: 0,
      width: view.cols,
      height: 2,
      // (Labelled as the prompt is on one row: "[1]", "Break 1 [2]>", "nft"; a debugger's "(qemu)" is a marker.)
      label: repl[1]!
        .replace(/(?<=^\[[^\]]{1,40}\])>$/, "")
        .replace(/^([a-z][\w.-]*)>$/, "$1")
        .replace(/^\(.*\)$/, ""),
      value: typed.slice(repl[0].length).trim(),
      cursor: true,
    };
  }
  const at = /[:?]$/.test(above) ? above.length : valueBegun(above);
  if (at < 0 || ANSWERED_PROMPT.test(above.slice(0, at))) return undefined;
  if (!view.free(row - 1, 0, view.cols) || !view.free(row, 0, view.cols)) return undefined;
  view.use(row - 1, 0, view.cols, 2);
  return {
    kind: "input",
    row: row - 1,
    col: 0,
    width: view.cols,
    height: 2,
    label: clean(above.slice(0, at)).replace(/:$/, "").replace(LEAD_BULLET, ""),
    value: `${above.slice(at + 1)}${view.text(row, 0, view.cols).trim()}`.trim(),
    cursor: true,
  };
}

/**
 * A REPL's prompt opening a row, a bracketed count and ">" (clisp's "[1]> ", "Break 1 [2]> "), or a name, maybe its
 * module in parentheses after "@" and a debugger's level in brackets, and ">" (guile's "scheme@(guile-user)> ",
 * "scheme@(guile-user) [1]> "), or a console's name and ">" (nft's "nft> ", knotc's "knotc> ") or its name in
 * parentheses (qemu's "(qemu) "), code typed after it.
 */
const REPL_LINE =
  /^((?:\w+ \d+ )?\[\d+\]>|[A-Za-z][\w.-]*@\([\w.-]+\)(?: \[\d+\])?>|[a-z][\w.-]{0,15}>|\([a-z][\w.-]{0,15}\)) (?=\S)/;

/**
 * Where a prompt ends on a full row whose value began after it: the first ":" or "?" and a blank outside parentheses,
 * a short value of no blanks after it (up to 40 characters). -1 when none.
 */
function valueBegun(row: string): number {
  const open = (text: string) => (text.match(/\(/g) ?? []).length - (text.match(/\)/g) ?? []).length;
  for (const mark of row.matchAll(/[:?](?= )/g)) {
    const rest = row.slice(mark.index + 2);
    if (open(row.slice(0, mark.index)) === 0) return /^\S{1,40}$/.test(rest) ? mark.index + 1 : -1;
  }
  return -1;
}

/**
 * The answer on the row under its question (clack's "◆  What is your project named?" over "│  shop"):
 * an icon before the question, a gutter of "│" before the answer.
 */
function answerUnder(view: View, row: number, from: number, before: string): Found[] {
  const { cursor } = view;
  const gutter = /^[\s│┃|]*/.exec(before)![0].length;
  // Both drawn by a prompt library: an icon before the question, a rule down the left of the answer
  // (an editor's cursor under "def f():" is not an answer).
  const above = row > 0 ? clean(view.text(row - 1, 0, view.cols)) : "";
  const question =
    /^[^\p{L}\p{N}\s"'(]+ /u.test(above) && /[│┃|]/.test(before.slice(0, gutter)) ? above.replace(/^\S+ +/, "") : "";
  if (question && view.free(row - 1, 0, view.cols)) {
    const first = from + gutter;
    const drawn = view.char(row, cursor.col);
    // The cursor a program draws itself ("_", "█") is not typed.
    const typed = (
      view.text(row, first, cursor.col) +
      (/[_█▌▏]/.test(drawn) ? " " : drawn) +
      view.text(row, cursor.col + 1, view.cols)
    ).trim();
    view.use(row - 1, 0, view.cols);
    view.use(row, first, view.cols - first);
    return [
      {
        kind: "input",
        row,
        col: first,
        width: view.cols - first,
        height: 1,
        label: question.replace(/:$/, ""),
        value: placeholder(view, first, view.cols) ? "" : typed,
        cursor: true,
      },
    ];
  }
  return [];
}

/**
 * A prompt that is only a mark: one to three signs (swipl's "?-", sdiff's "%") or a short word of no blanks in
 * parentheses (maxima's "(%i1)"), or a debugger's thread name and frame number in brackets (jdb's "main[1]"), maybe a
 * blank after it (sdiff's "%" takes its command right after it).
 */
const MARK_ONLY = /^(?:[^\p{L}\p{N}\s()[\]{}]{1,3}|\([^()\s]{1,8}\)|\p{L}[\w-]{0,15}\[\d{1,3}\](?= |$)) ?/u;

/** A REPL's continuation prompt: a name in lower case and "|" (ghci's "ghci| "). */
const CONTINUATION = /^([a-z][\w.-]{0,15})\| ?/;

/**
 * A prompt's mark found inside parentheses left open is the prompt's words, not its end (phpunit's "Bootstrap script
 * (relative to path shown above; default: vendor/autoload.php): "): the first mark after them that closes every
 * parenthesis, a blank or the row's end after it, is. Kept as found when none does.
 */
function outsideParens(before: string, found: RegExpExecArray | null): RegExpExecArray | null {
  // (Brackets too: rspamadm's "Enter your choice (1, 2, 3, 4) [default: 1]:", its default's "default:" no mark.)
  const open = (text: string) => (text.match(/[([]/g) ?? []).length - (text.match(/[)\]]/g) ?? []).length;
  if (!found?.[1] || open(found[1]) <= 0) return found;
  const mark = /[:?>](?=\s|$)/g;
  mark.lastIndex = found[0].length;
  for (let m = mark.exec(before); m; m = mark.exec(before)) {
    const head = before.slice(0, m.index + 1);
    if (open(head) !== 0) continue;
    return new RegExp(`^([\\s\\S]{${head.length}})\\s*`).exec(before);
  }
  // Words whose last parenthesis closes them all, right before the cursor, are the prompt whole, its mark inside them
  // (buku's "buku (? for help) "): nothing typed yet.
  if (/\)\s+$/.test(before) && open(before) === 0) return /^([\s\S]*\))\s+$/.exec(before);
  return found;
}

/** A prompt library's tag, a lowercase word and its colon, before a prompt's words ending in their own colon. */
const TAG_BEFORE_PROMPT = /^([a-z]{2,12}:) (?=\p{L}[^:]{0,60}:(?:\s|$))/u;
/** Those words, through their colon and the blank after it. */
const TAGGED_WORDS = /^(\p{L}[^:]{0,60}:)(?:\s|$)/u;

/**
 * A default in parentheses after a prompt's mark, the cursor after it or what is typed after a blank (npm's "name:
 * (proj) ", gpg's "What keysize do you want? (3072) 40"): at most three words.
 */
const OFFERED_AFTER = /^\s*\((?:default:?\s+)?([^()\s]+(?: [^()\s]+){0,2})\)(?= |$)/;

/**
 * The default a line prompt offers after its words, split off its label into `default` (docs/elements.md: the label is
 * the question's words): in brackets ("Your full name [root]:", "Port [8080]:", cabal's "[default: y]", composer's "…
 * generation [yes]?", its "?" kept), in parentheses when a number or a path ("Port (8080):", ssh-keygen's
 * "(/root/.ssh/id_ed25519)") or a remark naming only it (fdisk's "Select (default p)"). Empty brackets (adduser's "Full
 * Name []") offer none: dropped. Not on a field drawn on a background of its own (nano's bar: "Search [Case
 * Sensitive]" is a flag of the program's), nor brackets after a word they are the object of (smbclient's "Password for
 * [WORKGROUP\ada]", IPython's "In [2]"), nor a range, a list of answers or a remark (`NOT_A_DEFAULT`).
 */
export function offeredDefaults(view: View, found: Found[]): void {
  for (const e of found) {
    if (e.kind !== "input" || !e.label || e.default !== undefined) continue;
    const first = view.flat[e.row]!.slice(e.col).search(/\S/);
    if (first < 0 || view.background(e.row, e.col + first) !== "0") continue;
    const split = offeredIn(e.label);
    if (!split) continue;
    e.label = split.label;
    if (split.offered) e.default = split.offered;
  }
  // A default that is the key of an item of the list right over the prompt, none drawn selected, selects it (rspamadm's
  // "1. Use domain from mime from header for sign" … over "Enter your choice (1, 2, 3, 4) [default: 1]:").
  for (const e of found) {
    if (e.kind !== "input" || e.default === undefined) continue;
    const over = found.find(
      (q) => q.kind === "question" && q.row + q.height <= e.row && q.row + q.height >= e.row - 1 && q.items?.length,
    );
    if (!over || over.items!.some((i) => i.selected)) continue;
    const item = over.items!.find((i) => i.key === e.default);
    if (item) item.selected = true;
  }
}

function offeredIn(label: string): { label: string; offered: string } | undefined {
  const words = (text: string) => clean(text).replace(/:$/, "");
  const bracketed = BRACKETS_AT_END.exec(label);
  if (bracketed && /\p{L}/u.test(bracketed[1]!) && !OBJECT_BEFORE.test(bracketed[1]!)) {
    const named = /^default:\s*([\s\S]*)$/i.exec(bracketed[2]!.trim());
    const offered = clean(named ? named[1]! : bracketed[2]!);
    if (named || !NOT_A_DEFAULT.test(offered))
      return { label: words(bracketed[1]!) + (bracketed[3] ? "?" : ""), offered };
  }
  const parenthesised = PARENS_AT_END.exec(label);
  if (parenthesised && /\p{L}/u.test(parenthesised[1]!) && (parenthesised[2] || NUMBER_OR_PATH.test(parenthesised[3]!)))
    return { label: words(parenthesised[1]!), offered: parenthesised[3]! };
  return undefined;
}

/** A prompt's words, a blank, its last brackets, maybe a "?" after them. */
const BRACKETS_AT_END = /^(.*?\S)\s+\[([^\][]*)\](\s*\?)?$/;
/** A prompt's words, a blank, a word in parentheses, maybe said to be the default. */
const PARENS_AT_END = /^(.*?\S)\s+\((default:?\s+)?([^()\s]+)\)$/i;
/** A word whose object the brackets after it are ("Password for [WORKGROUP\ada]", "In [2]"). */
const OBJECT_BEFORE = /(?:^|\s)(?:for|from|to|in|into|of|on|at|by|with)$/i;
/**
 * Brackets that hold no default: a remark opening with a mark, a word naming something else or one saying what to do
 * ("[<0 for unlimited path]", "[from ./]", notmuch's "[Press 'Enter' if none]"), a range ("[0..3]", "[1-4]"), a list of
 * answers ("[1 - 2, all, quit]", "[1, 2, 3, 0]", "[y/n]", "[123?q]").
 */
const NOT_A_DEFAULT = new RegExp(
  [
    /^(?:[<+]|(?:for|from|to|in|of|on|at|by|with|press|hit|type|enter|leave|use)\b)/,
    /\.\.|[,|?]|^\d+\s*-\s*\d+$|^\w{1,3}(?:\/\w{1,3})+$/,
  ]
    .map((r) => r.source)
    .join("|"),
  "i",
);
/** A number or a path, what a parenthesis at a prompt's end offers ("(8080)", "(/root/.ssh/id_ed25519)"). */
const NUMBER_OR_PATH = /^(?:\d+(?:\.\d+)*|(?:~|\.{1,2})?\/\S*)$/;

/** Words, then a key of two characters at most in brackets (or none), one blank, the cursor (unison's "… []"). */
const KEY_AWAITED = /^(\s*)(\S.*?)\s+\[([^\]\s]{0,2})\] $/;

/** A prompt's default in brackets, its colon, then the answer typed: "Package Type (…) []: library". */
const ANSWERED_PROMPT = /\[[^\]]*\]: \S/;

/** A confirmation's "?" standing alone after its words, then a blank or the end (find -ok's "< rm ... ./a.tmp > ?"). */
const LONE_ASK = /^\?(?=\s|$)/;
/** The prompt through that lone "?", and the blank after it (what is typed comes after). */
const LONE_ASK_PROMPT = /^(.*?\S.*? \?)(?:\s|$)/;
/** A confirmation ending in "?..." with no blank after it (xargs -p's "rm a.tmp b.tmp c.tmp?..."): the prompt. */
const ASKS_ON = /^(.*?\S\?\.{3})/;

/**
 * A bullet before a prompt's words (systemd-firstboot's "‣ Please enter hostname …: "), or a ">" (sphinx-quickstart's
 * "> Project name: "): not part of its label.
 */
const LEAD_BULLET = /^[‣•◦▸▹►▪>] +(?=\p{L})/u;

/**
 * A default in brackets right after a prompt's "?" or ":", before what is typed: " [n] ", " [y]:", cabal's longer
 * " [default: 2.4    (+ support for '**' globbing)]".
 */
const DEFAULT_AFTER_PROMPT = /^ ?\[(?:default:[^\]]{1,80}|[^\]]{1,40})\]:?(?= |$)/i;

/** A prompt that is only its default in brackets: "[Unknown]", "[no]". */
const BRACKETS_ONLY = /^\[[^\]]{1,40}\]$/;

/** The question on the row above, free and ending in "?" (its answer is read under it): "" when none. */
function questionAbove(view: View, row: number): string {
  if (row === 0 || !view.free(row - 1, 0, view.cols)) return "";
  const above = clean(view.text(row - 1, 0, view.cols));
  return /^\p{L}.*\?$/u.test(above) ? above : "";
}

/**
 * The words a bar right over a command line opens with, up to their ":" (lnav's " Search for:  (Press CTRL+J to jump
 * to a previous hit …)" on its own colour over "/timeout"): the line's label, its mark alone says less.
 */
function barLabel(view: View, row: number): string {
  if (row === 0) return "";
  const above = view.flat[row - 1]!;
  const words = /^\s?(\p{L}[\p{L} ]{0,30}?):(?:\s|$)/u.exec(above);
  if (!words) return "";
  const at = above.search(/\S/);
  return view.background(row - 1, at) !== view.backdrop && view.background(row - 1, at) !== view.background(row, 0)
    ? words[1]!.trim()
    : "";
}

/** A prompt's label that is only a marker of one to three signs (">>"). */
const MARKER_ONLY_LABEL = /^[^\p{L}\p{N}\s]{1,3}$/u;

/** The words of a prompt alone on the row above, ending in ":" with nothing after it ("Enter new version:"). */
function promptAbove(view: View, row: number): string {
  if (row === 0 || !view.free(row - 1, 0, view.cols)) return "";
  const above = view.flat[row - 1]!.trimEnd();
  return /^\p{L}[^:]{0,60}:$/u.test(above) ? clean(above.slice(0, -1)) : "";
}

/** A default in brackets ending a question, the "?" after it: "[yes]?", "[src/]?". */
const BRACKETED_DEFAULT = /\[[^\]\s]+\]\?$/;

/**
 * The icon before a prompt library's question: inquirer's and enquirer's "? " and "✔ ", or a program's own picture
 * in their place (changeset's "🦋  ", on every row it writes), then the question's first letter.
 */
const ASKED_ICON = /^(\s*)(?:[?✔]|\p{Extended_Pictographic}\uFE0F? ?) (\S)/u;

/**
 * A choice prompt's question with nothing typed, enquirer's "…" after it, the cursor left there and its boxes under
 * it ("🦋  Which packages would you like to include? … "): the question's header, no field (the choices take the keys).
 */
function pendingChoice(view: View, row: number): boolean {
  const line = view.chars[row]!.join("");
  return ASKED_ICON.test(line) && /\S\s+…\s*$/.test(line) && choicesBelow(view, row);
}

/** A question's sentence alone on its row from the first column, ending in its "?" (a2enmod's "Which module(s) …?"). */
const OWN_ROW_QUESTION = /^\p{L}.{0,78}\?$/u;

/** A question listing its answers ("Is k positive, negative or zero?", maxima's): its answers are items, no field's. */
const LISTS_ANSWERS = /, [\p{L}-]+,? or [\p{L}-]+\?$/u;

/**
 * A question on its own row right over the cursor's, read on the row under it (a2enmod's "Which module(s) do you want
 * to enable (wildcards ok)?", the cursor at column 0 under it): one input of both rows labelled with the question, what
 * is typed under it the value. Not when a prompt's mark is typed before the cursor (a shell's "$ " written since
 * stands between: the question is output), something stands after the cursor or under it, or the question's row goes
 * on from a full row above it (a wrapped sentence's end, no question of its own).
 */
function askedRightAbove(view: View, row: number, from: number): Found | undefined {
  const { cursor } = view;
  if (from !== 0 || row < 1 || !cursor.visible) return undefined;
  const typed = view.flat[row]!.slice(0, cursor.col);
  if (/[:?>$#❯›%]\s|[:?>$#❯›%]$/.test(typed) || /^\s/.test(typed) || view.flat[row]!.slice(cursor.col).trim())
    return undefined;
  if (!view.flat.slice(row + 1).every((l) => !l.trim())) return undefined;
  const { top, defaulted } = askedOverHints(view, row);
  const above = view.flat[top]!.trimEnd();
  const asks = top === row - 1 ? OWN_ROW_QUESTION.test(above) : ASKED_THEN_SAID.test(above);
  if (!asks || LISTS_ANSWERS.test(above) || !view.free(top, 0, view.cols)) return undefined;
  if (top > 0 && view.flat[top - 1]!.trimEnd().length >= view.cols - 1) return undefined;
  view.use(top, 0, view.cols, row - top + 1);
  return {
    kind: "input",
    row: top,
    col: 0,
    width: view.cols,
    height: row - top + 1,
    label: clean(above),
    value: typed.trim(),
    ...(defaulted ? { default: defaulted } : {}),
    cursor: true,
  };
}

/**
 * A question's sentence on its own row, maybe a statement after it on that row (reuse's "What license is your project
 * under? Provide the SPDX License Identifier."), asked over rows that tell how to answer it.
 */
const ASKED_THEN_SAID = /^\p{Lu}.{0,150}\?(?: \p{Lu}[^?]{0,100}\.)?$/u;

/** A row telling how to answer, one sentence from the first column ("To stop adding licenses, hit RETURN."). */
const ANSWER_HINT = /^\p{Lu}[^?:]{0,150}\b(?:RETURN|Return|ENTER|Enter|return|enter|type|press|hit)\b[^?:]{0,150}\.$/u;

/** A default alone on its row, indented, one word (msginit's "  root@vm" under its e-mail question). */
const INDENTED_DEFAULT = /^ {1,8}(\S{1,60})$/;

/**
 * The row a question stands on over the cursor's: the row right above, or above up to two rows between telling how
 * to answer (a sentence naming a key or what to type, one row) and the default offered (one indented word right under
 * the question): msginit's "Is the following your email address?" over "  root@vm" over "Please confirm by pressing
 * Return, or enter your email address.", the cursor under them. Free rows all; the default is given back.
 */
function askedOverHints(view: View, row: number): { top: number; defaulted?: string } {
  let at = row - 1;
  // (The hint wrapped by the terminal at the row's end reads on from the full row above it.)
  let hint = view.flat[at]!.trimEnd();
  while (at > 1 && hint.length < 300 && view.flat[at - 1]!.length >= view.cols && view.flat[at - 1]!.at(-1) !== " ")
    hint = view.flat[--at]! + hint;
  const free = (from: number) => view.flat.slice(from, row).every((_, i) => view.free(from + i, 0, view.cols));
  if (at < 1 || !free(at) || !ANSWER_HINT.test(hint)) return { top: row - 1 };
  at--;
  const offered = INDENTED_DEFAULT.exec(view.flat[at]!.trimEnd());
  if (offered && at >= 1 && view.free(at, 0, view.cols)) return { top: at - 1, defaulted: offered[1]! };
  return { top: at };
}

/**
 * A prompt library's question on the row above the cursor's, its answer read on the cursor's row: a question too
 * long for its row, wrapped (commitizen's "? What is the scope of this change (…): (press enter" over "to skip) c"),
 * or one that reads under itself (" (34) read the retry count", a count of characters before what is typed). The
 * question is bold after its icon, nothing typed after it on its row but a hint in parentheses.
 */
function askedAbove(view: View, row: number, cursorCol: number): Found | undefined {
  if (row === 0) return undefined;
  const asked = ASKED_ICON.exec(view.chars[row - 1]!.join(""));
  const line = view.chars[row]!.join("");
  if (!asked || ASKED_ICON.test(line) || /[$#%>❯]\s/.test(line.slice(0, cursorCol))) return undefined;
  if (!view.free(row - 1, 0, view.cols) || !view.free(row, 0, view.cols)) return undefined;
  const bold = (r: number, col: number) => view.has(r, col, CellFlag.bold);
  const run = (r: number, from: number) => {
    let end = from;
    while (end < view.cols && (bold(r, end) || (view.char(r, end) === " " && bold(r, end + 1)))) end++;
    return end;
  };
  const start = asked[0].length - 1;
  if (!bold(row - 1, start)) return undefined;
  const end = run(row - 1, start);
  if (!/^\s*(?:\([^)]*\))?\s*$/.test(view.text(row - 1, end, view.cols))) return undefined;
  // (The question's words go on at the start of the cursor's row when it wraps.)
  const wrapped = end >= view.cols - 2 && bold(row, 0) ? run(row, 0) : 0;
  const label = clean(`${view.text(row - 1, start, end)} ${view.text(row, 0, wrapped)}`);
  const value = view
    .text(row, wrapped, view.cols)
    .trim()
    .replace(/^\(\d+\)\s*/, "");
  view.use(row - 1, 0, view.cols, 2);
  return { kind: "input", row: row - 1, col: 0, width: view.cols, height: 2, label, value, cursor: true };
}

/**
 * inquirer's and enquirer's "? Project name shop": the icon, the question in bold, the answer typed
 * so far (after a "‣" or "›" some draw). Dim text is typed too (enquirer's mask), but not a dim hint
 * in brackets: a default ("(4)") or "[input is masked]".
 */
function askedInput(view: View, row: number, cursorCol: number, from: number): Found[] {
  const before = view.chars[row]!.slice(from, cursorCol).join("");
  const asked = from === 0 && ASKED_ICON.exec(before);
  if (!asked) return [];
  const start = asked[0].length - 1;
  let end = start;
  const flag = (col: number, f: number) => view.has(row, col, f);
  if (!flag(start, CellFlag.bold)) return [];
  while (end < cursorCol && (flag(end, CellFlag.bold) || (view.char(row, end) === " " && flag(end + 1, CellFlag.bold))))
    end++;
  const label = clean(view.text(row, start, end));
  const first = asked[1]!.length;
  if (!view.free(row, first, view.cols)) return [];
  view.use(row, first, view.cols - first);
  let typed = "";
  let depth = 0;
  // What is drawn in the ink of the "›" between question and answer is a hint or an initial value, not typed;
  // so is a default before it in that ink (dialoguer's grey "(tauri-app) ›").
  const arrow = view.text(row, end, view.cols).search(/[‣›»]/);
  const ink = (col: number) => view.ink(row, col);
  for (let col = end; col < view.cols; col++) {
    const ch = view.char(row, col);
    if (arrow >= 0 && ch.trim() !== "" && ink(col) === ink(end + arrow) && ink(col) !== ink(start)) continue;
    const dim = flag(col, CellFlag.dim);
    if (dim && /[[(]/.test(ch)) depth++;
    if (!(dim && depth > 0)) typed += ch;
    if (dim && /[\])]/.test(ch)) depth = Math.max(0, depth - 1);
  }
  return [
    {
      kind: "input",
      row,
      col: first,
      width: view.cols - first,
      height: 1,
      label,
      value: typed.trim().replace(/^[‣›»…]\s*/, ""),
      cursor: true,
    },
  ];
}

/** A cell drawn faint: dim, or in a grey (palette 8, the greys 240–250, an RGB grey of middle lightness). */
function faint(view: View, row: number, col: number): boolean {
  if (view.has(row, col, CellFlag.dim)) return true;
  const ink = view.ink(row, col);
  const value = colourValue(ink);
  if (colourMode(ink) === ColourMode.palette) return value === 8 || (value >= 240 && value <= 250);
  if (colourMode(ink) !== ColourMode.rgb) return false;
  const [r, g, b] = [value >> 16, (value >> 8) & 0xff, value & 0xff];
  return Math.max(r, g, b) - Math.min(r, g, b) < 16 && r >= 0x50 && r <= 0xb0;
}

/**
 * An argument hint after what is typed (`argumentHint`: redis-cli's "HSET station:pier" then, grey, "field value
 * [field value ...]"; fish's autosuggestion): something typed between the prompt and the cursor, none of it faint,
 * and every character from the cursor to the row's end drawn faint. The hint is no part of the value.
 */
function argumentHint(view: View, row: number, start: number): boolean {
  const { col } = view.cursor;
  if (view.cursor.row !== row || col <= start) return false;
  let typed = 0;
  for (let c = start; c < col; c++) {
    if (view.char(row, c).trim() === "") continue;
    if (faint(view, row, c)) return false;
    typed++;
  }
  let hint = 0;
  for (let c = col; c < view.cols; c++) {
    if (view.char(row, c).trim() === "") continue;
    if (!faint(view, row, c)) return false;
    hint++;
  }
  return typed > 0 && hint > 0;
}

/**
 * A field's placeholder ("Type your message…", "Search"): nothing typed before the cursor, and the
 * text right after it drawn dim or in a colour the field's blanks do not have.
 */
function placeholder(view: View, start: number, end: number): boolean {
  const { row, col } = view.cursor;
  if (view.text(row, start, col).trim()) return false;
  const text = view.text(row, col, end).trimEnd();
  const first = col + text.search(/\S/);
  if (first < col || first > col + 2) return false;
  const blank = Math.min(col + text.length, end - 1, view.cols - 1);
  // (clack draws its cursor over the placeholder's first letter: the rest of it is dim; gemini's, grey.)
  const after = first === col && view.char(row, first + 1).trim() !== "";
  return (
    view.has(row, first, CellFlag.dim) ||
    (after && view.has(row, first + 1, CellFlag.dim)) ||
    (view.char(row, blank) === " " &&
      (view.ink(row, first) !== view.ink(row, blank) || (after && view.ink(row, first + 1) !== view.ink(row, blank))))
  );
}

/**
 * The nearest text above a field inside its dialog (its prompt), a trailing colon dropped: over the
 * field's columns when `end` is given and that holds text (fields side by side), else the dialog's width.
 */
function labelAbove(view: View, boxes: Box[], top: number, col: number, end?: number): string {
  const outer = boxAround(boxes, top, col);
  let left = outer ? outer.left + 1 : 0;
  let right = outer ? outer.right : view.cols;
  if (end !== undefined && view.text(top - 1, col, end).trim()) [left, right] = [col, end];
  for (let r = top - 1; r > (outer ? outer.top : -1); r--) {
    const label = clean(view.text(r, left, right));
    if (!label) continue;
    // Another field's frame above is no label.
    if (!/[\p{L}\p{N}]/u.test(label)) return "";
    view.use(r, left, right - left);
    return label.replace(/:$/, "");
  }
  return "";
}

/**
 * A box and its state: "[x]", "[ ]", "(*)", "( )", "◉", "☐", tty-prompt's hexagons "⬢" (checked) and "⬡", xwpe's
 * "[+]" (checked)…
 */
const TOGGLE_BOX = String.raw`\[[ xX*✓✔✗+]\]|\([ *•xXo]\)|[◉◯◻◼☐☑☒○◎⬡⬢]`;
/** A fold mark right after a box: hg's chunk selector's "[x]**  notes.txt" (its file's hunks collapsed). */
const FOLD_MARK = String.raw`\*\*`;
/** Its label, one to four blanks on, a tree's guides ("│ ├ └") before it allowed. */
const TOGGLE_LABEL = String.raw`(?:(?:${FOLD_MARK})? {1,4}((?:[│├└]\s+)*[^\s│┃║|].*?))?`;
/** Where the label ends: six blanks, a frame's line, the row's end, or the next box. */
const TOGGLE_LABEL_END = String.raw`(?=\s{6,}|\s*[│┃║|]|\s*$| (?:\[[ xX*]\]|\([ *•xXo]\)) \S)`;
/**
 * A box, its state in it, then its label one to four blanks on (htop's setup pads it: "[x]    Tree
 * view"); it starts a word ("((x) => x * 2)" in a REPL is code). Groups: the box, the label.
 */
const TOGGLE = new RegExp(String.raw`(?<![\w([{.,=])(${TOGGLE_BOX})${TOGGLE_LABEL}${TOGGLE_LABEL_END}`, "g");

/**
 * A filled square with no box above or under it in its column, and no empty square on the screen, is a bullet, not
 * a checked box: create-astro's "◼  --dry-run Skipping project naming" log lines, one after each answered step.
 * (A lone "◉" in a group of inquirer's checkboxes is one.)
 */
/** A description in parentheses after a box's name. */
const DESCRIBED = /\S\s+\([^)]*\)$/;

/**
 * Three boxes or more one under another in one column, two of them or more with a description in parentheses after
 * the name (create-vue's `◻ Router (SPA development)`, dim unless focused), are named with it: the description is
 * what the row says whatever the focus, and cut from the unfocused rows only it made a label change with focus
 * (`Router` → `Router (SPA development)`). A hint on one row alone (clack's `(recommended)`) stays out.
 */
function describedRows(out: Found[], wholes: Map<Found, string>): void {
  const boxes = out.filter((e) => wholes.has(e));
  for (let i = 0; i < boxes.length; ) {
    let j = i + 1;
    while (j < boxes.length && boxes[j]!.col === boxes[i]!.col && boxes[j]!.row === boxes[j - 1]!.row + 1) j++;
    const run = boxes.slice(i, j);
    if (run.length >= 3 && run.filter((e) => DESCRIBED.test(wholes.get(e)!)).length >= 2)
      for (const e of run) e.label = wholes.get(e)!;
    i = j;
  }
}

/**
 * "[+]" is a checked box only among empty ones ("[ ]": xwpe's Find box); with "[-]" or alone it is a tree's expander
 * (termshark's "[+] Frame 1: 79 bytes on wire").
 */
function treeExpander(view: View, marker: string): boolean {
  return marker === "[+]" && !view.flat.some((line) => line.includes("[ ]"));
}

function loneBullet(view: View, row: number, col: number, marker: string): boolean {
  if (marker !== "◼" || view.flat.some((line) => line.includes("◻"))) return false;
  const boxAt = (r: number) => r >= 0 && r < view.rows && /[◉◯◻◼☐☑☒○◎●]/.test(view.char(r, col));
  return !boxAt(row - 1) && !boxAt(row + 1);
}

/** A word or a few, two blanks or more, then a box: a mark standing after its name ("REGISTER   [*]"). */
const MARK_AFTER = /(?<=^|[\s│┃║])(\p{L}[\p{L}\p{N}._+-]*(?: [\p{L}\p{N}._+-]+){0,2}) {2,}(\[[ xX*]\])(?=\s|[│┃║]|$)/gu;

/**
 * Marks after their names in a grid (sngrep's filter form: "REGISTER   [*]        OPTIONS    [*]"): boxes standing
 * in one column down three rows or more, each after its name, nothing right after it on its row but blanks or
 * another such pair. Each a checkbox labelled by the name, from the name to the box.
 */
function marksAfterNames(view: View): Found[] {
  const found: { row: number; col: number; box: number; label: string; checked: boolean }[] = [];
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const pairs = [...line.matchAll(MARK_AFTER)];
    for (const [i, m] of pairs.entries()) {
      const box = m.index! + m[0].length - 3;
      // (Nothing after the box but blanks up to the next pair, a frame or the row's end: a box before its label, htop's
      // "Meters    [ ]    Tree view" beside a pane of names, is the label's.)
      const rest = line.slice(box + 3, pairs[i + 1]?.index ?? line.length).split(/[│┃║]/)[0]!;
      if (rest.trim()) continue;
      found.push({ row, col: m.index!, box, label: m[1]!, checked: /[xX*]/.test(m[2]![1]!) });
    }
  }
  const out: Found[] = [];
  for (const box of new Set(found.map((f) => f.box))) {
    const column = found.filter((f) => f.box === box);
    if (column.length < 3 || !column.every((f) => view.free(f.row, f.col, f.box + 3))) continue;
    for (const f of column) {
      out.push({
        kind: "checkbox",
        row: f.row,
        col: f.col,
        width: f.box + 3 - f.col,
        height: 1,
        label: f.label,
        checked: f.checked,
      });
      view.use(f.row, f.col, f.box + 3 - f.col);
    }
  }
  return out;
}

export function findToggles(view: View): Found[] {
  const out: Found[] = [...scaleGrid(view), ...marksAfterNames(view)];
  // A list that leads to submenus ("Drivers  --->", menuconfig's) is a menu whose items may carry a
  // mark ("[*] Networking support"), not a column of checkboxes.
  const submenus = (row: number, col: number) => {
    // Rows of the list: text in the mark's column, and nothing but a frame before it as on the mark's row.
    const clear = (r: number) => view.flat[r]!.slice(0, col).replace(/[│┃║]/g, " ").trim() === "";
    const listed = (r: number) =>
      r >= 0 && r < view.rows && view.flat[r]!.slice(col, col + 12).trim() !== "" && clear(r) === clear(row);
    let [first, last] = [row, row];
    while (listed(first - 1)) first--;
    while (listed(last + 1)) last++;
    return view.flat.slice(first, last + 1).some((l) => /\S\s+-{2,3}>\s*[│┃║]?\s*[│┃║]?\s*$/.test(l));
  };
  const wholes = new Map<Found, string>();
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    for (const match of line.matchAll(TOGGLE)) {
      const col = match.index!;
      if (!match[2] || !view.free(row, col, col + match[0].length) || submenus(row, col)) continue;
      const marker = match[1]!;
      if (loneBullet(view, row, col, marker) || treeExpander(view, marker)) continue;
      const radio = marker.startsWith("(");
      const checked = /[xX*✓✔◉◼☑☒•o◎⬢+]/.test(marker);
      // "tag  Description" (dialog/whiptail lists): the label is the description.
      // A tree's guides ("│  ├─"), a sub-option's "- " or a bullet before the text are not part of it.
      const folded = line.startsWith("**", col + marker.length) ? 2 : 0;
      let label = view
        .text(row, col + marker.length + folded + 1, col + match[0].length)
        .trim()
        .replace(/^(?:[│├└─]+\s*)+/, "")
        .replace(/^[-•*] /, "")
        .replace(/:$/, "");
      const parts = label.split(/\s{2,}/);
      if (parts.length === 2) label = parts[1]!;
      // A hint in parentheses after it, drawn in another style (clack's "(recommended)"), is not part of it.
      const hint = /\s+\([^)]*\)$/.exec(label);
      const labelCol = line.indexOf(label, col + marker.length);
      const hintStyle = hint ? view.style(row, labelCol + label.length - 1) : "";
      const whole = label;
      if (hint && (hintStyle !== view.style(row, labelCol) || hintStyle.startsWith(`${CellFlag.dim}/`)))
        label = label.slice(0, hint.index);
      // inquirer: "❯◯ Vitest", the focus marker right before the box.
      const marked =
        (col > 0 && MARKERS.includes(view.char(row, col - 1))) ||
        (col > 1 && MARKERS.includes(view.char(row, col - 2)) && view.char(row, col - 1) === " ");
      out.push({
        kind: radio ? "radio" : "checkbox",
        row,
        col,
        width: match[0].length,
        height: 1,
        label,
        checked,
        ...(marked ? { selected: true } : {}),
      });
      wholes.set(out[out.length - 1]!, whole);
      view.use(row, col, match[0].length);
      if (marked) view.use(row, col - 2, 2);
    }
  }
  describedRows(out, wholes);
  tagColumn(view, out);
  // A column of check marks, some lit and some dim (enquirer's multiselect): each row a checkbox, checked when lit.
  for (let row = 0; row < view.rows; row++) {
    const at = view.flat[row]!.search(/[✔✓] \S/);
    const check = (r: number) =>
      r < view.rows &&
      at >= 0 &&
      view.char(r, at) === view.char(row, at) &&
      view.char(r, at + 1) === " " &&
      view.char(r, at + 2).trim() !== "" &&
      view.free(r, at, view.cols);
    if (!check(row)) continue;
    let last = row;
    while (check(last + 1)) last++;
    const dim = (r: number) => view.has(r, at, CellFlag.dim);
    const rows = Array.from({ length: last - row + 1 }, (_, i) => row + i);
    if (rows.length >= 2 && rows.some(dim) && !rows.every(dim)) {
      for (const r of rows) {
        const text = view.text(r, at + 2, view.cols).trimEnd();
        out.push({
          kind: "checkbox",
          row: r,
          col: at,
          width: text.length + 2,
          height: 1,
          label: text,
          checked: !dim(r),
        });
        view.use(r, at, text.length + 2);
      }
    }
    row = last;
  }
  if (!out.some((e) => e.selected)) markFocused(view, out);
  // Focus shown by an underline (changeset's enquirer theme underlines the focused name, in an ink of its own): the
  // one box of two or more whose whole label is underlined. (Two boxes have no "lone style" to tell them apart.)
  if (out.length >= 2 && !out.some((e) => e.selected)) {
    const underlined = out.filter((e) => {
      const at = e.label ? view.chars[e.row]!.join("").indexOf(e.label, e.col + 1) : -1;
      if (at < 0) return false;
      for (let c = at; c < at + e.label!.length; c++)
        if (view.char(e.row, c).trim() && !view.has(e.row, c, CellFlag.underline)) return false;
      return true;
    });
    if (underlined.length === 1) underlined[0]!.selected = true;
    // Or drawn dim but one (create-vue's two experimental features: the focused name in the plain ink).
    const bright = out.filter((e) => {
      const at = e.label ? view.chars[e.row]!.join("").indexOf(e.label, e.col + 1) : -1;
      return at >= 0 && !view.has(e.row, at, CellFlag.dim);
    });
    if (underlined.length === 0 && bright.length === 1 && out.length === 2) bright[0]!.selected = true;
  }
  // Or the one box whose whole row is a bar of a colour of its own across the screen (hg's chunk selector).
  if (out.length >= 2 && !out.some((e) => e.selected)) {
    const bars = out.map((e) => view.spanBackground(e.row, 0, view.cols));
    const lit = out.filter(
      (e, i) =>
        bars[i] !== view.backdrop &&
        bars.filter((bar) => bar === bars[i]).length === 1 &&
        view.background(e.row, view.cols - 1) === bars[i],
    );
    if (lit.length === 1) lit[0]!.selected = true;
  }
  // No highlight: the one label of three or more drawn in a style none of the others has (clack's, enquirer's focus).
  if (out.length >= 3 && !out.some((e) => e.selected)) {
    // The label's own style: a hint after it ("(needs db)", dim on every row) is not.
    const looks = out.map((e) => {
      const at = e.label ? view.flat[e.row]!.indexOf(e.label, e.col + 1) : -1;
      return at >= 0
        ? view.spanStyle(e.row, at, at + e.label!.length)
        : view.spanStyle(e.row, e.col + 2, e.col + e.width);
    });
    const lone = drawnApart(out, looks);
    if (lone.length === 1) lone[0]!.selected = true;
  }
  return out;
}

/**
 * A grid of radios (enquirer's scale: "Speed     ◯ ───◯ ───◉ ───◯", inquirer's table prompt drawn
 * in a frame: "│ Mail     │   ◯   │ [ ◯ ] │   ◉   │"): rows of three or more circles in the same
 * columns, one under another or a rule apart, one radio per circle, checked when filled; under a
 * row of names over those columns it is a table too. The selected circle is the one in brackets,
 * else the checked one of the row whose name is drawn in a style no other row's has.
 */
function scaleGrid(view: View): Found[] {
  const circles = (row: number) => {
    const cols: number[] = [];
    for (const m of view.flat[row]!.matchAll(/[◯○◉●◎]/g))
      if (view.free(row, m.index!, m.index! + 1)) cols.push(m.index!);
    return cols.length >= 3 ? cols.join(",") : "";
  };
  const rule = (row: number) =>
    row >= 0 && row < view.rows && /─/.test(view.flat[row]!) && /^[\s│┃├┼┤┌┬┐└┴┘─━]*$/.test(view.flat[row]!);
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    const key = circles(row);
    if (!key) continue;
    const rows = [row];
    for (;;) {
      const next = rows.at(-1)! + 1;
      if (next < view.rows && circles(next) === key) rows.push(next);
      else if (rule(next) && next + 1 < view.rows && circles(next + 1) === key) rows.push(next + 1);
      else break;
    }
    row = rows.at(-1)!;
    const cols = key.split(",").map(Number);
    // The names' row: right above, or above a rule; its names parted by the frame or two blanks.
    const top = rule(rows[0]! - 1) ? rows[0]! - 2 : rows[0]! - 1;
    const names =
      top >= 0
        ? [...view.flat[top]!.replace(/[│┃]/g, " ").matchAll(/\S+(?: \S+)*/g)].map((m) => ({
            text: m[0],
            start: m.index!,
            end: m.index! + m[0].length,
          }))
        : [];
    const over = cols.map((col) => names.find((n) => n.start - 2 <= col && col <= n.end + 1));
    const header =
      names.length > 0 && names.length <= cols.length + 1 && over.every(Boolean) && new Set(over).size === cols.length;
    if (rows.length < 2 && !header) continue;
    const first = (r: number) => view.flat[r]!.search(/[^\s│┃]/);
    const start = Math.min(...rows.map(first));
    const looks = rows.map((r) => view.spanStyle(r, first(r), cols[0]! - 1));
    const focus = drawnApart(rows, looks);
    const bracketed = (r: number, col: number) => view.char(r, col - 2) === "[" && view.char(r, col + 2) === "]";
    const boxed = rows.some((r) => cols.some((col) => bracketed(r, col)));
    for (const r of rows) {
      const name = view.text(r, start, cols[0]!).replace(/[│┃[]/g, " ").trim();
      for (const [i, col] of cols.entries()) {
        const checked = /[◉●◎]/.test(view.char(r, col));
        const label = [name, header ? over[i]!.text : String(i + 1)].filter(Boolean).join(" ");
        const selected = boxed ? bracketed(r, col) : focus.length === 1 ? focus[0] === r && checked : undefined;
        out.push({
          kind: "radio",
          row: r,
          col,
          width: 1,
          height: 1,
          label,
          checked,
          ...(selected !== undefined ? { selected } : {}),
        });
      }
      view.use(r, start, cols.at(-1)! + 1 - start);
    }
    if (header) {
      const left = Math.min(start, names[0]!.start);
      const right = Math.max(cols.at(-1)! + 1, names.at(-1)!.end);
      out.push({
        kind: "table",
        row: top,
        col: left,
        width: right - left,
        height: rows.at(-1)! - top + 1,
        header: names.map((n) => n.text),
        rows: rows.length,
      });
      view.use(top, left, right - left, rows.at(-1)! - top + 1);
    }
  }
  return out;
}

/**
 * A tag column wider than the gap a label may span (dialog pads its tags to the longest: "( ) a4
 * A4 210x297" over "(*) legal   US Legal"): where the toggles of one column, on rows one under
 * another, all show their description starting at one column, it is each one's label, not the tag.
 */
function tagColumn(view: View, toggles: Found[]): void {
  const described = toggles.map((t) => {
    const line = view.flat[t.row]!;
    const end = t.col + t.width;
    const after = /^(\s{6,})([^\s│┃║|](?:\S| (?! ))*)/.exec(line.slice(end));
    if (
      after &&
      /^\S+$/.test(t.label ?? "") &&
      /[\p{L}\p{N}]/u.test(after[2]!) &&
      view.free(t.row, end, end + after[0].length)
    )
      return { at: end + after[1]!.length, text: after[2]! };
    const at = t.label ? line.indexOf(t.label, t.col + 3) : -1;
    return at > t.col + 4 && line.slice(t.col + 3, at).trim() ? { at } : undefined;
  });
  for (let i = 0; i < toggles.length; ) {
    let j = i + 1;
    while (j < toggles.length && toggles[j]!.col === toggles[i]!.col && toggles[j]!.row === toggles[j - 1]!.row + 1)
      j++;
    const group = described.slice(i, j);
    if (j - i >= 2 && group.every((d) => d && d.at === group[0]!.at) && group.some((d) => d!.text)) {
      for (let k = i; k < j; k++) {
        const { at, text } = described[k]!;
        if (!text) continue;
        const toggle = toggles[k]!;
        view.use(toggle.row, toggle.col + toggle.width, at + text.length - toggle.col - toggle.width);
        toggle.label = text;
        toggle.width = at + text.length - toggle.col;
      }
    }
    i = j;
  }
}

/** `< OK >`, `<Cancel>`, `[ Cancel ]`, `[ OK ]`; toolkits centre a name in a fixed width (`<    Ok    >`). */
const BUTTON = /<\s{0,6}([A-Za-z][\w .'&-]{1,18}?)\s{0,6}>|\[ {1,6}([A-Za-z][\w .'&-]{0,18}?) {1,6}\]/g;

/** An argument's name in a usage line, `<editor>`: angle brackets right around one name, no blank inside. */
const USAGE_ARG = /^<[\w-]+>$/;
/** A placeholder among words: a word, one blank, the placeholder, one blank, a word ("action <ACT> for <JAIL>"). */
const PROSE_ARG = (arg: string): RegExp => new RegExp(`\\S ${arg} \\S`);

/** Bracketed capitalised words, no blank inside, alone on a row between a box's sides: "[Attach]", "[OK] [Cancel]". */
const BOXED_BRACKETS = /^(\s{3,})((?:\[\p{Lu}[\p{L}\d]{0,15}\]\s*)+)$/u;

/** Bracketed words alone on a box's row, three blanks or more in from its side: buttons (lldb gui's "[Attach]"). */
function boxedBrackets(view: View, boxes: Box[], row: number): Found[] {
  const box = boxes.find((b) => row > b.top && row < b.bottom && b.right - b.left > 10);
  if (!box || boxes.some((b) => b !== box && row > b.top && row < b.bottom && b.left > box.left && b.right < box.right))
    return [];
  const inner = view.text(row, box.left + 1, box.right);
  const m = BOXED_BRACKETS.exec(inner);
  if (!m || !view.free(row, box.left + 1, box.right)) return [];
  const start = box.left + 1 + m[1]!.length;
  const found: Found[] = [...m[2]!.matchAll(/\[([^\]]+)\]/g)].map((b) => ({
    kind: "button",
    row,
    col: start + b.index!,
    width: b[0].length,
    height: 1,
    label: b[1]!,
    selected: false,
  }));
  if (found.length > 1) markFocused(view, found);
  view.use(row, box.left + 1, box.right - box.left - 1);
  return found;
}

export function findButtons(view: View, boxes: Box[]): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const pills = pillButtons(view, row);
    if (pills.length) {
      out.push(...pills);
      continue;
    }
    // htop's "[Main] [I/O]": a row of bracketed names alone is tabs.
    // One alone is a tab when drawn on a background of its own (htop's "[Setup]").
    const tabRow =
      /^\s*(?:\[[A-Za-z][\w/ .-]{1,15}\]\s*){2,}$/.test(line) ||
      (/^\s*\[[A-Za-z][\w/ .-]{1,15}\]\s*$/.test(line) &&
        view.spanBackground(row, line.indexOf("["), line.indexOf("]") + 1) !== "0");
    if (tabRow && view.free(row, 0, view.cols)) {
      const tabs: Found[] = [...line.matchAll(/\[([A-Za-z][\w/ .-]{1,15})\]/g)].map((m) => ({
        kind: "button",
        row,
        col: m.index!,
        width: m[0].length,
        height: 1,
        label: m[1]!,
      }));
      // The active tab is drawn in the colour of the page under it (htop's green [Main] over its green header).
      const page = row + 1 < view.rows ? view.spanBackground(row + 1, 0, view.cols) : "";
      const joined = tabs.filter((t) => view.spanBackground(row, t.col, t.col + t.width) === page);
      if (tabs.length === 1) tabs[0]!.selected = true;
      else if (joined.length === 1) joined[0]!.selected = true;
      else markFocused(view, tabs);
      out.push(...tabs);
      view.use(row, 0, view.cols);
      continue;
    }
    // Bracketed words alone on a box's row, set in from its left side (lldb gui's "│     [Attach]     │" under its
    // form): buttons. (Opening the row, a tag or a list's mark: not.)
    const lone = boxedBrackets(view, boxes, row);
    if (lone.length) {
      out.push(...lone);
      continue;
    }
    // A button stands apart: the row's edge, a frame, two blanks or another button (one blank
    // between) on each side; mc's default one is wrapped, "[< OK >]". A "<commit>" or "<pkg>" inside
    // a sentence ("pick <commit> = use commit") is a placeholder in prose.
    const all = [...line.matchAll(BUTTON)];
    const ends = new Set(all.map((m) => m.index! + m[0].length));
    const starts = new Set(all.map((m) => m.index!));
    const apart = (m: RegExpExecArray) => {
      const [start, end] = [m.index!, m.index! + m[0].length];
      const before =
        /(?:^|\s\s|[│┃║|]\s?|\[)$/.test(line.slice(0, start)) ||
        ends.has(start - 1) ||
        (ends.has(start - 2) && line[start - 1] === " ");
      const after =
        /^(?:$|\s\s|\s?[│┃║|]|\])/.test(line.slice(end)) ||
        starts.has(end) ||
        (starts.has(end + 1) && line[end] === " ");
      return before && after;
    };
    // A name in angle brackets without blanks inside, within square brackets opened one blank after a word, is a usage
    // line's argument (`USAGE_ARG`: nmh's "edit [<editor> <switches>]"), not a default button standing apart (mc's
    // "[< OK >]", tilde's "[<Yes>]").
    // (Nor the default key named in brackets glued to the end of a sentence: unison's "Press return to
    // continue.[<spc>]", `GLUED_DEFAULT_KEY`.)
    const usage = (m: RegExpExecArray) =>
      USAGE_ARG.test(m[0]) &&
      (/\S \[[^\]]*$/.test(line.slice(0, m.index!)) ||
        GLUED_DEFAULT_KEY.test(line.slice(0, m.index! + m[0].length + 1)));
    // A word in angle brackets with no blank inside, over or under another at the same column, is a list's cell (hte's
    // file list: "/at  │ <SUB-DIR> │ dr-xr-xrwx"), not a button ("< Graphs >" buttons stand padded).
    const cell = (m: RegExpExecArray) =>
      /^<\S[^<>]*\S>$/.test(m[0]) &&
      [row - 1, row + 1].some((r) => /^<\S[^<>]*\S>/.test(view.flat[r]?.slice(m.index!) ?? ""));
    // A name in angle brackets, no blank inside, that the screen's other rows use inside their words, a word either
    // side of it, is a placeholder of help text (fail2ban's "<JAIL>" alone where a description wraps, under "gets the
    // start command for the" over "action <ACT> for <JAIL>"), not a button standing apart.
    // (Its own row too, elsewhere on it: "action <ACT> <PROPERTY>       gets the value of <PROPERTY> for".)
    const placeholder = (m: RegExpExecArray) =>
      USAGE_ARG.test(m[0]) &&
      view.flat.some((l, r) =>
        PROSE_ARG(m[0]).test(
          r === row ? l.slice(0, m.index!) + " ".repeat(m[0].length) + l.slice(m.index! + m[0].length) : l,
        ),
      );
    const matches = all.filter(
      (m) => view.free(row, m.index!, m.index! + m[0].length) && apart(m) && !usage(m) && !cell(m) && !placeholder(m),
    );
    if (all.length === 0) {
      const choices = choiceButtons(view, boxes, row);
      if (choices.length) {
        out.push(...choices);
        continue;
      }
      const padded = paddedButtons(view, boxes, row);
      if (padded.length) {
        out.push(...padded);
        continue;
      }
    }
    // A lone "[ New File ]" is a button only alone on its row in a box (mc's "[ Tree ]"), not a
    // message outside one (nano's) nor a badge after text ("Process one  [ Succeeded ]").
    const alone = (m: RegExpExecArray) => {
      const box = boxAround(boxes, row, m.index!);
      return (
        box !== undefined &&
        view
          .text(row, box.left + 1, box.right)
          .replace(m[0], "")
          .trim() === ""
      );
    };
    const buttons = matches.filter((m) => m[1] !== undefined || matches.length > 1 || alone(m));
    const row_: Found[] = [];
    for (const m of buttons) {
      const col = m.index!;
      const width = m[0].length;
      row_.push({ kind: "button", row, col, width, height: 1, label: (m[1] ?? m[2])!.trim() });
      view.use(row, col, width);
    }
    markFocused(view, row_);
    out.push(...row_);
  }
  return out;
}

/**
 * Bare choices in a box, a few words each, three or more blanks apart, alone on their row, one of
 * them in reverse (ncdu's "yes   no   don't ask me again"): the box's buttons, without brackets.
 */
function choiceButtons(view: View, boxes: Box[], row: number): Found[] {
  const line = view.flat[row]!;
  const box = boxAround(boxes, row, line.search(/[│┃║]/) + 1);
  // (A frame cut into panes holds lists, not a dialog's choices: ytree's lit file beside its statistics.)
  if (!box || panes(view, box).length > 1) return [];
  const inner = view.text(row, box.left + 1, box.right);
  const pieces = [...inner.matchAll(/\S+(?: \S+){0,3}/g)];
  if (
    pieces.length < 2 ||
    pieces.length > 5 ||
    pieces.some((p) => p[0].length > 24) ||
    !/^\s*\S+(?:(?: \S+)*\s{3,}\S+)+(?: \S+)*\s*$/.test(inner)
  )
    return [];
  const buttons: Found[] = pieces.map((p) => ({
    kind: "button",
    row,
    col: box.left + 1 + p.index!,
    width: p[0].length,
    height: 1,
    label: p[0],
    selected: false,
  }));
  // (Lit: in reverse, or on a background of its own among the box's, gdu's "yes" on white in "yes  no  don't ask…".)
  // (Its background just its words', the cells around it and every other choice on the box's own; every choice words,
  // no form's field, "root____", nor a list's row, "> ./README.md".)
  const boxBg = view.background(row, box.left + 1);
  const ownBg = (b: Found) => {
    const bg = view.background(row, b.col);
    for (let col = b.col; col < b.col + b.width; col++) if (view.background(row, col) !== bg) return false;
    // (A pad of blanks on its background may stand either side: gdu's "  yes  ".)
    let [from, to] = [b.col, b.col + b.width];
    while (from > box.left + 1 && view.background(row, from - 1) === bg && view.char(row, from - 1) === " ") from--;
    while (to < box.right && view.background(row, to) === bg && view.char(row, to) === " ") to++;
    return (
      bg !== boxBg &&
      to - from <= b.width + 6 &&
      view.background(row, from - 1) === boxBg &&
      view.background(row, to) === boxBg
    );
  };
  const plain = (b: Found) => view.spanBackground(row, b.col, b.col + b.width) === boxBg;
  const lit = buttons.filter(
    (b) =>
      view.spanStyle(row, b.col, b.col + b.width).includes("/i") ||
      (ownBg(b) && buttons.every((o) => (o === b || plain(o)) && /^\p{L}[\p{L}' -]*$/u.test(o.label!))),
  );
  if (lit.length !== 1 || !buttons.every((b) => view.free(row, b.col, b.col + b.width))) return [];
  lit[0]!.selected = true;
  for (const b of buttons) view.use(row, b.col, b.width);
  return buttons;
}

/**
 * Words padded on a colour of their own in a box's row, two or more apart, nothing else on the row but their shadows
 * ("_" after each, "^" under: hte's "    Ok   _    Cancel _"): the box's buttons. The one drawn unlike the others is
 * lit; none when all are alike (the focus in a field).
 */
function paddedButtons(view: View, boxes: Box[], row: number): Found[] {
  // (The innermost box on the row: a dialog's, not the window's round it.)
  const box = boxes
    .filter((b) => b.top < row && b.bottom > row)
    .sort((a, b) => (a.right - a.left) * (a.bottom - a.top) - (b.right - b.left) * (b.bottom - b.top))[0];
  if (!box) return [];
  const boxBg = view.background(row, box.left + 1);
  const runs: Array<{ start: number; end: number }> = [];
  for (let col = box.left + 1; col < box.right; ) {
    const bg = view.background(row, col);
    let end = col;
    while (end < box.right && view.background(row, end) === bg) end++;
    if (bg !== boxBg) runs.push({ start: col, end });
    else if (!/^[\s_▄]*$/.test(view.text(row, col, end))) return [];
    col = end;
  }
  const buttons: Found[] = [];
  for (const { start, end } of runs) {
    const name = /^( +)([A-Z][\w'-]*(?: [\w'-]+)?)( +)$/.exec(view.text(row, start, end));
    if (!name || view.background(row, start) !== view.background(row, runs[0]!.start) || !view.free(row, start, end))
      return [];
    buttons.push({ kind: "button", row, col: start, width: end - start, height: 1, label: name[2]!, selected: false });
  }
  if (buttons.length < 2) return [];
  const looks = buttons.map((b) => view.spanStyle(row, b.col, b.col + b.width));
  const lone = drawnApart(buttons, looks);
  if (lone.length === 1 && buttons.length > 2) lone[0]!.selected = true;
  for (const b of buttons) view.use(row, b.col, b.width);
  view.use(row, box.left + 1, box.right - box.left - 1);
  return buttons;
}

/**
 * opencode's "▌ Allow once ▐  Allow always   Reject  ctrl+f fullscreen…": the focused choice a
 * pill of its own background, the others plain words after it, key hints after those.
 */
function pillButtons(view: View, row: number): Found[] {
  const line = view.flat[row]!;
  for (let col = 1; col < view.cols - 3; col++) {
    const bg = view.background(row, col);
    if (bg === view.background(row, col - 1) || line[col] !== " " || line[col + 1] === " ") continue;
    let end = col + 1;
    while (end < view.cols && view.background(row, end) === bg) end++;
    const text = line.slice(col, end);
    if (!/^ [A-Z][A-Za-z ,'-]{0,23}[a-z] $/.test(text) || !view.free(row, col, end)) continue;
    // Plain choices follow, two or more blanks apart, up to the key hints.
    const rest = line.slice(end);
    const buttons: Found[] = [
      { kind: "button", row, col, width: end - col, height: 1, label: text.trim(), selected: true },
    ];
    let at = end;
    for (const piece of rest.matchAll(/(\s{2,})(\S+(?: \S+)?)/g)) {
      const start = end + piece.index! + piece[1]!.length;
      if (!/^[A-Z][a-z]+(?: [a-z]+)?$/.test(piece[2]!) || !view.free(row, start, start + piece[2]!.length)) break;
      buttons.push({ kind: "button", row, col: start, width: piece[2]!.length, height: 1, label: piece[2]! });
      at = start + piece[2]!.length;
    }
    // And before it, drawn plain as those are, back to the row's title (claude's tabs: "Permissions" bold, then
    // "Recently blocked", the lit " Allow ", "Ask"…).
    const plain = buttons.length > 1 ? view.spanStyle(row, buttons[1]!.col, buttons[1]!.col + buttons[1]!.width) : "";
    const before = [...line.slice(0, col).matchAll(/\S+(?: \S+)?/g)].reverse();
    for (const [i, piece] of before.entries()) {
      const start = piece.index!;
      const gap = i === 0 ? col - (start + piece[0].length) : before[i - 1]!.index! - (start + piece[0].length);
      if (
        gap < 2 ||
        !/^[A-Z][a-z]+(?: [a-z]+)?$/.test(piece[0]) ||
        view.spanStyle(row, start, start + piece[0].length) !== plain ||
        !view.free(row, start, start + piece[0].length)
      )
        break;
      buttons.splice(1, 0, { kind: "button", row, col: start, width: piece[0].length, height: 1, label: piece[0] });
    }
    if (buttons.length < 2) continue;
    // Choices all on the pill's colour are drawn alike: none is told apart as the focused one
    // (blessed's "Okay  Cancel").
    if (buttons.slice(1).every((b) => view.background(row, b.col) === bg)) buttons[0]!.selected = false;
    for (const b of buttons) view.use(b.row, b.col, b.width);
    const hints = line.slice(at).trim();
    if (/[\p{L}\p{N}]/u.test(hints)) {
      const start = at + line.slice(at).search(/\S/);
      buttons.push({ kind: "status", row, col: start, width: line.trimEnd().length - start, height: 1, text: hints });
      view.use(row, start, line.trimEnd().length - start);
    }
    return buttons;
  }
  return [];
}

/**
 * A form's other fields in a box, plain (no underline, no colour), each a row of a label and a colon at the column the
 * field holding the cursor has its label, blanks or a value from that field's value column to the frame (sngrep's
 * filter form: "  SIP From:" with the cursor, then "  SIP To:", "  Source:", "  Destination:", "  Payload:"). Read
 * after the fields: each such row next to the cursor's, up or down until a row that is not one, is an input labelled
 * by its words, from the value column to the frame.
 */
export function formRows(view: View, boxes: Box[], found: Found[]): Found[] {
  const out: Found[] = [];
  const { cursor } = view;
  const field = found.find((e) => e.kind === "input" && e.cursor && e.label && cursor.visible && e.row === cursor.row);
  const box = field ? boxAround(boxes, cursor.row, cursor.col) : undefined;
  if (!field || !box) return out;
  const LABEL_ROW = /^(\s*)([A-Za-z][\w .'/-]{0,30}?):(?=\s|$)/;
  const own = LABEL_ROW.exec(view.text(cursor.row, box.left + 1, box.right));
  if (!own || own[2] !== field.label) return out;
  const labelCol = box.left + 1 + own[1]!.length;
  const afterColon = labelCol + own[2]!.length + 1;
  const first = view.text(cursor.row, afterColon, cursor.col).search(/\S/);
  const valueCol = first >= 0 ? afterColon + first : cursor.col;
  for (const step of [-1, 1]) {
    for (let r = cursor.row + step; r > box.top && r < box.bottom; r += step) {
      if (!view.free(r, box.left + 1, box.right)) break;
      const m = LABEL_ROW.exec(view.text(r, box.left + 1, box.right));
      if (!m || m[1]!.length !== own[1]!.length || labelCol + m[2]!.length + 1 > valueCol) break;
      if (view.text(r, labelCol + m[2]!.length + 1, valueCol).trim()) break;
      out.push({
        kind: "input",
        row: r,
        col: valueCol,
        width: box.right - valueCol,
        height: 1,
        label: m[2]!,
        value: view.text(r, valueCol, box.right).trim(),
        cursor: false,
      });
      view.use(r, labelCol, box.right - labelCol);
    }
  }
  return out;
}
