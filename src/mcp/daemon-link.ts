// The MCP server's way to the daemon: one shared connection for quick calls, a connection of its
// own for each blocking call (wait, run) so it holds no other call up, and a fresh connection
// (auto-starting the daemon) when the daemon went away. No MCP code here.
import { connectDaemon } from "../client/connect.ts";
import type { DaemonConnection, Reply, Response } from "../client/connection.ts";

export class DaemonLink {
  readonly #socketPath: string;
  #shared: DaemonConnection | undefined;
  /** The daemon answers a connection's requests in order, and a connection reads one reply at a time. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(socketPath: string) {
    this.#socketPath = socketPath;
  }

  /** A quick request on the shared connection, after those before it. */
  request(request: Reply): Promise<Response> {
    const turn = this.#queue.then(() => this.#onShared(request));
    this.#queue = turn.catch(() => {});
    return turn;
  }

  /** A request that may take long, on its own connection; closing it is how a cancelled call lets go. */
  async blocking(request: Reply, signal: AbortSignal): Promise<Response> {
    const connection = await connectDaemon(this.#socketPath, true);
    const close = () => connection.close();
    signal.addEventListener("abort", close);
    try {
      return await connection.request(request);
    } finally {
      signal.removeEventListener("abort", close);
      connection.close();
    }
  }

  close(): void {
    this.#shared?.close();
  }

  async #onShared(request: Reply): Promise<Response> {
    if (this.#shared) {
      try {
        return await this.#shared.request(request);
      } catch {
        // The daemon went away since the last call (shut down, restarted, crashed). Asking a new
        // one again is what the CLI would do; a request that itself killed the daemon fails twice.
        this.#shared.close();
        this.#shared = undefined;
      }
    }
    this.#shared = await connectDaemon(this.#socketPath, true);
    return this.#shared.request(request);
  }
}
