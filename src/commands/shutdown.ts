// shutdown: end every terminal and stop the daemon (as SIGTERM does).
import * as v from "valibot";
import { defineCommand } from "./command.ts";

export const ShutdownParams = v.object({});

export const shutdown = defineCommand({
  name: "shutdown",
  params: ShutdownParams,
  handle(_params, ctx) {
    ctx.requestShutdown();
    return {};
  },
  cli: {
    usage: "shutdown",
    summary: "Stop the daemon, ending every terminal",
    request: () => ({}),
    startsDaemon: false,
  },
});
