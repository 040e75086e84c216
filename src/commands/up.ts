// up: create every session of a connector.json file (seed 001), all or none. A live session of
// the same name is left alone and reported, so running `up` again is harmless; when one create
// fails, the sessions this call made are ended again and the error names the entry.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { CreateReply } from "../protocol/session-info.ts";
import { T4aError } from "../protocol/errors.ts";
import { SessionSpec } from "../protocol/session-spec.ts";
import { defineCommand, type Reply } from "./command.ts";
import { createdReply } from "./create.ts";
import { readConnectorFile } from "./connector-file.ts";

export const UpParams = deferred(() =>
  v.object({
    sessions: v.pipe(
      v.array(SessionSpec),
      v.minLength(1),
      v.maxLength(256),
      v.description("the sessions to create, as create takes them"),
    ),
  }),
);

export const UpReply = deferred(() =>
  v.object({
    /** A session already running is reported by id alone. */
    sessions: v.array(
      v.object({ ...v.partial(CreateReply).entries, id: v.string(), state: v.picklist(["created", "exists"]) }),
    ),
  }),
);

export const up = defineCommand({
  name: "up",
  params: UpParams,
  reply: UpReply,
  async handle(params, ctx) {
    const report: v.InferOutput<typeof UpReply>["sessions"] = [];
    const made: string[] = [];
    for (const [index, spec] of params.sessions.entries()) {
      if (spec.name !== undefined && ctx.sessions.has(spec.name)) {
        if (ctx.sessions.get(spec.name).terminal.alive) {
          report.push({ id: spec.name, state: "exists" as const });
          continue;
        }
        await ctx.sessions.kill(spec.name); // exited: replaced by a fresh one
      }
      try {
        const created = createdReply(await ctx.sessions.create(spec));
        made.push(created.id);
        report.push({ ...created, state: "created" as const });
      } catch (error) {
        for (const id of made.reverse()) await ctx.sessions.kill(id).catch(() => {});
        const known = error instanceof T4aError ? error : new T4aError("internal", String(error));
        throw new T4aError(
          known.code,
          `sessions[${index}]: ${known.message}` +
            (made.length ? ` (the ${made.length} created before it were ended)` : ""),
        );
      }
    }
    return { sessions: report };
  },
  cli: {
    usage: "up <file>",
    summary: "Create every session a connector.json file describes (again: existing ones are left alone)",
    examples: ["t4a up connector.json", "t4a schema spec > connector.schema.json   # for editors"],
    request: async ([file]) => ({ sessions: await readConnectorFile(file!) }),
    print(response) {
      for (const session of response.sessions as Reply[]) console.log(`${session.id}\t${session.state}`);
    },
    startsDaemon: true,
  },
});
