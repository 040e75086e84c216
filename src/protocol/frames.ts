// The framing of an attached connection, after the `attach` reply line: each frame is a type
// byte, a 4-byte big-endian length, then that many payload bytes. Used by the daemon, `t4a
// attach` and the browser bridge alike. Plain code: no daemon, no sockets.

export const Frame = {
  /** daemon → client: the screen as escape sequences, first and once per attach. */
  screen: 0x53, // S
  /** daemon → client: output bytes, in order, right after the screen. */
  output: 0x4f, // O
  /** daemon → client: a JSON event: {"event":"exit",…}, {"event":"resize",…}, {"event":"lagged"}. */
  event: 0x45, // E
  /** client → daemon: bytes typed into the program. */
  input: 0x49, // I
  /** client → daemon: {"cols":N,"rows":N} — the client's size; the last one to resize wins. */
  resize: 0x52, // R
} as const;

const HEADER = 5;
/** A frame longer than this is a broken peer, not data. */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;

export function encodeFrame(type: number, payload: Uint8Array | string): Uint8Array {
  const body = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
  const frame = new Uint8Array(HEADER + body.length);
  frame[0] = type;
  new DataView(frame.buffer).setUint32(1, body.length);
  frame.set(body, HEADER);
  return frame;
}

/**
 * Splits a byte stream into frames, however the bytes arrive; throws on a frame over the limit.
 * Chunks are joined once a whole frame is there, not at each chunk: a 16 MiB frame in 64 KiB
 * chunks was 256 copies of a growing buffer (1.2 s of the daemon's thread a frame, from a host).
 */
export class FrameReader {
  #buffer = new Uint8Array(0);
  /** Chunks after #buffer, not joined yet, and their bytes. */
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  /** Bytes #buffer and #pending must hold together before a frame can be cut. */
  #need = HEADER;

  push(chunk: Uint8Array): Array<{ type: number; payload: Uint8Array }> {
    this.#pending.push(chunk.slice());
    this.#pendingBytes += chunk.length;
    if (this.#buffer.length + this.#pendingBytes < this.#need) return [];
    const joined = new Uint8Array(this.#buffer.length + this.#pendingBytes);
    joined.set(this.#buffer);
    let at = this.#buffer.length;
    for (const part of this.#pending) {
      joined.set(part, at);
      at += part.length;
    }
    this.#pending = [];
    this.#pendingBytes = 0;
    const frames: Array<{ type: number; payload: Uint8Array }> = [];
    let offset = 0;
    this.#need = HEADER;
    while (joined.length - offset >= HEADER) {
      const length = new DataView(joined.buffer, joined.byteOffset + offset + 1, 4).getUint32(0);
      if (length > MAX_FRAME_BYTES) throw new Error(`a frame of ${length} bytes is over the limit`);
      if (joined.length - offset < HEADER + length) {
        this.#need = HEADER + length;
        break;
      }
      frames.push({ type: joined[offset]!, payload: joined.slice(offset + HEADER, offset + HEADER + length) });
      offset += HEADER + length;
    }
    this.#buffer = joined.slice(offset);
    return frames;
  }
}
