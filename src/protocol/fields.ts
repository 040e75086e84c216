// Valibot schemas shared by several commands: terminal ids, names, sizes.
// Every wire field is parsed through these, never cast.
import * as v from "valibot";
import { deferred } from "./deferred.ts";
import { MAX_DIMENSION } from "./limits.ts";

export const TerminalId = deferred(() =>
  v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.description("terminal id: t1, a name, or HOST:ID")),
);

/** A worker of a pool, as it names itself to claim a need and to act on it. */
export const Worker = deferred(() =>
  v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(64),
    v.regex(
      /^[^\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+$/,
      "worker must not contain control characters",
    ),
    v.description("who acts: a need claimed by another worker is refused unless forced"),
  ),
);

/** Who acts on a need, and whether a claim another holds is overridden (approve, deny, ask, send). */
export const actingFields = () => ({
  worker: v.optional(Worker),
  force: v.optional(v.pipe(v.boolean(), v.description("act even though another worker holds the need's claim"))),
});

/** A name given at create: becomes the terminal's id. */
export const TerminalName = deferred(() =>
  v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(64),
    // No ':' either: `box:t3` is terminal t3 on the host named box (hosts.json, the fleet).
    // Nor a C1 control (U+009B is CSI) or a bidi control (U+202E shows `t1<RLO>gpj.exe` as `t1exe.jpg`):
    // list and tmux's formats print a name as it is.
    v.regex(
      /^[^/:\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+$/,
      "name must not contain '/', ':' or control characters",
    ),
    v.check((name) => !name.startsWith("-"), "name must not start with '-'"),
  ),
);

export const Dimension = deferred(() =>
  v.pipe(
    v.number(),
    v.integer("must be an integer"),
    v.minValue(1, "must be at least 1"),
    v.maxValue(MAX_DIMENSION, `must be at most ${MAX_DIMENSION}`),
  ),
);

export const Milliseconds = deferred(() =>
  v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 3600 * 1000)),
);

/** Request envelope: every request has `cmd`; `tag` is echoed back. */
/**
 * The protocol this t4a speaks: bumped when a request or reply changes so that a peer of the
 * other number would misread it. The CLI sends it with every request (`"protocol"`); a daemon of
 * another number refuses with `version_mismatch` instead of half-working.
 */
export const PROTOCOL_VERSION = 1;

export const Envelope = deferred(() =>
  v.object({
    cmd: v.string(),
    tag: v.optional(v.union([v.string(), v.pipe(v.number(), v.finite())])),
    protocol: v.optional(v.unknown()),
  }),
);

/** Something t4a kept at a session's end so no work is lost (a dirty worktree, a branch with commits). */
export const KeptItem = deferred(() =>
  v.object({
    what: v.picklist(["worktree", "branch", "plugin"]),
    /** The worktree's directory, the branch name, or the plugin whose cleanup failed. */
    path: v.string(),
    reason: v.string(),
  }),
);
export type KeptItem = v.InferOutput<typeof KeptItem>;

/** What an agent session is doing. */
export const AgentStateName = deferred(() => v.picklist(["starting", "working", "waiting", "idle", "exited"]));

/** A reply with no fields of its own. */
export const EmptyReply = deferred(() => v.object({}));
