// Reach the daemon: check the socket directory, connect; only when nobody answers, load the
// auto-start path (lock, retry, spawn). The common case imports nothing heavy.
import { DaemonConnection } from "./connection.ts";
import { DaemonUnreachable, NoDaemon } from "./errors.ts";
import { checkSocketDir, parentDir } from "./socket-path.ts";

/** A daemon on another machine, through ssh (T4A_HOST or --host); its control socket lives beside ours. */
export async function connectRemote(host: string | RemoteHost, path: string): Promise<DaemonConnection> {
  const { openRemote } = await import("./ssh.ts");
  const { ensureSocketDir } = await import("./socket-dir.ts");
  ensureSocketDir(path);
  return typeof host === "string"
    ? openRemote(host, parentDir(path))
    : openRemote(host.target, parentDir(path), host.ssh_args);
}

/** A host from hosts.json: its ssh target and its own ssh options. */
export interface RemoteHost {
  target: string;
  ssh_args?: string[];
}

export async function connectDaemon(
  path: string,
  autoStart: boolean,
  host?: string | RemoteHost,
): Promise<DaemonConnection> {
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
  if (!autoStart) {
    // A refused connect is also what a daemon whose queue of waiting connections is full gives (Bun
    // reports EAGAIN as ECONNREFUSED): one that runs is there, not "no daemon".
    const { livingDaemon } = await import("./daemon-pid.ts");
    const living = dirExists ? livingDaemon(path) : undefined;
    if (living) {
      throw new DaemonUnreachable(
        `daemon ${living} runs on ${path} but does not take connections (${reason}): ` +
          `its queue of waiting connections is full or it is stopped; see ${parentDir(path)}/t4a.log`,
      );
    }
    throw new NoDaemon(`no daemon answers on ${path} (${reason})`);
  }
  const { startDaemon } = await import("./autostart.ts");
  return startDaemon(path);
}
