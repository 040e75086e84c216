// One way to write t4a's own small files (the manifest, the web token's logins, the daemon's pid,
// conversation ids, approved setup scripts): readable by this user alone, replaced whole so a
// reader never sees half of one, and no temporary file left behind when the write fails (ENOSPC).
// In the lowest layer that touches files, so every layer above can use it.
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Writes `content` to `path` (mode 600, its directory made 700); throws what the filesystem said. */
export function writePrivateFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, content, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
