// One session's life in one place: its terminal, what its spawn plan left to undo, its agent's
// watch, its recording, its viewers, its timeout, and its manifest entry. Its end runs in one
// order (see #ended) and dispose() lets go of everything. Made by Sessions; no wire here.
import { forDisplay, fromProgram, type ProgramText } from "../protocol/program-text.ts";
import type { SessionSpec } from "../protocol/session-spec.ts";
import { T4aError } from "../protocol/errors.ts";
import type { Manifest } from "../service/manifest.ts";
import { runCleanups, type Cleanup, type SpawnFacts } from "../spawn/plan.ts";
import { Attachment, type AttachOptions, type Viewer } from "../stream/attachment.ts";
import { Recorder, type CastFormat } from "../stream/recorder.ts";
import type { EventBus } from "../terminal/event-bus.ts";
import type { SessionInfo } from "../protocol/session-info.ts";
import type { EndHookReport, Terminal } from "../terminal/terminal.ts";
import { withinBudget } from "../protocol/budget.ts";
import { keyBytes } from "../terminal/keys.ts";
import { openFiles } from "../terminal/open-files.ts";
import { findLog, readTranscript, type Message } from "./transcript.ts";
import { TaintedReadError } from "../spawn/tainted-files.ts";
import { readChanges, type Changes } from "../spawn/changes.ts";
import type { SessionLimits } from "../spawn/limits.ts";
import type { AgentWatch } from "./agent-watch.ts";
import { readingInput, type NeedInfo, type NeedKind } from "../protocol/need.ts";
import type { TerminalEvent } from "../protocol/events.ts";

/**
 * A CLI writes a turn's answer to its log after it draws it: for this long after the turn ended,
 * a read of the log that lacks it reads again (qwen 0.24's landed 2 s after its idle, several
 * agents running; claude's whole turn was once missing just after it).
 */
const LOG_SETTLE_MS = 5000;
/** How often the log is read again meanwhile. */
const LOG_POLL_MS = 100;

export interface AskOutcome {
  ended: "idle" | "waiting" | "exited" | "timeout" | "error";
  /** The CLI's own error line, when it ended error (its API refused the turn). */
  error?: string;
  /** The question it waits on, when it ended waiting, and its id (for approve/deny to name). */
  question?: string;
  question_id?: number;
  answer: string;
  /** Where the answer was read: the CLI's log, or its screen. */
  source: "log" | "screen";
  cut: number;
  elapsed_ms: number;
}

/** The agent's words after the prompt, in a log's messages since the ask began; undefined when none are there. */
function answerIn(messages: Message[] | undefined, prompt: string): string | undefined {
  if (!messages) return undefined;
  const asked = messages.findLastIndex(
    (message) => message.role === "user" && message.text.includes(prompt.trim().slice(0, 200)),
  );
  const words = messages.slice(asked + 1).filter((message) => message.role === "assistant");
  return words.length ? words.map((message) => message.text).join("\n\n") : undefined;
}

/**
 * How a CLI with no preset is answered: `check` refuses at once what cannot be answered (no choice
 * says always), before the question is taken; what it returns presses the choice and names the keys.
 */
export interface Picker {
  /** The keys' sender, given the question taken (as shown): it sends nothing to another question. */
  check(kind: "yes" | "always" | "no"): (question: string) => Promise<string[]>;
}

/** How long an agent just started must have been idle before ask types into it (its first idle). */
const IDLE_SETTLE_MS = 1500;
/**
 * The same after a turn ended: its input box has been live all along, and the idle itself came
 * after the screen was still for a while. Every ask after the first waited 1.5 s for nothing.
 */
const TURN_END_SETTLE_MS = 300;

/** Between the keys of one answer (Right, then Enter): a TUI reads a chunk of keys as a paste. */
const KEY_GAP_MS = 80;

/** Need ids count across the daemon: a session made again under the same name never repeats one. */
let lastNeedId = 0;

/** Who acts on a need: a worker by name, or (no name) the connection it asks on. */
export interface Claimer {
  worker?: string;
  connection?: number;
}

/** How a claim ends with the connection that made it (anonymous claims): register, answer the unregister. */
export type OnClose = (release: () => void) => () => void;

interface Claim {
  need_id: number;
  holder: string;
  who: Claimer;
  expires_at: number;
  timer: ReturnType<typeof setTimeout>;
  unbind?: () => void;
}

/** A FIFO lock: one holder, the others queued in order, each within its own timeout. */
class TurnLock {
  #held = false;

  get held(): boolean {
    return this.#held;
  }
  readonly #queue: Array<() => void> = [];

  /** Resolves to the release once this caller holds it; `noWait` refuses at once when it is held. */
  take(timeoutMs: number, noWait: boolean, heldBy: string): Promise<() => void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve(this.#release());
    }
    if (noWait) return Promise.reject(new T4aError("busy", heldBy));
    return new Promise((resolve, reject) => {
      const next = () => {
        clearTimeout(timer);
        resolve(this.#release());
      };
      const timer = setTimeout(() => {
        this.#queue.splice(this.#queue.indexOf(next), 1);
        reject(new T4aError("timeout", `${heldBy}: still queued after ${Math.round(timeoutMs)} ms; nothing was typed`));
      }, timeoutMs);
      this.#queue.push(next);
    });
  }

  #release(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      if (next) next();
      else this.#held = false;
    };
  }
}

/** What the session is told at its start; its terminal follows once spawned (see started). */
export interface SessionParts {
  id: string;
  facts: SpawnFacts;
  cleanups: Cleanup[];
  persist: boolean;
  restored: boolean;
  /** What it was made from: a restart makes it again. */
  spec: SessionSpec;
  bus: EventBus;
  manifest: Manifest;
  limits?: SessionLimits;
  /** Its need changed in a way no event says (a claim ended, an ask let go of the agent). */
  needsChanged?: () => void;
}

export class Session {
  readonly id: string;
  readonly facts: SpawnFacts;
  readonly persist: boolean;
  readonly restored: boolean;
  readonly spec: SessionSpec;
  /** Set when a restore could not bring it back where it was (its directory is gone). */
  /** Why it is not where it was: names the directory its OSC 7 reported, the program's text. */
  restoreNote: ProgramText | undefined;
  #terminal: Terminal | undefined;
  #agent: AgentWatch | undefined;
  #recorder: Recorder | undefined;
  #viewers = 0;
  readonly #cleanups: Cleanup[];
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #bus: EventBus;
  readonly #manifest: Manifest;
  readonly #limits: SessionLimits | undefined;
  #disposed = false;
  /** When and where it started: a CLI's log that carries no id of ours is found by them. */
  readonly #startedAt = Date.now();
  /** This session's log without an id of ours, once its processes were seen holding it open. */
  #heldLog: { path: string; root: string; held?: boolean } | undefined;
  readonly #turns = new TurnLock();
  #startCwd = "";
  /** The id of the latest need of each kind, by the key that tells it apart (q3, t5, i2, x). */
  readonly #needIds = new Map<NeedKind, { key: string; id: number }>();
  /** Needs taken by a worker's own input (send): not reported again. */
  readonly #spent = new Set<number>();
  #inputEpisodes = 0;
  #claim: Claim | undefined;
  readonly #needsChanged: () => void;

  constructor(parts: SessionParts) {
    this.id = parts.id;
    this.facts = parts.facts;
    this.persist = parts.persist;
    this.restored = parts.restored;
    this.spec = parts.spec;
    this.#cleanups = parts.cleanups;
    this.#bus = parts.bus;
    this.#manifest = parts.manifest;
    this.#limits = parts.limits;
    this.#needsChanged = parts.needsChanged ?? (() => {});
  }

  get terminal(): Terminal {
    if (!this.#terminal) throw new T4aError("internal", `session "${this.id}" has no terminal yet`);
    return this.#terminal;
  }

  /** The terminal, when its program still runs: input and resizes need one. */
  get alive(): Terminal {
    if (!this.terminal.alive) throw new T4aError("exited", `terminal "${this.id}" has exited`);
    return this.terminal;
  }

  get agent(): AgentWatch | undefined {
    return this.#agent;
  }

  /**
   * Answers the question the agent waits on with the keys its preset names (yes, always, no),
   * one key at a time as a person presses them. Refused unless it waits on a question.
   */
  async answer(
    kind: "yes" | "always" | "no",
    questionId?: number,
    who: Claimer & { force?: boolean } = {},
    pick?: Picker,
  ): Promise<{ question: string; question_id: number; keys: string[] }> {
    const watch = this.#requireAgent();
    watch.assertOwnsTerminal();
    this.#mayAct(who);
    if (watch.generic && pick) {
      // A CLI with no preset: the question's own choice, picked on its screen (`pick`, the command's).
      const press = pick.check(kind);
      const { question, question_id } = watch.takeQuestion(questionId);
      this.#acted(who, false);
      return { question, question_id, keys: await press(question) };
    }
    const keys = watch.agent.answers[kind];
    if (!keys?.length) throw new T4aError("unsupported", `${watch.agent.name} offers no "${kind}" answer`);
    const terminal = this.alive;
    const bytes = keys.map((key) => keyBytes(key, terminal.screen));
    // Taken before the first key goes in (no await between): a second answer finds it spent.
    const { question, question_id } = watch.takeQuestion(questionId);
    this.#acted(who, false);
    for (const [i, key] of bytes.entries()) {
      if (i > 0) await Bun.sleep(KEY_GAP_MS);
      if (terminal.alive) terminal.write(key);
    }
    return { question, question_id, keys };
  }

  /**
   * Types a prompt into the agent and waits for its turn to end (idle, a question, its exit, or
   * the timeout): answers how it ended and the agent's answer, from its CLI's conversation log
   * where the preset names one, else the words drawn since the prompt.
   */
  async ask(
    prompt: string,
    timeoutMs: number,
    maxChars: number,
    noWait = false,
    who: Claimer & { force?: boolean } = {},
  ): Promise<AskOutcome> {
    const watch = this.#requireAgent();
    const started = performance.now();
    const left = () => Math.max(1, timeoutMs - (performance.now() - started));
    this.#mayAct(who);
    // One turn at a time: held from the check that the agent is free until its turn ends, so two
    // asks never type into the same input box (they would become one prompt). While it is held
    // the agent's needs are the asker's: none is reported (see need()).
    const release = await this.#turns.take(left(), noWait, `agent "${this.id}" is taking another ask's turn`);
    this.#acted(who, false);
    try {
      return await this.#askInTurn(watch, prompt, started, left, maxChars, noWait);
    } catch (error) {
      // A kill that ended the session under the ask: its screen is gone, the agent exited.
      if (this.#terminal && !this.#terminal.alive && !(error instanceof T4aError && error.code === "exited"))
        throw new T4aError("exited", `agent "${this.id}" has exited`);
      throw error;
    } finally {
      release();
      // What it asked ended (idle, a question): that need is now for anyone to take.
      this.#needsChanged();
    }
  }

  /**
   * What it needs now (see protocol/need.ts): an open question, an idle after a turn, input
   * wanted, a failed exit; with its id and its claim. None while an ask has its turn (its end is
   * the asker's), nor once taken.
   */
  need(): NeedInfo | undefined {
    if (this.#turns.held) return undefined;
    const need = this.#openNeed();
    if (!need || this.#spent.has(need.need_id)) return undefined;
    const claim = this.#currentClaim(need.need_id);
    // Its line is the program's (a question or a last line read off the screen, a reader's name):
    // it reaches list --json, MCP and the page, so it goes out as forDisplay makes it.
    const shown = { ...need, line: forDisplay(fromProgram(need.line)) };
    return claim ? { ...shown, claimed_by: claim.holder, claim_expires_at: claim.expires_at } : shown;
  }

  /**
   * Hands its need to one worker: answers false when it is not the need now, or another holds it.
   * The claim ends when its holder acts on it, after `leaseMs`, or (bound with `onClose`) when the
   * connection that made it closes.
   */
  claim(needId: number, who: Claimer, leaseMs: number, onClose?: OnClose): NeedInfo | undefined {
    const need = this.need();
    if (!need || need.need_id !== needId || need.claimed_by !== undefined) return undefined;
    const holder = who.worker !== undefined ? `worker "${who.worker}"` : `connection ${who.connection ?? "?"}`;
    const expires_at = Date.now() + leaseMs;
    const timer = setTimeout(() => this.#endClaim(claim), leaseMs);
    timer.unref?.();
    const claim: Claim = { need_id: needId, holder, who, expires_at, timer };
    this.#claim = claim;
    if (onClose) claim.unbind = onClose(() => this.#endClaim(claim));
    return { ...need, claimed_by: holder, claim_expires_at: expires_at };
  }

  /** Gives a claim back unacted on: the need is anyone's again. */
  releaseClaim(who: Claimer): boolean {
    const claim = this.#claim;
    if (!claim || !sameClaimer(claim.who, who)) return false;
    this.#endClaim(claim);
    return true;
  }

  /**
   * Input meant to meet its need (approve, deny, ask, send) from someone not holding its claim is
   * refused with the holder's name, unless forced.
   */
  #mayAct(who: Claimer & { force?: boolean }): void {
    const need = this.#openNeed();
    const claim = need && this.#currentClaim(need.need_id);
    if (!claim || who.force || sameClaimer(claim.who, who)) return;
    throw new T4aError(
      "claimed",
      `${need.why === "waiting" ? `the question of agent "${this.id}"` : `terminal "${this.id}"`} ` +
        `(need ${need.need_id}) is claimed by ${claim.holder} until ${new Date(claim.expires_at).toISOString()}: ` +
        "only it acts on it (force to act anyway)",
    );
  }

  /** After input that met its need: the claim on it ends; `spend` (a worker's send) takes the need for good. */
  #acted(who: Claimer & { force?: boolean }, spend: boolean): void {
    const need = this.#openNeed();
    const claim = this.#claim;
    const held = claim !== undefined && (sameClaimer(claim.who, who) || who.force === true);
    if (spend && need && held && (need.why === "waiting" || need.why === "idle")) this.#spent.add(need.need_id);
    if (claim && held) this.#endClaim(claim);
  }

  /** Input from send: refused when another worker holds the need; its holder's input takes it. */
  sending(who: Claimer & { force?: boolean }): () => void {
    this.#mayAct(who);
    return () => this.#acted(who, true);
  }

  /** The claim on this need, if one holds it (a claim on an earlier need is let go). */
  #currentClaim(needId: number): Claim | undefined {
    const claim = this.#claim;
    if (claim && claim.need_id !== needId) {
      clearTimeout(claim.timer);
      claim.unbind?.();
      this.#claim = undefined;
      return undefined;
    }
    return claim;
  }

  #endClaim(claim: Claim): void {
    clearTimeout(claim.timer);
    claim.unbind?.();
    if (this.#claim !== claim) return;
    this.#claim = undefined;
    this.#needsChanged();
  }

  /** Its need as the screen and the process show it, before claims and asks. */
  #openNeed(): NeedInfo | undefined {
    const terminal = this.#terminal;
    if (!terminal) return undefined;
    const watch = this.#agent;
    if (watch && terminal.alive) {
      if (watch.state === "waiting" && !watch.questionAnswered)
        return {
          need_id: this.#needId("waiting", `q${watch.questionId}`),
          why: "waiting",
          line: watch.line,
          question_id: watch.questionId,
        };
      if (watch.state === "idle" && watch.turn > 0)
        return { need_id: this.#needId("idle", `t${watch.turn}`), why: "idle", line: watch.line, turn: watch.turn };
      return undefined;
    }
    if (terminal.alive) {
      const info = terminal.info();
      if (!readingInput({ ...info, agent: this.facts.agent })) return undefined;
      return {
        need_id: this.#needId("input", `i${this.#inputEpisodes}`),
        why: "input",
        line: String(info.input_wanted),
      };
    }
    const info = terminal.info();
    if (info.exit_code === 0 || info.exit_code === undefined) return undefined;
    return { need_id: this.#needId("failed", "x"), why: "failed", line: `exited ${info.signal ?? info.exit_code}` };
  }

  #needId(kind: NeedKind, key: string): number {
    const last = this.#needIds.get(kind);
    if (last?.key === key) return last.id;
    const id = ++lastNeedId;
    this.#needIds.set(kind, { key, id });
    return id;
  }

  /** An event of this session as it goes out: one that begins a need carries its id. */
  stamp(event: TerminalEvent): TerminalEvent {
    if (event.event === "input_wanted") {
      this.#inputEpisodes++;
      return { ...event, need_id: this.#needId("input", `i${this.#inputEpisodes}`) };
    }
    if (event.event === "agent_state" && event.state === "waiting" && event.question_id !== undefined)
      return { ...event, need_id: this.#needId("waiting", `q${event.question_id}`) };
    if (event.event === "agent_state" && event.state === "idle" && this.#agent && this.#agent.turn > 0)
      return { ...event, turn: this.#agent.turn, need_id: this.#needId("idle", `t${this.#agent.turn}`) };
    if (event.event === "exit" && event.code !== 0 && event.reason === undefined)
      return { ...event, need_id: this.#needId("failed", "x") };
    return event;
  }

  async #askInTurn(
    watch: AgentWatch,
    prompt: string,
    started: number,
    left: () => number,
    maxChars: number,
    noWait: boolean,
  ): Promise<AskOutcome> {
    watch.assertOwnsTerminal();
    if (watch.state === "working" && noWait)
      throw new T4aError("busy", `agent "${this.id}" is working on a turn; wait for it (wait --agent idle)`);
    // Someone else's turn (a prompt sent with send, the first one): this ask waits for its end.
    if (watch.state === "starting" || watch.state === "working") await watch.until(["idle", "waiting"], left());
    if (watch.state === "waiting")
      throw new T4aError("busy", `agent "${this.id}" waits on a question: approve or deny it first ("${watch.line}")`);
    watch.assertOwnsTerminal();
    const terminal = this.alive;
    // A TUI drawn idle a moment ago may still be settling: opencode drops keys typed in its first second.
    const settling = (watch.turnEnded ? TURN_END_SETTLE_MS : IDLE_SETTLE_MS) - watch.inStateMs();
    if (settling > 0) await Bun.sleep(settling);
    watch.assertOwnsTerminal();
    const before = await this.#transcriptOrNone();
    const token = terminal.screen.changeToken();
    watch.type(prompt);
    let ended: AskOutcome["ended"] = "timeout";
    try {
      ended = (await watch.until(["idle", "waiting", "exited"], left())).state as AskOutcome["ended"];
    } catch (error) {
      if (!(error instanceof T4aError && error.code === "timeout")) throw error;
    }
    let answer: string | undefined;
    // The CLI writes its log as the turn ends: give a just-finished turn a moment to land there
    // (none for a CLI t4a reads no log of: its answer is the screen's at once).
    const settled = performance.now() + (this.#requireAgent().agent.log ? LOG_SETTLE_MS : 0);
    for (;;) {
      const after = await this.#transcriptOrNone();
      answer = answerIn(after?.messages.slice(after.path === before?.path ? before.messages.length : 0), prompt);
      if (answer !== undefined || ended === "timeout" || performance.now() >= settled) break;
      await Bun.sleep(LOG_POLL_MS);
    }
    const source = answer === undefined ? "screen" : "log";
    const words = answer ?? watch.wordsSince(token, prompt);
    // A turn that ended on the CLI's own error line (its API refused) did not answer.
    // So did one that ended on a question which is the refusal itself (gemini's "Usage limit
    // reached …, 1. Keep trying, 2. Stop"): an error, the question still open for an answer.
    const error =
      ended === "idle" ? watch.errorLine(words) : ended === "waiting" ? watch.errorLine(watch.line) : undefined;
    const budgeted = withinBudget(words, maxChars);
    // The answer is the agent's (its log, a file it writes, or its screen): shown, newlines kept.
    const outcome: AskOutcome = {
      ended: error === undefined ? ended : "error",
      answer: forDisplay(fromProgram(budgeted.text), "lines"),
      source,
      cut: budgeted.cut,
      elapsed_ms: Math.round(performance.now() - started),
    };
    if (error !== undefined) outcome.error = forDisplay(fromProgram(error));
    if (ended === "waiting") {
      outcome.question = forDisplay(fromProgram(watch.line));
      outcome.question_id = watch.questionId;
    }
    return outcome;
  }

  /** ask's view of the log: one it cannot read (made a FIFO, a symlink) means answering from the screen. */
  async #transcriptOrNone(): Promise<Awaited<ReturnType<Session["transcript"]>>> {
    try {
      return await this.#readLog();
    } catch (error) {
      if (error instanceof TaintedReadError) return undefined;
      throw error;
    }
  }

  /** The agent's conversation from its CLI's log; undefined when its preset names none or there is none yet. */
  async transcript(): Promise<{ path: string; messages: Message[] } | undefined> {
    try {
      return await this.#readLog();
    } catch (error) {
      if (!(error instanceof TaintedReadError)) throw error;
      throw new T4aError("unsupported", `the conversation log ${error.message} (the agent can write there)`);
    }
  }

  /**
   * transcript(), once a turn that has just ended has its answer in the log: read as the idle
   * comes (an orchestrator's loop), a CLI may not have written it yet. Read again until the last
   * message is the agent's, for LOG_SETTLE_MS after the idle at most.
   */
  async settledTranscript(): Promise<Awaited<ReturnType<Session["transcript"]>>> {
    // Its own deadline too: an agent flickering between working and idle (the log and the screen
    // are the agent's to shape) would otherwise keep a transcript, or a kill, waiting for ever.
    const deadline = performance.now() + LOG_SETTLE_MS;
    for (;;) {
      const read = await this.transcript();
      if (!this.#turnJustEnded() || read?.messages.at(-1)?.role === "assistant" || performance.now() >= deadline)
        return read;
      await Bun.sleep(LOG_POLL_MS);
    }
  }

  /**
   * Before a kill: a turn that has just ended has its answer in the CLI's log (as for
   * settledTranscript). qwen killed the moment its idle came had not written it, and its resume
   * began without that turn's answer (twice in fresh-clone runs of the suite).
   */
  async logSettled(): Promise<void> {
    if (!this.#agent?.agent.log || !this.#terminal?.alive || !this.#turnJustEnded()) return;
    try {
      // No log of it at all (a CLI that keeps none where its preset says): nothing to wait for.
      if ((await this.transcript()) !== undefined) await this.settledTranscript();
    } catch {
      // A log refused as tainted has nothing to wait for: the kill goes on.
    }
  }

  /** The agent's turn ended less than LOG_SETTLE_MS ago, and it is still idle. */
  #turnJustEnded(): boolean {
    const watch = this.#agent;
    return watch?.state === "idle" && watch.turnEnded && watch.inStateMs() < LOG_SETTLE_MS;
  }

  /** transcript(), its TaintedReadError as thrown. */
  async #readLog(): Promise<{ path: string; messages: Message[] } | undefined> {
    const log = this.#requireAgent().agent.log;
    if (!log || !this.#terminal) return undefined;
    const terminal = this.#terminal;
    const place = {
      home: terminal.env.HOME ?? "",
      cwd: this.#startCwd,
      conversationId: this.facts.conversation_id,
      startedAt: this.#startedAt,
      resumed: this.facts.resumed,
      openFiles: () => openFiles(terminal.pid),
    };
    // A log once seen held open by this session's processes stays its own after they close it.
    const found = this.#heldLog ?? (place.home ? findLog(log, place) : undefined);
    if (found?.held) this.#heldLog = found;
    return found && { path: found.path, messages: await readTranscript(found.path, found.root, log.format, place) };
  }

  /** What the session changed in its worktree (or, unsandboxed, in the repository it works in). */
  changes(): Promise<Changes> {
    const worktree = this.facts.worktree;
    return readChanges(worktree ?? this.terminal.cwd, {
      worktree: worktree !== undefined,
      trusted: this.facts.sandbox === undefined,
    });
  }

  #requireAgent(): AgentWatch {
    if (!this.#agent) throw new T4aError("unsupported", `terminal "${this.id}" runs no agent (create it with --agent)`);
    return this.#agent;
  }

  /** Called once by Sessions after the spawn, with the agent watch that starts with it. */
  started(terminal: Terminal, agent?: AgentWatch): void {
    this.#terminal = terminal;
    this.#heldLog = undefined;
    this.#startCwd = terminal.cwd;
    this.#agent = agent;
  }

  info(): SessionInfo {
    const info: SessionInfo = { ...this.terminal.info(), ...this.facts, started_at: this.#startedAt };
    if (this.#agent) {
      info.agent_state = this.#agent.state;
      info.agent_since = Math.round(Date.now() - this.#agent.inStateMs());
      if (this.#agent.line) info.agent_line = forDisplay(fromProgram(this.#agent.line));
      if (this.#agent.state === "waiting") info.agent_question_id = this.#agent.questionId;
      if (this.#agent.questionAnswered) info.agent_question_answered = true;
    }
    const need = this.need();
    if (need) info.need = need;
    if (this.restored) info.restored = true;
    if (this.restoreNote) info.restore_note = forDisplay(this.restoreNote);
    if (this.persist) info.persist = true;
    if (this.#limits) {
      info.limits = { ...this.#limits.limits, how: this.#limits.how };
      if (info.alive) info.usage = this.#limits.usage(info.pid);
    }
    if (this.#recorder) info.recording = this.#recorder.path;
    if (this.#viewers > 0) info.viewers = this.#viewers;
    return info;
  }

  /** Ends the session after `ms` as kill does, with this reason on its exit event. */
  endAfter(ms: number, end: () => Promise<unknown>): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void end().catch(() => {});
    }, ms);
    this.#timers.add(timer);
  }

  /** A viewer from now on (attach, a browser): the screen, then every byte; counted while it stays. */
  view(viewer: Viewer, options: Omit<AttachOptions, "onClose">): Attachment {
    this.#viewers++;
    return new Attachment(this.terminal, viewer, { ...options, onClose: () => this.#viewers-- });
  }

  /** Record to an asciicast file from this byte on, until stopRecording, the end, or shutdown. */
  record(path: string, input: boolean, format: CastFormat): void {
    if (this.#recorder)
      throw new T4aError("exists", `terminal "${this.id}" is already being recorded to ${this.#recorder.path}`);
    if (!this.terminal.alive) throw new T4aError("exited", `terminal "${this.id}" has exited`);
    let recorder: Recorder;
    try {
      recorder = new Recorder(this.terminal, {
        path,
        format,
        input,
        env: this.terminal.env,
        events: (sink) => this.#bus.subscribe(this.id, sink),
      });
    } catch (error) {
      throw new T4aError("invalid_params", `cannot record to ${path}: ${(error as Error).message}`);
    }
    recorder.onEnd = () => {
      if (this.#recorder === recorder) this.#recorder = undefined;
    };
    this.#recorder = recorder;
  }

  /** Answers the path that was being written, once the file holds every event. */
  async stopRecording(): Promise<string> {
    const recorder = this.#recorder;
    if (!recorder) throw new T4aError("not_found", `terminal "${this.id}" is not being recorded`);
    await recorder.close();
    return recorder.path;
  }

  /** The shell moved (OSC 7): a persisted session comes back there. */
  movedTo(cwd: string): void {
    if (this.persist) this.#manifest.update(this.id, { cwd });
  }

  /** A new size (resize, an attached client's window): a persisted session comes back at it. */
  resized(cols: number, rows: number): void {
    if (this.persist) this.#manifest.update(this.id, { cols, rows });
  }

  /**
   * The program has ended, before its exit event goes out. In this order: the timeout is
   * cancelled; the manifest forgets the session unless the daemon is shutting down (then it comes
   * back); the plan's cleanups run (the worktree last made, first undone). What they kept joins
   * the exit event. After the event: the agent watch reports "exited", recording and viewers end.
   */
  async ended(reason: string | undefined): Promise<EndHookReport> {
    this.#clearTimers();
    if (reason !== "shutdown") this.#manifest.remove(this.id);
    // Killed by the kernel for want of memory (read before the cleanups remove the cgroup).
    const outOfMemory =
      this.#limits !== undefined &&
      this.terminal.info().signal === "SIGKILL" &&
      this.#limits.oomKills(this.terminal.pid) > 0;
    // Why a worktree was kept may quote git's stderr, which names what the session wrote.
    const kept = (await runCleanups(this.#cleanups)).map((item) => ({
      ...item,
      reason: forDisplay(fromProgram(item.reason)),
    }));
    return { ...(outOfMemory ? { reason: "memory_limit" } : {}), ...(kept.length ? { kept } : {}) };
  }

  /**
   * Lets go of everything the session holds; safe to call again. Settles once its recording (if any) is whole on disk.
   */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#clearTimers();
    if (this.#claim) {
      clearTimeout(this.#claim.timer);
      this.#claim.unbind?.();
      this.#claim = undefined;
    }
    this.#agent?.dispose();
    const recording = this.#recorder?.close();
    this.#terminal?.dispose();
    await recording;
  }

  #clearTimers(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}

function sameClaimer(a: Claimer, b: Claimer): boolean {
  return a.worker !== undefined ? a.worker === b.worker : b.worker === undefined && a.connection === b.connection;
}
