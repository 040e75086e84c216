// The tmux front end's view of one t4a daemon: which socket `-L`/`-S`/`$TMUX` name, the
// connection (opened once, for every command of the line), and the sessions as tmux's panes:
// `list` joined with tmux_state's numbers and options. Errors come out in tmux's words.
import type { DaemonConnection, Reply } from "../../client/connection.ts";
import { PROTOCOL_VERSION } from "../../protocol/fields.ts";
import { TmuxError } from "./grammar.ts";
import { type Cell, close, findPane, fix, leaf, leaves, named, parseLayout, split, store } from "./layout.ts";

/**
 * A t4a session as tmux sees it: a pane of a window (split-window adds panes to it), in a tmux
 * session (its `group`: the session new-session made, named by it, and the windows new-window
 * added to it).
 */
export interface Pane {
  id: string;
  /** The tmux session it belongs to (its own id unless new-window made it). */
  group: string;
  windowIndex: number;
  /** Behind `$N`: the number of the session's first pane. */
  sessionNumber: number;
  /** Behind `%N` (and `@N` of a window it made): one count for the three, as tmux_state gives them. */
  number: number;
  /** Behind `@N`: the window it is a pane of (its own number unless split-window made it). */
  windowNumber: number;
  /** Made through tmux (kill-server ends these only). */
  madeByTmux: boolean;
  /** Its window, with the panes in tmux's order (set when the panes are read). */
  window?: Window;
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

/** A tmux window: its panes (each a t4a session) in layout order, the active one, the layout. */
export interface Window {
  number: number;
  index: number;
  group: string;
  panes: Pane[];
  active: Pane;
  /** The pane active before (select-pane -l), while it lives. */
  last?: Pane;
  layout: Cell;
}

/** The window a pane is in (a pane read alone: a window of its own). */
export function windowOf(pane: Pane): Window {
  pane.window ??= {
    number: pane.windowNumber ?? pane.number,
    index: pane.windowIndex,
    group: pane.group,
    panes: [pane],
    active: pane,
    layout: leaf(pane.number, pane.cols, pane.rows),
  };
  return pane.window;
}

/**
 * What a multi-pane window keeps on each of its panes (option `t4a-layout`): a sequence number
 * (the highest copy wins), the active pane and the layout tree. One option per pane, so it dies
 * with them.
 */
export interface StoredLayout {
  seq: number;
  active: number;
  /** The pane active before (select-pane -l). */
  last?: number;
  layout: Cell;
}

export function readStored(value: string | undefined): StoredLayout | undefined {
  const match = /^(\d+)\|(\d+)(?:,(\d+))?\|(.+)$/.exec(value ?? "");
  const layout = match && parseLayout(match[4]!);
  if (!layout) return undefined;
  const stored: StoredLayout = { seq: Number(match[1]), active: Number(match[2]), layout: fix(layout) };
  if (match[3] !== undefined) stored.last = Number(match[3]);
  return stored;
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
        windowNumber: Number(options["t4a-window"] ?? more.number),
        madeByTmux: options["t4a-made"] === "1",
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
    const global = state.reply.options as Record<string, string>;
    await this.#settle(panes, global);
    this.#panes = { panes, global };
    return this.#panes;
  }

  /**
   * The windows of the live panes, their layouts brought up to date: a pane that ended (or was
   * killed) gives its cell to its neighbour as tmux's layout_close_pane does, and the panes whose
   * cell changed are resized. tmux does this when the pane goes; here the next command does it.
   */
  async #settle(panes: Pane[], global: Record<string, string>): Promise<void> {
    const live = panes.filter((pane) => pane.alive || remainsOnExit(pane, global));
    const byWindow = new Map<number, Pane[]>();
    for (const pane of live) byWindow.set(pane.windowNumber, [...(byWindow.get(pane.windowNumber) ?? []), pane]);
    const writes: Array<Promise<unknown>> = [];
    for (const [number, members] of byWindow) {
      const stored = members
        .map((pane) => readStored(pane.options["t4a-layout"]))
        .filter((entry) => entry !== undefined)
        .sort((a, b) => b.seq - a.seq)[0];
      let layout: Cell;
      let changed = false;
      if (!stored) {
        layout = members.length === 1 ? leaf(members[0]!.number, members[0]!.cols, members[0]!.rows) : evenOf(members);
        changed = members.length > 1;
      } else {
        layout = stored.layout;
        const here = new Set(members.map((pane) => pane.number));
        for (const cell of leaves(layout)) {
          if (here.has(cell.pane!)) continue;
          layout = close(layout, cell.pane!) ?? leaf(members[0]!.number, members[0]!.cols, members[0]!.rows);
          changed = true;
        }
        for (const pane of members) {
          if (findPane(layout, pane.number)) continue;
          // Made while another client wrote the layout: below the last pane, else all even.
          const last = leaves(layout).at(-1)!;
          try {
            layout = split(layout, last.pane!, "topbottom", -1, false, pane.number);
          } catch {
            layout = evenOf(members);
          }
          changed = true;
        }
      }
      const order = leaves(layout).map((cell) => members.find((pane) => pane.number === cell.pane)!);
      // An active pane that ended hands over to the last one, as tmux's window_lost_pane does.
      const active =
        order.find((pane) => pane.number === stored?.active) ??
        order.find((pane) => pane.number === stored?.last) ??
        order[0]!;
      const last = order.find((pane) => pane.number === stored?.last && pane !== active);
      const window: Window = {
        number,
        index: order[0]!.windowIndex,
        group: order[0]!.group,
        panes: order,
        active,
        layout,
        ...(last ? { last } : {}),
      };
      for (const pane of order) pane.window = window;
      if (order.length === 1) {
        // One pane: the window is the pane's size, whatever resized it.
        const only = order[0]!;
        if (stored) {
          // The last pane of a split window takes the whole window, as in tmux.
          if (layout.sx !== only.cols || layout.sy !== only.rows) {
            writes.push(this.#resize(only.id, layout.sx, layout.sy));
            only.cols = layout.sx;
            only.rows = layout.sy;
          }
          writes.push(this.#write(only.id, undefined));
        }
        window.layout = leaf(only.number, only.cols, only.rows);
        continue;
      }
      for (const pane of order) {
        const cell = findPane(layout, pane.number)!;
        if (changed && (cell.sx !== pane.cols || cell.sy !== pane.rows))
          writes.push(this.#resize(pane.id, cell.sx, cell.sy));
        pane.cols = cell.sx;
        pane.rows = cell.sy;
      }
      if (changed) {
        const value = `${(stored?.seq ?? 0) + 1}|${active.number}${last ? `,${last.number}` : ""}|${store(layout)}`;
        for (const pane of order) writes.push(this.#write(pane.id, value));
      }
    }
    await Promise.all(writes);
  }

  async #write(id: string, value: string | undefined): Promise<void> {
    const connection = await this.connect();
    await connection.request({
      cmd: "tmux_state",
      op: "set_option",
      id,
      name: "t4a-layout",
      ...(value === undefined ? { unset: true } : { value }),
      protocol: PROTOCOL_VERSION,
    });
  }

  async #resize(id: string, cols: number, rows: number): Promise<void> {
    const connection = await this.connect();
    await connection.request({ cmd: "resize", id, cols, rows, protocol: PROTOCOL_VERSION });
  }

  /**
   * A window's new layout (and active pane) kept on its panes and each pane resized to its cell.
   * `panes` are the window's panes after the change (a new one included).
   */
  async saveLayout(layout: Cell, active: number, panes: Pane[]): Promise<void> {
    const before = panes
      .map((pane) => readStored(pane.options["t4a-layout"]))
      .filter((entry) => entry !== undefined)
      .sort((a, b) => b.seq - a.seq)[0];
    const seq = (before?.seq ?? 0) + 1;
    // The pane active until now becomes the last one (the first pane, when none was stored).
    const was = before?.active ?? panes[0]?.number;
    const last = was !== undefined && was !== active ? was : before?.last;
    const value = `${seq}|${active}${last !== undefined ? `,${last}` : ""}|${store(layout)}`;
    const writes: Array<Promise<unknown>> = [];
    for (const pane of panes) {
      const cell = findPane(layout, pane.number);
      if (!cell) continue;
      writes.push(this.#write(pane.id, value));
      if (cell.sx !== pane.cols || cell.sy !== pane.rows) writes.push(this.#resize(pane.id, cell.sx, cell.sy));
    }
    await Promise.all(writes);
    this.invalidate();
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

/**
 * The tmux sessions the panes make, in tmux's order (by name). A session's `windows` are its
 * windows' active panes, by index.
 */
export function sessionsOf(panes: Pane[], global: Record<string, string>): TmuxSession[] {
  const groups = new Map<string, Pane[]>();
  const seen = new Set<Window>();
  for (const pane of panes) {
    const window = windowOf(pane);
    if (seen.has(window) || window.active !== pane) continue;
    seen.add(window);
    groups.set(pane.group, [...(groups.get(pane.group) ?? []), window.active]);
  }
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

/** Panes of a window laid out evenly, top to bottom (a window whose layout was lost). */
function evenOf(members: Pane[]): Cell {
  const first = members[0]!;
  return named(
    "even-vertical",
    members.map((pane) => pane.number),
    first.cols,
    first.rows,
    {},
  );
}

/** The live sessions and the global options, read once. */
export async function liveSessions(server: Server): Promise<TmuxSession[]> {
  const { global } = await server.state();
  return sessionsOf(await livePanes(server), global);
}
