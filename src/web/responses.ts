// How the web answers: JSON bodies, and the one place an error becomes an HTTP status. A wire
// error keeps its code and gets the status that fits it; the gate's refusals carry their own.
import { T4aError, type ErrorCode } from "../protocol/errors.ts";
import { shownLines } from "../protocol/program-text.ts";

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
  not_waiting: 409,
  claimed: 409,
  no_mouse: 409,
  version_mismatch: 400,
  internal: 500,
};

/** A refusal with an HTTP status of its own (no token: 401, wrong Host or Origin: 403). */
export class HttpRefusal extends T4aError {
  /** Headers the refusal carries (Clear-Site-Data for a forgotten login). */
  headers: Record<string, string> = {};

  constructor(
    readonly status: number,
    code: ErrorCode,
    message: string,
  ) {
    super(code, message);
  }
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}

/** Any failure as the response a client sees: `{"ok":false,"error","code"}` with its status. */
export function errorResponse(error: unknown): Response {
  if (!(error instanceof T4aError)) {
    // The stack, not the source around it: the log is for us, not a dump of the bundle.
    console.error("t4a web: internal error:", error instanceof Error ? (error.stack ?? error.message) : String(error));
    return json({ ok: false, error: "internal error", code: "internal" }, 500);
  }
  const status = error instanceof HttpRefusal ? error.status : (STATUS[error.code] ?? 500);
  // A refusal may quote a program (a setup script's output, the shell's words): what an HTTP client
  // prints to a terminal carries no escape sequence of it.
  const response = json({ ok: false, error: shownLines(error.message), code: error.code }, status);
  if (error instanceof HttpRefusal)
    for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
  return response;
}
