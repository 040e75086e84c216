// down: end the named sessions of a connector.json file (what `up` made); their cleanups run, and
// what they kept so no work is lost is reported. Names not running are reported, not an error.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { KeptItem, TerminalName } from "../protocol/fields.ts";
import { T4aError } from "../protocol/errors.ts";
import { defineCommand, type Reply } from "./command.ts";
import { readConnectorFile } from "./connector-file.ts";

export const DownParams = deferred(() =>
  v.object({
    names: v.pipe(v.array(TerminalName), v.minLength(1), v.description("the sessions to end, by name")),
  }),
);

export const DownReply = deferred(() =>
  v.object({ ended: v.array(v.string()), missing: v.array(v.string()), kept: v.array(KeptItem) }),
);

export const down = defineCommand({
  name: "down",
  params: DownParams,
  reply: DownReply,
  async handle(params, ctx) {
    const ended: string[] = [];
    const missing: string[] = [];
    const kept: KeptItem[] = [];
    for (const name of params.names) {
      if (!ctx.sessions.has(name)) {
        missing.push(name);
        continue;
      }
      const report = await ctx.sessions.kill(name);
      ended.push(name);
      kept.push(...(report.kept ?? []));
    }
    return { ended, missing, kept };
  },
  cli: {
    usage: "down <file>",
    summary: "End the sessions a connector.json file describes (by name)",
    async request([file]) {
      const sessions = await readConnectorFile(file!);
      const unnamed = sessions.findIndex((session) => session.name === undefined);
      if (unnamed !== -1)
        throw new T4aError(
          "invalid_params",
          `sessions[${unnamed}]: down finds sessions by name, and this one has none`,
        );
      return { names: sessions.map((session) => session.name) };
    },
    print(response) {
      for (const name of response.ended as string[]) console.log(`${name}\tended`);
      for (const name of response.missing as string[]) console.log(`${name}\tnot running`);
      for (const kept of response.kept as Reply[]) console.error(`t4a: kept ${kept.what} ${kept.path}: ${kept.reason}`);
    },
  },
});
