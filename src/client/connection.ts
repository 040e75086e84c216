// A client connection to the daemon: write request lines, read reply lines (and the raw bytes
// that follow a screenshot header), or stream event lines. Used by the CLI, tests and adapters.
import type { Socket } from "bun";

export type Reply = Record<string, unknown>;

export interface Response {
  reply: Reply;
  /** Raw bytes that followed the reply line (screenshot), when the reply announced `len`. */
  bytes?: Uint8Array;
}

/** Commands whose successful reply line is followed by `len` raw bytes. */
const BINARY_REPLIES = new Set(["screenshot"]);

export class DaemonConnection {
  readonly #socket: Socket<undefined>;
  #buffer: Uint8Array = new Uint8Array(0);
  #wake: (() => void) | undefined;
  #closed = false;
  #lastRequest: Promise<unknown> = Promise.resolve();

  private constructor(socket: Socket<undefined>) {
    this.#socket = socket;
  }

  /** Rejects when nothing listens on the path. */
  static async open(path: string): Promise<DaemonConnection> {
    let connection: DaemonConnection | undefined;
    const socket = await Bun.connect({
      unix: path,
      socket: {
        data(_socket, chunk) {
          connection?.#receive(chunk);
        },
        close() {
          connection?.#onClose();
        },
        error() {
          connection?.#onClose();
        },
      },
    });
    connection = new DaemonConnection(socket);
    return connection;
  }

  /** Requests on one connection take turns: replies come back in order, one reader at a time. */
  request(request: Reply): Promise<Response> {
    const turn = this.#lastRequest.then(() => this.#exchange(request));
    this.#lastRequest = turn.catch(() => {});
    return turn;
  }

  async #exchange(request: Reply): Promise<Response> {
    this.send(request);
    const reply = await this.readLine();
    if (reply === undefined) throw new Error("the daemon closed the connection");
    const expectsBytes =
      BINARY_REPLIES.has(String(request.cmd)) && request.encoding !== "base64" && reply.ok === true && typeof reply.len === "number";
    return expectsBytes ? { reply, bytes: await this.#readBytes(reply.len as number) } : { reply };
  }

  send(request: Reply): void {
    this.#socket.write(`${JSON.stringify(request)}\n`);
  }

  /** The next reply or event line; undefined once the daemon has closed the connection. */
  async readLine(): Promise<Reply | undefined> {
    for (;;) {
      const newline = this.#buffer.indexOf(0x0a);
      if (newline !== -1) {
        const line = this.#buffer.subarray(0, newline);
        this.#buffer = this.#buffer.subarray(newline + 1);
        return JSON.parse(new TextDecoder().decode(line)) as Reply;
      }
      if (this.#closed) return undefined;
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

  #receive(chunk: Uint8Array): void {
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
    this.#closed = true;
    this.#wakeReader();
  }

  #wakeReader(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
