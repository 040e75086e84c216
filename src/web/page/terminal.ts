// One session in the page: xterm.js over the terminal WebSocket. The session keeps its size (as
// tmux's window-size keeps a window's): the page draws it at that size, scaling the font to fit
// the window or letting a phone pan, and only "Fit" makes the window's size the session's. Opening
// replays the daemon's scrollback, so scrolling up shows history. Keys the page takes for itself
// are Ctrl+Shift+ combinations, which a terminal cannot tell from Ctrl+ anyway: programs never
// lose a key to the page.
import { Terminal } from "@xterm/xterm";
import type { ViewerEvent } from "../../protocol/events.ts";
import {
  $,
  api,
  connectionLost,
  Impostor,
  proveServer,
  Refused,
  sessionPath,
  socketProtocols,
  Unreachable,
  type Session,
} from "./api.ts";
import { answerControls, answersKnown, answersLoaded } from "./answer.ts";
import { readingInput, seen } from "./needs.ts";

/** The font size a Fit aims at, and the range a session is drawn in (below it, a phone pans). */
const FIT_FONT = 14;
const MAX_FONT = 16;
const MIN_FONT = 9;
/** xterm.js keeps this many rows above the screen; the daemon sends up to 1000 of its own. */
const PAGE_SCROLLBACK = 5000;

interface Open {
  id: string;
  term: Terminal;
  socket?: WebSocket;
  /** It ended (exit) or was closed by the page: no reconnecting. */
  closed: boolean;
  retry: number;
  /** Ctrl is latched on the extra-keys bar: the next key goes as its control character. */
  ctrl: boolean;
  /** The session's own size, as the daemon last said. */
  cols: number;
  rows: number;
}

export class TerminalView {
  #current: Open | undefined;
  readonly #readOnly: () => boolean;
  readonly #back: () => void;
  /** The presets' answer keys were asked for once (a bar drawn before they came is drawn again). */
  #askedAnswers = false;

  constructor(options: { readOnly: () => boolean; back: () => void }) {
    this.#readOnly = options.readOnly;
    this.#back = options.back;
    window.addEventListener("resize", () => this.#layout());
    $("#fit").addEventListener("click", () => this.fit());
    for (const key of document.querySelectorAll<HTMLButtonElement>("#keys button")) {
      key.addEventListener("pointerdown", (event) => event.preventDefault()); // keep the terminal's focus
      key.addEventListener("click", () => this.#extraKey(key.dataset.key!));
    }
    // A tap anywhere on the terminal's area (beside a narrow session too) gives it the keyboard.
    $("#terminal").addEventListener("click", () => this.#current?.term.focus());
  }

  /** The session as the list last read it: the bar says what it waits on, with the buttons that answer. */
  update(session: Session | undefined): void {
    const open = this.#current;
    if (!open || !session || session.id !== open.id) return;
    seen(session.id, session);
    const bar = $("#answer-bar");
    const waiting = session.alive && session.agent_state === "waiting";
    const input = session.alive && readingInput(session);
    const key = [
      session.agent_state,
      session.agent_since,
      session.agent_line,
      session.input_wanted,
      this.#readOnly(),
      answersKnown(),
    ]
      .map(String)
      .join("|");
    // Opened straight from a link: the presets' keys may not be read yet (Always needs them).
    if (!answersKnown() && !this.#askedAnswers) {
      this.#askedAnswers = true;
      void answersLoaded()?.then(() => this.update(session));
    }
    if (bar.dataset.key === key && !bar.hidden === (waiting || input)) return;
    bar.dataset.key = key;
    bar.hidden = !(waiting || input);
    if (bar.hidden) return;
    $("#answer-state").textContent = waiting
      ? `waiting: ${session.agent_line ?? "a question"}`
      : `reading input: ${session.input_wanted}`;
    const lastRows = () => {
      const buffer = open.term.buffer.active;
      const rows: string[] = [];
      for (let y = Math.max(0, buffer.baseY + buffer.cursorY - 6); y <= buffer.baseY + buffer.cursorY; y++)
        rows.push(buffer.getLine(y)?.translateToString(true) ?? "");
      return rows.join("\n");
    };
    const controls = this.#readOnly()
      ? undefined
      : answerControls(session, { done: () => open.term.focus(), lastRows }, "bar");
    $("#answer-controls").replaceChildren(...(controls ? [controls] : []));
  }

  get id(): string | undefined {
    return this.#current?.id;
  }

  open(id: string, options: { fit?: boolean } = {}): void {
    this.close();
    $("#answer-bar").hidden = true;
    delete $("#answer-bar").dataset.key;
    $("#terminal-title").textContent = id;
    this.#say("connecting…");
    $("#gone").hidden = true;
    const term = new Terminal({
      cursorBlink: true,
      fontFamily: "ui-monospace, 'DejaVu Sans Mono', monospace",
      fontSize: FIT_FONT,
      scrollback: PAGE_SCROLLBACK,
      disableStdin: this.#readOnly(),
    });
    const host = $("#terminal");
    host.replaceChildren();
    term.open(host);
    const open: Open = { id, term, closed: false, retry: 0, ctrl: false, cols: term.cols, rows: term.rows };
    this.#current = open;
    term.attachCustomKeyEventHandler((event) => this.#pageKey(event, open));
    term.onData((data) => this.#send(open, this.#withCtrl(open, data)));
    term.onBinary((data) =>
      this.#send(
        open,
        Uint8Array.from(data, (c) => c.charCodeAt(0)),
      ),
    );
    this.#connect(open, options.fit === true);
    term.focus();
  }

  close(): void {
    const open = this.#current;
    if (!open) return;
    open.closed = true;
    open.socket?.close();
    open.term.dispose();
    this.#current = undefined;
  }

  /** The window's size becomes the session's, for every viewer: the one explicit resize. */
  fit(): void {
    const open = this.#current;
    if (!open || this.#readOnly()) return;
    const { width, height } = this.#room();
    const cell = cellSize(open.term);
    if (!cell) return;
    const scale = FIT_FONT / (open.term.options.fontSize ?? FIT_FONT);
    const cols = Math.max(20, Math.floor(width / (cell.width * scale)));
    const rows = Math.max(5, Math.floor(height / (cell.height * scale)));
    if (open.socket?.readyState === WebSocket.OPEN)
      open.socket.send(`\x01${Math.min(cols, 1000)};${Math.min(rows, 1000)}`);
  }

  #connect(open: Open, fitOnOpen: boolean): void {
    // The key goes only to a server that proved itself since the last lost connection (api.ts).
    proveServer().then(
      () => this.#current === open && !open.closed && this.#openSocket(open, fitOnOpen),
      (error: unknown) => {
        if (error instanceof Impostor || error instanceof Refused) this.#say(error.message);
        else void this.#lost(open);
      },
    );
  }

  #openSocket(open: Open, fitOnOpen: boolean): void {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${sessionPath(open.id, "/terminal")}`, socketProtocols());
    socket.binaryType = "arraybuffer";
    open.socket = socket;
    let first = true;
    socket.addEventListener("open", () => {
      open.retry = 0;
      this.#say(this.#readOnly() ? "connected, read-only" : "connected");
    });
    socket.addEventListener("message", (event) => {
      if (typeof event.data === "string") {
        const message = JSON.parse(event.data) as ViewerEvent;
        if (message.event === "resize") {
          open.cols = message.cols;
          open.rows = message.rows;
          open.term.resize(message.cols, message.rows);
          this.#layout();
          if (fitOnOpen) {
            fitOnOpen = false;
            requestAnimationFrame(() => this.fit());
          }
        } else if (message.event === "exit") {
          open.closed = true;
          this.#gone(
            open,
            `This session has ended (${message.signal ? `signal ${message.signal}` : `exit code ${message.code}`}).`,
          );
        }
        return;
      }
      // The first bytes are the scrollback and screen as they are: start from a clean terminal.
      if (first) {
        open.term.reset();
        first = false;
      }
      open.term.write(new Uint8Array(event.data as ArrayBuffer));
    });
    socket.addEventListener("close", () => {
      // Closed by the page (back to the list): nothing was lost, and the login stays for a reload.
      if (open.closed || this.#current !== open) return;
      connectionLost();
      void this.#lost(open);
    });
  }

  /** The connection went: the session may be gone, or the daemon restarting. Says which, and comes back when it can. */
  async #lost(open: Open): Promise<void> {
    try {
      const session = await api<Session>(sessionPath(open.id));
      if (!session.alive) {
        open.closed = true;
        return this.#gone(
          open,
          `This session has ended (exit code ${session.exit_code ?? session.signal ?? "unknown"}).`,
        );
      }
    } catch (error) {
      if (error instanceof Refused && error.status === 404) {
        open.closed = true;
        return this.#gone(
          open,
          "This session is gone: the daemon no longer has it (it was killed, or not brought back after a restart).",
        );
      }
      if (error instanceof Impostor) return this.#say(error.message);
      if (!(error instanceof Unreachable)) return this.#say(`cannot reconnect: ${(error as Error).message}`);
    }
    const delay = Math.min(5000, 250 * 2 ** open.retry++);
    this.#say(`the daemon is not reachable; reconnecting in ${Math.round(delay / 100) / 10} s…`);
    setTimeout(() => this.#current === open && !open.closed && this.#connect(open, false), delay);
  }

  #gone(open: Open, message: string): void {
    if (this.#current !== open) return;
    this.#say(message.includes("gone") ? "gone" : "ended");
    $("#gone-message").textContent = message;
    $("#gone").hidden = false;
  }

  #say(text: string): void {
    $("#terminal-state").textContent = text;
  }

  #send(open: Open, data: string | Uint8Array): void {
    if (this.#readOnly() || open.socket?.readyState !== WebSocket.OPEN) return;
    open.socket.send(typeof data === "string" ? new TextEncoder().encode(data) : (data as Uint8Array<ArrayBuffer>));
  }

  /** Keys the page keeps: Ctrl+Shift+L back to the list, Ctrl+Shift+C copy, Ctrl+Shift+V paste (the browser's). */
  #pageKey(event: KeyboardEvent, open: Open): boolean {
    if (event.type !== "keydown" || !(event.ctrlKey || event.metaKey) || !event.shiftKey) return true;
    if (event.code === "KeyL") {
      event.preventDefault();
      this.#back();
      return false;
    }
    if (event.code === "KeyC") {
      event.preventDefault();
      void copyText(open.term.getSelection()).then(() => open.term.focus());
      return false;
    }
    // Not prevented: the browser's own paste follows, and xterm.js pastes it (bracketed when asked).
    if (event.code === "KeyV") return false;
    return true;
  }

  /** A key of the phone's bar. */
  #extraKey(key: string): void {
    const open = this.#current;
    if (!open) return;
    if (key === "ctrl") {
      open.ctrl = !open.ctrl;
      $("#keys [data-key=ctrl]").setAttribute("aria-pressed", String(open.ctrl));
      open.term.focus();
      return;
    }
    const application = open.term.modes.applicationCursorKeysMode;
    const arrows: Record<string, string> = { up: "A", down: "B", right: "C", left: "D" };
    const bytes =
      key in arrows
        ? `\x1b${application ? "O" : "["}${arrows[key]}`
        : (({ esc: "\x1b", tab: "\t", "ctrl-c": "\x03", enter: "\r" } as Record<string, string>)[key] ??
          (key.length === 1 ? key : undefined));
    if (bytes) this.#send(open, bytes);
    open.term.focus();
  }

  /** With Ctrl latched, a typed letter goes as its control character (Ctrl then c: ^C). */
  #withCtrl(open: Open, data: string): string {
    if (!open.ctrl || data.length !== 1) return data;
    open.ctrl = false;
    $("#keys [data-key=ctrl]").setAttribute("aria-pressed", "false");
    const code = data.toUpperCase().charCodeAt(0);
    return code >= 64 && code <= 95 ? String.fromCharCode(code - 64) : data;
  }

  /** The room the terminal may take: the host's box, less the scrollbar xterm.js draws. */
  #room(): { width: number; height: number } {
    const box = $("#terminal").getBoundingClientRect();
    return { width: Math.max(0, box.width - 8 - 14), height: Math.max(0, box.height - 8) };
  }

  /** The font size at which the session's size fits the window (within MIN..MAX_FONT). */
  #layout(): void {
    const open = this.#current;
    if (!open) return;
    for (let pass = 0; pass < 2; pass++) {
      const cell = cellSize(open.term);
      if (!cell) return;
      const font = open.term.options.fontSize ?? FIT_FONT;
      const { width, height } = this.#room();
      const fits = Math.min(width / (open.cols * (cell.width / font)), height / (open.rows * (cell.height / font)));
      const wanted = Math.max(MIN_FONT, Math.min(MAX_FONT, Math.floor(fits * 2) / 2));
      if (wanted === font) break;
      open.term.options.fontSize = wanted;
    }
    $("#terminal").classList.toggle("pans", this.#overflows(open));
  }

  #overflows(open: Open): boolean {
    const cell = cellSize(open.term);
    return cell !== undefined && open.cols * cell.width > this.#room().width + 1;
  }
}

/** xterm.js's measured cell, in CSS pixels (what its fit addon reads too). */
function cellSize(term: Terminal): { width: number; height: number } | undefined {
  const cell = (
    term as unknown as {
      _core?: { _renderService?: { dimensions?: { css?: { cell?: { width: number; height: number } } } } };
    }
  )._core?._renderService?.dimensions?.css?.cell;
  return cell && cell.width > 0 && cell.height > 0 ? cell : undefined;
}

/** To the clipboard: the Clipboard API where the page is a secure context, else the copy command. */
async function copyText(text: string): Promise<void> {
  if (!text) return;
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Not a secure context (plain HTTP beyond loopback), or no permission: the old way.
  }
  const area = document.createElement("textarea");
  area.value = text;
  document.body.append(area);
  area.select();
  document.execCommand("copy");
  area.remove();
}
