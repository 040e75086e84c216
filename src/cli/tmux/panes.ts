// Targets (`-t name`, `=name`, `$1`, `@1`, `%1`, `name:0.0`) resolved to a t4a session, and the
// format variables of a pane. Reads the daemon only through Server; /proc only for what tmux
// itself reads there (the foreground program and its directory).
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { forDisplay, fromProgram } from "../../protocol/program-text.ts";
import type { Lookup } from "./format.ts";
import { TmuxError } from "./grammar.ts";
import { livePanes, type Pane, type Server } from "./server.ts";

/** The pane this command runs in, when it runs inside one of this server's panes. */
export function currentPaneNumber(server: Server): number | undefined {
  const tmux = process.env.TMUX;
  const pane = process.env.TMUX_PANE;
  if (!tmux || !pane || tmux.split(",")[0] !== server.socket) return undefined;
  const match = /^%(\d+)$/.exec(pane);
  return match ? Number(match[1]) : undefined;
}

/** The session a command without -t acts on: the caller's own, else the newest. */
async function currentPane(server: Server, panes: Pane[]): Promise<Pane> {
  const number = currentPaneNumber(server);
  const own = number === undefined ? undefined : panes.find((pane) => pane.number === number);
  if (own) return own;
  const newest = panes[panes.length - 1];
  if (!newest) throw new TmuxError(`no server running on ${server.label}`);
  return newest;
}

function findSession(panes: Pane[], word: string): Pane | undefined {
  if (/^\$\d+$/.test(word)) return panes.find((pane) => pane.number === Number(word.slice(1)));
  if (word.startsWith("=")) return panes.find((pane) => pane.id === word.slice(1));
  const exact = panes.find((pane) => pane.id === word);
  if (exact) return exact;
  // tmux: a unique prefix, else an fnmatch pattern.
  const prefixed = panes.filter((pane) => pane.id.startsWith(word));
  if (prefixed.length === 1) return prefixed[0];
  if (prefixed.length > 1) return undefined;
  if (/[*?[]/.test(word)) {
    const pattern = new RegExp(
      `^${word
        .replace(/[.+^${}()|\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\?/g, ".")}$`,
    );
    const matched = panes.filter((pane) => pattern.test(pane.id));
    if (matched.length === 1) return matched[0];
  }
  return undefined;
}

/** A window part (`0`, `@3`, its name, `^`, `$`, `!`) names the session's one window or nothing. */
function isOurWindow(pane: Pane, word: string): boolean {
  if (["", "0", "^", "$", "!", "{start}", "{end}", "{last}", "{current}"].includes(word)) return true;
  if (word.startsWith("@")) return word === `@${pane.number}`;
  if (word.startsWith("=")) word = word.slice(1);
  return word === windowName(pane);
}

function isOurPane(pane: Pane, word: string): boolean {
  if (["", "0", "{top}", "{bottom}", "{left}", "{right}", "{last}", "{current}", "{active}", "!"].includes(word))
    return true;
  return word === `%${pane.number}`;
}

/**
 * A target as tmux reads it: `%N` a pane, `@N` a window, else `session[:window[.pane]]` (a session
 * by `$N`, `=exact`, exact name, unique prefix or pattern). kind says which error names a miss.
 */
export async function resolveTarget(
  server: Server,
  target: string | undefined,
  kind: "session" | "window" | "pane" = "pane",
): Promise<Pane> {
  const panes = await livePanes(server);
  if (target === undefined || target === "") return currentPane(server, panes);
  if (target.startsWith("%")) {
    const found = panes.find((pane) => `%${pane.number}` === target);
    if (!found) throw new TmuxError(`can't find pane: ${target}`);
    return found;
  }
  if (target.startsWith("@")) {
    const found = panes.find((pane) => `@${pane.number}` === target.split(".")[0]);
    if (!found) throw new TmuxError(`can't find window: ${target}`);
    return found;
  }
  const colon = target.indexOf(":");
  let sessionPart = colon < 0 ? target : target.slice(0, colon);
  let rest = colon < 0 ? undefined : target.slice(colon + 1);
  // `name.1` without a colon: a session named so, else a pane of the current window.
  if (colon < 0 && kind !== "session" && !findSession(panes, sessionPart) && target.includes(".")) {
    const dot = target.lastIndexOf(".");
    sessionPart = target.slice(0, dot);
    rest = `.${target.slice(dot + 1)}`;
  }
  let session: Pane | undefined;
  if (sessionPart === "") session = await currentPane(server, panes);
  else session = findSession(panes, sessionPart);
  if (!session) {
    // A bare word with no session of that name may be a window or pane of the current session.
    if (colon < 0 && kind !== "session" && panes.length) {
      const current = await currentPane(server, panes);
      if (isOurWindow(current, target) || isOurPane(current, target)) return current;
    }
    // tmux names what it looked for last: a bare word was tried as a session, window, then pane.
    const what = colon < 0 && rest === undefined ? kind : "session";
    throw new TmuxError(
      `can't find ${what}: ${(colon < 0 && rest === undefined ? target : sessionPart).replace(/^=/, "")}`,
    );
  }
  if (rest !== undefined) {
    const dot = rest.indexOf(".");
    const windowPart = dot < 0 ? rest : rest.slice(0, dot);
    const panePart = dot < 0 ? "" : rest.slice(dot + 1);
    if (!isOurWindow(session, windowPart)) throw new TmuxError(`can't find window: ${windowPart}`);
    if (!isOurPane(session, panePart)) throw new TmuxError(`can't find pane: ${panePart}`);
  }
  return session;
}

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

/** The pane's terminal device, as its program has it open (tmux's pane_tty). */
function ttyOf(pane: Pane): string {
  if (!pane.alive) return "";
  try {
    const device = readlinkSync(`/proc/${pane.pid}/fd/0`);
    return device.startsWith("/dev/") ? device : "";
  } catch {
    return "";
  }
}

export function windowName(pane: Pane): string {
  return pane.options["t4a-window-name"] ?? currentCommand(pane);
}

/** tmux's layout string of a window holding one pane: checksum, size, offsets, pane number. */
export function layoutOf(pane: Pane): string {
  const body = `${pane.cols}x${pane.rows},0,0,${pane.number}`;
  let sum = 0;
  for (const char of body) {
    sum = ((sum >> 1) + ((sum & 1) << 15)) & 0xffff;
    sum = (sum + char.charCodeAt(0)) & 0xffff;
  }
  return `${sum.toString(16).padStart(4, "0")},${body}`;
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
export function paneLookup(server: Server, pane: Pane, extras: PaneExtras, serverPid: number | undefined): Lookup {
  const values = paneValues(server, pane, extras, serverPid);
  return (name) => {
    if (Object.hasOwn(values, name)) return values[name]!();
    if (name.startsWith("@")) return pane.options[name];
    return undefined;
  };
}

/** The variable names formats can read (docs/tmux.md lists them; a test compares). */
export function variableNames(): string[] {
  const pane = { options: {}, cmdArgs: [] } as unknown as Pane;
  return Object.keys(paneValues({} as Server, pane, {}, undefined));
}

function paneValues(
  server: Server,
  pane: Pane,
  extras: PaneExtras,
  serverPid: number | undefined,
): Record<string, () => string> {
  const seconds = (ms: number) => String(Math.floor(ms / 1000));
  const host = hostname();
  const values: Record<string, () => string> = {
    session_name: () => pane.id,
    session_id: () => `$${pane.number}`,
    session_windows: () => "1",
    session_attached: () => String(pane.viewers),
    session_many_attached: () => (pane.viewers > 1 ? "1" : "0"),
    session_created: () => seconds(pane.startedAt),
    session_activity: () => seconds(pane.lastOutputAt),
    session_last_attached: () => seconds(pane.startedAt),
    session_path: () => pane.cwd,
    session_grouped: () => "0",
    session_group: () => "",
    session_format: () => "1",
    window_index: () => "0",
    window_id: () => `@${pane.number}`,
    window_name: () => windowName(pane),
    window_active: () => "1",
    window_panes: () => "1",
    window_width: () => String(pane.cols),
    window_height: () => String(pane.rows),
    window_layout: () => layoutOf(pane),
    window_visible_layout: () => layoutOf(pane),
    window_flags: () => "*",
    window_raw_flags: () => "*",
    window_zoomed_flag: () => "0",
    window_last_flag: () => "0",
    window_format: () => "1",
    pane_id: () => `%${pane.number}`,
    pane_index: () => "0",
    pane_pid: () => String(pane.pid),
    pane_current_command: () => currentCommand(pane),
    pane_current_path: () => currentPath(pane),
    pane_tty: () => ttyOf(pane),
    pane_start_command: () => pane.options["t4a-start-command"] ?? "",
    pane_width: () => String(pane.cols),
    pane_height: () => String(pane.rows),
    pane_title: () => forDisplay(fromProgram(pane.options["t4a-pane-title"] ?? (pane.title || host))),
    pane_dead: () => (pane.alive ? "0" : "1"),
    pane_dead_status: () => (pane.alive || pane.exitCode == null ? "" : String(pane.exitCode)),
    pane_dead_signal: () => (pane.alive || !pane.signal ? "" : pane.signal),
    pane_active: () => "1",
    pane_in_mode: () => "0",
    pane_mode: () => "",
    pane_left: () => "0",
    pane_top: () => "0",
    pane_right: () => String(pane.cols - 1),
    pane_bottom: () => String(pane.rows - 1),
    pane_at_left: () => "1",
    pane_at_right: () => "1",
    pane_at_top: () => "1",
    pane_at_bottom: () => "1",
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
