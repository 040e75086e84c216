// Status and key-hint lines, menu bars across the top, and function-key bars (buttons where the program takes the
// mouse).
import { CellFlag, ColourMode, packColour } from "../cell-grid.ts";
import type { Found } from "./types.ts";
import { stripFrame, VERTICAL, type View, drawnApart } from "./view.ts";

/** `^G Help`, `M-U Undo`: nano-style key hints, three or more on a row. */
const KEY_HINT = /(?:\^|M-)[^\s]{1,2} [A-Za-z][\w-]*(?: [A-Za-z][\w-]*)*/g;

/**
 * "press 'L' to load", "Press the ? key for help" (cscope's top row), "press [enter] to confirm" (ccmake's),
 * "Press <enter> to confirm selection." (dselect's): a key named, then what it is for.
 */
const PRESS_HINT = new RegExp(
  String.raw`\b(?:press|hit|type)\b (?:the )?(?:\[[^\]\s]{1,8}\]|<[^>\s]{1,8}>|'?\S{1,6}'?)` +
    // (A key then Enter: vite's "press r + enter to restart the server".)
    String.raw`(?: \+ enter)?(?: key)? (?:to|for) \w+`,
  "i",
);

/**
 * A prompt whose other answer is a key, its colon ending it (an answer typed after it maybe): checkinstall's "Enter a
 * number to change any of them or press ENTER to continue:". A prompt, not a key hint.
 */
const KEY_OR_ANSWER = /^\S.*\bor (?:press|hit|type)\b.*[:?](?: \S{0,3})?$/i;

/**
 * A prompt's words, their ":" or "?", then a key hint wholly in parentheses ending the row: the question's own line at
 * any row (tty-prompt's "Pick a region: (Press ↑/↓/←/→ arrow to move and Enter to select)"; its multi_select's, the
 * answers so far before it and the hint going on in the next row), no status.
 */
const PROMPT_THEN_HINT = /^[^()]*\w[?:](?: [^()]+?)? \((?:press|use|hit|type)\b[^()]+(?:\)|$)/i;

/**
 * A program's banner names its version: "Mail version 8.1.2", "Interactive Elixir (1.14.0)", "kpcli v3.8.1", or its
 * name then the version opening the row (qemu's monitor: "QEMU 7.2.22 monitor - type 'help' for more information").
 */
const BANNER = /\bversion \d|\(\d+(?:\.\d+){1,3}\)|\bv\d+(?:\.\d+){1,3}\b/i;
/** A message, then how to stop the program in parentheses: "Connected (press CTRL+C to quit)". */
const TOLD_HOW_TO_STOP =
  /^\p{Lu}[\p{L}\p{N} ,.:/'-]{0,60}\S \((?:press|hit|type) [^()]{1,20} to (?:quit|exit|stop)\)$/iu;
const NAMED_VERSION = /^\p{Lu}[\w+-]* \d+\.\d+(?:\.\d+){0,2}\b/u;

/** `q:Quit`, `?: Help`, `C-T: Menu`: a key of one to three characters, a colon, a capitalised name. */
const COLON_HINT = /(?<=^|\s)[^\s:]{1,3}: ?[A-Z][a-z][\w/-]*/g;

/** A key, then what it does, in a few lower-case words: "ctrl+f fullscreen", "⇆ select", "enter confirm". */
const KEY_THEN_ACTION = new RegExp(
  [
    /^(?:(?:ctrl|alt|shift|cmd|meta)\+\S+|enter|esc|tab|space|[⇆⇅↑↓←→]+(?:\/[↑↓←→]+)?)/,
    / [a-z][\w-]*(?: [a-z][\w-]*){0,2}$/,
  ]
    .map((r) => r.source)
    .join(""),
  "i",
);

/** A line prompt ending in a remark in parentheses, then ":" or "?", maybe its answer typed after (hledger's). */
const PROMPT_REMARK = /^\S.*\([^()]+\)\s?[:?](?: \S{0,40})?$/;

/**
 * A prompt's end: a colon or "?" then a ">" it reads after, an answer typed or not (certutil's "Enter the path length
 * constraint, enter to skip [<0 for unlimited path]: >"). A prompt naming a key, not a key hint.
 */
const MARKED_PROMPT_END = /[:?] ?>(?: \S.*)?$/;

/** A sentence's start: a capitalised word, then lower-case words ("Adding transactions to journal file /tmp/…"). */
const PROSE_START = /^[A-Z][a-z]+(?: [a-z]+){3,} /;

/**
 * A row that closes a parenthesis the row above left open: that row's words going on (create-vue's answered
 * "◇  Select features …: (↑/↓ to navigate, space" over "│   to select, …, enter to confirm)"), not a hint of its own.
 */
function closesAbove(view: View, row: number): boolean {
  const open = (text: string) => (text.match(/\(/g) ?? []).length - (text.match(/\)/g) ?? []).length;
  return row > 0 && open(view.flat[row - 1]!) > 0 && open(view.flat[row]!) < 0;
}

/** A row that ends a sentence between rows that end sentences too: a paragraph's, not a hint or a bar. */
function inParagraph(view: View, row: number): boolean {
  const sentence = (r: number) => r >= 0 && r < view.rows && /\p{L}.*[.!]$/u.test(view.flat[r]!.trim());
  return sentence(row - 1) && sentence(row) && sentence(row + 1);
}

/**
 * A program's notice of what it does or warns of, a word in -ing or a diagnostic's kind opening the row: at's "warning:
 * commands will be executed using /bin/sh", gp's "Reading GPRC: /etc/gprc". Output, not where you are.
 */
const NOTICE = /^(?:[A-Z]?[a-z]{3,}ing|[Ee]rror|[Nn]ote|[Nn]otice|[Ii]nfo|[Hh]int|[Ff]atal)\b/;

/**
 * A row opening with the same marks as the row above (gp's "  ***   Break loop: type 'break' to go back …" under "  ***
 * _/_: impossible inverse in gdiv: 0."): a message's rows going on, not a hint of its own.
 */
function markedBlock(view: View, row: number): boolean {
  const lead = /^\s*([^\p{L}\p{N}\s]{2,})\s/u.exec(view.flat[row]!);
  return lead !== null && row > 0 && view.flat[row - 1]!.trimStart().startsWith(lead[1]!);
}

/** A pager's prompt for the next page: more(1)'s "--More--(42%)", readline's list of completions. */
const MORE_PROMPT = /^--More--(?:\(\d{1,3}%\))?$/;

/** A menu bar's entry: a capitalised word, or two joined by a hyphen ("Local-Hex"). */
const MENU_WORD = /^[A-Z][a-z]{1,11}(?:-[A-Z]?[a-z]{1,11})?$/;

/**
 * A menu bar kept at the top row's right end: one to four capitalised words on a bar off the backdrop, each padded with
 * blanks ("  Analysis    Misc  ", gowid's), the open one maybe on a colour of its own, a title on the backdrop before
 * them. The words open drop-downs: buttons; the title a status.
 */
function cornerMenuBar(view: View): Found[] {
  if (view.rows < 4 || view.cols < 40 || !view.free(0, 0, view.cols)) return [];
  const line = view.flat[0]!;
  if (line.trimEnd().length < view.cols - 3) return [];
  let end = view.cols;
  while (end > 0 && view.background(0, end - 1) === view.backdrop && line[end - 1] === " ") end--;
  let start = end;
  while (start > 0 && view.background(0, start - 1) !== view.backdrop) start--;
  const bar = line.slice(start, end);
  const words = [...bar.matchAll(/\S+/g)];
  const title = line.slice(0, start).trimEnd();
  if (
    start < view.cols / 2 ||
    words.length < 1 ||
    words.length > 4 ||
    !words.every((w) => /^[A-Z][a-z]{1,11}$/.test(w[0])) ||
    !/^ /.test(bar) ||
    !/[\p{L}\p{N}]/u.test(title) ||
    start - title.length < 2 ||
    !view.free(0, 0, start)
  )
    return [];
  // Padded apart: two blanks or more between words, none of them on the backdrop.
  if (words.some((w, i) => i > 0 && w.index! - (words[i - 1]!.index! + words[i - 1]![0].length) < 2)) return [];
  const looks = words.map((w) => view.spanBackground(0, start + w.index!, start + w.index! + w[0].length));
  const lone = drawnApart(looks, looks);
  let open = lone.length === 1 ? looks.indexOf(lone[0]!) : -1;
  // Each of two drawn apart: the open one is the word its drop-down (a frame from the row under) is hung from, the
  // word nearest one of the frame's sides.
  if (lone.length === 2 && words.length === 2) {
    const row = view.flat[1]!;
    const left = row.search(/[┌┍┎┏╒╓╔╭]/);
    const right = left < 0 ? -1 : row.slice(left + 1).search(/[┐┑┒┓╕╖╗╮]/) + left + 1;
    const gaps = words.map((w) => {
      const from = start + w.index!;
      const to = from + w[0].length;
      return from > left && to <= right ? Math.min(from - left - 1, right - 1 - to) : Number.POSITIVE_INFINITY;
    });
    const near = Math.min(...gaps);
    if (right > left && near < Number.POSITIVE_INFINITY && gaps.filter((g) => g === near).length === 1)
      open = gaps.indexOf(near);
  }
  const out: Found[] = words.map((w, i) => ({
    kind: "button",
    row: 0,
    col: start + w.index!,
    width: w[0].length,
    height: 1,
    label: w[0],
    selected: i === open,
  }));
  const lead = title.length - title.trimStart().length;
  out.push({ kind: "status", row: 0, col: lead, width: start - lead, height: 1, text: title.trim() });
  view.use(0, 0, view.cols);
  return out;
}

/**
 * A row of names, each over a column the rows under it fill (off the row's colour): a table's header on the top bar's
 * colour (perf report's "  Children      Self  Command   Shared Object …" under its "Samples: …" title), no title row.
 */
function headsColumns(view: View, row: number): boolean {
  if (row + 3 >= view.rows || view.spanBackground(row + 1, 0, view.cols) === view.spanBackground(row, 0, view.cols))
    return false;
  const names = [...view.flat[row]!.matchAll(/\S+(?: \S+)*/g)];
  if (names.length < 3) return false;
  const filled = names.filter((name) =>
    [1, 2, 3].every((d) => view.text(row + d, name.index!, name.index! + name[0].length).trim() !== ""),
  );
  return filled.length >= names.length * 0.75;
}

/** "[SPACE] to toggle - [ENTER] to proceed": a key in brackets, then what it does. */
const BRACKET_TO = /\[[^\]\s]{1,12}\] to [a-z]+/gi;

/** "ENTER: OK, ESC: Cancel", "ESC: exit, ENTER|->: Select option": a key's name, a colon, what it does. */
const KEY_COLON_PART = new RegExp(
  [
    /^(?:enter|esc|escape|tab|space|return|backspace|del|f\d{1,2}|(?:ctrl|alt|shift)[-+]\w+)/,
    /(?:\|\S{1,6})?: [A-Za-z][\w ]{0,20}$/,
  ]
    .map((r) => r.source)
    .join(""),
  "i",
);

/** "[?] Help [Enter] Exp. Panel … [q]uit": keys in brackets, each before or inside a name. */
const BRACKET_KEY = /\[[^\]\s]{1,8}\] ?[A-Za-z]/g;

/**
 * Key-hint rows a full-screen program draws in its boxes or at its bottom (goaccess's, perf report's): each a status
 * over its own cells, between the frame's sides that hold it.
 */
function keyHintRows(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    // The hint's part of the row: between the frame sides around its first word.
    const first = line.search(/\S/);
    if (first < 0) continue;
    const spans = [...line.matchAll(/[^│┃║|]+/g)].filter((m) => m[0].trim());
    for (const span of spans) {
      const text = span[0].trim();
      const start = span.index! + span[0].indexOf(text);
      const parts = text.split(/,\s+|\s+-\s+/);
      const hint =
        (text.match(BRACKET_TO) ?? []).length >= 2 ||
        (parts.length >= 2 && parts.every((part) => KEY_COLON_PART.test(part))) ||
        (row >= view.rows - 2 && (text.match(BRACKET_KEY) ?? []).length >= 3);
      if (!hint || !view.free(row, start, start + text.length)) continue;
      // Answers by key under a question in the same box ("Do you really want to exit?" over "Enter: Yes, ESC: No"):
      // the question's, each answer an item keyed by its key's name.
      const answers = parts.map((part) => /^([^:]+): ([A-Za-z]+)$/.exec(part));
      let asked = -1;
      for (let r = row - 1; r >= Math.max(0, row - 3) && asked < 0; r--) {
        const above = view.text(r, start, span.index! + span[0].length).trim();
        if (
          /\?$/.test(above) &&
          view.flat[r]!.indexOf(above, start) === start &&
          view.free(r, start, start + above.length)
        )
          asked = r;
        else if (above) break;
      }
      if (asked >= 0 && answers.every((a) => a && /^(?:yes|no)$/i.test(a[2]!))) {
        const label = view.text(asked, start, span.index! + span[0].length).trim();
        const items = answers.map((a) => {
          const col = start + text.indexOf(a![0]);
          return { label: a![2]!, row, col, width: a![0].length, key: a![1]! };
        });
        out.push({
          kind: "question",
          row: asked,
          col: start,
          width: Math.max(label.length, text.length),
          height: row - asked + 1,
          label,
          items,
        });
        view.use(asked, start, label.length);
        view.use(row, start, text.length);
        continue;
      }
      out.push({ kind: "status", row, col: start, width: text.length, height: 1, text });
      view.use(row, start, text.length);
    }
  }
  return out;
}

/**
 * A key, " - ", then what it does, a capital first (`KEY_DASH`: turbo's "↑ ↓ - Select", "m - More binds", "u/d - Scroll
 * logs", "Ctrl-z - Stop interacting"): no figure for a key (cookiecutter's "1 - MIT" is an option).
 */
const KEY_DASH =
  /(?:[↑↓←→](?: [↑↓←→])?|(?:ctrl|alt|shift)[-+]\S|[^\s\d]{1,3}(?:\/[^\s\d]{1,3})?) - \p{Lu}\p{Ll}*(?: \p{Ll}+){0,3}/iu;
/** A KEY_DASH hint cut by a box or the screen's edge ("↑ ↓ - Se", "t/" of "t/b - Jump to top"). */
const KEY_DASH_CUT = /^(?:[↑↓←→](?: [↑↓←→])?|[^\s\d]{1,3}(?:\/[^\s\d]{0,3})?)(?: -(?: \p{Lu}\S*)?)?$/u;

/**
 * Key hints in the bottom rows, each a key, a dash and what it does, two blanks or more apart (`KEY_DASH`: turbo's "i -
 * Interact   u/d - Scroll logs   U/D - Page logs" beside "m - More binds" under "↑ ↓ - Select"), in a run of free cells
 * between frames or panes: a status, rows of them one under another at one column one status. The last hint may be
 * cut where a box or the screen's edge stops it; a run of one hint counts only in a status of two or more.
 */
function dashHintRows(view: View): Found[] {
  const runs: { row: number; start: number; end: number; hints: number; whole: boolean }[] = [];
  for (let row = Math.max(0, view.rows - 3); row < view.rows; row++) {
    let col = 0;
    while (col < view.cols) {
      const frame = (c: number) => !view.free(row, c, c + 1) || VERTICAL.includes(view.char(row, c));
      if (frame(col)) {
        col++;
        continue;
      }
      let end = col;
      while (end < view.cols && !frame(end)) end++;
      const text = view.text(row, col, end);
      const parts = text.trim().split(/\s{2,}/);
      const whole = parts.filter((p) => new RegExp(`^${KEY_DASH.source}$`, "iu").test(p)).length;
      const cut =
        KEY_DASH_CUT.test(parts[parts.length - 1]!) &&
        (end === view.cols || frame(end)) &&
        text.trimEnd().length === text.length;
      if (text.trim() && (whole === parts.length || (whole === parts.length - 1 && cut)) && (whole || cut)) {
        const start = col + text.search(/\S/);
        runs.push({ row, start, end: col + text.trimEnd().length, hints: parts.length, whole: whole > 0 });
      }
      col = end;
    }
  }
  const out: Found[] = [];
  const taken = new Set<(typeof runs)[number]>();
  for (const run of runs) {
    if (taken.has(run)) continue;
    const block = [run];
    for (let next = runs.find((r) => r.row === run.row + 1 && r.start === run.start); next; ) {
      block.push(next);
      const last: (typeof runs)[number] = next;
      next = runs.find((r) => r.row === last.row + 1 && r.start === run.start);
    }
    // (One hint alone: only beside other hints on its row, a bar another pane cuts: "Ctrl-z - Stop interacting".)
    const hints = block.reduce((n, r) => n + r.hints, 0);
    const beside = runs.some((r) => r !== run && r.row === run.row);
    if ((hints < 2 && !beside) || !block.some((r) => r.whole)) continue;
    for (const r of block) taken.add(r);
    const width = Math.max(...block.map((r) => r.end)) - run.start;
    const text = block.map((r) => view.text(r.row, run.start, run.start + width).trimEnd()).join("\n");
    out.push({ kind: "status", row: run.row, col: run.start, width, height: block.length, text });
    for (const r of block) view.use(r.row, r.start, r.end - r.start);
  }
  return out;
}

export function findStatus(view: View): Found[] {
  const out: Found[] = [...cornerMenuBar(view), ...keyedMenuBar(view)];
  out.push(...keyHintRows(view));
  out.push(...dashHintRows(view));
  const hintRows: number[] = [];
  for (let row = 0; row < view.rows; row++) {
    const matches = view.flat[row]!.match(KEY_HINT);
    // Or mail and news readers' "q:Quit  d:Del  ?:Help", aptitude's "C-T: Menu  q: Quit": a key, a colon, a name.
    const colons = view.flat[row]!.match(COLON_HINT);
    // Or bpython's "<C-r> Rewind  <C-s> Save  <F8> Pastebin": a key in angle brackets, then its name.
    const angled = view.flat[row]!.match(/<[^<>\s]{1,6}> [A-Z]\w*/g);
    // Or mtr's "Keys:  Help   Display mode   Restart statistics …": a row that says it lists keys.
    const keysRow = /^\s*(?:Keys|Commands|Shortcuts|Hotkeys):\s+\S+(?: \S+)*\s{2,}\S/.test(view.flat[row]!);
    // Or newt's "<Tab>/<Alt-Tab> between elements  |  <Space> selects  |  <F12> next screen" at the bottom.
    const keyed =
      row >= view.rows - 3 &&
      (view.flat[row]!.match(/<[^<>\s]{1,10}>/g) ?? []).length >= 3 &&
      view.flat[row]!.includes("|");
    // Or opencode's "Connect provider ctrl+a  Favorite ctrl+f": names each followed by its key, and nothing else.
    const named = view.flat[row]!.trim().split(/\s{2,}/);
    const trailing =
      named.length >= 2 &&
      named.every((part) => /^[A-Z][\w-]*(?: [\w-]+){0,3} (?:ctrl|alt|shift|cmd|meta)\+\S+$/i.test(part));
    // Or opencode's "ctrl+f fullscreen  ⇆ select  enter confirm": keys each before what they do, and nothing else.
    const parts = stripFrame(view.flat[row]!)
      .trim()
      .split(/\s{2,}/);
    const leading = parts.length >= 2 && parts.every((part) => KEY_THEN_ACTION.test(part));
    if (
      (matches && matches.length >= 3) ||
      (colons && colons.length >= 3) ||
      (angled && angled.length >= 3) ||
      keysRow ||
      keyed ||
      trailing ||
      leading
    )
      hintRows.push(row);
    // Or at the bottom, a row made only of "key Name" pairs two blanks apart, the keys in their own colour
    // (calcurse's "? Help   s Save   TAB Chg Win   ^P Prv View", alpine's "? Help  < FldrList").
    else if (row >= view.rows - 3) {
      const line = view.flat[row]!;
      const pairs = [...line.matchAll(/(?<=^|\s{2})(\S{1,3}) [A-Z][\w-]*(?: [A-Za-z][\w-]*){0,2}(?=\s{2}|\s*$)/g)];
      const covered = pairs.reduce((n, m) => n + m[0].length, 0);
      const inked = pairs.filter(
        (m) =>
          view.spanStyle(row, m.index!, m.index! + m[1]!.length) !==
          view.spanStyle(row, m.index! + m[1]!.length + 1, m.index! + m[0].length),
      );
      if (
        (pairs.length >= 3 &&
          covered === line.replace(/\s/g, "").length + pairs.reduce((n, m) => n + m[0].split(" ").length - 1, 0) &&
          inked.length >= pairs.length * 0.75) ||
        pipedKeys(view, row)
      )
        hintRows.push(row);
    }
  }
  // Rows under a row that says it lists keys, starting where its first key does, each holding a key in brackets and
  // its name (ccmake's "Keys: [enter] Edit an entry …" over "      [l] Show log output   [c] Configure"): its rows.
  // (Rows another detector took, a question of such keys, end it as far as this status goes, but not the block.)
  const keyBlocks: { top: number; last: number }[] = [];
  for (const row of [...hintRows]) {
    const head = /^(\s*(?:Keys|Commands|Shortcuts|Hotkeys):\s+)\S/.exec(view.flat[row]!);
    if (!head) continue;
    const col = head[1]!.length;
    let last = row;
    let free = true;
    while (
      last + 1 < view.rows &&
      view.flat[last + 1]!.search(/\S/) === col &&
      /^\[[^\]\s]{1,8}\] \S/.test(view.flat[last + 1]!.slice(col))
    ) {
      last++;
      free &&= view.free(last, 0, view.cols);
      if (free && !hintRows.includes(last)) hintRows.push(last);
    }
    keyBlocks.push({ top: row, last });
  }
  hintRows.sort((a, b) => a - b);
  // A block of key help under its heading (prompts' "Instructions:" over "    ↑/↓: Highlight option"): one status.
  for (let row = 0; row + 1 < view.rows; row++) {
    if (
      !/^\s*(?:Instructions|Keys|Key bindings|Shortcuts|Controls|Usage):\s*$/i.test(view.flat[row]!) ||
      !view.free(row, 0, view.cols)
    )
      continue;
    let last = row;
    while (
      last + 1 < view.rows &&
      /^\s+[^\s:][^:]{0,24}: \S/.test(view.flat[last + 1]!) &&
      view.free(last + 1, 0, view.cols)
    )
      last++;
    if (last > row) out.push(status(view, row, last));
    row = last;
  }
  // A full-width bar right over hint rows at the bottom is the mode line they belong with (calcurse's
  // "───[ Tue 2026-12-01 | 20:52:57 ]───(apts)───", drawn in reverse with rules).
  const bottom = hintRows.filter((r) => r >= view.rows - 3);
  // (Or over a block of key rows that reaches the bottom, ccmake's help line for the focused entry.)
  const block = keyBlocks.find((b) => b.last >= view.rows - 3);
  const over = block ? block.top - 1 : bottom.length ? bottom[0]! - 1 : -1;
  // (Not a prompt there, nano's "Search:", which holds the cursor.)
  if (
    over > 0 &&
    !hintRows.includes(over) &&
    !(view.cursor.visible && view.cursor.row === over) &&
    /[\p{L}\p{N}]/u.test(view.flat[over]!) &&
    view.spanBackground(over, 0, view.cols) !== view.backdrop &&
    view.spanBackground(over, 0, view.cols).startsWith("i")
  ) {
    out.push(status(view, over, over));
  }
  // Consecutive hint rows are one status element.
  for (let i = 0; i < hintRows.length; ) {
    let j = i;
    while (j + 1 < hintRows.length && hintRows[j + 1] === hintRows[j]! + 1) j++;
    out.push(status(view, hintRows[i]!, hintRows[j]!));
    i = j + 1;
  }
  // A top row shaped like the one under it (tig's "2026-11-26 21:00 …" over "2026-11-26 20:34 …") is a list's selected
  // row.
  const shape = (r: number) =>
    /^\s*\S+/
      .exec(view.flat[r] ?? "")?.[0]
      .replace(/\d/g, "9")
      .replace(/\p{L}/gu, "a");
  // A list's selected row right under a title bar, on the bar's colour (newsboat's first feed): the title is told from
  // the row under that.
  const listed = (r: number) =>
    r + 1 < view.rows &&
    shape(r) !== undefined &&
    shape(r) === shape(r + 1) &&
    view.spanBackground(r, 0, view.cols) !== view.spanBackground(r + 1, 0, view.cols);
  // A full-width highlighted row at the very top or bottom: a title or mode line, or a menu bar.
  for (const row of [0, view.rows - 1, view.rows - 2]) {
    // (Not a bar being typed in: tmux's prompt, ":rename-window build", its cursor a cell it draws.)
    if (
      row < 0 ||
      !view.free(row, 0, view.cols) ||
      (view.cursor.visible && view.cursor.row === row && row > 0 && /^[:/?]\S/.test(view.flat[row]!))
    )
      continue;
    // (Nor a bottom bar opening with a prompt the visible cursor waits after, nothing drawn past it: nefte's "Find:",
    // an input.)
    if (row > 0 && promptOnBar(view, row)) continue;
    // Choices parted by "│" ending a bottom bar (nefte's "File Modified: … │Save│As│All│Discard│Cancel"): buttons.
    const parted = row > 0 ? partedChoices(view, row) : [];
    if (parted.length) {
      out.push(...parted);
      view.use(row, 0, view.cols);
      continue;
    }
    const text = view.text(row, 0, view.cols);
    if (!text.trim() || (/^\s*\S+\s*$/.test(text) && text.trim().length < 3)) continue;
    let lit = 0;
    let barred = 0;
    const under =
      row === 0
        ? listed(1) &&
          shape(0) !== shape(1) &&
          view.spanBackground(1, 0, view.cols) === view.spanBackground(0, 0, view.cols)
          ? 2
          : 1
        : row - 1;
    // (Barred: off the screen's backdrop, or coloured over other rows when a dialog of the bar's
    // colour fills most of the screen, mc's user menu.)
    let coloured = 0;
    for (let col = 0; col < view.cols; col++) {
      if (view.background(row, col) !== view.background(under, col)) lit++;
      if (view.background(row, col) !== view.backdrop) barred++;
      if (view.background(row, col) !== "0" && view.background(row, col) !== view.background(under, col)) coloured++;
    }
    barred = Math.max(barred, coloured);
    // A menu bar: three or more capitalised words alone on a bar across the top (emacs's "File Edit
    // Options…", aptitude's, mc's), whatever the rows under it look like (aptitude's are the same blue).
    // (A drop-down drawn from it may leave a stray mark or letter on it: emacs's " File > t Options…".)
    // A hint after the entries, set off by a wide gap (visidata's "Ctrl+H for help menu"), is not one.
    // (A lead-in before the entries, jed's "F10 key ==> ", is not one of them.)
    const leadIn = /^\s*\S.{0,14}?(?:==>|->|=>|»)\s+/.exec(view.flat[row]!)?.[0].length ?? 0;
    const all = [...view.flat[row]!.matchAll(/\S+/g)].filter((w) => w.index! >= leadIn);
    const apart = all.findIndex((w, i) => i >= 3 && w.index! - (all[i - 1]!.index! + all[i - 1]![0].length) >= 4);
    // (An entry of two words joined by a hyphen is one: hte's "Local-Hex".)
    const entry = (w: RegExpMatchArray) => MENU_WORD.test(w[0]);
    const tokens =
      apart > 0 && all.slice(0, apart).every(entry) && !all.slice(apart).every(entry) ? all.slice(0, apart) : all;
    const menuWords = tokens.filter(entry);
    const strays = tokens.filter((w) => !menuWords.includes(w));
    // Entries stand a few blanks apart; names far apart over panes (cmus's "Artist / Album …  Track …  Library") head
    // the panes.
    const spread = menuWords.some(
      (w, i) => i > 0 && w.index! - (menuWords[i - 1]!.index! + menuWords[i - 1]![0].length) > 8,
    );
    if (
      row === 0 &&
      barred >= view.cols * 0.8 &&
      menuWords.length >= 3 &&
      !spread &&
      strays.length <= 2 &&
      strays.every((w) => w[0].length <= 2) &&
      menuWords.length >= tokens.length * 0.75
    ) {
      // The open one is drawn unlike the others (aptitude's "Actions" when its menu is down).
      const looks = menuWords.map(
        (w) =>
          view.spanStyle(row, w.index!, w.index! + w[0].length) +
          view.spanBackground(row, w.index!, w.index! + w[0].length),
      );
      const lone = drawnApart(looks, looks);
      for (const [i, w] of menuWords.entries())
        out.push({
          kind: "button",
          row,
          col: w.index!,
          width: w[0].length,
          height: 1,
          label: w[0],
          selected: lone.length === 1 && looks[i] === lone[0],
        });
      view.use(row, 0, tokens === all ? view.cols : all[apart]!.index!);
      if (leadIn) view.use(row, 0, leadIn);
    }
    // A bar that opens the screen, its rows under it on the same colour: title and key-hint rows (aptitude's).
    // (No menu bar on it: the bar and those rows are one status, hg's chunk selector's "Select hunks to record - …"
    // over "arrow keys: move/expand/collapse …".)
    if (row === 0 && barred >= view.cols * 0.8) {
      let r = 1;
      while (
        r < 3 &&
        view.spanBackground(r, 0, view.cols) === view.spanBackground(0, 0, view.cols) &&
        view.text(r, 0, view.cols).trim() &&
        !listed(r) &&
        !headsColumns(view, r)
      )
        r++;
      const rest = Array.from({ length: r - 1 }, (_, i) => i + 1);
      if (r > 1 && view.free(0, 0, view.cols) && rest.every((under) => view.free(under, 0, view.cols))) {
        out.push(status(view, 0, r - 1));
        continue;
      }
      for (const under of rest) if (view.free(under, 0, view.cols)) out.push(status(view, under, under));
      // (A table's header right under it on its colour: the bar alone is the title.)
      if (r === 1 && headsColumns(view, 1) && view.free(0, 0, view.cols) && /[\p{L}\p{N}]/u.test(view.flat[0]!)) {
        out.push(status(view, 0, 0));
        continue;
      }
    }
    if (!view.free(row, 0, view.cols)) continue;
    // A strip of tabs across the top: the open one's words on the plain backdrop, the strip in reverse from there to
    // the row's end (aerc's " New account" then its bar).
    if (row === 0 && tabStrip(view)) {
      out.push(status(view, 0, 0));
      continue;
    }
    const highlighted =
      lit >= view.cols * 0.8 &&
      view.background(row, 0) !== `${0}` &&
      view.spanBackground(row, 0, view.cols) !== view.backdrop;
    if (!highlighted || (row === 0 && shape(0) === shape(1))) continue;
    // mc's "  Left     File     Command…": single words far apart are menus to open.
    const words = [...view.flat[row]!.matchAll(/\S+/g)];
    const gaps = words.slice(1).map((w, i) => w.index! - (words[i]!.index! + words[i]![0].length));
    // vim's wildmenu, a tab line: names two blanks apart, all on one background but one, is a menu
    // (a status line's segments in several colours are not).
    const names = [...view.flat[row]!.matchAll(/\S+(?: \S+)*/g)];
    const looks = names.map((w) => view.spanBackground(row, w.index!, w.index! + w[0].length));
    const lone = drawnApart(names, looks);
    if (words.length >= 3 && words.every((w) => /^[A-Z][a-z]+$/.test(w[0])) && gaps.every((gap) => gap >= 3)) {
      for (const w of words)
        out.push({ kind: "button", row, col: w.index!, width: w[0].length, height: 1, label: w[0] });
      view.use(row, 0, view.cols);
    } else if (
      names.length >= 3 &&
      lone.length === 1 &&
      new Set(looks).size === 2 &&
      // (Not a bar of key hints, the current mode's tab drawn apart: hatop's " 1-STATUS  2-TRAFFIC … 5-CLI", a key, a
      // dash or "=" and its name, the program's keys, not items to move to.)
      names.filter((w) => TAB_KEY.test(w[0])).length < names.length / 2
    ) {
      const items = names.map((w) => ({
        label: w[0],
        row,
        col: w.index!,
        width: w[0].length,
        selected: w === lone[0],
      }));
      const width = items[items.length - 1]!.col + items[items.length - 1]!.width - items[0]!.col;
      out.push({ kind: "menu", row, col: items[0]!.col, width, height: 1, items });
      view.use(row, 0, view.cols);
    } else out.push(status(view, row, row));
  }
  // Two or more rows in reverse across the screen, apart: windows' status lines (vim's split, its
  // help window over "[No Name]"); a list has one selected row, not several.
  const reversed: number[] = [];
  const { flags } = view.grid;
  for (let row = 0; row < view.rows; row++) {
    // (Flags read directly, and only rows that start reversed: this runs on every screen.)
    if (!(flags[row * view.cols]! & CellFlag.inverse) || view.char(row, 0).trim() === "") continue;
    let inverse = 0;
    for (let i = row * view.cols; i < (row + 1) * view.cols; i++) if (flags[i]! & CellFlag.inverse) inverse++;
    if (inverse >= view.cols * 0.9) reversed.push(row);
  }
  if (reversed.length >= 2 && reversed.every((r, i) => i === 0 || r > reversed[i - 1]! + 1)) {
    for (const r of reversed) if (view.free(r, 0, view.cols)) out.push(status(view, r, r));
  }
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    // Inside a frame (a dialog's hint row), the frame is not part of the line.
    const trimmed = stripFrame(line);
    const start = trimmed ? line.indexOf(trimmed) : 0;
    if (!view.free(row, start, start + trimmed.length) && !/[─━]{5}/.test(line)) continue;
    const near = row >= view.rows - 3;
    // fzf's inline counter after the query ("> .c  < 8/17 ────"): a status of its own, the query an input.
    const inline = /\s{2}(< \d+\/\d+(?: \(\d+\))? ?[─━]{5,})\s*$/.exec(line);
    if (
      inline &&
      line.slice(0, inline.index).trim() &&
      view.free(row, inline.index + 2, inline.index + 2 + inline[1]!.search(/[─━]/))
    ) {
      const col = inline.index + 2;
      out.push({ kind: "status", row, col, width: inline[1]!.length, height: 1, text: inline[1]! });
      view.use(row, col, inline[1]!.length);
      continue;
    }
    // fzf's "8/8 ────": a counter on a rule.
    const counter = /^\d+\/\d+(?: \(\d+\))?(?: [^─━]{0,20})? ?[─━]{5,}$/.test(trimmed);
    // inquirer's "↑↓ navigate • ⏎ select": key hints between bullets.
    const bullets = /\S • \S/.test(trimmed) && /[↑↓←→⏎]|\b(?:navigate|select|submit|cancel|enter|esc)\b/i.test(trimmed);
    // nano's "[ Read 1 line ]": a message in brackets over the key hints.
    // (Not a row of bracketed buttons: cgdisk's "[ Verify ]  [ Write  ]".)
    const message =
      near && (/^\[ [^\]]+ \]$/.test(trimmed) || /^\[[A-Z][^\]]{20,}\]$/.test(trimmed)) && trimmed.length < view.cols;
    // Agent CLIs' "Esc to cancel · Tab to amend", "Press enter to confirm or esc to cancel", a spinner's line.
    // A line of only "ctrl+t toggle visibility": a key and what it does.
    // Instructions at an edge: "press 'L' to load…", "Ctrl-U to delete…", lynx's "H)elp O)ptions P)rint".
    // (A prompt's own line, "? Pick a licence › - arrow keys to move", is the question's, at any row: commitizen's
    // answered "? Provide a longer description of the change: (press enter to skip)" over the next question.)
    // (Or a line wholly in parentheses anywhere: inquirer's "(Move up and down to reveal more choices)".)
    // (Nor a program's banner, its version named: iex's "Interactive Elixir (1.14.0) - press Ctrl+C to exit (type h()
    // ENTER for help)", mail's "Mail version 8.1.2 01/15/2001.  Type ? for help.": output above the first prompt.)
    // (A bar's two ends far apart are no banner: cscope's "Cscope version 15.9        Press the ? key for help".)
    // (Nor a message that tells how to stop the program in parentheses after it, one run of words: wscat's "Connected
    // (press CTRL+C to quit)", "Listening on port 8080 (press CTRL+C to quit)": a line of its output.)
    const banner =
      ((BANNER.test(trimmed) || NAMED_VERSION.test(trimmed)) && !/\S\s{3,}\S/.test(trimmed)) ||
      TOLD_HOW_TO_STOP.test(trimmed);
    // (Nor a line prompt naming the word to type, its colon ending it and the cursor after it: "Type YES to confirm:".)
    const { cursor } = view;
    const prompting =
      cursor.visible && cursor.row === row && cursor.col >= line.trimEnd().length && /^[^()]*:$/.test(trimmed);
    const told =
      !banner &&
      !prompting &&
      (near || row === 0 || /^\([^()]+\)$/.test(trimmed)) &&
      !/^[?✔✖◆◇] \S/.test(trimmed) &&
      !KEY_OR_ANSWER.test(trimmed) &&
      !markedBlock(view, row) &&
      !PROMPT_THEN_HINT.test(trimmed) &&
      (PRESS_HINT.test(trimmed) ||
        /^(?:ctrl|c)-\w to \w+/i.test(trimmed) ||
        /\b(?:up|down|left|right|arrows?)\b[^.]{0,30}\bto (?:move|go|select|scroll|follow|choose|pick|reveal)\b/i.test(
          trimmed,
        ) ||
        (trimmed.match(/(?:^|\s)[A-Z]\)[a-z]+/g) ?? []).length >= 3);
    // (Not a sentence among sentences, hledger's banner "Use tab key to complete, …, enter to accept defaults.", nor a
    // prompt whose remark in parentheses names a key, "Account 3 (or . or enter to finish this transaction): ".)
    const keys =
      told ||
      (!banner &&
        !/^[?✔✖◆◇] \S/.test(trimmed) &&
        !PROMPT_REMARK.test(trimmed) &&
        !MARKED_PROMPT_END.test(trimmed) &&
        !KEY_OR_ANSWER.test(trimmed) &&
        !PROMPT_THEN_HINT.test(trimmed) &&
        !inParagraph(view, row) &&
        // (Nor a message's rows going on under the same marks: nimble's "        ... enter to use them." under
        // "        ... Default values are shown in square brackets, press".)
        !markedBlock(view, row) &&
        !closesAbove(view, row) &&
        (/\b(?:esc|enter|tab|ctrl\+\w|space)\b (?:to \w+|\w+ ·)/i.test(trimmed) ||
          /^(?:(?:ctrl|alt|shift)\+\w+|esc|tab) [a-z]+(?: [a-z]+)?$/i.test(trimmed)) &&
        trimmed.length < 80);
    // A spinner's line: a braille or quarter-circle frame, then what it is doing.
    // (A circle is a spinner only while it says it is busy: "◒  Installing via npm..", not claude's "◐ Medium effort".)
    const spinner = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏⣾⣽⣻⢿⡿⣟⣯⣷] +\S/.test(trimmed) || /^[◐◓◑◒◴◷◶◵] +\S.*(?:\.{2,3}|…)$/.test(trimmed);
    // Where you are, at the screen's top or bottom edge: a backtitle on a coloured backdrop, over a
    // blank row, above a dialog (dialog's, debconf's), a position ("1/9  All", "Top", "42%") on the last row, a
    // folder's path
    // (ranger's title, opencode's footer) that is not a shell's prompt.
    const edge = row === 0 || (row >= view.rows - 2 && !view.flat.slice(row + 1).some((l) => l.trim()));
    const backtitle =
      row === 0 &&
      trimmed !== "" &&
      trimmed.length < view.cols / 2 &&
      !view.flat[1]!.replace(/[─━]/g, "").trim() &&
      view.background(0, view.cols - 1) !== "0" &&
      view.flat.some((l) => /[┌╔╭]/.test(l));
    // A title alone at the top row's right end (lynx's page title).
    const corner =
      row === 0 &&
      trimmed !== "" &&
      start > view.cols / 2 &&
      start + trimmed.length === view.cols &&
      trimmed.length < 40;
    const position = row === view.rows - 1 && /\s(?:\d+\/\d+\s+)?(?:All|Top|Bot|\d{1,3}%)$/.test(trimmed);
    // A mode line drawn with dashes near the bottom (hexedit's "---  blob.bin  --0x0/0x15--0%-----").
    const dashed = row >= view.rows - 3 && /^-{2,}[ +*%-]*\S.*-{5,}$/.test(trimmed) && /\p{L}{2}/u.test(trimmed);
    // Words kept at the last row's right end, the row empty before them (kakoune's "notes.txt 1:1  normal").
    const ruler =
      row === view.rows - 1 &&
      start > view.cols / 3 &&
      start + trimmed.length >= view.cols - 1 &&
      /\p{L}{3}/u.test(trimmed) &&
      trimmed.includes(" ");
    const typing = view.cursor.visible && view.cursor.row === row;
    // (Not a message still going on, gdb's "Reading symbols from /bin/sleep...".)
    // (Nor a program's banner, "bpython version 0.24 … /usr/bin/python3", nor a prompt with a command typed after it.)
    // (Nor a logo's last row, "▝▝   ▝▝   /tmp/work", nor a box's row whose frame goes on under it.)
    const boxed =
      trimmed !== line.trim() &&
      /[│┃║]/.test(line.trim()[0] ?? "") &&
      row + 1 < view.rows &&
      view.char(row + 1, line.search(/\S/)) === line.trim()[0];
    // (Nor prose wrapped onto the next row, update-alternatives' "There are 12 choices for the
    // alternative … (providing /usr/bin/" over "editor).": a title is not cut by the right edge.)
    const wrapped = row + 1 < view.rows && proseWrapped(line, view.flat[row + 1]!, view.cols);
    const place =
      edge &&
      !typing &&
      !boxed &&
      !wrapped &&
      !/[▀-▟]/.test(trimmed) &&
      !/(?:\.\.\.|…)$/.test(trimmed) &&
      !/\bversion \d/i.test(trimmed) &&
      !/[$#%] \S/.test(trimmed) &&
      !PROSE_START.test(trimmed) &&
      !NOTICE.test(trimmed) &&
      // (Nor a message about a place in a file, "/usr/bin/buku:22: DeprecationWarning: …": a warning printed.)
      !/^\S+:\d+:\s/.test(trimmed) &&
      /(?:^|\s|@\S*[\s:])(?:~|\/[\w.-]+)\/[\w./:-]*(?:\s|$)/.test(trimmed) &&
      !/[$#%>]\s*$/.test(trimmed);
    // The message row under a mode line (emacs's echo area, vim's under its status line or its "~"
    // rows, its '"file" 34L, 1532B'), not being typed in.
    const echo =
      row === view.rows - 1 &&
      row > 0 &&
      !typing &&
      trimmed !== "" &&
      (barRow(view, row - 1) || /^~\s*$/.test(view.flat[row - 1]!) || /^".+" (?:\[[\w ]+\] )*\d+L, \d+B/.test(trimmed));
    // A file manager's line about the current file: its mode bits ("drwxr-xr-x"), or "3/9" first.
    const info =
      edge &&
      row >= view.rows - 2 &&
      (/(?:^|\s)[-dlcbps][-r][-w][-xsS][-r][-w][-xsS][-r][-w][-xtT](?:\s|$)/.test(trimmed) ||
        /^\d+\/\d+ \S/.test(trimmed));
    // A pager's prompt on the last row, drawn in reverse (less's "Manual page ls(1) line 1…", its file name).
    // (Not a number going on a column of them above: a grid's row numbers, sc's.)
    const counted = /^\d+$/.test(trimmed) && /^\s*\d+\s*$/.test(view.text(row - 1, 0, start + trimmed.length));
    // (Or above blank rows only, the cursor right after it: less's "(END)" on a page shorter than the screen.)
    const lastWritten =
      view.cursor.row === row &&
      view.cursor.col === start + trimmed.length &&
      view.flat.slice(row + 1).every((l) => !l.trim());
    const pager =
      (row === view.rows - 1 || lastWritten) &&
      trimmed !== "" &&
      !counted &&
      view.spanStyle(row, start, start + trimmed.length).includes("/i");
    // more(1)'s and readline's pager prompt on the last row, plain: "--More--", "--More--(42%)".
    const morePrompt = row === view.rows - 1 && MORE_PROMPT.test(trimmed);
    if (
      morePrompt ||
      counter ||
      bullets ||
      message ||
      keys ||
      spinner ||
      backtitle ||
      position ||
      dashed ||
      ruler ||
      place ||
      echo ||
      info ||
      pager ||
      corner
    ) {
      out.push({
        kind: "status",
        row,
        col: start,
        width: trimmed.length,
        height: 1,
        text: view.text(row, start, start + trimmed.length),
      });
      view.use(row, start, trimmed.length);
    }
  }
  out.push(...labelledFooter(view));
  out.push(...labelRows(view));
  pressHintRows(out);
  for (const row of messageRows(view)) out.push(status(view, row, row));
  const crumbs = crumbBar(view, out);
  if (crumbs !== undefined) out.push(status(view, crumbs, crumbs));
  const bar = barOverStatus(view, out);
  if (bar !== undefined) out.push(status(view, bar, bar));
  if (titleRow(view)) out.push(status(view, 0, 0));
  return out;
}

/** A mode's key on a bar: a digit and a dash, or a key and "=", before its name ("5-CLI", "Q=QUIT"). */
const TAB_KEY = /^(?:\d-|[!-<>-~]=)\p{Lu}/u;

/** A top row of three parts or more parted by " - ", the first a name and its version: pg_activity's title. */
const TITLE_PARTS = /^[A-Z][\w.-]* \d+(?:\.\d+)+ - \S.*? - \S/;

/**
 * A full-screen program's title on the top row (pg_activity's "PostgreSQL 15.18 - vm - ada@…/tides - Ref.: 2s"): its
 * parts parted by " - ", the first a name and a version, the terminal's cursor hidden and rows drawn under it. (A
 * line-mode program's banner, iex's "Interactive Elixir (1.14.0) - press Ctrl+C …", has the cursor at a prompt.)
 */
function titleRow(view: View): boolean {
  return (
    !view.cursor.visible &&
    TITLE_PARTS.test(view.flat[0]!) &&
    view.free(0, 0, view.cols) &&
    view.flat.slice(1, 4).every((l) => l.trim() !== "")
  );
}

/** The top row: words on the backdrop, then one run in reverse to the row's end, over half of it (a tab strip). */
function tabStrip(view: View): boolean {
  let from = 0;
  while (from < view.cols && !view.background(0, from).startsWith("i")) from++;
  if (from === 0 || from > view.cols / 2 || view.background(0, 0) !== view.backdrop) return false;
  const bg = view.background(0, from);
  for (let col = from; col < view.cols; col++) if (view.background(0, col) !== bg) return false;
  return /^\s?\p{L}[\p{L}\p{N} ]*$/u.test(view.text(0, 0, from).trimEnd()) && !view.text(0, from, view.cols).trim();
}

/**
 * A message on a colour of its own from the first column, in the two rows over a command line (the last row, opening
 * with ":", "/" or "?", the cursor in it): lnav's " unknown command - filter-" over its completions and ":filter-".
 */
function messageRows(view: View): number[] {
  const last = view.rows - 1;
  const { cursor } = view;
  if (!cursor.visible || cursor.row !== last || !/^[:/?]\S/.test(view.flat[last]!)) return [];
  const rows: number[] = [];
  for (const row of [last - 2, last - 1]) {
    const text = view.flat[row]!.trimEnd();
    const bg = view.background(row, 0);
    if (row < 1 || !/\p{L}{2}/u.test(text) || !view.free(row, 0, view.cols) || bg === view.backdrop) continue;
    let end = 0;
    while (end < view.cols && view.background(row, end) === bg) end++;
    if (end >= text.length && view.background(row - 1, 0) !== bg) rows.push(row);
  }
  return rows;
}

/** A path's parts parted by a breadcrumb mark: "LOG ❭2026-12-07T00:04:00.000❭syslog_log❭app.log[3]❭". */
const CRUMBS = /\S\s*[❭›»▸]\s*\S.*[❭›»▸]/;

/**
 * The row right under the top bar, on a colour of its own from the first column, holding a path of crumbs (lnav's
 * breadcrumb bar under its clock): a status. Undefined when there is none.
 */
function crumbBar(view: View, out: Found[]): number | undefined {
  if (!out.some((e) => e.kind === "status" && e.row === 0) || view.rows < 3) return;
  const at = view.flat[1]!.search(/\S/);
  if (at < 0 || at > 1 || !view.free(1, 0, view.cols) || (view.cursor.visible && view.cursor.row === 1)) return;
  const bg = view.background(1, at);
  if (bg === view.backdrop || bg === view.background(2, at)) return;
  return CRUMBS.test(view.flat[1]!) ? 1 : undefined;
}

/**
 * Two key hints in words on rows one under the other (ccmake's "Editing option, press [enter] to confirm" over
 * "                press [esc] to cancel"): one status.
 */
function pressHintRows(out: Found[]): void {
  for (let i = out.length - 1; i > 0; i--) {
    const lower = out[i]!;
    const upper = out.find((e) => e.kind === "status" && e.row === lower.row - 1);
    // (Rows merged already stay one hint each: vite's five "press r + enter to restart the server" rows, one status.)
    if (
      !upper ||
      lower.kind !== "status" ||
      upper.height !== 1 ||
      !PRESS_HINT.test(upper.text ?? "") ||
      !(lower.text ?? "").split("\n").every((line) => PRESS_HINT.test(line))
    )
      continue;
    const col = Math.min(upper.col, lower.col);
    const end = Math.max(upper.col + upper.width, lower.col + lower.width);
    const lines = [upper, lower].map((e) => (e.text ?? "").replace(/^/gm, " ".repeat(e.col - col)));
    Object.assign(upper, { col, width: end - col, height: 1 + lower.height, text: lines.join("\n") });
    out.splice(i, 1);
  }
}

/**
 * A row in reverse video across the screen, in its lower half, with only statuses and blank rows under it (ccmake's
 * help line for the focused entry over its "Keys:" rows, or over "Editing option, press [enter] to confirm"): a
 * status. (Not one holding the cursor: a bar being typed in.)
 */
function barOverStatus(view: View, out: Found[]): number | undefined {
  let row = view.rows - 1;
  const covered = (r: number) => out.some((e) => e.kind === "status" && r >= e.row && r < e.row + e.height);
  while (row > view.rows / 2 && (!view.flat[row]!.trim() || covered(row))) row--;
  if (row <= view.rows / 2 || row === view.rows - 1 || !out.some((e) => e.kind === "status" && e.row > row)) return;
  if (!view.free(row, 0, view.cols) || (view.cursor.visible && view.cursor.row === row)) return;
  if (!/[\p{L}\p{N}]/u.test(view.flat[row]!)) return;
  let inverse = 0;
  for (let col = 0; col < view.cols; col++) if (view.has(row, col, CellFlag.inverse)) inverse++;
  return inverse >= view.cols * 0.9 ? row : undefined;
}

/** A key, then what it does in one to three lower-case words: hnb's "ESC menu", "F5 commandline". */
const PIPED_KEY = /^(\S{1,8}) [a-z][\w-]*(?: [a-z][\w-]*){0,2}$/;

/**
 * A row made only of keys each before what it does, parted by "|", three or more, the keys drawn unlike their words
 * (hnb's "ESC menu | F2 save | F5 commandline | return edit", the keys in reverse): key hints.
 */
function pipedKeys(view: View, row: number): boolean {
  // (A mode's name may open the row, two blanks or more before the first key: hnb's "editing node   ESC revert | …".)
  const lead = /^\S.*?\s{2,}(?=\S[^|]*\|)/.exec(view.flat[row]!)?.[0].length ?? 0;
  const line = " ".repeat(lead) + view.flat[row]!.slice(lead);
  const parts = [...line.matchAll(/[^|]+/g)].filter((p) => p[0].trim());
  if (parts.length < 3 || !line.includes(" | ")) return false;
  let inked = 0;
  for (const p of parts) {
    const hint = PIPED_KEY.exec(p[0].trim());
    if (!hint) return false;
    const at = p.index! + p[0].search(/\S/);
    const key = hint[1]!.length;
    if (view.spanStyle(row, at, at + key) !== view.spanStyle(row, at + key + 1, at + hint[0].length)) inked++;
  }
  return inked >= parts.length * 0.75;
}

/** A capitalised label and its colon opening a row, a value after it: vfu's "Mask: *", "S.Size:  0". */
const LABEL_OPENS = /^\p{Lu}[\p{L}.]{1,10}: *\S/u;

/**
 * Two or three rows at the screen's top, or ending in its last four, each opening at the first column with a label
 * and its colon, every row's cells in one bold ink the next rows of the screen do not have (vfu's "Mask: *  …  VFU
 * 5.07 <H> for help" over "Path: /tmp/vf/  (SORT:NAME+)", its "Select: 0  Free: …" over "S.Size: 0  Total: …"): one
 * status, the program's information rows. Not a prompt holding the visible cursor.
 */
function labelRows(view: View): Found[] {
  const out: Found[] = [];
  const bold = (row: number) => {
    const style = view.spanStyle(row, 0, view.cols);
    return Number(style.split("/")[0]) & CellFlag.bold ? style : undefined;
  };
  for (let row = 0; row + 1 < view.rows; row++) {
    const style = bold(row);
    if (!style || !LABEL_OPENS.test(view.flat[row]!)) continue;
    let last = row;
    while (last + 1 < view.rows && last - row < 2 && LABEL_OPENS.test(view.flat[last + 1]!) && bold(last + 1) === style)
      last++;
    const at = row;
    row = last;
    if (last === at || (at > 0 && last < view.rows - 4)) continue;
    if (view.cursor.visible && view.cursor.row >= at && view.cursor.row <= last) continue;
    // (Unlike the screen's next rows: a body in the same ink is a list, not information over it.)
    const next = at === 0 ? last + 1 : at - 1;
    if (next < 0 || next >= view.rows || view.spanStyle(next, 0, view.cols) === style) continue;
    let free = true;
    for (let r = at; r <= last; r++) free &&= view.free(r, 0, view.cols);
    if (free) out.push(status(view, at, last));
  }
  return out;
}

/**
 * The last two rows, names far apart over their values (gemini's "workspace (/directory)  branch
 * sandbox  /model" over "/tmp/work  master  no sandbox  Auto"), each value starting or ending
 * where its name does: one status of two rows, not a table of one.
 */
function labelledFooter(view: View): Found[] {
  let last = view.rows - 1;
  while (last > 0 && !view.flat[last]!.trim()) last--;
  const top = last - 1;
  if (top < 0 || !view.free(top, 0, view.cols) || !view.free(last, 0, view.cols)) return [];
  const groups = (row: number) =>
    [...view.flat[row]!.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
  const [names, values] = [groups(top), groups(last)];
  const apart = (g: { start: number; end: number }[]) => g.slice(1).every((x, i) => x.start - g[i]!.end >= 3);
  // (Names, not a table's last rows of figures.)
  if (
    names.length < 3 ||
    names.length !== values.length ||
    !apart(names) ||
    !apart(values) ||
    /\d/.test(view.flat[top]!) ||
    !names.every((n) => /\p{L}{2}/u.test(view.text(top, n.start, n.end)))
  )
    return [];
  if (!names.every((n, i) => Math.abs(n.start - values[i]!.start) <= 1 || Math.abs(n.end - values[i]!.end) <= 1))
    return [];
  return [status(view, top, last)];
}

/**
 * The lines under the input that has the cursor, past its frame's rule, when nothing follows them
 * down to the screen's bottom: an agent CLI's footer (model, folder, mode), one status.
 */
export function footerStatus(view: View, found: Found[]): void {
  const input = found.find((e) => e.kind === "input" && e.cursor);
  if (!input) return;
  const blank = (row: number) => /^[\s─━]*$/.test(view.flat[row]!);
  let first = input.row + input.height;
  while (first < view.rows && first <= input.row + 2 && blank(first)) first++;
  let last = first;
  while (last + 1 < view.rows && !blank(last + 1)) last++;
  if (first >= view.rows || blank(first) || last - first > 2) return;
  // One row of several on a bar of its own is a list's selected row (peco's), not a footer.
  if (
    last > first &&
    Array.from({ length: last - first + 1 }, (_, i) => first + i).filter((r) => barRow(view, r)).length === 1
  )
    return;
  // A frame's closing corner (clack's "└") says nothing.
  if (!/[\p{L}\p{N}]/u.test(view.flat.slice(first, last + 1).join(""))) return;
  // Nor is a validation message, all its words in red or yellow (inquirer's "> Please enter a
  // number", clack's "└  Please enter a relative path"), a footer: it is the prompt's text.
  const warnings = [1, 3, 9, 11].map((n) => packColour(ColourMode.palette, n));
  const warned = (r: number) =>
    [...view.flat[r]!].every((ch, col) => !/[\p{L}\p{N}]/u.test(ch) || warnings.includes(view.ink(r, col)));
  if (first === last && warned(first)) return;
  for (let row = last + 1; row < view.rows; row++) if (!blank(row)) return;
  const within = (e: Found) => e.row >= first && e.row <= last;
  for (let row = first; row <= last; row++)
    if (!view.free(row, 0, view.cols) && !found.some((e) => e.kind === "status" && e.row === row)) return;
  const kept = found.filter((e) => !(e.kind === "status" && within(e)));
  found.splice(0, found.length, ...kept, status(view, first, last));
}

/**
 * The last row, a few blank rows under a row of buttons: what the focused one does (cfdisk's
 * "Create new partition from free space"), a status.
 */
export function buttonHelp(view: View, found: Found[]): void {
  let last = view.rows - 1;
  while (last > 0 && !view.flat[last]!.trim()) last--;
  const text = view.flat[last]!.trim();
  const start = view.flat[last]!.indexOf(text);
  if (!/\p{L}{2}/u.test(text) || !view.free(last, start, start + text.length)) return;
  for (let row = last - 1; row >= Math.max(0, last - 4); row--) {
    if (found.filter((e) => e.kind === "button" && e.row === row).length >= 2) {
      found.push({ kind: "status", row: last, col: start, width: text.length, height: 1, text });
      view.use(last, start, text.length);
      return;
    }
    if (view.flat[row]!.trim()) return;
  }
}

/** A menu bar's entry: a name (capitalised, or in capitals) and its key in parentheses: "LLDB (F1)", "Target (F2)". */
const KEYED_ENTRY = /^(\p{Lu}[\p{L}]{1,15}(?: \p{L}{1,15})?) \((?:F\d{1,2}|[^()\s]{1,6})\)$/u;

/**
 * A bar across the top row holding only entries parted by "|", three or more, each a name and its key in parentheses
 * (lldb's gui: "| LLDB (F1) | Target (F2) | Process (F3) | … |"): a menu bar, each entry a button over its name and
 * key, the one drawn unlike the others (of three or more) selected.
 */
function keyedMenuBar(view: View): Found[] {
  const line = view.flat[0]!;
  if (!line.includes("|") || !barRow(view, 0) || !view.free(0, 0, view.cols)) return [];
  const parts = [...line.matchAll(/[^|]+/g)].filter((p) => p[0].trim());
  if (parts.length < 3 || line.replace(/[^|]/g, "").length < parts.length - 1) return [];
  const entries = [];
  for (const p of parts) {
    const text = p[0].trim();
    const name = KEYED_ENTRY.exec(text);
    if (!name) return [];
    const col = p.index! + p[0].indexOf(text);
    entries.push({ col, width: text.length, label: name[1]! });
  }
  const looks = entries.map(
    (e) => view.spanBackground(0, e.col, e.col + e.width) + view.spanStyle(0, e.col, e.col + e.width),
  );
  const lone = drawnApart(looks, looks);
  view.use(0, 0, view.cols);
  return entries.map((e, i) => ({
    kind: "button",
    row: 0,
    col: e.col,
    width: e.width,
    height: 1,
    label: e.label,
    selected: lone.length === 1 && looks[i] === lone[0],
  }));
}

/** A prompt's words and colon opening a row: "Find:", "Replace with:". */
const BAR_PROMPT = /^\s*\p{Lu}[\p{L}\d ]{0,30}: ?/u;

/**
 * A bar's row opening with a prompt, the visible cursor after it and nothing drawn past the cursor (nefte's bottom
 * "Find:"): a line being typed, no status.
 */
function promptOnBar(view: View, row: number): boolean {
  const prompt = BAR_PROMPT.exec(view.flat[row]!);
  return (
    prompt !== null &&
    view.cursor.visible &&
    view.cursor.row === row &&
    view.cursor.col >= prompt[0].length &&
    barRow(view, row) &&
    onBarBlank(view, row, view.cursor.col)
  );
}

/** Nothing drawn on the bar's colour from a column to the row's end (a window's scrollbar cell on another is not). */
function onBarBlank(view: View, row: number, from: number): boolean {
  const bar = view.spanBackground(row, 0, view.cols);
  for (let col = from; col < view.cols; col++)
    if (view.char(row, col).trim() && view.background(row, col) === bar) return false;
  return true;
}

/** Two or more choices parted by "│", each a capitalised word, ending a row (a window's scrollbar cell maybe after). */
const PARTED_CHOICES = /│(?:\p{Lu}\p{Ll}*│)+\p{Lu}\p{Ll}*(?=\s*.?$)/u;

/**
 * Choices parted by "│" ending a bar in the last two rows (nefte's "File Modified: /tmp/ef.txt   │Save│As│All│Discard│
 * Cancel"), one drawn on a background of its own or holding the visible cursor: buttons, that one selected. The words
 * before them are the question's message, left as text. Not on the screen's backdrop (a line of output).
 */
function partedChoices(view: View, row: number): Found[] {
  if (row < view.rows - 2 || !barRow(view, row)) return [];
  const run = PARTED_CHOICES.exec(view.flat[row]!);
  if (!run) return [];
  // (A cell after the run on another colour than the bar, a window's scrollbar, is no part of it.)
  let end = run.index + run[0].length;
  const last = run.index + run[0].lastIndexOf("│") + 1;
  while (end > last + 1 && view.background(row, end - 1) !== view.background(row, last)) end--;
  if (!onBarBlank(view, row, end)) return [];
  const words = [...run[0].slice(0, end - run.index).matchAll(/[^│]+/g)].map((w) => ({
    col: run.index + w.index!,
    label: w[0],
  }));
  const looks = words.map((w) => view.spanBackground(row, w.col, w.col + w.label.length));
  const own = drawnApart(words, looks);
  const cursor = view.cursor.visible && view.cursor.row === row ? view.cursor.col : -1;
  const held = words.find((w) => cursor >= w.col && cursor < w.col + w.label.length);
  const lit = held ?? (own.length === 1 ? own[0] : undefined);
  if (!lit) return [];
  return words.map((w) => ({
    kind: "button",
    row,
    col: w.col,
    width: w.label.length,
    height: 1,
    label: w.label,
    selected: w === lit,
  }));
}

/** A row drawn on a bar across most of the screen (a mode line, a title bar). */
function barRow(view: View, row: number): boolean {
  let lit = 0;
  for (let col = 0; col < view.cols; col++) if (view.background(row, col) !== view.backdrop) lit++;
  return lit >= view.cols * 0.8;
}

function status(view: View, first: number, last: number): Found {
  const lines: string[] = [];
  for (let row = first; row <= last; row++) lines.push(view.text(row, 0, view.cols).trimEnd());
  // A side bar down the left of every row (opencode's "┃") is its frame, not its text.
  if (lines.every((line) => /^\s*[│┃║]\s/.test(line)))
    lines.forEach((line, i) => (lines[i] = line.replace(/[│┃║]/, " ")));
  const start = Math.min(...lines.map((line) => line.length - line.trimStart().length));
  const width = Math.max(...lines.map((line) => line.length)) - start;
  view.use(first, 0, view.cols, last - first + 1);
  return {
    kind: "status",
    row: first,
    col: start,
    width,
    height: last - first + 1,
    text: lines.map((line) => line.slice(start)).join("\n"),
  };
}

/** A key as a key bar names it: "F3", "S-F3", "Esc", "^X", mc's "1". */
const KEY = /^(?:(?:[SCAM]-)?(?:F\d{1,2}|Esc|Tab|Enter|Space|\^\S)|\d{1,2})$/;

/**
 * A function-key bar (mc's "1Help 2Menu…", htop's "F1Help… F10Quit", "EnterSort EscCancel"): each
 * key drawn plain and its name right after it on a background of its own, two or more in a row.
 * Read from the styles, not the words, so a bar with blank names (htop's setup, mc's "6") or names
 * glued to the next key ("9Format10Quit") is still one. Each named entry is a button when the
 * program takes the mouse (a click presses it); otherwise the bar is only read (nano's hints: status).
 */
export function findFunctionKeys(view: View): Found[] {
  const out: Found[] = [];
  if ((view.grid.mouse?.mode ?? "none") === "none") return out;
  // Only rows that start with a key are read cell by cell.
  for (let row = 0; row < view.rows; row++) {
    if (!/^\s*(?:[SCAM]-)?(?:F\d|\d|Esc|Tab|Enter|Space|\^\S)/.test(view.flat[row]!)) continue;
    const bar = keyBar(view, row);
    out.push(...(bar.length ? bar : numberedBar(view, row)));
  }
  return out;
}

/**
 * A bar whose styles are lost (mc's under a dialog's shadow, all one ink): told by its text alone,
 * keys counting up from 1 each before a name (" 1Help   2Menu   3View … 10Quit"), five or more.
 */
function numberedBar(view: View, row: number): Found[] {
  const out: Found[] = [];
  for (const m of view.flat[row]!.matchAll(/(?<=^|\s|[a-z])(\d{1,2})([A-Z][A-Za-z~/+-]*)/g)) {
    if (Number(m[1]) !== out.length + 1) break;
    out.push({ kind: "button", row, col: m.index!, width: m[0].length, height: 1, label: m[2]! });
  }
  if (out.length < 5 || !out.every((b) => view.free(row, b.col, b.col + b.width))) return [];
  for (const b of out) view.use(row, b.col, b.width);
  return out;
}

function keyBar(view: View, row: number): Found[] {
  const runs: { start: number; end: number }[] = [];
  for (let col = 0; col < view.cols; ) {
    let end = col + 1;
    while (end < view.cols && view.style(row, end) === view.style(row, col)) end++;
    runs.push({ start: col, end });
    col = end;
  }
  const out: Found[] = [];
  let pairs = 0;
  let i = runs.findIndex((r) => view.text(row, r.start, r.end).trim() !== "");
  for (; i >= 0 && i + 1 < runs.length; i += 2) {
    const [key, name] = [runs[i]!, runs[i + 1]!];
    const keyText = view.text(row, key.start, key.end);
    if (!KEY.test(keyText.trim()) || view.background(row, key.start) === view.background(row, name.start)) break;
    pairs++;
    const label = view.text(row, name.start, name.end).trim();
    if (!label) continue;
    // (A name cut to fit, mc's at 70 columns: "Re~ov", "De~te".)
    if (!/^[A-Za-z][\w/+~-]*(?: [\w/+-]+)?$/.test(label)) break;
    const col = key.start + keyText.length - keyText.trimStart().length;
    out.push({
      kind: "button",
      row,
      col,
      width: name.start + view.text(row, name.start, name.end).trimEnd().length - col,
      height: 1,
      label,
    });
  }
  if (pairs < 2 || out.length === 0 || !out.every((b) => view.free(row, b.col, b.col + b.width))) return [];
  for (const b of out) view.use(row, b.col, b.width);
  return out;
}

/**
 * A row of prose the right edge cut, going on at the next row's start: every column filled, words
 * one blank apart (no columns or gaps of a bar), the next row opening with a word or a path.
 */
function proseWrapped(line: string, next: string, cols: number): boolean {
  return line.trimEnd().length === cols && !/\S\s{3,}\S/.test(line) && /^[\p{L}\p{N}/(]/u.test(next);
}

/** Words that tell how to pick in a list: Return or Enter to do something (n's "return key to install"). */
const PICK_KEY = /\b(?:return|enter)(?: key)? to \w+/i;

/** Words that tell how to move in a list: "Move around with ^P and ^N, cursor keys, initial letters, or digits;". */
const MOVE_HINT = /\b(?:move|moving|navigate|scroll)\b.{0,40}\b(?:keys?|arrows?|\^[A-Z])\b|\b(?:cursor|arrow) keys\b/i;

/**
 * A paragraph of up to three rows right under a menu (a blank row between at most) that tells its keys, how to move
 * and how to pick (dselect's bold "Move around with ^P and ^N, cursor keys, initial letters, or digits;" over "Press
 * <enter> to confirm selection.   ^L redraws screen." under its main menu): a status, the list's key help.
 */
export function keysUnderMenu(view: View, found: Found[]): void {
  // (Two items are a list too when the help names Return's action: n's versions, one deleted.)
  for (const menu of found.filter((e) => e.kind === "menu" && e.height >= 2)) {
    let top = menu.row + menu.height;
    if (top < view.rows && !view.flat[top]!.trim()) top++;
    let last = top - 1;
    while (last + 1 < view.rows && last + 1 - top < 3 && view.flat[last + 1]!.trim()) last++;
    if (last < top || (last + 1 < view.rows && view.flat[last + 1]!.trim())) continue;
    const rows = view.flat.slice(top, last + 1);
    if (!rows.every((_, i) => view.free(top + i, 0, view.cols))) continue;
    const text = rows.join(" ");
    if (!(PRESS_HINT.test(text) || PICK_KEY.test(text)) || !MOVE_HINT.test(text)) continue;
    if (menu.height < 3 && !PICK_KEY.test(text)) continue;
    found.push(status(view, top, last));
  }
}
