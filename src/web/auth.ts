// Who may use the web server: a request must name an allowed Host (no DNS rebinding) and carry
// either the API token (Authorization: Bearer, for scripts) or a browser login.
// A login is a random id made when the one-time login URL is opened: never the token, it expires,
// and `t4a web --logout-all` revokes every one. Cookies are not port-scoped (any server on
// 127.0.0.1 the browser visits, another user's too, receives them), so the cookie is only half of
// a login: the other half is a key the page keeps (sessionStorage: per origin, so per port) and
// sends in a header (X-T4a-Key, or a WebSocket subprotocol), only after the server proved it is
// this server (proof()). A browser's request must come from our own page (Sec-Fetch-Site, Origin),
// and the page may not be framed. A web terminal is remote code execution: every check here has a
// test that tries to get past it.
import { writePrivateFile } from "../client/private-file.ts";
import { expectObject, loadStateFile } from "../client/state-file.ts";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** A login code works once, within this long of being printed. */
const LOGIN_CODE_MS = 10 * 60 * 1000;
/** A browser login lasts this long; then `t4a web` prints a new login URL. */
export const LOGIN_MS = 7 * 24 * 60 * 60 * 1000;

/** The token of this user's web server: made at first start, kept 0600 in the state dir. */
export function loadToken(stateDir: string): string {
  const dir = webDir(stateDir);
  const path = join(dir, "token");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (existsSync(path)) {
    const token = readFileSync(path, "utf8").trim();
    if (/^[0-9a-f]{64}$/.test(token)) return token;
  }
  const token = randomBytes(32).toString("hex");
  // Whole or not at all: a full disk must not leave an empty token file behind.
  writePrivateFile(path, `${token}\n`);
  return token;
}

/** Where the token and the logins live; a sandbox hides this directory. */
export function webDir(stateDir: string): string {
  return join(stateDir, "web");
}

export interface Login {
  created: number;
  expires: number;
  user_agent: string;
}

/**
 * The browser logins, kept (as hashes of their ids, so the file alone logs no one in) in the web
 * directory: they outlive a daemon restart, and any `t4a web --logout-all` ends them all.
 */
export class Logins {
  readonly #path: string;

  constructor(stateDir: string) {
    this.#path = join(webDir(stateDir), "logins.json");
  }

  add(userAgent: string): string {
    const id = randomBytes(32).toString("hex");
    const now = Date.now();
    this.#write({
      ...this.#read(),
      [hash(id)]: { created: now, expires: now + LOGIN_MS, user_agent: userAgent.slice(0, 200) },
    });
    return id;
  }

  valid(id: string): boolean {
    if (!/^[0-9a-f]{64}$/.test(id)) return false;
    const login = this.#read()[hash(id)];
    return login !== undefined && login.expires > Date.now();
  }

  list(): Login[] {
    return Object.values(this.#read()).filter((login) => login.expires > Date.now());
  }

  /** Ends every login; answers how many were live. */
  revokeAll(): number {
    const live = this.list().length;
    this.#write({});
    return live;
  }

  #read(): Record<string, Login> {
    const read = loadStateFile(this.#path, readLogins);
    if (read.problems.length) {
      // Said in the daemon's log; what was readable is written back so it is said once.
      for (const problem of read.problems) console.error(`t4a daemon: ${problem}`);
      if (read.keptAs) this.#write(read.value ?? {});
    }
    return read.value ?? {};
  }

  #write(logins: Record<string, Login>): void {
    const live = Object.fromEntries(Object.entries(logins).filter(([, login]) => login.expires > Date.now()));
    writePrivateFile(this.#path, JSON.stringify(live));
  }
}

/** The logins a file holds; one that is not a login is left out, named. */
function readLogins(json: unknown, problems: string[]): Record<string, Login> {
  const logins: Record<string, Login> = {};
  for (const [key, login] of Object.entries(expectObject(json, "the logins file"))) {
    const entry = login as Partial<Login> | null;
    if (
      typeof entry === "object" &&
      entry !== null &&
      typeof entry.expires === "number" &&
      typeof entry.created === "number"
    )
      logins[key] = { user_agent: "", ...entry } as Login;
    else problems.push(`a login in the logins file is not one (left out)`);
  }
  return logins;
}

function hash(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

/** How a request proved itself: the API token, or a browser login (its cookie and its key). */
export type Credential = "token" | "login";

/** The header the page sends its login's key in; WebSockets offer it as a subprotocol `t4a-key.KEY`. */
export const KEY_HEADER = "x-t4a-key";
export const KEY_PROTOCOL = "t4a-key.";
/** The subprotocol the server answers a WebSocket with (the key's own is never echoed). */
export const WS_PROTOCOL = "t4a";
/** The login redirect's fragment: `#t4a-key=KEY` (a fragment never reaches a server). */
export const KEY_FRAGMENT = "t4a-key=";

export class Gate {
  readonly #token: Buffer;
  readonly #hosts: Set<string>;
  readonly #codes = new Map<string, number>();
  readonly #logins: Logins;
  readonly #cookie: string;
  readonly #port: number;
  readonly secure: boolean;

  constructor(token: string, hosts: string[], secure: boolean, logins: Logins, port: number) {
    this.#token = Buffer.from(token);
    this.#port = port;
    this.#hosts = new Set(hosts.map((host) => host.toLowerCase()));
    this.secure = secure;
    this.#logins = logins;
    // One name per port: two servers on one machine (two users) do not overwrite each other's login.
    this.#cookie = `t4a_login_${port}`;
  }

  get allowedHosts(): string[] {
    return [...this.#hosts];
  }

  /** A code for the one-time login URL. */
  loginCode(): string {
    const code = randomBytes(16).toString("hex");
    this.#codes.set(code, Date.now() + LOGIN_CODE_MS);
    return code;
  }

  /** Consumes a login code; true when it was good. */
  redeem(code: string): boolean {
    const until = this.#codes.get(code);
    this.#codes.delete(code);
    return until !== undefined && until > Date.now();
  }

  /** A new browser login: the Set-Cookie header that carries its id, and the key the page keeps. */
  login(userAgent: string): { cookie: string; key: string } {
    const id = this.#logins.add(userAgent);
    return {
      cookie:
        `${this.#cookie}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${LOGIN_MS / 1000}` +
        (this.secure ? "; Secure" : ""),
      key: this.#key(id),
    };
  }

  /**
   * This server's answer to a page's challenge: HMAC(key, "t4a-server:" nonce), from the login
   * cookie the request carries; undefined without a live login. Only this server can make it: the
   * key is derived from the token and the port this server listens on, so a program squatting the
   * remembered port cannot pass through the answer of a t4a of this user on another port.
   */
  proof(request: Request, nonce: string): string | undefined {
    const login = this.#cookieLogin(request);
    if (login === undefined || !this.#logins.valid(login)) return undefined;
    return createHmac("sha256", this.#key(login)).update(`t4a-server:${nonce}`).digest("hex");
  }

  /** The request presents a login cookie that is not (or no longer) a login: its browser's site data goes. */
  staleLogin(request: Request): boolean {
    const login = this.#cookieLogin(request);
    return login !== undefined && !this.#logins.valid(login);
  }

  /** The Host header names us (its name, without the port, is an allowed one). */
  hostAllowed(request: Request): boolean {
    const host = request.headers.get("host");
    if (!host) return false;
    const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "");
    return this.#hosts.has(name.toLowerCase());
  }

  /**
   * The Origin, when a browser sends one, is this server as the browser reached it. Clients
   * without an Origin (curl, scripts) are not browsers: the token alone decides for them.
   */
  originAllowed(request: Request): boolean {
    const origin = request.headers.get("origin");
    if (origin === null) return true;
    const host = request.headers.get("host");
    return host !== null && origin === `${this.secure ? "https" : "http"}://${host}`;
  }

  /** What the request proves itself with, if anything. */
  credential(request: Request): Credential | undefined {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    if (bearer !== undefined && this.#equal(bearer)) return "token";
    const login = this.#cookieLogin(request);
    if (login === undefined || !this.#logins.valid(login)) return undefined;
    const key = request.headers.get(KEY_HEADER) ?? offeredKey(request);
    return key !== undefined && same(key, this.#key(login)) ? "login" : undefined;
  }

  /** The login cookie alone is enough only to load the page itself (it holds nothing of the user's). */
  pageLogin(request: Request): boolean {
    const login = this.#cookieLogin(request);
    return login !== undefined && this.#logins.valid(login);
  }

  /**
   * A browser says where a request comes from (Sec-Fetch-Site): with a login only our own page's
   * requests are taken, and a typed URL or bookmark ("none") only to load the page. A request
   * without it must carry the Origin of this server (a browser sends one on every WebSocket and
   * every change); one with neither is a login replayed outside a browser, and refused.
   */
  sameSite(request: Request, api: boolean): boolean {
    const site = request.headers.get("sec-fetch-site");
    if (site === null) return request.headers.get("origin") !== null && this.originAllowed(request);
    return site === "same-origin" || (site === "none" && !api && request.method === "GET");
  }

  #cookieLogin(request: Request): string | undefined {
    return (request.headers.get("cookie") ?? "")
      .split(";")
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${this.#cookie}=`))
      ?.slice(this.#cookie.length + 1);
  }

  /** A login's key: derived from the token and this port, so it is never stored, and dies with the login. */
  #key(login: string): string {
    return createHmac("sha256", this.#token).update(`t4a-web-key:${this.#port}:${login}`).digest("hex");
  }

  #equal(presented: string): boolean {
    const given = Buffer.from(presented);
    return given.length === this.#token.length && timingSafeEqual(given, this.#token);
  }
}

/** The key a WebSocket offers as a subprotocol (a browser's WebSocket cannot set headers). */
function offeredKey(request: Request): string | undefined {
  const offered = (request.headers.get("sec-websocket-protocol") ?? "").split(",").map((part) => part.trim());
  return offered.find((protocol) => protocol.startsWith(KEY_PROTOCOL))?.slice(KEY_PROTOCOL.length);
}

function same(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}
