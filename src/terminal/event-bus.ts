// Fan-out of terminal events to subscribers, each with an optional terminal filter, and the
// daemon's recent events for a subscriber that lost its link (`events` `since`): every event gets
// the next number of this daemon instance. Publishing never blocks: a subscriber's own sink
// decides what to do with a slow reader; the ring keeps at most EVENT_RING_BYTES.
import type { TerminalEvent } from "../protocol/events.ts";
import { EVENT_RING_BYTES } from "../protocol/limits.ts";

export type EventSink = (event: TerminalEvent) => void;

interface Subscriber {
  terminal: string | undefined;
  sink: EventSink;
}

/** Where a subscriber resumes: the last `seq` it saw, of which daemon instance. */
export interface Resume {
  since: number;
  instance?: string;
}

const terminalOf = (event: TerminalEvent) => ("terminal" in event ? event.terminal : undefined);

export class EventBus {
  readonly #subscribers = new Set<Subscriber>();
  /** Tells a restarted daemon apart from the one a subscriber's `since` counted in. */
  readonly instance = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  #seq = 0;
  /** Recent events, oldest first from #head (a shift per event would copy the array). */
  #ring: Array<{ event: TerminalEvent; seq: number; bytes: number }> = [];
  #head = 0;
  #ringBytes = 0;

  constructor(private readonly ringBytes = EVENT_RING_BYTES) {}

  /** The number of the last event published (0: none yet). */
  get seq(): number {
    return this.#seq;
  }

  /**
   * From now on, every event (of one terminal, or all) goes to sink. With `resume`, the events
   * after it still in the ring go first, in the same turn (none is missed or sent twice), after
   * a `gap` event when some are no longer held or the daemon is another instance.
   */
  subscribe(terminal: string | undefined, sink: EventSink, resume?: Resume): () => void {
    if (resume) {
      const restarted = resume.instance !== undefined && resume.instance !== this.instance;
      const since = restarted ? 0 : resume.since;
      const oldest = this.#head < this.#ring.length ? this.#ring[this.#head]!.seq : this.#seq + 1;
      if (restarted || oldest > since + 1) {
        sink({ event: "gap", lost: restarted ? null : oldest - since - 1, ...(restarted ? { restarted: true } : {}) });
      }
      for (let i = this.#head; i < this.#ring.length; i++) {
        const { event, seq } = this.#ring[i]!;
        if (seq > since && (terminal === undefined || terminalOf(event) === terminal)) sink(event);
      }
    }
    const subscriber = { terminal, sink };
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  publish(event: TerminalEvent): void {
    const seq = ++this.#seq;
    const stamped = { ...event, seq };
    const bytes = JSON.stringify(stamped).length;
    this.#ring.push({ event: stamped, seq, bytes });
    this.#ringBytes += bytes;
    while (this.#ringBytes > this.ringBytes && this.#ring.length - this.#head > 1)
      this.#ringBytes -= this.#ring[this.#head++]!.bytes;
    if (this.#head > 1024 && this.#head * 2 > this.#ring.length) {
      this.#ring = this.#ring.slice(this.#head);
      this.#head = 0;
    }
    const terminal = terminalOf(stamped);
    for (const subscriber of this.#subscribers) {
      if (subscriber.terminal === undefined || subscriber.terminal === terminal) subscriber.sink(stamped);
    }
  }

  get size(): number {
    return this.#subscribers.size;
  }
}
