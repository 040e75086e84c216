// Path tests the sandbox's rules are made of: plain string checks over real (symlink-free) paths.
import { realpathSync } from "node:fs";

/** `path` is `dir` or below it. */
export function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir.replace(/\/$/, "")}/`);
}

/** The path with its symlinks resolved; as given when it does not exist. */
export function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
