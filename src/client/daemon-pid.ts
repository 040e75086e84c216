// Which daemon owns a socket path, beside it in `<socket>.pid`: its pid and its start time (clock
// ticks since boot, /proc/PID/stat field 22, so a reused pid is not taken for it). With it a
// deleted socket never makes a second daemon that would reap the first one's live sessions: the
// client asks the living daemon (SIGUSR1) to make its socket again instead. No heavy imports.
import { writePrivateFile } from "./private-file.ts";
import { existsSync, readFileSync, rmSync } from "node:fs";

const pidFile = (socketPath: string) => `${socketPath}.pid`;

/** The start time of a process, when this system tells it (Linux); undefined elsewhere or when gone. */
export function processStartTicks(pid: number): number | undefined {
  return procStat(pid)?.[19];
}

/** /proc/PID/stat's fields after the command name (state first); undefined when there is none. */
function procStat(pid: number): Array<number> | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // A zombie (killed, not yet reaped) is no living process.
    if (fields[0] === "Z" || fields[0] === "X") return undefined;
    return fields.map(Number);
  } catch {
    return undefined;
  }
}

/** Records this process as the socket's daemon (written whole: a reader never sees half). */
export function recordDaemon(socketPath: string): void {
  const path = pidFile(socketPath);
  writePrivateFile(path, `${process.pid} ${processStartTicks(process.pid) ?? 0}\n`);
}

/** The pid of the daemon recorded for this socket if that very process still runs (not this one). */
export function livingDaemon(socketPath: string): number | undefined {
  return recordedProcess(pidFile(socketPath));
}

/**
 * The pid a "pid start-ticks" file names (the pid file, the daemon lock's content) if that very
 * process still runs and is not this one; undefined when the file is missing or garbled.
 */
export function recordedProcess(path: string): number | undefined {
  let pid: number;
  let ticks: number;
  try {
    [pid, ticks] = readFileSync(path, "utf8").trim().split(" ").map(Number) as [number, number];
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user; not ours to signal, and not ours to reap either.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return undefined;
  }
  const proc = existsSync("/proc/self/stat");
  const now = processStartTicks(pid);
  if (proc && now === undefined) return undefined; // gone, or a zombie
  return now === undefined || ticks === 0 || now === ticks ? pid : undefined;
}

/** Removes the record if it is still this process's. */
export function forgetDaemon(socketPath: string): void {
  try {
    if (Number(readFileSync(pidFile(socketPath), "utf8").split(" ")[0]) === process.pid)
      rmSync(pidFile(socketPath), { force: true });
  } catch {
    // Gone already.
  }
}
