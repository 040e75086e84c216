// One viewer of a terminal: the screen replayed, then every output byte, with input and resize
// coming back. Shared by `t4a attach` (socket) and the browser (WebSocket, later): the transport
// hands frames in and takes frames out. A viewer that falls behind is dropped with `lagged`
// (it may attach again); it never slows the program or the other viewers.
import type { ViewerEvent } from "../protocol/events.ts";
import type { Terminal } from "../terminal/terminal.ts";
import { encodeFrame, Frame } from "../protocol/frames.ts";
import { AnsweredQueryFilter } from "./answered-queries.ts";

/** How a viewer is reached: each call queues and answers how many bytes wait for it to read. */
export interface Viewer {
  screen(text: string): number;
  output(bytes: Uint8Array): number;
  event(event: ViewerEvent): number;
  close(): void;
}

/** A viewer on a socket: frames (frames.ts). */
export function frameViewer(transport: { send(bytes: Uint8Array): number; close(): void }): Viewer {
  return {
    screen: (text) => transport.send(encodeFrame(Frame.screen, text)),
    output: (bytes) => transport.send(encodeFrame(Frame.output, bytes)),
    event: (event) => transport.send(encodeFrame(Frame.event, JSON.stringify(event))),
    close: () => transport.close(),
  };
}

/** Bytes waiting for a viewer before it is dropped as lagging. */
export const VIEWER_QUEUE_BYTES = 8 * 1024 * 1024;

export interface AttachOptions {
  readOnly: boolean;
  /** Rows of scrollback to replay above the screen (0 = the screen alone). */
  scrollback: number;
  /** Told once, when this viewer goes (detach, lagged, the end). */
  onClose?: () => void;
}

export class Attachment {
  readonly #terminal: Terminal;
  readonly #viewer: Viewer;
  readonly #onClose: (() => void) | undefined;
  readonly #readOnly: boolean;
  /** The viewer's terminal must not answer what the session's own emulator answers. */
  readonly #queries = new AnsweredQueryFilter();
  #stop: (() => void) | undefined;
  #closed = false;

  constructor(terminal: Terminal, viewer: Viewer, options: AttachOptions) {
    this.#terminal = terminal;
    this.#viewer = viewer;
    this.#readOnly = options.readOnly;
    this.#onClose = options.onClose;
    // In one turn: the screen at this byte, then a tap from the next byte on (terminal.tap).
    const screen = terminal.screen.serialize(options.scrollback);
    this.#stop = terminal.tap({
      output: (chunk) => this.#output(this.#queries.filter(chunk)),
      resize: (cols, rows) => this.#check(this.#viewer.event({ event: "resize", cols, rows })),
      end: () => this.#ended(),
    });
    this.#check(this.#viewer.screen(screen));
    // A program that has ended sends nothing more: its last screen, then its exit.
    if (!terminal.alive) this.#ended();
  }

  #output(bytes: Uint8Array): void {
    if (bytes.length > 0) this.#check(this.#viewer.output(bytes));
  }

  #ended(): void {
    if (this.#closed) return;
    this.#output(this.#queries.flush());
    const info = this.#terminal.info();
    this.#viewer.event({ event: "exit", code: info.exit_code ?? null, signal: info.signal ?? null });
    this.close();
  }

  /** A frame from the viewer. */
  receive(type: number, payload: Uint8Array): void {
    if (type === Frame.input) this.input(payload);
    else if (type === Frame.resize) {
      const size = parseSize(payload);
      if (size) this.resize(size.cols, size.rows);
    }
  }

  input(bytes: Uint8Array | string): void {
    if (!this.#closed && !this.#readOnly && this.#terminal.alive) this.#terminal.write(bytes);
  }

  resize(cols: number, rows: number): void {
    if (!this.#closed && !this.#readOnly && this.#terminal.alive) this.#terminal.resize(cols, rows);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop?.();
    this.#viewer.close();
    this.#onClose?.();
  }

  /** A viewer this far behind is dropped: it never holds the program or the others up. */
  #check(queued: number): void {
    if (this.#closed || queued <= VIEWER_QUEUE_BYTES) return;
    this.#viewer.event({ event: "lagged" });
    this.close();
  }
}

function parseSize(payload: Uint8Array): { cols: number; rows: number } | undefined {
  try {
    const { cols, rows } = JSON.parse(new TextDecoder().decode(payload)) as { cols: unknown; rows: unknown };
    const ok = (n: unknown) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 1000;
    return ok(cols) && ok(rows) ? { cols: cols as number, rows: rows as number } : undefined;
  } catch {
    return undefined;
  }
}
