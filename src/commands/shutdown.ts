// shutdown: end every terminal and stop the daemon (as SIGTERM does).
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { defineCommand } from "./command.ts";

/** Sessions get kill_grace_ms (default 1 s, at most 60 s) to end; this covers the default with room. */
const SHUTDOWN_WAIT_MS = 15_000;

export const ShutdownParams = deferred(() => v.object({}));

export const ShutdownReply = deferred(() => v.object({ pid: v.number() }));

export const shutdown = defineCommand({
  name: "shutdown",
  params: ShutdownParams,
  reply: ShutdownReply,
  handle(_params, ctx) {
    ctx.requestShutdown();
    return { pid: process.pid };
  },
  cli: {
    usage: "shutdown",
    summary: "Stop the daemon, ending every terminal",
    request: () => ({}),
    // `t4a shutdown && t4a create` must not race the old daemon: return once it has exited (it
    // removes its socket last). Waiting on the socket file instead would also wait for a new daemon.
    async after(response) {
      const deadline = performance.now() + SHUTDOWN_WAIT_MS;
      while (processExists(response.pid)) {
        if (performance.now() > deadline)
          throw new Error(`the daemon did not exit within ${SHUTDOWN_WAIT_MS / 1000} s`);
        await Bun.sleep(10);
      }
    },
  },
});

function processExists(pid: unknown): boolean {
  if (typeof pid !== "number") return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
