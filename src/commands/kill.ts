// kill: end a terminal's whole process tree (SIGHUP, then SIGKILL after the grace period) and forget it.
import * as v from "valibot";
import { TerminalId } from "../protocol/fields.ts";
import { defineCommand } from "./command.ts";

export const KillParams = v.object({ id: TerminalId });

export const kill = defineCommand({
  name: "kill",
  params: KillParams,
  async handle(params, ctx) {
    await ctx.pool.kill(params.id, ctx.config.kill_grace_ms);
    return {};
  },
  cli: {
    usage: "kill <id>",
    summary: "End a terminal and everything it started",
    request: ([id]) => ({ id }),
  },
  mcp: {
    tool: "terminal_kill",
    description:
      "End a terminal: hang up its program and everything it started (SIGHUP, then SIGKILL after a grace period) and forget the terminal. " +
      'Answers "ok" once the processes are gone. Terminals run until killed, so kill the ones you no longer need.',
  },
});
