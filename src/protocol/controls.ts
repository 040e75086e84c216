// Text another program chose (a title, a question, a remote's error), made safe for one line of a
// terminal: its control characters (C0, DEL, C1) become spaces. Pure; no imports.

const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

export function controlsAsSpaces(text: string): string {
  return text.replace(CONTROLS, " ");
}
