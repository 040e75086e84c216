// One way to write t4a's own small files (the manifest, the web token's logins, the daemon's pid,
// conversation ids, approved setup scripts): readable by this user alone, replaced whole so a
// reader never sees half of one (temp file, fsync, rename), no temporary file left behind when the
// write fails (ENOSPC), and an error that names the file. In the lowest layer that touches files,
// so every layer above can use it.
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** Writes `content` to `path` (mode 600, its directory made 700); throws naming the file and what the filesystem said. */
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

/** The filesystem's error with the file named first (`cannot write P: ENOSPC: no space left…`); its code kept. */
export function namedError(path: string, verb: string, error: unknown): Error {
  const cause = error as NodeJS.ErrnoException;
  if (cause?.message?.startsWith(`cannot ${verb} ${path}`)) return cause;
  const code = cause?.code;
  // Node names the syscall and sometimes the path; the code and its words are what a user needs.
  const what = code ? `${code}: ${describeCode(code, cause.message)}` : String(cause?.message ?? error);
  const named = new Error(`cannot ${verb} ${path}: ${what}`) as NodeJS.ErrnoException;
  if (code) named.code = code;
  return named;
}

function describeCode(code: string, message: string): string {
  const words = message.replace(/^[A-Z]+: /, "").split(",")[0] ?? message;
  return words.trim();
}
