// list: every terminal with its size, pid, liveness and title.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { SessionInfo } from "../protocol/session-info.ts";
import { defineCommand, type Reply, textContent } from "./command.ts";

export const ListParams = deferred(() => v.object({}));

export const ListReply = deferred(() => v.object({
  terminals: v.array(SessionInfo),
  restore_failed: v.optional(v.pipe(
    v.array(v.object({ id: v.string(), error: v.string() })),
    v.description("persisted sessions that could not come back, with why: kept, tried again at the next start or by `restore`, forgotten by `kill`"),
  )),
  warnings: v.optional(v.pipe(v.array(v.string()), v.description("what of the state files could not be read at the daemon's start (each names the file)"))),
}));

export const list = defineCommand({
  name: "list",
  params: ListParams,
  reply: ListReply,
  handle(_params, ctx) {
    const failed = ctx.sessions.manifest.failures();
    const warnings = ctx.sessions.manifest.problems;
    return {
      terminals: ctx.sessions.list().map((session) => session.info()),
      ...(failed.length ? { restore_failed: failed } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
  },
  cli: {
    usage: "list",
    summary: "List terminals: id, size, pid, state, title",
    request: () => ({}),
    print(response) {
      for (const warning of (response.warnings as string[] | undefined) ?? []) console.error(`t4a: warning: ${warning}`);
      for (const line of terminalLines(response)) console.log(line);
    },
    // No daemon, no terminals: a script's `t4a list` must not start one just to learn that.
    withoutDaemon(options) {
      if (options.json) console.log(JSON.stringify({ ok: true, terminals: [] }));
      return 0;
    },
  },
  mcp: {
    tool: "terminal_list",
    description:
      "List every terminal, one per line: id, size (cols x rows), pid, alive or exited(code), and window title; " +
      "about 15 tokens each. Use it to find terminals created earlier, or to check whether a program is still running.",
    result: (response) => textContent(terminalLines(response).join("\n") || "no terminals"),
  },
  http: [{ method: "GET", path: "/api/sessions" }],
});

function terminalLines(response: Reply): string[] {
  const failed = ((response.restore_failed as Array<{ id: string; error: string }> | undefined) ?? []).map(
    (f) => `${f.id}\t-\t-\trestore_failed\t${f.error} (\`t4a restore ${f.id}\` tries again, \`t4a kill ${f.id}\` forgets it)`,
  );
  return [...(response.terminals as Reply[]).map((t) => {
    const state = t.alive ? "alive" : `exited(${t.signal ?? t.exit_code})`;
    // A session that came back after a restart says so (and why it is not where it was).
    const restored = t.restored ? `\trestored${t.restore_note ? `: ${t.restore_note}` : ""}` : "";
    return `${t.id}\t${t.cols}x${t.rows}\t${t.pid}\t${state}\t${t.title}${restored}`;
  }), ...failed];
}
