// What a session changed in its git checkout: its branch, the commits it made beyond its base, the
// files not committed yet, and one diff of all of it (the base against the working tree, plus the
// new files). The review step before merging an agent's work. Read with git's own plumbing, never
// running anything the repository names (git.ts), and, for a worktree, through the git dir its
// creation recorded: a sandbox cannot have replaced that pointer (it is read-only inside).
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { T4aError } from "../protocol/errors.ts";
import { git, gitOk } from "./git.ts";
import { linkedWorktree } from "./sandbox/git-guard.ts";

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
/** No ext-diff, no textconv: nothing configured runs. No colour: the page and scripts read plain text. */
const DIFF_FLAGS = ["--no-ext-diff", "--no-textconv", "--no-color"];

/**
 * The changes in `dir`. `worktree` says it is a linked worktree t4a made or reused (its base was
 * recorded then); `trusted` says the directory's `.git` may be followed as it is (no sandbox
 * could have written it).
 */
export async function readChanges(dir: string, options: { worktree: boolean; trusted: boolean }): Promise<Changes> {
  const location = await gitLocation(dir, options);
  const run = (args: string[]) => git(dir, [...location.flags, ...args]);
  const ok = (args: string[]) => gitOk(dir, [...location.flags, ...args], "diff");
  const branch = (await run(["symbolic-ref", "--short", "-q", "HEAD"])).stdout || undefined;
  const base = location.base ?? (await upstreamBase(run)) ?? (await ok(["rev-parse", "--verify", "HEAD"]));
  const log = await ok(["log", "--no-color", `--max-count=${MAX_LISTED}`, "--format=%h %s", `${base}..HEAD`]);
  const commits = log ? log.split("\n").map((line) => ({ sha: line.slice(0, line.indexOf(" ")), subject: line.slice(line.indexOf(" ") + 1) })) : [];
  const status = await ok(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=all"]);
  const files = parseStatus(status);
  const tracked = await ok(["diff", ...DIFF_FLAGS, base, "--"]);
  const added = await Promise.all(files.filter((file) => file.status === "??").slice(0, MAX_LISTED).map((file) => newFileDiff(dir, location.flags, file.path)));
  return { dir, branch, base, commits, files, diff: [tracked, ...added].filter(Boolean).join("\n") };
}

/** How git is pointed at the checkout, and the base a worktree recorded. */
async function gitLocation(dir: string, options: { worktree: boolean; trusted: boolean }): Promise<{ flags: string[]; base?: string }> {
  if (options.worktree) {
    const linked = linkedWorktree(dir);
    if (!linked || !existsSync(join(linked.gitDir, "HEAD"))) throw new T4aError("not_found", `${dir} is no longer a git worktree`);
    const recorded = join(linked.gitDir, "t4a-base");
    const base = existsSync(recorded) ? readFileSync(recorded, "utf8").trim() : undefined;
    return { flags: ["--git-dir", linked.gitDir, "--work-tree", dir], base: base || undefined };
  }
  // A sandbox may have made a .git of its own anywhere it writes: its config would be obeyed.
  if (!options.trusted) throw new T4aError("unsupported", "the changes of a sandboxed session are read from its worktree only (create it with --worktree)");
  if ((await git(dir, ["rev-parse", "--is-inside-work-tree"])).stdout !== "true") throw new T4aError("not_found", `${dir} is not in a git repository`);
  return { flags: [] };
}

/** Where HEAD left its upstream branch, when it has one. */
async function upstreamBase(run: (args: string[]) => Promise<{ code: number; stdout: string }>): Promise<string | undefined> {
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
async function newFileDiff(dir: string, flags: string[], path: string): Promise<string> {
  let size: number;
  try {
    const stats = statSync(join(dir, path));
    if (!stats.isFile()) return "";
    size = stats.size;
  } catch {
    return "";
  }
  if (size > MAX_NEW_FILE_BYTES) return `new file ${path}: ${size} bytes, not shown\n`;
  // --no-index compares two paths; it exits 1 when they differ, which they do.
  const shown = await git(dir, [...flags, "diff", ...DIFF_FLAGS, "--no-index", "--", "/dev/null", path]);
  return shown.stdout ? `${shown.stdout}\n` : "";
}
