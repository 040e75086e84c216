// What a terminal needs from a person, read from its info: an agent waiting on a question, a
// plain program reading its terminal, an exit with a non-zero code. `list --needs` and
// `wait --any` share it, so both mean the same by "needs me".

/** Why a terminal needs a person, most pressing first. */
export const NEEDS = ["waiting", "input", "failed"] as const;
export type Need = (typeof NEEDS)[number];

interface Seen {
  alive?: unknown;
  agent?: unknown;
  agent_state?: unknown;
  input_wanted?: unknown;
  exit_code?: unknown;
  cmd_args?: unknown;
}

const SHELLS = new Set(["bash", "zsh", "fish", "sh", "dash", "ksh", "tcsh"]);

/** A plain program blocked reading its terminal: not an agent, not a shell waiting at its prompt. */
export function readingInput(t: Seen): boolean {
  if (typeof t.input_wanted !== "string" || t.agent !== undefined) return false;
  return !(SHELLS.has(t.input_wanted) && !(Array.isArray(t.cmd_args) && t.cmd_args.includes("-c")));
}

/** The need a terminal makes, or undefined when it makes none. */
export function needOf(t: Seen): Need | undefined {
  if (t.alive && t.agent_state === "waiting") return "waiting";
  if (t.alive && readingInput(t)) return "input";
  if (!t.alive && t.exit_code !== 0 && t.exit_code !== undefined) return "failed";
  return undefined;
}

/** For sorting: the most pressing need first; none last. */
export function needRank(t: Seen): number {
  const need = needOf(t);
  return need === undefined ? NEEDS.length : NEEDS.indexOf(need);
}
