// diff: what a session changed in its git checkout, for review before its work is merged: the
// branch, the commits beyond its base, the files not committed, and one diff of all of it.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { DEFAULT_MAX_OUTPUT, withinBudget } from "../protocol/budget.ts";
import { TerminalId } from "../protocol/fields.ts";
import { intOption } from "./cli-helpers.ts";
import { defineCommand } from "./command.ts";

export const diff = defineCommand({
  name: "diff",
  params: deferred(() =>
    v.object({
      id: TerminalId,
      max_output: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(100),
          v.description("at most this many characters of diff (default 16000); its middle is cut"),
        ),
        DEFAULT_MAX_OUTPUT,
      ),
    }),
  ),
  reply: deferred(() =>
    v.object({
      /** The worktree, or the directory the session works in. */
      dir: v.string(),
      branch: v.optional(v.string()),
      /** The commit the work started from. */
      base: v.string(),
      /** Newest first. */
      commits: v.array(v.object({ sha: v.string(), subject: v.string() })),
      /** Not committed: git status's two letters and the path. */
      files: v.array(v.object({ status: v.string(), path: v.string() })),
      /** The base against the working tree, then each new file. */
      diff: v.string(),
      /** Characters of the diff left out. */
      cut: v.number(),
    }),
  ),
  async handle(params, ctx) {
    const changes = await ctx.sessions.get(params.id).changes();
    const { text, cut } = withinBudget(changes.diff, params.max_output);
    return { ...changes, diff: text, cut };
  },
  cli: {
    usage: "diff <id>",
    summary: "What a session changed: its branch, commits beyond its base, uncommitted files, and the diff",
    options: [["--max-output <n>", "at most n characters of diff (default 16000); its middle is cut"]],
    examples: ["t4a diff t1", "t4a diff t1 --json | jq -r .branch"],
    request: ([id], options) => ({ id, max_output: intOption(options.maxOutput, "--max-output") }),
    print(response) {
      const ahead = response.commits.length;
      const files = response.files.length;
      console.log(
        `${response.branch ?? "(detached)"} in ${response.dir}: ${ahead} commit${ahead === 1 ? "" : "s"} ` +
          `beyond ${response.base.slice(0, 12)}, ${files} uncommitted file${files === 1 ? "" : "s"}`,
      );
      for (const commit of response.commits) console.log(`  ${commit.sha} ${commit.subject}`);
      for (const file of response.files) console.log(`  ${file.status} ${file.path}`);
      if (response.diff) console.log(`\n${response.diff}`);
    },
  },
  http: [{ method: "GET", path: "/api/sessions/:id/diff" }],
});
