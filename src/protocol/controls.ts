// Text another program chose (a title, a question, a remote's error), made safe for one line of a
// terminal: its control characters (C0, DEL, C1) become spaces. Pure; no imports.

const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

export function controlsAsSpaces(text: string): string {
  return text.replace(CONTROLS, " ");
}

/** Control characters out of every string of a value another machine sent (its ids, titles, lines, errors, keys). */
export function controlsOut<T>(value: T): T {
  if (typeof value === "string") return controlsAsSpaces(value) as T;
  if (Array.isArray(value)) return value.map(controlsOut) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) out[controlsAsSpaces(key)] = controlsOut(field);
    return out as T;
  }
  return value;
}
