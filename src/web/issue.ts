// Seed 002's launch: POST /api/sessions {"repo":{"owner","name"},"issue":N} starts the default
// agent on that issue in its own worktree — <repos>/<name>-issue-<N> from the clone at
// <repos>/<name>, branch feat/issue-<N>, session id <name>-<N> — answering 201, or 200 when that
// session already runs (idempotent). The prompt asks the agent to read the issue with gh.
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import type { DaemonContext } from "../commands/context.ts";
import { createdReply } from "../commands/create.ts";
import { T4aError } from "../protocol/errors.ts";
import { describeIssue } from "../protocol/issue-path.ts";

const Name = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9._-]{1,100}$/, "letters, digits, . _ - only"),
  v.check((name) => !name.startsWith(".") && !name.startsWith("-"), "must not start with . or -"),
);

export const IssueLaunch = v.object({
  repo: v.object({ owner: Name, name: Name }),
  issue: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export interface IssueOptions {
  /** The directory holding the clones (`t4a web --repos DIR`). */
  repos?: string;
  agent: string;
}

export async function launchIssue(
  body: unknown,
  ctx: DaemonContext,
  options: IssueOptions,
): Promise<{ status: number; session: Record<string, unknown> }> {
  const parsed = v.safeParse(IssueLaunch, body);
  if (!parsed.success) throw new T4aError("invalid_params", `invalid issue launch: ${describeIssue(parsed.issues[0])}`);
  const { repo, issue } = parsed.output;
  const id = `${repo.name}-${issue}`;
  const base = {
    id,
    repo,
    issue,
    worktree: options.repos ? join(options.repos, `${repo.name}-issue-${issue}`) : undefined,
  };
  if (ctx.sessions.has(id)) return { status: 200, session: { ...base, ...ctx.sessions.get(id).info() } };
  if (!options.repos)
    throw new T4aError("unsupported", "issue launches need the clones' directory: t4a web --repos DIR");
  const clone = join(options.repos, repo.name);
  if (!existsSync(join(clone, ".git"))) throw new T4aError("invalid_params", `no clone of ${repo.name} at ${clone}`);
  const slug = `${repo.owner}/${repo.name}`;
  const session = await ctx.sessions.create({
    name: id,
    cwd: clone,
    worktree: `issue-${issue}`,
    worktree_path: join(options.repos, `${repo.name}-issue-${issue}`),
    branch: `feat/issue-${issue}`,
    agent: options.agent,
    prompt: `Work on ${slug}#${issue}. Start by running: gh issue view ${issue} -R ${slug}`,
    cols: 120,
    rows: 40,
    shell_integration: true,
  });
  return { status: 201, session: { ...base, ...createdReply(session), created_at: new Date().toISOString() } };
}
