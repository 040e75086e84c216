// What a SIGKILLed daemon leaves mid-create or mid-session, the next daemon finishes before it
// serves: plugin cleanups it had promised run, helpers (plugins, setup scripts) it was waiting on
// are ended, and the empty cgroups of sessions whose daemon is dead are removed.
// Serial phase: a daemon starting removes every dead daemon's cgroups in the pids hierarchy, and this
// file makes and kills daemons with cgroups: another file's daemon starting meanwhile would do this
// file's sweeping, and this file's would sweep theirs.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, isAlive, Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
let env: Record<string, string>;
let plugins: string;
const daemons: Array<ReturnType<typeof Bun.spawn>> = [];

beforeAll(() => {
  sandbox = new Sandbox();
  env = { ...sandbox.env, XDG_STATE_HOME: join(sandbox.dir, "state"), XDG_CONFIG_HOME: join(sandbox.dir, "config") };
  plugins = join(sandbox.dir, "config", "t4a", "plugins");
  mkdirSync(plugins, { recursive: true });
});
// Each test ends its daemon (and so its sessions): the next starts its own.
afterEach(async () => {
  await t4a(["shutdown"]);
  for (const daemon of daemons.splice(0)) {
    daemon.kill("SIGKILL");
    await daemon.exited;
  }
});
afterAll(() => sandbox.cleanup());

async function t4a(args: string[]) {
  const child = Bun.spawn([BIN, ...args], { cwd: sandbox.dir, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

async function ok(args: string[]): Promise<string> {
  const result = await t4a(args);
  if (result.code !== 0) throw new Error(`t4a ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

/** A daemon in the foreground of this test, answering once it serves. */
async function startDaemon(extraEnv: Record<string, string> = {}): Promise<number> {
  const daemon = Bun.spawn([BIN, "daemon"], {
    env: { ...env, ...extraEnv },
    cwd: "/",
    stdio: ["ignore", "ignore", "ignore"],
  });
  daemons.push(daemon);
  await waitFor(
    async () => (await t4a(["info"])).code === 0 || daemon.exitCode !== null,
    20_000,
    "the daemon to serve",
  );
  expect(daemon.exitCode).toBeNull();
  expect(Number(JSON.parse(await ok(["info", "--json"])).pid)).toBe(daemon.pid);
  return daemon.pid;
}

async function killDaemon(pid: number): Promise<void> {
  process.kill(pid, "SIGKILL");
  await waitFor(() => !isAlive(pid), 10_000, "the daemon to die");
}

test("a plugin's cleanup for a session of a SIGKILLed daemon runs at the next start, once", async () => {
  const mark = join(sandbox.dir, "cleaned");
  writeFileSync(
    join(plugins, "marks"),
    `#!/bin/sh\ncat > /dev/null\nprintf '%s' '{"cleanup":["sh","-c","echo \\"cleaned in $PWD with $MARK_WORD\\" >> ${mark}"],"env":{"MARK_WORD":"the plan env"}}'\n`,
    { mode: 0o755 },
  );
  const daemon = await startDaemon();
  const id = await ok(["create", "--plugin", "marks", "--", "sleep", "600"]);
  expect(id).toBeTruthy();
  await killDaemon(daemon);
  expect(existsSync(mark)).toBe(false);

  const next = await startDaemon();
  await waitFor(() => existsSync(mark), 20_000, "the cleanup to run");
  expect(readFileSync(mark, "utf8")).toBe(`cleaned in ${sandbox.dir} with the plan env\n`);
  // Done once: a third daemon finds nothing left to run.
  await killDaemon(next);
  await startDaemon();
  await Bun.sleep(500);
  expect(readFileSync(mark, "utf8")).toBe(`cleaned in ${sandbox.dir} with the plan env\n`);
}, 90_000);

for (const helper of ["plugin", "setup script"] as const) {
  test(`kill -9 of the daemon during create: the ${helper} it was waiting on is ended at the next start`, async () => {
    const pidFile = join(sandbox.dir, `${helper.replace(" ", "-")}.pid`);
    writeFileSync(join(plugins, "slow"), `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 600\n`, { mode: 0o755 });
    // The daemon stalls right after it spawns the helper, and is killed in that stall: a helper
    // recorded only once it was spawned would be unknown to the next daemon (flaked under load).
    const daemon = await startDaemon({ T4A_TEST_HELPER_STALL_MS: "600000" });
    const how = helper === "plugin" ? ["--plugin", "slow"] : ["--setup", `echo $$ > ${pidFile}; exec sleep 600`];
    const creating = t4a(["create", ...how, "--", "sleep", "600"]);
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n"),
      20_000,
      "the plugin to run",
    );
    const plugin = Number(readFileSync(pidFile, "utf8"));
    await killDaemon(daemon);
    expect((await creating).code).not.toBe(0);
    expect(isAlive(plugin)).toBe(true); // unsupervised until a daemon comes back

    try {
      await startDaemon();
      await waitFor(() => !isAlive(plugin), 10_000, "the plugin to be ended").catch(() => undefined);
      expect(isAlive(plugin)).toBe(false);
    } finally {
      if (isAlive(plugin)) process.kill(plugin, "SIGKILL");
    }
  }, 90_000);
}

for (const where of ["as the user", "in a sandbox"] as const)
  test(`kill -9 of the daemon while a repository's approved setup script runs ${where}: it is ended at the next start (issue 57)`, async () => {
    const repo = join(sandbox.dir, `repo-${where.replaceAll(" ", "-")}`);
    const pidFile = join(repo, "..", `repo-setup-${where.replaceAll(" ", "-")}.pid`);
    mkdirSync(join(repo, ".t4a"), { recursive: true });
    writeFileSync(join(repo, ".t4a", "setup"), `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 600\n`, { mode: 0o755 });
    const git = (...args: string[]) =>
      expect(
        Bun.spawnSync(["git", "-C", repo, ...args], {
          env: {
            ...env,
            GIT_AUTHOR_NAME: "t",
            GIT_AUTHOR_EMAIL: "t@t",
            GIT_COMMITTER_NAME: "t",
            GIT_COMMITTER_EMAIL: "t@t",
          },
        }).exitCode,
      ).toBe(0);
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "setup");
    // A branch that exists already may hold an agent's commits: its setup runs in a sandbox.
    if (where === "in a sandbox") git("branch", "t4a/feat");
    const daemon = await startDaemon();
    const trusted = Bun.spawnSync([BIN, "trust", repo], { cwd: repo, env });
    expect(trusted.exitCode).toBe(0);
    const child = Bun.spawn([BIN, "create", "--worktree", "feat", "--", "sleep", "600"], {
      cwd: repo,
      env,
      stdout: "pipe",
      stderr: "pipe",
    });
    await waitFor(
      () => existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n"),
      30_000,
      "the setup script to run",
    );
    const script = Number(readFileSync(pidFile, "utf8"));
    await killDaemon(daemon);
    expect(await child.exited).not.toBe(0);
    expect(isAlive(script)).toBe(true); // unsupervised until a daemon comes back
    try {
      await startDaemon();
      await waitFor(() => !isAlive(script), 10_000, "the setup script to be ended").catch(() => undefined);
      expect(isAlive(script)).toBe(false);
    } finally {
      if (isAlive(script)) process.kill(script, "SIGKILL");
    }
  }, 90_000);

/** The daemon's own place in the cgroup v1 pids hierarchy, when it may make cgroups there. */
function pidsCgroup(): string | undefined {
  const own = /^\d+:pids:(.*)$/m.exec(readFileSync("/proc/self/cgroup", "utf8"))?.[1];
  const dir = own === undefined ? undefined : join("/sys/fs/cgroup/pids", own);
  if (!dir || !existsSync(join(dir, "cgroup.procs"))) return undefined;
  try {
    mkdirSync(join(dir, `t4a-probe-${process.pid}`));
    rmdirSync(join(dir, `t4a-probe-${process.pid}`));
    return dir;
  } catch {
    return undefined;
  }
}

test("the empty cgroups of a dead daemon's sessions are removed at the next start; a living daemon's stay", async () => {
  const root = pidsCgroup();
  if (!root) return console.log("skipped: no writable cgroup v1 pids hierarchy here");
  const exited = Bun.spawn(["true"]);
  await exited.exited;
  const dead = join(root, `t4a-${exited.pid}-1-t9`);
  const living = join(root, `t4a-${process.pid}-1-t9`); // this test runner stands for a living daemon
  mkdirSync(dead);
  mkdirSync(living);
  try {
    await startDaemon();
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(living)).toBe(true);
    expect(readdirSync(root).filter((name) => name.startsWith(`t4a-${exited.pid}-`))).toEqual([]);
  } finally {
    for (const dir of [dead, living]) if (existsSync(dir)) rmdirSync(dir);
  }
}, 60_000);

test("a SIGKILLed daemon's session that ignored the hangup is ended at the next start, and its cgroup removed", async () => {
  const root = pidsCgroup();
  if (!root) return console.log("skipped: no writable cgroup v1 pids hierarchy here");
  const daemon = await startDaemon();
  const id = await ok(["create", "--limit-pids", "50", "--", "bash", "-c", "trap '' HUP; echo up; exec sleep 600"]);
  // "up" is printed after the trap is set: a daemon killed before it would hang up bash itself (a loaded CI run)
  await ok(["wait", id, "--text", "up", "--screen", "--timeout", "20s"]);
  const made = () => readdirSync(root).filter((name) => name.startsWith(`t4a-${daemon}-`));
  expect(made().length).toBe(1);
  const procs = join(root, made()[0]!, "cgroup.procs");
  const held = await waitFor(
    () => {
      const pids = readFileSync(procs, "utf8").split("\n").filter(Boolean).map(Number);
      return pids.length ? pids : undefined;
    },
    10_000,
    "the program to enter its cgroup",
  );
  await killDaemon(daemon);
  expect(held.some(isAlive)).toBe(true);
  try {
    await startDaemon();
    await waitFor(() => made().length === 0, 10_000, "the cgroup to go").catch(() => undefined);
    expect({ cgroups: made(), alive: held.filter(isAlive) }).toEqual({ cgroups: [], alive: [] });
  } finally {
    for (const pid of held) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  }
}, 60_000);
