// Questions with their options: "[Y/n]" and its kin after a sentence, numbered or lettered options
// under a question or over a prompt, toggles and hot-keyed choices.
import { CellFlag } from "../cell-grid.ts";
import type { Found, Item } from "./types.ts";
import {
  clean,
  filledAbove,
  GLUED_DEFAULT_KEY,
  highlighted,
  joinWrapped,
  LINE_MARK,
  stripFrame,
  type View,
} from "./view.ts";

/**
 * Answers in brackets after a question: "[Y/n]", "(y/N)", "(yes/no/[fingerprint])", "(y or n)",
 * "(yes or no)", emacs's "(y, n, !, ., q, C-r, C-f, d or C-h)", "[Y|n]", git's "[y,n,q,a,d,...]".
 * (Not "(N/A)": not applicable.)
 */
const BRACKETED_ANSWERS =
  /[[(](?![nN]\/[aA][\])])((?:[yY](?:es)?|[nN]o?)(?:(?:\/|\||, ?| or )\^?\[?[\w?!.-]+\]?)+|[yn](?:,[\w?/])+)[\])]\??/;
/**
 * Words to type in parentheses, then the default in square brackets, before the colon: dub's "Package recipe format
 * (sdl/json) [json]:" (rich's the other way round). Two words or more of two letters or more (a "(y/n)" is YES_NO's).
 */
const WORDS_THEN_DEFAULT =
  /^(\s*)(\S.*?) \((\w{2,}(?:\/\w{2,})+|\w{2,}(?:, \w{2,})+(?=\) \[\w+\]))\)(?: \[[\w ]*\])?:(?=\s|$)/;
/**
 * A row asking for Return to go on, a pager's or a pause's: "Press return for more:", "Hit return when …"; not one
 * naming another way ("Press enter to confirm or esc to cancel": a key hint).
 */
const PAUSE_PROMPT = /^\s*(?:Press|Hit) (?:return|enter)\b(?![^?]*\b(?:or|esc|escape)\b)[^?]*$/i;

/** A pager's pause between runs of dashes: the words inside name a key, then "to continue". */
const DASHED_PAUSE = /^\s*-{2,}\s*((?:(?:Type|Press|Hit) \w+|\[[^\]\s]{1,8}\]) to continue\b.*?)\s*-{2,}\s*$/i;

/** A lone "(y)" right after a "?". */
const LONE_YES = /(?<=\? )\((y)\)(?=\s*$)/;
/**
 * mutt's "([yes]/no/?)": the bracketed one is the default; so in one letter each (IPython's "Do you really want to
 * exit ([y]/n)?").
 */
const YES_NO_DEFAULTED = /\(((?:\[yes\]|yes|\[y\]|y)\/(?:\[no\]|no|\[n\]|n)(?:\/\[?[\w?]\]?)*)\)/;
/**
 * parted's "Yes/No?" at the end of its row; supervisorctl's "… process down y/N?", the answers after the question's
 * words, no bracket (the capital the default); or after its "?", a colon after them ("Use the defaults? yes/no:",
 * "Really delete? Yes or No:").
 */
const YES_SLASH_NO =
  /(?<=^|[.?:] |\w )(Yes\/No|yes\/no|[yY]\/[nN]|Yes or No|yes or no)(?:\?|(?<=\? [\w/ ]{3,10}):)(?=\s*$)/;
/** inquirer's collapsed expand prompt "(yadH)": a letter each, the capital the default. */
const LETTER_ANSWERS = /(?<=[?:] |^\? \S.* )\(((?=[a-z]*[A-Z][a-z]*\))[a-zA-Z]{3,8})\)(?=\s*$| \S{1,3}\s*$)/;
/**
 * A yes/no question's default alone in angle brackets between its last word and its "?", ending the row: e2fsck's
 * "Clear<y>?", read a key at a time. (Not patch's "Apply anyway? [n]": a line read, its field an input.)
 */
const DEFAULT_ALONE = /(?<=\w)<([yn])>\?(?=\s*$)/;
/** Any of the above: each has one group, the answers (1 to 6 in this order). */
const YES_NO = new RegExp(
  [BRACKETED_ANSWERS, LONE_YES, YES_NO_DEFAULTED, YES_SLASH_NO, LETTER_ANSWERS, DEFAULT_ALONE]
    .map((r) => r.source)
    .join("|"),
);

/**
 * What stands before a question's words and is no part of them: inquirer's "? ", dpkg's "*** ", a program's picture
 * before every line it writes (changeset's "🦋 "), sphinx-quickstart's "> ".
 */
const QUESTION_ICON = /^(?:[?✔✖>]|\*{3}|\p{Extended_Pictographic}\uFE0F?) /u;

/**
 * A remark in parentheses between a question and its answers telling the key for help: no part of the question's
 * words (tty-prompt's "Overwrite Gemfile? (enter "h" for help) [y,n,a,d,q,h]").
 */
const HELP_REMARK = /(?<=\?)\s+\((?:enter|type|press) (?:"[^"\s]{1,3}"|'[^'\s]{1,3}'|\S{1,3}) for help\)$/i;

/** The names a one-letter or word answer goes by where the screen says nothing else. */
const ANSWER_NAMES: Record<string, string> = {
  y: "Yes",
  n: "No",
  yes: "Yes",
  no: "No",
  q: "Quit",
  a: "All",
  d: "Done",
  e: "Edit",
  "?": "Help",
};

/**
 * dpkg's "(Y/I/N/O/D/Z) [default=N] ?": the default named after the answers, where no case marks it; or one of them
 * alone in brackets (poetry's "(yes/no) [yes]").
 */
const NAMED_DEFAULT = /^[\])]\s*\[(?:default=)?(\w+)\]/;

/**
 * A legend row above the answers, a key (or two, "Y or I") and what it does: dpkg's
 * "    Y or I  : install the package maintainer's version".
 */
const LEGEND_ROW = /^\s*([A-Za-z])(?:\s+or\s+([A-Za-z]))?\s+:\s+(\S.*?)\s*$/;

/** How far above its question a legend may begin. */
const LEGEND_ROWS = 10;

/**
 * The answers of a bracketed "[Y/n]"-like group, starting at `from` on `row`. The default is the
 * capital among lower-case answers, or the bracketed one (mutt's "[yes]"), or the one named after
 * the group ("[default=N]"); a bracketed word that is no answer is a value to type (ssh's
 * "[fingerprint]"): no key, no default. Labels come from the program's legend above when it has
 * one (dpkg's "D     : show the differences…"; the item then stands where its description does),
 * else the usual names of y, n, q…
 */
function bracketedAnswers(
  view: View,
  row: number,
  from: number,
  options: string[],
  listed: boolean,
): Omit<Item, "ref">[] {
  const line = view.flat[row]!;
  const legend = legendAbove(view, row);
  const bare = options.map((o) => o.replace(/^\[(.+)\]$/, "$1"));
  // Case marks the default only where the answers mix cases ("Y/n"; not dpkg's "Y/I/N/O/D/Z").
  const caseMarks = bare.some((o) => /[a-z]/.test(o)) && bare.some((o) => /[A-Z]/.test(o));
  const items: Omit<Item, "ref">[] = [];
  let c = from;
  for (const [index, bracketed] of options.entries()) {
    const option = bare[index]!;
    c = line.indexOf(option, c);
    const key = option.toLowerCase();
    const placeholder = bracketed !== option && option.length > 1 && !/^(?:yes|no)$/i.test(option);
    // A key of several letters is typed whole (emacs's "yes", "C-r"); a yes or no as written (wipe's "(Yes/No)"
    // takes "Yes" whole and asks again on "y").
    // (In git's list, "j" and "J" are two keys, and none is the default.)
    const control = option.startsWith("^") || /^C-/.test(option);
    const whole = /^(?:yes|no)$/i.test(option) ? option : control ? key : undefined;
    const typed = listed ? option : (whole ?? key.slice(0, 1));
    const byCase = caseMarks && option !== key && option.length === 1;
    const isDefault = !listed && !placeholder && (byCase || bracketed !== option);
    // (An answer the legend describes is where its description is: that is what names it.)
    const described = legend.get(option);
    items.push({
      label: described?.text ?? ANSWER_NAMES[key] ?? option,
      row: described?.row ?? row,
      col: described?.col ?? c,
      width: described?.width ?? option.length,
      ...(placeholder ? {} : { key: typed }),
      ...(isDefault ? { selected: true } : {}),
    });
    c += option.length;
  }
  const named = NAMED_DEFAULT.exec(line.slice(c));
  if (named && !items.some((i) => i.selected))
    for (const [index, item] of items.entries()) if (bare[index] === named[1]) item.selected = true;
  return items;
}

/** A key's line in a legend: what it does, and where that stands. */
interface Legend {
  text: string;
  row: number;
  col: number;
  width: number;
}

/**
 * The legend the rows above a question give its keys ("Y or I  : install…"): each key to its
 * description, the first key of a pair and its alias alike. Empty when there is none.
 */
function legendAbove(view: View, row: number): Map<string, Legend> {
  const legend = new Map<string, Legend>();
  for (let r = row - 1; r >= Math.max(0, row - LEGEND_ROWS); r--) {
    const entry = LEGEND_ROW.exec(view.flat[r]!);
    if (!entry) {
      if (legend.size) break;
      continue;
    }
    const text = clean(entry[3]!);
    const at = { text, row: r, col: view.flat[r]!.indexOf(entry[3]!), width: text.length };
    for (const key of [entry[1], entry[2]]) if (key && !legend.has(key)) legend.set(key, at);
  }
  return legend;
}

/** A question's words before answers with their key marked on the same row ("Apply? [y]es/…", "… ([y]es|…"). */
const ASKED_BEFORE_KEYS = /^(\S.*?\?)\s+(?=\(?\w*(?:\[[A-Za-z]\]|'[A-Za-z]'))/;

/**
 * One answer with its key marked: "[y]es", "'f'ile", a second word after it ("[v]iew patch",
 * "[a]ccept all"; not "or", which parts answers).
 */
const MARKED_KEY_ANSWER = /(\w*(?:\[([A-Za-z])\]|'([A-Za-z])')\w*(?: (?!or\b)[a-z]+)?)/;

/** What parts answers with marked keys, and the parentheses round a one-row list of them. */
const MARKED_KEY_SEPARATORS = /\s*(?:\/|,|\||\bor\b)\s*|^\(|\)(?=:?\s*$)/g;

/**
 * Letters in brackets, one answer each, before a "?" ("[nyae]?") or after it ("? [yN]:"), the default maybe
 * in parentheses after them (rcs's "? [yn](y): ").
 */
const LETTERS_AT_QUESTION =
  /\[([a-z]{2,6})\]\?\s*$|(?<=\? )\[([a-z]{2,6}|(?=[a-z]*[A-Z][a-z]*\])[a-zA-Z]{2,6})\](?:\(([a-z])\))?:?\s*$/;

/**
 * Letters in brackets after a question, a "?" among them (the key that explains the others) and one capital (the
 * default), ending its row, maybe one more answer with its key marked after a comma: "…? [Ynpsiuqx?], [H]elp:",
 * "…? [yN?]:". Each letter one answer, named as shown.
 */
const LETTERS_WITH_HELP =
  /(?<=\? )\[((?=[a-z?]*[A-Z][a-z?]*\])(?=[a-zA-Z]*\?)[a-zA-Z?]{3,12})\](?:, (\[([A-Z])\][a-z]+))?:?\s*$/;

/**
 * Letters in brackets after a question (a count of questions in parentheses may stand between), one capital (the
 * default), more elided after them ("..."), the key that lists the rest named after a comma, the row's end: darcs's
 * "Shall I record this change? (1/5)  [ynW...], or ? for more options:". Each letter one answer, named as shown, and
 * that key one more.
 */
const LETTERS_AND_MORE = new RegExp(
  [
    // After the "?", maybe a count of questions: "? (1/5)  ".
    /(?<=\?(?: \(\d+\/\d+\))? {1,2})/,
    // The letters, one capital among them, then the elision: "[ynW...]".
    /\[((?=[a-z]*[A-Z][a-z]*(?:\.\.\.|…)\])[a-zA-Z]{2,12})(?:\.\.\.|…)\]/,
    // The key that lists the rest: ", or ? for more options:".
    /(?:, or (\?) for (?:more options|help))?:?\s*$/,
  ]
    .map((r) => r.source)
    .join(""),
);

/**
 * A yes or no in parentheses after a question, then remarks after commas each opening with the key it names (a letter,
 * or Return): "…? (y/n, Return cancels connection, i for more info)", the row's end.
 */
const REMARKED_YES_NO = /(?<=\? )\(([yY])\/([nN])((?:, (?:[a-z]|Return|Enter) [a-z]+(?: [a-z]+)*)+)\)(?=\s*$)/;

/** An answer typed after a question's answers, on its row: "…? s", "(y/N): n". */
const ANSWERED_AFTER = /[\])]\??:? +\S+$/;

/** A box's right side after a question in it, and blanks: no answer typed (pg_activity's "… (y/n) │"). */
const FRAME_END = /(?:\s+[│┃║])?\s*$/;

/** A side bar's last row before the question on it: deno's "┗ Allow? [y/n/A]". */
const SIDE_BAR_END = /^\s*[┗┖┕└╰]\s+(?=\S)/;

/** A legend after the answers, a key and its meaning each: "(y = yes, allow; n = no, deny; A = allow all …)". */
const INLINE_LEGEND = /^\s*\(\s*\w = [^;)]+(?:;\s*\w = [^;)]+)+\)/;

/** A row holding only a marker the answer is typed after, and what is typed: deno's " > ", rm's. */
const ANSWER_MARKER_ROW = /^\s*[>›❯](?: \S*)?\s*$/;

/**
 * A remark wholly in parentheses on the row under a question, the cursor waiting at its end: the question's second row
 * (opam's "Do you want opam to modify ~/.bash_profile? [N/y/f]" over "(default is 'no', use 'f' to choose a different
 * file)").
 */
const REMARK_ROW = /^\s*\([^()]*(?:\([^()]*\)[^()]*)*\)\s*$/;

/** The row under a question is its remark, the cursor at that remark's end (`REMARK_ROW`). */
function remarkUnder(view: View, row: number): boolean {
  const { cursor } = view;
  const under = view.flat[row + 1] ?? "";
  return cursor.visible && cursor.row === row + 1 && REMARK_ROW.test(under) && cursor.col >= under.trimEnd().length;
}

/**
 * A question's row that something written since stands under, between it and the cursor (a shell's
 * prompt under a "Delete all? [y/N]" a program printed): output, no longer asking. Only blank rows,
 * the bare marker the answer is typed after (deno's ">"), or the question's remark (`remarkUnder`), may come between
 * a question and its cursor.
 */
/** A row written to its last column: the terminal wrapped what goes on onto the row under it. */
function fullRow(view: View, row: number): boolean {
  return view.flat[row]!.at(-1) !== " ";
}

/** A row written to its end right over the cursor's row, which goes on with it up to the cursor, nothing after. */
function fullOverCursor(view: View, row: number): boolean {
  const { cursor } = view;
  if (!cursor.visible || cursor.row !== row + 1 || !fullRow(view, row)) return false;
  return !!view.flat[row + 1]!.slice(0, cursor.col).trim() && !view.flat[row + 1]!.slice(cursor.col).trim();
}

function writtenPast(view: View, row: number): boolean {
  const { cursor } = view;
  if (!cursor.visible || cursor.row <= row) return false;
  if (remarkUnder(view, row)) return false;
  for (let r = row + 1; r <= cursor.row; r++) {
    const text = r === cursor.row ? view.flat[r]!.slice(0, cursor.col) : view.flat[r]!;
    if (text.trim() && !(r === row + 1 && r === cursor.row && ANSWER_MARKER_ROW.test(view.flat[r]!))) return true;
  }
  return false;
}

/** A prompt's words and its ":", then numbered choices, "N) words" each, a ":" after the last (codespell's). */
const NUMBERED_AFTER_PROMPT = /^(\s*)(\S.*?):\s+((?:\d{1,2}\) \S.*?)+):\s*$/;
/** One choice of them: its number, its words up to the next number or the end. */
const NUMBERED_CHOICE = /(\d{1,2})\) (\S.*?)(?= \d{1,2}\) |$)/g;

/**
 * A prompt's words, then numbered choices on its own row, the cursor waiting after them (`NUMBERED_AFTER_PROMPT`:
 * codespell -i 3's "Choose an option (blank for none):  0) allocate 1) allotted 2) allot:"): a question labelled with
 * the words, each choice an item keyed by its number; not a field whose value is the choices.
 */
function numberedAfterPrompt(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible) return [];
  const row = cursor.row;
  const line = view.flat[row]!;
  const match = NUMBERED_AFTER_PROMPT.exec(line.slice(0, cursor.col));
  if (!match || line.slice(cursor.col).trim() || !view.free(row, 0, view.cols)) return [];
  if (view.flat.slice(row + 1).some((l) => l.trim())) return [];
  const choices = [...match[3]!.matchAll(NUMBERED_CHOICE)];
  const numbers = choices.map((m) => Number(m[1]));
  // (Counting up by one: a prompt's words holding "1) …" by chance are no list.)
  if (choices.length < 2 || numbers.some((n, i) => i > 0 && n !== numbers[i - 1]! + 1)) return [];
  const at = match[0].lastIndexOf(match[3]!);
  const items: Omit<Item, "ref">[] = choices.map((m) => ({
    label: m[2]!.trim(),
    row,
    col: at + m.index!,
    width: m[0].trimEnd().length,
    key: m[1]!,
  }));
  const start = match[1]!.length;
  view.use(row, 0, view.cols);
  return [
    {
      kind: "question",
      row,
      col: start,
      width: match[0].trimEnd().length - start,
      height: 1,
      label: clean(match[2]!),
      items,
    },
  ];
}

/** Answers of a letter or a word each, "/" between, in brackets at a question's end, a ":" maybe after them. */
const SLASHED_AT_END = /[[(]([A-Za-z]{1,3}(?:\/[A-Za-z]{1,3})+)[\])]:?\s*$/;

/**
 * A question whose answers the terminal broke at the row's end (lldb's "… Do you really want to proceed: [Y" over
 * "/n]"), the cursor right after them on the next row, nothing below: one question of both rows, labelled with its
 * words, the answers items (a capital among small letters the default). Its words start on the full row.
 */
function answersWrapped(view: View): Found[] {
  const { cursor } = view;
  const row = cursor.row - 1;
  if (!cursor.visible || row < 0 || view.flat[row]!.trimEnd().length < view.cols) return [];
  const rest = view.flat[cursor.row]!.slice(0, cursor.col);
  if (rest.trim().length > 12 || !/^\S/.test(rest) || view.flat[cursor.row]!.slice(cursor.col).trim()) return [];
  if (view.flat.slice(cursor.row + 1).some((l) => l.trim())) return [];
  if (!view.free(row, 0, view.cols) || !view.free(cursor.row, 0, view.cols)) return [];
  const joined = view.flat[row]!.padEnd(view.cols).slice(0, view.cols) + rest;
  const match = SLASHED_AT_END.exec(joined);
  // (Broken by the wrap: opened on the full row, closed on the next.)
  if (!match || match.index! >= view.cols || match.index! + match[0].trimEnd().length <= view.cols) return [];
  const start = Math.max(0, view.flat[row]!.search(/\S/));
  const label = clean(joined.slice(start, match.index!)).replace(/:$/, "");
  if (!/\p{L}{2}/u.test(label)) return [];
  const options = match[1]!.split("/");
  const capitals = options.filter((o) => o.length === 1 && /[A-Z]/.test(o));
  let at = match.index! + 1;
  const items: Omit<Item, "ref">[] = options.map((option) => {
    at = joined.indexOf(option, at);
    const key = option.toLowerCase();
    const item = {
      label: ANSWER_NAMES[key] ?? option,
      row: at < view.cols ? row : cursor.row,
      col: at % view.cols,
      width: option.length,
      key: /^(?:yes|no)$/.test(key) ? key : key.slice(0, 1),
      ...(capitals.length === 1 && capitals[0] === option && options.length > 1 ? { selected: true } : {}),
    };
    at += option.length;
    return item;
  });
  view.use(row, 0, view.cols, 2);
  return [{ kind: "question", row, col: start, width: view.cols - start, height: 2, label, items }];
}

/** One clause of such a paragraph: a key (or keys, "or" between), "to" or "for", what it does (TeX's "S to …"). */
const KEY_CLAUSE = /^(?:Type )?(\S+(?: or \S+)*) (?:to|for) (\S.*)$/;

/**
 * Rows of clauses naming keys and what each does, ", " between, the last ending in "." (TeX's "Type <return> to
 * proceed, S to scroll future error messages," … "H for help, X to quit."), right over a lone "?" holding the cursor,
 * nothing after it or below: a question without label, each clause an item labelled with what it does, keyed by its
 * key when that is one letter ("<return>" and "1 or ... or 9" keyless). Three clauses at least.
 */
function keyClauses(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible || cursor.row < 1) return [];
  if (
    !/^\s*\?\s*$/.test(view.flat[cursor.row]!.slice(0, cursor.col)) ||
    view.flat[cursor.row]!.slice(cursor.col).trim()
  )
    return [];
  if (view.flat.slice(cursor.row + 1).some((l) => l.trim())) return [];
  const rows: { row: number; clauses: RegExpExecArray[] }[] = [];
  for (let row = cursor.row - 1; row >= 0; row--) {
    const line = view.flat[row]!.trimEnd();
    // (The last row ends in ".", the others in ",".)
    if (!(row === cursor.row - 1 ? /\.$/ : /,$/).test(line) || !view.free(row, 0, view.cols)) break;
    const clauses = line
      .slice(0, -1)
      .split(", ")
      .map((part) => KEY_CLAUSE.exec(part.trim()));
    if (clauses.some((c) => !c)) break;
    rows.unshift({ row, clauses: clauses as RegExpExecArray[] });
  }
  const count = rows.reduce((n, r) => n + r.clauses.length, 0);
  if (count < 3 || !rows.some((r) => r.clauses.some((c) => /^[A-Za-z]$/.test(c[1]!)))) return [];
  const items: Omit<Item, "ref">[] = rows.flatMap(({ row, clauses }) => {
    let at = 0;
    return clauses.map((c) => {
      at = view.flat[row]!.indexOf(c[0], at);
      const item = {
        label: c[2]!,
        row,
        col: at,
        width: c[0].length,
        ...(/^[A-Za-z]$/.test(c[1]!) ? { key: c[1]! } : {}),
      };
      at += c[0].length;
      return item;
    });
  });
  const top = rows[0]!.row;
  const width = Math.max(...rows.map((r) => view.flat[r.row]!.trimEnd().length));
  view.use(top, 0, view.cols, rows.length);
  return [{ kind: "question", row: top, col: 0, width, height: rows.length, items }];
}

/** A question ending in the words it takes, ", " between, "or" before the last (maxima's "… negative or zero?"). */
const WORDS_LISTED_ASKED = /^\p{L}.*?(\p{L}[\p{L}-]*)((?:, \p{L}[\p{L}-]*)+),? or (\p{L}[\p{L}-]*)\?$/u;

/**
 * A question alone on its row from the first column ending in the words it takes (`WORDS_LISTED_ASKED`), the cursor
 * at the start of a row under it (one blank row between at most), nothing typed there nor below: a question whose
 * items are the words, each typed whole (keyed by itself).
 */
function wordsListedAsked(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible || cursor.col !== 0 || view.flat[cursor.row]!.trim()) return [];
  if (view.flat.slice(cursor.row + 1).some((l) => l.trim())) return [];
  const row = view.flat[cursor.row - 1]?.trim() ? cursor.row - 1 : cursor.row - 2;
  if (row < 0 || (row === cursor.row - 2 && view.flat[cursor.row - 1]!.trim())) return [];
  const line = view.flat[row]!.trimEnd();
  const match = WORDS_LISTED_ASKED.exec(line);
  if (!match || !view.free(row, 0, view.cols)) return [];
  const words = [match[1]!, ...match[2]!.split(", ").filter(Boolean), match[3]!];
  let at = line.lastIndexOf(match[1]!, line.length - match[2]!.length - match[3]!.length - 5);
  const items: Omit<Item, "ref">[] = words.map((word) => {
    at = line.indexOf(word, at);
    const item = { label: word, row, col: at, width: word.length, key: word };
    at += word.length;
    return item;
  });
  view.use(row, 0, view.cols);
  return [{ kind: "question", row, col: 0, width: line.length, height: 1, label: line, items }];
}

export function findQuestions(view: View): Found[] {
  const out: Found[] = [];
  const asking = view.flat.map((l) => YES_NO.test(l));
  for (let row = 0; row < view.rows; row++) {
    const line = view.text(row, 0, view.cols);
    const match = YES_NO.exec(view.flat[row]!);
    if (!match || writtenPast(view, row)) continue;
    // One answered already, a later line under it and the cursor there (git add -p's "…? s" over
    // the next hunk, certtool's "(y/N): n"), is the session's history, not a question.
    const answered =
      ANSWERED_AFTER.test(view.flat[row]!.replace(FRAME_END, "")) &&
      view.cursor.row > row &&
      view.flat.slice(row + 1).some((l) => l.trim());
    // So is one a later question stands under, up to the cursor's row (answered by Enter: certtool's
    // "(y/N): " over the next "(y/N): ").
    const superseded =
      view.cursor.visible && view.cursor.row > row && asking.slice(row + 1, view.cursor.row + 1).some(Boolean);
    if (answered || superseded) continue;
    // (A vi-like editor's "~" filler before a question drawn over it is not part of it: dte's; nor a
    // side bar's end, deno's "┗ Allow?".)
    const bar = SIDE_BAR_END.exec(line);
    // (Nor a line mark in brackets opening it: znc's "[ ?? ] Proceed anyway? (yes/no) [no]:".)
    const mark = LINE_MARK.exec(line);
    const start = /^~\s+\S/.test(line)
      ? line.search(/(?<=^~\s+)\S/)
      : bar
        ? bar[0].length
        : mark
          ? mark[0].length
          : Math.max(0, line.search(/[^\s│┃║]/));
    const end = line.trimEnd().length;
    // mutt's "([yes]/no/?)": the bracketed one is the default; inquirer's "(yadH)": one letter each.
    // git's "[y,n,q,a,d,j,J,g,/,e,?]": commas part the keys, and "/" is one of them.
    const listed = match[1] && /^[yn],/.test(match[1]) ? match[1].split(",") : undefined;
    const alone = match[6];
    const options = match[5]
      ? [...match[5]]
      : alone
        ? [`[${alone}]`]
        : (listed ?? (match[1] ?? match[2] ?? match[3] ?? match[4]!).split(/\/|\||, ?| or /));
    // A legend after the answers says what each key is, in its case ("[y/n/A] (y = yes, allow; … A = allow all …)"):
    // each typed as shown, none the default by case.
    const legended = INLINE_LEGEND.test(view.flat[row]!.slice(match.index! + match[0].length));
    const items = bracketedAnswers(view, row, match.index!, options, listed !== undefined || legended);
    for (const item of items) if (legended) item.label = ANSWER_NAMES[item.key!.toLowerCase()] ?? item.label;
    // inquirer's "? " before its question is an icon, not text.
    // (nor is the "›" prompts draws between the question and its answers.)
    let label = clean(view.text(row, start, match.index!))
      .replace(QUESTION_ICON, "")
      .replace(/\s*[›❯»]$/, "")
      .replace(HELP_REMARK, "");
    // Answers between the question's words and its "?" ("… process down y/N?"): the "?" is the question's.
    if (match[4] && label && !/[?:]$/.test(label)) label = `${label}?`;
    // Answers alone on their row ("Yes/No?", parted's) ask the paragraph of prose above them.
    let top = row;
    while (!label && top > 0 && /^[A-Za-z]/.test(view.flat[top - 1]!) && view.free(top - 1, 0, view.cols)) top--;
    // Unless the terminal wrapped them there, the row above full to its last column (icinga2's "Please specify if this
    // is an agent/satellite setup ('n' installs a master setup)" over " [Y/n]:"): that row's words are the question.
    const wrappedOnto = label ? undefined : wrappedQuestion(view, row, top);
    if (wrappedOnto) [top, label] = wrappedOnto;
    else if (label) top = openedAbove(view, row, label);
    // A question on its own row at the foot of the paragraph explaining it, opening at the first column as it does
    // (google-authenticator's "… you can enable rate-limiting for the authentication module." … over "Do you want to
    // enable rate-limiting? (y/n)"): the paragraph is the question's.
    const explained = label && top === row && start === 0 ? explainedAbove(view, row) : row;
    if (top < row && label && !wrappedOnto) label = askedSentence(wrappedSentence(view, top, row, label));
    top = Math.min(top, explained);
    const col = Math.min(start, ...Array.from({ length: row - top }, (_, i) => view.flat[top + i]!.search(/\S/)));
    const right = Math.max(end, ...Array.from({ length: row - top }, (_, i) => view.flat[top + i]!.trimEnd().length));
    out.push({
      kind: "question",
      row: top,
      col,
      width: right - col,
      height: row - top + 1,
      ...(label || top === row ? { label } : {}),
      items,
    });
    view.use(top, 0, view.cols, row - top);
    // The answer is typed after it: the rest of the row is the question's, not an input's.
    view.use(row, start, view.cols - start);
    // Or on the row under it after a bare marker, the cursor there (deno's ">"), or after its remark (opam's): that row
    // is the question's too.
    if (
      view.cursor.row === row + 1 &&
      (ANSWER_MARKER_ROW.test(view.flat[row + 1]!) || remarkUnder(view, row)) &&
      view.free(row + 1, 0, view.cols)
    ) {
      const asked = out[out.length - 1]!;
      asked.height++;
      asked.width = Math.max(asked.width, view.flat[row + 1]!.trimEnd().length - asked.col);
      view.use(row + 1, 0, view.cols);
    }
  }
  // Answers inside the sentence, before its "?": zsh's "correct 'gerp' to 'grep' [nyae]?", one
  // letter each; newsboat's "Do you really want to quit (y:Yes n:No)?", a key and its name each.
  // (Or after it, a colon after them: borg's "…for verification? [yN]:", the capital the default.)
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const match = LETTERS_AT_QUESTION.exec(line) ?? /\(([a-z]:[A-Z]\w*(?: [a-z]:[A-Z]\w*)+)\)\?\s*$/.exec(line);
    if (match?.[2]) match[1] = match[2];
    if (
      !match ||
      !/y/i.test(match[1]!) ||
      !/n/i.test(match[1]!) ||
      !view.free(row, match.index!, match.index! + match[0].length) ||
      writtenPast(view, row)
    )
      continue;
    const start = line.search(/\S/);
    if (start === match.index) continue;
    const options = match[1]!.includes(":") ? match[1]!.split(" ") : [...match[1]!];
    const mixed = /[a-z]/.test(match[1]!) && /[A-Z]/.test(match[1]!);
    let c = match.index! + 1;
    const items: Omit<Item, "ref">[] = options.map((option) => {
      const [key, name] = option.includes(":") ? option.split(":") : [option, option];
      // Letters of mixed case: the capital is the default, each typed in lower case and named as usual.
      const item = mixed
        ? {
            label: ANSWER_NAMES[key!.toLowerCase()] ?? option,
            row,
            col: c,
            width: 1,
            key: key!.toLowerCase(),
            ...(/[A-Z]/.test(key!) ? { selected: true } : {}),
          }
        : {
            label: name!,
            row,
            col: c,
            width: option.length,
            key: key!,
            ...(match[3] !== undefined && key === match[3] ? { selected: true } : {}),
          };
      c += option.length + (option.includes(":") ? 1 : 0);
      return item;
    });
    const end = line.trimEnd().length;
    const label = clean(line.slice(start, match.index!));
    const top = openedAbove(view, row, label);
    const rows = Array.from({ length: row - top + 1 }, (_, i) => view.flat[top + i]!);
    out.push({
      kind: "question",
      row: top,
      col: Math.min(...rows.filter((r) => r.trim()).map((r) => r.search(/\S/))),
      width:
        Math.max(...rows.map((r) => r.trimEnd().length)) -
        Math.min(...rows.filter((r) => r.trim()).map((r) => r.search(/\S/))),
      height: row - top + 1,
      label,
      items,
    });
    if (top < row) view.use(top, 0, view.cols, row - top);
    view.use(row, start, end - start);
  }
  // Letters in brackets after the question, a "?" among them, the row's end (debfoster's "Keep x? [Ynpsiuqx?],
  // [H]elp:", "Exit without saving? [yN?]:"), or more elided after them and the key listing the rest named after
  // (darcs's "(1/5)  [ynW...], or ? for more options:"): each letter an answer as shown, typed in lower case, the
  // capital the default; a marked word or that key after them one more. Held to the cursor's row as every question.
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const more = LETTERS_AND_MORE.exec(line);
    const match = more ?? LETTERS_WITH_HELP.exec(line);
    // (Elided ones may hide the n: darcs's last "Do you want to Record these changes? [Yglqk...]".)
    if (
      !match ||
      !/y/i.test(match[1]!) ||
      (!more && !/n/i.test(match[1]!)) ||
      !view.free(row, 0, line.trimEnd().length) ||
      writtenPast(view, row)
    )
      continue;
    const start = line.search(/\S/);
    if (start === match.index) continue;
    let c = match.index! + 1;
    const items: Omit<Item, "ref">[] = [...match[1]!].map((letter) => {
      const item = {
        label: letter,
        row,
        col: c,
        width: 1,
        key: letter.toLowerCase(),
        ...(/[A-Z]/.test(letter) ? { selected: true } : {}),
      };
      c++;
      return item;
    });
    if (match[2]) {
      const col = line.indexOf(match[2], match.index! + match[1]!.length);
      items.push({
        label: match[2],
        row,
        col,
        width: match[2].length,
        key: (more ? match[2] : match[3]!).toLowerCase(),
      });
    }
    const end = line.trimEnd().length;
    out.push({
      kind: "question",
      row,
      col: start,
      width: end - start,
      height: 1,
      label: clean(line.slice(start, match.index!)),
      items,
    });
    view.use(row, start, end - start);
  }
  // A yes or no in parentheses, remarks after it naming more keys (plink's "Store key in cache? (y/n, Return cancels
  // connection, i for more info)"): the letters and each remark's key, as shown; Return typed as Enter.
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const match = REMARKED_YES_NO.exec(line);
    if (!match || !view.free(row, 0, line.trimEnd().length) || writtenPast(view, row)) continue;
    const start = line.search(/\S/);
    if (start === match.index) continue;
    const items: Omit<Item, "ref">[] = [match[1]!, match[2]!].map((letter, i) => ({
      label: letter,
      row,
      col: match.index! + 1 + 2 * i,
      width: 1,
      key: letter.toLowerCase(),
    }));
    let c = match.index! + 4;
    for (const remark of match[3]!.split(", ").slice(1)) {
      c = line.indexOf(remark, c);
      const key = remark.split(" ")[0]!;
      items.push({ label: key, row, col: c, width: key.length, key: key.length === 1 ? key : "Enter" });
      c += remark.length;
    }
    const end = line.trimEnd().length;
    out.push({
      kind: "question",
      row,
      col: start,
      width: end - start,
      height: 1,
      label: clean(line.slice(start, match.index!)),
      items,
    });
    view.use(row, start, end - start);
  }
  // Choices of words in brackets before the colon (rich's "Pick a colour [red/green/blue] (green): "),
  // typed whole; the default in parentheses is not one. Or the other way round (WORDS_THEN_DEFAULT).
  // (Or parted by "|", after a name and its colon: a VPN client's "Group: [piers|tides]:", the name the label.)
  for (let row = 0; row < view.rows; row++) {
    const words = WORDS_THEN_DEFAULT.exec(view.flat[row]!);
    const match =
      /^(\s*)(\S.*?) \[(\w+(?:\/\w+)+|\w+(?:\|\w+)+)\](?: \([\w ]+\))?:(?=\s|$)/.exec(view.flat[row]!) ?? words;
    if (!match || !view.free(row, 0, match[0].length) || writtenPast(view, row)) continue;
    const start = match[1]!.length;
    let c = match.index! + match[1]!.length + match[2]!.length + 2;
    // (Parted by "/" or "|", or by ", " with the default in brackets after them: samba-tool's "Server Role (dc, member,
    // standalone) [dc]:".)
    // (The default in brackets after the words is the one selected, as poetry's "(yes/no) [yes]".)
    const offered = match === words ? /\[(\w+)\]:$/.exec(match[0])?.[1] : undefined;
    const items: Omit<Item, "ref">[] = match[3]!.split(/[/|]|, /).map((word) => {
      c = view.flat[row]!.indexOf(word, c);
      const item = {
        label: word,
        row,
        col: c,
        width: word.length,
        key: word,
        ...(word === offered ? { selected: true } : {}),
      };
      c += word.length;
      return item;
    });
    out.push({
      kind: "question",
      row,
      col: start,
      width: match[0].length - start,
      height: 1,
      label: clean(match[2]!).replace(/:$/, ""),
      items,
    });
    view.use(row, start, view.cols - start);
  }
  out.push(...circleToggles(view));
  out.push(...pressKeyRows(view));
  out.push(...listedAnswers(view));
  out.push(...keysInWords(view));
  out.push(...parenKeyAnswers(view));
  out.push(...namedKeyWords(view));
  out.push(...keysForWords(view));
  out.push(...pressKeyInBox(view));
  out.push(...equalsKeyAnswers(view));
  out.push(...keyParenRows(view));
  out.push(...keyParenOverPrompt(view));
  out.push(...parenKeyRows(view));
  out.push(...keysUnderWords(view));
  out.push(...numberedNames(view));
  out.push(...numberedOverPrompt(view));
  out.push(...headerList(view));
  out.push(...restartRows(view));
  out.push(...numberedRestarts(view));
  out.push(...slashedAnswers(view));
  out.push(...numberedAfterPrompt(view));
  out.push(...answersWrapped(view));
  out.push(...keyClauses(view));
  out.push(...wordsListedAsked(view));
  out.push(...keyNamedAnswers(view));
  out.push(...letteredSettings(view));
  // A toggle after a question: "Enable telemetry? › no / yes", the current answer drawn apart.
  for (let row = 0; row < view.rows; row++) {
    const match = /^(\s*)(?:[?✔✖] )?(\S.*\?)\s*[›‣❯>:]?\s+(\w+(?: \/ \w+)+)\s*$/.exec(view.flat[row]!);
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
    for (const [i, item] of items.entries())
      (item as Omit<Item, "ref">).selected = marked.length === 1 && looks[i] === marked[0];
    const end = view.flat[row]!.trimEnd().length;
    out.push({ kind: "question", row, col: start, width: end - start, height: 1, label: clean(match[2]!), items });
    view.use(row, start, end - start);
  }
  // Options that show their hot key in brackets, three or more on a row: vim's "[O]pen Read-Only,
  // (E)dit anyway, (R)ecover, (Q)uit, (A)bort:"; the line above, when it is text, asks.
  for (let row = 0; row < view.rows; row++) {
    // (Too long for its row, the terminal wrapped the answers onto the cursor's row: pdnsutil's "(y)es - increase
    // serial, (n)o - leave SOA record as is, (e)dit your changes, (q)" over "uit: ". Read as one line, each answer
    // placed where it starts.)
    const on = fullOverCursor(view, row) ? 1 : 0;
    const line = on ? view.flat[row]! + view.flat[row + 1]! : view.flat[row]!;
    // (A word may come before the key's: vim's "Save (A)ll".)
    // (Or two, the row ending in vim's ":" of a confirm(): "(Y)es, [N]o:"; words may come before a key: "Load File
    // (a)nd Options".)
    const pieces = [
      ...line.matchAll(/(?<=^|, |\s{2})((?:[A-Z][a-z]+ ){0,2}\w*[[(]([A-Za-z])[\])][\w' -]*?)(?=,|:?\s*$|\s{2}|\?)/g),
    ];
    // (Not keys each in brackets apart from their words: a key-hint row, ccmake's "[l] Show log output   [c] Configure
    // [g] Generate".)
    if (
      pieces.length < (/^\S.*:\s*$/.test(line) ? 2 : 3) ||
      pieces.every((m) => /^(?:[A-Z][a-z]+ ){0,2}\[[A-Za-z]\] /.test(m[1]!)) ||
      line.replace(/(?:[A-Z][a-z]+ ){0,2}\w*[[(][A-Za-z][\])][\w' -]*/g, "").replace(/[,:?\s]/g, "") !== "" ||
      !view.free(row, 0, view.cols) ||
      (on && !view.free(row + 1, 0, view.cols)) ||
      writtenPast(view, row + on)
    )
      continue;
    const items = pieces.map((m) => {
      const label = m[1]!.trim();
      const [r, col] = m.index! < view.cols ? [row, m.index!] : [row + 1, m.index! - view.cols];
      return { label, row: r, col, width: Math.min(label.length, view.cols - col), key: m[2]!.toLowerCase() };
    });
    // (A line above that asks nothing, vim's 'See ":help W11" for more info.', is the message before it, not the
    // question; one too long for its row goes on from the full rows over it.)
    const asks = row > 0 && /[?:!]\s*$/.test(view.flat[row - 1]!);
    let first = asks && view.free(row - 1, 0, view.cols) ? row - 1 : row;
    // (A sentence's rows, opening with a letter: not a command line of vim's that filled its row, ":let c = …".)
    const wrapped = (r: number) => fullRow(view, r) && /^\p{L}/u.test(view.flat[r]!) && view.free(r, 0, view.cols);
    while (first < row && first > 0 && row - first < 4 && wrapped(first - 1)) first--;
    const above = first < row ? clean(view.flat.slice(first, row).join("")) : "";
    const rows = view.flat.slice(first, row + on + 1);
    const start = Math.min(items[0]!.col, ...rows.slice(0, row - first).map((r) => r.search(/\S/)));
    const width = Math.max(...rows.map((r) => r.trimEnd().length)) - start;
    out.push({
      kind: "question",
      row: first,
      col: start,
      width,
      height: row + on - first + 1,
      ...(above ? { label: above } : {}),
      items,
    });
    view.use(first, 0, view.cols, row + on - first + 1);
  }
  // Two or more answers with their key marked, joined by "/", "," or "or": vifm's "Enter [y]es or
  // [n]o", nnn's "'f'ile/'d'ir/'s'ym/'h'ard?"; the question is the text a row or two above, if any.
  // (Or after the question on its own row: unzip's "replace notes.txt? [y]es, [n]o, [A]ll, [N]one, [r]ename:".)
  // (Or a one-row list in parentheses, parted by "|", an answer of two words: git send-email's "Send this email?
  // ([y]es|[n]o|[e]dit|[q]uit|[a]ll):", git am's "Apply? [y]es/[n]o/[e]dit/[v]iew patch/[a]ccept all:".)
  for (let row = 0; row < view.rows; row++) {
    const whole = stripFrame(view.flat[row]!);
    const asked = ASKED_BEFORE_KEYS.exec(whole);
    const line = asked ? whole.slice(asked[0].length) : whole;
    const start = view.flat[row]!.indexOf(whole) + (asked ? asked[0].length : 0);
    const piece = new RegExp(MARKED_KEY_ANSWER.source, "g");
    const pieces = [...line.matchAll(piece)];
    const rest = line
      .replace(piece, "")
      .replace(MARKED_KEY_SEPARATORS, "")
      .replace(/^(?:Enter|Type|Press|Choose)\b\s*/i, "")
      .replace(/[?:]\s*$/, "")
      .trim();
    if (pieces.length < 2 || rest !== "" || !line || !view.free(row, start, start + line.length)) continue;
    if (writtenPast(view, row)) continue;
    // A key is typed in lower case, unless the answers mix cases (unzip's [n]o and [N]one, [A]ll):
    // then each as shown.
    const letters = pieces.map((m) => (m[2] ?? m[3])!);
    const mixed = letters.some((l) => /[a-z]/.test(l)) && letters.some((l) => /[A-Z]/.test(l));
    const items = pieces.map((m, i) => ({
      label: m[1]!,
      row,
      col: start + m.index!,
      width: m[1]!.length,
      key: mixed ? letters[i]! : letters[i]!.toLowerCase(),
    }));
    if (asked) {
      const col = view.flat[row]!.indexOf(whole);
      out.push({ kind: "question", row, col, width: whole.length, height: 1, label: clean(asked[1]!), items });
      view.use(row, col, whole.length);
      continue;
    }
    let q = row - 1;
    while (q >= row - 2 && q >= 0 && !stripFrame(view.flat[q]!).trim()) q--;
    const qText = q >= 0 ? stripFrame(view.flat[q]!) : "";
    const qStart = q >= 0 ? view.flat[q]!.indexOf(qText) : 0;
    const label = q >= row - 2 && qText && view.free(q, qStart, qStart + qText.length) ? clean(qText) : "";
    const top = label ? q : row;
    const col = label ? Math.min(start, view.flat[q]!.indexOf(stripFrame(view.flat[q]!))) : start;
    const width =
      Math.max(
        start + line.length,
        label ? view.flat[q]!.indexOf(stripFrame(view.flat[q]!)) + stripFrame(view.flat[q]!).length : 0,
      ) - col;
    out.push({ kind: "question", row: top, col, width, height: row - top + 1, ...(label ? { label } : {}), items });
    if (label) view.use(q, col, width);
    view.use(row, start, line.length);
  }
  // Answers as a bracketed key and a word, apart by two spaces or more, under a question a few
  // rows up (what it asks about between): cline's "Approve tool call?", "run_commands", its
  // command, then "[y] Approve   [n] Deny".
  for (let row = 1; row < view.rows; row++) {
    const line = view.flat[row]!;
    const piece = /(?<=^|\s{2})\[([A-Za-z])\] ([A-Z][\w'-]*(?: [\w'-]+){0,3})(?=\s{2}|\s*$)/g;
    const pieces = [...line.matchAll(piece)];
    if (pieces.length < 2 || line.replace(piece, "").trim() || !view.free(row, 0, view.cols)) continue;
    let q = row - 1;
    while (q > row - 6 && q > 0 && !/\?\s*$/.test(stripFrame(view.flat[q]!))) q--;
    const qText = stripFrame(view.flat[q]!);
    const qStart = view.flat[q]!.indexOf(qText);
    if (!/^\S.{2,80}\?$/.test(qText.trim()) || !view.free(q, qStart, qStart + qText.length)) continue;
    const items = pieces.map((m) => ({
      label: m[2]!,
      row,
      col: m.index!,
      width: m[0].length,
      key: m[1]!.toLowerCase(),
    }));
    const col = Math.min(qStart, items[0]!.col);
    const width = Math.max(qStart + qText.length, line.trimEnd().length) - col;
    out.push({ kind: "question", row: q, col, width, height: row - q + 1, label: clean(qText), items });
    view.use(q, qStart, qText.length);
    view.use(row, items[0]!.col, line.trimEnd().length - items[0]!.col);
  }
  // nano's "Replace this instance?" over its answers as key hints (" Y Yes   A All", " N No  ^C
  // Cancel"), the cursor hidden or not: a question whose items are the hints, keyed by their keys.
  for (let row = 0; row + 1 < view.rows; row++) {
    const asked = view.flat[row]!.trimEnd();
    if (!/^\S.{2,80}\?$/.test(asked) || !view.free(row, 0, view.cols)) continue;
    const items: Omit<Item, "ref">[] = [];
    let last = row;
    for (let r = row + 1; r < Math.min(view.rows, row + 3); r++) {
      const line = view.flat[r]!;
      const pairs = [...line.matchAll(/(?<=^|\s)(\^?[A-Z]) ([A-Z][a-z]+(?: [A-Z]?[a-z]+)?)(?=\s{2}|\s*$)/g)];
      if (
        !pairs.length ||
        line.replace(/(?<=^|\s)\^?[A-Z] [A-Z][a-z]+(?: [A-Z]?[a-z]+)?/g, "").trim() ||
        !view.free(r, 0, view.cols)
      )
        break;
      for (const m of pairs)
        items.push({
          label: m[2]!,
          row: r,
          col: m.index!,
          width: m[0].length,
          key: m[1]!.startsWith("^") ? m[1]! : m[1]!.toLowerCase(),
        });
      last = r;
    }
    if (!items.some((i) => i.key === "y") || !items.some((i) => i.key === "n")) continue;
    out.push({
      kind: "question",
      row,
      col: 0,
      width: Math.max(...view.flat.slice(row, last + 1).map((l) => l.trimEnd().length)),
      height: last - row + 1,
      label: asked,
      items,
    });
    view.use(row, 0, view.cols, last - row + 1);
    row = last;
  }
  // Answers named in the prompt's own words, the row holding the cursor after it (makeself's "Please type y to accept,
  // n otherwise:"): a question labelled with the whole row, its items the keys it names.
  {
    const { cursor } = view;
    const line = cursor.visible ? view.flat[cursor.row]! : "";
    const typed = TYPED_ANSWERS.exec(line);
    if (
      typed &&
      cursor.col >= line.trimEnd().length &&
      typed[3] !== typed[4] &&
      view.free(cursor.row, 0, line.trimEnd().length)
    ) {
      const row = cursor.row;
      const start = typed[1]!.length;
      const label = typed[2]!;
      const items = [typed[3]!, typed[4]!].map((key, i) => {
        const col = line.indexOf(` ${key} `, i === 0 ? start : line.indexOf(typed[3]!, start) + 1) + 1;
        return { label: key, row, col, width: key.length, key };
      });
      out.push({ kind: "question", row, col: start, width: label.length, height: 1, label, items });
      view.use(row, start, line.trimEnd().length - start);
    }
  }
  // Answers quoted in the prompt's own words, each with what it does, the row holding the cursor after it (a VPN
  // client's "Enter 'yes' to accept, 'no' to abort; anything else to view:"): a question, its items the quoted words,
  // typed whole.
  {
    const { cursor } = view;
    const line = cursor.visible ? view.flat[cursor.row]! : "";
    // (Or quoted words joined by "or" after a verb that says to type one, ending the row: "Type "accept" or
    // "decline":", "(enter 'yes' or 'no')", the words before them the label.)
    const joined = QUOTED_CHOICE.exec(line);
    const quoted = QUOTED_PROMPT.test(line)
      ? [...line.matchAll(QUOTED_ANSWER)]
      : joined
        ? [...joined[2]!.matchAll(QUOTED_WORD)].map((m) =>
            Object.assign(m, { index: joined.index! + joined[1]!.length + m.index! }),
          )
        : [];
    const start = line.search(/\S/);
    const end = line.trimEnd().length;
    if (quoted.length >= 2 && cursor.col >= end && cursor.col <= end + 1 && view.free(cursor.row, start, end)) {
      const row = cursor.row;
      const items = quoted.map((m) => ({ label: m[2]!, row, col: m.index! + 1, width: m[2]!.length, key: m[2]! }));
      if (new Set(items.map((i) => i.key)).size === items.length) {
        const before = joined ? clean(line.slice(start, joined.index!)).replace(/\s*\($/, "") : "";
        const label = before || line.slice(start, end).replace(/:$/, "");
        out.push({ kind: "question", row, col: start, width: end - start, height: 1, label, items });
        view.use(row, start, end - start);
      }
    }
  }
  // vim's and more's "Press ENTER or type command to continue": a question with one answer.
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    // Or any other "to …" ending the row that holds the cursor after it (plink's "Press Return to begin session."),
    // the sentences before it on its row part of it ("Access granted. Press Return …").
    // (Or a full-screen program's, the cursor hidden at the first column of the row under it, nothing below it:
    // pg_activity's help screen's "Press any key to exit.")
    const hiddenUnder =
      !view.cursor.visible &&
      view.cursor.row === row + 1 &&
      view.cursor.col === 0 &&
      view.flat.slice(row + 1).every((l) => !l.trim());
    const waits =
      (hiddenUnder || (view.cursor.visible && view.cursor.row === row && view.cursor.col >= line.trimEnd().length)) &&
      /(?<=^|[.!] )(?:Press|Hit) (ENTER|RETURN|any key) to [a-z]+(?: [a-z]+){0,3}[.!]?\s*$/i.exec(line);
    // (The key's name maybe in brackets: lynis's and add-apt-repository's "Press [ENTER] to continue".)
    const match =
      /(?:Press|Hit) \[?(ENTER|RETURN|any key)\]?(?= )[^│]*\bto continue\b[^│]*/i.exec(line) ?? (waits || null);
    if (!match || !view.free(row, match.index!, match.index! + match[0].trimEnd().length) || writtenPast(view, row))
      continue;
    // (Words before it on its row ending in "or" make it a part of a prompt's: checkinstall's "Enter a number to
    // change any of them or press ENTER to continue:" is one input.)
    if (/\bor\s*$/i.test(line.slice(0, match.index!))) continue;
    const before = line.slice(0, match.index!);
    const col =
      match === waits && /^\s*\S.*[.!] $/.test(before) && view.free(row, 0, match.index!)
        ? before.search(/\S/)
        : match.index!;
    // (Its row framed in brackets, lynis's "[ Press [ENTER] to continue, or [CTRL]+C to stop ]": the frame is no part.)
    const framed = /^\s*\[ $/.test(line.slice(0, match.index!)) && /\S \]\s*$/.test(match[0]);
    const whole = line.slice(col, match.index! + match[0].trimEnd().length - (framed ? 2 : 0));
    // (The default key glued after it, unison's "Press return to continue.[<spc>]", is no part of its words.)
    const text = whole.replace(GLUED_DEFAULT_KEY, "");
    const keyCol = match.index! + match[0].indexOf(match[1]!);
    out.push({
      kind: "question",
      row,
      col,
      width: text.length,
      height: 1,
      label: text,
      items: [{ label: match[1]!, row, col: keyCol, width: match[1]!.length, key: "Enter" }],
    });
    view.use(row, col, whole.length);
  }
  // A pager's pause between runs of dashes naming a key to continue (`DASHED_PAUSE`: hunspell's "-- Type space to
  // continue --", gawk's "------[Enter] to continue or [q] + [Enter] to quit------"), the last thing written, the
  // cursor at its end or at the start of the row under it: a question of the keys it names.
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const match = DASHED_PAUSE.exec(line);
    const { cursor } = view;
    const end = line.trimEnd().length;
    const waiting =
      (cursor.row === row && cursor.col >= end && cursor.col <= end + 1) ||
      (cursor.row === row + 1 && cursor.col === 0);
    if (!match || !waiting || view.flat.slice(row + 1).some((l) => l.trim())) continue;
    const col = line.search(/\S/);
    if (!view.free(row, col, end - col)) continue;
    const words = match[1]!;
    const at = line.indexOf(words);
    const named = [...words.matchAll(/\[([^\]\s]{1,8})\]/g)];
    const verb = /(?:Type|Press|Hit) (\w+)/i.exec(words);
    const keys = named.length ? named : verb ? [verb] : [];
    const items: Omit<Item, "ref">[] = [];
    for (const key of keys) {
      const name = key[1]!;
      if (items.some((i) => i.label === name)) continue;
      const keyName = /^(?:enter|return)$/i.test(name) ? "Enter" : /^space$/i.test(name) ? "Space" : name;
      const c = at + key.index! + key[0].indexOf(name);
      items.push({ label: name, row, col: c, width: name.length, key: keyName });
    }
    out.push({ kind: "question", row, col, width: end - col, height: 1, label: clean(words), items });
    view.use(row, col, end - col);
  }
  // A pause for Return the program reads as a line, the last thing written, the cursor at its end: gnuplot's "Press
  // return for more:" (its help's pager), its pause's own message "Hit return when the tide has turned" (no colon). An
  // input labelled with the row (a colon ending it dropped), nothing typed.
  for (let row = 0; row < view.rows; row++) {
    const line = view.flat[row]!;
    const { cursor } = view;
    if (!PAUSE_PROMPT.test(line) || !cursor.visible || cursor.row !== row) continue;
    const end = line.trimEnd().length;
    if (cursor.col < end || cursor.col > end + 1 || view.flat.slice(row + 1).some((l) => l.trim())) continue;
    const col = line.search(/\S/);
    if (!view.free(row, col, view.cols - col)) continue;
    const label = line.trim().replace(/\s*:$/, "");
    out.push({ kind: "input", row, col, width: view.cols - col, height: 1, label, value: "", cursor: true });
    view.use(row, col, view.cols - col);
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
    const icon = (r: number) =>
      /^\s*\? \S/.test(view.flat[r]!) && view.has(r, view.flat[r]!.indexOf("?") + 2, CellFlag.bold);
    const bold = (r: number) => {
      let end = view.flat[r]!.indexOf("?") + 2;
      while (end < view.cols && view.has(r, end, CellFlag.bold)) end++;
      return clean(view.text(r, view.flat[r]!.indexOf("?") + 2, end));
    };
    // (An icon before it, clack's "◆", is not part of it.)
    // (A bare prompt answered above, tzselect's "#? 7", asks nothing now: it is history.)
    const asks = (r: number) => {
      if (icon(r)) return bold(r);
      const text = /^[^?]*\?(?=\s|$)/.exec(question_(r))?.[0].replace(/^[^\p{L}\p{N}\s"'(]+ +/u, "") ?? "";
      return /\p{L}/u.test(text) ? text : "";
    };
    // (A heading ending in ":" right over the options is theirs, "Please choose a license:": no question above it is.)
    const heading = (r: number) => r === row - 1 && /\p{L}.*:\s*$/u.test(view.flat[r]!) && !asks(r);
    while (q >= 0 && q >= row - 12 && !asks(q) && !heading(q) && !/^[\s│┃║]*[╭┌├╰└─━]/.test(view.flat[q]!)) q--;
    const question = q >= 0 ? asks(q) : "";
    // Or the prompt comes after the list, the cursor on it (bash's select "#?", git add -i's "What now>"):
    // the question is unlabelled, the prompt its input.
    const last = options[options.length - 1]!.through;
    if (optionsWrittenPast(view, last)) {
      row = last;
      continue;
    }
    const { cursor } = view;
    // A shell's prompt under a listing ("me@vm ~/src>") is not one: it names a place.
    // (A blank row may stand between: readline-sync's.)
    // (Or a long prompt wraps onto the cursor's row: vim's "Type number and <Enter> or click … (q or empty" over
    // "cancels):".)
    const wrapped = cursor.row === last + 2 && (view.flat[last + 1] ?? "").trimEnd().length >= view.cols - 2;
    const promptRow = cursor.row === last + 2 && (!view.flat[last + 1]?.trim() || wrapped) ? last + 2 : last + 1;
    const prompt = view.text(promptRow, 0, cursor.col).trimEnd();
    // (A prompt that lists the options' keys, rclone's "e/n/d/r/c/s/q>", names none.)
    const keysPrompt = KEYS_PROMPT.exec(prompt);
    const listsKeys = keysPrompt !== null && keysPrompt[1]!.split("/").join() === options.map((o) => o.key).join();
    // (A default in brackets after it is no part of it: cabal's "Your choice? [default: NONE]".)
    const asked = prompt.replace(BRACKETED_DEFAULT, "");
    // (The same prompt right over the list with a command typed after it: the list is that command's output, a
    // REPL's numbered reply, redis-cli's '1) "depth"' under "127.0.0.1:6388> HGETALL station:buoy". `commandAbove`.)
    const above = options[0]!.row > 0 ? view.flat[options[0]!.row - 1]! : "";
    const commandAbove = asked.length > 1 && above.startsWith(`${asked} `) && above.slice(asked.length).trim() !== "";
    // (A prompt may hold its default already, put there to be edited: debconf's readline "Geographic area: 8", one of
    // the options' keys after its mark.)
    const prefilled = /^(.*[:>?]) (\S{1,3})$/.exec(asked);
    const bare = prefilled && options.some((o) => o.key === prefilled[2]) ? prefilled[1]! : asked;
    const after =
      cursor.visible &&
      cursor.row === promptRow &&
      /[:>?]$/.test(bare) &&
      (listsKeys || !/[@~/]/.test(asked)) &&
      !commandAbove;
    if (!question.endsWith("?") && !(question && icon(q)) && !after) {
      // (Past the run's last row: several options may share a row, git add -i's commands.)
      row = last;
      continue;
    }
    const col = Math.min(...options.map((o) => o.markerCol));
    if (after && !question.endsWith("?")) {
      const width =
        Math.max(view.text(promptRow, 0, view.cols).trimEnd().length, ...options.map((o) => o.col + o.width)) - col;
      out.push({
        kind: "question",
        row: options[0]!.row,
        col,
        width,
        height: promptRow - options[0]!.row + 1,
        items: options.map((o) => ({ label: o.label, row: o.row, col: o.col, width: o.width, key: o.key })),
      });
      for (const o of options) {
        view.use(o.row, o.markerCol, o.width);
        if (o.through > o.row) view.use(o.through, 0, view.flat[o.through]!.trimEnd().length);
      }
      row = last;
      continue;
    }
    const width = Math.max(...options.map((o) => o.col + o.width)) - col;
    const qStart = view.text(q, 0, view.cols).search(/[^\s│┃║|]/);
    // No marker: the one option drawn in a style none of the others has is the selected one (inquirer's colour).
    // (Told by its key first, where the library lights only that: clack's selectKey; a dim hint after one option is no
    // light.)
    if (!options.some((o) => o.selected)) {
      const loneBy = (look: (o: Option) => string) => {
        const styles = options.map(look);
        return options.filter((_, i) => styles.filter((st) => st === styles[i]).length === 1);
      };
      const byKey = loneBy((o) => view.spanStyle(o.row, o.col, o.col + o.key.length));
      const lone = byKey.length === 1 ? byKey : loneBy((o) => view.spanStyle(o.row, o.col, o.col + o.width));
      if (lone.length === 1) lone[0]!.selected = true;
    }
    const selected = options.filter((o) => o.selected).length === 1;
    out.push({
      kind: "question",
      row: q,
      col: Math.min(col, qStart),
      width,
      height: options[options.length - 1]!.through - q + 1,
      label: question,
      items: options.map((o) => ({
        label: o.label,
        row: o.row,
        col: o.col,
        width: o.width,
        key: o.key,
        ...(selected && o.selected ? { selected: true } : {}),
      })),
    });
    // An inquirer question's row is also its input (the number typed after it).
    if (!icon(q)) view.use(q, qStart, view.text(q, 0, view.cols).trimEnd().length - qStart);
    for (const o of options) {
      view.use(o.row, o.markerCol, view.flat[o.row]!.replace(/[\s│┃║|]+$/, "").length - o.markerCol);
      if (o.through > o.row) view.use(o.through, 0, view.flat[o.through]!.trimEnd().length);
    }
    row = options[options.length - 1]!.through;
  }
  return out;
}

/**
 * A prompt naming its answers in words, a key typed for each: makeself's "Please type y to accept, n otherwise:", "Type
 * y to install or n to skip:". The keys a letter or a short word, alone between blanks.
 */
/** A few lower-case words after "to": what a key does ("accept", "install the tools"). */
const DOES = "to [a-z]+(?: [a-z]+){0,3}";
const TYPED_ANSWERS = new RegExp(
  `^(\\s*)((?:\\S.*? )?[Tt]ype (\\w{1,3}) ${DOES}(?:,| or) (\\w{1,3}) (?:otherwise|${DOES}))\\s*[:?]?\\s*$`,
);

/** A word in quotes and what it does: "'yes' to accept", "\"no\" to abort". */
const QUOTED_ANSWER = new RegExp(`(['"])(\\w{1,12})\\1 ${DOES}(?=[,;:.?]|\\s+or\\b|$)`, "g");
/** A word in quotes. */
const QUOTED_WORD = /(['"])(\w{1,12})\1/g;
/**
 * A verb saying to type one of quoted words joined by "or" (or commas then "or"), ending the row after a ")", ":" or
 * "?" at most: "Type "accept" or "decline":", "Please enter 'yes' or 'no':", "(enter "yes" or "no")".
 */
const TYPE_VERB = "(?:[Pp]lease )?(?:[Tt]ype|[Ee]nter|[Aa]nswer|[Ss]ay) ";
const QUOTED_CHOICE = new RegExp(
  `(?<=^\\s*|[?.!:] |\\()(${TYPE_VERB})` +
    `((['"])\\w{1,12}\\3(?:, (['"])\\w{1,12}\\4)*,? or (['"])\\w{1,12}\\5)\\)?[:?]?\\s*$`,
);
/** A prompt naming quoted answers: the first one in its first sentence, the row ending in ":" or "?". */
const QUOTED_PROMPT = /^\s*[A-Z][a-z]*(?: [a-z]+)* (['"])\w{1,12}\1 to \S.*[:?]\s*$/;

/**
 * One keyed option's row: a marker, then a number or a letter with its separator (`1.`, `2)`, `3:`, `y)`,
 * cookiecutter's `1 - MIT` or rclone's ` 1 > archive`), then its text; a frame's side after it is not part of it.
 */
const KEYED_ROW = /^([\s│┃║|]*?)([>❯›▸►▶→➜●*]?)(\s*)(\d{1,2}|[a-z](?=\)))([.):]| -| >| \/) (.+?)\s*(?:[│┃║|]\s*)?$/;

/** The value an option of rclone's stands for, on the row under it: "   \ (sftp)" under "36 / SSH/SFTP". */
const SLASH_VALUE = /^\s+\\ \(\S+\)\s*$/;

interface Option {
  row: number;
  /** The last row it is drawn on: its row, or the next when the terminal wrapped it there (wrappedOn). */
  through: number;
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
  let dashed = false;
  let arrowed = false;
  // The number the next row's first option must have (a list in columns counts down each column).
  let next = 1;
  for (let r = row; r < view.rows; r++) {
    const line = view.flat[r]!;
    const match = KEYED_ROW.exec(line);
    // fdisk's "   p   primary (…)": an indented letter, then its text two blanks or more on.
    // (Or after a prompt library's gutter, the letter on a block of its own: clack's selectKey "│   c  Commit".)
    const bare = match ? null : /^([\s│┃]*\s)([a-z])\s{2,}(\S.*?)\s*$/.exec(line);
    if (
      bare &&
      (options.length === 0 || letters) &&
      !options.some((o) => o.key === bare[2]) &&
      view.free(r, bare[1]!.length, line.trimEnd().length)
    ) {
      letters = true;
      const col = bare[1]!.length;
      // (A dim hint after the text, "(nothing is changed)", is not part of it.)
      const hint = /\s+\([^)]*\)$/.exec(bare[3]!);
      const dim = hint && view.has(r, line.lastIndexOf(hint[0]) + hint[0].length - 1, CellFlag.dim);
      options.push({
        row: r,
        through: r,
        markerCol: col,
        col,
        width: line.trimEnd().length - col,
        key: bare[2]!,
        label: dim ? bare[3]!.slice(0, hint!.index) : bare[3]!,
        selected: false,
      });
      continue;
    }
    // gpg's "   (1) RSA and RSA (default)", readline-sync's "[1] Staging": a number in brackets, in any order
    // ("(14) Existing key from card", "[0] CANCEL").
    const boxed = match ? null : /^(\s*)([([])(\d{1,3})[)\]] (\S.*?)\s*$/.exec(line);
    if (
      boxed &&
      !letters &&
      !options.some((o) => o.key === boxed[3]) &&
      (options.length === 0 || view.flat[r - 1]!.search(/[([]\d/) >= 0) &&
      view.free(r, 0, line.trimEnd().length)
    ) {
      const col = boxed[1]!.length;
      options.push({
        row: r,
        through: r,
        markerCol: col,
        col,
        width: line.trimEnd().length - col,
        key: boxed[3]!,
        label: boxed[4]!,
        selected: false,
      });
      continue;
    }
    // vim's z= suggestions: ' 1 "Tea"', the numbers right-aligned, each suggestion in quotes.
    const quoted = match ? null : /^(\s*)(\d{1,3}) ("[^"]*")\s*$/.exec(line);
    if (quoted && !letters && Number(quoted[2]) === options.length + 1 && view.free(r, 0, line.trimEnd().length)) {
      const col = quoted[1]!.length;
      options.push({
        row: r,
        through: r,
        markerCol: col,
        col,
        width: line.trimEnd().length - col,
        key: quoted[2]!,
        label: quoted[3]!,
        selected: false,
      });
      continue;
    }
    if (!match) break;
    const key = match[4]!;
    const letter = /[a-z]/.test(key);
    if (options.length === 0) letters = letter;
    if (
      letter !== letters ||
      // (A list whose top scrolled off starts at the screen's top with any number: tzselect's Asia; or under the
      // value rows of the last option that scrolled off, rclone's "   \ (smb)".)
      (!letter &&
        Number(key) !==
          (options.length ? next : view.flat.slice(0, r).every((l) => SLASH_VALUE.test(l)) ? Number(key) : 1)) ||
      (letter && options.some((o) => o.key === key))
    )
      break;
    if (!view.free(r, match[1]!.length, line.replace(/[\s│┃║|]+$/, "").length)) break;
    const markerCol = match[1]!.length;
    const col = markerCol + match[2]!.length + match[3]!.length;
    // The key's separator: "1." "1)" "1:", or cookiecutter's "1 - MIT".
    const sep = match[5]!.length + 1;
    const text = view
      .text(r, col + key.length + sep, col + match[0].length)
      .replace(/[\s│┃║|]+$/, "")
      .trim();
    // Several on a row, two blanks or more apart, each with the next number.
    const more = letters ? [] : [...text.matchAll(/\s{2,}(\d{1,2}): /g)];
    if (more.length && more.every((m, i) => Number(m[1]) === options.length + 2 + i)) {
      const starts = [col, ...more.map((m) => col + key.length + 2 + m.index! + m[0].length - m[1]!.length - 2)];
      starts.forEach((start, i) => {
        const end = i + 1 < starts.length ? starts[i + 1]! : col + key.length + 2 + text.length;
        const piece = view.text(r, start, end).trim();
        const [k, ...rest] = piece.split(": ");
        options.push({
          row: r,
          through: r,
          markerCol: start,
          col: start,
          width: piece.length,
          key: k!,
          label: rest.join(": "),
          selected: false,
        });
      });
      next = options.length + 1;
      continue;
    }
    // A list in columns (tzselect's countries, `select` in bash with many items): "1) Albania   18)
    // Guernsey   35) Poland", numbered down each column. Each is an option, in reading order.
    const columns = letters ? [] : [...text.matchAll(/\s{2,}(\d{1,3})[.)] (?=\S)/g)];
    if (columns.length && columns.every((m) => Number(m[1]) > Number(key))) {
      const base = col + key.length + 2;
      const starts = [col, ...columns.map((m) => base + m.index! + m[0].length - m[1]!.length - 2)];
      for (let i = 0; i < starts.length; i++) {
        const start = starts[i]!;
        const end = i + 1 < starts.length ? starts[i + 1]! : base + text.length;
        const piece = view.text(r, start, end).trimEnd();
        const at = /^(\d{1,3})[.)] (.*)$/.exec(piece.trimStart());
        if (!at) continue;
        const lead = piece.length - piece.trimStart().length;
        options.push({
          row: r,
          through: r,
          markerCol: start + lead,
          col: start + lead,
          width: piece.trimStart().length,
          key: at[1]!,
          label: at[2]!.trim(),
          selected: false,
        });
      }
      next = Number(key) + 1;
      continue;
    }
    next = Number(key) + 1;
    // "Yes, proceed (y)": the key in parentheses is not the label.
    const label = text.replace(/\s+\((?:\w|esc|enter|tab)\)$/i, "");
    const rest = wrappedOn(view, r);
    // (rclone's value row under the option is the option's.)
    const valueRow = rest === undefined && SLASH_VALUE.test(view.flat[r + 1] ?? "") && view.free(r + 1, 0, view.cols);
    options.push({
      row: r,
      through: rest === undefined && !valueRow ? r : r + 1,
      markerCol,
      col,
      width: key.length + sep + label.length,
      key,
      label: rest === undefined ? label : joinWrapped(view.cols, view.flat[r]!.trimEnd(), rest, label),
      selected: match[2] !== "" || highlighted(view, r, col, col + key.length + sep + label.length),
    });
    if (rest !== undefined || valueRow) r++;
    if (match[5] === " -") dashed = true;
    if (match[5] === " >" || match[5] === " /") arrowed = true;
  }
  // "1 - MIT" rows are a prompt's options only over the prompt that reads the number (cookiecutter's "Choose from
  // 1, 2, 3, 4 [1]:"); elsewhere they are a prompt library's list (enquirer's sort and scale: menus.ts).
  if (dashed && !NUMBER_PROMPT.test(view.flat[options[options.length - 1]!.through + 1] ?? "")) return [];
  // " 1 > archive" and "36 / SSH/SFTP" rows likewise, over a prompt that may end in ">" (rclone's "remote>").
  if (arrowed && !PROMPT_UNDER.test(view.flat[options[options.length - 1]!.through + 1] ?? "")) return [];
  return options;
}

/**
 * The rest of a numbered option the terminal wrapped onto the next row (Django's " 1) Provide a one-off default now
 * (will be set on all existing rows with a null" over "value for this column)"): its row written to the last column
 * or the one before (a blank there), the next row's text from its first column, no option of its own, free, and
 * under it another option or the prompt. Undefined when the option is on one row.
 */
function wrappedOn(view: View, row: number): string | undefined {
  const next = view.flat[row + 1];
  if (next === undefined || view.flat[row]!.trimEnd().length < view.cols - 1 || !/^\S/.test(next)) return undefined;
  if (KEYED_ROW.test(next) || !view.free(row + 1, 0, view.cols)) return undefined;
  // (The prompt may end in a bracketed default: cabal's "Your choice? [default: 2.4    (+ support for …)]".)
  const after = (view.flat[row + 2] ?? "").trimEnd().replace(BRACKETED_DEFAULT, "");
  return KEYED_ROW.test(after) || PROMPT_UNDER.test(after) ? next.trimEnd() : undefined;
}

/** A prompt under numbered options: it ends in ":", "?" or ">", a few characters typed after it or not. */
const PROMPT_UNDER = /^\s*\S.*[:?>] ?\S{0,3}\s*$/;

/** A default in brackets ending a prompt: cabal's "Your choice? [default: NONE]". */
const BRACKETED_DEFAULT = /\s*\[default:[^\]]*\]\s*$/i;

/**
 * A shell's prompt: it ends in "$", "#" or "%" (bash's select asks "#?"), or names a place ("me@vm ~/src>"), a few
 * characters typed after it or not.
 */
const SHELL_PROMPT = /[$#%](?!\?) ?\S{0,3}$|^[^:>]*[@~][^:>]*> ?\S{0,3}$/;

/** A shell's prompt (`me@vm:~$ `), a few characters typed after it or not: what stands before the cursor on its row. */
export function isShellPrompt(text: string): boolean {
  return SHELL_PROMPT.test(text.trim());
}

/** A REPL's prompt, at its row's start: python's ">>> " and "... ", IPython's "In [3]: ". */
const REPL_PROMPT = /^(?:>>>|\.\.\.|In \[\d+\]:)(?: |$)/;

/** A REPL's prompt (python's `>>> `), what stands before the cursor on its row. */
export function isReplPrompt(text: string): boolean {
  return REPL_PROMPT.test(text);
}

/**
 * Options that something written since stands under, between them and a visible cursor below (a shell's prompt under
 * "❯ 1. Yes" that a command printed): output, no longer asking. Only blank rows and one prompt that reads the answer
 * (wrapped over rows or not, not a shell's) may come between.
 */
function optionsWrittenPast(view: View, last: number): boolean {
  const { cursor } = view;
  if (!cursor.visible || cursor.row <= last) return false;
  const prompts: string[] = [];
  let wraps = false;
  for (let r = last + 1; r <= cursor.row; r++) {
    const text = (r === cursor.row ? view.flat[r]!.slice(0, cursor.col) : view.flat[r]!).trim();
    if (text && wraps) prompts[prompts.length - 1] += ` ${text}`;
    else if (text) prompts.push(text);
    wraps = text !== "" && view.flat[r]!.trimEnd().length >= view.cols - 2;
  }
  if (prompts.length === 0) return false;
  const prompt = prompts[0]?.replace(BRACKETED_DEFAULT, "");
  return (
    prompts.length > 1 || !(PROMPT_UNDER.test(prompt!) || ANSWER_MARKER_ROW.test(prompt!)) || SHELL_PROMPT.test(prompt!)
  );
}

/** A prompt that is the keys of the options over it, parted by "/": rclone's "e/n/d/r/c/s/q>". */
const KEYS_PROMPT = /^(\w{1,2}(?:\/\w{1,2})+)[>:?]$/;

/** A prompt reading a number: it ends in ":" or "?", an answer of a few characters typed after it or not. */
const NUMBER_PROMPT = /^\s*\S.*[:?] ?\S{0,3}\s*$/;

/** Answers on one row, each after a circle, the one taken filled: create-astro's "● Yes  ○ No". */
const CIRCLE_TOGGLE = /^(\s*)([●○◉◯] \S+(?: \S+)?)((?: {2,}[●○◉◯] \S+(?: \S+)?)+)\s*$/;
/** A filled circle: the answer taken. */
const FILLED_CIRCLE = /^[●◉]/;

/**
 * A one-row toggle of circles under the question it answers ("Install dependencies? (recommended)" over
 * "● Yes  ○ No", create-astro's): a question whose items are the answers, the filled one selected. The question is
 * the row above from the toggle's column, to its "?" (a dim "(optional)" after it is a hint); a badge before it
 * ("deps") is not part of it.
 */
function circleToggles(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 1; row < view.rows; row++) {
    const match = CIRCLE_TOGGLE.exec(view.flat[row]!);
    if (!match || !view.free(row, 0, view.cols)) continue;
    const col = match[1]!.length;
    const asked = view.text(row - 1, col, view.cols).trimEnd();
    const question = /^\S[^?]*\?/.exec(asked);
    if (!question || !view.free(row - 1, col, col + asked.length)) continue;
    const pieces = [...view.flat[row]!.matchAll(/[●○◉◯] \S+(?: \S+)?/g)];
    const items: Omit<Item, "ref">[] = pieces.map((m) => ({
      label: m[0].slice(2),
      row,
      col: m.index!,
      width: m[0].length,
      selected: FILLED_CIRCLE.test(m[0]),
    }));
    if (items.filter((i) => i.selected).length !== 1) continue;
    const right = Math.max(col + asked.length, view.flat[row]!.trimEnd().length);
    out.push({ kind: "question", row: row - 1, col, width: right - col, height: 2, label: clean(question[0]), items });
    view.use(row - 1, col, right - col);
    view.use(row, col, right - col);
  }
  return out;
}

/**
 * A question's sentence wrapped over the rows from `top` to its answers' row, each opening at the first column with
 * no blank row between (reportbug's "Will reportbug often have direct Internet access? (You should answer yes to" …
 * "duplicate reports have been filed via some other channel.) [Y|n|q|?]?"): its label is the whole sentence. (Rows
 * indented or blank between, gem's "Remove executables:" over "        tidepool", keep the answers' row's words.)
 */
function wrappedSentence(view: View, top: number, row: number, label: string): string {
  for (let r = top; r < row; r++) if (!/^\S/.test(view.flat[r]!)) return label;
  return clean([...view.flat.slice(top, row), label].join(" "));
}

/**
 * Answers the terminal wrapped alone onto the row under their question, the rows above up to `top` each full to their
 * last column (icinga2's "… ('n' installs a master setup)" over " [Y/n]:"): those rows' top and their words, the label.
 * (parted's "Yes/No?" under prose that ends short of the edge asks it unlabelled.)
 */
function wrappedQuestion(view: View, row: number, top: number): [number, string] | undefined {
  const full = (r: number) => r >= top && r < row && view.flat[r]!.trimEnd().length >= view.cols;
  if (!full(row - 1)) return undefined;
  let first = row - 1;
  while (full(first - 1)) first--;
  const label = clean(view.flat.slice(first, row).join(""));
  return /\p{L}/u.test(label) ? [first, label] : undefined;
}

/**
 * The first row of a paragraph of prose over a question's row (`explainedAbove`): rows from the first column, no blank
 * between, the one right above ending its sentence, a sentence among them broken onto the next row where its next
 * word would not fit (a lower case word opening that row), a blank row or the screen's top over the first. Else the
 * question's own row (apt's "After this operation, 4,096 kB of additional disk space will be used." over "Do you want
 * to continue? [Y/n]": lines of their own, no sentence wrapped).
 */
function explainedAbove(view: View, row: number): number {
  let first = row;
  while (first > 0 && /^\S/.test(view.flat[first - 1]!) && view.free(first - 1, 0, view.cols)) first--;
  if (first > row - 2 || (first > 0 && view.flat[first - 1]!.trim())) return row;
  if (!/[.!]$/.test(view.flat[row - 1]!.trimEnd())) return row;
  for (let r = first; r < row - 1; r++) {
    const [end, next] = [view.flat[r]!.trimEnd(), view.flat[r + 1]!];
    // (Broken where the next word would not fit, short of the edge: a program's own wrap. Not the terminal's, ssh's
    // "… can't be establis" over "hed.", nor a diagnostic's line of its own, crontab's "…:3: bad minute".)
    const word = /^[a-z]\S*/.exec(next)?.[0];
    const wrapped = end.length < view.cols && end.length >= view.cols * 0.6;
    if (word && wrapped && end.length + 1 + word.length > view.cols * 0.75 && !/[.!?:;]$/.test(end)) return first;
  }
  return row;
}

/**
 * A question's sentence, wrapped, then sentences of its explanation going on up to its answers (google-authenticator's
 * "Do you want to disallow multiple uses of the same authentication token? This restricts you to one login about every
 * 30s, but …"): the question alone. (A remark in parentheses after it stays: reportbug's "… access? (You should …)".)
 */
function askedSentence(label: string): string {
  const asked = /^(.*?\?) (?=\p{Lu})/u.exec(label);
  return asked && !label.slice(asked[0].length).includes("?") ? asked[1]! : label;
}

/** One row of a key list: a bullet maybe, "Press", a key (a letter, a digit, a key's name), "to" and what it does. */
const PRESS_ROW =
  /^(\s*(?:[›»•*-]\s+)?Press\s+)([A-Za-z0-9?]|Enter|Esc|Escape|Space|Tab)(\s+to\s+)([a-z][\w ,'/-]*?)\.?\s*$/;

/**
 * Rows each telling a key and what it does, two or more one under another under a title (jest's watch mode: "Watch
 * Usage" over " › Press a to run all tests." … " › Press Enter to trigger a test run."), the cursor at the first
 * column of the row right under the last, nothing typed there or below: a question labelled with the title, each row
 * an item named by what it does and keyed by its key.
 */
function pressKeyRows(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible || cursor.col !== 0 || cursor.row < 3) return [];
  if (view.flat.slice(cursor.row).some((l) => l.trim())) return [];
  let top = cursor.row;
  while (top > 0 && PRESS_ROW.test(view.flat[top - 1]!) && view.free(top - 1, 0, view.cols)) top--;
  const title = top > 0 ? view.flat[top - 1]!.trim() : "";
  if (cursor.row - top < 2 || !/^\p{Lu}[\p{L} ]{0,40}$/u.test(title) || !view.free(top - 1, 0, view.cols)) return [];
  const items = view.flat.slice(top, cursor.row).map((line, i) => {
    const [, lead, key, to, does] = PRESS_ROW.exec(line)!;
    const col = lead!.length + key!.length + to!.length;
    return { label: does!, row: top + i, col, width: does!.length, key: key! };
  });
  const rows = view.flat.slice(top - 1, cursor.row);
  const width = Math.max(...rows.map((r) => r.trimEnd().length));
  view.use(top - 1, 0, view.cols, cursor.row - top + 1);
  return [{ kind: "question", row: top - 1, col: 0, width, height: rows.length, label: title, items }];
}

/** A question that opens in lower-case words: a sentence going on from the rows above it. */
const GOES_ON = /^[a-z]+(?: [a-z]+)+/;

/**
 * Where a question in lower case starts: the row up to four above that opens its sentence with a capital, the rows
 * between free (gem's "Remove executables:" over "        tidepool", a blank row, "in addition to the gem? [Yn]");
 * else its own row.
 */
function openedAbove(view: View, row: number, label: string): number {
  if (!GOES_ON.test(label)) return row;
  // (A row right above from the first column ending 20 cells or more short of the edge wrapped nothing onto this: it is
  // a line of its own, steghide's 'embedding "secret.txt" in "cover.bmp"... done' over 'the file "out.bmp" does
  // already exist. overwrite ? (y/n)'.)
  const above = row > 0 ? view.flat[row - 1]! : "";
  if (/^\S/.test(above) && above.trimEnd().length < view.cols - 20) return row;
  const opens = [1, 2, 3, 4].map((up) => row - up).find((r) => r >= 0 && /^[A-Z]/.test(view.flat[r]!));
  if (opens === undefined) return row;
  for (let r = opens; r < row; r++) if (!view.free(r, 0, view.cols)) return row;
  return opens;
}

/** One answer of a comma-listed row: its key in parentheses (one to three letters or digits), then its name. */
const LISTED_ANSWER = /\((\w{1,3})\) (\S.*?)(?=, \(\w{1,3}\) |,\s*$|:\s*$)/g;

/** A row of listed answers: an optional "Select: " lead, answers parted by ", ", the row ending in "," or ":". */
const LISTED_ROW = /^(?:\S[^()]*?: +| +)?\(\w{1,3}\) \S.*[,:]\s*$/;

/**
 * Answers listed with their keys in parentheses, over one row or several, the last ending in ":" where the cursor
 * waits (svn's "Select: (p) Postpone, (df) Show diff, (e) Edit file, (m) Merge," over "        (s) Show all
 * options: "): a question whose items are the answers, each typed whole ("df") then Enter. A name may hold a comma
 * ("(12) their version first, then yours,"): an answer ends before the next ", (key) ", or at its row's end.
 */
function listedAnswers(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible) return [];
  const last = cursor.row;
  const ending = view.flat[last]!.slice(0, cursor.col);
  if (!/:\s*$/.test(ending) || view.flat[last]!.slice(cursor.col).trim() || !LISTED_ROW.test(ending)) return [];
  let top = last;
  while (top > 0 && LISTED_ROW.test(view.flat[top - 1]!) && /,\s*$/.test(view.flat[top - 1]!)) top--;
  const items: Omit<Item, "ref">[] = [];
  for (let row = top; row <= last; row++) {
    const line = row === last ? ending : view.flat[row]!;
    for (const m of line.matchAll(LISTED_ANSWER)) {
      items.push({ label: m[2]!, row, col: m.index!, width: m[0].length, key: m[1]! });
    }
  }
  // Two answers at least, none twice, and every row free.
  if (items.length < 2 || new Set(items.map((i) => i.key)).size !== items.length) return [];
  for (let row = top; row <= last; row++) if (!view.free(row, 0, view.cols)) return [];
  const width = Math.max(...Array.from({ length: last - top + 1 }, (_, i) => view.flat[top + i]!.trimEnd().length));
  view.use(top, 0, view.cols, last - top + 1);
  return [{ kind: "question", row: top, col: 0, width, height: last - top + 1, items }];
}

/** An answer named in a sentence, its key a letter in parentheses inside its first word: "(c)hanged version". */
const KEY_IN_WORD = /\(([a-z])\)[\w-]*(?: [\w-]+)*?(?=[,.;]|\s*$)/g;

/**
 * A question on the cursor's row, its answers named in the sentence right above it, each with its key in parentheses
 * inside its word (hg's "You can use (c)hanged version, (d)elete, or leave (u)nresolved." over "What do you want to
 * do? "): a question whose items are those answers, labelled with the question; the paragraph over them, up to a
 * blank row, is its text.
 */
function keysInWords(view: View): Found[] {
  const { cursor } = view;
  const row = cursor.row;
  if (!cursor.visible || row === 0) return [];
  const asked = view.flat[row]!.slice(0, cursor.col);
  if (!/^\S.*\?\s*$/.test(asked) || view.flat[row]!.slice(cursor.col).trim()) return [];
  const answers = [...view.flat[row - 1]!.matchAll(KEY_IN_WORD)];
  if (answers.length < 2 || new Set(answers.map((m) => m[1])).size !== answers.length) return [];
  let top = row - 1;
  while (top > 0 && top > row - 5 && view.flat[top - 1]!.trim()) top--;
  for (let r = top; r <= row; r++) if (!view.free(r, 0, view.cols)) return [];
  const items: Omit<Item, "ref">[] = answers.map((m) => ({
    label: m[0],
    row: row - 1,
    col: m.index!,
    width: m[0].length,
    key: m[1]!,
  }));
  const width = Math.max(...Array.from({ length: row - top + 1 }, (_, i) => view.flat[top + i]!.trimEnd().length));
  view.use(top, 0, view.cols, row - top + 1);
  return [{ kind: "question", row: top, col: 0, width, height: row - top + 1, label: clean(asked), items }];
}

/** An answer alone on its indented row, its key in parentheses in its first word: visudo's "  e(x)it without …". */
const PAREN_KEY_ROW = /^(\s+)([A-Za-z]*\(([A-Za-z])\)[A-Za-z]*(?: \S+)*)\s*$/;

/**
 * Answers one per row, each key in parentheses in its first word, over the prompt holding the cursor (a blank row
 * between at most: visudo's "  (e)dit sudoers file again" … "  (Q)uit and save changes to sudoers file (DANGER!)"
 * over "What now? "): a question whose items are the rows, each keyed by its letter as shown (visudo's "Q" is not
 * its "q"). The prompt stays an input of its own.
 */
function parenKeyRows(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible || cursor.row === 0) return [];
  if (
    !/\S[?:]\s*$/.test(view.flat[cursor.row]!.slice(0, cursor.col)) ||
    view.flat[cursor.row]!.slice(cursor.col).trim()
  )
    return [];
  let last = cursor.row - 1;
  if (last > 0 && !view.flat[last]!.trim()) last--;
  let top = last;
  while (top >= 0 && PAREN_KEY_ROW.test(view.flat[top]!)) top--;
  top++;
  if (last - top + 1 < 2) return [];
  const items: Omit<Item, "ref">[] = [];
  for (let row = top; row <= last; row++) {
    if (!view.free(row, 0, view.cols)) return [];
    const match = PAREN_KEY_ROW.exec(view.flat[row]!)!;
    items.push({ label: match[2]!, row, col: match[1]!.length, width: match[2]!.length, key: match[3]! });
  }
  if (new Set(items.map((i) => i.key!.toLowerCase())).size !== items.length) return [];
  const width = Math.max(...view.flat.slice(top, last + 1).map((l) => l.trimEnd().length));
  view.use(top, 0, view.cols, last - top + 1);
  return [{ kind: "question", row: top, col: 0, width, height: cursor.row - top + 1, items }];
}

/** A numbered item named by a word, its description in a column after it: "2 standard  Offer more extensive …". */
const NUMBERED_NAME_ROW = /^(\d{1,2}) ([\w-]+) {2,}\S/;

/**
 * Items numbered from 1, each a number, a name and a description in a column, the description going on in rows
 * indented to its column, blank rows between (reportbug's "1 novice    Offer simple prompts …" … "4 expert    Bypass
 * most handholding …"), over the prompt holding the cursor (a few rows under): a question whose items are the names,
 * each keyed by its number. The prompt is an input of its own.
 */
function numberedNames(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible) return [];
  const items: Omit<Item, "ref">[] = [];
  let last = -1;
  for (let row = cursor.row - 1; row >= 0 && row >= cursor.row - 30; row--) {
    const line = view.flat[row]!;
    if (!line.trim()) continue;
    const match = NUMBERED_NAME_ROW.exec(line);
    if (match) {
      items.unshift({ label: match[2]!, row, col: 0, width: line.trimEnd().length, key: match[1]! });
      if (last < 0) last = row;
      continue;
    }
    // A description's next row, indented (to its column: checked below).
    if (/^ {4,}\S/.test(line)) {
      if (last < 0) last = row;
      continue;
    }
    break;
  }
  if (items.length < 2 || items.some((item, i) => item.key !== String(i + 1))) return [];
  // (Blanks only between the last item and the prompt: at most two rows.)
  const gap = view.flat.slice(last + 1, cursor.row).filter((l) => !l.trim()).length;
  if (cursor.row - last - 1 !== gap || gap > 2) return [];
  const top = items[0]!.row;
  for (let r = top; r <= last; r++) if (!view.free(r, 0, view.cols)) return [];
  const column = view.flat[top]!.search(/(?<=^\d{1,2} [\w-]+ {2,})\S/);
  for (let r = top; r <= last; r++) {
    const line = view.flat[r]!;
    if (line.trim() && !NUMBERED_NAME_ROW.test(line) && line.search(/\S/) !== column) return [];
  }
  const width = Math.max(...view.flat.slice(top, last + 1).map((l) => l.trimEnd().length));
  view.use(top, 0, view.cols, last - top + 1);
  return [{ kind: "question", row: top, col: 0, width, height: last - top + 1, items }];
}

/** A question whose answers are words listed in parentheses: "Type of package: (single, indep, library, python)". */
const WORDS_LISTED = /^(\S.*?):\s*\(([\w-]+(?:, [\w-]+)+)\)\s*$/;
/** The row of their keys under it, one letter each, the first of each word: "[s/i/l/p]?". */
const KEYS_LISTED = /^\[([a-z](?:\/[a-z])+)\]\??\s*$/;

/**
 * Answers named as words in parentheses after a question, their keys in brackets on the row under it, the cursor
 * waiting after the keys or at the start of the next row (dh_make's "Type of package: (single, indep, library,
 * python)" over "[s/i/l/p]?"): a question whose items are the words, each keyed by its letter.
 */
function keysUnderWords(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible) return [];
  const waiting = (r: number) =>
    (cursor.row === r && !view.flat[r]!.slice(cursor.col).trim()) ||
    (cursor.row === r + 1 && cursor.col === 0 && !view.flat[r + 1]!.trim());
  const row = [cursor.row - 1, cursor.row - 2].find(
    (r) => r >= 0 && waiting(r + 1) && KEYS_LISTED.test(view.flat[r + 1]!),
  );
  if (row === undefined) return [];
  const words = WORDS_LISTED.exec(view.flat[row]!);
  const keys = KEYS_LISTED.exec(view.flat[row + 1]!)![1]!.split("/");
  if (!words || !view.free(row, 0, view.cols) || !view.free(row + 1, 0, view.cols)) return [];
  const names = words[2]!.split(", ");
  if (names.length !== keys.length || names.some((name, i) => name[0]!.toLowerCase() !== keys[i])) return [];
  let c = view.flat[row]!.indexOf("(", words[1]!.length) + 1;
  const items: Omit<Item, "ref">[] = names.map((name, i) => {
    const item = { label: name, row, col: c, width: name.length, key: keys[i]! };
    c += name.length + 2;
    return item;
  });
  const width = view.flat[row]!.trimEnd().length;
  view.use(row, 0, view.cols, 2);
  if (cursor.row === row + 2) view.use(row + 2, 0, view.cols);
  return [{ kind: "question", row, col: 0, width, height: 2, label: clean(words[1]!), items }];
}

/** One answer named by a word with its key in parentheses inside it: "(Y)es", "A(u)to rename all", "(S)kip all". */
const PAREN_KEY_ANSWER = /[A-Za-z]*\(([A-Za-z])\)[A-Za-z]*(?: [a-z]+)*/g;
const PAREN_KEY_WORD = PAREN_KEY_ANSWER.source;

/**
 * A prompt ending in such answers parted by "/", maybe a "?" or ":" after them (7z's "? (Y)es / (N)o / (A)lways /
 * (S)kip all / A(u)to rename all / (Q)uit?", ansible's "Perform task: TASK: … (N)o/(y)es/(c)ontinue:").
 */
const PAREN_KEY_ANSWERS = new RegExp(
  `(?<=^|\\s)(${PAREN_KEY_WORD}(?:\\s*\\/\\s*${PAREN_KEY_WORD})+)\\s*[?:]?\\s*$|` +
    // (Or parted by commas right after the question's "?" or ":": "Retry? (r)etry, (a)bort:"; not vim's "[O]pen
    // Read-Only, (E)dit anyway, …", an answer of another shape before them.)
    `(?<=[?:] )(${PAREN_KEY_WORD}(?:\\s*,\\s*${PAREN_KEY_WORD})+)\\s*[?:]?\\s*$`,
);

/** Such answers with what was typed after them: an earlier question of them, answered. */
const PAREN_KEY_ANSWERED = new RegExp(
  `(?<=^|\\s)${PAREN_KEY_WORD}(?:\\s*[/,]\\s*${PAREN_KEY_WORD})+\\s*[?:]?\\s*\\S{0,8}\\s*$`,
);

function parenKeyAnswers(view: View): Found[] {
  const { cursor } = view;
  const row = cursor.row;
  if (!cursor.visible) return [];
  const asked = view.flat[row]!.slice(0, cursor.col);
  const match = PAREN_KEY_ANSWERS.exec(asked);
  if (!match || view.flat[row]!.slice(cursor.col).trim() || !view.free(row, 0, view.cols)) return [];
  const answers = [...match[0].matchAll(PAREN_KEY_ANSWER)];
  if (answers.length < 2 || new Set(answers.map((m) => m[1]!.toLowerCase())).size !== answers.length) return [];
  // (Only keys opening their word count for the case: 7z's "A(u)to" is lower case inside a word of capitals.)
  const opening = answers.filter((m) => m[0].startsWith("(")).map((m) => m[1]!);
  const mixed = opening.some((k) => /[a-z]/.test(k)) && opening.some((k) => /[A-Z]/.test(k));
  const items: Omit<Item, "ref">[] = answers.map((m) => ({
    label: m[0],
    row,
    col: match.index! + m.index!,
    width: m[0].length,
    key: mixed ? m[1]!.toLowerCase() : m[1]!,
  }));
  const start = view.flat[row]!.search(/\S/);
  let label = clean(asked.slice(0, match.index!))
    .replace(/^\?\s*/, "")
    .replace(/:$/, "");
  let top = row;
  if (!label) {
    // (Not past such answers answered above: 7z asks again for the next file right under "… (Q)uit? Y".)
    while (
      top > 0 &&
      view.flat[top - 1]!.trim() &&
      !PAREN_KEY_ANSWERED.test(view.flat[top - 1]!) &&
      view.free(top - 1, 0, view.cols) &&
      top > row - 12
    )
      top--;
    label = top < row ? clean(view.flat[top]!).replace(/:$/, "") : "";
  }
  const rows = Array.from({ length: row - top + 1 }, (_, i) => view.flat[top + i]!);
  const col = Math.min(start, ...rows.filter((r) => r.trim()).map((r) => r.search(/\S/)));
  const width = Math.max(...rows.map((r) => r.trimEnd().length)) - col;
  view.use(top, 0, view.cols, row - top + 1);
  return [{ kind: "question", row: top, col, width, height: row - top + 1, ...(label ? { label } : {}), items }];
}

/** One answer of a hint in angle brackets: a key, "for" or "to", a word ("Y for yes", "CTRL+C to cancel"). */
const HINT_KEY = "[A-Z]|[A-Z]+\\+[A-Z]|Esc|Enter|Return";
const KEY_FOR_WORD = new RegExp(`(?<=[<,] (?:or )?|<)(${HINT_KEY})( (?:for|to) )([a-z]+)`, "g");
/** The hint: two answers or more, parted by "," or "or", in angle brackets (wordgrinder's). */
const KEYS_FOR_WORDS = new RegExp(
  `<((?:${HINT_KEY}) (?:for|to) [a-z]+(?:,? (?:or )?(?:${HINT_KEY}) (?:for|to) [a-z]+)+)>`,
);

/**
 * A hint naming each answer's key in angle brackets, under the question's words in a box (wordgrinder's "<Y for yes,
 * N for no, or CTRL+C to cancel>" under "… Are you sure you want to discard them, without saving first?"): a question
 * over the rows of words above it up to a blank one, each answer an item keyed by its key (a letter in lower case).
 * Only alone on its row between the box's sides.
 */
function keysForWords(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 1; row < view.rows; row++) {
    const line = view.flat[row]!;
    const match = KEYS_FOR_WORDS.exec(line);
    if (!match) continue;
    const start = match.index!;
    const end = start + match[0].length;
    const left = line.lastIndexOf("│", start);
    const right = line.indexOf("│", end);
    if (left < 0 || right < 0 || view.text(row, left + 1, start).trim() || view.text(row, end, right).trim()) continue;
    if (!view.free(row, left + 1, right)) continue;
    let top = row;
    if (top > 0 && !view.text(top - 1, left + 1, right).trim()) top--;
    while (top > 0 && view.char(top - 1, left) === "│" && view.text(top - 1, left + 1, right).trim()) top--;
    const words = Array.from({ length: row - top }, (_, i) => top + i).filter((r) =>
      view.text(r, left + 1, right).trim(),
    );
    if (!words.length || !/\?\s*$/.test(view.text(words[words.length - 1]!, left + 1, right))) continue;
    const col = Math.min(...words.map((r) => view.text(r, left + 1, right).search(/\S/))) + left + 1;
    const width = Math.max(...[...words, row].map((r) => view.text(r, 0, right).trimEnd().length)) - col;
    const items = [...match[0].matchAll(KEY_FOR_WORD)].map((m) => ({
      label: m[3]!,
      row,
      col: start + m.index!,
      width: m[0].length,
      key: m[1]!.length === 1 ? m[1]!.toLowerCase() : m[1]!,
    }));
    if (items.length < 2) continue;
    out.push({ kind: "question", row: top, col, width, height: row - top + 1, items });
    for (let r = top; r <= row; r++) view.use(r, left + 1, right - left - 1);
  }
  return out;
}

/** A box's line ending in the one key it takes, quoted, in parentheses: "(Press 'y' to quit)". */
const PRESS_QUOTED_KEY = /^(.*?)\s*\((?:press|hit|type) '([^\s'])' to [a-z]+(?: [a-z]+){0,3}\)$/i;

/**
 * A box's first line ending in the one key it takes, quoted, in parentheses (`PRESS_QUOTED_KEY`: imediff's "Do you
 * 'quit without saving'? (Press 'y' to quit)", "Can't 'save and exit' due to the non-clean merge. (Press 'y' to
 * continue)"): a question whose one item is that key, labelled with its words when they ask (end in "?"). Only between
 * a box's sides, on its first row.
 */
function pressKeyInBox(view: View): Found[] {
  const out: Found[] = [];
  for (let row = 1; row < view.rows - 1; row++) {
    const line = view.flat[row]!;
    const left = line.search(/[│┃║]/);
    const right = line.indexOf(line[left] ?? "│", left + 1);
    if (left < 0 || right < 0 || !/[┌┏╔╭]/.test(view.char(row - 1, left))) continue;
    const text = view.text(row, left + 1, right);
    const match = PRESS_QUOTED_KEY.exec(text.trim());
    if (!match || !view.free(row, left + 1, right)) continue;
    const col = left + 1 + text.search(/\S/);
    const key = match[2]!;
    const asks = /\?$/.test(match[1]!.trim());
    out.push({
      kind: "question",
      row,
      col,
      width: text.trim().length,
      height: 1,
      ...(asks ? { label: clean(match[1]!) } : {}),
      items: [{ label: key, row, col: col + text.trim().lastIndexOf(`'${key}'`) + 1, width: 1, key }],
    });
    view.use(row, left + 1, right - left - 1);
  }
  return out;
}

/** One answer of a run parted by blanks: its key in parentheses inside its first word, lower-case words after it. */
const KEY_WORD = /[A-Za-z]*\(([A-Za-z])\)[\w-]*(?: [a-z][\w-]*)*/g;
/** A run of them after a name and its colon (erl's "BREAK: (a)bort (A)bort with dump (c)ontinue …"). */
const KEY_WORDS_ROW = /^(\s*)([A-Z][\w -]{0,20}): ((?:[A-Za-z]*\([A-Za-z]\)[\w-]*(?: [a-z][\w-]*)* ?){3,})\s*$/;
/** The run going on, on the rows under it, at its first answer's column. */
const KEY_WORDS_MORE = /^(\s+)((?:[A-Za-z]*\([A-Za-z]\)[\w-]*(?: [a-z][\w-]*)* ?)+)\s*$/;

/**
 * Answers parted by blanks, each a word with its key in parentheses, after a name and its colon and going on under it
 * at the first answer's column (erl's "BREAK: (a)bort (A)bort with dump (c)ontinue (p)roc info (i)nfo" over "(l)oaded
 * (v)ersion …"): a question labelled with the name, each key as shown. Only the last thing written, the cursor at its
 * end or at the start of the row under it.
 */
function namedKeyWords(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible) return [];
  for (let row = 0; row < view.rows; row++) {
    const match = KEY_WORDS_ROW.exec(view.flat[row]!);
    if (!match) continue;
    const at = match[1]!.length + match[2]!.length + 2;
    let last = row;
    while (last + 1 < view.rows) {
      const more = KEY_WORDS_MORE.exec(view.flat[last + 1]!);
      if (!more || more[1]!.length !== at) break;
      last++;
    }
    const end = view.flat[last]!.trimEnd().length;
    const waits =
      (cursor.row === last && cursor.col >= end) ||
      (cursor.row === last + 1 && !view.flat[last + 1]!.slice(0, cursor.col).trim());
    // (An earlier one answered above it is history: erl's first BREAK over the shell's lines, then the next.)
    if (!waits || view.flat.slice(last + 1).some((l) => l.trim()) || !view.free(row, 0, view.cols)) continue;
    const items: Omit<Item, "ref">[] = [];
    for (let r = row; r <= last; r++)
      for (const m of view.flat[r]!.slice(at).matchAll(KEY_WORD))
        items.push({ label: m[0], row: r, col: at + m.index!, width: m[0].length, key: m[1]! });
    if (new Set(items.map((i) => i.key)).size !== items.length) return [];
    const col = match[1]!.length;
    const width = Math.max(...view.flat.slice(row, last + 1).map((l) => l.trimEnd().length)) - col;
    view.use(row, 0, view.cols, last - row + 1);
    return [{ kind: "question", row, col, width, height: last - row + 1, label: match[2]!, items }];
  }
  return [];
}

/**
 * A row numbered, then what the number picks: trash-restore's "   0 2026-11-28 09:12:40 /tmp/…", checkinstall's
 * "0 -  Maintainer: [ root@vm ]".
 */
const NUMBERED_ROW = /^(\s*)(\d{1,3})(?: +- +| {1,3})(\S.*?)\s*$/;

/** A setting's name before its value in brackets: checkinstall's "Maintainer: [ root@vm ]". */
const SETTING_NAME = /^(\S.*?):\s*\[.*\]$/;

/** A prompt that asks for a number: a range in brackets ("[0..3]", "[1-12]") or the word ("Enter a number …"). */
const ASKS_NUMBER = /\[\d+\s*(?:\.\.|-)\s*\d+\]|\bnumber\b/i;

/** A prompt that is one marker alone, nothing typed: certutil's " >" under its numbered key usages. */
const LONE_MARKER_PROMPT = /^\s*[>›❯]\s?$/;

/**
 * Rows numbered in order from 0 or 1, one a row, right over the prompt holding the cursor that asks for a number
 * (trash-restore's "   0 2026-11-28 09:12:40 /tmp/…/build.log" … over "What file to restore [0..3]:",
 * checkinstall's "0 -  Maintainer: [ root@vm ]" … over "Enter a number to change any of them or press ENTER to
 * continue:", one blank row between at most): a question without a label, each row an item keyed by its number and
 * named by its text (a setting by its name). The prompt stays an input: what is typed there is the number.
 */
function numberedOverPrompt(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible || cursor.row < 2) return [];
  const prompt = view.flat[cursor.row]!.slice(0, cursor.col);
  const marker = LONE_MARKER_PROMPT.test(prompt) && !view.flat[cursor.row]!.slice(cursor.col).trim();
  if (!marker && (!ASKS_NUMBER.test(prompt) || !/[:?>]\s*\S{0,3}\s*$/.test(prompt))) return [];
  let r = cursor.row - 1;
  if (!view.flat[r]!.trim()) r--;
  // (Over a marker, one row of words may close the list, at its numbers' column: how to end it, certutil's "Other to
  // finish". No item: it has no number.)
  const closing = marker && /^\s*\p{L}/u.test(view.flat[r]!) && !NUMBERED_ROW.test(view.flat[r]!) ? r : undefined;
  if (closing !== undefined) r--;
  const items: Omit<Item, "ref">[] = [];
  for (; r >= 0; r--) {
    const row = NUMBERED_ROW.exec(view.flat[r]!);
    if (!row || !view.free(r, 0, view.cols)) break;
    const number = Number(row[2]);
    if (items.length && number !== Number(items[0]!.key) - 1) break;
    const text = row[3]!;
    const col = row[1]!.length;
    items.unshift({
      label: SETTING_NAME.exec(text)?.[1]?.trim() ?? text,
      row: r,
      col,
      width: view.flat[r]!.trimEnd().length - col,
      key: row[2]!,
    });
    if (number === 0) break;
  }
  if (items.length < 2 || Number(items[0]!.key) > 1) return [];
  if (closing !== undefined && view.flat[closing]!.search(/\S/) !== items[0]!.col) return [];
  const top = items[0]!.row;
  const col = Math.min(...items.map((i) => i.col));
  const width = Math.max(...items.map((i) => i.col + i.width)) - col;
  for (const item of items) view.use(item.row, 0, view.cols);
  return [{ kind: "question", row: top, col, width, height: items.length, items }];
}

/**
 * A header row of a numbered list with a current mark: `>` or a blank, a one-letter status or a blank, the number,
 * then what it names (mail's ">N  1 ci@build.example.  Mon Dec  7 08:01    8/195   Build 812 failed").
 */
const HEADER_ROW = /^([> ])([A-Z*]| ) *(\d{1,5}) +(\S.*?)\s*$/;

/** A prompt that is one mark, not a shell's ($ # % >), the cursor after it: mail's "& ". */
const LONE_MARK_PROMPT = /^([^\w\s$#%>])\s?$/u;

/**
 * Header rows numbered upward, two or more, exactly one of them marked current by a `>` in the first column, right
 * over a prompt that is one mark holding the cursor, nothing typed (`headerList`: mail's ">N  1 …", " N  2 …" over
 * "&"): a question without a label, each row an item keyed by its number and named by what follows it, the marked
 * one selected. The prompt stays an input: the number is typed there. Only right over the cursor's row: the same
 * rows printed above a shell's prompt ($ # % >) are no question.
 */
function headerList(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible || cursor.row < 2) return [];
  const prompt = view.flat[cursor.row]!.slice(0, cursor.col);
  if (!LONE_MARK_PROMPT.test(prompt) || view.flat[cursor.row]!.slice(cursor.col).trim()) return [];
  const items: Omit<Item, "ref">[] = [];
  for (let r = cursor.row - 1; r >= 0; r--) {
    const row = HEADER_ROW.exec(view.flat[r]!);
    if (!row || !view.free(r, 0, view.cols)) break;
    if (items.length && Number(row[3]) >= Number(items[0]!.key)) break;
    const col = view.flat[r]!.indexOf(row[3]!, 2);
    items.unshift({
      label: row[4]!,
      row: r,
      col,
      width: view.flat[r]!.trimEnd().length - col,
      key: row[3]!,
      selected: row[1] === ">",
    });
  }
  if (items.length < 2 || items.filter((i) => i.selected).length !== 1) return [];
  const top = items[0]!.row;
  const width = Math.max(...items.map((i) => i.col + i.width));
  for (const item of items) view.use(item.row, 0, view.cols);
  return [{ kind: "question", row: top, col: 0, width, height: items.length, items }];
}

/** A restart of a Lisp's debugger: its name, its key (":R1") in a column of its own, what it does. */
const RESTART_ROW = /^([A-Z][\w-]*)\s{2,}(:[A-Z]\d{1,2})\s{2,}(\S.*?)\s*$/;

/** A debugger's prompt, its level in it, nothing typed: clisp's "Break 1 [2]> ". */
const BREAK_PROMPT = /^\S.*>\s?$/;

/**
 * Restarts listed one a row, two or more, their keys at one column and in order, right over the prompt holding the
 * cursor with nothing typed (clisp's "USE-VALUE      :R1      Input a value to be used instead of TIDE-LEVEL." …
 * over "Break 1 [2]>"): a question without a label, each restart an item named by its name and keyed as shown (the key
 * typed at the prompt picks it). Only right over the cursor's row: printed above another prompt they are output.
 */
function restartRows(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible || cursor.row < 2) return [];
  const prompt = view.flat[cursor.row]!.slice(0, cursor.col);
  if (!BREAK_PROMPT.test(prompt) || view.flat[cursor.row]!.slice(cursor.col).trim() || isShellPrompt(prompt)) return [];
  const items: Omit<Item, "ref">[] = [];
  for (let r = cursor.row - 1; r >= 0; r--) {
    const row = RESTART_ROW.exec(view.flat[r]!);
    if (!row || !view.free(r, 0, view.cols)) break;
    const keyCol = view.flat[r]!.indexOf(row[2]!, row[1]!.length);
    if (
      items.length &&
      (keyCol !== view.flat[items[0]!.row]!.indexOf(items[0]!.key!) ||
        Number(row[2]!.slice(2)) !== Number(items[0]!.key!.slice(2)) - 1)
    )
      break;
    items.unshift({ label: row[1]!, row: r, col: 0, width: view.flat[r]!.trimEnd().length, key: row[2]! });
  }
  if (items.length < 2 || items[0]!.key!.slice(2) !== "1") return [];
  const width = Math.max(...items.map((i) => i.width));
  for (const item of items) view.use(item.row, 0, view.cols);
  return [{ kind: "question", row: items[0]!.row, col: 0, width, height: items.length, items }];
}

/** A restart numbered from 0 under its heading: "  0: [CONTINUE   ] Retry using DEPTH.", "  1:         Exit …". */
const NUMBERED_RESTART = /^(\s{1,4})(\d{1,2}): (?:\[([A-Z][\w-]*) *\]|\s{2,}(?=\S))\s*(\S.*?)\s*$/;

/** A debugger's prompt holding its level, nothing after it: sbcl's "0]", "0[2]", "1] ". */
const LEVEL_PROMPT = /^\d{1,2}(?:\[\d{1,2}\]|\]) ?$/;

/**
 * Restarts numbered from 0 under a heading ending in ":" (sbcl's "restarts (invokable by number or by
 * possibly-abbreviated name):" over "  0: [CONTINUE   ] Retry using DEPTH."), the debugger's level prompt holding the
 * cursor a few rows under them, nothing typed: a question labelled with the heading, each restart an item named by the
 * name in its brackets (or its words, where it has none) and keyed by its number; the prompt an input, where the
 * number is typed. Only over that prompt: printed above another one, they are output.
 */
function numberedRestarts(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible || cursor.row < 3) return [];
  const line = view.flat[cursor.row]!;
  if (!LEVEL_PROMPT.test(line.slice(0, cursor.col)) || line.slice(cursor.col).trim()) return [];
  // The list's last row: up to three rows of the frame's words between it and the prompt.
  let last = cursor.row - 1;
  while (last >= cursor.row - 4 && last > 0 && !NUMBERED_RESTART.test(view.flat[last]!)) last--;
  let top = last;
  while (top > 0 && NUMBERED_RESTART.test(view.flat[top - 1]!)) top--;
  if (!NUMBERED_RESTART.test(view.flat[last]!) || top < 1 || !/^\S.*:\s*$/.test(view.flat[top - 1]!)) return [];
  const items: Omit<Item, "ref">[] = [];
  for (let r = top; r <= last; r++) {
    const m = NUMBERED_RESTART.exec(view.flat[r]!)!;
    if (Number(m[2]) !== r - top) return [];
    const col = m[1]!.length;
    items.push({ label: m[3] ?? m[4]!, row: r, col, width: view.flat[r]!.trimEnd().length - col, key: m[2]! });
  }
  const rows = Array.from({ length: last - top + 2 }, (_, i) => top - 1 + i);
  if (items.length < 2 || !rows.every((r) => view.free(r, 0, view.cols))) return [];
  const heading = view.flat[top - 1]!;
  const width = Math.max(...view.flat.slice(top - 1, last + 1).map((l) => l.trimEnd().length));
  view.use(top - 1, 0, view.cols, last - top + 2);
  view.use(cursor.row, 0, view.cols);
  return [
    { kind: "question", row: top - 1, col: 0, width, height: last - top + 2, label: heading.trim(), items },
    { kind: "input", row: cursor.row, col: 0, width: view.cols, height: 1, value: "", cursor: true },
  ];
}

/** One answer in parentheses parted by "/": a key, "=" and its name (fossil's "a=all", "c=convert"), or a bare key. */
const EQUALS_KEY = /([A-Za-z])(?:=([A-Za-z][\w-]*))?/g;
const EQUALS_KEY_PART = "[A-Za-z](?:=[A-Za-z][\\w-]*)?";

/**
 * Such answers ending the prompt, at least one named by "=" (fossil's "Commit anyhow (a=all/c=convert/y/N)?"), maybe a
 * "?" or ":" after them.
 */
const EQUALS_KEY_ANSWERS = new RegExp(`\\(((?=[^)]*=)${EQUALS_KEY_PART}(?:\\/${EQUALS_KEY_PART})+)\\)\\s*[?:]?\\s*$`);

/**
 * Answers named by a key, "=" and a word, parted by "/", ending the row the cursor waits on (fossil's "Commit anyhow
 * (a=all/c=convert/y/N)?"): a question labelled with the words before them, each item the word (a bare key its usual
 * name: "y" Yes), keyed by its letter; among bare keys of mixed case the capital is the default, typed in lower case.
 * Only on the cursor's row: the same question answered above ("… (a=all/c=convert/y/N)? y") is history.
 */
function equalsKeyAnswers(view: View): Found[] {
  const { cursor } = view;
  const row = cursor.row;
  if (!cursor.visible) return [];
  const asked = view.flat[row]!.slice(0, cursor.col);
  const match = EQUALS_KEY_ANSWERS.exec(asked);
  if (!match || view.flat[row]!.slice(cursor.col).trim() || !view.free(row, 0, view.cols)) return [];
  const parts = [...match[1]!.matchAll(EQUALS_KEY)];
  if (new Set(parts.map((m) => m[1]!.toLowerCase())).size !== parts.length) return [];
  const bare = parts.filter((m) => !m[2]).map((m) => m[1]!);
  const mixed = bare.some((k) => /[a-z]/.test(k)) && bare.some((k) => /[A-Z]/.test(k));
  const from = match.index! + 1;
  const items: Omit<Item, "ref">[] = parts.map((m) => ({
    label: m[2] ?? ANSWER_NAMES[m[1]!.toLowerCase()] ?? m[1]!,
    row,
    col: from + m.index!,
    width: m[0].length,
    key: !m[2] && mixed ? m[1]!.toLowerCase() : m[1]!,
    ...(!m[2] && mixed && /[A-Z]/.test(m[1]!) ? { selected: true } : {}),
  }));
  const start = view.flat[row]!.search(/\S/);
  const label = clean(asked.slice(start, match.index!)).replace(QUESTION_ICON, "").replace(/:$/, "");
  if (!label) return [];
  const width = view.flat[row]!.trimEnd().length - start;
  view.use(row, 0, view.cols);
  return [{ kind: "question", row, col: start, width, height: 1, label, items }];
}

/** An answer named by a word its key opens, a ")" right after the key: mcopy's "a)utorename", "O)verwrite-all". */
const KEY_PAREN_WORD = /(?<=^|\s)([A-Za-z0-9])\)([A-Za-z][\w-]*)(?=\s|$)/g;

/** A row of such answers only, maybe ending in the keys in parentheses and a ":" or "?" (mcopy's "(aArRoOsSq):"). */
const KEY_PAREN_ROW =
  /^\s*(?:[A-Za-z0-9]\)[A-Za-z][\w-]*\s+)*[A-Za-z0-9]\)[A-Za-z][\w-]*\s*(?:\(([A-Za-z0-9]{2,})\)\s*)?[:?]?\s*$/;

/**
 * Answers named by words their key opens with a ")" after it, on the row the cursor waits on and the rows right above
 * it (mcopy's "a)utorename A)utorename-all r)ename …" over "s)kip S)kip-all q)uit (aArRoOsSq):"): a question, its
 * items the words as shown, each keyed by its letter as shown (mcopy's "a" and "A" are two answers). Keys listed in
 * parentheses at the end must hold every answer's. Its label is the paragraph above up to a blank row, by its first
 * row (mcopy's "Long file name "report.txt" already exists.").
 */
function keyParenRows(view: View): Found[] {
  const { cursor } = view;
  const row = cursor.row;
  if (!cursor.visible) return [];
  const asked = view.flat[row]!.slice(0, cursor.col);
  if (!KEY_PAREN_ROW.test(asked) || view.flat[row]!.slice(cursor.col).trim()) return [];
  let first = row;
  while (
    first > 0 &&
    first > row - 4 &&
    KEY_PAREN_ROW.test(view.flat[first - 1]!) &&
    !/\(\w+\)/.test(view.flat[first - 1]!)
  )
    first--;
  const items: Omit<Item, "ref">[] = [];
  for (let r = first; r <= row; r++) {
    if (!view.free(r, 0, view.cols)) return [];
    for (const m of (r === row ? asked : view.flat[r]!).matchAll(KEY_PAREN_WORD))
      items.push({ label: m[0], row: r, col: m.index!, width: m[0].length, key: m[1]! });
  }
  const keys = items.map((i) => i.key!);
  if (items.length < 2 || new Set(keys).size !== keys.length) return [];
  const listed = KEY_PAREN_ROW.exec(asked)![1];
  if (listed && keys.some((k) => !listed.includes(k))) return [];
  let top = first;
  // (Not past an earlier prompt of such answers, answered: mcopy asks again for the next file under it.)
  while (
    top > 0 &&
    top > first - 6 &&
    view.flat[top - 1]!.trim() &&
    !/(?<=^|\s)[A-Za-z0-9]\)[A-Za-z]/.test(view.flat[top - 1]!) &&
    view.free(top - 1, 0, view.cols)
  )
    top--;
  const label = top < first ? clean(view.flat[top]!).replace(/:$/, "") : "";
  const rows = Array.from({ length: row - top + 1 }, (_, i) => view.flat[top + i]!);
  const col = Math.min(...rows.filter((r) => r.trim()).map((r) => r.search(/\S/)));
  const width = Math.max(...rows.map((r) => r.trimEnd().length)) - col;
  view.use(top, 0, view.cols, row - top + 1);
  return [{ kind: "question", row: top, col, width, height: row - top + 1, ...(label ? { label } : {}), items }];
}

/** One answer a key and ")" open, words after it: cvs's "a)bort", "!)reuse this message unchanged for …". */
const KEY_PAREN_ANSWER = /(?<=^\s*|,\s*)([A-Za-z0-9!?])\)[A-Za-z][\w-]*(?: [a-z][\w-]*)*(?=\s*(?:,|$))/g;

/** A row of two or more such answers parted by commas, nothing else. */
const KEY_PAREN_LIST = new RegExp(`^\\s*${KEY_PAREN_ANSWER.source}(?:,\\s*${KEY_PAREN_ANSWER.source})+\\s*$`);

/** A prompt naming what it asks, its default in parentheses: cvs's "Action: (continue)". */
const NAMED_PROMPT = /^\s*([A-Z][A-Za-z]*(?: [a-z]+){0,3}):\s*\(([A-Za-z][\w-]*)\)\s*$/;

/**
 * Answers a key and ")" open, parted by commas, on the row right over a prompt holding the cursor that names what it
 * asks (cvs's "a)bort, c)ontinue, e)dit, !)reuse this message unchanged for remaining dirs" over "Action: (continue)"):
 * a question labelled with the prompt's words, its items the answers as shown, each keyed by its sign as shown. The
 * default in parentheses must be one answer's word (cvs's "continue" of "c)ontinue"), nothing after the cursor: such
 * answers printed over another program's "Password: " are no question (choose would type a letter and Enter there).
 */
function keyParenOverPrompt(view: View): Found[] {
  const { cursor } = view;
  const row = cursor.row;
  if (!cursor.visible || row === 0 || view.flat[row]!.slice(cursor.col).trim()) return [];
  const prompt = NAMED_PROMPT.exec(view.flat[row]!.slice(0, cursor.col));
  const list = view.flat[row - 1]!;
  if (!prompt || !KEY_PAREN_LIST.test(list) || !view.free(row - 1, 0, view.cols) || !view.free(row, 0, view.cols))
    return [];
  const items: Omit<Item, "ref">[] = [...list.matchAll(KEY_PAREN_ANSWER)].map((m) => ({
    label: m[0],
    row: row - 1,
    col: m.index!,
    width: m[0].length,
    key: m[1]!,
  }));
  const keys = items.map((i) => i.key!);
  if (new Set(keys).size !== keys.length) return [];
  // "c)ontinue" says "continue".
  const word = (label: string) => (label[0]! + label.slice(2).split(" ")[0]!).toLowerCase();
  if (!items.some((i) => word(i.label) === prompt[2]!.toLowerCase())) return [];
  const col = Math.min(list.search(/\S/), view.flat[row]!.search(/\S/));
  const width = Math.max(list.trimEnd().length, view.flat[row]!.trimEnd().length) - col;
  view.use(row - 1, 0, view.cols, 2);
  return [{ kind: "question", row: row - 1, col, width, height: 2, label: prompt[1]!, items }];
}

/** Answers parted by "/" ending the prompt before its ":", one in parentheses the default: "rspec/minitest/(none):". */
const SLASHED_ANSWERS = /(?<=^|\s)((?:\(?[\w-]+\)?\/)+\(?[\w-]+\)?):\s*$/;

/** A row opening with a question: a sentence up to its "?", maybe more after it ("… your gem? Supported services:"). */
const ASKING_ROW = /^\S[^?]*\?(?=\s|$)/;

/** Slash-parted answers answered on their row ("…/(none): minitest"): an earlier question's prompt, above this one. */
const ANSWERED_SLASHES = /\/\(?[\w-]+\)?:\s+\S/;

/**
 * A question ending in "?", then lines that explain it, then the prompt holding the cursor whose last words are the
 * answers parted by "/", the default in parentheses (bundler's "Do you want to generate tests with your gem?" …
 * "Enter a test framework. rspec/minitest/test-unit/(none): "): a question labelled with the "?" row, its items the
 * answers, each typed whole. The rows between, up to eight (blank ones too), are its text (a prompt may wrap onto the
 * cursor's row); the question's row may go on after its "?" (bundler's "… for your gem? Supported services:" over the
 * services), and stops at an earlier question's answered prompt.
 */
function slashedAnswers(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible || cursor.row === 0) return [];
  // The prompt may fill its row to the last column, the cursor waiting at the next row's start (bundler's code of
  // conduct question): its row is the one above.
  const full = filledAbove(view);
  const row = full ? cursor.row - 1 : cursor.row;
  const asked = full ? view.flat[row]!.trimEnd() : view.flat[row]!.slice(0, cursor.col);
  const match = SLASHED_ANSWERS.exec(asked);
  if (!match || view.flat[cursor.row]!.slice(cursor.col).trim()) return [];
  const words = match[1]!.split("/");
  if (words.filter((w) => w.startsWith("(")).length !== 1) return [];
  let top = row - 1;
  while (top >= 0 && top > row - 10 && !ASKING_ROW.test(view.flat[top]!) && !ANSWERED_SLASHES.test(view.flat[top]!))
    top--;
  const asking = top >= 0 ? ASKING_ROW.exec(view.flat[top]!) : null;
  if (!asking) return [];
  for (let r = top; r <= cursor.row; r++) if (!view.free(r, 0, view.cols)) return [];
  let c = match.index!;
  const items: Omit<Item, "ref">[] = words.map((word) => {
    const item = {
      label: word.replace(/^\((.*)\)$/, "$1"),
      row,
      col: c,
      width: word.length,
      key: word.replace(/[()]/g, ""),
    };
    c += word.length + 1;
    return item;
  });
  const last = cursor.row;
  const width = Math.max(...Array.from({ length: last - top + 1 }, (_, i) => view.flat[top + i]!.trimEnd().length));
  view.use(top, 0, view.cols, last - top + 1);
  return [{ kind: "question", row: top, col: 0, width, height: last - top + 1, label: clean(asking[0]), items }];
}

/** A key named in a bracket of answers: Return, Enter, Esc or Escape (any case). */
const NAMED_KEY = "[Rr]eturn|RETURN|[Ee]nter|ENTER|[Ee]sc(?:ape)?|ESC(?:APE)?";

/** One answer of such a bracket: the key, "=", the answer's word. */
const KEY_EQUALS_WORD = new RegExp(`(${NAMED_KEY}) ?= ?([A-Za-z][\\w-]*)`, "g");

/**
 * A question ending in answers that are keys named in brackets, each "key = word", "|" between: dar's "… is about to
 * be overwritten, OK? [return = YES | Esc = NO]" (the keys Return and Esc).
 */
const KEY_ANSWER = `(?:${NAMED_KEY}) ?= ?[A-Za-z][\\w-]*`;
const KEY_NAMED_ANSWERS = new RegExp(`^(\\s*)(\\S.*?\\?)\\s*\\[(${KEY_ANSWER}(?: ?\\| ?${KEY_ANSWER})+)\\]\\s*$`);

/** The name a key of such a bracket is pressed by. */
const KEY_NAMED: Record<string, string> = { return: "Return", enter: "Enter", esc: "Esc", escape: "Esc" };

/**
 * Answers that are keys named in brackets after the question (KEY_NAMED_ANSWERS), the question written last and
 * waiting: the cursor at its end or at the start of the row under it, nothing on the screen below. It may fill its
 * row and go on on the next (a long path in it): read joined. Items the words, keyed by the keys' names.
 */
function keyNamedAnswers(view: View): Found[] {
  const { cursor } = view;
  if (!cursor.visible) return [];
  const below = (row: number) => view.flat.slice(row + 1).some((l) => l.trim());
  for (let last = 0; last < view.rows; last++) {
    if (!view.flat[last]!.trim() || below(last)) continue;
    const waits =
      (cursor.row === last && cursor.col >= view.flat[last]!.trimEnd().length) ||
      (cursor.row === last + 1 && cursor.col === 0);
    if (!waits) return [];
    // The question's rows: this one, and the one above when that filled its row (the text went on here).
    const top = last > 0 && view.flat[last - 1]!.trimEnd().length >= view.cols ? last - 1 : last;
    const text =
      top < last ? view.flat[top]!.padEnd(view.cols).slice(0, view.cols) + view.flat[last]! : view.flat[last]!;
    const match = KEY_NAMED_ANSWERS.exec(text);
    if (!match) return [];
    for (let r = top; r <= last; r++) if (!view.free(r, 0, view.cols)) return [];
    const at = (index: number) => ({ row: top + Math.floor(index / view.cols), col: index % view.cols });
    const opens = match[0].lastIndexOf("[");
    const items: Omit<Item, "ref">[] = [...match[3]!.matchAll(KEY_EQUALS_WORD)].map((m) => {
      const { row, col } = at(opens + 1 + m.index! + m[0].length - m[2]!.length);
      return { label: m[2]!, row, col, width: m[2]!.length, key: KEY_NAMED[m[1]!.toLowerCase()]! };
    });
    const start = match[1]!.length;
    const right = Math.max(...Array.from({ length: last - top + 1 }, (_, i) => view.flat[top + i]!.trimEnd().length));
    view.use(top, 0, view.cols, last - top + 1);
    // (The row the cursor waits on under it is the answer's, no field of its own.)
    if (cursor.row === last + 1) view.use(cursor.row, 0, view.cols);
    return [
      {
        kind: "question",
        row: top,
        col: start,
        width: right - start,
        height: last - top + 1,
        label: clean(match[2]!),
        items,
      },
    ];
  }
  return [];
}

/** A setting a capital letter picks, its name padded before its colon (minicom's "A -  Serial Device : /dev/modem"). */
const LETTERED_SETTING = /^([A-Z]) - +(\S(?:.*?\S)?) *:/;

/** A frame's side and the blanks by it. */
const FRAME_SIDE = /^[\s|│┃║]*/;

/**
 * Settings a capital letter picks, one a row, the letters in order (three or more), then up to two blank rows and the
 * prompt holding the cursor that ends in "?" (minicom's "A -    Serial Device : /dev/modem" … over "Change which
 * setting?", in a frame): a question labelled with the prompt, its items the settings' names keyed by their letters.
 */
function letteredSettings(view: View): Found[] {
  const { cursor } = view;
  const row = cursor.row;
  if (!cursor.visible || row < 3) return [];
  const asked = view.flat[row]!.slice(0, cursor.col);
  const lead = FRAME_SIDE.exec(asked)![0].length;
  if (!/\?\s*$/.test(asked) || !/^[\s|│┃║]*$/.test(view.flat[row]!.slice(cursor.col))) return [];
  const inside = (r: number) => {
    const line = view.flat[r]!;
    const from = FRAME_SIDE.exec(line)![0].length;
    return { from, text: line.slice(from).replace(/[\s|│┃║]+$/, "") };
  };
  let r = row - 1;
  while (r > row - 3 && r >= 0 && !inside(r).text) r--;
  const items: Omit<Item, "ref">[] = [];
  for (; r >= 0; r--) {
    const { from, text } = inside(r);
    const setting = LETTERED_SETTING.exec(text);
    if (!setting || !view.free(r, from, from + text.length)) break;
    // (Letters in order: each one before the one under it.)
    if (items.length && setting[1]!.charCodeAt(0) !== items[0]!.key!.charCodeAt(0) - 1) break;
    items.unshift({ label: setting[2]!, row: r, col: from, width: text.length, key: setting[1]! });
  }
  if (items.length < 3) return [];
  const top = items[0]!.row;
  const col = items[0]!.col;
  const width =
    Math.max(...items.map((i) => i.col + i.width), view.flat[row]!.slice(0, cursor.col).trimEnd().length) - col;
  for (const item of items) view.use(item.row, item.col, item.width);
  view.use(row, lead, cursor.col - lead);
  return [
    {
      kind: "question",
      row: top,
      col,
      width,
      height: row - top + 1,
      label: clean(asked.slice(lead)),
      items,
    },
  ];
}
