// Acting on key hints by their words, on real programs: nano's "^X Exit" bar, ccmake's "Keys:" block ("[c] Configure",
// "[g] Generate"), hg commit -i's curses selector ("c: confirm"). Each press types the one key the hint draws and
// answers `uncertain` (a hint names no state to check), saying what changed. ccmake and hg run where installed
// (cmake-curses-gui, mercurial); nano is one of the programs .ci/run installs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Sandbox, waitFor } from "./harness.ts";

const PROGRAMS = resolve(import.meta.dir, "fixtures/programs");
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(async () => {
  await sandbox.cleanup();
});

interface Act {
  sent: string[];
  effect: string;
  seen?: string;
}

async function act(args: string[]): Promise<Act> {
  const result = await sandbox.run([...args, "--json"]);
  if (result.code !== 0) throw new Error(`t4a ${args.join(" ")}: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout) as Act;
}

/** A bash line in a new session, kept open after it ends (its screen stays to be read). */
const start = (line: string) => sandbox.ok(["create", "--", "bash", "--norc", "-c", `${line}; echo rc=$?; sleep 600`]);

const shown = (id: string, text: string) => sandbox.shown(id, text);

test("a key hint on a full-screen program's bar is pressed by its words (nano's '^X Exit'): its one key, uncertain", async () => {
  const file = join(sandbox.dir, "hint.txt");
  writeFileSync(file, "hello\n");
  const id = await start(`nano ${file}`);
  await shown(id, "^X Exit");
  // The hint names no state to check: what changed is said, never a goal state.
  const write = await act(["choose", id, "Write Out"]);
  expect(write).toMatchObject({ sent: ["C-o"], effect: "uncertain" });
  expect(write.seen).toContain('the key hint "^O Write Out"');
  await shown(id, "File Name to Write");
  expect((await act(["choose", id, "Cancel"])).sent).toEqual(["C-c"]);
  await waitFor(async () => !(await sandbox.screen(id)).includes("File Name to Write") || undefined, 10_000, "back");
  const exit = await act(["click", id, "--text", "Exit"]);
  expect(exit).toMatchObject({ sent: ["C-x"], effect: "uncertain" });
  await shown(id, "rc=0");
});

test.if(Bun.which("ccmake") !== null)(
  "ccmake's '[c] Configure' and '[g] Generate' (its 'Keys:' block) pressed by their words: the build files written",
  async () => {
    const dir = join(sandbox.dir, "cm");
    mkdirSync(join(dir, "src"), { recursive: true });
    mkdirSync(join(dir, "build"));
    writeFileSync(join(dir, "src/CMakeLists.txt"), "cmake_minimum_required(VERSION 3.16)\nproject(tide C)\n");
    const id = await start(`cd ${dir}/build && ccmake ../src`);
    await shown(id, "[c] Configure");
    expect(await act(["choose", id, "Configure"])).toMatchObject({ sent: ["c"], effect: "uncertain" });
    // Generate is offered once configured (ccmake's own first run may need a second Configure).
    for (let i = 0; i < 3 && !(await sandbox.screen(id)).includes("[g] Generate"); i++) {
      await shown(id, "[c] Configure");
      await act(["choose", id, "Configure"]);
    }
    await shown(id, "[g] Generate");
    expect(await act(["choose", id, "Generate"])).toMatchObject({ sent: ["g"], effect: "uncertain" });
    await shown(id, "rc=0");
    expect(existsSync(join(dir, "build/Makefile"))).toBe(true);
  },
);

test.if(Bun.which("hg") !== null)(
  "hg commit -i's curses selector: a file unchecked, then 'c: confirm' pressed by its words: only the other committed",
  async () => {
    const repo = join(sandbox.dir, "hg");
    const hg = (...args: string[]) =>
      Bun.spawnSync(["hg", ...args], { cwd: repo, env: { ...process.env, HGUSER: "Ada", HGPLAIN: "1" } });
    mkdirSync(repo);
    hg("init");
    writeFileSync(join(repo, "notes.txt"), "one\n");
    writeFileSync(join(repo, "plan.txt"), "one\n");
    hg("commit", "-A", "-m", "first");
    writeFileSync(join(repo, "notes.txt"), "one\ntwo\n");
    writeFileSync(join(repo, "plan.txt"), "one\ntwo\n");
    const id = await start(
      `cd ${repo} && HGUSER=Ada hg --config ui.interactive=true --config ui.interface=curses commit -i -m 'only plan'`,
    );
    await shown(id, "c: confirm");
    expect(await act(["choose", id, "notes.txt"])).toMatchObject({ effect: "unchecked" });
    expect(await act(["choose", id, "confirm"])).toMatchObject({ sent: ["c"], effect: "uncertain" });
    await shown(id, "rc=0");
    expect(new TextDecoder().decode(hg("log", "-r", "tip", "-T", "{files}").stdout)).toBe("plan.txt");
  },
);

test("a prompt whose program takes one key at once (swipl's 'Correct to: \"…\"?'): fill types it, sends no Enter", async () => {
  // swipl 9 reads the correction's answer raw and writes "yes" after the prompt at once; an Enter sent after it would
  // reach the next prompt (blind set 6: fill --submit refused, the field never showing "y").
  const out = join(sandbox.dir, "correct.out");
  const id = await start(`python3 ${PROGRAMS}/raw-correct.py ${out}`);
  await shown(id, "Correct to:");
  const reply = await act(["fill", id, 'Correct to: "save_depth(42)"?', "y", "--submit"]);
  expect(reply).toMatchObject({ sent: ['"y"'], effect: "submitted" });
  expect(reply.seen).toContain('"Correct to: \\"save_depth(42)\\"? yes"');
  await shown(id, "true.");
  await waitFor(() => existsSync(out) || undefined, 10_000, "the key");
  expect(readFileSync(out, "utf8")).toBe("y");
  // Nothing reached the next prompt.
  await sandbox.ok(["send", id, "halt.\\r"]);
  await waitFor(() => existsSync(`${out}.next`) || undefined, 10_000, "the next line");
  expect(readFileSync(`${out}.next`, "utf8")).toBe("halt.");
});
