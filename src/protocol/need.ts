// A need: what a terminal waits on a person (or a worker) for, with an identity. An agent's open
// question, its idle after a turn, a program reading its terminal, a failed exit; each has a
// need_id, unique in its daemon instance, so a worker tells a need it has seen from a new one.
import * as v from "valibot";
import { deferred } from "./deferred.ts";

/** Why a terminal needs someone; `idle` only for waits that ask for idle agents (`wait --any --agent idle`). */
export const NEED_KINDS = ["waiting", "input", "failed", "idle"] as const;
export type NeedKind = (typeof NEED_KINDS)[number];

export const NeedInfo = deferred(() =>
  v.object({
    need_id: v.pipe(v.number(), v.description("this need, unique in the daemon instance; a later need has another")),
    why: v.picklist(NEED_KINDS),
    line: v.string(),
    /** waiting: the question (approve/deny may name it). */
    question_id: v.optional(v.number()),
    /** idle: which of the agent's idles (its turns, counted from 1). */
    turn: v.optional(v.number()),
    /** Who holds it (wait --any --claim): others skip it, and their answers to it are refused. */
    claimed_by: v.optional(v.string()),
    /** When the claim lapses unless its holder acts first (ms since the epoch). */
    claim_expires_at: v.optional(v.number()),
  }),
);
export type NeedInfo = v.InferOutput<typeof NeedInfo>;

const SHELLS = new Set(["bash", "zsh", "fish", "sh", "dash", "ksh", "tcsh"]);

/** A plain program blocked reading its terminal: not an agent, not a shell waiting at its prompt. */
export function readingInput(t: { input_wanted?: unknown; agent?: unknown; cmd_args?: unknown }): boolean {
  if (typeof t.input_wanted !== "string" || t.agent !== undefined) return false;
  return !(SHELLS.has(t.input_wanted) && !(Array.isArray(t.cmd_args) && t.cmd_args.includes("-c")));
}
