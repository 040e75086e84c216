// Small conversions from cac's loosely typed options to request fields.
// Shared by the command files' CLI wiring; no daemon code.
import { T4aError } from "../protocol/errors.ts";

/** An integer option, or undefined when absent. Rejects "12x" instead of sending NaN. */
export function intOption(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new T4aError("invalid_params", `expected an integer, got "${value}"`);
  return n;
}

/** A repeatable option as a list (cac gives a scalar for one use, an array for several). */
export function listOption(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}
