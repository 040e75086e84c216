// C-style escapes in a `t4a send` argument: \n \r \t \e \a \b \f \v \0 \\ \xHH \uHHHH \u{H…}.
// Shells make raw control bytes awkward to type; agents and scripts write them this way.

/** What a bracketed paste starts with (the terminal types a part that does whole), and ends with. */
export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";

/** Text as one bracketed paste. */
export function bracketedPaste(text: string): string {
  return PASTE_START + text + PASTE_END;
}

const simple: Record<string, string> = {
  n: "\n",
  r: "\r",
  t: "\t",
  e: "\x1b",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
  "\\": "\\",
};

export function unescapeInput(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|.)/gs, (match, sequence: string) => {
    if (sequence[0] === "x" && sequence.length === 3) return String.fromCharCode(parseInt(sequence.slice(1), 16));
    if (sequence[0] === "u" && sequence.length > 1) {
      const code = parseInt(sequence.replace(/[u{}]/g, ""), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return simple[sequence] ?? match;
  });
}
