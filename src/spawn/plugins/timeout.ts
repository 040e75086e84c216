// timeout: the session is ended (as kill does) once it has run this long; its exit event then
// says "reason":"timeout". The timer itself belongs to whoever holds the session (create).
import type { Plugin } from "../plan.ts";

export const timeout: Plugin = (spec, plan) => {
  if (spec.timeout_ms === undefined) return;
  plan.timeoutMs = spec.timeout_ms;
  plan.facts.timeout_ms = spec.timeout_ms;
};
