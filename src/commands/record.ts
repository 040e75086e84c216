// record: write a terminal's output to an asciicast file as it happens (v2 for asciinema 2.x,
// v3 on request), from now until `stop`, the terminal's end, or the daemon's shutdown.
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import { TerminalId } from "../protocol/fields.ts";
import type { DaemonContext } from "../daemon/context.ts";
import type { Terminal } from "../terminal/terminal.ts";
import { absolutePath } from "./cli-helpers.ts";
import { defineCommand } from "./command.ts";

const CastPath = v.pipe(v.string(), v.minLength(1), v.startsWith("/", "must be an absolute path (the CLI makes it one)"));

export const RecordParams = v.object({
  id: TerminalId,
  path: v.optional(v.pipe(CastPath, v.description("the .cast file to write (made or truncated, mode 600)"))),
  input: v.optional(v.pipe(v.boolean(), v.description("record what is typed too (\"i\" events)")), false),
  format: v.optional(v.pipe(v.picklist(["v2", "v3"]), v.description("asciicast v2 (asciinema 2.x plays it) or v3")), "v2"),
  stop: v.optional(v.pipe(v.boolean(), v.description("stop the terminal's recording instead"))),
});

/** Start recording a terminal; used by record and by create's `record` field. */
export async function startRecording(ctx: DaemonContext, terminal: Terminal, path: string, input: boolean, format: "v2" | "v3"): Promise<void> {
  if (ctx.recordings.has(terminal.id)) throw new T4aError("exists", `terminal "${terminal.id}" is already being recorded to ${ctx.recordings.get(terminal.id)!.path}`);
  const { Recorder } = await import("../stream/recorder.ts");
  let recorder: InstanceType<typeof Recorder>;
  try {
    const env = terminal.env;
    recorder = new Recorder(terminal, { path, format, input, env, events: (sink) => ctx.bus.subscribe(terminal.id, sink) });
  } catch (error) {
    throw new T4aError("invalid_params", `cannot record to ${path}: ${(error as Error).message}`);
  }
  recorder.onEnd = () => {
    if (ctx.recordings.get(terminal.id) === recorder) ctx.recordings.delete(terminal.id);
  };
  ctx.recordings.set(terminal.id, recorder);
}

export const record = defineCommand({
  name: "record",
  params: RecordParams,
  async handle(params, ctx) {
    const terminal = ctx.pool.get(params.id);
    if (params.stop) {
      const recorder = ctx.recordings.get(params.id);
      if (!recorder) throw new T4aError("not_found", `terminal "${params.id}" is not being recorded`);
      recorder.close();
      return { stopped: recorder.path };
    }
    if (!params.path) throw new T4aError("invalid_params", "record needs a path (or stop)");
    if (!terminal.alive) throw new T4aError("exited", `terminal "${params.id}" has exited`);
    await startRecording(ctx, terminal, params.path, params.input, params.format);
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
