// The events a terminal emits, as they appear on the wire (one JSON line each).
// Clients must ignore event types they do not know.

export type TerminalEvent =
  | { event: "idle"; terminal: string; after_ms: number }
  | { event: "activity"; terminal: string }
  | { event: "bell"; terminal: string }
  | { event: "command_start"; terminal: string }
  | { event: "command_done"; terminal: string; code: number | null }
  | { event: "exit"; terminal: string; code: number | null; signal?: string; reason?: string; kept?: unknown[] }
  | { event: "title"; terminal: string; title: string }
  | { event: "restored"; terminal: string; cwd: string }
  | { event: "agent_state"; terminal: string; state: string; line: string }
  | { event: "lagged"; dropped: number };
