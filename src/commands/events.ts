// events: after an {"ok":true} line, stream one JSON line per event (exit, title, bell, …) until
// the client disconnects; optionally for one terminal only.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { EmptyReply, TerminalId } from "../protocol/fields.ts";
import { StreamReply, defineCommand } from "./command.ts";

export const EventsParams = deferred(() => v.object({ terminal: v.optional(TerminalId) }));

export const events = defineCommand({
  name: "events",
  params: EventsParams,
  reply: EmptyReply,
  handle(params, ctx) {
    if (params.terminal !== undefined) ctx.sessions.get(params.terminal);
    return new StreamReply({}, (sink) => ctx.bus.subscribe(params.terminal, sink));
  },
  cli: {
    usage: "events [id]",
    summary: "Stream events (exit, title, bell, …) as JSON lines until interrupted",
    options: [["--all", "every host in hosts.json too: each event gets its host, its terminal as HOST:ID"]],
    request: ([terminal]) => ({ terminal }),
  },
  http: [{ method: "GET", path: "/api/events" }, { method: "GET", path: "/api/sessions/:terminal/events" }],
});
