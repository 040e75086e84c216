// The daemon's open files against its limit (`ulimit -n`): a create that would take the daemon
// to the limit is refused with the figures, before the PTY or a pipe fails half-way and before
// the listening socket can no longer accept (Bun then spins on it). Linux (/proc); elsewhere no check.
import { readdirSync, readFileSync } from "node:fs";

/** What a session takes: the PTY, its process, pipes, a recording, an agent's channel. */
const PER_SESSION = 8;
/** Kept free for clients, the manifest, logs and the web server. */
const RESERVE = 48;

/** Kept free by client connections: past it a new connection is told so and closed. */
const CONNECTION_RESERVE = 16;

/** The daemon's open files and its limit, or undefined where this system cannot tell. */
function fdUse(): { open: number; limit: number } | undefined {
  try {
    const open = readdirSync("/proc/self/fd").length;
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((row) => row.startsWith("Max open files"));
    const limit = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(limit) ? { open, limit } : undefined;
  } catch {
    return undefined;
  }
}

function tooMany(use: { open: number; limit: number }, what: string): string {
  return (
    `too many open files: the daemon has ${use.open} open of its limit of ${use.limit} (ulimit -n); ` +
    `${what}, or start the daemon with a higher limit`
  );
}

/** Why a new session would not fit, or undefined when it would (or this system cannot tell). */
export function fdShortage(): string | undefined {
  const use = fdUse();
  if (!use || use.open + PER_SESSION + RESERVE <= use.limit) return undefined;
  return tooMany(use, "end sessions");
}

/**
 * Why a new client connection must be turned away, or undefined. Accepting until the limit would
 * make the listening socket fail with EMFILE, and Bun's accept loop then spins on it, answering
 * no one: a connection past the reserve is answered with this and closed, so accept never fails.
 */
export function connectionShortage(): string | undefined {
  const use = fdUse();
  if (!use || use.open + CONNECTION_RESERVE <= use.limit) return undefined;
  return tooMany(use, "close idle clients (event streams, attach)");
}
