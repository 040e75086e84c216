// kill: end a terminal's whole process tree (SIGHUP, then SIGKILL after the grace period) and forget it.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { KeptItem, TerminalId } from "../protocol/fields.ts";
import { defineCommand } from "./command.ts";

export const KillParams = deferred(() => v.object({ id: TerminalId }));

export const KillReply = deferred(() => v.object({ kept: v.optional(v.array(KeptItem)) }));

export const kill = defineCommand({
  name: "kill",
  params: KillParams,
  reply: KillReply,
  async handle(params, ctx) {
    // What the session's end kept so no work was lost (a dirty worktree, a branch with commits).
    const report = await ctx.sessions.kill(params.id);
    return report.kept ? { kept: report.kept } : {};
  },
  cli: {
    usage: "kill <id>",
    summary: "End a terminal and everything it started",
    request: ([id]) => ({ id }),
    print(response) {
      for (const kept of (response.kept as Array<{ what: string; path: string; reason: string }> | undefined) ?? []) {
        console.error(`t4a: kept ${kept.what} ${kept.path}: ${kept.reason}`);
      }
    },
  },
  mcp: {
    tool: "terminal_kill",
    description:
      "End a terminal: hang up its program and all it started, then forget it. " +
      'Answers "ok" once they are gone (a worktree session: what was kept). Terminals run until killed.',
  },
  http: [{ method: "DELETE", path: "/api/sessions/:id", answer: { status: "stopped" } }],
});
