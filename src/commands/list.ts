// list: every terminal with its size, pid, liveness and title, and what it needs from a person:
// an agent's state and its line (the question it waits on), a program reading its terminal, a
// non-zero exit. `needs` keeps only those, the most pressing first.
import * as v from "valibot";
import { forDisplay, fromProgram, shownLine } from "../protocol/program-text.ts";
import { deferred } from "../protocol/deferred.ts";
import { SessionInfo } from "../protocol/session-info.ts";
import { defineCommand, type Reply, textContent } from "./command.ts";
import { NEEDS, needRank } from "./needs.ts";

export const ListParams = deferred(() =>
  v.object({
    needs: v.optional(v.pipe(v.boolean(), v.description("only who needs a person, most urgent first"))),
  }),
);

export const ListReply = deferred(() =>
  v.object({
    terminals: v.array(SessionInfo),
    restore_failed: v.optional(
      v.pipe(
        v.array(v.object({ id: v.string(), error: v.string() })),
        v.description(
          "persisted sessions that could not come back, with why: kept, " +
            "tried again at the next start or by `restore`, forgotten by `kill`",
        ),
      ),
    ),
    warnings: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description("what of the state files could not be read at the daemon's start (each names the file)"),
      ),
    ),
  }),
);

export const list = defineCommand({
  name: "list",
  params: ListParams,
  reply: ListReply,
  handle(params, ctx) {
    // Why a restore failed may name the directory a program's OSC 7 reported.
    const failed = ctx.sessions.manifest
      .failures()
      .map((failure) => ({ ...failure, error: forDisplay(fromProgram(failure.error)) }));
    const warnings = ctx.sessions.manifest.problems;
    let terminals = ctx.sessions.list().map((session) => session.info());
    // Its need as the session tracks it: an answered question, an agent an ask holds, is none.
    if (params.needs)
      terminals = terminals
        .filter((t) => t.need !== undefined && (NEEDS as readonly string[]).includes(t.need.why))
        .sort((a, b) => needRank(a) - needRank(b));
    return {
      terminals,
      ...(failed.length ? { restore_failed: failed } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
  },
  cli: {
    usage: "list",
    summary: "List terminals: id, size, pid, state, title, and an agent's state and question",
    options: [
      [
        "--needs",
        "only terminals that need you (waiting agents first, then programs reading input, then failed exits)",
      ],
      [
        "--all",
        "every host in hosts.json too (t4a hosts add), asked in parallel: a host column " +
          "first, ids as HOST:ID; a host that does not answer is one line on stderr",
      ],
    ],
    examples: ["t4a list", "t4a list --needs", "t4a list --all --needs"],
    request: (_args, options) => ({ needs: options.needs === true ? true : undefined }),
    print(response) {
      for (const warning of (response.warnings as string[] | undefined) ?? [])
        console.error(`t4a: warning: ${warning}`);
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
      "List every terminal, one per line: id, size, pid, alive " +
      "or exited(code), title, an agent's state and its question.",
    result: (response) => textContent(terminalLines(response).join("\n") || "no terminals"),
    fleet: { field: "all", type: "boolean", description: "every host too (HOST:ID)" },
  },
  http: [{ method: "GET", path: "/api/sessions" }],
});

/** The human lines of a list reply (fleet.ts prints a host's terminals with them too). */
export function terminalLines(response: Reply): string[] {
  const now = Date.now();
  const failed = ((response.restore_failed as Array<{ id: string; error: string }> | undefined) ?? []).map(
    (f) =>
      `${f.id}\t-\t-\trestore_failed\t${oneLine(f.error)} ` +
      `(\`t4a restore ${f.id}\` tries again, \`t4a kill ${f.id}\` forgets it)`,
  );
  const lines = (response.terminals as Reply[]).map((t) => {
    const state = t.alive ? "alive" : `exited(${t.signal ?? t.exit_code})`;
    // A session that came back after a restart says so (and why it is not where it was).
    const restored = t.restored ? `\trestored${t.restore_note ? `: ${t.restore_note}` : ""}` : "";
    // `claude waiting 33s "Do you want to proceed?"`; a plain program reading its terminal says so.
    let doing = "";
    if (t.agent !== undefined && t.agent_state !== undefined) {
      const since = typeof t.agent_since === "number" ? ` ${ago(now - t.agent_since)}` : "";
      const line = t.agent_line ? ` ${JSON.stringify(oneLine(String(t.agent_line)))}` : "";
      doing = `\t${t.agent} ${t.agent_state}${since}${line}`;
    } else if (t.alive && t.input_wanted !== undefined) doing = `\treading input (${t.input_wanted})`;
    // Who holds its need, if a worker claimed it: `need 17 claimed by worker "w2"`.
    const need = t.need as { need_id?: unknown; claimed_by?: unknown } | undefined;
    const held =
      need && typeof need.claimed_by === "string"
        ? `\tneed ${String(need.need_id)} claimed by ${oneLine(need.claimed_by)}`
        : "";
    const title = oneLine(String(t.title ?? ""));
    return `${t.id}\t${t.cols}x${t.rows}\t${t.pid}\t${state}\t${title}${doing}${held}${restored}`;
  });
  return [...lines, ...failed];
}

/** A line for a terminal: no control characters (a title or a question is the program's text). */
function oneLine(text: string): string {
  return shownLine(text).slice(0, 200);
}

function ago(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  return `${Math.round(seconds / 3600)}h`;
}
