// Named keys (`Enter`, `C-c`, `M-x`, `S-Tab`, `C-Left`, `F5`, `PageDown`) to the bytes a terminal
// sends for them, honouring application cursor-key mode. Names follow tmux's send-keys.
import { T4aError } from "../protocol/errors.ts";

const ESC = "\x1b";

/** Keys sent as CSI/SS3 sequences: [final byte, or tilde number]. */
const cursorKeys: Record<string, string> = { up: "A", down: "B", right: "C", left: "D", home: "H", end: "F" };
const tildeKeys: Record<string, number> = {
  insert: 2,
  ic: 2,
  delete: 3,
  dc: 3,
  pageup: 5,
  pgup: 5,
  ppage: 5,
  pagedown: 6,
  pgdn: 6,
  npage: 6,
  f5: 15,
  f6: 17,
  f7: 18,
  f8: 19,
  f9: 20,
  f10: 21,
  f11: 23,
  f12: 24,
};
const ss3FunctionKeys: Record<string, string> = { f1: "P", f2: "Q", f3: "R", f4: "S" };
const plainKeys: Record<string, string> = {
  enter: "\r",
  return: "\r",
  tab: "\t",
  escape: ESC,
  esc: ESC,
  space: " ",
  bspace: "\x7f",
  backspace: "\x7f",
};

export interface KeyModes {
  applicationCursorKeys: boolean;
}

/** Bytes for one key name. Throws invalid_params for names it does not know. */
export function keyBytes(name: string, modes: KeyModes): string {
  let rest = name;
  let ctrl = false;
  let alt = false;
  let shift = false;
  // Modifier prefixes, in any order: C- (ctrl), M- (meta/alt), S- (shift).
  while (rest.length > 2 && rest[1] === "-") {
    const modifier = rest[0]!.toUpperCase();
    if (modifier === "C") ctrl = true;
    else if (modifier === "M") alt = true;
    else if (modifier === "S") shift = true;
    else break;
    rest = rest.slice(2);
  }
  const key = rest.toLowerCase();
  const modifierParam = 1 + (shift ? 1 : 0) + (alt ? 2 : 0) + (ctrl ? 4 : 0);

  if (key in cursorKeys) {
    const final = cursorKeys[key]!;
    if (modifierParam > 1) return `${ESC}[1;${modifierParam}${final}`;
    return modes.applicationCursorKeys ? `${ESC}O${final}` : `${ESC}[${final}`;
  }
  if (key in tildeKeys) return `${ESC}[${tildeKeys[key]}${modifierParam > 1 ? `;${modifierParam}` : ""}~`;
  if (key in ss3FunctionKeys) {
    const final = ss3FunctionKeys[key]!;
    return modifierParam > 1 ? `${ESC}[1;${modifierParam}${final}` : `${ESC}O${final}`;
  }
  if (key === "tab" && shift) return `${alt ? ESC : ""}${ESC}[Z`;
  if (key === "btab") return `${ESC}[Z`;

  let bytes: string;
  if (key in plainKeys) bytes = plainKeys[key]!;
  else if ([...rest].length === 1) bytes = shift ? rest.toUpperCase() : rest;
  else throw new T4aError("invalid_params", `unknown key "${name}"`);

  if (ctrl) bytes = controlOf(bytes, name);
  return alt ? ESC + bytes : bytes;
}

/** Ctrl+key as a terminal sends it: the key's code with bits 5 and 6 cleared. */
function controlOf(key: string, name: string): string {
  if (key === " " || key === "@" || key === "2") return "\x00";
  if (key === "?" || key === "8") return "\x7f";
  if (key === "\x7f") return "\x08";
  const code = key.toUpperCase().charCodeAt(0);
  if (code >= 0x40 && code <= 0x5f) return String.fromCharCode(code & 0x1f);
  if (key === "\r" || key === "\t" || key === ESC) return key;
  throw new T4aError("invalid_params", `key "${name}" has no control form`);
}
