// Lists: questions with their options, tables, and menus (a marker, a bar or a highlight says
// which item is selected).
import { CellFlag } from "../cell-grid.ts";
import { type Found, type Item } from "./types.ts";
import { type Box, BOX_CHARS, boxAround, clean, highlighted, lineBackground, MARKERS, stripFrame, VERTICAL, View } from "./view.ts";

/**
 * The answers in brackets after a question: "[Y/n]", "(y/N)", "[y,n,q,a,d,...]", "(y or n)",
 * "(yes or no)", emacs's "(y, n, !, ., q, C-r, C-f, d or C-h)", "[Y|n]"; a lone "(y)" only right after a "?".
 * (Not "(N/A)": not applicable.)
 */
const YES_NO = /[[(](?![nN]\/[aA][\])])((?:[yY](?:es)?|[nN]o?)(?:(?:\/|\||, ?| or )\^?\[?[\w?!.-]+\]?)+|[yn](?:,[\w?])+)[\])]\??|(?<=\? )\((y)\)(?=\s*$)|\(((?:\[yes\]|yes)\/(?:\[no\]|no)(?:\/\[?[\w?]\]?)*)\)|(?<=^|[.?:] )(Yes\/No)\?(?=\s*$)|(?<=[?:] )\(((?=[a-z]*[A-Z][a-z]*\))[a-zA-Z]{3,8})\)(?=\s*$)/;

export function findQuestions(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 0; row < view.rows; row++) {
    const line = view.text(row, 0, view.cols);
    const match = YES_NO.exec(view.flat[row]!);
    if (!match) continue;
    // (A vi-like editor's "~" filler before a question drawn over it is not part of it: dte's.)
    const start = /^~\s+\S/.test(line) ? line.search(/(?<=^~\s+)\S/) : line.length - line.trimStart().length;
    const end = line.trimEnd().length;
    // mutt's "([yes]/no/?)": the bracketed one is the default; inquirer's "(yadH)": one letter each.
    const options = match[5] ? [...match[5]] : (match[1] ?? match[2] ?? match[3] ?? match[4]!).split(/\/|\||, ?| or /);
    const items: Omit<Item, "ref">[] = [];
    let c = match.index!;
    for (const bracketed of options) {
      const option = bracketed.replace(/^\[(.+)\]$/, "$1");
      c = view.flat[row]!.indexOf(option, c);
      const key = option.toLowerCase();
      const name = { y: "Yes", n: "No", yes: "Yes", no: "No", q: "Quit", a: "All", d: "Done", e: "Edit", "?": "Help" }[key] ?? option;
      // The capital letter is the default: what Enter picks.
      // A key of several letters is typed whole (emacs's "yes", "C-r").
      const typed = option.startsWith("^") || /^C-|^(?:yes|no)$/.test(option) ? key : key.slice(0, 1);
      items.push({ label: name, row, col: c, width: option.length, key: typed, ...((option !== key && option.length === 1) || bracketed !== option ? { selected: true } : {}) });
      c += option.length;
    }
    // inquirer's "? " before its question is an icon, not text.
    // (nor is the "›" prompts draws between the question and its answers.)
    const label = clean(view.text(row, start, match.index!)).replace(/^[?✔✖] /, "").replace(/\s*[›❯»]$/, "");
    // Answers alone on their row ("Yes/No?", parted's) ask the paragraph of prose above them.
    let top = row;
    while (!label && top > 0 && /^[A-Za-z]/.test(view.flat[top - 1]!) && view.free(top - 1, 0, view.cols)) top--;
    const col = Math.min(start, ...Array.from({ length: row - top }, (_, i) => view.flat[top + i]!.search(/\S/)));
    const right = Math.max(end, ...Array.from({ length: row - top }, (_, i) => view.flat[top + i]!.trimEnd().length));
    out.push({ kind: "question", row: top, col, width: right - col, height: row - top + 1, ...(label || top === row ? { label } : {}), items });
    view.use(top, 0, view.cols, row - top);
    // The answer is typed after it: the rest of the row is the question's, not an input's.
    view.use(row, start, view.cols - start);
  }
  // Answers inside the sentence, before its "?": zsh's "correct 'gerp' to 'grep' [nyae]?", one
  // letter each; newsboat's "Do you really want to quit (y:Yes n:No)?", a key and its name each.
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const match = /\[([a-z]{2,6})\]\?\s*$|(?<=\? )\[([a-z]{2,6})\]\s*$/.exec(line) ?? /\(([a-z]:[A-Z]\w*(?: [a-z]:[A-Z]\w*)+)\)\?\s*$/.exec(line);
    if (match && match[2]) match[1] = match[2];
    if (!match || !/y/.test(match[1]!) || !/n/.test(match[1]!) || !view.free(row, match.index!, match.index! + match[0].length)) continue;
    const start = line.search(/\S/);
    if (start === match.index) continue;
    const options = match[1]!.includes(":") ? match[1]!.split(" ") : [...match[1]!];
    let c = match.index! + 1;
    const items: Omit<Item, "ref">[] = options.map((option) => {
      const [key, name] = option.includes(":") ? option.split(":") : [option, option];
      const item = { label: name!, row, col: c, width: option.length, key: key! };
      c += option.length + (option.includes(":") ? 1 : 0);
      return item;
    });
    const end = line.trimEnd().length;
    out.push({ kind: "question", row, col: start, width: end - start, height: 1, label: clean(line.slice(start, match.index!)), items });
    view.use(row, start, end - start);
  }
  // Choices of words in brackets before the colon (rich's "Pick a colour [red/green/blue] (green): "),
  // typed whole; the default in parentheses is not one.
  for (let row = 0; row < view.rows; row++) {
    const match = /^(\s*)(\S.*?) \[(\w+(?:\/\w+)+)\](?: \([\w ]+\))?:(?=\s|$)/.exec(view.flat[row]!);
    if (!match || !view.free(row, 0, match[0].length)) continue;
    const start = match[1]!.length;
    let c = match[0].indexOf("[") + 1;
    const items: Omit<Item, "ref">[] = match[3]!.split("/").map((word) => {
      const item = { label: word, row, col: c, width: word.length, key: word };
      c += word.length + 1;
      return item;
    });
    out.push({ kind: "question", row, col: start, width: match[0].length - start, height: 1, label: clean(match[2]!), items });
    view.use(row, start, view.cols - start);
  }
  // A toggle after a question: "Enable telemetry? › no / yes", the current answer drawn apart.
  for (let row = 0; row < view.rows; row++) {
    const match = /^(\s*)(?:[?✔✖] )?(\S.*\?)\s*[›❯>:]?\s+(\w+(?: \/ \w+)+)\s*$/.exec(view.flat[row]!);
    if (!match || !view.free(row, 0, view.cols)) continue;
    const start = match[1]!.length;
    let c = match.index! + match[0].trimEnd().length - match[3]!.length;
    const items: Omit<Item, "ref">[] = match[3]!.split(" / ").map((label) => {
      const item = { label, row, col: c, width: label.length };
      c += label.length + 3;
      return item;
    });
    // The current one is underlined, bold or reversed; the others are plain.
    const looks = items.map((i) => view.spanStyle(row, i.col, i.col + i.width));
    const marked = looks.filter((l) => !l.startsWith("0/") || l.includes("/i"));
    for (const [i, item] of items.entries()) (item as Omit<Item, "ref">).selected = marked.length === 1 && looks[i] === marked[0];
    const end = view.flat[row]!.trimEnd().length;
    out.push({ kind: "question", row, col: start, width: end - start, height: 1, label: clean(match[2]!), items });
    view.use(row, start, end - start);
  }
  // Options that show their hot key in brackets, three or more on a row: vim's "[O]pen Read-Only,
  // (E)dit anyway, (R)ecover, (Q)uit, (A)bort:"; the line above, when it is text, asks.
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const pieces = [...line.matchAll(/(?<=^|, |\s{2})(\w*[[(]([A-Za-z])[\])][\w' -]*?)(?=,|:?\s*$|\s{2}|\?)/g)];
    if (pieces.length < 3 || line.replace(/\w*[[(][A-Za-z][\])][\w' -]*/g, "").replace(/[,:?\s]/g, "") !== "" || !view.free(row, 0, view.cols)) continue;
    const items = pieces.map((m) => ({ label: m[1]!.trim(), row, col: m.index!, width: m[1]!.trim().length, key: m[2]!.toLowerCase() }));
    const above = row > 0 && view.free(row - 1, 0, view.cols) ? clean(view.text(row - 1, 0, view.cols)) : "";
    const first = above ? row - 1 : row;
    const start = Math.min(items[0]!.col, above ? view.flat[row - 1]!.search(/\S/) : view.cols);
    const width = Math.max(line.trimEnd().length, above ? view.flat[row - 1]!.trimEnd().length : 0) - start;
    out.push({ kind: "question", row: first, col: start, width, height: row - first + 1, ...(above ? { label: above } : {}), items });
    view.use(first, 0, view.cols, row - first + 1);
  }
  // Two or more answers with their key marked, joined by "/", "," or "or": vifm's "Enter [y]es or
  // [n]o", nnn's "'f'ile/'d'ir/'s'ym/'h'ard?"; the question is the text a row or two above, if any.
  for (let row = 0; row < view.rows; row++) {
    const line = stripFrame(view.flat[row]!);
    const start = view.flat[row]!.indexOf(line);
    const piece = /(\w*(?:\[([A-Za-z])\]|'([A-Za-z])')\w*)/g;
    const pieces = [...line.matchAll(piece)];
    const rest = line.replace(piece, "").replace(/\s*(?:\/|,|\bor\b)\s*/g, "").replace(/^(?:Enter|Type|Press|Choose)\b\s*/i, "").replace(/[?:]\s*$/, "").trim();
    if (pieces.length < 2 || rest !== "" || !line || !view.free(row, start, start + line.length)) continue;
    const items = pieces.map((m) => ({ label: m[1]!, row, col: start + m.index!, width: m[1]!.length, key: (m[2] ?? m[3])!.toLowerCase() }));
    let q = row - 1;
    while (q >= row - 2 && q >= 0 && !stripFrame(view.flat[q]!).trim()) q--;
    const qText = q >= 0 ? stripFrame(view.flat[q]!) : "";
    const qStart = q >= 0 ? view.flat[q]!.indexOf(qText) : 0;
    const label = q >= row - 2 && qText && view.free(q, qStart, qStart + qText.length) ? clean(qText) : "";
    const top = label ? q : row;
    const col = label ? Math.min(start, view.flat[q]!.indexOf(stripFrame(view.flat[q]!))) : start;
    const width = Math.max(start + line.length, label ? view.flat[q]!.indexOf(stripFrame(view.flat[q]!)) + stripFrame(view.flat[q]!).length : 0) - col;
    out.push({ kind: "question", row: top, col, width, height: row - top + 1, ...(label ? { label } : {}), items });
    if (label) view.use(q, col, width);
    view.use(row, start, line.length);
  }
  // vim's and more's "Press ENTER or type command to continue": a question with one answer.
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const match = /(?:Press|Hit) (ENTER|RETURN|any key)\b[^│]*\bto continue\b[^│]*/i.exec(line);
    if (!match || !view.free(row, match.index!, match.index! + match[0].trimEnd().length)) continue;
    const col = match.index!;
    const text = match[0].trimEnd();
    const keyCol = col + match[0].indexOf(match[1]!);
    out.push({ kind: "question", row, col, width: text.length, height: 1, label: text, items: [{ label: match[1]!, row, col: keyCol, width: match[1]!.length, key: "Enter" }] });
    view.use(row, col, text.length);
  }
  // Numbered options under a question: "Do you want to proceed?" then "❯ 1. Yes", "  2. No".
  for (let row = 0; row + 1 < view.rows; row++) {
    const options = keyedRun(view, row);
    if (options.length < 2) continue;
    // The question is a row ending in "?" a little above (codex shows the command between), inside the same frame.
    let q = row - 1;
    const question_ = (r: number) => clean(stripFrame(view.text(r, 0, view.cols)));
    // The question may open a paragraph ("Trust this folder? Codex can read…"): its first sentence ending in "?".
    // inquirer's rawlist: "? Choose a license", its "?" an icon before the question drawn bold.
    const icon = (r: number) => /^\s*\? \S/.test(view.flat[r]!) && (view.grid.flags[r * view.cols + view.flat[r]!.indexOf("?") + 2]! & CellFlag.bold) !== 0;
    const bold = (r: number) => {
      let end = view.flat[r]!.indexOf("?") + 2;
      while (end < view.cols && (view.grid.flags[r * view.cols + end]! & CellFlag.bold) !== 0) end++;
      return clean(view.text(r, view.flat[r]!.indexOf("?") + 2, end));
    };
    const asks = (r: number) => (icon(r) ? bold(r) : /^[^?]*\?(?=\s|$)/.exec(question_(r))?.[0] ?? "");
    while (q >= 0 && q >= row - 12 && !asks(q) && !/^[\s│┃║]*[╭┌├╰└─━]/.test(view.flat[q]!)) q--;
    const question = q >= 0 ? asks(q) : "";
    // Or the prompt comes after the list, the cursor on it (bash's select "#?", git add -i's "What now>"):
    // the question is unlabelled, the prompt its input.
    const last = options[options.length - 1]!.row;
    const { cursor } = view;
    // A shell's prompt under a listing ("me@vm ~/src>") is not one: it names a place.
    // (A blank row may stand between: readline-sync's.)
    const promptRow = cursor.row === last + 2 && !view.flat[last + 1]?.trim() ? last + 2 : last + 1;
    const prompt = view.text(promptRow, 0, cursor.col).trimEnd();
    const after = cursor.visible && cursor.row === promptRow && /[:>?]$/.test(prompt) && !/[@~/]/.test(prompt);
    if (!question.endsWith("?") && !(question && icon(q)) && !after) {
      row += options.length - 1;
      continue;
    }
    const col = Math.min(...options.map((o) => o.markerCol));
    if (after && !question.endsWith("?")) {
      const width = Math.max(view.text(promptRow, 0, view.cols).trimEnd().length, ...options.map((o) => o.col + o.width)) - col;
      out.push({ kind: "question", row: options[0]!.row, col, width, height: promptRow - options[0]!.row + 1, items: options.map((o) => ({ label: o.label, row: o.row, col: o.col, width: o.width, key: o.key })) });
      for (const o of options) view.use(o.row, o.markerCol, o.width);
      row = last;
      continue;
    }
    const width = Math.max(...options.map((o) => o.col + o.width)) - col;
    const qStart = view.text(q, 0, view.cols).search(/[^\s│┃║|]/);
    // No marker: the one option drawn in a style none of the others has is the selected one (inquirer's colour).
    if (!options.some((o) => o.selected)) {
      const styles = options.map((o) => view.spanStyle(o.row, o.col, o.col + o.width));
      const lone = options.filter((_, i) => styles.filter((st) => st === styles[i]).length === 1);
      if (lone.length === 1) lone[0]!.selected = true;
    }
    const selected = options.filter((o) => o.selected).length === 1;
    out.push({
      kind: "question",
      row: q,
      col: Math.min(col, qStart),
      width,
      height: options[options.length - 1]!.row - q + 1,
      label: question,
      items: options.map((o) => ({ label: o.label, row: o.row, col: o.col, width: o.width, key: o.key, ...(selected && o.selected ? { selected: true } : {}) })),
    });
    // An inquirer question's row is also its input (the number typed after it).
    if (!icon(q)) view.use(q, qStart, view.text(q, 0, view.cols).trimEnd().length - qStart);
    for (const o of options) view.use(o.row, o.markerCol, view.flat[o.row]!.replace(/[\s│┃║|]+$/, "").length - o.markerCol);
    row = options[options.length - 1]!.row;
  }
  return out;
}

interface Option {
  row: number;
  markerCol: number;
  col: number;
  width: number;
  key: string;
  label: string;
  selected: boolean;
}

/**
 * Options from `row` down, each a key then its text: numbered 1., 2), 3: counting up, or lettered
 * "y)", "a)" (inquirer's expand), one per row (a marker before the key says which one is selected)
 * or several per row two blanks apart (git add -i's "1: status   2: update").
 */
function keyedRun(view: View, row: number): Option[] {
  const options: Option[] = [];
  let letters = false;
  for (let r = row; r < view.rows; r++) {
    const line = view.flat[r]!;
    const match = /^([\s│┃║|]*?)([>❯›▸►▶→➜●]?)(\s*)(\d{1,2}|[a-z](?=\)))[.):] (.+?)\s*(?:[│┃║|]\s*)?$/.exec(line);
    // fdisk's "   p   primary (…)": an indented letter, then its text two blanks or more on.
    const bare = match ? null : /^(\s+)([a-z])\s{2,}(\S.*?)\s*$/.exec(line);
    if (bare && (options.length === 0 || letters) && !options.some((o) => o.key === bare[2]) && view.free(r, bare[1]!.length, line.trimEnd().length)) {
      letters = true;
      const col = bare[1]!.length;
      options.push({ row: r, markerCol: col, col, width: line.trimEnd().length - col, key: bare[2]!, label: bare[3]!, selected: false });
      continue;
    }
    // gpg's "   (1) RSA and RSA (default)", readline-sync's "[1] Staging": a number in brackets, in any order
    // ("(14) Existing key from card", "[0] CANCEL").
    const boxed = match ? null : /^(\s*)([(\[])(\d{1,3})[)\]] (\S.*?)\s*$/.exec(line);
    if (boxed && !letters && !options.some((o) => o.key === boxed[3]) && (options.length === 0 || view.flat[r - 1]!.search(/[(\[]\d/) >= 0) && view.free(r, 0, line.trimEnd().length)) {
      const col = boxed[1]!.length;
      options.push({ row: r, markerCol: col, col, width: line.trimEnd().length - col, key: boxed[3]!, label: boxed[4]!, selected: false });
      continue;
    }
    if (!match) break;
    const key = match[4]!;
    const letter = /[a-z]/.test(key);
    if (options.length === 0) letters = letter;
    if (letter !== letters || !letter && Number(key) !== options.length + 1 || letter && options.some((o) => o.key === key)) break;
    if (!view.free(r, match[1]!.length, line.replace(/[\s│┃║|]+$/, "").length)) break;
    const markerCol = match[1]!.length;
    const col = markerCol + match[2]!.length + match[3]!.length;
    const text = view.text(r, col + key.length + 2, col + match[0].length).replace(/[\s│┃║|]+$/, "").trim();
    // Several on a row, two blanks or more apart, each with the next number.
    const more = letters ? [] : [...text.matchAll(/\s{2,}(\d{1,2}): /g)];
    if (more.length && more.every((m, i) => Number(m[1]) === options.length + 2 + i)) {
      const starts = [col, ...more.map((m) => col + key.length + 2 + m.index! + m[0].length - m[1]!.length - 2)];
      starts.forEach((start, i) => {
        const end = i + 1 < starts.length ? starts[i + 1]! : col + key.length + 2 + text.length;
        const piece = view.text(r, start, end).trim();
        const [k, ...rest] = piece.split(": ");
        options.push({ row: r, markerCol: start, col: start, width: piece.length, key: k!, label: rest.join(": "), selected: false });
      });
      continue;
    }
    // "Yes, proceed (y)": the key in parentheses is not the label.
    const label = text.replace(/\s+\((?:\w|esc|enter|tab)\)$/i, "");
    options.push({ row: r, markerCol, col, width: key.length + 2 + label.length, key, label, selected: match[2] !== "" || highlighted(view, r, col, col + key.length + 2 + label.length) });
  }
  return options;
}

/**
 * A select drawn as radio marks (clack's "○ TypeScript" / "● JavaScript"): one filled mark among
 * empty ones in a column, each before its text, is a menu (the filled one moves with the arrows);
 * "● Yes / ○ No" on one row under a question is that question's answers. A dim hint after an
 * item in parentheses ("(no types)") is not part of its label.
 */
export function circleMenus(view: View): Found[] {
  const out: Found[] = [];
  const mark = (r: number, col: number) => r >= 0 && r < view.rows && "○●".includes(view.char(r, col)) && view.char(r, col + 1) === " " && view.char(r, col + 2).trim() !== "" && view.free(r, col, col + 3);
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const pair = /([●○]) (\S[^/]*?) \/ ([●○]) (\S.*?)\s*$/.exec(line);
    if (pair && pair[1] !== pair[3] && view.free(row, pair.index!, line.trimEnd().length)) {
      let q = row - 1;
      while (q >= 0 && !/[\p{L}\p{N}]/u.test(view.flat[q]!)) q--;
      const label = q >= 0 ? clean(view.flat[q]!).replace(/^[^\p{L}\p{N}\s"'(]+ +/u, "") : "";
      const col = pair.index!;
      const second = col + pair[0].indexOf(pair[3]!, pair[1]!.length + pair[2]!.length + 2);
      const items = [
        { label: pair[2]!, row, col, width: pair[2]!.length + 2, ...(pair[1] === "●" ? { selected: true } : {}) },
        { label: pair[4]!, row, col: second, width: pair[4]!.length + 2, ...(pair[3] === "●" ? { selected: true } : {}) },
      ];
      if (!label.endsWith("?") || !view.free(q, 0, view.cols)) continue;
      const qCol = view.flat[q]!.search(/[\p{L}\p{N}"'(]/u);
      out.push({ kind: "question", row: q, col: qCol, width: Math.max(view.flat[q]!.trimEnd().length, line.trimEnd().length) - qCol, height: row - q + 1, label, items });
      view.use(q, qCol, view.cols - qCol);
      view.use(row, col, line.trimEnd().length - col);
      continue;
    }
    // Or "( )"/"(x)" marks outside any frame, right under a question (cli-select's): one choice, a menu.
    const paren = (r: number) => r >= 0 && r < view.rows && /^\((?:[ xX*•])\) \S/.test(view.flat[r]!) && view.free(r, 0, 4);
    if (paren(row) && !paren(row - 1) && row > 0 && /\?\s*$/.test(view.flat[row - 1]!) && !/[│┃║┌└]/.test(view.flat[row]!)) {
      let end = row;
      while (paren(end + 1)) end++;
      const marked = Array.from({ length: end - row + 1 }, (_, i) => row + i).filter((r) => view.char(r, 1) !== " ");
      if (end > row && marked.length === 1) {
        const items = Array.from({ length: end - row + 1 }, (_, i) => row + i).map((r) => ({ label: view.text(r, 4, view.cols).trim(), row: r, col: 0, width: view.text(r, 0, view.cols).trimEnd().length, ...(r === marked[0] ? { selected: true } : {}) }));
        const width = Math.max(...items.map((i) => i.width));
        out.push({ kind: "menu", row, col: 0, width, height: end - row + 1, items });
        view.use(row, 0, width, end - row + 1);
        row = end;
        continue;
      }
    }
    const at = line.search(/[○●] \S/);
    if (at < 0 || !mark(row, at) || mark(row - 1, at)) continue;
    let last = row;
    while (mark(last + 1, at)) last++;
    const rows = Array.from({ length: last - row + 1 }, (_, i) => row + i);
    if (rows.length < 2 || rows.filter((r) => view.char(r, at) === "●").length !== 1) continue;
    const items = rows.map((r) => {
      const text = view.text(r, at + 2, view.cols).trimEnd();
      // The hint drawn apart from the name: in parentheses at its end, in another style.
      const hint = /\s+\([^)]*\)$/.exec(text);
      const cut = hint && view.style(r, at + 2 + hint.index! + hint[0].length - 1) !== view.style(r, at + 2) ? hint.index! : text.length;
      return { label: text.slice(0, cut), row: r, col: at, width: text.length + 2, ...(view.char(r, at) === "●" ? { selected: true } : {}) };
    });
    const width = Math.max(...items.map((i) => i.width));
    out.push({ kind: "menu", row, col: at, width, height: rows.length, items });
    view.use(row, at, width, rows.length);
    row = last;
  }
  return out;
}

/** Header candidates whose body is read, per screen: the work stays bounded on any screen. */
const MAX_TABLE_CANDIDATES = 10;

export function findTables(view: View): Found[] {
  const out: Found[] = [];
  let candidates = 0;
  for (let row = 0; row + 2 < view.rows && candidates < MAX_TABLE_CANDIDATES; row++) {
    const line = view.flat[row]!;
    // Headers: three or more words, no digits, in one segment between frame characters or gutters.
    for (const segment of segments(line).flatMap((seg) => (view.background(row, seg.start) === "0" ? [seg] : gutters(view, row, seg)))) {
      const text = line.slice(segment.start, segment.end);
      if (!view.free(row, segment.start, segment.end)) continue;
      const words = [...text.replace(/[▽△▼▲]/g, " ").matchAll(/\S+/g)].filter((w) => /[A-Za-z]/.test(w[0]));
      const cells = text.replace(/[▽△▼▲]/g, " ").split(/[│┃║|]/).map((t) => t.trim()).filter(Boolean);
      const names = cells.length >= 3 ? cells : words.map((w) => w[0].trim());
      // (Key combinations, "C-x C-s" after a menu entry's name, are no column names.)
      if (names.length < 3 || names.some((n) => /\d{2,}/.test(n) || n.length > 20 || /^[CMSA]-\S/.test(n))) continue;
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
      const alike = (a: number, b: number) => a >= 0 && b < view.rows && view.text(a, segment.start, segment.end).trim() !== "" && view.spanStyle(a, segment.start, segment.end) === view.spanStyle(b, segment.start, segment.end);
      const styled = look !== view.spanStyle(row + 1, segment.start, segment.end) && (!view.text(row + 2, segment.start, segment.end).trim() || look !== view.spanStyle(row + 2, segment.start, segment.end)) && !alike(row - 1, row + 1);
      const separated = cells.length >= 3;
      // Or underlined by a rule of dashes under each name (sqlite's column mode "--  ----", psql's "---+---").
      const ruled = /^[\s─━═=+┼╋┿╇╪|│┃├┤┡┩╞╡-]+$/.test(view.text(row + 1, segment.start, segment.end)) && words.every((w) => "─━=-".includes(view.char(row + 1, segment.start + w.index!)));
      // Or names alone, far apart, a blank row under them, then rows under their columns (GNU screen's window list).
      const gapped = !styled && !separated && !ruled && view.text(row + 1, segment.start, segment.end).trim() === "" && /\S\s{8,}\S/.test(text.trim()) && !/\d/.test(text) && names.every((n) => /^[A-Z][a-z]*$/.test(n));
      if (!styled && !separated && !ruled && !gapped) continue;
      candidates++;
      // The rule is the header's, not a row of the body; so is the blank row.
      const skip = ruled || gapped ? 1 : 0;
      // A spreadsheet's column letters (A B C D…) head its grid however empty its cells are: its rows are those numbered at the left.
      const letters = names.length >= 3 && names.every((n, i) => n.length === 1 && n.charCodeAt(0) === names[0]!.charCodeAt(0) + i && /[A-Z]/.test(n));
      let body = bodyRows(view, row + skip, segment.start, segment.end);
      if (letters) while (row + body + 1 < view.rows && /^\s*\d+\s*$/.test(view.text(row + body + 1, 0, segment.start))) body++;
      // Names of several words ("Partition Type") line up as one: their words, one blank apart, are a column.
      const groups = [...text.matchAll(/\S+(?: \S+)*/g)];
      const spans = (groups.length >= 3 && groups.length < words.length ? groups : words).map((w) => ({ start: segment.start + w.index!, end: segment.start + w.index! + w[0].length }));
      // One row under a header is a table only when its words stand under the names (git add -i's "staged unstaged path").
      // (and the header is only names: no figures, no list's row read as one, tig's dated commit.)
      const onlyNames = !/\d/.test(text) && words.length === text.trim().split(/\s+/).length && names.every((n) => /^[A-Za-z%#]/.test(n));
      if (body < 1 || body < 2 && !ruled && (!onlyNames || view.text(row + 1, segment.start, segment.end).trim().split(/\s+/).length < 3 || !aligned(view, row, body, spans))) continue;
      if (!separated && !letters && !aligned(view, row + skip, body, spans)) continue;
      let col = segment.start + (text.length - text.trimStart().length);
      let end = col + text.trim().length;
      // Body rows may reach past the header's words, up to the frame around them.
      for (let r = row + 1 + skip; r <= row + skip + body; r++) {
        const bodyText = view.text(r, segment.outerStart, segment.outerEnd);
        const first = bodyText.search(/[^\s│┃║]/);
        if (first < 0) continue;
        col = Math.min(col, segment.outerStart + first);
        end = Math.max(end, segment.outerStart + bodyText.replace(/[\s│┃║]+$/, "").length);
      }
      // The body rows themselves, blanks between cells collapsed: what the table says.
      const lines: string[] = [];
      for (let r = row + 1 + skip; r <= row + skip + body; r++) lines.push(view.text(r, col, end).replace(/[│┃║]/g, " ").trim().replace(/\s+/g, " "));
      // A panel's empty rows below its last entry (only column rules) are not rows.
      while (lines.length && !lines[lines.length - 1]) lines.pop();
      out.push({ kind: "table", row, col, width: end - col, height: body + 1 + skip, header: names, rows: lines.length, text: lines.join("\n") });
      view.use(row, col, end - col, body + 1 + skip);
    }
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
  return out.map(({ start: s, end: e }) => {
    let a = s;
    let b = e;
    while (a < b && " │┃║".includes(line[a]!)) a++;
    while (b > a && " │┃║".includes(line[b - 1]!)) b--;
    return { start: a, end: b, outerStart: s, outerEnd: e };
  }).filter((s) => s.end - s.start >= 10);
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
  return out.map((seg) => {
    const text = view.text(row, seg.start, seg.end);
    return { ...seg, start: seg.start + text.length - text.trimStart().length, end: seg.start + text.trimEnd().length };
  }).filter((seg) => seg.end - seg.start >= 10);
}

/** Non-blank rows under a header in the same columns, until a blank row or a frame. */
function bodyRows(view: View, header: number, start: number, end: number): number {
  let rows = 0;
  for (let row = header + 1; row < view.rows; row++) {
    const text = view.text(row, start, end);
    if (text.trim() === "" || /^[─━═├┤┌┐└┘\s]+$/.test(text) || !view.free(row, start, end)) break;
    rows++;
  }
  return rows;
}

/** A list whose selected row carries a marker (❯, >, ›) and whose other rows are indented to match. */
export function markerMenus(view: View): Found[] {
  const out: Found[] = [];
  // A frame's sides are blanks here: a list inside a box (qwen's pickers) indents like one outside.
  const lines = view.flat.map((l) => l.replace(/[│┃║]/g, " "));
  for (let row = 0; row < view.rows; row++) {
    const line = lines[row]!;
    const match = /^(\s*)(\S)( {1,3})(\S)/.exec(line);
    if (!match || !MARKERS.includes(match[2]!)) continue;
    const markerCol = match[1]!.length;
    const textCol = markerCol + 1 + match[3]!.length;
    if (!view.free(row, markerCol, textCol + 1)) continue;
    // Rows above and below with blank marker column and text at textCol (±1).
    const fits = (r: number) => {
      const l = lines[r];
      if (!l || !view.free(r, markerCol, textCol + 1)) return false;
      // fzf's multi-select marks a chosen row in the column between the cursor's marker and the text.
      return l.slice(0, textCol - 1).trim() === "" && /[ >*✓✔+●]/.test(l[textCol - 1]!) && l[textCol] !== undefined && !" ⎿└├".includes(l[textCol]!) && !/[─━═]{3}/.test(l);
    };
    let first = row;
    while (first - 1 >= 0 && fits(first - 1)) first--;
    // Rows indented past the items' text are an item's description wrapped (claude's /model): stepped over.
    const more = (r: number) => lines[r]!.slice(0, textCol + 2).trim() === "" && lines[r]!.trim() !== "";
    let last = row;
    for (let r = row + 1; r < view.rows; r++) {
      if (fits(r)) last = r;
      else if (!more(r)) break;
    }
    // One item is a list too when it is numbered (qwen's picker with one model: "› 1. fake-model").
    if (last === first && !/^\d{1,2}[.)] /.test(view.text(row, textCol, textCol + 4))) continue;
    const items: Omit<Item, "ref">[] = [];
    for (let r = first; r <= last; r++) {
      if (r !== row && !fits(r)) continue;
      const text = view.text(r, textCol, view.cols).replace(/[\s│┃║]+$/, "");
      // "1. GPT-6.1-Sol    Latest workhorse…": the number is the key, a column after two blanks a description.
      // A mark after the name (claude's ✔ on the current model, codex's "(current)") is not part of it.
      const [, key, name] = /^(?:(\d{1,2})[.)] )?(.*?)(?: [✔✓]| \((?:current|default|selected)\))?(?:\s{2,}\S.*)?$/.exec(text.trim())!;
      const checked = r !== row && view.char(r, textCol - 1) !== " ";
      // A last word in another colour than the name's first (qwen's dim "Light" after "Qwen Light") is a column of its own.
      const at = view.flat[r]!.indexOf(name!, textCol);
      const lastWord = / (\S+)$/.exec(name!);
      const ink = (col: number) => view.grid.fg[r * view.cols + col];
      // (Only when drawn in the list's chrome, its frame's ink: gemini's theme names are each in colours of their own.)
      const chrome = new Set([...view.flat[r]!].flatMap((ch, col) => ("│┃║".includes(ch) ? [ink(col)] : [])));
      const label = at >= 0 && lastWord && ink(at + lastWord.index! + 1) !== ink(at) && chrome.has(ink(at + lastWord.index! + 1)) ? name!.slice(0, lastWord.index) : name!;
      items.push({ label, row: r, col: textCol, width: text.length, ...(key ? { key } : {}), ...(r === row ? { selected: true } : {}), ...(checked ? { checked } : {}) });
    }
    const width = Math.max(...items.map((i) => i.col + i.width)) - markerCol;
    out.push({ kind: "menu", row: first, col: markerCol, width, height: last - first + 1, items });
    view.use(first, markerCol, width, last - first + 1);
    row = last;
  }
  return out;
}

/** A row of a frame, not a list's: only box characters, or one at its edge (a tree's "├─>" in a row is not). */
const frameRow = (text: string): boolean =>
  BOX_CHARS.test(text) && (!/[\p{L}\p{N}]/u.test(text) || /^\s*[│┃║┌┐└┘├┤╭╮╰╯]|[│┃║┌┐└┘├┤╭╮╰╯]\s*$/.test(text));

/**
 * An item's text as a list shows it: a "(3)" before it is its key (tmux's choose-tree), a tree's
 * guides ("├─> ", "--- ", "+ ") are not part of it, nor a single hot key after it (aptitude's "  g").
 */
function treeItem(text: string): { label: string; key?: string } {
  let rest = clean(text);
  let key: string | undefined;
  const numbered = /^\((\d{1,3})\)\s+/.exec(rest);
  if (numbered) [key, rest] = [numbered[1], rest.slice(numbered[0].length)];
  rest = rest.replace(/^(?:[├└│─>\\|`-]{2,}\s|[+-]\s|\*(?=\S))/, "");
  const hot = /\s([a-zA-Z])$/.exec(text.trimEnd()) && /\s{2,}[a-zA-Z]$/.test(text.trimEnd()) ? /\s([a-zA-Z])$/.exec(text.trimEnd()) : null;
  if (hot && !key) [key, rest] = [hot[1], rest.slice(0, -2).trim()];
  return { label: rest, ...(key ? { key } : {}) };
}

/**
 * Lists outside boxes whose selected row is a bar: a span on its own background (reverse video or
 * colour) the rows above and below lack, with items over the same columns starting where its text
 * does (tig's commits, ranger's columns). A bar without neighbours is a one-item list only when it
 * shares its row with other bars (ranger's preview column) and heads nothing found (htop's
 * "For current screen tab" over its checkboxes).
 */
export function barMenus(view: View, boxes: Box[]): Found[] {
  const bars: { row: number; start: number; end: number }[] = [];
  for (let row = 0; row < view.rows; row++) {
    for (let col = 0; col < view.cols; ) {
      const bg = view.background(row, col);
      let end = col + 1;
      while (end < view.cols && view.background(row, end) === bg) end++;
      // (A neighbour already read as another element, mutt's help bar over its index, does not count.)
      const differs = (r: number) => r < 0 || r >= view.rows || view.background(r, col) !== bg && view.background(r, end - 1) !== bg || !view.free(r, col, end);
      // A short one in reverse over a name alone (nnn's "src") counts too, if a list is around it (below).
      const wide = end - col >= 8 && view.char(row, end - 1) === " ";
      const word = bg.startsWith("i") && end - col >= 2 && view.char(row, col).trim() !== "" && view.char(row, col - 1).trim() === "" && /^[\s/]?$/.test(view.char(row, end));
      if (bg !== "0" && bg !== view.backdrop && (wide || word) && view.text(row, col, end).trim() && !VERTICAL.includes(view.char(row, col - 1)) && differs(row - 1) && differs(row + 1) && view.free(row, col, end) && !boxAround(boxes, row, col)) bars.push({ row, start: col, end: wide ? end : Math.max(end, col + view.text(row, col, view.cols).search(/\s{2,}|\s*$/)) });
      col = end;
    }
  }
  // A bar at the top of a list that holds another bar of its own colour is the list's heading
  // (htop's "Categories" over its selected "Display options", "Sort by" over "PERCENT_CPU"): a list
  // has one selected row.
  const lead = (r: number, start: number, end: number) => view.text(r, start, end).search(/\S/);
  const over = (a: { row: number; start: number; end: number }, b: { row: number; start: number; end: number }) => {
    if (b.row <= a.row || b.start >= a.end || a.start >= b.end || view.background(a.row, a.start) === view.background(b.row, b.start)) return false;
    for (let r = a.row + 1; r < b.row; r++) if (lead(r, a.start, a.end) !== lead(a.row, a.start, a.end)) return false;
    return true;
  };
  // (Not when its colour goes on under the other bar: that is the list's own rows, emacs's drop-down.)
  const again = (a: { row: number; start: number }, b: { row: number }) => b.row + 1 < view.rows && view.background(b.row + 1, a.start) === view.background(a.row, a.start);
  const headings = new Set(bars.filter((a) => bars.some((b) => over(a, b) && !again(a, b))).map((a) => a.row));
  const out: Found[] = [];
  for (const bar of bars) {
    const { row, start, end } = bar;
    if (headings.has(row)) continue;
    const lead = (r: number) => view.text(r, start, end).search(/\S/);
    const textCol = lead(row);
    // Beside a gutter of line numbers counting up (micro's "1 first line"), it is an editor's current line.
    const number = (r: number) => (r >= 0 && r < view.rows && start > 0 ? /^\s*(\d+)\s*$/.exec(view.text(r, 0, start))?.[1] : undefined);
    const numbered = (r: number) => number(r) !== undefined && Number(number(r)) === Number(number(row)) + r - row;
    if (numbered(row + 1) && (numbered(row - 1) || numbered(row + 2))) continue;
    // (A mark before the selected row's name, vifm's "*", shifts it by one, as do numbers right-aligned: htop's " 9 SIGKILL" over "15 SIGTERM".)
    const fits = (r: number) => r >= 0 && r < view.rows && !headings.has(r) && view.free(r, start, end) && !/^\s*[-─━=]{5,}\s*$/.test(view.text(r, start, end)) && lead(r) >= 0 && Math.abs(lead(r) - textCol) <= (/[*+]/.test(view.char(row, start + textCol)) || /\d/.test(view.char(row, start + textCol)) && /\d/.test(view.char(r, start + lead(r))) ? 1 : 0) && !frameRow(view.text(r, start, end)) && view.spanBackground(r, start, end) !== view.background(row, start);
    let [first, last] = [row, row];
    while (fits(first - 1)) first--;
    while (fits(last + 1)) last++;
    // Items a blank row apart (alpine's main menu), three or more.
    let step = 1;
    const blankRow = (r: number) => r >= 0 && r < view.rows && view.text(r, start, end).trim() === "";
    if (first === last) {
      let [above, below] = [row, row];
      while (blankRow(above - 1) && fits(above - 2)) above -= 2;
      while (blankRow(below + 1) && fits(below + 2)) below += 2;
      if (below - above >= 4) [first, last, step] = [above, below, 2];
    }
    // A first row above the bar, bold in a style no other row has, is a heading (opencode's "Suggested").
    const style = (r: number) => view.spanStyle(r, start, end);
    const others = Array.from({ length: last - first }, (_, i) => first + 1 + i).filter((r) => r !== row).map(style);
    const boldAt = (r: number) => (view.grid.flags[r * view.cols + start + lead(r)]! & CellFlag.bold) !== 0;
    // (Not one drawn in the selected row's own colour: nnn's folders, bold blue, the selected one among them.)
    const sameInk = (a: number, b: number) => view.grid.fg[a * view.cols + start + lead(a)] === view.grid.fg[b * view.cols + start + lead(b)];
    if (first < row && boldAt(first) && others.length && !others.includes(style(first)) && !sameInk(first, row)) first++;
    // So is a first row that ends in a colon (htop's "Send signal:").
    else if (first < row && /:$/.test(view.text(first, start, end).trim())) first++;
    if (first === last && (!bars.some((other) => other !== bar && other.row === row) || row + 1 < view.rows && !view.free(row + 1, start, end))) continue;
    // A short bar is a list's only with neighbours enough to be one.
    if (end - start < 8 && last - first < 2) continue;
    // The bar over a name alone (nnn's) spans the list's longest name.
    const right = end - start < 8 ? Math.max(end, ...Array.from({ length: last - first + 1 }, (_, i) => start + view.text(first + i, start, view.cols).search(/\s{2,}|\s*$/))) : end;
    // Its colour again in the list: this bar is one of its rows, another is the selected one (emacs's drop-down).
    const alike = (r: number) => r >= 0 && r < view.rows && r !== row && view.background(r, start) === view.background(row, start) && lead(r) === textCol && view.background(r, end - 1) === view.background(row, end - 1);
    if (last - first >= 1 && (alike(first - 1) || alike(last + 1))) continue;
    const items: Omit<Item, "ref">[] = [];
    for (let r = first; r <= last; r += step) {
      // A figure or key right-aligned at the list's edge (ranger's sizes, opencode's "ctrl+x l") is not part of the name.
      const text = view.text(r, start, right).trimEnd();
      const name = right - (start + text.length) <= 4 ? text.replace(/\s{2,}\S+(?: \S+)?$/, "") : text;
      // "A     ADDRESS BOOK       -  Update address book": a key, the name, a dash, what it does.
      const described = /^\s*(\S)\s{2,}(\S.*?)\s{2,}-\s+\S/.exec(text);
      const { label, key } = described ? { label: described[2]!, key: described[1]!.toLowerCase() } : treeItem(name);
      items.push({ label, row: r, col: start, width: right - start, ...(key ? { key } : {}), ...(r === row ? { selected: true } : {}) });
    }
    // Every item numbered ("15 SIGTERM"): the number is its key; not a record's first field, columns
    // following it (mutt's "2 N   Jan 02 Alice 2   (1) Report…", a message number: it is typed to jump, not to pick).
    const record = (label: string) => label.split(" ").length > 4;
    if (items.length >= 3 && items.every((i) => /^\d{1,3} \S/.test(i.label) && !i.key) && !items.every((i) => record(i.label))) {
      for (const i of items) [i.key, i.label] = [/^\d+/.exec(i.label)![0], i.label.replace(/^\d+ /, "")];
    }
    out.push({ kind: "menu", row: first, col: start, width: right - start, height: last - first + 1, items });
    view.use(first, start, right - start, last - first + 1);
  }
  return out;
}

/** dialog/whiptail menus: rows in a box, one drawn highlighted; "tag  Label" rows give each a key. */
export function highlightMenus(view: View, boxes: Box[]): Found[] {
  const out: Found[] = [];
  for (const box of boxes) {
    // A frame whose top joins column rules ("┌────┬────┐") holds a table, its highlighted row one of it (pspg).
    if (box.bottom - box.top < 3 || /[┬┳╤╥╦]/.test(view.text(box.top, box.left, box.right))) continue;
    const inner = { start: box.left + 1, end: box.right };
    // Runs of free non-blank rows inside the box.
    let row = box.top + 1;
    while (row < box.bottom) {
      const rows: number[] = [];
      // A rule between groups of items (├────┤: mc's drop-downs) does not end the list.
      const rule = (r: number) => /^[─━═]+$/.test(view.text(r, inner.start, inner.end).trim()) && rows.length > 0 && r + 1 < box.bottom && view.free(r + 1, inner.start, inner.end);
      while (row < box.bottom && (view.free(row, inner.start, inner.end) && view.text(row, inner.start, inner.end).trim() !== "" || rule(row))) {
        if (!rule(row)) rows.push(row);
        row++;
      }
      row++;
      if (rows.length < 2) continue;
      const lone = (looks: string[]) => rows.filter((_, i) => looks.filter((b) => b === looks[i]).length === 1);
      // The one row on a background of its own is the selected one, whatever its letters' colours
      // (debconf colours each item's hot key: "U" red, "S" blue, a tie); else the one drawn unlike the rest.
      const bgOnly = lone(rows.map((r) => { const t = view.text(r, inner.start, inner.end); return view.spanBackground(r, inner.start + t.search(/\S/), inner.start + t.trimEnd().length); }));
      const odd = bgOnly.length === 1 && rows.length > 2 ? bgOnly : lone(rows.map((r) => lineBackground(view, r, inner.start, inner.end)));
      const lead = rows.map((r) => view.text(r, inner.start, inner.end).search(/\S/));
      if (odd.length !== 1 && !(rows.length === 2 && odd.length === 2)) continue;
      if (new Set(lead).size > 2) continue;
      const selectedRow = odd.length === 1 ? odd[0]! : rows.find((r) => view.spanStyle(r, inner.start, inner.end).includes("/i"));
      if (selectedRow === undefined) continue;
      const items: Omit<Item, "ref">[] = rows.map((r) => {
        // A scroll arrow at the list's right edge is not part of an item.
        const text = view.text(r, inner.start, inner.end).replace(/[↑↓▲▼]\s*$/, "");
        const start = text.search(/\S/);
        const body = text.trimEnd().slice(start);
        const parts = body.split(/\s{2,}/);
        // "Quick view   C-x q": a key combination after the name is its shortcut, not a tag before it.
        // So is a lone character there (links2's "Go to URL   g", its submenu's ">", which is no key).
        const shortcut = parts.length === 2 && /^(?:[CMSA]-\S(?: \S)?|\^\S(?:\^?\S){0,2}|F\d{1,2}|(?:ctrl|alt|shift)[+-]\S+|\S)$/i.test(parts[1]!);
        const tagged = parts.length === 2 && parts[0]!.length <= 12 && !shortcut;
        // A letter alone at the frame's edge after the name is its hot key (aptitude's "Install/remove packages g").
        const hot = !tagged && !shortcut && text.trimEnd().length === text.length ? / ([a-zA-Z])$/.exec(body) : null;
        // menuconfig's "[*] Networking support (NEW)", "(widget) Default host name", "Drivers  --->":
        // the mark or value before the name, the "(NEW)" after it and the arrow are not its label.
        const mark = /^(\[[ *xM]\]|<[ *M]>|\([^)]{1,20}\)) (?=\S)/.exec(body);
        const named = (text: string) => (mark ? text.slice(mark[0].length) : text).replace(/\s+\(NEW\)$/, "").replace(/\s+-{2,3}>$/, "").trim();
        const item: Omit<Item, "ref"> = { label: named(tagged ? parts[1]! : shortcut ? parts[0]! : hot ? body.slice(0, hot.index).trim() : body.trim()), row: r, col: inner.start + start, width: body.length };
        if (mark && /^\[[ *xM]\]$/.test(mark[1]!)) item.checked = mark[1] !== "[ ]";
        if (hot) item.key = hot[1]!;
        if (shortcut && !/^[>►▶→]$/.test(parts[1]!)) item.key = parts[1]!;
        if (tagged) item.key = parts[0]!;
        if (r === selectedRow) item.selected = true;
        return item;
      });
      const col = Math.min(...items.map((i) => i.col));
      const width = Math.max(...items.map((i) => i.col + i.width)) - col;
      // Menus carry no label: their prompt is a text block of its own (test/fixtures/screens/README.md).
      out.push({ kind: "menu", row: rows[0]!, col, width, height: rows[rows.length - 1]! - rows[0]! + 1, items });
      for (const r of rows) view.use(r, inner.start, inner.end - inner.start);
    }
  }
  return out;
}

/**
 * Words laid out in a grid, one of them lit (zsh's and fish's completion rows, kakoune's, a
 * terminal-kit grid or column menu): a menu whose items are the words, read row by row. Lit is a
 * background its word alone has, every other word sharing one; a bar across the row is a list's
 * selected row, not a word's (barMenus). Capitalised words on a bar are a menu bar: buttons.
 */
export function gridMenus(view: View): Found[] {
  const out: Found[] = [];
  type Word = { row: number; col: number; end: number; text: string; bg: string };
  const wordsOf = (row: number): Word[] | undefined => {
    const words: Word[] = [];
    for (const m of view.flat[row]!.matchAll(/\S+(?: \S+){0,2}/g)) {
      const [col, end] = [m.index!, m.index! + m[0].length];
      // A scroll bar's block, a frame or a key's "█" is no word.
      if (/^[█▌▐░▒▓│┃║]+$/.test(m[0])) continue;
      if (!view.free(row, col, end) || m[0].length > 30) return undefined;
      words.push({ row, col, end, text: m[0], bg: view.spanBackground(row, col, end) });
    }
    return words;
  };
  for (let row = 0; row < view.rows; row++) {
    const first = wordsOf(row);
    if (!first?.length || first.some((w) => /^[-─━=]{5,}$/.test(w.text))) continue;
    // The rows under it whose words start in the first row's columns (or a one-column list's).
    const block: Word[][] = [first];
    const columns = new Set(first.map((w) => w.col));
    // (A rule under a header ends it: a table's, not a grid of words.)
    while (row + block.length < view.rows) {
      const next = wordsOf(row + block.length);
      if (!next?.length || !next.every((w) => columns.has(w.col)) || next.some((w) => /^[-─━=]{5,}$/.test(w.text))) break;
      block.push(next);
    }
    // A last row wholly on a background of its own under the grid is a description of the lit
    // word (ptpython's " function "), not more of it.
    const tail = block[block.length - 1]!;
    if (block.length >= 3 && tail.every((w) => w.bg === tail[0]!.bg) && block.slice(0, -1).flat().every((w) => w.bg !== tail[0]!.bg)) block.pop();
    const words = block.flat();
    const looks = new Map<string, number>();
    for (const w of words) looks.set(w.bg, (looks.get(w.bg) ?? 0) + 1);
    const lit = words.filter((w) => looks.get(w.bg) === 1);
    const last = row + block.length - 1;
    const skip = () => (row = last);
    // (Drawn on the screen's own backdrop, a word is outside the list, not lit in it; words between
    // rules are a panel's columns.)
    if (words.length < 3 || looks.size !== 2 || lit.length !== 1 || lit[0]!.bg === view.backdrop && view.backdrop !== "0" || words.some((w) => BOX_CHARS.test(w.text))) {
      skip();
      continue;
    }
    const selected = lit[0]!;
    // The lit span is the word's, with at most its column's padding: not a bar across the row.
    let [from, to] = [selected.col, selected.end];
    while (from > 0 && view.background(selected.row, from - 1) === selected.bg) from--;
    while (to < view.cols && view.background(selected.row, to) === selected.bg) to++;
    const nextCol = Math.min(...words.filter((w) => w.row === selected.row && w.col > selected.col).map((w) => w.col), view.cols);
    const prevEnd = Math.max(...words.filter((w) => w.row === selected.row && w.col < selected.col).map((w) => w.end), 0);
    // A table's header with its sort column lit (htop's PERCENT_CPU) and its figures: no words to choose.
    const data = words.filter((w) => !/\p{Ll}/u.test(w.text)).length;
    if (data >= words.length / 2) {
      skip();
      continue;
    }
    // Buttons in brackets ("< OK >  <Cancel>") and "key Name" hints are not a list of words.
    if (from < prevEnd || to > nextCol || to - from > view.cols * 0.6 || words.some((w) => /^[<[(].*[>\])]$/.test(w.text) || /^(?:\^|M-|F\d)\S* /.test(w.text))) {
      skip();
      continue;
    }
    // Nor a line of prose with one word marked (a search hit): words of a grid stand two blanks apart.
    if (block.length === 1 && words.some((w, i) => i > 0 && w.col - words[i - 1]!.end < 2)) {
      skip();
      continue;
    }
    const bar = block.length === 1 && words.every((w) => /^[A-Z][a-z]{1,11}$/.test(w.text)) && view.spanBackground(row, words[0]!.col, words[words.length - 1]!.end) !== view.backdrop;
    if (bar) {
      for (const w of words) out.push({ kind: "button", row, col: w.col, width: w.end - w.col, height: 1, label: w.text, selected: w === selected });
    } else {
      const items = words.map((w) => ({ label: w.text, row: w.row, col: w.col, width: w.end - w.col, ...(w === selected ? { selected: true } : {}) }));
      const col = Math.min(...words.map((w) => w.col));
      out.push({ kind: "menu", row, col, width: Math.max(...words.map((w) => w.end)) - col, height: block.length, items });
    }
    // (The lit padding too: a program may park the cursor there.)
    for (const w of words) view.use(w.row, w.col, w.end - w.col);
    view.use(selected.row, from, to - from);
    skip();
  }
  return out;
}
