// events: after an {"ok":true} line, stream one JSON line per event (exit, title, bell, …) until
// the client disconnects; optionally for one terminal only; with `since`, first what came after
// that event (a relay resuming after its link dropped), or a `gap` saying what is lost.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { TerminalId } from "../protocol/fields.ts";
import { StreamReply, defineCommand } from "./command.ts";

export const EventsParams = deferred(() =>
  v.object({
    terminal: v.optional(TerminalId),
    since: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    instance: v.optional(v.pipe(v.string(), v.maxLength(64))),
  }),
);

export const EventsReply = deferred(() => v.object({ instance: v.string(), seq: v.number() }));

export const events = defineCommand({
  name: "events",
  params: EventsParams,
  reply: EventsReply,
  handle(params, ctx) {
    if (params.terminal !== undefined) ctx.sessions.get(params.terminal);
    const resume = params.since === undefined ? undefined : { since: params.since, instance: params.instance };
    return new StreamReply({ instance: ctx.bus.instance, seq: ctx.bus.seq }, (sink) =>
      ctx.bus.subscribe(params.terminal, sink, resume),
    );
  },
  cli: {
    usage: "events [id]",
    summary: "Stream events (exit, title, bell, …) as JSON lines until interrupted",
    options: [
      ["--all", "every host in hosts.json too: each event gets its host, its terminal as HOST:ID"],
      ["--since <seq>", "first the events after this seq (a gap event says what is lost)"],
      ["--instance <id>", "the daemon instance that seq counted in (its events reply)"],
    ],
    request: ([terminal], options) => ({
      terminal,
      since: options.since === undefined ? undefined : Number(options.since),
      instance: options.instance,
    }),
  },
  http: [
    { method: "GET", path: "/api/events" },
    { method: "GET", path: "/api/sessions/:terminal/events" },
  ],
});
