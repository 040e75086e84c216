// The emulated screen of one session: the only file that touches @xterm/headless.
// It parses bytes synchronously and answers questions about rows, cells, cursor and title;
// it knows nothing of PTYs, sockets or the protocol.
import { Terminal as XTerm, type IBufferCell } from "@xterm/headless";
import { CellFlag, ColourMode, packColour, type CellGrid, type CursorStyle } from "./cell-grid.ts";
import { currentUnicode } from "./unicode-width.ts";

export type Region = "viewport" | "scrollback" | "all";

export interface ScreenOptions {
  cols: number;
  rows: number;
  scrollback: number;
}

export interface ScreenCallbacks {
  /** Bytes the emulator answers to the program (DA, DSR/CPR reports): write them to the PTY. */
  reply?: (data: string) => void;
  title?: (title: string) => void;
  bell?: () => void;
}

/** Private xterm state we need and the public API does not expose. Kept in one place. */
interface XTermCore {
  _writeBuffer: { writeSync(data: string | Uint8Array): void };
  coreService: { isCursorHidden: boolean; decPrivateModes: { cursorStyle?: CursorStyle } };
}

export class Screen {
  readonly #xterm: XTerm;
  readonly #core: XTermCore;
  #title = "";

  constructor(options: ScreenOptions, callbacks: ScreenCallbacks = {}) {
    this.#xterm = new XTerm({
      cols: options.cols,
      rows: options.rows,
      scrollback: options.scrollback,
      allowProposedApi: true,
      logLevel: "off",
    });
    this.#xterm.unicode.register(currentUnicode);
    this.#xterm.unicode.activeVersion = currentUnicode.version;
    this.#core = (this.#xterm as unknown as { _core: XTermCore })._core;
    this.#xterm.onTitleChange((title) => {
      this.#title = title;
      callbacks.title?.(title);
    });
    if (callbacks.bell) this.#xterm.onBell(callbacks.bell);
    if (callbacks.reply) this.#xterm.onData(callbacks.reply);
  }

  /**
   * Parse now, before returning. xterm's public write() queues and parses later in 12 ms slices,
   * so a fast producer would grow its queue without bound (and past 50 MB xterm drops data).
   * Parsing inside the PTY's data callback keeps the kernel buffer full instead: the producer blocks.
   */
  write(data: string | Uint8Array): void {
    this.#core._writeBuffer.writeSync(data);
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

  get applicationCursorKeys(): boolean {
    return this.#xterm.modes.applicationCursorKeysMode;
  }

  /** True while the program holds a synchronized-output frame (DEC mode 2026) open. */
  get inSyncFrame(): boolean {
    return this.#xterm.modes.synchronizedOutputMode;
  }

  get alternateScreen(): boolean {
    return this.#xterm.buffer.active.type === "alternate";
  }

  resize(cols: number, rows: number): void {
    this.#xterm.resize(cols, rows);
  }

  /** Number of rows in a region (the alternate screen has no scrollback). */
  regionLength(region: Region): number {
    const buffer = this.#xterm.buffer.active;
    const scrollback = buffer.baseY;
    if (region === "viewport") return this.#xterm.rows;
    if (region === "scrollback") return scrollback;
    return scrollback + this.#xterm.rows;
  }

  /**
   * Rows `start` (inclusive) to `end` (exclusive) of a region, counted from its bottom
   * (0 = last row), returned top to bottom as a person reads them.
   */
  lines(region: Region, start: number, end: number, trim: boolean): string[] {
    const buffer = this.#xterm.buffer.active;
    // Absolute buffer index of the region's last row.
    const bottom = region === "scrollback" ? buffer.baseY - 1 : buffer.baseY + this.#xterm.rows - 1;
    const out: string[] = [];
    for (let fromBottom = end - 1; fromBottom >= start; fromBottom--) {
      const line = buffer.getLine(bottom - fromBottom);
      const text = line ? line.translateToString(trim) : "";
      // xterm's trimRight keeps spaces the program wrote; a reader wants them gone too.
      out.push(trim ? text.replace(/ +$/, "") : text);
    }
    return out;
  }

  cursor(): { row: number; col: number; visible: boolean; style: CursorStyle } {
    const buffer = this.#xterm.buffer.active;
    return {
      row: buffer.cursorY,
      col: Math.min(buffer.cursorX, this.#xterm.cols - 1),
      visible: !this.#core.coreService.isCursorHidden,
      style: this.#core.coreService.decPrivateModes.cursorStyle ?? "block",
    };
  }

  /** The viewport as flat arrays for the renderer. */
  cellGrid(): CellGrid {
    const { cols, rows } = this.#xterm;
    const size = cols * rows;
    const grid: CellGrid = {
      cols,
      rows,
      codepoints: new Uint32Array(size),
      widths: new Uint8Array(size),
      fg: new Uint32Array(size),
      bg: new Uint32Array(size),
      flags: new Uint16Array(size),
      cursor: this.cursor(),
    };
    const buffer = this.#xterm.buffer.active;
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

  dispose(): void {
    this.#xterm.dispose();
  }
}

function cellColour(isDefault: boolean, isRgb: boolean, value: number): number {
  if (isDefault) return packColour(ColourMode.default, 0);
  return packColour(isRgb ? ColourMode.rgb : ColourMode.palette, value);
}
