// What a session changed in its git checkout: its branch, the commits it made beyond its base, the
// files not committed yet, and one diff of all of it (the base against the working tree, plus the
// new files). The review step before merging an agent's work. Read with git's own plumbing, never
// running anything the repository names (git.ts), and, for a worktree, through the git dir its
// creation recorded: a sandbox cannot have replaced that pointer (it is read-only inside).
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { T4aError } from "../protocol/errors.ts";
import { filterOverrides, git, gitOk, type GitOptions } from "./git.ts";
import { linkedWorktree, recordedBase } from "./sandbox/git-guard.ts";

export interface ChangedFile {
  /** git status's two letters: "M " staged, " M" not staged, "??" new, "D " deleted… */
  status: string;
  path: string;
}

export interface Changes {
  dir: string;
  /** Absent on a detached HEAD. */
  branch?: string;
  /** The commit the work started from: the worktree's recorded base, or the upstream's merge base, or HEAD. */
  base: string;
  commits: Array<{ sha: string; subject: string }>;
  files: ChangedFile[];
  diff: string;
}

/** At most this many commits and files are listed (their counts still say how many there are). */
const MAX_LISTED = 200;
/** New files bigger than this show as one line in the diff instead of their content. */
const MAX_NEW_FILE_BYTES = 256 * 1024;
/** The diff read from git stops here (git is stopped): a review never holds a huge change whole. */
export const MAX_DIFF_BYTES = 8 * 1024 * 1024;
/** Each git call of a review gets this long. */
const GIT_TIMEOUT_MS = 60_000;
/** No ext-diff, no textconv: nothing configured runs. No colour: the page and scripts read plain text. */
const DIFF_FLAGS = ["--no-ext-diff", "--no-textconv", "--no-color"];

/**
 * The changes in `dir`. `worktree` says it is a linked worktree t4a made or reused (its base was
 * recorded then); `trusted` says the directory's `.git` may be followed as it is (no sandbox
 * could have written it).
 */
export async function readChanges(dir: string, options: { worktree: boolean; trusted: boolean }): Promise<Changes> {
  const location = await gitLocation(dir, options);
  const bounds = {
    timeoutMs: GIT_TIMEOUT_MS,
    maxBytes: MAX_DIFF_BYTES,
    filters: await filterOverrides(dir, location.flags),
  };
  const run = (args: string[]) => git(dir, [...location.flags, ...args], bounds);
  const ok = (args: string[]) => gitOk(dir, [...location.flags, ...args], "diff", bounds);
  const branch = (await run(["symbolic-ref", "--short", "-q", "HEAD"])).stdout || undefined;
  const base = location.base ?? (await upstreamBase(run)) ?? (await ok(["rev-parse", "--verify", "HEAD"]));
  const log = await ok(["log", "--no-color", `--max-count=${MAX_LISTED}`, "--format=%h %s", `${base}..HEAD`]);
  const commits = log
    ? log.split("\n").map((line) => ({
        sha: line.slice(0, line.indexOf(" ")),
        subject: printable(line.slice(line.indexOf(" ") + 1)),
      }))
    : [];
  const status = await ok(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=all"]);
  const files = parseStatus(status);
  const tracked = await run(["diff", ...DIFF_FLAGS, base, "--"]);
  if (tracked.code !== 0)
    throw new T4aError("spawn_failed", `diff: ${tracked.stderr || `git diff exited ${tracked.code}`}`);
  const parts = [tracked.stdout];
  let size = tracked.stdout.length;
  let truncated = tracked.truncated === true;
  for (const file of files.filter((file) => file.status === "??").slice(0, MAX_LISTED)) {
    if (truncated) break;
    const added = await newFileDiff(dir, location.flags, file.path, bounds);
    if (size + added.length > MAX_DIFF_BYTES) truncated = true;
    else parts.push(added), (size += added.length);
  }
  if (truncated)
    parts.push(
      `[diff truncated at ${MAX_DIFF_BYTES / 1024 / 1024} MiB: the change is bigger; read it with git in ${dir}]\n`,
    );
  const diff = parts.filter(Boolean).join("\n");
  // What git prints comes from the session's commits and files: shown, never obeyed by a terminal or the page.
  return {
    // The directory of an unsandboxed session is the one its OSC 7 last reported (the program's say).
    dir: printable(dir),
    // A branch a sandbox made: git's ref names refuse C0 but take C1 (U+009B, CSI) and bidi controls.
    ...(branch === undefined ? {} : { branch: printable(branch) }),
    base,
    commits,
    files: files.map((file) => ({ status: file.status, path: printable(file.path) })),
    diff: printable(diff),
  };
}

/**
 * Text safe to print to a terminal or a page: control characters (escape sequences, carriage
 * returns not ending a line, OSC 52) and bidirectional overrides (text that reads other than it runs) shown as
 * `\xNN` / `\uNNNN`; tab and newline kept.
 */
export function printable(text: string): string {
  // A carriage return before a newline (a CRLF file) cannot hide anything: kept.
  return text.replace(
    /\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (char) => {
      const code = char.charCodeAt(0);
      return code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
    },
  );
}

/** How git is pointed at the checkout, and the base a worktree recorded. */
async function gitLocation(
  dir: string,
  options: { worktree: boolean; trusted: boolean },
): Promise<{ flags: string[]; base?: string }> {
  if (options.worktree) {
    const linked = linkedWorktree(dir);
    if (!linked || !existsSync(join(linked.gitDir, "HEAD")))
      throw new T4aError("not_found", `${dir} is no longer a git worktree`);
    const base = recordedBase(linked.gitDir);
    return { flags: ["--git-dir", linked.gitDir, "--work-tree", dir], base };
  }
  // A sandbox may have made a .git of its own anywhere it writes: its config would be obeyed.
  if (!options.trusted)
    throw new T4aError(
      "unsupported",
      "the changes of a sandboxed session are read from its worktree only (create it with --worktree)",
    );
  if ((await git(dir, ["rev-parse", "--is-inside-work-tree"])).stdout !== "true")
    throw new T4aError("not_found", `${dir} is not in a git repository`);
  return { flags: [] };
}

/** Where HEAD left its upstream branch, when it has one. */
async function upstreamBase(
  run: (args: string[]) => Promise<{ code: number; stdout: string }>,
): Promise<string | undefined> {
  const found = await run(["merge-base", "HEAD", "@{upstream}"]);
  return found.code === 0 && found.stdout ? found.stdout : undefined;
}

/** `git status -z`: "XY path\0", a rename followed by its old path. */
function parseStatus(output: string): ChangedFile[] {
  const parts = output.split("\0");
  const files: ChangedFile[] = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i]!;
    if (entry.length < 4) continue;
    const status = entry.slice(0, 2);
    files.push({ status, path: entry.slice(3) });
    if (status.startsWith("R") || status.startsWith("C")) i++; // the old name
  }
  return files;
}

/** A new file as a diff from nothing; a big or unreadable one as a line saying so. */
async function newFileDiff(dir: string, flags: string[], path: string, bounds: GitOptions): Promise<string> {
  let size: number;
  try {
    // Not followed: a symlink (to a FIFO, a device, a secret) is not a new file's content.
    const stats = lstatSync(join(dir, path));
    if (!stats.isFile()) return "";
    size = stats.size;
  } catch {
    return "";
  }
  if (size > MAX_NEW_FILE_BYTES) return `new file ${path}: ${size} bytes, not shown\n`;
  // --no-index compares two paths; it exits 1 when they differ, which they do.
  const shown = await git(dir, [...flags, "diff", ...DIFF_FLAGS, "--no-index", "--", "/dev/null", path], bounds);
  return shown.stdout ? `${shown.stdout}\n` : "";
}
