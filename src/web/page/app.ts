// The browser page: which session needs me (the list), what it changed (the diff), and the session
// itself (a terminal). Three views behind the location's hash (#/, #/t/ID, #/d/ID), so Back and a
// typed hash navigate. Talks to the daemon only through its REST API, its event stream and the
// terminal WebSocket, with the login (api.ts). No framework.
import "@xterm/xterm/css/xterm.css";
import type { TerminalEvent } from "../../protocol/events.ts";
import { setUpAlertToggles } from "./alerts.ts";
import { $, api, element, followStream, Impostor, Refused, sessionPath } from "./api.ts";
import { diffStats } from "./list.ts";
import { seen } from "./needs.ts";
import { showChanges } from "./changes.ts";
import { setUpCreateForm } from "./create-form.ts";
import { SessionList } from "./list.ts";
import { TerminalView } from "./terminal.ts";

let readOnly = false;
/** Views this page has pushed onto the history: while there are, the page's Back is the browser's. */
let pushed = 0;
/** A session created here opens fitted to this window. */
const fitNext = new Set<string>();

const views = { list: $("#list-view"), terminal: $("#terminal-view"), changes: $("#changes-view") };

function show(view: keyof typeof views): void {
  for (const [name, element] of Object.entries(views)) element.hidden = name !== view;
  // On a phone the page's header gives its row to the session (the view's own bar has Back).
  document.body.classList.toggle("away", view !== "list");
  $("#new").hidden = view !== "list" || readOnly;
}

const list = new SessionList({
  status: (text, down, alarm) =>
    banner(alarm ?? (down ? "The daemon is not reachable (stopped or restarting); retrying…" : ""), text),
  open: (id) => go(`#/t/${encodeURIComponent(id)}`),
  changes: (id) => go(`#/d/${encodeURIComponent(id)}`),
  sessions: (sessions) => terminal.id && terminal.update(sessions.find((session) => session.id === terminal.id)),
});
const terminal = new TerminalView({ readOnly: () => readOnly, back });

function go(hash: string): void {
  pushed++;
  location.hash = hash;
}

function back(): void {
  if (pushed > 0) {
    pushed--;
    history.back();
  } else location.hash = "#/";
}

/** The one place the page follows the location: every change of view goes through the hash. */
function route(): void {
  const match = /^#\/([td])\/(.+)$/.exec(location.hash);
  const id = match ? decodeURIComponent(match[2]!) : undefined;
  if (match?.[1] === "t" && id !== undefined) {
    show("terminal");
    if (terminal.id !== id) terminal.open(id, { fit: fitNext.delete(id) });
    seen(
      id,
      list.sessions.find((session) => session.id === id),
    );
    terminal.update(list.sessions.find((session) => session.id === id));
    $("#terminal-changes").hidden = true;
    void api<{ worktree?: string }>(sessionPath(id)).then(
      (session) => ($("#terminal-changes").hidden = !session.worktree),
      () => {},
    );
    return;
  }
  terminal.close();
  if (match?.[1] === "d" && id !== undefined) {
    show("changes");
    void showChanges(id);
    return;
  }
  show("list");
  void list.shown();
}

function banner(message: string, status = ""): void {
  $("#banner").textContent = message;
  $("#banner").hidden = !message;
  document.body.classList.toggle("down", message !== "");
  if (status) $("#status").textContent = status;
}

/** The daemon's events: a changed session redraws its card; a lost stream means the daemon is down. */
async function followEvents(): Promise<void> {
  for (let retry = 0; ; retry++) {
    try {
      await followStream(
        "/api/events?all=true",
        () => ((retry = 0), void list.refresh()),
        (event: TerminalEvent) => list.changed(event),
      );
    } catch (error) {
      if (error instanceof Impostor) return banner(error.message);
      if (error instanceof Refused && error.status === 401)
        return banner("This browser is not logged in: open the URL `t4a web` prints.");
    }
    // The list read tells "down" from "up again" (and proves the server again first).
    await list.refresh();
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * 2 ** retry)));
  }
}

$("#back").addEventListener("click", back);
$("#changes-back").addEventListener("click", back);
$("#gone-back").addEventListener("click", back);
$("#terminal-changes").addEventListener("click", () => terminal.id && go(`#/d/${encodeURIComponent(terminal.id)}`));
$("#kill").addEventListener("click", () => void killAsked());

/**
 * Kill, after saying what becomes of the work: a worktree session's changes (+12 −3, 2 files,
 * 1 commit) are kept (the worktree when it holds uncommitted files, the branch when it has
 * commits), and can be reviewed first; the list shows the branch on the ended card after.
 */
async function killAsked(): Promise<void> {
  const id = terminal.id;
  if (!id) return;
  const session = list.sessions.find((one) => one.id === id);
  const dialog = $<HTMLDialogElement>("#kill-dialog");
  $("#kill-question").textContent = `Kill ${id} and everything it started?`;
  $("#kill-review").hidden = !session?.worktree;
  $("#kill-confirm").textContent = session?.worktree ? "Kill, keep the work" : "Kill";
  const work = $("#kill-work");
  work.replaceChildren();
  if (session?.worktree) {
    work.textContent = `reading what ${session.branch ?? "its worktree"} changed…`;
    void api<{ diff: string; commits: unknown[]; files: unknown[] }>(sessionPath(id, "/diff?max_output=400000")).then(
      (changes) => {
        work.replaceChildren(
          element(
            "span",
            "",
            `Its worktree (⎇ ${session.branch ?? "?"}, ${session.worktree}) has ${diffStats(changes)}. `,
          ),
          element(
            "span",
            "",
            changes.files.length || changes.commits.length
              ? "The work is kept: the worktree if files are not committed, the branch if it has commits."
              : "Nothing to keep: the worktree is removed.",
          ),
        );
      },
      (error) => (work.textContent = `cannot read its changes: ${(error as Error).message}`),
    );
  }
  dialog.returnValue = "";
  dialog.showModal();
  const choice = await new Promise<string>((resolve) =>
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true }),
  );
  if (choice === "review") return go(`#/d/${encodeURIComponent(id)}`);
  if (choice !== "kill") return;
  try {
    const answer = await api<{
      kept?: Array<{ what: "worktree" | "branch" | "plugin"; path: string; reason: string }>;
    }>(sessionPath(id), { method: "DELETE" });
    list.killed(id, answer.kept ?? [], session?.branch);
  } catch (error) {
    alert((error as Error).message);
  }
  location.hash = "#/";
}
document.addEventListener("keydown", (event) => {
  if (
    !views.list.hidden &&
    event.key === "n" &&
    (document.activeElement === document.body || document.activeElement?.classList.contains("card")) &&
    !readOnly
  ) {
    event.preventDefault();
    $("#new").click();
  }
  if (!views.changes.hidden && event.key === "Escape") back();
});
window.addEventListener("hashchange", route);

setUpAlertToggles();
setUpCreateForm((id) => {
  fitNext.add(id);
  go(`#/t/${encodeURIComponent(id)}`);
});

// Read-only servers refuse every change: the page does not offer them.
try {
  readOnly = (await api<{ read_only: boolean }>("/api/about")).read_only;
} catch (error) {
  if (error instanceof Refused && error.status === 401)
    banner("This browser is not logged in: open the URL `t4a web` prints.");
  if (error instanceof Impostor) banner(error.message);
}
document.body.classList.toggle("read-only", readOnly);
route();
void followEvents();
