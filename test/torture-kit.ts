// Shared pieces of the torture suite (test/torture-*.test.ts): the soak switch, a seeded PRNG,
// a raw socket that writes arbitrary bytes, and /proc readings of a daemon's processes.
// Not a test file itself; the suite's long versions run with T4A_SOAK=1 (`npm run soak`).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Sandbox } from "./harness.ts";

/** T4A_SOAK=1 switches every torture test to its long version. */
export const SOAK = process.env.T4A_SOAK === "1";
export const pick = <T>(fast: T, soak: T): T => (SOAK ? soak : fast);

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function prng(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number): number => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number): boolean => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    bytes(length: number): Uint8Array {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) out[i] = Math.floor(next() * 256);
      return out;
    },
  };
}
export type Prng = ReturnType<typeof prng>;

/**
 * A client socket that writes arbitrary bytes (no well-behaved client would) and reads reply
 * lines and the raw bytes after a screenshot header, with its own byte buffer.
 */
export class RawClient {
  #socket!: Bun.Socket<undefined>;
  #buffer = new Uint8Array(0);
  #pending: Uint8Array[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  static async open(path: string): Promise<RawClient> {
    const client = new RawClient();
    client.#socket = await Bun.connect({
      unix: path,
      socket: {
        data: (_socket, chunk) => client.#receive(chunk),
        drain: () => client.#flush(),
        close: () => client.#onClose(),
        error: () => client.#onClose(),
      },
    });
    return client;
  }

  get closed(): boolean {
    return this.#closed;
  }

  write(data: Uint8Array | string): void {
    this.#pending.push(typeof data === "string" ? new TextEncoder().encode(data) : data);
    this.#flush();
  }

  /** Resolves once everything written so far has been handed to the kernel. */
  async flushed(): Promise<void> {
    while (this.#pending.length && !this.#closed) await this.#sleepUntilWoken(50);
  }

  async readLine(timeoutMs = 30_000): Promise<string> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const newline = this.#buffer.indexOf(0x0a);
      if (newline !== -1) {
        const line = new TextDecoder().decode(this.#buffer.subarray(0, newline));
        this.#buffer = this.#buffer.subarray(newline + 1);
        return line;
      }
      if (this.#closed) throw new Error("the daemon closed the connection");
      if (performance.now() > deadline) throw new Error(`no reply line within ${timeoutMs} ms`);
      await this.#sleepUntilWoken(50);
    }
  }

  async readBytes(length: number, timeoutMs = 30_000): Promise<Uint8Array> {
    const deadline = performance.now() + timeoutMs;
    while (this.#buffer.length < length) {
      if (this.#closed)
        throw new Error(`the daemon closed the connection after ${this.#buffer.length} of ${length} bytes`);
      if (performance.now() > deadline)
        throw new Error(`only ${this.#buffer.length} of ${length} bytes within ${timeoutMs} ms`);
      await this.#sleepUntilWoken(50);
    }
    const bytes = this.#buffer.slice(0, length);
    this.#buffer = this.#buffer.subarray(length);
    return bytes;
  }

  /** One reply: its JSON line and, for a binary screenshot, the PNG bytes announced by `len`. */
  async reply(timeoutMs = 30_000): Promise<{ reply: Record<string, unknown>; bytes?: Uint8Array }> {
    const reply = JSON.parse(await this.readLine(timeoutMs)) as Record<string, unknown>;
    // Only a binary screenshot answers `len` without the PNG inside the JSON.
    if (reply.ok === true && typeof reply.len === "number" && !("png" in reply)) {
      return { reply, bytes: await this.readBytes(reply.len, timeoutMs) };
    }
    return { reply };
  }

  /** Close our side; unread replies are the daemon's problem. */
  close(): void {
    this.#socket.end();
  }

  #flush(): void {
    while (this.#pending.length) {
      const bytes = this.#pending[0]!;
      const written = this.#socket.write(bytes);
      if (written < bytes.length) {
        this.#pending[0] = bytes.subarray(Math.max(0, written));
        return;
      }
      this.#pending.shift();
    }
    this.#wakeUp();
  }

  #receive(chunk: Uint8Array): void {
    // Copy: Bun reuses the chunk's memory after this callback.
    const joined = new Uint8Array(this.#buffer.length + chunk.length);
    joined.set(this.#buffer);
    joined.set(chunk, this.#buffer.length);
    this.#buffer = joined;
    this.#wakeUp();
  }

  #onClose(): void {
    this.#closed = true;
    this.#wakeUp();
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #sleepUntilWoken(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
      setTimeout(resolve, ms);
    });
  }
}

export interface ProcessEntry {
  pid: number;
  ppid: number;
  state: string;
  sid: number;
  comm: string;
}

/** Every process on the machine, from /proc/PID/stat. */
export function processTable(): ProcessEntry[] {
  const table: ProcessEntry[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      // After the command name: state ppid pgrp session …
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.push({ pid: Number(entry), ppid: Number(fields[1]), state: fields[0]!, sid: Number(fields[3]), comm });
    } catch {
      // Exited while we looked.
    }
  }
  return table;
}

export function threadCount(pid: number): number {
  return Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "latin1"))![1]);
}

/**
 * Threads the runtime starts and ends on its own schedule, a bounded few whatever the load:
 * JavaScriptCore's JIT workers (gone once idle) and heap collector threads (started by a
 * concurrent collection, named "…ollector Thread" in /proc), Bun's I/O pool, the allocator's
 * scavenger. A CI run saw 10 threads become 11 after 200 sessions: one more collector thread.
 */
const RUNTIME_THREAD = /^(JITWorker|HeapHelper|JSCWarmUp|mi-scavenger|Bun Pool \d+)$|ollector Thread$/;

/** Threads of `pid` that t4a itself starts (its main thread, screen workers, …): where a leak shows. */
export function ownThreadCount(pid: number): number {
  let count = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (!RUNTIME_THREAD.test(readFileSync(`/proc/${pid}/task/${task}/comm`, "latin1").trim())) count++;
    } catch {
      // Ended while we looked.
    }
  }
  return count;
}

/** Children of `pid` that exited and were never reaped. */
export function zombieChildren(pid: number): ProcessEntry[] {
  return processTable().filter((p) => p.ppid === pid && p.state === "Z");
}

/** Processes (live or zombie) still in any of these sessions: a session's pid is its sid. */
export function leftInSessions(sids: Iterable<number>): ProcessEntry[] {
  const wanted = new Set(sids);
  return processTable().filter((p) => wanted.has(p.sid));
}

/** What the daemon wrote to its log beside the socket (auto-started daemons only). */
export function daemonLog(sandbox: Sandbox): string {
  try {
    return readFileSync(join(sandbox.dir, "run", "t4a.log"), "utf8");
  } catch {
    return "";
  }
}

/** Lines of the daemon log that mean a bug: internal errors and uncaught exceptions. */
export function logProblems(sandbox: Sandbox): string[] {
  return daemonLog(sandbox)
    .split("\n")
    .filter((line) => /internal error|uncaught exception|unhandled rejection/i.test(line))
    .map((line) => line.slice(0, 300));
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** "p50 3.1 / p95 12.0 / p99 40.2 / max 80.5 ms (n=400)" */
export function distribution(samples: number[]): { p50: number; p95: number; p99: number; max: number; text: string } {
  const sorted = [...samples].sort((a, b) => a - b);
  const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(sorted, p)) as [number, number, number];
  const max = sorted[sorted.length - 1] ?? NaN;
  const text = `p50 ${p50.toFixed(1)} / p95 ${p95.toFixed(1)} / p99 ${p99.toFixed(1)} / max ${max.toFixed(1)} ms (n=${samples.length})`;
  return { p50, p95, p99, max, text };
}
