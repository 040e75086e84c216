// What a sandbox must do about git repositories it can write (the one holding a writable path,
// or those up to three levels below a writable directory): whatever git outside later executes
// or obeys (the repository's config, commondir, hooks/, info/, worktrees/, modules/, a linked
// worktree's pointer files, a hooks path or an included config inside the tree) is shown
// read-only, while what a commit writes (index, objects, refs, logs) stays writable, so an agent
// commits in its worktree and nothing it writes runs outside. A writable .git (and a checkout
// below the sandbox's cwd) is a mount point inside: never moved aside for one of the sandbox's
// making. Found by reading the filesystem and `git config --file` (which executes nothing),
// never by running git in a directory the sandbox may have written.
import { type Dirent, existsSync, lstatSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { git } from "../git.ts";
import { readUnder } from "../tainted-files.ts";
import { inside } from "./paths.ts";

export interface GitGuard {
  /** Read-only, first: the repository a linked worktree belongs to, seen whole (even under the private /tmp). */
  shown: string[];
  /** Writable, for commits: a linked worktree's own git dir, the common objects, refs and logs. */
  writable: string[];
  /** Read-only over the writable set: what git would execute or trust. */
  readOnly: string[];
}

/** The guard for a set of writable directories. */
export async function gitGuard(writable: string[]): Promise<GitGuard> {
  const guard: GitGuard = { shown: [], writable: [], readOnly: [] };
  for (const path of writable) {
    const top = enclosingRepository(path);
    if (top) {
      await guardRepository(top, path, writable, guard);
      continue;
    }
    // A directory holding repositories (~/src): each one's .git is as writable as its checkout.
    for (const below of repositoriesBelow(path)) {
      // Its checkout bound onto itself too: moved aside, it could be replaced by one whose .git is the sandbox's.
      guard.writable.push(below);
      await guardRepository(below, path, writable, guard);
    }
  }
  return {
    shown: [...new Set(guard.shown)],
    writable: [...new Set(guard.writable)],
    readOnly: [...new Set(guard.readOnly)],
  };
}

/** How deep below a writable directory, and through how many directories, repositories are looked for. */
const BELOW_DEPTH = 3;
const BELOW_MAX_DIRS = 10_000;

/**
 * The repositories (directories holding a `.git`) at most BELOW_DEPTH levels below `path`, not
 * through symlinks nor dependency or hidden directories, nearest first; the search stops after
 * BELOW_MAX_DIRS directories (said in the daemon's log), so a huge tree does not stall a create.
 */
function repositoriesBelow(path: string): string[] {
  const found: string[] = [];
  let level = [resolve(path)];
  let seen = 0;
  for (let depth = 1; depth <= BELOW_DEPTH && level.length; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue; // unreadable: the sandbox cannot write it either
      }
      for (const entry of entries) {
        if (!entry.isDirectory() || entry.name.startsWith(".") || entry.name === "node_modules") continue;
        const child = join(dir, entry.name);
        if (++seen > BELOW_MAX_DIRS) {
          // A cache (~/.npm) rather than a directory of projects: what was found, nearest first, is guarded.
          console.error(
            `t4a daemon: sandbox: stopped looking for git repositories below ${path} ` +
              `after ${BELOW_MAX_DIRS} directories`,
          );
          return found;
        }
        if (lstatSync(join(child, ".git"), { throwIfNoEntry: false })) found.push(child);
        else next.push(child);
      }
    }
    level = next;
  }
  return found;
}

/** Guards one repository whose checkout is `top`, for a sandbox writable at `path`. */
async function guardRepository(top: string, path: string, writable: string[], guard: GitGuard): Promise<void> {
  const dotGit = join(top, ".git");
  if (lstatSync(dotGit).isDirectory()) {
    // The repository's own .git, writable only when its checkout is (a cwd at a repo's root).
    if (!inside(dotGit, path)) return;
    // .git bound onto itself is a mount point: it cannot be renamed or removed, so no .git of
    // the sandbox's making takes its place (its config would be obeyed by the user's git).
    guard.writable.push(dotGit);
    // What git reads to find or extend the repository, made now when missing so that it can be
    // shown read-only: a commondir the sandbox wrote would send git to a config of its own.
    // "." (the repository itself) is what git assumes without one.
    for (const name of ["hooks", "info", "worktrees", "modules"]) mkdirSync(join(dotGit, name), { recursive: true });
    if (!existsSync(join(dotGit, "commondir"))) writeFileSync(join(dotGit, "commondir"), ".\n");
    if (!existsSync(join(dotGit, "config.worktree"))) writeFileSync(join(dotGit, "config.worktree"), "");
    for (const name of ["config", "config.worktree", "commondir", "hooks", "info", "worktrees", "modules"]) {
      if (existsSync(join(dotGit, name))) guard.readOnly.push(join(dotGit, name));
    }
    await guardConfig(join(dotGit, "config"), top, writable, guard);
    return;
  }
  const linked = linkedWorktree(top);
  if (!linked) return;
  guard.shown.push(linked.common);
  guard.writable.push(
    linked.gitDir,
    ...["objects", "refs", "logs"].map((name) => join(linked.common, name)).filter((dir) => existsSync(dir)),
  );
  if (inside(dotGit, path)) guard.readOnly.push(dotGit);
  // Made when missing so the sandbox cannot make them: a config.worktree git would obey, a
  // t4a-base (empty: none recorded) t4a's diff and cleanup would read.
  for (const name of ["config.worktree", "t4a-base"])
    if (!existsSync(join(linked.gitDir, name))) writeFileSync(join(linked.gitDir, name), "");
  for (const name of ["commondir", "gitdir", "config.worktree", "t4a-base"]) {
    if (existsSync(join(linked.gitDir, name))) guard.readOnly.push(join(linked.gitDir, name));
  }
  for (const name of ["config", "config.worktree", "hooks", "info", "worktrees", "modules"]) {
    const common = join(linked.common, name);
    // Under a writable path (the main checkout allowed too): covered like its own .git.
    if (existsSync(common) && writable.some((dir) => inside(common, dir))) guard.readOnly.push(common);
  }
  await guardConfig(join(linked.common, "config"), top, writable, guard);
}

/** A linked worktree's `.git` file, followed: its own git dir and the repository's common dir. */
export function linkedWorktree(top: string): { gitDir: string; common: string } | undefined {
  try {
    // Read as tainted (a FIFO or a symlink there must not block or lead the daemon anywhere).
    const dotGit = readUnder(top, ".git", 4096);
    const pointer = "bytes" in dotGit ? /^gitdir: (.+)$/m.exec(dotGit.bytes.toString("utf8"))?.[1]?.trim() : undefined;
    if (!pointer) return undefined;
    const gitDir = realpathSync(resolve(top, pointer));
    const commondir = readUnder(gitDir, "commondir", 4096);
    if (!("bytes" in commondir)) return undefined;
    const common = realpathSync(resolve(gitDir, commondir.bytes.toString("utf8").trim()));
    return { gitDir, common };
  } catch {
    return undefined;
  }
}

/** The base commit t4a recorded in a worktree's git dir: a commit id, or undefined (none, or not one). */
export function recordedBase(gitDir: string): string | undefined {
  const read = readUnder(gitDir, "t4a-base", 256);
  const base = "bytes" in read ? read.bytes.toString("utf8").trim() : "";
  // Only a hex id: anything else could be read by git as an option (--output=FILE).
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(base) ? base : undefined;
}

/** A hooks path or an included config that lies inside a writable path: read-only too. */
async function guardConfig(config: string, top: string, writable: string[], guard: GitGuard): Promise<void> {
  const found = await git("/", [
    "config",
    "--file",
    config,
    "--get-regexp",
    "^(core\\.hookspath|include\\.path|includeif\\..*\\.path)$",
  ]);
  for (const line of found.stdout.split("\n")) {
    const [key, ...rest] = line.split(" ");
    const value = rest.join(" ").replace(/^~\//, "/nonexistent/"); // ~ is $HOME: read-only in a sandbox
    if (!key || !value) continue;
    const base = key === "core.hookspath" ? top : dirname(config);
    const target = isAbsolute(value) ? value : resolve(base, value);
    if (!writable.some((dir) => inside(target, dir))) continue;
    // Made when missing (an empty hooks dir, an empty config), so the sandbox cannot create it.
    if (!existsSync(target)) {
      if (key === "core.hookspath") mkdirSync(target, { recursive: true });
      else writeFileSync(target, "", { flag: "a" });
    }
    guard.readOnly.push(target);
  }
}

/** The nearest directory at or above `path` that holds a `.git`. */
function enclosingRepository(path: string): string | undefined {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dir === "/") return undefined;
  }
}
