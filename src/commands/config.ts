// config: read or change daemon settings; answers the whole configuration after the change.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { MAX_SCROLLBACK_LINES, MAX_SESSIONS_LIMIT } from "../protocol/limits.ts";
import { Milliseconds } from "../protocol/fields.ts";
import { intOption } from "./cli-helpers.ts";
import { defineCommand } from "./command.ts";

export const ConfigParams = deferred(() =>
  v.object({
    idle_timeout_ms: v.optional(v.pipe(Milliseconds, v.minValue(10))),
    scrollback_lines: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_SCROLLBACK_LINES))),
    scrollback_bytes: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.description(
          "bytes of scrollback each new terminal keeps at most, oldest rows dropped first (0 = no byte limit)",
        ),
      ),
    ),
    kill_grace_ms: v.optional(v.pipe(Milliseconds, v.maxValue(60_000))),
    max_sessions: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_SESSIONS_LIMIT))),
  }),
);

export const ConfigReply = deferred(() =>
  v.object({
    config: v.object({
      idle_timeout_ms: v.number(),
      scrollback_lines: v.number(),
      scrollback_bytes: v.number(),
      kill_grace_ms: v.number(),
      max_sessions: v.number(),
    }),
  }),
);

export const config = defineCommand({
  name: "config",
  params: ConfigParams,
  reply: ConfigReply,
  handle(params, ctx) {
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined) ctx.config[key as keyof typeof ctx.config] = value;
    }
    return { config: { ...ctx.config } };
  },
  cli: {
    usage: "config",
    summary: "Show or change daemon settings (new terminals use the new values)",
    options: [
      ["--idle-timeout-ms <ms>", "quiet time before an idle event"],
      ["--scrollback-lines <n>", "scrollback kept by new terminals"],
      ["--scrollback-bytes <n>", "bytes of scrollback a new terminal keeps at most (0 = no limit)"],
      ["--kill-grace-ms <ms>", "time between SIGHUP and SIGKILL on kill"],
      ["--max-sessions <n>", "most terminals at once"],
    ],
    request: (_args, options) => ({
      idle_timeout_ms: intOption(options.idleTimeoutMs, "--idle-timeout-ms"),
      scrollback_lines: intOption(options.scrollbackLines, "--scrollback-lines"),
      scrollback_bytes: intOption(options.scrollbackBytes, "--scrollback-bytes"),
      kill_grace_ms: intOption(options.killGraceMs, "--kill-grace-ms"),
      max_sessions: intOption(options.maxSessions, "--max-sessions"),
    }),
    print(response) {
      for (const [key, value] of Object.entries(response.config as object)) console.log(`${key}=${value}`);
    },
  },
});
