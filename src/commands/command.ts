// What a protocol command is: its params schema, its handler, and how the CLI spells it.
// Handlers reach terminals only through the context, so this file and the command files
// import no daemon code at run time (the CLI client loads them too).
import type * as v from "valibot";
import type { DaemonContext } from "../daemon/context.ts";

export type Reply = Record<string, unknown>;

/** A reply followed by raw bytes: the header line carries `len`, then exactly that many bytes. */
export class BinaryReply {
  constructor(
    readonly fields: Reply,
    readonly bytes: Uint8Array,
  ) {}
}

/** Where a streaming command delivers its lines; returns false once the receiver is gone. */
export type StreamSink = (line: Reply) => void;

/** A reply that, after its `{"ok":true}` line, streams lines until the client disconnects. */
export class StreamReply {
  constructor(
    readonly fields: Reply,
    /** Starts the stream; returns the function that stops it. */
    readonly start: (sink: StreamSink) => () => void,
  ) {}
}

export type HandlerResult = Reply | BinaryReply | StreamReply;

export type CliOptions = Record<string, unknown>;

export interface CliSpec {
  /** cac syntax after the program name, e.g. `send <id> [input]`. */
  usage: string;
  summary: string;
  options?: Array<[flags: string, description: string]>;
  examples?: string[];
  /** Build the request fields (without `cmd`) from positional args and options. */
  request(args: string[], options: CliOptions): Reply | Promise<Reply>;
  /** Print a successful response for people and shell loops; `--json` bypasses it. Returns an exit code. */
  print?(response: Reply, options: CliOptions, payload?: Uint8Array): number | void | Promise<number | void>;
  /** Commands that make no sense to auto-start a daemon for (e.g. shutdown). */
  startsDaemon?: boolean;
}

export interface Command<S extends v.GenericSchema = v.GenericSchema> {
  name: string;
  params: S;
  handle(params: v.InferOutput<S>, ctx: DaemonContext): HandlerResult | Promise<HandlerResult>;
  cli?: CliSpec;
}

export const defineCommand = <S extends v.GenericSchema>(command: Command<S>): Command<S> => command;
