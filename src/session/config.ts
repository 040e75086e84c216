// The daemon's settings that shape sessions, changed live by the `config` command: a new value
// applies to the sessions made after it. Types and defaults only.
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SCROLLBACK_LINES,
} from "../protocol/limits.ts";

export interface DaemonConfig {
  idle_timeout_ms: number;
  scrollback_lines: number;
  /** Per terminal; 0 = only the line limit. */
  scrollback_bytes: number;
  kill_grace_ms: number;
  max_sessions: number;
}

export function defaultConfig(idleTimeoutMs?: number): DaemonConfig {
  return {
    idle_timeout_ms: idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    scrollback_lines: DEFAULT_SCROLLBACK_LINES,
    scrollback_bytes: 0,
    kill_grace_ms: DEFAULT_KILL_GRACE_MS,
    max_sessions: DEFAULT_MAX_SESSIONS,
  };
}
