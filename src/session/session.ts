// One session's life in one place: its terminal, what its spawn plan left to undo, its agent's
// watch, its recording, its viewers, its timeout, and its manifest entry. Its end runs in one
// order (see #ended) and dispose() lets go of everything. Made by Sessions; no wire here.
import { T4aError } from "../protocol/errors.ts";
import type { Manifest } from "../service/manifest.ts";
import { runCleanups, type Cleanup, type SpawnFacts } from "../spawn/plan.ts";
import { Attachment, type AttachOptions, type Viewer } from "../stream/attachment.ts";
import { Recorder, type CastFormat } from "../stream/recorder.ts";
import type { EventBus } from "../terminal/event-bus.ts";
import type { SessionInfo } from "../protocol/session-info.ts";
import type { EndHookReport, Terminal } from "../terminal/terminal.ts";
import type { AgentWatch } from "./agent-watch.ts";


/** What the session is told at its start; its terminal follows once spawned (see started). */
export interface SessionParts {
  id: string;
  facts: SpawnFacts;
  cleanups: Cleanup[];
  persist: boolean;
  restored: boolean;
  bus: EventBus;
  manifest: Manifest;
}

export class Session {
  readonly id: string;
  readonly facts: SpawnFacts;
  readonly persist: boolean;
  readonly restored: boolean;
  /** Set when a restore could not bring it back where it was (its directory is gone). */
  restoreNote: string | undefined;
  #terminal: Terminal | undefined;
  #agent: AgentWatch | undefined;
  #recorder: Recorder | undefined;
  #viewers = 0;
  readonly #cleanups: Cleanup[];
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #bus: EventBus;
  readonly #manifest: Manifest;
  #disposed = false;

  constructor(parts: SessionParts) {
    this.id = parts.id;
    this.facts = parts.facts;
    this.persist = parts.persist;
    this.restored = parts.restored;
    this.#cleanups = parts.cleanups;
    this.#bus = parts.bus;
    this.#manifest = parts.manifest;
  }

  get terminal(): Terminal {
    if (!this.#terminal) throw new T4aError("internal", `session "${this.id}" has no terminal yet`);
    return this.#terminal;
  }

  /** The terminal, when its program still runs: input and resizes need one. */
  get alive(): Terminal {
    if (!this.terminal.alive) throw new T4aError("exited", `terminal "${this.id}" has exited`);
    return this.terminal;
  }

  get agent(): AgentWatch | undefined {
    return this.#agent;
  }

  /** Called once by Sessions after the spawn, with the agent watch that starts with it. */
  started(terminal: Terminal, agent?: AgentWatch): void {
    this.#terminal = terminal;
    this.#agent = agent;
  }

  info(): SessionInfo {
    const info: SessionInfo = { ...this.terminal.info(), ...this.facts };
    if (this.#agent) info.agent_state = this.#agent.state;
    if (this.restored) info.restored = true;
    if (this.restoreNote) info.restore_note = this.restoreNote;
    if (this.persist) info.persist = true;
    if (this.#recorder) info.recording = this.#recorder.path;
    if (this.#viewers > 0) info.viewers = this.#viewers;
    return info;
  }

  /** Ends the session after `ms` as kill does, with this reason on its exit event. */
  endAfter(ms: number, end: () => Promise<unknown>): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void end().catch(() => {});
    }, ms);
    this.#timers.add(timer);
  }

  /** A viewer from now on (attach, a browser): the screen, then every byte; counted while it stays. */
  view(viewer: Viewer, options: Omit<AttachOptions, "onClose">): Attachment {
    this.#viewers++;
    return new Attachment(this.terminal, viewer, { ...options, onClose: () => this.#viewers-- });
  }

  /** Record to an asciicast file from this byte on, until stopRecording, the end, or shutdown. */
  record(path: string, input: boolean, format: CastFormat): void {
    if (this.#recorder) throw new T4aError("exists", `terminal "${this.id}" is already being recorded to ${this.#recorder.path}`);
    if (!this.terminal.alive) throw new T4aError("exited", `terminal "${this.id}" has exited`);
    let recorder: Recorder;
    try {
      recorder = new Recorder(this.terminal, { path, format, input, env: this.terminal.env, events: (sink) => this.#bus.subscribe(this.id, sink) });
    } catch (error) {
      throw new T4aError("invalid_params", `cannot record to ${path}: ${(error as Error).message}`);
    }
    recorder.onEnd = () => {
      if (this.#recorder === recorder) this.#recorder = undefined;
    };
    this.#recorder = recorder;
  }

  /** Answers the path that was being written. */
  stopRecording(): string {
    const recorder = this.#recorder;
    if (!recorder) throw new T4aError("not_found", `terminal "${this.id}" is not being recorded`);
    recorder.close();
    return recorder.path;
  }

  /** The shell moved (OSC 7): a persisted session comes back there. */
  movedTo(cwd: string): void {
    if (this.persist) this.#manifest.update(this.id, { cwd });
  }

  /** A new size (resize, an attached client's window): a persisted session comes back at it. */
  resized(cols: number, rows: number): void {
    if (this.persist) this.#manifest.update(this.id, { cols, rows });
  }

  /**
   * The program has ended, before its exit event goes out. In this order: the timeout is
   * cancelled; the manifest forgets the session unless the daemon is shutting down (then it comes
   * back); the plan's cleanups run (the worktree last made, first undone). What they kept joins
   * the exit event. After the event: the agent watch reports "exited", recording and viewers end.
   */
  async ended(reason: string | undefined): Promise<EndHookReport> {
    this.#clearTimers();
    if (reason !== "shutdown") this.#manifest.remove(this.id);
    const kept = await runCleanups(this.#cleanups);
    return kept.length ? { kept } : {};
  }

  /** Lets go of everything the session holds; safe to call again. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#clearTimers();
    this.#agent?.dispose();
    this.#recorder?.close();
    this.#terminal?.dispose();
  }

  #clearTimers(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
