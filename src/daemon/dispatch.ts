// Request → reply, as plain data: parse and validate, run the command, and turn any failure
// into the wire error. The only place errors become `{"ok":false,…}`. Knows nothing of sockets.
import * as v from "valibot";
import {
  BinaryReply,
  DuplexReply,
  StreamReply,
  type Command,
  type Reply,
  type StreamSink,
} from "../commands/command.ts";
import { commandsByName } from "../commands/index.ts";
import { T4aError } from "../protocol/errors.ts";
import { Envelope, PROTOCOL_VERSION } from "../protocol/fields.ts";
import { describeIssue } from "../protocol/issue-path.ts";
import type { DaemonContext } from "../commands/context.ts";

export interface Outcome {
  /** The JSON line to write (ok/error, tag echoed). */
  reply: Reply;
  /** Raw bytes that follow the line (screenshot). */
  bytes?: Uint8Array;
  /** For streaming commands: begins the stream after the line; returns its stop function. */
  stream?: (sink: StreamSink) => () => void;
  /** For two-way streams (attach): begins it after the line. */
  duplex?: DuplexReply["start"];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** One request line (without its newline), as bytes off the wire. */
export function dispatchLine(line: Uint8Array, ctx: DaemonContext): Promise<Outcome> {
  const parsed = parseLine(line);
  return "reply" in parsed ? Promise.resolve(parsed) : dispatch(parsed.request, ctx);
}

/** A request line as JSON and its tag (the transport answers tagged requests out of order), or the error reply. */
export function parseLine(line: Uint8Array): Outcome | { request: unknown; tag: unknown } {
  let request: unknown;
  try {
    request = JSON.parse(utf8.decode(line));
  } catch (error) {
    const reason = error instanceof SyntaxError ? "request is not valid JSON" : "request is not valid UTF-8";
    return failure(new T4aError("bad_request", reason), undefined);
  }
  const envelope = v.safeParse(Envelope, request);
  return { request, tag: envelope.success ? envelope.output.tag : undefined };
}

export async function dispatch(request: unknown, ctx: DaemonContext): Promise<Outcome> {
  const envelope = v.safeParse(Envelope, request);
  const tag = envelope.success ? envelope.output.tag : undefined;
  try {
    if (!envelope.success) {
      throw new T4aError(
        "bad_request",
        'a request is a JSON object with a string "cmd" (and an optional string or number "tag")',
      );
    }
    const protocol = envelope.output.protocol;
    if (protocol !== undefined && protocol !== PROTOCOL_VERSION) {
      throw new T4aError(
        "version_mismatch",
        `this daemon runs t4a ${ctx.version}, which speaks protocol ${PROTOCOL_VERSION}; ` +
          `the client speaks ${JSON.stringify(protocol)}: ` +
          "`t4a shutdown` and call again to start the client's version " +
          "(persisted sessions come back, the others end), or use the daemon's binary",
      );
    }
    const command = commandsByName.get(envelope.output.cmd);
    if (!command) throw new T4aError("unknown_cmd", `unknown cmd "${envelope.output.cmd}"`);
    const parsed = v.safeParse(command.params, request);
    if (!parsed.success) {
      throw new T4aError("invalid_params", `invalid ${command.name} request: ${describeIssues(parsed.issues)}`);
    }
    if (ctx.restoring && command.name !== "events") await ctx.restoring;
    const result = await command.handle(parsed.output, ctx);
    const fields =
      result instanceof BinaryReply || result instanceof StreamReply || result instanceof DuplexReply
        ? result.fields
        : result;
    if (CHECK_REPLIES) checkReply(command, fields);
    if (result instanceof BinaryReply) return { reply: success(fields, tag), bytes: result.bytes };
    if (result instanceof StreamReply) return { reply: success(fields, tag), stream: result.start };
    if (result instanceof DuplexReply) return { reply: success(fields, tag), duplex: result.start };
    return { reply: success(fields, tag) };
  } catch (error) {
    return failure(error, tag);
  }
}

/**
 * The test suite runs the daemon with T4A_CHECK_REPLIES=1: every reply is parsed with its command's
 * schema, so a handler and its schema cannot drift apart unnoticed. The types already hold them
 * together at compile time; this catches what a cast or an `any` let through.
 */
const CHECK_REPLIES = process.env.T4A_CHECK_REPLIES === "1";

function checkReply(command: Command, fields: Reply): void {
  const checked = v.safeParse(command.reply, fields);
  if (!checked.success)
    throw new T4aError(
      "internal",
      `the ${command.name} reply does not match its schema: ${describeIssues(checked.issues)}`,
    );
}

function success(fields: Reply, tag: string | number | undefined): Reply {
  return tag === undefined ? { ok: true, ...fields } : { ok: true, ...fields, tag };
}

function failure(error: unknown, tag: string | number | undefined): Outcome {
  const known =
    error instanceof T4aError
      ? error
      : new T4aError("internal", `internal error: ${String((error as Error)?.message ?? error)}`);
  if (!(error instanceof T4aError)) console.error("t4a: internal error:", error);
  const reply: Reply = { ok: false, error: known.message, code: known.code };
  if (tag !== undefined) reply.tag = tag;
  return { reply };
}

function describeIssues(issues: v.GenericIssue[]): string {
  return issues.slice(0, 3).map(describeIssue).join("; ");
}
