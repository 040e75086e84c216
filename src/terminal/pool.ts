// All sessions of the daemon by id: creation (ids t1, t2, … or a given name), lookup, removal.
// Decides ids and limits; the terminals themselves do the work.
import { statSync } from "node:fs";
import { T4aError, terminalNotFound } from "../protocol/errors.ts";
import type { EventBus } from "./event-bus.ts";
import type { SessionRecords } from "./leftovers.ts";
import { Terminal, type TerminalSpec } from "./terminal.ts";

export class Pool {
  readonly #terminals = new Map<string, Terminal>();
  readonly #bus: EventBus;
  readonly #records: SessionRecords | undefined;
  /** Ids handed out for creates still being prepared (their plugins run before the spawn). */
  readonly #reserved = new Set<string>();
  #nextNumber = 1;

  /** `records`: where live sessions are noted so a daemon after a SIGKILL can end what is left. */
  constructor(bus: EventBus, records?: SessionRecords) {
    this.#bus = bus;
    this.#records = records;
  }

  /**
   * Holds an id (the name, or the next t<N>) for a create whose plugins run before its spawn,
   * refusing at once what would fail on the limit or the name. Release it when done.
   */
  reserve(name: string | undefined, maxSessions: number): string {
    if (this.#terminals.size + this.#reserved.size >= maxSessions) {
      throw new T4aError("busy", `session limit reached (${maxSessions}); kill a terminal first`);
    }
    if (name !== undefined && (this.#terminals.has(name) || this.#reserved.has(name))) throw new T4aError("exists", `terminal "${name}" already exists`);
    const id = name ?? this.#freshId();
    this.#reserved.add(id);
    return id;
  }

  release(id: string): void {
    this.#reserved.delete(id);
  }

  /** Spawns a terminal under an id from reserve() (the limit and the name were checked there). */
  create(spec: Omit<TerminalSpec, "id">, id: string): Terminal {
    if (!isDirectory(spec.cwd)) throw new T4aError("invalid_params", `cwd "${spec.cwd}" is not a directory`);
    let terminal: Terminal;
    try {
      terminal = new Terminal({ ...spec, id }, (event) => this.#bus.publish(event));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new T4aError("spawn_failed", `cannot start ${JSON.stringify(spec.argv[0])}: ${reason}`);
    }
    this.#terminals.set(id, terminal);
    this.#records?.add(id, terminal.pid);
    return terminal;
  }

  has(id: string): boolean {
    return this.#terminals.has(id);
  }

  get(id: string): Terminal {
    const terminal = this.#terminals.get(id);
    if (!terminal) throw terminalNotFound(id);
    return terminal;
  }

  /** A terminal whose program still runs: input and resizes need one. */
  getAlive(id: string): Terminal {
    const terminal = this.get(id);
    if (!terminal.alive) throw new T4aError("exited", `terminal "${id}" has exited`);
    return terminal;
  }

  list(): Terminal[] {
    return [...this.#terminals.values()];
  }

  get size(): number {
    return this.#terminals.size;
  }

  /** Ends a terminal's processes and forgets it; answers what its end reported (what was kept). */
  async kill(id: string, graceMs: number, reason?: string): Promise<Record<string, unknown>> {
    const terminal = this.get(id);
    this.#terminals.delete(id);
    try {
      return await terminal.kill(graceMs, reason);
    } finally {
      terminal.dispose();
      this.#records?.remove(terminal.pid);
    }
  }

  async killAll(graceMs: number): Promise<void> {
    await Promise.all([...this.#terminals.keys()].map((id) => this.kill(id, graceMs, "shutdown")));
  }

  #freshId(): string {
    while (this.#terminals.has(`t${this.#nextNumber}`) || this.#reserved.has(`t${this.#nextNumber}`)) this.#nextNumber++;
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
