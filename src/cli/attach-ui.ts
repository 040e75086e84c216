// `t4a attach`: the caller's terminal in raw mode shows the session — its screen replayed, then
// live output — and sends keys and size back. The detach key (C-\ by default) leaves the session
// running. On every way out (detach, the program's exit, the daemon going away) the caller's
// terminal is put back: the modes the program turned on are reset, the alternate screen left.
import type { DaemonConnection, Reply } from "../client/connection.ts";
import { encodeFrame, Frame, FrameReader } from "../protocol/frames.ts";

/** What the program may have switched on in our terminal: off again, then back to the shell's screen. */
const RESTORE =
  "\x1b[?2004l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?1l\x1b>\x1b[?25h\x1b[0 q\x1b[0m\x1b[r\x1b[?1049l";
const ENTER = "\x1b[?1049h\x1b[H\x1b[2J";

export interface AttachClientOptions {
  readOnly: boolean;
  detachKey: string;
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
  if (tty) stdin.setRawMode(true);
  write(ENTER);

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
          if (frame.type === Frame.screen || frame.type === Frame.output) write(frame.payload);
          else if (frame.type === Frame.event) {
            const event = JSON.parse(new TextDecoder().decode(frame.payload)) as Reply;
            if (event.event === "exit") return finish(0, `[t4a: ${id} exited${event.signal ? ` (${event.signal})` : event.code !== null ? ` (code ${event.code})` : ""}]`);
            if (event.event === "lagged") return finish(1, `[t4a: this terminal fell behind ${id}'s output and was dropped; attach again]`);
          }
        }
      },
      // Over ssh the link can end while the remote daemon and the session live on.
      () => finish(3, connection.peer.startsWith("ssh ") ? `t4a: the connection to ${connection.peer.slice(4)} ended; ${id} may still run there: attach again` : `t4a: the daemon went away; ${id} is gone with it`),
    );
    const send = (type: number, payload: Uint8Array | string) => {
      if (!options.readOnly) link.write(encodeFrame(type, payload));
    };
    function resized(): void {
      send(Frame.resize, JSON.stringify({ cols: process.stdout.columns, rows: process.stdout.rows }));
    }
    stdin.on("data", (chunk: Buffer) => {
      const at = chunk.indexOf(detach);
      if (at === -1) return send(Frame.input, new Uint8Array(chunk));
      if (at > 0) send(Frame.input, new Uint8Array(chunk.subarray(0, at)));
      finish(0, `[t4a: detached from ${id}; it goes on]`);
    });
    stdin.on("end", () => finish(0, `[t4a: detached from ${id}; it goes on]`));
    process.on("SIGWINCH", resized);
  });
}
