// An agent session's state — starting, working, waiting (for the user), idle, exited — read from
// the screen the way a person reads it, and from the CLI's own hooks where it has them (claude's
// settings hooks call `t4a notify`, which arrive here at once). The screen rules, per preset:
// a question drawn since the last input is `waiting` (its line is the question); a busy marker
// ("esc to interrupt") is `working`; the input box drawn, no busy marker and the screen still for a
// moment is `idle`; before the input box was ever drawn it stays `starting`. The screen is read on
// a short tick, only when it changed, so a CLI that never goes quiet (codex rewrites its title
// while working) is read as it is drawn. Each change goes out as an `agent_state` event; scripts
// and orchestrators wait on it (`t4a wait ID --agent waiting`). Types a prompt into TUIs that take
// it no other way, once their input is ready. Reads the screen through the host; no xterm here.
import { forDisplay, fromProgram } from "../protocol/program-text.ts";
import { closeSync, constants, openSync, unlinkSync } from "node:fs";
import { T4aError } from "../protocol/errors.ts";
import type { TerminalEvent } from "../protocol/events.ts";
import { within, type Settle } from "../terminal/within.ts";
import type { Agent } from "../spawn/agents/agents.ts";
import type { Place } from "../terminal/foreground.ts";
import type { Element } from "../terminal/elements.ts";
import { bracketedPaste } from "../terminal/escapes.ts";
import {
  FRAME,
  findQuestion,
  frameRows,
  inputRow,
  lastWords,
  type ScreenQuestion,
  TURN_SUMMARY,
} from "./generic-agent.ts";

export const AGENT_STATES = ["starting", "working", "waiting", "idle", "exited"] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/** What the watch needs of its terminal and the daemon: events in and out, the screen, input. */
export interface AgentHost {
  subscribe(sink: (event: TerminalEvent) => void): () => void;
  publish(event: TerminalEvent): void;
  /** The viewport's rows, top to bottom. */
  screen(): string[];
  /** A token for the screen as it is now, and the rows changed since an earlier one. */
  screenToken(): string;
  changedSince(token: string): string[];
  bracketedPaste(): boolean;
  write(data: string): void;
  /** Whether the CLI is blocked reading its terminal (the kernel's word); undefined where it cannot be told. */
  inputWanted?(): boolean | undefined;
  /** The screen as elements (docs/elements.md): how a CLI with no preset is read. */
  elements?(): Element[];
  /** The cursor's row when it is shown (a TUI's input box), else undefined. */
  cursorRow?(): number | undefined;
  /**
   * Where the agent's CLI is (the kernel's word): it has the terminal, another program has it, or
   * it has ended and a shell took the terminal back; undefined where it cannot be told (ssh, macOS).
   * `find`: the CLI is known to be drawn, so the leader's child in the foreground is it.
   */
  agentProcess?(find: boolean): Place | undefined;
}

export interface AgentStateReply {
  state: AgentState;
  line: string;
  /** While waiting: which question. */
  question_id?: number;
}

export interface AgentWatchOptions {
  /** A prompt to type once the input box is drawn (for a CLI that takes none on its command line). */
  typedPrompt?: string;
  /** A prompt went on the command line: the first turn starts by itself, so the box drawn first is not idle. */
  promptGiven?: boolean;
  /** It resumes a conversation: the typed prompt waits for the preset's `resume.shownPatterns`. */
  resumed?: boolean;
  tickMs?: number;
}

/** How often the screen is read while it changes: the latency of a state drawn on it. */
const TICK_MS = 100;
/** How long the screen must stay still, input box drawn and nothing busy, to call it idle. */
const IDLE_QUIET_MS = 500;
/** The same for a CLI whose hooks report idle: the screen only catches what they miss (an interrupt). */
const HOOKED_IDLE_QUIET_MS = 3000;
/** How long a CLI given a prompt may show its input box without starting the turn before it counts as idle. */
const PROMPT_START_MS = 10_000;
/**
 * How long an Enter stays pending while its prompt still sits in the input box (the box's
 * placeholder, its ready pattern, not drawn): not taken yet, so no turn could show. gemini starved
 * on a loaded machine took more than PROMPT_START_MS to take it (CI: the wait answered the idle
 * from before, the transcript had no turn yet).
 */
const PROMPT_TAKEN_MS = 60_000;
/**
 * Between a pasted prompt and its Enter. gemini 0.61 takes an Enter that follows a paste closely
 * as a newline inside it (seen at 50 ms: the prompt stayed in its input box, a line longer).
 */
const ENTER_AFTER_PASTE_MS = 500;
/**
 * A typed prompt still in the input box this long after its Enter (the box's placeholder not
 * drawn, nothing busy, no question): the Enter was lost (gemini 0.61 on a loaded machine: the
 * ask then waited for ever, its prompt unsent). Enter goes in again, twice at most.
 */
const ENTER_RETRY_MS = 3000;
const ENTER_RETRIES = 2;
/** A hook's idle goes out once the screen has been still this long (its last words drawn). */
const IDLE_LINE_QUIET_MS = 150;
/** A hook reports a question before the CLI draws it: this long to draw it, so its line is the question. */
const QUESTION_DRAW_MS = 1000;
/** How often the CLI's process is looked at (two small /proc reads). */
const PROCESS_CHECK_MS = 500;
/**
 * A question drawn this long after the last one was answered is a new one (the CLI asks again);
 * sooner, it is the dialog redrawn by the answer's own key.
 */
const NEW_QUESTION_AFTER_MS = 1000;
/**
 * How long the CLI may be gone before the watch says exited without its wrapper's report (lost
 * when the CLI ends before the daemon listens): the report, with the exit code, comes first.
 */
const GONE_GRACE_MS = 1000;
/**
 * A CLI with no preset (`--agent auto`) is working while its screen keeps changing: this many
 * changes within ANIMATION_WINDOW_MS (a spinner, streamed words), none of them the echo of input
 * (ECHO_MS after a key). One redraw alone is not work, nor a clock that ticks once a second
 * (opencode 1.18 keeps counting a finished turn's time).
 */
const ANIMATION_CHANGES = 3;
const ANIMATION_WINDOW_MS = 1000;
const ECHO_MS = 400;
/** No busy hint nor animation this long, reading, no question: idle. */
const GENERIC_IDLE_QUIET_MS = 1500;
/** Animation this long without a break is a prompt's turn begun (see read). */
const TURN_ANIMATION_MS = 2000;
/** Generic: seen reading its terminal this recently counts as reading (see #reading). */
const READING_MS = 3000;
/**
 * Generic: a screen whose text has been still this long counts as read, whatever the kernel says
 * (opencode 1.18 at its home screen is seldom seen blocked on its terminal).
 */
const STILL_READY_MS = 5000;
/** Generic: the question answered, drawn again within this long, is the same one lingering. */
const ANSWERED_LINGER_MS = 3000;
/** Longest an answered question still drawn is taken for the one answered (#answeredLingers). */
const ANSWERED_KEPT_MS = 10_000;

export class AgentWatch {
  readonly id: string;
  /** The preset it watches: its patterns, its answer keys, its conversation log. */
  readonly agent: Agent;
  state: AgentState = "starting";
  line = "";
  /** Its idle (or any state) follows a turn: it was working or waiting before, not starting. */
  turnEnded = false;
  /** The question drawn last, counted from 1 per session: an answer names the one it answers. */
  questionId = 0;
  /**
   * Its idles, counted from 1 per session: the idle a turn ended in (a need of its own) is told apart from the next.
   */
  turn = 0;
  /** When the question on screen was answered (approve, deny); undefined while it is open. */
  #answeredAt: number | undefined;
  /** The words of the last question answered: never the line of the idle that ends its turn. */
  #answeredLine: string | undefined;
  /** The screen when a hook last said working. */
  #hookedWorkAt: string | undefined;
  /** The answered question's words were on the screen at every read since the answer. */
  #answeredShown = false;
  /** A CLI with no preset: the choices of the question reported waiting, as read then. */
  #askedChoices: string | undefined;
  /**
   * The screen the open question was asked on (dialogOf): while it is open, any other row drawn
   * makes it another question. A child holding the terminal redrew a dialog's command row
   * (`Bash(ls)` over `rm -rf …`) and `approve --question 1` still passed.
   */
  #dialog: string | undefined;
  /** When the open question was first seen: its dialog may still be drawn for QUESTION_DRAW_MS. */
  #dialogAt = 0;
  /** The time of the last read (its `now`: the tests' clock), for the dialog's times. */
  #readNow = 0;
  /** The question whose dialog was last drawn again (its answer names it: said so when refused). */
  #redrawnFrom: number | undefined;
  readonly #host: AgentHost;
  readonly #unsubscribe: () => void;
  readonly #waiting: RegExp[];
  readonly #busy: RegExp[];
  readonly #ready: RegExp[];
  readonly #chrome: RegExp[];
  readonly #errors: RegExp[];
  /** The input box and the frame: rows that are never the agent's words. */
  readonly #notWords: RegExp[];
  /** The CLI reports its own turns through hooks: the screen only fills their gaps. */
  readonly #hooked: boolean;
  /** A CLI with no preset: read from the screen's elements and its changes (generic-agent.ts). */
  readonly #generic: boolean;
  /** Generic: when the screen was seen to change (not as input's echo), the latest last. */
  #changes: number[] = [];
  #inputAt = -Infinity;
  /** Generic: when the last question was answered (its dialog may linger as the CLI goes on). */
  #tookAt = -Infinity;
  /** Generic: the question found on the last read. */
  #lastQuestion: string | undefined;
  /** Generic: a question is on screen, not yet read the same twice: nothing is idle meanwhile. */
  #questionDrawing = false;
  /** Generic: when the CLI was last seen reading its terminal. */
  #readingAt = -Infinity;
  /** Generic: the screen's text as last read, and when it last changed. */
  #text = "";
  #textChangedAt = performance.now();
  /** Generic: when it was last seen busy (a hint, or animated); idle comes once it has been calm a while. */
  #busyAt = performance.now();
  /** Generic: since when it has been animated without a break. */
  #animatedSince: number | undefined;
  /** Generic: the elements of the screen as last read, and for which screen token. */
  #elements: { token: string; elements: Element[] } | undefined;

  #typedPrompt: string | undefined;
  /**
   * What must be drawn before the prompt is typed (a resumed conversation), and since when the
   * input box is drawn.
   */
  readonly #typeAfter: RegExp[];
  #readySince: number | undefined;
  /** The screen when input last went in: a question still shown from before was answered. */
  #sinceInput: string | undefined;
  /** The screen as last read, and when it last changed. */
  #seenToken = "";
  #changedAt = performance.now();
  #readAt = -1;
  /** A question a hook reported before it was drawn: when, and the hook's message. */
  #pendingQuestion: { at: number; message: string } | undefined;
  /**
   * False while a prompt (on its command line, or typed) has not visibly started its turn: until
   * a busy marker, a question, a hook, or an idle after the long wait.
   */
  #turnStarted: boolean;
  /**
   * A prompt whose Enter may be lost: typed by ask (its head), or sent by a client to the idle agent (no head: then
   * the screen's rows as they were at the Enter, see #enterAgain).
   */
  #typed: { head?: string; at: number; retries: number; shown?: Set<string> } | undefined;
  /** When a hook reported idle, until the screen settles and the idle goes out with its line. */
  #pendingIdle: number | undefined;
  /** When the state last changed. */
  #stateAt = performance.now();
  #timer: ReturnType<typeof setInterval> | undefined;
  #stopListening: (() => void) | undefined;
  #notifyPath: string | undefined;
  #processAt = -Infinity;
  /** When an Enter went in that the agent has not reacted to yet (see input). */
  #inputPendingAt: number | undefined;
  /** The input box holds text: its placeholder, the ready pattern, is not drawn (nothing busy, no question). */
  #boxHeld = false;
  /** Text was typed since the last Enter: the box holds it, whether or not the CLI has drawn it yet. */
  #textTyped = false;
  /** When the box last stopped holding text: a pending Enter's PROMPT_START_MS counts from here. */
  #boxTakenAt = 0;
  #goneAt: number | undefined;
  readonly #waiters = new Set<{ states: Set<AgentState>; settle: Settle<AgentStateReply> }>();

  /** `tickMs` 0 leaves the reading to the caller (`read`), as the unit tests do. */
  constructor(id: string, agent: Agent, host: AgentHost, options: AgentWatchOptions = {}) {
    this.id = id;
    this.agent = agent;
    this.#host = host;
    this.#typedPrompt = options.typedPrompt;
    // A prompt still to be typed is a turn about to start, as one given on the command line.
    this.#turnStarted = options.promptGiven !== true && options.typedPrompt === undefined;
    const tickMs = options.tickMs ?? TICK_MS;
    this.#hooked = agent.hooks !== undefined;
    this.#generic = agent.generic === true && host.elements !== undefined;
    this.#waiting = agent.waitingPatterns.map((pattern) => new RegExp(pattern, "m"));
    this.#busy = agent.busyPatterns.map((pattern) => new RegExp(pattern, "m"));
    this.#ready = agent.readyPatterns.map((pattern) => new RegExp(pattern, "m"));
    this.#chrome = agent.chromePatterns.map((pattern) => new RegExp(pattern, "m"));
    this.#errors = (agent.errorPatterns ?? []).map((pattern) => new RegExp(pattern));
    this.#notWords = [...this.#ready, ...this.#chrome];
    this.#typeAfter = options.resumed
      ? (agent.resume.shownPatterns ?? []).map((pattern) => new RegExp(pattern, "m"))
      : [];
    this.#unsubscribe = host.subscribe((event) => this.#onEvent(event));
    if (tickMs > 0) {
      this.#timer = setInterval(() => this.read(), tickMs);
      this.#timer.unref?.();
    }
  }

  /**
   * The narrow channel of this one session: a FIFO that takes `STATE [message]` lines and nothing
   * else. A sandboxed agent reaches it (bound into its sandbox) while the daemon's own socket stays
   * hidden: it can report its state, and do nothing more. A FIFO, not a socket, because a sandbox
   * may not create unix sockets; opened read-write so it never reads end-of-file between writers.
   */
  listen(path: string): void {
    this.#notifyPath = path;
    const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
    const reader = Bun.file(fd).stream().getReader();
    let open = true;
    this.#stopListening = () => {
      open = false;
      reader.cancel().catch(() => {});
      closeSync(fd);
    };
    void (async () => {
      const decoder = new TextDecoder();
      let pending = "";
      while (open) {
        const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (chunk.done || !open) return;
        pending += decoder.decode(chunk.value, { stream: true });
        const lines = pending.split("\n");
        pending = lines.pop()!;
        // Longer than any report (reports are written whole, one per write): not one of ours.
        if (pending.length > 4096) pending = "";
        for (const line of lines) {
          const [state, ...message] = line.trim().split(/\s+/);
          if (!state) continue;
          try {
            this.notify(state, message.join(" "));
          } catch {
            // A bad report changes nothing; the writer learns of it from its own validation.
          }
        }
      }
    })();
  }

  /** How long it has been in its state. */
  inStateMs(): number {
    return performance.now() - this.#stateAt;
  }

  /**
   * Input went to the agent (a person answered, or typed a prompt). An Enter while it is idle, or
   * any key while it waits on a question, is a turn about to begin or go on: until the agent
   * reacts (a new state or question), a wait for its state does not answer with the state from
   * before (the last turn's idle).
   */
  input(data: string | Uint8Array = ""): void {
    this.#sinceInput = this.#host.screenToken();
    this.#inputAt = performance.now();
    const text = typeof data === "string" ? data : Buffer.from(data).toString("latin1");
    // Newlines inside a bracketed paste are text, not Enter; a paste with anything in it is text typed.
    const keys = text.replace(/\x1b\[200~([\s\S]*?)(\x1b\[201~|$)/g, (_, pasted: string) => (pasted ? "p" : ""));
    const at = keys.search(/[\r\n]/);
    const enter = at >= 0;
    // A client's Enter may be lost as ask's may (ENTER_RETRY_MS): sent again only while nothing was typed after it.
    if (this.#typed && this.#typed.head === undefined) this.#typed = undefined;
    const typed = this.#textTyped || printable(enter ? keys.slice(0, at) : keys);
    this.#textTyped = enter ? printable(keys.slice(keys.search(/[^\r\n]*$/))) : typed;
    // (The screen's rows kept when the box was seen holding the text: see #enterAgain. Not drawn yet, the rows its
    // text will take cannot be told from others.)
    if (this.state === "idle" && enter && (this.#boxHeld || typed))
      this.#typed = {
        at: performance.now(),
        retries: 0,
        ...(this.#boxHeld ? { shown: new Set(this.#host.screen().map(boxRow)) } : {}),
      };
    // Waiting, any key may be the answer (y, 1, Escape).
    if ((this.state === "idle" && enter) || this.state === "waiting") {
      this.#inputPendingAt = performance.now();
      // A CLI with no preset: its calm is counted from here (the turn the input begins or goes on).
      this.#busyAt = this.#inputPendingAt;
    }
  }

  /** A report from the agent's hooks (or any client's `notify`). */
  notify(state: string, message = ""): void {
    // Printed by `wait --agent` and shown in the browser: no escape sequences ride along.
    message = message.replace(/[\x00-\x1f\x7f-\x9f]+/g, " ").trim();
    if (!(AGENT_STATES as readonly string[]).includes(state) || state === "starting") {
      throw new T4aError("invalid_params", `state must be working, waiting, idle or exited, got "${state}"`);
    }
    if (this.state === "exited") {
      // The wrapper's report after the watch saw the CLI gone: its exit code is the better line.
      if (state === "exited" && /^\d+$/.test(message)) this.line = `exit code ${message}`;
      else throw new T4aError("exited", `agent "${this.id}" has exited`);
      return;
    }
    // The hook's own text is rarely what a person sees; the screen's last words are.
    // The wrapper reports the CLI's exit status as the message.
    if (state === "exited" && /^\d+$/.test(message)) message = `exit code ${message}`;
    this.#pendingQuestion = undefined;
    this.#pendingIdle = undefined;
    this.#turnStarted = true;
    if (state === "waiting") {
      const question = this.#waitingLine();
      if (question === undefined) {
        // Reported as the question is drawn: the next reads find its line.
        this.#pendingQuestion = { at: performance.now(), message };
        return;
      }
      message = question;
      // The hook says a question is asked: after an answer, that is a new one.
      if (this.state === "waiting" && this.#answeredAt !== undefined) return this.#newQuestion(question);
    }
    if (state === "idle" && !message) {
      // The hook fires as the turn ends, sometimes before the last words are drawn: the line
      // (and the event) waits for the screen to settle, a moment at most, and its busy marker to go.
      this.#pendingIdle = performance.now();
      return;
    }
    this.#pendingIdle = undefined;
    if (state === "working") this.#hookedWorkAt = this.#host.screenToken();
    this.#set(state as AgentState, message || this.#lastLine());
  }

  /**
   * Nothing drawn since a hook said working: the CLI has not drawn its turn yet (a loaded machine
   * can hold it for seconds), so the screen it shows is the one from before, and no idle.
   */
  #undrawnHookedWork(): boolean {
    if (this.state !== "working" || this.#hookedWorkAt === undefined) return false;
    return !this.#host.changedSince(this.#hookedWorkAt).some((row) => row.trim() !== "");
  }

  /**
   * Input meant for the agent (ask, approve, deny, a typed prompt) goes to its CLI alone: refused
   * once it has exited (a shell may have the terminal now, and would run the words as a command),
   * or while another program has its terminal.
   */
  assertOwnsTerminal(): void {
    const place = this.state === "exited" ? undefined : this.#host.agentProcess?.(this.state !== "starting");
    if (place === "gone") this.#set("exited", this.#lastLine());
    if (this.state === "exited")
      throw new T4aError("exited", `agent "${this.id}" has exited${this.line ? ` (${this.line})` : ""}`);
    // Still starting, the CLI may not have the terminal yet (a login profile runs): not refused.
    if (place === "elsewhere" && this.state !== "starting") {
      throw new T4aError(
        "busy",
        `another program has agent "${this.id}"'s terminal: its input is not for the agent now`,
      );
    }
  }

  /**
   * Resolves when the agent is in `state` (or one of `states`; at once if it is, unless input it
   * has not reacted to yet is pending: then the state that input brings), or fails after the timeout.
   */
  async until(states: AgentState | AgentState[], timeoutMs: number): Promise<AgentStateReply & { elapsed_ms: number }> {
    const started = performance.now();
    const wanted = new Set(Array.isArray(states) ? states : [states]);
    this.#expirePending(started);
    if (wanted.has(this.state) && this.#inputPendingAt === undefined) return { ...this.reply(), elapsed_ms: 0 };
    if (this.state === "exited") throw new T4aError("exited", `agent "${this.id}" has exited`);
    const reply = await within<AgentStateReply>(
      timeoutMs,
      (settle) => {
        const waiter = { states: wanted, settle };
        this.#waiters.add(waiter);
        return () => this.#waiters.delete(waiter);
      },
      () => {
        throw new T4aError(
          "timeout",
          `agent "${this.id}" was not ${[...wanted].join(" or ")} within ${timeoutMs} ms (it is ${this.state})`,
        );
      },
    );
    return { ...reply, elapsed_ms: Math.round(performance.now() - started) };
  }

  /**
   * The agent's words drawn since `token` (a screen token taken before a prompt was typed): rows
   * changed since, without its input box, frame and status rows, nor the prompt's own echo.
   */
  wordsSince(token: string, prompt: string): string {
    const echo = prompt.replace(/\s+/g, " ").trim();
    // The prompt's first row, or a long piece of it wrapped onto more rows; an answer that
    // repeats a few of its words is still the answer.
    const isEcho = (row: string) => echo.startsWith(row) || (row.length >= 20 && echo.includes(row));
    const frame = this.#generic ? frameRows(this.#screenElements()) : new Set<string>();
    return this.#host
      .changedSince(token)
      .map(unboxed)
      .filter(
        (row) =>
          row !== "" &&
          !frame.has(row) &&
          !(this.#generic && TURN_SUMMARY.test(row)) &&
          !this.#notWords.some((pattern) => pattern.test(row)) &&
          !isEcho(row.replace(/^[>❯›]\s*/, "")),
      )
      .join("\n");
  }

  /** The state now, with the question's id while waiting. */
  reply(): AgentStateReply {
    // The line is read off the program's screen (or its notify message): shown, as the program's text.
    const line = forDisplay(fromProgram(this.line));
    return this.state === "waiting"
      ? { state: this.state, line, question_id: this.questionId }
      : { state: this.state, line };
  }

  /** The question on screen has been answered (approve, deny): it waits on nothing until a new one is drawn. */
  get questionAnswered(): boolean {
    return this.state === "waiting" && this.#answeredAt !== undefined;
  }

  /**
   * The open question, taken by an answer (approve, deny): refused unless one is on screen, and
   * (given `questionId`) it is that one. Once taken it is spent: a second answer is refused until
   * a new question is drawn, so no key meant for it lands in the input box after it.
   */
  takeQuestion(questionId?: number): { question: string; question_id: number } {
    if (this.state !== "waiting")
      throw new T4aError("not_waiting", `agent "${this.id}" is ${this.state}: it waits on no question`);
    if (this.#answeredAt !== undefined) {
      throw new T4aError(
        "not_waiting",
        `agent "${this.id}": question ${this.questionId} was answered already; no new question since`,
      );
    }
    // Redrawn since the last read (the next read would have seen it): another question first. So
    // is a question in other words than those reported, even inside the first second's drawing
    // and before two reads saw it (a question drawn over the reported one was answered in its
    // place: the answer named the reported one, its key went into the other).
    const shown = this.#generic ? this.screenQuestion() : undefined;
    const onScreen = this.#generic ? shown?.line : this.#waitingLine();
    const reworded = onScreen !== undefined && !sameQuestion(onScreen, this.line) && !this.sameAsked(shown);
    if (this.#redrawn(this.#host.screen()) || reworded) this.#newQuestion(onScreen ?? this.line);
    if (questionId !== undefined && questionId !== this.questionId) {
      throw new T4aError(
        "not_waiting",
        `agent "${this.id}" waits on question ${this.questionId}, not ${questionId}` +
          (this.#redrawnFrom === questionId ? " (its dialog was drawn again with other rows: read it again)" : ""),
      );
    }
    this.#answeredAt = performance.now();
    this.#answeredLine = this.line;
    this.#answeredShown = true;
    this.#tookAt = this.#answeredAt;
    this.#busyAt = this.#answeredAt;
    // Printed by approve and deny, handed to MCP: the question as read off the screen, shown.
    return { question: forDisplay(fromProgram(this.line)), question_id: this.questionId };
  }

  /**
   * A CLI with no preset: the question on screen is the one reported, read by another rule (a
   * frame redrawn under continue's dialog left its menu read with the prompt above as its line):
   * the same choices as when it was reported, and the reported words still on the screen. A
   * question drawn over it in other words has removed those.
   */
  sameAsked(shown: ScreenQuestion | undefined): boolean {
    if (!shown || this.#askedChoices === undefined || choicesOf(shown) !== this.#askedChoices) return false;
    const words = dialogOf([this.line]);
    return words !== "" && this.#host.screen().some((row) => dialogOf([row]).includes(words));
  }

  /** The CLI's own error line (its API refused the turn) among an answer's lines, if one is there. */
  errorLine(answer: string): string | undefined {
    if (!this.#errors.length) return undefined;
    return (
      answer
        .split("\n")
        .map((row) => unboxed(row))
        // The last: a screen's words since the prompt may still show an earlier turn's error above.
        .findLast((row) => this.#errors.some((pattern) => pattern.test(row)))
    );
  }

  /** Stops listening to the terminal and the notify channel; safe to call again. */
  dispose(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#unsubscribe();
    this.#stopListening?.();
    this.#stopListening = undefined;
    if (this.#notifyPath) {
      try {
        unlinkSync(this.#notifyPath);
      } catch {
        // Gone already.
      }
    }
  }

  #onEvent(event: TerminalEvent): void {
    // The kernel says the CLI reads its terminal: read the screen now rather than at the next due.
    if (event.event === "input_wanted") {
      this.#readAt = -1;
      return this.read();
    }
    if (event.event !== "exit") return;
    this.#set("exited", this.#lastLine());
    this.dispose();
  }

  /**
   * Reads the screen and moves the state by what it shows (see the top of this file). Cheap when
   * nothing changed: one token compared, until a quiet period is due.
   */
  read(now = performance.now()): void {
    this.#readNow = now;
    if (this.state === "exited") return;
    if (this.#processGone(now)) return;
    this.#expirePending(now);
    const token = this.#host.screenToken();
    if (token !== this.#seenToken) {
      this.#seenToken = token;
      this.#changedAt = now;
    }
    let quietMs = now - this.#changedAt;
    // Read again when the screen changed, and once as each quiet period it waits for comes due.
    const due = [IDLE_QUIET_MS / 2, IDLE_QUIET_MS, GENERIC_IDLE_QUIET_MS, HOOKED_IDLE_QUIET_MS, PROMPT_START_MS].some(
      (ms) => quietMs >= ms && this.#readAt < this.#changedAt + ms,
    );
    // A CLI with no preset is read on every tick: its calm is counted from its last busy moment,
    // which a ticking clock keeps apart from the last change.
    if (
      !this.#generic &&
      this.#readAt >= this.#changedAt &&
      !due &&
      this.#pendingQuestion === undefined &&
      this.#pendingIdle === undefined
    )
      return;
    this.#readAt = now;

    const rows = this.#host.screen();
    const answered = this.#answeredLine;
    if (answered !== undefined && !rows.some((row) => row.includes(answered))) this.#answeredShown = false;
    const text = rows.join("\n");
    if (this.#generic) {
      // Its words, not their styles: a cursor it draws itself blinks (pi), a highlight moves.
      if (text !== this.#text) {
        this.#text = text;
        this.#textChangedAt = now;
        if (now - this.#inputAt >= ECHO_MS) {
          this.#changes.push(now);
          if (this.#changes.length > ANIMATION_CHANGES) this.#changes.shift();
        }
      }
      quietMs = now - this.#textChangedAt;
    }
    const question = this.#generic ? this.#genericQuestion() : this.#waitingLine();
    // A TUI wraps a long status by words (qwen's "…(0s · esc to" / "cancel)", at times a blank
    // row between): the busy marker is also looked for in the rows with words run together.
    const joined = rows
      .map((row) => row.trim())
      .filter((row) => row !== "")
      .join(" ");
    // A CLI with no preset also works while its screen keeps changing (a spinner): not while it
    // starts (it draws itself), only once it was seen at rest.
    const animated =
      this.#generic &&
      this.state !== "starting" &&
      this.#changes.length >= ANIMATION_CHANGES &&
      now - this.#changes[0]! <= ANIMATION_WINDOW_MS;
    const hinted = this.#busy.some((pattern) => pattern.test(text) || pattern.test(joined));
    const busy = animated || hinted;
    if (busy) this.#busyAt = now;
    if (animated) this.#animatedSince ??= now;
    else this.#animatedSince = undefined;
    // An agent of the user's own without ready patterns: ready when it reads its terminal (the
    // kernel says so, see terminal/input-wanted.ts), else when anything is drawn.
    const ready = this.#ready.length
      ? this.#ready.some((pattern) => pattern.test(text))
      : this.#generic
        ? (this.#reading(now) || quietMs >= STILL_READY_MS) && rows.some((row) => row.trim() !== "")
        : (this.#host.inputWanted?.() ?? rows.some((row) => row.trim() !== ""));
    const still = ready && !busy && question === undefined && !(this.#generic && this.#questionDrawing);
    const held = this.#ready.length > 0 && !ready && !busy && question === undefined;
    if (this.#boxHeld && !held) this.#boxTakenAt = now;
    this.#boxHeld = held;
    this.#enterAgain(rows, ready, busy, question, now);
    // A prompt's turn has begun on a busy hint; on animation alone once it lasts (a CLI redraws
    // as it takes the prompt in, then may sit still for seconds before its turn shows: opencode).
    if (hinted || (animated && now - this.#animatedSince! >= TURN_ANIMATION_MS)) this.#turnStarted = true;
    // Given a prompt, the input box drawn is not idle until the turn shows it started: a CLI may
    // sit still for seconds before it does (opencode ~2 s).
    const idleQuietMs = this.#turnStarted ? (this.#generic ? GENERIC_IDLE_QUIET_MS : IDLE_QUIET_MS) : PROMPT_START_MS;
    const pending = this.#pendingQuestion;
    // Generic, past its start: calm since its last busy moment, not since the screen last changed.
    const calmMs = this.#generic && this.state !== "starting" ? now - this.#busyAt : quietMs;
    // A hook's idle goes out once the screen settles, and never while it still shows the turn busy:
    // claude runs its Stop hook under its spinner and footer ("running Stop hook · esc to
    // interrupt") and, loaded, may not have drawn its last words when the report arrives (CI: the
    // idle went out mid-turn, its line "command)", the answer drawn after).
    if (
      this.#pendingIdle !== undefined &&
      question === undefined &&
      !busy &&
      (quietMs >= IDLE_LINE_QUIET_MS || now - this.#pendingIdle >= QUESTION_DRAW_MS)
    ) {
      const line = this.#lastLine();
      // The question just answered is still the last words drawn: the turn's own words are not
      // there yet (a loaded machine draws them late). Its idle waits for them, a moment at most.
      if (line !== "" && line === this.#answeredLine && now - this.#pendingIdle < QUESTION_DRAW_MS) return;
      this.#pendingIdle = undefined;
      this.#answeredLine = undefined;
      this.#set("idle", line);
      return;
    }
    if (question !== undefined && this.#answeredLingers(question)) {
      // The question just answered, its frame written again while the CLI takes the answer (cline's
      // whole frame under its spinner, on a loaded machine): the same question, already answered.
      this.#pendingIdle = undefined;
    } else if (question !== undefined) {
      this.#pendingIdle = undefined;
      this.#pendingQuestion = undefined;
      if (this.#redrawn(rows)) {
        this.#newQuestion(question);
      } else if (this.state === "waiting" && this.#answeredAt !== undefined) {
        // Drawn since the answer went in, a while after it: a new question, even in the same
        // words. Sooner, it is the dialog redrawn by the answer's own key: nothing new.
        if (performance.now() - this.#answeredAt >= NEW_QUESTION_AFTER_MS) this.#newQuestion(question);
      } else {
        this.#set("waiting", question);
      }
    } else if (pending !== undefined && now - pending.at >= QUESTION_DRAW_MS) {
      // The hook said a question is asked, and none drawn matches a pattern: report it anyway.
      this.#pendingQuestion = undefined;
      this.#set("waiting", pending.message || this.#lastLine());
    } else if (this.#hooked) {
      // The hooks say working and idle. The screen leaves `starting` (no hook runs before the first
      // turn), moves on from an answered question, and ends a turn the hooks never closed.
      // A prompt given on the command line, its turn not yet started, is not idle either way
      // (idleQuietMs is the long wait then).
      if ((this.state === "waiting" || this.state === "starting") && busy) this.#set("working", this.#busyLine(rows));
      // Answered, and the question gone: a refusal ends the turn with no hook to say so (claude).
      // Still drawn, the answer is not taken yet (claude on a loaded machine, seconds later): it
      // is only not redrawn since the input, and no idle.
      else if (
        this.state === "waiting" &&
        this.#answeredAt !== undefined &&
        still &&
        quietMs >= IDLE_QUIET_MS &&
        !this.#answeredStillDrawn(rows)
      )
        this.#set("idle", this.#lastLine());
      else if (this.state === "starting" && still && quietMs >= idleQuietMs) this.#set("idle", this.#lastLine());
      else if (
        this.state !== "idle" &&
        still &&
        quietMs >= Math.max(HOOKED_IDLE_QUIET_MS, idleQuietMs) &&
        !(this.state === "waiting" && this.#answeredStillDrawn(rows)) &&
        !this.#undrawnHookedWork()
      )
        this.#set("idle", this.#lastLine());
    } else if (busy) {
      this.#set("working", this.#busyLine(rows));
    } else if (still && calmMs >= idleQuietMs) {
      this.#set("idle", this.#lastLine());
    }
    if (ready) this.#readySince ??= now;
    // A CLI with no preset has no input box to recognise: its screen at rest as long as idle needs.
    if (still && quietMs >= (this.#generic ? GENERIC_IDLE_QUIET_MS : IDLE_QUIET_MS / 2)) this.#maybeType(text, now);
  }

  /**
   * Moved on from an answered question (working) while its words have stayed on the screen at every
   * read since the answer: the question met again is that one, not asked anew. One asked again in
   * the same words comes after they were gone (the tool ran), or at the latest ANSWERED_KEPT_MS on.
   */
  #answeredLingers(question: string): boolean {
    const line = this.#answeredLine;
    if (line === undefined || question !== line || this.state !== "working") return false;
    return this.#answeredShown && performance.now() - this.#tookAt < ANSWERED_KEPT_MS;
  }

  /**
   * The question just answered is still on the screen, in its own words, and nothing was drawn
   * since the answer went in: the CLI has not taken it yet. Anything redrawn (an input box under
   * it, the question left above as history) and it has.
   */
  #answeredStillDrawn(rows: string[]): boolean {
    const line = this.#answeredLine;
    if (line === undefined || line === "") return false;
    const since = this.#sinceInput === undefined ? [] : this.#host.changedSince(this.#sinceInput);
    return !since.some((row) => row.trim() !== "") && rows.some((row) => row.includes(line));
  }

  /**
   * An Enter that began no turn (an empty input box): after the long wait a turn may take to show
   * it started, the state as it is answers the waits again.
   */
  #expirePending(now: number): void {
    const at = this.#inputPendingAt;
    if (at === undefined || now - Math.max(at, this.#boxTakenAt) < PROMPT_START_MS) return;
    // Its prompt still in the box: not taken yet, so no turn could show (a starved CLI).
    if (this.#boxHeld && now - at < PROMPT_TAKEN_MS) return;
    this.#inputPendingAt = undefined;
    const reply = this.reply();
    for (const waiter of [...this.#waiters]) if (waiter.states.has(this.state)) waiter.settle(reply);
  }

  /** The CLI's process has ended while nothing reported it (the state is then exited). */
  #processGone(now: number): boolean {
    if (!this.#host.agentProcess || now - this.#processAt < PROCESS_CHECK_MS) return false;
    this.#processAt = now;
    if (this.#host.agentProcess(this.state !== "starting") !== "gone") {
      this.#goneAt = undefined;
      return false;
    }
    this.#goneAt ??= now;
    if (now - this.#goneAt < GONE_GRACE_MS) return false;
    this.#set("exited", this.#lastLine());
    return true;
  }

  /** Waiters for a state the agent can no longer reach. */
  #failWaiters(): void {
    for (const waiter of [...this.#waiters])
      waiter.settle.fail(new T4aError("exited", `agent "${this.id}" has exited`));
  }

  /**
   * An open question whose screen has changed since it was drawn: what an answer would approve is
   * not what was read. A CLI draws its dialog over a few frames: changes in the first
   * QUESTION_DRAW_MS after the question was seen are the dialog being drawn, and become its screen.
   */
  #redrawn(rows: string[]): boolean {
    if (this.state !== "waiting" || this.#answeredAt !== undefined || this.#dialog === undefined) return false;
    const dialog = dialogOf(rows);
    if (dialog === this.#dialog) return false;
    if (this.#now() - this.#dialogAt < QUESTION_DRAW_MS) {
      this.#dialog = dialog;
      return false;
    }
    return true;
  }

  /** The screen a question is asked on, from now. */
  #askedOn(): void {
    this.#dialog = dialogOf(this.#host.screen());
    this.#dialogAt = this.#now();
  }

  /** Now: the last read's time or the clock's, whichever is later. */
  #now(): number {
    return Math.max(performance.now(), this.#readNow);
  }

  /** Another question while waiting: in the same words as the one answered, or its dialog drawn again otherwise. */
  #newQuestion(line: string): void {
    this.#inputPendingAt = undefined;
    if (this.#answeredAt === undefined) this.#redrawnFrom = this.questionId;
    this.#askedChoices = this.#generic ? choicesOf(this.screenQuestion()) : undefined;
    this.questionId++;
    this.#askedOn();
    this.#answeredAt = undefined;
    this.line = line;
    this.#stateAt = performance.now();
    this.#host.publish({
      event: "agent_state",
      terminal: this.id,
      state: "waiting",
      line: forDisplay(fromProgram(line)),
      question_id: this.questionId,
    });
  }

  /** A change of state is an event; so is a new question while waiting. Other line changes are not. */
  #set(state: AgentState, line: string): void {
    // Nothing comes back from exited: a shell may have the terminal now.
    if (this.state === "exited") return;
    // The first sign of the CLI (its box drawn, a hook) is when its process is found; a shell
    // drawn where it was (its wrapper's, after it ended) is no sign of it.
    if (
      this.state === "starting" &&
      state !== "starting" &&
      state !== "exited" &&
      this.#host.agentProcess?.(true) === "gone"
    ) {
      state = "exited";
      line = this.#lastLine();
    }
    if (state === this.state && (state !== "waiting" || line === this.line)) {
      this.line = line;
      return;
    }
    this.turnEnded = this.state === "working" || this.state === "waiting";
    this.state = state;
    this.line = line;
    this.#stateAt = performance.now();
    // The agent reacted: what input was pending has begun its turn (or asked, or ended); keys typed
    // before are its prompt or an answer, drawn by now if still in its box.
    this.#inputPendingAt = undefined;
    this.#textTyped = false;
    if (state === "waiting") {
      this.#askedChoices = this.#generic ? choicesOf(this.screenQuestion()) : undefined;
      this.questionId++;
      this.#answeredAt = undefined;
      this.#askedOn();
    } else this.#dialog = undefined;
    if (state === "idle") this.turn++;
    // A turn that ended or asked something is no longer one about to start.
    if (state !== "working") this.#turnStarted = true;
    const reply = this.reply();
    this.#host.publish({ event: "agent_state", terminal: this.id, ...reply });
    for (const waiter of [...this.#waiters]) if (waiter.states.has(state)) waiter.settle(reply);
    if (state === "exited") this.#failWaiters();
  }

  /**
   * The question on screen, among rows drawn since the last input: the first pattern (they are
   * ordered, questions before the option rows that only show one is asked) matching a row, its
   * lowest row, without the box it is drawn in.
   */
  #waitingLine(): string | undefined {
    const lines = this.#sinceInput === undefined ? this.#host.screen() : this.#host.changedSince(this.#sinceInput);
    for (const pattern of this.#waiting) {
      const line = lines.findLast((candidate) => pattern.test(candidate));
      if (line !== undefined) return unboxed(line);
    }
    return undefined;
  }

  /** The row holding the busy marker (a status such as "Working (3s • esc to interrupt)"). */
  #busyLine(rows: string[]): string {
    const row = rows.findLast((candidate) => this.#busy.some((pattern) => pattern.test(candidate)));
    // A busy marker in a status bar (claude's footer) says less than the agent's last words.
    return row === undefined || this.#chrome.some((pattern) => pattern.test(unboxed(row)))
      ? this.#lastLine()
      : unboxed(row);
  }

  /**
   * A CLI with no preset: the question with choices on screen while it reads its terminal, drawn
   * since the last input (one still shown from before was answered), as its line.
   */
  #genericQuestion(): string | undefined {
    const now = performance.now();
    this.#questionDrawing = false;
    if (!this.#reading(now) && now - this.#textChangedAt < STILL_READY_MS) {
      // Redrawn a moment ago while it does not read, no key gone in since it asked, its question still
      // on screen in its own words (copilot's dialog drawn anew, its footer's "esc to cancel" a busy
      // hint): that question still stands, not a turn at work.
      const standing =
        this.state === "waiting" &&
        this.#answeredAt === undefined &&
        this.#inputAt < this.#stateAt &&
        this.line !== "" &&
        this.#host.screen().some((row) => row.includes(this.line));
      return standing ? this.line : undefined;
    }
    const found = findQuestion(this.#screenElements(), this.#host.screen());
    if (!found) {
      this.#lastQuestion = undefined;
      return undefined;
    }
    // The question just answered, still drawn while the CLI takes the answer (copilot): not asked again.
    if (found.line === this.#answeredLine && performance.now() - this.#tookAt < ANSWERED_LINGER_MS) return undefined;
    if (this.#sinceInput !== undefined) {
      const head = found.line.slice(0, 30);
      if (!this.#host.changedSince(this.#sinceInput).some((row) => row.includes(head))) return undefined;
    }
    // Read the same on two reads running: a dialog half drawn may show another row as its question.
    const seenBefore = this.#lastQuestion === found.line;
    this.#lastQuestion = found.line;
    this.#questionDrawing = !seenBefore;
    if (seenBefore) return found.line;
    return this.state === "waiting" ? this.line : undefined;
  }

  /**
   * It reads its terminal, or did a moment ago: the kernel's word comes only once output pauses,
   * and a TUI with a clock on screen (copilot counts a command's seconds) pauses for less than
   * a second at a time. Unknown (not Linux) counts as reading.
   */
  #reading(now: number): boolean {
    const wanted = this.#host.inputWanted?.();
    if (wanted !== false) this.#readingAt = now;
    return now - this.#readingAt <= READING_MS;
  }

  /** The question on screen now, with its choices (a CLI with no preset: approve and deny pick among them). */
  screenQuestion(): ScreenQuestion | undefined {
    return this.#generic ? findQuestion(this.#screenElements(), this.#host.screen()) : undefined;
  }

  /** The screen's elements, detected once per screen (its token). */
  #screenElements(): Element[] {
    const token = this.#host.screenToken();
    if (this.#elements?.token !== token) this.#elements = { token, elements: this.#host.elements!() };
    return this.#elements.elements;
  }

  /** Read from what every CLI shares, with no preset (approve and deny pick the question's own choices). */
  get generic(): boolean {
    return this.#generic;
  }

  /** The agent's last words on screen: the lowest row that is not its input box or frame. */
  #lastLine(): string {
    if (this.#generic) {
      const elements = this.#screenElements();
      return lastWords(elements, inputRow(elements, this.#host.screen(), this.#host.cursorRow?.()));
    }
    const words = (row: string) => {
      const text = unboxed(row);
      return text !== "" && !this.#notWords.some((pattern) => pattern.test(text));
    };
    return unboxed(this.#host.screen().findLast(words) ?? "");
  }

  /**
   * A prompt for a TUI that takes none on its command line: typed once its input is ready and,
   * resuming, once the conversation shows (or the long wait passed: a conversation may have
   * nothing the patterns know).
   */
  #maybeType(text: string, now: number): void {
    const prompt = this.#typedPrompt;
    if (prompt === undefined || this.state === "waiting") return;
    const place = this.#host.agentProcess?.(true);
    if (place === "gone" || place === "elsewhere") return;
    const shown = this.#typeAfter.length === 0 || this.#typeAfter.some((pattern) => pattern.test(text));
    if (!shown && now - (this.#readySince ?? now) < PROMPT_START_MS) return;
    this.#typedPrompt = undefined;
    this.type(prompt);
  }

  /** Types a prompt into the input box and counts the turn as started (ask, a typed first prompt). */
  type(prompt: string): void {
    if (this.state === "exited") throw new T4aError("exited", `agent "${this.id}" has exited`);
    // A bracketed paste keeps newlines in the prompt from sending it early; Enter comes apart,
    // as a person's would, so the TUI sees the paste end before the key.
    this.#host.write(this.#host.bracketedPaste() ? bracketedPaste(prompt) : prompt);
    setTimeout(() => this.#host.write("\r"), ENTER_AFTER_PASTE_MS);
    // Its echo, and the Enter's, are no sign of work; its calm is counted from the Enter (a
    // CLI with no preset at rest for long before would be idle at once).
    this.#inputAt = performance.now() + ENTER_AFTER_PASTE_MS;
    this.#busyAt = this.#inputAt;
    this.#turnStarted = false;
    const head = prompt.split("\n")[0]!.trim().slice(0, 20);
    this.#typed = head ? { head, at: performance.now(), retries: 0 } : undefined;
    this.#set("working", this.#lastLine());
  }

  /**
   * The Enter of a prompt, again, when the prompt sits unsent in the input box (see ENTER_RETRY_MS):
   * ask's until its turn starts; a client's Enter to the idle agent until the agent reacts to it.
   */
  #enterAgain(rows: string[], ready: boolean, busy: boolean, question: string | undefined, now: number): void {
    const typed = this.#typed;
    if (!typed) return;
    const head = typed.head;
    const open =
      head === undefined
        ? this.state === "idle" && this.#inputPendingAt !== undefined
        : !this.#turnStarted && this.state === "working";
    if (!open || typed.retries >= ENTER_RETRIES) {
      this.#typed = undefined;
      return;
    }
    // Only where the ready pattern is the empty box's placeholder: it is not drawn while text is in it.
    if (!this.#ready.length || ready || busy || question !== undefined || now - typed.at < ENTER_RETRY_MS) return;
    if (head !== undefined && !rows.some((row) => row.includes(head))) return;
    // A client's Enter that was taken may open what leaves the placeholder undrawn (a confirmation read as no
    // question, a view, a shell after the CLI): sent again, it would answer what the client never saw. Only while no
    // row stands that was not on the screen at the Enter (the box grown by a blank row is the lost Enter's newline).
    if (typed.shown && rows.some((row) => boxRow(row) !== "" && !typed.shown!.has(boxRow(row)))) return;
    typed.retries++;
    typed.at = now;
    this.#host.write("\r");
  }
}

/** Keys that put text in an input box: a character other than a control or an escape sequence's. */
function printable(keys: string): boolean {
  return /[^\x00-\x1f\x7f]/.test(keys.replace(/\x1b(\[[0-?]*[ -/]*[@-~]|O.|.)?/g, ""));
}

/**
 * A question's screen, to tell it drawn again with other rows: every row without the glyphs the
 * CLIs animate while they ask (qwen's and gemini's braille "⠏ Waiting for user confirmation…",
 * gemini's ⊶/⊷ tool status, claude's ✻ ✽ ✶ ✳ ✢ ·) and with its spaces collapsed.
 */
const ANIMATED = /[\u2800-\u28ff⊶⊷✢✳✶✻✽·*◐◓◑◒◴◵◶◷]/gu;
/** A clock of seconds a CLI counts while it asks (copilot 1.0.102: "$ Shell … 20s" above its question). */
const COUNTED = /\b\d+(?:\.\d+)?(?:m \d+)?s\b/g;
/** The same question's words, as dialogOf compares its screen (spinners and counted seconds aside). */
/** A question's choices, in order, as one string to compare. */
function choicesOf(question: ScreenQuestion | undefined): string | undefined {
  return question?.choices.map((choice) => choice.label).join("\n");
}

export function sameQuestion(a: string, b: string): boolean {
  return dialogOf([a]) === dialogOf([b]);
}

function dialogOf(rows: string[]): string {
  return rows.map((row) => row.replace(ANIMATED, "").replace(COUNTED, "").replace(/\s+/g, " ").trim()).join("\n");
}

/** A row as an Enter's retry compares it: no frame, animated glyphs or counted seconds, spaces collapsed. */
function boxRow(row: string): string {
  return dialogOf([unboxed(row)]);
}

/** A screen row without the frame a TUI draws around it (│ ┃ ╭ ─ …) and its padding. */
function unboxed(row: string): string {
  return row.replace(FRAME, "");
}
