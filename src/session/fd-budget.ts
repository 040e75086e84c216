// The daemon's open files against its limit (`ulimit -n`): a create that would take the daemon
// to the limit is refused with the figures, before the PTY or a pipe fails half-way and before
// the listening socket can no longer accept (Bun then spins on it). Linux (/proc); elsewhere no check.
import { readdirSync, readFileSync } from "node:fs";

/** What a session takes: the PTY, its process, pipes, a recording, an agent's channel. */
const PER_SESSION = 8;
/** Kept free for clients, the manifest, logs and the web server. */
const RESERVE = 48;

/** Why a new session would not fit, or undefined when it would (or this system cannot tell). */
export function fdShortage(): string | undefined {
  let open: number;
  let limit: number;
  try {
    open = readdirSync("/proc/self/fd").length;
    const line = readFileSync("/proc/self/limits", "utf8").split("\n").find((row) => row.startsWith("Max open files"));
    limit = Number(line?.split(/\s{2,}/)[1]);
  } catch {
    return undefined;
  }
  if (!Number.isFinite(limit) || open + PER_SESSION + RESERVE <= limit) return undefined;
  return `too many open files: the daemon has ${open} open of its limit of ${limit} (ulimit -n); end sessions, or start the daemon with a higher limit`;
}
