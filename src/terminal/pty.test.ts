import { expect, test } from "bun:test";
import { Pty } from "./pty.ts";

/** Whether a held program stays held, through an answer and a key: 0 each time it does, else the bytes read. */
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
    // Held: once what was in flight has arrived, nothing more comes (a 200 ms window without a
    // byte, looked for over 10 s: a loaded machine may deliver the last bytes late). A program
    // running free never gives one.
    const settles = async () => {
      for (let tries = 0; tries < 50; tries++) {
        const before = bytes;
        await Bun.sleep(200);
        if (bytes === before) return 0;
      }
      return bytes;
    };
    const growth = [await settles()];
    pty.answer("\x1b[1;1R");
    growth.push(await settles());
    pty.write("typed");
    growth.push(await settles());
    return growth;
  } finally {
    await pty.kill(100);
  }
}

test("a held program stays held when input goes in (an XOFF " +
  "was undone by IXANY: an answer to a query in a flood)", async () => {
  expect(await staysHeld(["yes"])).toEqual([0, 0, 0]);
}, 60_000);

test("a raw-mode program (no IXON, which XOFF cannot hold) is held too, by its tty's flow", async () => {
  expect(await staysHeld(["/bin/sh", "-c", "stty raw -ixon; exec yes"])).toEqual([0, 0, 0]);
}, 60_000);

test("the output of a program that exits ends then (its terminal closes), not after a quiet window", async () => {
  let bytes = 0;
  const pty = new Pty({
    argv: ["/bin/sh", "-c", "seq 1 1000"],
    cwd: "/",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    cols: 80,
    rows: 24,
    onData: (chunk) => void (bytes += chunk.length),
    onExit: () => {},
  });
  await pty.done;
  // A terminal made before the spawn (new Bun.Terminal) kept the slave side open in the daemon:
  // no end ever came while it lived, and every exit was reported after 100 ms without output.
  expect(pty.endedBy).toBe("eof");
  expect(bytes).toBe(3893 + 1000); // every line, its LF made CR LF
}, 60_000);
