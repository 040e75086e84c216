// The client library: `connect()` answers a Client whose methods are the protocol's commands,
// typed from the command table's schemas (wire.ts), sent tagged on one connection so that any
// number run at once (protocol.md "Order"). Runs under Bun and Node: no Bun API at run time, and
// no command module loaded (the daemon checks params; the types are the schemas').
import { statSync } from "node:fs";
import type { DaemonConnection, Reply } from "../client/connection.ts";
import { DaemonUnreachable } from "../client/errors.ts";
import { hostsPath, LOCAL, resolveHost, splitHostId } from "../client/hosts.ts";
import { connectRemote } from "../client/connect.ts";
import { T4aError, type ErrorCode } from "../protocol/errors.ts";
import { PROTOCOL_VERSION } from "../protocol/fields.ts";
import { displayable, shownLine, shownLines } from "../protocol/program-text.ts";
import { callerEnv } from "../spawn/env-keys.ts";
import { defaultSocket, openLocal } from "./transport.ts";
import type { CommandName, Params, ReplyOf, TerminalEvent } from "./wire.ts";

export interface ConnectOptions {
  /**
   * Another machine's daemon, over ssh as the CLI's --host: a name in hosts.json (`t4a hosts
   * add`), else an ssh target `[ssh://][user@]host[:port]`.
   */
  host?: string;
  /** The daemon's socket (default: the CLI's: T4A_SOCKET, XDG_RUNTIME_DIR, /tmp/t4a-UID). */
  socket?: string;
  /** Start the daemon when none answers, as `t4a create` does (default true). */
  start?: boolean;
  /** The t4a executable that starts it (default: this package's, else `t4a` on PATH). */
  t4a?: string;
}

/** The commands offered as methods: all but attach (a live terminal for a person) and the two below. */
const CALLS = [
  "create",
  "list",
  "send",
  "text",
  "cursor",
  "snapshot",
  "choose",
  "click",
  "fill",
  "wait",
  "run",
  "exec",
  "resize",
  "record",
  "kill",
  "restore",
  "restart",
  "up",
  "down",
  "agents",
  "ask",
  "approve",
  "deny",
  "transcript",
  "diff",
  "trust",
  "notify",
  "web",
  "config",
  "info",
  "shutdown",
] as const satisfies readonly CommandName[];

type Call = (typeof CALLS)[number];
// A command added to the table and not to CALLS (nor left out on purpose) fails to typecheck here.
// tmux_state is the tmux front end's own (src/cli/tmux/), not a library call.
const everyCommand: Exclude<CommandName, Call | "attach" | "events" | "screenshot" | "tmux_state"> extends never
  ? true
  : false = true;
void everyCommand;

/** A params argument that may be left out when every field is optional. */
// biome-ignore lint/complexity/noBannedTypes: `{} extends P` asks whether every parameter is optional
type Args<N extends CommandName> = {} extends Params<N> ? [params?: Params<N>] : [params: Params<N>];

export type Calls = { [N in Call]: (...params: Args<N>) => Promise<ReplyOf<N>> };

/** An `events` stream: an async iterator of events that `close()` ends. */
export type Events = AsyncGenerator<TerminalEvent, void, undefined> & { close(): void };

export interface Client extends Calls {}

// The command methods are installed on the prototype from the table: the interface above declares them.
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see above
export class Client {
  readonly #options: ConnectOptions;
  readonly #socket: string;
  readonly #main: DaemonConnection;
  /** Daemons of other hosts named by `HOST:ID`, one connection each, opened on first use. */
  readonly #hosts = new Map<string, Promise<DaemonConnection>>();
  readonly #streams = new Set<DaemonConnection>();
  #tag = 0;
  #closed = false;

  private constructor(options: ConnectOptions, socket: string, main: DaemonConnection) {
    this.#options = options;
    this.#socket = socket;
    this.#main = main;
  }

  /** @internal use connect() */
  static async open(options: ConnectOptions): Promise<Client> {
    const socket = options.socket ?? defaultSocket();
    return new Client(options, socket, await open(options, socket, options.host));
  }

  /** Any command by name, as the methods send it. */
  async call<N extends CommandName>(name: N, ...[params]: Args<N>): Promise<ReplyOf<N>> {
    const { connection, fields, remote, host } = this.#route(params as Reply | undefined);
    const { reply } = await this.#request(await connection, name, this.#fill(name, fields, remote));
    return (remote ? fromRemote(reply, host) : reply) as ReplyOf<N>;
  }

  /** The screen as PNG bytes (params as the screenshot command's, without `encoding`). */
  async screenshot(...[params]: Args<"screenshot">): Promise<Uint8Array> {
    const { connection, fields } = this.#route(params as Reply | undefined);
    const { bytes } = await this.#request(await connection, "screenshot", { ...fields, encoding: "binary" });
    if (!bytes) throw new T4aError("internal", "the daemon's screenshot reply carried no bytes");
    return bytes;
  }

  /**
   * Events as they happen (one terminal's with `terminal`), on a connection of their own. Resolves
   * once the daemon has subscribed it (what happens after is seen); iterate with `for await`,
   * and `break` (or `close()`) to end it.
   */
  async events(...[params]: Args<"events">): Promise<Events> {
    const route = this.#route(params as Reply | undefined, "terminal");
    const connection = await open(this.#options, this.#socket, route.host ?? this.#options.host);
    this.#streams.add(connection);
    const close = () => {
      this.#streams.delete(connection);
      connection.close();
    };
    try {
      await this.#request(connection, "events", route.fields);
    } catch (error) {
      close();
      throw error;
    }
    const remote = route.host ?? this.#options.host;
    async function* lines(): AsyncGenerator<TerminalEvent, void, undefined> {
      try {
        for (let line = await connection.readLine(); line !== undefined; line = await connection.readLine())
          yield (remote === undefined ? line : fromRemote(line, route.host)) as TerminalEvent;
      } finally {
        close();
      }
    }
    return Object.assign(lines(), { close });
  }

  /** Ends every connection; requests still waiting fail. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#main.close();
    for (const stream of this.#streams) stream.close();
    for (const host of this.#hosts.values())
      void host.then(
        (connection) => connection.close(),
        () => {},
      );
  }

  async #request(
    connection: DaemonConnection,
    cmd: string,
    fields: Reply,
  ): Promise<{ reply: Reply; bytes?: Uint8Array }> {
    if (this.#closed) throw new DaemonUnreachable("this t4a client is closed");
    const tag = ++this.#tag;
    // A connection that ends (the daemon gone, ssh failed) is one kind of error for the caller.
    const response = await connection
      .request({ cmd, ...fields, tag, protocol: PROTOCOL_VERSION })
      .catch((error: Error) => {
        throw error instanceof DaemonUnreachable ? error : new DaemonUnreachable(error.message);
      });
    const { ok, tag: _, ...reply } = response.reply;
    if (ok !== true) throw new T4aError(shownLine(String(reply.code)) as ErrorCode, shownLines(String(reply.error)));
    return { reply, bytes: response.bytes };
  }

  /**
   * `HOST:ID` in `id` (or events' `terminal`) goes to that host's daemon, `local:ID` to this
   * machine's, as the CLI routes them (ids never hold a ':').
   */
  #route(
    params: Reply | undefined,
    field = "id",
  ): { connection: Promise<DaemonConnection>; fields: Reply; remote: boolean; host?: string } {
    const fields = { ...params };
    const id = fields[field];
    const split = typeof id === "string" ? splitHostId(id) : undefined;
    if (!split) return { connection: Promise.resolve(this.#main), fields, remote: this.#options.host !== undefined };
    if (this.#options.host !== undefined)
      throw new T4aError(
        "invalid_params",
        `"${id}" names a host, and so does this client's host option: give one of them`,
      );
    fields[field] = split.id;
    if (split.host === LOCAL) return { connection: Promise.resolve(this.#main), fields, remote: false };
    resolveHost(split.host); // an unknown name is refused here, naming hosts.json
    let connection = this.#hosts.get(split.host);
    if (!connection) {
      connection = open(this.#options, this.#socket, split.host);
      this.#hosts.set(split.host, connection);
    }
    return { connection, fields, remote: true, host: split.host };
  }

  /** What the CLI fills in from its surroundings: create's directory and environment, here only. */
  #fill(name: string, fields: Reply, remote: boolean): Reply {
    if (remote) return fields;
    if (name === "create")
      return { cwd: process.cwd(), ...fields, client_env: fields.client_env ?? callerEnv(fields.inherit_env === true) };
    if (name === "agents") return { client_env: callerEnv(false), ...fields };
    return fields;
  }
}

for (const name of CALLS) {
  Object.defineProperty(Client.prototype, name, {
    value(this: Client, params?: Reply) {
      return this.call(name, params as never);
    },
  });
}

/**
 * What another machine answered, as the CLI shows it: every string through the one stripping
 * function, and, for a call routed by `HOST:ID`, its ids as `HOST:ID` (fed back into another call,
 * an id goes to the host that gave it, never to this machine's daemon).
 */
function fromRemote(reply: Reply, host: string | undefined): Reply {
  const shown = displayable(reply);
  if (host === undefined) return shown;
  const qualify = (id: unknown) => `${host}:${String(id)}`;
  for (const field of ["id", "terminal"]) if (typeof shown[field] === "string") shown[field] = qualify(shown[field]);
  for (const field of ["terminals", "restore_failed"])
    if (Array.isArray(shown[field])) shown[field] = (shown[field] as Reply[]).map((t) => ({ ...t, id: qualify(t.id) }));
  return shown;
}

/** A daemon: this machine's, or a host's (a hosts.json name, else an ssh target). */
async function open(options: ConnectOptions, socket: string, host: string | undefined): Promise<DaemonConnection> {
  if (host === undefined) return openLocal(socket, options.start !== false, executable(options));
  const known = /^[\w.-]+$/.test(host) ? knownHost(host) : undefined;
  return connectRemote(known ?? host, socket);
}

function knownHost(name: string): { target: string; ssh_args?: string[] } | undefined {
  try {
    return resolveHost(name, hostsPath());
  } catch {
    return undefined; // not a name in hosts.json: an ssh target
  }
}

/** This package's launcher (bin/t4a.js beside lib/), else the t4a on PATH. */
function executable(options: ConnectOptions): string[] {
  if (options.t4a) return [options.t4a];
  const launcher = new URL("../bin/t4a.js", import.meta.url);
  if (launcher.protocol === "file:" && statSync(launcher, { throwIfNoEntry: false })?.isFile())
    return [process.execPath, launcher.pathname];
  return ["t4a"];
}
