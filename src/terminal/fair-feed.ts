// Feeds a PTY's output to its consumer in fair shares: at most FAIR_SHARE_MS of parsing per
// event-loop turn, so one flooding program cannot keep every other session waiting.
// Bun reads a flooding PTY chunk after chunk (up to ~0.5 s of parsing per turn) and its terminal
// cannot be paused; past the share, the rest waits for the next turn, and once a backlog builds
// up, the program's output is held (pty.ts: its tty's flow, as Ctrl-S would) and restarted later.
// Nothing is dropped, and the backlog stays bounded: where output cannot be held, or past
// MAX_BACKLOG_BYTES, everything is parsed at once as it arrives.
// A consumer that parses elsewhere (a screen worker) takes bytes at once and parses them later:
// what it has not parsed yet counts as backlog too, and it says when it has parsed more.

/** Measured with bench/run.ts flood and four floods at once: 3 ms halves the tail of 15 ms, at no cost to ingest. */
const FAIR_SHARE_MS = 3;
/** Parse in slices this big so a share can end inside one large read. */
const SLICE_BYTES = 8 * 1024;
const MAX_BACKLOG_BYTES = 1024 * 1024;
/**
 * The program is held only once this much waits, and restarted once the backlog is
 * under RESUME_BYTES, not when it is empty: meanwhile it goes on producing on the other core
 * while the daemon parses, instead of taking turns with the parser. With a screen worker,
 * 512/256 KB kept it fed: `seq 1 2000000` through the daemon 1280–1440 ms against 1500–1630 ms
 * with 256/64 KB (alternating runs), another session's reads as before (its worker takes turns
 * 8 KB at a time). Under screen-pool.ts's 1 MB, past which a write waits for the worker.
 */
export const HOLD_BYTES = 512 * 1024;
export const RESUME_BYTES = 256 * 1024;

export interface FlowControl {
  /** Whether the program's output can be held. */
  enabled(): boolean;
  /** Hold the program's output. */
  stop(): void;
  /** Restart it. */
  start(): void;
}

export class FairFeed {
  readonly #deliver: (bytes: Uint8Array) => void;
  readonly #flow: FlowControl;
  readonly #unparsed: () => number;
  #backlog: Uint8Array[] = [];
  #backlogBytes = 0;
  #busyMs = 0;
  #turnEnding = false;
  #holding = false;
  /** Called each time the backlog has been fully delivered. */
  onDrained: () => void = () => {};

  /** `unparsed`: bytes delivered that the consumer has not parsed yet (one that parses elsewhere). */
  constructor(deliver: (bytes: Uint8Array) => void, flow: FlowControl, unparsed: () => number = () => 0) {
    this.#deliver = deliver;
    this.#flow = flow;
    this.#unparsed = unparsed;
  }

  get pending(): boolean {
    return this.#backlog.length > 0;
  }

  /** Bytes as read from the PTY (the buffer may be reused after this returns). */
  push(chunk: Uint8Array): void {
    if (this.#backlog.length) {
      this.#queue(chunk);
      // A program that can no longer be held (XOFF was its only way, and it cleared IXON): keep
      // up with it rather than queue.
      if (this.#backlogBytes > MAX_BACKLOG_BYTES || !this.#flow.enabled()) this.flush();
      else if (this.#waiting() > HOLD_BYTES && !this.#holding) this.#hold();
      return;
    }
    const rest = this.#feed(chunk);
    if (rest) this.#queue(rest);
    else if (!this.#holding && this.#waiting() > HOLD_BYTES && this.#flow.enabled()) this.#hold();
  }

  /** The consumer parsed more of what it was given: restart a held program once little waits. */
  parsed(): void {
    if (this.#holding && this.#waiting() < RESUME_BYTES) this.#resume();
  }

  /** Bytes read and not yet parsed: ours, and the consumer's. */
  #waiting(): number {
    return this.#backlogBytes + this.#unparsed();
  }

  /** Deliver everything now (the program is gone, or memory says so). */
  flush(): void {
    const backlog = this.#backlog;
    this.#backlog = [];
    this.#backlogBytes = 0;
    for (const bytes of backlog) this.#timed(bytes);
    this.#drained();
  }

  /** Deliver within the share; returns what is left once the share is used up and output is held. */
  #feed(bytes: Uint8Array): Uint8Array | undefined {
    this.#endTurnSoon();
    for (let offset = 0; offset < bytes.length; offset += SLICE_BYTES) {
      if (this.#busyMs >= FAIR_SHARE_MS && this.#flow.enabled()) return bytes.subarray(offset);
      this.#timed(bytes.subarray(offset, offset + SLICE_BYTES));
    }
    return undefined;
  }

  #timed(bytes: Uint8Array): void {
    const started = performance.now();
    this.#deliver(bytes);
    this.#busyMs += performance.now() - started;
  }

  /** Only called while flow control is on (push flushes otherwise). */
  #hold(): void {
    this.#flow.stop();
    this.#holding = true;
  }

  #queue(bytes: Uint8Array): void {
    this.#backlog.push(bytes.slice());
    this.#backlogBytes += bytes.length;
  }

  #endTurnSoon(): void {
    if (this.#turnEnding) return;
    this.#turnEnding = true;
    setImmediate(() => this.#nextTurn());
  }

  /** A new turn, a new share: continue with the backlog, and restart the program once it is empty. */
  #nextTurn(): void {
    this.#turnEnding = false;
    this.#busyMs = 0;
    while (this.#backlog.length) {
      const head = this.#backlog.shift()!;
      this.#backlogBytes -= head.length;
      const rest = this.#feed(head);
      if (rest) {
        this.#backlog.unshift(rest);
        this.#backlogBytes += rest.length;
        if (this.#holding && this.#waiting() < RESUME_BYTES) this.#resume();
        return;
      }
    }
    this.#drained();
  }

  #drained(): void {
    if (this.#waiting() < RESUME_BYTES) this.#resume();
    this.onDrained();
  }

  #resume(): void {
    if (!this.#holding) return;
    this.#holding = false;
    this.#flow.start();
  }
}
