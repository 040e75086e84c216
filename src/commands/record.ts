// record: write a terminal's output to an asciicast file as it happens (v2 for asciinema 2.x,
// v3 on request), from now until `stop`, the terminal's end, or the daemon's shutdown.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { TerminalId } from "../protocol/fields.ts";
import { absolutePath } from "./cli-helpers.ts";
import { defineCommand } from "./command.ts";

const CastPath = deferred(() =>
  v.pipe(v.string(), v.minLength(1), v.startsWith("/", "must be an absolute path (the CLI makes it one)")),
);

export const RecordParams = deferred(() =>
  v.object({
    id: TerminalId,
    path: v.optional(v.pipe(CastPath, v.description("the .cast file to write (made or truncated, mode 600)"))),
    input: v.optional(v.pipe(v.boolean(), v.description('record what is typed too ("i" events)')), false),
    format: v.optional(
      v.pipe(v.picklist(["v2", "v3"]), v.description("asciicast v2 (asciinema 2.x plays it) or v3")),
      "v2",
    ),
    stop: v.optional(v.pipe(v.boolean(), v.description("stop the terminal's recording instead"))),
  }),
);

export const RecordReply = deferred(() =>
  v.object({
    recording: v.optional(v.string()),
    format: v.optional(v.picklist(["v2", "v3"])),
    stopped: v.optional(v.string()),
  }),
);

export const record = defineCommand({
  name: "record",
  params: RecordParams,
  reply: RecordReply,
  async handle(params, ctx) {
    const session = ctx.sessions.get(params.id);
    if (params.stop) return { stopped: await session.stopRecording() };
    if (!params.path) throw new T4aError("invalid_params", "record needs a path (or stop)");
    session.record(params.path, params.input, params.format);
    return { recording: params.path, format: params.format };
  },
  cli: {
    usage: "record <id>",
    summary: "Record a terminal to an asciicast file (asciinema plays it); --stop ends it",
    options: [
      ["-o, --output <file>", "the .cast file"],
      ["--input", "record typed input too"],
      ["--cast-format <v2|v3>", "asciicast version (default v2)"],
      ["--stop", "stop recording"],
    ],
    examples: ["t4a record t1 -o session.cast && asciinema play session.cast", "t4a record t1 --stop"],
    request([id], options) {
      const output = options.output === undefined ? undefined : String(options.output);
      return {
        id,
        path: output === undefined ? undefined : absolutePath(output),
        input: options.input === true ? true : undefined,
        format: options.castFormat === undefined ? undefined : String(options.castFormat),
        stop: options.stop === true ? true : undefined,
      };
    },
    print(response) {
      if (response.stopped) console.error(`t4a: stopped recording ${response.stopped}`);
    },
  },
  http: [{ method: "POST", path: "/api/sessions/:id/record" }],
});
