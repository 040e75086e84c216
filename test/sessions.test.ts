// Real programs on real PTYs: resize, output, kill of whole process trees, fd hygiene,
// every byte before the exit event, and full-screen TUIs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { DaemonConnection } from "../src/client/connection.ts";
import { Sandbox, fdCount, isAlive, sessionMembers, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

async function shell(args: string[] = ["bash", "--norc", "--noprofile"]): Promise<string> {
  return sandbox.ok(["create", "--", ...args]);
}

async function createJson(args: string[]): Promise<{ id: string; pid: number }> {
  return JSON.parse(await sandbox.ok(["create", "--json", "--", ...args]));
}

test("tput cols sees a resize", async () => {
  const id = await shell();
  await sandbox.ok(["send", id, "tput cols; tput lines\\n"]);
  await waitFor(async () => /\n80\n24\n/.test(await sandbox.screen(id)), 5000, "80x24");
  await sandbox.ok(["resize", id, "132", "43"]);
  await sandbox.ok(["send", id, "clear; tput cols; tput lines\\n"]);
  await waitFor(async () => (await sandbox.screen(id)).startsWith("132\n43\n"), 5000, "132x43");
  await sandbox.ok(["kill", id]);
});

test("CLI send interprets escapes, reads stdin, and sends named keys", async () => {
  const id = await shell();
  await sandbox.ok(["send", id, "echo A\\x41\\tB\\n"]);
  await sandbox.ok(["send", id], "echo from-stdin\n");
  await sandbox.ok(["send", id, "sleep 100", "-k", "Enter"]);
  // Conditions, not a fixed wait: on a loaded machine the shell may take seconds to start sleep.
  const pid = ((await sandbox.request({ cmd: "list" })).reply.terminals as Array<{ id: string; pid: number }>).find(
    (t) => t.id === id,
  )!.pid;
  await waitFor(() => sessionMembers(pid).length >= 2, 60_000, "sleep to run");
  await sandbox.ok(["send", id, "-k", "C-c"]);
  await sandbox.ok(["send", id, "echo after-interrupt", "-k", "Enter"]);
  await waitFor(async () => (await sandbox.ok(["text", id])).includes("\nafter-interrupt"), 60_000, "interrupt");
  const screen = await sandbox.ok(["text", id]);
  expect(screen).toContain("AA\tB".replace("\t", "     ").slice(0, 2)); // AA then a tab stop
  expect(screen).toContain("\nfrom-stdin");
  expect(screen).toContain("^C");
  const lastTwo = (await sandbox.ok(["text", id, "0:2"])).split("\n");
  expect(lastTwo).toHaveLength(2);
  await sandbox.ok(["kill", id]);
}, 150_000);

test("kill ends a HUP-ignoring program and a setsid-less background child", async () => {
  const { id, pid } = await createJson(["bash", "-c", "sleep 1001 & trap '' HUP; sleep 1000"]);
  // bash may exec the last sleep itself: two or three processes.
  await waitFor(() => sessionMembers(pid).length >= 2, 5000, "the sleeps");
  const members = sessionMembers(pid);
  await sandbox.ok(["kill", id]);
  await waitFor(() => members.every((member) => !isAlive(member)), 5000, "every process of the session to end");
  expect(sessionMembers(pid)).toEqual([]);
});

/** Children of `pid` in a session of their own (setsid), as /proc tells. */
function setsidChildren(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid && Number(fields[3]) !== pid && fields[0] !== "Z") found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

test("kill ends a daemon the program started in a session of its own, which its exit hands to init (cline's hub)", async () => {
  // `setsid` in a non-interactive shell's background job (no group leader) runs in that very child.
  const { id, pid } = await createJson(["bash", "-c", "setsid sleep 1003 & sleep 1000"]);
  await waitFor(() => setsidChildren(pid).length >= 1, 60_000, "the setsid sleep");
  const daemons = setsidChildren(pid);
  await sandbox.ok(["kill", id]);
  await waitFor(() => daemons.every((daemon) => !isAlive(daemon)), 10_000, "the setsid sleep to end");
});

test("kill ends background jobs an interactive shell moved into their own process groups", async () => {
  const { id, pid } = await createJson(["bash", "--norc", "-i"]);
  await sandbox.ok(["send", id, "sleep 1002 &\\n"]);
  await waitFor(() => sessionMembers(pid).length >= 2, 5000, "the background sleep");
  const members = sessionMembers(pid);
  await sandbox.ok(["kill", id]);
  await waitFor(() => members.every((member) => !isAlive(member)), 5000, "every process to end");
});

test("200 create/kill cycles leave the daemon's fd count where it started", async () => {
  const daemon = await sandbox.daemonPid();
  const connection = await DaemonConnection.open(sandbox.socket);
  const baseline = fdCount(daemon);
  for (let i = 0; i < 200; i++) {
    const { reply } = await connection.request({ cmd: "create", cmd_args: ["true"] });
    expect(reply.ok).toBe(true);
    await connection.request({ cmd: "kill", id: reply.id });
  }
  connection.close();
  // The baseline may still include the harness's just-closed info connection: a leak shows as more, never fewer.
  await waitFor(() => fdCount(daemon) <= baseline, 5000, `fd count back to ${baseline}`);
  expect(fdCount(daemon)).toBeLessThanOrEqual(baseline);
}, 120_000);

test("1 MiB of output all reaches the screen and scrollback before the exit event", async () => {
  const events = await DaemonConnection.open(sandbox.socket);
  expect((await events.request({ cmd: "events" })).reply.ok).toBe(true);
  // 8192 numbered lines of 128 bytes (127 + newline) = 1 MiB, then exit.
  const script = "for i in range(8192): print(str(i).rjust(6, '0') + 'x' * 121)";
  const { reply } = await sandbox.request({
    cmd: "create",
    cols: 200,
    rows: 24,
    scrollback: 20000,
    cmd_args: ["python3", "-c", script],
  });
  const id = reply.id as string;
  for (;;) {
    const event = await events.readLine();
    if (event?.event === "exit" && event.terminal === id) break;
  }
  events.close();
  const all = (await sandbox.request({ cmd: "text", id, region: "all" })).reply.lines as string[];
  const numbered = all.filter((line) => line.length === 127).map((line) => Number(line.slice(0, 6)));
  expect(numbered.length).toBe(8192);
  expect(numbered.every((n, i) => n === i)).toBe(true);
  await sandbox.ok(["kill", id]);
});

test("vim draws a full screen that text reads back", async () => {
  const id = await sandbox.ok([
    "create",
    "--cols",
    "80",
    "--rows",
    "24",
    "--",
    "vim",
    "-u",
    "NONE",
    "-N",
    "-n",
    "-i",
    "NONE",
  ]);
  await waitFor(async () => (await sandbox.screen(id)).includes("~"), 5000, "vim's tildes");
  await sandbox.ok(["send", id, "ihello from vim", "-k", "Escape"]);
  await waitFor(
    async () => (await sandbox.ok(["text", id, "23:24"])) === "hello from vim",
    5000,
    "typed text on row 0",
  );
  const lines = (await sandbox.ok(["text", id])).split("\n");
  expect(lines).toHaveLength(24);
  expect(lines.slice(1, 22).every((line) => line === "~")).toBe(true);
  await sandbox.ok(["send", id, ":q!\\r"]);
  await waitFor(
    async () =>
      ((await sandbox.request({ cmd: "list" })).reply.terminals as { id: string; alive: boolean }[]).find(
        (t) => t.id === id,
      )?.alive === false,
    5000,
    "vim to exit",
  );
  await sandbox.ok(["kill", id]);
});

test("less pages through a file and quits", async () => {
  const id = await sandbox.ok(["create", "--rows", "10", "--", "bash", "-c", "seq 1 100 | less"]);
  await waitFor(async () => (await sandbox.screen(id)).startsWith("1\n2\n"), 5000, "less's first page");
  await sandbox.ok(["send", id, "-k", "Space"]);
  await waitFor(async () => (await sandbox.screen(id)).startsWith("10\n"), 5000, "less's second page");
  await sandbox.ok(["send", id, "q"]);
  await sandbox.ok(["kill", id]);
});

test("wide characters read back as they were printed", async () => {
  const id = await sandbox.ok(["create", "--", "python3", "-c", "print('中文 😀 ok'); import time; time.sleep(30)"]);
  await waitFor(async () => (await sandbox.screen(id)).startsWith("中文 😀 ok"), 5000, "the wide text");
  await sandbox.ok(["kill", id]);
});

test("the README's first sequence as fast as a script runs it: a line sent before the shell is ready is typed at its prompt, and the Ctrl-C after it interrupts it", async () => {
  // An interactive bash whose startup files take a moment (shell integration on): create, send, C-c at once.
  const home = `${sandbox.dir}/slow-home`;
  mkdirSync(home, { recursive: true });
  writeFileSync(`${home}/.bashrc`, "sleep 0.5\nPS1='$ '\n");
  const id = await sandbox.ok(["create", "-e", `HOME=${home}`, "--", "bash"]);
  await sandbox.ok(["send", id, "echo typed-$((40+2)); sleep 100\\n"]);
  await sandbox.ok(["send", id, "-k", "C-c"]);
  await sandbox.ok(["send", id, "echo after-$((40+3))\\n"]);
  await waitFor(
    async () => (await sandbox.ok(["text", id])).includes("\nafter-43"),
    30_000,
    "the line after the interrupt",
  );
  const screen = await sandbox.ok(["text", id]);
  // The first line ran (its output is there) before the Ctrl-C stopped its sleep.
  expect(screen).toContain("\ntyped-42");
  await sandbox.ok(["kill", id]);
});

test("a line and a Ctrl-C in one send: the shell takes the line before the Ctrl-C reaches the terminal", async () => {
  // Written at once, the terminal would read the Ctrl-C while the shell still reads the line and
  // flush the line: nothing would run. tmux's `send-keys 'sleep 100' Enter C-c` is this one send.
  const id = await sandbox.ok(["create", "--", "bash"]);
  await sandbox.ok(["send", id, "echo typed-$((40+2)); sleep 100\\n", "-k", "C-c"]);
  await sandbox.ok(["send", id, "echo after-$((40+3))\\n"]);
  await waitFor(
    async () => (await sandbox.ok(["text", id])).includes("\nafter-43"),
    30_000,
    "the line after the interrupt",
  );
  expect(await sandbox.ok(["text", id])).toContain("\ntyped-42");
  await sandbox.ok(["kill", id]);
});
