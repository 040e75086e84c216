// Answers named by words with a key in parentheses (7z's "(Y)es / (N)o / … / A(u)to rename all", ansible's
// "(N)o/(y)es/(c)ontinue:") are a question only on the row holding the cursor, ending in them: a program's output
// that merely shows such words (a file printed by cat, a log line) above a shell's prompt is no question, and
// `choose yes` types nothing into the shell (nor do such answers one a row: visudo's "  e(x)it …" over
// "What now?"). Where it is a question, only the one letter its cells draw is typed. So too rows numbered from 0 over
// a prompt asking for a number (trash-restore's): a question only while that prompt holds the cursor.
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
  await sandbox.shown(id, "(Q)uit?");
  for (const named of ["yes", "(Y)es", "Always", "exit without saving", "(e)dit sudoers file again"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code).not.toBe(0);
  }
  await sandbox.shown(id, "loop over");
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
  await sandbox.shown(id, "(s)hutdown:");
  const reply = JSON.parse(await sandbox.ok(["choose", id, "reboot now", "--json"])) as { sent: string[] };
  expect(reply.sent).toEqual(["r", "Enter"]);
  await sandbox.shown(id, "read[r]");
}, 60_000);

test("answers named by 'key=word' or by a key and ')' opening a word, shown as output above a prompt: nothing is typed", async () => {
  // fossil's "(a=all/c=convert/y/N)?" and mcopy's "a)utorename … (aArRoOsSq):" are questions only on the row holding
  // the cursor; printed by a program (a log, a file) above a shell's prompt they are text.
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    'echo "Commit anyhow (a=all/c=convert/y/N)?"; echo "a)utorename o)verwrite O)verwrite-all"; ' +
      'echo "s)kip q)uit (aoOsq):"; while read -t 6 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600',
  ]);
  await sandbox.shown(id, "(aoOsq):");
  for (const named of ["all", "convert", "overwrite", "O)verwrite-all", "skip"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code).not.toBe(0);
  }
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 60_000);

test("answers 'k)word' parted by commas printed over another program's prompt: nothing is typed", async () => {
  // cvs's "a)bort, c)ontinue, e)dit, …" over "Action: (continue)" is a question only while a prompt naming one answer
  // as its default holds the cursor right under it: the same row printed (cat of a log) over a password prompt or a
  // shell's is text, and choose types no letter and Enter into what reads there (python's input(), not a shell's read:
  // the shell-prompt guard is not what is tested here).
  const id = await sandbox.ok([
    "create",
    "--",
    "python3",
    "-c",
    "import signal, sys\nsignal.signal(signal.SIGALRM, lambda *_: sys.exit())\nsignal.alarm(6)\ntry:\n  while True:\n    print('a)bort, c)ontinue, e)dit')\n" +
      "    print('ran[' + input('Password: ') + ']')\nexcept BaseException: print('loop over')\nimport time\ntime.sleep(600)",
  ]);
  await sandbox.shown(id, "Password:");
  for (const named of ["continue", "c)ontinue", "abort"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code).not.toBe(0);
  }
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 60_000);

test("a 'key=word' or 'k)word' answer types its one letter as its cells draw it, never the word", async () => {
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    'read -t 8 -p "Commit anyhow (a=all/c=convert/y/N)? " a; echo "read[$a]"; ' +
      'echo "r)ename R)ename-all"; read -t 8 -p "s)kip q)uit (rRsq): " b; echo "read2[$b]"; sleep 600',
  ]);
  await sandbox.shown(id, "c=convert");
  const reply = JSON.parse(await sandbox.ok(["choose", id, "convert", "--json"])) as { sent: string[] };
  expect(reply.sent).toEqual(["c", "Enter"]);
  await sandbox.shown(id, "read[c]");
  await sandbox.shown(id, "(rRsq):");
  const rename = JSON.parse(await sandbox.ok(["choose", id, "rename", "--json"])) as { sent: string[] };
  expect(rename.sent).toEqual(["r", "Enter"]);
  await sandbox.shown(id, "read2[r]");
}, 60_000);

test("rows numbered from 0 and a prompt asking for a number, shown as output above a prompt: no question, nothing typed", async () => {
  // trash-restore's "   0 … /w/build.log" rows over "What file to restore [0..1]:" are a question only while that
  // prompt holds the cursor; printed above a shell's prompt, choosing a row types no number into the shell.
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    "printf '   0 2026-11-28 /w/build.log\\n   1 2026-11-30 /w/report.txt\\nWhat file to restore [0..1]:\\n'; " +
      'while read -t 6 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600',
  ]);
  await sandbox.shown(id, "[0..1]:");
  for (const named of ["2026-11-30 /w/report.txt", "report.txt", "build.log"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code).not.toBe(0);
  }
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 60_000);
