// Default limits of the daemon (DESIGN.md "Limits"). Plain numbers; no imports.

export const MAX_REQUEST_LINE_BYTES = 1024 * 1024;
export const MAX_DIMENSION = 1000;
export const DEFAULT_COLS = 80;
export const DEFAULT_ROWS = 24;
export const DEFAULT_SCROLLBACK_LINES = 10_000;
export const MAX_SCROLLBACK_LINES = 1_000_000;
export const DEFAULT_MAX_SESSIONS = 256;
/**
 * The most terminals a daemon may be configured to hold (config's max_sessions): a list longer than this is no
 * daemon's.
 */
export const MAX_SESSIONS_LIMIT = 4096;
export const DEFAULT_IDLE_TIMEOUT_MS = 2000;
export const DEFAULT_KILL_GRACE_MS = 1000;
/** Bytes of events queued for one subscriber before it is told it `lagged`. */
export const SUBSCRIBER_QUEUE_BYTES = 1024 * 1024;
/** Bytes of recent events a daemon keeps for `events` `since` (a relay that lost its link resumes from them). */
export const EVENT_RING_BYTES = 1024 * 1024;
/** Longest a read waits for a program to close a synchronized-output frame. */
export const SYNC_FRAME_WAIT_MS = 500;
