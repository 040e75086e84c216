// Where the daemon's socket lives, and the safety checks on its directory (DESIGN.md "Socket").
// Used by both the client and the daemon; light imports only.
import { lstatSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { T4aError } from "../protocol/errors.ts";

export function socketPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.T4A_SOCKET) return env.T4A_SOCKET;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, "t4a", "t4a.sock");
  return join("/tmp", `t4a-${process.getuid?.() ?? "user"}`, "t4a.sock");
}

/**
 * Create the socket's directory (0700) if missing, then refuse it unless it is a real directory
 * owned by us with no group/other access: otherwise another user could bind the socket first
 * and receive everything we type, or swap the directory for a symlink.
 */
export function ensureSocketDir(path: string): void {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new T4aError("bad_request", `cannot create socket directory ${dir}: ${(error as Error).message}`);
  }
  checkSocketDir(dir);
}

export function checkSocketDir(dir: string): void {
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink()) throw unsafe(dir, "it is a symlink");
  if (!stat.isDirectory()) throw unsafe(dir, "it is not a directory");
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw unsafe(dir, `it is owned by uid ${stat.uid}, not ${uid}`);
  if (stat.mode & 0o077) throw unsafe(dir, `its mode is ${(stat.mode & 0o777).toString(8)}; it must be 700`);
}

function unsafe(dir: string, reason: string): T4aError {
  return new T4aError("bad_request", `refusing socket directory ${dir}: ${reason} (fix it, or set T4A_SOCKET elsewhere)`);
}
