// Every HTTP route of the web server in one table: the REST API generated from the command table
// (each route builds the request the socket would carry, from path segments and the query or JSON
// body, and goes through the same dispatch), plus the web's own: a session's seed-002 state, the
// issue launch, and a terminal over WebSocket. Answers undefined for paths that are not routes.
// An id naming a host (`box:t3`), create's `host`, and `all` on the list and the event stream go
// through the relay (relay.ts) to the hosts of hosts.json.
import type { Command, Reply } from "../commands/command.ts";
import type { DaemonContext } from "../commands/context.ts";
import { commands } from "../commands/index.ts";
import { dispatch, type Outcome } from "../daemon/dispatch.ts";
import { T4aError } from "../protocol/errors.ts";
import { SUBSCRIBER_QUEUE_BYTES } from "../protocol/limits.ts";
import { routeId } from "../client/fleet-links.ts";
import { LOCAL, resolveHost } from "../client/hosts.ts";
import { launchIssue } from "./issue.ts";
import type { WebRelay } from "./relay.ts";
import { HttpRefusal, json } from "./responses.ts";

/** What a route may use besides the request: the daemon, the server's settings, the upgrade. */
export interface RouteEnv {
  ctx: DaemonContext;
  readOnly: boolean;
  repos?: string;
  agent: string;
  /**
   * Turn the request into a WebSocket for this terminal (`host`: another machine's); false when it was no upgrade
   * request.
   */
  upgrade(request: Request, terminal: { id: string; readOnly: boolean; host?: string }): boolean;
  /** Other machines' daemons, for what names a host. */
  relay: WebRelay;
}

interface RouteCall {
  request: Request;
  url: URL;
  /** The path's `:name` segments. */
  params: Record<string, string>;
  /** The JSON body (POST) or the query (GET, DELETE), as request fields. */
  fields: Reply;
  env: RouteEnv;
}

interface Route {
  method: "GET" | "POST" | "DELETE";
  pattern: RegExp;
  names: string[];
  /** Taken only when this says so (the issue launch shares create's path). */
  when?: (fields: Reply) => boolean;
  handle(call: RouteCall): Promise<Response | undefined> | Response | undefined;
}

function route(method: Route["method"], path: string, handle: Route["handle"], when?: Route["when"]): Route {
  const names: string[] = [];
  const source = path.replace(/:([a-z_]+)/g, (_match, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { method, pattern: new RegExp(`^${source.replace(/\./g, "\\.")}$`), names, when, handle };
}

const ROUTES: Route[] = [
  // What the page must know before it draws its controls.
  route("GET", "/api/about", ({ env }) => json({ read_only: env.readOnly, version: env.ctx.version })),
  route("GET", "/api/sessions/:id/terminal", ({ request, url, params, env }) => {
    const { host, id } = routeId(params.id!);
    if (host === LOCAL) env.ctx.sessions.get(id);
    const readOnly = env.readOnly || url.searchParams.get("read_only") === "1";
    if (env.upgrade(request, { id, readOnly, ...(host === LOCAL ? {} : { host }) })) return undefined;
    throw new HttpRefusal(426, "bad_request", "expected a WebSocket upgrade");
  }),
  route("GET", "/api/sessions/:id", async ({ params, env }) => {
    const { host, id } = routeId(params.id!);
    if (host === LOCAL) return json(sessionState(env.ctx, id));
    const { reply } = await env.relay.call(host, commandNamed("list"), {});
    const info = (reply.terminals as Reply[]).find((t) => t.id === params.id);
    if (!info) throw new T4aError("not_found", `terminal "${params.id}" not found`);
    return json(stateOf(info));
  }),
  // The page's list and stream: this machine's and every host's (a host down is named in `hosts`).
  route(
    "GET",
    "/api/sessions",
    async ({ fields, env }) => {
      const { all: _all, ...rest } = fields;
      const [local, remote] = await Promise.all([
        dispatch({ ...rest, cmd: "list" }, env.ctx),
        env.relay.lists(commandNamed("list"), rest),
      ]);
      if (local.reply.ok !== true) throw new T4aError(local.reply.code as T4aError["code"], String(local.reply.error));
      const terminals: Reply[] = [
        ...((local.reply.terminals as Reply[]) ?? []).map((t) => ({ ...t, host: LOCAL })),
        ...remote.terminals,
      ];
      if (rest.needs === true) {
        const { needRank } = await import("../commands/needs.ts");
        terminals.sort(
          (a, b) => needRank(a as Parameters<typeof needRank>[0]) - needRank(b as Parameters<typeof needRank>[0]),
        );
      }
      return json({ terminals, hosts: remote.hosts });
    },
    (fields) => fields.all === true,
  ),
  route(
    "GET",
    "/api/events",
    ({ env }) =>
      serverSentEvents((sink) => {
        const stopLocal = env.ctx.bus.subscribe(undefined, sink);
        const stopRemote = env.relay.events(sink as (event: Reply) => void);
        return () => (stopLocal(), stopRemote());
      }),
    (fields) => fields.all === true,
  ),
  route(
    "POST",
    "/api/sessions",
    async ({ fields, env }) => {
      const { host, ...rest } = fields;
      if (typeof host !== "string" || host === LOCAL)
        throw new T4aError("invalid_params", `host must name a host of hosts.json`);
      const { reply } = await env.relay.call(host, commandNamed("create"), rest);
      return json(reply, 201);
    },
    (fields) => "host" in fields && fields.host !== LOCAL && !("repo" in fields),
  ),
  route(
    "POST",
    "/api/sessions",
    async ({ fields, env }) => {
      const { status, session } = await launchIssue(fields, env.ctx, { repos: env.repos, agent: env.agent });
      return json(session, status);
    },
    (fields) => "repo" in fields,
  ),
  ...commands.flatMap((command) =>
    (command.http ?? []).map((spec) =>
      route(spec.method, spec.path, (call) => commandRoute(command, spec.status ?? 200, spec.answer, call)),
    ),
  ),
];

/**
 * Fields only a local client fills, from its own process: the environment whose PATH and
 * XDG_CONFIG_HOME decide which programs (agent CLIs, agents.json) the daemon runs. Every HTTP field
 * is tainted, so no route takes them; the daemon's own environment stands in.
 */
const CALLER_ONLY = ["client_env"];

/** The route for this request, or undefined when none matches its method and path. */
export async function handleRoute(
  request: Request,
  url: URL,
  env: RouteEnv,
): Promise<Response | undefined | "no route"> {
  const candidates = ROUTES.flatMap((candidate) => {
    if (candidate.method !== request.method) return [];
    const match = candidate.pattern.exec(url.pathname);
    if (!match) return [];
    const params: Record<string, string> = {};
    candidate.names.forEach((name, i) => (params[name] = decodePathSegment(match[i + 1]!)));
    return [{ candidate, params }];
  });
  if (!candidates.length) return "no route";
  const fields = request.method === "POST" ? await jsonBody(request) : queryFields(url);
  for (const field of CALLER_ONLY) {
    if (field in fields)
      throw new T4aError(
        "invalid_params",
        `${field} is the local CLI's own environment; an HTTP request cannot set it`,
      );
  }
  const found = candidates.find(({ candidate }) => candidate.when?.(fields) ?? true);
  if (!found) return "no route";
  return found.candidate.handle({ request, url, params: found.params, fields, env });
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new T4aError("bad_request", `malformed percent-encoding in the path: ${JSON.stringify(segment)}`);
  }
}

/** One session as seed 002 shows it: running, attached (someone is watching), failed, exited. */
export function sessionState(ctx: DaemonContext, id: string): Reply {
  return stateOf(ctx.sessions.get(id).info());
}

function stateOf(info: Reply): Reply {
  const viewers = Number(info.viewers ?? 0);
  const state = info.alive ? (viewers > 0 ? "attached" : "running") : info.exit_code === 0 ? "exited" : "failed";
  return { ...info, state, viewers };
}

const commandNamed = (name: string): Command => commands.find((command) => command.name === name)!;

async function commandRoute(
  command: Command,
  status: number,
  answer: Record<string, string> | undefined,
  { params, fields, env }: RouteCall,
): Promise<Response> {
  // An id naming a host goes there (`local:` is this machine's); the page's `host` on create too.
  const field = params.id !== undefined ? "id" : params.terminal !== undefined ? "terminal" : undefined;
  // The create form's agents: the chosen host's (GET /api/agents?host=box), as its daemon finds them.
  const asked = command.name === "agents" && typeof fields.host === "string" ? fields.host : LOCAL;
  const routed = field ? routeId(params[field]!) : { host: asked, id: "" };
  if (field) params = { ...params, [field]: routed.id };
  if (command.name === "agents" || fields.host === LOCAL) delete fields.host;
  if (routed.host !== LOCAL) {
    if (command.name === "events") {
      // A remote session's own stream: that host's, as the relay follows it for every page, kept to
      // this terminal (and the host's link coming and going). Only a host of hosts.json is followed.
      resolveHost(routed.host);
      const terminal = `${routed.host}:${routed.id}`;
      return serverSentEvents((sink) =>
        env.relay.events((event) => {
          if (event.host === routed.host && (event.terminal === terminal || event.event === "host"))
            (sink as (event: Reply) => void)(event);
        }),
      );
    }
    const { reply, bytes } = await env.relay.call(routed.host, command, { ...fields, ...params });
    if (bytes)
      return new Response(bytes as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": "image/png", "cache-control": "no-store" },
      });
    return json({ ...reply, ...answer }, status);
  }
  const outcome = await dispatch({ ...fields, ...params, cmd: command.name }, env.ctx);
  const { reply } = outcome;
  if (reply.ok !== true) throw new T4aError(reply.code as T4aError["code"], String(reply.error));
  if (outcome.bytes)
    return new Response(outcome.bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": "image/png", "cache-control": "no-store" },
    });
  if (outcome.stream) return serverSentEvents(outcome.stream);
  const { ok: _ok, tag: _tag, ...rest } = reply;
  return json({ ...rest, ...answer }, status);
}

async function jsonBody(request: Request): Promise<Reply> {
  const text = await request.text();
  if (!text.trim()) return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new T4aError("bad_request", "the body is not JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new T4aError("bad_request", "the body must be a JSON object");
  return body as Reply;
}

/** Query values as JSON where they read as JSON (numbers, booleans, lists), else as text. */
function queryFields(url: URL): Reply {
  const fields: Reply = {};
  for (const [key, value] of url.searchParams) {
    try {
      fields[key] = JSON.parse(value);
    } catch {
      fields[key] = value;
    }
  }
  return fields;
}

/** How often a quiet event stream sends a comment, under Bun.serve's 10 s idle limit. */
const SSE_ALIVE_MS = 5000;

/**
 * An event stream as server-sent events: one `data:` line per event, until the client goes. What
 * waits for a reader that does not read is bounded in bytes, as on the socket: past the bound
 * events are dropped. The reader is told at the first drop (a `lagged` queued after the last
 * event it will get, so a stream closed while it lags, by the client or Bun's idle limit, still
 * says why), and how many more were dropped once it has room again: the `dropped` counts add up.
 */
function serverSentEvents(start: NonNullable<Outcome["stream"]>): Response {
  let stop: (() => void) | undefined;
  let beat: ReturnType<typeof setInterval> | undefined;
  let dropped = 0;
  let lagging = false;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(": t4a events\n\n"));
        // Bun.serve ends a response that sends nothing for 10 s: a quiet stream says it is alive
        // (else the page, and the relay's links behind it, would start over every 10 s).
        beat = setInterval(() => {
          try {
            if ((controller.desiredSize ?? 0) > 0) controller.enqueue(encoder.encode(": alive\n\n"));
          } catch {
            clearInterval(beat);
          }
        }, SSE_ALIVE_MS);
        const line = (event: unknown) => encoder.encode(`data: ${JSON.stringify(event)}\n\n`);
        stop = start((event) => {
          try {
            if ((controller.desiredSize ?? 0) <= 0) {
              // Past the bound by one small line: the reader learns it lags even if no room comes.
              if (!lagging) controller.enqueue(line({ event: "lagged", dropped: 1 }));
              else dropped++;
              lagging = true;
              return;
            }
            lagging = false;
            if (dropped) controller.enqueue(line({ event: "lagged", dropped }));
            dropped = 0;
            controller.enqueue(line(event));
          } catch {
            stop?.();
          }
        });
      },
      cancel() {
        clearInterval(beat);
        stop?.();
      },
    },
    { highWaterMark: SUBSCRIBER_QUEUE_BYTES, size: (chunk) => chunk?.byteLength ?? 0 },
  );
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-store" } });
}
