import { expect, test } from "bun:test";
import { Pty } from "./pty.ts";

/** Whether a held program stays held: no bytes once what was in flight arrived, through answers and keys. */
async function staysHeld(argv: string[]): Promise<number[]> {
  let bytes = 0;
  const pty = new Pty({
    argv,
    cwd: "/",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    cols: 80,
    rows: 24,
    onData: (chunk) => void (bytes += chunk.length),
    // A screen that never catches up: the feed holds the program after its first reads and never restarts it.
    unparsed: () => Number.MAX_SAFE_INTEGER,
    onExit: () => {},
  });
  try {
    const grows = async () => {
      // What was in flight when the program stopped arrives first; after that, a held program sends nothing.
      await Bun.sleep(300);
      const before = bytes;
      await Bun.sleep(300);
      return bytes - before;
    };
    const growth = [await grows()];
    pty.answer("\x1b[1;1R");
    growth.push(await grows());
    pty.write("typed");
    growth.push(await grows());
    return growth;
  } finally {
    await pty.kill(100);
  }
}

test("a held program stays held when input goes in (an XOFF was undone by IXANY: an answer to a query in a flood)", async () => {
  expect(await staysHeld(["yes"])).toEqual([0, 0, 0]);
});

test("a raw-mode program (no IXON, which XOFF cannot hold) is held too, by its tty's flow", async () => {
  expect(await staysHeld(["/bin/sh", "-c", "stty raw -ixon; exec yes"])).toEqual([0, 0, 0]);
});
