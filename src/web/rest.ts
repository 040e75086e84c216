// The REST API, generated from the command table: each command's `http` routes become handlers
// that build the same request the socket would carry (path segments, query or JSON body) and go
// through the same dispatch. Errors keep the wire's codes, with the HTTP status that fits.
import type { Command, Reply } from "../commands/command.ts";
import { commands } from "../commands/index.ts";
import type { DaemonContext } from "../daemon/context.ts";
import { dispatch } from "../daemon/dispatch.ts";
import type { ErrorCode } from "../protocol/errors.ts";

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  command: Command;
  status: number;
}

export const routes: Route[] = commands.flatMap((command) =>
  (command.http ?? []).map((spec) => {
    const names: string[] = [];
    const source = spec.path.replace(/:([a-z_]+)/g, (_match, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    return { method: spec.method, pattern: new RegExp(`^${source.replace(/\./g, "\\.")}$`), names, command, status: spec.status ?? 200 };
  }),
);

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unknown_cmd: 404,
  invalid_params: 400,
  not_found: 404,
  exists: 409,
  timeout: 504,
  exited: 409,
  spawn_failed: 422,
  unsupported: 501,
  busy: 429,
  internal: 500,
};

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } });
}

export function errorResponse(code: ErrorCode, error: string): Response {
  return json({ ok: false, error, code }, STATUS[code] ?? 500);
}

export function findRoute(method: string, pathname: string): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const params: Record<string, string> = {};
    route.names.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1]!)));
    return { route, params };
  }
  return undefined;
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

export async function handleRoute(request: Request, url: URL, found: NonNullable<ReturnType<typeof findRoute>>, ctx: DaemonContext): Promise<Response> {
  let body: Reply = {};
  if (request.method === "POST") {
    const text = await request.text();
    if (text.trim()) {
      try {
        body = JSON.parse(text);
      } catch {
        return errorResponse("bad_request", "the body is not JSON");
      }
      if (typeof body !== "object" || body === null || Array.isArray(body)) return errorResponse("bad_request", "the body must be a JSON object");
    }
  }
  const fields = request.method === "POST" ? body : queryFields(url);
  const { route, params } = found;
  const outcome = await dispatch({ ...fields, ...params, cmd: route.command.name }, ctx);
  const { reply } = outcome;
  if (reply.ok !== true) return errorResponse(reply.code as ErrorCode, String(reply.error));
  if (outcome.bytes) return new Response(outcome.bytes, { headers: { "content-type": "image/png", "cache-control": "no-store" } });
  if (outcome.stream) return serverSentEvents(outcome.stream);
  const { ok: _ok, tag: _tag, ...rest } = reply;
  if (route.command.name === "kill") rest.status = "stopped"; // seed 002's answer to DELETE
  return json(rest, route.status);
}

/** An event stream as server-sent events: one `data:` line per event, until the client goes. */
function serverSentEvents(start: NonNullable<Awaited<ReturnType<typeof dispatch>>["stream"]>): Response {
  let stop: (() => void) | undefined;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(": t4a events\n\n"));
      stop = start((event) => {
        try {
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
        } catch {
          stop?.();
        }
      });
    },
    cancel() {
      stop?.();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-store" } });
}
