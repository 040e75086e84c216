// Where the daemon's socket lives, and the quick safety check a client makes before connecting.
// On every CLI call's path: no node:fs (loading it took 1.4 ms of a 13 ms call) and no node:path.
// The check is Bun.file().stat(), answered by a thread of Bun's while the client connects
// (connect.ts). The full checks that create the directory live in socket-dir.ts.
// /tmp/t4a-UID is the default only while it is ours: once another user is found to have made it
// first, a mark in our own state directory sends every later call to a private directory there
// (checked with Bun.which: one access(2), no node:fs).
import { T4aError } from "../protocol/errors.ts";

/** The file whose presence in the fallback directory says the default one was someone else's. */
export const SQUATTED_MARK = "default-dir-squatted";

/**
 * `isFile` answers whether the mark is there: Bun.which by default; the client library passes node:fs's (it runs under
 * Node too).
 */
export function socketPath(
  env: NodeJS.ProcessEnv = process.env,
  isFile = (dir: string, name: string) => Bun.which(name, { PATH: dir }) !== null,
): string {
  if (env.T4A_SOCKET) return env.T4A_SOCKET;
  if (env.XDG_RUNTIME_DIR) return `${env.XDG_RUNTIME_DIR.replace(/\/+$/, "")}/t4a/t4a.sock`;
  const fallback = fallbackSocketDir(env);
  if (fallback !== undefined && isFile(fallback, SQUATTED_MARK)) return `${fallback}/t4a.sock`;
  return defaultSocketPath();
}

function defaultSocketPath(): string {
  return `/tmp/t4a-${process.getuid?.() ?? "user"}/t4a.sock`;
}

/** Where the socket goes when the default directory is another user's: our own state directory. */
export function fallbackSocketDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const state = env.XDG_STATE_HOME?.startsWith("/")
    ? env.XDG_STATE_HOME
    : env.HOME?.startsWith("/")
      ? `${env.HOME}/.local/state`
      : undefined;
  return state === undefined ? undefined : `${state.replace(/\/+$/, "")}/t4a/run`;
}

/**
 * `dir` is the default socket directory, chosen by default (no T4A_SOCKET, no XDG_RUNTIME_DIR),
 * and what is wrong with it is that someone else made it: the case the fallback is for.
 */
export function squattedDefault(
  dir: string,
  stat: { isDirectory(): boolean; uid: number } | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.T4A_SOCKET || env.XDG_RUNTIME_DIR || dir !== parentDir(defaultSocketPath())) return false;
  return stat === undefined || !stat.isDirectory() || stat.uid !== process.getuid?.();
}

/** --socket's value, else the default path. */
export function resolveSocket(options: { socket?: unknown }): string {
  return typeof options.socket === "string" ? options.socket : socketPath();
}

export function parentDir(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
}

/**
 * Refuse a socket directory another user could control (their own daemon would receive
 * everything we type). Resolves false when the directory does not exist yet.
 * Follows symlinks: a link to a directory of ours with mode 700 is as safe as that directory;
 * creating the directory (socket-dir.ts) refuses links outright.
 */
export function checkSocketDir(dir: string): Promise<boolean> {
  return Bun.file(dir)
    .stat()
    .then(
      async (stat) => {
        const problem = socketDirProblem(stat);
        if (!problem) return true;
        // Rare: node:fs is loaded only here.
        if (squattedDefault(dir, stat)) throw leaveSquatted(dir, problem, await import("node:fs"));
        throw unsafeSocketDir(dir, problem);
      },
      () => false,
    );
}

export function socketDirProblem(stat: { isDirectory(): boolean; uid: number; mode: number }): string | undefined {
  if (!stat.isDirectory()) return "it is not a directory";
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `it is owned by uid ${stat.uid}, not ${uid}`;
  if (stat.mode & 0o077) return `its mode is ${(stat.mode & 0o777).toString(8)}; it must be 700`;
  return undefined;
}

export function unsafeSocketDir(dir: string, reason: string): T4aError {
  return new T4aError(
    "bad_request",
    `refusing socket directory ${dir}: ${reason} (fix it, or set T4A_SOCKET elsewhere)`,
  );
}

/**
 * The default socket directory is another user's (made before ours in the shared /tmp): it is
 * never used; the mark that sends every later call to our own state directory is made, and the
 * error says so (once: the calls after it never look at the default directory again).
 */
export function leaveSquatted(
  dir: string,
  problem: string,
  fs: Pick<typeof import("node:fs"), "mkdirSync" | "chmodSync" | "writeFileSync">,
): T4aError {
  const fallback = fallbackSocketDir();
  if (fallback === undefined)
    return unsafeSocketDir(dir, `${problem}; another user made it, and with no HOME there is nowhere private to go`);
  try {
    fs.mkdirSync(fallback, { recursive: true, mode: 0o700 });
    fs.chmodSync(fallback, 0o700);
    // Executable, so that Bun.which (socket-path.ts) finds it without node:fs.
    fs.writeFileSync(`${fallback}/${SQUATTED_MARK}`, `${dir}: ${problem}\n`, { mode: 0o700 });
  } catch (error) {
    return unsafeSocketDir(dir, `${problem}; and ${fallback} cannot be made: ${(error as Error).message}`);
  }
  return new T4aError(
    "bad_request",
    `the socket directory ${dir} is not yours (${problem}): another user made it first. It is never used; ` +
      `from now on t4a's socket lives in ${fallback} (remove ${fallback}/${SQUATTED_MARK} to go back). ` +
      "Run the command again.",
  );
}
