// CLI durations: `250ms`, `30s`, `2m`; a bare number is seconds.
import { T4aError } from "../protocol/errors.ts";

export function parseDuration(text: string, what: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!match) throw new T4aError("invalid_params", `${what} must be a duration like 500ms, 30s or 2m, got "${text}"`);
  const value = Number(match[1]);
  const unit = match[2] ?? "s";
  return Math.round(unit === "ms" ? value : unit === "s" ? value * 1000 : value * 60_000);
}

/** A duration option, or undefined when absent. */
export function durationOption(value: unknown, what: string): number | undefined {
  return value === undefined ? undefined : parseDuration(String(value), what);
}
