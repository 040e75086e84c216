// Key hints (ccmake's "[c] Configure", hg's "c: confirm", nano's "^X Exit") are actions `choose` and `click` press by
// their words, typing the one key the hint draws. The screen is the program's to draw, and the key goes to whatever
// reads the terminal: hint-shaped text printed by cat above a shell's prompt (on the normal screen, or on the alternate
// one with the prompt drawn above it, or through a relay like ssh, here `script`), or passing in a program's scrolling
// log, must type nothing; a hint whose key is an escape, a Meta chord or several keys types nothing; words naming both
// a menu item and a hint type nothing; a one-key hint types exactly that key.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Sandbox, waitFor } from "../harness.ts";

const PROGRAMS = resolve(import.meta.dir, "../fixtures/programs");
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(async () => {
  await sandbox.cleanup();
});

/** Hint rows as bars read them: a "Keys:" block (ccmake's), "k:Word" hints (mutt's), "^X Word" hints (nano's). */
const HINTS =
  "Keys: [enter] Edit an entry  [d] Delete an entry\n      [c] Configure   [g] Generate\n" +
  "q:Quit  d:Del  c:Confirm  ?:Help\n^G Help    ^O Write Out    ^X Exit\n";

/** The words each hint is named by, and a hint as drawn. */
const NAMED = ["Configure", "Generate", "Confirm", "Exit", "Write Out", "[c] Configure"];

/** Status elements on the screen now: the premise that the hints are read as a bar's. */
async function statusText(id: string): Promise<string> {
  const snap = JSON.parse(await sandbox.ok(["snapshot", id, "--json"])) as {
    elements: Array<{ kind: string; text?: string }>;
  };
  return snap.elements
    .filter((e) => e.kind === "status")
    .map((e) => e.text ?? "")
    .join("\n");
}

/** Every named hint refused by choose and by click --text. */
async function refusedAll(id: string): Promise<void> {
  for (const named of NAMED) {
    const chose = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(chose.code).not.toBe(0);
    const clicked = await sandbox.run(["click", id, "--text", named, "--json", "--timeout", "2s"]);
    expect(clicked.code).not.toBe(0);
  }
}

/** An interactive bash whose prompt is "$ " (readline's: keys one by one), after `before` ran. */
const BASH = "bash --rcfile ps1rc -i";
const shell = async (before: string, how: string) => {
  await Bun.write(join(sandbox.dir, "ps1rc"), "PS1='$ '\n");
  return sandbox.ok(["create", "--cwd", sandbox.dir, "--", "bash", "--norc", "-c", `${before}; ${how}`]);
};

test("key hints printed by cat above a shell's prompt are no program's bar: choose and click type nothing", async () => {
  await Bun.write(join(sandbox.dir, "hints.txt"), HINTS);
  // On the normal screen, the prompt under them; and through a relay (script, as ssh would be: the process reading
  // the terminal is no shell).
  for (const how of [`exec ${BASH}`, `exec script -qfc '${BASH}' /dev/null`]) {
    const id = await shell("cat hints.txt", how);
    await sandbox.shown(id, "^X Exit\n$");
    expect(await statusText(id)).toContain("[c] Configure");
    await refusedAll(id);
    // Anything typed would show on the prompt's row.
    const rows = (await sandbox.screen(id)).trimEnd().split("\n");
    expect(rows.at(-1)).toBe("$");
  }
  // Or a program that is no shell, reading keys one by one under the lines it printed.
  const out = join(sandbox.dir, "plain.keys");
  const id = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "hint-bar.py"), out, "plain"]);
  await sandbox.shown(id, "command:");
  expect(await statusText(id)).toContain("[c] Configure");
  await refusedAll(id);
  expect(existsSync(out)).toBe(false);
}, 120_000);

test("key hints drawn on the alternate screen's bottom rows, a shell's prompt at its top: nothing is typed", async () => {
  // The prompt drawn above the hints (the cursor above them), by the shell itself and through a relay.
  const draw = "printf '\\033[?1049h\\033[2J\\033[19;1H'; cat hints.txt; printf '\\033[H'";
  for (const how of [`exec ${BASH}`, `exec script -qfc '${BASH}' /dev/null`]) {
    const id = await shell(draw, how);
    await sandbox.shown(id, "$");
    await sandbox.shown(id, "^X Exit");
    expect(await statusText(id)).toContain("[c] Configure");
    await refusedAll(id);
    expect((await sandbox.screen(id)).split("\n")[0]!.trimEnd()).toBe("$");
  }
  // A prompt with no shell's mark: the shell reading the terminal says it.
  await Bun.write(join(sandbox.dir, "readyrc"), "PS1='ready '\n");
  const id = await shell(draw, "exec bash --rcfile readyrc -i");
  await sandbox.shown(id, "ready");
  await refusedAll(id);
  expect((await sandbox.screen(id)).split("\n")[0]!.trimEnd()).toBe("ready");
}, 120_000);

test("hint-shaped lines in a program's log scrolling past are no bar: nothing is typed", async () => {
  // Copies going up the screen with the log, and one copy drawn again under each new line of it.
  for (const mode of ["log", "tail"]) {
    const out = join(sandbox.dir, `${mode}.keys`);
    const id = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "hint-bar.py"), out, mode]);
    await sandbox.shown(id, "log line 3");
    for (const named of ["Configure", "Quit", "Delete an entry"]) {
      const chose = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
      expect(chose.code).not.toBe(0);
    }
    // Still logging after them: a line numbered past the last shown now (its 30th may have come and gone by then, a
    // loaded machine's chooses taking seconds).
    const last = async () =>
      Math.max(0, ...[...(await sandbox.screen(id)).matchAll(/log line (\d+)/g)].map((m) => Number(m[1])));
    const now = await last();
    await waitFor(async () => (await last()) > now || undefined, 30_000, `a log line past ${now}`);
    expect(existsSync(out)).toBe(false);
  }
}, 60_000);

test("a hint whose key is an escape, a Meta chord or several keys types nothing; a one-key hint exactly its key", async () => {
  const out = join(sandbox.dir, "bar.keys");
  const id = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "hint-bar.py"), out, "keys"]);
  await sandbox.shown(id, "^X Exit");
  for (const named of ["Back", "Top", "Close", "Menu", "Execute", "Split"]) {
    const chose = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(chose.code).not.toBe(0);
  }
  expect(existsSync(out)).toBe(false);
  const exit = JSON.parse(await sandbox.ok(["choose", id, "Exit", "--json"])) as { sent: string[]; effect: string };
  expect(exit).toMatchObject({ sent: ["C-x"], effect: "uncertain" });
  const yes = JSON.parse(await sandbox.ok(["click", id, "--text", "Yes", "--json"])) as { sent: string[] };
  expect(yes.sent).toEqual(["y"]);
  await waitFor(() => (existsSync(out) && readFileSync(out, "utf8") === "18\n79\n") || undefined, 10_000, "18, 79");
}, 60_000);

test("words naming a menu item and a key hint both type nothing; the hint as drawn types its one key", async () => {
  const out = join(sandbox.dir, "menu.keys");
  const id = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "hint-bar.py"), out, "menu"]);
  await sandbox.shown(id, "[c] Configure");
  const both = await sandbox.run(["choose", id, "Configure", "--json", "--timeout", "2s"]);
  expect(both.code).not.toBe(0);
  expect(both.stdout + both.stderr).toContain("names both");
  expect(existsSync(out)).toBe(false);
  const drawn = JSON.parse(await sandbox.ok(["choose", id, "[c] Configure", "--json"])) as { sent: string[] };
  expect(drawn.sent).toEqual(["c"]);
  await waitFor(() => (existsSync(out) && readFileSync(out, "utf8") === "63\n") || undefined, 10_000, "63");
}, 60_000);

// Found in the attack round of 7 December: a bar drawn on the alternate screen by what ran before (a program's output
// with its escapes), then a REPL at its prompt at the top (python's pdb, "(Pdb) ", no shell's mark, reading keys one
// by one): `choose Configure` typed "c" into pdb's line and answered `uncertain`. A prompt holding the cursor (words
// ending in ">", ")", ":" or "?" and a blank, from the row's start) is a line being typed, not a bar's program.
test("key hints drawn on the alternate screen over a REPL at its prompt ('(Pdb) '): nothing is typed", async () => {
  const script = join(sandbox.dir, "pdb-under-bar.sh");
  await Bun.write(
    script,
    "printf '\\033[?1049h\\033[2J\\033[24;1H\\033[7m^X Exit   ^O Write Out   [c] Configure\\033[K\\033[0m\\033[1;1H'\n" +
      `exec python3 -q -c 'import pdb; x = 1; pdb.Pdb().set_trace(); print("after", x)'\n`,
  );
  const id = await sandbox.ok(["create", "--", "bash", "--norc", script]);
  await sandbox.shown(id, "(Pdb)");
  expect(await statusText(id)).toContain("[c] Configure");
  for (const named of ["Configure", "Exit", "Write Out"]) {
    const reply = await sandbox.run(["choose", id, named, "--timeout", "2s"]);
    expect(reply.code, `choose ${named}: ${reply.stdout}`).not.toBe(0);
  }
  await sandbox.ok(["send", id, "p 'ok' + 'mark'\n"]);
  await sandbox.shown(id, "'okmark'");
  expect(await sandbox.screen(id)).toContain("(Pdb) p 'ok' + 'mark'\n'okmark'");
}, 60_000);

// Found in the attack round of 7 December (attack7): vim's last row quotes the file it opened ('"notes  [x] Exit  [u]
// Update" 2L, 12B'), read as a bar under the buffer, the cursor above it: `choose Update` pressed u in vim (undo) and
// `choose Exit` x (a character of the buffer deleted), each answered `uncertain`. A file's name is the repository's to
// choose. Words in quotes on a bar are a name quoted, no key hint: nothing is pressed.
test("a key hint inside a quoted name on a program's last row (vim's file message): nothing is pressed", async () => {
  const name = "notes  [x] Exit  [u] Update";
  await Bun.write(join(sandbox.dir, name), "hello\nworld\n");
  const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "vim", "-u", "NONE", "-n", name]);
  await sandbox.shown(id, "[u] Update");
  for (const named of ["Exit", "Update", "[x] Exit"]) {
    const reply = await sandbox.run(["choose", id, named, "--json", "--timeout", "2s"]);
    expect(reply.code, `choose ${named}: ${reply.stdout}`).not.toBe(0);
  }
  const screen = await sandbox.screen(id);
  expect(screen.split("\n").slice(0, 2)).toEqual(["hello", "world"]);
  expect(screen).not.toContain("Already at oldest change");
  await sandbox.ok(["kill", id]);
}, 60_000);

// A click on a menu bar's button answers `opened` only for a menu new on the screen hung right under the button
// (meaning19, 7 December): a program that draws a list elsewhere after the click, or moves the highlight of a list that
// stood there before, opens nothing the caller can trust as that button's drop-down: `uncertain`, what changed said.
test("a menu bar's click answers opened only for a new menu hung under the button", async () => {
  const program = join(PROGRAMS, "menu-bar.py");
  for (const [mode, effect] of [
    ["under", "opened"],
    ["far", "uncertain"],
    ["same", "uncertain"],
  ] as const) {
    const log = join(sandbox.dir, `menu-bar-${mode}.log`);
    const id = await sandbox.ok(["create", "--", "python3", program, log, mode]);
    await sandbox.shown(id, "notes.txt");
    const reply = JSON.parse(await sandbox.ok(["click", id, "File", "--json"]));
    expect(reply.via, mode).toBe("mouse");
    expect(reply.effect, `${mode}: ${reply.seen}`).toBe(effect);
    if (effect === "opened") expect(reply.seen).toContain('"Open", "Save", "Close"');
    await sandbox.ok(["kill", id]);
  }
}, 60_000);

// A menu bar of entries each with its key in parentheses ("| File (F1) | Edit (F2) |", lldb gui's; meaning25, 7
// December), no mouse: a button is pressed with its own key, and `opened` only for the drop-down hung under it. The
// same bar printed above a shell's prompt: nothing typed.
test("a menu bar's entry keyed '(F2)', no mouse: click presses F2 and sees its drop-down; printed: nothing", async () => {
  const log = join(sandbox.dir, "menu-bar-fkeys.log");
  const id = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "menu-bar.py"), log, "fkeys"]);
  await sandbox.shown(id, "notes.txt");
  const reply = JSON.parse(await sandbox.ok(["click", id, "Edit", "--json"]));
  expect([reply.sent, reply.effect], reply.seen).toEqual([["F2"], "opened"]);
  await sandbox.ok(["kill", id]);
  // Named as drawn, its key with it: the same button, the same key; another key named: nothing.
  const again = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "menu-bar.py"), log, "fkeys"]);
  await sandbox.shown(again, "notes.txt");
  const wrong = await sandbox.run(["click", again, "--text", "Edit (F3)", "--json", "--timeout", "2s"]);
  expect(wrong.code, wrong.stdout).not.toBe(0);
  const drawn = JSON.parse(await sandbox.ok(["click", again, "--text", "Edit (F2)", "--json"]));
  expect([drawn.sent, drawn.effect], drawn.seen).toEqual([["F2"], "opened"]);
  await sandbox.ok(["kill", again]);
  const bar = "\\e[7m| File (F1) | Edit (F2) | Help (F3) |\\e[K\\e[m";
  const shell = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '${bar}\\n'; while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(shell, "Help (F3)");
  const printed = await sandbox.run(["click", shell, "Edit", "--json", "--timeout", "2s"]);
  expect(printed.code, printed.stdout).not.toBe(0);
  await sandbox.shown(shell, "loop over");
  expect(await sandbox.screen(shell)).not.toContain("ran[");
}, 60_000);

// A field that keeps its text after Enter (a full-screen form's filter bar) is `submitted` only when the table under
// it, at rest while the value was typed, then shows other rows and no box came up (meaning19, 7 December: termshark's
// `fill Filter http --submit` answered uncertain though the filter was applied). A table that changes by itself, or a
// box saying the value was refused, is no such evidence: `uncertain`, what changed said.
test("a field kept after Enter is submitted only when the table under it took the value", async () => {
  const program = join(PROGRAMS, "filter-form.py");
  for (const [mode, effect] of [
    ["apply", "submitted"],
    ["live", "uncertain"],
    ["error", "uncertain"],
  ] as const) {
    const id = await sandbox.ok(["create", "--", "python3", program, mode]);
    await sandbox.shown(id, "eps");
    const reply = JSON.parse(await sandbox.ok(["fill", id, "Filter", "http", "--submit", "--json"]));
    expect(reply.effect, `${mode}: ${reply.seen}`).toBe(effect);
    if (effect === "submitted") expect(reply.seen).toContain("shows 3 rows where it showed 5");
    await sandbox.ok(["kill", id]);
  }
}, 90_000);

// A key bar of a program without the mouse (sngrep's "F2 Save", hatop's "5-CLI" and "Q=QUIT"; meaning20, 7 December):
// its hints are pressed as drawn, their key named on them, also where the program polls its keys between sleeps and
// nobody reads the terminal at that instant (then the foreground group's one program that is no shell, the tty in raw
// mode). The same words printed above a shell's prompt, or drawn on the alternate screen by a script that then sleeps
// (a shell's child: the tty in line mode), type nothing.
const KEY_BAR = "Esc Quit   F2 Save   F10 Exit   1-STATUS  5-CLI   H=HELP Q=QUIT\n";
const KEY_BAR_NAMED = ["F2 Save", "F10 Exit", "5-CLI", "Q=QUIT", "H=HELP"];

test("a key bar's hints ('F2 Save', '5-CLI', 'Q=QUIT') printed by a shell's programs: nothing is typed", async () => {
  await Bun.write(join(sandbox.dir, "keybar.txt"), KEY_BAR);
  const refused = async (id: string) => {
    for (const named of KEY_BAR_NAMED) {
      const clicked = await sandbox.run(["click", id, "--text", named, "--json", "--timeout", "2s"]);
      expect(clicked.code, `click --text ${named}: ${clicked.stdout}`).not.toBe(0);
    }
  };
  // Above a shell's prompt, on the normal screen, and through a relay.
  for (const how of [`exec ${BASH}`, `exec script -qfc '${BASH}' /dev/null`]) {
    const id = await shell("cat keybar.txt", how);
    await sandbox.shown(id, "Q=QUIT\n$");
    await refused(id);
    expect((await sandbox.screen(id)).trimEnd().split("\n").at(-1)).toBe("$");
  }
  // On the alternate screen's last row, by a script that then sleeps (nobody reads; a shell's child, the tty in line
  // mode: what is typed would wait for the shell).
  const out = join(sandbox.dir, "after-sleep.txt");
  const draw =
    "printf '\\033[?1049h\\033[2J\\033[24;1H\\033[7m'; printf %s \"$(cat keybar.txt)\"; printf '\\033[K\\033[0m\\033[1;1H'";
  const id = await sandbox.ok([
    "create",
    "--cwd",
    sandbox.dir,
    "--",
    "bash",
    "--norc",
    "-c",
    `${draw}; sleep 20; read -t 1 line; echo "got[$line]" > ${out}`,
  ]);
  await sandbox.shown(id, "Q=QUIT");
  expect(await statusText(id)).toContain("F2 Save");
  await refused(id);
  await waitFor(() => existsSync(out) || undefined, 30_000, "the script's end");
  expect(readFileSync(out, "utf8")).toBe("got[]\n");
}, 120_000);

test("a key bar's hint, its key polled between sleeps: opened for a dialog naming its words, selected for its tab", async () => {
  const out = join(sandbox.dir, "fkeys.keys");
  const id = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "hint-bar.py"), out, "fkeys"]);
  await sandbox.shown(id, "Q=QUIT");
  const click = async (text: string) =>
    JSON.parse(await sandbox.ok(["click", id, "--text", text, "--json"])) as { sent: string[]; effect: string };
  // Words alone ("Save") are a dialog's button as often: only the hint as drawn presses its key.
  expect((await sandbox.run(["click", id, "--text", "Save", "--json", "--timeout", "2s"])).code).not.toBe(0);
  expect(existsSync(out)).toBe(false);
  // A box that names no find is no proof F3 found anything.
  expect(await click("F3 Find")).toMatchObject({ sent: ["F3"], effect: "uncertain" });
  expect(await click("5-CLI")).toMatchObject({ sent: ["5"], effect: "selected" });
  await sandbox.ok(["kill", id]);
  const again = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "hint-bar.py"), out, "fkeys"]);
  await sandbox.shown(again, "Q=QUIT");
  const save = JSON.parse(await sandbox.ok(["click", again, "--text", "F2 Save", "--json"]));
  expect(save).toMatchObject({ sent: ["F2"], effect: "opened" });
  expect(save.seen).toContain("Save file");
  expect(JSON.parse(await sandbox.ok(["click", again, "--text", "Q=QUIT", "--json"]))).toMatchObject({
    sent: ["Q"],
    effect: "exited",
  });
}, 90_000);

// Key hints as a key, " - " and its words at the bottom rows (turbo's "i - Interact   u/d - Scroll logs"; meaning22,
// 7 December): named only as drawn, pressed under every guard of the bar forms above. Drawn at the alternate screen's
// foot with a shell's prompt above them, or by a script that then sleeps, they type nothing.
const DASH_HINTS = "↑ ↓ - Select\\nm - More binds      i - Interact   u/d - Scroll logs   s - Stop";
const DASH_NAMED = ["i - Interact", "m - More binds", "s - Stop"];

test("key hints drawn as 'i - Interact' at the foot, a shell's prompt above or a sleeping script: nothing is typed", async () => {
  const refused = async (id: string) => {
    for (const named of DASH_NAMED) {
      const clicked = await sandbox.run(["click", id, "--text", named, "--json", "--timeout", "2s"]);
      expect(clicked.code, `click --text ${named}: ${clicked.stdout}`).not.toBe(0);
    }
  };
  const draw = `printf '\\033[?1049h\\033[2J\\033[23;1H${DASH_HINTS}\\033[1;1H'`;
  for (const how of [`exec ${BASH}`, `exec script -qfc '${BASH}' /dev/null`]) {
    const id = await shell(draw, how);
    await sandbox.shown(id, "s - Stop");
    await sandbox.shown(id, "$");
    expect(await statusText(id)).toContain("i - Interact");
    await refused(id);
    expect((await sandbox.screen(id)).split("\n")[0]!.trimEnd()).toBe("$");
  }
  const out = join(sandbox.dir, "dash-sleep.txt");
  const id = await sandbox.ok([
    "create",
    "--cwd",
    sandbox.dir,
    "--",
    "bash",
    "--norc",
    "-c",
    `${draw}; sleep 20; read -t 1 line; echo "got[$line]" > ${out}`,
  ]);
  await sandbox.shown(id, "s - Stop");
  expect(await statusText(id)).toContain("i - Interact");
  await refused(id);
  await waitFor(() => existsSync(out) || undefined, 30_000, "the script's end");
  expect(readFileSync(out, "utf8")).toBe("got[]\n");
}, 120_000);

type ActJson = { sent: string[]; effect: string };

// mprocs's help box (blind12, spent): "<q: Quit>" hints on the row over the box's bottom rule. The rule under a bar is
// the box's, not output under it: the hint is pressed under every other guard (meaning25, 7 December). Printed on the
// normal screen the same box stays refused.
test("hints in angle brackets ('<x: Stop>') in a help box at the foot, its rule under them: the one key typed", async () => {
  const out = join(sandbox.dir, "boxed.keys");
  const id = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "hint-bar.py"), out, "boxed"]);
  await sandbox.shown(id, "<s: Start>");
  const stop = JSON.parse(await sandbox.ok(["click", id, "--text", "x: Stop", "--json"])) as ActJson;
  expect(stop).toMatchObject({ sent: ["x"], effect: "uncertain" });
  await waitFor(() => (existsSync(out) && readFileSync(out, "utf8") === "78\n") || undefined, 10_000, "78");
  // (A chord drawn "C-a" is no one key a hint draws, as "[C-x]" is not: nothing typed.)
  const focus = await sandbox.run(["choose", id, "Toggle focus", "--json", "--timeout", "2s"]);
  expect(focus.code, focus.stdout).not.toBe(0);
  expect(readFileSync(out, "utf8")).toBe("78\n");
  // The same box printed on the normal screen above a shell's prompt: nothing typed.
  const box = "┌Help────┐\\n│ <q: Quit>  <x: Stop>  <s: Start> │\\n└────────┘\\n";
  const shell = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '${box}'; while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(shell, "<s: Start>");
  const printed = await sandbox.run(["click", shell, "--text", "x: Stop", "--json", "--timeout", "2s"]);
  expect(printed.code, printed.stdout).not.toBe(0);
  await sandbox.shown(shell, "loop over");
  expect(await sandbox.screen(shell)).not.toContain("ran[");
}, 90_000);

// A list whose bar names the keys moving it ("<j: Next>  <k: Prev>") is chosen with those keys alone, no Enter
// (meaning25, 7 December): only on the alternate screen, the bar a status at its top or foot. The same list and bar
// printed by cat above a shell's prompt: nothing typed.
test("a list and a '<j: Next>  <k: Prev>' bar printed above a shell's prompt: choose types no j, no Enter", async () => {
  const lines = "Processes\\n\\e[7mtide-logger\\e[m\\npier-lights\\nbuoy-check\\n<j: Next>  <k: Prev>  <q: Quit>\\n";
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '${lines}'; while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "<q: Quit>");
  const reply = await sandbox.run(["choose", id, "buoy-check", "--json", "--timeout", "2s"]);
  expect(reply.code, reply.stdout).not.toBe(0);
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 60_000);

// "[Press any key to exit]" on a help box's bottom border, the program's status line under it (lldb gui's help;
// meaning25, 7 December): Space pressed, `gone` once the box's rows are blank. Printed above a shell's prompt: nothing
// typed (the key-hint guards: the normal screen).
test("'[Press any key to exit]' on a help box's border over a status line: Space, the box gone", async () => {
  const out = join(sandbox.dir, "anykey.keys");
  const id = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "hint-bar.py"), out, "anykey"]);
  await sandbox.shown(id, "Press any key");
  const reply = JSON.parse(await sandbox.ok(["click", id, "--text", "[Press any key to exit]", "--json"])) as ActJson;
  expect([reply.sent, reply.effect]).toEqual([["Space"], "gone"]);
  await waitFor(() => (existsSync(out) && readFileSync(out, "utf8").includes("closed")) || undefined, 10_000, "closed");
  const shell = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '└────[Press any key to exit]──┘\\n'; while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(shell, "Press any key");
  const printed = await sandbox.run(["click", shell, "--text", "[Press any key to exit]", "--json", "--timeout", "2s"]);
  expect(printed.code, printed.stdout).not.toBe(0);
  await sandbox.shown(shell, "loop over");
  expect(await sandbox.screen(shell)).not.toContain("ran[");
}, 90_000);

/** Key hints written as sentences (ffmpeg's, vite's), each named by its words. */
const SENTENCES = "Press [q] to stop, [?] for help\n  ➜  press h + enter to show help\n";

/** Every sentence hint refused by click, by its words. */
async function sentencesRefused(id: string): Promise<void> {
  for (const named of ["stop", "help", "show help"]) {
    const clicked = await sandbox.run(["click", id, named, "--json", "--timeout", "2s"]);
    expect(clicked.code).not.toBe(0);
  }
}

test("key hints written as sentences, printed above a shell's or a REPL's prompt or nobody reading: nothing typed", async () => {
  await Bun.write(join(sandbox.dir, "sentences.txt"), SENTENCES);
  const cases: Array<[string, string]> = [
    [`cat sentences.txt; exec ${BASH}`, "show help\n$"],
    ["cat sentences.txt; exec python3 -q -i -c ''", ">>>"],
    // Printed by a program that ended; the script sleeps, nobody reads.
    ["cat sentences.txt; sleep 600", "show help"],
  ];
  for (const [how, wait] of cases) {
    const id = await shell(how, "true");
    await sandbox.shown(id, wait);
    const before = await sandbox.screen(id);
    await sentencesRefused(id);
    expect(await sandbox.screen(id)).toBe(before);
  }
}, 120_000);

test("a sentence hint's key to the wrong reader, or not the last words above a line read: nothing typed", async () => {
  // "press h + enter" to a program taking keys one by one: the key alone would be taken as something else.
  const out = join(sandbox.dir, "raw-sentence.keys");
  const raw = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "press-lines.py"), out, "raw"]);
  await sandbox.shown(raw, "show help");
  expect((await sandbox.run(["click", raw, "show help", "--json", "--timeout", "2s"])).code).not.toBe(0);
  // "Press [q] to stop" above a program reading lines: q would wait in its line.
  // Other output between a "press y + enter" sentence and the line being read: no longer the program's last words.
  const lines = join(sandbox.dir, "lines.txt");
  for (const [printed, named] of [
    ["Press [q] to stop", "stop"],
    ["press y + enter to confirm\\nRemoving every file", "confirm"],
  ]) {
    const id = await shell(`printf '${printed}\\n'; head -n 1 > ${lines}; echo read=$?`, "sleep 600");
    await sandbox.shown(id, printed.split("\\n").at(-1)!);
    expect((await sandbox.run(["click", id, named, "--json", "--timeout", "2s"])).code).not.toBe(0);
    expect(await sandbox.screen(id)).not.toContain("read=");
  }
  expect(existsSync(out)).toBe(false);
}, 120_000);
