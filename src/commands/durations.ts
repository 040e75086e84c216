// CLI durations: `250ms`, `30s`, `2m`, `1h`; a bare number is seconds.
import { T4aError } from "../protocol/errors.ts";

export function parseDuration(text: string, what: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match)
    throw new T4aError("invalid_params", `${what} must be a duration like 500ms, 30s, 2m or 1h, got "${text}"`);
  const value = Number(match[1]);
  const unit = match[2] ?? "s";
  return Math.round(value * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as "ms" | "s" | "m" | "h"]);
}

/** A duration option, or undefined when absent. */
export function durationOption(value: unknown, what: string): number | undefined {
  return value === undefined ? undefined : parseDuration(String(value), what);
}
