// What a SIGKILLed daemon leaves behind: its sessions' processes that ignored the PTY's hangup.
// Each live session is recorded as a file in a private directory beside the socket; the next
// daemon on that socket ends whatever still runs in a recorded session before it serves.
// Knows /proc and files, nothing of terminals.
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

export interface Leftover {
  id: string;
  pids: number[];
}

export class SessionRecords {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
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
      throw new Error(`cannot write ${path}: ${code === "ENOSPC" ? "ENOSPC (no space left on device)" : (code ?? (error as Error).message)}`);
    }
  }

  remove(pid: number): void {
    rmSync(join(this.#dir, String(pid)), { force: true });
  }

  /**
   * SIGKILL every process still in a recorded session, then forget the records. A process counts
   * only when it is in that session, started no earlier than its leader, and carries the
   * session's T4A_TERMINAL in its environment: a reused pid never gets an unrelated process killed.
   */
  endLeftovers(): Leftover[] {
    const ended: Leftover[] = [];
    for (const name of readdirSync(this.#dir)) {
      const path = join(this.#dir, name);
      let record: SessionRecord;
      try {
        record = JSON.parse(readFileSync(path, "utf8")) as SessionRecord;
      } catch {
        rmSync(path, { force: true });
        continue;
      }
      const pids = sessionMembers(record.pid).filter(
        (pid) => (processStartTicks(pid) ?? -1) >= record.start && environ(pid).includes(`\0T4A_TERMINAL=${record.id}\0`),
      );
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // Gone meanwhile.
        }
      }
      if (pids.length) ended.push({ id: record.id, pids });
      rmSync(path, { force: true });
    }
    return ended;
  }
}

function environ(pid: number): string {
  try {
    return `\0${readFileSync(`/proc/${pid}/environ`, "latin1")}`;
  } catch {
    return "";
  }
}
