// Parses shell-integration marks: OSC 133 (A prompt, B input, C command output, D;code done) and
// the seed's OSC 7777;done;code, and t4a's own OSC 7777;more (the shell's continuation prompt,
// PS2: it wants more of the line). Each may carry `t4a=<nonce>`; the caller decides what to trust.

export type MarkKind = "prompt" | "input" | "command_start" | "command_done" | "continuation";

export interface Mark {
  kind: MarkKind;
  /** Exit code carried by a done mark (undefined when the shell sent none). */
  code?: number;
  /** The `t4a=` parameter, when present. */
  nonce?: string;
}

const KINDS: Record<string, MarkKind> = { A: "prompt", B: "input", C: "command_start", D: "command_done" };

/** Payload of OSC 133 (after `133;`), e.g. `D;0;t4a=ab12`. */
export function parseOsc133(payload: string): Mark | undefined {
  const [letter, ...params] = payload.split(";");
  const kind = KINDS[letter ?? ""];
  if (!kind) return undefined;
  return withParams({ kind }, params);
}

/** Payload of OSC 7777 (after `7777;`), e.g. `done;0;t4a=ab12` or `more;t4a=ab12`. */
export function parseOsc7777(payload: string): Mark | undefined {
  const [verb, ...params] = payload.split(";");
  if (verb === "more") return withParams({ kind: "continuation" }, params);
  return verb === "done" ? withParams({ kind: "command_done" }, params) : undefined;
}

function withParams(mark: Mark, params: string[]): Mark {
  for (const param of params) {
    if (param.startsWith("t4a=")) mark.nonce = param.slice(4);
    else if (mark.kind === "command_done" && mark.code === undefined && /^-?\d+$/.test(param))
      mark.code = Number(param);
  }
  return mark;
}
