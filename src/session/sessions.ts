// Every session of the daemon by id: create (ids t1, t2, … or a given name, through the spawn
// plugins), lookup, kill, and restore from the manifest after a restart. Decides ids and limits;
// each Session owns its own life. The only place a Terminal is made.
import { forDisplay, fromProgram } from "../protocol/program-text.ts";
import { realpathSync, statSync } from "node:fs";
import { T4aError, terminalNotFound } from "../protocol/errors.ts";
import type { SessionSpec } from "../protocol/session-spec.ts";
import type { Manifest, ManifestEntry } from "../service/manifest.ts";
import { runCleanups, type SpawnContext, type SpawnPlan } from "../spawn/plan.ts";
import { prepareSession } from "../spawn/spawn.ts";
import type { EventBus } from "../terminal/event-bus.ts";
import type { SessionRecords } from "../terminal/leftovers.ts";
import { Terminal, type EndReport } from "../terminal/terminal.ts";
import { AgentWatch } from "./agent-watch.ts";
import { ForegroundChild } from "../terminal/foreground.ts";
import { fdShortage } from "./fd-budget.ts";
import type { DaemonConfig } from "./config.ts";
import { Session } from "./session.ts";
import type { ScreenPool } from "../terminal/screen-pool.ts";

export interface SessionsOptions {
  bus: EventBus;
  /** Live: `config` changes apply to the next session. */
  config: DaemonConfig;
  spawn: SpawnContext;
  manifest: Manifest;
  /** Where the sessions' screens parse. */
  screens: ScreenPool;
  /** Where live sessions are noted so a daemon after a SIGKILL can end what is left. */
  records?: SessionRecords;
}

/** A session of the manifest brought back, or why it could not be. */
export interface Restored {
  id: string;
  cwd: string;
  error?: string;
}

export class Sessions {
  readonly #sessions = new Map<string, Session>();
  /** Ids handed out for creates still being prepared (their plugins run before the spawn). */
  readonly #reserved = new Set<string>();
  readonly #options: SessionsOptions;
  #nextNumber = 1;
  readonly #needListeners = new Set<() => void>();

  constructor(options: SessionsOptions) {
    this.#options = options;
  }

  /** A session from a spec: the plugin chain, the terminal, its timeout, its agent's watch, its recording. */
  async create(spec: SessionSpec, restored = false, startIn?: string): Promise<Session> {
    const shortage = fdShortage();
    if (shortage) throw new T4aError("busy", shortage);
    const id = this.#reserve(spec.name, restored);
    try {
      return await this.#create(id, spec, restored, startIn);
    } finally {
      this.#reserved.delete(id);
    }
  }

  /** The persisted sessions: what failed to come back, what of the file could not be read. */
  get manifest(): Manifest {
    return this.#options.manifest;
  }

  /** Where the sessions' screens parse. */
  get screens(): ScreenPool {
    return this.#options.screens;
  }

  /**
   * Called when a need changed in a way no event says: a claim ended, an ask let go of its agent
   * (wait --any looks again). Answers the unsubscribe.
   */
  onNeedsChanged(listener: () => void): () => void {
    this.#needListeners.add(listener);
    return () => this.#needListeners.delete(listener);
  }

  has(id: string): boolean {
    return this.#sessions.has(id);
  }

  get(id: string): Session {
    const session = this.#sessions.get(id);
    if (!session) throw terminalNotFound(id);
    return session;
  }

  list(): Session[] {
    return [...this.#sessions.values()];
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Ends a session's processes and forgets it; answers what its end kept (a dirty worktree…). */
  async kill(id: string, reason?: string): Promise<EndReport> {
    // A persisted session whose restore failed has no processes: kill forgets it.
    if (!this.#sessions.has(id) && this.#options.manifest.failures().some((failed) => failed.id === id)) {
      this.#options.manifest.remove(id);
      return {};
    }
    const session = this.get(id);
    this.#sessions.delete(id);
    try {
      await session.logSettled();
      return await session.terminal.kill(this.#options.config.kill_grace_ms, reason);
    } finally {
      this.#options.records?.remove(session.terminal.pid);
      // A shutdown waits for it too: a recording's last events are on disk before the daemon exits.
      await session.dispose();
    }
  }

  /**
   * An ended session made again from what it was made of, under the same id: its worktree, its
   * plugins, its environment; an agent resumes its conversation.
   */
  async restart(id: string): Promise<Session> {
    const ended = this.get(id);
    if (ended.terminal.alive)
      throw new T4aError("busy", `terminal "${id}" still runs; restart makes an ended session again (kill it first)`);
    const spec: SessionSpec = { ...ended.spec, name: id, ...(ended.spec.agent ? { resume: true } : {}) };
    await this.kill(id);
    return this.create(spec);
  }

  /** Daemon shutdown: every session ends, persisted ones stay in the manifest to come back. */
  async killAll(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.kill(id, "shutdown")));
  }

  /**
   * The persisted sessions of an earlier daemon on this socket, created again with the same ids,
   * directories (a shell's last one), plugins and size; agents resume their conversation.
   * Answers what was restored and what could not be, with why.
   */
  async restore(): Promise<Restored[]> {
    const report: Restored[] = [];
    for (const entry of this.#options.manifest.entries()) report.push(await this.#restoreEntry(entry));
    return report;
  }

  /**
   * One manifest entry whose restore failed, tried again (`t4a restore ID`); throws why it still
   * cannot come back.
   */
  async restoreOne(id: string): Promise<Session> {
    const { manifest } = this.#options;
    if (this.#sessions.has(id)) throw new T4aError("exists", `terminal "${id}" is running; nothing to restore`);
    const entry = manifest.entry(id);
    if (!entry) throw new T4aError("not_found", `no persisted session "${id}" waits to be restored`);
    const result = await this.#restoreEntry(entry);
    if (result.error)
      throw new T4aError(
        "spawn_failed",
        `session "${id}" could not be restored: ${result.error}; ` +
          `it stays in ${manifest.path} (\`t4a kill ${id}\` forgets it)`,
      );
    return this.get(id);
  }

  /**
   * A failed restore keeps its entry (a plugin file briefly missing, a moved directory must not
   * lose the session for good): it is marked, tried again at the next start and on `t4a restore`,
   * and forgotten only by `kill`.
   */
  async #restoreEntry(entry: ManifestEntry): Promise<Restored> {
    const { manifest, spawn, bus } = this.#options;
    const kept = structuredClone(entry);
    const keptValues = manifest.valuesOf(entry.id);
    const spec = manifest.specFor(entry, spawn.daemonEnv);
    // Its last directory, else the one it was made in, else home: a deleted directory does not
    // lose the session, and `list` says where it came back. The last directory is what the
    // program said (OSC 7): a sandbox or worktree session is made again in its recorded
    // directory (the same writable directory, the same repository's worktree) and starts in the
    // last one only when that one's real path lies inside the directory it started in (else a
    // sandbox was rebuilt writable where its program chose, or a worktree made of another
    // repository).
    const confined = spec.sandbox === true || spec.worktree !== undefined;
    const wanted = confined ? spec.cwd : (entry.cwd ?? spec.cwd);
    // An agent starts where it was made: its conversation is kept by that directory (--resume).
    const startIn = confined && spec.agent === undefined ? insideStart(entry) : undefined;
    const cwd = [wanted, spec.cwd, spawn.daemonEnv.HOME, "/"].find((dir) => dir !== undefined && isDirectory(dir));
    const note = cwd !== wanted ? `its directory ${wanted} is gone: restored in ${cwd}` : undefined;
    const restored = { ...spec, cwd, cols: entry.cols, rows: entry.rows, ...(spec.agent ? { resume: true } : {}) };
    try {
      const session = await this.create(restored, true, startIn);
      manifest.clearFailed(entry.id);
      if (note) session.restoreNote = fromProgram(note);
      const at = startIn ?? restored.cwd ?? "";
      bus.publish({ event: "restored", terminal: entry.id, cwd: forDisplay(fromProgram(at)) });
      return { id: entry.id, cwd: at };
    } catch (error) {
      const reason = (error as Error).message;
      // Its own cleanup (a kill after a failed recording) may have taken it out: put it back whole.
      if (!this.#sessions.has(entry.id)) {
        manifest.keep(kept, keptValues);
        manifest.markFailed(entry.id, reason);
      }
      return { id: entry.id, cwd: restored.cwd ?? "", error: reason };
    }
  }

  async #create(id: string, spec: SessionSpec, restored: boolean, startIn?: string): Promise<Session> {
    const { bus, manifest } = this.#options;
    const plan = await prepareSession(spec, this.#options.spawn, id, startIn);
    // Agents come back by default: their conversation resumes where it was.
    const persist = spec.persist ?? spec.agent !== undefined;
    const session = new Session({
      id,
      facts: plan.facts,
      cleanups: plan.cleanups,
      persist,
      restored,
      spec,
      bus,
      manifest,
      limits: plan.limits,
      // After the claim or the ask that changed it has settled (a listener may claim again).
      needsChanged: () => queueMicrotask(() => this.#needListeners.forEach((listener) => listener())),
    });
    let terminal: Terminal;
    try {
      terminal = this.#spawn(session, spec, plan);
    } catch (error) {
      await runCleanups(plan.cleanups);
      throw error;
    }
    session.started(terminal, plan.agent && this.#watch(session, terminal, plan.agent));
    this.#sessions.set(id, session);
    try {
      this.#options.records?.add(id, terminal.pid);
    } catch (error) {
      // Unrecorded, a daemon SIGKILLed later could not end what it leaves: not started at all.
      await this.kill(id);
      throw new T4aError(
        "spawn_failed",
        `${(error as Error).message}: the session could not be recorded beside the socket, so it was not started`,
      );
    }
    if (spec.record !== undefined) {
      try {
        session.record(spec.record, spec.record_input === true, spec.cast_format ?? "v2");
      } catch (error) {
        await this.kill(id);
        throw error;
      }
    }
    if (persist) {
      try {
        manifest.add(id, spec, terminal.screen.cols, terminal.screen.rows, realDirectory(plan.cwd));
      } catch (error) {
        // A session that could not come back after a restart is not started as if it could.
        await this.kill(id);
        throw new T4aError(
          "spawn_failed",
          `${(error as Error).message}: ` +
            "the session could not be saved to come back after a restart; it was not started",
        );
      }
    }
    if (plan.timeoutMs !== undefined) session.endAfter(plan.timeoutMs, () => this.kill(id, "timeout"));
    if (!restored) bus.publish({ event: "created", terminal: id });
    return session;
  }

  #spawn(session: Session, spec: SessionSpec, plan: SpawnPlan): Terminal {
    const { bus, config, spawn, screens } = this.#options;
    if (!isDirectory(plan.cwd)) throw new T4aError("invalid_params", `cwd "${plan.cwd}" is not a directory`);
    try {
      return new Terminal(
        {
          id: session.id,
          screens,
          argv: plan.argv,
          // A sandbox changes into startIn inside (bwrap's --chdir); bwrap itself starts in cwd.
          cwd: spec.sandbox ? plan.cwd : (plan.startIn ?? plan.cwd),
          env: plan.env.forProgram(),
          wrap: plan.wrap,
          cols: spec.cols,
          rows: spec.rows,
          scrollback: spec.scrollback ?? config.scrollback_lines,
          scrollbackBytes: config.scrollback_bytes,
          idleMs: () => spec.idle_timeout_ms ?? config.idle_timeout_ms,
          integrationDir: spec.shell_integration ? spawn.integrationDir : undefined,
          onInput: (data) => session.agent?.input(data),
          onCwd: (cwd) => session.movedTo(cwd),
          onResize: (cols, rows) => session.resized(cols, rows),
          onEnd: (reason) => session.ended(reason),
        },
        (event) => bus.publish(session.stamp(event)),
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new T4aError("spawn_failed", `cannot start ${JSON.stringify(plan.argv[0])}: ${reason}`);
    }
  }

  /** The agent's state watch: it reads the screen and writes input through this host alone. */
  #watch(session: Session, terminal: Terminal, agent: NonNullable<SpawnPlan["agent"]>): AgentWatch {
    const { bus } = this.#options;
    const screen = terminal.screen;
    // Over ssh the leader is ssh itself: the CLI's process is on another machine.
    const cli = session.facts.spawn_mode === "ssh" ? undefined : new ForegroundChild(() => terminal.pid);
    const watch = new AgentWatch(
      session.id,
      agent.agent,
      {
        subscribe: (sink) => bus.subscribe(session.id, sink),
        publish: (event) => bus.publish(session.stamp(event)),
        screen: () => screen.lines("viewport", 0, screen.rows, true),
        screenToken: () => screen.changeToken(),
        changedSince: (token) => screen.changedSince(token, "viewport").lines,
        bracketedPaste: () => screen.bracketedPaste,
        inputWanted: () => terminal.inputWanted,
        elements: () => screen.elements(),
        cursorRow: () => {
          const cursor = screen.cursor();
          return cursor.visible ? cursor.row : undefined;
        },
        agentProcess: cli && ((find) => (terminal.alive ? cli.place(find) : "gone")),
        write: (data) => {
          if (terminal.alive) terminal.write(data);
        },
      },
      { typedPrompt: agent.typedPrompt, promptGiven: agent.promptGiven, resumed: agent.resumed },
    );
    watch.listen(agent.notifyPath);
    return watch;
  }

  /** Holds an id (the name, or the next t<N>), refusing at once what would fail on the limit or the name. */
  #reserve(name: string | undefined, restoring: boolean): string {
    const max = this.#options.config.max_sessions;
    if (this.#sessions.size + this.#reserved.size >= max) {
      throw new T4aError("busy", `session limit reached (${max}); kill a terminal first`);
    }
    if (name !== undefined && (this.#sessions.has(name) || this.#reserved.has(name)))
      throw new T4aError("exists", `terminal "${name}" already exists`);
    if (name !== undefined && !restoring && this.#options.manifest.failures().some((failed) => failed.id === name)) {
      throw new T4aError(
        "exists",
        `terminal "${name}" is a persisted session waiting to be restored ` +
          `(\`t4a restore ${name}\`, or \`t4a kill ${name}\` to forget it)`,
      );
    }
    const id = name ?? this.#freshId();
    this.#reserved.add(id);
    return id;
  }

  #freshId(): string {
    const taken = (id: string) => this.#sessions.has(id) || this.#reserved.has(id) || this.#options.manifest.has(id);
    while (taken(`t${this.#nextNumber}`)) this.#nextNumber++;
    return `t${this.#nextNumber++}`;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A sandbox or worktree session's reported directory (OSC 7, the program's say) as a real path,
 * when it lies inside the real directory the session started in, recorded at creation; else (or
 * for an older manifest, which recorded none) undefined: it starts where it is made.
 */
function insideStart(entry: ManifestEntry): string | undefined {
  const root = entry.start_dir;
  const real = entry.cwd === undefined ? undefined : realDirectory(entry.cwd);
  if (root === undefined || real === undefined) return undefined;
  return real === root || real.startsWith(`${root}/`) ? real : undefined;
}

/** The real path of an existing directory; undefined when it is not one. */
function realDirectory(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}
