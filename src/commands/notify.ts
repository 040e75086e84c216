// notify: an agent session's state, as its CLI's hooks report it (`t4a notify $T4A_SESSION
// waiting`). Inside a session the CLI uses the session's own notify channel ($T4A_NOTIFY, a FIFO),
// the only one a sandboxed agent has; elsewhere it goes over the daemon socket like any command.
import { closeSync, constants, openSync, statSync, writeSync } from "node:fs";
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { describeIssue } from "../protocol/issue-path.ts";
import { AgentStateName, TerminalId } from "../protocol/fields.ts";
import { forDisplay, fromProgram } from "../protocol/program-text.ts";
import { defineCommand, type Reply } from "./command.ts";

export const NotifyParams = deferred(() =>
  v.object({
    id: TerminalId,
    state: v.pipe(v.picklist(["working", "waiting", "idle", "exited"]), v.description("what the agent is doing now")),
    message: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(1000),
        v.description("what it says about it (kept when the screen shows nothing better)"),
      ),
    ),
  }),
);

export const NotifyReply = deferred(() => v.object({ state: AgentStateName, line: v.string() }));

export const notify = defineCommand({
  name: "notify",
  params: NotifyParams,
  reply: NotifyReply,
  handle(params, ctx) {
    const watch = ctx.sessions.get(params.id).agent;
    if (!watch) throw new T4aError("unsupported", `terminal "${params.id}" runs no agent (create it with --agent)`);
    watch.notify(params.state, params.message);
    // The line is the screen's or the report's: shown as the agent's other lines are.
    return { state: watch.state, line: forDisplay(fromProgram(watch.line)) };
  },
  cli: {
    usage: "notify <id> <state> [...message]",
    summary: "Report an agent session's state (for its CLI's hooks): working, waiting, idle, exited",
    examples: ['t4a notify "$T4A_SESSION" waiting'],
    request: ([id, state, ...message]) => ({ id, state, message: message.length ? message.join(" ") : undefined }),
    // Inside the session: its own channel, which reaches nothing but this session's state.
    async transport(request) {
      const path = process.env.T4A_NOTIFY;
      if (!path || request.id !== process.env.T4A_SESSION) return undefined;
      // The channel answers nothing: a bad report is caught here, as the daemon would.
      const checked = v.safeParse(NotifyParams, { id: request.id, state: request.state, message: request.message });
      if (!checked.success) return { ok: false, error: describeIssue(checked.issues[0]), code: "invalid_params" };
      return notifyChannel(
        path,
        `${request.state}${request.message ? ` ${String(request.message).replace(/\s+/g, " ")}` : ""}`,
      );
    },
  },
});

/**
 * One report into the session's FIFO: written whole in one write (far below PIPE_BUF, so never
 * interleaved with another), without waiting: no reader means no daemon is listening.
 */
function notifyChannel(path: string, line: string): Reply {
  let fd: number;
  try {
    if (!statSync(path).isFIFO()) throw new Error("not a notify channel");
    fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new T4aError("not_found", `no notify channel at ${path}: ${(error as Error).message}`);
  }
  try {
    writeSync(fd, `${line}\n`);
  } finally {
    closeSync(fd);
  }
  return { ok: true };
}
