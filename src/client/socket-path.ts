// Where the daemon's socket lives, and the quick safety check a client makes before connecting.
// On every CLI call's path: no node:fs (loading it took 1.4 ms of a 13 ms call) and no node:path.
// The check is Bun.file().stat(), answered by a thread of Bun's while the client connects
// (connect.ts). The full checks that create the directory live in socket-dir.ts.
import { T4aError } from "../protocol/errors.ts";

export function socketPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.T4A_SOCKET) return env.T4A_SOCKET;
  if (env.XDG_RUNTIME_DIR) return `${env.XDG_RUNTIME_DIR.replace(/\/+$/, "")}/t4a/t4a.sock`;
  return `/tmp/t4a-${process.getuid?.() ?? "user"}/t4a.sock`;
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
      (stat) => {
        const problem = socketDirProblem(stat);
        if (problem) throw unsafeSocketDir(dir, problem);
        return true;
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
  return new T4aError("bad_request", `refusing socket directory ${dir}: ${reason} (fix it, or set T4A_SOCKET elsewhere)`);
}
