// What a protocol command is: its params schema, its handler, how the CLI spells it and how an
// MCP client sees it. Handlers reach terminals only through the context, so this file and the
// command files import no daemon or MCP code at run time (the CLI client loads them too).
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import { describeIssue } from "../protocol/issue-path.ts";
import { MAX_SESSIONS_LIMIT } from "../protocol/limits.ts";
import type { DaemonContext } from "./context.ts";

export type Reply = Record<string, unknown>;

/** A reply followed by raw bytes: the header line carries `len`, then exactly that many bytes. */
export class BinaryReply<T extends Reply = Reply> {
  constructor(
    readonly fields: T,
    readonly bytes: Uint8Array,
  ) {}
}

/** Where a streaming command delivers its lines; returns false once the receiver is gone. */
export type StreamSink = (line: Reply) => void;

/** A reply that, after its `{"ok":true}` line, streams lines until the client disconnects. */
export class StreamReply<T extends Reply = Reply> {
  constructor(
    readonly fields: T,
    /** Starts the stream; returns the function that stops it. */
    readonly start: (sink: StreamSink) => () => void,
  ) {}
}

/** The connection's end of a two-way stream: bytes go out through it, and it can be closed. */
export interface DuplexTransport {
  /** Queue bytes for the client; answers how many bytes wait for it to read. */
  send(bytes: Uint8Array): number;
  close(): void;
}

/** What a two-way stream does with the client's bytes, and when the client goes. */
export interface DuplexPeer {
  receive(bytes: Uint8Array): void;
  closed(): void;
}

/** A reply after which the connection carries frames both ways (attach: output out, keys in). */
export class DuplexReply<T extends Reply = Reply> {
  constructor(
    readonly fields: T,
    readonly start: (transport: DuplexTransport) => DuplexPeer,
  ) {}
}

export type HandlerResult<T extends Reply = Reply> = T | BinaryReply<T> | StreamReply<T> | DuplexReply<T>;

export type CliOptions = Record<string, unknown>;

export interface CliSpec<R = Reply> {
  /** cac syntax after the program name, e.g. `send <id> [input]`. */
  usage: string;
  summary: string;
  options?: Array<[flags: string, description: string]>;
  examples?: string[];
  /** Build the request fields (without `cmd`) from positional args and options. */
  request(args: string[], options: CliOptions): Reply | Promise<Reply>;
  /**
   * The exit code of a successful reply that is not a success for a script (ask's turn ended on a
   * question), with `--json` or not; without it, print's return, else 0.
   */
  exit?(response: R): number;
  /** Print a successful response for people and shell loops; `--json` bypasses it. Returns an exit code. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a print that returns nothing is exit code 0
  print?(response: R, options: CliOptions, payload?: Uint8Array): number | void | Promise<number | void>;
  /** Only commands that make something start a daemon when none runs (tmux: only new-session does). */
  startsDaemon?: boolean;
  /** What a read-only command answers when no daemon runs; without it: "no daemon", exit 3. */
  withoutDaemon?(options: CliOptions): number;
  /** After a successful reply, the connection becomes a live terminal in the caller's (the CLI's attach UI). */
  attachUi?(options: CliOptions): { readOnly: boolean; detachKey: string };
  /** Another way to the daemon for this request (notify's per-session socket); undefined = the usual. */
  transport?(request: Reply): Promise<Reply | undefined>;
  /** After a successful reply, before printing (shutdown waits for the daemon to be gone). */
  after?(response: R): Promise<void>;
}

/** One piece of an MCP tool result; our own shape so command files need not import the MCP SDK. */
export type ToolContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: "image/png" };

export const textContent = (text: string): ToolContent[] => [{ type: "text", text }];

export interface McpSpec<R = Reply> {
  /** The tool's name as the model sees it, e.g. `terminal_send`. */
  tool: string;
  /** Written for the model: what the tool does, when to use it, what it returns and its token cost. */
  description: string;
  /** Wire fields the tool does not offer (screenshot's `encoding`: the image always comes inline). */
  hide?: string[];
  /**
   * Rarely used fields offered as one object field described once (their names and types are
   * the wire's): each turn of a client that loads the tools pays for every schema it lists.
   */
  group?: { field: string; fields: string[]; description: string };
  /** Optional wire fields this tool requires (exec's `command`; its continuation's `continue`). */
  require?: string[];
  /** Fill in what the tool's caller leaves to its surroundings (create's cwd), as the CLI does. */
  request?(args: Reply): Reply;
  /** Blocks until something happens (wait, run): the server reports progress while it waits. */
  blocking?: boolean;
  /**
   * A field the MCP server reads itself, never sent: terminal_list's `all` (every host of
   * hosts.json too), terminal_create's `host` (where to start it).
   */
  fleet?: { field: string; type: "boolean" | "string"; description: string };
  /** A successful reply as tool content; without it, the reply's fields as compact JSON. */
  result?(response: R, payload?: Uint8Array): ToolContent[];
}

/** How the command appears in the REST API (src/web/routes.ts generates the routes). */
export interface HttpSpec {
  method: "GET" | "POST" | "DELETE";
  /** e.g. `/api/sessions/:id/text`: each `:name` segment becomes that request field. */
  path: string;
  /** The status of a success (201 for a create). */
  status?: number;
  /** Fields added to a success's body (seed 002's DELETE answers `{"status":"stopped"}`). */
  answer?: Record<string, string>;
}

export interface Command<S extends v.GenericSchema = v.GenericSchema, R extends ReplySchema = ReplySchema> {
  name: string;
  params: S;
  /** What a success answers: the fields after `"ok":true`, as a schema beside the handler. */
  reply: R;
  handle(
    params: v.InferOutput<S>,
    ctx: DaemonContext,
  ): HandlerResult<v.InferOutput<R>> | Promise<HandlerResult<v.InferOutput<R>>>;
  cli?: CliSpec<v.InferOutput<R>>;
  /** Offered as an MCP tool by `t4a mcp` when present (several tools: exec and its continuation). */
  mcp?: McpSpec<v.InferOutput<R>> | McpSpec<v.InferOutput<R>>[];
  /** Offered as REST routes by `t4a web` when present. */
  http?: HttpSpec[];
}

/** A reply's schema: an object whose output is the reply's fields. */
export type ReplySchema = v.GenericSchema<unknown, Reply>;

/** Keeps the name's literal type: the client library (src/lib/) types each call by its command's name. */
export const defineCommand = <const N extends string, S extends v.GenericSchema, R extends ReplySchema>(
  command: Command<S, R> & { name: N },
): Command<S, R> & { name: N } => command;

/**
 * A success reply read through its command's schema, as the CLI and MCP print it. A daemon of
 * another version that answers something else is told apart from a success.
 */
export function parseReply<R extends ReplySchema>(
  command: Command<v.GenericSchema, R>,
  reply: Reply,
): v.InferOutput<R> {
  // Counted before the schema walks them: a host's list of 594 000 terminals (64 MiB) cost 1.5 s
  // of the daemon's thread to check, at each poll of the page.
  for (const field of ["terminals", "restore_failed"]) {
    const list = reply[field];
    if (Array.isArray(list) && list.length > MAX_SESSIONS_LIMIT)
      throw new T4aError(
        "internal",
        `the ${command.name} reply holds ${list.length} ${field}, more than a daemon may hold (${MAX_SESSIONS_LIMIT})`,
      );
  }
  const parsed = v.safeParse(command.reply, reply);
  if (!parsed.success)
    throw new T4aError(
      "internal",
      `the daemon's ${command.name} reply is not what this t4a expects ` +
        `(${describeIssue(parsed.issues[0])}); is it another version?`,
    );
  return parsed.output;
}
