// `t4a web`: HTTP and WebSocket inside the daemon (Bun.serve, the same event loop and sessions as
// the socket): the REST API generated from the command table, a terminal per WebSocket, and the
// page bundled into the binary. Every request passes the gate first (auth.ts): Host, token,
// Origin, read-only. Deliberately unlike seed 002: no open CORS, no unauthenticated access.
import { hostname, networkInterfaces } from "node:os";
import { basename } from "node:path";
import type { DaemonContext } from "../commands/context.ts";
import { T4aError } from "../protocol/errors.ts";
import type { Attachment } from "../stream/attachment.ts";
import { MAX_REQUEST_LINE_BYTES } from "../protocol/limits.ts";
import { Gate, KEY_FRAGMENT, loadToken, Logins, WS_PROTOCOL } from "./auth.ts";
import page from "./page/index.html";
import { errorResponse, HttpRefusal } from "./responses.ts";
import { WebRelay } from "./relay.ts";
import { handleRoute } from "./routes.ts";

export interface ServeOptions {
  /** host:port; port 0 picks a free one. */
  listen: string;
  readOnly: boolean;
  /** Where the clones for issue launches live. */
  repos?: string;
  /** The agent issue launches start. */
  agent: string;
  tlsCert?: string;
  tlsKey?: string;
  /** More names the Host header may carry (a tailscale serve name, a reverse proxy's). */
  allowHosts: string[];
  /** Where the web token lives (the state directory). */
  stateDir: string;
}

export interface WebServer {
  url: string;
  listen: string;
  readOnly: boolean;
  /** A fresh one-time URL that logs a browser in (sets the cookie). */
  loginUrl(): string;
  /** The names the Host header may carry. */
  allowedHosts: string[];
  stop(): void;
}

interface SocketData {
  id: string;
  readOnly: boolean;
  /** Another machine's terminal (relay.ts), shown through an attach there. */
  host?: string;
  attachment?: Pick<Attachment, "input" | "resize" | "close">;
}

/** Rows of scrollback a page is sent above the screen when it opens a session: scrolling up shows them. */
const REPLAYED_ROWS = 1000;

const LOOPBACK = ["127.0.0.1", "localhost", "[::1]", "::1"];

/**
 * Sent with every answer: the page may not be framed (a page on another port of 127.0.0.1 is
 * same-site, and once framed it could type into a shell), and loads nothing but its own files.
 */
const SECURITY_HEADERS: Record<string, string> = {
  "x-frame-options": "DENY",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' " +
    "data: blob:; connect-src 'self'; font-src 'self' data:; worker-src 'none'; manifest-src " +
    "'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/**
 * What a login (and a refused, forgotten login) clears in the browser for this origin: storage
 * takes service workers with it, so one that another server on this port registered while the
 * daemon was down does not outlive the next login. Not "cookies": those belong to every port.
 */
const CLEAR_SITE_DATA = '"cache", "storage"';

/** Every name this machine answers to, for a server on all interfaces (0.0.0.0, [::]). */
function machineNames(): string[] {
  const addresses = Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map((entry) => (entry.family === "IPv6" ? `[${entry.address}]` : entry.address)),
  );
  return [hostname(), ...addresses];
}

export function isLoopback(host: string): boolean {
  return LOOPBACK.includes(host) || host.startsWith("127.");
}

export function parseListen(listen: string): { host: string; port: number } {
  const match = /^(\[[0-9a-fA-F:]+\]|[^:]+):(\d{1,5})$/.exec(listen);
  if (!match || Number(match[2]) > 65535)
    throw new T4aError("invalid_params", `listen must be host:port, e.g. 127.0.0.1:7681, got "${listen}"`);
  return { host: match[1]!, port: Number(match[2]) };
}

export function startWeb(ctx: DaemonContext, options: ServeOptions): WebServer {
  const { host, port } = parseListen(options.listen);
  const secure = options.tlsCert !== undefined;
  const everywhere = host === "0.0.0.0" || host === "[::]";
  const hosts =
    isLoopback(host) || everywhere
      ? [...LOOPBACK.filter((name) => name !== "::1"), ...(everywhere ? machineNames() : [host])]
      : [host];
  const token = loadToken(options.stateDir);
  const relay = new WebRelay(ctx.socketPath);
  // Made once the port is known (the cookie's name carries it); no request comes before.
  let gate!: Gate;
  const assets = new Map<string, { path: string; headers: Record<string, string> }>();
  let index: { path: string; headers: Record<string, string> } | undefined;
  // Compiled: the page's files are in the binary, served here behind the gate like everything else.
  for (const file of (
    page as unknown as { files?: Array<{ path: string; loader: string; headers: Record<string, string> }> }
  ).files ?? []) {
    if (file.loader === "html") index = file;
    else assets.set(`/${basename(file.path)}`, file);
  }

  const server = Bun.serve<SocketData>({
    hostname: host.replace(/^\[|\]$/g, ""),
    port,
    tls: secure ? { cert: Bun.file(options.tlsCert!), key: Bun.file(options.tlsKey!) } : undefined,
    // Development (not compiled): Bun serves the page from its HTML import; production goes through fetch.
    routes: index ? undefined : { "/dev-page": page },
    // The socket's own limit on a request: a bigger body is refused (413) before it is read.
    maxRequestBodySize: MAX_REQUEST_LINE_BYTES,
    async fetch(request, server) {
      let response: Response | undefined;
      try {
        response = await handle(request, server);
      } catch (error) {
        response = errorResponse(error);
      }
      if (response) for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
      // An event stream is never ended by Bun's idle limit: a reader that stops reading lags (its
      // stream bounded, a `lagged` queued for it) and is told so when it reads again; the limit
      // ended it silently, and the reader lost what was queued, the notice with it (issue 57).
      if (response?.headers.get("content-type") === "text/event-stream") server.timeout(request, 0);
      return response;
    },
    websocket: {
      open(ws) {
        if (ws.data.host !== undefined) {
          ws.data.attachment = relay.attach(ws.data.host, ws.data.id, ws.data.readOnly, REPLAYED_ROWS, {
            send: (data) => (ws.send(data), ws.getBufferedAmount()),
            close: (code, reason) => ws.close(code, reason),
          });
          return;
        }
        // Killed between the upgrade and now: nothing to show.
        if (!ctx.sessions.has(ws.data.id)) return ws.close(4404, "no such session");
        const session = ctx.sessions.get(ws.data.id);
        // The session's size first: the page draws at it (a viewer never resizes it by opening).
        const { cols, rows } = session.terminal.screen;
        ws.send(JSON.stringify({ event: "resize", cols, rows }));
        ws.data.attachment = session.view(
          {
            screen: (text) => (ws.send(new TextEncoder().encode(text)), ws.getBufferedAmount()),
            output: (bytes) => (ws.send(bytes), ws.getBufferedAmount()),
            event: (event) => (ws.send(JSON.stringify(event)), ws.getBufferedAmount()),
            close: () => ws.close(1000, "closed"),
          },
          { readOnly: ws.data.readOnly, scrollback: REPLAYED_ROWS },
        );
      },
      message(ws, message) {
        const attachment = ws.data.attachment;
        if (!attachment) return;
        // Seed 002: keystrokes as binary frames, a resize as the text message "\x01cols;rows".
        if (typeof message === "string" && message.startsWith("\x01")) {
          // A control message: a valid resize, or nothing at all (never typed into the program).
          const resize = /^\x01(\d{1,4});(\d{1,4})$/.exec(message);
          if (!resize) return;
          const [cols, rows] = [Number(resize[1]), Number(resize[2])];
          if (cols >= 1 && cols <= 1000 && rows >= 1 && rows <= 1000) attachment.resize(cols, rows);
        } else attachment.input(typeof message === "string" ? message : new Uint8Array(message));
      },
      close(ws) {
        ws.data.attachment?.close();
      },
    },
  });

  async function handle(request: Request, server: Bun.Server<SocketData>): Promise<Response | undefined> {
    // DNS rebinding: a page of another name that resolves here must not reach us.
    if (!gate.hostAllowed(request)) throw new HttpRefusal(403, "bad_request", "this Host is not served here");
    // The browser checking a service worker's script for an update: we never serve one, so one
    // registered here was another program's (on this port while the daemon was down): it goes.
    if (request.headers.get("service-worker") === "script")
      return new Response(null, { status: 404, headers: { "clear-site-data": CLEAR_SITE_DATA } });
    const url = new URL(request.url);
    const login = url.searchParams.get("login");
    if (login !== null && request.method === "GET") {
      if (!gate.redeem(login))
        return new Response("This login link was used or has expired: run `t4a web` for a new one.\n", { status: 403 });
      const made = gate.login(request.headers.get("user-agent") ?? "");
      // The key rides in the fragment, which no server sees; the page takes it from there. Whatever
      // this origin held before (a worker another server on this port planted while the daemon was
      // down, an old key) is cleared first.
      return new Response(null, {
        status: 302,
        headers: {
          location: `/#${KEY_FRAGMENT}${made.key}`,
          "set-cookie": made.cookie,
          "cache-control": "no-store",
          "clear-site-data": CLEAR_SITE_DATA,
        },
      });
    }
    const api = url.pathname.startsWith("/api/");
    // The page asks this first, with a fresh nonce, before it sends its key anywhere (auth.ts proof()).
    if (url.pathname === "/api/hello" && request.method === "GET") {
      const nonce = url.searchParams.get("nonce") ?? "";
      if (!/^[0-9a-f]{32,128}$/.test(nonce)) throw new HttpRefusal(400, "bad_request", "nonce: 32 to 128 hex digits");
      const proof = gate.proof(request, nonce);
      if (proof === undefined) throw refusedLogin(request);
      return new Response(JSON.stringify({ proof }), {
        headers: { "content-type": "application/json", "cache-control": "no-store" },
      });
    }
    const credential = gate.credential(request);
    const browser = credential === "login" || (credential === undefined && !api && gate.pageLogin(request));
    if (browser && !gate.sameSite(request, api))
      throw new HttpRefusal(403, "bad_request", "cross-site request refused");
    if (!credential && !browser) {
      if (api) throw refusedLogin(request);
      const response = new Response("Open the URL that `t4a web` prints to log in.\n", {
        status: 401,
        headers: { "content-type": "text/plain" },
      });
      if (gate.staleLogin(request)) response.headers.set("clear-site-data", CLEAR_SITE_DATA);
      return response;
    }
    const changes = request.method !== "GET" && request.method !== "HEAD";
    const opensTerminal = /^\/api\/sessions\/[^/]+\/terminal$/.test(url.pathname);
    if ((changes || opensTerminal) && !gate.originAllowed(request))
      throw new HttpRefusal(403, "bad_request", "cross-origin request refused");
    if (changes && options.readOnly) throw new HttpRefusal(403, "unsupported", "this web server is read-only");
    if (api) {
      if (!credential) throw refusedLogin(request);
      // A page's WebSocket offered its key as a subprotocol: the answer names the plain one.
      const protocol =
        credential === "login" && request.headers.get("sec-websocket-protocol") !== null
          ? { "sec-websocket-protocol": WS_PROTOCOL }
          : undefined;
      const env = {
        ctx,
        relay,
        readOnly: options.readOnly,
        repos: options.repos,
        agent: options.agent,
        upgrade: (request: Request, data: SocketData) => server.upgrade(request, { data, headers: protocol }),
      };
      const response = await handleRoute(request, url, env);
      if (response === "no route") throw new T4aError("not_found", `no such route: ${request.method} ${url.pathname}`);
      return response;
    }
    const asset = assets.get(url.pathname);
    if (asset) return new Response(Bun.file(asset.path), { headers: asset.headers });
    // Any other path is the page (SPA fallback).
    if (index)
      return new Response(Bun.file(index.path), { headers: { ...index.headers, "cache-control": "no-store" } });
    return Response.redirect("/dev-page", 302);
  }

  /** A refused API request; a login the server no longer knows also has its browser's site data cleared. */
  function refusedLogin(request: Request): HttpRefusal {
    const refusal = new HttpRefusal(
      401,
      "bad_request",
      "a token is needed: Authorization: Bearer, or open the URL `t4a web` prints",
    );
    if (gate.staleLogin(request)) refusal.headers = { "clear-site-data": CLEAR_SITE_DATA };
    return refusal;
  }

  gate = new Gate(token, [...hosts, ...options.allowHosts], secure, new Logins(options.stateDir), server.port ?? port);
  const shownHost = everywhere ? "127.0.0.1" : host;
  const url = `${secure ? "https" : "http"}://${shownHost}:${server.port}`;
  return {
    url,
    listen: `${host}:${server.port}`,
    readOnly: options.readOnly,
    allowedHosts: gate.allowedHosts,
    loginUrl: () => `${url}/?login=${gate.loginCode()}`,
    stop: () => (server.stop(true), relay.close()),
  };
}
