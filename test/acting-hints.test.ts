// Acting on key hints by their words, on real programs: nano's "^X Exit" bar, ccmake's "Keys:" block ("[c] Configure",
// "[g] Generate"), hg commit -i's curses selector ("c: confirm"), a key bar without the mouse (sngrep's "F2 Save",
// hatop's "5-CLI" and "Q=QUIT", named as drawn). Each press types the one key the hint draws and answers `uncertain`
// (a hint names no state to check), saying what changed, but where the program that read the key ended (`exited`), a
// dialog new holds the hint's words (`opened`), or the hint is a tab now drawn as the current one (`selected`).
// Written as sentences on the normal screen: ffmpeg's "Press [q] to stop" among its log, a dev server's "press h + enter
// to show help" (press-lines.py, vite's shape). ccmake, hg, sngrep, hatop (with haproxy) and ffmpeg run where installed
// (.ci/run installs them); nano is one of the programs .ci/run installs.
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

test("a key hint on a full-screen program's bar is pressed by its words (nano's '^X Exit'): its one key", async () => {
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
  // nano ended, the shell going on after it: the program that read the key is gone.
  expect(exit).toMatchObject({ sent: ["C-x"], effect: "exited" });
  expect(exit.seen).toContain("(nano) ended");
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
    // (ccmake ends once it has generated: under load after the screen rests, then the press is only uncertain.)
    const generate = await act(["choose", id, "Generate"]);
    expect(generate.sent).toEqual(["g"]);
    expect(["exited", "uncertain"]).toContain(generate.effect);
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
    // (hg ends once its commit is written: under load after the screen rests, then the press is only uncertain.)
    const confirm = await act(["choose", id, "confirm"]);
    expect(confirm.sent).toEqual(["c"]);
    expect(["exited", "uncertain"]).toContain(confirm.effect);
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

test.if(Bun.which("sngrep") !== null)(
  "sngrep's key bar ('F2 Save', no mouse): F2 pressed, its save form opened, the capture written; a form's 2nd field",
  async () => {
    const dir = join(sandbox.dir, "sip");
    mkdirSync(dir, { recursive: true });
    const made = Bun.spawnSync(["python3", resolve(PROGRAMS, "../blind11/mk-sip.py"), join(dir, "calls.pcap")]);
    expect(made.exitCode).toBe(0);
    const id = await start(`cd ${dir} && HOME=${dir} sngrep -I calls.pcap`);
    await shown(id, "F2 Save");
    const save = await act(["click", id, "--text", "F2 Save"]);
    expect(save).toMatchObject({ sent: ["F2"], effect: "opened" });
    expect(save.seen).toContain("Save capture");
    expect(await act(["fill", id, "Filename", "all-calls"])).toMatchObject({ effect: "filled" });
    await act(["click", id, "Save"]);
    await waitFor(() => existsSync(join(dir, "all-calls.pcap")) || undefined, 10_000, "all-calls.pcap");
    await sandbox.ok(["kill", id]);
    // Its filter form (F7): a plain field after the one holding the cursor is filled, Tab taking the cursor there.
    const form = await start(`cd ${dir} && HOME=${dir} sngrep -I calls.pcap`);
    await shown(form, "F2 Save");
    await sandbox.ok(["send", form, "--key", "F7"]);
    await shown(form, "Payload:");
    expect(await act(["fill", form, "SIP To", "bob"])).toMatchObject({ sent: ["Tab", '"bob"'], effect: "filled" });
    await shown(form, "SIP To:        bob");
    await sandbox.ok(["kill", form]);
  },
);

test.if(Bun.which("hatop") !== null && Bun.which("haproxy") !== null)(
  "hatop's key bar ('5-CLI', 'Q=QUIT', no mouse, keys polled between sleeps): its tab made current, then it quits",
  async () => {
    const dir = join(sandbox.dir, "ha");
    mkdirSync(dir, { recursive: true });
    const socket = join(dir, "haproxy.sock");
    writeFileSync(
      join(dir, "haproxy.cfg"),
      `global\n    stats socket ${socket} mode 600 level admin\n    pidfile ${dir}/haproxy.pid\n` +
        "defaults\n    mode http\n    timeout connect 1s\n    timeout client 5s\n    timeout server 5s\n" +
        "frontend harbour\n    bind 127.0.0.1:28911\n    default_backend tides\n" +
        "backend tides\n    server tide1 127.0.0.1:28912\n    server tide2 127.0.0.1:28913\n",
    );
    expect(Bun.spawnSync(["haproxy", "-q", "-f", join(dir, "haproxy.cfg"), "-D"]).exitCode).toBe(0);
    try {
      await waitFor(() => existsSync(socket) || undefined, 10_000, "haproxy's socket");
      const id = await start(`hatop -s ${socket}`);
      await shown(id, "Q=QUIT");
      const cli = await act(["click", id, "--text", "5-CLI"]);
      expect(cli).toMatchObject({ sent: ["5"], effect: "selected" });
      // In its CLI mode the line takes the digits: a tab's key is no bar's there.
      await act(["click", id, "--text", "1-STATUS"]).then(
        () => {
          throw new Error("1-STATUS pressed at the CLI's prompt");
        },
        (error: Error) => expect(error.message).toContain("prompt"),
      );
      await sandbox.ok(["kill", id]);
      const again = await start(`hatop -s ${socket}`);
      await shown(again, "Q=QUIT");
      const quit = await act(["click", again, "--text", "Q=QUIT"]);
      expect(quit).toMatchObject({ sent: ["Q"], effect: "exited" });
      await shown(again, "rc=0");
    } finally {
      const pid = Number(readFileSync(join(dir, "haproxy.pid"), "utf8"));
      if (pid > 0) process.kill(pid);
    }
  },
);

test.if(Bun.which("ffmpeg") !== null)(
  "ffmpeg's 'Press [q] to stop' among its log, on the normal screen: click stop presses q; ffmpeg ends early",
  async () => {
    const clip = join(sandbox.dir, "clip.mp4");
    Bun.spawnSync(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=30:size=160x120:rate=10", clip]);
    const id = await sandbox.ok([
      "create",
      "--cols",
      "100",
      "--rows",
      "30",
      "--cwd",
      sandbox.dir,
      "--",
      "bash",
      "--norc",
      "-c",
      "ffmpeg -hide_banner -nostats -stats_period 0.5 -stats -re -i clip.mp4 -y slow.mp4; echo rc=$?; sleep 600",
    ]);
    await shown(id, "frame=");
    const stop = await act(["click", id, "stop"]);
    expect(stop).toMatchObject({ sent: ["q"], effect: "exited" });
    expect(stop.seen).toContain("(ffmpeg) ended");
    await shown(id, "rc=0");
    // Stopped early: the whole clip at its own rate would take 30 s.
    const probe = Bun.spawnSync(
      ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", "slow.mp4"],
      {
        cwd: sandbox.dir,
      },
    );
    expect(Number(probe.stdout.toString())).toBeLessThan(20);
  },
  60_000,
);

test("'press h + enter to show help' on the normal screen, read as lines: click 'show help' types h and Enter", async () => {
  const out = join(sandbox.dir, "press-lines.txt");
  const id = await start(`python3 ${join(PROGRAMS, "press-lines.py")} ${out} lines`);
  await shown(id, "press h + enter to show help");
  // Help printed: the hint names no state to check.
  const help = await act(["click", id, "show help"]);
  expect(help).toMatchObject({ sent: ["h", "Enter"], effect: "uncertain" });
  await shown(id, "press q + enter to quit");
  const quit = await act(["click", id, "--text", "quit"]);
  expect(quit).toMatchObject({ sent: ["q", "Enter"], effect: "exited" });
  await shown(id, "rc=0");
  expect(readFileSync(out, "utf8")).toBe("h\nq\n");
});
