// Start the daemon when nobody answers: take a lock beside the socket, try to connect once more
// (someone may have just started it), only then clear a stale socket and spawn `t4a daemon`
// detached. Fifty simultaneous first calls start exactly one daemon.
import { closeSync, fstatSync, openSync, readFileSync, statfsSync, unlinkSync, writeSync } from "node:fs";
import { livingDaemon } from "./daemon-pid.ts";
import { DaemonUnreachable } from "./errors.ts";
import { selfArgv } from "./executable.ts";
import { DaemonConnection } from "./connection.ts";
import { ensureSocketDir } from "./socket-dir.ts";
import { parentDir } from "./socket-path.ts";

const START_TIMEOUT_MS = 10_000;

export async function startDaemon(path: string): Promise<DaemonConnection> {
  ensureSocketDir(path);
  const lockPath = `${path}.lock`;
  const deadline = performance.now() + START_TIMEOUT_MS;
  let delayMs = 2;
  while (performance.now() < deadline) {
    if (takeLock(lockPath, path)) {
      try {
        const connection = await tryOpen(path);
        if (connection) return connection;
        // Its socket file was deleted while it runs: it listens again on SIGUSR1. A second
        // daemon would end its sessions as leftovers.
        const living = livingDaemon(path);
        if (living) {
          try {
            process.kill(living, "SIGUSR1");
          } catch {
            throw new DaemonUnreachable(
              `daemon ${living} runs for ${path} but its socket is gone, and it is not yours to signal`,
            );
          }
          const back = await waitForDaemon(path, deadline);
          if (back) return back;
          throw new DaemonUnreachable(
            `daemon ${living} runs for ${path} but does not answer there; see ${parentDir(path)}/t4a.log`,
          );
        }
        removeIfPresent(path); // stale: nobody answers on it
        const child = spawnDaemon(path);
        const started = await waitForDaemon(path, deadline, child);
        if (started) return started;
        if (child.refusal !== undefined) throw new DaemonUnreachable(child.refusal);
        break;
      } finally {
        removeIfPresent(lockPath);
      }
    }
    // Another client is starting the daemon: wait for it to answer.
    const connection = await tryOpen(path);
    if (connection) return connection;
    if (lockIsStale(lockPath)) removeIfPresent(lockPath);
    await Bun.sleep(delayMs);
    delayMs = Math.min(delayMs * 2, 50);
  }
  throw new DaemonUnreachable(`the daemon did not start on ${path}; ${seeLog(path)}`);
}

/**
 * Where to look for why: its log, unless the directory it is in has no room, so nothing could be
 * written there; then that is the cause, said here (issue 57).
 */
function seeLog(path: string): string {
  const dir = parentDir(path);
  const free = freeBytes(dir);
  if (free !== undefined && free < FULL_BELOW_BYTES)
    return (
      `the file system of ${dir} is full (${free} bytes free): ` +
      `the daemon could write neither its socket nor its log (${dir}/t4a.log) there`
    );
  return `see ${dir}/t4a.log`;
}

/** Less room than this in the socket's directory: a daemon cannot start there (its log, its lock, its records). */
const FULL_BELOW_BYTES = 64 * 1024;

function freeBytes(dir: string): number | undefined {
  try {
    const stats = statfsSync(dir);
    return Number(stats.bavail) * Number(stats.bsize);
  } catch {
    return undefined;
  }
}

async function tryOpen(path: string): Promise<DaemonConnection | undefined> {
  try {
    return await DaemonConnection.open(path);
  } catch {
    return undefined;
  }
}

/** How long a client still waits for the socket once the daemon it started has exited: a daemon
 * that holds the lock and lost its socket makes it again within its check interval (2 s). */
const AFTER_REFUSAL_MS = 3000;

async function waitForDaemon(path: string, deadline: number, child?: Started): Promise<DaemonConnection | undefined> {
  let delayMs = 1;
  while (performance.now() < deadline) {
    const connection = await tryOpen(path);
    if (connection) return connection;
    if (child && child.refusal === undefined && child.process.exitCode !== null) {
      child.refusal = refusalOf(child, path);
      deadline = Math.min(deadline, performance.now() + AFTER_REFUSAL_MS);
    }
    await Bun.sleep(delayMs);
    delayMs = Math.min(delayMs * 2, 20);
  }
  return undefined;
}

interface Started {
  process: ReturnType<typeof Bun.spawn>;
  log: string;
  /** Where its lines start in the log. */
  offset: number;
  /** What it said before it exited without serving. */
  refusal?: string;
}

/** The daemon runs the same executable: the compiled binary, or bun with this entry in development. */
function spawnDaemon(path: string): Started {
  const argv = [...selfArgv(), "daemon"];
  const logPath = `${parentDir(path)}/t4a.log`;
  const log = openSync(logPath, "a", 0o600);
  const offset = fstatSync(log).size;
  const child = Bun.spawn(argv, {
    cwd: "/",
    env: { ...process.env, T4A_SOCKET: path },
    stdio: ["ignore", log, log],
    detached: true,
  });
  child.unref();
  closeSync(log);
  return { process: child, log: logPath, offset };
}

/** The last line the started daemon wrote before it exited (its reason), with the log named. */
function refusalOf(child: Started, path: string): string {
  let said = "";
  try {
    said = readFileSync(child.log, "utf8").slice(child.offset).trim().split("\n").at(-1) ?? "";
  } catch {
    // No log to read.
  }
  const reason = said.replace(/^t4a( daemon)?: (error: )?/, "");
  const why = reason ? `: ${reason}` : `; ${seeLog(path)}`;
  return `the daemon started for ${path} exited (${child.process.exitCode})${why}`;
}

/**
 * The start lock: false while another client holds it. Any other failure to make it (a full
 * disk, a read-only directory) is why no daemon can start here: said at once, with its cause.
 */
function takeLock(lockPath: string, path: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw cannotStart(path, lockPath, error);
  }
  try {
    writeSync(fd, String(process.pid));
  } catch (error) {
    closeSync(fd);
    removeIfPresent(lockPath);
    throw cannotStart(path, lockPath, error);
  }
  closeSync(fd);
  return true;
}

function cannotStart(path: string, lockPath: string, error: unknown): DaemonUnreachable {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === "ENOSPC" || code === "EDQUOT" ? `${code}: ${seeLog(path)}` : (error as Error).message;
  return new DaemonUnreachable(`cannot start the daemon for ${path}: cannot write its lock ${lockPath} (${why})`);
}

/** A lock whose holder has died would block every start until the deadline. */
function lockIsStale(lockPath: string): boolean {
  try {
    const pid = Number(readFileSync(lockPath, "utf8"));
    if (!Number.isInteger(pid) || pid <= 0) return false; // being written right now
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
