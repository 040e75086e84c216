// Fan-out of terminal events to subscribers, each with an optional terminal filter.
// Publishing never blocks: a subscriber's own sink decides what to do with a slow reader.
import type { TerminalEvent } from "../protocol/events.ts";

export type EventSink = (event: TerminalEvent) => void;

interface Subscriber {
  terminal: string | undefined;
  sink: EventSink;
}

export class EventBus {
  readonly #subscribers = new Set<Subscriber>();

  subscribe(terminal: string | undefined, sink: EventSink): () => void {
    const subscriber = { terminal, sink };
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  publish(event: TerminalEvent): void {
    const terminal = "terminal" in event ? event.terminal : undefined;
    for (const subscriber of this.#subscribers) {
      if (subscriber.terminal === undefined || subscriber.terminal === terminal) subscriber.sink(event);
    }
  }

  get size(): number {
    return this.#subscribers.size;
  }
}
