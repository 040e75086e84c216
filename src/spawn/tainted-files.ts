// Files under a root a sandbox may have written (a checkout, a worktree), read and written by the
// daemon without being steered: no symlink followed at any component under the root, regular
// files only, opened without blocking (a FIFO cannot hang the daemon), within a size cap, and
// the open file checked to be the one asked for. Never runs or interprets what it reads.
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, readSync, realpathSync, writeSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";

/** A relative path that stays under its root: no absolute path, no `..`, no empty name. */
function plainRelative(rel: string): boolean {
  if (!rel || isAbsolute(rel) || normalize(rel) !== rel.replace(/\/+$/, "")) return false;
  return rel.split(sep).every((part) => part !== ".." && part !== "." && part !== "");
}

/** The real path of `root`, which must be a directory. */
function realRoot(root: string): string {
  return realpathSync(root);
}

/** Where an open descriptor really is (Linux); undefined where that cannot be asked. */
function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** The open file is `expected` itself: nothing swapped a component for a symlink while it was opened. */
function checkOpened(fd: number, expected: string): boolean {
  const actual = openedPath(fd);
  return actual === undefined || actual === expected;
}

/**
 * `rel`'s directories under `root`, made when missing (each component checked with lstat: an
 * existing symlink or file refuses); answers the real directory, or undefined when refused.
 */
export function directoryUnder(root: string, rel: string, mode = 0o755): string | undefined {
  const base = realRoot(root);
  if (rel === "" || rel === ".") return base;
  if (!plainRelative(rel)) return undefined;
  let dir = base;
  for (const part of rel.split(sep)) {
    dir = join(dir, part);
    let stats = lstatSync(dir, { throwIfNoEntry: false });
    if (!stats) {
      try {
        mkdirSync(dir, { mode });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      stats = lstatSync(dir, { throwIfNoEntry: false });
    }
    if (!stats?.isDirectory()) return undefined;
  }
  // A component swapped for a symlink between the checks above shows here.
  return realpathSync(dir) === dir ? dir : undefined;
}

export type TaintedRead = { bytes: Buffer; mode: number } | { skipped: "not a regular file" | "too big" | "outside its root" | "missing" };

/** Reads `rel` under `root`: a regular file reached through no symlink, at most `maxBytes`. */
export function readUnder(root: string, rel: string, maxBytes: number): TaintedRead {
  if (!plainRelative(rel)) return { skipped: "outside its root" };
  const base = realRoot(root);
  const parent = dirname(rel) === "." ? base : join(base, dirname(rel));
  let realParent: string;
  try {
    realParent = realpathSync(parent);
  } catch {
    return { skipped: "missing" };
  }
  if (realParent !== parent) return { skipped: "outside its root" };
  const path = join(base, rel);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { skipped: code === "ENOENT" ? "missing" : "not a regular file" }; // ELOOP: a symlink
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { skipped: "not a regular file" };
    if (!checkOpened(fd, path)) return { skipped: "outside its root" };
    if (stats.size > maxBytes) return { skipped: "too big" };
    const bytes = Buffer.alloc(Math.min(stats.size + 1, maxBytes + 1));
    let size = 0;
    for (;;) {
      const n = readSync(fd, bytes, size, bytes.length - size, null);
      if (n === 0) break;
      size += n;
      if (size > maxBytes) return { skipped: "too big" }; // grew while read
    }
    return { bytes: bytes.subarray(0, size), mode: stats.mode & 0o777 };
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a new file `rel` under `root` (its directories made as `directoryUnder` does); never
 * through a symlink and never over anything that exists (a dangling symlink included). Answers
 * whether it was written.
 */
export function writeNewUnder(root: string, rel: string, bytes: Uint8Array, mode: number): boolean {
  if (!plainRelative(rel)) return false;
  const dir = directoryUnder(root, dirname(rel) === "." ? "" : dirname(rel));
  if (!dir) return false;
  const path = join(dir, rel.split(sep).at(-1)!);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY, mode & 0o777);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    if (!checkOpened(fd, path)) return false;
    fchmodSync(fd, mode & 0o777); // as the source has it, whatever the umask
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    return true;
  } finally {
    closeSync(fd);
  }
}
