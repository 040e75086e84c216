// The `t4a` package's library entry: `import { connect } from "t4a"`. Only the package build
// (scripts/lib.ts) and tests import it; nothing in the CLI or the daemon does.
import { Client, type ConnectOptions } from "./client.ts";

/** A client of the daemon (started if none runs), or of `host`'s over ssh. `close()` it when done. */
export const connect = (options: ConnectOptions = {}): Promise<Client> => Client.open(options);

export type { Client, Calls, ConnectOptions, Events } from "./client.ts";
export type { CommandName, Params, ReplyOf, TerminalEvent, Wire } from "./wire.ts";
export { T4aError, type ErrorCode } from "../protocol/errors.ts";
export { DaemonUnreachable } from "../client/errors.ts";
