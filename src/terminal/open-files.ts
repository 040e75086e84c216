// The files a process and its descendants hold open: which of two logs of one CLI in one directory
// is this session's (codex keeps its rollout file open while it runs). Linux /proc; elsewhere, or
// for a process gone or not ours, nothing.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** At most this many processes are looked at (a session that forks without end is not walked whole). */
const MAX_PROCESSES = 256;

/** The paths `pid` and its descendants have open (regular files and anything else readlink names). */
export function openFiles(pid: number): Set<string> {
  const paths = new Set<string>();
  const queue = [pid];
  for (let seen = 0; seen < queue.length && seen < MAX_PROCESSES; seen++) {
    const current = queue[seen]!;
    for (const fd of list(`/proc/${current}/fd`)) {
      try {
        paths.add(readlinkSync(`/proc/${current}/fd/${fd}`));
      } catch {
        // Closed between the list and the read.
      }
    }
    for (const task of list(`/proc/${current}/task`)) {
      try {
        const children = readFileSync(`/proc/${current}/task/${task}/children`, "utf8");
        for (const child of children.split(" ")) if (child.trim()) queue.push(Number(child));
      } catch {
        // The task ended, or the kernel has no children file: its children are not looked at.
      }
    }
  }
  return paths;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
