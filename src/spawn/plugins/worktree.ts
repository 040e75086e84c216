// worktree: the session works in its own git worktree of the repo holding its cwd, on branch
// t4a/NAME, so agents in parallel never touch each other's files (seed 001). The same NAME again
// reuses the worktree. At the session's end the worktree is removed only when it holds no
// uncommitted or untracked work, and the branch deleted only when it has no commits beyond its
// base: never lose work; what is kept is reported.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { T4aError } from "../../protocol/errors.ts";
import { git, gitOk } from "../git.ts";
import { readyWorktree } from "../repo-setup.ts";
import { directoryUnder } from "../tainted-files.ts";
import { sandboxedCommand } from "./sandbox.ts";
import { linkedWorktree, recordedBase } from "../sandbox/git-guard.ts";
import type { KeptItem } from "../../protocol/fields.ts";
import type { Plugin } from "../plan.ts";

/** Live sessions per worktree directory: the last one to end decides whether it goes. */
const users = new Map<string, number>();

/** Git-ignored directories too big to copy: linked from the main checkout instead. */
const SHARED_DIRS = [
  "node_modules",
  ".venv",
  "venv",
  "target",
  "vendor/bundle",
  ".gradle",
  ".tox",
  "elm-stuff",
  "Pods",
];

export const worktree: Plugin = async (spec, plan, ctx) => {
  const name = spec.worktree;
  if (name === undefined) {
    for (const field of ["base", "worktree_path", "branch"] as const) {
      if (spec[field] !== undefined) throw new T4aError("invalid_params", `${field} needs worktree`);
    }
    return;
  }
  const top = await git(plan.cwd, ["rev-parse", "--show-toplevel"]);
  if (top.code !== 0) throw new T4aError("invalid_params", `worktree: ${plan.cwd} is not in a git repository`);
  // A cwd inside another worktree belongs to the same repository: start from its main checkout.
  const common = realpathSync(
    await gitOk(plan.cwd, ["rev-parse", "--path-format=absolute", "--git-common-dir"], "worktree"),
  );
  const main = common.endsWith("/.git") ? common.slice(0, -5) : top.stdout;
  const subdir = relative(top.stdout, plan.cwd);
  const branch = spec.branch ?? `t4a/${name}`;
  if ((await git(main, ["check-ref-format", "--branch", branch])).code !== 0) {
    throw new T4aError("invalid_params", `worktree: "${branch}" is not a valid branch name`);
  }
  const dir = spec.worktree_path ?? join(ctx.worktreesDir, `${basename(main)}-${name}`);
  mkdirSync(join(dir, ".."), { recursive: true, mode: 0o700 });

  let made = false;
  let branchExists = false;
  let base = "";
  if (existsSync(dir)) {
    // Its .git is read, never trusted to run git in: a sandbox may have replaced it.
    if (linkedWorktree(dir)?.common !== common) {
      throw new T4aError("exists", `worktree: ${dir} exists and is not a worktree of ${main}`);
    }
  } else {
    base = await gitOk(
      main,
      ["rev-parse", "--verify", "--end-of-options", `${spec.base ?? "HEAD"}^{commit}`],
      `worktree: base "${spec.base ?? "HEAD"}"`,
    );
    branchExists = (await git(main, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`])).code === 0;
    // An existing branch is checked out as it is, never reset (`-B` would drop its commits).
    const add = branchExists ? ["worktree", "add", dir, branch] : ["worktree", "add", "-b", branch, dir, base];
    await gitOk(main, add, "worktree");
    made = true;
    const gitDir = await gitOk(dir, ["rev-parse", "--path-format=absolute", "--git-dir"], "worktree");
    // Empty for a branch that existed (no base known): a placeholder, so a sandbox cannot write one.
    writeFileSync(join(gitDir, "t4a-base"), branchExists ? "" : `${base}\n`);
    for (const shared of SHARED_DIRS) await linkShared(main, dir, shared);
  }
  users.set(dir, (users.get(dir) ?? 0) + 1);
  plan.cleanups.push(async () => {
    const left = (users.get(dir) ?? 1) - 1;
    if (left > 0) {
      users.set(dir, left);
      return [{ what: "worktree", path: dir, reason: `still used by ${left} other session${left === 1 ? "" : "s"}` }];
    }
    users.delete(dir);
    return removeIfClean(main, common, dir, branch);
  });
  if (made) {
    // After its cleanup is in the plan: a failing setup script undoes the new worktree. The
    // approved script runs as the user only on the commit the user's own checkout is at; any
    // other (an existing branch, whose commits may be an agent's; another base) could make it
    // run code nobody approved (a script it calls), so there it runs in a sandbox.
    const linked = linkedWorktree(dir);
    const trusted = linked ? ["--git-dir", linked.gitDir, "--work-tree", dir] : [];
    const [own, checkedOut] = await Promise.all([
      git(main, ["rev-parse", "--verify", "HEAD"]),
      git(dir, [...trusted, "rev-parse", "--verify", "HEAD"]),
    ]);
    const yours = linked !== undefined && own.code === 0 && checkedOut.code === 0 && own.stdout === checkedOut.stdout;
    const sandboxed = yours
      ? undefined
      : {
          why: branchExists ? `${branch} existed: its commits may be an agent's` : `not the commit your checkout is at`,
          net: spec.sandbox_net === true,
          run: (argv: string[], env: Record<string, string>) =>
            sandboxedCommand(ctx, dir, spec.sandbox_net === true ? "host" : "none", argv, env),
        };
    const ready = await readyWorktree(main, dir, { stateDir: ctx.stateDir, branch, env: ctx.daemonEnv, sandboxed });
    if (ready.included) plan.facts.worktree_included = ready.included;
    if (ready.setup) plan.facts.worktree_setup = ready.setup;
  }
  // The session's subdirectory as the branch has it: never through a symlink the branch holds
  // (it could lead the session, and a sandbox's writable cwd, anywhere).
  if (!directoryUnder(dir, subdir)) {
    throw new T4aError(
      "invalid_params",
      `worktree: ${subdir} is a symlink or not a directory on ${branch}; ` +
        "start the session from the repository's root (or another directory)",
    );
  }
  plan.cwd = join(dir, subdir);
  plan.facts.worktree = dir;
  plan.facts.branch = branch;
  if (made) plan.facts.worktree_created = true;
};

/** node_modules and friends: a symlink to the main checkout's, when it has one git ignores. */
async function linkShared(main: string, dir: string, shared: string): Promise<void> {
  const source = join(main, shared);
  if (!existsSync(source)) return;
  // The link's directory as the branch has it, reached through no symlink (a branch's
  // `vendor -> ~/.config/t4a/plugins` would put the link among t4a's plugins).
  const parent = directoryUnder(dir, dirname(shared) === "." ? "" : dirname(shared));
  if (!parent) return;
  const target = join(parent, basename(shared));
  if (lstatSync(target, { throwIfNoEntry: false })) return;
  // Tracked, or not ignored: not ours to share.
  if ((await git(main, ["check-ignore", "-q", "--", shared])).code !== 0) return;
  symlinkSync(source, target);
  // `node_modules/` in .gitignore matches directories only, not a symlink: exclude the link itself.
  await excludeFromGit(dir, `/${shared}`);
}

/** Adds a pattern to the repository's info/exclude (shared by its worktrees) unless it is there. */
export async function excludeFromGit(tree: string, pattern: string): Promise<void> {
  const path = await gitOk(tree, ["rev-parse", "--path-format=absolute", "--git-path", "info/exclude"], "worktree");
  const current = existsSync(path) ? readFileSync(path, "utf8") : "";
  if (current.split("\n").includes(pattern)) return;
  mkdirSync(join(path, ".."), { recursive: true });
  appendFileSync(path, `${current && !current.endsWith("\n") ? "\n" : ""}${pattern}\n`);
}

async function removeIfClean(main: string, common: string, dir: string, branch: string): Promise<KeptItem[]> {
  if (!existsSync(dir)) return [];
  // The session may have replaced .git (a repository of its own, with its own config): then git
  // would obey that config. Only a .git that still leads into this repository is trusted.
  const linked = linkedWorktree(dir);
  if (linked?.common !== common || !existsSync(join(linked.gitDir, "HEAD"))) {
    return [
      {
        what: "worktree",
        path: dir,
        reason:
          "its .git no longer leads into the repository (replaced " +
          "inside the session): not trusted, kept for you to inspect",
      },
    ];
  }
  const trusted = ["--git-dir", linked.gitDir, "--work-tree", dir];
  // A submodule's own .git could be the session's too: git status would run git inside it.
  const gitlinks = await git(dir, [...trusted, "ls-files", "--stage"]);
  if (gitlinks.code !== 0) return [{ what: "worktree", path: dir, reason: `git ls-files failed: ${gitlinks.stderr}` }];
  if (/^160000 /m.test(gitlinks.stdout))
    return [{ what: "worktree", path: dir, reason: "it has submodules (t4a does not look inside them)" }];
  const status = await git(dir, [
    ...trusted,
    "status",
    "--porcelain",
    "--untracked-files=all",
    "--ignore-submodules=all",
  ]);
  if (status.code !== 0) return [{ what: "worktree", path: dir, reason: `git status failed: ${status.stderr}` }];
  if (status.stdout !== "") {
    const files = status.stdout.split("\n").length;
    return [{ what: "worktree", path: dir, reason: `${files} uncommitted or untracked file${files === 1 ? "" : "s"}` }];
  }
  const base = recordedBase(linked.gitDir);
  const removed = await git(main, ["worktree", "remove", dir]);
  if (removed.code !== 0)
    return [{ what: "worktree", path: dir, reason: `git worktree remove failed: ${removed.stderr}` }];
  // Commits beyond the base are work: the branch stays. Without a recorded base (a branch that
  // existed before), every commit not on another branch counts.
  const ahead = base
    ? await git(main, ["rev-list", "--count", `${base}..refs/heads/${branch}`])
    : await git(main, ["rev-list", "--count", `refs/heads/${branch}`, "--not", `--exclude=${branch}`, "--branches"]);
  if (ahead.code !== 0)
    return [{ what: "branch", path: branch, reason: `could not count its commits: ${ahead.stderr}` }];
  if (Number(ahead.stdout) > 0)
    return [
      {
        what: "branch",
        path: branch,
        reason: `${ahead.stdout} commit${ahead.stdout === "1" ? "" : "s"} beyond its base`,
      },
    ];
  const deleted = await git(main, ["branch", "-D", branch]);
  return deleted.code === 0
    ? []
    : [{ what: "branch", path: branch, reason: `git branch -D failed: ${deleted.stderr}` }];
}
