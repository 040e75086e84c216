// Acting on text printed by a program that does not read the terminal: a log followed by `tail -f`, a script that
// printed a file and sleeps. The shapes of session 12's classes (a box's "(Press 'y' to quit)", a yes/no under its
// paragraph, jest's "Watch Usage" keys, "Clear<y>?", a pager's pause between dashes, a library's tag before a prompt)
// ask nothing there: what choose or fill types waits in the terminal for whatever reads it next (the shell, once the
// program ends), and the terminal's own echo of it is no answer. Each must type nothing and say so.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { Sandbox, waitFor } from "../harness.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(async () => {
  await sandbox.cleanup();
});

/** Texts a log or a file may hold, each with the actions tried on it. */
const PRINTED: Array<[string, string[][]]> = [
  ["Delete all files? [y/N]\n", [["choose", "y"]]],
  [
    "┌────────────────────────────────────────────────────────┐\n" +
      "│ Do you 'quit without saving'? (Press 'y' to quit)      │\n" +
      "└────────────────────────────────────────────────────────┘\n",
    [["choose", "y"]],
  ],
  [
    "If the computer that you are logging into isn't hardened against brute-force\n" +
      "login attempts, you can enable rate-limiting for the authentication module.\n" +
      "Do you want to enable rate-limiting? (y/n)\n",
    [["choose", "y"]],
  ],
  ["Watch Usage\n › Press a to run all tests.\n › Press q to quit watch mode.\n", [["choose", "quit"]]],
  ["Root inode is not a directory.  Clear<y>?\n", [["choose", "y"]]],
  ["------[Enter] to continue or [q] + [Enter] to quit------\n", [["choose", "q"]]],
  ["prompt: Station name:  (Harbour) ", [["fill", "Station name", "xyz"]]],
];

// A script prints the file, then sleeps until the test lets it go on; only then does it read the terminal once, and
// says what was waiting there. `tail -f` of the same file as a log: it never reads the terminal.
test("questions, key lists and a tagged prompt printed by a program that reads no terminal: nothing is typed", async () => {
  for (const [i, [text, actions]] of PRINTED.entries()) {
    const file = join(sandbox.dir, `printed${i}.txt`);
    await Bun.write(file, text);
    const go = join(sandbox.dir, `go${i}`);
    const script =
      `cat ${file}; until [ -e ${go} ]; do sleep 0.1; done; ` +
      `IFS= read -r -t 1 got; echo "queued:[$got]"; sleep 100`;
    const sleeper = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "bash", "--norc", "-c", script]);
    const tail = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "tail", "-f", file]);
    const last = text.trimEnd().split("\n").at(-1)!.trim();
    for (const id of [sleeper, tail]) {
      await sandbox.shown(id, last);
      for (const action of actions) {
        const reply = await sandbox.run([action[0]!, id, ...action.slice(1), "--json", "--timeout", "3s"]);
        expect(
          reply.code,
          `${id === tail ? "tail -f" : "a sleeping script"}: ${action.join(" ")}: ${reply.stdout}`,
        ).not.toBe(0);
      }
    }
    await Bun.write(go, "");
    await sandbox.shown(sleeper, "queued:[");
    expect(await sandbox.screen(sleeper), `nothing waits in the terminal after ${last}`).toContain("queued:[]");
    await sandbox.ok(["kill", sleeper]);
    await sandbox.ok(["kill", tail]);
  }
}, 180_000);

// The other side: a program that set its terminal raw to take keys, busy at the action's first looks with a second
// program in its group (copilot drawing its question on a loaded machine, a shell tool of its started: CI, session
// 13). No look finds it reading, yet the keys are for it, and with no echo nothing can pass for its answer.
test("a raw terminal's program, busy at the first looks with a child in its group, is acted on", async () => {
  const out = join(sandbox.dir, "raw-answer.txt");
  const program = [
    "import os, sys, time, tty, subprocess",
    "tty.setraw(0)",
    "child = subprocess.Popen(['sleep', '30'])",
    "sys.stdout.write('Do you want to run this command?\\r\\n\\r\\n\\u276f 1. Yes\\r\\n  2. No\\r\\n')",
    "sys.stdout.flush()",
    "end = time.time() + 1.5",
    "while time.time() < end: pass",
    `open(${JSON.stringify(out)}, 'w').write(os.read(0, 16).decode())`,
    "child.kill()",
    "time.sleep(30)",
  ].join("\n");
  const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "python3", "-c", program]);
  await sandbox.shown(id, "2. No");
  const reply = await sandbox.run(["choose", id, "Yes"]);
  expect(reply.stdout + reply.stderr).not.toContain("no program reads the terminal");
  await waitFor(async () => (await Bun.file(out).exists()) && (await Bun.file(out).text()) !== "", 20_000, out);
  expect(["1", "\r"]).toContain((await Bun.file(out).text())[0]);
  await sandbox.ok(["kill", id]);
}, 60_000);

// The way round the raw shortcut (attack round of session 14, attack9): a script sets its terminal raw without echo,
// prints a question and sleeps, reading nothing (a TUI killed with the terminal left raw, its script going on). The
// keys would wait for whatever reads next: the shell once the script ends.
test("a terminal left raw without echo by a program that prints a question and sleeps: nothing is typed", async () => {
  const file = join(sandbox.dir, "raw-question.txt");
  await Bun.write(file, "Delete all files? [y/N]\r\n");
  const go = join(sandbox.dir, "raw-go");
  const drain = join(sandbox.dir, "drain.py");
  await Bun.write(
    drain,
    "import os, fcntl\nfcntl.fcntl(0, fcntl.F_SETFL, os.O_NONBLOCK)\n" +
      "try:\n  got = os.read(0, 64)\nexcept BlockingIOError:\n  got = b''\nprint('queued:[%s]' % got.decode())\n",
  );
  const wait = `until [ -e ${go} ]; do sleep 0.1; done`;
  const script = `stty raw -echo; cat ${file}; ${wait}; python3 ${drain}; stty sane; sleep 100`;
  const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "bash", "--norc", "-c", script]);
  await sandbox.shown(id, "[y/N]");
  for (const action of [
    ["choose", "y"],
    ["choose", "yes"],
  ]) {
    const reply = await sandbox.run([action[0]!, id, ...action.slice(1), "--json", "--timeout", "3s"]);
    expect(reply.code, `${action.join(" ")}: ${reply.stdout}`).not.toBe(0);
    expect(reply.stdout + reply.stderr).toContain("no program reads the terminal");
  }
  await Bun.write(go, "");
  await sandbox.shown(id, "queued:[");
  expect(await sandbox.screen(id), "nothing waits in the terminal").toContain("queued:[]");
  await sandbox.ok(["kill", id]);
  // One program alone, no shell in its group: it set the terminal raw, printed the question, and sleeps for good.
  const program =
    "import sys, time, tty\ntty.setraw(0)\nsys.stdout.write('Delete all files? [y/N]\\r\\n')\nsys.stdout.flush()\n" +
    "time.sleep(100)";
  const alone = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "python3", "-c", program]);
  await sandbox.shown(alone, "[y/N]");
  const reply = await sandbox.run(["choose", alone, "y", "--json", "--timeout", "3s"]);
  expect(reply.stdout + reply.stderr, "python asleep in raw mode").toContain("no program reads the terminal");
  await sandbox.ok(["kill", alone]);
}, 60_000);
