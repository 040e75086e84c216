// An action on one terminal (Actor): what it sends (keys, text, a click), what it looks at (the screen, the lines
// scrolled off, who reads the terminal), waiting on the screen within one deadline, and the reply it gives.
// Shared by choose, click and fill; it decides nothing about what to act on.
import * as v from "valibot";
import { T4aError } from "../../protocol/errors.ts";
import { forDisplay, fromProgram } from "../../protocol/program-text.ts";
import { detectElements } from "../../terminal/elements.ts";
import { anyRuns } from "../../terminal/input-wanted.ts";
import { keyBytes } from "../../terminal/keys.ts";
import { mouseBytes } from "../../terminal/mouse.ts";
import { findAgain, nameOf, rowText, type Target } from "../../terminal/targets.ts";
import type { Terminal } from "../../terminal/terminal.ts";
import { type Look, putAtCursor, sameLook } from "./look.ts";

export const ACT_TIMEOUT_MS = 10_000;

/** The fields every action takes besides its own: which terminal, what to act on, how long to wait. */
export const actFields = () => ({
  target: v.pipe(v.string(), v.minLength(1), v.description("a snapshot ref (e3, e3.2) or its text")),
  timeout_ms: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(600_000),
      v.description("wait this long for the effect (default 10 s)"),
    ),
    ACT_TIMEOUT_MS,
  ),
});

export const ActReply = () =>
  v.object({
    /** How it acted: a mouse click, or keys only. */
    via: v.picklist(["mouse", "keys"]),
    /** What was sent, in order: key names, "click ROW:COL", typed text in quotes. */
    sent: v.array(v.string()),
    /**
     * What the screen showed at the end, the action's goal state only: the item shown selected, the
     * question answered (gone, and a line showing the item meant), a box checked or unchecked, the
     * field holding the value (submitted: then taken with Enter), a button's dialog gone, a menu bar's button's
     * drop-down opened (a menu new on the screen, hung from it), a key hint's dialog opened (new, holding its words) or
     * its tab made current (selected), the program exited. `uncertain` when the screen
     * changed but shows none of these: `seen` says what it shows.
     */
    effect: v.picklist([
      "selected",
      "answered",
      "checked",
      "unchecked",
      "filled",
      "submitted",
      "gone",
      "opened",
      "exited",
      "uncertain",
    ]),
    /** What the screen shows when the effect is uncertain, or how a field that hides its text was judged. */
    seen: v.optional(v.string()),
    elapsed_ms: v.number(),
  });
export type ActReply = v.InferOutput<ReturnType<typeof ActReply>>;
export type Effect = ActReply["effect"];

/** Rounds of arrows, and how long each waits for the selection to show, before giving up. */
const MAX_ARROW_ROUNDS = 4;
const ARROW_ROUND_MS = 3000;

/** How long a screen that changed is watched for the goal state before the action says it is uncertain. */
export const SETTLE_MS = 2000;

/** Most Tab presses tried to bring the focus to a button or field. */
const MAX_TABS = 12;

/** Shells, by the file name of the program the process reading the terminal runs. */
export const SHELL = /^(?:(?:ba|da|z|k|mk|pdk|tc|c|a|y|po|rba|lk|o)?sh|fish|busybox|nu|elvish|pwsh|ksh93|ion)$/;

/** How often, and how far apart, the terminal's reader is looked for when none reads at the first look. */
const READER_LOOKS = 4;
const READER_GAP_MS = 60;
/** While the program is at work on the keys sent, the screen is looked at this often. */
const AT_WORK_LOOK_MS = 50;

/** One action on one terminal: what it sent, and a deadline for everything it waits on. */
export class Actor {
  readonly sent: string[] = [];
  via: "mouse" | "keys" = "keys";
  readonly #terminal: Terminal;
  readonly #started = performance.now();
  readonly #deadline: number;

  constructor(terminal: Terminal, timeoutMs: number) {
    this.#terminal = terminal;
    this.#deadline = this.#started + timeoutMs;
  }

  async look(): Promise<Look> {
    await this.#terminal.settled();
    const grid = this.#terminal.screen.cellGrid();
    const text = Array.from({ length: grid.rows }, (_, row) => rowText(grid, row)).join("\n");
    return { grid, elements: detectElements(grid), text };
  }

  /** How many lines have scrolled off the top into the history. */
  historyLength(): number {
    return this.#terminal.screen.regionLength("scrollback");
  }

  /** The last `count` lines that scrolled off the top (oldest first). */
  history(count: number): string[] {
    const total = this.historyLength();
    return count > 0 ? this.#terminal.screen.lines("scrollback", 0, Math.min(count, total), true) : [];
  }

  /** The lines entered at the terminal that the program holding it now read, oldest first (Terminal.enteredLines). */
  enteredLines(): ReturnType<Terminal["enteredLines"]> {
    return this.#terminal.enteredLines();
  }

  /** The program reading the terminal now (null: none; undefined: not known here). */
  reader(): ReturnType<Terminal["reader"]> {
    return this.#terminal.reader();
  }

  /** The programs of the terminal's foreground process group (undefined: not known here). */
  foregroundPrograms(): ReturnType<Terminal["foregroundPrograms"]> {
    return this.#terminal.foregroundPrograms();
  }

  /** Whether a process of the terminal's still runs. */
  running(pid: number): boolean {
    return this.#terminal.running(pid);
  }

  /**
   * Whether the program's output pauses for `ms` within `withinMs` and the action's deadline (a screen at rest, not
   * output going past).
   */
  async quiet(ms: number, withinMs: number): Promise<boolean> {
    const left = Math.min(withinMs, this.#deadline - performance.now());
    if (left < ms) return false;
    try {
      await this.#terminal.wait({ idle_ms: ms }, left);
      return true;
    } catch (error) {
      if (error instanceof T4aError && (error.code === "timeout" || error.code === "exited")) return false;
      throw error;
    }
  }

  mouseOn(look: Look): boolean {
    return (look.grid.mouse?.mode ?? "none") !== "none";
  }

  async keys(...names: string[]): Promise<void> {
    if (!names.length) return;
    const bytes = names.map((name) => keyBytes(name, this.#terminal.screen)).join("");
    this.#live();
    await this.#someoneReads();
    await this.#terminal.send([bytes]);
    this.sent.push(...names);
  }

  async type(text: string): Promise<void> {
    this.#live();
    await this.#someoneReads();
    await this.#terminal.send([text]);
    this.sent.push(JSON.stringify(text));
  }

  async click(cell: { row: number; col: number }): Promise<void> {
    const bytes = mouseBytes({ click: "left", ...cell }, this.#terminal.screen.mouse(), this.#terminal.screen);
    this.#live();
    await this.#someoneReads();
    await this.#terminal.send([bytes]);
    this.sent.push(`click ${cell.row}:${cell.col}`);
    this.via = "mouse";
  }

  /**
   * Before an action's first key or click: some program reads the terminal (pollingReader). Where none does and that is
   * known, what the screen shows was printed by a program that asks nothing (`tail -f` of a log, a script that printed
   * a file and sleeps): the keys would wait for whatever reads next (the shell, once it ends), and the terminal's own
   * echo of them would read as an answer.
   */
  async #someoneReads(): Promise<void> {
    if (this.sent.length) return;
    // The terminal left raw (no line discipline, no echo) by a program that runs at every look: it set it so to take
    // keys, and no echo can pass for an answer. copilot at its question on a loaded machine (CI): its threads ran at
    // every look, its group held another program than node, so no reader was found; it was refused. Not raw alone: a
    // script that set it raw and sleeps, printing a question, reads nothing, and the keys would wait for the shell
    // (attack round of session 14). (The two flags asked first, where the looks read /proc and sleep between them.)
    const raw = !this.readsLines && !this.echoes;
    if ((await this.#lookForReader(raw)) || !this.#terminal.waitsKnown()) return;
    throw new T4aError(
      "invalid_params",
      "no program reads the terminal: what the screen shows is output of a program that asks nothing (a log going " +
        "past, a file printed), and the keys would wait for whatever reads it next; nothing was sent",
    );
  }

  /**
   * Some program reads the terminal: seen reading at one of a few looks, or (`busyCounts`) running at every one of
   * them, or a full-screen program polling its keys between sleeps (#rawPoller).
   */
  async #lookForReader(busyCounts: boolean): Promise<boolean> {
    let busy = busyCounts;
    const woken = this.#wakes();
    for (let i = 0; i < READER_LOOKS; i++) {
      if (this.reader() !== null) return true;
      busy &&= this.#terminal.foregroundRuns() === true;
      await Bun.sleep(READER_GAP_MS);
    }
    return busy || this.#rawPoller(woken) !== null;
  }

  /**
   * The program reading the terminal (reader); when none reads at any of a few looks, a full-screen program that
   * polls its keys between sleeps (#rawPoller). A shell seen reading at any look is the reader.
   */
  async pollingReader(): Promise<ReturnType<Actor["reader"]>> {
    const woken = this.#wakes();
    for (let i = 0; i < READER_LOOKS; i++) {
      const reader = this.reader();
      if (reader !== null) return reader;
      await Bun.sleep(READER_GAP_MS);
    }
    return this.#rawPoller(woken);
  }

  /** How often each program of the foreground group has given up the CPU so far, to tell after the looks who woke. */
  #wakes(): (pid: number) => boolean {
    const before = new Map((this.foregroundPrograms() ?? []).map((p) => [p.pid, this.#terminal.switchCount(p.pid)]));
    return (pid) => {
      const was = before.get(pid);
      const now = this.#terminal.switchCount(pid);
      return was !== undefined && now !== undefined && now > was;
    };
  }

  /**
   * A full-screen program that polls its keys between sleeps (curses' nodelay: hatop), found by none of the looks
   * reading: the foreground group's one program that is no shell, the tty left by it in raw mode (no line discipline,
   * no echo: a shell sets both back before it runs a command), woken during the looks (it looks at its keys). Not one
   * asleep for good (a script's `stty raw -echo; cat question; sleep 100`, attack round of session 14): it reads
   * nothing, and the keys would wait for the shell. Else null.
   */
  #rawPoller(woke: (pid: number) => boolean): ReturnType<Actor["reader"]> {
    const own = (this.foregroundPrograms() ?? []).filter((p) => !SHELL.test(p.executable));
    if (new Set(own.map((p) => p.executable)).size !== 1 || this.readsLines || this.echoes) return null;
    return own.find((p) => woke(p.pid)) ?? null;
  }

  #live(): void {
    if (!this.#terminal.alive) throw new T4aError("exited", `terminal "${this.#terminal.id}" has exited`);
  }

  get exited(): boolean {
    return !this.#terminal.alive;
  }

  /** The program reads input a line at a time (canonical mode): nothing typed reaches it before Enter. */
  get readsLines(): boolean {
    return this.#terminal.readsLines;
  }

  /**
   * Re-read the screen each time the program's output pauses until `check` answers, at most until
   * `ms` from now (and the deadline). Undefined when time runs out or the program exits.
   */
  async until<T>(check: (look: Look) => T | undefined, ms = Infinity): Promise<T | undefined> {
    // On a loaded machine a key can wait seconds for its program to get a core (irb's pop-up at load 30 came after the
    // 1.5 s given it), and a wait for the key's effect must not be a guess at speed. So while the program is seen at
    // work on it (the key unread, or a thread running or waiting for a core), `ms` does not count, and it counts again
    // from when the program rests. A program never seen at work (it did at once, or the key woke nothing) has `ms`
    // from the start. The action's deadline bounds it all.
    let end: number | undefined = Math.min(this.#deadline, performance.now() + ms);
    let group: number[] | undefined;
    let rested = ms === Infinity;
    for (;;) {
      if (!this.#terminal.alive) return undefined;
      const answer = check(await this.look());
      if (answer !== undefined) return answer;
      if (!rested) {
        group ??= this.#terminal.foregroundGroup() ?? [];
        const atWork = (this.#terminal.unreadInput() ?? 0) > 0 || anyRuns(group);
        if (atWork) end = undefined;
        else if (end === undefined) {
          end = Math.min(this.#deadline, performance.now() + ms);
          rested = true;
        }
      }
      const left = (end ?? this.#deadline) - performance.now();
      if (left <= 0) return undefined;
      if (end === undefined) {
        await Bun.sleep(Math.min(AT_WORK_LOOK_MS, left));
        continue;
      }
      try {
        await this.#terminal.wait({ idle_ms: Math.max(1, Math.min(100, Math.floor(left))) }, Math.ceil(left));
      } catch (error) {
        if (error instanceof T4aError && (error.code === "timeout" || error.code === "exited")) continue;
        throw error;
      }
    }
  }

  reply(effect: Effect, seen?: string): ActReply {
    return {
      via: this.via,
      sent: this.sent,
      effect,
      // It quotes the screen (labels, its last rows): program text.
      ...(seen ? { seen: forDisplay(fromProgram(seen)) } : {}),
      elapsed_ms: Math.round(performance.now() - this.#started),
    };
  }

  /** A full-screen program holds the alternate screen. */
  get alternate(): boolean {
    return this.#terminal.screen.alternate;
  }

  /** The tty echoes what is typed. */
  get echoes(): boolean {
    return this.#terminal.echoes;
  }

  /** The terminal's shell is at its prompt (its integration says so). */
  get atShellPrompt(): boolean {
    return this.#terminal.atShellPrompt;
  }

  /**
   * Arrows until `position` says the target is the selected one, counted from the one shown
   * selected each time: keys a program drops while it draws (codex, under load) are sent again
   * once the screen shows no move for a while, and an overshoot is walked back. Undefined when it
   * never gets there.
   */
  async arrowTo(
    position: (look: Look) => { at: number; to: number } | undefined,
    sideways = false,
    keys?: { next: string; back: string },
  ): Promise<Look | undefined> {
    for (let attempt = 0; attempt < MAX_ARROW_ROUNDS; attempt++) {
      const look = await this.look();
      const place = position(look);
      if (!place || place.at < 0) return undefined;
      if (place.at === place.to) return look;
      const delta = place.to - place.at;
      const [next, back] = keys ? [keys.next, keys.back] : sideways ? ["Right", "Left"] : ["Down", "Up"];
      await this.keys(...Array<string>(Math.abs(delta)).fill(delta > 0 ? next! : back!));
      const there = await this.until((seen) => {
        const now = position(seen);
        return now && now.at === now.to ? seen : undefined;
      }, ARROW_ROUND_MS);
      if (there) return there;
    }
    return undefined;
  }

  /** Press Tab until `focused` says the target has the focus; throws when it never does. */
  async tabTo(target: Target, focused: (again: Target) => boolean, what: string): Promise<void> {
    for (let i = 0; i < MAX_TABS; i++) {
      const before = await this.look();
      await this.keys("Tab");
      // The program redraws the focus: wait for the screen to change (briefly: a Tab onto something drawn alike changes
      // nothing).
      // (Or the cursor alone moved: a Tab put in on a blank row shows nothing else.)
      const moved = (look: Look) =>
        look.grid.cursor.row !== before.grid.cursor.row || look.grid.cursor.col !== before.grid.cursor.col;
      const seen = await this.until(
        (look) => (look.text !== before.text || !sameLook(look, before) || moved(look) ? look : undefined),
        1500,
      );
      // (An editor takes Tab as text: blanks put in at its cursor, the rest of its row moved on, maybe its title
      // changed; nano's buffer showing a file that holds a form's shape got twelve.)
      // (Judged once its output pauses: one change may come in two frames, the title's and the row's.)
      let settled: Look | undefined;
      if (seen) {
        await this.quiet(50, 500);
        settled = await this.look();
      }
      const put = settled && putAtCursor(before, settled, true);
      if (put && /^[\t ]+$/.test(put)) {
        await this.keys("BSpace");
        const row = before.grid.cursor.row;
        const back = await this.until(
          (look) => (rowText(look.grid, row) === rowText(before.grid, row) && !moved(look) ? look : undefined),
          1500,
        );
        throw new T4aError(
          "unsupported",
          "Tab was typed as text where the cursor stands (blanks put in, the rest of its row moved on): text being " +
            `edited, no form to move through to ${nameOf(target)}; BSpace was sent to take it back` +
            (back ? "" : ", but the screen is not as it was"),
        );
      }
      const again = settled && findAgain(settled.elements, target);
      if (again && focused(again)) return;
    }
    throw new T4aError("timeout", `${MAX_TABS} Tab presses never brought the focus to ${nameOf(target)} (${what})`);
  }
}

/** One line for people: what happened and how. */
export function printAct(reply: ActReply): void {
  console.log(`${reply.effect}${reply.seen ? `: ${reply.seen}` : ""} (${reply.via}: ${reply.sent.join(" ")})`);
}
