// The sessions a daemon brings back when it starts again (boot, crash, kill -9, upgrade): those
// created with `persist` (agent sessions by default). Written atomically, mode 0600, with the
// names of environment variables only — their values are read again from the daemon's
// environment at restore, never written to disk. `kill` removes a session; a crash does not.
// A new session is written at once (its create fails if it cannot be: a full disk); a moved
// directory or a new size is coalesced into one write a moment later and never throws (it comes
// from inside the terminal's parser, which must never see a write error).
import { writePrivateFile } from "../client/private-file.ts";
import { readFileSync, rmSync } from "node:fs";
import type { SessionSpec } from "../protocol/session-spec.ts";

export interface ManifestEntry {
  id: string;
  /** The create request, with env and client_env reduced to their names. */
  spec: Omit<SessionSpec, "env" | "client_env"> & { env_names?: string[]; client_env_names?: string[] };
  /** The shell's last directory (OSC 7), when it reported one. */
  cwd?: string;
  cols: number;
  rows: number;
  created_at: string;
}

/** Changes of directory or size within this long become one write (a cwd flood wrote 57 MB). */
const COALESCE_MS = 250;
/** After a failed write, the next try comes this much later. */
const RETRY_MS = 5000;

export class Manifest {
  readonly path: string;
  #entries = new Map<string, ManifestEntry>();
  #pending: ReturnType<typeof setTimeout> | undefined;
  /** The last write failed (said once in the log until one succeeds again). */
  #failing = false;

  constructor(path: string) {
    this.path = path;
    try {
      const parsed = JSON.parse(readFileSync(path, "utf8")) as { sessions?: ManifestEntry[] };
      for (const entry of parsed.sessions ?? []) if (entry && typeof entry.id === "string") this.#entries.set(entry.id, entry);
    } catch {
      // None yet, or unreadable: start empty (a broken file is replaced at the next write).
    }
  }

  entries(): ManifestEntry[] {
    return [...this.#entries.values()];
  }

  add(id: string, spec: SessionSpec, cols: number, rows: number): void {
    const { env, client_env, ...rest } = spec;
    this.#entries.set(id, {
      id,
      spec: { ...rest, name: id, env_names: env ? Object.keys(env) : undefined, client_env_names: client_env ? Object.keys(client_env) : undefined },
      cols,
      rows,
      created_at: new Date().toISOString(),
    });
    try {
      this.#write();
    } catch (error) {
      this.#entries.delete(id);
      throw error;
    }
  }

  /** Coalesced, and never throws: a failure is logged and tried again later. */
  update(id: string, patch: Partial<Pick<ManifestEntry, "cwd" | "cols" | "rows">>): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    Object.assign(entry, patch);
    this.#schedule(COALESCE_MS);
  }

  remove(id: string): void {
    if (this.#entries.delete(id)) this.#writeOrRetry();
  }

  /** What is waiting to be written, now (at shutdown). */
  flush(): void {
    if (!this.#pending) return;
    clearTimeout(this.#pending);
    this.#pending = undefined;
    this.#writeOrRetry();
  }

  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /** The spec again, with the environment's values read from `env` (the daemon's). */
  static specOf(entry: ManifestEntry, env: Record<string, string>): SessionSpec {
    const { env_names, client_env_names, ...spec } = entry.spec;
    const pick = (names: string[] | undefined) => (names ? Object.fromEntries(names.filter((name) => env[name] !== undefined).map((name) => [name, env[name]!])) : undefined);
    return { ...spec, env: pick(env_names), client_env: pick(client_env_names) } as SessionSpec;
  }

  #schedule(delayMs: number): void {
    this.#pending ??= setTimeout(() => {
      this.#pending = undefined;
      this.#writeOrRetry();
    }, delayMs);
  }

  #writeOrRetry(): void {
    try {
      this.#write();
      if (this.#failing) console.error(`t4a daemon: the manifest ${this.path} is written again`);
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) console.error(`t4a daemon: cannot write the manifest ${this.path} (${(error as Error).message}); trying again every ${RETRY_MS / 1000} s`);
      this.#failing = true;
      this.#schedule(RETRY_MS);
    }
  }

  /** Throws what the filesystem said (ENOSPC…); never leaves its temporary file behind. */
  #write(): void {
    if (this.#pending) {
      clearTimeout(this.#pending);
      this.#pending = undefined;
    }
    // No file when nothing is to come back: a client that finds none starts no daemon for it.
    if (this.#entries.size === 0) return rmSync(this.path, { force: true });
    writePrivateFile(this.path, `${JSON.stringify({ version: 1, sessions: this.entries() }, null, 2)}\n`);
  }
}
