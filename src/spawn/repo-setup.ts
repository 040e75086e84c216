// A new worktree made ready the way its repository asks: the git-ignored files it lists in
// `.worktreeinclude` (gitignore syntax: `.env`, `.env.local`, `certs/`) copied from the main
// checkout, then its setup script `.t4a/setup` run. A script that comes with a repository is
// code execution, so it runs only when the user has approved its exact bytes (`t4a trust DIR`,
// remembered by sha256 in the state directory, which no sandbox can see); a changed script is
// not run until approved again. It runs from the daemon, outside any sandbox, only on the commit
// the user's own checkout is at; on any other commit (an existing t4a/ branch an agent may have
// committed to, another base) the scripts it calls are not what was approved, so it runs in a
// sandbox writable only in the new worktree. Every file here is read as tainted (tainted-files.ts).
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { T4aError } from "../protocol/errors.ts";
import { runBounded } from "./bounded.ts";
import { git, gitOk } from "./git.ts";
import { readUnder, writeNewUnder } from "./tainted-files.ts";
import { writePrivateFile } from "../client/private-file.ts";
import { loadStateFile } from "../client/state-file.ts";

export const SETUP_SCRIPT = ".t4a/setup";
export const INCLUDE_FILE = ".worktreeinclude";
/** A setup script gets this long (installing dependencies takes a while). */
export const REPO_SETUP_TIMEOUT_MS = 10 * 60_000;
/** A `.worktreeinclude` matching more files than this is a mistake (node_modules/): refused. */
const MAX_INCLUDED = 1000;
/** An included file bigger than this is not copied (secrets and local config are small). */
const MAX_INCLUDED_FILE_BYTES = 16 * 1024 * 1024;
const MAX_INCLUDE_LIST_BYTES = 64 * 1024;
const MAX_SETUP_BYTES = 1024 * 1024;

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
    return json.filter(
      (entry): entry is Trusted => typeof entry?.repo === "string" && typeof entry?.sha256 === "string",
    );
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
export async function trustSetup(
  dir: string,
  stateDir: string,
): Promise<{ repo: string; path: string; sha256: string; script: string }> {
  const top = (await gitOk(dir, ["rev-parse", "--show-toplevel"], "trust")).trim();
  const path = join(top, SETUP_SCRIPT);
  const read = readUnder(top, SETUP_SCRIPT, MAX_SETUP_BYTES);
  if (!("bytes" in read))
    throw new T4aError(
      "not_found",
      read.skipped === "missing"
        ? `${top} has no ${SETUP_SCRIPT}`
        : `${path} is ${read.skipped === "too big" ? "too big" : "not a regular file"}: not approved`,
    );
  const bytes = read.bytes;
  const repo = await mainCheckout(dir);
  const digest = sha256(bytes);
  const kept = readTrusted(stateDir).filter((entry) => !(entry.repo === repo && entry.sha256 === digest));
  writePrivateFile(
    trustPath(stateDir),
    JSON.stringify([...kept, { repo, sha256: digest, trusted_at: new Date().toISOString() }], null, 2),
  );
  return { repo, path, sha256: digest, script: bytes.toString("utf8") };
}

/** How the setup script runs when the worktree's commit is not the user's own: in a sandbox. */
export interface SandboxedSetup {
  /** Why, for the session's facts. */
  why: string;
  /** The sandbox may reach the network (the session asked for --sandbox-net). */
  net: boolean;
  run: (argv: string[], env: Record<string, string>) => Promise<{ argv: string[]; env: Record<string, string> }>;
}

/**
 * Readies a worktree made a moment ago: copies what `.worktreeinclude` lists, then runs the setup
 * script when its bytes are approved (in a sandbox when `sandboxed` says why). Answers what it
 * did, for the session's facts; throws when the script fails (the create is refused and the
 * worktree undone).
 */
export async function readyWorktree(
  main: string,
  dir: string,
  options: { stateDir: string; branch: string; env: Record<string, string>; sandboxed?: SandboxedSetup },
): Promise<{ included: number; setup?: string }> {
  const included = await copyIncluded(main, dir);
  // Read as tainted: the branch may hold a symlink or a FIFO there.
  const read = readUnder(dir, SETUP_SCRIPT, MAX_SETUP_BYTES);
  if (!("bytes" in read)) {
    return read.skipped === "missing"
      ? { included }
      : {
          included,
          setup: `not run: ${SETUP_SCRIPT} is ${read.skipped === "too big" ? "too big" : "not a regular file"}`,
        };
  }
  const digest = sha256(read.bytes);
  if (!readTrusted(options.stateDir).some((entry) => entry.repo === main && entry.sha256 === digest)) {
    return {
      included,
      setup:
        `not run: ${SETUP_SCRIPT} (sha256 ${digest.slice(0, 12)}) is not approved; ` +
        `read it, then run \`t4a trust ${main}\``,
    };
  }
  const script = join(dir, SETUP_SCRIPT);
  const argv = (read.mode & 0o111) !== 0 ? [script] : ["bash", script];
  const env = { ...options.env, T4A_WORKTREE: dir, T4A_MAIN_CHECKOUT: main, T4A_BRANCH: options.branch };
  const where = options.sandboxed
    ? ` in a sandbox${options.sandboxed.net ? "" : " without network"} (${options.sandboxed.why})`
    : "";
  let command: { argv: string[]; env: Record<string, string> } = { argv, env };
  if (options.sandboxed) {
    try {
      command = await options.sandboxed.run(argv, env);
    } catch (error) {
      // No sandbox here (macOS, no bwrap): the worktree is made, the script not run, and why.
      return {
        included,
        setup:
          `not run: ${SETUP_SCRIPT} would need a sandbox (${options.sandboxed.why}), ` +
          `and ${(error as Error).message}`,
      };
    }
  }
  const outcome = await runBounded(command.argv, { cwd: dir, env: command.env, timeoutMs: REPO_SETUP_TIMEOUT_MS });
  if (outcome === "late")
    throw new T4aError(
      "spawn_failed",
      `worktree: ${SETUP_SCRIPT} did not finish within ${REPO_SETUP_TIMEOUT_MS / 60_000} min${where}`,
    );
  if (outcome.code !== 0) {
    const said = `${outcome.stdout}\n${outcome.stderr}`.trim().split("\n").slice(-10).join("\n");
    throw new T4aError(
      "spawn_failed",
      `worktree: ${SETUP_SCRIPT} failed (exit ${outcome.code ?? outcome.signal})${where}${said ? `:\n${said}` : ""}`,
    );
  }
  return { included, setup: `ran ${SETUP_SCRIPT}${where}` };
}

/** Copies the git-ignored files of the main checkout that `.worktreeinclude` names; answers how many. */
async function copyIncluded(main: string, dir: string): Promise<number> {
  // The main checkout and the new worktree's tree may both be a sandbox's work: the list, the
  // files and every directory on the way are read and written with tainted-files.ts (no symlink
  // followed on either side, regular files only, no blocking, capped).
  const list = readUnder(main, INCLUDE_FILE, MAX_INCLUDE_LIST_BYTES);
  if (!("bytes" in list)) return 0;
  const patterns = mkdtempSync(join(tmpdir(), "t4a-include-"));
  try {
    writeFileSync(join(patterns, "list"), list.bytes, { mode: 0o600 });
    // Untracked files matching the include patterns, then those of them git ignores.
    const matching = (
      await gitOk(
        main,
        ["ls-files", "-z", "--others", "--ignored", `--exclude-from=${join(patterns, "list")}`],
        "worktree include",
      )
    )
      .split("\0")
      .filter(Boolean);
    if (!matching.length) return 0;
    const check = await git(main, ["check-ignore", "--no-index", "-z", "--stdin"], {
      input: new TextEncoder().encode(`${matching.join("\0")}\0`),
    });
    const ignored = check.stdout.split("\0").filter(Boolean);
    if (ignored.length > MAX_INCLUDED)
      throw new T4aError(
        "invalid_params",
        `worktree: ${INCLUDE_FILE} matches ${ignored.length} ignored files (more than ${MAX_INCLUDED}); ` +
          "name files, not dependency directories",
      );
    let copied = 0;
    for (const path of ignored) {
      // Regular files only: a symlink would lead the worktree (and a sandbox in it) elsewhere.
      const source = readUnder(main, path, MAX_INCLUDED_FILE_BYTES);
      if (!("bytes" in source)) continue;
      // Never over what the branch has there, and never through a symlink it has on the way.
      if (writeNewUnder(dir, path, source.bytes, source.mode)) copied++;
    }
    return copied;
  } finally {
    rmSync(patterns, { recursive: true, force: true });
  }
}
