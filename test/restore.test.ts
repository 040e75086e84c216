// Sessions that outlive their daemon: a persisted agent and shell, the daemon SIGKILLed, and the
// next call brings both back with the same ids — the agent resuming the same conversation, the
// shell in its last directory — with nothing left running from before.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { deterministicUuid } from "../src/spawn/agents/launch.ts";
import { BIN, Sandbox, isAlive, waitFor } from "./harness.ts";

let sandbox: Sandbox;
let env: Record<string, string>;
let log: string;

beforeAll(() => {
  sandbox = new Sandbox();
  const fakeBin = join(sandbox.dir, "fake-bin");
  const home = join(sandbox.dir, "home");
  for (const dir of [fakeBin, home, join(sandbox.dir, "work", "deeper")]) mkdirSync(dir, { recursive: true });
  symlinkSync(resolve(import.meta.dir, "fixtures/fake-agent.py"), join(fakeBin, "qwen"));
  writeFileSync(join(home, ".bash_profile"), `export PATH=${fakeBin}:$PATH\n`);
  log = join(sandbox.dir, "agents.jsonl");
  writeFileSync(log, "");
  // The daemon's own environment carries the log's name: restored sessions read values from it.
  env = {
    ...sandbox.env,
    HOME: home,
    SHELL: "/bin/bash",
    XDG_STATE_HOME: join(sandbox.dir, "state"),
    PATH: `${fakeBin}:${process.env.PATH}`,
    FAKE_AGENT_LOG: log,
  };
});
afterAll(() => sandbox.cleanup());

async function t4a(args: string[]) {
  const child = Bun.spawn([BIN, ...args], { cwd: join(sandbox.dir, "work"), env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`t4a ${args.join(" ")}: ${code} ${stderr}\n--- the daemon's log:\n${daemonLog()}`);
  return stdout.trim();
}

function daemonLog(): string {
  try {
    return readFileSync(join(sandbox.dir, "run", "t4a.log"), "utf8");
  } catch {
    return "(none)";
  }
}

const agentArgv = () =>
  wholeLines(readFileSync(log, "utf8"))
    .map((line) => JSON.parse(line))
    .filter((record) => record.argv)
    .map((record) => record.argv as string[]);

test("kill -9 the daemon: the next call brings back the agent (same conversation) and the shell (last directory)", async () => {
  await t4a(["create", "--name", "helper", "-e", `FAKE_AGENT_LOG=${log}`, "--agent", "qwen", "--prompt", "first"]);
  await t4a(["create", "--name", "shell", "--persist", "--", "bash", "--norc", "--noprofile"]);
  await t4a(["create", "--name", "scratch", "--", "sleep", "1000"]); // not persisted
  await waitFor(() => agentArgv().length === 1, 10_000, "the agent to start");
  expect(agentArgv()[0]!.slice(0, 2)).toEqual(["--session-id", deterministicUuid("helper")]);
  await t4a(["run", "shell", "--", `cd ${join(sandbox.dir, "work", "deeper")}`]);
  const manifest = readdirSync(join(sandbox.dir, "state", "t4a")).find((name) =>
    /^sessions-[0-9a-f]+\.json$/.test(name),
  )!;
  const manifestFile = join(sandbox.dir, "state", "t4a", manifest);
  expect(statSync(manifestFile).mode & 0o777).toBe(0o600);
  await waitFor(
    () => readFileSync(manifestFile, "utf8").includes(join(sandbox.dir, "work", "deeper")),
    5000,
    "the shell's directory in the manifest",
  );
  // Names only in the manifest: values (the log's path, given with -e) are kept apart in its .env.json.
  expect(readFileSync(manifestFile, "utf8")).not.toContain(log);
  expect(readFileSync(manifestFile, "utf8")).toContain("FAKE_AGENT_LOG");

  const before = JSON.parse(await t4a(["list", "--json"])).terminals as Array<{ id: string; pid: number }>;
  const daemon = Number(JSON.parse(await t4a(["info", "--json"])).pid);
  process.kill(daemon, "SIGKILL");
  await waitFor(() => !isAlive(daemon), 30_000, "the daemon to die");

  // A read-only call: with sessions waiting to come back, it starts the daemon that brings them.
  const listed = JSON.parse(await t4a(["list", "--json"])).terminals as Array<Record<string, unknown>>;
  expect(listed.map((t) => t.id).sort()).toEqual(["helper", "shell"]);
  expect(listed.find((t) => t.id === "helper")).toMatchObject({
    restored: true,
    agent: "qwen",
    conversation_id: deterministicUuid("helper"),
  });
  await waitFor(() => agentArgv().length === 2, 10_000, "the agent to come back");
  expect(agentArgv()[1]!.slice(0, 2)).toEqual(["--resume", deterministicUuid("helper")]);
  expect((await t4a(["run", "shell", "--", "pwd"])).trim()).toBe(join(sandbox.dir, "work", "deeper"));
  // Nothing of the old daemon's sessions runs beside the new ones.
  for (const old of before) expect(isAlive(old.pid)).toBe(false);
  // kill takes a session out of the manifest for good; with none left there is no file.
  await t4a(["kill", "helper"]);
  await t4a(["kill", "shell"]);
  expect(existsSync(manifestFile)).toBe(false);
  expect(await t4a(["list"])).toBe("");
});

/** The lines whose newline is written: the fake may be halfway through one. */
function wholeLines(text: string): string[] {
  return text
    .slice(0, text.lastIndexOf("\n") + 1)
    .split("\n")
    .filter(Boolean);
}
