// The daemon's side of emulation: a pool of worker threads that own the screens (and their
// scrollback), so parsing runs on every core instead of on the one thread that serves sockets
// and PTYs. The only file that touches worker_threads.
//
// Output bytes go to a screen's worker in order and are parsed there. A read is a blocking call:
// the daemon thread posts it behind the bytes already sent and waits for the answer, taking every
// event the worker sent before it (OSC marks, titles, parse reports) on the way, in order. So a
// read answers for exactly the output handed over so far, as when parsing was synchronous, and
// everything the daemon learnt from the output before that point has been applied when it returns.
// With no workers (T4A_SCREEN_WORKERS=0, see defaultWorkers) the same host runs on the daemon's thread.
import { fromProgram, type ProgramText } from "../protocol/program-text.ts";
import { availableParallelism } from "node:os";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import { T4aError } from "../protocol/errors.ts";
import type { CellGrid, CursorStyle, MouseReporting } from "./cell-grid.ts";
import type { Element } from "./elements.ts";
import { ScreenHost, type HostEvent, type HostRequest, type Parsed, type ScreenRead } from "./screen-host.ts";
import { within } from "./within.ts";
import type { ChangedRows, Region, ScreenOptions } from "./screen.ts";
import type { CaptureOptions } from "./tmux-capture.ts";

/**
 * Past this many bytes written and not yet parsed, a write waits for the worker: the bound where
 * a program's output cannot be held (fair-feed.ts, pty.ts), which with its tty's flow is rare.
 */
const MAX_UNPARSED_BYTES = 1024 * 1024;
/** A batch this big goes at once, without waiting for the end of the turn. */
const BATCH_BYTES = 64 * 1024;
/** A worker that has not answered a read in this long is broken: the read fails instead of hanging the daemon. */
const CALL_TIMEOUT_MS = 10_000;
/** Blocked on a read, look again this often even without a wake-up (belt and braces). */
const WAKE_CHECK_MS = 50;

export interface ScreenEvents {
  /** Bytes the emulator answers to the program (DA, DSR/CPR): write them to the PTY. */
  reply(data: string, answers: number): void;
  title(title: ProgramText): void;
  bell(): void;
  /** OSC sequences by number, each with the cursor's stable row and column where it stood in the output. */
  osc: Record<number, (payload: string, at: { row: number; col: number }) => void>;
  /** A piece of output was parsed: the rows it changed. */
  parsed(parsed: Parsed): void;
}

/** Where a pool's screens run: a worker thread, or the daemon's own. */
interface Link {
  readonly screens: Set<number>;
  /** A worker that failed: its screens take no more output and answer no reads. */
  readonly broken: boolean;
  /** Output is gathered per turn before it is posted (not where it parses as it is posted). */
  readonly batches: boolean;
  post(request: HostRequest): void;
  /**
   * At the end of this turn of the event loop, `flush` hands its output over (with every other screen's of the link).
   */
  sendSoon(flush: () => void): void;
  /** Blocks until the host has answered the call (every earlier request handled first). */
  call(request: HostRequest & { call: number }): unknown;
  close(): void;
}

export class ScreenPool {
  readonly #size: number;
  readonly #links: Link[] = [];
  readonly #proxies = new Map<number, ScreenProxy>();
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  #nextScreen = 0;
  #nextCall = 0;

  /** `workers`: threads to parse on (0: the daemon's own thread); default from T4A_SCREEN_WORKERS. */
  constructor(workers = defaultWorkers()) {
    this.#size = workers;
  }

  get workers(): number {
    return this.#size;
  }

  /** Screens on each worker started so far. */
  get loads(): number[] {
    return this.#links.map((link) => link.screens.size);
  }

  /** A new screen on the least loaded worker (workers start as screens need them). */
  open(options: ScreenOptions, events: ScreenEvents): ScreenProxy {
    const link = this.#leastLoaded();
    const id = ++this.#nextScreen;
    const proxy = new ScreenProxy(this, link, id, options, events);
    this.#proxies.set(id, proxy);
    link.screens.add(id);
    link.post({ op: "open", screen: id, options, osc: Object.keys(events.osc).map(Number) });
    return proxy;
  }

  close(): void {
    for (const link of this.#links) link.close();
    this.#links.length = 0;
  }

  /** @internal ScreenProxy's way in. */
  forget(link: Link, id: number): void {
    link.screens.delete(id);
    this.#proxies.delete(id);
    link.post({ op: "close", screen: id });
  }

  /** @internal */
  call(link: Link, request: DistributiveOmit<HostRequest & { call: number }, "call">): unknown {
    return link.call({ ...request, call: ++this.#nextCall } as HostRequest & { call: number });
  }

  /** @internal A call answered later, without blocking. */
  callLater(link: Link, request: DistributiveOmit<HostRequest & { call: number }, "call">): Promise<unknown> {
    const call = ++this.#nextCall;
    const { promise, resolve, reject } = Promise.withResolvers<unknown>();
    this.#pending.set(call, { resolve, reject });
    link.post({ ...request, call } as HostRequest);
    return promise;
  }

  /** The working link with the fewest screens; a new worker while there are fewer than asked and each has one. */
  #leastLoaded(): Link {
    const working = this.#links.filter((link) => !link.broken);
    let best = working[0];
    for (const link of working) if (link.screens.size < best!.screens.size) best = link;
    if (best && (best.screens.size === 0 || working.length >= Math.max(1, this.#size))) return best;
    const dispatch = (event: HostEvent) => this.#dispatch(event);
    const link = this.#size === 0 ? new InlineLink(dispatch) : new WorkerLink(dispatch);
    this.#links.push(link);
    return link;
  }

  /** An event from a host: to its screen, or the answer to a call made with callLater. */
  #dispatch(event: HostEvent): void {
    if (event.ev === "return") {
      const pending = this.#pending.get(event.call);
      if (!pending) return;
      this.#pending.delete(event.call);
      if (event.error !== undefined) pending.reject(new Error(event.error));
      else pending.resolve(event.value);
      return;
    }
    this.#proxies.get(event.screen)?.event(event);
  }
}

/**
 * One screen as the daemon's thread sees it: the Screen's reads (blocking calls to its worker),
 * writes handed over without waiting, and its size and title known here at once.
 */
export class ScreenProxy {
  readonly #pool: ScreenPool;
  readonly #link: Link;
  readonly #id: number;
  readonly #events: ScreenEvents;
  #cols: number;
  #rows: number;
  #title = fromProgram("");
  /** Whether the output parsed so far ends inside a synchronized-output frame (its last report). */
  #inSyncFrame = false;
  #unparsed = 0;
  #closed = false;
  /** Written this turn, not yet handed to the worker (see write). */
  #batch: Uint8Array[] = [];
  #batchBytes = 0;
  #sendSoon = false;

  constructor(pool: ScreenPool, link: Link, id: number, options: ScreenOptions, events: ScreenEvents) {
    this.#pool = pool;
    this.#link = link;
    this.#id = id;
    this.#events = events;
    this.#cols = options.cols;
    this.#rows = options.rows;
  }

  get cols(): number {
    return this.#cols;
  }

  get rows(): number {
    return this.#rows;
  }

  /** What its OSC 0/2 set: the program's text. */
  get title(): ProgramText {
    return this.#title;
  }

  /** Bytes written and not yet parsed. */
  get unparsed(): number {
    return this.#unparsed;
  }

  /**
   * Hands the bytes over (copied: the caller may reuse its buffer); parsed in order, reported by
   * `parsed`. What a screen was written in one turn of the event loop is one write, and a worker
   * gets the writes of all its screens of that turn in one message (a flood arrives in reads of a
   * few KB, a printing program in lines: a message and an answer each cost more than parsing them).
   */
  write(bytes: Uint8Array): void {
    if (this.#closed || this.#link.broken) return;
    this.#unparsed += bytes.length;
    if (!this.#link.batches) this.#link.post({ op: "write", screen: this.#id, bytes });
    else {
      this.#batch.push(new Uint8Array(bytes));
      this.#batchBytes += bytes.length;
      if (this.#batchBytes >= BATCH_BYTES) this.#send();
      else if (!this.#sendSoon) {
        this.#sendSoon = true;
        this.#link.sendSoon(() => this.#send());
      }
    }
    if (this.#unparsed > MAX_UNPARSED_BYTES) this.catchUp();
  }

  /** What was written and not yet handed over, as one message; before anything else is asked. */
  #send(): void {
    this.#sendSoon = false;
    if (!this.#batchBytes || this.#closed) return;
    const batch = this.#batch;
    let bytes = batch[0]!;
    if (batch.length > 1) {
      bytes = new Uint8Array(this.#batchBytes);
      let offset = 0;
      for (const chunk of batch) {
        bytes.set(chunk, offset);
        offset += chunk.length;
      }
    }
    this.#batch = [];
    this.#batchBytes = 0;
    this.#link.post({ op: "write", screen: this.#id, bytes });
  }

  /** Resolves with what the resize cost (ms): rewrapping a long archive takes a while, off this thread. */
  resize(cols: number, rows: number): Promise<number> {
    this.#send();
    this.#cols = cols;
    this.#rows = rows;
    return this.#pool.callLater(this.#link, { op: "resize", screen: this.#id, cols, rows }) as Promise<number>;
  }

  /**
   * Resolves once everything written has been parsed and every event of it handled, without
   * blocking (or at once for a broken worker; after CALL_TIMEOUT_MS for one that hangs).
   */
  whenParsed(): Promise<void> {
    if (this.#closed || this.#link.broken) return Promise.resolve();
    this.#send();
    const parsed = this.#pool.callLater(this.#link, { op: "read", screen: this.#id, read: "inSyncFrame", args: [] });
    return within<void>(
      CALL_TIMEOUT_MS,
      (settle) =>
        void parsed.then(
          () => settle(),
          () => settle(),
        ),
      () => undefined,
    );
  }

  /** Blocks until everything written has been parsed and every event of it handled. */
  catchUp(): void {
    this.#read("inSyncFrame");
  }

  dispose(): void {
    if (this.#closed) return;
    this.#send();
    this.#closed = true;
    this.#pool.forget(this.#link, this.#id);
  }

  cursorStableRow(): number {
    return this.#read("cursorStableRow") as number;
  }

  get bottomStableRow(): number {
    return this.#read("bottomStableRow") as number;
  }

  changeToken(): string {
    return this.#read("changeToken") as string;
  }

  changedSince(token: string, region: Region): ChangedRows {
    return this.#read("changedSince", token, region) as ChangedRows;
  }

  rowsBetween(
    from: { row: number; col: number },
    to: { row: number; col?: number },
  ): Array<{ text: string; wrapped: boolean } | undefined> {
    return this.#read("rowsBetween", from, to) as Array<{ text: string; wrapped: boolean } | undefined>;
  }

  logicalLines(first: number, last: number): Array<{ text: string; first: number; last: number }> {
    return this.#read("logicalLines", first, last) as Array<{ text: string; first: number; last: number }>;
  }

  fromBottom(row: number, region: Region): number {
    return this.#read("fromBottom", row, region) as number;
  }

  get bracketedPaste(): boolean {
    return this.#read("bracketedPaste") as boolean;
  }

  get alternate(): boolean {
    return this.#read("alternate") as boolean;
  }

  get applicationCursorKeys(): boolean {
    return this.#read("applicationCursorKeys") as boolean;
  }

  get inSyncFrame(): boolean {
    // Every byte written has been parsed: the last report says, without a round trip (every
    // read a request makes is one, and on a saturated machine each waits for the worker's turn).
    if (this.#unparsed === 0 && this.#batchBytes === 0) return this.#inSyncFrame;
    return this.#read("inSyncFrame") as boolean;
  }

  regionLength(region: Region): number {
    return this.#read("regionLength", region) as number;
  }

  lines(region: Region, start: number, end: number, trim: boolean): string[] {
    return this.#read("lines", region, start, end, trim) as string[];
  }

  capture(region: Region, start: number, end: number, options: CaptureOptions): string[] {
    return this.#read("capture", region, start, end, options) as string[];
  }

  clearHistory(): void {
    this.#read("clearHistory");
  }

  serialize(scrollback: number): string {
    return this.#read("serialize", scrollback) as string;
  }

  blankRowsBelow(region: Region): number {
    return this.#read("blankRowsBelow", region) as number;
  }

  cursor(): { row: number; col: number; visible: boolean; style: CursorStyle } {
    return this.#read("cursor") as { row: number; col: number; visible: boolean; style: CursorStyle };
  }

  cellGrid(): CellGrid {
    return this.#read("cellGrid") as CellGrid;
  }

  /** The mouse reports the program turned on (what a click must be encoded as). */
  mouse(): MouseReporting {
    return this.#read("mouse") as MouseReporting;
  }

  /** The screen as elements (docs/elements.md), detected where the screen lives: off the daemon's thread. */
  elements(ended = false): Element[] {
    return this.#read("elements", ended) as Element[];
  }

  /** @internal From the pool: an event of this screen, in output order. */
  event(event: Exclude<HostEvent, { ev: "return" }>): void {
    if (this.#closed) return;
    switch (event.ev) {
      case "parsed":
        this.#unparsed -= event.bytes;
        this.#inSyncFrame = event.inSyncFrame;
        return this.#events.parsed(event);
      case "osc":
        return this.#events.osc[event.ident]?.(event.payload, { row: event.row, col: event.col });
      case "title":
        this.#title = fromProgram(event.title);
        return this.#events.title(this.#title);
      case "bell":
        return this.#events.bell();
      case "reply":
        return this.#events.reply(event.data, event.answers);
    }
  }

  #read(read: ScreenRead, ...args: unknown[]): unknown {
    if (this.#closed) throw new Error("the screen is closed");
    this.#send();
    return this.#pool.call(this.#link, { op: "read", screen: this.#id, read, args });
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * One worker per core unless T4A_SCREEN_WORKERS says otherwise ("0": the daemon's own thread,
 * "N": N workers, "cores": one per core). Measured on two cores (bench/README.md): `seq 1 2000000`
 * ~0.7x the time on one thread. It was opt-in for a while after a CI run with it failed two tests.
 * One was a race its timing exposed, fixed since: record --stop answered before the cast's last
 * write. The other (a restart's first `list` saw the connection close) was the test's: it took a
 * SIGKILLed daemon for dead while its last threads still held the socket open (it failed on one
 * thread too).
 */
function defaultWorkers(): number {
  const configured = process.env.T4A_SCREEN_WORKERS;
  if (configured !== undefined && /^\d+$/.test(configured)) return Number(configured);
  return availableParallelism();
}

/** Screens on the daemon's own thread: requests are handled as they are made. */
class InlineLink implements Link {
  readonly screens = new Set<number>();
  readonly broken = false;
  readonly batches = false;
  readonly #host: ScreenHost;
  #answer: { call: number; value?: unknown; error?: string } | undefined;

  constructor(dispatch: (event: HostEvent) => void) {
    this.#host = new ScreenHost((event) => {
      if (event.ev === "return" && event.call === this.#answer?.call) this.#answer = event;
      else dispatch(event);
    });
  }

  post(request: HostRequest): void {
    this.#host.handle(request);
  }

  sendSoon(flush: () => void): void {
    flush();
  }

  call(request: HostRequest & { call: number }): unknown {
    this.#answer = { call: request.call };
    this.#host.handle(request);
    const answer = this.#answer;
    this.#answer = undefined;
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.value;
  }

  close(): void {}
}

/**
 * The worker's module: beside this one in the sources; in the compiled binary, where build.ts's
 * second entry lands (its chunks sit at the root of the embedded src/ tree).
 */
const WORKER_ENTRY = new URL(
  import.meta.url.startsWith("file:///$bunfs/") ? "./terminal/screen-worker.ts" : "./screen-worker.ts",
  import.meta.url,
);

/** Screens on a worker thread (screen-worker.ts). */
class WorkerLink implements Link {
  readonly screens = new Set<number>();
  readonly batches = true;
  readonly #worker: Worker;
  readonly #port: MessagePort;
  /** Bumped by the worker after each answer it sends: what a blocked read sleeps on. */
  readonly #answered = new Int32Array(new SharedArrayBuffer(4));
  readonly #dispatch: (event: HostEvent) => void;
  /** Blocking reads in progress (a read made while handling an event nests), and answers that came for them. */
  readonly #waiting = new Set<number>();
  readonly #answers = new Map<number, { value?: unknown; error?: string }>();
  /**
   * Batches of events taken and not all handled yet, oldest first. A read made while handling
   * one takes the batches after it; their events must still come after the rest of this one's.
   */
  readonly #inbox: { events: HostEvent[]; next: number }[] = [];
  /** Why this worker can no longer be used, once it cannot. */
  #broken: string | undefined;
  /**
   * Requests of this turn, posted as one message at its end (or before a read, or once they
   * carry BATCH_BYTES of output). A hundred sessions printing a line each made a message each
   * way per line: the daemon's thread, busy with messages, never slept, and on a saturated
   * machine the scheduler left its requests waiting for seconds.
   */
  #outgoing: HostRequest[] = [];
  #outgoingBuffers: ArrayBuffer[] = [];
  #outgoingBytes = 0;
  /** Screens with output to hand over at the end of this turn. */
  #flushes: Array<() => void> = [];
  #flushScheduled = false;

  constructor(dispatch: (event: HostEvent) => void) {
    this.#dispatch = dispatch;
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#worker = new Worker(WORKER_ENTRY, {
      workerData: { port: port2, answered: this.#answered.buffer },
      transferList: [port2],
    });
    this.#worker.on("error", (error) =>
      this.#break(`failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    this.#worker.on("exit", (code) => this.#break(`exited (${code})`));
    // Neither keeps the daemon (or a test) alive on its own.
    this.#worker.unref();
    port1.on("message", (events: HostEvent[]) => this.#takeAll(events));
    port1.unref();
  }

  get broken(): boolean {
    return this.#broken !== undefined;
  }

  post(request: HostRequest): void {
    if (this.#broken) return;
    this.#outgoing.push(request);
    // Output moves to the worker without a copy: the proxy's batch is its own (a moved buffer is
    // emptied where it was, so never the PTY's chunk, which the taps read after the write).
    if (request.op === "write") {
      this.#outgoingBuffers.push(request.bytes.buffer as ArrayBuffer);
      this.#outgoingBytes += request.bytes.length;
    }
    if (this.#outgoingBytes >= BATCH_BYTES) this.#flush();
    else this.#scheduleFlush();
  }

  sendSoon(flush: () => void): void {
    this.#flushes.push(flush);
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    setImmediate(() => this.#flush());
  }

  /** Every screen's output of this turn, and every request queued, as one message. */
  #flush(): void {
    this.#flushScheduled = false;
    const flushes = this.#flushes;
    this.#flushes = [];
    for (const flush of flushes) flush();
    if (this.#outgoing.length === 0 || this.#broken) return;
    const requests = this.#outgoing;
    const buffers = this.#outgoingBuffers;
    this.#outgoing = [];
    this.#outgoingBuffers = [];
    this.#outgoingBytes = 0;
    this.#port.postMessage(requests, buffers);
  }

  call(request: HostRequest & { call: number }): unknown {
    if (this.#broken) throw new T4aError("internal", `the screen worker of this session ${this.#broken}`);
    this.#waiting.add(request.call);
    this.#outgoing.push(request);
    this.#flush();
    const deadline = performance.now() + CALL_TIMEOUT_MS;
    try {
      for (;;) {
        const seen = Atomics.load(this.#answered, 0);
        for (let received = receiveMessageOnPort(this.#port); received; received = receiveMessageOnPort(this.#port)) {
          this.#takeAll(received.message as HostEvent[]);
        }
        const answer = this.#answers.get(request.call);
        if (answer) {
          if (answer.error !== undefined) throw new Error(answer.error);
          return answer.value;
        }
        if (performance.now() > deadline) {
          this.#break(`did not answer within ${CALL_TIMEOUT_MS} ms`);
          throw new T4aError("internal", `the screen worker of this session ${this.#broken}`);
        }
        Atomics.wait(this.#answered, 0, seen, WAKE_CHECK_MS);
      }
    } finally {
      this.#waiting.delete(request.call);
      this.#answers.delete(request.call);
    }
  }

  /**
   * Events, in order. Handling one may make a read of its own (a mark's listener reads the
   * screen), which may take the answer to the read it interrupted: kept here for that one.
   */
  #takeAll(events: HostEvent[]): void {
    this.#inbox.push({ events, next: 0 });
    while (this.#inbox.length) {
      const batch = this.#inbox[0]!;
      const event = batch.events[batch.next++];
      if (!event) {
        this.#inbox.shift();
        continue;
      }
      if (event.ev === "return" && this.#waiting.has(event.call)) this.#answers.set(event.call, event);
      else this.#dispatch(event);
    }
  }

  /**
   * A worker gone wrong takes its screens with it: their reads fail at once from now on (one
   * that hangs held the daemon for CALL_TIMEOUT_MS, once); every other worker's go on.
   */
  #break(why: string): void {
    if (this.#broken) return;
    this.#broken = why;
    console.error(`t4a daemon: a screen worker ${why}; its ${this.screens.size} session(s) can no longer be read`);
  }

  close(): void {
    this.#broken = "was closed";
    void this.#worker.terminate();
    this.#port.close();
  }
}
