// How the client library reaches a daemon, under Bun or Node: the Unix socket through node:net
// (the CLI's connection.ts uses Bun.connect), and when nobody answers, `t4a dial-stdio`, which
// starts the daemon as the CLI does (lock, retry, spawn) and joins us to it. No Bun API here.
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { DaemonConnection } from "../client/connection.ts";
import { DaemonUnreachable } from "../client/errors.ts";
import { openPipe } from "../client/ssh.ts";
import {
  leaveSquatted,
  parentDir,
  socketDirProblem,
  squattedDefault,
  socketPath,
  unsafeSocketDir,
} from "../client/socket-path.ts";

/** The socket the CLI would use here: T4A_SOCKET, XDG_RUNTIME_DIR, else the default directory. */
export const defaultSocket = (): string => socketPath(process.env, (dir, name) => existsSync(`${dir}/${name}`));

/**
 * The daemon on `path`, started with the argv `t4a` (plus `dial-stdio`) when nobody answers and
 * `start` allows; nothing is written before the socket's directory is found to be ours.
 */
export async function openLocal(path: string, start: boolean, t4a: string[]): Promise<DaemonConnection> {
  let reason = "its directory does not exist";
  if (socketDirIsOurs(parentDir(path))) {
    try {
      return await openSocket(path);
    } catch (error) {
      reason = (error as Error).message;
    }
  }
  if (!start) throw new DaemonUnreachable(`no daemon answers on ${path} (${reason})`);
  return openPipe([...t4a, "dial-stdio"], `t4a dial-stdio (${t4a.join(" ")})`, { ...process.env, T4A_SOCKET: path });
}

/** As socket-path.ts's checkSocketDir, with node:fs: false when missing, an error when not ours. */
function socketDirIsOurs(dir: string): boolean {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(dir);
  } catch {
    return false;
  }
  const problem = socketDirProblem(stat);
  if (!problem) return true;
  if (squattedDefault(dir, stat)) throw leaveSquatted(dir, problem, { mkdirSync, chmodSync, writeFileSync });
  throw unsafeSocketDir(dir, problem);
}

function openSocket(path: string): Promise<DaemonConnection> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      const { connection, feed, ended } = DaemonConnection.over(
        { write: (bytes) => socket.write(bytes), end: () => socket.end() },
        `the daemon at ${path}`,
      );
      socket.on("data", feed);
      socket.on("error", (error) =>
        connection.failWith(`the connection to the daemon at ${path} failed: ${error.message}`),
      );
      socket.on("close", ended);
      resolve(connection);
    });
  });
}
