// Blocking waits on one terminal: until idle, until text/regex appears in output that arrived
// after the wait began (never the echo of typed input), until text is gone, until a command is
// done, until exit; always bounded by a timeout. The terminal feeds it events; it decides.
import { T4aError } from "../protocol/errors.ts";
import type { InputWanted } from "./input-wanted.ts";
import type { ScreenProxy } from "./screen-pool.ts";
import { within, type Settle } from "./within.ts";

export interface WaitConditions {
  idle_ms?: number;
  text?: string;
  regex?: RegExp;
  /** text, regex: the rows on the screen when the wait begins count too. */
  screen?: boolean;
  gone?: string;
  command_done?: boolean;
  exit?: boolean;
  /** The program blocks reading the terminal (now, or once it does). */
  input?: boolean;
}

export type WaitCondition = "idle" | "text" | "regex" | "gone" | "command_done" | "exit" | "input";

export interface WaitOutcome {
  condition: WaitCondition;
  elapsed_ms: number;
  /** The matching line (text, regex) with soft wraps joined. */
  line?: string;
  /** Its first row, counted from the bottom of the viewport (negative = in the scrollback… above it). */
  row?: number;
  /** The regex match itself. */
  match?: string;
  code?: number | null;
  signal?: string | null;
  /** The process reading the terminal (input). */
  process?: string;
}

export interface CommandLine {
  from: number;
  to: { row: number; col: number } | undefined;
}

export interface WaitSource {
  readonly screen: ScreenProxy;
  readonly lastOutputAt: number;
  /** Lines recently typed into the terminal: their echo is not output. */
  readonly typedLines: readonly string[];
  /**
   * With shell integration, the rows of recent command lines as their marks place them: from the
   * prompt to where the command's output starts (the last one open while the shell still reads it).
   * Old ones count too: a scroll or a redraw reports rows as changed that were typed long ago.
   */
  readonly commandLines: readonly CommandLine[];
  /** The process reading the terminal now, if one is known to. */
  readonly inputWanted: InputWanted | undefined;
  /** The last command the shell finished, if nothing was typed after it: a wait for the next misses it. */
  readonly doneSinceInput: { code: number | null } | undefined;
}

export class Waiter {
  readonly startedAt = performance.now();
  readonly #source: WaitSource;
  readonly #conditions: WaitConditions;
  #settle!: Settle<WaitOutcome>;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #settled = false;
  /** Called once settled, so the terminal can forget this waiter. */
  onSettled: () => void = () => {};

  constructor(source: WaitSource, conditions: WaitConditions, timeoutMs: number) {
    this.#source = source;
    this.#conditions = conditions;
    this.done = within<WaitOutcome>(
      timeoutMs,
      (settle) => {
        this.#settle = settle;
        return () => {
          this.#settled = true;
          clearTimeout(this.#idleTimer);
          this.onSettled();
        };
      },
      () => {
        throw new T4aError(
          "timeout",
          `nothing matched within ${timeoutMs} ms${this.#onScreenHint()}${this.#doneHint()}`,
        );
      },
    );
    if (conditions.idle_ms !== undefined) this.#armIdle();
    if (conditions.screen && (conditions.text !== undefined || conditions.regex !== undefined)) {
      const found = this.#matchRows(viewportRows(source.screen), conditions.text, conditions.regex);
      if (found) this.#finish(found);
    }
    if (conditions.gone !== undefined && !viewportHas(source.screen, conditions.gone))
      this.#finish({ condition: "gone" });
    if (conditions.input && source.inputWanted) this.inputWanted(source.inputWanted);
  }

  readonly done: Promise<WaitOutcome>;

  get settled(): boolean {
    return this.#settled;
  }

  /** After each piece of output is parsed: look at the stable rows it changed. */
  output(changed: { first: number; last: number }): void {
    if (this.#settled) return;
    const { text, regex, gone } = this.#conditions;
    if ((text !== undefined || regex !== undefined) && changed.first <= changed.last) {
      const found = this.#matchRows(changed, text, regex);
      if (found) this.#finish(found);
    }
    if (!this.#settled && gone !== undefined && !viewportHas(this.#source.screen, gone))
      this.#finish({ condition: "gone" });
  }

  commandDone(code: number | null): void {
    if (this.#conditions.command_done) this.#finish({ condition: "command_done", code });
  }

  inputWanted(wanted: InputWanted): void {
    if (this.#conditions.input) this.#finish({ condition: "input", ...wanted });
  }

  exited(code: number | null, signal: string | null): void {
    if (this.#conditions.exit) this.#finish({ condition: "exit", code, signal });
    else this.fail(new T4aError("exited", "the terminal's program exited before the wait was satisfied"));
  }

  fail(error: T4aError): void {
    this.#settle.fail(error);
  }

  /**
   * A timed-out text or regex wait whose text is on the screen now (it came before the wait
   * began): say so, and how to match it, rather than a bare "nothing matched".
   */
  #onScreenHint(): string {
    const { text, regex, screen } = this.#conditions;
    if (screen || (text === undefined && regex === undefined)) return "";
    let found: Omit<WaitOutcome, "elapsed_ms"> | undefined;
    try {
      found = this.#matchRows(viewportRows(this.#source.screen), text, regex);
    } catch {
      return ""; // a screen that cannot be read now (its worker gone) gives no hint
    }
    if (!found) return "";
    const what = text !== undefined ? JSON.stringify(text) : `/${regex!.source}/`;
    return (
      `; ${what} is on the screen already, but --text and --regex see new output only, ` +
      "after the wait began: add --screen (wire: screen) to match the screen as it is too"
    );
  }

  /**
   * A timed-out command_done wait whose command had finished before it began (a fast command
   * after `send`): say so, and its code, rather than a bare "nothing matched".
   */
  #doneHint(): string {
    const done = this.#source.doneSinceInput;
    if (!this.#conditions.command_done || done === undefined) return "";
    return (
      `; the command typed last had finished already (exit ${done.code ?? "unknown"}), before the wait began: ` +
      "--done waits for the next one to finish (`t4a run` types a command and answers its code)"
    );
  }

  /** The first of these rows that matches, as output (a typed echo or a command line never does). */
  #matchRows(
    changed: { first: number; last: number },
    text: string | undefined,
    regex: RegExp | undefined,
  ): Omit<WaitOutcome, "elapsed_ms"> | undefined {
    const screen = this.#source.screen;
    const commandLines = this.#source.commandLines;
    for (const line of screen.logicalLines(changed.first, changed.last)) {
      let output = line.text;
      const commandLine = commandLines.findLast((candidate) => line.first >= candidate.from);
      if (commandLine) {
        // A command line that ran is never output: its rows are known by the marks around it.
        const to = commandLine.to;
        if (to !== undefined && line.first < to.row) continue;
        // A shell that marks the start before its newline leaves the line's end on that row.
        if (to !== undefined && line.first === to.row && to.col > 0) output = output.slice(to.col);
        // One still being read: its echo, whole or a wrapped piece of it, is not output either.
        const shown = output.trim();
        if (to === undefined && shown && this.#source.typedLines.some((typed) => typed.includes(shown))) continue;
      }
      output = withoutEcho(output, this.#source.typedLines);
      if (text !== undefined && output.includes(text)) {
        return { condition: "text", line: line.text, row: screen.fromBottom(line.first, "viewport") };
      }
      const found = regex?.exec(output);
      if (found) {
        return {
          condition: "regex",
          line: line.text,
          match: found[0],
          row: screen.fromBottom(line.first, "viewport"),
        };
      }
    }
    return undefined;
  }

  /** Idle means no output for idle_ms, counted from the later of the last output and the wait's start. */
  #armIdle(): void {
    const idleMs = this.#conditions.idle_ms!;
    const quietSince = Math.max(this.#source.lastOutputAt, this.startedAt);
    const remaining = quietSince + idleMs - performance.now();
    if (remaining <= 0) return this.#finish({ condition: "idle" });
    this.#idleTimer = setTimeout(() => this.#armIdle(), remaining);
  }

  #finish(outcome: Omit<WaitOutcome, "elapsed_ms">): void {
    this.#settle({ ...outcome, elapsed_ms: Math.round(performance.now() - this.startedAt) } as WaitOutcome);
  }
}

/**
 * A line with every typed line removed: `$ echo READY` minus the typed `echo READY` is `$ `. The
 * longest first: `true` typed earlier must not cut `true MARK` into a line that still says MARK.
 */
export function withoutEcho(line: string, typed: readonly string[]): string {
  let rest = line;
  const longestFirst = typed.filter((input) => input && line.includes(input)).sort((a, b) => b.length - a.length);
  for (const input of longestFirst) rest = rest.split(input).join("");
  return rest;
}

function viewportRows(screen: ScreenProxy): { first: number; last: number } {
  const bottom = screen.bottomStableRow;
  return { first: bottom - screen.rows + 1, last: bottom };
}

function viewportHas(screen: ScreenProxy, text: string): boolean {
  const { first, last } = viewportRows(screen);
  return screen.logicalLines(first, last).some((line) => line.text.includes(text));
}
