// Loaded before every test file (bunfig.toml): daemons the tests start, directly or through the
// CLI's auto-start, check each reply against its command's schema (src/daemon/dispatch.ts).
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";

process.env.T4A_CHECK_REPLIES = "1";
// The suite owns its environment: a caller's XDG directories (its agents.json, its state) or a
// t4a session it runs inside (T4A_SOCKET, T4A_SESSION…) must not reach the daemons it starts.
const KEPT = /^T4A_(CHECK_REPLIES|SOAK|TEST_.*|SCREEN_WORKERS)$/;
const GIT_IDENTITY = /^GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL)$/;
for (const name of Object.keys(process.env)) {
  if ((name.startsWith("XDG_") || name.startsWith("T4A_")) && !KEPT.test(name)) delete process.env[name];
}
// Nor a git command it runs inside (a hook, `git rebase --exec`, `git bisect run`): with its
// GIT_DIR, GIT_INDEX_FILE… every git a test runs acts on the caller's repository (`git init --bare`
// in a worktree's hook set core.bare=true in the main repository). Only an identity comes along.
for (const name of Object.keys(process.env)) {
  if (name.startsWith("GIT_") && !GIT_IDENTITY.test(name)) delete process.env[name];
}
// Bun.spawn without `env` passes the environment the process started with, not process.env as it is
// now (oven-sh/bun#34972, open): without this, none of the above, nor the home below, reached what
// a test spawns that way (`Bun.spawnSync(["git", "init", …])` got the caller's GIT_DIR). So the
// default is process.env, as it is in node:child_process.
{
  const withLiveEnv = (args: unknown[]): unknown[] => {
    const [first, second] = args as [{ env?: unknown } | string[], { env?: unknown } | undefined];
    if (Array.isArray(first)) return [first, { ...second, env: second?.env ?? { ...process.env } }];
    return [{ ...first, env: first.env ?? { ...process.env } }, ...args.slice(1)];
  };
  const spawn = Bun.spawn;
  const spawnSync = Bun.spawnSync;
  Bun.spawn = ((...args: unknown[]) =>
    (spawn as (...a: unknown[]) => unknown)(...withLiveEnv(args))) as typeof Bun.spawn;
  Bun.spawnSync = ((...args: unknown[]) =>
    (spawnSync as (...a: unknown[]) => unknown)(...withLiveEnv(args))) as typeof Bun.spawnSync;
}
// A home of the suite's own: the shells its sessions start must not source this machine's startup
// files (a ~/.bashrc running `pyenv init`, whose rehash lock a killed session leaves behind, made
// every later interactive shell hang a minute). Git's identity and npm's settings come along.
{
  const real = process.env.HOME;
  // Named for scripts/test.ts's run (T4A_TEST_RUN), which removes its homes at the end: a worker
  // ended by the runner does not run its exit handler.
  const run = process.env.T4A_TEST_RUN;
  const home = mkdtempSync(`${tmpdir()}/t4a-test-home-${run ? `${run}-` : ""}`);
  for (const file of [".gitconfig", ".npmrc"])
    if (real && existsSync(`${real}/${file}`)) copyFileSync(`${real}/${file}`, `${home}/${file}`);
  process.env.HOME = home;
  process.on("exit", () => rmSync(home, { recursive: true, force: true }));
}
