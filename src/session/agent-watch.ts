// An agent session's state — starting, working, waiting (for the user), idle, exited — from the
// best source there is: the CLI's own hooks calling `t4a notify` (claude's settings hooks,
// codex's notify), else the preset's screen patterns when output pauses, else activity and idle.
// Each change goes out as an `agent_state` event with the screen line that shows it; scripts and
// orchestrators wait on it (`t4a wait ID --agent waiting`). Types a prompt into TUIs that take it
// no other way, once their input is ready. Reads the screen through the host; no xterm here.
import { closeSync, constants, openSync, unlinkSync } from "node:fs";
import { T4aError } from "../protocol/errors.ts";
import type { TerminalEvent } from "../protocol/events.ts";
import { within, type Settle } from "../terminal/within.ts";
import type { Agent } from "../spawn/agents/agents.ts";

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
}

export interface AgentStateReply {
  state: AgentState;
  line: string;
}

export class AgentWatch {
  readonly id: string;
  state: AgentState = "starting";
  line = "";
  readonly #host: AgentHost;
  readonly #unsubscribe: () => void;
  readonly #waiting: RegExp[];
  readonly #ready: RegExp[];
  /** Once the CLI's own hooks have spoken, activity and idle no longer decide. */
  #hooked = false;
  #typedPrompt: string | undefined;
  /** The screen when input last went in: a question still shown from before was answered. */
  #sinceInput: string | undefined;
  #stopListening: (() => void) | undefined;
  #notifyPath: string | undefined;
  readonly #waiters = new Set<{ state: AgentState; settle: Settle<AgentStateReply> }>();

  constructor(id: string, agent: Agent, host: AgentHost, typedPrompt: string | undefined) {
    this.id = id;
    this.#host = host;
    this.#typedPrompt = typedPrompt;
    this.#waiting = agent.waitingPatterns.map((pattern) => new RegExp(pattern, "m"));
    this.#ready = agent.readyPatterns.map((pattern) => new RegExp(pattern, "m"));
    this.#unsubscribe = host.subscribe((event) => this.#onEvent(event));
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

  /** Input went to the agent (a person answered, or typed a prompt). */
  input(): void {
    this.#sinceInput = this.#host.screenToken();
  }

  /** A report from the agent's hooks (or any client's `notify`). */
  notify(state: string, message = ""): void {
    // Printed by `wait --agent` and shown in the browser: no escape sequences ride along.
    message = message.replace(/[\x00-\x1f\x7f-\x9f]+/g, " ").trim();
    if (!(AGENT_STATES as readonly string[]).includes(state) || state === "starting") {
      throw new T4aError("invalid_params", `state must be working, waiting, idle or exited, got "${state}"`);
    }
    if (this.state === "exited") throw new T4aError("exited", `agent "${this.id}" has exited`);
    this.#hooked = true;
    // The hook's own text is rarely what a person sees; the screen's last words are.
    // The wrapper reports the CLI's exit status as the message.
    if (state === "exited" && /^\d+$/.test(message)) message = `exit code ${message}`;
    const line = state === "waiting" ? (this.#waitingLine() ?? (message || this.#lastLine())) : message || this.#lastLine();
    this.#set(state as AgentState, line);
    if (state === "exited") this.#failWaiters();
  }

  /** Resolves when the agent is in `state` (at once if it is), or fails after the timeout. */
  async until(state: AgentState, timeoutMs: number): Promise<AgentStateReply & { elapsed_ms: number }> {
    const started = performance.now();
    if (this.state === state) return { state, line: this.line, elapsed_ms: 0 };
    if (this.state === "exited") throw new T4aError("exited", `agent "${this.id}" has exited`);
    const reply = await within<AgentStateReply>(
      timeoutMs,
      (settle) => {
        const waiter = { state, settle };
        this.#waiters.add(waiter);
        return () => this.#waiters.delete(waiter);
      },
      () => {
        throw new T4aError("timeout", `agent "${this.id}" was not ${state} within ${timeoutMs} ms (it is ${this.state})`);
      },
    );
    return { ...reply, elapsed_ms: Math.round(performance.now() - started) };
  }

  /** Stops listening to the terminal and the notify channel; safe to call again. */
  dispose(): void {
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
    if (event.event === "exit") {
      this.#set("exited", this.#lastLine());
      this.#failWaiters();
      this.dispose();
      return;
    }
    if (this.state === "exited") return;
    if (event.event === "activity" && !this.#hooked) this.#set("working", this.#lastLine());
    if (event.event === "idle") {
      const question = this.#waitingLine();
      if (question !== undefined) this.#set("waiting", question);
      else if (!this.#hooked) this.#set("idle", this.#lastLine());
      this.#maybeType();
    }
  }

  /** Waiters for a state the agent can no longer reach. */
  #failWaiters(): void {
    for (const waiter of [...this.#waiters]) waiter.settle.fail(new T4aError("exited", `agent "${this.id}" has exited`));
  }

  /** A change of state is an event; so is a new question while waiting. Other line changes are not. */
  #set(state: AgentState, line: string): void {
    if (state === this.state && (state !== "waiting" || line === this.line)) {
      this.line = line;
      return;
    }
    this.state = state;
    this.line = line;
    this.#host.publish({ event: "agent_state", terminal: this.id, state, line });
    for (const waiter of [...this.#waiters]) if (waiter.state === state) waiter.settle({ state, line });
  }

  /** The last screen line that matches a waiting pattern (an approval question), if any, among rows drawn since the last input. */
  #waitingLine(): string | undefined {
    const lines = this.#sinceInput === undefined ? this.#host.screen() : this.#host.changedSince(this.#sinceInput);
    for (let i = lines.length - 1; i >= 0; i--) {
      if (this.#waiting.some((pattern) => pattern.test(lines[i]!))) return lines[i]!.trim();
    }
    return undefined;
  }

  #lastLine(): string {
    return (this.#host.screen().findLast((line) => line.trim() !== "") ?? "").trim();
  }

  /** A prompt for a TUI that takes none on its command line: typed once its input is ready. */
  #maybeType(): void {
    const prompt = this.#typedPrompt;
    if (prompt === undefined || this.state === "waiting") return;
    const text = this.#host.screen().join("\n");
    if (this.#ready.length && !this.#ready.some((pattern) => pattern.test(text))) return;
    this.#typedPrompt = undefined;
    // A bracketed paste keeps newlines in the prompt from sending it early; Enter comes apart,
    // as a person's would, so the TUI sees the paste end before the key.
    this.#host.write(this.#host.bracketedPaste() ? `\x1b[200~${prompt}\x1b[201~` : prompt);
    setTimeout(() => this.#host.write("\r"), 50);
    this.#set("working", this.#lastLine());
  }
}
