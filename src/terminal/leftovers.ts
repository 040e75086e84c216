// What a SIGKILLed daemon leaves behind: its sessions' processes that ignored the PTY's hangup,
// the helpers a create was waiting on (plugins, setup scripts), and the cleanups it had promised
// (a plugin's `cleanup`). Each is recorded as a file in a private directory beside the socket
// (0600) while it is pending; the next daemon on that socket finishes them before it serves.
// Knows /proc and files, nothing of terminals; running a cleanup is its caller's job.
import { processStartTicks } from "../client/daemon-pid.ts";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionMembers } from "./pty.ts";

interface SessionRecord {
  id: string;
  /** The session leader's pid, which is also the session id of every process in it. */
  pid: number;
  /** The leader's start time (clock ticks since boot, /proc/PID/stat field 22): a reused pid differs. */
  start: number;
}

/**
 * A helper the daemon waits on, recorded before it is spawned (so no pid yet): it and whatever it
 * started are found by T4A_HELPER=token in their environment. The token is random: a daemon that
 * reuses a dead one's pid, or any other daemon, never has a helper with the same one.
 */
interface HelperRecord {
  kind: "helper";
  token: string;
}

/** A command to run once something ends, as it would have run then. */
export interface PendingCleanup {
  /** Who asked for it, for messages: `plugin NAME`. */
  name: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

export interface Leftover {
  id: string;
  pids: number[];
}

const HELPER_PREFIX = "helper-";
const CLEANUP_PREFIX = "cleanup-";

let current: SessionRecords | undefined;

/** The records of the daemon serving in this process (none in a test that runs pieces in-process). */
export function daemonRecords(): SessionRecords | undefined {
  return current;
}

export class SessionRecords {
  readonly #dir: string;

  #cleanups = 0;

  constructor(dir: string) {
    this.#dir = dir;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** These are the records of the daemon that serves in this process. */
  adopt(): void {
    current = this;
  }

  /** Called before the helper is spawned: a daemon killed right after the spawn has recorded it already. */
  addHelper(token: string): void {
    const record: HelperRecord = { kind: "helper", token };
    writeFileSync(join(this.#dir, `${HELPER_PREFIX}${token}`), JSON.stringify(record), { mode: 0o600 });
  }

  removeHelper(token: string): void {
    rmSync(join(this.#dir, `${HELPER_PREFIX}${token}`), { force: true });
  }

  /** Records a cleanup before it is needed; answers the key that forgets it once it has run. */
  addCleanup(cleanup: PendingCleanup): string {
    const key = `${CLEANUP_PREFIX}${process.pid}-${++this.#cleanups}`;
    writeFileSync(join(this.#dir, key), JSON.stringify(cleanup), { mode: 0o600 });
    return key;
  }

  removeCleanup(key: string): void {
    rmSync(join(this.#dir, key), { force: true });
  }

  /** The cleanups an earlier daemon recorded and never ran, by key (unreadable records are dropped). */
  pendingCleanups(): Array<{ key: string; cleanup: PendingCleanup }> {
    const pending: Array<{ key: string; cleanup: PendingCleanup }> = [];
    for (const key of readdirSync(this.#dir)) {
      if (!key.startsWith(CLEANUP_PREFIX)) continue;
      try {
        const cleanup = JSON.parse(readFileSync(join(this.#dir, key), "utf8")) as PendingCleanup;
        if (Array.isArray(cleanup.argv) && cleanup.argv.length && typeof cleanup.cwd === "string")
          pending.push({ key, cleanup });
        else this.removeCleanup(key);
      } catch {
        this.removeCleanup(key);
      }
    }
    return pending;
  }

  add(id: string, pid: number): void {
    const start = processStartTicks(pid);
    if (start === undefined) return; // already gone: nothing can be left of it
    const record: SessionRecord = { id, pid, start };
    const path = join(this.#dir, String(pid));
    try {
      writeFileSync(path, JSON.stringify(record), { mode: 0o600 });
    } catch (error) {
      rmSync(path, { force: true }); // no half record
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === "ENOSPC" ? "ENOSPC (no space left on device)" : (code ?? (error as Error).message);
      throw new Error(`cannot write ${path}: ${why}`);
    }
  }

  remove(pid: number): void {
    rmSync(join(this.#dir, String(pid)), { force: true });
  }

  /**
   * SIGKILL every process still in a recorded session or helper, then forget the records. A
   * session's process counts only when it is in that session, started no earlier than its leader,
   * and carries the session's T4A_TERMINAL in its environment; a helper's, when it carries the
   * helper's T4A_HELPER token: a reused pid never gets an unrelated process killed. Cleanups are
   * left for pendingCleanups().
   */
  endLeftovers(): Leftover[] {
    const ended: Leftover[] = [];
    for (const name of readdirSync(this.#dir)) {
      if (name.startsWith(CLEANUP_PREFIX)) continue;
      const path = join(this.#dir, name);
      let record: SessionRecord | HelperRecord;
      try {
        record = JSON.parse(readFileSync(path, "utf8")) as SessionRecord | HelperRecord;
      } catch {
        rmSync(path, { force: true });
        continue;
      }
      const helper = "kind" in record && record.kind === "helper" ? record : undefined;
      const session = record as SessionRecord;
      const pids = helper
        ? marked(`\0T4A_HELPER=${helper.token}\0`)
        : sessionMembers(session.pid).filter(
            (pid) =>
              (processStartTicks(pid) ?? -1) >= session.start &&
              environ(pid).includes(`\0T4A_TERMINAL=${session.id}\0`),
          );
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Gone meanwhile.
        }
      }
      if (pids.length) ended.push({ id: helper ? `helper ${pids[0]}` : session.id, pids });
      rmSync(path, { force: true });
    }
    return ended;
  }
}

/** The living processes whose environment holds `marker` (readable ones only: this user's). */
function marked(marker: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  return entries
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0 && pid !== process.pid && environ(pid).includes(marker));
}

function environ(pid: number): string {
  try {
    return `\0${readFileSync(`/proc/${pid}/environ`, "latin1")}`;
  } catch {
    return "";
  }
}
