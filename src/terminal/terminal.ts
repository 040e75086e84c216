// One session: a PTY, the screen it feeds, and the events it raises. Owns all three and tears
// them down in dispose(). Knows nothing of the wire protocol beyond the event shapes.
import type { TerminalEvent } from "../protocol/events.ts";
import { SYNC_FRAME_WAIT_MS } from "../protocol/limits.ts";
import { Pty, type PtyExit } from "./pty.ts";
import { Screen } from "./screen.ts";

export interface TerminalSpec {
  id: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  scrollback: number;
}

export interface TerminalInfo {
  id: string;
  cols: number;
  rows: number;
  pid: number;
  alive: boolean;
  title: string;
  cmd_args: string[];
  exit_code?: number | null;
  signal?: string | null;
}

export class Terminal {
  readonly id: string;
  readonly argv: string[];
  readonly screen: Screen;
  readonly #pty: Pty;
  #exit: PtyExit | null = null;
  #syncWaiters: Array<() => void> = [];

  /** Throws when the program cannot be spawned. */
  constructor(spec: TerminalSpec, emit: (event: TerminalEvent) => void) {
    this.id = spec.id;
    this.argv = spec.argv;
    this.screen = new Screen(
      { cols: spec.cols, rows: spec.rows, scrollback: spec.scrollback },
      {
        reply: (data) => this.#pty?.write(data),
        title: (title) => emit({ event: "title", terminal: this.id, title }),
        bell: () => emit({ event: "bell", terminal: this.id }),
      },
    );
    try {
      this.#pty = new Pty({
        argv: spec.argv,
        cwd: spec.cwd,
        env: spec.env,
        cols: spec.cols,
        rows: spec.rows,
        onData: (chunk) => {
          this.screen.write(chunk);
          if (this.#syncWaiters.length && !this.screen.inSyncFrame) this.#releaseSyncWaiters();
        },
        onExit: (exit) => {
          this.#exit = exit;
          this.#releaseSyncWaiters();
          emit({ event: "exit", terminal: this.id, code: exit.code, ...(exit.signal ? { signal: exit.signal } : {}) });
        },
      });
    } catch (error) {
      this.screen.dispose();
      throw error;
    }
  }

  get pid(): number {
    return this.#pty.pid;
  }

  get alive(): boolean {
    return this.#exit === null;
  }

  info(): TerminalInfo {
    const info: TerminalInfo = {
      id: this.id,
      cols: this.screen.cols,
      rows: this.screen.rows,
      pid: this.pid,
      alive: this.alive,
      title: this.screen.title,
      cmd_args: this.argv,
    };
    if (this.#exit) {
      info.exit_code = this.#exit.code;
      info.signal = this.#exit.signal;
    }
    return info;
  }

  write(data: string | Uint8Array): void {
    this.#pty.write(data);
  }

  resize(cols: number, rows: number): void {
    this.screen.resize(cols, rows);
    this.#pty.resize(cols, rows);
  }

  /**
   * Resolves when the screen is whole: a program inside a synchronized-output frame
   * (DEC 2026) has not finished drawing, so readers wait for the frame to close (bounded).
   */
  async settled(): Promise<void> {
    if (!this.screen.inSyncFrame || !this.alive) return;
    await Promise.race([new Promise<void>((resolve) => this.#syncWaiters.push(resolve)), Bun.sleep(SYNC_FRAME_WAIT_MS)]);
  }

  #releaseSyncWaiters(): void {
    const waiters = this.#syncWaiters;
    this.#syncWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Ends the process tree; resolves after the exit has been reported. */
  kill(graceMs: number): Promise<PtyExit> {
    return this.#pty.kill(graceMs);
  }

  dispose(): void {
    this.#releaseSyncWaiters();
    this.screen.dispose();
  }
}
