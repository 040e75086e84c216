// A client connection to the daemon: write request lines, read reply lines (and the raw bytes
// that follow a screenshot header), or stream event lines. Used by the CLI, tests and adapters.
import { firstBytes, PeerError } from "./errors.ts";

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

/** Commands whose successful reply line is followed by `len` raw bytes. */
const BINARY_REPLIES = new Set(["screenshot"]);

export class DaemonConnection {
  readonly #socket: Wire;
  #buffer: Uint8Array = new Uint8Array(0);
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

  private constructor(socket: Wire, peer: string) {
    this.#socket = socket;
    this.peer = peer;
  }

  /**
   * A connection over any byte pipe (ssh dial-stdio): bytes the pipe delivers go to `feed`,
   * its end to `ended`.
   */
  static over(wire: Wire, peer: string): { connection: DaemonConnection; feed(chunk: Uint8Array): void; ended(): void } {
    const connection = new DaemonConnection(wire, peer);
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
    if (this.#closed && this.#buffer.length === 0) return Promise.reject(new Error(this.#failure ?? "the daemon closed the connection"));
    return new Promise<Response>((resolve, reject) => {
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
          BINARY_REPLIES.has(String(request.cmd)) && request.encoding !== "base64" && reply.ok === true && typeof reply.len === "number";
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
      const newline = this.#buffer.indexOf(0x0a);
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
        if (this.#buffer.length) throw new PeerError(`${this.peer} answered something that is not t4a: ${firstBytes(this.#buffer)}`);
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
    while (this.#buffer.length < length) {
      if (this.#closed) throw new Error(`the daemon closed the connection after ${this.#buffer.length} of ${length} bytes`);
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    const bytes = new Uint8Array(this.#buffer.subarray(0, length));
    this.#buffer = this.#buffer.subarray(length);
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
    if (this.#buffer.length) onData(this.#buffer);
    this.#buffer = new Uint8Array(0);
    if (this.#closed) onClose();
    return { write: (bytes) => void this.#socket.write(bytes) };
  }

  #receive(chunk: Uint8Array): void {
    if (this.#raw) {
      this.#raw.onData(new Uint8Array(chunk));
      return;
    }
    // Copy: Bun reuses the chunk's memory after this callback (and Buffer#slice would only be a view).
    if (this.#buffer.length === 0) this.#buffer = new Uint8Array(chunk);
    else {
      const joined = new Uint8Array(this.#buffer.length + chunk.length);
      joined.set(this.#buffer);
      joined.set(chunk, this.#buffer.length);
      this.#buffer = joined;
    }
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
