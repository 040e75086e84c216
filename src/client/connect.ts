// Reach the daemon: check the socket directory, connect; only when nobody answers, load the
// auto-start path (lock, retry, spawn). The common case imports nothing heavy.
import { DaemonConnection } from "./connection.ts";
import { NoDaemon } from "./errors.ts";
import { checkSocketDir, parentDir } from "./socket-path.ts";

/** A daemon on another machine, through ssh (T4A_HOST or --host); its control socket lives beside ours. */
export async function connectRemote(host: string, path: string): Promise<DaemonConnection> {
  const { openRemote } = await import("./ssh.ts");
  const { ensureSocketDir } = await import("./socket-dir.ts");
  ensureSocketDir(path);
  return openRemote(host, parentDir(path));
}

export async function connectDaemon(path: string, autoStart: boolean, host?: string): Promise<DaemonConnection> {
  if (host) return connectRemote(host, path);
  const dirExists = await checkSocketDir(parentDir(path));
  let reason = "its directory does not exist";
  if (dirExists) {
    try {
      return await DaemonConnection.open(path);
    } catch (error) {
      reason = (error as Error).message;
    }
  }
  if (!autoStart) throw new NoDaemon(`no daemon answers on ${path} (${reason})`);
  const { startDaemon } = await import("./autostart.ts");
  return startDaemon(path);
}
