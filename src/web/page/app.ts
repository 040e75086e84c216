// The browser page: the sessions with their state and a live thumbnail, a create form, and a
// full terminal (xterm.js) that fits the window and reconnects by itself. Talks to the daemon
// only through its REST API and the terminal WebSocket, with the login cookie. No framework.
import { FitAddon } from "@xterm/addon-fit";
import { Terminal } from "@xterm/xterm";
import "@xterm/xterm/css/xterm.css";
import type { ViewerEvent } from "../../protocol/events.ts";
import type { SessionInfo } from "../../protocol/session-info.ts";

type Session = SessionInfo;

const $ = <T extends HTMLElement>(selector: string) => document.querySelector(selector) as T;
const listView = $("#list-view");
const terminalView = $("#terminal-view");
const sessionsList = $<HTMLUListElement>("#sessions");
const form = $<HTMLFormElement>("#create");
const status = $("#status");

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, { ...init, headers: { "content-type": "application/json", ...(init.headers ?? {}) } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `${response.status} ${response.statusText}`);
  return body as T;
}

function stateOf(session: Session): string {
  if (session.agent_state && session.alive) return session.agent_state;
  if (!session.alive) return session.exit_code === 0 ? "exited" : "failed";
  return session.viewers ? "attached" : "running";
}

// ---- the list ----
let listTimer: ReturnType<typeof setTimeout> | undefined;

async function refreshList(): Promise<void> {
  clearTimeout(listTimer);
  try {
    const { terminals } = await api<{ terminals: Session[] }>("/api/sessions");
    renderList(terminals);
    status.textContent = `${terminals.length} session${terminals.length === 1 ? "" : "s"}`;
  } catch (error) {
    status.textContent = `cannot list sessions: ${(error as Error).message}`;
  }
  if (!listView.hidden) listTimer = setTimeout(refreshList, 2000);
}

function renderList(sessions: Session[]): void {
  $("#empty").hidden = sessions.length > 0;
  const stamp = Date.now();
  sessionsList.replaceChildren(
    ...sessions.map((session) => {
      const item = document.createElement("li");
      item.tabIndex = 0;
      item.dataset.id = session.id;
      const state = stateOf(session);
      const what = session.agent ? `agent ${session.agent}` : session.cmd_args.join(" ");
      item.innerHTML = `<strong></strong><span class="state ${state}">${state}</span><div class="meta"></div><img alt="" loading="lazy" />`;
      item.querySelector("strong")!.textContent = session.id;
      item.querySelector(".meta")!.textContent = [what, session.title, session.worktree ? `worktree ${session.worktree}` : ""].filter(Boolean).join(" · ");
      (item.querySelector("img") as HTMLImageElement).src = `/api/sessions/${encodeURIComponent(session.id)}/screenshot.png?scale=33&cursor=false&t=${stamp}`;
      item.addEventListener("click", () => openTerminal(session.id));
      item.addEventListener("keydown", (event) => event.key === "Enter" && openTerminal(session.id));
      return item;
    }),
  );
}

$("#new").addEventListener("click", () => {
  form.hidden = !form.hidden;
  if (!form.hidden) (form.elements.namedItem("command") as HTMLInputElement).focus();
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "").trim();
  const spec: Record<string, unknown> = { cols: 120, rows: 36 };
  if (text("agent")) spec.agent = text("agent");
  else if (text("command")) spec.cmd_args = text("command").split(/\s+/);
  if (text("prompt") && spec.agent) spec.prompt = text("prompt");
  if (text("cwd")) spec.cwd = text("cwd");
  if (text("worktree")) spec.worktree = text("worktree");
  if (data.get("sandbox")) spec.sandbox = true;
  // A sandbox writes only its directory, and never the home the default would be: ask for one.
  if (spec.sandbox && !spec.cwd) {
    $("#create-error").textContent = "A sandbox needs a project directory to work in (never your home): fill in Directory.";
    (form.elements.namedItem("cwd") as HTMLInputElement).focus();
    return;
  }
  try {
    const created = await api<{ id: string }>("/api/sessions", { method: "POST", body: JSON.stringify(spec) });
    $("#create-error").textContent = "";
    form.reset();
    form.hidden = true;
    openTerminal(created.id);
  } catch (error) {
    $("#create-error").textContent = (error as Error).message;
  }
});

// ---- one terminal ----
let current: { id: string; term: Terminal; fit: FitAddon; socket?: WebSocket; closed: boolean; retry: number } | undefined;

function openTerminal(id: string): void {
  closeTerminal();
  listView.hidden = true;
  terminalView.hidden = false;
  $("#terminal-title").textContent = id;
  $("#terminal-state").textContent = "connecting…";
  history.replaceState(null, "", `#/t/${encodeURIComponent(id)}`);
  const term = new Terminal({ cursorBlink: true, fontFamily: "ui-monospace, monospace", fontSize: 14, scrollback: 5000 });
  const fit = new FitAddon();
  term.loadAddon(fit);
  const host = $("#terminal");
  host.replaceChildren();
  term.open(host);
  current = { id, term, fit, closed: false, retry: 0 };
  const session = current;
  term.onData((data) => session.socket?.readyState === WebSocket.OPEN && session.socket.send(new TextEncoder().encode(data)));
  term.onBinary((data) => session.socket?.readyState === WebSocket.OPEN && session.socket.send(Uint8Array.from(data, (c) => c.charCodeAt(0))));
  term.onResize(({ cols, rows }) => session.socket?.readyState === WebSocket.OPEN && session.socket.send(`\x01${cols};${rows}`));
  connect(session);
  fit.fit();
  term.focus();
}

function connect(session: NonNullable<typeof current>): void {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/sessions/${encodeURIComponent(session.id)}/terminal`);
  socket.binaryType = "arraybuffer";
  session.socket = socket;
  let first = true;
  socket.addEventListener("open", () => {
    session.retry = 0;
    $("#terminal-state").textContent = "connected";
    session.fit.fit();
    socket.send(`\x01${session.term.cols};${session.term.rows}`);
  });
  socket.addEventListener("message", (event) => {
    if (typeof event.data === "string") {
      const message = JSON.parse(event.data) as ViewerEvent;
      if (message.event === "exit") {
        $("#terminal-state").textContent = `exited (${message.code ?? "signal"})`;
        session.closed = true;
      }
      return;
    }
    // The first message is the screen as it is: start from a clean terminal.
    if (first) {
      session.term.reset();
      first = false;
    }
    session.term.write(new Uint8Array(event.data as ArrayBuffer));
  });
  socket.addEventListener("close", () => {
    if (session.closed || current !== session) return;
    // The connection went (the daemon restarted, the network blinked): come back by ourselves.
    const delay = Math.min(5000, 250 * 2 ** session.retry++);
    $("#terminal-state").textContent = `reconnecting in ${Math.round(delay / 100) / 10} s…`;
    setTimeout(() => current === session && !session.closed && connect(session), delay);
  });
}

function closeTerminal(): void {
  if (!current) return;
  current.closed = true;
  current.socket?.close();
  current.term.dispose();
  current = undefined;
}

function showList(): void {
  closeTerminal();
  terminalView.hidden = true;
  listView.hidden = false;
  history.replaceState(null, "", "#/");
  void refreshList();
}

$("#back").addEventListener("click", showList);
$("#kill").addEventListener("click", async () => {
  if (!current || !confirm(`Kill ${current.id} and everything it started?`)) return;
  const id = current.id;
  try {
    const answer = await api<{ kept?: Array<{ what: string; path: string; reason: string }> }>(`/api/sessions/${encodeURIComponent(id)}`, { method: "DELETE" });
    if (answer.kept?.length) alert(answer.kept.map((kept) => `kept ${kept.what} ${kept.path}: ${kept.reason}`).join("\n"));
  } catch (error) {
    alert((error as Error).message);
  }
  showList();
});

window.addEventListener("resize", () => current?.fit.fit());
let lastEscape = 0;
document.addEventListener("keydown", (event) => {
  if (!listView.hidden && event.key === "n" && document.activeElement === document.body) {
    event.preventDefault();
    $("#new").click();
  }
  // Esc twice leaves the terminal view (once goes to the program).
  if (!terminalView.hidden && event.key === "Escape") {
    if (Date.now() - lastEscape < 400) showList();
    lastEscape = Date.now();
  }
});

const route = /^#\/t\/(.+)$/.exec(location.hash);
if (route) openTerminal(decodeURIComponent(route[1]!));
else void refreshList();
