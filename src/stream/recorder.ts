// A terminal's output as an asciicast file (v2, the format asciinema 2.x plays; v3 on request),
// written as it happens: a header with the size, time, title and TERM/SHELL, then "o" output,
// "r" resizes, "i" input when asked, and "m" markers at command_start/command_done (with the exit
// code) where shell integration runs. A recording that starts mid-session opens with the screen
// as it is. Writes go out at least once a second, from a bounded buffer, never blocking the PTY.
import { closeSync, openSync, write } from "node:fs";
import type { TerminalEvent } from "../protocol/events.ts";
import type { Terminal } from "../terminal/terminal.ts";

export type CastFormat = "v2" | "v3";

export interface RecordOptions {
  path: string;
  format: CastFormat;
  input: boolean;
  /** TERM and SHELL of the session, for the header. */
  env: Record<string, string>;
  /** Subscribe to the terminal's events (for the command markers); returns the unsubscribe. */
  events(sink: (event: TerminalEvent) => void): () => void;
}

/** A crash loses at most this much of the recording. */
const FLUSH_EVERY_MS = 1000;
/** Written at once past this much buffered. */
const FLUSH_AT_BYTES = 256 * 1024;
/** Past this much waiting on a slow disk, output is dropped (and the drop is marked). */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

export class Recorder {
  readonly path: string;
  readonly #fd: number;
  readonly #format: CastFormat;
  readonly #started = performance.now();
  #last = 0;
  #pending: string[] = [];
  #pendingBytes = 0;
  #writing = false;
  #dropped = 0;
  #closed = false;
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #untap: () => void;
  readonly #unsubscribe: () => void;
  readonly #decoder = new TextDecoder("utf-8");
  readonly #inputDecoder = new TextDecoder("utf-8");
  #onEnd: (() => void) | undefined;

  /** Throws when the file cannot be created. */
  constructor(terminal: Terminal, options: RecordOptions) {
    this.path = options.path;
    this.#format = options.format;
    this.#fd = openSync(options.path, "w", 0o600);
    const { cols, rows } = terminal.screen;
    const timestamp = Math.floor(Date.now() / 1000);
    const title = terminal.screen.title || undefined;
    const header =
      options.format === "v2"
        ? { version: 2, width: cols, height: rows, timestamp, title, env: { TERM: options.env.TERM ?? "xterm-256color", SHELL: options.env.SHELL ?? "" } }
        : { version: 3, term: { cols, rows, type: options.env.TERM ?? "xterm-256color" }, timestamp, title, env: { SHELL: options.env.SHELL ?? "" } };
    this.#push(`${JSON.stringify(header)}\n`);
    // The screen as it is now, then every byte after it: the same seam as attach (terminal.tap).
    const screen = terminal.bytesOut > 0 ? terminal.screen.serialize(0) : "";
    this.#untap = terminal.tap({
      output: (chunk) => this.#event("o", this.#decoder.decode(chunk, { stream: true })),
      input: options.input ? (data) => this.#event("i", typeof data === "string" ? data : this.#inputDecoder.decode(data, { stream: true })) : undefined,
      resize: (c, r) => this.#event("r", `${c}x${r}`),
      end: () => this.close(),
    });
    if (screen) this.#event("o", screen);
    this.#unsubscribe = options.events((event) => {
      if (event.event === "command_start") this.#event("m", "command_start");
      if (event.event === "command_done") this.#event("m", `command_done exit=${event.code ?? "?"}`);
      if (event.event === "exit" && this.#format === "v3") this.#event("x", String(event.code ?? 1));
    });
    this.#timer = setInterval(() => this.#flush(), FLUSH_EVERY_MS);
  }

  set onEnd(callback: () => void) {
    this.#onEnd = callback;
  }

  /** Stops recording: what is buffered is written, then the file is closed. */
  close(): void {
    if (this.#closed) return;
    const rest = this.#decoder.decode();
    if (rest) this.#event("o", rest);
    this.#closed = true;
    clearInterval(this.#timer);
    this.#untap();
    this.#unsubscribe();
    this.#flush(true);
    this.#onEnd?.();
  }

  #event(code: string, data: string): void {
    if (this.#closed || data === "") return;
    const now = (performance.now() - this.#started) / 1000;
    // v2 times events from the start, v3 from the event before.
    const time = this.#format === "v2" ? now : now - this.#last;
    this.#last = now;
    if (this.#pendingBytes > MAX_PENDING_BYTES) {
      this.#dropped += data.length;
      return;
    }
    if (this.#dropped) {
      const note = `recording dropped ${this.#dropped} bytes: the disk was too slow`;
      this.#dropped = 0;
      this.#push(`${JSON.stringify([Number(time.toFixed(6)), "m", note])}\n`);
    }
    this.#push(`${JSON.stringify([Number(time.toFixed(6)), code, data])}\n`);
    if (this.#pendingBytes >= FLUSH_AT_BYTES) this.#flush();
  }

  #push(line: string): void {
    this.#pending.push(line);
    this.#pendingBytes += line.length;
  }

  /** One write in flight at a time, off the event loop; at the end, the last one waits for it. */
  #flush(final = false): void {
    if (this.#writing || this.#pending.length === 0) {
      if (final && !this.#writing) closeSync(this.#fd);
      return;
    }
    const bytes = Buffer.from(this.#pending.join(""));
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#writing = true;
    write(this.#fd, bytes, 0, bytes.length, null, () => {
      this.#writing = false;
      if (this.#closed) {
        if (this.#pending.length) this.#flush(true);
        else closeSync(this.#fd);
      }
    });
  }
}
