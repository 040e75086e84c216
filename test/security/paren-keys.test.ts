// Answers named by words with a key in parentheses (7z's "(Y)es / (N)o / … / A(u)to rename all", ansible's
// "(N)o/(y)es/(c)ontinue:") are a question only on the row holding the cursor, ending in them: a program's output
// that merely shows such words (a file printed by cat, a log line) above a shell's prompt is no question, and
// `choose yes` types nothing into the shell (nor do such answers one a row: visudo's "  e(x)it …" over
// "What now?"). Where it is a question, only the one letter its cells draw is typed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Sandbox, waitFor } from "../harness.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(async () => {
  await sandbox.cleanup();
});

test("words with a key in parentheses shown as output above a prompt are no question: nothing is typed", async () => {
  // A shell-like loop: every line it reads is written back, so anything choose typed would show.
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    'echo "Would you like to replace the existing file:"; echo "? (Y)es / (N)o / (A)lways / (Q)uit?"; ' +
      'echo "  (e)dit sudoers file again"; echo "  e(x)it without saving"; ' +
      'while read -t 6 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600',
  ]);
  const shown = (text: string) =>
    waitFor(async () => (await sandbox.screen(id)).includes(text) || undefined, 30_000, `"${text}"`);
  await shown("(Q)uit?");
  for (const named of ["yes", "(Y)es", "Always", "exit without saving", "(e)dit sudoers file again"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code).not.toBe(0);
  }
  await shown("loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 60_000);

test("an answer with a key in parentheses types that one letter, never the rest of its words", async () => {
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    'read -t 8 -p "Go on? (r)eboot now/(s)hutdown: " a; echo "read[$a]"; sleep 600',
  ]);
  const shown = (text: string) =>
    waitFor(async () => (await sandbox.screen(id)).includes(text) || undefined, 30_000, `"${text}"`);
  await shown("(s)hutdown:");
  const reply = JSON.parse(await sandbox.ok(["choose", id, "reboot now", "--json"])) as { sent: string[] };
  expect(reply.sent).toEqual(["r", "Enter"]);
  await shown("read[r]");
}, 60_000);
