// info: facts about the running daemon: version, pid, uptime, sessions, memory, screen workers.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { defineCommand } from "./command.ts";

export const InfoParams = deferred(() => v.object({}));

export const InfoReply = deferred(() =>
  v.object({
    version: v.string(),
    pid: v.number(),
    uptime_ms: v.number(),
    sessions: v.number(),
    subscribers: v.number(),
    rss_bytes: v.number(),
    unread_reply_bytes: v.optional(
      v.pipe(
        v.number(),
        v.description(
          "replies written for clients that have not read them yet " +
            "(at most 128 MB; past it the furthest behind is dropped)",
        ),
      ),
    ),
    socket: v.string(),
    /** Optional: daemons before the fleet's resume do not say. */
    instance: v.optional(
      v.pipe(v.string(), v.description("this daemon instance (events and wait count their seq in it)")),
    ),
    seq: v.optional(v.pipe(v.number(), v.description("the last event's seq (a wait --any's since)"))),
    /** Optional: daemons before the screen pool do not say. */
    screen_workers: v.optional(
      v.pipe(v.number(), v.description("worker threads the screens parse on (0: the daemon's own thread)")),
    ),
    worker_sessions: v.optional(v.pipe(v.array(v.number()), v.description("sessions on each worker started so far"))),
    restore_failed: v.optional(
      v.pipe(
        v.array(v.object({ id: v.string(), error: v.string() })),
        v.description("persisted sessions that could not come back, with why"),
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
      ...(ctx.unreadReplyBytes ? { unread_reply_bytes: ctx.unreadReplyBytes() } : {}),
      socket: ctx.socketPath,
      instance: ctx.bus.instance,
      seq: ctx.bus.seq,
      screen_workers: ctx.sessions.screens.workers,
      worker_sessions: ctx.sessions.screens.loads,
      ...(ctx.sessions.manifest.failures().length ? { restore_failed: ctx.sessions.manifest.failures() } : {}),
      ...(ctx.sessions.manifest.problems.length ? { warnings: ctx.sessions.manifest.problems } : {}),
    };
  },
  cli: {
    usage: "info",
    summary: "Show the daemon's version, pid, uptime, session count and memory",
    request: () => ({}),
    print(response) {
      for (const [key, value] of Object.entries(response)) {
        if (key === "warnings") for (const warning of value as string[]) console.error(`t4a: warning: ${warning}`);
        else if (key === "restore_failed")
          for (const f of value as Array<{ id: string; error: string }>)
            console.log(`restore_failed=${f.id}: ${f.error}`);
        else if (key !== "ok") console.log(`${key}=${value}`);
      }
    },
    withoutDaemon(options) {
      if (options.json) console.log(JSON.stringify({ ok: false, error: "no daemon", code: "not_found" }));
      else console.error("t4a: no daemon");
      return 3;
    },
  },
  http: [{ method: "GET", path: "/api/info" }],
});
