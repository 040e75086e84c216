// `t4a web`: HTTP and WebSocket inside the daemon (Bun.serve, the same event loop and sessions as
// the socket): the REST API generated from the command table, a terminal per WebSocket, and the
// page bundled into the binary. Every request passes the gate first (auth.ts): Host, token,
// Origin, read-only. Deliberately unlike seed 002: no open CORS, no unauthenticated access.
import { basename } from "node:path";
import type { ServerWebSocket } from "bun";
import type { DaemonContext } from "../daemon/context.ts";
import { T4aError } from "../protocol/errors.ts";
import { Attachment } from "../stream/attachment.ts";
import { Gate, loadToken } from "./auth.ts";
import { launchIssue } from "./issue.ts";
import page from "./page/index.html";
import { errorResponse, findRoute, handleRoute, json } from "./rest.ts";

export interface WebOptions {
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
}

export interface WebServer {
  url: string;
  listen: string;
  readOnly: boolean;
  /** A fresh one-time URL that logs a browser in (sets the cookie). */
  loginUrl(): string;
  stop(): void;
}

interface SocketData {
  id: string;
  readOnly: boolean;
  attachment?: Attachment;
}

const LOOPBACK = ["127.0.0.1", "localhost", "[::1]", "::1"];

export function isLoopback(host: string): boolean {
  return LOOPBACK.includes(host) || host.startsWith("127.");
}

export function parseListen(listen: string): { host: string; port: number } {
  const match = /^(\[[0-9a-fA-F:]+\]|[^:]+):(\d{1,5})$/.exec(listen);
  if (!match || Number(match[2]) > 65535) throw new T4aError("invalid_params", `listen must be host:port, e.g. 127.0.0.1:7681, got "${listen}"`);
  return { host: match[1]!, port: Number(match[2]) };
}

export function startWeb(ctx: DaemonContext, options: WebOptions): WebServer {
  const { host, port } = parseListen(options.listen);
  const secure = options.tlsCert !== undefined;
  const hosts = isLoopback(host) ? [...LOOPBACK.filter((name) => name !== "::1"), host] : [host];
  const gate = new Gate(loadToken(ctx.spawn.stateDir), [...hosts, ...options.allowHosts], secure);
  const assets = new Map<string, { path: string; headers: Record<string, string> }>();
  let index: { path: string; headers: Record<string, string> } | undefined;
  // Compiled: the page's files are in the binary, served here behind the gate like everything else.
  for (const file of (page as unknown as { files?: Array<{ path: string; loader: string; headers: Record<string, string> }> }).files ?? []) {
    if (file.loader === "html") index = file;
    else assets.set(`/${basename(file.path)}`, file);
  }

  const server = Bun.serve<SocketData, Record<string, never>>({
    hostname: host.replace(/^\[|\]$/g, ""),
    port,
    tls: secure ? { cert: Bun.file(options.tlsCert!), key: Bun.file(options.tlsKey!) } : undefined,
    // Development (not compiled): Bun serves the page from its HTML import; production goes through fetch.
    routes: index ? undefined : { "/dev-page": page },
    async fetch(request, server) {
      try {
        return await handle(request, server);
      } catch (error) {
        if (error instanceof T4aError) return errorResponse(error.code, error.message);
        console.error("t4a web: internal error:", error);
        return errorResponse("internal", "internal error");
      }
    },
    websocket: {
      open(ws) {
        // Killed between the upgrade and now: nothing to show.
        if (!ctx.pool.has(ws.data.id)) return ws.close(1011, "no such session");
        const terminal = ctx.pool.get(ws.data.id);
        ws.data.attachment = new Attachment(
          terminal,
          {
            screen: (text) => (ws.send(new TextEncoder().encode(text)), ws.getBufferedAmount()),
            output: (bytes) => (ws.send(bytes), ws.getBufferedAmount()),
            event: (event) => (ws.send(JSON.stringify(event)), ws.getBufferedAmount()),
            close: () => ws.close(1000, "closed"),
          },
          { readOnly: ws.data.readOnly, scrollback: 0, viewers: ctx.viewers },
        );
      },
      message(ws, message) {
        const attachment = ws.data.attachment;
        if (!attachment) return;
        // Seed 002: keystrokes as binary frames, a resize as the text message "\x01cols;rows".
        if (typeof message === "string") {
          const resize = /^\x01(\d+);(\d+)$/.exec(message);
          if (resize) {
            const [cols, rows] = [Number(resize[1]), Number(resize[2])];
            if (cols >= 1 && cols <= 1000 && rows >= 1 && rows <= 1000) attachment.resize(cols, rows);
          } else attachment.input(message);
        } else attachment.input(new Uint8Array(message));
      },
      close(ws) {
        ws.data.attachment?.close();
      },
    },
  });

  async function handle(request: Request, server: Bun.Server): Promise<Response | undefined> {
    // DNS rebinding: a page of another name that resolves here must not reach us.
    if (!gate.hostAllowed(request)) return json({ ok: false, error: "this Host is not served here", code: "bad_request" }, 403);
    const url = new URL(request.url);
    const login = url.searchParams.get("login");
    if (login !== null && request.method === "GET") {
      if (!gate.redeem(login)) return new Response("This login link was used or has expired: run `t4a web` for a new one.\n", { status: 403 });
      return new Response(null, { status: 302, headers: { location: "/", "set-cookie": gate.cookie(), "cache-control": "no-store" } });
    }
    if (!gate.tokenPresented(request)) {
      return url.pathname.startsWith("/api/")
        ? json({ ok: false, error: "a token is needed: Authorization: Bearer, or open the URL `t4a web` prints", code: "bad_request" }, 401)
        : new Response("Open the URL that `t4a web` prints to log in.\n", { status: 401, headers: { "content-type": "text/plain" } });
    }
    const changes = request.method !== "GET" && request.method !== "HEAD";
    const terminalSocket = /^\/api\/sessions\/([^/]+)\/terminal$/.exec(url.pathname);
    if ((changes || terminalSocket) && !gate.originAllowed(request)) return json({ ok: false, error: "cross-origin request refused", code: "bad_request" }, 403);
    if (changes && options.readOnly) return json({ ok: false, error: "this web server is read-only", code: "unsupported" }, 403);
    if (terminalSocket) {
      const id = decodeURIComponent(terminalSocket[1]!);
      ctx.pool.get(id);
      const readOnly = options.readOnly || url.searchParams.get("read_only") === "1";
      if (server.upgrade(request, { data: { id, readOnly } })) return undefined;
      return json({ ok: false, error: "expected a WebSocket upgrade", code: "bad_request" }, 426);
    }
    const one = /^\/api\/sessions\/([^/]+)$/.exec(url.pathname);
    if (one && request.method === "GET") return json(sessionState(ctx, decodeURIComponent(one[1]!)));
    if (url.pathname === "/api/sessions" && request.method === "POST") {
      const body = await request.clone().json().catch(() => undefined);
      if (body && typeof body === "object" && "repo" in body) {
        const { status, session } = await launchIssue(body, ctx, { repos: options.repos, agent: options.agent });
        return json(session, status);
      }
    }
    const route = findRoute(request.method, url.pathname);
    if (route) return handleRoute(request, url, route, ctx);
    if (url.pathname.startsWith("/api/")) return errorResponse("not_found", `no such route: ${request.method} ${url.pathname}`);
    const asset = assets.get(url.pathname);
    if (asset) return new Response(Bun.file(asset.path), { headers: asset.headers });
    // Any other path is the page (SPA fallback).
    if (index) return new Response(Bun.file(index.path), { headers: { ...index.headers, "cache-control": "no-store" } });
    return Response.redirect("/dev-page", 302);
  }

  const shownHost = host === "0.0.0.0" || host === "[::]" ? "127.0.0.1" : host;
  const url = `${secure ? "https" : "http"}://${shownHost}:${server.port}`;
  return {
    url,
    listen: options.listen,
    readOnly: options.readOnly,
    loginUrl: () => `${url}/?login=${gate.loginCode()}`,
    stop: () => server.stop(true),
  };
}

/** One session as seed 002 shows it: running, attached (someone is watching), failed, exited. */
export function sessionState(ctx: DaemonContext, id: string): Record<string, unknown> {
  const info = ctx.pool.get(id).info();
  const viewers = ctx.viewers.get(id) ?? 0;
  const state = info.alive ? (viewers > 0 ? "attached" : "running") : info.exit_code === 0 ? "exited" : "failed";
  return { ...info, state, viewers };
}
