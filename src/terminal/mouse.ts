// Mouse reports: a click or a wheel turn at a cell, as the bytes the program's terminal would send in
// the mode it turned on (xterm's ctlseqs, "Mouse Tracking"). Pure: knows nothing of screens or PTYs.
import { T4aError } from "../protocol/errors.ts";
import type { MouseEncoding, MouseReporting } from "./cell-grid.ts";

export type MouseButton = "left" | "middle" | "right";

/** A cell, 0-based from the top left of the screen (as `cursor` and `snapshot` count). */
export interface Cell {
  row: number;
  col: number;
}

export type MouseAction =
  | ({ click: MouseButton; double?: boolean } & Cell)
  | ({ scroll: "up" | "down"; count?: number } & Cell);

const BUTTON_CODE: Record<MouseButton, number> = { left: 0, middle: 1, right: 2 };
/** Release, in every encoding but SGR (which names the button released). */
const RELEASE = 3;
/** Wheel up; wheel down is one more (buttons 4 and 5). */
const WHEEL = 64;
/** The largest coordinate each encoding can carry (1-based): a byte less 32, a 2-byte UTF-8 character less 32. */
const LIMIT: Record<MouseEncoding, number> = {
  default: 223,
  utf8: 2015,
  sgr: Infinity,
  urxvt: Infinity,
  "sgr-pixels": Infinity,
};

/** The `DECSET` number that turns each encoding on, for messages. */
const ENCODING_NUMBER: Record<MouseEncoding, string> = {
  default: "the default encoding",
  utf8: "UTF-8 (1005)",
  sgr: "SGR (1006)",
  urxvt: "urxvt (1015)",
  "sgr-pixels": "SGR pixels (1016)",
};

/** One event: a button code (modifiers none), press or release, at a 1-based x (column) and y (row). */
function report(encoding: MouseEncoding, code: number, release: boolean, x: number, y: number): string {
  switch (encoding) {
    case "sgr":
      return `\x1b[<${code};${x};${y}${release ? "m" : "M"}`;
    case "urxvt":
      return `\x1b[${(release ? RELEASE : code) + 32};${x};${y}M`;
    default:
      // default and utf8 alike: each value plus 32 as one character; default's are single bytes
      // (written as latin1), utf8's are UTF-8 encoded (see mouseBytes).
      return `\x1b[M${String.fromCharCode((release ? RELEASE : code) + 32, x + 32, y + 32)}`;
  }
}

/**
 * The bytes for a click (press and release; twice for a double click) or `count` wheel turns at a
 * cell, in `mode`. Throws `no_mouse` when the program turned no reporting on (so nothing is sent),
 * `unsupported` for what its mode cannot report (the wheel in X10 mode, pixel positions), and
 * `invalid_params` for a cell off the screen or beyond what the encoding can address.
 */
export function mouseBytes(
  action: MouseAction,
  mode: MouseReporting,
  size: { cols: number; rows: number },
): Uint8Array {
  if (mode.mode === "none") {
    throw new T4aError(
      "no_mouse",
      "the program turned no mouse reporting on (DECSET 9, 1000, 1002 or 1003): nothing was sent; use keys",
    );
  }
  if (mode.encoding === "sgr-pixels")
    throw new T4aError(
      "unsupported",
      "the program asked for mouse positions in pixels (DECSET 1016); t4a's terminals have no pixel size",
    );
  const { row, col } = action;
  if (!Number.isInteger(row) || !Number.isInteger(col) || row < 0 || col < 0 || row >= size.rows || col >= size.cols) {
    throw new T4aError(
      "invalid_params",
      `cell ${row}:${col} is off the screen (rows 0-${size.rows - 1}, cols 0-${size.cols - 1}, 0-based)`,
    );
  }
  const x = col + 1;
  const y = row + 1;
  const limit = LIMIT[mode.encoding];
  if (x > limit || y > limit) {
    throw new T4aError(
      "invalid_params",
      `cell ${row}:${col}: the program's mouse encoding, ${ENCODING_NUMBER[mode.encoding]}, ` +
        `reaches row and column ${limit} (1-based)`,
    );
  }
  const events: string[] = [];
  if ("click" in action) {
    const code = BUTTON_CODE[action.click];
    for (let i = 0; i < (action.double ? 2 : 1); i++) {
      events.push(report(mode.encoding, code, false, x, y));
      // X10 mode reports presses only.
      if (mode.mode !== "x10") events.push(report(mode.encoding, code, true, x, y));
    }
  } else {
    if (mode.mode === "x10")
      throw new T4aError("unsupported", "the program turned on X10 mouse mode (DECSET 9), which reports no wheel");
    // A wheel turn is a press of button 4 or 5, never released.
    const code = WHEEL + (action.scroll === "down" ? 1 : 0);
    for (let i = 0; i < (action.count ?? 1); i++) events.push(report(mode.encoding, code, false, x, y));
  }
  const text = events.join("");
  return mode.encoding === "default" ? Buffer.from(text, "latin1") : Buffer.from(text, "utf8");
}
