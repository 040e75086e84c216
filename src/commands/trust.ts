// trust: approve a repository's worktree setup script (.t4a/setup) as its bytes are now. New
// worktrees of that repository run it while it stays byte for byte the same; a changed script
// is not run until approved again. Its own command, never offered to MCP or the web: approving
// code to run is for the person at the keyboard.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { defineCommand } from "./command.ts";
import { absolutePath } from "./cli-helpers.ts";

export const trust = defineCommand({
  name: "trust",
  params: deferred(() =>
    v.object({
      dir: v.pipe(
        v.string(),
        v.startsWith("/", "must be an absolute path"),
        v.description("a checkout of the repository (its main one or a worktree)"),
      ),
    }),
  ),
  reply: deferred(() =>
    v.object({
      /** The repository's main checkout: approvals are per repository. */
      repo: v.string(),
      path: v.string(),
      sha256: v.string(),
      /** The approved script, as it was read. */
      script: v.string(),
    }),
  ),
  async handle(params, ctx) {
    const { trustSetup } = await import("../spawn/repo-setup.ts");
    return trustSetup(params.dir, ctx.stateDir);
  },
  cli: {
    usage: "trust [dir]",
    summary: "Approve this repository's worktree setup script (.t4a/setup) as it is now: new worktrees run it",
    examples: ["cat .t4a/setup && t4a trust", "t4a trust ~/code/app"],
    request: ([dir]) => ({ dir: absolutePath(dir ?? ".") }),
    print(response) {
      console.error(
        `t4a: approved ${response.path} (sha256 ${response.sha256}) for worktrees of ${response.repo}; ` +
          "a changed script must be approved again",
      );
    },
    startsDaemon: true,
  },
});
