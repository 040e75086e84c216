// A worker thread of the screen pool (screen-pool.ts): its screens parse here, off the daemon's
// event loop. Requests come on the port it was given; after each answer to a call it bumps the
// shared counter, which is what a daemon thread blocked on a read waits on.
//
// Screens take turns: each request waits only for the earlier ones of its own screen. A flood's
// output is parsed a slice at a time, round the screens with work, looking for new requests
// between slices, so a read of a quiet screen waits for at most a slice of each busy one, not
// for every byte the floods have queued (as the daemon's fair feed did when it parsed itself).
import { receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import { ScreenHost, type HostEvent, type HostRequest } from "./screen-host.ts";

/** Parse a flood this much at a time before the next screen's turn (~1–3 ms of parsing). */
const SLICE_BYTES = 8 * 1024;
/**
 * With no other screen waiting, a bigger slice (reads are still looked for between slices): each
 * slice sends its last screenful of a plain-line flood through xterm (screen.ts #parse), so 8 KB
 * slices of `seq` cost ~10% more CPU than 32 KB ones (in process, medians of 7: 111 vs 100 ms).
 */
const ALONE_SLICE_BYTES = 32 * 1024;
/**
 * After this much output, once none has come for COLLECT_IDLE_MS, the worker collects its heap.
 * JavaScriptCore and the allocator keep what a flood freed for a while: a session of 10 000 lines
 * took 1.74 / 1.75 MB of the daemon's RSS (bench memory), 1.19 / 1.46 / 0.72 MB with a collection
 * and a shrink. It takes ~6–18 ms with 20 such screens, on the worker's thread, once floods stop.
 */
const COLLECT_AFTER_BYTES = 512 * 1024;
const COLLECT_IDLE_MS = 250;
/**
 * The free memory goes back to the system (Bun.shrink) only after this much more quiet: a shrink
 * also throws away every function JavaScriptCore compiled, and the next flood compiled them again.
 * Shrinking 250 ms after each flood, the JIT threads took ~180 ms of CPU per `seq 1 2000000`
 * (a third of the daemon's ~670 ms), ~30 ms without; bench memory 1.9 / 0.8 MB per session with
 * the early shrink against 1.2 / 0.6 MB without (one run each).
 */
const SHRINK_IDLE_MS = 30_000;
let parsedSinceCollect = 0;
let collectTimer: ReturnType<typeof setTimeout> | undefined;
let shrinkTimer: ReturnType<typeof setTimeout> | undefined;

const { port, answered } = workerData as { port: MessagePort; answered: SharedArrayBuffer };
const counter = new Int32Array(answered);
/**
 * Events not yet posted: one message for all the requests handled in a row, sent when a call is
 * answered (a daemon thread may be blocked on it), when they report OUTBOX_PARSED_BYTES of output
 * parsed (the daemon's flow control waits for those reports to restart a held program) or
 * OUTBOX_EVENTS events, and when the worker runs out of work. A message per event, the daemon
 * fell behind a flood of events (bells and titles in turn, 8 MB): 187 MB of RSS, 126 then; a
 * message per request, a hundred sessions printing a line each kept the daemon's thread from
 * ever sleeping.
 */
let outbox: HostEvent[] = [];
let outboxParsedBytes = 0;
const OUTBOX_EVENTS = 256;
const OUTBOX_PARSED_BYTES = 32 * 1024;
/** The outbox answers a call: a blocked daemon thread is woken once it is posted. */
let answersCall = false;
const host = new ScreenHost((event) => {
  outbox.push(event);
  if (event.ev === "return") answersCall = true;
});

function handle(request: HostRequest): void {
  host.handle(request);
  if (request.op === "write") outboxParsedBytes += request.bytes.length;
  if (answersCall || outbox.length >= OUTBOX_EVENTS || outboxParsedBytes >= OUTBOX_PARSED_BYTES) post();
}

function post(): void {
  if (outbox.length === 0) return;
  port.postMessage(outbox);
  outbox = [];
  outboxParsedBytes = 0;
  if (!answersCall) return;
  answersCall = false;
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
}

/** Each screen's requests not yet handled, in order; and the screens with any, in turn order. */
const queues = new Map<number, HostRequest[]>();
const turns: number[] = [];
let running = false;

function enqueue(request: HostRequest): void {
  let queue = queues.get(request.screen);
  if (!queue) {
    queue = [];
    queues.set(request.screen, queue);
  }
  if (queue.length === 0) turns.push(request.screen);
  queue.push(request);
  if (request.op === "write") {
    parsedSinceCollect += request.bytes.length;
    clearTimeout(collectTimer);
    collectTimer = undefined;
    clearTimeout(shrinkTimer);
    shrinkTimer = undefined;
  }
}

function collectWhenIdle(): void {
  if (parsedSinceCollect < COLLECT_AFTER_BYTES || collectTimer) return;
  collectTimer = setTimeout(() => {
    collectTimer = undefined;
    parsedSinceCollect = 0;
    Bun.gc(true);
    shrinkTimer = setTimeout(() => {
      shrinkTimer = undefined;
      Bun.shrink();
    }, SHRINK_IDLE_MS);
  }, COLLECT_IDLE_MS);
}

/** Everything the port holds now, into the queues. */
function drain(): void {
  for (let received = receiveMessageOnPort(port); received; received = receiveMessageOnPort(port)) {
    for (const request of received.message as HostRequest[]) enqueue(request);
  }
}

/** One turn of one screen: its requests up to and including a slice of output. */
function turn(screen: number): void {
  const queue = queues.get(screen)!;
  const slice = turns.length === 0 ? ALONE_SLICE_BYTES : SLICE_BYTES;
  while (queue.length) {
    const request = queue[0]!;
    if (request.op !== "write") {
      queue.shift();
      handle(request);
      continue;
    }
    if (request.bytes.length <= slice) {
      queue.shift();
      handle(request);
    } else {
      handle({ ...request, bytes: request.bytes.subarray(0, slice) });
      queue[0] = { ...request, bytes: request.bytes.subarray(slice) };
    }
    break;
  }
  if (queue.length) turns.push(screen);
  else queues.delete(screen);
}

function run(): void {
  if (running) return;
  running = true;
  try {
    drain();
    while (turns.length) {
      turn(turns.shift()!);
      drain();
    }
  } finally {
    running = false;
    post();
  }
  collectWhenIdle();
}

port.on("message", (requests: HostRequest[]) => {
  for (const request of requests) enqueue(request);
  run();
});
