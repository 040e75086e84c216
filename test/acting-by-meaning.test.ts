// Acting by meaning reports only what it saw (issue 59): choose/fill answer done only when the
// target is seen in its goal state, else `uncertain` saying what the screen shows; a key is
// checked against the item it means before it is sent; an exited program shows no field with the
// cursor; a snapshot whose elements add nothing gives the text. Real programs: tzselect, bash,
// Python's getpass, and the small raw-mode programs in test/fixtures/programs/.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Sandbox, waitFor } from "./harness.ts";

const PROGRAMS = resolve(import.meta.dir, "fixtures/programs");
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(() => sandbox.cleanup());

interface Act {
  via: string;
  sent: string[];
  effect: string;
  seen?: string;
}

async function act(args: string[]): Promise<Act> {
  return JSON.parse(await sandbox.ok([...args, "--json"])) as Act;
}

/** A program run by bash that writes its answer to $OUT; `out()` waits for it. */
async function start(command: string): Promise<{ id: string; out: () => Promise<string> }> {
  const out = join(sandbox.dir, `out-${Math.random().toString(36).slice(2)}`);
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    `OUT=${out}; ${command}; echo rc=$?; sleep 600`,
  ]);
  return {
    id,
    out: () =>
      waitFor(
        async () => ((await sandbox.screen(id)).includes("rc=") ? readFileSync(out, "utf8").trim() : undefined),
        30_000,
        `${command} to end`,
      ),
  };
}

async function shown(id: string, text: string): Promise<void> {
  await waitFor(async () => (await sandbox.screen(id)).includes(text) || undefined, 30_000, `"${text}" on ${id}`);
}

test.if(Bun.which("tzselect") !== null)(
  "tzselect: Spain among columns is 43, not the 9 of its row's first item; each answer is seen on the prompt's line",
  async () => {
    const { id, out } = await start("tzselect > $OUT");
    await shown(id, "#?");
    expect(await act(["choose", id, "Europe"])).toMatchObject({ sent: ["7", "Enter"], effect: "answered" });
    await shown(id, "Albania");
    const spain = await act(["choose", id, "Spain"]);
    expect(spain).toMatchObject({ sent: ['"43"', "Enter"], effect: "answered" });
    expect(spain.seen).toContain("#? 43");
    await shown(id, "Canary Islands");
    expect(await act(["choose", id, "Canary Islands"])).toMatchObject({ effect: "answered" });
    await shown(id, "information OK");
    expect(await act(["choose", id, "Yes"])).toMatchObject({ effect: "answered" });
    expect(await out()).toBe("Atlantic/Canary");
  },
);

test("a numbered list read a line at a time: a two-digit item is its number and Enter", async () => {
  const { id, out } = await start(`python3 ${PROGRAMS}/numbered.py $OUT`);
  await shown(id, "Number:");
  const reply = await act(["choose", id, "Kiwi"]);
  expect(reply).toMatchObject({ sent: ['"10"', "Enter"], effect: "answered" });
  expect(reply.seen).toContain("Number: 10");
  expect(await out()).toBe("Kiwi");
});

test("a list whose focused item grows a description is still the item named, and its answer is seen", async () => {
  const { id, out } = await start(`python3 ${PROGRAMS}/grow-menu.py $OUT`);
  await shown(id, "Vitest");
  const reply = await act(["choose", id, "Router"]);
  expect(reply).toMatchObject({ sent: ["Down", "Enter"], effect: "answered" });
  expect(reply.seen).toContain("Add features to the project: Router");
  expect(await out()).toBe("Router");
});

test("a key whose effect nothing on the screen shows is uncertain, never done", async () => {
  const { id, out } = await start(`python3 ${PROGRAMS}/single-key.py $OUT`);
  await shown(id, "Overwrite the backup?");
  const reply = await act(["choose", id, "yes"]);
  expect(reply.effect).toBe("uncertain");
  expect(reply.seen).toContain("no line shows");
  expect(await out()).toBe("y");
});

test("fill: a masked field took the length typed, an unechoed one took it unseen, a plain one shows the value; --submit sees it taken", async () => {
  const masked = await start(`python3 ${PROGRAMS}/masked.py $OUT`);
  await shown(masked.id, "Password:");
  const m = await act(["fill", masked.id, "Password", "s3cret", "--submit"]);
  expect(m).toMatchObject({ effect: "submitted", sent: ['"s3cret"', "Enter"] });
  expect(m.seen).toContain('it shows 6 "*"');
  expect(await masked.out()).toBe("s3cret");

  const hidden = await start(
    `python3 -c "import getpass; open('$OUT','w').write(getpass.getpass('Vault password: '))"`,
  );
  await shown(hidden.id, "Vault password:");
  const h = await act(["fill", hidden.id, "Vault password", "hunter22", "--submit"]);
  expect(h.effect).toBe("submitted");
  expect(h.seen).toContain("echoes nothing");
  expect(await hidden.out()).toBe("hunter22");

  const plain = await start('read -r -p "Name: " n; printf %s "$n" > $OUT');
  await shown(plain.id, "Name:");
  const p = await act(["fill", plain.id, "Name", "Ada Lovelace", "--submit"]);
  expect(p.effect).toBe("submitted");
  expect(p.seen).toContain("Name: Ada Lovelace");
  expect(await plain.out()).toBe("Ada Lovelace");
});

test("an exited program's screen has no field holding the cursor, and says it exited", async () => {
  const id = await sandbox.ok(["create", "--", "bash", "--norc", "-c", "echo finished"]);
  await waitFor(async () => (await sandbox.ok(["list"])).includes("exited") || undefined, 30_000, "the exit");
  const reply = (await sandbox.request({ cmd: "snapshot", id })).reply as {
    exited?: boolean;
    elements: Array<{ kind: string; cursor?: boolean }>;
  };
  expect(reply.exited).toBe(true);
  expect(reply.elements.some((e) => e.kind === "input" && e.cursor)).toBe(false);
});

test("a screen of prose: the snapshot says the elements add nothing and gives the text, for no more than the text", async () => {
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    "printf 'The backup finished at noon.\\nNo files were skipped.\\n'; sleep 600",
  ]);
  await shown(id, "No files were skipped.");
  const outline = await sandbox.ok(["snapshot", id]);
  expect(outline.split("\n")[0]).toContain("as text, elements add nothing");
  expect(outline).toContain("The backup finished at noon.\nNo files were skipped.");
  const text = await sandbox.ok(["text", id]);
  expect(outline.split("\n").slice(1).join("\n").trim()).toBe(text.trim());
});

test.if(Bun.which("unzip") !== null && Bun.which("zip") !== null)(
  "unzip's [y]es, [n]o, [A]ll, [N]one, [r]ename: None is N, not the n of no, and the files stay",
  async () => {
    const dir = join(sandbox.dir, "unzip");
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "one\n");
    writeFileSync(join(dir, "todo.txt"), "two\n");
    Bun.spawnSync(["zip", "-q", "a.zip", "notes.txt", "todo.txt"], { cwd: dir });
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    writeFileSync(join(dir, "todo.txt"), "mine too\n");
    const { id, out } = await start(`cd ${dir} && unzip a.zip; echo finished > $OUT`);
    await shown(id, "replace notes.txt?");
    expect(await act(["choose", id, "[N]one"])).toMatchObject({ sent: ["N", "Enter"], effect: "answered" });
    expect(await out()).toBe("finished");
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(dir, "todo.txt"), "utf8")).toBe("mine too\n");
  },
);

test.if(Bun.which("tzselect") !== null)(
  "tzselect Asia: the answered line pushed off the top is read in what scrolled off; Japan in a list whose top scrolled off",
  async () => {
    const { id, out } = await start("tzselect > $OUT");
    await shown(id, "#?");
    const asia = await act(["choose", id, "Asia"]);
    expect(asia).toMatchObject({ sent: ["4", "Enter"], effect: "answered" });
    // Seen in what scrolled off once the countries came; a loaded machine may check before they do.
    expect(asia.seen).toMatch(/scrolled off the top|^the answered line shows "#\? 4"$/);
    await shown(id, "Kuwait");
    expect(await act(["choose", id, "Japan"])).toMatchObject({ sent: ['"24"', "Enter"], effect: "answered" });
    await shown(id, "information OK");
    expect(await act(["choose", id, "Yes"])).toMatchObject({ effect: "answered" });
    expect(await out()).toBe("Asia/Tokyo");
  },
);

// A list whose help bar names the keys that move its selection (mprocs's "<j: Next>  <k: Prev>", turbo's "↑ ↓ -
// Select") is chosen by moving alone, with those keys: its Enter is an action of its own (turbo's "interact"), and
// mprocs takes no arrows there. Blind set 12 (spent): choose sent Down and Enter (turbo interacted; mprocs never moved).
test("a list its bar says moves with j/k or '↑ ↓ - Select': chosen by those keys alone, no Enter", async () => {
  for (const [mode, keys] of [
    ["jk", ["j", "j"]],
    ["arrows", ["Down", "Down"]],
  ] as const) {
    const out = join(sandbox.dir, `move-${mode}.keys`);
    const id = await sandbox.ok(["create", "--", "python3", join(PROGRAMS, "move-list.py"), out, mode]);
    await sandbox.shown(id, "buoy-check");
    const reply = await act(["choose", id, "buoy-check"]);
    expect([mode, reply.sent, reply.effect]).toEqual([mode, [...keys], "selected"]);
    const screen = await sandbox.screen(id);
    expect(screen).not.toContain("Interacting");
    await sandbox.ok(["kill", id]);
  }
}, 90_000);

// A console's command that starts a full-screen view (lldb's "gui" at "(lldb) "; blind set 13, spent: its two gui tasks
// stopped at "after Enter no line shows gui"): the value seen in the field before Enter, then the alternate screen taken
// over, is the line taken.
test("fill --submit: a line that starts a full-screen view, the alternate screen taken after Enter: submitted", async () => {
  const { id, out } = await start(
    `read -r -p "(tide) " l; printf %s "$l" > $OUT; printf '\\e[?1049h\\e[2J\\e[H| File (F1) | View (F2) |\\n'; sleep 2`,
  );
  await shown(id, "(tide)");
  const snapshot = JSON.parse(await sandbox.ok(["snapshot", id, "--json"])) as {
    elements: { ref: string; kind: string; cursor?: boolean }[];
  };
  const field = snapshot.elements.find((e) => e.kind === "input" && e.cursor);
  const reply = await act(["fill", id, field!.ref, "gui", "--submit"]);
  expect([reply.effect, reply.sent]).toEqual(["submitted", ['"gui"', "Enter"]]);
  expect(reply.seen).toContain("alternate screen");
  expect(await out()).toBe("gui");
});
