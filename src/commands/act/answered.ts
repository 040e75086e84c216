// After the keys that answer a question or pick an item: its goal state, seen (the item shown selected, a line that
// shows the item meant, the answered line scrolled off) or `uncertain` saying what the screen shows. Sends nothing.
import { T4aError } from "../../protocol/errors.ts";
import { type CellGrid, CellFlag } from "../../terminal/cell-grid.ts";
import type { Element } from "../../terminal/elements.ts";
import { findAgain, nameOf, rowText, type Target } from "../../terminal/targets.ts";
import { type ActReply, type Actor, SETTLE_MS } from "./actor.ts";
import { escapeRegExp } from "../../terminal/elements/view.ts";
import { type Look, sameLook, screenEnds } from "./look.ts";

/**
 * After the keys that answer: the goal state, seen. The item still listed and shown selected is
 * `selected`; the question gone (or left above as history) with a line that shows the item meant
 * (its label outside the list's rows, or the prompt's row holding the key typed: `#? 43`) is
 * `answered`; anything else after the screen settles is `uncertain`, saying what it shows.
 */
export async function answered(
  actor: Actor,
  before: Look,
  target: Target,
  typed?: { key: string; prompt: string; history: number; echo?: string },
): Promise<ActReply> {
  const label = target.item!.label;
  const listRows = new Set(
    (target.element.items ?? [])
      .map((i) => rowText(before.grid, i.row).trim())
      .concat(rowText(before.grid, target.element.row).trim()),
  );
  // The answers of a one-row toggle or inline question, when all are on one row.
  const answers = target.element.items ?? [];
  const inline =
    !typed && answers.length > 1 && answers.every((i) => i.row === answers[0]!.row)
      ? answers.map((i) => i.label)
      : undefined;
  let otherMarked: string | undefined;
  // (Lines that stood above the question, or inside it: its own text, bundler's "* GitHub Actions: https://github…"
  // under "Do you want to set up continuous integration…?", is no answer "github".)
  const earlier = new Set(
    before.text
      .split("\n")
      .slice(0, target.element.row + target.element.height)
      .filter((_, i) => i < target.element.row || !listRows.has(rowText(before.grid, i).trim()))
      .map((r) => r.trim()),
  );
  let markNote = "";
  // The line that shows the item meant, and its row (the first of two rows joined).
  const evidence = (look: Look, exited: boolean): { line: string; row: number } | undefined => {
    const rows = look.text.split("\n");
    const cursor = look.grid.cursor.row;
    // (A question that takes its answer on a row under it, its own row still there as it was: the key's line there
    // is typed, not taken; deno's "> y" under "┗ Allow? …", its input flushed if typed before it read.)
    const { row: top, height, items: answersOf = [] } = target.element;
    const waiting =
      !exited &&
      height > 1 &&
      answersOf.every((i) => i.row === top) &&
      rowText(look.grid, top).trim() === rowText(before.grid, top).trim();
    if (typed) {
      const line = `${typed.prompt} ${typed.key}`.replace(/\s+/g, " ").trim();
      const at = rows.findIndex(
        (r, i) =>
          (exited || i !== cursor) &&
          !(waiting && i > top && i < top + height) &&
          r.replace(/\s+/g, " ").trim() === line,
      );
      if (at >= 0 && (exited || look.text !== before.text)) return { line: rows[at]!.trim(), row: at };
      // (Or over two rows: a prompt that filled its row, the key at the next row's start.)
      const over = rows.findIndex(
        (r, i) =>
          i + 1 < rows.length &&
          (exited || (i !== cursor && i + 1 !== cursor)) &&
          r.trimEnd().length >= look.grid.cols - 1 &&
          `${r} ${rows[i + 1]}`.replace(/\s+/g, " ").trim() === line,
      );
      if (over >= 0 && (exited || look.text !== before.text))
        return { line: `${rows[over]!.trim()} ${rows[over + 1]!.trim()}`, row: over };
      const ends = (r: string, i: number) =>
        (exited || i !== cursor) &&
        !(waiting && i > top && i < top + height) &&
        r.replace(/\s+/g, " ").trim().endsWith(line);
      const end = typed.prompt ? rows.findIndex(ends) : -1;
      if (end >= 0) return { line, row: end };
    }
    const word = wholeWord(label);
    const again = findAgain(look.elements, target);
    const live = new Set((again?.element.items ?? []).map((i) => i.row));
    // (A line showing another item whose name holds this one's is that item's: "~ place › harbour column will be
    // renamed" answers "place › harbour", not "harbour".)
    const wider = (target.element.items ?? [])
      .filter((i) => i.label.trim().length > label.trim().length && word.test(i.label))
      .map((i) => wholeWord(i.label));
    const answers = (r: string, i: number) =>
      !live.has(i) &&
      !listRows.has(r.trim()) &&
      word.test(r) &&
      !wider.some((w) => w.test(r)) &&
      (exited || i !== cursor || !typed);
    // (Not a line that stood above the question before: an earlier answer holding the same word,
    // "✔ … language · TypeScript / JavaScript" over the flavor asked next. Unless it stands right under this
    // question's own words: two confirms answered alike leave two "│  No" lines, the second under its question.)
    const asked = target.element.label?.trim() ?? "";
    const underAsked = (i: number) => asked.length >= 8 && i > 0 && !live.has(i - 1) && rows[i - 1]!.includes(asked);
    // (A key typed: a line that was there before is no evidence at all, under the question's words or not.)
    const fresh = (r: string, i: number) => !earlier.has(r.trim()) || (!typed && underAsked(i));
    if (!inline) {
      const hit = rows.findIndex((r, i) => fresh(r, i) && answers(r, i));
      return hit >= 0 ? { line: rows[hit]!.trim(), row: hit } : undefined;
    }
    // A toggle left as history ("✔ Use TypeScript? … No / Yes") holds every answer: the one taken
    // is the one drawn apart, and it must be the one meant. (Lines that stood above it before are
    // earlier questions' answers, wherever output has scrolled them since.)
    const hit = rows.findIndex((r, i) => fresh(r, i) && answers(r, i));
    if (hit < 0) return undefined;
    const marked = markedAnswer(look.grid, hit, inline);
    if (marked === undefined) return { line: rows[hit]!.trim(), row: hit };
    if (marked === label) {
      markNote = `, ${JSON.stringify(label)} drawn apart as the answer taken`;
      return { line: rows[hit]!.trim(), row: hit };
    }
    otherMarked = marked;
    return undefined;
  };
  // The question drawn again under its answered line, its rows as they were (wipe's "Okay to WIPE 1 regular file ?
  // (Yes/No)" under "… (Yes/No) y"): the answer was not taken. (The same words asking other answers are the next
  // question: fossil's "Commit anyhow (a=all/y/N)?" for the next file, under "… (a=all/c=convert/y/N)? y".)
  // (Every row of it compared: 7z asks "Would you like to replace the existing file:" with the same answers for the
  // next file, its name in the rows between.)
  const rowsOf = (grid: CellGrid, element: Element) =>
    Array.from({ length: element.height }, (_, i) => rowText(grid, element.row + i).trim()).join("\n");
  // (And the rows between the answered line and it naming another thing than the rows the question stood under: pip
  // asks "Proceed (Y/n)?" for the next package under "Found existing installation: reefwatch 0.3", its first one
  // under "… tidepool 1.0". A refusal between, "Please answer …", names nothing the question stood under.)
  const context = rowsAbove(before.grid, target.element.row, rowText(before.grid, target.element.row).trim());
  const askedAgain = (look: Look, row: number) => {
    const again = findAgain(look.elements, target, { below: row });
    if (again === undefined || rowsOf(look.grid, again.element) !== rowsOf(before.grid, target.element)) return false;
    const between = Array.from({ length: again.element.row - row - 1 }, (_, i) =>
      rowText(look.grid, row + 1 + i).trim(),
    );
    return !between.some(
      (b) =>
        !context.includes(b) &&
        context.some((c) => !between.includes(c) && (namesAnother(c, b) || anotherUnderLabel(c, b, typed?.key))),
    );
  };
  const takenOther = (marked: string) =>
    `the answered line shows ${JSON.stringify(marked)} drawn as the answer taken, not ${nameOf(target)}`;
  let changedAt = 0;
  const result = await actor.until((look): ActReply | undefined => {
    if (look.text === before.text && sameLook(look, before)) return undefined;
    changedAt ||= performance.now();
    const again = findAgain(look.elements, target);
    // A long answer (the next list, a scaffolder's output) may push the answered line off the top: it is in the lines
    // that scrolled off since the key was sent, and only there. (Looked for before the label in new output, which a
    // typed answer's own line outranks.)
    if (typed) {
      const line = `${typed.prompt} ${typed.key}`.replace(/\s+/g, " ").trim();
      const gone = actor.history(Math.min(actor.historyLength() - typed.history, 500));
      if (typed.prompt && gone.some((r) => r.replace(/\s+/g, " ").trim() === line))
        return actor.reply("answered", `the answered line ${JSON.stringify(line)} scrolled off the top`);
    }
    if (!again || typed) {
      const seen = evidence(look, false);
      if (seen && typed && askedAgain(look, seen.row))
        return actor.reply(
          "uncertain",
          `the question was asked again under the answered line ${JSON.stringify(seen.line)}`,
        );
      if (seen) return actor.reply("answered", `the answered line shows ${JSON.stringify(seen.line)}${markNote}`);
    }
    if (performance.now() - changedAt <= SETTLE_MS) return undefined;
    // No other evidence once the screen settled: the key was seen on the question's own prompt before Enter ("> y"),
    // and after it the question is gone: a program that clears its question once answered (deno's "✅ Granted …").
    // (Another question of the same words, its row saying other things, is the next one; the same row again is this
    // one asked again.)
    if (typed?.echo) {
      const asked = rowText(before.grid, target.element.row).trim();
      if (!again || rowText(look.grid, again.element.row).trim() !== asked)
        return actor.reply(
          "answered",
          `${JSON.stringify(typed.key)} showed on the question's prompt (${JSON.stringify(typed.echo)}) ` +
            "before Enter, and the question is gone",
        );
    }
    // The list stayed, the item named selected in it: a list that keeps its choice shown.
    if (!typed && again?.item?.selected && again.element.items!.length > 1)
      return actor.reply("selected", `after Enter the list is still there with ${nameOf(target)} selected`);
    return actor.reply("uncertain", otherMarked ? takenOther(otherMarked) : uncertainty(look, target, again));
  });
  if (result) return result;
  if (actor.exited) {
    const last = await actor.look();
    const seen = evidence(last, true);
    if (seen) return actor.reply("answered", `the program exited; its screen shows ${JSON.stringify(seen.line)}`);
    return typed
      ? actor.reply("uncertain", `the program exited; nothing on its screen shows ${JSON.stringify(label)}`)
      : actor.reply("exited", `after Enter on ${nameOf(target)}, shown selected`);
  }
  if (changedAt)
    return actor.reply("uncertain", otherMarked ? takenOther(otherMarked) : uncertainty(await actor.look(), target));
  throw new T4aError(
    "timeout",
    `${actor.sent.join(" ")}: the screen did not change within the wait (the program may not have taken it)`,
  );
}

/** A label as a whole word in a line, in any case. */
function wholeWord(label: string): RegExp {
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(label.trim())}($|[^\\p{L}\\p{N}])`, "iu");
}

/** Most rows read above a question as what it stands under. */
const CONTEXT_ROWS = 12;

/**
 * The rows right above `row`, nearest first, up to a blank row, a row that asks `asked` again (an earlier answered
 * ask of it) or CONTEXT_ROWS: what a question stands under.
 */
function rowsAbove(grid: CellGrid, row: number, asked: string): string[] {
  const rows: string[] = [];
  for (let r = row - 1; r >= 0 && rows.length < CONTEXT_ROWS; r--) {
    const text = rowText(grid, r).trim();
    if (!text || (asked && text.startsWith(asked))) break;
    rows.push(text);
  }
  return rows;
}

/**
 * Two rows saying the same of another thing: as many words, two or more, the first the same, at least half of them
 * the same in place, and every word that differs a name on both sides (letters in it, not only a count: "Try 2/3" is
 * no other thing than "Try 1/3"). pip's "Found existing installation: reefwatch 0.3" and "… tidepool 1.0".
 */
function namesAnother(a: string, b: string): boolean {
  const [x, y] = [a.split(/\s+/), b.split(/\s+/)];
  if (a === b || x.length < 2 || x.length !== y.length || x[0] !== y[0]) return false;
  const differ = x.flatMap((w, i) => (w === y[i] ? [] : [[w, y[i]!] as const]));
  const named = differ.some(([v, w]) => /\p{L}/u.test(v) && /\p{L}/u.test(w));
  return (
    named &&
    (x.length - differ.length) * 2 >= x.length &&
    differ.every(([v, w]) => /\p{L}/u.test(v) === /\p{L}/u.test(w))
  );
}

/** A row's leading label: a word in capitals ("WARNING") or a capitalised word and a colon ("Warning:"). */
const LEAD_LABEL = /^([A-Z]{3,}|[A-Z][a-z]+:)\s+(\S.*)$/;

/** Words that refuse an answer: a row holding one is the program asking again, whatever its label. */
const REFUSAL = /\b(?:invalid|please (?:answer|enter|type)|try again|not (?:a )?valid|unknown|unrecognized|must be)\b/i;

/**
 * Two rows under one label saying other things (vsce's " WARNING  A 'repository' field is missing …" then " WARNING
 * LICENSE, LICENSE.md, or LICENSE.txt not found", each over "Do you want to continue? [y/N]"): the second warns of
 * another thing, so the question under it is the next one. Not a row refusing the answer, nor one quoting it.
 */
function anotherUnderLabel(a: string, b: string, key: string | undefined): boolean {
  const [x, y] = [LEAD_LABEL.exec(a), LEAD_LABEL.exec(b)];
  if (!x || !y || x[1] !== y[1] || x[2] === y[2] || y[2]!.split(/\s+/).length < 3 || REFUSAL.test(b)) return false;
  return !key || !new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(key)}($|[^\\p{L}\\p{N}])`, "iu").test(y[2]!);
}

/** What the screen shows when the goal state is not seen, in a few words. */
function uncertainty(look: Look, target: Target, again = findAgain(look.elements, target)): string {
  const name = nameOf(target);
  if (!again) {
    const last = screenEnds(look.text);
    // (A question answered by a key read without echo leaves no answered line: kpcli's "… save it now? [y/N]:" then
    // its next prompt. Gone, the next prompt under it, is all the screen says: not which answer was taken.)
    const gone = target.element.kind === "question" ? "the question is gone" : "the list is gone";
    const below =
      target.element.kind === "question" && look.grid.cursor.row > target.element.row + target.element.height - 1
        ? ", a prompt under it holding the cursor"
        : "";
    return `${gone}${below} and no line shows ${name}; the screen ends with ${JSON.stringify(last.slice(0, 160))}`;
  }
  const at = again.element.items?.find((i) => i.selected);
  return at && at !== again.item
    ? `the list is still there with ${JSON.stringify(at.label)} selected, not ${name}`
    : `the screen changed, but ${name} is still listed and not shown answered`;
}

/** Attributes that set one answer apart from the others on its row. */
const MARKING = CellFlag.underline | CellFlag.inverse | CellFlag.bold;

/**
 * Which of `labels`, side by side on `row` in that order ("No / Yes"), is drawn apart as the one
 * taken: the only one underlined, reversed or bold, or (three or more) the only one in a look of
 * its own. Undefined when the row does not hold them all in a row, or no one alone is drawn apart.
 */
export function markedAnswer(grid: CellGrid, row: number, labels: string[]): string | undefined {
  const cols: number[] = [];
  let line = "";
  for (let col = 0; col < grid.cols; col++) {
    const i = row * grid.cols + col;
    if (grid.widths[i] === 0) continue;
    const char = grid.codepoints[i] ? String.fromCodePoint(grid.codepoints[i]!) : " ";
    for (let k = 0; k < char.length; k++) cols.push(col);
    line += char;
  }
  const between = "\\s*[/|,]?\\s*";
  const found = [...line.matchAll(new RegExp(labels.map((l) => `(${escapeRegExp(l)})`).join(between), "gd"))].at(-1);
  if (!found?.indices) return undefined;
  // Each answer's first cell: its attributes and colours.
  const cells = labels.map((_, k) => row * grid.cols + cols[found.indices![k + 1]![0]]!);
  const marked = cells.filter((i) => grid.flags[i]! & MARKING);
  if (marked.length === 1) return labels[cells.indexOf(marked[0]!)];
  if (marked.length || labels.length < 3) return undefined;
  const looks = cells.map((i) => `${grid.flags[i]}/${grid.fg[i]}/${grid.bg[i]}`);
  const apart = looks.filter((look) => looks.indexOf(look) === looks.lastIndexOf(look));
  return apart.length === 1 ? labels[looks.indexOf(apart[0]!)] : undefined;
}
