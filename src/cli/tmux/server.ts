// The tmux front end's view of one t4a daemon: which socket `-L`/`-S`/`$TMUX` name, the
// connection (opened once, for every command of the line), and the sessions as tmux's panes:
// `list` joined with tmux_state's numbers and options. Errors come out in tmux's words.
import type { DaemonConnection, Reply } from "../../client/connection.ts";
import { PROTOCOL_VERSION } from "../../protocol/fields.ts";
import { TmuxError } from "./grammar.ts";

/**
 * A t4a session as tmux sees it: a window holding one pane, in a tmux session (its `group`: the
 * session new-session made, named by it, and the windows new-window added to it).
 */
export interface Pane {
  id: string;
  /** The tmux session it belongs to (its own id unless new-window made it). */
  group: string;
  windowIndex: number;
  /** Behind `$N`: the number of the session's first pane. */
  sessionNumber: number;
  /** Behind `$N`, `@N` and `%N`: one number each, as the three are one here. */
  number: number;
  cols: number;
  rows: number;
  pid: number;
  alive: boolean;
  exitCode: number | null | undefined;
  signal: string | null | undefined;
  title: string;
  cwd: string;
  cmdArgs: string[];
  startedAt: number;
  lastOutputAt: number;
  viewers: number;
  options: Record<string, string>;
  /** Whether its pane stayed when its program ended, decided then (undefined: not seen ending). */
  remained: boolean | undefined;
}

export class Server {
  #connection: DaemonConnection | undefined;
  #panes: { panes: Pane[]; global: Record<string, string> } | undefined;
  #info: Reply | undefined;

  constructor(
    /** The t4a socket this tmux server is. */
    readonly socket: string,
    /** How tmux names it in "no server running on …". */
    readonly label: string,
  ) {}

  /** The connection; a daemon is started only for commands that make something (new-session). */
  async connect(start = false): Promise<DaemonConnection> {
    if (this.#connection) return this.#connection;
    const [{ connectDaemon }, { NoDaemon, DaemonUnreachable }] = await Promise.all([
      import("../../client/connect.ts"),
      import("../../client/errors.ts"),
    ]);
    try {
      this.#connection = await connectDaemon(this.socket, start);
    } catch (error) {
      if (error instanceof NoDaemon) {
        // tmux's two words: no socket at all, or a socket nobody answers on.
        const { existsSync } = await import("node:fs");
        if (!existsSync(this.socket))
          throw new TmuxError(`error connecting to ${this.label} (No such file or directory)`);
        throw new TmuxError(`no server running on ${this.label}`);
      }
      if (error instanceof DaemonUnreachable)
        throw new TmuxError(`error connecting to ${this.label} (${error.message})`);
      throw error;
    }
    return this.#connection;
  }

  get connected(): boolean {
    return this.#connection !== undefined;
  }

  close(): void {
    this.#connection?.close();
    this.#connection = undefined;
  }

  /** One request; a refusal becomes a TmuxError with the daemon's words unless `words` maps its code. */
  async request(request: Reply, words?: Partial<Record<string, string>>): Promise<Reply> {
    const connection = await this.connect();
    const { reply } = await connection.request({ ...request, protocol: PROTOCOL_VERSION });
    if (reply.ok !== true) {
      const code = String(reply.code);
      throw new TmuxError(words?.[code] ?? String(reply.error));
    }
    return reply;
  }

  /** The sessions (created order) and the global options; cached until something changes them. */
  async state(): Promise<{ panes: Pane[]; global: Record<string, string> }> {
    if (this.#panes) return this.#panes;
    const connection = await this.connect();
    // Both asked at once on the one connection: answered in order, one round trip.
    const [list, state] = await Promise.all([
      connection.request({ cmd: "list", protocol: PROTOCOL_VERSION }),
      connection.request({ cmd: "tmux_state", op: "sessions", protocol: PROTOCOL_VERSION }),
    ]);
    if (list.reply.ok !== true) throw new TmuxError(String(list.reply.error));
    if (state.reply.ok !== true) throw new TmuxError(String(state.reply.error));
    const extra = new Map(
      (
        state.reply.sessions as Array<{
          id: string;
          number: number;
          options: Record<string, string>;
          remained?: boolean;
        }>
      ).map((s) => [s.id, s]),
    );
    const panes: Pane[] = [];
    for (const t of list.reply.terminals as Reply[]) {
      const more = extra.get(String(t.id));
      if (!more) continue; // made between the two reads: seen next time
      const options = more.options;
      panes.push({
        id: String(t.id),
        group: options["t4a-group"] ?? String(t.id),
        windowIndex: Number(options["t4a-window-index"] ?? 0),
        sessionNumber: Number(options["t4a-session-number"] ?? more.number),
        number: more.number,
        cols: Number(t.cols),
        rows: Number(t.rows),
        pid: Number(t.pid),
        alive: t.alive === true,
        exitCode: t.exit_code as number | null | undefined,
        signal: t.signal as string | null | undefined,
        title: String(t.title ?? ""),
        cwd: String(t.cwd ?? ""),
        cmdArgs: (t.cmd_args as string[]) ?? [],
        startedAt: Number(t.started_at ?? Date.now()),
        lastOutputAt: Number(t.last_output_at ?? t.started_at ?? Date.now()),
        viewers: Number(t.viewers ?? 0),
        options: more.options,
        remained: more.remained,
      });
    }
    this.#panes = { panes, global: state.reply.options as Record<string, string> };
    return this.#panes;
  }

  /** After a change (a create, a kill, an option set), the next read asks again. */
  invalidate(): void {
    this.#panes = undefined;
  }

  async info(): Promise<Reply> {
    this.#info ??= await this.request({ cmd: "info" });
    return this.#info;
  }
}

/** remain-on-exit as tmux reads it for a pane: its own, else the global one. */
export function remainsOnExit(pane: Pane, global: Record<string, string>): boolean {
  if (pane.remained !== undefined) return pane.remained;
  const value = pane.options["remain-on-exit"] ?? global["remain-on-exit"] ?? "off";
  if (value === "on") return true;
  return value === "failed" && (pane.exitCode !== 0 || (pane.signal ?? null) !== null);
}

/**
 * The panes tmux would still have: a program that ended takes its pane (and so its session) with
 * it, unless remain-on-exit. t4a keeps the ended session (its screen, its exit code) for
 * `t4a list`; tmux's commands do not see it.
 */
export async function livePanes(server: Server): Promise<Pane[]> {
  const { panes, global } = await server.state();
  return panes.filter((pane) => pane.alive || remainsOnExit(pane, global));
}

/** A tmux session: its windows (each a t4a session) by index, and the one shown. */
export interface TmuxSession {
  name: string;
  number: number;
  windows: Pane[];
  active: Pane;
  /** The window current before it (tmux's last window, flagged `-`). */
  last: Pane | undefined;
  /** When its first window was made (ms since the epoch). */
  createdAt: number;
}

/** The tmux sessions the panes make, in tmux's order (by name). */
export function sessionsOf(panes: Pane[], global: Record<string, string>): TmuxSession[] {
  const groups = new Map<string, Pane[]>();
  for (const pane of panes) groups.set(pane.group, [...(groups.get(pane.group) ?? []), pane]);
  const sessions: TmuxSession[] = [];
  for (const [name, members] of groups) {
    const windows = members.sort((a, b) => a.windowIndex - b.windowIndex);
    const chosen = Number(global[`t4a-active:${name}`]);
    // tmux's stack of windows current before, most recent first: the ended ones drop out.
    const stack = (global[`t4a-last:${name}`] ?? "")
      .split(",")
      .filter(Boolean)
      .map((index) => windows.find((pane) => pane.windowIndex === Number(index)))
      .filter((pane) => pane !== undefined);
    // A current window that ended hands over to the last one, as tmux's does.
    const active = windows.find((pane) => pane.windowIndex === chosen) ?? stack[0] ?? windows[0]!;
    const last = stack.find((pane) => pane !== active);
    sessions.push({
      name,
      number: Math.min(...windows.map((pane) => pane.sessionNumber)),
      windows,
      active,
      last,
      createdAt: Math.min(...windows.map((pane) => pane.startedAt)),
    });
  }
  return sessions.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The live sessions and the global options, read once. */
export async function liveSessions(server: Server): Promise<TmuxSession[]> {
  const { global } = await server.state();
  return sessionsOf(await livePanes(server), global);
}
