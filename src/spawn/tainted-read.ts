// The one way t4a reads a file a sandboxed program could have written or chosen (its worktree,
// cwd, kept agent directories): never following a symlink, never blocking (a FIFO in place of a
// conversation log hung the whole daemon), only a regular file, only under the expected root,
// and never more than a cap. Synchronous, like the readers it serves; it must not parse anything.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { sep } from "node:path";

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
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new TaintedReadError(path, "missing", "no such file");
    // Linux answers ELOOP for a final symlink under O_NOFOLLOW, the BSDs EMLINK.
    if (code === "ELOOP" || code === "EMLINK") throw new TaintedReadError(path, "symlink", "is a symbolic link; not followed");
    throw new TaintedReadError(path, "unreadable", `cannot be opened (${code ?? (error as Error).message})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new TaintedReadError(path, "not_regular", `is not a regular file (${kind(stat)}); not read`);
    let real: string;
    let root: string;
    try {
      real = realpathSync(path);
      root = realpathSync(options.root);
    } catch (error) {
      throw new TaintedReadError(path, "unreadable", `cannot be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
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
    return buffer.subarray(0, filled);
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
