// One way to write t4a's own small files (the manifest, the web token's logins, the daemon's pid,
// conversation ids, approved setup scripts): readable by this user alone, replaced whole so a
// reader never sees half of one (temp file, fsync, rename), no temporary file left behind when the
// write fails (ENOSPC), and an error that names the file. In the lowest layer that touches files,
// so every layer above can use it.
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { T4aError } from "../protocol/errors.ts";

/**
 * Writes `content` to `path` (mode 600, its directory made 700); throws naming the file and what the filesystem said.
 */
export function writePrivateFile(path: string, content: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fd = openSync(temp, "w", 0o600);
    try {
      const bytes = Buffer.from(content);
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written);
      // Renamed in place before its bytes reach the disk, a crash could leave an empty file.
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw namedError(path, "write", error);
  }
}

/** Errors of a full disk or a quota: a limit reached, not a fault of t4a's. */
const LIMITS = new Set(["ENOSPC", "EDQUOT", "EMFILE", "ENFILE"]);

/**
 * The filesystem's error as t4a's own, the file named first (`cannot write P: ENOSPC (no space
 * left on device)`), so no front end calls it an internal error; `errno` keeps the code.
 */
export function namedError(path: string, verb: string, error: unknown): T4aError & { errno?: string } {
  if (error instanceof T4aError) return error;
  const cause = error as NodeJS.ErrnoException;
  const code = cause?.code;
  // Node's message names the syscall, and the path only sometimes.
  const words = String(cause?.message ?? error)
    .replace(/^[A-Z]+: /, "")
    .split(",")[0]!
    .trim();
  const named: T4aError & { errno?: string } = new T4aError(
    code && LIMITS.has(code) ? "busy" : "internal",
    `cannot ${verb} ${path}: ${code ? `${code} (${words})` : words}`,
  );
  if (code) named.errno = code;
  return named;
}
