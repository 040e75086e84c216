// A child process on a pseudo-terminal: the only file that touches Bun's terminal API.
// It spawns, writes, resizes and ends processes and reports bytes and the exit; it never parses output.
import { readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { FairFeed } from "./fair-feed.ts";
import { procStat } from "./input-wanted.ts";
import { setOutputFlow, unreadInput } from "./libc.ts";
import { within } from "./within.ts";

export interface PtyExit {
  /** Exit status when the process exited normally, else null. */
  code: number | null;
  /** Signal name (e.g. "SIGKILL") when a signal ended the process, else null. */
  signal: string | null;
}

export interface PtyOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Called with every byte the program writes, in order, in fair shares per event-loop turn (fair-feed.ts). */
  onData: (chunk: Uint8Array) => void;
  /** Bytes given to onData that its screen has not parsed yet (it parses on a worker); see parsed(). */
  unparsed?: () => number;
  /** Called once, after the last byte has been delivered to onData. */
  onExit: (exit: PtyExit) => void;
}

/**
 * The emulator's answers to device queries (DA, DSR, CPR…) go unwritten while the program has
 * left this much of its input unread: Bun's terminal writer queues without bound, so a program
 * that floods queries and never reads would grow the daemon. A program that reads gets them all.
 */
const UNREAD_ANSWER_LIMIT_BYTES = 1024;
const ANSWER_RECHECK_MS = 50;

/** After the process exits, output still buffered in the kernel is drained until EOF or this much quiet. */
const DRAIN_QUIET_MS = 100;

/** termios c_iflag bit: XON/XOFF output flow control (Linux value). Raw-mode programs clear it. */
const IXON = 0o2000;
/** termios c_lflag bit: canonical mode, input is handed over a line at a time (Linux value). */
const ICANON = 0o2;
const ECHO = 0o10;
const XOFF = "\x13";
const XON = "\x11";

/**
 * Bun's `detached` spawn calls setsid() but never TIOCSCTTY, so the PTY would not be the child's
 * controlling terminal: no SIGINT from Ctrl-C, no SIGWINCH on resize, and shells like fish refuse
 * to start. A session leader acquires its controlling terminal by opening a tty, so this shim
 * (the same pid, exec'd away at once) re-opens its stdin's PTY and then execs the real program.
 */
const ACQUIRE_CONTROLLING_TTY = ["/bin/sh", "-c", 'exec 3<>/proc/self/fd/0 3>&-; exec "$@"', "t4a"];

export class Pty {
  readonly pid: number;
  readonly #terminal: Bun.Terminal;
  readonly #process: Bun.Subprocess;
  #eof = false;
  #exited: PtyExit | null = null;
  #reported = false;
  #endedBy: "eof" | "quiet" | undefined;
  #lastDataAt = 0;
  /** When the process was seen to exit: the quiet window counts from the later of this and the last data. */
  #exitedAt = 0;
  /** The quiet window has passed once; one more turn of the event loop (an I/O poll) confirms it. */
  #quietSeen = false;
  #drainTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #feed: FairFeed;
  readonly #onExit: (exit: PtyExit) => void;
  readonly #done: Promise<PtyExit>;
  #resolveDone!: (exit: PtyExit) => void;
  /**
   * The slave side's path (/dev/pts/N), to hold output and ask how much input the program left
   * unread; null: none found.
   */
  #tty: string | null | undefined;
  /** Holding output by the tty's own flow works here (false after it failed once: XOFF then). */
  #ttyFlow = true;
  /** How the held program was stopped, to restart it the same way. */
  #heldBy: "tty" | "xoff" | undefined;
  /** Answers not written because the program was not reading. */
  droppedAnswers = 0;
  /** Until then answers are dropped without asking the tty again (a query flood asks thousands a second). */
  #answersHeldUntil = 0;

  /** Throws when the program cannot be started (missing binary, bad cwd). */
  constructor(options: PtyOptions) {
    const program = options.argv[0] ?? "";
    if (!Bun.which(program, { PATH: options.env.PATH ?? "/usr/bin:/bin", cwd: options.cwd })) {
      throw new Error(`${program}: command not found or not executable`);
    }
    this.#onExit = options.onExit;
    this.#done = new Promise((resolve) => (this.#resolveDone = resolve));
    this.#feed = new FairFeed(
      options.onData,
      {
        enabled: () => this.flowControl,
        stop: () => this.#stopOutput(),
        start: () => this.#startOutput(),
      },
      options.unparsed,
    );
    this.#feed.onDrained = () => this.#maybeReport();
    // The terminal is made with the spawn, not beforehand with `new Bun.Terminal`: a Terminal
    // made on its own keeps the PTY's slave side open in the daemon (it can be spawned on again),
    // so no end of output ever came before close, and every exit waited DRAIN_QUIET_MS of quiet
    // (100 ms of each `seq 1 2000000`'s ~1 s). Made with the spawn, the slave is the program's
    // alone: its last holder closing it ends the output once every byte has been read.
    // detached = setsid(): the child leads its own session (the shim makes the PTY its
    // controlling terminal), so job control, Ctrl-C and SIGWINCH reach it, and kill() finds its whole tree.
    this.#process = Bun.spawn([...ACQUIRE_CONTROLLING_TTY, ...options.argv], {
      terminal: {
        cols: options.cols,
        rows: options.rows,
        data: (_terminal, chunk) => {
          this.#lastDataAt = performance.now();
          this.#feed.push(chunk);
        },
        exit: () => {
          this.#eof = true;
          this.#maybeReport();
        },
      },
      cwd: options.cwd,
      env: options.env,
      detached: true,
    });
    this.#terminal = this.#process.terminal!;
    this.pid = this.#process.pid;
    this.#process.exited.then(() => {
      this.#exited = {
        code: this.#process.exitCode,
        signal: this.#process.signalCode === null ? null : String(this.#process.signalCode),
      };
      this.#exitedAt = performance.now();
      this.#maybeReport();
    });
  }

  get alive(): boolean {
    return this.#exited === null;
  }

  /**
   * How the end of the output was known when the exit was reported: "eof", every holder of the
   * slave side closed it (or kill() stopped reading); "quiet", a background child held it and no
   * output came for a while.
   */
  get endedBy(): "eof" | "quiet" | undefined {
    return this.#endedBy;
  }

  /** Resolves once the exit has been reported (all output delivered). */
  get done(): Promise<PtyExit> {
    return this.#done;
  }

  /**
   * Whether the program's output can be held: by its tty's flow (tcflow, any program), else by
   * an XOFF where its terminal honours IXON (raw-mode programs turn it off).
   */
  get flowControl(): boolean {
    if (this.#terminal.closed) return false;
    return (this.#ttyFlow && this.#ttyPath() !== undefined) || (this.#terminal.inputFlags & IXON) !== 0;
  }

  /**
   * Whether the program's terminal hands it input a line at a time (canonical mode: a shell's
   * `read`, apt's prompt): what is typed reaches it only with Enter. A program in raw or cbreak
   * mode reads each key as it comes.
   */
  get readsLines(): boolean {
    return !this.#terminal.closed && (this.#terminal.localFlags & ICANON) !== 0;
  }

  /** Whether the tty echoes what is typed (off for a password read by getpass, `read -s`, sudo). */
  get echoes(): boolean {
    return !this.#terminal.closed && (this.#terminal.localFlags & ECHO) !== 0;
  }

  /**
   * The slave side's path, looked up when first needed, not at spawn: right after fork the
   * child's fds may not be the PTY yet. By the time it floods or asks a query, they are.
   */
  #ttyPath(): string | undefined {
    this.#tty ??= ttyOf(this.pid) ?? null;
    return this.#tty ?? undefined;
  }

  /**
   * Holds the program's output. The tty's flow holds at once and whatever comes in: an XOFF
   * typed into it went out only once Bun's reading of the turn was over (a flood ran megabytes
   * ahead), any input restarted it (IXANY), and raw-mode programs ignore it.
   */
  #stopOutput(): void {
    const tty = this.#ttyPath();
    if (tty && this.#ttyFlow && setOutputFlow(tty, false)) this.#heldBy = "tty";
    else if ((this.#terminal.inputFlags & IXON) !== 0) {
      this.#ttyFlow = false;
      this.#terminal.write(XOFF);
      this.#heldBy = "xoff";
    }
  }

  #startOutput(): void {
    if (this.#heldBy === "tty") setOutputFlow(this.#tty!, true);
    // A program that cleared IXON meanwhile was restarted by the kernel, and would read XON as a key.
    else if (this.#heldBy === "xoff" && !this.#terminal.closed && (this.#terminal.inputFlags & IXON) !== 0)
      this.#terminal.write(XON);
    this.#heldBy = undefined;
  }

  /** The screen parsed more of the output (flow control may restart the program). */
  parsed(): void {
    this.#feed.parsed();
  }

  write(data: string | Uint8Array): void {
    if (!this.#terminal.closed) this.#input(data);
  }

  /**
   * Input for the program. Where its terminal has IXANY (Linux's default for a PTY), any input
   * restarts output stopped with XOFF: the emulator's answers to the queries in a flood (`cat
   * /dev/urandom`) restarted a held program. One held so is stopped again at once.
   */
  #input(data: string | Uint8Array): void {
    this.#terminal.write(data);
    if (this.#heldBy === "xoff" && (this.#terminal.inputFlags & IXON) !== 0) this.#terminal.write(XOFF);
  }

  /**
   * Answers of the emulator to device queries (`answers` of them in `data`): written only while the program reads its
   * input.
   */
  answer(data: string, answers = 1): void {
    if (this.#terminal.closed) return;
    const now = performance.now();
    if (now < this.#answersHeldUntil) {
      this.droppedAnswers += answers;
      return;
    }
    const unread = this.unreadInput();
    if (unread !== undefined && unread >= UNREAD_ANSWER_LIMIT_BYTES) {
      this.#answersHeldUntil = now + ANSWER_RECHECK_MS;
      this.droppedAnswers += answers;
      return;
    }
    this.#input(data);
  }

  /** Bytes written to the program that it has not read yet (canonical mode: whole lines only); undefined: unknown. */
  unreadInput(): number | undefined {
    const tty = this.#ttyPath();
    return tty ? unreadInput(tty) : undefined;
  }

  /** The kernel delivers SIGWINCH to the foreground process group. */
  resize(cols: number, rows: number): void {
    if (!this.#terminal.closed) this.#terminal.resize(cols, rows);
  }

  /**
   * End the program and everything it started: SIGHUP to its process group (what a closing
   * terminal sends), then after the grace period SIGKILL to every process still in its session,
   * which also catches background jobs that a shell moved into their own process groups.
   */
  async kill(graceMs: number): Promise<PtyExit> {
    // A held program that writes on its way out would block until killed outright.
    this.#startOutput();
    // Daemons it started in sessions of their own (cline's hub): found while their parent
    // lives, since its exit hands them to init; hung up with it, killed with what is left.
    const escaped = this.alive ? escapedDescendants(this.pid) : [];
    for (const entry of escaped) signalPid(entry.pid, "SIGHUP");
    if (this.alive) {
      signalGroup(this.pid, "SIGHUP");
      const exitedInTime = await within<boolean>(
        graceMs,
        (settle) => void this.#process.exited.then(() => settle(true)),
        () => false,
      );
      if (!exitedInTime) signalGroup(this.pid, "SIGKILL");
    }
    await Bun.sleep(0);
    for (const pid of sessionMembers(this.pid)) signalPid(pid, "SIGKILL");
    for (const pid of stillRunning(escaped)) signalPid(pid, "SIGKILL");
    await this.#process.exited;
    // Nobody will read what is left: stop waiting for EOF from stragglers holding the slave.
    this.#eof = true;
    this.#feed.flush();
    this.#maybeReport();
    return this.#done;
  }

  /**
   * Report the exit once the process is gone and its output delivered: at EOF (the last holder of
   * the PTY closed it), or, when a background child keeps it open, after a quiet window counted
   * from the later of the exit and the last data (a program that printed and exited before its
   * first read still has everything read), confirmed by one more turn of the loop, so a busy
   * daemon whose timer fires before its read does not report over unread output.
   */
  #maybeReport(): void {
    if (this.#reported || !this.#exited || this.#feed.pending) return; // the backlog drains first
    if (!this.#eof) {
      const dataSeen = this.#lastDataAt;
      const quietFor = performance.now() - Math.max(dataSeen, this.#exitedAt);
      clearTimeout(this.#drainTimer);
      if (quietFor < DRAIN_QUIET_MS) {
        this.#quietSeen = false;
        this.#drainTimer = setTimeout(() => this.#maybeReport(), DRAIN_QUIET_MS - quietFor);
        return;
      }
      if (!this.#quietSeen) {
        this.#quietSeen = true;
        setImmediate(() => {
          if (this.#lastDataAt !== dataSeen) this.#quietSeen = false;
          this.#maybeReport();
        });
        return;
      }
    }
    this.#reported = true;
    this.#endedBy = this.#eof ? "eof" : "quiet";
    clearTimeout(this.#drainTimer);
    this.#terminal.close();
    this.#onExit(this.#exited);
    this.#resolveDone(this.#exited);
  }
}

/** The PTY slave the child got as its stdin, e.g. /dev/pts/3 (Linux /proc; undefined elsewhere). */
/**
 * The PTY the program runs on: its stdin's /dev/pts path, only when that is its controlling
 * terminal (what the shim made it): held output and queries go to its own terminal, never to
 * another one its stdin was pointed at.
 */
function ttyOf(pid: number): string | undefined {
  try {
    const path = readlinkSync(`/proc/${pid}/fd/0`);
    if (!/^\/dev\/pts\/\d+$/.test(path)) return undefined;
    // Field 7 of stat, after the command's closing parenthesis: tty_nr, the controlling terminal's device.
    const controlling = Number(readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]?.split(" ")[4]);
    return statSync(path).rdev === controlling ? path : undefined;
  } catch {
    return undefined;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/** A process as /proc/PID/stat tells it: its parent, session and start time (clock ticks since boot). */
interface ProcEntry {
  pid: number;
  ppid: number;
  sid: number;
  start: number;
}

/** Every live process (Linux /proc; empty elsewhere). */
export function processTable(): ProcEntry[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const table: ProcEntry[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const stat = procStat(pid); // undefined: it exited while we looked
    if (stat && stat.state !== "Z" && stat.state !== "X") table.push({ pid, ...stat });
  }
  return table;
}

/** The processes descended from `roots` in `table` (by parent links), the roots not included. */
export function descendants(table: ProcEntry[], roots: Set<number>): ProcEntry[] {
  const children = new Map<number, ProcEntry[]>();
  for (const entry of table) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry]);
  const found: ProcEntry[] = [];
  const queue = [...roots];
  const seen = new Set(queue);
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/**
 * Descendants of the session leader `sid` that left its session (setsid: a daemon such as
 * cline's `--cline-hub-daemon`), with what they started: no hangup of the terminal reaches them,
 * and once their parent exits nothing links them to the session any more.
 */
export function escapedDescendants(sid: number): ProcEntry[] {
  return descendants(processTable(), new Set([sid])).filter((entry) => entry.sid !== sid);
}

/**
 * Of `found`, the pids still running as the same processes (a pid reused since is left alone), and
 * what they started since.
 */
function stillRunning(found: ProcEntry[]): number[] {
  if (!found.length) return [];
  const table = processTable();
  const same = table.filter((entry) => found.some((old) => old.pid === entry.pid && old.start === entry.start));
  return [...same, ...descendants(table, new Set(same.map((entry) => entry.pid)))].map((entry) => entry.pid);
}

/** Live processes whose session id is `sid` (Linux /proc; empty elsewhere). */
export function sessionMembers(sid: number): number[] {
  return processTable()
    .filter((entry) => entry.sid === sid)
    .map((entry) => entry.pid);
}
