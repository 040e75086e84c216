// The device queries a session's own emulator answers, taken out of the output a viewer gets.
// A viewer's terminal (the one `t4a attach` runs in, the page's xterm.js) would answer them a
// second time, and its answer comes back as typed input: vim, attached to while it asked for the
// terminal's version, took `\e[>0;276;0c` for keys (`c`: change) and ate what was typed next.
//
// Taken out, exactly what xterm.js answers, so that a program gets one answer as in any terminal:
// DA1 (CSI c, CSI 0 c), DA2 (CSI > c, CSI > 0 c), DSR (CSI 5 n, CSI 6 n, CSI ? 6 n), DECRQM
// (CSI Ps $ p, CSI ? Ps $ p) and DECRQSS (DCS $ q … ST). Everything else passes as it came. A
// string (OSC, DCS, APC, PM, SOS) passes unread up to the ESC or BEL that ends it: an ESC in it
// ends it for xterm.js too, so a query right after is one it answers. 8-bit C1 controls are not
// looked for: in UTF-8 output they are two bytes that no program sends.

const ESC = 0x1b;
const BEL = 0x07;
/** Longest CSI or DECRQSS held back while it may still be a query; longer ones pass as they came. */
const MAX_HELD = 64;

enum State {
  Ground,
  /** After ESC. */
  Escape,
  /** In a CSI sequence: its bytes held. */
  Csi,
  /** After ESC P, held until it shows whether it is DECRQSS (ESC P $ q). */
  DcsStart,
  /** In DECRQSS, held until its ST. */
  Decrqss,
  DecrqssEscape,
  /** In any other string, passed on until BEL (OSC) or ESC. */
  Str,
}

export class AnsweredQueryFilter {
  #state = State.Ground;
  /** The string being passed is an OSC, which BEL may end. */
  #osc = false;
  /** The bytes of a sequence not decided yet, from its ESC on. */
  #held: number[] = [];

  /** The chunk without those queries; the chunk itself when it has no escape (nearly always). */
  filter(chunk: Uint8Array): Uint8Array {
    if (this.#state === State.Ground && chunk.indexOf(ESC) === -1) return chunk;
    const out = new Uint8Array(this.#held.length + chunk.length);
    let length = 0;
    const release = (next: State, keep = 0) => {
      const held = this.#held;
      for (let k = 0; k < held.length - keep; k++) out[length++] = held[k]!;
      this.#held = held.slice(held.length - keep);
      this.#state = next;
    };
    let i = 0;
    while (i < chunk.length) {
      if (this.#state === State.Ground || this.#state === State.Str) {
        let end = chunk.indexOf(ESC, i);
        if (end === -1) end = chunk.length;
        if (this.#state === State.Str && this.#osc) {
          const bel = chunk.indexOf(BEL, i);
          if (bel !== -1 && bel < end) {
            out.set(chunk.subarray(i, bel + 1), length);
            length += bel + 1 - i;
            i = bel + 1;
            this.#state = State.Ground;
            continue;
          }
        }
        out.set(chunk.subarray(i, end), length);
        length += end - i;
        if (end === chunk.length) break;
        // ESC: a sequence starts (in a string, ESC \ ends it, and passes as an unknown escape).
        this.#held = [ESC];
        this.#state = State.Escape;
        i = end + 1;
        continue;
      }
      const byte = chunk[i++]!;
      this.#held.push(byte);
      switch (this.#state) {
        case State.Escape:
          if (byte === 0x5b)
            this.#state = State.Csi; // [
          else if (byte === 0x50)
            this.#state = State.DcsStart; // P
          else if (byte === ESC)
            release(State.Escape, 1); // the first ESC was alone
          else {
            // ] _ ^ X open a string; anything else is a whole escape sequence.
            this.#osc = byte === 0x5d;
            release(byte === 0x5d || byte === 0x5f || byte === 0x5e || byte === 0x58 ? State.Str : State.Ground);
          }
          break;
        case State.Csi:
          if (byte >= 0x40 && byte <= 0x7e) {
            if (isAnsweredCsi(this.#held)) this.#held = [];
            release(State.Ground);
          } else if (byte === ESC)
            release(State.Escape, 1); // ESC cancels it and starts another
          else if (byte < 0x20 || byte > 0x3f || this.#held.length > MAX_HELD) release(State.Ground);
          break;
        case State.DcsStart:
          if (byte === ESC) release(State.Escape, 1);
          else if (this.#held.length === 4) {
            if (this.#held[2] === 0x24 && byte === 0x71)
              this.#state = State.Decrqss; // $ q
            else {
              this.#osc = false;
              release(State.Str);
            }
          }
          break;
        case State.Decrqss:
          if (byte === ESC) this.#state = State.DecrqssEscape;
          else if (this.#held.length > MAX_HELD) {
            this.#osc = false;
            release(State.Str);
          }
          break;
        case State.DecrqssEscape:
          if (byte === 0x5c) {
            // ESC \ ends it: answered by the session's emulator, so the viewer never sees it.
            this.#held = [];
            this.#state = State.Ground;
          } else {
            // Cut short by another sequence: the string as it came, then that sequence judged.
            this.#held.pop();
            release(State.Escape, 1);
            i--;
          }
          break;
      }
    }
    return out.subarray(0, length);
  }

  /** Bytes held at the end of the output: a sequence cut short, passed on as it came. */
  flush(): Uint8Array {
    const held = Uint8Array.from(this.#held);
    this.#held = [];
    this.#state = State.Ground;
    return held;
  }
}

/** `held`: a whole CSI sequence, ESC [ … final byte. */
function isAnsweredCsi(held: number[]): boolean {
  const final = held[held.length - 1]!;
  if (final !== 0x63 && final !== 0x6e && final !== 0x70) return false; // c n p
  let body = "";
  for (let i = 2; i < held.length - 1; i++) body += String.fromCharCode(held[i]!);
  if (final === 0x63) return body === "" || body === "0" || body === ">" || body === ">0";
  if (final === 0x6e) return body === "5" || body === "6" || body === "?6";
  return /^\??\d*\$$/.test(body);
}
