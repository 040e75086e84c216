// Agent sessions end to end with fake agent CLIs (test/fixtures/fake-agent.py, first on PATH under
// each preset's name): argv exact per preset and spawn mode, a hostile prompt verbatim, the shell
// left behind, resume ids, agent_state from hooks and from screen patterns, typed prompts, and a
// sandboxed agent that can report its state and nothing more. The real CLIs: real-agents.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { deterministicUuid } from "../src/spawn/agents/launch.ts";
import { PRESETS } from "../src/spawn/agents/registry.ts";
import { Sandbox, waitFor } from "./harness.ts";

const FAKE = resolve(import.meta.dir, "fixtures/fake-agent.py");
const BIN = resolve(import.meta.dir, "../dist/t4a");
const HOSTILE = `it's "quoted" $(touch /tmp/t4a-pwned) \`touch /tmp/t4a-pwned2\`; echo injected\nsecond line\t\\ end`;

let sandbox: Sandbox;
let home: string;
let fakeBin: string;
let log: string;
let work: string;

beforeAll(() => {
  sandbox = new Sandbox();
  home = join(sandbox.dir, "home");
  fakeBin = join(sandbox.dir, "fake-bin");
  work = join(sandbox.dir, "work");
  log = join(sandbox.dir, "logs", "agents.jsonl");
  for (const dir of [home, fakeBin, work, join(sandbox.dir, "logs")]) mkdirSync(dir, { recursive: true });
  // Copies, not links: a sandboxed agent sees this directory (allowed), not the repo's fixtures.
  for (const preset of PRESETS) {
    copyFileSync(FAKE, join(fakeBin, preset.cli));
    chmodSync(join(fakeBin, preset.cli), 0o755);
  }
  // As a user's own startup files do: the login shell puts the agents' directory on PATH.
  writeFileSync(join(home, ".bash_profile"), `export PATH=${fakeBin}:$PATH\n`);
  writeFileSync(join(home, ".bashrc"), "PS1='$ '\n");
  writeFileSync(log, "");
});
afterAll(() => sandbox.cleanup());

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...sandbox.env,
    HOME: home,
    SHELL: "/bin/bash",
    PATH: `${fakeBin}:${process.env.PATH}`,
    XDG_CONFIG_HOME: join(home, ".config"),
    ...extra,
  };
}

async function t4a(args: string[], extraEnv: Record<string, string> = {}) {
  const child = Bun.spawn([BIN, ...args], { cwd: work, env: env(extraEnv), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

async function ok(args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
  const result = await t4a(args, extraEnv);
  if (result.code !== 0) throw new Error(`t4a ${args.join(" ")}: exit ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** Create an agent session; the fake records to the log (its variable passed with -e). */
async function agent(name: string, args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
  return ok(["create", "--name", name, "-e", `FAKE_AGENT_LOG=${log}`, ...args], extraEnv);
}

function records(): Array<Record<string, unknown>> {
  const text = readFileSync(log, "utf8");
  // Only whole lines: a fake may be halfway through writing one (a long line takes several writes).
  return text
    .slice(0, text.lastIndexOf("\n") + 1)
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** The argv the fake `name` was last started with, after `after` records were written. */
async function argvOf(cli: string, after: number): Promise<string[]> {
  return waitFor(
    () =>
      records()
        .slice(after)
        .find((record) => record.name === cli && record.argv)?.argv as string[] | undefined,
    15_000,
    `${cli} to start`,
  );
}

test("argv per preset and mode, in seed 003's order; the hostile prompt arrives byte for byte", async () => {
  const expectations: Record<string, (id: string) => string[]> = {
    claude: (id) => [
      "--session-id",
      deterministicUuid(id),
      "--settings",
      expect.any(String) as unknown as string,
      "--dangerously-skip-permissions",
      HOSTILE,
      "--verbose",
    ],
    codex: () => ["--no-daemon", "--dangerously-bypass-approvals-and-sandbox", HOSTILE, "--verbose"],
    gemini: (id) => ["--session-id", deterministicUuid(id), "--yolo", "--prompt-interactive", HOSTILE, "--verbose"],
    qwen: (id) => ["--session-id", deterministicUuid(id), "--yolo", "--prompt-interactive", HOSTILE, "--verbose"],
    opencode: () => ["--auto", "--prompt", HOSTILE, "--verbose"],
  };
  for (const mode of ["login", "direct"]) {
    for (const [cli, expected] of Object.entries(expectations)) {
      const id = `p-${cli}${mode === "direct" ? "-d" : ""}`;
      const before = records().length;
      await agent(id, [
        "--agent",
        cli,
        "--prompt",
        HOSTILE,
        "--yolo",
        ...(mode === "direct" ? ["--direct"] : []),
        "--",
        "--verbose",
      ]);
      const argv = await argvOf(cli, before);
      expect({ cli, mode, argv }).toEqual({ cli, mode, argv: expected(id) });
      await ok(["kill", id]);
    }
  }
  expect(await Bun.file("/tmp/t4a-pwned").exists()).toBe(false);
  expect(await Bun.file("/tmp/t4a-pwned2").exists()).toBe(false);
}, 120_000);

test("ssh mode: ssh -tt TARGET 'cd DIR && <cli args>', quoted so the remote shell gives the prompt back verbatim", async () => {
  // A fake ssh: records its argv, then runs the remote command with a shell, as sshd would.
  const sshBin = join(sandbox.dir, "ssh-bin");
  mkdirSync(sshBin, { recursive: true });
  writeFileSync(
    join(sshBin, "ssh"),
    `#!/bin/sh\necho "$@" > ${join(sandbox.dir, "ssh-argv")}\nfor last; do :; done\nexec /bin/sh -c "$last"\n`,
    { mode: 0o755 },
  );
  const before = records().length;
  await ok(
    [
      "create",
      "--name",
      "remote",
      "-e",
      `FAKE_AGENT_LOG=${log}`,
      "--agent",
      "claude",
      "--ssh",
      "devbox",
      "--ssh-arg=-p",
      "--ssh-arg",
      "2222",
      "--prompt",
      HOSTILE,
    ],
    {
      PATH: `${sshBin}:${fakeBin}:${process.env.PATH}`,
    },
  );
  const argv = await argvOf("claude", before);
  expect(argv.at(-1)).toBe(HOSTILE);
  expect(argv.slice(0, 2)).toEqual(["--session-id", deterministicUuid("remote")]);
  const ssh = readFileSync(join(sandbox.dir, "ssh-argv"), "utf8");
  expect(ssh).toStartWith(`-tt -p 2222 devbox cd ${work} && claude --session-id`);
  await ok(["kill", "remote"]);
});

test("login mode leaves a login shell when the agent exits; direct mode a shell in the same terminal, screen kept", async () => {
  for (const mode of [[], ["--direct"]]) {
    const id = `shell-after${mode.length ? "-d" : ""}`;
    await agent(id, ["--agent", "gemini", ...mode]);
    await waitFor(async () => (await ok(["text", id])).includes("gemini (fake) ready"), 10_000, "the agent");
    await ok(["send", id, "exit\\r"]);
    expect(await ok(["wait", id, "--agent", "exited", "--timeout", "10s"])).toBe("exited\texit code 0");
    await waitFor(async () => /[$#] ?$/.test(await ok(["text", id, "--tail", "1"])), 10_000, "the shell's prompt");
    await ok(["send", id, "echo still-here-$((40+2))\\r"]);
    await waitFor(async () => (await ok(["text", id])).includes("still-here-42"), 10_000, "the shell to answer");
    const screen = await ok(["text", id]);
    expect(screen).toContain("gemini (fake) ready"); // the agent's screen is still there above
    const listed = JSON.parse(await ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === id);
    expect(listed).toMatchObject({
      alive: true,
      agent: "gemini",
      agent_state: "exited",
      spawn_mode: mode.length ? "direct" : "login",
    });
    await ok(["kill", id]);
  }
});

// What it saves in time (a login profile's nvm/pyenv, ~0.3 s each start) was measured here once
// (login 420 ms, empty profile 111 ms, direct 102 ms); a timing bound has no place in a test.
test("direct mode starts the agent without running the login profile; login mode runs it first", async () => {
  const marker = join(home, "profile-ran");
  writeFileSync(join(home, ".bash_profile"), `export PATH=${fakeBin}:$PATH\necho ran >> ${marker}\n`);
  const path = { PATH: `${fakeBin}:/usr/local/bin:/usr/bin:/bin` };
  for (const mode of ["login", "direct"] as const) {
    rmSync(marker, { force: true });
    const id = `profile-${mode}`;
    const before = records().length;
    await agent(id, ["--agent", "qwen", ...(mode === "direct" ? ["--direct"] : [])], path);
    await argvOf("qwen", before);
    // The fake CLI has started and is waiting: only a login shell ran the profile before it.
    expect(existsSync(marker)).toBe(mode === "login");
    await ok(["kill", id]);
  }
  writeFileSync(join(home, ".bash_profile"), `export PATH=${fakeBin}:$PATH\n`);
});

test("resume: claude gets --resume <same uuid> when its conversation file exists for this cwd, else a fresh --session-id", async () => {
  const uuid = deterministicUuid("fix-7");
  let before = records().length;
  await agent("fix-7", ["--agent", "claude", "--resume"]);
  expect((await argvOf("claude", before)).slice(0, 2)).toEqual(["--session-id", uuid]); // nothing to resume yet
  await ok(["kill", "fix-7"]);
  const project = join(home, ".claude", "projects", work.replace(/[^a-zA-Z0-9]/g, "-"));
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, `${uuid}.jsonl`), `${JSON.stringify({ type: "user", cwd: work, sessionId: uuid })}\n`);
  before = records().length;
  const created = JSON.parse(
    await ok(["create", "--json", "--name", "fix-7", "-e", `FAKE_AGENT_LOG=${log}`, "--agent", "claude", "--resume"]),
  );
  expect(created).toMatchObject({ conversation_id: uuid, resumed: true });
  expect((await argvOf("claude", before)).slice(0, 2)).toEqual(["--resume", uuid]);
  await ok(["kill", "fix-7"]);
  // codex has no id of ours: resume takes its latest conversation here.
  before = records().length;
  await agent("cx", ["--agent", "codex", "--resume"]);
  expect((await argvOf("codex", before)).slice(0, 2)).toEqual(["resume", "--last"]);
  await ok(["kill", "cx"]);
});

test("agent_state from claude's hooks: working, waiting with the question, idle; wait --agent instead of sleeping", async () => {
  const events = await sandbox.connect();
  expect((await events.request({ cmd: "events" })).reply.ok).toBe(true);
  await agent("hooked", ["--agent", "claude", "--prompt", "first task"]);
  expect(await ok(["wait", "hooked", "--agent", "idle", "--timeout", "15s"])).toBe("idle\tdone: first task");
  await ok(["send", "hooked", "please approve this\\r"]);
  expect(await ok(["wait", "hooked", "--agent", "waiting", "--timeout", "15s"])).toBe(
    "waiting\tDo you want to proceed? (y/n)",
  );
  expect(
    JSON.parse(await ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === "hooked"),
  ).toMatchObject({ agent_state: "waiting" });
  await ok(["send", "hooked", "y"]);
  expect(await ok(["wait", "hooked", "--agent", "idle", "--timeout", "15s"])).toBe("idle\tdone: please approve this");
  const states: string[] = [];
  for (let line = await events.readLine(); line; line = await events.readLine()) {
    if (line.event === "agent_state" && line.terminal === "hooked") states.push(line.state as string);
    if (states.length >= 6) break;
  }
  // The answer is work again (PostToolUse) before the turn ends (Stop).
  expect(states).toEqual(["working", "idle", "working", "waiting", "working", "idle"]);
  events.close();
  await ok(["kill", "hooked"]);
});

test("list shows each agent's state and its question; list --needs keeps who needs a person, a waiting agent first", async () => {
  await agent("asks", ["--agent", "claude", "--prompt", "first task"]);
  await ok(["wait", "asks", "--agent", "idle", "--timeout", "15s"]);
  await ok(["send", "asks", "please approve this\\r"]);
  await ok(["wait", "asks", "--agent", "waiting", "--timeout", "15s"]);
  const reader = await ok(["create", "--name", "reader", "--", "python3", "-c", "input('name? ')"]);
  const failed = await ok(["create", "--name", "failed", "--", "sh", "-c", "exit 3"]);
  const busy = await ok(["create", "--name", "busy", "--", "sleep", "100"]);
  await ok(["wait", reader, "--input", "--timeout", "15s"]);
  await waitFor(async () => /^failed\t.*exited\(3\)/m.test(await ok(["list"])), 15_000, "the failed exit");
  const lines = (await ok(["list"])).split("\n");
  expect(lines.find((line) => line.startsWith("asks\t"))).toMatch(
    /\tclaude waiting \d+s "Do you want to proceed\? \(y\/n\)"$/,
  );
  expect(lines.find((line) => line.startsWith("reader\t"))).toMatch(/\treading input \(python3\)$/);
  const needs = (await ok(["list", "--needs"])).split("\n").map((line) => line.split("\t")[0]);
  expect(needs).toEqual(["asks", "reader", "failed"]);
  expect(needs).not.toContain(busy);
  for (const id of ["asks", reader, failed, busy]) await ok(["kill", id]);
});

test("wait --any: the one call an orchestrator loop needs: blocks until any terminal needs a person, says which and why; --any --agent idle for any agent's turn", async () => {
  const quiet = await ok(["create", "--name", "quiet", "--", "sleep", "100"]);
  // Nothing needs anyone yet: it waits (and times out, exit 1).
  const none = await t4a(["wait", "--any", "--timeout", "300ms"]);
  expect(none.code).toBe(1);
  expect(none.stderr).toContain("no terminal needed a person within 300 ms");
  await agent("any1", ["--agent", "claude", "--prompt", "first task"]);
  await ok(["wait", "--any", "--agent", "idle", "--timeout", "15s"]).then((line) =>
    expect(line).toStartWith("any1\tidle\t"),
  );
  // A waiting agent is found by the wait already under way.
  const waiting = t4a(["wait", "--any", "--timeout", "20s"]);
  await ok(["send", "any1", "please approve this\\r"]);
  const found = await waiting;
  expect(found.code).toBe(0);
  expect(found.stdout).toBe("any1\twaiting\tDo you want to proceed? (y/n)");
  expect(JSON.parse(await ok(["wait", "--any", "--json"]))).toMatchObject({
    condition: "needs",
    terminal: "any1",
    why: "waiting",
  });
  await ok(["approve", "any1"]);
  // Then a program reading its terminal, which is not an agent.
  const reader = await ok(["create", "--name", "asks-name", "--", "python3", "-c", "input('name? ')"]);
  expect(await ok(["wait", "--any", "--timeout", "20s"])).toBe(`${reader}\tinput\tpython3`);
  // Usage errors name the flags.
  const bare = await t4a(["wait", quiet]);
  expect({ code: bare.code, stderr: bare.stderr }).toEqual({
    code: 2,
    stderr: "t4a: wait needs one of --idle --text --regex --gone --done --exit --input --agent (or --any)",
  });
  for (const id of [quiet, "any1", reader]) await ok(["kill", id]);
});

test("restart: an ended session comes back as it was made, under its id; an agent resumes its conversation", async () => {
  // A plain program that failed: the same command again, in the same place, under the same id. Its
  // second run waits for the test's word (a file) to end, so it still runs when listed however slow.
  const rerun = "echo ran-in-$PWD; if [ -e .again-ran ]; then while [ ! -e .again-go ]; do sleep 0.1; done; fi";
  await ok(["create", "--name", "again", "--", "sh", "-c", `${rerun}; touch .again-ran; exit 3`]);
  const first = JSON.parse(await ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === "again");
  await waitFor(async () => /^again\t.*exited\(3\)/m.test(await ok(["list"])), 15_000, "the first run to end");
  expect(await ok(["restart", "again"])).toBe("again");
  const second = JSON.parse(await ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === "again");
  expect(second).toMatchObject({ alive: true, cwd: first.cwd, cmd_args: first.cmd_args });
  expect(second.pid).not.toBe(first.pid);
  // A running one is not restarted.
  const refused = await t4a(["restart", "again"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("still runs");
  writeFileSync(join(first.cwd, ".again-go"), "");
  await waitFor(async () => /^again\t.*exited\(3\)/m.test(await ok(["list"])), 15_000, "the second run to end");
  await ok(["kill", "again"]);
  // An agent whose terminal ended (its CLI, then the shell left behind) comes back resuming its
  // conversation: codex resumes its latest one here.
  await agent("comeback", ["--agent", "codex", "--direct", "--", "--no-such-flag"]);
  await waitFor(
    async () =>
      JSON.parse(await ok(["list", "--json"])).terminals.find(
        (t: { id: string; agent_state?: string }) => t.id === "comeback",
      )?.agent_state === "exited",
    20_000,
    "the agent's CLI to end",
  );
  await ok(["send", "comeback", "exit\\r"]);
  await waitFor(
    async () =>
      JSON.parse(await ok(["list", "--json"])).terminals.find(
        (t: { id: string; alive: boolean }) => t.id === "comeback",
      )?.alive === false,
    20_000,
    "the terminal to end",
  );
  const before = records().length;
  expect(await ok(["restart", "comeback"])).toBe("comeback");
  expect((await argvOf("codex", before)).slice(0, 2)).toEqual(["resume", "--last"]);
  expect(
    JSON.parse(await ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === "comeback"),
  ).toMatchObject({ alive: true, resumed: true });
  await ok(["kill", "comeback"]);
}, 90_000);

test("agent_state from screen patterns when the CLI has no hooks (gemini), and typed prompts for a TUI that takes none", async () => {
  await agent("patterned", ["--agent", "gemini", "--idle", "400"]);
  await ok(["wait", "patterned", "--agent", "idle", "--timeout", "15s"]);
  await ok(["send", "patterned", "approve the change\\r"]);
  expect(await ok(["wait", "patterned", "--agent", "waiting", "--timeout", "15s"])).toBe(
    "waiting\tDo you want to proceed? (y/n)",
  );
  await ok(["send", "patterned", "y"]);
  // The line is the agent's last words, not its input box.
  expect(await ok(["wait", "patterned", "--agent", "idle", "--timeout", "15s"])).toBe("idle\tdone: approve the change");
  await ok(["kill", "patterned"]);

  // An agent of the user's own (agents.json) whose prompt is typed once its input is ready.
  mkdirSync(join(home, ".config", "t4a"), { recursive: true });
  writeFileSync(
    join(home, ".config", "t4a", "agents.json"),
    JSON.stringify({
      typer: { cli: join(fakeBin, "opencode"), prompt: { via: "type" }, readyPatterns: ["commands >$"] },
    }),
  );
  const before = records().length;
  await agent("typed", ["--agent", "typer", "--idle", "300", "--prompt", HOSTILE]);
  const typed = await waitFor(
    () =>
      records()
        .slice(before)
        .find((record) => record.typed !== undefined)?.typed,
    15_000,
    "the typed prompt",
  );
  expect(typed).toBe(HOSTILE);
  await ok(["kill", "typed"]);
});

test("a missing CLI: spawn_failed naming it; wait --agent on a plain terminal: unsupported", async () => {
  const missing = await t4a(["create", "--agent", "codex"], {
    PATH: "/usr/bin:/bin",
    HOME: join(sandbox.dir, "nohome"),
  });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toStartWith("t4a: codex not found on PATH");
  const direct = await t4a(["create", "--agent", "codex", "--direct"], { PATH: "/usr/bin:/bin" });
  expect(direct.stderr).toStartWith(
    "t4a: codex not found on PATH; PATH was /usr/bin:/bin. Install codex, or add its directory to PATH in the daemon's environment",
  );
  const plain = await ok(["create", "--", "sleep", "100"]);
  expect((await t4a(["wait", plain, "--agent", "idle"])).stderr).toContain("runs no agent");
  await ok(["kill", plain]);
  const unknown = await t4a(["create", "--agent", "nope"]);
  expect(unknown.stderr).toContain('unknown agent "nope"');
});

// Each of the fifteen presets' CLIs (here the fake, a python script) is asked its --version, two at a
// time, each given 15 s (VERSION_TIMEOUT_MS): a loaded machine needs far more than bun's 60 s default.
test("t4a agents lists every preset, installed or missing, with path and version", async () => {
  const listed = (await ok(["agents"])).split("\n").map((line) => line.split("\t"));
  expect(listed.map((row) => row[0])).toEqual(
    expect.arrayContaining(["claude", "codex", "gemini", "qwen", "opencode"]),
  );
  for (const row of listed.filter((row) => ["claude", "codex", "gemini", "qwen", "opencode"].includes(row[0]!)))
    expect(row.slice(1, 3)).toEqual(["installed", join(fakeBin, row[0]!)]);
  const bare = (await ok(["agents"], { PATH: "/usr/bin:/bin" })).split("\n");
  expect(bare).toContain("claude\tmissing\tclaude");
}, 180_000);

test("agents --check: a CLI whose --help is killed (at its limit, or by any signal) has its flags unchecked, none said missing, exit 1", async () => {
  const bin = join(sandbox.dir, "killed-help");
  mkdirSync(bin, { recursive: true });
  // claude's --version answers; its --help ends by a signal before a word of help (a loaded machine's 60 s limit).
  writeFileSync(join(bin, "claude"), '#!/bin/sh\n[ "$1" = --version ] && echo 2.1.0 && exit 0\nkill -TERM $$\n');
  chmodSync(join(bin, "claude"), 0o755);
  const checked = await t4a(["agents", "--check"], { PATH: `${bin}:/usr/bin:/bin` });
  expect(checked.stdout.split("\n")).toContain(
    `claude\tinstalled\t${join(bin, "claude")}\t2.1.0\tflags unchecked: --help ended by SIGTERM (its limit is 60 s)`,
  );
  expect(checked.code).toBe(1);
  const json = await t4a(["agents", "--check", "--json"], { PATH: `${bin}:/usr/bin:/bin` });
  expect(json.code).toBe(1);
  expect(JSON.parse(json.stdout).agents.find((agent: { name: string }) => agent.name === "claude")).toMatchObject({
    unchecked: "--help ended by SIGTERM (its limit is 60 s)",
  });
  expect(JSON.parse(json.stdout).agents.find((agent: { name: string }) => agent.name === "claude").missing_flags).toBe(
    undefined,
  );
});

test.if(Bun.which("bwrap") !== null)(
  "a sandboxed agent has the network, reports its state through its own channel, and cannot reach t4a",
  async () => {
    const created = JSON.parse(
      await ok([
        "create",
        "--json",
        "--name",
        "boxed",
        "-e",
        `FAKE_AGENT_LOG=${log}`,
        "--agent",
        "claude",
        "--sandbox",
        "--sandbox-allow",
        join(sandbox.dir, "logs"),
        // Under /tmp here, so behind the sandbox's private /tmp unless shown: the fake CLIs (the home is shown read-only).
        "--sandbox-allow",
        fakeBin,
        "--cwd",
        work,
        "--prompt",
        "boxed task",
      ]),
    );
    expect(created).toMatchObject({ sandbox: "bwrap, network to api.anthropic.com, statsig.anthropic.com" });
    expect(await ok(["wait", "boxed", "--agent", "idle", "--timeout", "15s"])).toBe("idle\tdone: boxed task");
    const record = records().findLast((r) => r.name === "claude" && r.env)!;
    const agentEnv = record.env as Record<string, string>;
    expect(agentEnv.T4A_NOTIFY).toBe("/tmp/.t4a-notify");
    expect(agentEnv.T4A_SOCKET).toBeUndefined();
    // The channel takes states for this session and nothing else: a create written into it does nothing.
    await ok(["send", "boxed", "exit\\r"]);
    await ok(["wait", "boxed", "--agent", "exited", "--timeout", "10s"]);
    await waitFor(
      async () => /[$#] ?$/.test(await ok(["text", "boxed", "--tail", "1"])),
      10_000,
      "the shell after the agent",
    );
    await ok(["send", "boxed", `printf '{"cmd":"create"}\\n' > $T4A_NOTIFY; echo wrote:$?\\r`]);
    await waitFor(async () => (await ok(["text", "boxed"])).includes("wrote:0"), 10_000, "the write into the channel");
    // And no unix socket at all can be made inside (the seccomp filter).
    await ok(["send", "boxed", `python3 -c "import socket; socket.socket(socket.AF_UNIX)" 2>&1 | tail -1\\r`]);
    await waitFor(async () => (await ok(["text", "boxed"])).includes("PermissionError"), 10_000, "the refused socket");
    const terminals = JSON.parse(await ok(["list", "--json"])).terminals as Array<{ id: string; agent_state?: string }>;
    expect(terminals.map((t) => [t.id, t.agent_state])).toEqual([["boxed", "exited"]]);
    await ok(["kill", "boxed"]);
  },
);

// The orchestrator contract: what ask, approve, deny, send and wait --agent promise a script.

/** Adds agents of the user's own to agents.json, keeping those already there. */
function userAgents(agents: Record<string, unknown>): void {
  const path = join(home, ".config", "t4a", "agents.json");
  mkdirSync(join(home, ".config", "t4a"), { recursive: true });
  const kept = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : {};
  writeFileSync(path, JSON.stringify({ ...kept, ...agents }));
}

test("an exited agent takes no ask, approve or deny: the shell its wrapper left never runs the words", async () => {
  const marker = join(sandbox.dir, "pwned-exited");
  await agent("gone-cli", ["--agent", "claude", "--direct", "--", "--no-such-flag"]);
  expect(await ok(["wait", "gone-cli", "--agent", "exited", "--timeout", "10s"])).toBe("exited\texit code 1");
  await waitFor(
    async () => /[$#] ?$/.test(await ok(["text", "gone-cli", "--tail", "1"])),
    10_000,
    "the shell after the agent",
  );
  const asked = await t4a(["ask", "gone-cli", "--timeout", "30s", `echo PWNED > ${marker}`]);
  expect({ code: asked.code, stderr: asked.stderr }).toEqual({
    code: 1,
    stderr: expect.stringContaining('agent "gone-cli" has exited'),
  });
  for (const answer of ["approve", "deny"]) {
    const answered = await t4a([answer, "gone-cli"]);
    expect({ answer, code: answered.code, stderr: answered.stderr }).toEqual({
      answer,
      code: 1,
      stderr: expect.stringContaining("has exited"),
    });
  }
  await Bun.sleep(700);
  expect(existsSync(marker)).toBe(false);
  expect(await ok(["text", "gone-cli"])).not.toContain("PWNED");
  expect(
    JSON.parse(await ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === "gone-cli"),
  ).toMatchObject({ agent_state: "exited" });
  await ok(["kill", "gone-cli"]);
});

test("an agent whose exit report was lost is seen gone by its process: ask answers exited, nothing reaches the shell", async () => {
  // No ready patterns: ready is "something reads the terminal", which the wrapper's shell does.
  userAgents({ bare: { cli: join(fakeBin, "claude") } });
  const marker = join(sandbox.dir, "pwned-lost");
  await agent("lost-cli", ["--agent", "bare", "--direct", "--", "--no-such-flag-quiet"]);
  await waitFor(
    async () => /[$#] ?$/.test(await ok(["text", "lost-cli", "--tail", "1"])),
    10_000,
    "the shell after the agent",
  );
  const asked = await t4a(["ask", "lost-cli", "--timeout", "30s", `echo PWNED > ${marker}`]);
  expect({ code: asked.code, stderr: asked.stderr }).toEqual({
    code: 1,
    stderr: expect.stringContaining('agent "lost-cli" has exited'),
  });
  await Bun.sleep(700);
  expect(existsSync(marker)).toBe(false);
  expect(await ok(["wait", "lost-cli", "--agent", "exited", "--timeout", "30s"])).toStartWith("exited\t");
  await ok(["kill", "lost-cli"]);
});

test("concurrent asks take turns: two asks 0.2 s apart are two prompts, two answers; --no-wait answers busy at once", async () => {
  await agent("turns", ["--agent", "codex", "--idle", "300"]);
  await ok(["wait", "turns", "--agent", "idle", "--timeout", "15s"]);
  const before = records().length;
  const first = t4a(["ask", "turns", "--json", "--timeout", "20s", "first question"]);
  await Bun.sleep(200);
  const busy = await t4a(["ask", "turns", "--json", "--no-wait", "third question"]);
  expect(JSON.parse(busy.stdout)).toMatchObject({ ok: false, code: "busy" });
  const second = t4a(["ask", "turns", "--json", "--timeout", "20s", "second question"]);
  // Queued within its own timeout: it runs out behind the others, and nothing of it is typed.
  const late = await t4a(["ask", "turns", "--json", "--timeout", "1s", "never typed"]);
  expect(JSON.parse(late.stdout)).toMatchObject({ ok: false, code: "timeout" });
  const [a, b] = await Promise.all([first, second]);
  expect(a.code).toBe(0);
  expect(b.code).toBe(0);
  const [answerA, answerB] = [JSON.parse(a.stdout), JSON.parse(b.stdout)];
  expect([answerA.ended, answerB.ended]).toEqual(["idle", "idle"]);
  expect(answerA.answer).toContain("done: first question");
  expect(answerA.answer).not.toContain("second");
  expect(answerB.answer).toContain("done: second question");
  expect(answerB.answer).not.toContain("first");
  const typed = records()
    .slice(before)
    .flatMap((record) => (record.typed === undefined ? [] : [record.typed]));
  expect(typed).toEqual(["first question", "second question"]);
  await ok(["kill", "turns"]);
});

test("an answer is bound to its question: a second approve is not_waiting, no stray key reaches the next prompt; question_id names the question", async () => {
  await agent("answers", ["--agent", "codex", "--idle", "300"]);
  await ok(["wait", "answers", "--agent", "idle", "--timeout", "15s"]);
  await ok(["send", "answers", "please approve this\\r"]);
  const waiting = JSON.parse(await ok(["wait", "answers", "--json", "--agent", "waiting", "--timeout", "15s"]));
  // (Read before toMatchObject: bun 1.4.5's puts its matchers into the object it checks.)
  const questionId = waiting.question_id;
  expect(typeof questionId).toBe("number");
  expect(waiting).toMatchObject({ state: "waiting", line: "Do you want to proceed? (y/n)" });
  const listed = JSON.parse(await ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === "answers");
  expect(listed.agent_question_id).toBe(questionId);
  // An answer naming another question does nothing.
  const stale = await t4a(["approve", "answers", "--question", String(questionId + 1), "--json"]);
  expect(JSON.parse(stale.stdout)).toMatchObject({ ok: false, code: "not_waiting" });
  const first = JSON.parse(await ok(["approve", "answers", "--question", String(questionId), "--json"]));
  expect(first).toMatchObject({ question: "Do you want to proceed? (y/n)", question_id: questionId, keys: ["y"] });
  // Refused whenever it comes: while the question is still drawn ("answered already"), once the
  // agent took the answer and is working, or once its turn is over and it is idle (how soon each
  // comes depends on the machine's speed: on a loaded one the whole turn ended first).
  const again = await t4a(["approve", "answers"]);
  expect({ code: again.code, stderr: again.stderr }).toEqual({
    code: 1,
    stderr: expect.stringMatching(/was answered already|is (working|idle): it waits on no question/),
  });
  expect(await ok(["wait", "answers", "--agent", "idle", "--timeout", "15s"])).toStartWith("idle\t");
  expect(await ok(["text", "answers"])).toContain("done: please approve this");
  const before = records().length;
  await ok(["send", "answers", "next one\\r"]);
  const typed = await waitFor(
    () =>
      records()
        .slice(before)
        .find((record) => record.typed !== undefined)?.typed,
    15_000,
    "the next prompt",
  );
  expect(typed).toBe("next one");
  await ok(["kill", "answers"]);
});

test("after deny the state leaves waiting as soon as the question is gone (no hook says so), and a later approve is not_waiting", async () => {
  await agent("denied", ["--agent", "claude"]);
  await ok(["wait", "denied", "--agent", "idle", "--timeout", "15s"]);
  await ok(["send", "denied", "please approve this\\r"]);
  await ok(["wait", "denied", "--agent", "waiting", "--timeout", "15s"]);
  expect(await ok(["deny", "denied"])).toBe("Do you want to proceed? (y/n)");
  await Bun.sleep(700);
  const late = await t4a(["approve", "denied", "--json"]);
  expect(JSON.parse(late.stdout)).toMatchObject({ ok: false, code: "not_waiting" });
  // The fake draws its input box again at once: idle follows (after half a second of stillness,
  // not the 3 s a hooked CLI's screen waits; a figure for the bench, not a bound for a test).
  await ok(["wait", "denied", "--agent", "idle", "--timeout", "30s"]);
  await ok(["kill", "denied"]);
});

test("wait --agent after send waits for the turn that input began, not the last one; --agent takes several states", async () => {
  await agent("fresh", ["--agent", "claude", "--prompt", "first task"]);
  expect(await ok(["wait", "fresh", "--agent", "idle", "--timeout", "15s"])).toBe("idle\tdone: first task");
  await ok(["send", "fresh", "second task", "-k", "Enter"]);
  expect(await ok(["wait", "fresh", "--agent", "idle", "--timeout", "15s"])).toBe("idle\tdone: second task");
  await ok(["send", "fresh", "please approve this", "-k", "Enter"]);
  expect(await ok(["wait", "fresh", "--agent", "waiting,idle", "--timeout", "15s"])).toBe(
    "waiting\tDo you want to proceed? (y/n)",
  );
  await ok(["send", "fresh", "y"]);
  expect(await ok(["wait", "fresh", "--agent", "waiting,idle", "--timeout", "15s"])).toBe(
    "idle\tdone: please approve this",
  );
  await ok(["kill", "fresh"]);
});

test("ask --json exits as plain ask does: 4 when the turn ended on a question, 1 on a timeout", async () => {
  await agent("json-exit", ["--agent", "codex", "--idle", "300"]);
  await ok(["wait", "json-exit", "--agent", "idle", "--timeout", "15s"]);
  const asked = await t4a(["ask", "json-exit", "--json", "--timeout", "15s", "please approve this"]);
  expect({ code: asked.code, ended: JSON.parse(asked.stdout).ended }).toEqual({ code: 4, ended: "waiting" });
  await ok(["approve", "json-exit"]);
  await ok(["wait", "json-exit", "--agent", "idle", "--timeout", "15s"]);
  const slow = await t4a(["ask", "json-exit", "--json", "--timeout", "100ms", "a quick one"]);
  expect({ code: slow.code, ended: JSON.parse(slow.stdout).ended }).toEqual({ code: 1, ended: "timeout" });
  await ok(["kill", "json-exit"]);
});

test("ask right after create waits for the agent to start, in login and direct mode (its CLI found, not refused)", async () => {
  for (const mode of [[], ["--direct"]]) {
    const id = `early${mode.length ? "-d" : ""}`;
    await agent(id, ["--agent", "codex", "--idle", "300", ...mode]);
    const asked = await t4a(["ask", id, "--timeout", "20s", "early question"]);
    expect({ mode, code: asked.code, stdout: asked.stdout, stderr: asked.stderr }).toEqual({
      mode,
      code: 0,
      stdout: expect.stringContaining("done: early question"),
      stderr: "",
    });
    await ok(["kill", id]);
  }
});
