// The one error type of t4a and its closed set of wire codes.
// Thrown anywhere; turned into `{"ok":false,"error","code"}` only by dispatch.

export const ErrorCodes = [
  "bad_request",
  "unknown_cmd",
  "invalid_params",
  "not_found",
  "exists",
  "timeout",
  "exited",
  "spawn_failed",
  "unsupported",
  "busy",
  "not_waiting",
  "claimed",
  "no_mouse",
  "version_mismatch",
  "internal",
] as const;

export type ErrorCode = (typeof ErrorCodes)[number];

export class T4aError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "T4aError";
  }
}

export const terminalNotFound = (id: string): T4aError => new T4aError("not_found", `terminal "${id}" not found`);
