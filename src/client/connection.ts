// A client connection to the daemon: write request lines, read reply lines (and the raw bytes
// that follow a screenshot header), or stream event lines. Used by the CLI, tests and adapters.
import { firstBytes, NoAnswer, PeerError } from "./errors.ts";

/** What a connection writes to: a Unix socket, or ssh's stdin (ssh.ts). */
export interface Wire {
  write(bytes: string | Uint8Array): unknown;
  end(): void;
}

export type Reply = Record<string, unknown>;

export interface Response {
  reply: Reply;
  /** Raw bytes that followed the reply line (screenshot), when the reply announced `len`. */
  bytes?: Uint8Array;
}

interface Pending {
  request: Reply;
  resolve: (response: Response) => void;
  reject: (error: unknown) => void;
}

/**
 * Bytes a connection over a pipe (ssh to another host) holds unread: a reply line, a screenshot's
 * bytes, events not read yet. A host that sends more without ending a line (or announces a larger
 * screenshot) is refused, not buffered until memory runs out: what a host sends is tainted.
 */
export const PIPE_UNREAD_MAX_BYTES = 64 * 1024 * 1024;

/** Commands whose successful reply line is followed by `len` raw bytes. */
const BINARY_REPLIES = new Set(["screenshot"]);

export class DaemonConnection {
  readonly #socket: Wire;
  #buffer: Uint8Array = new Uint8Array(0);
  /** Where #buffer's bytes live, with room to grow (appending is amortized, not a copy per chunk). */
  #store: Uint8Array = new Uint8Array(0);
  /** Bytes of #buffer already searched for a newline. */
  #scanned = 0;
  readonly #maxUnread: number;
  /** How long a request may wait for its reply (a pipe to another host); undefined: as long as it takes. */
  readonly #replyBoundMs: ((request: Reply) => number) | undefined;
  /** Set once the peer sent more than #maxUnread: the error every read answers from then on. */
  #overflow: string | undefined;
  #wake: (() => void) | undefined;
  #closed = false;
  /** Untagged requests in the order sent: the daemon answers them in that order. */
  readonly #untagged: Pending[] = [];
  /** Tagged requests by tag: the daemon answers each as soon as it is done. */
  readonly #tagged = new Map<string, Pending>();
  #routing = false;
  #raw: { onData(bytes: Uint8Array): void; onClose(): void } | undefined;
  /** Why the connection ended, when the transport knows better than "closed" (ssh's message). */
  #failure: string | undefined;
  /** Who answers, for error messages: "the daemon", or "ssh HOST". */
  readonly peer: string;

  private constructor(
    socket: Wire,
    peer: string,
    maxUnread = Number.POSITIVE_INFINITY,
    replyBoundMs?: (request: Reply) => number,
  ) {
    this.#socket = socket;
    this.peer = peer;
    this.#maxUnread = maxUnread;
    this.#replyBoundMs = replyBoundMs;
  }

  /**
   * A connection over any byte pipe (ssh dial-stdio): bytes the pipe delivers go to `feed`,
   * its end to `ended`. `replyBoundMs`: how long each request may wait for its reply (another
   * host's: ssh.ts); past it the connection is given up and every request on it fails (NoAnswer).
   */
  static over(
    wire: Wire,
    peer: string,
    replyBoundMs?: (request: Reply) => number,
  ): { connection: DaemonConnection; feed(chunk: Uint8Array): void; ended(): void } {
    const connection = new DaemonConnection(wire, peer, PIPE_UNREAD_MAX_BYTES, replyBoundMs);
    return { connection, feed: (chunk) => connection.#receive(chunk), ended: () => connection.#onClose() };
  }

  /** Rejects when nothing listens on the path. */
  static async open(path: string): Promise<DaemonConnection> {
    let connection: DaemonConnection | undefined;
    const socket = await Bun.connect({
      unix: path,
      socket: {
        // Bun delivers nothing before connect resolves, so `connection` is set by then.
        data(_socket, chunk) {
          if (connection) connection.#receive(chunk);
        },
        close() {
          if (connection) connection.#onClose();
        },
        error() {
          if (connection) connection.#onClose();
        },
      },
    });
    connection = new DaemonConnection(socket, `the daemon at ${path}`);
    return connection;
  }

  /**
   * Send a request and resolve with its reply. Requests may be sent while others are pending:
   * untagged replies come back in request order, tagged ones whenever each is done (protocol.md).
   */
  request(request: Reply): Promise<Response> {
    // A daemon that refuses a connection (at its open-file limit) says why and closes it, maybe
    // before the request is written: that line is the answer, not "closed".
    if (this.#closed && this.#buffer.length === 0)
      return Promise.reject(new Error(this.#failure ?? "the daemon closed the connection"));
    if (this.#overflow) return Promise.reject(new PeerError(this.#overflow));
    const answer = new Promise<Response>((resolve, reject) => {
      const pending: Pending = { request, resolve, reject };
      if (request.tag === undefined) this.#untagged.push(pending);
      else {
        const key = JSON.stringify(request.tag);
        if (this.#tagged.has(key)) throw new Error(`tag ${key} is already waiting for its reply on this connection`);
        this.#tagged.set(key, pending);
      }
      if (!this.#closed) this.send(request);
      void this.#route();
    });
    const boundMs = this.#replyBoundMs?.(request);
    if (boundMs === undefined) return answer;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        // A peer that holds one call past its bound is given up: every call on it fails, none waits on.
        const error = new NoAnswer(
          `${this.peer}: no answer within ${Math.round(boundMs / 1000)} s ` +
            "(the call's timeout plus T4A_CONNECT_TIMEOUT)",
        );
        this.#overflow = error.message;
        for (const pending of [...this.#untagged.splice(0), ...this.#tagged.values()]) pending.reject(error);
        this.#tagged.clear();
        this.close();
        this.#wakeReader();
        reject(error);
      }, boundMs);
      timer.unref?.();
    });
    return Promise.race([answer, late]).finally(() => clearTimeout(timer));
  }

  /** Read reply lines while requests wait for them, handing each to its request. */
  async #route(): Promise<void> {
    if (this.#routing) return;
    this.#routing = true;
    try {
      while (this.#untagged.length || this.#tagged.size) {
        let reply: Reply | undefined;
        try {
          reply = await this.readLine();
        } catch (error) {
          // Not our protocol: every waiting request learns it, and nothing waits any more.
          for (const pending of [...this.#untagged.splice(0), ...this.#tagged.values()]) pending.reject(error);
          this.#tagged.clear();
          return;
        }
        if (reply === undefined) {
          const error = new Error(this.#failure ?? "the daemon closed the connection");
          for (const pending of [...this.#untagged.splice(0), ...this.#tagged.values()]) pending.reject(error);
          this.#tagged.clear();
          return;
        }
        const key = reply.tag === undefined ? undefined : JSON.stringify(reply.tag);
        const pending = key !== undefined && this.#tagged.has(key) ? this.#tagged.get(key)! : this.#untagged.shift();
        if (key !== undefined) this.#tagged.delete(key);
        if (!pending) continue; // an answer nobody waits for (its tag was never ours)
        const { request } = pending;
        const expectsBytes =
          BINARY_REPLIES.has(String(request.cmd)) &&
          request.encoding !== "base64" &&
          reply.ok === true &&
          typeof reply.len === "number";
        try {
          pending.resolve(expectsBytes ? { reply, bytes: await this.#readBytes(reply.len as number) } : { reply });
        } catch (error) {
          pending.reject(error);
        }
      }
    } finally {
      this.#routing = false;
    }
  }

  send(request: Reply): void {
    this.#socket.write(`${JSON.stringify(request)}\n`);
  }

  /**
   * The next reply or event line; undefined once the daemon has closed the connection. A line
   * that is not a JSON object (a shell's banner, another program) ends the connection with a
   * PeerError naming the peer and what it sent.
   */
  async readLine(): Promise<Reply | undefined> {
    for (;;) {
      if (this.#overflow) throw new PeerError(this.#overflow);
      const found = this.#buffer.subarray(this.#scanned).indexOf(0x0a);
      const newline = found === -1 ? -1 : this.#scanned + found;
      this.#scanned = found === -1 ? this.#buffer.length : 0;
      if (newline !== -1) {
        const line = this.#buffer.subarray(0, newline);
        this.#buffer = this.#buffer.subarray(newline + 1);
        let reply: unknown;
        try {
          reply = JSON.parse(new TextDecoder().decode(line));
        } catch {
          reply = undefined;
        }
        if (typeof reply === "object" && reply !== null && !Array.isArray(reply)) return reply as Reply;
        this.close();
        throw new PeerError(`${this.peer} answered something that is not t4a: ${firstBytes(line)}`);
      }
      if (this.#closed) {
        if (this.#buffer.length)
          throw new PeerError(`${this.peer} answered something that is not t4a: ${firstBytes(this.#buffer)}`);
        return undefined;
      }
      // Every line of ours starts with "{": a peer that sent anything else, and perhaps no newline
      // ever after (a silent one), is refused now rather than waited for.
      if (this.#buffer.length && this.#buffer[0] !== 0x7b) {
        this.close();
        throw new PeerError(`${this.peer} answered something that is not t4a: ${firstBytes(this.#buffer)}`);
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  async #readBytes(length: number): Promise<Uint8Array> {
    if (length > this.#maxUnread) {
      this.close();
      throw new PeerError(
        `${this.peer} announced ${length} bytes, more than the ${this.#maxUnread} it may send at once`,
      );
    }
    while (this.#buffer.length < length) {
      if (this.#overflow) throw new PeerError(this.#overflow);
      if (this.#closed)
        throw new Error(`the daemon closed the connection after ${this.#buffer.length} of ${length} bytes`);
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    const bytes = new Uint8Array(this.#buffer.subarray(0, length));
    this.#buffer = this.#buffer.subarray(length);
    this.#scanned = 0;
    return bytes;
  }

  close(): void {
    this.#socket.end();
  }

  /** The transport's own account of its end, used for every request still waiting. */
  failWith(message: string): void {
    this.#failure = message;
  }

  /**
   * The connection's bytes from here on, unparsed (after an attach reply: frames). Bytes already
   * received are handed over first. `onClose` runs once the daemon closes the connection.
   */
  takeRaw(onData: (bytes: Uint8Array) => void, onClose: () => void): { write(bytes: Uint8Array): void } {
    this.#raw = { onData, onClose };
    if (this.#buffer.length) onData(new Uint8Array(this.#buffer));
    this.#buffer = new Uint8Array(0);
    this.#store = this.#buffer;
    this.#scanned = 0;
    if (this.#closed) onClose();
    return { write: (bytes) => void this.#socket.write(bytes) };
  }

  #receive(chunk: Uint8Array): void {
    if (this.#raw) {
      this.#raw.onData(new Uint8Array(chunk));
      return;
    }
    if (this.#overflow) return;
    const length = this.#buffer.length + chunk.length;
    if (length > this.#maxUnread) {
      // Refused, and what it sent freed; the bytes it keeps sending are dropped.
      this.#overflow =
        `${this.peer} sent more than ${this.#maxUnread} bytes without the end of a line, ` +
        "or that were not read: not t4a, or broken; refused";
      this.#buffer = this.#store = new Uint8Array(0);
      this.#scanned = 0;
      this.close();
      this.#wakeReader();
      return;
    }
    // Copied (Bun reuses the chunk's memory after this callback) into a store that doubles as it
    // fills: a long line in many chunks costs its length, not its length times the chunks.
    const start = this.#buffer.byteOffset - this.#store.byteOffset;
    if (start + length > this.#store.length) {
      const store = new Uint8Array(Math.max(length * 2, 64 * 1024));
      store.set(this.#buffer);
      this.#store = store;
      this.#buffer = store.subarray(0, this.#buffer.length);
    }
    const offset = this.#buffer.byteOffset - this.#store.byteOffset;
    this.#store.set(chunk, offset + this.#buffer.length);
    this.#buffer = this.#store.subarray(offset, offset + length);
    this.#wakeReader();
  }

  #onClose(): void {
    if (this.#raw && !this.#closed) this.#raw.onClose();
    this.#closed = true;
    this.#wakeReader();
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
