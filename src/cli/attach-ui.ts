// `t4a attach`: the caller's terminal in raw mode shows the session — its screen replayed, then
// live output — and sends keys and size back. The detach key (C-\ by default) leaves the session
// running. On every way out (detach, the program's exit, the daemon going away) the caller's
// terminal is put back: the modes the program turned on are reset, the alternate screen left.
// What the program writes reaches the user's own terminal only through OutputFilter: no clipboard
// write (OSC 52), no title (OSC 0/1/2), no DCS/APC/PM/SOS string (XTGETTCAP, DECRQSS, passthrough)
// unless the user asks (T4A_ATTACH_ALLOW=title,clipboard), as a tmux user gets by default.
import type { DaemonConnection, Reply } from "../client/connection.ts";
import { encodeFrame, Frame, FrameReader } from "../protocol/frames.ts";

/** What the program may have switched on in our terminal: off again, then back to the shell's screen. */
const RESTORE = [
  "\x1b[?2004l", // bracketed paste
  "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l", // mouse reports and their encoding
  "\x1b[?1004l", // focus reports
  "\x1b[?1l\x1b>", // application cursor keys and keypad
  "\x1b[?25h\x1b[0 q", // the cursor shown, in the terminal's own shape
  "\x1b[0m\x1b[r", // attributes and scroll margins
  "\x1b[?1049l", // the shell's screen
].join("");
const ENTER = "\x1b[?1049h\x1b[H\x1b[2J";

export interface AttachClientOptions {
  readOnly: boolean;
  detachKey: string;
  /**
   * tmux's `mouse on`: the wheel scrolls the session's history, as tmux's copy mode does, unless
   * the program has asked for the mouse itself (then the wheel is its own).
   */
  wheel?: HistoryView;
}

/** What the wheel's history view reads from the daemon (on a connection of its own). */
export interface HistoryView {
  /**
   * Lines of history and screen counted up from the screen's last row: `from` up, `count` of them, top first, styled.
   */
  lines(from: number, count: number): Promise<string[]>;
  /** How many lines of history are above the screen. */
  historySize(): Promise<number>;
  /** The screen as an attach replays it (to leave the view). */
  replay(): Promise<Uint8Array>;
}

/** Lines one wheel step scrolls (tmux's copy-mode binding: `scroll-up` five times). */
export const WHEEL_LINES = 5;
/** The outer terminal reports buttons and the wheel, SGR-encoded. */
const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";

/** A program's mouse modes in its output: whether it now wants the mouse (undefined: no change). */
export function programMouse(text: string, wanted: boolean): boolean {
  let now = wanted;
  for (const match of text.matchAll(/\x1b\[\?([\d;]+)([hl])/g)) {
    const modes = match[1]!.split(";");
    if (modes.some((mode) => mode === "1000" || mode === "1002" || mode === "1003")) now = match[2] === "h";
  }
  return now;
}

/** The view of history tmux's copy mode shows: the lines, and `[offset/size]` at the top right. */
export function drawView(lines: string[], offset: number, size: number, cols: number): string {
  const mark = `[${offset}/${size}]`;
  let out = "\x1b[?25l\x1b[H\x1b[2J";
  lines.forEach((line, i) => {
    out += `\x1b[${i + 1};1H\x1b[0m${line}\x1b[0m`;
  });
  out += `\x1b[1;${Math.max(1, cols - mark.length + 1)}H\x1b[30;43m${mark}\x1b[0m`;
  return out;
}

/** What the user let through to their terminal: `T4A_ATTACH_ALLOW=title,clipboard`. */
export type Allowed = { title: boolean; clipboard: boolean };

export function allowedFrom(env: Record<string, string | undefined>): Allowed {
  const asked = new Set((env.T4A_ATTACH_ALLOW ?? "").split(",").map((word) => word.trim()));
  return { title: asked.has("title"), clipboard: asked.has("clipboard") };
}

/** Longest OSC kept whole to be judged; a longer one is dropped (a title or a clipboard this long is an attack). */
const MAX_OSC_BYTES = 1 << 20;

/**
 * The program's bytes on their way to the user's terminal, split at any point across calls: OSC
 * strings are judged by their number (52 clipboard, 0/1/2 title: dropped unless allowed, the rest
 * passed), DCS, APC, PM and SOS strings are dropped whole (7-bit ESC forms and UTF-8 C1 forms).
 */
export class OutputFilter {
  #state: "ground" | "esc" | "c2" | "string" | "string-esc" | "string-c2" = "ground";
  /** The string being read is an OSC (kept to be judged), not a DCS/APC/PM/SOS (dropped). */
  #isOsc = false;
  #osc: number[] = [];
  #oscTooLong = false;

  constructor(readonly allowed: Allowed = { title: false, clipboard: false }) {}

  push(bytes: Uint8Array): Uint8Array {
    const out: number[] = [];
    for (const byte of bytes) {
      switch (this.#state) {
        case "ground":
          if (byte === 0x1b) this.#state = "esc";
          else if (byte === 0xc2) this.#state = "c2";
          else out.push(byte);
          break;
        case "esc":
          if (byte === 0x5d) this.#start(true);
          else if (byte === 0x50 || byte === 0x5f || byte === 0x5e || byte === 0x58) this.#start(false);
          else {
            out.push(0x1b);
            if (byte === 0x1b) break;
            this.#state = "ground";
            out.push(byte);
          }
          break;
        case "c2":
          // U+009D OSC, U+0090 DCS, U+009F APC, U+009E PM, U+0098 SOS, in UTF-8.
          if (byte === 0x9d) this.#start(true);
          else if (byte === 0x90 || byte === 0x9f || byte === 0x9e || byte === 0x98) this.#start(false);
          else {
            out.push(0xc2);
            if (byte === 0x1b) this.#state = "esc";
            else if (byte !== 0xc2) out.push(byte), (this.#state = "ground");
          }
          break;
        case "string":
          if (byte === 0x1b) this.#state = "string-esc";
          else if (byte === 0xc2) this.#state = "string-c2";
          else if ((byte === 0x07 && this.#isOsc) || byte === 0x18 || byte === 0x1a) this.#end(out, byte === 0x07);
          else this.#keep(byte);
          break;
        case "string-esc":
          // ESC \ is the terminator; any other ESC ends the string too and starts a sequence (as a VT parser does).
          this.#end(out, true);
          if (byte === 0x5c) break;
          this.#state = "esc";
          out.push(...this.push(Uint8Array.of(byte)));
          break;
        case "string-c2":
          if (byte === 0x9c) this.#end(out, true);
          else {
            this.#state = "string";
            this.#keep(0xc2);
            out.push(...this.push(Uint8Array.of(byte)));
          }
          break;
      }
    }
    return Uint8Array.from(out);
  }

  #start(osc: boolean): void {
    this.#state = "string";
    this.#isOsc = osc;
    this.#osc = [];
    this.#oscTooLong = false;
  }

  #keep(byte: number): void {
    if (!this.#isOsc || this.#oscTooLong) return;
    this.#osc.push(byte);
    if (this.#osc.length > MAX_OSC_BYTES) (this.#oscTooLong = true), (this.#osc = []);
  }

  /** The string ended (completed, or aborted by CAN/SUB): an allowed OSC goes out, ST-terminated. */
  #end(out: number[], completed: boolean): void {
    this.#state = "ground";
    if (!this.#isOsc || this.#oscTooLong || !completed) return;
    const number = /^(\d+)(;|$)/.exec(new TextDecoder().decode(Uint8Array.from(this.#osc)))?.[1];
    if (number === "52" && !this.allowed.clipboard) return;
    if ((number === "0" || number === "1" || number === "2") && !this.allowed.title) return;
    out.push(0x1b, 0x5d, ...this.#osc, 0x1b, 0x5c);
  }
}

/** `C-\` → 0x1c, `C-]` → 0x1d, `C-q` → 0x11, `C-a` → 0x01. */
export function controlByte(key: string): number {
  const match = /^C-(.)$/i.exec(key.trim());
  if (!match) throw new Error(`--detach-key must look like C-\\ or C-], got "${key}"`);
  const code = match[1]!.toUpperCase().charCodeAt(0);
  if (code < 0x40 || code > 0x5f) throw new Error(`--detach-key: C-${match[1]} is not a control key`);
  return code - 0x40;
}

export function runAttach(connection: DaemonConnection, reply: Reply, options: AttachClientOptions): Promise<number> {
  const id = String(reply.id);
  const detach = controlByte(options.detachKey);
  const stdin = process.stdin;
  const tty = stdin.isTTY === true;
  const write = (data: string | Uint8Array) => process.stdout.write(data);
  const reader = new FrameReader();
  const filter = new OutputFilter(allowedFrom(process.env));
  if (tty) stdin.setRawMode(true);
  write(ENTER);
  const wheel = options.wheel;
  if (wheel) write(MOUSE_ON);
  /** The program's own mouse mode; the history view's offset (undefined: live). */
  let theirMouse = false;
  let viewAt: number | undefined;
  let viewSize = 0;
  let viewBusy: Promise<void> = Promise.resolve();

  return new Promise<number>((resolve) => {
    let done = false;
    const finish = (code: number, message: string) => {
      if (done) return;
      done = true;
      write(RESTORE);
      if (tty) stdin.setRawMode(false);
      stdin.pause();
      process.off("SIGWINCH", resized);
      connection.close();
      process.stderr.write(`${message}\n`);
      resolve(code);
    };
    const link = connection.takeRaw(
      (bytes) => {
        let frames: ReturnType<FrameReader["push"]>;
        try {
          frames = reader.push(bytes);
        } catch (error) {
          return finish(3, `t4a: broken stream from the daemon: ${(error as Error).message}`);
        }
        for (const frame of frames) {
          if (frame.type === Frame.screen || frame.type === Frame.output) {
            if (wheel) {
              const text = new TextDecoder().decode(frame.payload);
              theirMouse = programMouse(text, theirMouse);
              const shown = filter.push(frame.payload);
              // While the history shows, the program's output waits: leaving the view redraws its screen.
              if (viewAt !== undefined) continue;
              write(shown);
              // The program turned a mouse mode off: the outer terminal's goes back to ours.
              if (!theirMouse && /\x1b\[\?[\d;]*100[0236][\d;]*l/.test(text)) write(MOUSE_ON);
              continue;
            }
            write(filter.push(frame.payload));
          } else if (frame.type === Frame.event) {
            const event = JSON.parse(new TextDecoder().decode(frame.payload)) as Reply;
            if (event.event === "exit") {
              const how = event.signal ? ` (${event.signal})` : event.code !== null ? ` (code ${event.code})` : "";
              return finish(0, `[t4a: ${id} exited${how}]`);
            }
            if (event.event === "lagged")
              return finish(1, `[t4a: this terminal fell behind ${id}'s output and was dropped; attach again]`);
          }
        }
      },
      // Over ssh the link can end while the remote daemon and the session live on.
      () =>
        finish(
          3,
          connection.peer.startsWith("ssh ")
            ? `t4a: the connection to ${connection.peer.slice(4)} ended; ${id} may still run there: attach again`
            : `t4a: the daemon went away; ${id} is gone with it`,
        ),
    );
    const send = (type: number, payload: Uint8Array | string) => {
      if (!options.readOnly) link.write(encodeFrame(type, payload));
    };
    function resized(): void {
      send(Frame.resize, JSON.stringify({ cols: process.stdout.columns, rows: process.stdout.rows }));
    }
    /** The wheel moved the view `lines` up (negative: down); at 0 the view closes, as tmux's `copy-mode -e`. */
    const scroll = (lines: number) => {
      viewBusy = viewBusy.then(async () => {
        if (!wheel || done) return;
        if (viewAt === undefined) {
          if (lines < 0) return;
          viewSize = await wheel.historySize();
          if (viewSize === 0) return;
          viewAt = 0;
        }
        const next = Math.max(0, Math.min(viewSize, viewAt + lines));
        if (next === 0) return leaveView();
        viewAt = next;
        const rows = process.stdout.rows ?? 24;
        const shown = await wheel.lines(next, rows);
        if (!done && viewAt === next) write(drawView(shown, next, viewSize, process.stdout.columns ?? 80));
      });
    };
    const leaveView = async () => {
      if (viewAt === undefined || !wheel) return;
      const screen = await wheel.replay();
      viewAt = undefined;
      if (!done) write(`\x1b[H\x1b[2J\x1b[?25h${new TextDecoder().decode(filter.push(screen))}`);
    };
    /** Input with the mouse's reports taken out: the wheel scrolls; keys reach the program (or leave the view). */
    const fromUser = (chunk: Buffer): Buffer | undefined => {
      if (!wheel) return chunk;
      const text = chunk.toString("latin1");
      if (theirMouse && viewAt === undefined) return chunk;
      let rest = "";
      let last = 0;
      for (const match of text.matchAll(/\x1b\[<(\d+);(\d+);(\d+)([Mm])/g)) {
        rest += text.slice(last, match.index);
        last = match.index! + match[0].length;
        const button = Number(match[1]);
        if (button === 64) scroll(WHEEL_LINES);
        else if (button === 65) scroll(-WHEEL_LINES);
        // Clicks and drags: tmux's own (panes, selection); nothing for the program.
      }
      rest += text.slice(last);
      if (viewAt !== undefined && rest !== "") {
        // In the view, keys are the view's: q, Escape or C-c leave it; the rest do nothing (as copy mode).
        if (/^(q|\x1b|\x03)$/.test(rest)) viewBusy = viewBusy.then(leaveView);
        return rest.includes(String.fromCharCode(detach))
          ? Buffer.from(String.fromCharCode(detach), "latin1")
          : undefined;
      }
      return rest === "" ? undefined : Buffer.from(rest, "latin1");
    };
    stdin.on("data", (raw: Buffer) => {
      const chunk = fromUser(raw);
      if (!chunk) return;
      const at = chunk.indexOf(detach);
      if (at === -1) return send(Frame.input, new Uint8Array(chunk));
      if (at > 0) send(Frame.input, new Uint8Array(chunk.subarray(0, at)));
      finish(0, `[t4a: detached from ${id}; it goes on]`);
    });
    stdin.on("end", () => finish(0, `[t4a: detached from ${id}; it goes on]`));
    process.on("SIGWINCH", resized);
  });
}
