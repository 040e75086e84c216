// How reaching the daemon fails, as the CLI tells it apart (exit code 3). Plain classes, no imports.

/** The daemon could not be reached (or started): CLI exit code 3. */
export class DaemonUnreachable extends Error {}

/** Nobody listens and the command does not start a daemon: read-only commands answer "nothing". */
export class NoDaemon extends DaemonUnreachable {}
