import { expect, test } from "bun:test";
import { FairFeed, HOLD_BYTES, RESUME_BYTES } from "./fair-feed.ts";

/** A consumer that takes `msPerByte` per byte, like a parser. */
function slowConsumer(msPerKiB: number, into: number[]) {
  return (bytes: Uint8Array) => {
    const until = performance.now() + (bytes.length / 1024) * msPerKiB;
    while (performance.now() < until) {}
    into.push(...bytes);
  };
}

test("past its share of a turn, the feed finishes on later turns, " +
  "in order; the program is held only once a backlog builds up", async () => {
  const received: number[] = [];
  const flow: string[] = [];
  const feed = new FairFeed(slowConsumer(1, received), {
    enabled: () => true,
    stop: () => flow.push("XOFF"),
    start: () => flow.push("XON"),
  });
  const chunk = Uint8Array.from({ length: 64 * 1024 }, (_, i) => i & 0xff);
  feed.push(chunk); // 64 ms of work at 1 ms/KiB: far over one share
  expect(received.length).toBeLessThan(chunk.length);
  expect(feed.pending).toBe(true);
  expect(flow).toEqual([]); // 64 KiB waiting: the program goes on meanwhile
  const more = Uint8Array.from({ length: HOLD_BYTES }, (_, i) => (i * 7) & 0xff);
  feed.push(more); // read while parsing: queued behind, never ahead; now past HOLD_BYTES, so held
  expect(flow).toEqual(["XOFF"]);
  feed.push(Uint8Array.of(1, 2, 3));
  while (feed.pending) await new Promise((resolve) => setImmediate(resolve));
  expect(flow).toEqual(["XOFF", "XON"]);
  expect(received.length).toBe(chunk.length + more.length + 3);
  expect(received.slice(0, chunk.length)).toEqual([...chunk]);
  expect(received.slice(chunk.length, chunk.length + more.length)).toEqual([...more]);
  expect(received.slice(-3)).toEqual([1, 2, 3]);
}, 20_000);

test("without flow control (a raw-mode program) everything is delivered at once", () => {
  const received: number[] = [];
  const feed = new FairFeed(slowConsumer(1, received), { enabled: () => false, stop: () => {}, start: () => {} });
  feed.push(new Uint8Array(40 * 1024));
  expect(received.length).toBe(40 * 1024);
  expect(feed.pending).toBe(false);
});

test("a consumer parsing elsewhere: what it has not parsed counts, and its progress restarts the program", async () => {
  let unparsed = 0;
  const flow: string[] = [];
  const feed = new FairFeed(
    (bytes) => void (unparsed += bytes.length),
    { enabled: () => true, stop: () => flow.push("XOFF"), start: () => flow.push("XON") },
    () => unparsed,
  );
  feed.push(new Uint8Array(HOLD_BYTES - 1024));
  expect(flow).toEqual([]);
  feed.push(new Uint8Array(2048)); // past HOLD_BYTES handed over, none parsed yet
  expect(flow).toEqual(["XOFF"]);
  // It all goes to the consumer: at once, or (a loaded machine stalled a delivery past the turn's
  // share) the rest on the next turns.
  while (feed.pending) await new Promise((resolve) => setImmediate(resolve));
  expect(unparsed).toBe(HOLD_BYTES + 1024);
  expect(flow).toEqual(["XOFF"]);
  unparsed = RESUME_BYTES + 1024;
  feed.parsed();
  expect(flow).toEqual(["XOFF"]); // still over the restart mark
  unparsed = RESUME_BYTES - 1024;
  feed.parsed();
  expect(flow).toEqual(["XOFF", "XON"]);
});
