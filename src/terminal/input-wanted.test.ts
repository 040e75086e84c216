import { expect, test } from "bun:test";
import { fromProgram, type ProgramText } from "../protocol/program-text.ts";
import { canTellInputWanted, type InputWanted, InputWantedWatch } from "./input-wanted.ts";
import { Pty } from "./pty.ts";

// The CI run that failed: a loaded machine, bash's `read -s -p 'Password: '` blocked reading before the daemon had
// read its prompt, and input_wanted told `line: ""`. Here the screen shows the prompt only after the first look.
test.if(canTellInputWanted)("a reader found before its prompt reached the screen is told with the prompt", async () => {
  const pty = new Pty({
    argv: ["bash", "--norc", "-c", "read -s x"],
    cwd: "/",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    cols: 80,
    rows: 24,
    onData: () => {},
    onExit: () => {},
  });
  let looks = 0;
  const told: InputWanted[] = [];
  // The first read of the line is blank (its bytes not parsed yet); from then on it holds the prompt.
  const line = (): ProgramText => fromProgram(looks++ === 0 ? "" : "Password: ");
  const watch = new InputWantedWatch(
    () => pty.pid,
    line,
    (wanted) => told.push(wanted),
  );
  try {
    for (let waited = 0; told.length === 0 && waited < 15_000; waited += 50) await Bun.sleep(50);
    expect(told).toEqual([{ process: "bash", line: "Password: " }]);
  } finally {
    watch.dispose();
    await pty.kill(100);
  }
});
