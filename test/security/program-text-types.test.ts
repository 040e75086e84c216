// The one stripping function, and the compiler holding the rule: program text reaches a reply, a
// terminal, MCP or the page only through forDisplay. The type-level half is checked by `tsc`
// (npm test): each `@ts-expect-error` below fails the build if the line it marks compiles.
import { expect, test } from "bun:test";
import { textContent } from "../../src/commands/command.ts";
import type { Session } from "../../src/session/session.ts";
import type { Reader } from "../../src/terminal/input-wanted.ts";
import type { ScreenProxy } from "../../src/terminal/screen-pool.ts";
import {
  displayable,
  forDisplay,
  fromProgram,
  type ProgramText,
  programTextValue,
} from "../../src/protocol/program-text.ts";
import type { SessionInfo } from "../../src/protocol/session-info.ts";

test("forDisplay: C0, DEL and C1 become spaces, bidi controls go; a block keeps its newlines and tabs", () => {
  const evil = fromProgram("a\x1b]52;c;QUJD\x07b\x1b[2Jc\u009b31md\u202ee\u2066f\x7fg\r\nh\ti");
  expect(forDisplay(evil)).toBe("a ]52;c;QUJD b [2Jc 31mdef g  h i");
  expect(forDisplay(evil, "lines")).toBe("a ]52;c;QUJD b [2Jc 31mdef g \nh\ti");
  // Printable text is left as it is, wide and combining characters too.
  expect(forDisplay(fromProgram("claude · 日本語 é ✓"))).toBe("claude · 日本語 é ✓");
});

test("displayable: every string of a remote's reply, its keys too; blocks of lines keep their newlines", () => {
  const reply: Record<string, unknown> = {
    terminals: [{ id: "t1\u202egpj.exe", title: "\x1b]0;x\x07t", cols: 80 }],
    output: "one\ntwo\x1b[2J",
    "k\x1b": true,
  };
  expect(displayable(reply)).toEqual({
    terminals: [{ id: "t1gpj.exe", title: " ]0;x t", cols: 80 }],
    output: "one\ntwo [2J",
    "k ": true,
  });
});

/**
 * What a new feature would write, each refused by the compiler (never run: the values are only
 * declared). Remove the forDisplay from any place that shows program text and tsc says so too.
 */
export function refusedByTheCompiler(reader: Reader, screen: ScreenProxy, session: Session): string[] {
  // @ts-expect-error A program's name (/proc/PID/comm, set with prctl) is not a reply's string.
  const named: Partial<SessionInfo> = { input_wanted: reader.process };
  // @ts-expect-error A title (OSC 0/2) is not a reply's string.
  const titled: Partial<SessionInfo> = { title: screen.title };
  // @ts-expect-error A restore note names the directory the program's OSC 7 reported.
  const noted: Partial<SessionInfo> = { restore_note: session.restoreNote };
  // @ts-expect-error Nor text for an MCP client.
  const tool = textContent(screen.title);
  // @ts-expect-error Nor a string to cut or join into a line for a terminal.
  const cut: string = reader.process.slice(0, 20);
  // What compiles: through the one stripping function (or, for t4a's own comparisons, its value by name).
  const shown: Partial<SessionInfo> = { input_wanted: forDisplay(reader.process), title: forDisplay(screen.title) };
  const compared = programTextValue(reader.process) === "bash";
  return [named, titled, noted, tool, cut, shown, compared].map(String);
}

test("the type-level checks exist (tsc runs them; see refusedByTheCompiler)", () => {
  expect(typeof refusedByTheCompiler).toBe("function");
  const text: ProgramText = fromProgram("x");
  expect(forDisplay(text)).toBe("x");
});
