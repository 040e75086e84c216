// A new worktree made ready the way its repository asks: the git-ignored files it lists in
// `.worktreeinclude` (gitignore syntax: `.env`, `.env.local`, `certs/`) copied from the main
// checkout, then its setup script `.t4a/setup` run. A script that comes with a repository is
// code execution, so it runs only when the user has approved its exact bytes (`t4a trust DIR`,
// remembered by sha256 in the state directory, which no sandbox can see); a changed script is
// not run until approved again. It runs from the daemon, outside any sandbox, in a worktree made
// a moment ago from committed content: nothing a session wrote.
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { T4aError } from "../protocol/errors.ts";
import { runBounded } from "./bounded.ts";
import { git, gitOk } from "./git.ts";
import { writePrivateFile } from "../client/private-file.ts";
import { loadStateFile } from "../client/state-file.ts";

export const SETUP_SCRIPT = ".t4a/setup";
export const INCLUDE_FILE = ".worktreeinclude";
/** A setup script gets this long (installing dependencies takes a while). */
export const REPO_SETUP_TIMEOUT_MS = 10 * 60_000;
/** A `.worktreeinclude` matching more files than this is a mistake (node_modules/): refused. */
const MAX_INCLUDED = 1000;

interface Trusted {
  repo: string;
  sha256: string;
  trusted_at: string;
}

function trustPath(stateDir: string): string {
  return join(stateDir, "trusted-setup.json");
}

/** The approvals; an unreadable file is copied aside and named in the daemon's log (state-file.ts). */
function readTrusted(stateDir: string): Trusted[] {
  const read = loadStateFile(trustPath(stateDir), (json) => {
    if (!Array.isArray(json)) throw new Error(`it is ${json === null ? "null" : typeof json}, not a list`);
    return json.filter((entry): entry is Trusted => typeof entry?.repo === "string" && typeof entry?.sha256 === "string");
  });
  for (const problem of read.problems) console.error(`t4a daemon: ${problem}`);
  return read.value ?? [];
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The main checkout of the repository holding `dir` (a worktree's leads to its main one). */
async function mainCheckout(dir: string): Promise<string> {
  const top = await git(dir, ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0) throw new T4aError("invalid_params", `${dir} is not in a git repository`);
  const common = await gitOk(dir, ["rev-parse", "--path-format=absolute", "--git-common-dir"], "trust");
  return common.endsWith("/.git") ? common.slice(0, -5) : top.stdout;
}

/** Approves the setup script of the checkout holding `dir` as it is now; answers what was approved. */
export async function trustSetup(dir: string, stateDir: string): Promise<{ repo: string; path: string; sha256: string; script: string }> {
  const top = (await gitOk(dir, ["rev-parse", "--show-toplevel"], "trust")).trim();
  const path = join(top, SETUP_SCRIPT);
  if (!existsSync(path)) throw new T4aError("not_found", `${top} has no ${SETUP_SCRIPT}`);
  const bytes = readFileSync(path);
  const repo = await mainCheckout(dir);
  const digest = sha256(bytes);
  const kept = readTrusted(stateDir).filter((entry) => !(entry.repo === repo && entry.sha256 === digest));
  writePrivateFile(trustPath(stateDir), JSON.stringify([...kept, { repo, sha256: digest, trusted_at: new Date().toISOString() }], null, 2));
  return { repo, path, sha256: digest, script: bytes.toString("utf8") };
}

/**
 * Readies a worktree made a moment ago: copies what `.worktreeinclude` lists, then runs the setup
 * script when its bytes are approved. Answers what it did, for the session's facts; throws when
 * the script fails (the create is refused and the worktree undone).
 */
export async function readyWorktree(main: string, dir: string, options: { stateDir: string; branch: string; env: Record<string, string> }): Promise<{ included: number; setup?: string }> {
  const included = await copyIncluded(main, dir);
  const script = join(dir, SETUP_SCRIPT);
  if (!existsSync(script)) return { included };
  const digest = sha256(readFileSync(script));
  if (!readTrusted(options.stateDir).some((entry) => entry.repo === main && entry.sha256 === digest)) {
    return { included, setup: `not run: ${SETUP_SCRIPT} (sha256 ${digest.slice(0, 12)}) is not approved; read it, then run \`t4a trust ${main}\`` };
  }
  const executable = (statSync(script).mode & 0o111) !== 0;
  const argv = executable ? [script] : ["bash", script];
  const env = { ...options.env, T4A_WORKTREE: dir, T4A_MAIN_CHECKOUT: main, T4A_BRANCH: options.branch };
  const outcome = await runBounded(argv, { cwd: dir, env, timeoutMs: REPO_SETUP_TIMEOUT_MS });
  if (outcome === "late") throw new T4aError("spawn_failed", `worktree: ${SETUP_SCRIPT} did not finish within ${REPO_SETUP_TIMEOUT_MS / 60_000} min`);
  if (outcome.code !== 0) {
    const said = `${outcome.stdout}\n${outcome.stderr}`.trim().split("\n").slice(-10).join("\n");
    throw new T4aError("spawn_failed", `worktree: ${SETUP_SCRIPT} failed (exit ${outcome.code ?? outcome.signal})${said ? `:\n${said}` : ""}`);
  }
  return { included, setup: `ran ${SETUP_SCRIPT}` };
}

/** Copies the git-ignored files of the main checkout that `.worktreeinclude` names; answers how many. */
async function copyIncluded(main: string, dir: string): Promise<number> {
  const list = join(main, INCLUDE_FILE);
  if (!existsSync(list)) return 0;
  // Untracked files matching the include patterns, then those of them git ignores.
  const matching = (await gitOk(main, ["ls-files", "-z", "--others", "--ignored", `--exclude-from=${list}`], "worktree include")).split("\0").filter(Boolean);
  if (!matching.length) return 0;
  const check = Bun.spawn(["git", "-C", main, "-c", "core.fsmonitor=false", "check-ignore", "--no-index", "-z", "--stdin"], { stdin: new TextEncoder().encode(`${matching.join("\0")}\0`), stdout: "pipe", stderr: "ignore" });
  const ignored = (await new Response(check.stdout).text()).split("\0").filter(Boolean);
  await check.exited;
  if (ignored.length > MAX_INCLUDED) throw new T4aError("invalid_params", `worktree: ${INCLUDE_FILE} matches ${ignored.length} ignored files (more than ${MAX_INCLUDED}); name files, not dependency directories`);
  let copied = 0;
  for (const path of ignored) {
    const source = join(main, path);
    // Regular files only: a symlink would lead the worktree (and a sandbox in it) elsewhere.
    if (!lstatSync(source).isFile()) continue;
    const target = join(dir, path);
    if (existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(source, target);
    chmodSync(target, statSync(source).mode & 0o777);
    copied++;
  }
  return copied;
}
