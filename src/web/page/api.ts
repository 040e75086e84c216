// The page's one way to the daemon's REST API, and how its failures read: a daemon that cannot be
// reached is told apart from a refusal, so the page can say "retrying". A login is the cookie
// (which the browser gives every port of this host) plus a key only this page holds
// (sessionStorage: this origin, this tab); the key is sent only to a server that has just proved,
// for a fresh nonce, that it is the one that made it (after every lost connection too), so another
// program that took the port while the daemon was down never receives it.
import type { SessionInfo } from "../../protocol/session-info.ts";
import type { TerminalEvent } from "../../protocol/events.ts";

/** A session; `host`: the machine whose daemon holds it (`local`, or a host of hosts.json: its id is HOST:ID). */
export type Session = SessionInfo & { host?: string };

/** A host of hosts.json as the list read it: `error` when it did not answer. */
export interface HostStatus {
  name: string;
  error?: string;
}

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

/** What answers at this address did not prove it is the server this page logged in to. */
export class Impostor extends Error {}

const KEY_FRAGMENT = "#t4a-key=";
const KEY_STORE = "t4a-key";

/** This tab's login key: from the login redirect's fragment (then out of the address bar), else kept. */
const key: string | null = (() => {
  if (location.hash.startsWith(KEY_FRAGMENT)) {
    const given = location.hash.slice(KEY_FRAGMENT.length);
    if (/^[0-9a-f]{64}$/.test(given)) sessionStorage.setItem(KEY_STORE, given);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(KEY_STORE);
})();

let proved: Promise<void> | undefined;
/** The page is being left (a reload, a navigation): what breaks now is no lost connection. */
let leaving = false;
addEventListener("pagehide", () => (leaving = true));
addEventListener("pageshow", () => (leaving = false));
/** Once something else answered here, nothing is sent again (a new login URL makes a new page). */
let impostor: Impostor | undefined;

/**
 * The connection went (a stream ended, a socket closed, a request failed): prove the server again
 * before the key goes out. Until then the key is in this page's memory only: a reload now may load
 * another program's page at this address (the port is free while the daemon is down), which
 * would read this origin's sessionStorage.
 */
export function connectionLost(): void {
  if (leaving) return;
  proved = undefined;
  sessionStorage.removeItem(KEY_STORE);
}

/** Resolves once the server at this origin proved it holds this login (reused until a connection is lost). */
export function proveServer(): Promise<void> {
  if (impostor) return Promise.reject(impostor);
  proved ??= challenge()
    .then(() => {
      if (key !== null) sessionStorage.setItem(KEY_STORE, key);
    })
    .catch((error: unknown) => {
      proved = undefined;
      if (error instanceof Impostor) impostor = error;
      throw error;
    });
  return proved;
}

async function challenge(): Promise<void> {
  if (key === null) throw new Refused("This tab is not logged in: open the URL `t4a web` prints.", 401, "bad_request");
  // Off loopback without TLS the network sees everything anyway; the browser offers no HMAC there.
  if (!crypto.subtle) return;
  const nonce = hex(crypto.getRandomValues(new Uint8Array(32)));
  let response: Response;
  try {
    response = await fetch(`/api/hello?nonce=${nonce}`, { cache: "no-store" });
  } catch {
    throw new Unreachable("the daemon is not reachable");
  }
  const body = (await response.json().catch(() => ({}))) as { proof?: unknown; error?: string; code?: string };
  if (response.status === 401) throw new Refused(body.error ?? "not logged in", 401, body.code);
  // A proxy in front (tailscale serve) answers 502 while the daemon restarts: try again later.
  if (response.status !== 200) throw new Unreachable(`the server answered ${response.status}`);
  const hmac = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const expected = hex(
    new Uint8Array(await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode(`t4a-server:${nonce}`))),
  );
  if (body.proof !== expected) {
    throw new Impostor(
      `Something else answers at ${location.host} now (not the t4a this page logged in to): ` +
        "the page sends it nothing and stops. Run `t4a web` for a new login URL.",
    );
  }
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The subprotocols a terminal WebSocket offers: the key travels as one (a WebSocket cannot set headers). */
export function socketProtocols(): string[] {
  return key === null ? [] : ["t4a", `t4a-key.${key}`];
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  await proveServer();
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      headers: { "content-type": "application/json", "x-t4a-key": key ?? "", ...(init.headers ?? {}) },
    });
  } catch {
    connectionLost();
    throw new Unreachable("the daemon is not reachable");
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok)
    throw new Refused(body.error ?? `${response.status} ${response.statusText}`, response.status, body.code);
  return body as T;
}

/**
 * Follows the daemon's event stream until it ends (answers then; throws when it could not open).
 * A fetch, not an EventSource: it carries the key, and it never reconnects by itself to whatever
 * answers at this address next.
 */
export async function followStream(
  path: string,
  onOpen: () => void,
  onEvent: (event: TerminalEvent) => void,
): Promise<void> {
  await proveServer();
  let response: Response;
  try {
    response = await fetch(path, { headers: { "x-t4a-key": key ?? "" }, cache: "no-store" });
  } catch {
    connectionLost();
    throw new Unreachable("the daemon is not reachable");
  }
  if (!response.ok || !response.body)
    throw new Refused(`${response.status} ${response.statusText}`, response.status, undefined);
  onOpen();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const data = buffer
          .slice(0, end)
          .split("\n")
          .filter((line) => line.startsWith("data: "))
          .map((line) => line.slice(6))
          .join("\n");
        buffer = buffer.slice(end + 2);
        if (data) onEvent(JSON.parse(data) as TerminalEvent);
      }
    }
  } catch {
    // The connection broke: the same as its end.
  }
  connectionLost();
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
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text = "",
): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text) made.textContent = text;
  return made;
}
