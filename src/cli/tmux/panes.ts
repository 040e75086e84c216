// Targets (`-t name`, `=name`, `$1`, `@1`, `%1`, `name:0.0`) resolved to a t4a session, and the
// format variables of a pane. Reads the daemon only through Server; /proc only for what tmux
// itself reads there (the foreground program and its directory).
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { forDisplay, fromProgram } from "../../protocol/program-text.ts";
import type { Lookup } from "./format.ts";
import { TmuxError } from "./grammar.ts";
import { type Cell, findPane as findCell, layoutString } from "./layout.ts";
import { livePanes, type Pane, type Server, sessionsOf, type TmuxSession, type Window, windowOf } from "./server.ts";

/** The pane this command runs in, when it runs inside one of this server's panes. */
export function currentPaneNumber(server: Server): number | undefined {
  const tmux = process.env.TMUX;
  const pane = process.env.TMUX_PANE;
  if (!tmux || !pane || tmux.split(",")[0] !== server.socket) return undefined;
  const match = /^%(\d+)$/.exec(pane);
  return match ? Number(match[1]) : undefined;
}

/** The session a command without -t acts on: the caller's own, else the one made last. */
function currentSession(server: Server, panes: Pane[], sessions: TmuxSession[]): TmuxSession {
  const number = currentPaneNumber(server);
  const own = number === undefined ? undefined : panes.find((pane) => pane.number === number);
  const newest = own ?? panes[panes.length - 1];
  const session = newest && sessions.find((s) => s.name === newest.group);
  if (!session) throw new TmuxError(`no server running on ${server.label}`);
  return session;
}

function findSession(sessions: TmuxSession[], word: string): TmuxSession | undefined {
  if (/^\$\d+$/.test(word)) return sessions.find((session) => session.number === Number(word.slice(1)));
  if (word.startsWith("=")) return sessions.find((session) => session.name === word.slice(1));
  const exact = sessions.find((session) => session.name === word);
  if (exact) return exact;
  // tmux: a unique prefix, else an fnmatch pattern.
  const prefixed = sessions.filter((session) => session.name.startsWith(word));
  if (prefixed.length === 1) return prefixed[0];
  if (prefixed.length > 1) return undefined;
  if (/[*?[]/.test(word)) {
    const pattern = new RegExp(
      `^${word
        .replace(/[.+^${}()|\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\?/g, ".")}$`,
    );
    const matched = sessions.filter((session) => pattern.test(session.name));
    if (matched.length === 1) return matched[0];
  }
  return undefined;
}

/** A window of a session by its part of a target: index, `@N`, name, `^`, `$`, `!`, `+`, `-`. */
function findWindow(session: TmuxSession, word: string): Pane | undefined {
  const { windows, active } = session;
  if (["", "!", "{current}", "{last}"].includes(word)) return active;
  if (word === "^" || word === "{start}") return windows[0];
  if (word === "$" || word === "{end}") return windows[windows.length - 1];
  if (word === "+" || word === "{next}") return windows[(windows.indexOf(active) + 1) % windows.length];
  if (word === "-" || word === "{previous}")
    return windows[(windows.indexOf(active) - 1 + windows.length) % windows.length];
  if (word.startsWith("@")) return windows.find((pane) => `@${windowOf(pane).number}` === word);
  if (/^\d+$/.test(word)) return windows.find((pane) => pane.windowIndex === Number(word));
  const name = word.startsWith("=") ? word.slice(1) : word;
  const named = windows.filter((pane) => windowName(pane) === name);
  if (named.length === 1) return named[0];
  if (word.startsWith("=")) return undefined;
  const prefixed = windows.filter((pane) => windowName(pane).startsWith(name));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** A pane of a window by its part of a target: index, `%N`, `+`/`-`, `{top}`, `{left}`… */
function findPaneIn(window: Window, word: string): Pane | undefined {
  const { panes, active } = window;
  if (["", "{current}", "{active}", "!", "{last}"].includes(word)) return active;
  if (/^\d+$/.test(word)) return panes[Number(word)];
  if (word.startsWith("%")) return panes.find((pane) => `%${pane.number}` === word);
  const at = panes.indexOf(active);
  if (word === "+" || word === "{next}") return panes[(at + 1) % panes.length];
  if (word === "-" || word === "{previous}") return panes[(at - 1 + panes.length) % panes.length];
  // tmux's window_find_string: the pane at a point of the window (its middle, or an edge).
  const { sx, sy } = window.layout;
  const points: Record<string, [number, number]> = {
    "{top}": [Math.floor(sx / 2), 0],
    "{bottom}": [Math.floor(sx / 2), sy - 1],
    "{left}": [0, Math.floor(sy / 2)],
    "{right}": [sx - 1, Math.floor(sy / 2)],
    "{top-left}": [0, 0],
    "{top-right}": [sx - 1, 0],
    "{bottom-left}": [0, sy - 1],
    "{bottom-right}": [sx - 1, sy - 1],
  };
  const point = points[word];
  if (!point) return undefined;
  const [x, y] = point;
  return panes.find((pane) => {
    const cell = cellOf(pane);
    return x >= cell.xoff && x <= cell.xoff + cell.sx && y >= cell.yoff && y <= cell.yoff + cell.sy;
  });
}

/** A pane's cell in its window: size and offsets. */
export function cellOf(pane: Pane): { sx: number; sy: number; xoff: number; yoff: number } {
  const window = windowOf(pane);
  const found: Cell | undefined = findCell(window.layout, pane.number);
  return found ?? { sx: pane.cols, sy: pane.rows, xoff: 0, yoff: 0 };
}

/**
 * A target as tmux reads it: `%N` a pane, `@N` a window, else `session[:window[.pane]]` (a session
 * by `$N`, `=exact`, exact name, unique prefix or pattern; no window part: its current one). A
 * bare word for a window or pane target may also be a window of the current session. kind says
 * which error names a miss.
 */
export async function resolveTarget(
  server: Server,
  target: string | undefined,
  kind: "session" | "window" | "pane" = "pane",
): Promise<Pane> {
  const { global } = await server.state();
  const panes = await livePanes(server);
  const sessions = sessionsOf(panes, global);
  // tmux's server exits with its last session (exit-empty): a target then finds no server.
  if (!panes.length) throw new TmuxError(`no server running on ${server.label}`);
  if (target === undefined || target === "") {
    const number = currentPaneNumber(server);
    const own = number === undefined ? undefined : panes.find((pane) => pane.number === number);
    return own ?? currentSession(server, panes, sessions).active;
  }
  if (target.startsWith("%")) {
    const found = panes.find((pane) => `%${pane.number}` === target);
    if (!found) throw new TmuxError(`can't find pane: ${target}`);
    return found;
  }
  if (target.startsWith("@")) {
    const [windowPart, panePart] = [target.split(".")[0]!, target.split(".").slice(1).join(".")];
    const found = panes.find((pane) => `@${windowOf(pane).number}` === windowPart);
    if (!found) throw new TmuxError(`can't find window: ${windowPart}`);
    const pane = findPaneIn(windowOf(found), panePart);
    if (!pane) throw new TmuxError(`can't find pane: ${panePart}`);
    return pane;
  }
  const colon = target.indexOf(":");
  let sessionPart = colon < 0 ? target : target.slice(0, colon);
  let rest = colon < 0 ? undefined : target.slice(colon + 1);
  // `name.1` without a colon: a session named so, else a pane of the current window.
  if (colon < 0 && kind !== "session" && !findSession(sessions, sessionPart) && target.includes(".")) {
    const dot = target.lastIndexOf(".");
    sessionPart = target.slice(0, dot);
    rest = `.${target.slice(dot + 1)}`;
  }
  const session = sessionPart === "" ? currentSession(server, panes, sessions) : findSession(sessions, sessionPart);
  if (!session) {
    // A bare word with no session of that name may be a window or pane of the current session.
    if (colon < 0 && kind !== "session" && panes.length) {
      const current = currentSession(server, panes, sessions);
      const window = rest === undefined ? findWindow(current, target) : undefined;
      if (window) return window;
      const pane = rest === undefined ? findPaneIn(windowOf(current.active), target) : undefined;
      if (pane) return pane;
    }
    // tmux names what it looked for last: a bare word was tried as a session, window, then pane.
    const what = colon < 0 && rest === undefined ? kind : "session";
    throw new TmuxError(
      `can't find ${what}: ${(colon < 0 && rest === undefined ? target : sessionPart).replace(/^=/, "")}`,
    );
  }
  if (rest === undefined) return session.active;
  const dot = rest.indexOf(".");
  const windowPart = dot < 0 ? rest : rest.slice(0, dot);
  const panePart = dot < 0 ? "" : rest.slice(dot + 1);
  const window = findWindow(session, windowPart);
  if (!window) throw new TmuxError(`can't find window: ${windowPart}`);
  const pane = findPaneIn(windowOf(window), panePart);
  if (!pane) throw new TmuxError(`can't find pane: ${panePart}`);
  return pane;
}

/** The tmux session a pane's window is in. */
export async function sessionOf(server: Server, pane: Pane): Promise<TmuxSession> {
  const { global } = await server.state();
  return sessionsOf(await livePanes(server), global).find((s) => s.name === pane.group) ?? soleSession(pane);
}

/** A pane seen alone (an ended one tmux no longer lists): a session of its one window. */
export const soleSession = (pane: Pane): TmuxSession => ({
  name: pane.group,
  number: pane.sessionNumber,
  windows: [pane],
  active: pane,
  last: undefined,
  createdAt: pane.startedAt,
});

/** tmux's parse_window_name: the program's first word, without `exec `, a login `-`, a path. */
function programName(command: string): string {
  let name = command.replace(/^"/, "").split('"')[0]!;
  if (name.startsWith("exec ")) name = name.slice(5);
  name = name.replace(/^[ -]+/, "").split(" ")[0]!;
  if (name.startsWith("/")) name = name.slice(name.lastIndexOf("/") + 1);
  return name;
}

/** The foreground process group of the pane's terminal (what tmux asks tcgetpgrp for). */
function foregroundOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const tpgid = Number(fields[5]);
    return tpgid > 0 ? tpgid : pid;
  } catch {
    return pid;
  }
}

export function currentCommand(pane: Pane): string {
  if (!pane.alive) return programName(pane.cmdArgs.join(" "));
  for (const pid of [foregroundOf(pane.pid), pane.pid]) {
    try {
      const argv0 = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0];
      if (argv0) return forDisplay(fromProgram(programName(argv0)));
    } catch {}
  }
  return programName(pane.cmdArgs.join(" "));
}

export function currentPath(pane: Pane): string {
  if (pane.alive) {
    for (const pid of [foregroundOf(pane.pid), pane.pid]) {
      try {
        return forDisplay(fromProgram(readlinkSync(`/proc/${pid}/cwd`)));
      } catch {}
    }
  }
  return pane.cwd;
}

/**
 * The pane's terminal device, as its program has it open (tmux's pane_tty). The program chooses
 * its own stdin (`exec 0<"/dev/shm/$(printf '\e]0;x\a')"`): only a pseudo-terminal's name is one.
 */
function ttyOf(pane: Pane): string {
  if (!pane.alive) return "";
  try {
    const device = readlinkSync(`/proc/${pane.pid}/fd/0`);
    return /^\/dev\/pts\/\d+$/.test(device) ? device : "";
  } catch {
    return "";
  }
}

/** A window's name: rename-window's (kept on each of its panes), else its active pane's program. */
export function windowName(pane: Pane): string {
  const active = windowOf(pane).active;
  return active.options["t4a-window-name"] ?? pane.options["t4a-window-name"] ?? currentCommand(active);
}

/** tmux's layout string of the pane's window: checksum, size, offsets, the cells. */
export function layoutOf(pane: Pane): string {
  return layoutString(windowOf(pane).layout);
}

/** What some variables need beyond list: fetched only when a format names them. */
export interface PaneExtras {
  cursor?: { row: number; col: number; visible: boolean };
  historySize?: number;
  historyLimit?: number;
}

/** Names whose values need a request of their own. */
export const CURSOR_NAMES = ["cursor_x", "cursor_y", "cursor_flag"];
export const HISTORY_NAMES = ["history_size", "history_bytes"];
export const LIMIT_NAMES = ["history_limit"];

export async function extrasFor(server: Server, pane: Pane, names: Set<string>): Promise<PaneExtras> {
  const extras: PaneExtras = {};
  const wants = (list: string[]) => list.some((name) => names.has(name));
  if (wants(CURSOR_NAMES)) {
    const reply = await server.request({ cmd: "cursor", id: pane.id });
    extras.cursor = { row: Number(reply.row), col: Number(reply.col), visible: reply.visible === true };
  }
  if (wants(HISTORY_NAMES)) {
    const reply = await server.request({ cmd: "text", id: pane.id, region: "scrollback", start: 0, end: 0 });
    extras.historySize = Number(reply.total_lines);
  }
  if (wants(LIMIT_NAMES)) extras.historyLimit = await historyLimit(server, pane);
  return extras;
}

/** The session's history-limit option, else t4a's scrollback for new sessions. */
export async function historyLimit(server: Server, pane?: Pane): Promise<number> {
  const own = pane?.options["history-limit"];
  if (own !== undefined) return Number(own);
  const reply = await server.request({ cmd: "config" });
  return Number((reply.config as Record<string, unknown>).scrollback_lines);
}

/** Every variable of a pane (and its session and window), as tmux names them. */
export function paneLookup(
  server: Server,
  pane: Pane,
  session: TmuxSession,
  extras: PaneExtras,
  serverPid: number | undefined,
): Lookup {
  const values = paneValues(server, pane, session, extras, serverPid);
  return (name) => {
    if (Object.hasOwn(values, name)) return values[name]!();
    if (name.startsWith("@")) return pane.options[name];
    return undefined;
  };
}

/** The variable names formats can read (docs/tmux.md lists them; a test compares). */
export function variableNames(): string[] {
  const pane = { options: {}, cmdArgs: [] } as unknown as Pane;
  return Object.keys(paneValues({} as Server, pane, soleSession(pane), {}, undefined));
}

function paneValues(
  server: Server,
  pane: Pane,
  session: TmuxSession,
  extras: PaneExtras,
  serverPid: number | undefined,
): Record<string, () => string> {
  const seconds = (ms: number) => String(Math.floor(ms / 1000));
  const host = hostname();
  const window = windowOf(pane);
  const cell = cellOf(pane);
  const sameWindow = (other: Pane | undefined) => other !== undefined && windowOf(other) === window;
  const values: Record<string, () => string> = {
    session_name: () => session.name,
    session_id: () => `$${session.number}`,
    session_windows: () => String(session.windows.length),
    session_attached: () => String(Math.max(...session.windows.map((window) => window.viewers))),
    session_many_attached: () => (Math.max(...session.windows.map((window) => window.viewers)) > 1 ? "1" : "0"),
    session_created: () => seconds(session.createdAt),
    session_activity: () => seconds(Math.max(...session.windows.map((window) => window.lastOutputAt))),
    session_last_attached: () => seconds(session.createdAt),
    session_path: () => session.windows[0]!.cwd,
    session_grouped: () => "0",
    session_group: () => "",
    session_format: () => "1",
    window_index: () => String(pane.windowIndex),
    window_id: () => `@${window.number}`,
    window_name: () => windowName(pane),
    window_active: () => (sameWindow(session.active) ? "1" : "0"),
    window_panes: () => String(window.panes.length),
    window_width: () => String(window.layout.sx),
    window_height: () => String(window.layout.sy),
    window_layout: () => layoutOf(pane),
    window_visible_layout: () => layoutOf(pane),
    window_flags: () => (sameWindow(session.active) ? "*" : sameWindow(session.last) ? "-" : ""),
    window_raw_flags: () => (sameWindow(session.active) ? "*" : sameWindow(session.last) ? "-" : ""),
    window_zoomed_flag: () => "0",
    window_last_flag: () => (sameWindow(session.last) ? "1" : "0"),
    window_format: () => "1",
    pane_id: () => `%${pane.number}`,
    pane_index: () => String(Math.max(0, window.panes.indexOf(pane))),
    pane_pid: () => String(pane.pid),
    pane_current_command: () => currentCommand(pane),
    pane_current_path: () => currentPath(pane),
    pane_tty: () => ttyOf(pane),
    pane_start_command: () => pane.options["t4a-start-command"] ?? "",
    pane_width: () => String(cell.sx),
    pane_height: () => String(cell.sy),
    pane_title: () => forDisplay(fromProgram(pane.options["t4a-pane-title"] ?? (pane.title || host))),
    pane_dead: () => (pane.alive ? "0" : "1"),
    pane_dead_status: () => (pane.alive || pane.exitCode == null ? "" : String(pane.exitCode)),
    pane_dead_signal: () => (pane.alive || !pane.signal ? "" : pane.signal),
    pane_active: () => (window.active === pane ? "1" : "0"),
    pane_in_mode: () => "0",
    pane_mode: () => "",
    pane_left: () => String(cell.xoff),
    pane_top: () => String(cell.yoff),
    pane_right: () => String(cell.xoff + cell.sx - 1),
    pane_bottom: () => String(cell.yoff + cell.sy - 1),
    pane_at_left: () => (cell.xoff === 0 ? "1" : "0"),
    pane_at_right: () => (cell.xoff + cell.sx === window.layout.sx ? "1" : "0"),
    pane_at_top: () => (cell.yoff === 0 ? "1" : "0"),
    pane_at_bottom: () => (cell.yoff + cell.sy === window.layout.sy ? "1" : "0"),
    pane_format: () => "1",
    pane_synchronized: () => "0",
    pane_marked: () => "0",
    pane_last: () => "0",
    cursor_x: () => (extras.cursor ? String(extras.cursor.col) : ""),
    cursor_y: () => (extras.cursor ? String(extras.cursor.row) : ""),
    cursor_flag: () => (extras.cursor ? (extras.cursor.visible ? "1" : "0") : ""),
    history_size: () => String(extras.historySize ?? ""),
    history_limit: () => String(extras.historyLimit ?? ""),
    host: () => host,
    host_short: () => host.split(".")[0]!,
    pid: () => String(serverPid ?? ""),
    socket_path: () => server.socket,
    version: () => "3.3a",
    t4a_id: () => pane.id,
  };
  return values;
}
