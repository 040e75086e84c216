// How reaching the daemon fails, as the CLI tells it apart (exit code 3). Plain classes, no imports.

/** The daemon could not be reached (or started): CLI exit code 3. */
export class DaemonUnreachable extends Error {}

/** Nobody listens and the command does not start a daemon: read-only commands answer "nothing". */
export class NoDaemon extends DaemonUnreachable {}

/** The other end answered something that is not t4a's protocol (a shell banner, another program). */
export class PeerError extends DaemonUnreachable {}

/** The other end did not answer a call within its bound (a host that never answers). */
export class NoAnswer extends DaemonUnreachable {}

/** The first bytes of what came back, escaped, for an error message. */
export function firstBytes(bytes: Uint8Array | string, max = 80): string {
  const text = typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes.subarray(0, max * 4));
  const shown = JSON.stringify(text.slice(0, max));
  return text.length > max ? `${shown}…` : shown;
}
