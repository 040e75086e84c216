// The t4a command line, generated from the command table: read the line (parse.ts), send one
// request, print the reply for people and shell loops (or raw with --json). Exit codes: 0 ok,
// 1 the daemon said no, 2 usage, 3 daemon unreachable. Never imports daemon code up front, nor
// any command's code but the one asked for.
import { parseReply, type CliOptions, type CliSpec, type Command, type Reply } from "../commands/command.ts";
import { remoteTarget } from "../commands/cli-helpers.ts";
import { commandLoaders, loadAll } from "../commands/lazy.ts";
import { asksForHelp, commandName, readLine, usage, withoutUndefined } from "./parse.ts";
import { FLEET_COMMANDS } from "./fleet-commands.ts";
import { T4aError } from "../protocol/errors.ts";
import { PROTOCOL_VERSION } from "../protocol/fields.ts";
import { displayable, shownLine, shownLines } from "../protocol/program-text.ts";
import { connectDaemon, type RemoteHost } from "../client/connect.ts";
import { DaemonUnreachable, firstBytes, NoDaemon, PeerError } from "../client/errors.ts";
import { resolveSocket } from "../client/socket-path.ts";

declare const T4A_VERSION: string;
export const version = typeof T4A_VERSION === "string" ? T4A_VERSION : "0.0.0-dev";
/** Set by build.ts: the commit, the build time, the target and the Bun this binary was built with. */
declare const T4A_BUILD: string;

/** What this binary is: `t4a --version --json`, `t4a version`. */
export function buildInfo(): { version: string; commit: string; built: string; target: string; bun: string } {
  const built =
    typeof T4A_BUILD === "string"
      ? (JSON.parse(T4A_BUILD) as { commit: string; built: string; target: string; bun: string })
      : undefined;
  return {
    version,
    commit: built?.commit ?? "dev",
    built: built?.built ?? "",
    target: built?.target ?? `${process.platform}-${process.arch}`,
    bun: built?.bun ?? Bun.version,
  };
}

export const ExitCode = { ok: 0, refused: 1, usage: 2, unreachable: 3 } as const;

export async function runCli(argv: string[]): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) return printVersion();
  if ((argv[0] === "--version" || argv[0] === "version") && argv.length <= 2) {
    const info = buildInfo();
    if (argv[1] === "--json") console.log(JSON.stringify(info));
    else
      console.log(
        `t4a ${info.version} (commit ${info.commit}, built ${info.built || "from source"}, ` +
          `${info.target}, bun ${info.bun})`,
      );
    return ExitCode.ok;
  }
  // `t4a help` is `t4a --help`; `t4a help CMD` is `t4a CMD --help` (git's and tmux's users type it).
  if (argv[0] === "help") argv = argv.length > 1 ? [...argv.slice(1), "--help"] : ["--help"];
  try {
    const name = commandName(argv);
    const isRequest = name !== undefined && Object.hasOwn(commandLoaders, name);
    const help = asksForHelp(argv);
    // The built-in commands (daemon, mcp, batch…) load only when one is asked for, or help.
    if (!isRequest || help) {
      const { builtins } = await import("./builtins.ts");
      const builtin = name !== undefined && Object.hasOwn(builtins, name) ? builtins[name] : undefined;
      if (builtin && !help) {
        const { args, options } = readLine(argv, builtin);
        if (options.version) return printVersion();
        return await builtin.run(args, options, { version, target: buildInfo().target });
      }
      if (name !== undefined && !builtin && !isRequest) throw usage(`unknown command "${name}"; see t4a --help`);
      const [{ printHelp }, commands] = await Promise.all([import("./help.ts"), loadAll()]);
      printHelp(builtins, commands, name);
      return name !== undefined || help ? ExitCode.ok : ExitCode.usage;
    }
    const command = await commandLoaders[name!]!();
    if (!command.cli) throw usage(`unknown command "${name}"; see t4a --help`);
    const { args, options } = readLine(argv, command.cli);
    if (options.version) return printVersion();
    return await runCommand(command, command.cli, args, options);
  } catch (error) {
    return reportError(error);
  }
}

function printVersion(): number {
  console.log(`t4a ${version}`);
  return ExitCode.ok;
}

async function runCommand(command: Command, spec: CliSpec, args: string[], options: CliOptions): Promise<number> {
  const name = command.name;
  // The fleet (hosts.json) loads only when asked for: `--all` on list/wait/events, or an id with a
  // ':' (`box:t3`; ids never hold one), so a local call reads no file more.
  if (options.all === true && FLEET_COMMANDS.has(name)) {
    const { runFleet } = await import("./fleet.ts");
    return runFleet(command, spec, args, options, resolveSocket(options));
  }
  // null: `local:ID`, this machine's daemon even under T4A_HOST.
  let routed: RemoteHost | null | undefined;
  if (args[0]?.includes(":") && (spec.usage.includes(" <id>") || spec.usage.includes(" [id]"))) {
    const { routeHostId } = await import("./fleet.ts");
    const route = routeHostId(args[0], options)!;
    routed = route.host ?? null;
    args = [route.id, ...args.slice(1)];
  }
  const fields = await spec.request(args, options);
  // The protocol number: a daemon that speaks another refuses instead of half-working.
  const request = { cmd: name, ...withoutUndefined(fields), protocol: PROTOCOL_VERSION };
  const direct = await spec.transport?.(request);
  if (direct) {
    if (direct.ok === true) return ExitCode.ok;
    console.error(`t4a: ${direct.error}`);
    return ExitCode.refused;
  }
  const path = resolveSocket(options);
  const host = routed === null ? undefined : (routed ?? (await remoteTarget(options)));
  let connection: Awaited<ReturnType<typeof connectDaemon>>;
  try {
    // A remote daemon is started by its own dial-stdio, whatever the command.
    connection = await connectDaemon(path, spec.startsDaemon === true, host);
  } catch (error) {
    if (!(error instanceof NoDaemon)) throw error;
    const { daemonLockPath, manifestPath } = await import("../service/manifest-path.ts");
    // Its pid file gone too (a /tmp cleaner), the daemon's lock still says who owns the socket.
    const lock = daemonLockPath(process.env, path);
    const { recordedProcess } = await import("../client/daemon-pid.ts");
    const holder = recordedProcess(lock);
    if (holder) {
      const { existsSync } = await import("node:fs");
      const holds = `a daemon (pid ${holder}) holds ${lock}`;
      throw new DaemonUnreachable(
        existsSync(path)
          ? `${holds} but does not take connections on ${path}: ` +
              "its queue of waiting connections is full or it is stopped"
          : `${holds} but its socket ${path} is gone; it makes it again within 2 s ` +
              `(\`kill -USR1 ${holder}\` asks now, \`kill ${holder}\` ends it and its sessions)`,
      );
    }
    // Persisted sessions wait to be brought back: starting a daemon creates them, so any command may.
    if (await Bun.file(manifestPath(process.env, path)).exists()) connection = await connectDaemon(path, true);
    else if (spec.withoutDaemon) return spec.withoutDaemon(options);
    else throw error;
  }
  try {
    const answer = await connection.request(request);
    const bytes = answer.bytes;
    // What another machine answers is program text: every string of it, JSON too, goes through
    // the one stripping function before it reaches this terminal or the program reading stdout.
    const reply = host ? displayable(answer.reply) : answer.reply;
    if (reply.ok !== true) {
      // A refusal may quote a program (the shell's words on a line it could not run, a label read
      // off its screen): stripped too, in --json as well (JSON.stringify escapes C0, not C1 or bidi).
      if (options.json) console.log(JSON.stringify({ ...reply, error: shownLines(String(reply.error)) }));
      else
        console.error(
          `t4a: ${inFlags(shownLines(String(reply.error)), name, spec)}${await versionSkew(connection, reply)}`,
        );
      return ExitCode.refused;
    }
    if (name === "events") return await streamEvents(connection, host !== undefined);
    if (spec.attachUi) {
      const { runAttach } = await import("./attach-ui.ts");
      return await runAttach(connection, reply, spec.attachUi(options));
    }
    if (options.json && !host) {
      await spec.after?.(reply);
      console.log(JSON.stringify(reply));
      return spec.exit?.(reply) ?? ExitCode.ok;
    }
    // Our own daemon's reply (its socket sits in a directory only we can use, and it speaks our
    // protocol number) is printed as it comes: checking it meant building its schemas, ~1 ms of
    // a call. What a peer over ssh answers, which may be any program, is checked first.
    const notOurs = async (error: unknown) =>
      // Not what this t4a answers (another program, another version): say who and what came back.
      new PeerError(
        `${connection.peer} answered ${firstBytes(JSON.stringify(reply))}, not a ${name} reply: ` +
          `${(error as Error).message}${await versionSkew(connection)}`,
      );
    let parsed: Reply = reply;
    if (host) {
      try {
        parsed = { ...(options.json ? { ok: true } : {}), ...parseReply(command, reply) };
      } catch (error) {
        throw await notOurs(error);
      }
    }
    await spec.after?.(parsed);
    if (options.json) {
      console.log(JSON.stringify(parsed));
      return spec.exit?.(parsed) ?? ExitCode.ok;
    }
    try {
      return (await spec.print?.(parsed, options, bytes)) ?? spec.exit?.(parsed) ?? ExitCode.ok;
    } catch (error) {
      if (error instanceof TypeError) throw await notOurs(error);
      throw error;
    }
  } finally {
    connection.close();
  }
}

/**
 * After the ack, copy every event line to stdout until the daemon closes the stream, or until
 * stdout's reader has gone (`t4a events | head -n 1`, a loop that broke out): console.log
 * drops a write to a closed pipe silently, and the stream would outlive its reader.
 */
async function streamEvents(connection: Awaited<ReturnType<typeof connectDaemon>>, remote: boolean): Promise<number> {
  const { writeSync } = await import("node:fs");
  for (;;) {
    const line = await connection.readLine();
    if (line === undefined) return ExitCode.ok;
    let bytes = Buffer.from(`${JSON.stringify(remote ? displayable(line) : line)}\n`);
    while (bytes.length > 0) {
      try {
        bytes = bytes.subarray(writeSync(1, bytes));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "EPIPE") return ExitCode.ok;
        if (code !== "EAGAIN") throw error;
        await Bun.sleep(5); // a non-blocking stdout whose reader is slow
      }
    }
  }
}

/**
 * A refusal that may come from a daemon of another version (an upgraded binary, an old daemon):
 * asked only then, so a normal call pays nothing. Answers the sentence to add, or "".
 */
/**
 * A refused request's fields as the flags that set them: `invalid run request: max_lines: …` is
 * `run: --max-lines: …` on a command line. A field no flag sets keeps its name.
 */
function inFlags(error: string, name: string, spec: CliSpec): string {
  const prefix = `invalid ${name} request: `;
  if (!error.startsWith(prefix)) return error;
  const flags = new Set((spec.options ?? []).flatMap(([flags]) => flags.match(/--[a-z][a-z-]*/g) ?? []));
  const fields = error
    .slice(prefix.length)
    .replace(/(^|; )([a-z][a-z_]*)(?=[:.[])/g, (whole, before: string, field: string) => {
      const flag = `--${field.replace(/_/g, "-")}`;
      return flags.has(flag) ? `${before}${flag}` : whole;
    });
  return `${name}: ${fields}`;
}

async function versionSkew(connection: Awaited<ReturnType<typeof connectDaemon>>, reply?: Reply): Promise<string> {
  if (reply && !["unknown_cmd", "invalid_params", "bad_request"].includes(String(reply.code))) return "";
  let theirs = await connection.request({ cmd: "info" }).then(
    ({ reply: info }) => (typeof info.version === "string" ? info.version : undefined),
    () => undefined,
  );
  if (theirs === undefined || theirs === version) return "";
  // A remote's version is its own text.
  theirs = shownLine(theirs);
  const restart = "`t4a shutdown` and call again to start this version; persisted sessions come back, the others end";
  return ` (the daemon runs t4a ${theirs}, this is t4a ${version}: ${restart})`;
}

function reportError(error: unknown): number {
  // An error may quote what another machine said (ssh's stderr, a remote's reply): one line, stripped.
  if (error instanceof DaemonUnreachable) {
    console.error(`t4a: ${shownLines(error.message)}`);
    return ExitCode.unreachable;
  }
  if (error instanceof T4aError) {
    console.error(`t4a: ${shownLines(error.message)}`);
    // Refusals found before the daemon was asked (bad socket dir, bad option value) are usage errors.
    if (error.code === "bad_request") return ExitCode.unreachable;
    return error.code === "exists" || error.code === "internal" ? ExitCode.refused : ExitCode.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  console.error(`t4a: ${shownLines(message)}`);
  // cac's own errors (missing argument, unknown option) are usage errors.
  const isUsage = (error as { usage?: boolean }).usage || (error as Error)?.name === "CACError";
  return isUsage ? ExitCode.usage : ExitCode.unreachable;
}
