// Question shapes in a file an editor shows: nano and vim draw the file's rows with their cursor at its first row's
// start, before the question's words. A program asking waits after its question; keys typed at an editor's cursor edit
// the file (on main: `choose Yes` typed "Yes" into nano's buffer, `choose Vue` typed "2", answered uncertain). Each
// must type nothing, and the buffer stays unmodified.
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

/** A file's text, and the answers chosen on it. */
const FILES: Array<[string, string[]]> = [
  ["Really delete? Yes or No:\nline two\n", ["Yes", "No"]],
  ["Delete all files? [y/N]\nline two\n", ["y"]],
  ["Root inode is not a directory.  Clear<y>?\nline two\n", ["y"]],
  ["Which framework?\n  1) React\n  2) Vue\nEnter a number: \nline two\n", ["Vue", "React"]],
];

test("a question's words in a file nano or vim shows, the editor's cursor before them: nothing is typed", async () => {
  for (const [i, [text, answers]] of FILES.entries()) {
    const file = `question${i}.txt`;
    await Bun.write(join(sandbox.dir, file), text);
    for (const editor of [
      ["nano", "--ignorercfiles"],
      ["vim", "-u", "NONE", "-n"],
    ]) {
      const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", ...editor, file]);
      await sandbox.shown(id, "line two");
      for (const answer of answers) {
        const reply = await sandbox.run(["choose", id, answer, "--json", "--timeout", "3s"]);
        expect(reply.code, `${editor[0]} ${file}: choose ${answer}: ${reply.stdout}`).not.toBe(0);
        expect(reply.stdout, `${editor[0]} ${file}: choose ${answer}`).toContain("nothing was sent");
      }
      // (nano says "Modified" on its title bar once its buffer changes; vim answers for its own.)
      if (editor[0] === "nano") expect(await sandbox.screen(id)).not.toContain("Modified");
      else {
        await sandbox.ok(["send", id, ":set modified?\r"]);
        await sandbox.shown(id, "modified");
        expect(await sandbox.screen(id)).toContain("nomodified");
      }
      await sandbox.ok(["kill", id]);
    }
  }
}, 180_000);

// A form's shape in a file nano shows: fill and click move the focus with Tab, and nano puts each Tab into its buffer
// (on main: twelve Tabs, the file's first line pushed on). The first Tab seen put in as text is taken back with BSpace
// (nano still says "Modified": its flag stays once set), and the action refused.
test("a form's field and button in a file nano shows: fill and click leave its text as it was", async () => {
  await Bun.write(join(sandbox.dir, "form.txt"), "Name: [hello        ]\n  < OK >   <Cancel>\nline two\n");
  const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "nano", "--ignorercfiles", "form.txt"]);
  await sandbox.shown(id, "line two");
  for (const action of [
    ["fill", "Name", "xyz"],
    ["click", "OK"],
  ]) {
    const reply = await sandbox.run([action[0]!, id, ...action.slice(1), "--json", "--timeout", "3s"]);
    expect(reply.code, `${action.join(" ")}: ${reply.stdout}`).not.toBe(0);
    expect(reply.stdout, action.join(" ")).toContain("BSpace was sent to take it back");
    expect(reply.stdout, action.join(" ")).not.toContain("not as it was");
    expect((await sandbox.screen(id)).split("\n").slice(1, 3), action.join(" ")).toEqual([
      "Name: [hello        ]",
      "  < OK >   <Cancel>",
    ]);
  }
  await sandbox.ok(["kill", id]);
}, 60_000);

// The same with the editor's cursor on a blank row (the file opens with one): a Tab there shows no text, only the
// cursor moved on (attack8 left it: twelve Tabs went into nano's buffer, then a timeout). Attack round of session 14.
test("a form's field in a file nano shows, its cursor on a blank first row: fill leaves the file as it was", async () => {
  const file = join(sandbox.dir, "form-blank.txt");
  const text = "\nName: [hello        ]\n  < OK >   <Cancel>\nline three\n";
  await Bun.write(file, text);
  const id = await sandbox.ok(["create", "--cwd", sandbox.dir, "--", "nano", "--ignorercfiles", "form-blank.txt"]);
  await sandbox.shown(id, "line three");
  for (const action of [
    ["fill", "Name", "xyz"],
    ["click", "OK"],
  ]) {
    const reply = await sandbox.run([action[0]!, id, ...action.slice(1), "--json", "--timeout", "3s"]);
    expect(reply.code, `${action.join(" ")}: ${reply.stdout}`).not.toBe(0);
    expect(reply.stdout, action.join(" ")).toContain("BSpace was sent to take it back");
  }
  // Saved as it stands (^O, Enter): the buffer holds the file's text, no Tab.
  await sandbox.ok(["send", id, "\x0f"]);
  await sandbox.shown(id, "File Name to Write");
  await sandbox.ok(["send", id, "\r"]);
  await sandbox.shown(id, "Wrote");
  expect(await Bun.file(file).text()).toBe(text);
  await sandbox.ok(["kill", id]);
}, 60_000);
