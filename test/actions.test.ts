// choose, click and fill end to end on real programs: dialog's menu (by mouse, and by keys with
// --no-mouse), a whiptail checklist, dialog's inputbox, mc's function-key bar by mouse, fzf by text,
// and real agent CLIs' permission questions (offline against the fake model), each driven to the
// right answer and checked by what the program then did. A program not installed skips, saying so.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENTS_BIN, prepareAgentHome, type AgentCli } from "./fixtures/agent-homes.ts";
import { FakeModel, FILE_CONTENT } from "./fixtures/fake-model.ts";
import { BIN, Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(() => sandbox.cleanup());

function present(program: string): boolean {
  if (Bun.which(program)) return true;
  console.log(`skipped: ${program} is not installed`);
  return false;
}

/** A program run by bash, which then prints its exit code and what it wrote to $OUT, and stays. */
async function start(command: string): Promise<{ id: string; done: () => Promise<string> }> {
  const out = join(sandbox.dir, `out-${Math.random().toString(36).slice(2)}`);
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "-c",
    `OUT=${out}; ${command}; echo "rc=$? out=$(cat ${out})"; sleep 600`,
  ]);
  return {
    id,
    done: () =>
      waitFor(
        async () => (await sandbox.screen(id)).split("\n").find((line) => line.startsWith("rc=")),
        30_000,
        `${command} to end`,
      ),
  };
}

/** The snapshot's JSON once `ready` holds for it. */
async function snapshot(
  id: string,
  ready: (elements: Array<Record<string, unknown>>) => boolean,
): Promise<Array<Record<string, unknown>>> {
  return waitFor(
    async () => {
      const reply = (await sandbox.request({ cmd: "snapshot", id })).reply;
      const elements = (reply.elements ?? []) as Array<Record<string, unknown>>;
      return ready(elements) ? elements : undefined;
    },
    30_000,
    `${id}'s screen`,
  );
}

const labelled = (label: string) => (elements: Array<Record<string, unknown>>) =>
  elements.some(
    (e) => e.label === label || (e.items as Array<{ label: string }> | undefined)?.some((i) => i.label === label),
  );

test.if(present("dialog"))(
  "dialog --menu: choose by text or by ref moves the highlight with arrows (whether or not the mouse is on) and presses Enter",
  async () => {
    const mouse = await start("dialog --menu Pick 15 40 4 1 One 2 Two 3 Three 2>$OUT");
    await snapshot(mouse.id, labelled("Three"));
    expect(JSON.parse(await sandbox.ok(["choose", mouse.id, "Three", "--json"]))).toMatchObject({
      via: "keys",
      sent: ["Down", "Down", "Enter"],
    });
    expect(await mouse.done()).toBe("rc=0 out=3");

    const keys = await start("dialog --no-mouse --menu Pick 15 40 4 1 One 2 Two 3 Three 2>$OUT");
    const elements = await snapshot(keys.id, labelled("Two"));
    const two = (elements.find((e) => e.kind === "menu")!.items as Array<{ ref: string; label: string }>).find(
      (i) => i.label === "Two",
    )!;
    expect(await sandbox.ok(["choose", keys.id, two.ref])).toMatch(
      /^(selected|answered|uncertain).* \(keys: Down Enter\)$/,
    );
    expect(await keys.done()).toBe("rc=0 out=2");
  },
);

test.if(present("whiptail"))(
  "whiptail --checklist: choose toggles boxes with arrows and Space, click presses Ok with Tab and Enter",
  async () => {
    const list = await start("whiptail --checklist Pick 15 40 4 a Apple ON b Banana OFF c Cherry OFF 2>$OUT");
    await snapshot(list.id, labelled("Cherry"));
    expect(await sandbox.ok(["choose", list.id, "Cherry"])).toBe("checked (keys: Down Down Space)");
    expect(await sandbox.ok(["choose", list.id, "apple"])).toBe("unchecked (keys: Up Up Space)");
    expect(await sandbox.ok(["click", list.id, "--text", "Ok"])).toMatch(/\(keys: Tab Enter\)$/);
    expect(await list.done()).toBe('rc=0 out="c"');
  },
);

test.if(present("dialog"))(
  "dialog --checklist and --radiolist: choose clicks the boxes (dialog turns the mouse on), click presses OK",
  async () => {
    const list = await start("dialog --checklist Pick 15 40 4 a Apple on b Banana off c Cherry off 2>$OUT");
    await snapshot(list.id, labelled("Cherry"));
    expect(await sandbox.ok(["choose", list.id, "Cherry"])).toMatch(/^checked \(mouse: click \d+:\d+\)$/);
    expect(await sandbox.ok(["choose", list.id, "Apple"])).toMatch(/^unchecked \(mouse: click \d+:\d+\)$/);
    await sandbox.ok(["click", list.id, "--text", "OK"]);
    expect(await list.done()).toBe("rc=0 out=c");
    const radio = await start("dialog --radiolist Pick 15 40 4 a Apple on b Banana off c Cherry off 2>$OUT");
    await snapshot(radio.id, labelled("Banana"));
    expect(await sandbox.ok(["choose", radio.id, "Banana"])).toMatch(/^checked \(mouse: click \d+:\d+\)$/);
    await sandbox.ok(["click", radio.id, "--text", "OK"]);
    expect(await radio.done()).toBe("rc=0 out=b");
  },
);

test.if(present("dialog"))("dialog --inputbox: fill replaces the value, click OK submits it", async () => {
  const box = await start("dialog --inputbox Name 10 40 Bob 2>$OUT");
  await snapshot(box.id, (elements) => elements.some((e) => e.kind === "input" && e.value === "Bob"));
  expect(await sandbox.ok(["fill", box.id, "Name", "Ada Lovelace"])).toBe(
    'filled (keys: End BSpace BSpace BSpace "Ada Lovelace")',
  );
  await sandbox.ok(["click", box.id, "--text", "OK"]);
  expect(await box.done()).toBe("rc=0 out=Ada Lovelace");
  // A value longer than the field shows only its end: erased until the field shows nothing.
  const long = await start(`dialog --inputbox Name 10 40 ${"x".repeat(80)} 2>$OUT`);
  await snapshot(long.id, (elements) => elements.some((e) => e.kind === "input" && String(e.value).startsWith("xxx")));
  expect(await sandbox.ok(["fill", long.id, "Name", "abc"])).toMatch(/^filled \(keys: End( BSpace)+ "abc"\)$/);
  await sandbox.ok(["click", long.id, "--text", "OK"]);
  expect(await long.done()).toBe("rc=0 out=abc");
  // Not an input: refused, naming what it is.
  const other = await start("dialog --inputbox Name 10 40 Bob 2>$OUT");
  await snapshot(other.id, labelled("OK"));
  const refused = await sandbox.run(["fill", other.id, "OK", "x"]);
  expect(refused.stderr).toContain('no input "OK" on the screen');
});

test.if(present("mc"))("mc: click --text Quit on the function-key bar, by mouse, and mc ends", async () => {
  const id = await sandbox.ok(["create", "--", "mc"]);
  await snapshot(id, labelled("Quit"));
  const reply = JSON.parse(await sandbox.ok(["click", id, "--text", "Quit", "--json"]));
  expect(reply.via).toBe("mouse");
  await sandbox.ok(["wait", id, "--exit", "--timeout", "30s"]);
});

// A menu bar's button whose drop-down opens under it is `opened` (before: `uncertain`, "the screen changed, but
// "File" is still there"), its items named, so the caller goes on to choose one: mc's File menu, then its Exit.
test.if(present("mc"))(
  "mc: click File on the menu bar, by mouse: opened, its items named; choose Exit, and mc ends",
  async () => {
    const dir = join(sandbox.dir, "mc-files");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "tides.txt"), "high water\n");
    const id = await sandbox.ok([
      "create",
      "--rows",
      "40",
      "--",
      "bash",
      "-c",
      `cd ${dir} && mc; echo "mc-rc=$?"; sleep 600`,
    ]);
    await snapshot(id, labelled("File"));
    const reply = JSON.parse(await sandbox.ok(["click", id, "File", "--json"]));
    expect(reply.via).toBe("mouse");
    expect(reply.effect, reply.seen).toBe("opened");
    expect(reply.seen).toContain('"View file..."');
    await sandbox.ok(["choose", id, "Exit"]);
    await waitFor(async () => (await sandbox.screen(id)).includes("mc-rc=0") || undefined, 30_000, "mc's end");
  },
);

test.if(present("fzf"))("fzf: choose by text moves the selection there and accepts it", async () => {
  const fzf = await start("printf 'alpha\\nbeta\\ngamma\\n' | fzf >$OUT");
  await snapshot(fzf.id, labelled("gamma"));
  await sandbox.ok(["choose", fzf.id, "beta"]);
  expect(await fzf.done()).toBe("rc=0 out=beta");
});

test("a target not on the screen, and a program with nothing to choose, are refused saying what is there", async () => {
  const id = await sandbox.ok([
    "create",
    "--",
    "bash",
    "--norc",
    "-c",
    "echo 'Continue? [Y/n]'; read a; echo got=$a; sleep 600",
  ]);
  await snapshot(id, (elements) => elements.some((e) => e.kind === "question"));
  const missing = await sandbox.run(["choose", id, "Maybe"]);
  expect(missing.stderr).toMatch(/no .* "Maybe" on the screen \(there: .*"Yes"/);
  // An inline [Y/n] reads a line: its key, then Enter.
  expect(await sandbox.ok(["choose", id, "no"])).toMatch(/\(keys: n Enter\)$/);
  await waitFor(async () => (await sandbox.screen(id)).includes("got=n"), 30_000, "the answer read");
});

test("a one-line question read a key at a time (raw mode) gets its key alone: no Enter spills into the next question", async () => {
  // Like `git add -p` with interactive.singleKey: cbreak mode, one key read per question, no echo.
  const script =
    "import sys,time,tty\n" +
    "tty.setcbreak(0)\n" +
    "print('Delete it? [y/n] ', end='', flush=True); a = sys.stdin.read(1)\n" +
    "print('\\ngot=' + repr(a)); print('Next one? [y/n] ', end='', flush=True); b = sys.stdin.read(1)\n" +
    "print('\\nnext=' + repr(b), flush=True); time.sleep(600)\n";
  const file = join(sandbox.dir, "one-key.py");
  writeFileSync(file, script);
  const id = await sandbox.ok(["create", "--", "python3", file]);
  await snapshot(id, (elements) => elements.some((e) => e.kind === "question"));
  expect(await sandbox.ok(["choose", id, "yes"])).toMatch(/\(keys: y\)$/);
  await waitFor(async () => (await sandbox.screen(id)).includes("got='y'"), 30_000, "the key read");
  // Had an Enter followed the key, the next question would already have its answer ('\r').
  await sandbox.ok(["send", id, "n"]);
  const screen = await waitFor(
    async () => (await sandbox.screen(id)).split("\n").find((line) => line.startsWith("next=")),
    30_000,
    "the next answer",
  );
  expect(screen).toBe("next='n'");
});

// Real agent CLIs' permission questions, offline against the fake model.
// The second answer (yes, and do not ask again): the arrows must move the highlight there.
const AGENT_QUESTIONS: Array<[AgentCli, string, confirm?: string]> = [
  ["claude", "switch to accept edits"],
  ["codex", "don't ask again"],
  ["gemini", "Allow for this session"],
  ["qwen", "allow always"],
  // opencode asks again ("Always allow": Confirm / Cancel) before it allows always.
  ["opencode", "Allow always", "Confirm"],
];
for (const [cli, yes, confirm] of AGENT_QUESTIONS) {
  const installed = existsSync(join(AGENTS_BIN, cli));
  if (!installed) console.log(`skipped: the real ${cli} is not installed (npm run agents:install)`);
  test.if(installed)(
    `${cli}: choose "${yes}" on its permission question, and the file is written`,
    async () => {
      const model = new FakeModel();
      const home = join(sandbox.dir, `home-${cli}`);
      const work = join(sandbox.dir, `work-${cli}`);
      mkdirSync(home, { recursive: true });
      mkdirSync(work, { recursive: true });
      Bun.spawnSync(["git", "init", "-q", work]);
      const env = {
        ...sandbox.env,
        ...prepareAgentHome(home, model.url, [work]),
        HOME: home,
        PATH: `${AGENTS_BIN}:${process.env.PATH}`,
      };
      writeFileSync(join(home, ".bashrc"), "PS1='$ '\n");
      const t4a = async (args: string[]) => {
        const child = Bun.spawn([BIN, ...args], { cwd: work, env, stdout: "pipe", stderr: "pipe" });
        const [stdout, stderr, code] = await Promise.all([
          new Response(child.stdout).text(),
          new Response(child.stderr).text(),
          child.exited,
        ]);
        if (code !== 0)
          throw new Error(
            `t4a ${args.join(" ")}: exit ${code}: ${stderr}${stdout}\n--- screen ---\n${await sandbox.screen(id).catch(() => "")}` +
              `\n--- the fake model saw ${model.requests.length} request(s): ${model.requests.map((r) => r.path).join(", ")}`,
          );
        return stdout.trim();
      };
      const id = `ask-${cli}`;
      const file = join(work, `hello-${cli}.txt`);
      try {
        await t4a(["create", "--name", id, "--agent", cli, "--prompt", `Please t4a:write:${file}`]);
        await t4a(["wait", id, "--agent", "waiting", "--timeout", "90s"]);
        const snap = await t4a(["snapshot", id]);
        const reply = JSON.parse(await t4a(["choose", id, yes, "--json", "--timeout", "30s"]));
        // A list: ["Down", "Enter"] (more if a key the CLI dropped while drawing was sent again);
        // opencode's row of buttons, with its mouse on: a click on the second.
        if (reply.via === "keys") expect([reply.sent[0], reply.sent.at(-1)], snap).toEqual(["Down", "Enter"]);
        else expect(reply.sent, snap).toEqual([expect.stringMatching(/^click \d+:\d+$/)]);
        if (confirm) {
          await waitFor(
            async () => (await t4a(["snapshot", id])).includes(`"${confirm}"`),
            30_000,
            `${cli}'s ${confirm}`,
          );
          await t4a(["click", id, "--text", confirm]);
        }
        await t4a(["wait", id, "--agent", "idle", "--timeout", "60s"]);
        expect(readFileSync(file, "utf8")).toBe(FILE_CONTENT);
      } finally {
        await t4a(["kill", id]).catch(() => {});
        model.stop();
      }
    },
    180_000,
  );
}
