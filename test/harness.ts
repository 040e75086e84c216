// Test harness: run the compiled dist/t4a in a private temp dir with its own socket,
// wait on conditions with backoff, and clean up every process a test started.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DaemonConnection, type Reply, type Response } from "../src/client/connection.ts";
import { livingDaemon } from "../src/client/daemon-pid.ts";

export const BIN = resolve(import.meta.dir, "../dist/t4a");

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class Sandbox {
  readonly dir: string;
  readonly socket: string;
  #cleaned = false;

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), "t4a-test-"));
    this.socket = join(this.dir, "run", "t4a.sock");
  }

  get env(): Record<string, string> {
    return { ...(process.env as Record<string, string>), T4A_SOCKET: this.socket, SHELL: "/bin/bash" };
  }

  /** Run `t4a args…` to completion. */
  async run(args: string[], stdin?: string): Promise<RunResult> {
    const child = Bun.spawn([BIN, ...args], {
      env: this.env,
      cwd: this.dir,
      stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { code, stdout, stderr };
  }

  /** Run and expect success; returns stdout without its final newline. */
  async ok(args: string[], stdin?: string): Promise<string> {
    const result = await this.run(args, stdin);
    if (result.code !== 0) throw new Error(`t4a ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
    return result.stdout.replace(/\n$/, "");
  }

  /** Start the daemon unless one answers (only `create` auto-starts it from the CLI). */
  async start(): Promise<void> {
    // Once cleanup has begun, never again: a failed test's watch, still polling the screen, started
    // a daemon between shutdown and the directory's removal, and it outlived the suite.
    if (this.#cleaned) throw new Error(`the sandbox ${this.dir} is cleaned up: no daemon starts for it`);
    if ((await this.run(["info"])).code === 0) return;
    const daemon = Bun.spawn([BIN, "daemon"], {
      env: this.env,
      cwd: "/",
      stdio: ["ignore", "ignore", "ignore"],
      detached: true,
    });
    daemon.unref();
    await waitFor(
      async () => (await this.run(["info"])).code === 0 || daemon.exitCode !== null,
      10_000,
      "the daemon to start",
    );
  }

  async connect(): Promise<DaemonConnection> {
    await this.start();
    return DaemonConnection.open(this.socket);
  }

  /** One request on a fresh connection. */
  async request(request: Reply): Promise<Response> {
    const connection = await DaemonConnection.open(this.socket).catch(() => this.connect());
    try {
      return await connection.request(request);
    } finally {
      connection.close();
    }
  }

  async daemonPid(): Promise<number> {
    return Number((await this.request({ cmd: "info" })).reply.pid);
  }

  /** Screen rows of a terminal as one string (viewport by default). */
  async screen(id: string, region = "viewport"): Promise<string> {
    const { reply } = await this.request({ cmd: "text", id, region });
    return (reply.lines as string[]).join("\n");
  }

  /** Waits until a terminal's screen shows `text` (30 s at most). */
  async shown(id: string, text: string): Promise<void> {
    await waitFor(async () => (await this.screen(id)).includes(text) || undefined, 30_000, `"${text}"`);
  }

  /** How many viewers (attach, browsers) the terminal has now, as list reports it. */
  async viewers(id: string): Promise<number> {
    const { reply } = await this.request({ cmd: "list" });
    return (reply.terminals as Array<{ id: string; viewers?: number }>).find((t) => t.id === id)?.viewers ?? 0;
  }

  async cleanup(): Promise<void> {
    this.#cleaned = true;
    const info = await this.run(["info", "--json"]);
    // A daemon too busy to answer info (an agent that failed a test, spinning) is found by its
    // pid file, so no daemon outlives its test.
    const pid = info.code === 0 ? (JSON.parse(info.stdout).pid as number) : livingDaemon(this.socket);
    if (info.code === 0) await this.#killPersisted().catch(() => {});
    await this.run(["shutdown"]);
    if (pid) await waitFor(() => !isAlive(pid), 5000).catch(() => process.kill(pid, "SIGKILL"));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * Shutdown keeps the persisted sessions (agents by default) for the next daemon, and any t4a
   * command after it starts one for them: the wrapper of an agent a failed test left running
   * reported its exit, and the agent came back resumed in this deleted directory, for good.
   */
  async #killPersisted(): Promise<void> {
    await this.#kill((terminal) => terminal.persist === true);
  }

  /**
   * Ends every terminal the daemon holds: a file whose tests share one daemon calls it after each
   * test, so a test that failed or timed out before its own `kill` leaves no agent CLI running into
   * the next tests (opencode idles at most of a core: CI, session 11, six left running, the rest
   * of the file timed out behind them).
   */
  async killAll(): Promise<void> {
    if (this.#cleaned) return;
    await this.#kill(() => true).catch(() => {});
  }

  async #kill(which: (terminal: { id: string; persist?: boolean }) => boolean): Promise<void> {
    const connection = await DaemonConnection.open(this.socket);
    try {
      const { reply } = await connection.request({ cmd: "list" });
      for (const terminal of reply.terminals as Array<{ id: string; persist?: boolean }>)
        if (which(terminal)) await connection.request({ cmd: "kill", id: terminal.id }).catch(() => {});
    } finally {
      connection.close();
    }
  }
}

/** Poll `condition` with backoff until it holds (returns its value) or the timeout passes. */
/** Polls with backoff until `condition` answers something truthy, and answers that. */
type Truthy<T> = Exclude<T, undefined | null | false | 0 | "">;

export async function waitFor<T>(
  condition: () => T | Promise<T>,
  timeoutMs = 10_000,
  what = "condition",
): Promise<Truthy<T>> {
  const deadline = performance.now() + timeoutMs;
  let delayMs = 5;
  for (;;) {
    const value = await condition();
    if (value) return value as Truthy<T>;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(delayMs);
    delayMs = Math.min(delayMs * 2, 100);
  }
}

/**
 * Whether any thread of the process still runs. A SIGKILLed process's first thread shows "Z"
 * while its other threads are still exiting, and its files (a daemon's listening socket, which
 * still accepts connections then) close only with the last of them.
 */
export function isAlive(pid: number): boolean {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return false;
  }
  return tasks.some((task) => {
    try {
      const state = readFileSync(`/proc/${pid}/task/${task}/stat`, "latin1").split(") ")[1]?.[0];
      return state !== undefined && state !== "Z" && state !== "X";
    } catch {
      return false; // that thread is gone
    }
  });
}

export function fdCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "latin1");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024;
}

/** Pids of live processes whose session id is `sid`. */
export function sessionMembers(sid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[3]) === sid && fields[0] !== "Z") pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/**
 * Agent states in order, a question announced again in its own words right after itself counted once: a dialog drawn
 * slower than the agent watch waits for is re-announced by design (a new question id, so that an answer never meets a
 * screen it was not read on). How fast a dialog is drawn is no state.
 */
export function statesOnceAsked(steps: ReadonlyArray<{ state: string; line: string }>): string[] {
  return steps
    .filter(
      (step, i) =>
        !(i > 0 && step.state === "waiting" && steps[i - 1]!.state === "waiting" && steps[i - 1]!.line === step.line),
    )
    .map((step) => step.state);
}
