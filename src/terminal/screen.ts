// The emulated screen of one session: the only file that touches @xterm/headless.
// It parses bytes synchronously and answers questions about rows, cells, cursor and title;
// it knows nothing of PTYs, sockets or the protocol.
import { SerializeAddon } from "@xterm/addon-serialize";
import { Terminal as XTerm, type IBufferCell } from "@xterm/headless";
import {
  CellFlag,
  ColourMode,
  packColour,
  type CellGrid,
  type CursorStyle,
  type MouseEncoding,
  type MouseReporting,
} from "./cell-grid.ts";
import { detectElements, type Element } from "./elements.ts";
import { CELL_WORDS, keptColumns, Scrollback, type PackedRow } from "./scrollback.ts";
import { type CaptureOptions, TmuxCapture } from "./tmux-capture.ts";
import { codepointWidth, currentUnicode } from "./unicode-width.ts";

export type Region = "viewport" | "scrollback" | "all";

export interface ScreenOptions {
  cols: number;
  rows: number;
  /** Rows of scrollback kept. */
  scrollback: number;
  /** Bytes the scrollback may take (0 = only the row limit applies). */
  scrollbackBytes?: number;
}

export interface ScreenCallbacks {
  /** Bytes the emulator answers to the program (DA, DSR/CPR reports): write them to the PTY. */
  reply?: (data: string) => void;
  title?: (title: string) => void;
  bell?: () => void;
}

/** Private xterm state we need and the public API does not expose. Kept in one place. */
interface XTermCore {
  _writeBuffer: {
    writeSync(data: string | Uint8Array): void;
    /** Set during writeSync; left true by a throw, after which every later write is only queued. */
    _isSyncWriting: boolean;
    _syncCalls: number;
    _writeBuffer: unknown[];
    _callbacks: unknown[];
    _pendingData: number;
  };
  /** Unlike the public parser API, handlers here get xterm's mutable params, before its own handler. */
  registerCsiHandler(id: { final: string }, handler: (params: { params: Int32Array; length: number }) => boolean): void;
  coreService: { isCursorHidden: boolean; decPrivateModes: { cursorStyle?: CursorStyle; cursorBlink?: boolean } };
  coreMouseService: { activeEncoding: string };
  /** Viewport rows a parse touched (undefined = all), fired at the end of each parse. */
  _inputHandler: {
    onRequestRefreshRows(listener: (range: { start: number; end: number } | undefined) => void): void;
    /** CSI r, CSI J, CSI H as xterm runs them (DECCOLM's clear and home, done in place). */
    setScrollRegion(params: { params: Int32Array; length: number }): boolean;
    eraseInDisplay(params: { params: Int32Array; length: number }): boolean;
    cursorPosition(params: { params: Int32Array; length: number }): boolean;
    /** currentState 0 is GROUND: no escape sequence under way. */
    _parser: { reset(): void; currentState: number };
    /** The attributes printing uses now (SGR); fg = bg = 0 is the default. */
    _curAttrData: { fg: number; bg: number };
  };
  /** The G0–G3 mapping in effect (DEC line drawing…); undefined: plain ASCII. */
  _charsetService: { charset: unknown };
  _bufferService: {
    buffers: { normal: XBuffer; active: XBuffer };
    buffer: XBuffer;
    cols: number;
    /** Moves the scroll region up one row; at the top of the screen that row becomes scrollback. */
    scroll(eraseAttr: unknown, isWrapped?: boolean): void;
  };
}

interface XBuffer {
  lines: {
    length: number;
    maxLength: number;
    get(index: number): XLine | undefined;
    splice(start: number, deleteCount: number, ...items: XLine[]): void;
    trimStart(count: number): void;
  };
  ybase: number;
  ydisp: number;
  savedY: number;
  scrollTop: number;
  scrollBottom: number;
  x: number;
  y: number;
  getBlankLine(attr: undefined, isWrapped: boolean): XLine;
  getNullCell(): { extended: { constructor: new () => { ext: number } } };
}

/** xterm's BufferLine: the same packed cells the scrollback archives (scrollback.ts). */
interface XLine {
  _data: Uint32Array;
  _combined: Record<number, string>;
  _extendedAttrs: Record<number, { ext: number } | undefined>;
  length: number;
  isWrapped: boolean;
}

/**
 * Rows get stable numbers that survive scrolling: the scrollback's rows come first (its archive
 * numbers, which count rows dropped off its top too), then the screen's. A change token names a moment:
 * `epoch.seq.bottom` = layout generation (bumped by resize and alternate-screen switches,
 * which move every row), write count, and the stable number of the viewport's last row.
 */
export interface ChangedRows {
  /** False when the layout changed since the token: every row counts as changed. */
  partial: boolean;
  /** Stable row numbers, top to bottom. */
  rows: number[];
  /** Their text, trailing blanks trimmed. */
  lines: string[];
}

/**
 * CSI counts that xterm.js acts on one unit at a time, and the bound past which more change
 * nothing: scroll up/down and insert/delete lines by at most a screen's rows, tab forward/back by
 * at most its columns, repeat a character at most a screenful. Parameters go up to 2^31-1, so
 * unclamped, one `\e[2147483647S` holds the daemon (every session) for half an hour and
 * `\e[2147483647b` throws allocating 8 GB. tmux bounds these counts too.
 */
const COUNT_LIMITS: Record<string, (cols: number, rows: number) => number> = {
  S: (_cols, rows) => rows,
  T: (_cols, rows) => rows,
  L: (_cols, rows) => rows,
  M: (_cols, rows) => rows,
  I: (cols) => cols,
  Z: (cols) => cols,
  b: (cols, rows) => cols * rows,
};

const MAX_TITLE_LENGTH = 1024;

/** The mouse encodings by the DECSET number that turns each on. */
const MOUSE_ENCODINGS: Record<number, MouseEncoding> = { 1005: "utf8", 1006: "sgr", 1015: "urxvt", 1016: "sgr-pixels" };

const LF = 0x0a;
const CR = 0x0d;
/** Fewer plain lines beyond a screenful than this go through xterm as they are. */
const MIN_BYPASSED_LINES = 16;
/**
 * Where each plain line plainLines() found starts, and after the last one where the rest does.
 * One table for every screen: a screen is written only with its program's output, never from a
 * handler a parse runs, so no other parse comes between filling it and reading it.
 */
let lineStarts = new Uint32Array(4096);

/**
 * Count the plain lines from `from` on: printable ASCII, at most `cols` of it, then CR LF. Their
 * starts go into lineStarts, followed by the end of the last one.
 */
function plainLines(bytes: Uint8Array, from: number, cols: number): number {
  let count = 0;
  let start = from;
  let at = from;
  const end = bytes.length;
  while (at < end) {
    const byte = bytes[at]!;
    if (byte >= 0x20 && byte <= 0x7e) {
      at++;
      if (at - start > cols) break;
      continue;
    }
    if (byte !== CR || at + 1 >= end || bytes[at + 1] !== LF) break;
    if (count + 2 > lineStarts.length) {
      const grown = new Uint32Array(lineStarts.length * 2);
      grown.set(lineStarts);
      lineStarts = grown;
    }
    lineStarts[count++] = start;
    at += 2;
    start = at;
  }
  lineStarts[count] = start;
  return count;
}

/** Largest number of rows whose last change is remembered (per session, 8 bytes each). */
const MAX_TRACKED_ROWS = 131_072;

/**
 * Most rows handed back to xterm for a resize: the logical line that runs from the scrollback onto
 * the screen (so xterm rewraps it whole) and the rows a taller screen pulls down. A longer line
 * is rewrapped in two parts.
 */
const MAX_RESIZE_PULL_ROWS = 2000;

export class Screen {
  readonly #xterm: XTerm;
  readonly #core: XTermCore;
  #title = "";
  /** Every row above the screen. xterm itself keeps none: its rows cost ~12 bytes per cell. */
  readonly #scrollback: Scrollback;
  /** Reused to hand xterm's rows to the scrollback without an object per row. */
  readonly #rowView: PackedRow = { data: new Uint32Array(0), length: 0, combined: {}, extended: {}, wrapped: false };
  #epoch = 0;
  #seq = 0;
  /** Ring indexed by stable row % size: which row the slot holds and the write that last changed it. */
  #slotRow: Int32Array;
  #slotSeq: Int32Array;
  /** Size the ring may grow to: scrollback and screen, plus a margin. */
  readonly #maxTracked: number;
  /** Stable rows touched by the last write(), inclusive; empty when first > last. */
  #lastWrite = { first: 0, last: -1 };
  #pendingRefresh: { start: number; end: number } | "all" | null = null;
  #serializer: SerializeAddon | undefined;
  #onAlternate = false;
  /** Scrolls that must not archive the row leaving the top: it was archived already (#parse). */
  #archivedAhead = 0;
  /** The DECSET number of the mouse encoding in effect (1005, 1006, 1015, 1016), 0 for the default. */
  #mouseEncoding = 0;

  constructor(options: ScreenOptions, callbacks: ScreenCallbacks = {}) {
    this.#scrollback = new Scrollback({ rows: options.scrollback, bytes: options.scrollbackBytes ?? 0 });
    this.#xterm = new XTerm({
      cols: options.cols,
      rows: options.rows,
      scrollback: 0,
      allowProposedApi: true,
      logLevel: "off",
    });
    this.#xterm.unicode.register(currentUnicode);
    this.#xterm.unicode.activeVersion = currentUnicode.version;
    this.#core = (this.#xterm as unknown as { _core: XTermCore })._core;
    this.#xterm.onTitleChange((title) => {
      // Programs may set megabyte titles; list and events carry the title in every line.
      this.#title = title.slice(0, MAX_TITLE_LENGTH);
      callbacks.title?.(this.#title);
    });
    if (callbacks.bell) this.#xterm.onBell(callbacks.bell);
    if (callbacks.reply) this.#xterm.onData(callbacks.reply);
    // The ring starts at a screen's worth and grows with the rows printed: most sessions never
    // fill a 10 000-row scrollback, and the full ring would be 80 KB each.
    this.#maxTracked = Math.min(options.scrollback + options.rows + 64, MAX_TRACKED_ROWS);
    const tracked = Math.min(256, this.#maxTracked);
    this.#slotRow = new Int32Array(tracked).fill(-1);
    this.#slotSeq = new Int32Array(tracked);
    // Every row that leaves the top of the normal screen passes here, still intact: archive it.
    const bufferService = this.#core._bufferService;
    const scroll = bufferService.scroll.bind(bufferService);
    bufferService.scroll = (eraseAttr, isWrapped) => {
      if (!this.#onAlternate) {
        const buffer = bufferService.buffer;
        if (buffer.scrollTop === 0) {
          if (this.#archivedAhead > 0) this.#archivedAhead--;
          else this.#archive(buffer.lines.get(buffer.ybase)!);
        }
      }
      scroll(eraseAttr, isWrapped);
    };
    // CSI 3 J clears the scrollback; RIS (ESC c) builds new buffers without one.
    this.#core.registerCsiHandler({ final: "J" }, (params) => {
      if (params.length > 0 && params.params[0] === 3 && !this.#onAlternate) this.#scrollback.clear();
      return false;
    });
    this.#xterm.parser.registerEscHandler({ final: "c" }, () => {
      this.#scrollback.clear();
      this.#mouseEncoding = 0;
      return false;
    });
    // DECCOLM (CSI ?3h / ?3l): xterm.js ignores it unless it may resize the window. A session's
    // size is its own, so do what tmux does: keep the size, clear the screen, reset the scroll
    // margins and home the cursor (vttest and alacritty's deccolm_reset expect exactly that).
    for (const final of ["h", "l"]) {
      this.#xterm.parser.registerCsiHandler({ prefix: "?", final }, (params) => {
        for (const param of params) {
          // The mouse encodings exclude each other; a reset undoes only the one in effect (xterm's
          // charproc.c). xterm.js parses only SGR, and resets it whichever one is reset.
          if (typeof param !== "number" || !(param in MOUSE_ENCODINGS)) continue;
          if (final === "h") this.#mouseEncoding = param;
          else if (this.#mouseEncoding === param) this.#mouseEncoding = 0;
        }
        if (params.includes(3)) {
          const input = this.#core._inputHandler;
          const none = { params: new Int32Array(0), length: 0 };
          input.setScrollRegion(none);
          input.eraseInDisplay({ params: Int32Array.of(2), length: 1 });
          input.cursorPosition(none);
        }
        return false; // xterm's own handler still sets the other modes of the sequence
      });
    }
    this.#core._inputHandler.onRequestRefreshRows((range) => {
      const pending = this.#pendingRefresh;
      if (!range || pending === "all") this.#pendingRefresh = "all";
      else
        this.#pendingRefresh = pending
          ? { start: Math.min(pending.start, range.start), end: Math.max(pending.end, range.end) }
          : range;
    });
    this.#xterm.buffer.onBufferChange((buffer) => {
      this.#epoch++;
      this.#onAlternate = buffer.type === "alternate";
    });
    // OSC 8 hyperlinks are swallowed: nothing here shows them, and xterm.js tracks every row
    // printed inside an open link with a buffer marker, updated on every scroll, so a link left
    // open before a flood made output 300x slower (1 700 lines/s at 10 000 rows of scrollback).
    this.#xterm.parser.registerOscHandler(8, () => true);
    for (const [final, limit] of Object.entries(COUNT_LIMITS)) {
      this.#core.registerCsiHandler({ final }, (params) => {
        const max = limit(this.#xterm.cols, this.#xterm.rows);
        if (params.length > 0 && params.params[0]! > max) params.params[0] = max;
        return false; // xterm's own handler runs next, with the clamped count
      });
    }
  }

  /** Call `handler` with the payload of every OSC `ident` sequence, at its exact place in the output. */
  onOsc(ident: number, handler: (data: string) => void): void {
    this.#xterm.parser.registerOscHandler(ident, (data) => {
      handler(data);
      return false; // let xterm's own handler (if any) see it too
    });
  }

  /**
   * Parse now, before returning. xterm's public write() queues and parses later in 12 ms slices,
   * so a fast producer would grow its queue without bound (and past 50 MB xterm drops data).
   * Parsing inside the PTY's data callback keeps the kernel buffer full instead: the producer blocks.
   */
  write(data: string | Uint8Array): void {
    const cursorBefore = this.cursorStableRow();
    const epochBefore = this.#epoch;
    this.#pendingRefresh = null;
    try {
      this.#parse(data);
    } catch (error) {
      this.#archivedAhead = 0;
      this.#recoverFromParseError(error);
    }
    this.#seq++;
    // Rows between the cursor's old and new place took line-oriented output; the refresh range
    // covers in-place redraws (TUIs). Together: every row this write may have changed.
    const top = this.#screenTop;
    const cursorAfter = this.cursorStableRow();
    let first = epochBefore === this.#epoch ? Math.min(cursorBefore, cursorAfter) : top;
    let last = Math.max(cursorBefore, cursorAfter);
    const refresh = this.#pendingRefresh as { start: number; end: number } | "all" | null;
    if (refresh === "all" || epochBefore !== this.#epoch) {
      first = Math.min(first, top);
      last = Math.max(last, top + this.#xterm.rows - 1);
    } else if (refresh) {
      first = Math.min(first, top + refresh.start);
      last = Math.max(last, top + refresh.end);
    }
    if (last >= this.#slotRow.length && this.#slotRow.length < this.#maxTracked) this.#growRing(last + 1);
    first = Math.max(first, this.#scrollback.start, last - this.#slotRow.length + 1);
    for (let row = first; row <= last; row++) {
      const slot = row % this.#slotRow.length;
      this.#slotRow[slot] = row;
      this.#slotSeq[slot] = this.#seq;
    }
    this.#lastWrite = { first, last };
  }

  /**
   * Feed xterm, except the plain lines a flood scrolls straight through. Lines of printable ASCII
   * that end in CR LF, printed at the bottom of a full-height scroll region in default colours,
   * each pass once across the bottom row and leave at the top: the archive gets the record
   * append() would make, without xterm printing, scrolling and recycling a row for each (most of
   * the cost of ingesting `seq`). Only the last screenful of them goes through xterm, which then
   * holds exactly what it would have; the rows it had are archived first, in their order.
   */
  #parse(data: string | Uint8Array): void {
    const writer = this.#core._writeBuffer;
    const rows = this.#xterm.rows;
    const firstLine = typeof data === "string" || this.#onAlternate ? -1 : data.indexOf(LF) + 1;
    const lines = firstLine > 0 ? plainLines(data as Uint8Array, firstLine, this.#xterm.cols) : 0;
    // Worth it only when more lines than the screen holds go by.
    if (lines < rows + MIN_BYPASSED_LINES) {
      writer.writeSync(data);
      return;
    }
    const bytes = data as Uint8Array;
    writer.writeSync(bytes.subarray(0, firstLine));
    if (!this.#atBlankBottomLine()) {
      writer.writeSync(bytes.subarray(firstLine));
      return;
    }
    const buffer = this.#core._bufferService.buffer;
    for (let row = 0; row < rows - 1; row++) this.#archive(buffer.lines.get(row)!);
    const bypassed = lines - (rows - 1);
    this.#scrollback.appendAsciiLines(bytes, lineStarts, bypassed);
    // The screen's rows above the cursor leave through xterm as the last lines come in.
    this.#archivedAhead = rows - 1;
    writer.writeSync(bytes.subarray(lineStarts[bypassed]!));
    this.#archivedAhead = 0;
  }

  /**
   * Whether the next byte would print at the start of a blank bottom row of a full-height scroll
   * region, in default colours, as plain ASCII: then a plain line and its CR LF make a row
   * appendAsciiLines() can archive.
   */
  #atBlankBottomLine(): boolean {
    const core = this.#core;
    const input = core._inputHandler;
    const buffer = core._bufferService.buffer;
    const rows = this.#xterm.rows;
    if (
      this.#onAlternate ||
      buffer.x !== 0 ||
      buffer.y !== rows - 1 ||
      buffer.ybase !== 0 ||
      buffer.lines.length !== rows
    )
      return false;
    if (buffer.scrollTop !== 0 || buffer.scrollBottom !== rows - 1) return false;
    // Not checked, as the LF ending the prefix settles them: a UTF-8 sequence under way (ended),
    // the bottom row continuing the one above (xterm clears that on a line feed). Insert mode
    // prints into a blank row as plain printing does.
    if (input._parser.currentState !== 0) return false;
    if (input._curAttrData.fg !== 0 || input._curAttrData.bg !== 0 || core._charsetService.charset !== undefined)
      return false;
    return keptColumns(this.#packed(buffer.lines.get(rows - 1)!)) === 0;
  }

  /** Double the change ring (up to its limit) until it can tell `rows` rows apart; entries keep their rows. */
  #growRing(rows: number): void {
    let size = this.#slotRow.length;
    while (size < rows && size < this.#maxTracked) size = Math.min(size * 2, this.#maxTracked);
    const slotRow = new Int32Array(size).fill(-1);
    const slotSeq = new Int32Array(size);
    for (let slot = 0; slot < this.#slotRow.length; slot++) {
      const row = this.#slotRow[slot]!;
      if (row < 0) continue;
      slotRow[row % size] = row;
      slotSeq[row % size] = this.#slotSeq[slot]!;
    }
    this.#slotRow = slotRow;
    this.#slotSeq = slotSeq;
  }

  /**
   * A throw inside xterm's parser would leave its write buffer marked busy: every later write
   * queued, never parsed, the screen frozen while memory grows. Reset the buffer and the parser
   * (the rest of this chunk is lost) so the session keeps working, and say so in the log.
   */
  #recoverFromParseError(error: unknown): void {
    const writeBuffer = this.#core._writeBuffer;
    writeBuffer._isSyncWriting = false;
    writeBuffer._syncCalls = 0;
    writeBuffer._writeBuffer.length = 0;
    writeBuffer._callbacks.length = 0;
    writeBuffer._pendingData = 0;
    this.#core._inputHandler._parser.reset();
    console.error("t4a: internal error: the screen parser threw; the rest of this output chunk was dropped:", error);
  }

  /** Stable number of the screen's top row: it comes right after the scrollback's newest. */
  get #screenTop(): number {
    return this.#scrollback.end;
  }

  /** Archive a row leaving the top of the screen. */
  #archive(line: XLine): void {
    this.#scrollback.append(this.#packed(line));
  }

  /** xterm's row as the scrollback reads rows, in the one reused view. */
  #packed(line: XLine): PackedRow {
    const view = this.#rowView;
    view.data = line._data;
    view.length = line.length;
    view.combined = line._combined;
    view.extended = line._extendedAttrs;
    view.wrapped = line.isWrapped;
    return view;
  }

  /** Stable number of the row the cursor is on. */
  cursorStableRow(): number {
    return this.#screenTop + this.#xterm.buffer.active.cursorY;
  }

  /** Stable rows the last write() may have changed (first > last when none). */
  get lastWrite(): { first: number; last: number } {
    return this.#lastWrite;
  }

  /** Stable number of the viewport's bottom row. */
  get bottomStableRow(): number {
    return this.#screenTop + this.#xterm.rows - 1;
  }

  changeToken(): string {
    return `${this.#epoch}.${this.#seq}.${this.bottomStableRow}`;
  }

  /** Rows of a region that changed, or scrolled into the viewport, after `token` was taken. */
  changedSince(token: string, region: Region): ChangedRows {
    const [epoch, seq, bottom] = token.split(".").map(Number);
    const last = this.bottomStableRow;
    const first = region === "viewport" ? last - this.#xterm.rows + 1 : this.#scrollbackStart;
    const end = region === "scrollback" ? last - this.#xterm.rows : last;
    const rows: number[] = [];
    const partial = epoch === this.#epoch && Number.isInteger(seq) && Number.isInteger(bottom);
    for (let row = first; row <= end; row++) {
      const slot = row % this.#slotRow.length;
      const changed = this.#slotRow[slot] === row && this.#slotSeq[slot]! > seq!;
      const scrolledIn = region !== "scrollback" && row > bottom! && row >= last - this.#xterm.rows + 1;
      if (!partial || changed || scrolledIn) rows.push(row);
    }
    return { partial, rows, lines: rows.map((row) => this.row(row)?.text ?? "") };
  }

  /**
   * One stable row: its text from `startCol` up to `endCol` (trailing blanks trimmed) and whether
   * it continues a soft wrap.
   */
  row(row: number, endCol?: number, startCol = 0): { text: string; wrapped: boolean } | undefined {
    if (row < this.#screenTop) {
      if (row < this.#scrollbackStart) return undefined;
      const text = this.#scrollback.text(row)!;
      return { text: sliceColumns(text, startCol, endCol).replace(/ +$/, ""), wrapped: this.#scrollback.wrapped(row) };
    }
    const line = this.#screenLine(row);
    if (!line) return undefined;
    return { text: line.translateToString(true, startCol, endCol).replace(/ +$/, ""), wrapped: line.isWrapped };
  }

  /**
   * Stable rows `from` to `to` as row() reads them (undefined where scrolled out of the archive),
   * the first from column `from.col`, the last up to column `to.col` (if given): a command's output, in one read.
   */
  rowsBetween(
    from: { row: number; col: number },
    to: { row: number; col?: number },
  ): Array<{ text: string; wrapped: boolean } | undefined> {
    const rows: Array<{ text: string; wrapped: boolean } | undefined> = [];
    for (let row = from.row; row <= to.row; row++)
      rows.push(this.row(row, row === to.row ? to.col : undefined, row === from.row ? from.col : 0));
    return rows;
  }

  /** The screen's own row for a stable row at or below its top. */
  #screenLine(row: number) {
    const buffer = this.#xterm.buffer.active;
    return buffer.getLine(buffer.baseY + row - this.#screenTop);
  }

  /** First stable row a reader may see: the scrollback's oldest (none on the alternate screen). */
  get #scrollbackStart(): number {
    return this.#onAlternate ? this.#screenTop : this.#scrollback.start;
  }

  #wrapped(row: number): boolean {
    return row < this.#screenTop ? this.#scrollback.wrapped(row) : (this.#screenLine(row)?.isWrapped ?? false);
  }

  /**
   * The logical line holding a stable row: soft-wrapped rows joined, so a match is found even
   * where the terminal width split it. Returns its text and its first and last stable rows.
   */
  logicalLine(row: number): { text: string; first: number; last: number } | undefined {
    const bottom = this.bottomStableRow;
    if (row < this.#scrollbackStart || row > bottom) return undefined;
    let first = row;
    while (first > this.#scrollbackStart && this.#wrapped(first)) first--;
    let last = first;
    let text = this.#rowText(first);
    while (last < bottom && this.#wrapped(last + 1)) text += this.#rowText(++last);
    return { text: text.replace(/ +$/, ""), first, last };
  }

  /** The logical lines holding stable rows `first` to `last`, each once, top to bottom. */
  logicalLines(first: number, last: number): Array<{ text: string; first: number; last: number }> {
    const lines: Array<{ text: string; first: number; last: number }> = [];
    for (let row = Math.max(first, this.#scrollbackStart); row <= last; row++) {
      const line = this.logicalLine(row);
      if (!line) break;
      lines.push(line);
      row = line.last;
    }
    return lines;
  }

  /**
   * A stable row's text, trimmed as xterm trims (empty cells at its end left out, spaces kept) or
   * untrimmed (as wide as the screen); "" for a row a reader cannot see.
   */
  #rowText(row: number, trim = true): string {
    if (row >= this.#screenTop) return this.#screenLine(row)?.translateToString(trim) ?? "";
    if (row < this.#scrollbackStart) return "";
    const text = this.#scrollback.text(row)!;
    return trim ? text : text + " ".repeat(Math.max(0, this.#xterm.cols - this.#scrollback.columns(row)));
  }

  /** Stable row → index from the bottom of a region (0 = its last row). */
  fromBottom(row: number, region: Region): number {
    const last = region === "scrollback" ? this.bottomStableRow - this.#xterm.rows : this.bottomStableRow;
    return last - row;
  }

  get cols(): number {
    return this.#xterm.cols;
  }

  get rows(): number {
    return this.#xterm.rows;
  }

  get title(): string {
    return this.#title;
  }

  get bracketedPaste(): boolean {
    return this.#xterm.modes.bracketedPasteMode;
  }

  /** A full-screen program holds the alternate screen (vi, less, htop): it has no scrollback of output. */
  get alternate(): boolean {
    return this.#onAlternate;
  }

  get applicationCursorKeys(): boolean {
    return this.#xterm.modes.applicationCursorKeysMode;
  }

  /** True while the program holds a synchronized-output frame (DEC mode 2026) open. */
  get inSyncFrame(): boolean {
    return this.#xterm.modes.synchronizedOutputMode;
  }

  /**
   * Resize and rewrap like tmux: the scrollback rewraps its rows itself; xterm rewraps the screen
   * together with the rows handed back to it (the logical line running onto the screen, and the
   * rows a taller screen pulls down), and whatever it then holds above the screen is archived again.
   */
  resize(cols: number, rows: number): void {
    if (cols === this.#xterm.cols && rows === this.#xterm.rows) return;
    const normal = this.#core._bufferService.buffers.normal;
    const oldCols = this.#xterm.cols;
    // xterm pulls rows down from its scrollback for a taller screen and for the rows a wider one
    // joins; give it enough, starting at the beginning of a logical line.
    let pull = Math.max(0, rows - this.#xterm.rows) + (cols > oldCols ? rows * Math.ceil(cols / oldCols) : 0);
    if (normal.lines.get(normal.ybase)?.isWrapped) pull = Math.max(pull, 1);
    let first = this.#scrollback.end - Math.min(pull, this.#scrollback.length);
    while (first > this.#scrollback.start && this.#scrollback.wrapped(first)) first--;
    pull = this.#scrollback.end - first;
    this.#pullBack(Math.min(pull, MAX_RESIZE_PULL_ROWS), false);
    // Room for every row the narrower width makes, so xterm trims none before they are archived.
    this.#xterm.options.scrollback = normal.lines.length * Math.ceil(oldCols / cols) + rows;
    this.#xterm.resize(cols, rows);
    // xterm keeps at least 2 columns (a wide character's width): rewrap to what it has.
    // The rows the rewrapped screen pushed up count with the archive's own: a resize drops no line.
    this.#scrollback.reflow(oldCols, this.#xterm.cols, () => {
      for (let index = 0; index < normal.ybase; index++) this.#archive(normal.lines.get(index)!);
    });
    this.#xterm.options.scrollback = 0;
    this.#epoch++; // reflow moves rows
  }

  /**
   * Hand the newest `count` archived rows back to xterm, as its scrollback above the screen
   * (`keep`: copies, the archive keeps them). Returns how many.
   */
  #pullBack(count: number, keep: boolean): number {
    count = Math.min(count, this.#scrollback.length);
    if (count === 0) return 0;
    const buffer = this.#core._bufferService.buffers.normal;
    const cols = this.#xterm.cols;
    const Extended = buffer.getNullCell().extended.constructor;
    const lines: XLine[] = [];
    for (let row = this.#scrollback.end - count; row < this.#scrollback.end; row++) {
      const packed = this.#scrollback.unpack(row, cols)!;
      const line = buffer.getBlankLine(undefined, packed.wrapped);
      line._data.set(packed.data.subarray(0, cols * CELL_WORDS));
      for (const [col, chars] of Object.entries(packed.combined)) line._combined[Number(col)] = chars;
      for (const [col, attrs] of Object.entries(packed.extended)) {
        const extended = new Extended();
        extended.ext = attrs!.ext;
        line._extendedAttrs[Number(col)] = extended;
      }
      lines.push(line);
    }
    // maxLength's setter keeps the first rows; then the archived ones go in above them.
    buffer.lines.maxLength = buffer.lines.length + count;
    buffer.lines.splice(0, 0, ...lines);
    buffer.ybase += count;
    buffer.ydisp += count;
    buffer.savedY += count;
    if (!keep) this.#scrollback.dropNewest(count);
    return count;
  }

  /** Drop rows pulled back with `keep` (they are still archived). */
  #dropPulled(count: number): void {
    const buffer = this.#core._bufferService.buffers.normal;
    buffer.lines.trimStart(count);
    buffer.ybase -= count;
    buffer.ydisp = Math.max(buffer.ydisp - count, 0);
    buffer.savedY = Math.max(buffer.savedY - count, 0);
    buffer.lines.maxLength = buffer.lines.length;
  }

  /** Rows held above the screen, their bytes, and the memory they take (full chunks compressed). */
  get scrollbackUsage(): { rows: number; bytes: number; storedBytes: number } {
    return {
      rows: this.#scrollback.length,
      bytes: this.#scrollback.byteLength,
      storedBytes: this.#scrollback.storedBytes,
    };
  }

  /** Number of rows in a region (the alternate screen has no scrollback). */
  regionLength(region: Region): number {
    const scrollback = this.#screenTop - this.#scrollbackStart;
    if (region === "viewport") return this.#xterm.rows;
    if (region === "scrollback") return scrollback;
    return scrollback + this.#xterm.rows;
  }

  /**
   * Rows `start` (inclusive) to `end` (exclusive) of a region, counted from its bottom
   * (0 = last row), returned top to bottom as a person reads them.
   */
  lines(region: Region, start: number, end: number, trim: boolean): string[] {
    const bottom = region === "scrollback" ? this.#screenTop - 1 : this.bottomStableRow;
    const out: string[] = [];
    for (let fromBottom = end - 1; fromBottom >= start; fromBottom--) {
      const text = this.#rowText(bottom - fromBottom, trim);
      // xterm's trimRight keeps spaces the program wrote; a reader wants them gone too.
      out.push(trim ? text.replace(/ +$/, "") : text);
    }
    return out;
  }

  /**
   * Rows `start` to `end` of a region (as `lines` counts them) the way tmux's capture-pane prints
   * them: its trimming, wrapped rows joined (-J), its SGR codes (-e). tmux-capture.ts formats.
   */
  capture(region: Region, start: number, end: number, options: CaptureOptions): string[] {
    const bottom = region === "scrollback" ? this.#screenTop - 1 : this.bottomStableRow;
    const capture = new TmuxCapture(options);
    const cols = this.#xterm.cols;
    const buffer = this.#core._bufferService.buffer;
    for (let fromBottom = end - 1; fromBottom >= start; fromBottom--) {
      const row = bottom - fromBottom;
      const line = row >= this.#screenTop ? buffer.lines.get(buffer.ybase + row - this.#screenTop) : undefined;
      const packed = line
        ? this.#packed(line)
        : row < this.#screenTop && row >= this.#scrollbackStart
          ? this.#scrollback.unpack(row, cols)
          : undefined;
      capture.add(packed, fromBottom > start && this.#wrapped(row + 1));
    }
    return capture.finish();
  }

  /** Forget the rows above the screen (tmux's clear-history); the screen stays. */
  clearHistory(): void {
    this.#scrollback.clear();
    this.#epoch++;
  }

  /**
   * The screen as escape sequences that redraw it in a fresh terminal of the same size: contents
   * (and `scrollback` rows above), the alternate screen, modes, cursor and title. A viewer replays
   * this, then every output byte after it (stream/). What the serialize addon leaves out — title,
   * cursor visibility and style, SGR mouse encoding, a scroll region — is added here.
   */
  serialize(scrollback: number): string {
    if (!this.#serializer) {
      this.#serializer = new SerializeAddon();
      this.#xterm.loadAddon(this.#serializer as unknown as Parameters<XTerm["loadAddon"]>[0]);
    }
    // The addon reads xterm's rows: the scrollback asked for goes back there while it runs.
    const pulled = this.#pullBack(this.#onAlternate ? 0 : scrollback, true);
    let body: string;
    try {
      body = this.#serializer.serialize({ scrollback: pulled });
    } finally {
      if (pulled) this.#dropPulled(pulled);
    }
    const core = this.#core;
    const buffer = core._bufferService.buffer;
    let tail = "";
    if (buffer.scrollTop !== 0 || buffer.scrollBottom !== this.#xterm.rows - 1) {
      // DECSTBM homes the cursor: put it back where the program left it.
      tail += `\x1b[${buffer.scrollTop + 1};${buffer.scrollBottom + 1}r\x1b[${buffer.y + 1};${buffer.x + 1}H`;
    }
    if (core.coreMouseService.activeEncoding === "SGR") tail += "\x1b[?1006h";
    const style = core.coreService.decPrivateModes.cursorStyle;
    // DECSCUSR: 1/2 block, 3/4 underline, 5/6 bar, the odd one blinking.
    if (style) {
      const steady = { block: 2, underline: 4, bar: 6 }[style];
      tail += `\x1b[${steady - (core.coreService.decPrivateModes.cursorBlink ? 1 : 0)} q`;
    }
    if (core.coreService.isCursorHidden) tail += "\x1b[?25l";
    const title = this.#title ? `\x1b]2;${this.#title.replace(/[\x00-\x1f\x7f]/g, "")}\x07` : "";
    return `${title}${body}${tail}`;
  }

  /**
   * Blank rows at the bottom of a region, stopping at the cursor's row (a prompt waiting on an
   * empty line is content): what a "last few lines" read skips to reach the text.
   */
  blankRowsBelow(region: Region): number {
    const bottom = region === "scrollback" ? this.#screenTop - 1 : this.bottomStableRow;
    const stop = region === "scrollback" ? this.#scrollbackStart - 1 : this.cursorStableRow();
    let blank = 0;
    for (let row = bottom; row > stop; row--) {
      if (this.#rowText(row).trim()) break;
      blank++;
    }
    return blank;
  }

  cursor(): { row: number; col: number; visible: boolean; style: CursorStyle } {
    return cursorOf(this.#xterm);
  }

  /** The mouse reports the program turned on and how they are encoded: what a click must be sent as. */
  mouse(): MouseReporting {
    return { mode: this.#xterm.modes.mouseTrackingMode, encoding: MOUSE_ENCODINGS[this.#mouseEncoding] ?? "default" };
  }

  /** The viewport as flat arrays for the renderer and the element detector, with the cursor and mouse mode. */
  cellGrid(): CellGrid {
    // The encoding as this screen tracks it (xterm.js itself parses only SGR).
    return { ...cellGridOf(this.#xterm), mouse: this.mouse() };
  }

  /**
   * The viewport as elements with refs (docs/elements.md). `ended`: the program has exited, so the
   * cursor it left behind is no input being typed in.
   */
  elements(ended = false): Element[] {
    const grid = this.cellGrid();
    return detectElements(ended ? { ...grid, cursor: { ...grid.cursor, visible: false }, ended } : grid);
  }

  dispose(): void {
    this.#xterm.dispose();
  }
}

/** The characters of a row's text that sit in columns startCol up to (not including) endCol. */
function sliceColumns(text: string, startCol: number, endCol = Infinity): string {
  let col = 0;
  let start = startCol > 0 ? -1 : 0;
  let end = 0;
  for (const char of text) {
    const width = codepointWidth(char.codePointAt(0)!);
    if (width > 0 && col >= endCol) break;
    if (start < 0 && width > 0 && col >= startCol) start = end;
    col += width;
    end += char.length;
  }
  return start < 0 ? "" : text.slice(start, end);
}

const coreOf = (xterm: XTerm): XTermCore => (xterm as unknown as { _core: XTermCore })._core;

function cursorOf(xterm: XTerm): { row: number; col: number; visible: boolean; style: CursorStyle } {
  const buffer = xterm.buffer.active;
  const core = coreOf(xterm);
  return {
    row: buffer.cursorY,
    col: Math.min(buffer.cursorX, xterm.cols - 1),
    visible: !core.coreService.isCursorHidden,
    style: core.coreService.decPrivateModes.cursorStyle ?? "block",
  };
}

function mouseOf(xterm: XTerm): MouseReporting {
  const encoding = coreOf(xterm).coreMouseService.activeEncoding.startsWith("SGR") ? "sgr" : "default";
  return { mode: xterm.modes.mouseTrackingMode, encoding };
}

/**
 * Any @xterm/headless terminal's viewport as a CellGrid (cells, attributes, cursor, mouse mode):
 * bounded by its size. Screens answer it; the element fixtures replay into a bare terminal and use it too.
 */
export function cellGridOf(xterm: XTerm): CellGrid {
  const { cols, rows } = xterm;
  const size = cols * rows;
  const grid: CellGrid = {
    cols,
    rows,
    codepoints: new Uint32Array(size),
    combining: new Map(),
    widths: new Uint8Array(size),
    fg: new Uint32Array(size),
    bg: new Uint32Array(size),
    flags: new Uint16Array(size),
    cursor: cursorOf(xterm),
    mouse: mouseOf(xterm),
  };
  const buffer = xterm.buffer.active;
  let cell: IBufferCell | undefined;
  for (let row = 0; row < rows; row++) {
    const line = buffer.getLine(buffer.baseY + row);
    if (!line) continue;
    for (let col = 0; col < cols; col++) {
      cell = line.getCell(col, cell);
      if (!cell) break;
      const i = row * cols + col;
      const chars = cell.getChars();
      grid.codepoints[i] = chars ? chars.codePointAt(0)! : 0;
      if (chars.length > 1 && chars.length > (grid.codepoints[i]! > 0xffff ? 2 : 1)) {
        grid.combining.set(
          i,
          [...chars].slice(1).map((char) => char.codePointAt(0)!),
        );
      }
      grid.widths[i] = cell.getWidth();
      grid.fg[i] = cellColour(cell.isFgDefault(), cell.isFgRGB(), cell.getFgColor());
      grid.bg[i] = cellColour(cell.isBgDefault(), cell.isBgRGB(), cell.getBgColor());
      grid.flags[i] =
        (cell.isBold() ? CellFlag.bold : 0) |
        (cell.isDim() ? CellFlag.dim : 0) |
        (cell.isItalic() ? CellFlag.italic : 0) |
        (cell.isUnderline() ? CellFlag.underline : 0) |
        (cell.isInverse() ? CellFlag.inverse : 0) |
        (cell.isInvisible() ? CellFlag.invisible : 0) |
        (cell.isStrikethrough() ? CellFlag.strikethrough : 0) |
        (cell.isBlink() ? CellFlag.blink : 0) |
        (cell.isOverline() ? CellFlag.overline : 0);
    }
  }
  return grid;
}

function cellColour(isDefault: boolean, isRgb: boolean, value: number): number {
  if (isDefault) return packColour(ColourMode.default, 0);
  return packColour(isRgb ? ColourMode.rgb : ColourMode.palette, value);
}
