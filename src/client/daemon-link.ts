// A long-lived client's way to one daemon (the MCP server's; the web relay's to each host): one
// connection, every request tagged, so the daemon answers each as soon as it is done and a
// blocking call (wait, run) holds no other call up. A fresh connection (auto-starting a local
// daemon) replaces one the daemon closed.
import { connectDaemon, type RemoteHost } from "./connect.ts";
import type { DaemonConnection, Reply, Response } from "./connection.ts";
import { NoAnswer } from "./errors.ts";

export class DaemonLink {
  readonly #socketPath: string;
  readonly #host: string | RemoteHost | undefined;
  #connection: Promise<DaemonConnection> | undefined;
  #nextTag = 1;

  /** `host`: a daemon on another machine, over ssh (t4a mcp --host, a host of hosts.json). */
  constructor(socketPath: string, host?: string | RemoteHost) {
    this.#socketPath = socketPath;
    this.#host = host;
  }

  /**
   * One request. A cancelled call stops waiting at once; the daemon finishes it on its own
   * (a wait or run ends by its timeout) and its late answer is dropped.
   */
  async request(request: Reply, signal?: AbortSignal): Promise<Response> {
    const tagged = { ...request, tag: this.#nextTag++ };
    let connection = await this.#open();
    let answer: Promise<Response>;
    try {
      answer = connection.request(tagged);
      return await untilAborted(answer, signal);
    } catch (error) {
      // A host that held the call past its bound (connection.ts) is not asked again: the next call makes a new link.
      if (error instanceof NoAnswer && this.#connection && (await this.#connection) === connection)
        this.#connection = undefined;
      if (signal?.aborted || error instanceof NoAnswer) throw error;
      // The daemon went away since the last call (shut down, restarted, crashed). Asking a new
      // one again is what the CLI would do; a request that itself killed the daemon fails twice.
      if (this.#connection && (await this.#connection) === connection) this.#connection = undefined;
      connection.close();
      connection = await this.#open();
      return untilAborted(connection.request({ ...tagged, tag: this.#nextTag++ }), signal);
    }
  }

  close(): void {
    void this.#connection?.then((connection) => connection.close());
  }

  #open(): Promise<DaemonConnection> {
    if (!this.#connection) {
      const opening = connectDaemon(this.#socketPath, true, this.#host);
      this.#connection = opening;
      opening.catch(() => {
        if (this.#connection === opening) this.#connection = undefined;
      });
    }
    return this.#connection;
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new Error("cancelled"));
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new Error("cancelled"));
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
