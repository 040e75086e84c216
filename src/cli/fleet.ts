// The fleet from the command line: `list --all`, `wait --any --all` and `events --all` ask this
// machine's daemon and every host in hosts.json at once (each over its own ssh, in parallel) and
// merge what comes back, ids as `NAME:ID`; `NAME:ID` anywhere else is routed by routeHostId.
// What a remote answers is tainted: checked against the command's reply schema, and its strings
// stripped of control characters before they reach the user's terminal. A remote names no path
// and no command here. events --all joins a dropped link again and resumes after the last seq.
import { parseReply, type CliOptions, type CliSpec, type Command, type Reply } from "../commands/command.ts";
import { connectDaemon, type RemoteHost } from "../client/connect.ts";
import type { DaemonConnection } from "../client/connection.ts";
import { NoDaemon } from "../client/errors.ts";
import { listWait } from "../client/fleet-links.ts";
import { LOCAL, loadHosts, resolveHost, splitHostId } from "../client/hosts.ts";
import { displayable as clean } from "../protocol/program-text.ts";
import { DEFAULT_WAIT_MS } from "../commands/wait.ts";
import { PROTOCOL_VERSION } from "../protocol/fields.ts";
import { T4aError } from "../protocol/errors.ts";
import { usage, withoutUndefined } from "./parse.ts";
import { writeLine } from "./stdout.ts";

interface Member {
  /** LOCAL, or the host's name in hosts.json. */
  name: string;
  host?: RemoteHost;
}

/**
 * `box:t3` as the first argument of a command that takes an id: the host to ask and the id
 * there. `local:t3` is this machine's. Undefined: not a host id (no ':').
 */
export function routeHostId(id: string, options: CliOptions): { host: RemoteHost | undefined; id: string } | undefined {
  const split = splitHostId(id);
  if (!split) return undefined;
  if (typeof options.host === "string") throw usage(`"${id}" names a host, and so does --host: give one of them`);
  if (!split.id) throw usage(`"${id}" names no terminal after the host`);
  return { host: split.host === LOCAL ? undefined : resolveHost(split.host), id: split.id };
}

const qualify = (member: Member, id: unknown): string =>
  member.name === LOCAL ? String(id) : `${member.name}:${String(id)}`;

function members(options: CliOptions): Member[] {
  if (typeof options.host === "string" || process.env.T4A_HOST)
    throw usage("--all asks every host in hosts.json: it takes no --host (nor T4A_HOST)");
  const { hosts, problems } = loadHosts();
  for (const problem of problems) console.error(`t4a: warning: ${problem}`);
  return [{ name: LOCAL }, ...Object.entries(hosts).map(([name, host]) => ({ name, host }))];
}

/** One member's connection; undefined when no local daemon runs and this command starts none. */
async function open(member: Member, socket: string, startsDaemon: boolean): Promise<DaemonConnection | undefined> {
  try {
    return await connectDaemon(socket, startsDaemon, member.host);
  } catch (error) {
    if (!(error instanceof NoDaemon)) throw error;
    // Persisted sessions wait to be brought back: as without --all, starting the daemon shows them.
    const { manifestPath } = await import("../service/manifest-path.ts");
    if (await Bun.file(manifestPath(process.env, socket)).exists()) return connectDaemon(socket, true);
    return undefined;
  }
}

/** The request's reply, checked when a remote sent it; throws the refusal as an error. */
async function ask(command: Command, member: Member, connection: DaemonConnection, request: Reply): Promise<Reply> {
  const { reply } = await connection.request(request);
  if (reply.ok !== true) throw new T4aError("internal", String(member.host ? clean(reply.error) : reply.error));
  if (!member.host) return reply;
  try {
    return clean(parseReply(command, reply));
  } catch (error) {
    throw new Error(
      `${connection.peer} answered something that is not a ${command.name} reply: ${(error as Error).message}`,
    );
  }
}

const message = (error: unknown) => clean(error instanceof Error ? error.message : String(error));

export async function runFleet(
  command: Command,
  spec: CliSpec,
  args: string[],
  options: CliOptions,
  socket: string,
): Promise<number> {
  const fields = withoutUndefined(await spec.request(args, options));
  const request = { cmd: command.name, ...fields, protocol: PROTOCOL_VERSION };
  if (command.name === "list") return fleetList(command, members(options), request, options, socket);
  if (command.name === "wait") {
    if (!fields.any) throw usage("wait --all waits with --any: until a terminal on any host needs you");
    return fleetWait(command, members(options), request, options, socket);
  }
  if (fields.terminal !== undefined) throw usage("events --all streams every host's events: give no id");
  return fleetEvents(members(options), request, socket);
}

async function fleetList(
  command: Command,
  fleet: Member[],
  request: Reply,
  options: CliOptions,
  socket: string,
): Promise<number> {
  const started = performance.now();
  const answers = await Promise.all(
    fleet.map(async (member) => {
      let connection: DaemonConnection | undefined;
      try {
        connection = await open(member, socket, false);
        // A host that does not answer is named after LIST_WAIT_MS; the others still show.
        return {
          member,
          reply: connection
            ? await (member.host
                ? listWait(ask(command, member, connection, request))
                : ask(command, member, connection, request))
            : { terminals: [] },
        };
      } catch (error) {
        return { member, error: message(error) };
      } finally {
        connection?.close();
      }
    }),
  );
  const terminals: Reply[] = [];
  const failed: Reply[] = [];
  const warnings: string[] = [];
  const unreachable: Array<{ host: string; error: string }> = [];
  for (const answer of answers) {
    const { member } = answer;
    if (answer.error !== undefined) {
      unreachable.push({ host: member.name, error: answer.error });
      continue;
    }
    const reply = answer.reply!;
    for (const t of (reply.terminals as Reply[]) ?? [])
      terminals.push({ ...t, id: qualify(member, t.id), host: member.name });
    for (const f of (reply.restore_failed as Reply[] | undefined) ?? [])
      failed.push({ ...f, id: qualify(member, f.id), host: member.name });
    for (const w of (reply.warnings as string[] | undefined) ?? []) warnings.push(`${member.name}: ${w}`);
  }
  if (request.needs) {
    const { needRank } = await import("../commands/needs.ts");
    terminals.sort((a, b) => needRank(a) - needRank(b));
  }
  const merged: Reply = {
    terminals,
    ...(failed.length ? { restore_failed: failed } : {}),
    ...(warnings.length ? { warnings } : {}),
    unreachable,
  };
  // A host that is off is a result, not a failure: exit 3 only when no daemon answered at all.
  const code = unreachable.length === fleet.length ? 3 : 0;
  if (options.json) {
    console.log(JSON.stringify({ ok: true, ...merged, elapsed_ms: Math.round(performance.now() - started) }));
    return code;
  }
  const { terminalLines } = await import("../commands/list.ts");
  for (const warning of warnings) console.error(`t4a: warning: ${warning}`);
  for (const t of terminals) for (const line of terminalLines({ terminals: [t] })) console.log(`${t.host}\t${line}`);
  for (const f of failed)
    for (const line of terminalLines({ terminals: [], restore_failed: [f] })) console.log(`${f.host}\t${line}`);
  for (const u of unreachable) console.error(`t4a: ${u.host}: unreachable: ${u.error}`);
  return code;
}

async function fleetWait(
  command: Command,
  fleet: Member[],
  request: Reply,
  options: CliOptions,
  socket: string,
): Promise<number> {
  const connections = new Set<DaemonConnection>();
  const failures: string[] = [];
  let refusal: string | undefined;
  let reached = 0;
  let settled = false;
  const started = performance.now();
  const timeoutMs = typeof request.timeout_ms === "number" ? request.timeout_ms : DEFAULT_WAIT_MS;
  const winner = await new Promise<{ member: Member; reply: Reply } | undefined>((resolve) => {
    let pending = fleet.length;
    const done = () => {
      if (--pending === 0) resolve(undefined);
    };
    for (const member of fleet) {
      void (async () => {
        // A link that drops mid-wait is joined again with the same bounded backoff as events --all
        // and asked again for what is left of the timeout, resumed after the daemon's seq when the
        // wait began (info's): a terminal that needs you now answers (level-triggered), and so does
        // one whose need came and went while the link was down (the daemon's ring of events).
        let resume: { since: number; instance: string } | undefined;
        for (let tries = 0, joined = false; !settled; ) {
          let connection: DaemonConnection | undefined;
          try {
            connection = await open(member, socket, false);
            if (!connection) return; // no local daemon: nothing there needs anyone
            connections.add(connection);
            if (settled) return;
            if (!joined) {
              reached++;
              // A daemon before the fleet's resume says no seq: its waits are level-triggered alone.
              const { reply: info } = await connection.request({ cmd: "info", protocol: PROTOCOL_VERSION });
              if (typeof info.seq === "number" && typeof info.instance === "string")
                resume = { since: info.seq, instance: info.instance };
            }
            joined = true;
            const left = Math.max(1, Math.round(timeoutMs - (performance.now() - started)));
            const asked = performance.now();
            const reply = await ask(command, member, connection, { ...request, ...resume, timeout_ms: left }).catch(
              async (error) => {
                // A wait that held a while was a working link: its drop starts the count again. One
                // that failed sooner counts on, so a host that answers every wait ill-typed at once is
                // asked more and more slowly (it was asked 384 times in 10 s), as events --all does.
                const { STEADY_MS } = await import("../client/event-follow.ts");
                if (performance.now() - asked >= STEADY_MS) tries = 0;
                throw error;
              },
            );
            settled = true;
            return resolve({ member, reply });
          } catch (error) {
            // The waits that lost end with their connections: that is no news.
            if (settled) return;
            if (error instanceof T4aError) return void (refusal ??= `${member.name}: ${error.message}`);
            const { rejoinDelayMs } = await import("../client/event-follow.ts");
            const delayMs = rejoinDelayMs(++tries);
            if (tries > 10 || performance.now() - started + delayMs >= timeoutMs) {
              failures.push(`${member.name}: ${message(error)}`);
              return console.error(`t4a: ${member.name}: unreachable: ${message(error)}`);
            }
            console.error(
              `t4a: ${member.name}: ${joined ? "" : "unreachable: "}${message(error)}; ` +
                `asking again${delayMs ? ` in ${delayMs / 1000} s` : ""}`,
            );
            await Bun.sleep(delayMs);
          } finally {
            if (connection && !settled) {
              connection.close();
              connections.delete(connection);
            }
          }
        }
      })().finally(done);
    }
  });
  // The others' waits end with their connections: each daemon drops a wait whose client is gone.
  settled = true;
  for (const connection of connections) connection.close();
  if (!winner) {
    // Every wait timed out (or was refused): the daemon's own words, exit 1 as without --all.
    if (refusal) {
      console.error(`t4a: ${refusal}`);
      return 1;
    }
    if (reached === 0 && failures.length === 0) console.error("t4a: no daemon runs here and hosts.json names no host");
    return 3;
  }
  const reply: Reply = {
    ...winner.reply,
    terminal: winner.reply.terminal === undefined ? undefined : qualify(winner.member, winner.reply.terminal),
    host: winner.member.name,
  };
  if (options.json) console.log(JSON.stringify(reply));
  else console.log(`${reply.terminal}\t${reply.why ?? reply.state}\t${reply.line ?? ""}`);
  return 0;
}

async function fleetEvents(fleet: Member[], request: Reply, socket: string): Promise<number> {
  let streamed = 0;
  // Once stdout's reader has gone, every member's stream stops: its connection is closed.
  const reader = { gone: false, connections: new Set<DaemonConnection>() };
  await Promise.all(fleet.map((member) => followMember(member, request, socket, () => streamed++, reader)));
  return streamed || reader.gone ? 0 : 3;
}

/**
 * One member's events, tagged with its host, until it cannot be reached: a dropped link is joined
 * again and resumed (client/event-follow.ts); so is a member that cannot be reached at the
 * start (a host that comes up later joins the stream), each try said on stderr.
 */
async function followMember(
  member: Member,
  request: Reply,
  socket: string,
  joinedFirst: () => void,
  reader: { gone: boolean; connections: Set<DaemonConnection> },
): Promise<void> {
  let current: DaemonConnection | undefined;
  const { followEvents } = await import("../client/event-follow.ts");
  let joinedOnce = false;
  let failedFirst = false;
  const ended = await followEvents({
    open: () => open(member, socket, false),
    request,
    tries: 10,
    retryStart: true,
    stopped: () => reader.gone,
    current: (connection) => {
      if (current) reader.connections.delete(current);
      current = connection;
      if (connection) reader.connections.add(connection);
    },
    joined: (again, since) => {
      if (again) console.error(`t4a: ${member.name}: joined again, resuming after event ${since}`);
      else if (!joinedOnce) {
        if (failedFirst) console.error(`t4a: ${member.name}: joined`);
        joinedFirst();
      }
      joinedOnce = true;
    },
    dropped: (why, delayMs) => {
      failedFirst ||= !joinedOnce;
      console.error(
        `t4a: ${member.name}: ${joinedOnce ? "" : "unreachable: "}${clean(why)}; ` +
          `joining again${delayMs ? ` in ${delayMs / 1000} s` : ""}`,
      );
    },
    event: (line) => {
      if (reader.gone) return;
      const event = member.host ? clean(line) : line;
      const shown = JSON.stringify({
        ...event,
        ...(event.terminal === undefined ? {} : { terminal: qualify(member, event.terminal) }),
        host: member.name,
      });
      if (writeLine(shown)) return;
      reader.gone = true;
      for (const connection of reader.connections) connection.close();
    },
  });
  if (ended !== "no daemon" && ended !== "stopped") console.error(`t4a: ${member.name}: ${clean(ended)}`);
}
