// How an agent CLI t4a has no preset for is read (`--agent auto`): from what every CLI shares, its
// screen's elements (docs/elements.md). A question with choices on screen is what it waits on; its
// frame (status lines, the input box) is never its words; its choices answer approve and deny.
// Pure: elements in, facts out. No patterns of any one CLI here.
import type { Element, Item } from "../terminal/elements.ts";

/** A question on screen with the choices it offers: a question element, or a dialog of buttons. */
export interface ScreenQuestion {
  /** Its words: the question's label, else the dialog's title, else its first text row. */
  line: string;
  element: Element;
  /** The choices, in order: the question's items, or the dialog's buttons (as elements). */
  choices: Array<{ label: string; item?: Item; button?: Element }>;
}

const YES = /^(?:y|yes|allow|approve|accept|continue|proceed|ok|okay|run|trust|confirm)\b/i;
/** What makes a yes last past this question ("Yes, and don't ask again", "Allow for this session"). */
const ALWAYS_WORDS = [
  "always",
  "don't ask",
  "do not ask",
  "for this session",
  "for the session",
  "remember",
  "all (?:commands|edits|tools)",
  "auto-approve",
  "accept edits",
];
const ALWAYS = new RegExp(String.raw`\b(?:${ALWAYS_WORDS.join("|")})\b`, "i");
const NO = /^(?:n|no|deny|reject|decline|cancel|don't|do not|skip|abort)\b/i;

/**
 * The question on screen, if any: a question element with two or more choices (numbered, lettered,
 * [y/n]), else a dialog holding a menu right under a row that asks ("…?"), or two or more buttons
 * ("Allow once   Allow always   Reject").
 */
export function findQuestion(elements: Element[], rows?: string[]): ScreenQuestion | undefined {
  const questions = elements.filter((element) => element.kind === "question" && (element.items?.length ?? 0) >= 2);
  // The lowest: what was drawn last (an earlier one may still stand above it in the history).
  const question = questions.at(-1);
  if (question) {
    return {
      line: question.label || textAbove(elements, question) || question.items![0]!.label,
      element: question,
      choices: question.items!.map((item) => ({ label: item.label, item })),
    };
  }
  const dialogs = elements.filter((element) => element.kind === "dialog");
  for (const dialog of dialogs.reverse()) {
    const buttons = elements.filter((element) => element.kind === "button" && inside(element, dialog));
    // A menu under a question in the dialog (continue's cn 1.5: "Would you like to continue?" over
    // "> Continue (tab)", "Continue + don't ask again (shift+tab)", "No, … (esc)").
    const menu = elements.findLast(
      (element) => element.kind === "menu" && (element.items?.length ?? 0) >= 2 && inside(element, dialog),
    );
    const asked =
      menu &&
      textAbove(
        elements.filter((element) => inside(element, dialog)),
        menu,
      );
    if (buttons.length < 2 && menu && asked?.endsWith("?")) {
      return {
        line: asked,
        element: menu,
        choices: menu.items!.map((item) => ({ label: item.label, item })),
      };
    }
    if (buttons.length < 2) continue;
    const text = elements.find((element) => element.kind === "text" && inside(element, dialog))?.text;
    return {
      line: dialog.label || firstRow(text) || buttons.map((button) => button.label).join(" / "),
      element: dialog,
      choices: buttons.map((button) => ({ label: button.label ?? "", button })),
    };
  }
  // A menu of answers, one that says yes and one that says no, under a row that asks no "?"
  // (droid 0.225: "Command to approve · medium risk", read as a table's header, over a box of
  // "Yes, allow", "Yes, and always allow …", "No, cancel"): its line the block above it.
  const answers = elements.findLast(
    (element) =>
      element.kind === "menu" &&
      (element.items?.length ?? 0) >= 2 &&
      element.items!.some((item) => YES.test(item.label) && !ALWAYS.test(item.label)) &&
      element.items!.some((item) => NO.test(item.label)),
  );
  if (answers) {
    return {
      line: blockAbove(elements, answers, rows) || answers.items![0]!.label,
      element: answers,
      choices: answers.items!.map((item) => ({ label: item.label, item })),
    };
  }
  return undefined;
}

/**
 * The first row of the text or table just above an element: a table's header row as the screen
 * has it when its rows are given, else its words joined.
 */
function blockAbove(elements: Element[], below: Element, rows?: string[]): string {
  const above = elements.filter(
    (element) =>
      (element.kind === "text" || element.kind === "table") &&
      element.row + element.height <= below.row &&
      (element.text?.trim() || element.header?.length),
  );
  const block = above.at(-1);
  if (!block) return "";
  if (block.kind !== "table" || !block.header?.length) return firstRow(block.text);
  return rows?.[block.row]?.trim() || block.header.join(" ");
}

/** The choice that answers yes, yes-always or no; undefined when none reads so (no: Escape then). */
export function pickChoice(
  question: ScreenQuestion,
  kind: "yes" | "always" | "no",
): ScreenQuestion["choices"][number] | undefined {
  const { choices } = question;
  if (kind === "always")
    return (
      choices.find((choice) => YES.test(choice.label) && ALWAYS.test(choice.label)) ??
      choices.find((choice) => ALWAYS.test(choice.label) && !NO.test(choice.label))
    );
  if (kind === "no") return choices.find((choice) => NO.test(choice.label));
  // Yes: the first that says so and not "always"; else the first choice, which CLIs make the yes.
  return choices.find((choice) => YES.test(choice.label) && !ALWAYS.test(choice.label)) ?? choices[0];
}

/**
 * Rows that are the CLI's frame, never its words: status and key-hint lines, the input box, menus
 * and buttons (its own pickers), each row of them as drawn.
 */
export function frameRows(elements: Element[]): Set<string> {
  const rows = new Set<string>();
  for (const element of elements) {
    if (element.kind === "text" || element.kind === "dialog" || element.kind === "table") continue;
    if (element.text) for (const row of element.text.split("\n")) rows.add(row.trim());
    if (element.label) rows.add(element.label.trim());
    if (element.value) rows.add(element.value.trim());
  }
  rows.delete("");
  return rows;
}

/** "0s", "9.0s", "120 ms". */
const DURATION = String.raw`\d+(?:\.\d+)?\s?(?:ms|s|m|h)`;
/**
 * "✻ Crunched for 0s", "─ Worked for 3s", "✻ Sautéed for 0s": after a mark, a verb in the past (any
 * letters), then a duration.
 */
const PAST_VERB_AND_DURATION = String.raw`^[^A-Za-z0-9\s]*\s*[A-Z]\p{Ll}+ed (?:for|in) ${DURATION}\b`;
/** "· 9.0s" ending the row. */
const DURATIONS_LAST = String.raw`·\s*(?:${DURATION}\s*)+$`;
/**
 * A row that sums up a turn's time, not words ("✻ Crunched for 0s · done 12:21 PM", "─ Worked for
 * 3s ─", "▣  Build · Fake model · 9.0s"): a verb in the past and a duration, or a duration last.
 */
export const TURN_SUMMARY = new RegExp(`${PAST_VERB_AND_DURATION}|${DURATIONS_LAST}`, "u");

/**
 * The directory it works in, a branch after it ("/tmp/w [⎇ master%]", "~/src (main)", "/tmp/w
 * ⊦master"): its frame, not words.
 */
const WHERE = /^(?:~|\/)\S*(?: (?:[[(][^\])]*[\])]|[^\w\s]\S*))?$/;

/** A key hint ("? for shortcuts", "Shift+Tab to accept edits", "esc to interrupt"): the CLI's, not its words. */
const KEY_HINT = /^(?:[^A-Za-z0-9\s]\s*)?(?:\?|(?:shift|ctrl|alt|meta|cmd|esc|tab|enter)(?:\+\w+)?) (?:to|for) \w/i;

/** The frame characters a TUI draws round its rows: box lines, half and full blocks. */
const FRAME_CHARS = "│┃║╭╮╰╯─━╌╹▐▌█▄▀";
/** A row's frame and padding, at either end. */
export const FRAME = new RegExp(`^[\\s${FRAME_CHARS}]+|[\\s${FRAME_CHARS}]+$`, "g");

/**
 * Where the input box begins: the input the cursor is in, else the cursor's row, else the upper
 * of two rules close together in the lower half (a box drawn as rules above and below, or a
 * rounded box, its cursor drawn by the CLI itself: pi, continue). Undefined when none of these is there.
 */
export function inputRow(elements: Element[], rows: string[], cursorRow?: number): number | undefined {
  const input = elements.find((element) => element.kind === "input" && element.cursor);
  if (input) return input.row;
  if (cursorRow !== undefined) return cursorRow;
  // A rule may be a box's top or bottom, corners and all (continue's cn 1.5 "╭───╮" … "╰───╯"),
  // anywhere: a CLI that draws inline (cn) has its input box right under its last words.
  const rules = rows.flatMap((row, i) =>
    /^\s*[╭╰┌└][─━]{20,}[╮╯┐┘]\s*$/.test(row) || (i >= rows.length / 2 && /^\s*[─━]{20,}\s*$/.test(row)) ? [i] : [],
  );
  for (let i = rules.length - 2; i >= 0; i--) if (rules[i + 1]! - rules[i]! <= 4) return rules[i];
  return undefined;
}

/**
 * A bar spread to both edges, words at its left and its right with a wide gap between (droid
 * 0.225's "Auto (Off) · all actions require approval     Fake model" over its input box): frame.
 */
const SPREAD = /\S {20,}\S/;

/**
 * The agent's last words: the lowest row of text above its input box (see inputRow), not its
 * frame, a key hint or a turn's time.
 */
export function lastWords(elements: Element[], inputAt?: number): string {
  const input = inputAt === undefined ? undefined : { row: inputAt };
  const frame = frameRows(elements);
  const rows = elements
    .filter((element) => element.kind === "text" && element.text?.trim() && (!input || element.row < input.row))
    .flatMap((element) =>
      element.text!.split("\n").flatMap((row, i) => (!input || element.row + i < input.row ? [row] : [])),
    )
    .map((row) => row.replace(FRAME, ""));
  return (
    rows.findLast(
      (row) =>
        /[\p{L}\p{N}]/u.test(row) &&
        !frame.has(row) &&
        !TURN_SUMMARY.test(row) &&
        !KEY_HINT.test(row) &&
        !WHERE.test(row) &&
        !SPREAD.test(row),
    ) ?? ""
  );
}

function inside(element: Element, box: Element): boolean {
  return (
    element.row >= box.row &&
    element.row < box.row + box.height &&
    element.col >= box.col &&
    element.col < box.col + box.width
  );
}

/** The last text row right above a question without a label of its own. */
function textAbove(elements: Element[], question: Element): string {
  const above = elements.filter(
    (element) => element.kind === "text" && element.row + element.height <= question.row && element.text?.trim(),
  );
  const text = above.at(-1)?.text ?? "";
  return (
    text
      .split("\n")
      .map((row) => row.trim())
      .findLast((row) => row !== "") ?? ""
  );
}

function firstRow(text: string | undefined): string {
  return (
    (text ?? "")
      .split("\n")
      .map((row) => row.trim())
      .find((row) => row !== "") ?? ""
  );
}
