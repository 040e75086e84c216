// The Unix-socket transport: splits NDJSON request lines, runs them through dispatch and writes
// replies with backpressure. Untagged requests run one after another, so their replies keep
// request order (seed clients rely on it); a request with a `tag` starts at once and is answered
// as soon as it is done, so a slow `wait` holds up nothing. Knows nothing of commands.
import type { Socket, UnixSocketListener } from "bun";
import type { DuplexPeer, Reply } from "../commands/command.ts";
import { MAX_REQUEST_LINE_BYTES, SUBSCRIBER_QUEUE_BYTES } from "../protocol/limits.ts";
import type { DaemonContext } from "../commands/context.ts";
import { dispatch, parseLine, type Outcome } from "./dispatch.ts";
import { connectionShortage } from "../session/fd-budget.ts";

/** Stop reading a client's requests while this many reply bytes wait for it to read. */
const MAX_OUTBOX_BYTES = 16 * 1024 * 1024;
/** Requests of one connection started but not answered; past it, reading waits (bounded memory). */
const MAX_IN_FLIGHT = 64;
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
}

export type Listener = UnixSocketListener<Connection>;

/** Client connections above which a new one first checks the daemon's open files. */
const CHECK_FDS_ABOVE = 32;

export function listen(path: string, ctx: DaemonContext): Listener {
  let live = 0;
  return Bun.listen<Connection>({
    unix: path,
    socket: {
      open(socket) {
        socket.data = {
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
        pump(socket, ctx);
      },
      drain(socket) {
        flush(socket);
        pump(socket, ctx);
      },
      close(socket) {
        live--;
        closeConnection(socket.data);
      },
      error(socket) {
        closeConnection(socket.data);
      },
    },
  });
}

function closeConnection(connection: Connection): void {
  connection.closed = true;
  connection.lines = [];
  connection.outbox = [];
  connection.outboxBytes = 0;
  connection.stopStream?.();
  connection.duplex?.closed();
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
    else if (connection.partialBytes > 0 || connection.partial.length > 1) connection.lines.push(joinPartial(connection));
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
    if (connection.outboxBytes > MAX_OUTBOX_BYTES || connection.inFlight >= MAX_IN_FLIGHT) {
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
      if (connection.paused && connection.outboxBytes <= MAX_OUTBOX_BYTES) resume(socket);
      pump(socket, ctx);
    };
    if ("reply" in parsed) {
      // Unparseable: nothing to tag it with, so it keeps its place among the untagged.
      connection.untaggedTail = connection.untaggedTail.then(() => answer(parsed));
    } else if (parsed.tag !== undefined) {
      void dispatch(parsed.request, ctx).then(answer);
    } else {
      // A client gone meanwhile has its queued requests dropped, not run for nobody.
      const run = (): Promise<Outcome> => (connection.closed ? Promise.resolve({ reply: {} }) : dispatch(parsed.request, ctx));
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
  if (connection.outboxBytes === 0) {
    const written = socket.write(bytes);
    if (written === bytes.length) return;
    bytes = bytes.subarray(Math.max(0, written));
  }
  // Copy: the caller may reuse its buffer, and we hold this until the client reads.
  connection.outbox.push(bytes.slice());
  connection.outboxBytes += bytes.length;
}

function flush(socket: Socket<Connection>): void {
  const connection = socket.data;
  while (connection.outbox.length) {
    const bytes = connection.outbox[0]!;
    const written = socket.write(bytes);
    if (written < bytes.length) {
      connection.outbox[0] = bytes.subarray(Math.max(0, written));
      connection.outboxBytes -= Math.max(0, written);
      return;
    }
    connection.outbox.shift();
    connection.outboxBytes -= bytes.length;
  }
  sendLagged(socket);
  if (connection.paused && connection.inFlight < MAX_IN_FLIGHT) resume(socket);
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
