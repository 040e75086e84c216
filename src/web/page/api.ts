// The page's one way to the daemon's REST API (with the login cookie), and how its failures read:
// a daemon that cannot be reached is told apart from a refusal, so the page can say "retrying".
import type { SessionInfo } from "../../protocol/session-info.ts";

export type Session = SessionInfo;

/** The daemon (and so its web server) is down, or the network between us is. */
export class Unreachable extends Error {}

/** The server answered with an error: its wire code and HTTP status. */
export class Refused extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers: { "content-type": "application/json", ...(init.headers ?? {}) } });
  } catch {
    throw new Unreachable("the daemon is not reachable");
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Refused(body.error ?? `${response.status} ${response.statusText}`, response.status, body.code);
  return body as T;
}

/** The REST path of one session, or of something under it. */
export function sessionPath(id: string, rest = ""): string {
  return `/api/sessions/${encodeURIComponent(id)}${rest}`;
}

/** The session as one word: the agent's state while it runs, else running, exited or failed. */
export function stateOf(session: Session): string {
  if (!session.alive) return session.exit_code === 0 ? "exited" : "failed";
  return session.agent_state ?? "running";
}

/** "12 s", "3 min", "2 h", "4 d": how long since a moment (ms since the epoch). */
export function age(since: number | undefined, now = Date.now()): string {
  if (since === undefined) return "";
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86400)} d`;
}

export const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;

/** An element with a class and text (never HTML: session titles and screens are the programs'). */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = ""): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text) made.textContent = text;
  return made;
}
