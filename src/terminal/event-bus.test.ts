import { expect, test } from "bun:test";
import type { TerminalEvent } from "../protocol/events.ts";
import { EventBus } from "./event-bus.ts";

const bell = (terminal: string): TerminalEvent => ({ event: "bell", terminal });
const collect = () => {
  const seen: TerminalEvent[] = [];
  return { seen, sink: (event: TerminalEvent) => void seen.push(event) };
};

test("every event gets the next seq; a resume replays what came after since, once, then goes on live", () => {
  const bus = new EventBus();
  for (const t of ["t1", "t2", "t1"]) bus.publish(bell(t));
  expect(bus.seq).toBe(3);
  const { seen, sink } = collect();
  bus.subscribe(undefined, sink, { since: 1, instance: bus.instance });
  bus.publish(bell("t3"));
  expect(seen).toEqual([
    { event: "bell", terminal: "t2", seq: 2 },
    { event: "bell", terminal: "t1", seq: 3 },
    { event: "bell", terminal: "t3", seq: 4 },
  ]);
  // One terminal's subscriber replays only its events.
  const one = collect();
  bus.subscribe("t1", one.sink, { since: 0 });
  expect(one.seen.map((e) => (e as { seq: number }).seq)).toEqual([1, 3]);
});

test("a ring that no longer holds since says gap with how many were lost; another instance says restarted", () => {
  const bus = new EventBus(200);
  for (let i = 0; i < 20; i++) bus.publish(bell(`t${i}`));
  const { seen, sink } = collect();
  bus.subscribe(undefined, sink, { since: 2 });
  const first = seen[0] as { event: string; lost: number };
  const replayed = seen.slice(1) as Array<{ seq: number }>;
  expect(first.event).toBe("gap");
  expect(first.lost).toBe(replayed[0]!.seq - 3);
  expect(replayed.at(-1)!.seq).toBe(20);
  expect(replayed.map((e) => e.seq)).toEqual(
    Array.from({ length: replayed.length }, (_, i) => 21 - replayed.length + i),
  );
  const other = collect();
  bus.subscribe(undefined, other.sink, { since: 19, instance: "another" });
  expect(other.seen[0]).toEqual({ event: "gap", lost: null, restarted: true });
  // Nothing lost, nothing replayed: a subscriber up to date gets no gap.
  const current = collect();
  bus.subscribe(undefined, current.sink, { since: 20, instance: bus.instance });
  expect(current.seen).toEqual([]);
});
