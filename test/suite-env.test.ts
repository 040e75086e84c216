// The suite owns its environment: run from inside a git command (a hook, `git rebase --exec`,
// `git bisect run`) it inherits GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE…, and every git a test runs
// would act on the developer's repository instead of the test's (`git init --bare` made it bare).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const PROBE = "test/fixtures/git-env-probe.test.ts";
const scratch = mkdtempSync(join(tmpdir(), "t4a-suite-env-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A repository of the caller's, and the environment a git hook run in it gives the suite (GIT_DIR
 * without GIT_WORK_TREE: with both, `git init --bare` refuses rather than harms).
 */
function callersRepository(name: string): { repo: string; env: Record<string, string> } {
  const repo = join(scratch, name);
  expect(Bun.spawnSync(["git", "init", "-q", repo]).exitCode).toBe(0);
  const env = {
    ...(process.env as Record<string, string>),
    GIT_DIR: join(repo, ".git"),
    GIT_INDEX_FILE: join(repo, ".git", "index"),
  };
  return { repo, env };
}

function isBare(repo: string): string {
  return Bun.spawnSync(["git", "config", "--file", join(repo, ".git", "config"), "core.bare"])
    .stdout.toString()
    .trim();
}

test("bun test run with GIT_DIR & co. set: a test's git leaves the caller's repository alone", () => {
  const { repo, env } = callersRepository("bun-test");
  const run = Bun.spawnSync([process.execPath, "test", `./${PROBE}`], { cwd: root, env, stderr: "pipe" });
  expect({ code: run.exitCode, bare: isBare(repo) }, run.stderr.toString()).toEqual({ code: 0, bare: "false" });
}, 60_000);

test("scripts/test.ts run with GIT_DIR & co. set: a test's git leaves the caller's repository alone", () => {
  const { repo, env } = callersRepository("scripts-test");
  const run = Bun.spawnSync([process.execPath, "scripts/test.ts", "--phase", "parallel", PROBE], {
    cwd: root,
    env,
    stderr: "pipe",
  });
  expect({ code: run.exitCode, bare: isBare(repo) }, run.stderr.toString()).toEqual({ code: 0, bare: "false" });
}, 60_000);
