// notify: an agent session's state, as its CLI's hooks report it (`t4a notify $T4A_SESSION
// waiting`). Inside a session the CLI uses the session's own notify socket ($T4A_NOTIFY), the only
// channel a sandboxed agent has; elsewhere it goes over the daemon socket like any command.
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import { AgentStateName, TerminalId } from "../protocol/fields.ts";
import { defineCommand, type Reply } from "./command.ts";

export const NotifyParams = v.object({
  id: TerminalId,
  state: v.pipe(v.picklist(["working", "waiting", "idle", "exited"]), v.description("what the agent is doing now")),
  message: v.optional(v.pipe(v.string(), v.maxLength(1000), v.description("what it says about it (kept when the screen shows nothing better)"))),
});

export const NotifyReply = v.object({ state: AgentStateName, line: v.string() });

export const notify = defineCommand({
  name: "notify",
  params: NotifyParams,
  reply: NotifyReply,
  handle(params, ctx) {
    const watch = ctx.sessions.get(params.id).agent;
    if (!watch) throw new T4aError("unsupported", `terminal "${params.id}" runs no agent (create it with --agent)`);
    watch.notify(params.state, params.message);
    return { state: watch.state, line: watch.line };
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
      return notifySocket(path, `${request.state}${request.message ? ` ${String(request.message).replace(/\s+/g, " ")}` : ""}`);
    },
  },
});

async function notifySocket(path: string, line: string): Promise<Reply> {
  let answer = "";
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const socket = await Bun.connect({
    unix: path,
    socket: {
      data(_socket, chunk) {
        answer += new TextDecoder().decode(chunk);
        if (answer.includes("\n")) done();
      },
      close: () => done(),
      error: () => done(),
    },
  }).catch((error: Error) => {
    throw new T4aError("not_found", `no notify channel at ${path}: ${error.message}`);
  });
  socket.write(`${line}\n`);
  await finished;
  socket.end();
  const reply = answer.trim();
  if (reply === "ok") return { ok: true };
  return { ok: false, error: reply.replace(/^error /, "") || "the notify channel closed", code: "invalid_params" };
}
