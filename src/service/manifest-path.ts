// Where a daemon's manifest of persisted sessions lives: the user's state dir, one file per socket
// (so a test daemon never restores the user's sessions). Plain: the CLI asks it to decide whether
// a missing daemon has sessions to bring back. No node imports.

/** FNV-1a of the socket path: a short, stable file name part. */
function socketKey(socketPath: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < socketPath.length; i++) {
    hash ^= socketPath.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

export function stateDir(env: Record<string, string | undefined>): string {
  return `${env.XDG_STATE_HOME || `${env.HOME || "/"}/.local/state`}/t4a`;
}

export function manifestPath(env: Record<string, string | undefined>, socketPath: string): string {
  return `${stateDir(env)}/sessions-${socketKey(socketPath)}.json`;
}

/** The web server a daemon on this socket serves again after a restart (web/host.ts). */
export function webServerPath(env: Record<string, string | undefined>, socketPath: string): string {
  return `${stateDir(env)}/web/server-${socketKey(socketPath)}.json`;
}

/** Which conversation id each agent session name used last (spawn/agents/conversations.ts). */
export function conversationsPath(env: Record<string, string | undefined>, socketPath: string): string {
  return `${stateDir(env)}/conversations-${socketKey(socketPath)}.json`;
}

/**
 * The lock that proves which daemon owns a socket (daemon/daemon-lock.ts). In the state dir, not
 * beside the socket: a /tmp cleaner that deletes the socket's directory would let a second daemon
 * lock a fresh file there while the first still runs.
 */
export function daemonLockPath(env: Record<string, string | undefined>, socketPath: string): string {
  return `${stateDir(env)}/daemon-${socketKey(socketPath)}.lock`;
}
