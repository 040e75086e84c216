// choose types an answer as a word (bundler's "rspec/minitest/(none):", svn's "(df) Show diff") only when the
// caller named that word whole: a program draws the screen, and may draw a question whose "answer" is a command
// (`(reboot) Show diff`) over whatever reads the terminal next. Seen failing with the widening minus its guard
// (wordKey typing any word key, whatever the caller named): choose "Show diff" typed "reboot".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Sandbox } from "../harness.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(async () => {
  await sandbox.cleanup();
});

test("a word drawn as an answer's key is never typed unless the caller's text is that word", async () => {
  // What the prompt reads (nothing, in 4 s) is shown after it: whatever choose typed lands there.
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    'echo "Select: (reboot) Show diff, (p) Postpone,"; read -t 4 -p "        (s) Show all options: " a; ' +
      'echo "read[$a]"; echo "Do you want tests?"; read -t 4 -p "Enter a framework. rspec/shutdown/(none): " b; ' +
      'echo "read2[$b]"; sleep 600',
  ]);
  await sandbox.shown(id, "Show all options:");
  for (const named of ["Show diff", "diff", "Show"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code).not.toBe(0);
  }
  await sandbox.shown(id, "read[]");
  await sandbox.shown(id, "(none):");
  for (const named of ["shut", "down"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code).not.toBe(0);
  }
  await sandbox.shown(id, "read2[]");
  expect(await sandbox.screen(id)).not.toMatch(/reboot$|shutdown$|read\[.+\]|read2\[.+\]/m);
}, 60_000);
