// info: facts about the running daemon: version, pid, uptime, sessions, memory, screen workers.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { defineCommand } from "./command.ts";

export const InfoParams = deferred(() => v.object({}));

export const InfoReply = deferred(() => v.object({
  version: v.string(),
  pid: v.number(),
  uptime_ms: v.number(),
  sessions: v.number(),
  subscribers: v.number(),
  rss_bytes: v.number(),
  socket: v.string(),
  /** Optional: daemons before the screen pool do not say. */
  screen_workers: v.optional(v.pipe(v.number(), v.description("worker threads the screens parse on (0: the daemon's own thread)"))),
  worker_sessions: v.optional(v.pipe(v.array(v.number()), v.description("sessions on each worker started so far"))),
}));

export const info = defineCommand({
  name: "info",
  params: InfoParams,
  reply: InfoReply,
  handle(_params, ctx) {
    return {
      version: ctx.version,
      pid: process.pid,
      uptime_ms: Math.round(performance.now() - ctx.startedAt),
      sessions: ctx.sessions.size,
      subscribers: ctx.bus.size,
      rss_bytes: process.memoryUsage.rss(),
      socket: ctx.socketPath,
      screen_workers: ctx.sessions.screens.workers,
      worker_sessions: ctx.sessions.screens.loads,
    };
  },
  cli: {
    usage: "info",
    summary: "Show the daemon's version, pid, uptime, session count and memory",
    request: () => ({}),
    print(response) {
      for (const [key, value] of Object.entries(response)) if (key !== "ok") console.log(`${key}=${value}`);
    },
    withoutDaemon(options) {
      if (options.json) console.log(JSON.stringify({ ok: false, error: "no daemon", code: "not_found" }));
      else console.error("t4a: no daemon");
      return 3;
    },
  },
  http: [{ method: "GET", path: "/api/info" }],
});
