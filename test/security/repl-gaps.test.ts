// Acting by meaning where a REPL's evidence is hidden or gone (the attack gaps session 11 left open): a program's own
// printed text (a file a REPL prints) hides the cursor over a REPL on the alternate screen under a key bar, or erases
// the REPL's command row (cleared, or scrolled past what the scrollback holds) before a question-shaped text. Whatever
// choose and click would type goes to the REPL: each must type nothing, and the REPL reads its next line untouched.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { Sandbox } from "../harness.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(async () => {
  await sandbox.cleanup();
});

/** REPLs by their prompt: the command that starts one, a line to give it, and the line it answers. */
const REPLS = [
  { prompt: ">>> ", run: "python3 -q", line: "6*7", shows: "42" },
  { prompt: "sqlite> ", run: "sqlite3", line: "select 6*7;", shows: "42" },
  { prompt: "(gdb) ", run: "gdb -q", line: "p 6*7", shows: "$1 = 42" },
  {
    prompt: "(Pdb) ",
    run: `python3 -q -c 'import pdb; pdb.Pdb().set_trace(); print("after")'`,
    line: "p 6*7",
    shows: "42",
  },
];

// pressHint read the prompt only before a visible cursor (session 11's closing note): a bar drawn on the alternate
// screen, the cursor hidden and sent home, then a REPL whose prompt lands there. The key hint's key went to the REPL.
test("key hints on the alternate screen over a REPL whose cursor was hidden: nothing is typed", async () => {
  for (const repl of REPLS) {
    const script = join(sandbox.dir, "hidden-bar.sh");
    await Bun.write(
      script,
      "printf '\\033[?1049h\\033[2J\\033[24;1H\\033[7m^X Exit   ^O Write Out   [c] Configure\\033[K\\033[0m" +
        "\\033[?25l\\033[1;1H'\n" +
        `exec ${repl.run}\n`,
    );
    const id = await sandbox.ok(["create", "--", "bash", "--norc", script]);
    await sandbox.shown(id, repl.prompt.trimEnd());
    for (const named of ["Configure", "Exit", "Write Out"]) {
      const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
      expect(reply.code, `${repl.prompt}: choose ${named}: ${reply.stdout}`).not.toBe(0);
    }
    await sandbox.ok(["send", id, `${repl.line}\n`]);
    await sandbox.shown(id, repl.shows);
    expect(await sandbox.screen(id)).toContain(`${repl.prompt}${repl.line}\n${repl.shows}`);
    await sandbox.ok(["kill", id]);
  }
}, 90_000);

/** REPLs whose prompt no rule knows: bc's none, gp's "? ", "λ " (ghci's as people set it; python's here). */
const UNMARKED = [
  { prompt: "", run: "bc -q", line: "6*7", shows: "42" },
  { prompt: "? ", run: "gp -q", line: "6*7", shows: "42" },
  { prompt: "λ ", run: `python3 -q -i -c 'import sys; sys.ps1 = "λ "'`, line: "6*7", shows: "42" },
];

// The same bar over a REPL whose prompt ends in no mark: its hidden cursor is not told from a full-screen program's
// parked one before the key, so the key's effect is looked at: shown where the cursor was, nothing else changed, it was
// typed into the REPL's line (on main: "c" left there, answered uncertain): taken back, refused. A Ctrl chord shows
// nothing: refused before, where the hidden cursor waits at a row's start or after a short mark, its row blank after.
test("key hints on the alternate screen over a REPL of no known prompt, its cursor hidden: its line is left as it was", async () => {
  for (const repl of UNMARKED) {
    const script = join(sandbox.dir, "hidden-bar.sh");
    await Bun.write(
      script,
      "printf '\\033[?1049h\\033[2J\\033[24;1H\\033[7m^X Exit   ^O Write Out   [c] Configure\\033[K\\033[0m" +
        "\\033[?25l\\033[1;1H'\n" +
        `exec ${repl.run}\n`,
    );
    const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "bash", "--norc", script]);
    if (repl.prompt) await sandbox.shown(id, repl.prompt.trimEnd());
    else await Bun.sleep(1000);
    for (const named of ["Configure", "Write Out", "Exit"]) {
      const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "3s"]);
      expect(reply.code, `${repl.run}: choose ${named}: ${reply.stdout}`).not.toBe(0);
    }
    await sandbox.ok(["send", id, `${repl.line}\n`]);
    await sandbox.shown(id, repl.shows);
    expect(`\n${await sandbox.screen(id)}`, repl.run).toContain(`\n${repl.prompt}${repl.line}\n${repl.shows}`);
    await sandbox.ok(["kill", id]);
  }
}, 180_000);

/** Question-shaped texts a file may hold, each with the names choose is given for it. */
const QUESTIONS = [
  { text: "Do you want to continue? [y/N]\n", named: ["y", "N"] },
  {
    text: "Please choose a license:\n 1) MIT\n 2) BSD-3-Clause\n 3) GPL-3.0\n",
    named: ["GPL-3.0", "MIT"],
  },
];

/** A REPL of prompt `prompt` in the sandbox: python3's, or an interactive bash's with that PS1. */
async function repl(kind: "python3" | "bash", prompt: string, scrollback?: number): Promise<string> {
  await Bun.write(join(sandbox.dir, "ps1rc"), `PS1=${JSON.stringify(prompt)}\n`);
  const argv =
    kind === "python3"
      ? ["python3", "-q", "-i", "-c", `import sys; sys.ps1 = ${JSON.stringify(prompt)}`]
      : ["bash", "--rcfile", "ps1rc", "-i"];
  const limit = scrollback === undefined ? [] : ["--scrollback", String(scrollback)];
  const id = await sandbox.ok(["create", "--cwd", sandbox.dir, ...limit, "--", ...argv]);
  await sandbox.shown(id, prompt.trimEnd());
  return id;
}

/** The command that prints a file, in each REPL. */
const printing = (kind: "python3" | "bash", file: string) =>
  kind === "python3" ? `print(open(${JSON.stringify(file)}).read(), end="")` : `cat ${file}`;

/** Every name refused; then the REPL reads its next line untouched. */
async function nothingTyped(id: string, kind: "python3" | "bash", prompt: string, named: string[], what: string) {
  for (const name of named) {
    const reply = await sandbox.run(["choose", id, name, "--json", "--timeout", "2s"]);
    expect(reply.code, `${what}: choose ${name}: ${reply.stdout}`).not.toBe(0);
  }
  const line = kind === "python3" ? "6*7" : "echo $((6*7))";
  await sandbox.ok(["send", id, `${line}\n`]);
  await sandbox.shown(id, "42");
  expect(await sandbox.screen(id), what).toContain(`${prompt}${line}\n42`);
}

// A REPL of prompt "> " (the bare marker certutil's and deno's questions are answered after) prints a file that first
// erases the command row that printed it: a clear (the screen and the scrollback), or the rows drawn over in place.
// The question-shaped text under it then reads as a program's question at its marker.
test("a '> ' REPL whose command row its output erased, a question shape under it: nothing is typed", async () => {
  for (const kind of ["python3", "bash"] as const) {
    for (const [how, erase] of [
      ["cleared", "\x1b[H\x1b[2J\x1b[3J"],
      ["drawn over", "\x1b[H"],
    ] as const) {
      for (const question of QUESTIONS) {
        const file = "question.txt";
        const body = how === "drawn over" ? `${question.text.replaceAll("\n", "\x1b[K\n")}\x1b[J` : question.text;
        await Bun.write(join(sandbox.dir, file), `${erase}${body}`);
        const id = await repl(kind, "> ");
        await sandbox.ok(["send", id, `${printing(kind, file)}\n`]);
        await sandbox.shown(id, question.text.trimEnd().split("\n").at(-1)!);
        await nothingTyped(id, kind, "> ", question.named, `${kind} ${how}: ${question.named[0]}`);
        await sandbox.ok(["kill", id]);
      }
    }
  }
}, 180_000);

// The same command sent second in one input, after a line that reads as an answer ("7"): each line of an input is read
// at the prompt the REPL draws again, and the second erases its own row as the first did not.
test("a '> ' REPL's command entered second in one input, its row erased by its output: nothing is typed", async () => {
  const question = QUESTIONS[0]!;
  await Bun.write(join(sandbox.dir, "question.txt"), `\x1b[H\x1b[2J\x1b[3J${question.text}`);
  for (const kind of ["python3", "bash"] as const) {
    const id = await repl(kind, "> ");
    await sandbox.ok(["send", id, `7\n${printing(kind, "question.txt")}\n`]);
    await sandbox.shown(id, question.text.trimEnd());
    await nothingTyped(id, kind, "> ", question.named, `${kind}, sent second`);
    await sandbox.ok(["kill", id]);
  }
}, 90_000);

// A command's first line is one that reads as an answer ("("), its second typed at the REPL's continuation prompt
// (".. "), which is not its first: each line is entered apart, the second after the prompt then on the cursor's row. The
// output erases both rows; the first alone, after the REPL's prompt, answered nothing it could not be.
test("a '> ' REPL's command opened by '(' and typed on at its continuation prompt '.. ', its rows erased: nothing is typed", async () => {
  const question = QUESTIONS[0]!;
  await Bun.write(join(sandbox.dir, "question.txt"), `\x1b[H\x1b[2J\x1b[3J${question.text}`);
  await Bun.write(join(sandbox.dir, "ps1rc"), "PS1='> '\nPS2='.. '\n");
  for (const kind of ["python3", "bash"] as const) {
    const argv =
      kind === "python3"
        ? ["python3", "-q", "-i", "-c", "import sys; sys.ps1 = '> '; sys.ps2 = '.. '"]
        : ["bash", "--rcfile", "ps1rc", "-i"];
    const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", ...argv]);
    await sandbox.shown(id, ">");
    await sandbox.ok(["send", id, "(\n"]);
    await sandbox.shown(id, "..");
    await sandbox.ok(["send", id, `${printing(kind, "question.txt")})\n`]);
    await sandbox.shown(id, question.text.trimEnd());
    await nothingTyped(id, kind, "> ", question.named, `${kind}, continued at '.. '`);
    await sandbox.ok(["kill", id]);
  }
}, 90_000);

// A REPL prints more than its scrollback holds before a question-shaped text, or clears its scrollback on the way: the
// command row is gone from the screen and from every line the terminal keeps. Its prompt is one no rule knows ("db> ")
// under a list, or "> " after a list's last words printed unended (cabal's "Your choice? [default: NONE] ").
test("output longer than the scrollback, or a cleared scrollback, before a printed question: nothing is typed", async () => {
  const filler = Array.from({ length: 300 }, (_, i) => `filler line ${i}\n`).join("");
  const list = QUESTIONS[1]!.text;
  for (const kind of ["python3", "bash"] as const) {
    for (const [how, before, prompt, after] of [
      ["past the scrollback", filler, "db> ", ""],
      ["scrollback cleared", `${filler.slice(0, 1000)}\x1b[3J`, "db> ", ""],
      ["past the scrollback, unended", filler, "> ", "Your choice? [default: NONE] "],
    ] as const) {
      const file = "long.txt";
      await Bun.write(join(sandbox.dir, file), `${before}${list}${after}`);
      const id = await repl(kind, prompt, 100);
      await sandbox.ok(["send", id, `${printing(kind, file)}\n`]);
      await sandbox.shown(id, "3) GPL-3.0");
      await nothingTyped(id, kind, prompt, QUESTIONS[1]!.named, `${kind} ${how}`);
      await sandbox.ok(["kill", id]);
    }
  }
}, 240_000);

// A menu bar keyed in parentheses ('| Edit (F2) |', lldb gui's) left on the alternate screen when a REPL, a program
// reading lines or a shell took the terminal, its cursor hidden under it: click pressed F2 into each one's line (attack
// round of session 14: bc, python, cat got it, cat's line holding "^[OQ", answered uncertain; bash and python timed
// out). An F-key is pressed only where a key hint's key would be.
test("a menu bar keyed '(F2)' on the alternate screen over a REPL, a line reader or a shell: no F-key typed", async () => {
  const readers = [
    ...UNMARKED,
    REPLS[0]!,
    { prompt: "", run: "cat", line: "tides", shows: "tides" },
    { prompt: "$ ", run: "bash --norc -i", line: "echo $((6*7))", shows: "42" },
  ];
  for (const reader of readers) {
    const script = join(sandbox.dir, "menu-bar-left.sh");
    await Bun.write(
      script,
      "printf '\\033[?1049h\\033[?25l\\033[2J\\033[H\\033[7m%-80s\\033[0m\\033[24;1H' " +
        "'| File (F1) | Edit (F2) | Help (F3) |'\nPS1='$ '\nexport PS1\n" +
        `exec ${reader.run}\n`,
    );
    const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "bash", "--norc", script]);
    if (reader.prompt) await sandbox.shown(id, reader.prompt.trimEnd());
    else await Bun.sleep(1000);
    for (const named of ["Edit", "Edit (F2)"]) {
      const reply = await sandbox.run(["click", id, "--text", named, "--json", "--timeout", "3s"]);
      expect(reply.code, `${reader.run}: click ${named}: ${reply.stdout}`).not.toBe(0);
      expect(reply.stdout, reader.run).toContain("nothing was sent");
    }
    await sandbox.ok(["send", id, `${reader.line}\n`]);
    await sandbox.shown(id, reader.shows);
    expect(`\n${await sandbox.screen(id)}`, reader.run).toContain(`\n${reader.prompt}${reader.line}\n${reader.shows}`);
    await sandbox.ok(["kill", id]);
  }
}, 180_000);

/** REPLs whose prompt is longer than two characters and ends in no mark a rule knows. */
const LONG_UNMARKED = [
  { prompt: "tides ", run: `python3 -q -i -c 'import sys; sys.ps1 = "tides "'`, line: "6*7", shows: "42" },
  { prompt: "In: ", run: `python3 -q -i -c 'import sys; sys.ps1 = "In: "'`, line: "6*7", shows: "42" },
];

// Session 13 left this open: keys no line shows (a Ctrl chord, Enter, Space: '[Press any key to exit]') where a hidden
// cursor waits after a prompt of more than two characters that no rule knows. On main, C-o and Space went into
// python's line ('tides ', answered uncertain), the Space an IndentationError to come.
test("key hints pressing Ctrl, Enter or Space over a REPL of a long unknown prompt, its cursor hidden: nothing typed", async () => {
  for (const repl of LONG_UNMARKED) {
    const script = join(sandbox.dir, "hidden-long.sh");
    await Bun.write(
      script,
      "printf '\\033[?1049h\\033[2J\\033[24;1H\\033[7m^O Write Out   press [enter] to confirm   " +
        "[Press any key to exit]\\033[K\\033[0m\\033[?25l\\033[1;1H'\n" +
        `exec ${repl.run}\n`,
    );
    const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "bash", "--norc", script]);
    await sandbox.shown(id, repl.prompt.trimEnd());
    for (const named of ["Write Out", "confirm", "Press any key to exit"]) {
      const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "3s"]);
      expect(reply.code, `${repl.prompt}: choose ${named}: ${reply.stdout}`).not.toBe(0);
    }
    await sandbox.ok(["send", id, `${repl.line}\n`]);
    await sandbox.shown(id, repl.shows);
    expect(`\n${await sandbox.screen(id)}`, repl.run).toContain(`\n${repl.prompt}${repl.line}\n${repl.shows}`);
    await sandbox.ok(["kill", id]);
  }
}, 120_000);
