// Program text (docs/security.md, issue 56): what a program chose — its title, the directory its
// OSC 7 names, its /proc/PID/comm, a question read off its screen — and everything another
// machine answers. It reaches a terminal, an MCP client or the page only through forDisplay, the
// one stripping function. Pure; no imports.

declare const programText: unique symbol;

/**
 * Text a program or another machine chose. Not a string (no string method, not assignable to a
 * reply's string fields): the compiler refuses it anywhere a person or a model would see it until
 * forDisplay has made it one.
 */
export type ProgramText = { readonly [programText]: true };

/** Marks text as the program's where t4a reads it (a /proc file, an OSC, a screen row, a remote's reply). */
export const fromProgram = (text: string): ProgramText => text as unknown as ProgramText;

/**
 * The text itself, for t4a's own comparisons (is this reader a shell? did the title change?):
 * never for showing. A search for `programTextValue` lists every such use.
 */
export const programTextValue = (text: ProgramText): string => text as unknown as string;

// C0, DEL, C1: an escape sequence needs one of them (ESC, CSI 0x9b, OSC 0x9d…).
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROLS_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// The bidi controls that reorder what follows them (U+202E shows `t1‮gpj.exe` as `t1exe.jpg`):
// they take no column, and go without a trace (a screen row keeps its columns).
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The one way program text is shown: its control characters (C0, DEL, C1) as spaces and its bidi
 * controls left out, so no escape sequence, clipboard write, cursor move, title set or reordering
 * reaches a terminal, a model or the page. `lines`: a block of lines (a command's output, a
 * message) keeps its newlines and tabs, which start no sequence.
 */
export function forDisplay(text: ProgramText, lines?: "lines"): string {
  return programTextValue(text)
    .replace(lines ? CONTROLS_IN_LINES : CONTROLS, " ")
    .replace(BIDI, "");
}

/** Reply fields that are blocks of lines (exec's output, a message, ask's answer, a diff): their newlines stay. */
const BLOCK_FIELDS = new Set(["output", "text", "answer", "diff"]);

/**
 * Every string of a value another machine sent (its ids, titles, lines, errors, keys), through
 * forDisplay. Its type stays the schema's: call it on a reply already checked against its schema.
 */
export function displayable<T>(value: T, block = false): T {
  if (typeof value === "string") return forDisplay(fromProgram(value), block ? "lines" : undefined) as T;
  if (Array.isArray(value)) return value.map((item) => displayable(item, block)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value))
      out[forDisplay(fromProgram(key))] = displayable(field, BLOCK_FIELDS.has(key));
    return out as T;
  }
  return value;
}

/** A string from elsewhere (a remote's error, ssh's stderr), shown on one line. */
export const shownLine = (text: string): string => forDisplay(fromProgram(text));

/** The same, keeping its newlines and tabs (an error that quotes several lines). */
export const shownLines = (text: string): string => forDisplay(fromProgram(text), "lines");

/**
 * Rows read off a screen (text, run): xterm executes every C0 and C1 (a row holds none: U+009B
 * `31m` coloured, U+0085 began a line), but a bidi control lands in a cell and would reorder the
 * reader's terminal; it goes, the columns stay.
 */
export const shownRows = (rows: string[]): string[] => rows.map((row) => forDisplay(fromProgram(row), "lines"));

/**
 * Rows captured with t4a's own colours (text's `styles`, tmux's `capture-pane -e`): their escape
 * sequences are the SGR t4a wrote, and a cell holds no C0 or C1 (the terminal executed them); a
 * bidi control does land in a cell, and goes, as from shownRows.
 */
export const shownStyledRows = (rows: string[]): string[] =>
  rows.map((row) => programTextValue(fromProgram(row)).replace(BIDI, ""));
