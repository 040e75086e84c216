// tmux_state: the little of a tmux server's state that t4a has no model of, kept for the tmux front
// end (src/cli/tmux/): the numbers behind `$N`/`@N`/`%N`, options (server-wide and per session),
// paste buffers, and wait-for channels. Sessions themselves stay t4a's; nothing here spawns.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { TerminalId } from "../protocol/fields.ts";
import type { Session } from "../session/session.ts";
import { defineCommand, StreamReply } from "./command.ts";
import type { DaemonContext } from "./context.ts";

const OPS = [
  "sessions",
  "reserve",
  "set_option",
  "buffer_set",
  "buffer_get",
  "buffer_delete",
  "buffer_list",
  "wait",
  "signal",
  "lock",
  "unlock",
  "clear_history",
] as const;

/** tmux's buffer-limit: automatically named buffers past it go, oldest first. */
const BUFFER_LIMIT = 50;
/** The most one buffer holds: what one request line carries (load-buffer's own bound too). */
const BUFFER_CHARS = 1024 * 1024;
/** Options held per scope (a script setting thousands is refused, not kept). */
const OPTION_LIMIT = 1000;
const Name = deferred(() => v.pipe(v.string(), v.minLength(1), v.maxLength(256)));

export const TmuxStateParams = deferred(() =>
  v.object({
    op: v.pipe(v.picklist(OPS), v.description("what to do")),
    id: v.optional(TerminalId),
    /** reserve: the session name a number is held for; set_option: the option; buffers: the buffer. */
    name: v.optional(Name),
    value: v.optional(v.pipe(v.string(), v.maxLength(65536))),
    unset: v.optional(v.boolean()),
    data: v.optional(v.string()),
    append: v.optional(v.boolean()),
    channel: v.optional(Name),
  }),
);

const Options = v.record(v.string(), v.string());

export const TmuxStateReply = deferred(() =>
  v.object({
    sessions: v.optional(
      v.array(v.object({ id: v.string(), number: v.number(), options: Options, remained: v.optional(v.boolean()) })),
    ),
    options: v.optional(Options),
    number: v.optional(v.number()),
    name: v.optional(v.string()),
    data: v.optional(v.string()),
    buffers: v.optional(v.array(v.object({ name: v.string(), size: v.number(), data: v.string() }))),
    woken: v.optional(v.boolean()),
    locked: v.optional(v.boolean()),
    waiting: v.optional(v.boolean()),
  }),
);

interface Channel {
  woken: boolean;
  waiters: Set<() => void>;
  locked: boolean;
  lockers: Array<() => void>;
}

class TmuxState {
  #next = 0;
  readonly numbers = new WeakMap<Session, number>();
  /** Numbers handed to a `new-session` before its create: the session of that name takes it. */
  readonly pending = new Map<string, number>();
  readonly options = new WeakMap<Session, Map<string, string>>();
  readonly global = new Map<string, string>();
  /** Most recent first, as tmux lists them. */
  buffers: Array<{ name: string; data: string; automatic: boolean }> = [];
  #bufferCount = 0;
  readonly channels = new Map<string, Channel>();
  /** Whether a session's pane stayed when its program ended: remain-on-exit as it was then. */
  readonly remained = new WeakMap<Session, boolean>();

  /** tmux decides at the exit: the option set afterwards does not bring an ended pane back. */
  exited(session: Session, code: unknown, signal: unknown): void {
    const value = this.options.get(session)?.get("remain-on-exit") ?? this.global.get("remain-on-exit") ?? "off";
    const failed = (code !== 0 && code !== undefined) || (signal !== null && signal !== undefined);
    this.remained.set(session, value === "on" || (value === "failed" && failed));
  }

  take(): number {
    return this.#next++;
  }

  numberOf(session: Session): number {
    let number = this.numbers.get(session);
    if (number === undefined) {
      number = this.pending.get(session.id) ?? this.take();
      this.pending.delete(session.id);
      this.numbers.set(session, number);
    }
    return number;
  }

  optionsOf(session: Session): Map<string, string> {
    let options = this.options.get(session);
    if (!options) {
      options = new Map();
      this.options.set(session, options);
    }
    return options;
  }

  newBufferName(): string {
    return `buffer${String(this.#bufferCount++).padStart(4, "0")}`;
  }

  channel(name: string): Channel {
    let channel = this.channels.get(name);
    if (!channel) {
      channel = { woken: false, waiters: new Set(), locked: false, lockers: [] };
      this.channels.set(name, channel);
    }
    return channel;
  }

  /** A channel nobody waits on, holds or has woken is forgotten (tmux frees it too). */
  tidy(name: string): void {
    const channel = this.channels.get(name);
    if (channel && !channel.woken && !channel.locked && channel.waiters.size === 0 && channel.lockers.length === 0)
      this.channels.delete(name);
  }
}

// Keyed by the daemon's sessions, not the context: each connection has a context of its own.
const states = new WeakMap<DaemonContext["sessions"], TmuxState>();
function stateOf(ctx: DaemonContext): TmuxState {
  let state = states.get(ctx.sessions);
  if (!state) {
    const made = new TmuxState();
    state = made;
    states.set(ctx.sessions, made);
    ctx.bus.subscribe(undefined, (event) => {
      const id = (event as { terminal?: unknown }).terminal;
      if (event.event === "exit" && typeof id === "string" && ctx.sessions.has(id))
        made.exited(ctx.sessions.get(id), (event as { code?: unknown }).code, (event as { signal?: unknown }).signal);
    });
  }
  return state;
}

function need<T>(value: T | undefined, field: string, op: string): T {
  if (value === undefined) throw new T4aError("invalid_params", `tmux_state ${op} needs ${field}`);
  return value;
}

const fromMap = (map: Map<string, string>) => Object.fromEntries(map);

export const tmuxState = defineCommand({
  name: "tmux_state",
  params: TmuxStateParams,
  reply: TmuxStateReply,
  handle(params, ctx) {
    const state = stateOf(ctx);
    const { op } = params;
    switch (op) {
      case "sessions": {
        // Creation order, so numbers given now follow it as tmux's do.
        const sessions = ctx.sessions.list().map((session) => ({
          id: session.id,
          number: state.numberOf(session),
          options: fromMap(state.options.get(session) ?? new Map()),
          ...(state.remained.has(session) ? { remained: state.remained.get(session) } : {}),
        }));
        return { sessions, options: fromMap(state.global) };
      }
      case "reserve": {
        // Unnamed, a tmux session is named by its number.
        const number = state.take();
        const name = params.name ?? String(number);
        state.pending.set(name, number);
        return { number, name };
      }
      case "set_option": {
        const name = need(params.name, "name", op);
        const options = params.id === undefined ? state.global : state.optionsOf(ctx.sessions.get(params.id));
        if (params.unset) options.delete(name);
        else {
          if (!options.has(name) && options.size >= OPTION_LIMIT)
            throw new T4aError("busy", `more than ${OPTION_LIMIT} options in one scope`);
          options.set(name, need(params.value, "value", op));
        }
        return {};
      }
      case "buffer_set": {
        const data = need(params.data, "data", op);
        const existing = params.name === undefined ? undefined : state.buffers.find((b) => b.name === params.name);
        const appendTo = existing ?? (params.append && params.name === undefined ? state.buffers[0] : undefined);
        if (appendTo) {
          const grown = params.append ? appendTo.data + data : data;
          // Appending, one buffer would grow without end (each request is bounded, their sum not).
          if (grown.length > BUFFER_CHARS)
            throw new T4aError("busy", `buffer ${appendTo.name} would hold more than ${BUFFER_CHARS} characters`);
          appendTo.data = grown;
          return { name: appendTo.name };
        }
        // Named buffers are never dropped by tmux; here they are bounded like options (memory).
        if (params.name !== undefined && state.buffers.length >= BUFFER_LIMIT + OPTION_LIMIT)
          throw new T4aError("busy", `more than ${BUFFER_LIMIT + OPTION_LIMIT} buffers`);
        const name = params.name ?? state.newBufferName();
        state.buffers.unshift({ name, data, automatic: params.name === undefined });
        const automatic = state.buffers.filter((b) => b.automatic);
        if (automatic.length > BUFFER_LIMIT) {
          const oldest = automatic[automatic.length - 1]!;
          state.buffers = state.buffers.filter((b) => b !== oldest);
        }
        return { name };
      }
      case "buffer_get": {
        const buffer = params.name === undefined ? state.buffers[0] : state.buffers.find((b) => b.name === params.name);
        if (!buffer)
          throw new T4aError("not_found", params.name === undefined ? "no buffers" : `no buffer ${params.name}`);
        return { name: buffer.name, data: buffer.data };
      }
      case "buffer_delete": {
        const buffer = params.name === undefined ? state.buffers[0] : state.buffers.find((b) => b.name === params.name);
        if (!buffer)
          throw new T4aError("not_found", params.name === undefined ? "no buffers" : `no buffer ${params.name}`);
        state.buffers = state.buffers.filter((b) => b !== buffer);
        return { name: buffer.name };
      }
      case "buffer_list":
        return { buffers: state.buffers.map((b) => ({ name: b.name, size: Buffer.byteLength(b.data), data: b.data })) };
      case "wait": {
        // tmux: a signal that found nobody waiting is kept, and the next wait takes it at once.
        const name = need(params.channel, "channel", op);
        const channel = state.channel(name);
        if (channel.woken) {
          channel.woken = false;
          state.tidy(name);
          return { woken: true };
        }
        return new StreamReply({ waiting: true }, (sink) => {
          const wake = () => sink({ woken: true });
          channel.waiters.add(wake);
          // The waiter gone (its client killed by `timeout`), it takes no later signal.
          return () => {
            channel.waiters.delete(wake);
            state.tidy(name);
          };
        });
      }
      case "signal": {
        const name = need(params.channel, "channel", op);
        const channel = state.channel(name);
        if (channel.waiters.size === 0) channel.woken = true;
        for (const wake of [...channel.waiters]) wake();
        channel.waiters.clear();
        return {};
      }
      case "lock": {
        const name = need(params.channel, "channel", op);
        const channel = state.channel(name);
        if (!channel.locked) {
          channel.locked = true;
          return { locked: true };
        }
        return new StreamReply({ waiting: true }, (sink) => {
          let handed = false;
          const take = () => {
            handed = true;
            sink({ locked: true });
          };
          channel.lockers.push(take);
          return () => {
            if (handed) return;
            channel.lockers = channel.lockers.filter((locker) => locker !== take);
          };
        });
      }
      case "unlock": {
        const name = need(params.channel, "channel", op);
        const channel = state.channels.get(name);
        if (!channel?.locked) throw new T4aError("invalid_params", `channel ${name} not locked`);
        const next = channel.lockers.shift();
        if (next) next();
        else {
          channel.locked = false;
          state.tidy(name);
        }
        return {};
      }
      case "clear_history": {
        ctx.sessions.get(need(params.id, "id", op)).terminal.screen.clearHistory();
        return {};
      }
    }
  },
});
