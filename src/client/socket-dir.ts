// Creating and fully checking the socket's directory: done by the daemon and by a client about
// to start one, never on the plain request path (node:fs is slow to load).
import { chmodSync, lstatSync, mkdirSync, writeFileSync } from "node:fs";
import { T4aError } from "../protocol/errors.ts";
import { leaveSquatted, parentDir, socketDirProblem, squattedDefault, unsafeSocketDir } from "./socket-path.ts";

/**
 * Create the socket's directory (0700) if missing, then refuse it unless it is a real directory
 * owned by us with no group/other access: otherwise another user could bind the socket first
 * and receive everything we type, or swap the directory for a symlink.
 */
export function ensureSocketDir(socketPath: string): void {
  const dir = parentDir(socketPath);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new T4aError("bad_request", `cannot create socket directory ${dir}: ${(error as Error).message}`);
  }
  const stat = lstatSync(dir);
  const problem = stat.isSymbolicLink() ? "it is a symlink" : socketDirProblem(stat);
  if (!problem) return;
  if (squattedDefault(dir, stat.isSymbolicLink() ? undefined : stat))
    throw leaveSquatted(dir, problem, { mkdirSync, chmodSync, writeFileSync });
  throw unsafeSocketDir(dir, problem);
}
