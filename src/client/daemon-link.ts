// A long-lived client's way to one daemon (the MCP server's; the web relay's to each host): one
// connection, every request tagged, so the daemon answers each as soon as it is done and a
// blocking call (wait, run) holds no other call up. A fresh connection (auto-starting a local
// daemon) replaces one the daemon closed.
import { connectDaemon, type RemoteHost } from "./connect.ts";
import type { DaemonConnection, Reply, Response } from "./connection.ts";
import { connectTimeoutMs } from "./ssh.ts";

/** The longest a daemon works on a call that names no timeout_ms (run's and ask's default; git's limit in create). */
const UNTIMED_CALL_MS = 10 * 60 * 1000;

/**
 * How long another host may take to answer: the call's own timeout_ms (else UNTIMED_CALL_MS),
 * plus the connect timeout for the way there and back. What a host does is tainted: one that never
 * answers must not hold an MCP call or the page's request forever.
 */
export function replyBoundMs(request: Reply): number {
  const timeout = typeof request.timeout_ms === "number" && Number.isFinite(request.timeout_ms) ? request.timeout_ms : UNTIMED_CALL_MS;
  return timeout + connectTimeoutMs();
}

export class DaemonLink {
  readonly #socketPath: string;
  readonly #host: string | RemoteHost | undefined;
  #connection: Promise<DaemonConnection> | undefined;
  /** What #connection resolved to, once it did. */
  #connectionNow: DaemonConnection | undefined;
  #nextTag = 1;

  /** `host`: a daemon on another machine, over ssh (t4a mcp --host, a host of hosts.json). */
  constructor(socketPath: string, host?: string | RemoteHost) {
    this.#socketPath = socketPath;
    this.#host = host;
  }

  /**
   * One request. A cancelled call stops waiting at once; the daemon finishes it on its own
   * (a wait or run ends by its timeout) and its late answer is dropped. Another host's answer is
   * waited for at most `boundMs` (replyBoundMs): past it, the call fails naming the host and its
   * link is dropped (the next call makes a new one).
   */
  async request(request: Reply, signal?: AbortSignal, boundMs = this.#host === undefined ? undefined : replyBoundMs(request)): Promise<Response> {
    const tagged = { ...request, tag: this.#nextTag++ };
    let connection = await this.#open();
    try {
      return await this.#bounded(connection, connection.request(tagged), signal, boundMs);
    } catch (error) {
      if (signal?.aborted || error instanceof NoAnswer) throw error;
      // The daemon went away since the last call (shut down, restarted, crashed). Asking a new
      // one again is what the CLI would do; a request that itself killed the daemon fails twice.
      if (this.#connection && (await this.#connection) === connection) this.#connection = undefined;
      connection.close();
      connection = await this.#open();
      return this.#bounded(connection, connection.request({ ...tagged, tag: this.#nextTag++ }), signal, boundMs);
    }
  }

  async #bounded(connection: DaemonConnection, answer: Promise<Response>, signal: AbortSignal | undefined, boundMs: number | undefined): Promise<Response> {
    if (boundMs === undefined) return untilAborted(answer, signal);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (this.#connection && this.#connectionNow === connection) this.#connection = undefined;
        connection.close();
        reject(new NoAnswer(`${connection.peer}: no answer within ${Math.round(boundMs / 1000)} s (the call's timeout_ms plus T4A_CONNECT_TIMEOUT); the link is dropped`));
      }, boundMs);
    });
    try {
      return await untilAborted(Promise.race([answer, late]), signal);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    void this.#connection?.then((connection) => connection.close());
  }

  #open(): Promise<DaemonConnection> {
    if (!this.#connection) {
      const opening = connectDaemon(this.#socketPath, true, this.#host);
      this.#connection = opening;
      opening.then(
        (connection) => {
          if (this.#connection === opening) this.#connectionNow = connection;
        },
        () => {
          if (this.#connection === opening) this.#connection = undefined;
        },
      );
    }
    return this.#connection;
  }
}

class NoAnswer extends Error {}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new Error("cancelled"));
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new Error("cancelled"));
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
