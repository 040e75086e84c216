// The one loader of t4a's state files (manifest, logins, trust, web server, hosts): a missing file
// is "none yet"; a file that cannot be read as what it should be is copied aside whole
// (`<file>.corrupt-<time>`) and reported naming both, never silently treated as empty and then
// overwritten. Writes go through writePrivateFile (private-file.ts: atomic, fsynced, the file
// named in errors).
// Reports problems; never prints or exits (the caller says where the user sees them).
import { copyFileSync, readFileSync } from "node:fs";
import { namedError } from "./private-file.ts";

export interface StateRead<T> {
  /** What was read (perhaps only its readable part), or undefined: no file, or nothing readable. */
  value: T | undefined;
  /** What could not be read, each naming the file; empty when all was well. */
  problems: string[];
  /** Where the unreadable content was kept. */
  keptAs?: string;
}

/**
 * Reads the JSON state file at `path` through `check`, which answers the value (or throws when the
 * whole is unusable) and pushes a line to `problems` for each part it had to leave out. Any
 * problem keeps a copy of the file as it was.
 */
export function loadStateFile<T>(path: string, check: (json: unknown, problems: string[]) => T): StateRead<T> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { value: undefined, problems: [] };
    return { value: undefined, problems: [namedError(path, "read", error).message] };
  }
  const problems: string[] = [];
  let value: T | undefined;
  try {
    value = check(JSON.parse(text), problems);
  } catch (error) {
    problems.unshift(`${path} is unreadable (${(error as Error).message})`);
  }
  if (problems.length === 0) return { value, problems };
  const keptAs = keepCopy(path);
  if (keptAs) problems.push(`a copy of ${path} as it was is kept in ${keptAs}`);
  return { value, problems, keptAs };
}

/** A JSON object (not null, not an array), or throws saying what it is instead. */
export function expectObject(json: unknown, what: string): Record<string, unknown> {
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new Error(
      `${what} is ${json === null ? "null" : Array.isArray(json) ? "an array" : `a ${typeof json}`}, not an object`,
    );
  return json as Record<string, unknown>;
}

function keepCopy(path: string): string | undefined {
  const copy = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  try {
    copyFileSync(path, copy);
    return copy;
  } catch {
    return undefined; // the disk is full, or the file unreadable: the problem still names it
  }
}
