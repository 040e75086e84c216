// A question's shape printed as output (a file shown by cat, a log line, a script's echo) above a shell's prompt is
// no question: the shell's prompt written since stands between it and the cursor. Found in the fifth session: each
// of these, printed above a prompt, made `choose y` type "y" and Enter into the shell and answer `answered`, the
// prompt's row read as the answered line (a wrong action reported as done, steered by a program's text). Only blank
// rows, or the bare marker an answer is typed after, may stand between a question and the cursor.
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
  ["Press [ENTER] to continue or Ctrl-c to cancel.", ["ENTER", "Ctrl-c"]],
  ["Keep tide-tables? [Ynpsiuqx?], [H]elp:", ["Y", "q", "[H]elp"]],
  ["Exit without saving? [yN?]:", ["y", "N"]],
  ["Shall I record this change? (1/5)  [ynW...], or ? for more options:", ["y", "W", "?"]],
  ["Do you really want to exit ([y]/n)?", ["y", "Yes"]],
  ["/srv/tides.txt is about to be overwritten, OK? [return = YES | Esc = NO]", ["YES", "NO"]],
  ["Package recipe format (sdl/json) [json]:", ["sdl", "json"]],
  ["Really shut the remote process down y/N?", ["y", "Yes"]],
  ["Store key in cache? (y/n, Return cancels connection, i for more info)", ["y", "n", "i"]],
  ["Group: [piers|tides]:", ["tides", "piers"]],
  ["Enter 'yes' to accept, 'no' to abort; anything else to view:", ["yes", "no"]],
  ['Do you accept the license? Type "accept" or "decline":', ["accept", "decline"]],
  ["Use default settings? yes/no:", ["yes", "Yes"]],
  ["Retry? (r)etry, (a)bort:", ["retry", "r"]],
  ["Really delete? Yes or No:", ["Yes", "No"]],
  ["[ ?? ] Proceed anyway? (yes/no) [no]:", ["yes", "no"]],
  // Answers the terminal wraps alone onto the next row (icinga2's, 80 columns), a question under its paragraph.
  ["Please specify if this is an agent/satellite setup ('n' installs a master setup) [Y/n]:", ["y", "n"]],
  ["", []],
  ["If the computer that you are logging into isn't hardened against brute-force", []],
  ["login attempts, you can enable rate-limiting for the authentication module.", []],
  ["By default, this limits attackers to no more than 3 login attempts every 30s.", []],
  ["Do you want to enable rate-limiting? (y/n)", ["y", "n"]],
  ["Root inode is not a directory.  Clear<y>?", ["y", "Yes"]],
  ["------[Enter] to continue or [q] + [Enter] to quit------", ["q", "Enter"]],
  ["-- Type space to continue --", ["space"]],
  // blind13's shapes (meaning24): words parted by ", " then the default, numbered choices after a prompt, TeX's clauses.
  ["Server Role (dc, member, standalone) [dc]:", ["member", "dc"]],
  ["Choose an option (blank for none):  0) allocate 1) allotted 2) allot:", ["allotted", "allocate"]],
  ["Type <return> to proceed, S to scroll future error messages,", ["quit"]],
  ["H for help, X to quit.", ["quit", "help"]],
  ["?", []],
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
  await sandbox.shown(id, "rate-limiting? (y/n)");
  for (const [line, names] of PRINTED)
    for (const named of names) {
      const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
      expect(reply.code, `${line}: choose ${named}: ${reply.stdout}`).not.toBe(0);
    }
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
  // (Some sixty refused chooses: a loaded machine took past 90 s, run s11m. No step here waits on speed.)
}, 300_000);

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
  const chosen = await sandbox.run(["choose", id, "n", "--json"]);
  expect(chosen.code, `${chosen.stdout}${chosen.stderr}\n${await sandbox.screen(id)}`).toBe(0);
  expect((JSON.parse(chosen.stdout) as { sent: string[] }).sent).toEqual(["n", "Enter"]);
  await sandbox.shown(id, "read[n]");
}, 60_000);

test("a question quoting a name or a prompt asked again with a remark, printed above a shell's prompt: fill finds no field, nothing is typed", async () => {
  // tar -w's "extract ‘a.txt’?" and ccrypt's "Enter encryption key: (repeat)" are fields only on the row holding the
  // cursor (QUOTED_ASK, a repeated prompt's remark): printed as output they name nothing to type into.
  // (Nor a question on a row of its own right over a shell's prompt: a2enmod's is read on the row under it only with
  // nothing but what is typed there, no prompt's mark.)
  const asks = "Which module(s) do you want to enable (wildcards ok)?";
  // (Nor a console's line longer than its row, nft's "nft> add chain … policy ac" over "cept; }".)
  const wrapped = "nft> add chain inet harbour input { type filter hook input priority 0; policy accept; }";
  const printed = [
    "extract ‘a.txt’?",
    "Enter encryption key:",
    "Enter encryption key: (repeat)",
    "prompt: Station name:  (Harbour)",
    wrapped,
    // (Nor one over a hint telling how to answer, reuse's, askedOverHints: read so only over the cursor's empty row.)
    "What license is it? Provide the SPDX License Identifier.",
    "To stop adding licenses, hit RETURN.",
    // (Nor lettered answers too long for their row, wrapped: pdnsutil's, read so only with the cursor after them.)
    "Go on? (y)es - increase serial, (n)o - leave SOA record as is, (e)dit your changes, (q)uit:",
    asks,
  ];
  const script = printed.map((line) => `echo ${JSON.stringify(line)}; `).join("");
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `${script}while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "wildcards ok)?");
  const license = "What license is it? Provide the SPDX License Identifier.";
  for (const named of ["extract ‘a.txt’?", "Enter encryption key: (repeat)", asks, "nft", "Station name", license]) {
    const reply = await sandbox.run(["fill", id, named, "y", "--submit", "--json", "--timeout", "2s"]);
    expect(reply.code, `fill ${named}: ${reply.stdout}`).not.toBe(0);
  }
  const lettered = await sandbox.run(["choose", id, "(n)o - leave SOA record as is", "--json", "--timeout", "2s"]);
  expect(lettered.code, lettered.stdout).not.toBe(0);
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

test("a list over key help naming the arrow keys and Return, printed above a shell's prompt: no menu, nothing sent", async () => {
  // hintedList reads rows over such help as a menu only with the cursor hidden or on its rows (n's versions): printed
  // by a script above a prompt, the cursor shown under them, choosing a row sends no Down and no Enter.
  const rows = [
    "",
    "    node/18.19.1",
    "    node/20.11.0",
    "",
    "Use up/down arrow keys to select, return key to install",
  ];
  const script = rows.map((line) => `echo ${JSON.stringify(line)}; `).join("");
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `${script}while read -t 6 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "return key to install");
  const reply = await sandbox.run(["choose", id, "node/18.19.1", "--json", "--timeout", "2s"]);
  expect(reply.code, reply.stdout).not.toBe(0);
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 60_000);

/** Lists, dialogs and fields a command may print, and what a caller might act on in each. */
const PRINTED_LISTS: Array<[string, string[]]> = [
  [
    "Do you want to proceed?\n❯ 1. Yes\n  2. No, and tell Claude what to do differently\n",
    ["choose Yes", "choose e1.2"],
  ],
  ["Which framework?\n  1) React\n  2) Vue\n  3) Svelte\nEnter a number:\n", ["choose React", "choose Svelte"]],
  ["Select an option:\n 1. Yes\n 2. No\n", ["choose Yes"]],
  ["Please choose a license:\n * 1) NONE\n   2) MIT\nYour choice? [default: NONE]\n", ["choose MIT"]],
  ["? Pick a framework (Use arrow keys)\n❯ React\n  Vue\n  Svelte\n", ["choose React", "choose Vue"]],
  ["? Pick toppings\n◉ Cheese\n◯ Ham\n◯ Olives\n", ["choose Ham", "choose Cheese"]],
  ["Name: [hello        ]\n  < OK >   <Cancel>\n", ["click OK", "fill Name xyz"]],
  [
    "Which environment? (Press ↑/↓ arrow to move and Enter to select)\n‣ staging\n  production\n",
    ["choose production"],
  ],
  ["Which services should restart?\n  ⬡ nginx\n‣ ⬢ postgres\n  ⬡ redis\n", ["choose nginx", "choose postgres"]],
  // A drop-down of "shortcut| name" rows (keyBarMenus, meaning19): its keys are the program's, never typed into a shell.
  ["┏━━━━━━━━━━━━━━━┓\n┃   q| Quit     ┃\n┃   d| Delete   ┃\n┗━━━━━━━━━━━━━━━┛\n", ["choose Quit", "choose Delete"]],
  // A select's items as a sign in colour, a name and a grey description (hanji's).
  [
    "Is harbour created or renamed?\n\x1b[32m❯ +\x1b[0m harbour \x1b[90mcreate\x1b[0m\n  \x1b[33m~\x1b[0m place › harbour \x1b[90mrename\x1b[0m\n",
    ["choose harbour", "choose place"],
  ],
  // A watch mode's key rows under their title (jest's): keys typed raw, never into a shell.
  ["Watch Usage\n › Press a to run all tests.\n › Press q to quit watch mode.\n", ["choose quit", "choose e1.1"]],
  // A box's hint naming each answer's key under its question (wordgrinder's).
  [
    "┌────────────────────────────────────────────┐\n│ Discard them?                              │\n│                                            │\n│ <Y for yes, N for no, or CTRL+C to cancel> │\n└────────────────────────────────────────────┘\n",
    ["choose yes", "choose no"],
  ],
  // A list's state column and its items' state marks, cut from the names (stateColumn, stateMarks; meaning22).
  [
    "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓\n┃ harbour-api          RUNNING ┃\n┃\x1b[48;5;240m•tide-worker          RUNNING \x1b[0m┃\n┃ pier-cron             EXITED ┃\n┗━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┛\n",
    ["choose tide-worker", "choose pier-cron"],
  ],
  [" »  api#dev\n\x1b[7m »  web#dev         \x1b[0m\n ✓  docs#build\n", ["choose web#dev", "choose docs#build"]],
  // A box's line taking one quoted key (pressKeyInBox; meaning22).
  [
    "┌───────────────────────────────────────────────────┐\n│ Do you 'drop the tide table'? (Press 'y' to drop) │\n└───────────────────────────────────────────────────┘\n",
    ["choose y"],
  ],
  // A box pairing named keys with its answers (perf report's exit box; namedAnswerKey, meaning24): Enter or Escape
  // pressed only for a live box, never into a shell.
  [
    "┌───────────────────────────┐\n│Do you really want to exit?│\n│                           │\n│Enter: Yes, ESC: No        │\n└───────────────────────────┘\n",
    ["choose Yes", "choose No"],
  ],
  // A palette's commands, each a name, what it does and its key at the edge (commandColumns; meaning22).
  [
    "╭─ Commands ──────────────────────────────────────────╮\n│\x1b[7m▎ quit                 Quit                        q \x1b[0m│\n│  close-all-tide-gates Close every gate          C-g │\n│  list-piers           List the piers                │\n╰─────────────────────────────────────────────────────╯\n",
    ["choose quit", "choose list-piers"],
  ],
];

// Found in the sixth session: a numbered list printed above an integrated shell's prompt made `choose Yes` press
// Enter there and answer `selected` ("❯ 1. Yes" read as the selected item of a live list), and `choose React` type
// "1" and Enter into the shell and answer `answered`, the shell's own "me@vm:~$ 1" read as the answered line. Printed
// menus got Down, checkboxes Space, dialogs twelve Tabs (bash listed its completions). At its prompt the shell reads
// the keys: nothing above it is acted on.
test("lists, dialogs and fields a command printed above an integrated shell's prompt: nothing is sent", async () => {
  const id = await sandbox.ok(["create", "--", "bash", "--norc"]);
  for (const [index, [text, actions]] of PRINTED_LISTS.entries()) {
    const file = `${sandbox.dir}/printed-${index}.txt`;
    await Bun.write(file, text);
    await sandbox.ok(["run", id, `clear; cat ${file}`]);
    // (The prompt drawn after the command's end.)
    const prompted = async () => /[#$]$/m.test(await sandbox.screen(id)) || undefined;
    await waitFor(prompted, 30_000, "the prompt");
    const before = await sandbox.screen(id);
    for (const action of actions) {
      const [verb, ...args] = action.split(" ");
      const reply = await sandbox.run([verb!, id, ...args, "--timeout", "2s"]);
      expect(reply.code, `${text}: ${action}: ${reply.stdout}`).not.toBe(0);
      // (Refused as output, or not read as an element at all.)
      expect(reply.stderr, `${text}: ${action}`).toMatch(/the shell is at its prompt|^t4a: no /);
    }
    expect(await sandbox.screen(id), text).toBe(before);
  }
  // A program the shell runs asks: its list and its question are answered.
  const script = `${sandbox.dir}/asks.sh`;
  await Bun.write(script, 'PS3="Pick one: "\nselect x in React Vue; do echo "got[$x]"; break; done\n');
  await sandbox.ok(["send", id, `clear; bash ${script}\n`]);
  await sandbox.shown(id, "Pick one:");
  expect(await sandbox.ok(["choose", id, "Vue"])).toContain("answered");
  await sandbox.shown(id, "got[Vue]");
}, 90_000);

test("lists printed above a shell's prompt that no integration marks: choose refuses, nothing is typed", async () => {
  const lists = PRINTED_LISTS.slice(0, 4).map(([text]) => `printf %b ${JSON.stringify(text)}; `);
  for (const list of lists) {
    // A shell-like prompt: the line it reads is written back, so anything choose typed before the sentinel would show.
    const id = await sandbox.ok([
      "create",
      "--",
      "bash",
      "--norc",
      "-c",
      `${list}read -p "$ " l; echo "ran[$l]"; sleep 600`,
    ]);
    await waitFor(async () => (await sandbox.screen(id)).split("\n").includes("$") || undefined, 30_000, "the prompt");
    for (const named of ["Yes", "React", "Svelte", "MIT"]) {
      const reply = await sandbox.run(["choose", id, named, "--timeout", "2s"]);
      expect(reply.code, `${list}: choose ${named}: ${reply.stdout}`).not.toBe(0);
      expect(reply.stderr, `${list}: choose ${named}`).toMatch(/the shell is at its prompt|^t4a: no /);
    }
    await sandbox.ok(["send", id, "end\n"]);
    await sandbox.shown(id, "ran[");
    expect(await sandbox.screen(id)).toContain("$ end\nran[end]");
  }
}, 90_000);

// Found in the attack round of 7 December: the same lists printed in a REPL (python's `print(open(f).read())`, a
// file a project holds) stand above its prompt, ">>> " (no shell's mark), so `choose Yes` typed "1" and Enter into
// python and answered `answered`, the REPL's own ">>> 1" read as the answered line; menus got four Downs, dialogs
// twelve Tabs. A REPL's prompt (python's ">>>", "...", IPython's "In [N]:"), or any prompt that stands above the
// target too with a line typed after it (the command whose output the target is), holds the keys: nothing above it
// is acted on.
test("lists printed in a REPL, above its prompt: nothing is typed into the REPL", async () => {
  const padded = `${sandbox.dir}/padded.txt`;
  await Bun.write(padded, `${"filler\n".repeat(40)}${PRINTED_LISTS[0]![0]}`);
  const cases: Array<[string, string[], string]> = [
    ...PRINTED_LISTS.map(([text, actions], index): [string, string[], string] => [
      text,
      actions,
      `printed-${index}.txt`,
    ]),
    // The command's row scrolled away: python's prompt alone says a REPL reads the keys.
    ["(scrolled)", ["choose Yes"], "padded.txt"],
  ];
  for (const [index, [text]] of PRINTED_LISTS.entries()) await Bun.write(`${sandbox.dir}/printed-${index}.txt`, text);
  for (const [text, actions, file] of cases) {
    const id = await sandbox.ok(["create", "--", "python3", "-q"]);
    await sandbox.shown(id, ">>>");
    await sandbox.ok(["send", id, `print(open(${JSON.stringify(`${sandbox.dir}/${file}`)}).read(), end="")\n`]);
    await waitFor(async () => (await sandbox.screen(id)).trimEnd().endsWith("\n>>>") || undefined, 30_000, "prompt");
    const before = await sandbox.screen(id);
    for (const action of actions) {
      const [verb, ...args] = action.split(" ");
      const reply = await sandbox.run([verb!, id, ...args, "--timeout", "2s"]);
      expect(reply.code, `${text}: ${action}: ${reply.stdout}`).not.toBe(0);
      expect(reply.stderr, `${text}: ${action}`).toMatch(/the REPL is at its prompt|^t4a: no /);
    }
    expect(await sandbox.screen(id), text).toBe(before);
    await sandbox.ok(["kill", id]);
  }
  // A REPL of no known prompt ("db> "): its earlier prompt, a command after it, stands above the list it printed.
  const list = `${sandbox.dir}/printed-2.txt`;
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `while read -p "db> " l; do if [ "$l" = show ]; then cat ${list}; else echo "ran[$l]"; fi; done`,
  ]);
  await sandbox.shown(id, "db>");
  await sandbox.ok(["send", id, "show\n"]);
  await sandbox.shown(id, "2. No");
  await waitFor(async () => (await sandbox.screen(id)).trimEnd().endsWith("\ndb>") || undefined, 30_000, "prompt");
  for (const named of ["Yes", "No"]) {
    const reply = await sandbox.run(["choose", id, named, "--timeout", "2s"]);
    expect(reply.code, `db> choose ${named}: ${reply.stdout}`).not.toBe(0);
  }
  await sandbox.ok(["send", id, "end\n"]);
  await sandbox.shown(id, "ran[");
  expect(await sandbox.screen(id)).toContain("db> end\nran[end]");
  // A REPL whose prompt is a bare marker ("> "), its command above a list numbered from 0 with a row closing it (the
  // shape of certutil's key usages over " >"): a question, but the command above says it is that command's output.
  const usages = `${sandbox.dir}/usages.txt`;
  await Bun.write(
    usages,
    "                0 - Digital Signature\n                1 - Non-repudiation\n                Other to finish\n",
  );
  const marker = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `while read -p " > " l; do if [ "$l" = show ]; then cat ${usages}; else echo "ran[$l]"; fi; done`,
  ]);
  await sandbox.shown(marker, ">");
  await sandbox.ok(["send", marker, "show\n"]);
  await sandbox.shown(marker, "Other to finish");
  await waitFor(async () => (await sandbox.screen(marker)).trimEnd().endsWith("\n >") || undefined, 30_000, "prompt");
  for (const named of ["Digital Signature", "Non-repudiation"]) {
    const reply = await sandbox.run(["choose", marker, named, "--timeout", "2s"]);
    expect(reply.code, `> choose ${named}: ${reply.stdout}`).not.toBe(0);
    expect(reply.stderr, `> choose ${named}`).toContain("the REPL is at its prompt");
  }
  await sandbox.ok(["send", marker, "end\n"]);
  await sandbox.shown(marker, "ran[");
  expect(await sandbox.screen(marker)).toContain(" > end\nran[end]");
  // A debugger's restarts ("USE-VALUE  :R1  …", restartRows) printed by a REPL whose prompt has its shape: its command
  // above says they are output, so ":R1" is never typed.
  const restarts = `${sandbox.dir}/restarts.txt`;
  await Bun.write(restarts, "USE-VALUE      :R1      Input a value.\nABORT          :R2      Abort main loop\n");
  const debug = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `while read -p "Break 1 [2]> " l; do if [ "$l" = show ]; then cat ${restarts}; else echo "ran[$l]"; fi; done`,
  ]);
  await sandbox.shown(debug, "[2]>");
  await sandbox.ok(["send", debug, "show\n"]);
  await sandbox.shown(debug, "Abort main loop");
  for (const named of ["USE-VALUE", "ABORT"]) {
    const reply = await sandbox.run(["choose", debug, named, "--timeout", "2s"]);
    expect(reply.code, `choose ${named}: ${reply.stdout}`).not.toBe(0);
    expect(reply.stderr, `choose ${named}`).toContain("the REPL is at its prompt");
  }
  await sandbox.ok(["send", debug, "end\n"]);
  await sandbox.shown(debug, "ran[");
  expect(await sandbox.screen(debug)).toContain("[2]> end\nran[end]");
}, 150_000);

// Found in the attack round of 7 December (attack7): "Press ENTER to continue" is keyed Enter, a key's name, and
// `choose ENTER` took that name for a word answer the caller named whole (wordKey: bundler's "minitest"): it typed the
// word "ENTER" and Enter. Printed by python with no newline, ">>> " after it on its row, it went into the REPL and
// answered `answered` (the REPL's own ">>> ENTER" read as the answered line); at a script's real "Press ENTER to
// continue" it typed the word too. A key's name read off the screen is no word to type: nothing is sent.
test("'Press ENTER to continue' chosen by its key's name: the word is never typed, as an answer or into a REPL", async () => {
  for (const [script, live] of [
    [`printf 'Build finished.\\nPress ENTER to continue'; while read -t 8 -p ">>> " l; do echo "ran[$l]"; done`, false],
    [`read -t 8 -p "Press ENTER to continue " l; echo "ran[$l]"`, true],
  ] as const) {
    const id = await sandbox.ok(["create", "--", "bash", "--norc", "-c", `${script}; echo "loop over"; sleep 600`]);
    await sandbox.shown(id, "continue");
    for (const named of ["ENTER", "enter"]) {
      const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
      // The live pause, its one answer named by its words, takes Enter (the key, never the word); then it is gone.
      // Printed above a REPL's prompt it is output: refused.
      if (live && named === "ENTER") expect(JSON.parse(reply.stdout)).toMatchObject({ sent: ["Enter"] });
      else expect(reply.code, `${script}: choose ${named}: ${reply.stdout}`).not.toBe(0);
    }
    await sandbox.shown(id, "loop over");
    expect(await sandbox.screen(id)).not.toMatch(/ran\[.+\]/);
    await sandbox.ok(["kill", id]);
  }
}, 60_000);

// Found in the attack round of 7 December (attack7; the open attack of the key-hint round): a REPL whose prompt is one
// mark ("* ", sbcl's) printed a file's mail-style headers (">N  1 …", " N  2 …") long enough to push its own command's
// row off the top. headerList read them as mail's list over its "& ", and with the command's row gone nothing said the
// list was output: `choose "Tide tables for January"` typed 2 and Enter into the REPL and answered `answered` ("* 2"
// read as the answered line). The same prompt with a command typed after it, in the lines scrolled off above the
// screen as on it, makes what follows that command's output.
// (The same with a list numbered from 0 over a row closing it and a bare " > ", certutil's shape, LONE_MARKER_PROMPT.)
test("numbered headers printed by a REPL of one mark, its command's row scrolled off: nothing is typed", async () => {
  const filler = Array.from({ length: 40 }, (_, i) => `filler line ${i}\n`).join("");
  for (const [prompt, listed, names] of [
    [
      "* ",
      ">N  1 ci@build.example.  Mon Dec  7 08:01    8/195   Build 812 failed\n" +
        " N  2 bob@example.org    Mon Dec  7 08:05    8/201   Tide tables for January\n",
      ["Tide tables for January", "Build 812 failed"],
    ],
    [
      " > ",
      "                0 - Digital Signature\n                1 - Non-repudiation\n                Other to finish\n",
      ["Digital Signature", "Non-repudiation"],
    ],
  ] as const) {
    const file = `${sandbox.dir}/headers.txt`;
    await Bun.write(file, `${filler}${listed}`);
    const id = await sandbox.ok([
      "create",
      "--",
      "bash",
      "--norc",
      "-c",
      `while read -p ${JSON.stringify(prompt)} l; do if [ "$l" = show ]; then cat ${file}; else echo "ran[$l]"; fi; done`,
    ]);
    await sandbox.shown(id, prompt.trim());
    await sandbox.ok(["send", id, "show\n"]);
    const last = listed.trimEnd().split("\n").pop()!.trim();
    const end = `${last}\n${prompt.trimEnd()}`;
    await waitFor(async () => (await sandbox.screen(id)).trimEnd().endsWith(end) || undefined, 30_000, "prompt");
    expect(await sandbox.screen(id)).not.toContain(`${prompt}show`);
    for (const named of names) {
      const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
      expect(reply.code, `choose ${named}: ${reply.stdout}`).not.toBe(0);
    }
    await sandbox.ok(["send", id, "end\n"]);
    await sandbox.shown(id, "ran[");
    expect(await sandbox.screen(id)).toContain(`${prompt}end\nran[end]`);
    await sandbox.ok(["kill", id]);
  }
}, 90_000);

// The same past 2000 lines of output (the rows read for the command were the last 2000 that scrolled off): every row
// the terminal still holds is read.
test("numbered headers printed by a REPL of one mark after 2500 lines of its output: nothing is typed", async () => {
  const filler = Array.from({ length: 2500 }, (_, i) => `filler line ${i}\n`).join("");
  const listed =
    ">N  1 ci@build.example.  Mon Dec  7 08:01    8/195   Build 812 failed\n" +
    " N  2 bob@example.org    Mon Dec  7 08:05    8/201   Tide tables for January\n";
  const file = `${sandbox.dir}/long-headers.txt`;
  await Bun.write(file, `${filler}${listed}`);
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `while read -p '* ' l; do if [ "$l" = show ]; then cat ${file}; else echo "ran[$l]"; fi; done`,
  ]);
  await sandbox.shown(id, "*");
  await sandbox.ok(["send", id, "show\n"]);
  await waitFor(
    async () => (await sandbox.screen(id)).trimEnd().endsWith("Tide tables for January\n*") || undefined,
    30_000,
    "prompt",
  );
  const reply = await sandbox.run(["choose", id, "Build 812 failed", "--json", "--timeout", "2s"]);
  expect(reply.code, `choose: ${reply.stdout}`).not.toBe(0);
  await sandbox.ok(["send", id, "end\n"]);
  await sandbox.shown(id, "ran[");
  expect(await sandbox.screen(id)).toContain("* end\nran[end]");
  await sandbox.ok(["kill", id]);
}, 90_000);

// A question's remark in parentheses on the row under it, the cursor at its end, is the question's (opam's "[N/y/f]"
// over "(default is 'no', …)", `remarkUnder`). Printed with no newline, a REPL's or shell's prompt drawn after it on its
// row: the row is no remark alone, so the question is output and nothing is typed.
// (Likewise answers named in the prompt's words, makeself's "Please type y to …, n otherwise:", `TYPED_ANSWERS`: a
// question only on the cursor's row, the cursor after it.)
test("a question over its remark, answers named in words, printed unended, a prompt after: nothing typed", async () => {
  for (const prompt of [">>> ", "$ ", "> "]) {
    const id = await sandbox.ok([
      "create",
      "--",
      "bash",
      "--norc",
      "-c",
      `printf 'Do you want to wipe the disk? [N/y/f]\n(default is no)\nPlease type y to wipe, n otherwise:'; ` +
        `while read -t 8 -p ${JSON.stringify(prompt)} l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
    ]);
    await sandbox.shown(id, `n otherwise:${prompt.trimEnd()}`);
    for (const named of ["y", "Yes", "f"]) {
      const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
      expect(reply.code, `${prompt}: choose ${named}: ${reply.stdout}`).not.toBe(0);
    }
    await sandbox.shown(id, "loop over");
    expect(await sandbox.screen(id)).not.toMatch(/ran\[.+\]/);
    await sandbox.ok(["kill", id]);
  }
}, 60_000);

// Found in the attack round of 7 December (attack7): cabal's numbered options under a heading (landed the day before),
// printed by a REPL of prompt "> " from a file ending unended in "Your choice? [default: NONE] ", the REPL's "> " after
// it: the list over that prompt read as cabal's question, and `choose MIT` typed 3 and Enter into the REPL, answered
// `answered`. The REPL's "> " opens the row of the command that printed them ("> show"): they are its output.
test("cabal's numbered options printed unended by a REPL of prompt '> ': choose types nothing", async () => {
  const file = `${sandbox.dir}/cabal.txt`;
  await Bun.write(
    file,
    "Please choose a license:\n * 1) NONE\n   2) BSD-2-Clause\n   3) MIT\nYour choice? [default: NONE] ",
  );
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `while read -p "> " l; do if [ "$l" = show ]; then cat ${file}; else echo "ran[$l]"; fi; done`,
  ]);
  await sandbox.shown(id, ">");
  await sandbox.ok(["send", id, "show\n"]);
  await sandbox.shown(id, "[default: NONE] >");
  for (const named of ["MIT", "NONE"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code, `choose ${named}: ${reply.stdout}`).not.toBe(0);
  }
  await sandbox.ok(["send", id, "end\n"]);
  await sandbox.shown(id, "ran[");
  expect(await sandbox.screen(id)).toContain("> end\nran[end]");
}, 60_000);

// Found in the attack round of 7 December (attack7): a file whose text ends in the sequence that hides the cursor
// ("\e[?25l") left the prompt drawn after it with its cursor hidden, and every guard that reads the prompt before the
// cursor read nothing (a question is written past only under a visible cursor; the shell's and the REPL's prompt were
// read only before a visible one): `choose y` on a printed "Delete all files? [y/N]" typed y and Enter into the shell
// and answered `answered`. On the normal screen a hidden cursor still stands where the next line is read.
test("a question printed with the cursor hidden after it, above a prompt without integration: nothing is typed", async () => {
  const file = `${sandbox.dir}/hidden.txt`;
  await Bun.write(file, "Delete all files? [y/N]\n1) Yes\n2) No\n\x1b[?25l");
  for (const prompt of ["$ ", ">>> ", "db> "]) {
    const id = await sandbox.ok([
      "create",
      "--",
      "bash",
      "--norc",
      "-c",
      `while read -p ${JSON.stringify(prompt)} l; do if [ "$l" = show ]; then cat ${file}; else echo "ran[$l]"; fi; done`,
    ]);
    await sandbox.shown(id, prompt.trim());
    await sandbox.ok(["send", id, "show\n"]);
    await sandbox.shown(id, "2) No");
    for (const named of ["y", "Yes"]) {
      const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
      expect(reply.code, `${prompt}: choose ${named}: ${reply.stdout}`).not.toBe(0);
    }
    await sandbox.ok(["send", id, "end\n"]);
    await sandbox.shown(id, "ran[");
    expect(await sandbox.screen(id), prompt).toContain(`${prompt.trim()} end\nran[end]`);
    await sandbox.ok(["kill", id]);
  }
}, 90_000);

// A box's answers named by their keys ("Do you really want to exit?" over "Enter: Yes, ESC: No", perf report's; meaning19,
// 7 December) are a question whose items are keyed by a key's name: choose never types that name as text, nor presses
// the key on a program's word alone. It refuses; the program still reads the first key a caller sends itself.
test("a box's 'Enter: Yes, ESC: No' under its question: choose refuses, no key reaches the program", async () => {
  const box = [
    "\\e[?25l\\e[2J\\e[5;20H┌───────────────────────────┐",
    "\\e[6;20H│Discard the changes?       │",
    "\\e[7;20H│                           │",
    "\\e[8;20H│Enter: Yes, ESC: No        │",
    "\\e[9;20H└───────────────────────────┘",
  ].join("");
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '${box}'; IFS= read -rsn1 k; printf '\\e[12;1Hgot[%q]' "$k"; sleep 600`,
  ]);
  await sandbox.shown(id, "Enter: Yes, ESC: No");
  const snapshot = await sandbox.run(["snapshot", id]);
  expect(snapshot.stdout).toContain('question "Discard the changes?"');
  for (const named of ["Yes", "No", "Enter", "ESC"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code, `choose ${named}: ${reply.stdout}`).not.toBe(0);
  }
  await sandbox.ok(["send", id, "x"]);
  await sandbox.shown(id, "got[");
  expect(await sandbox.screen(id)).toContain("got[x]");
}, 60_000);

test("a Tab-cycled list printed above a shell's prompt is no menu: choose refuses, no Tab or Enter reaches the shell", async () => {
  // nimble's shape ("Choices:> library <" over "binary" under its Tab hint), printed by a command: Tab at a shell's prompt
  // completes, Enter runs the line.
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf "     Select Cycle with 'Tab', 'Enter' when done\\n   Choices:> library <\\n             binary\\n"; ` +
      `while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "binary");
  for (const named of ["binary", "library"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code, `choose ${named}: ${reply.stdout}`).not.toBe(0);
  }
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 60_000);

test("a numbered list over a prompt holding a default, printed above a shell's prompt: choose erases nothing, types nothing", async () => {
  // The prompt's default is erased (Backspaces) before the key only where that prompt holds the cursor.
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf "  1. Africa   3. Antarctica\\\\n  2. America  4. Asia\\\\nGeographic area: 4\\\\n"; ` +
      `while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "Geographic area: 4");
  for (const named of ["America", "2"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code, `choose ${named}: ${reply.stdout}`).not.toBe(0);
  }
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 60_000);

test("a question printed unended before a REPL's prompt that reads like a shell's ('scheme@(guile-user) [1]> '): output", async () => {
  // Found by meaning18 on guile (7 December): `(display "Delete all files? [y/N] ")` then its prompt on the same row;
  // the prompt's "name@(…)>" reads as a shell's, which let the guard by: `choose y` typed "y" and Enter into the REPL,
  // answered `answered`. So too after a shell-like "ada@vm:~$ " prompt.
  for (const prompt of ["scheme@(guile-user)> ", "scheme@(guile-user) [1]> ", "ada@vm:~$ "]) {
    const id = await sandbox.ok([
      "create",
      "--",
      "bash",
      "--norc",
      "-c",
      `while read -p ${JSON.stringify(prompt)} l; do if [ "$l" = ask ]; then printf "Delete all files? [y/N] "; ` +
        `else echo "ran[$l]"; fi; done`,
    ]);
    await sandbox.shown(id, prompt.trim());
    await sandbox.ok(["send", id, "ask\n"]);
    await waitFor(
      async () => ((await sandbox.screen(id)).includes(`[y/N] ${prompt.trim()}`) ? true : undefined),
      10_000,
      "the question before the prompt",
    );
    const reply = await sandbox.run(["choose", id, "y", "--json", "--timeout", "2s"]);
    expect(reply.code, `${prompt}: ${reply.stdout}`).not.toBe(0);
    expect(await sandbox.screen(id)).not.toContain("ran[");
    await sandbox.ok(["kill", id]);
  }
}, 60_000);

// A select of one item (hanji's "❯ + piers create table") is a list only with the cursor hidden and nothing under it:
// printed by a command that hides the cursor, the shell's prompt stands under it and nothing is typed.
test("a one-item select printed with the cursor hidden, above a shell's prompt: choose refuses, nothing is typed", async () => {
  const one = "Is piers table created or renamed?\\n\\e[32m❯ +\\e[0m piers \\e[90mcreate table\\e[0m\\n\\e[?25l";
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '${one}'; read -p "$ " l; echo "ran[$l]"; sleep 600`,
  ]);
  await waitFor(async () => (await sandbox.screen(id)).split("\n").includes("$") || undefined, 30_000, "the prompt");
  const reply = await sandbox.run(["choose", id, "piers", "--timeout", "2s"]);
  expect(reply.code, reply.stdout).not.toBe(0);
  await sandbox.ok(["send", id, "end\n"]);
  await sandbox.shown(id, "ran[");
  expect(await sandbox.screen(id)).toContain("$ end\nran[end]");
});

test("a question with no prompt of its own (maxima's words) printed by cat: nobody, a shell or head reads; nothing typed", async () => {
  // Answered only where the row above it is the line entered at the terminal and no shell reads: before, a shell whose
  // prompt is empty got "positive;" typed and choose said `answered`.
  await Bun.write(
    `${sandbox.dir}/mq.txt`,
    "(%i1) integrate(exp(-k*t), t, 0, inf);\nIs k positive, negative or zero?\n\n",
  );
  for (const after of ["sleep 600", "PS1= exec bash --norc -i", "head -n 1 > got.txt; echo read=$?; sleep 600"]) {
    const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "bash", "--norc", "-c", `cat mq.txt; ${after}`]);
    await sandbox.shown(id, "negative or zero?");
    const before = await sandbox.screen(id);
    const reply = await sandbox.run(["choose", id, "positive", "--json", "--timeout", "2s"]);
    expect(reply.code, `${after}: ${reply.stdout}`).not.toBe(0);
    expect(await sandbox.screen(id)).toBe(before);
  }
}, 60_000);
