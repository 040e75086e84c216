// One session: a PTY, the screen it feeds, its events, shell-integration state, waits and runs.
// Owns all of them and tears them down in dispose(). Knows nothing of the wire beyond event shapes.
import { randomBytes } from "node:crypto";
import { readlinkSync } from "node:fs";
import { T4aError } from "../protocol/errors.ts";
import { forDisplay, fromProgram } from "../protocol/program-text.ts";
import type { TerminalEvent } from "../protocol/events.ts";
import type { SessionInfo } from "../protocol/session-info.ts";
import { SYNC_FRAME_WAIT_MS } from "../protocol/limits.ts";
import { withinBudget } from "../protocol/budget.ts";
import { ActivityTracker } from "./activity.ts";
import { Pty, type PtyExit } from "./pty.ts";
import type { Parsed } from "./screen-host.ts";
import type { ScreenPool, ScreenProxy } from "./screen-pool.ts";
import {
  canTellInputWanted,
  executableOf,
  foregroundPrograms,
  foregroundGroup,
  foregroundRuns,
  switchCount,
  InputWantedWatch,
  procStat,
  terminalReader,
  waitsKnown,
} from "./input-wanted.ts";
import { integrate, type ShellKind } from "./shell-integration.ts";
import { parseOsc133, parseOsc7777, type Mark } from "./shell-marks.ts";
import { Waiter, type CommandLine, type WaitConditions, type WaitOutcome } from "./waits.ts";
import { within } from "./within.ts";
import { bracketedPaste, PASTE_START } from "./escapes.ts";

export interface TerminalSpec {
  id: string;
  /** Where its screen parses (screen-pool.ts). */
  screens: ScreenPool;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  scrollback: number;
  /** Bytes the scrollback may take; 0 = only the row limit. */
  scrollbackBytes?: number;
  /** Quiet time before an idle event; read on every use so config changes apply. */
  idleMs: () => number;
  /** Where the shell-integration files live; undefined = never inject. */
  integrationDir?: string;
  /** Applied to the final argv and env once shell integration has been set up (a sandbox's bwrap). */
  wrap?: Wrap;
  /** Runs once the program has ended (`reason`: why t4a ended it); its fields join the exit event and info(). */
  onEnd?: (reason: string | undefined) => Promise<EndHookReport>;
  /** Told when input is written to the program (an agent's watch: the user answered). */
  onInput?: (data: string | Uint8Array) => void;
  /** Told when the shell reports a new working directory (OSC 7). */
  onCwd?: (cwd: string) => void;
  /** The size changed (after the resize is applied). */
  onResize?: (cols: number, rows: number) => void;
}

/** What the terminal itself knows of its session; the rest of SessionInfo is what t4a made of it. */
export type TerminalInfo = Pick<
  SessionInfo,
  | "id"
  | "cols"
  | "rows"
  | "pid"
  | "alive"
  | "title"
  | "cmd_args"
  | "cwd"
  | "shell_integration"
  | "exit_code"
  | "signal"
  | "answers_dropped"
  | "input_wanted"
  | "last_output_at"
  | keyof EndReport
>;

/** What a terminal's end reports: why t4a ended it (kill's reason), and what the session's cleanups kept. */
export type EndReport = Pick<SessionInfo, "reason" | "kept">;

/** What the session's end hook adds to the exit event (its reason wins: "memory_limit"). */
export type EndHookReport = EndReport;

/** Who follows a terminal's bytes as they happen: attach, the browser, a recording. */
export interface Tap {
  /** Every byte the program wrote, right after the screen took it, in order. */
  output?(chunk: Uint8Array): void;
  /** Every byte written to the program. */
  input?(data: string | Uint8Array): void;
  resize?(cols: number, rows: number): void;
  /** The terminal ended (exit reported) or was killed; no more calls follow. */
  end?(): void;
}

/** Rewrites the final argv and env before the spawn (a sandbox's bwrap); the terminal knows no more of it. */
export type Wrap = (spawn: { argv: string[]; env: Record<string, string> }) => {
  argv: string[];
  env: Record<string, string>;
};

export interface RunOutcome {
  code: number | null;
  lines: string[];
  /** Output lines the command printed, including any left out of `lines`. */
  total_lines: number;
  /** True when `lines` holds only the last lines (over the cap, or scrolled out of the scrollback). */
  truncated: boolean;
  elapsed_ms: number;
  /** The command ended the shell (`exit 3`): `code` is the shell's exit status. */
  shell_exited?: true;
}

/** What exec answers: the output since its token, and whether the command still runs. */
export interface ExecOutcome {
  /** The command's output since the token (or its start): lines joined by "\n", a partial last line as it stands. */
  output: string;
  /** Characters left out of `output` (its middle) to keep within the budget. */
  cut: number;
  /** Output lines scrolled out of the scrollback before they were read. */
  lost_lines?: number;
  running: boolean;
  /** Where the next read continues; the same command, from where this one stopped. */
  token: string;
  code?: number | null;
  shell_exited?: true;
  /** The command returned early because it waits for input: the process reading the terminal. */
  input_wanted?: string;
  /**
   * A full-screen program (vi, less) holds the terminal: `output` is its screen as it stands,
   * not output, and the token still points where output was before it (it resumes from there).
   */
  screen?: true;
  elapsed_ms: number;
}

type ShellState = "starting" | "prompt" | "running";

/** How a command typed by run or exec ended. */
interface Finished {
  code: number | null;
  output: CommandOutput;
  shellExited?: true;
  /** The shell asked for more of the line (its continuation prompt): nothing ran, the line was cancelled. */
  incomplete?: true;
}

/** The command run or exec typed last: its number, where its output starts, how it ended. */
interface TypedCommand {
  seq: number;
  /** Where the line was typed (the cursor at the prompt) and how many rows it takes there. */
  inputAt: { row: number; rows: number };
  /** Typed as one line (no newline, or one bracketed paste): a continuation prompt means it is incomplete. */
  oneLine: boolean;
  /** Stable row of its C mark, once the shell said it started. */
  startRow: number | undefined;
  finished: Finished | undefined;
  /** Resolves when it ends (undefined: the shell exited before it started). */
  done: Promise<Finished | undefined>;
  end: (finished: Finished | undefined) => void;
}

/** A place in a command's output, as a token names it: a stable row and column, or its start. */
type OutputPlace = { row: number; col: number } | "start";

/** Where a finished command's output lies: stable rows from its C mark to its D mark (and the D's column). */
interface CommandOutput {
  first: number;
  last: number;
  lastCol: number;
}

/** Command lines remembered, so their echo is never taken for output when their rows are read again. */
const COMMAND_LINES_KEPT = 200;

/**
 * Longest a `send` waits for an integrated shell to be ready (a prompt, or reading its terminal) before typing anyway.
 */
const SEND_PROMPT_WAIT_MS = 60_000;

/** Longest a `send` waits for a shell to take a line typed at its prompt before typing what follows it. */
const LINE_TAKEN_WAIT_MS = 5_000;

/** Longest a `send` waits, after a line started, for a job of it to hold the terminal. */
const FOREGROUND_WAIT_MS = 1_000;

/** The program a process runs (its executable), or undefined once it is gone. */
function exeOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

/** Whether a part of a send begins with `prefix` (ASCII), as text or as bytes. */
function startsWith(part: string | Uint8Array, prefix: string): boolean {
  if (typeof part === "string") return part.startsWith(prefix);
  return part.length >= prefix.length && [...prefix].every((char, i) => part[i] === char.charCodeAt(0));
}

/** Where the first line ends (Enter is CR, a typed newline LF), or -1. */
function lineEnd(part: string | Uint8Array): number {
  if (typeof part === "string") return part.search(/[\r\n]/);
  const cr = part.indexOf(0x0d);
  const lf = part.indexOf(0x0a);
  return cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
}

/** Resizes closer together than this collapse into the last one. */
const RESIZE_FRAME_MS = 50;
/**
 * And a resize that took long (an archive full of long lines to rewrap: ~80 ms at 10 000 lines)
 * waits this many times its cost before the next: a window being dragged then takes at most a
 * third of its worker's time, and the other sessions there are still answered.
 */
const RESIZE_COST_SPACING = 2;

/**
 * A half-typed line's Ctrl-C waits (checking every CANCEL_CHECK_MS) until the shell reads keys at
 * its continuation prompt, at most this long; then it is sent anyway.
 */
const CANCEL_WAIT_MS = 2000;
const CANCEL_CHECK_MS = 5;

/** How many recently typed lines are remembered to tell their echo from real output. */
const TYPED_LINES_KEPT = 32;

/** A control sequence a client may type with its text (an arrow, a bracketed paste's ends): no part of a line. */
const CSI = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/** How many lines entered (Enter typed on the normal screen) are remembered for the acting guards. */
const ENTERED_LINES_KEPT = 64;

export class Terminal {
  readonly id: string;
  readonly argv: string[];
  /** The program's environment as given (recordings name its TERM and SHELL). */
  readonly env: Record<string, string>;
  /** The shell's directory as it last reported it (OSC 7), else where the program started. */
  cwd: string;
  readonly screen: ScreenProxy;
  readonly shell: ShellKind | null;
  readonly #pty: Pty;
  readonly #activity: ActivityTracker;
  readonly #inputWanted: InputWantedWatch;
  readonly #emit: (event: TerminalEvent) => void;
  readonly #nonce = randomBytes(8).toString("hex");
  #exit: PtyExit | null = null;
  readonly #onEnd: TerminalSpec["onEnd"];
  readonly #onInput: ((data: string | Uint8Array) => void) | undefined;
  /** The size asked for last, not yet applied (see resize). */
  #wantedSize: { cols: number; rows: number } | undefined;
  #resizeFrame: ReturnType<typeof setTimeout> | undefined;
  /** When the next resize may apply (see resize). */
  #nextResizeAt = 0;
  readonly #onResize: ((cols: number, rows: number) => void) | undefined;
  readonly #taps = new Set<Tap>();
  /** Bytes of output the screen has taken: a stream's replay is the screen at this count. */
  #bytesOut = 0;
  /** What onEnd reported, once the exit event has gone out. */
  #endReport: EndReport = {};
  #killReason: string | undefined;
  readonly #ended: Promise<void>;
  #resolveEnded!: () => void;
  #syncWaiters: Array<() => void> = [];
  #waiters = new Set<Waiter>();
  #typedLines: string[] = [];
  /** Lines entered on the normal screen, oldest first: its row up to the cursor and what was typed, and who read it. */
  #enteredLines: { line: string; typed: string; group: number | undefined }[] = [];
  /** The last command_done and whether anything was written after it (a wait's hint). */
  #lastDone: { code: number | null; inputAfter: boolean } | undefined;
  #shellState: ShellState = "starting";
  #sawCommandStart = false;
  /** Stable row of the running command's C mark: its output starts there. */
  #commandStart = { row: 0 };
  #promptWaiters: Array<() => void> = [];
  /** The command run or exec typed last, and how many were typed. */
  #typed: TypedCommand | undefined;
  #typedCount = 0;
  /** The last `send` delivered: the next goes after it. */
  #sending: Promise<void> = Promise.resolve();
  #gaveUpOnPrompt = false;
  #gaveUpOnLines = false;
  #markListeners = new Set<() => void>();
  /** Recent command lines' rows by the marks: a prompt's row, and where its output starts (C); the last may be open. */
  #commandLines: CommandLine[] = [];
  /** Told when the program comes to read the terminal (exec returns early then). */
  #inputListeners = new Set<(process: string) => void>();

  /** Throws when the program cannot be spawned. */
  constructor(spec: TerminalSpec, emit: (event: TerminalEvent) => void) {
    this.id = spec.id;
    this.argv = spec.argv;
    this.env = spec.env;
    this.cwd = spec.cwd;
    this.#emit = emit;
    this.#onEnd = spec.onEnd;
    this.#onInput = spec.onInput;
    this.#onResize = spec.onResize;
    this.#ended = new Promise((resolve) => (this.#resolveEnded = resolve));
    this.screen = spec.screens.open(
      { cols: spec.cols, rows: spec.rows, scrollback: spec.scrollback, scrollbackBytes: spec.scrollbackBytes },
      {
        reply: (data, answers) => this.#pty?.answer(data, answers),
        title: (title) => emit({ event: "title", terminal: this.id, title: forDisplay(title) }),
        bell: () => emit({ event: "bell", terminal: this.id }),
        osc: {
          133: (payload, at) => this.#mark(parseOsc133(payload), at),
          // OSC 7 file://host/path: the shell's directory, reported at each prompt.
          7: (payload) => {
            const match = /^file:\/\/[^/]*(\/.*)$/.exec(payload);
            if (!match) return;
            let path = match[1]!;
            try {
              path = decodeURIComponent(path);
            } catch {
              // Not URL-encoded (our own hooks print the path as it is).
            }
            if (path !== this.cwd) {
              this.cwd = path;
              spec.onCwd?.(path);
            }
          },
          7777: (payload, at) => this.#mark(parseOsc7777(payload), at),
        },
        parsed: (parsed) => this.#parsed(parsed),
      },
    );
    const env = { ...spec.env, T4A_TERMINAL: spec.id };
    const integrated = spec.integrationDir
      ? integrate({ argv: spec.argv, env }, spec.integrationDir, this.#nonce)
      : undefined;
    this.shell = integrated?.shell ?? null;
    this.#activity = new ActivityTracker(
      spec.idleMs,
      (afterMs) => emit({ event: "idle", terminal: this.id, after_ms: afterMs }),
      () => emit({ event: "activity", terminal: this.id }),
    );
    this.#inputWanted = new InputWantedWatch(
      () => this.#pty.pid,
      () => fromProgram(this.#cursorLine()),
      (wanted) => {
        emit({ event: "input_wanted", terminal: this.id, ...wanted });
        for (const waiter of this.#waiters) waiter.inputWanted(wanted);
        for (const listener of [...this.#inputListeners]) listener(wanted.process);
      },
    );
    const unwrapped = { argv: integrated?.spawn.argv ?? spec.argv, env: integrated?.spawn.env ?? env };
    const spawn = spec.wrap ? spec.wrap(unwrapped) : unwrapped;
    try {
      this.#pty = new Pty({
        argv: spawn.argv,
        cwd: spec.cwd,
        env: spawn.env,
        cols: spec.cols,
        rows: spec.rows,
        onData: (chunk) => this.#output(chunk),
        unparsed: () => this.screen.unparsed,
        onExit: (exit) => this.#exited(exit),
      });
    } catch (error) {
      this.#activity.dispose();
      this.#inputWanted.dispose();
      this.screen.dispose();
      throw error;
    }
  }

  get pid(): number {
    return this.#pty.pid;
  }

  /** Whether the program is blocked reading the terminal; undefined where the kernel cannot tell. */
  get inputWanted(): boolean | undefined {
    return canTellInputWanted ? this.#inputWanted.wanted !== undefined : undefined;
  }

  /**
   * The process reading the terminal now and the file name of the program it runs: null when nothing reads it (busy,
   * asleep), undefined where it cannot be told (not Linux).
   */
  reader(): { pid: number; executable: string | undefined } | null | undefined {
    const reader = terminalReader(this.pid);
    return reader ? { pid: reader.pid, executable: executableOf(reader.pid) } : reader;
  }

  /** The processes of the terminal's foreground group; undefined when it cannot be told. */
  foregroundGroup(): number[] | undefined {
    return foregroundGroup(this.pid);
  }

  /** Bytes sent to the program that it has not read yet; undefined when unknown (pty.ts unreadInput). */
  unreadInput(): number | undefined {
    return this.#pty.unreadInput();
  }

  /** Whether what the foreground group's threads wait in can be read, so that "nobody reads" is known (waitsKnown). */
  waitsKnown(): boolean {
    return waitsKnown(this.pid);
  }

  /** How many times a process's threads gave up the CPU (input-wanted.ts switchCount). */
  switchCount(pid: number): number | undefined {
    return switchCount(pid);
  }

  /** Whether a thread of the terminal's foreground group runs now (input-wanted.ts foregroundRuns). */
  foregroundRuns(): boolean | undefined {
    return foregroundRuns(this.pid);
  }

  /** The programs of the terminal's foreground process group (input-wanted.ts foregroundPrograms). */
  foregroundPrograms(): ReturnType<typeof foregroundPrograms> {
    return foregroundPrograms(this.pid);
  }

  /** Whether a process still runs (not gone, not a zombie). */
  running(pid: number): boolean {
    const state = procStat(pid)?.state;
    return state !== undefined && state !== "Z" && state !== "X";
  }

  get alive(): boolean {
    return this.#exit === null;
  }

  info(): TerminalInfo {
    const info: TerminalInfo = {
      id: this.id,
      cols: this.screen.cols,
      rows: this.screen.rows,
      pid: this.pid,
      alive: this.alive,
      title: forDisplay(this.screen.title),
      cmd_args: this.argv,
      // The directory its OSC 7 named, escape bytes and all (`%1b[2J` decodes to ESC [2J).
      cwd: forDisplay(fromProgram(this.cwd)),
      shell_integration: this.shell,
      last_output_at: Math.round(Date.now() - (performance.now() - this.#activity.lastOutputAt)),
    };
    // Answers to device queries the program asked but never read: a sign it floods queries.
    if (this.#pty.droppedAnswers) info.answers_dropped = this.#pty.droppedAnswers;
    if (this.#inputWanted.wanted) info.input_wanted = this.#inputWanted.wanted.process;
    if (this.#exit) {
      info.exit_code = this.#exit.code;
      info.signal = this.#exit.signal;
      Object.assign(info, this.#endReport);
    }
    return info;
  }

  /**
   * Input a client sends (`send`), in the order sent. An integrated shell still starting gets it
   * once it is ready: its first prompt mark, or (a prompt hook its rc replaced) once it reads its
   * terminal. Typed earlier, a Ctrl-C that follows would reach the shell while it reads its
   * startup files, and the terminal would flush the line before it.
   */
  send(parts: Array<string | Uint8Array>): Promise<void> {
    const deliver = async () => {
      if (this.shell && this.#shellState === "starting" && this.alive && !this.#gaveUpOnPrompt) {
        const ready = await within<boolean>(
          SEND_PROMPT_WAIT_MS,
          (settle) => {
            this.#promptWaiters.push(() => settle(true));
            if (this.#inputWanted.wanted) settle(true);
            const reading = () => settle(true);
            this.#inputListeners.add(reading);
            return () => this.#inputListeners.delete(reading);
          },
          () => false,
        );
        // Waited for once at most: a shell that neither prompts nor reads is typed into from then on.
        if (!ready) this.#gaveUpOnPrompt = true;
      }
      for (const part of parts) await this.#typeAtPrompt(part);
    };
    const sent = this.#sending.then(deliver);
    this.#sending = sent;
    return sent;
  }

  /**
   * One part of a `send`. A line ended at an integrated shell's prompt is taken before what follows
   * it is typed: its next mark (the command starting, a new prompt, a continuation). Typed at once,
   * a Ctrl-C after `sleep 100\n` reaches the terminal while the shell still reads the line, and the
   * terminal flushes the line instead of stopping the command.
   */
  async #typeAtPrompt(part: string | Uint8Array): Promise<void> {
    if (startsWith(part, PASTE_START)) return this.write(part);
    let rest = part;
    while (this.alive && rest.length > 0) {
      const end = this.shell && this.#shellState === "prompt" && !this.#gaveUpOnLines ? lineEnd(rest) : -1;
      if (end < 0) return this.write(rest);
      this.write(rest.slice(0, end + 1));
      rest = rest.slice(end + 1);
      const taken = await within<boolean>(
        LINE_TAKEN_WAIT_MS,
        (settle) => {
          const marked = () => settle(true);
          this.#markListeners.add(marked);
          return () => this.#markListeners.delete(marked);
        },
        () => false,
      );
      // A shell that marks nothing after a line (its hooks replaced) is typed into at once from then on.
      if (!taken) this.#gaveUpOnLines = true;
      else if (this.#shellState === "running") await this.#untilCommandHoldsTerminal();
    }
  }

  /**
   * A line started (its C mark): until a program it runs holds the terminal, the command ends or
   * reads it, a moment at most. A Ctrl-C before that reaches the shell, or its child between fork
   * and exec while the shell's handler is still set, and the program (`sleep 100`) runs on untouched.
   */
  async #untilCommandHoldsTerminal(): Promise<void> {
    const until = performance.now() + FOREGROUND_WAIT_MS;
    const shellExe = exeOf(this.#pty.pid);
    while (this.alive && this.#shellState === "running" && !this.#inputWanted.wanted && performance.now() < until) {
      const shell = procStat(this.#pty.pid);
      if (!shell || (shell.tpgid !== shell.pgrp && exeOf(shell.tpgid) !== shellExe)) return;
      await Bun.sleep(5);
    }
  }

  /**
   * A line end typed on the normal screen: the cursor's row up to the cursor (the prompt, what was typed at it so far)
   * and the text typed before each line end, remembered with the foreground process group that read it. A program's
   * output can clear a row, push it past the scrollback or draw over it; it cannot take back a line entered. `text` is
   * the input as write() shows it, its control sequences taken out.
   */
  #enter(text: string): void {
    if (!this.alive || this.screen.alternate) return;
    const { row, col } = this.screen.cursor();
    const rows = this.screen.rows;
    const shown = this.screen.lines("viewport", rows - 1 - row, rows - row, false)[0] ?? "";
    const group = procStat(this.#pty.pid)?.tpgid;
    // (Each line of one input after the cursor's prompt: a REPL draws the same prompt again before the next, and a
    // paste's second command is read there as its first was.)
    for (const typed of text.split(/\r\n|[\r\n]/).slice(0, -1)) {
      const line = `${shown.slice(0, col)}${typed}`.trimEnd();
      if (line.trim()) this.#enteredLines.push({ line, typed, group });
    }
    if (this.#enteredLines.length > ENTERED_LINES_KEPT)
      this.#enteredLines.splice(0, this.#enteredLines.length - ENTERED_LINES_KEPT);
  }

  /**
   * The lines entered on the normal screen (`#enter`), oldest first, that the foreground process group holding the
   * terminal now read (all of them where that cannot be told): the commands a REPL took, though its output erased them.
   * Each is its row up to the cursor and what was typed (`line`), and what was typed alone (`typed`).
   */
  enteredLines(): { line: string; typed: string }[] {
    const group = procStat(this.#pty.pid)?.tpgid;
    return this.#enteredLines
      .filter((entered) => group === undefined || entered.group === undefined || entered.group === group)
      .map(({ line, typed }) => ({ line, typed }));
  }

  /** Input as typed; lines of text input are remembered so waits can ignore their echo. */
  write(data: string | Uint8Array): void {
    if (typeof data === "string") {
      // As the screen shows them: without the bracketed-paste markers and other sequences around them.
      const shown = data.replace(CSI, "");
      for (const line of shown.split(/[\r\n]+/)) if (line.trim()) this.#typedLines.push(line);
      if (this.#typedLines.length > TYPED_LINES_KEPT)
        this.#typedLines.splice(0, this.#typedLines.length - TYPED_LINES_KEPT);
      if (/[\r\n]/.test(shown)) this.#enter(shown);
    }
    this.#pty.write(data);
    if (this.#lastDone) this.#lastDone.inputAfter = true;
    this.#inputWanted.activity();
    this.#onInput?.(data);
    for (const tap of this.#taps) tap.input?.(data);
  }

  /**
   * A resize rewraps the scrollback's long lines (up to ~80 ms at 10 000 lines that all wrap, on
   * the screen's worker), so a window being dragged or a client sending resizes as fast as it can
   * would keep that worker's sessions waiting: the first one applies at once, and those that
   * follow within a frame (longer after a costly one) collapse into the last of them. A read
   * (settled) applies one held back, so it sees the size asked for.
   */
  resize(cols: number, rows: number): void {
    this.#wantedSize = { cols, rows };
    const wait = this.#nextResizeAt - performance.now();
    if (wait <= 0) this.#applyWantedSize();
    else
      this.#resizeFrame ??= setTimeout(() => {
        this.#resizeFrame = undefined;
        if (this.#wantedSize) this.resize(this.#wantedSize.cols, this.#wantedSize.rows);
      }, wait);
  }

  #applyWantedSize(): void {
    const wanted = this.#wantedSize;
    this.#wantedSize = undefined;
    clearTimeout(this.#resizeFrame);
    this.#resizeFrame = undefined;
    if (!wanted || !this.alive || (wanted.cols === this.screen.cols && wanted.rows === this.screen.rows)) return;
    const { cols, rows } = wanted;
    const started = performance.now();
    this.#nextResizeAt = started + RESIZE_FRAME_MS;
    // Twice what it cost its worker, once that is known, if longer than the frame.
    this.screen.resize(cols, rows).then(
      (cost) => (this.#nextResizeAt = Math.max(this.#nextResizeAt, performance.now() + cost * RESIZE_COST_SPACING)),
      () => undefined,
    );
    this.#pty.resize(cols, rows);
    for (const tap of this.#taps) tap.resize?.(cols, rows);
    this.#onResize?.(cols, rows);
  }

  /**
   * Follow the terminal from this exact byte on. A screen read answers for every byte handed to
   * the screen, so the screen read in the same turn as the tap starts is the screen at `bytesOut`:
   * a replay of it plus the tapped bytes is the whole output, with no gap and no byte twice.
   */
  tap(tap: Tap): () => void {
    this.#taps.add(tap);
    return () => this.#taps.delete(tap);
  }

  get bytesOut(): number {
    return this.#bytesOut;
  }

  /**
   * Resolves when the screen is whole: at the size asked for last, and with no synchronized-output
   * frame (DEC 2026) open: a program inside one has not finished drawing, so readers wait for it
   * to close (bounded).
   */
  async settled(): Promise<void> {
    this.#applyWantedSize();
    if (!this.screen.inSyncFrame || !this.alive) return;
    await within<void>(
      SYNC_FRAME_WAIT_MS,
      (settle) => void this.#syncWaiters.push(() => settle()),
      () => undefined,
    );
  }

  wait(conditions: WaitConditions, timeoutMs: number): Promise<WaitOutcome> {
    if (conditions.input && !canTellInputWanted)
      throw new T4aError("unsupported", "input wanted is known only on Linux (from /proc)");
    if (!this.alive) {
      if (conditions.exit)
        return Promise.resolve({
          condition: "exit",
          elapsed_ms: 0,
          code: this.#exit!.code,
          signal: this.#exit!.signal,
        });
      throw new T4aError("exited", `terminal "${this.id}" has exited`);
    }
    const terminal = this;
    const waiter = new Waiter(
      {
        screen: this.screen,
        get lastOutputAt() {
          return terminal.#activity.lastOutputAt;
        },
        get typedLines() {
          return terminal.#typedLines;
        },
        get commandLines() {
          return terminal.#commandLines;
        },
        get inputWanted() {
          return terminal.#inputWanted.wanted;
        },
        get doneSinceInput() {
          const done = terminal.#lastDone;
          return done && !done.inputAfter && terminal.#shellState !== "running" ? { code: done.code } : undefined;
        },
      },
      conditions,
      timeoutMs,
    );
    if (!waiter.settled) {
      this.#waiters.add(waiter);
      waiter.onSettled = () => this.#waiters.delete(waiter);
    }
    return waiter.done;
  }

  /**
   * Type a command into the integrated shell and wait for it to finish: its exit code and
   * the lines it printed (between the C and D marks, from the scrollback if they scrolled).
   */
  async run(command: string, timeoutMs: number, maxLines: number): Promise<RunOutcome> {
    const started = performance.now();
    const typed = await this.#type(command, timeoutMs);
    const remaining = Math.max(1, timeoutMs - (performance.now() - started));
    const finished = await within<Finished | undefined>(
      remaining,
      (settle) => void typed.done.then(settle),
      () => undefined,
    );
    if (!finished) {
      if (!this.alive) throw new T4aError("exited", `terminal "${this.id}" exited before the command finished`);
      throw new T4aError("timeout", `the command did not finish within ${timeoutMs} ms (it is still running)`);
    }
    if (finished.incomplete) throw this.#incomplete(finished);
    const outcome: RunOutcome = {
      code: finished.code,
      ...this.#outputLines(finished.output, maxLines),
      elapsed_ms: Math.round(performance.now() - started),
    };
    if (finished.shellExited) {
      outcome.shell_exited = true;
      // bash says `exit` (or `logout`) as an interactive shell leaves; `ssh host 'cmd; exit 3'` does not.
      if (this.shell === "bash" && /^(exit|logout)$/.test(outcome.lines.at(-1) ?? "")) {
        outcome.lines.pop();
        outcome.total_lines--;
      }
    }
    return outcome;
  }

  /**
   * Type a command and return when it ends, when it waits for input, or when `yieldMs` passes,
   * whichever comes first, with its output so far and a token to continue from (the shape of
   * Codex's exec_command): a client with a short tool limit never blocks past it.
   */
  async exec(command: string, yieldMs: number, maxChars: number): Promise<ExecOutcome> {
    const started = performance.now();
    const typed = await this.#type(command, yieldMs);
    return this.#yield(typed, "start", Math.max(1, yieldMs - (performance.now() - started)), maxChars, started);
  }

  /** Continue an exec from its token: write `input` (if any), then yield as exec does. */
  async execContinue(
    token: string,
    input: string | undefined,
    yieldMs: number,
    maxChars: number,
  ): Promise<ExecOutcome> {
    const started = performance.now();
    const match = /^(\d+)\.(?:start|(\d+)\.(\d+))$/.exec(token);
    if (!match) throw new T4aError("invalid_params", `not an exec token: ${JSON.stringify(token)}`);
    const typed = this.#typed;
    if (!typed || typed.seq !== Number(match[1])) {
      throw new T4aError(
        "not_found",
        `token ${token} is not of the command typed last in terminal "${this.id}" (another command started since?)`,
      );
    }
    const place: OutputPlace = match[2] === undefined ? "start" : { row: Number(match[2]), col: Number(match[3]) };
    if (input !== undefined && input !== "") {
      if (typed.finished || !this.alive)
        throw new T4aError("exited", "the command has ended: nothing reads that input");
      this.write(input);
    }
    return this.#yield(typed, place, yieldMs, maxChars, started);
  }

  /** Types a command line into the integrated shell at its prompt (waiting for a shell still starting). */
  async #type(command: string, timeoutMs: number): Promise<TypedCommand> {
    if (!this.shell) {
      throw new T4aError(
        "unsupported",
        `terminal "${this.id}" has no shell integration; run and exec need bash, zsh or fish started by t4a`,
      );
    }
    if (this.#shellState !== "prompt") {
      if (this.#shellState === "running")
        throw new T4aError("busy", `terminal "${this.id}" is still running a command`);
      await this.#untilPrompt(timeoutMs);
    }
    const text = command.replace(/\n+$/, "");
    // fish has no continuation prompt to mark (an incomplete line just grows): its own parser
    // says first, and nothing is typed.
    if (this.shell === "fish") await refuseIncompleteFish(text);
    const { promise: done, resolve } = Promise.withResolvers<Finished | undefined>();
    const bracketed = this.screen.bracketedPaste;
    const cursor = this.screen.cursor();
    const typed: TypedCommand = {
      seq: ++this.#typedCount,
      inputAt: {
        row: this.screen.cursorStableRow(),
        rows: Math.floor((cursor.col + Bun.stringWidth(text)) / Math.max(1, this.screen.cols)) + 1,
      },
      oneLine: bracketed || !text.includes("\n"),
      startRow: undefined,
      finished: undefined,
      done,
      end: (finished) => {
        typed.finished = finished;
        resolve(finished);
      },
    };
    this.#typed = typed;
    // Bracketed paste keeps a multi-line command one command, and stops readline from acting on its characters.
    this.write(`${bracketed ? bracketedPaste(text) : text}\r`);
    return typed;
  }

  /** Waits for the command's end, its reading the terminal, or the yield; answers its output since `place`. */
  async #yield(
    typed: TypedCommand,
    place: OutputPlace,
    yieldMs: number,
    maxChars: number,
    started: number,
  ): Promise<ExecOutcome> {
    let reader = this.#inputWanted.wanted?.process;
    if (!typed.finished && reader === undefined && this.alive) {
      reader = await within<string | undefined>(
        yieldMs,
        (settle) => {
          void typed.done.then(() => settle(undefined));
          const listener = (process: string) => settle(process);
          this.#inputListeners.add(listener);
          return () => this.#inputListeners.delete(listener);
        },
        () => undefined,
      );
    }
    // Output handed over but not parsed may hold the command's end: apply it before looking.
    this.screen.catchUp();
    const finished = typed.finished;
    if (finished?.incomplete) throw this.#incomplete(finished);
    if (!finished && this.alive && this.screen.alternate) {
      // No output to read on the alternate screen: what a person sees is the program's screen.
      const budgeted = withinBudget(
        this.screen.lines("viewport", 0, this.screen.rows, true).join("\n").replace(/\n+$/, ""),
        maxChars,
      );
      const token = `${typed.seq}.${place === "start" ? "start" : `${place.row}.${place.col}`}`;
      const outcome: ExecOutcome = {
        output: budgeted.text,
        cut: budgeted.cut,
        running: true,
        token,
        screen: true,
        elapsed_ms: Math.round(performance.now() - started),
      };
      if (reader !== undefined) outcome.input_wanted = reader;
      return outcome;
    }
    const start =
      place === "start" ? (typed.startRow === undefined ? undefined : { row: typed.startRow, col: 0 }) : place;
    const end = finished
      ? { row: finished.output.last, col: finished.output.lastCol }
      : { row: this.screen.cursorStableRow(), col: this.screen.cursor().col };
    const read = start ? this.#outputBetween(start, end) : { text: "", lost: 0 };
    const budgeted = withinBudget(read.text, maxChars);
    const outcome: ExecOutcome = {
      output: budgeted.text,
      cut: budgeted.cut,
      running: !finished && this.alive,
      token: `${typed.seq}.${start ? `${end.row}.${end.col}` : "start"}`,
      elapsed_ms: Math.round(performance.now() - started),
    };
    if (read.lost) outcome.lost_lines = read.lost;
    if (finished) {
      outcome.code = finished.code;
      if (finished.shellExited) outcome.shell_exited = true;
    } else if (reader !== undefined && this.alive) outcome.input_wanted = reader;
    return outcome;
  }

  /**
   * The text between two places of the screen, rows joined by newlines (soft wraps joined without
   * one): what a command printed there. A last row holding nothing before `end` is not a line.
   */
  #outputBetween(
    start: { row: number; col: number },
    end: { row: number; col: number },
  ): { text: string; lost: number } {
    let text = "";
    let lost = 0;
    const last = end.col === 0 && end.row > start.row ? { row: end.row - 1 } : end;
    this.screen.rowsBetween(start, last).forEach((row, index) => {
      if (!row) {
        lost++;
        return;
      }
      if (index > 0 && !row.wrapped) text += "\n";
      text += row.text;
    });
    // The cursor at the start of a new row: the last line ended.
    if (end.col === 0 && end.row > start.row) text += "\n";
    return { text, lost };
  }

  /** Ends the process tree; resolves after the exit event (and what the session's end reported). */
  async kill(graceMs: number, reason?: string): Promise<EndReport> {
    if (this.alive) this.#killReason = reason;
    await this.#pty.kill(graceMs);
    await this.#ended;
    return this.#endReport;
  }

  /** Whether the program reads its input a line at a time (its terminal is in canonical mode). */
  get readsLines(): boolean {
    return this.#pty.readsLines;
  }

  /**
   * The session's shell, its integration's marks say (this session's nonce on each), is at its prompt: it reads the
   * next command line, and every row above is what commands printed.
   */
  get atShellPrompt(): boolean {
    return this.shell !== null && this.#shellState === "prompt";
  }

  /** The tty echoes what is typed (a password prompt turns it off). */
  get echoes(): boolean {
    return this.#pty.echoes;
  }

  dispose(): void {
    clearTimeout(this.#resizeFrame);
    for (const tap of [...this.#taps]) tap.end?.();
    this.#taps.clear();
    this.#releaseSyncWaiters();
    this.#activity.dispose();
    this.#inputWanted.dispose();
    for (const waiter of this.#waiters) waiter.fail(new T4aError("not_found", `terminal "${this.id}" was killed`));
    this.screen.dispose();
  }

  #output(chunk: Uint8Array): void {
    this.screen.write(chunk);
    this.#bytesOut += chunk.length;
    for (const tap of this.#taps) tap.output?.(chunk);
    this.#activity.output();
    this.#inputWanted.activity();
  }

  /** The screen has parsed a piece of output (in order, after its marks). */
  #parsed(parsed: Parsed): void {
    this.#pty?.parsed();
    if (this.#syncWaiters.length && !parsed.inSyncFrame) this.#releaseSyncWaiters();
    for (const waiter of this.#waiters) waiter.output(parsed);
  }

  /**
   * All output has been handed to the screen: what it makes of it comes first. Waited for without
   * blocking the daemon: a flood's backlog can keep its worker busy for a while.
   */
  #exited(exit: PtyExit): void {
    void this.screen.whenParsed().then(() => this.#afterExit(exit));
  }

  #afterExit(exit: PtyExit): void {
    this.#exit = exit;
    this.#activity.dispose();
    this.#inputWanted.dispose();
    this.#releaseSyncWaiters();
    this.#releasePromptWaiters();
    this.#inputListeners.clear();
    // A typed command may end the shell itself (`exit 3`), as `ssh host 'cmd; exit 3'` does: then
    // its output is what came after it started, and its code the shell's.
    const typed = this.#typed;
    if (typed && !typed.finished) {
      if (this.#shellState === "running") {
        const output = {
          first: typed.startRow ?? this.#commandStart.row,
          last: this.screen.cursorStableRow(),
          lastCol: this.screen.cursor().col,
        };
        typed.end({ code: exit.code, output, shellExited: true });
      } else typed.end(undefined);
    }
    for (const waiter of this.#waiters) waiter.exited(exit.code, exit.signal);
    void this.#report(exit);
  }

  /** The exit event, after the session's end hook (a worktree cleanup) says what it kept. */
  async #report(exit: PtyExit): Promise<void> {
    let report: EndHookReport = {};
    try {
      report = (await this.#onEnd?.(this.#killReason)) ?? {};
    } catch (error) {
      console.error(`t4a daemon: ending terminal "${this.id}" failed:`, error);
    }
    this.#endReport = { ...(this.#killReason ? { reason: this.#killReason } : {}), ...report };
    this.#emit({
      event: "exit",
      terminal: this.id,
      code: exit.code,
      ...(exit.signal ? { signal: exit.signal } : {}),
      ...this.#endReport,
    });
    this.#resolveEnded();
    for (const tap of [...this.#taps]) tap.end?.();
    this.#taps.clear();
  }

  /**
   * A shell-integration mark, with the cursor where it stood at that place in the output (the
   * worker reports it so, in order with the rest).
   * With injected integration only marks carrying this session's nonce count, so a program
   * printing `\e]133;D;0\a` cannot end a command; without it, native OSC 133 is trusted.
   */
  #mark(mark: Mark | undefined, at: { row: number; col: number }): void {
    if (!mark) return;
    if (this.shell && mark.nonce !== this.#nonce) return;
    for (const listener of [...this.#markListeners]) listener();
    const { row } = at;
    if (mark.kind === "prompt" || mark.kind === "input") {
      if (this.#shellState !== "running") {
        // A prompt opens the next command line (a multi-line prompt: from its first row).
        const last = this.#commandLines.at(-1);
        if (last?.to === undefined && last !== undefined) {
          if (mark.kind === "prompt") last.from = row; // a prompt drawn again (a redraw): the same line
        } else {
          this.#commandLines.push({ from: row, to: undefined });
          if (this.#commandLines.length > COMMAND_LINES_KEPT) this.#commandLines.shift();
        }
        this.#shellState = "prompt";
        this.#releasePromptWaiters();
      }
      return;
    }
    const typed = this.#typed;
    const unstarted = typed && !typed.finished && typed.startRow === undefined ? typed : undefined;
    if (mark.kind === "continuation") {
      // The shell wants more of a line run or exec typed (an open quote, `a((`): it would wait
      // forever. Cancelled (Ctrl-C drops the half line), and the run fails with the shell's words.
      if (unstarted?.oneLine) {
        this.#cancelLine();
        // The next line waits for the prompt the cancel brings (its done mark is the cancel's, not the line's).
        this.#shellState = "starting";
        unstarted.end({
          code: null,
          output: { first: unstarted.inputAt.row, last: row, lastCol: at.col },
          incomplete: true,
        });
      }
      return;
    }
    if (mark.kind === "command_start") {
      this.#shellState = "running";
      this.#sawCommandStart = true;
      this.#commandStart = { row };
      const open = this.#commandLines.at(-1);
      if (open && open.to === undefined) open.to = { row, col: at.col };
      if (this.#typed && this.#typed.startRow === undefined && !this.#typed.finished) this.#typed.startRow = row;
      this.#emit({ event: "command_start", terminal: this.id });
      return;
    }
    // A done mark ends a command we saw start; shells that only send done marks (the seed's
    // OSC 7777 hook) count too. A done without a start (an empty command line) is no command,
    // unless it follows a line run or exec typed: the shell read it and ran nothing (a syntax
    // error), and says why in the rows below it.
    if (this.#shellState !== "running" && unstarted && mark.code !== undefined) {
      const first = unstarted.inputAt.row + unstarted.inputAt.rows;
      unstarted.end({ code: mark.code, output: { first: Math.min(first, row), last: row, lastCol: at.col } });
      return;
    }
    if (this.#shellState !== "running" && this.#sawCommandStart) return;
    const wasRunning = this.#shellState === "running";
    this.#shellState = "prompt";
    this.#releasePromptWaiters();
    const code = mark.code ?? null;
    this.#emit({ event: "command_done", terminal: this.id, code });
    this.#lastDone = { code, inputAfter: false };
    for (const waiter of this.#waiters) waiter.commandDone(code);
    if (wasRunning && typed && !typed.finished && typed.startRow !== undefined) {
      typed.end({ code, output: { first: typed.startRow, last: row, lastCol: at.col } });
    }
  }

  /**
   * Ctrl-C for a line the shell wants more of, once the shell waits for keys at its continuation
   * prompt. Its mark comes as the prompt is drawn, and zsh draws it before its line editor reads:
   * a Ctrl-C in between was taken as a signal and lost, and zsh stayed at `dquote>` (1 session in
   * 12 with three at once on a busy machine). Where reading cannot be told, it is sent at once.
   */
  #cancelLine(): void {
    const deadline = performance.now() + CANCEL_WAIT_MS;
    const attempt = () => {
      if (!this.alive) return;
      if (performance.now() < deadline && terminalReader(this.#pty.pid) === null) {
        setTimeout(attempt, CANCEL_CHECK_MS);
        return;
      }
      this.write("\x03");
    };
    attempt();
  }

  /** The error for a typed line the shell wanted more of: its continuation prompt's words. */
  #incomplete(finished: Finished): T4aError {
    const prompt = this.screen
      .rowsBetween({ row: finished.output.last, col: 0 }, { row: finished.output.last })[0]
      ?.text.trim();
    return new T4aError(
      "invalid_params",
      `the command is incomplete: the shell asked for more of it${prompt ? ` (${JSON.stringify(prompt)})` : ""}, ` +
        "so nothing ran and the line was cancelled",
    );
  }

  /** A shell still starting: wait for its first prompt mark (or its exit, or the timeout). */
  async #untilPrompt(timeoutMs: number): Promise<void> {
    const prompted = await within<boolean>(
      timeoutMs,
      (settle) => void this.#promptWaiters.push(() => settle(true)),
      () => false,
    );
    if (!this.alive) throw new T4aError("exited", `terminal "${this.id}" has exited`);
    if (!prompted) throw new T4aError("timeout", `the shell showed no prompt within ${timeoutMs} ms`);
  }

  #releasePromptWaiters(): void {
    const waiters = this.#promptWaiters;
    this.#promptWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The command's output rows as logical lines (soft wraps joined), capped to the last `maxLines`. */
  #outputLines(output: CommandOutput, maxLines: number): Omit<RunOutcome, "code" | "elapsed_ms"> {
    // The D mark sits where the prompt begins: its row holds output only left of the cursor.
    const lastRow = output.lastCol > 0 ? output.last : output.last - 1;
    const lines: string[] = [];
    let lost = 0;
    const rows =
      lastRow < output.first
        ? []
        : this.screen.rowsBetween(
            { row: output.first, col: 0 },
            { row: lastRow, col: lastRow === output.last ? output.lastCol : undefined },
          );
    rows.forEach((row, index) => {
      if (!row) lost++;
      else if (row.wrapped && lines.length && index > 0) lines[lines.length - 1] += row.text;
      else lines.push(row.text);
    });
    const total = lines.length + lost;
    const kept = lines.length > maxLines ? lines.slice(lines.length - maxLines) : lines;
    return { lines: kept, total_lines: total, truncated: kept.length < total };
  }

  /** The line a prompt sits on: the cursor's, else the last one written above it. */
  #cursorLine(): string {
    const cursor = this.screen.cursorStableRow();
    const lines = this.screen.logicalLines(Math.max(0, cursor - this.screen.rows + 1), cursor);
    return lines.map((line) => line.text.trim()).findLast((text) => text !== "") ?? "";
  }

  #releaseSyncWaiters(): void {
    const waiters = this.#syncWaiters;
    this.#syncWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

/** fish's own parser on a line before it is typed: an error (an unclosed quote or bracket) refuses it. */
async function refuseIncompleteFish(text: string): Promise<void> {
  const fish = Bun.which("fish");
  if (!fish) return;
  const child = Bun.spawn([fish, "--no-config", "--no-execute", "-c", text], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
    env: { PATH: "/usr/bin:/bin" },
  });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  // fish 3.6 reports a parse error on stderr and may still exit 0.
  if (code !== 0 || stderr.trim()) {
    throw new T4aError(
      "invalid_params",
      "the command is not complete fish syntax, so nothing was typed: " +
        (stderr.trim().split("\n")[0] ?? `fish exited ${code}`),
    );
  }
}
