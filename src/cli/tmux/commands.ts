// What each tmux command does over t4a's protocol commands: a pane is a t4a session, tmux's
// own state (numbers, options, buffers, channels) is tmux_state's. Output goes to `out`; a
// refusal is a TmuxError in tmux's words.
import {
  appendFileSync,
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  writeFileSync,
} from "node:fs";
import type { Reply } from "../../client/connection.ts";
import { expand, namesIn, type Lookup } from "./format.ts";
import { type ParsedCommand, TmuxError } from "./grammar.ts";
import { matchOption, OPTION_DEFAULTS } from "./options.ts";
import {
  type Cell,
  type Kind,
  LAYOUT_NAMES,
  findPane,
  leaves,
  named,
  parseLayout,
  resizePane,
  resizePaneTo,
  resizeWindow,
  split,
  copy as copyLayout,
} from "./layout.ts";
import { cellOf, currentPaneNumber, extrasFor, historyLimit, paneLookup, resolveTarget, sessionOf } from "./panes.ts";
import {
  liveSessions,
  remainsOnExit,
  type Pane,
  type Server,
  type TmuxSession,
  type Window,
  windowOf,
} from "./server.ts";
import { PROTOCOL_VERSION } from "../../protocol/fields.ts";
import { MAX_REQUEST_LINE_BYTES } from "../../protocol/limits.ts";

export interface Run {
  server: Server;
  /** What the line prints, written when it ends (or before an attach takes the terminal). */
  out: string[];
  /** The executable to run the pipe-pane helper with. */
  self: string[];
}

type Handler = (command: ParsedCommand, run: Run) => Promise<void>;

const flag = (command: ParsedCommand, name: string): string | undefined => {
  const value = command.flags.get(name);
  return typeof value === "string" ? value : undefined;
};
const has = (command: ParsedCommand, name: string) => command.flags.has(name);

/** A pane's variables, with the extras its format needs fetched, and options global ones behind. */
async function lookupFor(run: Run, pane: Pane, formats: string[]): Promise<Lookup> {
  const names = new Set(formats.flatMap((format) => [...namesIn(format)]));
  const extras = await extrasFor(run.server, pane, names);
  const pid = names.has("pid") ? Number((await run.server.info()).pid) : undefined;
  const { global } = await run.server.state();
  const session = await sessionOf(run.server, pane);
  const base = paneLookup(run.server, pane, session, extras, pid);
  // A user option: the pane's own, else its session's, else the global one.
  return (name) =>
    base(name) ?? (name.startsWith("@") ? (session.windows[0]!.options[name] ?? global[name]) : undefined);
}

async function expandFor(run: Run, pane: Pane, format: string): Promise<string> {
  return expand(format, await lookupFor(run, pane, [format]));
}

/** Each pane's line, those a -f filter keeps. */
async function listPanes(run: Run, panes: Pane[], format: string, filter: string | undefined): Promise<void> {
  for (const pane of panes) {
    const lookup = await lookupFor(run, pane, filter ? [format, filter] : [format]);
    if (filter !== undefined) {
      const kept = expand(filter, lookup);
      if (kept === "" || kept === "0") continue;
    }
    run.out.push(`${expand(format, lookup)}\n`);
  }
}

/** tmux's session_check_name: `:` and `.` become `_`. */
function sessionName(name: string): string {
  if (name === "") throw new TmuxError("invalid session: ");
  return name.replace(/[:.]/g, "_");
}

/** A `-x`/`-y` size: a number of cells, or a percentage of `whole`. */
function size(value: string | undefined, whole: number, what: string): number | undefined {
  if (value === undefined || value === "-") return undefined;
  const percent = /^(\d+)%$/.exec(value);
  const cells = percent ? Math.floor((whole * Number(percent[1])) / 100) : Number(value);
  if (!Number.isInteger(cells) || cells < 1 || cells > 1000) throw new TmuxError(`${what} ${value} invalid`);
  return cells;
}

async function setOption(run: Run, name: string, value: string | undefined, id?: string): Promise<void> {
  await run.server.request({
    cmd: "tmux_state",
    op: "set_option",
    name,
    ...(id ? { id } : {}),
    ...(value === undefined ? { unset: true } : { value }),
  });
  run.server.invalidate();
}

// ----- keys -----

/** tmux's key names (key-string.c) that t4a's send knows, lower-cased; tmux matches case-insensitively. */
const KEY_NAMES = new Set([
  "enter",
  "escape",
  "space",
  "bspace",
  "tab",
  "btab",
  "up",
  "down",
  "left",
  "right",
  "home",
  "end",
  "ic",
  "insert",
  "dc",
  "delete",
  "npage",
  "pagedown",
  "pgdn",
  "ppage",
  "pageup",
  "pgup",
  ...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
]);

/** The t4a key name for a send-keys word tmux reads as a key, else undefined (sent as text). */
export function keyName(word: string): string | undefined {
  // ^X is C-X.
  if (/^\^.$/.test(word)) return `C-${word[1]}`;
  let rest = word;
  let prefix = "";
  while (/^[CMS]-./.test(rest)) {
    prefix += rest.slice(0, 2);
    rest = rest.slice(2);
  }
  if (KEY_NAMES.has(rest.toLowerCase())) return prefix + rest;
  if ([...rest].length === 1 && prefix !== "") return prefix + rest;
  if ([...rest].length === 1) return undefined; // a plain character: as text
  return undefined;
}

/** send-keys's words as t4a send requests, in order: text and keys may interleave. */
function sendRequests(id: string, words: string[], literal: boolean, hex: boolean): Reply[] {
  const requests: Reply[] = [];
  let current: { input?: string; input_base64?: string; keys?: string[] } = {};
  const flush = () => {
    if (current.input !== undefined || current.input_base64 !== undefined || current.keys?.length)
      requests.push({ cmd: "send", id, ...current });
    current = {};
  };
  for (const word of words) {
    if (hex) {
      const bytes = word
        .split(/\s+/)
        .filter(Boolean)
        .map((byte) => {
          const value = Number.parseInt(byte, 16);
          if (!/^(0x)?[0-9a-fA-F]{1,2}$/.test(byte) || Number.isNaN(value)) throw new TmuxError(`invalid key: ${byte}`);
          return value;
        });
      if (current.keys?.length || current.input !== undefined) flush();
      current.input_base64 = Buffer.concat([
        Buffer.from(current.input_base64 ?? "", "base64"),
        Buffer.from(bytes),
      ]).toString("base64");
      continue;
    }
    const key = literal ? undefined : keyName(word);
    if (key) {
      current.keys = [...(current.keys ?? []), key];
      continue;
    }
    // Text after keys must wait for its own request: send writes text before keys.
    if (current.keys?.length) flush();
    current.input = (current.input ?? "") + word;
  }
  flush();
  return requests;
}

// ----- the commands -----

async function newSession(command: ParsedCommand, run: Run): Promise<void> {
  const { server } = run;
  const detached = has(command, "d");
  if (!detached && process.env.TMUX && !has(command, "A"))
    throw new TmuxError("sessions should be nested with care, unset $TMUX to force");
  await server.connect(true);
  const name = flag(command, "s") === undefined ? undefined : sessionName(flag(command, "s")!);
  if (name !== undefined) {
    const live = (await liveSessions(server)).find((session) => session.name === name);
    if (live) {
      if (!has(command, "A")) throw new TmuxError(`duplicate session: ${name}`);
      if (!detached) return attach(run, live.active, false);
      return;
    }
    // Ended windows tmux would have closed: the name is free again.
    for (const pane of (await server.state()).panes)
      if (
        !pane.alive &&
        !remainsOnExit(pane, (await server.state()).global) &&
        (pane.group === name || pane.id === name)
      )
        await server.request({ cmd: "kill", id: pane.id });
    server.invalidate();
  }
  const tty = !detached && process.stdout.isTTY;
  // A session renamed keeps its t4a id: a new one of the old name takes another id, in its group.
  const ids = new Set((await server.state()).panes.map((pane) => pane.id));
  let id = name;
  for (let n = 2; id !== undefined && ids.has(id); n++) id = `${name}-${n}`;
  const pane = await createPane(run, command, {
    id,
    ...(id !== name ? { group: name, windowIndex: 0, sessionNumber: undefined } : {}),
    cols: size(flag(command, "x"), 0, "width") ?? (tty ? process.stdout.columns : 80),
    rows: size(flag(command, "y"), 0, "height") ?? (tty ? process.stdout.rows : 24),
  });
  if (has(command, "P")) run.out.push(`${await expandFor(run, pane, flag(command, "F") ?? "#{session_name}:")}\n`);
  if (!detached) await attach(run, pane, false);
}

/**
 * new-window: another t4a session in the target's tmux session, at the next free index (or -t's),
 * the size of the session's current window; it becomes the current one unless -d.
 */
async function newWindow(command: ParsedCommand, run: Run): Promise<void> {
  const { server } = run;
  const target = flag(command, "t");
  const colon = target?.indexOf(":") ?? -1;
  // -t is a window: `session:index` places it there; a session (or nothing) takes the next index.
  const sessionPart = target === undefined ? undefined : colon < 0 ? target : target.slice(0, colon);
  const indexPart = target !== undefined && colon >= 0 ? target.slice(colon + 1) : undefined;
  const base = await resolveTarget(server, sessionPart === "" ? undefined : sessionPart, "session");
  const session = await sessionOf(server, base);
  const used = new Set(session.windows.map((pane) => pane.windowIndex));
  let index: number;
  if (indexPart !== undefined && indexPart !== "") {
    index = Number(indexPart);
    if (!Number.isInteger(index) || index < 0) throw new TmuxError(`can't find window: ${indexPart}`);
    const taken = session.windows.find((pane) => pane.windowIndex === index);
    if (taken && !has(command, "k")) throw new TmuxError(`create window failed: index ${index} in use`);
    if (taken) for (const pane of windowOf(taken).panes) await server.request({ cmd: "kill", id: pane.id });
  } else {
    const { global } = await server.state();
    index = Number(global["base-index"] ?? 0);
    while (used.has(index)) index++;
  }
  const ids = new Set((await server.state()).panes.map((pane) => pane.id));
  let id = `${session.name}.${index}`;
  for (let n = 2; ids.has(id); n++) id = `${session.name}.${index}-${n}`;
  const pane = await createPane(run, command, {
    id,
    cols: windowOf(session.active).layout.sx,
    rows: windowOf(session.active).layout.sy,
    group: session.name,
    windowIndex: index,
    sessionNumber: session.number,
  });
  if (!has(command, "d")) await makeCurrent(run, session, index);
  if (has(command, "P"))
    run.out.push(
      `${await expandFor(run, pane, flag(command, "F") ?? "#{session_name}:#{window_index}.#{pane_index}")}\n`,
    );
}

/** A window becomes its session's current one; the one before becomes its last (`-`). */
async function makeCurrent(run: Run, session: TmuxSession, index: number): Promise<void> {
  if (session.active.windowIndex === index) return;
  const { global } = await run.server.state();
  const before = (global[`t4a-last:${session.name}`] ?? "")
    .split(",")
    .filter((entry) => entry !== "" && entry !== String(index) && entry !== String(session.active.windowIndex));
  await setOption(run, `t4a-last:${session.name}`, [session.active.windowIndex, ...before].slice(0, 64).join(","));
  await setOption(run, `t4a-active:${session.name}`, String(index));
}

/** move-window: the window's t4a session re-labelled with another index and tmux session. */
async function moveWindow(command: ParsedCommand, run: Run): Promise<void> {
  const { server } = run;
  if (has(command, "r")) {
    const session = await sessionOf(server, await resolveTarget(server, flag(command, "t"), "session"));
    const { global } = await server.state();
    let next = Number(global["base-index"] ?? 0);
    const renumbered = new Map<number, number>();
    for (const pane of session.windows) {
      renumbered.set(pane.windowIndex, next);
      if (pane.windowIndex !== next)
        for (const member of windowOf(pane).panes) await setOption(run, "t4a-window-index", String(next), member.id);
      next++;
    }
    const remap = (list: string | undefined) =>
      (list ?? "")
        .split(",")
        .filter(Boolean)
        .map((index) => String(renumbered.get(Number(index)) ?? index))
        .join(",");
    await setOption(run, `t4a-active:${session.name}`, String(renumbered.get(session.active.windowIndex)));
    const last = remap(global[`t4a-last:${session.name}`]);
    if (last) await setOption(run, `t4a-last:${session.name}`, last);
    return;
  }
  const source = await resolveTarget(server, flag(command, "s"), "window");
  const given = flag(command, "t");
  // A session alone (no window part) means the next free index there, as `session:` does.
  const target = given !== undefined && !given.includes(":") && !/^[@%]/.test(given) ? `${given}:` : given;
  const colon = target?.indexOf(":") ?? -1;
  let destination: TmuxSession;
  let index: number;
  if (target !== undefined && colon >= 0 && target.slice(colon + 1) === "") {
    // `-t session:`: the next free index there.
    const part = target.slice(0, colon);
    destination = await sessionOf(server, await resolveTarget(server, part === "" ? undefined : part, "session"));
    const { global } = await server.state();
    index = Number(global["base-index"] ?? 0);
    while (destination.windows.some((pane) => pane.windowIndex === index)) index++;
  } else if (target !== undefined && colon >= 0 && /^\d+$/.test(target.slice(colon + 1))) {
    const part = target.slice(0, colon);
    destination = await sessionOf(server, await resolveTarget(server, part === "" ? undefined : part, "session"));
    index = Number(target.slice(colon + 1));
  } else {
    // A window target that names an existing window: its index, in use unless -k.
    const window = await resolveTarget(server, target, "window");
    destination = await sessionOf(server, window);
    index = window.windowIndex;
  }
  const taken = destination.windows.find((pane) => pane.windowIndex === index && pane !== source);
  if (taken) {
    if (!has(command, "k")) throw new TmuxError(`index in use: ${index}`);
    for (const pane of windowOf(taken).panes) await server.request({ cmd: "kill", id: pane.id });
  }
  if (taken === undefined && destination.name === source.group && source.windowIndex === index) return;
  for (const pane of windowOf(source).panes) {
    await setOption(run, "t4a-group", destination.name, pane.id);
    await setOption(run, "t4a-window-index", String(index), pane.id);
    await setOption(run, "t4a-session-number", String(destination.number), pane.id);
  }
  if (!has(command, "d")) await makeCurrent(run, destination, index);
}

/**
 * split-window: a new pane (a t4a session) in the target pane's window, its cell cut from the
 * target's as tmux's layout_split_pane cuts it (-h beside, else below; -l/-p its size; -b before).
 */
async function splitWindow(command: ParsedCommand, run: Run): Promise<void> {
  const { server } = run;
  const target = await resolveTarget(server, flag(command, "t"));
  const window = windowOf(target);
  const session = await sessionOf(server, target);
  const type: Kind = has(command, "h") ? "leftright" : "topbottom";
  const cell = cellOf(target);
  const whole = type === "leftright" ? cell.sx : cell.sy;
  let size = -1;
  const lines = flag(command, "l");
  const percent = flag(command, "p");
  const number = (text: string, words: (cause: string) => string) => {
    const value = /^\s*[-+]?\d+$/.test(text) ? Number(text) : Number.NaN;
    if (Number.isNaN(value)) throw new TmuxError(words("invalid"));
    if (value < 0) throw new TmuxError(words("too small"));
    if (value > 2147483647) throw new TmuxError(words("too large"));
    return value;
  };
  if (lines !== undefined) {
    if (lines.endsWith("%")) size = Math.floor((whole * number(lines.slice(0, -1), (c) => `percentage ${c}`)) / 100);
    else size = number(lines, (c) => `lines ${c}`);
  } else if (percent !== undefined) {
    size = Math.floor((whole * number(percent, (c) => `create pane failed: -p ${c}`)) / 100);
  }
  let layout: Cell;
  try {
    layout = split(copyLayout(window.layout), target.number, type, size, has(command, "b"), -1);
  } catch (error) {
    if (error instanceof RangeError) throw new TmuxError("no space for new pane");
    throw error;
  }
  const fresh = findPane(layout, -1)!;
  const ids = new Set((await server.state()).panes.map((pane) => pane.id));
  let n = window.panes.length;
  let id = `${session.name}.${window.index}.${n}`;
  while (ids.has(id)) id = `${session.name}.${window.index}.${++n}`;
  const pane = await createPane(run, command, {
    id,
    cols: fresh.sx,
    rows: fresh.sy,
    group: session.name,
    windowIndex: window.index,
    sessionNumber: session.number,
    split: { window, layout, active: !has(command, "d") },
  });
  if (has(command, "P"))
    run.out.push(
      `${await expandFor(run, pane, flag(command, "F") ?? "#{session_name}:#{window_index}.#{pane_index}")}\n`,
    );
}

/** The pane next to this one in a direction (-L -R -U -D), wrapping at the window's edge as tmux does. */
function paneBeside(pane: Pane, direction: "L" | "R" | "U" | "D"): Pane | undefined {
  const window = windowOf(pane);
  const me = cellOf(pane);
  const { sx, sy } = window.layout;
  const others = window.panes.filter((other) => other !== pane).map((other) => ({ other, cell: cellOf(other) }));
  const overlapsY = (c: typeof me) => c.yoff <= me.yoff + me.sy && me.yoff <= c.yoff + c.sy;
  const overlapsX = (c: typeof me) => c.xoff <= me.xoff + me.sx && me.xoff <= c.xoff + c.sx;
  const edge = {
    L: (c: typeof me) => overlapsY(c) && (me.xoff === 0 ? c.xoff + c.sx === sx : c.xoff + c.sx + 1 === me.xoff),
    R: (c: typeof me) => overlapsY(c) && (me.xoff + me.sx === sx ? c.xoff === 0 : c.xoff === me.xoff + me.sx + 1),
    U: (c: typeof me) => overlapsX(c) && (me.yoff === 0 ? c.yoff + c.sy === sy : c.yoff + c.sy + 1 === me.yoff),
    D: (c: typeof me) => overlapsX(c) && (me.yoff + me.sy === sy ? c.yoff === 0 : c.yoff === me.yoff + me.sy + 1),
  }[direction];
  return others.find(({ cell }) => edge(cell))?.other;
}

async function selectPane(command: ParsedCommand, run: Run): Promise<void> {
  let pane = await resolveTarget(run.server, flag(command, "t"));
  const title = flag(command, "T");
  if (title !== undefined) await setOption(run, "t4a-pane-title", title, pane.id);
  for (const direction of ["L", "R", "U", "D"] as const)
    if (has(command, direction)) pane = paneBeside(pane, direction) ?? pane;
  if (has(command, "l")) {
    const last = windowOf(pane).last;
    if (!last) throw new TmuxError("no last pane");
    pane = last;
  }
  const window = windowOf(pane);
  if (window.active !== pane && window.panes.length > 1)
    await run.server.saveLayout(window.layout, pane.number, window.panes);
}

/** kill-pane: the pane's t4a session; its cell goes to a neighbour (the window with its last pane). */
async function killPane(command: ParsedCommand, run: Run): Promise<void> {
  const pane = await resolveTarget(run.server, flag(command, "t"));
  const victims = has(command, "a") ? windowOf(pane).panes.filter((other) => other !== pane) : [pane];
  for (const victim of victims) await run.server.request({ cmd: "kill", id: victim.id });
  run.server.invalidate();
  // Read again: the window's layout settles (the neighbours resized) now, as tmux's does at once.
  await run.server.state();
}

/** kill-window: each pane of the window; its tmux session lives on while it has other windows. */
async function killWindow(command: ParsedCommand, run: Run): Promise<void> {
  const pane = await resolveTarget(run.server, flag(command, "t"), "window");
  const keep = has(command, "a") ? windowOf(pane) : undefined;
  const windows = keep
    ? (await sessionOf(run.server, pane)).windows.map(windowOf).filter((window) => window !== keep)
    : [windowOf(pane)];
  for (const window of windows)
    for (const member of window.panes) await run.server.request({ cmd: "kill", id: member.id });
  run.server.invalidate();
}

/** select-layout: a named layout (unique prefix) or a layout string, over the window's panes in order. */
async function selectLayout(command: ParsedCommand, run: Run): Promise<void> {
  const pane = await resolveTarget(run.server, flag(command, "t"));
  const window = windowOf(pane);
  const name = command.args[0];
  if (name === undefined) return;
  let layout: Cell | undefined;
  const numbers = window.panes.map((member) => member.number);
  if (/^[0-9a-f]{4},/.test(name)) {
    layout = parseLayout(name, true);
    if (!layout || leaves(layout).length !== numbers.length) throw new TmuxError(`invalid layout: ${name}`);
    leaves(layout).forEach((cell, i) => {
      cell.pane = numbers[i]!;
    });
  } else {
    const found = LAYOUT_NAMES.filter((layoutName) => layoutName.startsWith(name));
    if (found.length !== 1) throw new TmuxError(`invalid layout: ${name}`);
    const { global } = await run.server.state();
    const option = (key: string) => window.active.options[key] ?? global[key];
    layout = named(found[0]!, numbers, window.layout.sx, window.layout.sy, {
      "main-pane-width": option("main-pane-width"),
      "main-pane-height": option("main-pane-height"),
      "other-pane-width": option("other-pane-width"),
      "other-pane-height": option("other-pane-height"),
    });
  }
  if (numbers.length > 1) await run.server.saveLayout(layout, window.active.number, window.panes);
}

/** rename-session: the tmux session's name (its panes' group); the t4a sessions keep their ids. */
async function renameSession(command: ParsedCommand, run: Run): Promise<void> {
  const session = await sessionOf(run.server, await resolveTarget(run.server, flag(command, "t"), "session"));
  const name = sessionName(command.args[0]!);
  if (name === session.name) return;
  const sessions = await liveSessions(run.server);
  if (sessions.some((other) => other.name === name)) throw new TmuxError(`duplicate session: ${name}`);
  const { global } = await run.server.state();
  for (const window of session.windows.map(windowOf))
    for (const pane of window.panes) await setOption(run, "t4a-group", name, pane.id);
  for (const key of ["t4a-active", "t4a-last"]) {
    const value = global[`${key}:${session.name}`];
    if (value !== undefined) await setOption(run, `${key}:${name}`, value);
    if (value !== undefined) await setOption(run, `${key}:${session.name}`, undefined);
  }
}

interface PanePlace {
  /** The t4a session's id; unnamed: the number it is given. */
  id: string | undefined;
  cols: number;
  rows: number;
  /** For a window of an existing tmux session. */
  group?: string;
  windowIndex?: number;
  sessionNumber?: number;
  /** For a pane split-window adds: its window, the layout with the new pane as -1, and whether it becomes active. */
  split?: { window: Window; layout: Cell; active: boolean };
}

/** One pane as a t4a session: the command, directory, environment and name new-session/new-window ask for. */
async function createPane(run: Run, command: ParsedCommand, place: PanePlace): Promise<Pane> {
  const { server } = run;
  const reserved = await server.request({
    cmd: "tmux_state",
    op: "reserve",
    ...(place.id ? { name: place.id } : {}),
  });
  const id = String(reserved.name);
  const number = Number(reserved.number);
  const { global } = await server.state();
  const info = await server.info();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(global)) if (key.startsWith("t4a-env:")) env[key.slice(8)] = value;
  for (const entry of command.lists.get("e") ?? []) {
    const eq = entry.indexOf("=");
    if (eq <= 0) throw new TmuxError(`invalid environment: ${entry}`);
    env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  env.TMUX = `${server.socket},${info.pid},${place.sessionNumber ?? number}`;
  env.TMUX_PANE = `%${number}`;
  const shell = global["default-shell"] ?? process.env.SHELL ?? "/bin/sh";
  const words = command.args;
  const defaultCommand = global["default-command"];
  const agent = words.length ? await agentOf(words) : undefined;
  const argv =
    words.length > 1
      ? words
      : words.length === 1
        ? [shell, "-c", words[0]!]
        : defaultCommand
          ? [shell, "-c", defaultCommand]
          : undefined;
  const limit = global["history-limit"];
  const { callerEnv } = await import("../../spawn/env-keys.ts");
  await server.request(
    {
      cmd: "create",
      name: id,
      cols: place.cols,
      rows: place.rows,
      // A known agent CLI runs as `t4a create --agent NAME --direct -- ARGS` would: its state,
      // hooks and log are t4a's (decided by the command line the caller gave, nothing else).
      ...(agent
        ? { agent: agent.name, spawn_mode: "direct", ...(agent.args.length ? { agent_args: agent.args } : {}) }
        : argv
          ? { cmd_args: argv }
          : {}),
      cwd: flag(command, "c") ?? process.cwd(),
      env,
      // A tmux session gets the environment of whoever made it, as a tmux server's sessions do.
      client_env: callerEnv(true),
      inherit_env: true,
      ...(limit !== undefined ? { scrollback: Number(limit) } : {}),
    },
    {
      exists:
        place.group === undefined
          ? `duplicate session: ${id}`
          : `create window failed: index ${place.windowIndex} in use`,
    },
  );
  // What tmux knows of the pane beyond t4a's session, asked at once on the one connection.
  const options: Array<[string, string]> = [["t4a-made", "1"]];
  if (place.group !== undefined) {
    options.push(["t4a-group", place.group]);
    options.push(["t4a-window-index", String(place.windowIndex)]);
    options.push(["t4a-session-number", String(place.sessionNumber ?? number)]);
  }
  if (place.split) {
    const { window, layout, active } = place.split;
    findPane(layout, -1)!.pane = number;
    options.push(["t4a-window", String(window.number)]);
    const name = window.active.options["t4a-window-name"];
    if (name !== undefined) options.push(["t4a-window-name", name]);
    const fresh = { id, number, cols: place.cols, rows: place.rows, options: {} } as Pane;
    // The layout goes on the window's panes before anything reads them again.
    await server.saveLayout(layout, active ? number : window.active.number, [...window.panes, fresh]);
  }
  const windowName = flag(command, "n");
  if (windowName !== undefined) options.push(["t4a-window-name", windowName]);
  // pane_start_command: the command as it was given (tmux shows it, not the shell around it).
  if (words.length) options.push(["t4a-start-command", startCommand(words)]);
  const connection = await server.connect();
  const replies = await Promise.all(
    options.map(([name, value]) =>
      connection.request({ cmd: "tmux_state", op: "set_option", id, name, value, protocol: PROTOCOL_VERSION }),
    ),
  );
  for (const { reply } of replies) if (reply.ok !== true) throw new TmuxError(String(reply.error));
  server.invalidate();
  const pane = (await server.state()).panes.find((p) => p.id === id);
  if (!pane) throw new TmuxError(`${id}: ended as it started`);
  return pane;
}

/**
 * The agent preset a pane's command names: its first word is a preset's CLI by its bare name
 * (found on PATH as the preset is; a path names some other program), the rest plain words. A
 * shell line with anything but plain words (quotes, `$`, `;`, redirections) stays a shell line.
 */
export async function agentOf(words: string[]): Promise<{ name: string; args: string[] } | undefined> {
  const argv = words.length > 1 ? words : /^[\w@%+=:,./ -]+$/.test(words[0]!) ? words[0]!.trim().split(/ +/) : [];
  const cli = argv[0];
  if (!cli || cli.includes("/")) return undefined;
  const { PRESETS } = await import("../../spawn/agents/registry.ts");
  const preset = PRESETS.find((candidate) => candidate.cli === cli);
  return preset ? { name: preset.name, args: argv.slice(1) } : undefined;
}

/** Arguments as tmux's cmd_stringify_argv writes them: quoted where they hold blanks or quotes. */
function startCommand(words: string[]): string {
  return words.map((word) => (/[\s"'$\\]|^$/.test(word) ? `"${word.replace(/["\\$]/g, "\\$&")}"` : word)).join(" ");
}

async function attach(run: Run, pane: Pane, readOnly: boolean): Promise<void> {
  if (!process.stdin.isTTY) throw new TmuxError("open terminal failed: not a terminal");
  const { writeSync } = await import("node:fs");
  if (run.out.length) writeSync(1, run.out.splice(0).join(""));
  const connection = await run.server.connect();
  const { reply } = await connection.request({
    cmd: "attach",
    id: pane.id,
    ...(readOnly ? { read_only: true } : { cols: process.stdout.columns, rows: process.stdout.rows }),
  });
  if (reply.ok !== true) throw new TmuxError(String(reply.error));
  const { runAttach } = await import("../attach-ui.ts");
  // `mouse on` (the session's, else the global one): the wheel scrolls history as in tmux.
  const { global } = await run.server.state();
  const session = await sessionOf(run.server, pane);
  const mouse = (session.windows[0]?.options.mouse ?? global.mouse) === "on";
  await runAttach(connection, reply, {
    readOnly,
    detachKey: "C-\\",
    ...(mouse ? { wheel: await historyView(run.server, pane.id) } : {}),
  });
}

/** The history view the wheel shows, read on a connection of its own (the attach's is the terminal's). */
async function historyView(server: Server, id: string): Promise<import("../attach-ui.ts").HistoryView> {
  const { connectDaemon } = await import("../../client/connect.ts");
  const { Frame, FrameReader } = await import("../../protocol/frames.ts");
  const side = await connectDaemon(server.socket, false);
  const ask = async (request: Reply) => {
    const { reply } = await side.request({ ...request, protocol: PROTOCOL_VERSION });
    if (reply.ok !== true) throw new TmuxError(String(reply.error));
    return reply;
  };
  return {
    async lines(from, count) {
      const reply = await ask({ cmd: "text", id, region: "all", start: from, end: from + count, styles: true });
      return reply.lines as string[];
    },
    async historySize() {
      const reply = await ask({ cmd: "text", id, region: "scrollback", start: 0, end: 0 });
      return Number(reply.total_lines);
    },
    async replay() {
      // A read-only attach of a moment: its first frame is the screen as it is now.
      const once = await connectDaemon(server.socket, false);
      const { reply } = await once.request({ cmd: "attach", id, read_only: true, protocol: PROTOCOL_VERSION });
      if (reply.ok !== true) {
        once.close();
        return new Uint8Array();
      }
      return await new Promise<Uint8Array>((resolve) => {
        const reader = new FrameReader();
        once.takeRaw(
          (bytes) => {
            for (const frame of reader.push(bytes))
              if (frame.type === Frame.screen) {
                // Resolved first: closing calls the end callback at once.
                resolve(frame.payload);
                once.close();
              }
          },
          () => resolve(new Uint8Array()),
        );
      });
    },
  };
}

async function capturePane(command: ParsedCommand, run: Run): Promise<void> {
  const pane = await resolveTarget(run.server, flag(command, "t"));
  // tmux's line numbers: 0 is the screen's top row, negative ones the history above it.
  const line = (value: string | undefined, fallback: number, dash: number) => {
    if (value === undefined) return fallback;
    if (value === "-") return dash;
    const n = Number.parseInt(value, 10);
    if (Number.isNaN(n)) throw new TmuxError(`${value} invalid`);
    return n;
  };
  const huge = 1_000_000_000;
  let top = line(flag(command, "S"), 0, -huge);
  let bottom = line(flag(command, "E"), pane.rows - 1, pane.rows - 1);
  if (bottom > pane.rows - 1) bottom = pane.rows - 1;
  if (bottom < top) [top, bottom] = [bottom, top];
  // Rows counted from the bottom of history + screen: 0 is the screen's last row.
  const start = Math.max(0, pane.rows - 1 - bottom);
  const end = Math.max(start, pane.rows - top);
  const styled = has(command, "e") || has(command, "J") || has(command, "N");
  const reply = await run.server.request({
    cmd: "text",
    id: pane.id,
    region: "all",
    start,
    end,
    ...(styled
      ? { styles: has(command, "e"), join_wrapped: has(command, "J"), keep_spaces: has(command, "N") }
      : { trim: true }),
  });
  const lines = reply.lines as string[];
  const text = lines.map((row) => `${row}\n`).join("");
  if (has(command, "p")) run.out.push(text);
  else {
    const name = flag(command, "b");
    await run.server.request({ cmd: "tmux_state", op: "buffer_set", data: text, ...(name ? { name } : {}) });
  }
}

async function sendKeys(command: ParsedCommand, run: Run): Promise<void> {
  const pane = await resolveTarget(run.server, flag(command, "t"));
  if (has(command, "X")) {
    // Copy-mode commands: t4a has no copy mode, so a pane is never in it and cancel has nothing to do.
    if (command.args.length === 1 && command.args[0] === "cancel") return;
    throw new TmuxError(`t4a does not implement send-keys -X ${command.args.join(" ")}: t4a has no copy mode`);
  }
  if (!pane.alive) throw new TmuxError(`can't send keys: pane %${pane.number} is dead`);
  const repeat = flag(command, "N") === undefined ? 1 : Number(flag(command, "N"));
  if (!Number.isInteger(repeat) || repeat < 1) throw new TmuxError(`repeat count ${flag(command, "N")} invalid`);
  const requests = sendRequests(pane.id, command.args, has(command, "l"), has(command, "H"));
  const connection = await run.server.connect();
  for (let i = 0; i < repeat; i++) {
    // Pipelined on the one connection: the daemon answers (and writes) them in order.
    const replies = await Promise.all(requests.map((request) => connection.request(request)));
    for (const { reply } of replies) if (reply.ok !== true) throw new TmuxError(String(reply.error));
  }
}

// tmux's own default formats, a part a line: "0: bash* (1 panes) [80x24] [layout …] @0 (active)".
const DEFAULT_SESSIONS_FORMAT = [
  "#{session_name}: #{session_windows} windows (created #{t:session_created})",
  "#{?session_grouped, (group ,}#{session_group}#{?session_grouped,),}",
  "#{?session_attached, (attached),}",
].join("");
const WINDOW_FORMAT = "#{window_name}#{window_raw_flags} (#{window_panes} panes) [#{window_width}x#{window_height}]";
const DEFAULT_WINDOWS_FORMAT = [
  `#{window_index}: ${WINDOW_FORMAT}`,
  " [layout #{window_layout}] #{window_id}",
  "#{?window_active, (active),}",
].join("");
const ALL_WINDOWS_FORMAT = `#{session_name}:#{window_index}: ${WINDOW_FORMAT} `;
const PANE_FORMAT_TAIL = [
  "#{pane_index}: [#{pane_width}x#{pane_height}]",
  " [history #{history_size}/#{history_limit}, #{history_bytes} bytes] #{pane_id}",
  "#{?pane_active, (active),}#{?pane_dead, (dead),}",
].join("");

async function listSessions(command: ParsedCommand, run: Run): Promise<void> {
  const sessions = await liveSessions(run.server);
  // tmux's server exits with its last session: then there is no server to list.
  if (!sessions.length) throw new TmuxError(`no server running on ${run.server.label}`);
  const current = sessions.map((session) => session.active);
  await listPanes(run, current, flag(command, "F") ?? DEFAULT_SESSIONS_FORMAT, flag(command, "f"));
}

/** Every window of every session (-a), else of the target's session. */
async function windowsFor(command: ParsedCommand, run: Run, all: boolean): Promise<Pane[]> {
  if (all) {
    const sessions = await liveSessions(run.server);
    if (!sessions.length) throw new TmuxError(`no server running on ${run.server.label}`);
    return sessions.flatMap((session) => session.windows);
  }
  return (await sessionOf(run.server, await resolveTarget(run.server, flag(command, "t"), "session"))).windows;
}

/** Every pane of those windows, in order. */
const panesOf = (windows: Pane[]): Pane[] => windows.flatMap((window) => windowOf(window).panes);

async function listWindows(command: ParsedCommand, run: Run): Promise<void> {
  const all = has(command, "a");
  const panes = await windowsFor(command, run, all);
  await listPanes(
    run,
    panes,
    flag(command, "F") ?? (all ? ALL_WINDOWS_FORMAT : DEFAULT_WINDOWS_FORMAT),
    flag(command, "f"),
  );
}

async function listPanesCommand(command: ParsedCommand, run: Run): Promise<void> {
  const all = has(command, "a");
  const panes =
    all || has(command, "s")
      ? panesOf(await windowsFor(command, run, all))
      : windowOf(await resolveTarget(run.server, flag(command, "t"), "window")).panes;
  const format =
    flag(command, "F") ??
    (all
      ? `#{session_name}:#{window_index}.${PANE_FORMAT_TAIL}`
      : has(command, "s")
        ? `#{window_index}.${PANE_FORMAT_TAIL}`
        : PANE_FORMAT_TAIL);
  // history_bytes is not kept by t4a: shown as 0.
  await listPanes(run, panes, format.replace("#{history_bytes}", "0"), flag(command, "f"));
}

async function displayMessage(command: ParsedCommand, run: Run): Promise<void> {
  const pane = await resolveTarget(run.server, flag(command, "t"));
  const format =
    command.args[0] ??
    flag(command, "F") ??
    "[#{session_name}] #{window_index}:#{window_name}, current pane #{pane_index}";
  run.out.push(`${has(command, "l") ? format : await expandFor(run, pane, format)}\n`);
}

/** Where set-option/show-options act: undefined = global; else a session's own options. */
async function optionScope(command: ParsedCommand, run: Run, window = false): Promise<Pane | undefined> {
  if (has(command, "g") || has(command, "s")) return undefined;
  const pane = await resolveTarget(run.server, flag(command, "t"));
  // A window's or pane's own (-w, -p) on it; a session's on its first window, whichever is current.
  if (window || has(command, "w") || has(command, "p")) return pane;
  return (await sessionOf(run.server, pane)).windows[0];
}

/** An option's full name (a unique prefix is enough, as in tmux); undefined: refused quietly (-q). */
function optionName(asked: string, quiet: boolean): string | undefined {
  const match = matchOption(asked);
  if (match && "name" in match) return match.name;
  if (quiet) return undefined;
  throw new TmuxError(match ? `ambiguous option: ${asked}` : `invalid option: ${asked}`);
}

function quoted(value: string): string {
  if (value === "") return "''";
  return /[\s"'\\#;$]/.test(value) ? `"${value.replace(/(["\\$])/g, "\\$1")}"` : value;
}

async function setOptionCommand(command: ParsedCommand, run: Run, window = false): Promise<void> {
  const [asked, given] = command.args as [string, string | undefined];
  const quiet = has(command, "q");
  const name = optionName(asked, quiet);
  if (name === undefined) return;
  const scope = await optionScope(command, run, window);
  const { global } = await run.server.state();
  const current = scope ? scope.options[name] : global[name];
  if (has(command, "u") || has(command, "U")) {
    await setOption(run, name, undefined, scope?.id);
    return;
  }
  if (has(command, "o") && current !== undefined) {
    if (quiet) return;
    throw new TmuxError(`already set: ${name}`);
  }
  let value = given;
  if (value === undefined) {
    // A flag option without a value toggles, as in tmux.
    const now = current ?? OPTION_DEFAULTS[name];
    if (now === "on" || now === "off") value = now === "on" ? "off" : "on";
    else throw new TmuxError(`empty value`);
  }
  if (has(command, "F")) value = scope ? await expandFor(run, scope, value) : value;
  if (has(command, "a") && current !== undefined) value = current + value;
  if (name === "history-limit") {
    const lines = Number(value);
    if (!Number.isInteger(lines) || lines < 0 || lines > 2147483647) throw new TmuxError(`value is invalid: ${value}`);
    // Global: t4a's scrollback for every session made after it (a session's own applies to no
    // pane already made: tmux sizes a pane's history when it makes it).
    if (!scope) await run.server.request({ cmd: "config", scrollback_lines: Math.max(lines, 1) });
  }
  await setOption(run, name, value, scope?.id);
}

async function showOptions(command: ParsedCommand, run: Run, window = false): Promise<void> {
  const scope = await optionScope(command, run, window);
  const { global } = await run.server.state();
  const own = scope ? scope.options : global;
  const visible = (key: string) => !key.startsWith("t4a-");
  const asked = command.args[0];
  const valueOnly = has(command, "v");
  const line = (key: string, value: string) => (valueOnly ? `${value}\n` : `${key} ${quoted(value)}\n`);
  if (asked !== undefined) {
    const name = optionName(asked, has(command, "q"));
    if (name === undefined) return;
    let value = own[name];
    if (value === undefined && !scope && name === "history-limit") value = String(await historyLimit(run.server));
    if (value === undefined && !scope) value = OPTION_DEFAULTS[name];
    if (value === undefined) {
      if (name.startsWith("@") && !has(command, "q")) throw new TmuxError(`invalid option: ${name}`);
      return;
    }
    run.out.push(line(name, value));
    return;
  }
  const values: Record<string, string> = scope
    ? {}
    : { ...OPTION_DEFAULTS, "history-limit": String(await historyLimit(run.server)) };
  for (const [key, value] of Object.entries(own)) if (visible(key)) values[key] = value;
  for (const key of Object.keys(values).sort()) run.out.push(line(key, values[key]!));
}

async function waitFor(command: ParsedCommand, run: Run): Promise<void> {
  const channel = command.args[0]!;
  const op = has(command, "S") ? "signal" : has(command, "L") ? "lock" : has(command, "U") ? "unlock" : "wait";
  const connection = await run.server.connect();
  const { reply } = await connection.request({ cmd: "tmux_state", op, channel, protocol: 1 });
  if (reply.ok !== true) throw new TmuxError(String(reply.error));
  if (reply.waiting !== true) return;
  for (;;) {
    const next = await connection.readLine();
    if (next === undefined) throw new TmuxError(`lost server`);
    if (next.woken === true || next.locked === true) return;
  }
}

async function resize(command: ParsedCommand, run: Run): Promise<void> {
  const pane = await resolveTarget(run.server, flag(command, "t"));
  const window = windowOf(pane);
  if (window.panes.length > 1) return resizeInLayout(command, run, pane, window);
  let cols = size(flag(command, "x"), pane.cols, "width") ?? pane.cols;
  let rows = size(flag(command, "y"), pane.rows, "height") ?? pane.rows;
  const adjustment = command.args[0] === undefined ? 1 : Number(command.args[0]);
  if (!Number.isInteger(adjustment) || adjustment < 1) throw new TmuxError(`adjustment ${command.args[0]} invalid`);
  if (has(command, "L")) cols = Math.max(1, cols - adjustment);
  if (has(command, "R")) cols = Math.min(1000, cols + adjustment);
  if (has(command, "U")) rows = Math.max(1, rows - adjustment);
  if (has(command, "D")) rows = Math.min(1000, rows + adjustment);
  if (cols === pane.cols && rows === pane.rows) return;
  await run.server.request({ cmd: "resize", id: pane.id, cols, rows });
  run.server.invalidate();
}

/** resize-pane/-window in a window of several panes: the layout changes as tmux's does, each pane follows its cell. */
async function resizeInLayout(command: ParsedCommand, run: Run, pane: Pane, window: Window): Promise<void> {
  const adjustment = command.args[0] === undefined ? 1 : Number(command.args[0]);
  if (!Number.isInteger(adjustment) || adjustment < 1) throw new TmuxError(`adjustment ${command.args[0]} invalid`);
  let layout = copyLayout(window.layout);
  if (command.spec.name === "resize-window") {
    let sx = size(flag(command, "x"), layout.sx, "width") ?? layout.sx;
    let sy = size(flag(command, "y"), layout.sy, "height") ?? layout.sy;
    if (has(command, "L")) sx = Math.max(1, sx - adjustment);
    if (has(command, "R")) sx = Math.min(1000, sx + adjustment);
    if (has(command, "U")) sy = Math.max(1, sy - adjustment);
    if (has(command, "D")) sy = Math.min(1000, sy + adjustment);
    layout = resizeWindow(layout, sx, sy);
  } else {
    const x = size(flag(command, "x"), layout.sx, "width");
    const y = size(flag(command, "y"), layout.sy, "height");
    if (x !== undefined) layout = resizePaneTo(layout, pane.number, "leftright", x);
    if (y !== undefined) layout = resizePaneTo(layout, pane.number, "topbottom", y);
    if (has(command, "L")) layout = resizePane(layout, pane.number, "leftright", -adjustment);
    if (has(command, "R")) layout = resizePane(layout, pane.number, "leftright", adjustment);
    if (has(command, "U")) layout = resizePane(layout, pane.number, "topbottom", -adjustment);
    if (has(command, "D")) layout = resizePane(layout, pane.number, "topbottom", adjustment);
  }
  await run.server.saveLayout(layout, window.active.number, window.panes);
}

async function bufferData(run: Run, name: string | undefined): Promise<Reply> {
  return run.server.request(
    { cmd: "tmux_state", op: "buffer_get", ...(name ? { name } : {}) },
    { not_found: name ? `no buffer ${name}` : "no buffers" },
  );
}

async function setBuffer(command: ParsedCommand, run: Run): Promise<void> {
  const name = flag(command, "b");
  const rename = flag(command, "n");
  if (rename !== undefined) {
    const old = await bufferData(run, name);
    await run.server.request({ cmd: "tmux_state", op: "buffer_set", name: rename, data: String(old.data) });
    await run.server.request({ cmd: "tmux_state", op: "buffer_delete", name: String(old.name) });
    if (command.args[0] === undefined) return;
  }
  const data = command.args[0];
  if (data === undefined) throw new TmuxError("no data specified");
  await run.server.request({
    cmd: "tmux_state",
    op: "buffer_set",
    data,
    append: has(command, "a"),
    ...(name ? { name } : {}),
  });
}

/** The most a buffer may hold: the daemon takes no request line longer. */
const BUFFER_BYTES = MAX_REQUEST_LINE_BYTES / 2;

/**
 * load-buffer's file: a regular file, or this process's own stdin (`-`, `/dev/stdin`), at most
 * BUFFER_BYTES. A FIFO or a device (a path a sandbox could have planted in a project) is refused
 * at once: opened without blocking, never waited on or read without end.
 */
function readBufferFile(path: string): string {
  let fd = 0;
  if (path !== "-") {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    const stat = fstatSync(fd);
    const stdin = (() => {
      try {
        return fstatSync(0);
      } catch {
        return undefined;
      }
    })();
    if (stdin && stat.dev === stdin.dev && stat.ino === stdin.ino && !stat.isFile()) {
      closeSync(fd);
      fd = 0;
    } else if (!stat.isFile()) {
      closeSync(fd);
      throw new TmuxError(`${path}: not a regular file`);
    }
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > BUFFER_BYTES) throw new TmuxError(`${path}: larger than a buffer may hold (${BUFFER_BYTES} bytes)`);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks).toString("utf8");
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

async function loadBuffer(command: ParsedCommand, run: Run): Promise<void> {
  const path = command.args[0]!;
  let data: string;
  try {
    data = readBufferFile(path);
  } catch (error) {
    if (error instanceof TmuxError) throw error;
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    throw new TmuxError(`${path}: ${missing ? "No such file or directory" : (error as Error).message}`);
  }
  const name = flag(command, "b");
  await run.server.request({ cmd: "tmux_state", op: "buffer_set", data, ...(name ? { name } : {}) });
}

async function pasteBuffer(command: ParsedCommand, run: Run): Promise<void> {
  const pane = await resolveTarget(run.server, flag(command, "t"));
  const name = flag(command, "b");
  let buffer: Reply;
  try {
    buffer = await bufferData(run, name);
  } catch (error) {
    // tmux: pasting when there is no buffer is no error, a missing named one is.
    if (name === undefined) return;
    throw error;
  }
  const separator = flag(command, "s") ?? (has(command, "r") ? "\n" : "\r");
  const data = String(buffer.data).replace(/\r?\n/g, separator);
  if (data !== "")
    await run.server.request({ cmd: "send", id: pane.id, input: data, ...(has(command, "p") ? { paste: true } : {}) });
  if (has(command, "d"))
    await run.server.request({ cmd: "tmux_state", op: "buffer_delete", name: String(buffer.name) });
}

async function pipePane(command: ParsedCommand, run: Run): Promise<void> {
  const pane = await resolveTarget(run.server, flag(command, "t"));
  const running = Number(pane.options["t4a-pipe-pid"] ?? 0);
  const alive = running > 0 && isPipeHelper(running);
  const shellCommand = command.args[0];
  // -o: only open a pipe when none is open (a toggle for key bindings).
  if (has(command, "o") && alive) return;
  if (alive) process.kill(running, "SIGTERM");
  if (running) await setOption(run, "t4a-pipe-pid", undefined, pane.id);
  if (shellCommand === undefined || shellCommand === "") return;
  const child = Bun.spawn([...run.self, "tmux-pipe", run.server.socket, pane.id, shellCommand], {
    stdio: ["ignore", "pipe", "ignore"],
    cwd: process.cwd(),
    detached: true,
  });
  // As tmux's, the pipe is open when pipe-pane returns: the helper says so once it is attached.
  const reader = child.stdout.getReader();
  const first = await reader.read();
  reader.releaseLock();
  child.unref();
  if (first.done || new TextDecoder().decode(first.value) !== "ok\n")
    throw new TmuxError(`pipe-pane: ${shellCommand}: could not be started`);
  await setOption(run, "t4a-pipe-pid", String(child.pid), pane.id);
}

/** A pid is still our pipe helper (not a reused number) when its command line says so. */
function isPipeHelper(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes("tmux-pipe");
  } catch {
    return false;
  }
}

async function setEnvironment(command: ParsedCommand, run: Run): Promise<void> {
  const [name, value] = command.args as [string, string | undefined];
  const scope = has(command, "g") ? undefined : await resolveTarget(run.server, flag(command, "t"), "session");
  const unset = has(command, "u") || has(command, "r");
  if (!unset && value === undefined) throw new TmuxError("no value specified");
  const expanded = has(command, "F") && scope && value !== undefined ? await expandFor(run, scope, value) : value;
  await setOption(run, `t4a-env:${name}`, unset ? undefined : expanded, scope?.id);
}

async function showEnvironment(command: ParsedCommand, run: Run): Promise<void> {
  const scope = has(command, "g") ? undefined : await resolveTarget(run.server, flag(command, "t"), "session");
  const { global } = await run.server.state();
  const own = scope ? scope.options : global;
  const entries = Object.entries(own)
    .filter(([key]) => key.startsWith("t4a-env:"))
    .map(([key, value]) => [key.slice(8), value] as const);
  const name = command.args[0];
  if (name !== undefined) {
    const found = entries.find(([key]) => key === name);
    if (!found) throw new TmuxError(`unknown variable: ${name}`);
    run.out.push(`${found[0]}=${found[1]}\n`);
    return;
  }
  for (const [key, value] of entries.sort()) run.out.push(`${key}=${value}\n`);
}

/**
 * kill-server: tmux's server is the sessions made through tmux. Those end; a t4a session made
 * otherwise (t4a create, the page, MCP) on the same socket is not tmux's to end, and keeps the
 * daemon running (said on stderr). With none such, the daemon shuts down as tmux's server exits.
 */
async function killServer(_command: ParsedCommand, run: Run): Promise<void> {
  const { panes } = await run.server.state();
  const ours = panes.filter((pane) => pane.madeByTmux);
  const others = panes.filter((pane) => !pane.madeByTmux);
  if (others.length) {
    for (const pane of ours) await run.server.request({ cmd: "kill", id: pane.id }, { not_found: "" }).catch(() => {});
    run.server.invalidate();
    process.stderr.write(
      `t4a: kill-server ended the ${ours.length} session(s) made through tmux; the t4a daemon keeps running for ` +
        `${others.length} session(s) made outside tmux (${others
          .slice(0, 5)
          .map((pane) => pane.id)
          .join(", ")}${others.length > 5 ? ", …" : ""}): t4a shutdown ends those too\n`,
    );
    return;
  }
  const reply = await run.server.request({ cmd: "shutdown" });
  run.server.close();
  // As `t4a shutdown`: answered once the daemon is gone, so a new-session right after starts anew.
  const { shutdown } = await import("../../commands/shutdown.ts");
  await shutdown.cli?.after?.(reply as Parameters<NonNullable<NonNullable<typeof shutdown.cli>["after"]>>[0]);
}

async function killSession(command: ParsedCommand, run: Run): Promise<void> {
  const target = await sessionOf(run.server, await resolveTarget(run.server, flag(command, "t"), "session"));
  const sessions = has(command, "a")
    ? (await liveSessions(run.server)).filter((session) => session.name !== target.name)
    : [target];
  for (const pane of sessions.flatMap((session) => session.windows.flatMap((window) => windowOf(window).panes)))
    await run.server.request({ cmd: "kill", id: pane.id });
  run.server.invalidate();
}

async function respawnPane(command: ParsedCommand, run: Run): Promise<void> {
  const pane = await resolveTarget(run.server, flag(command, "t"));
  if (command.args.length)
    throw new TmuxError("t4a does not implement respawn-pane with a new command (see docs/tmux.md)");
  if (pane.alive) {
    if (!has(command, "k")) throw new TmuxError(`pane %${pane.number} still active`);
    throw new TmuxError("t4a does not implement respawn-pane -k of a running pane (see docs/tmux.md)");
  }
  await run.server.request({ cmd: "restart", id: pane.id });
  run.server.invalidate();
}

const CONTROLS = /[\x00-\x1f\x7f]/g;
/** C1 and the bidi controls: shown as \\uXXXX (a buffer may hold a file a sandbox wrote). */
const WIDE_CONTROLS = /[\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const BUFFERS_FORMAT = '#{buffer_name}: #{buffer_size} bytes: "#{buffer_sample}"';

export const HANDLERS: Record<string, Handler> = {
  "new-session": newSession,
  "has-session": async (command, run) => {
    await resolveTarget(run.server, flag(command, "t"), "session");
  },
  "kill-session": killSession,
  "kill-server": killServer,
  "start-server": async (_command, run) => {
    await run.server.connect(true);
  },
  "list-sessions": listSessions,
  "list-windows": listWindows,
  "list-panes": listPanesCommand,
  "send-keys": sendKeys,
  "capture-pane": capturePane,
  "display-message": displayMessage,
  "set-option": (command, run) => setOptionCommand(command, run),
  "set-window-option": (command, run) => setOptionCommand(command, run, true),
  "show-options": showOptions,
  "show-window-options": (command, run) => showOptions(command, run, true),
  "set-environment": setEnvironment,
  "show-environment": showEnvironment,
  "wait-for": waitFor,
  "clear-history": async (command, run) => {
    const pane = await resolveTarget(run.server, flag(command, "t"));
    await run.server.request({ cmd: "tmux_state", op: "clear_history", id: pane.id });
  },
  "resize-window": resize,
  "resize-pane": resize,
  "set-buffer": setBuffer,
  "load-buffer": loadBuffer,
  "show-buffer": async (command, run) => {
    run.out.push(String((await bufferData(run, flag(command, "b"))).data));
  },
  "save-buffer": async (command, run) => {
    const data = String((await bufferData(run, flag(command, "b"))).data);
    const path = command.args[0]!;
    if (path === "-") run.out.push(data);
    else if (has(command, "a")) appendFileSync(path, data);
    else writeFileSync(path, data);
  },
  "delete-buffer": async (command, run) => {
    const name = flag(command, "b");
    await run.server.request(
      { cmd: "tmux_state", op: "buffer_delete", ...(name ? { name } : {}) },
      { not_found: name ? `unknown buffer: ${name}` : "no buffer" },
    );
  },
  "list-buffers": async (command, run) => {
    const reply = await run.server.request({ cmd: "tmux_state", op: "buffer_list" });
    const format = flag(command, "F") ?? BUFFERS_FORMAT;
    for (const buffer of reply.buffers as Array<{ name: string; size: number; data: string }>) {
      const lookup: Lookup = (name) =>
        name === "buffer_name"
          ? buffer.name
          : name === "buffer_size"
            ? String(buffer.size)
            : name === "buffer_sample"
              ? buffer.data
                  .slice(0, 50)
                  .replace(CONTROLS, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`)
                  .replace(WIDE_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
              : undefined;
      run.out.push(`${expand(format, lookup)}\n`);
    }
  },
  "paste-buffer": pasteBuffer,
  "pipe-pane": pipePane,
  "attach-session": async (command, run) => {
    const pane = await resolveTarget(run.server, flag(command, "t"), "session");
    await attach(run, pane, has(command, "r"));
  },
  "kill-pane": killPane,
  "kill-window": killWindow,
  "new-window": newWindow,
  "split-window": splitWindow,
  "move-window": moveWindow,
  "select-layout": selectLayout,
  "select-pane": selectPane,
  "rename-session": renameSession,
  "select-window": async (command, run) => {
    const pane = await resolveTarget(run.server, flag(command, "t"), "window");
    await makeCurrent(run, await sessionOf(run.server, pane), pane.windowIndex);
  },
  "rename-window": async (command, run) => {
    const pane = await resolveTarget(run.server, flag(command, "t"), "window");
    for (const member of windowOf(pane).panes) await setOption(run, "t4a-window-name", command.args[0]!, member.id);
  },
  "list-clients": async () => {},
  "respawn-pane": respawnPane,
};

/** Used by tests: which pane a command inside a pane acts on. */
export { currentPaneNumber };
