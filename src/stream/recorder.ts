// A terminal's output as an asciicast file (v2, the format asciinema 2.x plays; v3 on request),
// written as it happens: a header with the size, time, title and TERM/SHELL, then "o" output,
// "r" resizes, "i" input when asked, and "m" markers at command_start/command_done (with the exit
// code) where shell integration runs. A recording that starts mid-session opens with the screen
// as it is. Writes go out at least once a second, from a bounded buffer, never blocking the PTY.
// An existing file is never overwritten: a cast is continued (a restored session, a second
// `record` to the same file) with a marker, anything else refused. A write that fails (a full
// disk) loses only what it carried: the header is written again until it lands, and the gap is
// marked in the cast once writes succeed again.
import { forDisplay } from "../protocol/program-text.ts";
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, statSync, write, writeSync } from "node:fs";
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
  /** v2 times count from the cast's start: a continued cast goes on from its last event. */
  readonly #offset: number;
  /** Bytes in the file: a write cut short is cut back to here, so no half line stays. */
  #size: number;
  /** Until it is on disk, the header goes first in every write. */
  #header: string | undefined;
  /** Why bytes were lost (a slow disk, a write error), said in the cast's next marker. */
  #dropReason = "";
  #last = 0;
  #pending: string[] = [];
  #pendingBytes = 0;
  #writing = false;
  #dropped = 0;
  #closed = false;
  /** Settles once the file is closed with every event in it. */
  readonly #finished = Promise.withResolvers<void>();
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #untap: () => void;
  readonly #unsubscribe: () => void;
  readonly #decoder = new TextDecoder("utf-8");
  readonly #inputDecoder = new TextDecoder("utf-8");
  #onEnd: (() => void) | undefined;

  /** Throws when the file cannot be created. */
  constructor(terminal: Terminal, options: RecordOptions) {
    this.path = options.path;
    const existing = existingCast(options.path);
    this.#format = existing?.format ?? options.format;
    this.#offset = existing?.lastTime ?? 0;
    this.#fd = openSync(options.path, "a", 0o600);
    this.#size = fstatSync(this.#fd).size;
    const { cols, rows } = terminal.screen;
    const timestamp = Math.floor(Date.now() / 1000);
    // A player shows the header's title: the program's text, shown.
    const title = forDisplay(terminal.screen.title) || undefined;
    if (existing) {
      // A line a crash cut short is ended first, so the next event starts a line of its own.
      if (existing.unterminated) this.#header = "\n";
      this.#event("m", `recording continued ${new Date().toISOString()}`);
      this.#event("r", `${cols}x${rows}`);
    } else {
      const header =
        this.#format === "v2"
          ? {
              version: 2,
              width: cols,
              height: rows,
              timestamp,
              title,
              env: { TERM: options.env.TERM ?? "xterm-256color", SHELL: options.env.SHELL ?? "" },
            }
          : {
              version: 3,
              term: { cols, rows, type: options.env.TERM ?? "xterm-256color" },
              timestamp,
              title,
              env: { SHELL: options.env.SHELL ?? "" },
            };
      this.#header = `${JSON.stringify(header)}\n`;
    }
    // The screen as it is now, then every byte after it: the same seam as attach (terminal.tap).
    const screen = terminal.bytesOut > 0 ? terminal.screen.serialize(0) : "";
    this.#untap = terminal.tap({
      output: (chunk) => this.#event("o", this.#decoder.decode(chunk, { stream: true })),
      input: options.input
        ? (data) =>
            this.#event("i", typeof data === "string" ? data : this.#inputDecoder.decode(data, { stream: true }))
        : undefined,
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

  /**
   * Stops recording: what is buffered is written, then the file is closed. Settles once the file
   * holds everything (at once, unless a write was in flight: then after it and the rest).
   */
  close(): Promise<void> {
    if (this.#closed) return this.#finished.promise;
    const rest = this.#decoder.decode();
    if (rest) this.#event("o", rest);
    this.#closed = true;
    clearInterval(this.#timer);
    this.#untap();
    this.#unsubscribe();
    this.#flush(true);
    this.#onEnd?.();
    return this.#finished.promise;
  }

  #event(code: string, data: string): void {
    if (this.#closed || data === "") return;
    const now = this.#offset + (performance.now() - this.#started) / 1000;
    // v2 times events from the start, v3 from the event before.
    const time = this.#format === "v2" ? now : now - this.#last;
    this.#last = now;
    if (this.#pendingBytes > MAX_PENDING_BYTES) {
      this.#dropped += data.length;
      this.#dropReason ||= "the disk was too slow";
      return;
    }
    if (this.#dropped) {
      const note = `recording dropped ${this.#dropped} bytes: ${this.#dropReason}`;
      this.#dropped = 0;
      this.#dropReason = "";
      this.#push(`${JSON.stringify([Number(time.toFixed(6)), "m", note])}\n`);
    }
    this.#push(`${JSON.stringify([Number(time.toFixed(6)), code, data])}\n`);
    if (this.#pendingBytes >= FLUSH_AT_BYTES) this.#flush();
  }

  #push(line: string): void {
    this.#pending.push(line);
    this.#pendingBytes += line.length;
  }

  /**
   * One write in flight at a time, off the event loop. The last one (closing) is written at once
   * when no write is in flight, else right after it: a client told "stopped" reads a whole file.
   */
  #flush(final = false): void {
    if (this.#writing) return; // its callback writes the rest (and closes, once closed)
    if (this.#pending.length === 0) {
      if (final) this.#closeFile();
      return;
    }
    const header = this.#header ?? "";
    const bytes = Buffer.from(header + this.#pending.join(""));
    const events = bytes.length - Buffer.byteLength(header);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (final) {
      let written = 0;
      let failure: NodeJS.ErrnoException | undefined;
      try {
        while (written < bytes.length) written += writeSync(this.#fd, bytes, written);
      } catch (error) {
        failure = error as NodeJS.ErrnoException;
      }
      this.#written(bytes.length, events, written, failure);
      this.#closeFile();
      return;
    }
    this.#writing = true;
    write(this.#fd, bytes, 0, bytes.length, null, (error, written) => {
      this.#writing = false;
      this.#written(bytes.length, events, written, error ?? undefined);
      if (this.#closed) this.#flush(true);
    });
  }

  /** After a write: the header is on disk, or (a full disk, another failure) what it carried is gone. */
  #written(length: number, events: number, written: number, error: NodeJS.ErrnoException | undefined): void {
    if (!error && written === length) {
      this.#header = undefined;
      this.#size += written;
      return;
    }
    // A part that landed is cut back off, so the file stays whole lines; the next write that
    // lands says what was lost.
    if (written > 0) {
      try {
        ftruncateSync(this.#fd, this.#size);
      } catch {
        // Cannot even cut it back: the half line stays; the marker still tells.
      }
    }
    this.#dropped += events;
    this.#dropReason = `could not write the file (${error?.code ?? "a short write: the disk is likely full"})`;
  }

  #closeFile(): void {
    try {
      closeSync(this.#fd);
    } finally {
      this.#finished.resolve();
    }
  }
}

/** The cast already in the file, to continue; undefined for a missing or empty file; throws for anything else. */
function existingCast(path: string): { format: CastFormat; lastTime: number; unterminated: boolean } | undefined {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return undefined;
  }
  if (size === 0) return undefined;
  const fd = openSync(path, "r");
  try {
    const read = (at: number, length: number) => {
      const buffer = Buffer.alloc(length);
      return buffer.subarray(0, readSync(fd, buffer, 0, length, at)).toString("utf8");
    };
    const firstLine = read(0, Math.min(size, 64 * 1024)).split("\n")[0]!;
    let version: unknown;
    try {
      version = (JSON.parse(firstLine) as { version?: unknown }).version;
    } catch {
      version = undefined;
    }
    if (version !== 2 && version !== 3)
      throw new Error("it exists and is not an asciicast recording (t4a never overwrites a file)");
    // v2: the last event's time is where the continued cast goes on from.
    const tail = read(Math.max(0, size - 64 * 1024), Math.min(size, 64 * 1024))
      .trimEnd()
      .split("\n");
    let lastTime = 0;
    for (const line of tail.reverse()) {
      try {
        const event = JSON.parse(line) as unknown;
        if (Array.isArray(event) && typeof event[0] === "number") {
          lastTime = event[0];
          break;
        }
      } catch {
        // A line cut short by a crash: look further back.
      }
    }
    return {
      format: version === 2 ? "v2" : "v3",
      lastTime: version === 2 ? lastTime : 0,
      unterminated: read(size - 1, 1) !== "\n",
    };
  } finally {
    closeSync(fd);
  }
}
