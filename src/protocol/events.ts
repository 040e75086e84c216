// The events a terminal emits, as they appear on the wire (one JSON line each), as valibot
// schemas: the daemon publishes these types, clients and the page read them. Clients must
// ignore event types (and fields) they do not know.
import * as v from "valibot";
import { deferred } from "./deferred.ts";
import { AgentStateName, KeptItem } from "./fields.ts";

const terminal = deferred(() => v.string());
/** The need the event begins (see need.ts): a question, an idle after a turn, input wanted, a failed exit. */
const need_id = deferred(() => v.optional(v.number()));
/** This daemon's number for the event, counted from 1 per daemon instance (`events` `since` resumes after it). */
const seq = deferred(() => v.optional(v.number()));

export const IdleEvent = deferred(() => v.object({ event: v.literal("idle"), seq, terminal, after_ms: v.number() }));
export const ActivityEvent = deferred(() => v.object({ event: v.literal("activity"), seq, terminal }));
export const BellEvent = deferred(() => v.object({ event: v.literal("bell"), seq, terminal }));
export const CommandStartEvent = deferred(() => v.object({ event: v.literal("command_start"), seq, terminal }));
export const CommandDoneEvent = deferred(() =>
  v.object({ event: v.literal("command_done"), seq, terminal, code: v.nullable(v.number()) }),
);
export const ExitEvent = deferred(() =>
  v.object({
    event: v.literal("exit"),
    seq,
    terminal,
    code: v.nullable(v.number()),
    signal: v.optional(v.string()),
    /** Why t4a ended it: kill's own reason ("timeout", "shutdown"); absent when the program ended by itself. */
    reason: v.optional(v.string()),
    kept: v.optional(v.array(KeptItem)),
    need_id,
  }),
);
export const TitleEvent = deferred(() => v.object({ event: v.literal("title"), seq, terminal, title: v.string() }));
/** A new session (create, up, an issue launch); a restored one says `restored` instead. */
export const CreatedEvent = deferred(() => v.object({ event: v.literal("created"), seq, terminal }));
export const RestoredEvent = deferred(() => v.object({ event: v.literal("restored"), seq, terminal, cwd: v.string() }));
/** The program blocked reading the terminal (a password, a y/n, a REPL, a shell's prompt): someone should type. */
export const InputWantedEvent = deferred(() =>
  v.object({ event: v.literal("input_wanted"), seq, terminal, process: v.string(), line: v.string(), need_id }),
);
export const AgentStateEvent = deferred(() =>
  v.object({
    event: v.literal("agent_state"),
    seq,
    terminal,
    state: AgentStateName,
    line: v.string(),
    /** While waiting: which question, counted per session (approve/deny may name it). */
    question_id: v.optional(v.number()),
    /** While idle: which of its idles (turns), counted per session. */
    turn: v.optional(v.number()),
    need_id,
  }),
);
/** A slow subscriber missed this many events. */
export const LaggedEvent = deferred(() => v.object({ event: v.literal("lagged"), dropped: v.number() }));
/**
 * A resumed subscriber (`events` `since`) missed `lost` events the daemon no longer holds, or
 * (`restarted`, `lost` null) the daemon is another instance than the one `since` counted in.
 */
export const GapEvent = deferred(() =>
  v.object({ event: v.literal("gap"), lost: v.nullable(v.number()), restarted: v.optional(v.boolean()) }),
);

export const TerminalEvent = deferred(() =>
  v.variant("event", [
    IdleEvent,
    ActivityEvent,
    BellEvent,
    CommandStartEvent,
    CommandDoneEvent,
    ExitEvent,
    TitleEvent,
    CreatedEvent,
    RestoredEvent,
    AgentStateEvent,
    InputWantedEvent,
    LaggedEvent,
    GapEvent,
  ]),
);
export type TerminalEvent = v.InferOutput<typeof TerminalEvent>;

/** What an attached viewer (t4a attach, a browser) is told between output bytes. */
export const ViewerEvent = deferred(() =>
  v.variant("event", [
    v.object({ event: v.literal("resize"), cols: v.number(), rows: v.number() }),
    v.object({ event: v.literal("exit"), code: v.nullable(v.number()), signal: v.nullable(v.string()) }),
    /** The viewer fell too far behind and was dropped; it may attach again. */
    v.object({ event: v.literal("lagged") }),
  ]),
);
export type ViewerEvent = v.InferOutput<typeof ViewerEvent>;
