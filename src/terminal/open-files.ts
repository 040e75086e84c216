// The files a process and its descendants hold open: which of two logs of one CLI in one directory
// is this session's (codex keeps its rollout file open while it runs). Linux /proc; elsewhere, or
// for a process gone or not ours, nothing.
import { readdirSync, readlinkSync } from "node:fs";
import { descendants, processTable } from "./pty.ts";

/** At most this many processes are looked at (a session that forks without end is not walked whole). */
const MAX_PROCESSES = 256;

/** The paths `pid` and its descendants have open (regular files and anything else readlink names). */
export function openFiles(pid: number): Set<string> {
  const paths = new Set<string>();
  const pids = [pid, ...descendants(processTable(), new Set([pid])).map((entry) => entry.pid)];
  for (const current of pids.slice(0, MAX_PROCESSES)) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${current}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      try {
        paths.add(readlinkSync(`/proc/${current}/fd/${fd}`));
      } catch {
        // Closed between the list and the read.
      }
    }
  }
  return paths;
}
