// A question's shape printed as output (a file shown by cat, a log line, a script's echo) above a shell's prompt is
// no question: the shell's prompt written since stands between it and the cursor. Found in the fifth session: each
// of these, printed above a prompt, made `choose y` type "y" and Enter into the shell and answer `answered`, the
// prompt's row read as the answered line (a wrong action reported as done, steered by a program's text). Only blank
// rows, or the bare marker an answer is typed after, may stand between a question and the cursor.
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

/** Each printed question and the answers a caller might name on it. */
const PRINTED: Array<[string, string[]]> = [
  ["Delete all files? [y/N]", ["y", "Yes"]],
  ["Overwrite? (y/n)", ["y", "Yes"]],
  ["correct 'gerp' to 'grep' [nyae]?", ["y"]],
  ["Do you really want to quit (y:Yes n:No)?", ["Yes"]],
  ["reuse log message of previous file? [yn](y):", ["y", "n"]],
  ["Do you want it displayed? [yN]:", ["y"]],
  ["Pick a colour [red/green/blue] (green):", ["red"]],
  ["Swap file found: (Y)es, (N)o, (A)ll?", ["Yes", "All"]],
  ["Apply? [y]es, [n]o, [q]uit:", ["yes"]],
  ["Press ENTER to continue", ["ENTER"]],
];

test("a question printed above a shell's prompt is no question: choose refuses, nothing is typed", async () => {
  // A shell-like loop: every line it reads is written back, so anything choose typed would show.
  const script = PRINTED.map(([line]) => `echo ${JSON.stringify(line)}; `).join("");
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `${script}while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "Press ENTER to continue");
  for (const [line, names] of PRINTED)
    for (const named of names) {
      const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
      expect(reply.code, `${line}: choose ${named}: ${reply.stdout}`).not.toBe(0);
    }
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 90_000);

test("the same shape asked where the cursor waits is a question: rcs's '? [yn](y): ' answered n", async () => {
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    'read -t 20 -p "reuse log message of previous file? [yn](y): " a; echo "read[$a]"; sleep 600',
  ]);
  await sandbox.shown(id, "[yn](y):");
  const reply = JSON.parse(await sandbox.ok(["choose", id, "n", "--json"])) as { sent: string[] };
  expect(reply.sent).toEqual(["n", "Enter"]);
  await sandbox.shown(id, "read[n]");
}, 60_000);

test("a question quoting a name or a prompt asked again with a remark, printed above a shell's prompt: fill finds no field, nothing is typed", async () => {
  // tar -w's "extract ‘a.txt’?" and ccrypt's "Enter encryption key: (repeat)" are fields only on the row holding the
  // cursor (QUOTED_ASK, a repeated prompt's remark): printed as output they name nothing to type into.
  const printed = ["extract ‘a.txt’?", "Enter encryption key:", "Enter encryption key: (repeat)"];
  const script = printed.map((line) => `echo ${JSON.stringify(line)}; `).join("");
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `${script}while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "(repeat)");
  for (const named of ["extract ‘a.txt’?", "Enter encryption key: (repeat)"]) {
    const reply = await sandbox.run(["fill", id, named, "y", "--submit", "--json", "--timeout", "2s"]);
    expect(reply.code, `fill ${named}: ${reply.stdout}`).not.toBe(0);
  }
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 60_000);

test("a mail reader's numbered headers printed above a prompt of one mark that is a shell's: no list, nothing typed", async () => {
  // headerList reads ">N  1 …" rows only right over a prompt that is one mark other than a shell's ($ # % >), holding
  // the cursor: printed by cat above a shell's "$ ", choosing a message types no number into the shell.
  const headers = [
    ">N  1 ci@build.example.  Mon Dec  7 08:01    8/195   Build 812 failed",
    " N  2 bob@example.org    Mon Dec  7 08:05    8/201   Tide tables for January",
  ];
  const script = headers.map((line) => `echo ${JSON.stringify(line)}; `).join("");
  for (const mark of ["$", "#", "%", ">"]) {
    const id = await sandbox.ok([
      "create",
      "--",
      "bash",
      "--norc",
      "-c",
      `${script}while read -t 6 -p "${mark} " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
    ]);
    await sandbox.shown(id, "Tide tables");
    const reply = await sandbox.run(["choose", id, "Tide tables for January", "--json", "--timeout", "2s"]);
    expect(reply.code, `${mark}: ${reply.stdout}`).not.toBe(0);
    await sandbox.shown(id, "loop over");
    expect(await sandbox.screen(id)).not.toContain("ran[");
  }
}, 90_000);
