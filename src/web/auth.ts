// Who may use the web server: a request must carry the token (Authorization: Bearer, or the
// HttpOnly SameSite=Strict cookie the one-time login URL sets), name an allowed Host (no DNS
// rebinding) and, when it changes something or opens a terminal, come from our own Origin.
// A web terminal is remote code execution: every check here has a test that tries to get past it.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const COOKIE = "t4a_token";
/** A login code works once, within this long of being printed. */
const LOGIN_CODE_MS = 10 * 60 * 1000;

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
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}

/** Where the token lives; a sandbox hides this directory. */
export function webDir(stateDir: string): string {
  return join(stateDir, "web");
}

export class Gate {
  readonly #token: Buffer;
  readonly #hosts: Set<string>;
  readonly #codes = new Map<string, number>();
  readonly secure: boolean;

  constructor(token: string, hosts: string[], secure: boolean) {
    this.#token = Buffer.from(token);
    this.#hosts = new Set(hosts.map((host) => host.toLowerCase()));
    this.secure = secure;
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

  cookie(): string {
    return `${COOKIE}=${this.#token.toString()}; HttpOnly; SameSite=Strict; Path=/${this.secure ? "; Secure" : ""}`;
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

  tokenPresented(request: Request): boolean {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    const cookie = (request.headers.get("cookie") ?? "")
      .split(";")
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${COOKIE}=`))
      ?.slice(COOKIE.length + 1);
    return [bearer, cookie].some((presented) => presented !== undefined && this.#equal(presented));
  }

  #equal(presented: string): boolean {
    const given = Buffer.from(presented);
    return given.length === this.#token.length && timingSafeEqual(given, this.#token);
  }
}
