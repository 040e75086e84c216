// What a terminal needs from a person, read from its info: an agent waiting on a question, a
// plain program reading its terminal, an exit with a non-zero code. `list --needs` and
// `wait --any` share it, so both mean the same by "needs me".

import { readingInput } from "../protocol/need.ts";

/** Why a terminal needs a person, most pressing first. */
export const NEEDS = ["waiting", "input", "failed"] as const;
export type Need = (typeof NEEDS)[number];

interface Seen {
  alive?: unknown;
  agent?: unknown;
  agent_state?: unknown;
  agent_question_answered?: unknown;
  input_wanted?: unknown;
  exit_code?: unknown;
  cmd_args?: unknown;
  need?: { why?: unknown };
}

export { readingInput };

/** The need a terminal makes, or undefined when it makes none. */
export function needOf(t: Seen): Need | undefined {
  // What the daemon tracks (this version's): claims and answered questions counted.
  if (t.need !== undefined)
    return (NEEDS as readonly unknown[]).includes(t.need.why) ? (t.need.why as Need) : undefined;
  // A question answered (approve, deny) is no need, though the CLI may not have redrawn yet.
  if (t.alive && t.agent_state === "waiting" && t.agent_question_answered !== true) return "waiting";
  if (t.alive && readingInput(t)) return "input";
  if (!t.alive && t.exit_code !== 0 && t.exit_code !== undefined) return "failed";
  return undefined;
}

/** For sorting: the most pressing need first; none last. */
export function needRank(t: Seen): number {
  const need = needOf(t);
  return need === undefined ? NEEDS.length : NEEDS.indexOf(need);
}
