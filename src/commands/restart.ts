// restart: an ended session made again from what it was made of, under the same id (its command or
// agent, directory, worktree, plugins, environment); an agent resumes its conversation. What the
// page's ended cards and a script's retry loop use instead of remembering every create flag.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { TerminalId } from "../protocol/fields.ts";
import { CreateReply } from "../protocol/session-info.ts";
import { defineCommand } from "./command.ts";
import { createdReply } from "./create.ts";

export const RestartParams = deferred(() => v.object({ id: TerminalId }));

export const restart = defineCommand({
  name: "restart",
  params: RestartParams,
  reply: CreateReply,
  handle: async (params, ctx) => createdReply(await ctx.sessions.restart(params.id)),
  cli: {
    usage: "restart <id>",
    summary: "Start an ended session again, as it was created (same id; an agent resumes its conversation)",
    examples: ["t4a restart t3"],
    request: ([id]) => ({ id }),
    print(response) {
      console.log(response.id);
    },
  },
  http: [{ method: "POST", path: "/api/sessions/:id/restart" }],
});
