// snapshot: the screen as elements (menus, questions, buttons, inputs, checkboxes, progress bars,
// tables, status lines, dialogs, text blocks) with refs, per docs/elements.md. An outline for
// people and models; --json gives the elements with their bounds.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { displayable, shownRows } from "../protocol/program-text.ts";
import { TerminalId } from "../protocol/fields.ts";
import { outline, type Element } from "../terminal/elements.ts";
import { tokenEstimate } from "../terminal/tokens.ts";
import { defineCommand, textContent } from "./command.ts";

/** A screen of thousands of elements is no summary: the first ones in reading order, and a count of the rest. */
const MAX_ELEMENTS = 1000;

export const SnapshotParams = deferred(() => v.object({ id: TerminalId }));

const Item = v.object({
  ref: v.string(),
  label: v.string(),
  row: v.number(),
  col: v.number(),
  width: v.number(),
  selected: v.optional(v.boolean()),
  checked: v.optional(v.boolean()),
  key: v.optional(v.string()),
});

const ElementSchema = v.object({
  ref: v.string(),
  kind: v.string(),
  row: v.number(),
  col: v.number(),
  width: v.number(),
  height: v.number(),
  label: v.optional(v.string()),
  value: v.optional(v.string()),
  /** An input's default, offered after its prompt's words ("Port [8080]:"): Enter takes it. Not part of its label. */
  default: v.optional(v.string()),
  cursor: v.optional(v.boolean()),
  checked: v.optional(v.boolean()),
  selected: v.optional(v.boolean()),
  percent: v.optional(v.number()),
  items: v.optional(v.array(Item)),
  header: v.optional(v.array(v.string())),
  rows: v.optional(v.number()),
  text: v.optional(v.string()),
});

export const SnapshotReply = deferred(() =>
  v.object({
    cols: v.number(),
    rows: v.number(),
    cursor: v.object({ row: v.number(), col: v.number(), visible: v.boolean() }),
    /** The mouse reports the program turned on ("none": a click must be keys). */
    mouse: v.string(),
    elements: v.array(ElementSchema),
    /** Elements past the first 1000, left out. */
    omitted: v.optional(v.number()),
    /** The program has exited: nothing reads input, so no field holds the cursor. */
    exited: v.optional(v.boolean()),
    /**
     * The screen's text (rows, trailing blank rows dropped), given when the elements say nothing the
     * text does not, in no fewer characters: then the outline is this text, and costs no more.
     */
    plain: v.optional(v.array(v.string())),
    /** With `plain`: what only the elements know (a highlight, a checked box, the field with the cursor), as fits. */
    known: v.optional(v.string()),
  }),
);

export const snapshot = defineCommand({
  name: "snapshot",
  params: SnapshotParams,
  reply: SnapshotReply,
  async handle(params, ctx) {
    const terminal = ctx.sessions.get(params.id).terminal;
    await terminal.settled();
    const screen = terminal.screen;
    // Detected where the screen lives (its worker): only the elements cross, not every cell.
    const exited = !terminal.alive;
    // An exited program reads nothing: the cursor it left marks no field (issue 62).
    const elements = screen.elements(exited);
    const { row, col, visible } = screen.cursor();
    const omitted = Math.max(0, elements.length - MAX_ELEMENTS);
    const kept = omitted ? elements.slice(0, MAX_ELEMENTS) : elements;
    const lines = screen.lines("viewport", 0, screen.rows, true);
    while (lines.length && !lines[lines.length - 1]) lines.pop();
    const plain = plainForm(kept, lines, {
      cols: screen.cols,
      rows: screen.rows,
      cursor: { row, col },
      exited,
      token: screen.changeToken(),
    });
    return {
      cols: screen.cols,
      rows: screen.rows,
      cursor: { row, col, visible },
      mouse: screen.mouse().mode,
      // Labels and texts are the screen's cells: a bidi control there would reorder the reader's terminal.
      elements: displayable(kept),
      ...(omitted ? { omitted } : {}),
      ...(exited ? { exited } : {}),
      ...plain,
    };
  },
  cli: {
    usage: "snapshot <id>",
    summary: "Print the screen as elements with refs (menus, buttons, inputs, checkboxes, tables…)",
    examples: ["t4a snapshot t1", "t4a snapshot t1 --json"],
    request: ([id]) => ({ id }),
    print(response) {
      console.log(`${header(response)}\n${body(response)}`);
    },
  },
  mcp: {
    tool: "terminal_snapshot",
    description:
      "A TUI's screen as elements with refs (e3, e3.1): menus, questions, buttons, " +
      "inputs, checkboxes, tables, dialogs, what is selected. Cheaper than terminal_read.",
    result: (response) => textContent(`${header(response)}\n${body(response)}`),
  },
  http: [{ method: "GET", path: "/api/sessions/:id/snapshot" }],
});

function header(response: Record<string, unknown>): string {
  const cursor = response.cursor as { row: number; col: number; visible: boolean };
  const omitted = response.omitted ? `, ${response.omitted} more elements left out` : "";
  const exited = response.exited ? ", exited" : "";
  // Where the elements add nothing, the text comes instead, and this line says so (with what only
  // the elements know: a highlight, a checked box, the field with the cursor).
  if (response.plain)
    return plainHeader(
      response.cols as number,
      response.rows as number,
      cursor,
      response.exited === true,
      (response.known as string | undefined) ?? "",
    );
  const at = `${cursor.row}:${cursor.col}${cursor.visible ? "" : " hidden"}`;
  return `[${response.cols}x${response.rows}, cursor ${at}, mouse ${response.mouse}${omitted}${exited}]`;
}

/** The outline, or the screen's text in its place when the elements add nothing to it. */
function body(response: Record<string, unknown>): string {
  const plain = response.plain as string[] | undefined;
  return plain ? plain.join("\n") : outline(response.elements as Element[]);
}

/**
 * What the elements know that the text cannot show (reverse video, colours): the selected item
 * or button, checked boxes, the field holding the cursor, each with its ref; as many facts as keep
 * the plain form's header within `budget` tokens (the text's own header), so it never costs more.
 */
function known(elements: Element[], budget: number): { known?: string } {
  const facts = stateOf(elements);
  let spent = 0;
  const kept: string[] = [];
  for (const fact of facts) {
    const cost = tokenEstimate(fact.startsWith("in e") ? ` ${fact}` : `; ${fact}`);
    if (spent + cost > budget) break;
    spent += cost;
    kept.push(fact);
  }
  return kept.length ? { known: kept.join("; ") } : {};
}

function stateOf(elements: Element[]): string[] {
  const facts: string[] = [];
  for (const e of elements) {
    if (e.cursor) facts.unshift(`in ${e.ref}`);
    if (e.selected) facts.push(`${e.ref} ${JSON.stringify(e.label ?? "")} selected`);
    if (e.checked) facts.push(`${e.ref} checked`);
    for (const i of e.items ?? []) {
      if (i.selected) facts.push(`${i.ref} ${JSON.stringify(i.label)} selected`);
      if (i.checked) facts.push(`${i.ref} checked`);
    }
  }
  return facts;
}

/**
 * The text in place of the elements where they add nothing, with what only they know as fits in a
 * header no costlier than terminal_read's own (`[N of R viewport lines, …; token T]`); else nothing.
 */
export function plainForm(
  elements: Element[],
  lines: string[],
  screen: { cols: number; rows: number; cursor: { row: number; col: number }; exited?: boolean; token: string },
): { plain?: string[]; known?: string } {
  if (!addsNothing(elements, lines)) return {};
  const { cols, rows, cursor, token } = screen;
  const budget = tokenEstimate(
    `[${lines.length} of ${rows} viewport lines, ` +
      `rows ${rows - 1}..${rows - lines.length} from the bottom; token ${token}]`,
  );
  const base = plainHeader(cols, rows, cursor, screen.exited ?? false, "");
  return { plain: shownRows(lines), ...known(elements, budget - tokenEstimate(base)) };
}

function plainHeader(
  cols: number,
  rows: number,
  cursor: { row: number; col: number },
  exited: boolean,
  known: string,
): string {
  // The field holding the cursor is named beside it ("cursor 0:6 in e1"), the other facts after.
  const [first, ...rest] = known ? known.split("; ") : [];
  const field = first?.startsWith("in e") ? ` ${first}` : "";
  const facts = field ? rest : first ? [first, ...rest] : [];
  const ended = exited ? ", exited" : "";
  const more = facts.map((f) => `; ${f}`).join("");
  return `[${cols}x${rows}, cursor ${cursor.row}:${cursor.col}${field}${ended}; as text, elements add nothing${more}]`;
}

/** The elements add nothing when their outline costs no less than the screen's text. */
export function addsNothing(elements: Element[], lines: string[]): boolean {
  return tokenEstimate(outline(elements)) >= tokenEstimate(lines.join("\n"));
}
