// The list answers "who needs me": sessions waiting on a question first (with the question and
// the buttons that answer it), then turns to review, programs reading input, failed ones, then
// working, idle, and ended ones; each card says where it works, since when it is in its state,
// when it last wrote, what a worktree changed (+12 −3, 2 files, 1 commit), and shows its last rows
// as text. Cards are refreshed when the daemon says a session changed (the event stream), not on a
// timer; a session writing without pause is followed at most every 1.5 s until it goes idle.
// Keyboard: the first card that needs me is focused; a / A / d approve, always, deny it, r its
// reply box, j / k move; after an answer, focus moves to the next that needs me.
import type { TerminalEvent } from "../../protocol/events.ts";
import type { KeptItem } from "../../protocol/fields.ts";
import {
  $,
  age,
  api,
  element,
  Impostor,
  sessionPath,
  stateOf,
  Unreachable,
  type HostStatus,
  type Session,
} from "./api.ts";
import { createHosts } from "./create-form.ts";
import { showNeeds } from "./alerts.ts";
import { act, answerControls, answersLoaded, forgetRepliesExcept, type Act } from "./answer.ts";
import { agentStateSeen, needOf, needSummary, NEED_ORDER, NEED_WORDS, seen, sessionsSeen } from "./needs.ts";

/** Rows of the screen a card shows. */
const THUMB_ROWS = 10;
/** A busy session's card is redrawn at most this often. */
const THUMB_EVERY_MS = 1500;
/** A worktree's diff stats are read again at most this often (and only after it changed). */
const STATS_EVERY_MS = 5000;
/** Many events in a burst make one list read, this long after the first. */
const LIST_DEBOUNCE_MS = 250;
/** While a host does not answer, the list is read again this often. */
const HOST_RETRY_MS = 5000;
/** The ages on the cards ("waiting 2 min") are redrawn this often. */
const AGES_EVERY_MS = 15_000;

const ORDER: Record<string, number> = {
  waiting: 0,
  working: 1,
  starting: 1,
  idle: 2,
  running: 2,
  exited: 3,
  failed: 3,
};

interface Thumb {
  text: string;
  at: number;
  timer?: ReturnType<typeof setTimeout>;
}

interface Stats {
  text: string;
  at: number;
  stale: boolean;
  loading: boolean;
}

/** A session killed from this page whose end kept work: its card stays, with the branch, until removed. */
interface Tombstone {
  id: string;
  branch?: string;
  kept: KeptItem[];
  at: number;
}

export class SessionList {
  sessions: Session[] = [];
  /** The hosts of hosts.json as the last list read them (a host down has its error). */
  hosts: HostStatus[] = [];
  #thumbs = new Map<string, Thumb>();
  #stats = new Map<string, Stats>();
  #tombstones = new Map<string, Tombstone>();
  /**
   * Sessions answered from here, with the agent_since of the question: skipped by focus until the daemon says it moved
   * on.
   */
  #answered = new Map<string, number | undefined>();
  /** Sessions writing now (between an activity and an idle event): their cards follow, at THUMB_EVERY_MS. */
  #active = new Set<string>();
  #listTimer: ReturnType<typeof setTimeout> | undefined;
  #onStatus: (text: string, down: boolean, alarm?: string) => void;
  #open: (id: string) => void;
  #showChanges: (id: string) => void;
  #onSessions: (sessions: Session[]) => void;

  constructor(handlers: {
    status(text: string, down: boolean, alarm?: string): void;
    open(id: string): void;
    changes(id: string): void;
    sessions?(sessions: Session[]): void;
  }) {
    this.#onStatus = handlers.status;
    this.#open = (id) => {
      seen(
        id,
        this.sessions.find((session) => session.id === id),
      );
      handlers.open(id);
    };
    this.#showChanges = handlers.changes;
    this.#onSessions = handlers.sessions ?? (() => {});
    setInterval(() => !$("#list-view").hidden && this.#render(), AGES_EVERY_MS);
    $<HTMLSelectElement>("#host-filter").addEventListener("change", () => this.#render());
    document.addEventListener("keydown", (event) => this.#key(event));
  }

  /** The list is shown again: every card is read afresh (none were while it was hidden). */
  async shown(): Promise<void> {
    if (await this.refresh()) for (const session of this.sessions) this.#loadThumb(session.id);
  }

  /** Reads the list now; answers false when the daemon could not be reached. */
  async refresh(): Promise<boolean> {
    clearTimeout(this.#listTimer);
    this.#listTimer = undefined;
    try {
      const { terminals, hosts = [] } = await api<{ terminals: Session[]; hosts?: HostStatus[] }>(
        "/api/sessions?all=true",
      );
      this.hosts = hosts;
      this.#hostsShown();
      // The presets' answer keys (read once, never waited on): a card draws Always only where its agent has one.
      const loading = answersLoaded();
      if (loading) void loading.then(() => this.#render());
      this.sessions = terminals;
      sessionsSeen(terminals);
      const live = new Set(terminals.map((session) => session.id));
      for (const id of this.#thumbs.keys()) if (!live.has(id)) this.#thumbs.delete(id);
      for (const id of this.#stats.keys()) if (!live.has(id)) this.#stats.delete(id);
      for (const id of this.#active) if (!live.has(id)) this.#active.delete(id);
      for (const id of this.#tombstones.keys()) if (live.has(id)) this.#tombstones.delete(id);
      for (const [id, since] of this.#answered) {
        const session = terminals.find((one) => one.id === id);
        if (session?.agent_state !== "waiting" || session.agent_since !== since) this.#answered.delete(id);
      }
      for (const session of terminals) if (!this.#thumbs.has(session.id)) this.#loadThumb(session.id);
      this.#render();
      showNeeds(terminals, this.#open);
      this.#onSessions(terminals);
      const needs = needSummary(terminals);
      const down = hosts.filter((host) => host.error !== undefined).map((host) => `${host.name}: ${host.error}`);
      // A host that did not answer is asked again soon, events or not: its cards return when it does.
      if (down.length) this.#listTimer ??= setTimeout(() => void this.refresh(), HOST_RETRY_MS);
      this.#onStatus(
        `${terminals.length} session${terminals.length === 1 ? "" : "s"}` +
          (needs.text ? `, ${needs.text}` : "") +
          (down.length ? ` · ${down.join(" · ")}` : ""),
        false,
      );
      return true;
    } catch (error) {
      if (error instanceof Impostor) this.#onStatus("stopped", false, error.message);
      else
        this.#onStatus(
          error instanceof Unreachable
            ? "the daemon is not reachable"
            : `cannot list sessions: ${(error as Error).message}`,
          error instanceof Unreachable,
        );
      return false;
    }
  }

  /** An event from the daemon: the list and that session's card are read again, soon. */
  changed(event: TerminalEvent): void {
    // A change of what a session needs is read at once; other events make one read per burst, and a
    // steady stream of them (a busy session's activity) never postpones it.
    const urgent = event.event === "agent_state" || event.event === "input_wanted" || event.event === "exit";
    if (urgent) {
      clearTimeout(this.#listTimer);
      this.#listTimer = setTimeout(() => void this.refresh(), 0);
    } else this.#listTimer ??= setTimeout(() => void this.refresh(), LIST_DEBOUNCE_MS);
    if (!("terminal" in event)) return;
    if (event.event === "agent_state") agentStateSeen(event.terminal, event.state);
    if (event.event === "created" || event.event === "activity") this.#active.add(event.terminal);
    if (event.event === "idle" || event.event === "exit") this.#active.delete(event.terminal);
    if (event.event === "idle" || event.event === "exit" || event.event === "agent_state") {
      const stats = this.#stats.get(event.terminal);
      if (stats) stats.stale = true;
    }
    if (event.event !== "exit") this.#loadThumb(event.terminal);
  }

  /** A session killed from the page: what its end kept (a worktree, a branch) stays on an ended card. */
  killed(id: string, kept: KeptItem[], branch: string | undefined): void {
    if (!kept.length) return;
    this.#tombstones.set(id, {
      id,
      kept,
      branch: kept.find((item) => item.what === "branch")?.path ?? branch,
      at: Date.now(),
    });
    this.#render();
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
        const changed = thumb.text !== read.lines.join("\n");
        thumb.text = read.lines.join("\n");
        const pre = document.querySelector(`#sessions li[data-id="${CSS.escape(id)}"] .thumb`);
        if (pre) pre.textContent = thumb.text;
        // A program's question names its keys on its last rows: its buttons follow them.
        const session = this.sessions.find((one) => one.id === id);
        if (changed && session && needOf(session) === "input") this.#render();
      } catch {
        // Gone or unreachable: the list read says which.
      } finally {
        thumb.timer = undefined;
        if (this.#active.has(id) && this.#thumbs.has(id)) this.#loadThumb(id);
      }
    }, wait);
  }

  /** A worktree's changes in one line: +12 −3, 2 files, 1 commit (from the diff route). */
  #loadStats(id: string): void {
    const stats = this.#stats.get(id) ?? { text: "", at: 0, stale: true, loading: false };
    this.#stats.set(id, stats);
    if (stats.loading || !stats.stale || Date.now() - stats.at < STATS_EVERY_MS) return;
    stats.loading = true;
    stats.stale = false;
    void api<{ diff: string; commits: unknown[]; files: unknown[] }>(sessionPath(id, "/diff?max_output=400000"))
      .then((changes) => {
        stats.text = diffStats(changes);
        const line = document.querySelector(`#sessions li[data-id="${CSS.escape(id)}"] .stats`);
        if (line) line.textContent = stats.text;
      })
      .catch(() => {})
      .finally(() => {
        stats.loading = false;
        stats.at = Date.now();
      });
  }

  /** The host filter and the create form's hosts follow hosts.json (shown only when there are hosts). */
  #hostsShown(): void {
    const filter = $<HTMLSelectElement>("#host-filter");
    const names = ["local", ...this.hosts.filter((host) => host.name !== "hosts.json").map((host) => host.name)];
    const chosen = filter.value;
    filter.replaceChildren(
      Object.assign(element("option", "", "all hosts"), { value: "" }),
      ...names.map((name) => Object.assign(element("option", "", name), { value: name })),
    );
    filter.value = names.includes(chosen) ? chosen : "";
    filter.hidden = names.length < 2;
    createHosts(names.slice(1));
  }

  #render(): void {
    const only = $<HTMLSelectElement>("#host-filter").value;
    const sessions = this.sessions.filter((session) => !only || (session.host ?? "local") === only).sort(byNeed);
    const tombstones = [...this.#tombstones.values()];
    $("#empty").hidden = sessions.length + tombstones.length > 0;
    const now = Date.now();
    // Redrawing must not take a person's place: the focused card, or the reply being typed, keeps it.
    const active = document.activeElement as HTMLElement | null;
    const focusedCard = active?.classList.contains("card") ? active.dataset.id : undefined;
    const typing =
      active instanceof HTMLInputElement && active.closest("form.reply")
        ? { field: active, start: active.selectionStart, end: active.selectionEnd }
        : undefined;
    const live = new Set(sessions.map((session) => session.id));
    $<HTMLUListElement>("#sessions").replaceChildren(
      ...sessions.map((session) => this.#card(session, now)),
      ...tombstones.map((tomb) => this.#tombstoneCard(tomb)),
    );
    forgetRepliesExcept(live);
    if (typing?.field.isConnected) {
      typing.field.focus();
      typing.field.setSelectionRange(typing.start, typing.end);
    } else if (focusedCard !== undefined && live.has(focusedCard)) this.#cardElement(focusedCard)?.focus();
    else this.#focusFirstNeed();
  }

  #cardElement(id: string): HTMLElement | null {
    return document.querySelector<HTMLElement>(`#sessions li[data-id="${CSS.escape(id)}"]`);
  }

  /** Nothing has the focus (the page just opened, a card left): the first card that needs me takes it. */
  #focusFirstNeed(): void {
    if ($("#list-view").hidden || !$<HTMLFormElement>("#create").hidden) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    // Without scrolling: a person reading further down is not pulled back up by a redraw.
    this.#nextNeed()?.focus({ preventScroll: true });
  }

  /** The first card that needs me, after the ones answered from here (and not `except`). */
  #nextNeed(except?: string): HTMLElement | undefined {
    const cards = [...document.querySelectorAll<HTMLElement>("#sessions li.card[data-need]")];
    return cards.find((card) => card.dataset.id !== except && !this.#answered.has(card.dataset.id!));
  }

  /** An answer or a reply went: this card is done for now, focus moves to the next that needs me. */
  #answeredHere(id: string): void {
    const session = this.sessions.find((one) => one.id === id);
    if (session?.agent_state === "waiting") this.#answered.set(id, session.agent_since);
    seen(id);
    const card = this.#cardElement(id);
    card?.classList.add("answered");
    const next = this.#nextNeed(id);
    if (next) next.focus();
    else card?.focus();
  }

  #key(event: KeyboardEvent): void {
    if (
      $("#list-view").hidden ||
      event.ctrlKey ||
      event.metaKey ||
      event.altKey ||
      document.body.classList.contains("read-only")
    )
      return;
    const target = event.target as HTMLElement;
    if (target !== document.body && !target.classList.contains("card")) return;
    const card = target.classList.contains("card") ? target : this.#nextNeed();
    const id = card?.dataset.id;
    const session = this.sessions.find((one) => one.id === id);
    const cards = [...document.querySelectorAll<HTMLElement>("#sessions li.card")];
    if (event.key === "j" || event.key === "k" || event.key === "ArrowDown" || event.key === "ArrowUp") {
      const here = card ? cards.indexOf(card) : -1;
      const to =
        cards[
          Math.max(0, Math.min(cards.length - 1, here + (event.key === "j" || event.key === "ArrowDown" ? 1 : -1)))
        ];
      if (to) {
        event.preventDefault();
        to.focus();
      }
      return;
    }
    if (!card || !session) return;
    const acts: Record<string, Act> = { a: "approve", A: "always", d: "deny" };
    const what = acts[event.key];
    if (what && session.alive && session.agent_state === "waiting" && session.agent) {
      event.preventDefault();
      const button = card.querySelector<HTMLButtonElement>(`button[data-act="${what}"]`);
      if (button) button.click();
      else
        void act(session.id, what).then(
          () => this.#answeredHere(session.id),
          (error) => alert((error as Error).message),
        );
      return;
    }
    if (event.key === "r") {
      const field = card.querySelector<HTMLInputElement>("form.reply input");
      if (field) {
        event.preventDefault();
        field.focus();
      }
    }
  }

  #card(session: Session, now: number): HTMLLIElement {
    const state = stateOf(session);
    const need = needOf(session);
    const item = element("li", `card ${state}${need ? ` need-${need}` : ""}`);
    item.tabIndex = 0;
    item.dataset.id = session.id;
    item.dataset.state = state;
    if (need) item.dataset.need = need;
    if (session.agent_since !== undefined) item.dataset.since = String(session.agent_since);
    if (this.#answered.has(session.id)) item.classList.add("answered");
    const head = element("div", "head");
    head.append(element("strong", "name", session.id));
    if (session.host && session.host !== "local") head.append(element("span", "host", session.host));
    const since = session.alive ? (session.agent_since ?? session.started_at) : undefined;
    const label = session.alive
      ? `${state} ${age(since, now)}`
      : `${state} (${session.exit_code ?? session.signal ?? "?"})`;
    head.append(element("span", `state ${state}`, label.trim()));
    if (need && need !== "waiting" && need !== "failed")
      head.append(element("span", `state need ${need}`, NEED_WORDS[need]));
    if (session.agent) head.append(element("span", "agent", session.agent));
    item.append(head);
    if (state === "waiting" && session.agent_line) item.append(element("div", "question", session.agent_line));
    else if (need === "input") {
      // Its question is its last row (read with the card's rows): what the keys below answer.
      const asked = (this.#thumbs.get(session.id)?.text ?? "")
        .split("\n")
        .map((row) => row.trim())
        .filter(Boolean)
        .at(-1);
      item.append(
        element("div", "question input", `${session.input_wanted} is reading input${asked ? `: ${asked}` : ""}`),
      );
    } else if (need === "review" && session.agent_line)
      item.append(element("div", "question review", session.agent_line));
    const controls = answerControls(
      session,
      { done: (id) => this.#answeredHere(id), lastRows: (id) => this.#thumbs.get(id)?.text ?? "" },
      "card",
    );
    if (controls) item.append(controls);
    const where = session.branch
      ? `⎇ ${session.branch} · ${shortPath(session.worktree ?? session.cwd)}`
      : shortPath(session.cwd);
    item.append(element("div", "meta where", where));
    if (session.worktree) {
      this.#loadStats(session.id);
      item.append(element("div", "meta stats", this.#stats.get(session.id)?.text ?? ""));
    }
    const what = session.agent ? "" : session.cmd_args.join(" ");
    const activity = session.last_output_at ? `wrote ${age(session.last_output_at, now)} ago` : "";
    item.append(element("div", "meta", [what, session.title, activity].filter(Boolean).join(" · ")));
    item.append(element("pre", "thumb", this.#thumbs.get(session.id)?.text ?? ""));
    const buttons = element("div", "card-buttons");
    if (session.worktree) {
      const changes = element("button", "changes", "Changes");
      changes.title = "What it changed: commits, files, diff";
      changes.addEventListener("click", (event) => {
        event.stopPropagation();
        seen(session.id, session);
        this.#showChanges(session.id);
      });
      buttons.append(changes);
    }
    if (!session.alive) {
      const remove = element("button", "remove write", "Remove");
      remove.title = "Forget this ended session (its worktree and branch stay if they hold work)";
      remove.addEventListener("click", async (event) => {
        event.stopPropagation();
        try {
          const answer = await api<{ kept?: KeptItem[] }>(sessionPath(session.id), { method: "DELETE" });
          this.killed(session.id, answer.kept ?? [], session.branch);
        } catch (error) {
          alert((error as Error).message);
        }
        void this.refresh();
      });
      const restart = element("button", "restart write", "Restart");
      restart.title = "Start it again as it was made (same id; an agent resumes its conversation)";
      restart.addEventListener("click", async (event) => {
        event.stopPropagation();
        try {
          await api(`${sessionPath(session.id)}/restart`, { method: "POST" });
        } catch (error) {
          alert((error as Error).message);
        }
        void this.refresh();
      });
      buttons.append(restart, remove);
    }
    if (buttons.childElementCount) item.append(buttons);
    item.addEventListener("click", () => this.#open(session.id));
    item.addEventListener(
      "keydown",
      (event) => event.key === "Enter" && event.target === item && this.#open(session.id),
    );
    return item;
  }

  #tombstoneCard(tomb: Tombstone): HTMLLIElement {
    const item = element("li", "card exited killed");
    item.dataset.id = tomb.id;
    item.dataset.state = "killed";
    const head = element("div", "head");
    head.append(element("strong", "name", tomb.id), element("span", "state exited", "killed"));
    item.append(head);
    for (const kept of tomb.kept)
      item.append(element("div", "meta kept", `kept ${kept.what} ${kept.path}: ${kept.reason}`));
    if (tomb.branch) item.append(element("div", "question branch", `its work is on branch ${tomb.branch}`));
    const buttons = element("div", "card-buttons");
    if (tomb.branch) {
      const copy = element("button", "copy", `Copy ${tomb.branch}`);
      copy.addEventListener(
        "click",
        () =>
          void navigator.clipboard?.writeText(tomb.branch!).then(
            () => (copy.textContent = `✓ ${tomb.branch} copied`),
            () => {},
          ),
      );
      buttons.append(copy);
    }
    const remove = element("button", "remove", "Remove");
    remove.title = "Forget this card (the branch and worktree stay)";
    remove.addEventListener("click", () => {
      this.#tombstones.delete(tomb.id);
      this.#render();
    });
    buttons.append(remove);
    item.append(buttons);
    return item;
  }
}

/** "+12 −3, 2 files, 1 commit" from a diff reply. */
export function diffStats(changes: { diff: string; commits: unknown[] }): string {
  let added = 0;
  let removed = 0;
  const files = new Set<string>();
  for (const line of changes.diff.split("\n")) {
    if (line.startsWith("diff ")) files.add(line);
    else if (line.startsWith("+") && !line.startsWith("+++")) added++;
    else if (line.startsWith("-") && !line.startsWith("---")) removed++;
  }
  const commits = changes.commits.length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `+${added} −${removed}, ${plural(files.size, "file")}, ${plural(commits, "commit")}`;
}

/**
 * What needs me first (waiting, the longest first; review; input; failed), then working, idle, ended; most recently
 * active first within each.
 */
function byNeed(a: Session, b: Session): number {
  const rank = rankOf(a) - rankOf(b);
  if (rank) return rank;
  if (stateOf(a) === "waiting") return (a.agent_since ?? 0) - (b.agent_since ?? 0);
  return (b.last_output_at ?? 0) - (a.last_output_at ?? 0);
}

function rankOf(session: Session): number {
  const need = needOf(session);
  return need ? NEED_ORDER.indexOf(need) : NEED_ORDER.length + ORDER[stateOf(session)]!;
}

/** The last two parts of a path: enough to tell projects apart on a card. */
function shortPath(path: string): string {
  const parts = path.split("/").filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join("/")}` : path;
}
