// Where screens live and parse: a set of Screens answering one message stream. The same code runs
// inside a worker (screen-worker.ts) and, with no workers, on the daemon's own thread; only the
// messages cross, so the two behave alike. Knows nothing of PTYs or sessions.
import { Screen, type ScreenOptions } from "./screen.ts";

/** The reads a screen answers from elsewhere: its own methods and getters, by name. */
export type ScreenRead =
  | "cursorStableRow"
  | "bottomStableRow"
  | "changeToken"
  | "changedSince"
  | "rowsBetween"
  | "logicalLines"
  | "fromBottom"
  | "bracketedPaste"
  | "alternate"
  | "applicationCursorKeys"
  | "mouse"
  | "inSyncFrame"
  | "regionLength"
  | "lines"
  | "capture"
  | "clearHistory"
  | "serialize"
  | "blankRowsBelow"
  | "cursor"
  | "cellGrid"
  | "elements";

/** To the host, in order: what a screen is fed and asked. */
export type HostRequest =
  | { op: "open"; screen: number; options: ScreenOptions; osc: number[] }
  | { op: "write"; screen: number; bytes: Uint8Array }
  | { op: "resize"; screen: number; cols: number; rows: number; call: number }
  | { op: "close"; screen: number }
  | { op: "read"; screen: number; call: number; read: ScreenRead; args: unknown[] };

/** Rows a parse changed, and whether the program left a synchronized-output frame open after it. */
export interface Parsed {
  bytes: number;
  first: number;
  last: number;
  inSyncFrame: boolean;
}

/** From the host, in the order things happened in the output. */
export type HostEvent =
  /** The emulator's answers to device queries, those of one stretch of output together. */
  | { ev: "reply"; screen: number; data: string; answers: number }
  | { ev: "title"; screen: number; title: string }
  | { ev: "bell"; screen: number }
  /** An OSC sequence a screen asked for, with the cursor where it stood in the output. */
  | { ev: "osc"; screen: number; ident: number; payload: string; row: number; col: number }
  | ({ ev: "parsed"; screen: number } & Parsed)
  | { ev: "return"; call: number; value?: unknown; error?: string };

type Mergeable = Extract<HostEvent, { ev: "reply" | "title" }>;

/**
 * A bell this soon after the last one told is not told (xterm's bellSuppressTime, 200 ms by
 * default): `yes $'\a'` rang 4 million times, a message each from a worker, and the daemon's RSS
 * went past 300 MB in 5 s behind a subscriber that never read.
 */
export const BELL_SUPPRESS_MS = 200;

export class ScreenHost {
  readonly #screens = new Map<number, Screen>();
  readonly #sink: (event: HostEvent) => void;
  /**
   * An event held back in case the next one merges with it, sent before anything else is: a run
   * of answers to device queries is one event (`\e[c\e[6n` made one message each from a worker
   * and grew the daemon's RSS ~100 MB in 10 s), a run of title changes the last title.
   */
  #held: Mergeable | undefined;

  /** `send` takes events in order; a "return" answers the call it names. */
  constructor(send: (event: HostEvent) => void) {
    this.#sink = send;
  }

  #send(event: HostEvent): void {
    this.#release();
    this.#sink(event);
  }

  #hold(event: Mergeable): void {
    const held = this.#held;
    if (held?.screen !== event.screen || held.ev !== event.ev) {
      this.#release();
      this.#held = event;
    } else if (held.ev === "reply" && event.ev === "reply") {
      held.data += event.data;
      held.answers += event.answers;
    } else if (held.ev === "title" && event.ev === "title") held.title = event.title;
  }

  #release(): void {
    const held = this.#held;
    this.#held = undefined;
    if (held) this.#sink(held);
  }

  /** Never throws: a read's failure is its answer; any other is logged, and the next request is served. */
  handle(request: HostRequest): void {
    try {
      this.#handle(request);
    } catch (error) {
      if ("call" in request)
        this.#send({ ev: "return", call: request.call, error: error instanceof Error ? error.message : String(error) });
      else console.error(`t4a daemon: screen ${request.screen}: ${request.op} failed:`, error);
    }
  }

  #handle(request: HostRequest): void {
    const send = (event: HostEvent) => this.#send(event);
    if (request.op === "open") {
      const id = request.screen;
      let title = "";
      let rangAt = -Infinity;
      const screen = new Screen(request.options, {
        reply: (data) => this.#hold({ ev: "reply", screen: id, data, answers: 1 }),
        // Told when it changes: a shell sets the same one at every prompt.
        title: (next) => {
          if (next === title) return;
          title = next;
          this.#hold({ ev: "title", screen: id, title });
        },
        bell: () => {
          const now = performance.now();
          if (now - rangAt < BELL_SUPPRESS_MS) return;
          rangAt = now;
          send({ ev: "bell", screen: id });
        },
      });
      for (const ident of request.osc) {
        screen.onOsc(ident, (payload) =>
          send({ ev: "osc", screen: id, ident, payload, row: screen.cursorStableRow(), col: screen.cursor().col }),
        );
      }
      this.#screens.set(id, screen);
      return;
    }
    const screen = this.#screens.get(request.screen);
    if (request.op === "close") {
      screen?.dispose();
      this.#screens.delete(request.screen);
      if (this.#held?.screen === request.screen) this.#held = undefined;
      return;
    }
    if (request.op === "write") {
      if (!screen) return;
      screen.write(request.bytes);
      const { first, last } = screen.lastWrite;
      send({
        ev: "parsed",
        screen: request.screen,
        bytes: request.bytes.length,
        first,
        last,
        inSyncFrame: screen.inSyncFrame,
      });
      return;
    }
    if (!screen) throw new Error(`no screen ${request.screen}`);
    if (request.op === "resize") {
      const started = performance.now();
      screen.resize(request.cols, request.rows);
      return send({ ev: "return", call: request.call, value: performance.now() - started });
    }
    const member = screen[request.read] as unknown;
    const value =
      typeof member === "function" ? (member as (...args: unknown[]) => unknown).apply(screen, request.args) : member;
    send({ ev: "return", call: request.call, value });
  }
}
