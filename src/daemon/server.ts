// The Unix-socket transport: splits NDJSON request lines, runs them through dispatch and writes
// replies with backpressure. Untagged requests run one after another, so their replies keep
// request order (seed clients rely on it); a request with a `tag` starts at once and is answered
// as soon as it is done, so a slow `wait` holds up nothing. Knows nothing of commands.
import type { Socket, UnixSocketListener } from "bun";
import type { DuplexPeer, Reply } from "../commands/command.ts";
import { MAX_REQUEST_LINE_BYTES, SUBSCRIBER_QUEUE_BYTES } from "../protocol/limits.ts";
import type { ConnectionScope, DaemonContext } from "../commands/context.ts";
import { dispatch, parseLine, type Outcome } from "./dispatch.ts";
import { connectionShortage } from "../session/fd-budget.ts";

/**
 * Replies unread past this: no request of the connection starts (its requests stay unread in the
 * kernel) until the client has read them. A slow reader is slowed, not served into memory.
 */
const OUTBOX_LOW_BYTES = 1024 * 1024;
/**
 * Replies unread past this (requests that were already running when the client stopped reading):
 * the client is dropped, told why, and what it left behind freed.
 */
export const OUTBOX_MAX_BYTES = 32 * 1024 * 1024;
/**
 * Replies unread by every client together past this: the one furthest behind is dropped (a
 * burst of tagged replies to many stuck clients is bounded here, not per client).
 */
export const OUTBOX_TOTAL_BYTES = 128 * 1024 * 1024;
/** Requests of one connection started but not answered; past it, reading waits (bounded memory). */
const MAX_IN_FLIGHT = 64;

/** Connections holding unread replies, and how many bytes they hold together. */
const behind = new Set<Socket<Connection>>();
let totalOutboxBytes = 0;

/** What every client together has left unread (for `info`). */
export function unreadReplyBytes(): number {
  return totalOutboxBytes;
}
const NEWLINE = 0x0a;

interface Connection {
  /** Bytes of the request line being received (before its newline). */
  partial: Uint8Array[];
  partialBytes: number;
  /** Skipping the rest of an over-long line until its newline. */
  discarding: boolean;
  /** Complete request lines not yet dispatched. */
  lines: Uint8Array[];
  /** Requests started and not yet answered. */
  inFlight: number;
  /** The last untagged request's reply: the next untagged one starts after it. */
  untaggedTail: Promise<void>;
  outbox: Uint8Array[];
  outboxBytes: number;
  paused: boolean;
  closed: boolean;
  /** Set once an events stream started: the connection only streams from then on. */
  stopStream?: () => void;
  /** Set once a two-way stream (attach) started: the client's bytes go to it. */
  duplex?: DuplexPeer;
  droppedEvents: number;
  /** Untagged requests waiting for the client to read what it was sent (the outbox under the low mark). */
  drainWaiters: Array<() => void>;
  /** The context its requests run in: the daemon's, with this connection (see ConnectionScope). */
  ctx: DaemonContext;
  /** What ends with the connection (an anonymous claim). */
  onClose: Set<() => void>;
}

export type Listener = UnixSocketListener<Connection>;

/** Client connections above which a new one first checks the daemon's open files. */
const CHECK_FDS_ABOVE = 32;

/** Connections counted from 1 per daemon (a claim made on one names it). */
let lastConnection = 0;

export function listen(path: string, daemonCtx: DaemonContext): Listener {
  let live = 0;
  return Bun.listen<Connection>({
    unix: path,
    socket: {
      open(socket) {
        const onClose = new Set<() => void>();
        const connection: ConnectionScope = {
          id: ++lastConnection,
          onClose(closed) {
            onClose.add(closed);
            return () => onClose.delete(closed);
          },
        };
        // The daemon's context seen through: what it changes later (restoring) shows here too.
        const ctx: DaemonContext = Object.assign(Object.create(daemonCtx) as DaemonContext, { connection });
        socket.data = {
          ctx,
          onClose,
          partial: [],
          partialBytes: 0,
          discarding: false,
          lines: [],
          inFlight: 0,
          untaggedTail: Promise.resolve(),
          outbox: [],
          outboxBytes: 0,
          paused: false,
          closed: false,
          droppedEvents: 0,
          drainWaiters: [],
        };
        // Only with many clients is the fd table read (a directory listing), not on every call.
        const shortage = ++live > CHECK_FDS_ABOVE ? connectionShortage() : undefined;
        if (shortage) {
          socket.data.closed = true; // nothing it sends is run
          socket.write(encodeLine({ ok: false, error: shortage, code: "busy" }));
          socket.end();
        }
      },
      data(socket, chunk) {
        receive(socket, chunk);
        pump(socket, socket.data.ctx);
      },
      drain(socket) {
        flush(socket);
        pump(socket, socket.data.ctx);
      },
      close(socket) {
        live--;
        closeConnection(socket);
      },
      error(socket) {
        closeConnection(socket);
      },
    },
  });
}

function closeConnection(socket: Socket<Connection>): void {
  const connection = socket.data;
  connection.closed = true;
  connection.lines = [];
  connection.outbox = [];
  held(socket, -connection.outboxBytes);
  for (const wake of connection.drainWaiters.splice(0)) wake();
  connection.stopStream?.();
  connection.duplex?.closed();
  const closed = [...connection.onClose];
  connection.onClose.clear();
  for (const release of closed) release();
}

/** Split incoming bytes into lines; an over-long line becomes an error reply, not a buffer. */
function receive(socket: Socket<Connection>, chunk: Uint8Array): void {
  const connection = socket.data;
  if (connection.duplex) {
    connection.duplex.receive(chunk);
    return;
  }
  if (connection.stopStream) return; // a streaming connection sends nothing more we act on
  let from = 0;
  while (from < chunk.length) {
    const newline = chunk.indexOf(NEWLINE, from);
    const end = newline === -1 ? chunk.length : newline;
    if (!connection.discarding) {
      connection.partial.push(chunk.subarray(from, end));
      connection.partialBytes += end - from;
      if (connection.partialBytes > MAX_REQUEST_LINE_BYTES) {
        connection.partial = [];
        connection.partialBytes = 0;
        connection.discarding = true;
        connection.lines.push(TOO_LONG);
      }
    }
    if (newline === -1) break;
    if (connection.discarding) connection.discarding = false;
    else if (connection.partialBytes > 0 || connection.partial.length > 1)
      connection.lines.push(joinPartial(connection));
    else connection.partial = [];
    from = newline + 1;
  }
  // Bun reuses the chunk's memory after this callback: keep our own copy of a partial line.
  if (connection.partial.length) {
    const kept = joinPartial(connection);
    connection.partial = [kept];
    connection.partialBytes = kept.length;
  }
}

/** A sentinel line: dispatching it would be wasted work, so pump answers it directly. */
const TOO_LONG = new Uint8Array(0);

function joinPartial(connection: Connection): Uint8Array {
  const joined = new Uint8Array(connection.partialBytes);
  let offset = 0;
  for (const piece of connection.partial) {
    joined.set(piece, offset);
    offset += piece.length;
  }
  connection.partial = [];
  connection.partialBytes = 0;
  return joined;
}

/**
 * Start queued requests: tagged ones at once, untagged ones each after the untagged one before it
 * has been answered. Never awaits, so a blocked request never stops the next tagged one.
 */
function pump(socket: Socket<Connection>, ctx: DaemonContext): void {
  const connection = socket.data;
  while (connection.lines.length && !connection.closed && !connection.stopStream && !connection.duplex) {
    if (connection.outboxBytes > OUTBOX_LOW_BYTES || connection.inFlight >= MAX_IN_FLIGHT) {
      pause(socket);
      return; // drain() or a finished request resumes
    }
    const line = connection.lines.shift()!;
    const parsed: Outcome | { request: unknown; tag: unknown } =
      line === TOO_LONG
        ? { reply: { ok: false, error: `request line exceeds ${MAX_REQUEST_LINE_BYTES} bytes`, code: "bad_request" } }
        : parseLine(line);
    connection.inFlight++;
    const answer = (outcome: Outcome) => {
      connection.inFlight--;
      // Once a connection carries frames, a line written into it would corrupt them: clients
      // send frames only after the attach reply (protocol.md), so nothing is lost here.
      if (connection.closed || connection.duplex) return;
      send(socket, encodeLine(outcome.reply));
      if (outcome.bytes) send(socket, outcome.bytes);
      if (outcome.stream) startStream(socket, outcome.stream);
      if (outcome.duplex) startDuplex(socket, outcome.duplex);
      if (connection.paused && connection.outboxBytes <= OUTBOX_LOW_BYTES) resume(socket);
      pump(socket, ctx);
    };
    if ("reply" in parsed) {
      // Unparseable: nothing to tag it with, so it keeps its place among the untagged.
      connection.untaggedTail = connection.untaggedTail.then(() => answer(parsed));
    } else if (parsed.tag !== undefined) {
      void dispatch(parsed.request, ctx).then(answer);
    } else {
      // A client gone meanwhile has its queued requests dropped, not run for nobody; one that has
      // not read its last replies gets the next when it has (the reply is made only then).
      const run = async (): Promise<Outcome> => {
        if (connection.outboxBytes > OUTBOX_LOW_BYTES)
          await new Promise<void>((wake) => connection.drainWaiters.push(wake));
        return connection.closed ? { reply: {} } : dispatch(parsed.request, ctx);
      };
      connection.untaggedTail = connection.untaggedTail.then(run).then(answer);
    }
  }
}

/** The rest of the connection is frames both ways; bytes the client sent after its request go to it too. */
function startDuplex(socket: Socket<Connection>, start: NonNullable<Outcome["duplex"]>): void {
  const connection = socket.data;
  const early = connection.lines.splice(0);
  connection.duplex = start({
    send: (bytes) => {
      send(socket, bytes);
      return connection.outboxBytes;
    },
    close: () => {
      flush(socket);
      socket.end();
    },
  });
  const newline = new Uint8Array([NEWLINE]);
  for (const line of early) {
    connection.duplex.receive(line);
    connection.duplex.receive(newline);
  }
  if (connection.partial.length) connection.duplex.receive(joinPartial(connection));
}

function startStream(socket: Socket<Connection>, start: NonNullable<Outcome["stream"]>): void {
  const connection = socket.data;
  connection.lines = [];
  connection.stopStream = start((event) => {
    if (connection.closed) return;
    // A reader that falls behind loses events (and is told how many), never slows a terminal.
    if (connection.outboxBytes > SUBSCRIBER_QUEUE_BYTES) {
      connection.droppedEvents++;
      return;
    }
    sendLagged(socket);
    send(socket, encodeLine(event));
  });
}

const encoder = new TextEncoder();
function encodeLine(reply: Reply): Uint8Array {
  return encoder.encode(`${JSON.stringify(reply)}\n`);
}

function send(socket: Socket<Connection>, bytes: Uint8Array): void {
  const connection = socket.data;
  if (connection.closed) return;
  if (connection.outboxBytes > 0 && connection.outboxBytes + bytes.length > OUTBOX_MAX_BYTES) {
    // Far behind (one large reply to a client that reads is fine): dropped rather than held.
    return drop(socket, `more than ${OUTBOX_MAX_BYTES} bytes of replies were left unread`);
  }
  if (connection.outboxBytes === 0) {
    const written = socket.write(bytes);
    if (written === bytes.length) return;
    bytes = bytes.subarray(Math.max(0, written));
  }
  // Copy: the caller may reuse its buffer, and we hold this until the client reads.
  connection.outbox.push(bytes.slice());
  held(socket, bytes.length);
  if (totalOutboxBytes > OUTBOX_TOTAL_BYTES) {
    let furthest = socket;
    for (const other of behind) if (other.data.outboxBytes > furthest.data.outboxBytes) furthest = other;
    drop(
      furthest,
      `the daemon holds more than ${OUTBOX_TOTAL_BYTES} bytes of replies unread by its clients, ` +
        "and this one is furthest behind",
    );
  }
}

/** Counts bytes a connection holds for its client (negative: handed over or let go). */
function held(socket: Socket<Connection>, delta: number): void {
  socket.data.outboxBytes += delta;
  totalOutboxBytes += delta;
  if (socket.data.outboxBytes > 0) behind.add(socket);
  else behind.delete(socket);
}

/** A client too far behind: let go of what it left unread, tell it why (if its buffer has room), close. */
function drop(socket: Socket<Connection>, why: string): void {
  console.error(`t4a daemon: a client is disconnected: ${why}`);
  closeConnection(socket);
  socket.write(encodeLine({ ok: false, error: `disconnected: ${why}`, code: "busy" }));
  socket.end();
}

function flush(socket: Socket<Connection>): void {
  const connection = socket.data;
  while (connection.outbox.length) {
    const bytes = connection.outbox[0]!;
    const written = socket.write(bytes);
    if (written < bytes.length) {
      connection.outbox[0] = bytes.subarray(Math.max(0, written));
      held(socket, -Math.max(0, written));
      return;
    }
    connection.outbox.shift();
    held(socket, -bytes.length);
  }
  sendLagged(socket);
  if (connection.outboxBytes <= OUTBOX_LOW_BYTES) for (const wake of connection.drainWaiters.splice(0)) wake();
  if (connection.paused && connection.inFlight < MAX_IN_FLIGHT && connection.outboxBytes <= OUTBOX_LOW_BYTES)
    resume(socket);
}

function resume(socket: Socket<Connection>): void {
  socket.data.paused = false;
  socket.resume();
}

/** Tell a subscriber how many events it missed, before the next one it gets. */
function sendLagged(socket: Socket<Connection>): void {
  const connection = socket.data;
  if (connection.droppedEvents === 0) return;
  const dropped = connection.droppedEvents;
  connection.droppedEvents = 0;
  send(socket, encodeLine({ event: "lagged", dropped }));
}

function pause(socket: Socket<Connection>): void {
  socket.data.paused = true;
  socket.pause();
}
