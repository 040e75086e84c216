// The list answers "who needs me": sessions waiting on a question first (with the question), then
// working, idle, and ended ones; each card says where it works, since when it is in its state,
// when it last wrote, and shows its last rows as text. Cards are refreshed when the daemon says a
// session changed (the event stream), not on a timer; a session writing without pause is followed
// at most every 1.5 s until it goes idle.
import type { TerminalEvent } from "../../protocol/events.ts";
import { $, age, api, element, Impostor, sessionPath, stateOf, Unreachable, type Session } from "./api.ts";
import { showWaiting } from "./alerts.ts";

/** Rows of the screen a card shows. */
const THUMB_ROWS = 10;
/** A busy session's card is redrawn at most this often. */
const THUMB_EVERY_MS = 1500;
/** Many events in a burst make one list read. */
const LIST_DEBOUNCE_MS = 250;
/** The ages on the cards ("waiting 2 min") are redrawn this often. */
const AGES_EVERY_MS = 15_000;

const ORDER: Record<string, number> = { waiting: 0, working: 1, starting: 1, idle: 2, running: 2, exited: 3, failed: 3 };

interface Thumb {
  text: string;
  at: number;
  timer?: ReturnType<typeof setTimeout>;
}

export class SessionList {
  sessions: Session[] = [];
  #thumbs = new Map<string, Thumb>();
  /** Sessions writing now (between an activity and an idle event): their cards follow, at THUMB_EVERY_MS. */
  #active = new Set<string>();
  #listTimer: ReturnType<typeof setTimeout> | undefined;
  #onStatus: (text: string, down: boolean, alarm?: string) => void;
  #open: (id: string) => void;
  #showChanges: (id: string) => void;

  constructor(handlers: { status(text: string, down: boolean, alarm?: string): void; open(id: string): void; changes(id: string): void }) {
    this.#onStatus = handlers.status;
    this.#open = handlers.open;
    this.#showChanges = handlers.changes;
    setInterval(() => !$("#list-view").hidden && this.#render(), AGES_EVERY_MS);
  }

  /** The list is shown again: every card is read afresh (none were while it was hidden). */
  async shown(): Promise<void> {
    if (await this.refresh()) for (const session of this.sessions) this.#loadThumb(session.id);
  }

  /** Reads the list now; answers false when the daemon could not be reached. */
  async refresh(): Promise<boolean> {
    clearTimeout(this.#listTimer);
    try {
      const { terminals } = await api<{ terminals: Session[] }>("/api/sessions");
      this.sessions = terminals;
      const live = new Set(terminals.map((session) => session.id));
      for (const id of this.#thumbs.keys()) if (!live.has(id)) this.#thumbs.delete(id);
      for (const id of this.#active) if (!live.has(id)) this.#active.delete(id);
      for (const session of terminals) if (!this.#thumbs.has(session.id)) this.#loadThumb(session.id);
      this.#render();
      showWaiting(terminals, this.#open);
      const waiting = terminals.filter((session) => session.alive && session.agent_state === "waiting").length;
      this.#onStatus(`${terminals.length} session${terminals.length === 1 ? "" : "s"}${waiting ? `, ${waiting} waiting` : ""}`, false);
      return true;
    } catch (error) {
      if (error instanceof Impostor) this.#onStatus("stopped", false, error.message);
      else this.#onStatus(error instanceof Unreachable ? "the daemon is not reachable" : `cannot list sessions: ${(error as Error).message}`, error instanceof Unreachable);
      return false;
    }
  }

  /** An event from the daemon: the list and that session's card are read again, soon. */
  changed(event: TerminalEvent): void {
    clearTimeout(this.#listTimer);
    this.#listTimer = setTimeout(() => void this.refresh(), LIST_DEBOUNCE_MS);
    if (!("terminal" in event)) return;
    if (event.event === "created" || event.event === "activity") this.#active.add(event.terminal);
    if (event.event === "idle" || event.event === "exit") this.#active.delete(event.terminal);
    if (event.event !== "exit") this.#loadThumb(event.terminal);
  }

  /** Reads a card's rows, at most once per THUMB_EVERY_MS per session (the last change always lands). */
  #loadThumb(id: string): void {
    if ($("#list-view").hidden) return;
    const thumb = this.#thumbs.get(id) ?? { text: "", at: 0 };
    this.#thumbs.set(id, thumb);
    if (thumb.timer) return;
    const wait = Math.max(0, thumb.at + THUMB_EVERY_MS - Date.now());
    thumb.timer = setTimeout(async () => {
      thumb.at = Date.now();
      try {
        const read = await api<{ lines: string[] }>(sessionPath(id, `/text?tail=${THUMB_ROWS}`));
        thumb.text = read.lines.join("\n");
        const pre = document.querySelector(`#sessions li[data-id="${CSS.escape(id)}"] .thumb`);
        if (pre) pre.textContent = thumb.text;
      } catch {
        // Gone or unreachable: the list read says which.
      } finally {
        thumb.timer = undefined;
        if (this.#active.has(id) && this.#thumbs.has(id)) this.#loadThumb(id);
      }
    }, wait);
  }

  #render(): void {
    const sessions = [...this.sessions].sort(byNeed);
    $("#empty").hidden = sessions.length > 0;
    const now = Date.now();
    $<HTMLUListElement>("#sessions").replaceChildren(...sessions.map((session) => this.#card(session, now)));
  }

  #card(session: Session, now: number): HTMLLIElement {
    const state = stateOf(session);
    const item = element("li", `card ${state}`);
    item.tabIndex = 0;
    item.dataset.id = session.id;
    item.dataset.state = state;
    const head = element("div", "head");
    head.append(element("strong", "name", session.id));
    const since = session.alive ? (session.agent_since ?? session.started_at) : undefined;
    const label = session.alive ? `${state} ${age(since, now)}` : `${state} (${session.exit_code ?? session.signal ?? "?"})`;
    head.append(element("span", `state ${state}`, label.trim()));
    if (session.agent) head.append(element("span", "agent", session.agent));
    item.append(head);
    if (state === "waiting" && session.agent_line) item.append(element("div", "question", session.agent_line));
    else if (session.input_wanted && !session.agent && session.input_wanted !== basename(session.cmd_args[0] ?? "")) {
      item.append(element("div", "question input", `${session.input_wanted} is reading input`));
    }
    const where = session.branch ? `⎇ ${session.branch} · ${shortPath(session.worktree ?? session.cwd)}` : shortPath(session.cwd);
    item.append(element("div", "meta where", where));
    const what = session.agent ? "" : session.cmd_args.join(" ");
    const activity = session.last_output_at ? `wrote ${age(session.last_output_at, now)} ago` : "";
    item.append(element("div", "meta", [what, session.title, activity].filter(Boolean).join(" · ")));
    item.append(element("pre", "thumb", this.#thumbs.get(session.id)?.text ?? ""));
    if (session.worktree) {
      const changes = element("button", "changes", "Changes");
      changes.title = "What it changed: commits, files, diff";
      changes.addEventListener("click", (event) => {
        event.stopPropagation();
        this.#showChanges(session.id);
      });
      item.append(changes);
    }
    item.addEventListener("click", () => this.#open(session.id));
    item.addEventListener("keydown", (event) => event.key === "Enter" && event.target === item && this.#open(session.id));
    return item;
  }
}

/** Waiting first (the longest waiting first), then working, idle, ended; most recently active first within each. */
function byNeed(a: Session, b: Session): number {
  const rank = ORDER[stateOf(a)]! - ORDER[stateOf(b)]!;
  if (rank) return rank;
  if (stateOf(a) === "waiting") return (a.agent_since ?? 0) - (b.agent_since ?? 0);
  return (b.last_output_at ?? 0) - (a.last_output_at ?? 0);
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The last two parts of a path: enough to tell projects apart on a card. */
function shortPath(path: string): string {
  const parts = path.split("/").filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join("/")}` : path;
}
