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
  // The socket is connected while its directory is checked (a stat that waits for a thread of
  // Bun's): connecting tells a listener nothing, and nothing is sent before the check has passed.
  const opening = DaemonConnection.open(path).catch((error: Error) => error);
  let dirExists: boolean;
  try {
    dirExists = await checkSocketDir(parentDir(path));
  } catch (error) {
    const opened = await opening;
    if (opened instanceof DaemonConnection) opened.close();
    throw error;
  }
  const opened = await opening;
  if (opened instanceof DaemonConnection) {
    if (dirExists) return opened;
    opened.close(); // the directory appeared between the two: the start path below checks it again
  }
  const reason = dirExists && opened instanceof Error ? opened.message : "its directory does not exist";
  if (!autoStart) throw new NoDaemon(`no daemon answers on ${path} (${reason})`);
  const { startDaemon } = await import("./autostart.ts");
  return startDaemon(path);
}
