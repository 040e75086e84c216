import { expect, test } from "bun:test";
import { Pty } from "./pty.ts";

test("a program held with XOFF stays held when input goes in (IXANY restarted it: an answer to a query in a flood)", async () => {
  let bytes = 0;
  const pty = new Pty({
    argv: ["yes"],
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
    expect(await grows()).toBe(0);
    pty.answer("\x1b[1;1R");
    expect(await grows()).toBe(0);
    pty.write("typed");
    expect(await grows()).toBe(0);
  } finally {
    await pty.kill(100);
  }
});
