// The one way t4a touches a file a sandboxed program could have written or chosen (a checkout, a
// worktree, its cwd, kept agent directories), read or written by the daemon without being
// steered: no symlink followed (at any component under the root, for paths given relative to
// it), regular files only, opened without blocking (a FIFO in place of a conversation log hung
// the whole daemon), the open file checked to be the one asked for, within a size cap. Never
// runs or interprets what it reads.
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  writeSync,
} from "node:fs";
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

export type TaintedRead =
  | { bytes: Buffer; mode: number }
  | { skipped: "not a regular file" | "too big" | "outside its root" | "missing" };

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
  // A symlinked directory on the way, even one that stays under the root, is not followed.
  if (realParent !== parent) return { skipped: "outside its root" };
  try {
    const { bytes, mode } = readTaintedFile(join(base, rel), { root: base, maxBytes });
    return { bytes: Buffer.from(bytes), mode };
  } catch (error) {
    if (!(error instanceof TaintedReadError)) throw error;
    const skipped = { missing: "missing", too_large: "too big", outside_root: "outside its root" } as const;
    return { skipped: skipped[error.reason as keyof typeof skipped] ?? "not a regular file" };
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
    fd = openSync(
      path,
      constants.O_WRONLY |
        constants.O_CREAT |
        constants.O_EXCL |
        constants.O_NOFOLLOW |
        constants.O_NONBLOCK |
        constants.O_NOCTTY,
      mode & 0o777,
    );
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

/** Why a tainted file was not read: its path, and what was wrong with it. */
export class TaintedReadError extends Error {
  constructor(
    readonly path: string,
    readonly reason: "missing" | "symlink" | "not_regular" | "outside_root" | "too_large" | "unreadable",
    detail: string,
  ) {
    super(`${path}: ${detail}`);
  }
}

export interface TaintedReadOptions {
  /** The directory the file must really be in (symlinks anywhere on the way resolved). */
  root: string;
  /** At most this many bytes are read. */
  maxBytes: number;
  /** A larger file: refused ("error", the default), or only its first ("head") or last ("tail") maxBytes read. */
  over?: "error" | "head" | "tail";
}

/**
 * The file's text (UTF-8). Opens with O_NOFOLLOW|O_NONBLOCK (a symlink as the last component is
 * refused, a FIFO or device returns at once), checks the open file is a regular file and that
 * its real path is under `root` and names that same file (a symlinked directory on the way is
 * caught too), then reads at most `maxBytes`. Throws TaintedReadError.
 */
export function readTainted(path: string, options: TaintedReadOptions): string {
  return new TextDecoder().decode(readTaintedBytes(path, options));
}

/** readTainted's bytes. */
export function readTaintedBytes(path: string, options: TaintedReadOptions): Uint8Array {
  return readTaintedFile(path, options).bytes;
}

/** readTainted's bytes and the file's permission bits. */
export function readTaintedFile(path: string, options: TaintedReadOptions): { bytes: Uint8Array; mode: number } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new TaintedReadError(path, "missing", "no such file");
    // Linux answers ELOOP for a final symlink under O_NOFOLLOW, the BSDs EMLINK.
    if (code === "ELOOP" || code === "EMLINK")
      throw new TaintedReadError(path, "symlink", "is a symbolic link; not followed");
    throw new TaintedReadError(path, "unreadable", `cannot be opened (${code ?? (error as Error).message})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new TaintedReadError(path, "not_regular", `is not a regular file (${kind(stat)}); not read`);
    let real: string;
    let root: string;
    try {
      real = realpathSync(path);
      root = realpathSync(options.root);
    } catch (error) {
      throw new TaintedReadError(
        path,
        "unreadable",
        `cannot be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    if (real !== root && !real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) {
      throw new TaintedReadError(path, "outside_root", `leads outside ${options.root}; not read`);
    }
    // The path resolved now must still name the file opened (no swap between the two).
    const again = fstatSync(fd);
    const named = (() => {
      try {
        const opened = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
        try {
          return fstatSync(opened);
        } finally {
          closeSync(opened);
        }
      } catch {
        return undefined;
      }
    })();
    if (!named || named.dev !== again.dev || named.ino !== again.ino) {
      throw new TaintedReadError(path, "outside_root", `changed while being read (it is not where it leads); not read`);
    }
    if (stat.size > options.maxBytes && (options.over ?? "error") === "error") {
      throw new TaintedReadError(path, "too_large", `is ${stat.size} bytes, more than the ${options.maxBytes} read`);
    }
    const buffer = new Uint8Array(Math.min(stat.size, options.maxBytes));
    const start = options.over === "tail" ? stat.size - buffer.length : 0;
    let filled = 0;
    while (filled < buffer.length) {
      const got = readSync(fd, buffer, filled, buffer.length - filled, start + filled);
      if (got === 0) break;
      filled += got;
    }
    return { bytes: buffer.subarray(0, filled), mode: stat.mode & 0o777 };
  } finally {
    closeSync(fd);
  }
}

function kind(stat: ReturnType<typeof fstatSync>): string {
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isDirectory()) return "a directory";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  return "not a file";
}
