// Is the program in this terminal blocked reading it? On Linux the kernel says so: the terminal's
// foreground process group (field tpgid of /proc/PID/stat) has a task asleep in a system call
// that waits on the terminal, and no task of that group runs. Measured on Linux 6.18 (x86_64):
//   read -s -p Password: (bash)    read(0, …)         wchan wait_woken
//   python3 -c 'input()'           read(0, …)         wait_woken
//   cat                            read(0, …)         wait_woken
//   ssh asking a passphrase        read(4, …)         fd 4 is /dev/tty (device 5,0), not the pts
//   vim (insert mode)              pselect6(1, {0})   poll_schedule_timeout; its signal thread in rt_sigtimedwait
//   bash at its prompt             pselect6(1, {0})   poll_schedule_timeout
//   node TUIs (the agent CLIs)     epoll_wait(epfd)   the terminal among the epoll's fds (fdinfo)
//   sleep 30                       clock_nanosleep    (not reading: no)
//   while :; do :; done            state R            (not reading: no)
// "Waits on the terminal" is exact, not a guess from wchan: read's fd, select's fd set and poll's
// fd array (read from /proc/PID/mem, which the daemon may read as the processes' ancestor and
// owner), or the epoll's registered fds, must hold a file whose device is the terminal's own.
// Only read when output pauses (see Terminal), so its cost (a few small /proc reads) stays off
// busy sessions. Elsewhere (macOS) it answers undefined: not known.
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, statSync } from "node:fs";
import { forDisplay, fromProgram, type ProgramText, programTextValue } from "../protocol/program-text.ts";

/** A process blocked reading the terminal: who it is. */
export interface Reader {
  pid: number;
  /** Its command name (/proc/PID/comm): `sudo`, `python3`, `bash`; the program sets it itself (prctl). */
  process: ProgramText;
}

/** /dev/tty, "my controlling terminal": major 5, minor 0. */
const DEV_TTY = (5 << 8) | 0;

/** System call numbers that wait for input, per architecture (asm/unistd.h). */
const SYSCALLS: Record<string, { read: number[]; select: number[]; poll: number[]; epoll: number[] }> = {
  x64: { read: [0, 19], select: [23, 270], poll: [7, 271], epoll: [232, 281, 441] },
  arm64: { read: [63, 65], select: [72], poll: [73], epoll: [22, 441] },
};

const calls = SYSCALLS[process.arch];

/** Whether this machine can tell at all (Linux with a known architecture). */
export const canTellInputWanted = process.platform === "linux" && calls !== undefined;

/**
 * The foreground reader of the terminal whose session leader is `leader`, or null when nothing
 * reads it (busy, asleep, or waiting on something else); undefined when it cannot be told.
 */
export function terminalReader(leader: number): Reader | null | undefined {
  if (!canTellInputWanted) return undefined;
  const stat = procStat(leader);
  if (!stat || stat.ttyNr === 0 || stat.tpgid <= 0) return undefined;
  // The group's leader is usually alive and the reader (a shell job's first process): then the
  // rest of the group is not looked at. A pipeline's reader (`cmd | less`) is another member:
  // then all of /proc is looked through for the group (this kernel may lack task/N/children).
  const leaderAlive = procStat(stat.tpgid)?.pgrp === stat.tpgid;
  if (leaderAlive) {
    const reader = scan([stat.tpgid], stat.ttyNr);
    if (reader !== null) return reader ?? null;
  }
  return scan(groupMembers(stat.tpgid, leaderAlive ? stat.tpgid : undefined), stat.ttyNr) ?? null;
}

/**
 * The programs of the terminal's foreground process group (its members' executables' file names): a full-screen
 * program that polls its keys between sleeps (curses' nodelay: hatop) reads its terminal only for an instant, and
 * terminalReader finds nobody. Undefined when it cannot be told (not Linux, no group, a member unreadable).
 */
export function foregroundPrograms(leader: number): { pid: number; executable: string }[] | undefined {
  if (!canTellInputWanted) return undefined;
  const stat = procStat(leader);
  if (!stat || stat.ttyNr === 0 || stat.tpgid <= 0) return undefined;
  const programs = groupMembers(stat.tpgid).map((pid) => ({ pid, executable: executableOf(pid) }));
  return programs.length && programs.every((p) => p.executable !== undefined)
    ? (programs as { pid: number; executable: string }[])
    : undefined;
}

/**
 * Whether a thread of the terminal's foreground group runs now (state R, or D: busy, not waiting on anything a program
 * chose); undefined when it cannot be told.
 */
export function foregroundRuns(leader: number): boolean | undefined {
  const group = foregroundGroup(leader);
  return group && anyRuns(group);
}

/**
 * How many times a process's threads have given up the CPU (/proc/PID/task/TID/status, voluntary and not): one that
 * sleeps between looks at its keys wakes and adds to it; one asleep for good does not. Undefined when unreadable.
 */
export function switchCount(pid: number): number | undefined {
  let count = 0;
  for (const tid of tasks(pid)) {
    const status = text(`/proc/${pid}/task/${tid}/status`);
    if (!status) return undefined;
    for (const match of status.matchAll(/^(?:non)?voluntary_ctxt_switches:\s*(\d+)$/gm)) count += Number(match[1]);
  }
  return count;
}

/**
 * Whether what every thread of the terminal's foreground group waits in can be read (/proc/PID/task/TID/syscall): a
 * program this process may not trace (a setuid sudo's, run as another user) hides it, and then "nobody reads" found by
 * terminalReader is no more than "cannot be told".
 */
export function waitsKnown(leader: number): boolean {
  if (!canTellInputWanted) return false;
  const stat = procStat(leader);
  if (!stat || stat.ttyNr === 0 || stat.tpgid <= 0) return false;
  const members = groupMembers(stat.tpgid);
  return (
    members.length > 0 &&
    members.every((pid) => tasks(pid).every((tid) => text(`/proc/${pid}/task/${tid}/syscall`) !== undefined))
  );
}

/** The processes of the terminal's foreground group; undefined when it cannot be told. */
export function foregroundGroup(leader: number): number[] | undefined {
  if (!canTellInputWanted) return undefined;
  const stat = procStat(leader);
  if (!stat || stat.ttyNr === 0 || stat.tpgid <= 0) return undefined;
  return groupMembers(stat.tpgid);
}

/** Whether a thread of these processes runs or waits to run (state R or D): at work, or waiting for a core. */
export function anyRuns(pids: number[]): boolean {
  return pids.some((pid) => tasks(pid).some((tid) => running(taskState(pid, tid))));
}

/** Null: nobody reads; undefined: a member runs (so the group is busy whatever the others do). */
function scan(pids: number[], ttyNr: number): Reader | null | undefined {
  let reader: Reader | null = null;
  for (const pid of pids) {
    for (const tid of tasks(pid)) {
      const state = taskState(pid, tid);
      if (running(state)) return undefined;
      if (!reader && state === "S" && readsTerminal(pid, tid, ttyNr)) reader = { pid, process: comm(pid) };
    }
  }
  return reader;
}

function readsTerminal(pid: number, tid: number, ttyNr: number): boolean {
  const syscall = text(`/proc/${pid}/task/${tid}/syscall`)?.trim().split(" ");
  if (!syscall || syscall[0] === "running" || !calls) return false;
  const number = Number(syscall[0]);
  const arg = (i: number) => Number.parseInt(syscall[i + 1] ?? "", 16);
  // ssh and sudo open /dev/tty (device 5,0): the process's controlling terminal, ours here.
  const isTerminal = (fd: number) => {
    const device = deviceOf(pid, fd);
    return device === ttyNr || device === DEV_TTY;
  };
  if (calls.read.includes(number)) return isTerminal(arg(0));
  if (calls.select.includes(number)) return selectedFds(pid, arg(0), arg(1)).some(isTerminal);
  if (calls.poll.includes(number)) return polledFds(pid, arg(0), arg(1)).some(isTerminal);
  if (calls.epoll.includes(number)) return epollFds(pid, arg(0)).some(isTerminal);
  return false;
}

/** select's read set: a bitmap of `nfds` bits in the process's memory. */
function selectedFds(pid: number, nfds: number, address: number): number[] {
  if (!address || nfds <= 0 || nfds > 4096) return [];
  const bytes = memory(pid, address, Math.ceil(nfds / 64) * 8);
  if (!bytes) return [];
  const fds: number[] = [];
  for (let fd = 0; fd < nfds; fd++) if (bytes[fd >> 3]! & (1 << (fd & 7))) fds.push(fd);
  return fds;
}

/** poll's array of `struct pollfd { int fd; short events; short revents; }`: those asking POLLIN. */
function polledFds(pid: number, address: number, count: number): number[] {
  if (!address || count <= 0 || count > 4096) return [];
  const bytes = memory(pid, address, count * 8);
  if (!bytes) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fds: number[] = [];
  for (let i = 0; i < count; i++) if (view.getInt16(i * 8 + 4, true) & 1) fds.push(view.getInt32(i * 8, true));
  return fds;
}

/** An epoll's registered fds that wait for input (`tfd: N events: HEX` lines of its fdinfo). */
function epollFds(pid: number, epfd: number): number[] {
  const info = text(`/proc/${pid}/fdinfo/${epfd}`);
  if (!info) return [];
  const fds: number[] = [];
  for (const match of info.matchAll(/^tfd:\s*(\d+)\s+events:\s*([0-9a-f]+)/gm))
    if (Number.parseInt(match[2]!, 16) & 1) fds.push(Number(match[1]));
  return fds;
}

function memory(pid: number, address: number, length: number): Uint8Array | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/mem`, "r");
    const bytes = new Uint8Array(length);
    return readSync(fd, bytes, 0, length, address) === length ? bytes : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function deviceOf(pid: number, fd: number): number | undefined {
  try {
    return Number(statSync(`/proc/${pid}/fd/${fd}`).rdev);
  } catch {
    return undefined;
  }
}

export interface ProcStat {
  state: string;
  ppid: number;
  pgrp: number;
  /** Its session's id (the leader's pid). */
  sid: number;
  ttyNr: number;
  tpgid: number;
  /** Clock ticks after boot when it started (field 22): a reused pid starts later. */
  start: number;
}

/** /proc/PID/stat's fields after `(comm)`, which may itself hold spaces and parentheses. */
export function procStat(pid: number, tid?: number): ProcStat | undefined {
  const line = text(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`);
  if (!line) return undefined;
  const fields = line.slice(line.lastIndexOf(")") + 2).split(" ");
  return {
    state: fields[0]!,
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    sid: Number(fields[3]),
    ttyNr: Number(fields[4]),
    tpgid: Number(fields[5]),
    start: Number(fields[19]),
  };
}

const taskState = (pid: number, tid: number) => procStat(pid, tid)?.state;
/** A thread's state saying it runs or waits for a core (R), or waits on the disk (D): busy, not waiting on input. */
const running = (state: string | undefined) => state === "R" || state === "D";

function tasks(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}

/** Every process of a process group, from all of /proc (this kernel may lack task/N/children). */
function groupMembers(pgrp: number, except?: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === except) continue;
    if (procStat(pid)?.pgrp === pgrp) members.push(pid);
  }
  return members;
}

/**
 * The file name of the program a process runs (/proc/PID/exe: set by exec, not by the program as its name is), or
 * undefined when it cannot be read.
 */
export function executableOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`)
      .replace(/ \(deleted\)$/, "")
      .split("/")
      .pop();
  } catch {
    return undefined;
  }
}

const comm = (pid: number) => fromProgram(text(`/proc/${pid}/comm`)?.trim() ?? "");

function text(path: string): string | undefined {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return undefined;
  }
}

/** Output quiet this long before the kernel is asked: a prompt is drawn, then read. */
const FIRST_LOOK_MS = 250;
/** While nothing reads, ask again less and less often (a `sleep 5; read x` prints nothing first). */
const LONGEST_LOOK_MS = 4000;

/**
 * Input wanted, as a terminal reports it (list, wait, events, exec): the reading process and the line its prompt is on,
 * fit to show.
 */
export interface InputWanted {
  process: string;
  line: string;
}

/**
 * One terminal's "input wanted": looks when its output or input pauses, and again with a growing
 * gap while the program stays quiet without reading; tells once per pause when it reads.
 */
export class InputWantedWatch {
  /** Input wanted now, as last seen; undefined after any output or input, and once the program ended. */
  wanted: InputWanted | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #gap = FIRST_LOOK_MS;
  #lastActivityAt = 0;
  /** Counts pauses: a look confirmed a turn later is dropped when output or input came between. */
  #pause = 0;
  /** This pause's prompt line read blank once already (its bytes may not have been read yet). */
  #blankOnce = false;

  constructor(
    private readonly leader: () => number,
    /** The line the prompt sits on, read when the reader is found. */
    private readonly promptLine: () => ProgramText,
    private readonly onWanted: (wanted: InputWanted) => void,
  ) {
    this.activity();
  }

  /** Output was drawn or input written: what was known is stale; look again once it pauses. */
  activity(): void {
    this.wanted = undefined;
    this.#gap = FIRST_LOOK_MS;
    this.#lastActivityAt = performance.now();
    this.#pause++;
    this.#blankOnce = false;
    // One timer per pause, not one per chunk of a flood: it checks the pause when it fires.
    if (canTellInputWanted && !this.#timer) this.#arm(FIRST_LOOK_MS);
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#look(), ms);
  }

  #look(): void {
    this.#timer = undefined;
    const quietMs = performance.now() - this.#lastActivityAt;
    if (quietMs < FIRST_LOOK_MS) return this.#arm(FIRST_LOOK_MS - quietMs);
    const reader = terminalReader(this.leader());
    if (reader) return this.#confirm(reader);
    if (reader === undefined) return;
    this.#gap = Math.min(this.#gap * 2, LONGEST_LOOK_MS);
    this.#arm(this.#gap);
  }

  /**
   * A reader was found; the prompt it drew may not be on the screen yet. On a loaded machine a program can write
   * its prompt and block reading before the daemon has read those bytes (this look's timer ran first in the loop's
   * turn, or the kernel had not passed them on). So: one turn of the event loop (an I/O poll) first, and when the
   * prompt's line still reads blank, one more look a pause later (a `read` with no prompt is told then, not never).
   */
  #confirm(reader: Reader): void {
    const pause = this.#pause;
    setImmediate(() => {
      if (pause !== this.#pause || this.#timer) return;
      const line = this.promptLine();
      if (!programTextValue(line).trim() && !this.#blankOnce) {
        this.#blankOnce = true;
        return this.#arm(FIRST_LOOK_MS);
      }
      // Both are the program's: `prctl(PR_SET_NAME, "\e[1A\e[2K")` erased the line above in `t4a list`.
      this.wanted = { process: forDisplay(reader.process), line: forDisplay(line) };
      this.onWanted(this.wanted);
    });
  }

  dispose(): void {
    this.#pause++;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.wanted = undefined;
  }
}
