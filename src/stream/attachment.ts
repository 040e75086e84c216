// One viewer of a terminal: the screen replayed, then every output byte, with input and resize
// coming back. Shared by `t4a attach` (socket) and the browser (WebSocket, later): the transport
// hands frames in and takes frames out. A viewer that falls behind is dropped with `lagged`
// (it may attach again); it never slows the program or the other viewers.
import type { Terminal } from "../terminal/terminal.ts";
import { encodeFrame, Frame } from "./frames.ts";

export interface Transport {
  /** Queue bytes for the viewer; answers how many bytes wait for it to read. */
  send(bytes: Uint8Array): number;
  close(): void;
}

/** Bytes waiting for a viewer before it is dropped as lagging. */
export const VIEWER_QUEUE_BYTES = 8 * 1024 * 1024;

export interface AttachOptions {
  readOnly: boolean;
  /** Rows of scrollback to replay above the screen (0 = the screen alone). */
  scrollback: number;
}

export class Attachment {
  readonly #terminal: Terminal;
  readonly #transport: Transport;
  readonly #readOnly: boolean;
  #stop: (() => void) | undefined;
  #closed = false;

  constructor(terminal: Terminal, transport: Transport, options: AttachOptions) {
    this.#terminal = terminal;
    this.#transport = transport;
    this.#readOnly = options.readOnly;
    // In one turn: the screen at this byte, then a tap from the next byte on (terminal.tap).
    const screen = terminal.screen.serialize(options.scrollback);
    this.#stop = terminal.tap({
      output: (chunk) => this.#send(encodeFrame(Frame.output, chunk)),
      resize: (cols, rows) => this.#send(encodeFrame(Frame.event, JSON.stringify({ event: "resize", cols, rows }))),
      end: () => {
        const info = terminal.info();
        this.#send(encodeFrame(Frame.event, JSON.stringify({ event: "exit", code: info.exit_code ?? null, signal: info.signal ?? null })));
        this.close();
      },
    });
    this.#send(encodeFrame(Frame.screen, screen));
    if (!terminal.alive) {
      // A program that has ended sends nothing more: its last screen, then its exit.
      const info = terminal.info();
      this.#send(encodeFrame(Frame.event, JSON.stringify({ event: "exit", code: info.exit_code ?? null, signal: info.signal ?? null })));
      this.close();
    }
  }

  /** A frame from the viewer. */
  receive(type: number, payload: Uint8Array): void {
    if (this.#closed || this.#readOnly || !this.#terminal.alive) return;
    if (type === Frame.input) this.#terminal.write(payload);
    else if (type === Frame.resize) {
      const size = parseSize(payload);
      if (size) this.#terminal.resize(size.cols, size.rows);
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop?.();
    this.#transport.close();
  }

  #send(frame: Uint8Array): void {
    if (this.#closed) return;
    if (this.#transport.send(frame) > VIEWER_QUEUE_BYTES) {
      this.#transport.send(encodeFrame(Frame.event, JSON.stringify({ event: "lagged" })));
      this.close();
    }
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
