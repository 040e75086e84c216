// The sessions a daemon brings back when it starts again (boot, crash, kill -9, upgrade): those
// created with `persist` (agent sessions by default). Written atomically, mode 0600, with the
// names of environment variables; their values (`-e K=V`, the client's) are kept apart in
// `<manifest>.env.json` (0600 too), so the manifest can be shown without them and a restored
// session gets what it was given. `kill` removes a session; a crash does not.
// A new session is written at once (its create fails if it cannot be: a full disk); a moved
// directory or a new size is coalesced into one write a moment later and never throws (it comes
// from inside the terminal's parser, which must never see a write error).
import { writePrivateFile } from "../client/private-file.ts";
import { expectObject, loadStateFile } from "../client/state-file.ts";
import { rmSync } from "node:fs";
import * as v from "valibot";
import { SessionSpec } from "../protocol/session-spec.ts";

export interface ManifestEntry {
  id: string;
  /** The create request, with env and client_env reduced to their names. */
  spec: Omit<SessionSpec, "env" | "client_env"> & { env_names?: string[]; client_env_names?: string[] };
  /** The shell's last directory (OSC 7), when it reported one: program text, never trusted (sessions.ts's restore). */
  cwd?: string;
  /**
   * The real path of the directory the session started in (a sandbox's writable directory, a
   * worktree session's worktree): a restored sandbox or worktree session goes back to its `cwd`
   * only when that lies inside this.
   */
  start_dir?: string;
  cols: number;
  rows: number;
  created_at: string;
}

/** The environment values a persisted session was created with (manifest entries hold the names). */
export interface EnvValues {
  env?: Record<string, string>;
  client_env?: Record<string, string>;
}

/** Changes of directory or size within this long become one write (a cwd flood wrote 57 MB). */
const COALESCE_MS = 250;
/** After a failed write, the next try comes this much later. */
const RETRY_MS = 5000;

export class Manifest {
  readonly path: string;
  /** Where the entries' environment values are kept, beside the manifest. */
  readonly valuesPath: string;
  #entries = new Map<string, ManifestEntry>();
  #values = new Map<string, EnvValues>();
  #pending: ReturnType<typeof setTimeout> | undefined;
  /** The last write failed (said once in the log until one succeeds again). */
  #failing = false;
  /** Entries whose restore failed, with why: kept for the next start and `t4a restore`. */
  readonly #failed = new Map<string, string>();
  /** What of the file could not be read when the daemon started (a copy of it is kept). */
  readonly problems: string[];

  constructor(path: string) {
    this.path = path;
    this.valuesPath = path.replace(/(\.json)?$/, ".env.json");
    // A broken file is copied aside before anything overwrites it; what is readable comes back.
    const read = loadStateFile(path, readEntries);
    for (const entry of read.value ?? []) this.#entries.set(entry.id, entry);
    const values = loadStateFile(this.valuesPath, readValues);
    for (const [id, value] of Object.entries(values.value ?? {}))
      if (this.#entries.has(id)) this.#values.set(id, value);
    this.problems = [...read.problems, ...values.problems];
    // What could be read is written back at once, once a copy of the whole is kept: the next start
    // does not report, and copy, the same problems again.
    if (read.keptAs || values.keptAs) this.#writeOrRetry();
  }

  /** A restore of this entry failed: it stays, to be tried again, and list says why. */
  markFailed(id: string, reason: string): void {
    this.#failed.set(id, reason);
  }

  clearFailed(id: string): void {
    this.#failed.delete(id);
  }

  /** The entries waiting for a restore that failed, with why. */
  failures(): Array<{ id: string; error: string }> {
    return [...this.#failed].filter(([id]) => this.#entries.has(id)).map(([id, error]) => ({ id, error }));
  }

  entry(id: string): ManifestEntry | undefined {
    return this.#entries.get(id);
  }

  /** The environment values kept for an entry. */
  valuesOf(id: string): EnvValues | undefined {
    return this.#values.get(id);
  }

  /** An entry put back as it was (a failed restore's own cleanup may have removed it). */
  keep(entry: ManifestEntry, values: EnvValues | undefined): void {
    this.#entries.set(entry.id, entry);
    if (values) this.#values.set(entry.id, values);
    this.#writeOrRetry();
  }

  /** The spec to restore: the values it was given, else (an older manifest) the daemon's. */
  specFor(entry: ManifestEntry, daemonEnv: Record<string, string>): SessionSpec {
    const spec = Manifest.specOf(entry, daemonEnv);
    const kept = this.#values.get(entry.id);
    if (kept?.env) spec.env = { ...spec.env, ...kept.env };
    if (kept?.client_env) spec.client_env = { ...spec.client_env, ...kept.client_env };
    return spec;
  }

  entries(): ManifestEntry[] {
    return [...this.#entries.values()];
  }

  add(id: string, spec: SessionSpec, cols: number, rows: number, startDir?: string): void {
    const { env, client_env, ...rest } = spec;
    // A restored session is added again: it keeps the directory its first creation started in.
    startDir = this.#entries.get(id)?.start_dir ?? startDir;
    this.#entries.set(id, {
      id,
      spec: {
        ...rest,
        name: id,
        env_names: env ? Object.keys(env) : undefined,
        client_env_names: client_env ? Object.keys(client_env) : undefined,
      },
      cols,
      rows,
      ...(startDir !== undefined ? { start_dir: startDir } : {}),
      created_at: new Date().toISOString(),
    });
    if (env || client_env) this.#values.set(id, { ...(env ? { env } : {}), ...(client_env ? { client_env } : {}) });
    try {
      this.#write();
    } catch (error) {
      this.#entries.delete(id);
      this.#values.delete(id);
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
    this.#failed.delete(id);
    this.#values.delete(id);
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
    const pick = (names: string[] | undefined) =>
      names
        ? Object.fromEntries(names.filter((name) => env[name] !== undefined).map((name) => [name, env[name]!]))
        : undefined;
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
      if (!this.#failing)
        console.error(
          `t4a daemon: ${(error as Error).message} (the manifest); trying again every ${RETRY_MS / 1000} s`,
        );
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
    if (this.#entries.size === 0) {
      rmSync(this.valuesPath, { force: true });
      return rmSync(this.path, { force: true });
    }
    // The values first: a manifest never names a session whose values were not kept.
    if (this.#values.size)
      writePrivateFile(
        this.valuesPath,
        `${JSON.stringify({ version: 1, values: Object.fromEntries(this.#values) })}\n`,
      );
    else rmSync(this.valuesPath, { force: true });
    writePrivateFile(this.path, `${JSON.stringify({ version: 1, sessions: this.entries() }, null, 2)}\n`);
  }
}

/**
 * The entries of a manifest file: one that cannot be read (a wrong type, a missing spec) is left
 * out and named, and never keeps the others from coming back.
 */
function readEntries(json: unknown, problems: string[]): ManifestEntry[] {
  const sessions = expectObject(json, "the manifest").sessions;
  if (!Array.isArray(sessions))
    throw new Error(`its "sessions" is ${sessions === null ? "null" : typeof sessions}, not a list`);
  const entries: ManifestEntry[] = [];
  sessions.forEach((raw: unknown, index) => {
    const why = entryProblem(raw);
    const id =
      typeof (raw as ManifestEntry | null)?.id === "string" ? `"${(raw as ManifestEntry).id}"` : `#${index + 1}`;
    if (why) problems.push(`session ${id} of the manifest cannot be restored: ${why}`);
    else entries.push(raw as ManifestEntry);
  });
  return entries;
}

function entryProblem(raw: unknown): string | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "it is not an object";
  const entry = raw as Record<string, unknown>;
  if (typeof entry.id !== "string" || entry.id === "") return "it has no id";
  if (typeof entry.spec !== "object" || entry.spec === null || Array.isArray(entry.spec))
    return `its spec is ${entry.spec === null ? "null" : typeof entry.spec}`;
  for (const key of ["env_names", "client_env_names"] as const) {
    const names = (entry.spec as Record<string, unknown>)[key];
    if (names !== undefined && !(Array.isArray(names) && names.every((name) => typeof name === "string")))
      return `its spec's ${key} is not a list of names`;
  }
  const checked = v.safeParse(SessionSpec, Manifest.specOf(raw as ManifestEntry, {}));
  if (!checked.success) return `its spec does not hold: ${v.summarize(checked.issues).replace(/\n/g, "; ")}`;
  for (const key of ["cols", "rows"] as const)
    if (!Number.isInteger(entry[key]) || (entry[key] as number) <= 0)
      return `its ${key} is not a positive whole number`;
  if (entry.cwd !== undefined && typeof entry.cwd !== "string") return "its cwd is not a string";
  if (entry.start_dir !== undefined && typeof entry.start_dir !== "string") return "its start_dir is not a string";
  return undefined;
}

/** The kept environment values by session id; a malformed one is left out, named. */
function readValues(json: unknown, problems: string[]): Record<string, EnvValues> {
  const values = expectObject(expectObject(json, "the environment values file").values, "its values");
  const stringMap = (map: unknown) =>
    map === undefined ||
    (typeof map === "object" && map !== null && Object.values(map).every((value) => typeof value === "string"));
  const kept: Record<string, EnvValues> = {};
  for (const [id, value] of Object.entries(values)) {
    const entry = value as EnvValues | null;
    if (typeof entry === "object" && entry !== null && stringMap(entry.env) && stringMap(entry.client_env))
      kept[id] = entry;
    else
      problems.push(
        `the environment values of session "${id}" cannot be read: ` +
          "it comes back with the daemon's values of its variables",
      );
  }
  return kept;
}
