// A form of settings (ccmake's cache: `NAME   *value` rows, the focused name in reverse video) is read only where the
// cursor stands on its focused row; its focused field holds the cursor only while the cursor stands past the value's
// first cell (a value being edited). At the value's first cell the program reads keys as commands (ccmake's `d`
// deletes an entry, `g` generates, `q` quits): `fill` must type no letter there. And the same rows printed as output
// above a shell's prompt are no form: `fill` finds no field, nothing is typed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { Sandbox, waitFor } from "../harness.ts";

const FORM = join(import.meta.dir, "../fixtures/programs/settings-form.py");

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(async () => {
  await sandbox.cleanup();
});

test("a settings form's rows printed above a shell's prompt are no form: fill finds no field, nothing is typed", async () => {
  const rows = [
    "\\e[7mCMAKE_BUILD_TYPE\\e[m                *Release",
    "CMAKE_INSTALL_PREFIX            */usr/local",
    "TIDEPOOL_STATIC                 *ON",
  ];
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '${rows.map((r) => ` ${r}\\n`).join("")}'; while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "TIDEPOOL_STATIC");
  for (const [name, value] of [
    ["CMAKE_BUILD_TYPE", "Debug"],
    ["CMAKE_INSTALL_PREFIX", "/opt/x"],
  ]) {
    const reply = await sandbox.run(["fill", id, name!, value!, "--json", "--timeout", "2s"]);
    expect(reply.code, `fill ${name}: ${reply.stdout}`).not.toBe(0);
  }
  const toggled = await sandbox.run(["choose", id, "TIDEPOOL_STATIC", "--json", "--timeout", "2s"]);
  expect(toggled.code, toggled.stdout).not.toBe(0);
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 90_000);

test("a settings form's focused field, the cursor at its value's first cell: fill types no letter", async () => {
  const id = await sandbox.ok(["create", "--", "python3", FORM]);
  await sandbox.shown(id, "keys:");
  const snapshot = JSON.parse(await sandbox.ok(["snapshot", id, "--json"])) as {
    elements: { kind: string; label?: string; cursor?: boolean; selected?: boolean }[];
  };
  const focused = snapshot.elements.find((e) => e.label === "CMAKE_BUILD_TYPE");
  expect(focused).toMatchObject({ kind: "input", cursor: false, selected: true });
  const reply = await sandbox.run(["fill", id, "CMAKE_BUILD_TYPE", "Debug", "--json", "--timeout", "3s"]);
  expect(reply.code, reply.stdout).not.toBe(0);
  // Whatever fill pressed to look for the field's cursor (Tab), no letter of the value reached the program.
  const screen = await sandbox.screen(id);
  const keys = /keys: (.*)/.exec(screen)?.[1] ?? "";
  expect(keys).not.toMatch(/'[A-Za-z]'/);
}, 90_000);

test("stacked fields printed above a prompt: fill types a value only where the cursor is, never into a printed one", async () => {
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '\\e[1mName for this account?\\e[m\\n> Work\\n\\n\\e[1mYour email address?\\e[m\\n'; ` +
      `while read -t 12 -p "> " l; do echo "ran[$l]"; done; echo; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "Your email address?");
  // The printed field is not where the cursor is: no value is typed for it.
  const printed = await sandbox.run(["fill", id, "Name for this account?", "Evil", "--json", "--timeout", "3s"]);
  expect(printed.code, printed.stdout).not.toBe(0);
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("Evil");
}, 90_000);

// Found in the attack round of 7 December (attack7): a form's rows printed with no newline after the last one leave
// the cursor on that row, and the program reading next draws its prompt there ("$ ", ">>> ", "(gdb) "). The last row
// then read as the field holding the cursor, the prompt as its value (or nothing, the prompt one more "> "), and
// `fill` erased, typed the value into the shell or REPL (a timeout answered, the keys left on its line; with "> "
// under a bold row, `filled`). A field whose value ends in a prompt's mark right before the cursor is that prompt; a
// form of settings has the cursor within its focused value; a wizard's stacked fields have more drawn under the
// cursor's row: a line-oriented program's prompt is the last thing on its screen.
test("a form's last row printed with no newline, a prompt drawn after it on the cursor's row: fill types nothing", async () => {
  const loop = (prompt: string) =>
    `while read -t 10 -p ${JSON.stringify(prompt)} l; do echo "ran[$l]"; done; echo; echo "loop over"; sleep 600`;
  const cases: Array<[string, string, string]> = [
    // ccmake's rows, the last one focused: "$ " is its value.
    [
      "printf ' CMAKE_BUILD_TYPE                *Release\\n \\e[7mTIDE_MODE\\e[m                       *'",
      "$ ",
      "TIDE_MODE",
    ],
    // The same with a prompt of one star ("* ", sbcl's): read as the new-setting mark, the value nothing.
    [
      "printf ' CMAKE_BUILD_TYPE                *Release\\n \\e[7mTIDE_MODE\\e[m                       '",
      "* ",
      "TIDE_MODE",
    ],
    // aerc's stacked fields, the last marker printed: python's ">>> " after it.
    [
      "printf '\\e[1mName for this account?\\e[m\\n> Work\\n\\n\\e[1mYour email address?\\e[m\\n> '",
      ">>> ",
      "Your email address?",
    ],
    // The same, the prompt itself the marker ("> ", lua's, node's): the field under the bold row, nothing under it.
    [
      "printf '\\e[1mName for this account?\\e[m\\n> Work\\n\\n\\e[1mYour email address?\\e[m\\n'",
      "> ",
      "Your email address?",
    ],
    // tar -w's question (QUOTED_ASK), gdb's prompt after it.
    ["printf 'extract ‘a.txt’?'", "(gdb) ", "extract ‘a.txt’?"],
    // The same, swipl's "?- " after it.
    ["printf 'extract ‘a.txt’?'", "?- ", "extract ‘a.txt’?"],
  ];
  const crossed: string[] = [];
  for (const [printed, prompt, label] of cases) {
    const id = await sandbox.ok(["create", "--", "bash", "--norc", "-c", `${printed}; ${loop(prompt)}`]);
    await waitFor(
      async () => (await sandbox.screen(id)).trimEnd().endsWith(prompt.trim()) || undefined,
      30_000,
      "the prompt",
    );
    const reply = await sandbox.run(["fill", id, label, "Evil", "--submit", "--json", "--timeout", "3s"]);
    const screen = await sandbox.screen(id);
    if (reply.code === 0 || screen.includes("Evil"))
      crossed.push(`${prompt}: ${reply.stdout.trim()} / ${screen.trim()}`);
    await sandbox.ok(["kill", id]);
  }
  expect(crossed).toEqual([]);
}, 120_000);

// Found in the attack round of 7 December (attack7), on the marker after a prompt's colon landed that morning
// (MARK_AFTER_PROMPT, certutil's "…[<0 for unlimited path]: >"): a REPL whose prompt is "> " (node's, lua's, R's) that
// printed a file ending unended in "Enter your name: " drew its "> " after it, and the row read as certutil's prompt, an
// input holding the cursor with nothing typed: `fill "Enter your name" Evil --submit` typed it into the REPL and
// answered `submitted`. The prompt the cursor waits after ends in what opens an earlier row with a command typed after
// it ("> show"): that is the program's own prompt, and the words before it on the row are the command's output.
test("words printed unended before a REPL's own prompt, seen above with a command after it: fill types nothing", async () => {
  const file = `${sandbox.dir}/unended.txt`;
  await Bun.write(file, "Connected to db.example.org\nEnter your name: ");
  for (const prompt of ["> ", "(gdb) ", "?- "]) {
    const id = await sandbox.ok([
      "create",
      "--",
      "bash",
      "--norc",
      "-c",
      `while read -t 8 -p ${JSON.stringify(prompt)} l; do if [ "$l" = show ]; then cat ${file}; ` +
        `else echo "ran[$l]"; fi; done; echo; echo "loop over"; sleep 600`,
    ]);
    await sandbox.shown(id, prompt.trim());
    await sandbox.ok(["send", id, "show\n"]);
    await sandbox.shown(id, `Enter your name: ${prompt.trim()}`);
    const reply = await sandbox.run(["fill", id, "Enter your name", "Evil", "--submit", "--json", "--timeout", "3s"]);
    expect(reply.code, `${prompt}: ${reply.stdout}`).not.toBe(0);
    await sandbox.shown(id, "loop over");
    expect(await sandbox.screen(id), prompt).not.toContain("Evil");
    await sandbox.ok(["kill", id]);
  }
  // A program's own prompt with a marker after its colon, asked again: filled and entered.
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `for i in 1 2; do read -p "Enter the limit, enter to skip [<0 for none]: > " l; echo "got[$l]"; done; sleep 600`,
  ]);
  await sandbox.shown(id, "none]: >");
  const first = JSON.parse(await sandbox.ok(["fill", id, "Enter the limit", "12", "--submit", "--json"]));
  expect(first.effect).toBe("submitted");
  await sandbox.shown(id, "got[12]");
  const second = JSON.parse(await sandbox.ok(["fill", id, "Enter the limit", "7", "--submit", "--json"]));
  expect(second.effect).toBe("submitted");
  await sandbox.shown(id, "got[7]");
}, 120_000);

// Numbered rows drawn as buttons ("[1]   < url   >", urlscan's list; meaning20, 7 December) are a menu: the same rows
// printed above a shell's prompt (a mail's links listed by a script) are output, `choose` types nothing there.
test("numbered button rows ('[1]   < url >') printed above a shell's prompt: choose types nothing", async () => {
  const rows = ["[1]   < https://harbour.example/tides.pdf >", "[2]   \\e[44m< https://buoys.example.org/42 >\\e[m"];
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '${rows.map((r) => `${r}\\n`).join("")}'; while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "buoys.example.org");
  const snapshot = JSON.parse(await sandbox.ok(["snapshot", id, "--json"])) as { elements: { kind: string }[] };
  expect(snapshot.elements.map((e) => e.kind)).toContain("menu");
  for (const item of ["https://harbour.example/tides.pdf", "1"]) {
    const reply = await sandbox.run(["choose", id, item, "--json", "--timeout", "2s"]);
    expect(reply.code, `choose ${item}: ${reply.stdout}`).not.toBe(0);
  }
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 90_000);

// Choices parted by "│" ending a bottom bar (nefte's "File Modified: … │Save│As│All│Discard│Cancel"; meaning25, 7
// December) are buttons: the same bar printed by a script above a shell's prompt is output, `click` sends nothing.
test("a bar of choices parted by '│' printed above a shell's prompt: click types nothing", async () => {
  const bar = "\\e[44mFile Modified: /tmp/tides.txt      │\\e[42mSave\\e[44m│As│All│Discard│Cancel\\e[K\\e[m";
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `seq 30; printf '${bar}\\n'; while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "Discard");
  const snapshot = JSON.parse(await sandbox.ok(["snapshot", id, "--json"])) as { elements: { kind: string }[] };
  expect(snapshot.elements.map((e) => e.kind)).toContain("button");
  for (const name of ["Save", "Discard"]) {
    const reply = await sandbox.run(["click", id, name, "--json", "--timeout", "2s"]);
    expect(reply.code, `click ${name}: ${reply.stdout}`).not.toBe(0);
  }
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 90_000);

// A bracketed word alone on a box's row, set in from its side, is a button (lldb gui's "[Attach]"; meaning25, 7
// December): the same box printed above a shell's prompt is output, `click` sends nothing.
test("a box with a lone '[Attach]' printed above a shell's prompt: click types nothing", async () => {
  const box = [
    "┌──<Attach>────────────────┐",
    "│ Process: tide            │",
    "│        [Attach]          │",
    "└──────────────────────────┘",
  ];
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '${box.map((r) => `${r}\\n`).join("")}'; while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "[Attach]");
  const snapshot = JSON.parse(await sandbox.ok(["snapshot", id, "--json"])) as { elements: { kind: string }[] };
  expect(snapshot.elements.map((e) => e.kind)).toContain("button");
  const reply = await sandbox.run(["click", id, "Attach", "--json", "--timeout", "2s"]);
  expect(reply.code, reply.stdout).not.toBe(0);
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 90_000);

test("a group box of '◆Name' over ' PID' in a box, printed above a shell's prompt: radios, choose types nothing", async () => {
  const box = [
    "┌──<Attach Process>──────────┐",
    "│ ┌─[Attach By]────────────┐ │",
    "│ │◆Name                   │ │",
    "│ │ PID                    │ │",
    "│ └────────────────────────┘ │",
    "└────────────────────────────┘",
  ];
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `printf '${box.map((r) => `${r}\\n`).join("")}'; while read -t 8 -p "$ " l; do echo "ran[$l]"; done; echo "loop over"; sleep 600`,
  ]);
  await sandbox.shown(id, "PID");
  const snapshot = JSON.parse(await sandbox.ok(["snapshot", id, "--json"])) as { elements: { kind: string }[] };
  expect(snapshot.elements.map((e) => e.kind)).toContain("radio");
  const reply = await sandbox.run(["choose", id, "PID", "--json", "--timeout", "2s"]);
  expect(reply.code, reply.stdout).not.toBe(0);
  await sandbox.shown(id, "loop over");
  expect(await sandbox.screen(id)).not.toContain("ran[");
}, 90_000);
