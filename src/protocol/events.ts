// The events a terminal emits, as they appear on the wire (one JSON line each).
// Clients must ignore event types they do not know.

export type TerminalEvent =
  | { event: "exit"; terminal: string; code: number | null; signal?: string }
  | { event: "title"; terminal: string; title: string }
  | { event: "bell"; terminal: string }
  | { event: "lagged"; dropped: number };
