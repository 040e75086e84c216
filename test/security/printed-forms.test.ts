// A form of settings (ccmake's cache: `NAME   *value` rows, the focused name in reverse video) is read only where the
// cursor stands on its focused row; its focused field holds the cursor only while the cursor stands past the value's
// first cell (a value being edited). At the value's first cell the program reads keys as commands (ccmake's `d`
// deletes an entry, `g` generates, `q` quits): `fill` must type no letter there. And the same rows printed as output
// above a shell's prompt are no form: `fill` finds no field, nothing is typed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { Sandbox } from "../harness.ts";

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
