// scratchpad: a directory shared by every session that names it (seed 001), where workers leave
// findings for each other. Exported as T4A_SCRATCHPAD, writable inside a sandbox, and linked as
// scratchpad/ at the root of a worktree (excluded from git there). Never removed by t4a.
import { existsSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "../plan.ts";
import { excludeFromGit } from "./worktree.ts";

export const scratchpad: Plugin = async (spec, plan, ctx) => {
  if (spec.scratchpad === undefined) return;
  const dir = join(ctx.stateDir, "scratchpads", spec.scratchpad);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  plan.env.set("T4A_SCRATCHPAD", dir);
  plan.mounts.push({ kind: "bind", path: dir });
  plan.facts.scratchpad = dir;
  const tree = plan.facts.worktree;
  if (tree) {
    const link = join(tree, "scratchpad");
    if (!existsSync(link) && !isSymlink(link)) symlinkSync(dir, link);
    await excludeFromGit(tree, "/scratchpad");
  }
};

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
