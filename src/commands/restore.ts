// restore: try again to bring back a persisted session whose restore failed at the daemon's start
// (`list` shows it as restore_failed, with why). Its entry stays until this works or `kill` forgets it.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { TerminalId } from "../protocol/fields.ts";
import { CreateReply } from "../protocol/session-info.ts";
import { defineCommand } from "./command.ts";
import { createdReply } from "./create.ts";

export const RestoreParams = deferred(() => v.object({ id: TerminalId }));

export const restore = defineCommand({
  name: "restore",
  params: RestoreParams,
  reply: CreateReply,
  handle: async (params, ctx) => createdReply(await ctx.sessions.restoreOne(params.id)),
  cli: {
    usage: "restore <id>",
    summary: "Try again to bring back a persisted session whose restore failed (see list)",
    request: ([id]) => ({ id }),
    print(response) {
      console.log(response.id);
    },
  },
});
