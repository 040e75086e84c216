// The one proof that a daemon owns its socket: an flock(2) on a file in the state dir, taken before
// anything else and held for the daemon's whole life (the kernel drops it when the process ends,
// even by SIGKILL). A daemon that cannot take it never touches a session. Must not be closed early.
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { processStartTicks, recordedProcess } from "../client/daemon-pid.ts";
import { T4aError } from "../protocol/errors.ts";
import { lockExclusive } from "../terminal/libc.ts";

/** Kept open for the process's life: closing the fd would release the lock. */
let held: { fd: number; path: string } | undefined;

/**
 * Takes the lock or throws, naming the file and the pid that holds it. With it held, nothing of
 * an earlier daemon on this socket runs any more (its lock would still be held).
 */
export function takeDaemonLock(lockPath: string, socketPath: string): void {
  // A daemon that stops removes its lock file; one that opened that file just before may then
  // lock a name no longer in the directory: it opens the file again until both are one.
  for (let attempt = 0; ; attempt++) {
    const fd = openLock(lockPath);
    const taken = lockExclusive(fd);
    if (taken === false) {
      closeSync(fd);
      const holder = recordedProcess(lockPath);
      throw new T4aError(
        "exists",
        holder
          ? `a daemon (pid ${holder}) holds ${lockPath} for ${socketPath}; this one does not start ` +
              `(\`kill -USR1 ${holder}\` makes it listen again if its socket is gone; ` +
              `\`kill ${holder}\` ends it and its sessions)`
          : `another daemon holds ${lockPath} for ${socketPath}; this one does not start`,
      );
    }
    if (taken === true && !sameFile(fd, lockPath) && attempt < 10) {
      closeSync(fd);
      continue;
    }
    // undefined: no flock here (not glibc, or a filesystem without locks); the pid file alone
    // then guards, as before, and the log says so.
    if (taken === undefined)
      console.error(
        `t4a daemon: cannot lock ${lockPath} here; only the pid file guards ${socketPath} against a second daemon`,
      );
    ftruncateSync(fd);
    writeSync(fd, `${process.pid} ${processStartTicks(process.pid) ?? 0}\n`, 0);
    held = { fd, path: lockPath };
    return;
  }
}

/** At a clean stop, the lock file goes (the state dir keeps one per socket otherwise); the fd's close releases it. */
export function releaseDaemonLock(): void {
  if (!held) return;
  // Unlinked while still locked: a daemon starting now either fails on this file or makes a new one.
  if (sameFile(held.fd, held.path)) rmSync(held.path, { force: true });
  closeSync(held.fd);
  held = undefined;
}

function openLock(lockPath: string): number {
  try {
    mkdirSync(dirname(lockPath), { recursive: true, mode: 0o700 });
    // Bun and libuv open with O_CLOEXEC: no session's program inherits the fd (and the lock).
    return openSync(lockPath, "a+", 0o600);
  } catch (error) {
    throw new T4aError("internal", `cannot open the daemon lock ${lockPath}: ${(error as Error).message}`);
  }
}

function sameFile(fd: number, path: string): boolean {
  try {
    return fstatSync(fd).ino === statSync(path).ino;
  } catch {
    return false;
  }
}
