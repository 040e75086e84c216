// The t4a command line, generated from the command table: parse with cac, send one request,
// print the reply for people and shell loops (or raw with --json). Exit codes: 0 ok,
// 1 the daemon said no, 2 usage, 3 daemon unreachable. Never imports daemon code up front.
import { cac } from "cac";
import { parseReply, type CliOptions, type CliSpec, type Command, type Reply } from "../commands/command.ts";
import { remoteHost } from "../commands/cli-helpers.ts";
import { commandLoaders, loadAll } from "../commands/lazy.ts";
import { positional, register, requestedCommand, usage, withoutUndefined } from "./parse.ts";
import { T4aError } from "../protocol/errors.ts";
import { PROTOCOL_VERSION } from "../protocol/fields.ts";
import { connectDaemon } from "../client/connect.ts";
import { DaemonUnreachable, firstBytes, NoDaemon, PeerError } from "../client/errors.ts";
import { socketPath } from "../client/socket-path.ts";

declare const T4A_VERSION: string;
export const version = typeof T4A_VERSION === "string" ? T4A_VERSION : "0.0.0-dev";
/** Set by build.ts: the commit, the build time, the target and the Bun this binary was built with. */
declare const T4A_BUILD: string;

/** What this binary is: `t4a --version --json`, `t4a version`. */
export function buildInfo(): { version: string; commit: string; built: string; target: string; bun: string } {
  const built = typeof T4A_BUILD === "string" ? (JSON.parse(T4A_BUILD) as { commit: string; built: string; target: string; bun: string }) : undefined;
  return { version, commit: built?.commit ?? "dev", built: built?.built ?? "", target: built?.target ?? `${process.platform}-${process.arch}`, bun: built?.bun ?? Bun.version };
}

export const ExitCode = { ok: 0, refused: 1, usage: 2, unreachable: 3 } as const;

export async function runCli(argv: string[]): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    console.log(`t4a ${version}`);
    return ExitCode.ok;
  }
  if ((argv[0] === "--version" || argv[0] === "version") && argv.length <= 2) {
    const info = buildInfo();
    if (argv[1] === "--json") console.log(JSON.stringify(info));
    else console.log(`t4a ${info.version} (commit ${info.commit}, built ${info.built || "from source"}, ${info.target}, bun ${info.bun})`);
    return ExitCode.ok;
  }
  const cli = cac("t4a");
  let outcome: Promise<number> = Promise.resolve(ExitCode.ok);

  cli.option("--socket <path>", "daemon socket (default: $T4A_SOCKET, $XDG_RUNTIME_DIR/t4a/t4a.sock or /tmp/t4a-$UID/t4a.sock)");
  cli.option("--json", "print the daemon's JSON reply instead of the short form");
  cli.option("--host <target>", "a daemon on another machine, over ssh: [ssh://][user@]host[:port] (default: $T4A_HOST)");

  // Each registered command costs cac time on every call (it parses the line once per command):
  // register only the one asked for (all of them for plain --help or an unknown name, so help
  // and errors stay complete).
  const asked = requestedCommand(argv);
  const only = asked !== undefined && Object.hasOwn(commandLoaders, asked) ? asked : undefined;
  if (!only) registerBuiltins(cli, (run) => (outcome = run()));
  const commands: Command[] = only ? [await commandLoaders[only]!()] : await loadAll();
  for (const command of commands) {
    const spec = command.cli;
    if (!spec) continue;
    const entry = register(cli, spec);
    for (const example of spec.examples ?? []) entry.example(example);
    entry.action((...args: unknown[]) => {
      const options = args.pop() as CliOptions;
      outcome = runCommand(command, spec, positional(args, options), options);
    });
  }

  cli.help();
  cli.option("-v, --version", "print the version");

  try {
    cli.parse(["t4a", "t4a", ...argv], { run: false });
    if (cli.options.version) {
      console.log(`t4a ${version}`);
      return ExitCode.ok;
    }
    if (!cli.matchedCommand) {
      if (cli.options.help) return ExitCode.ok;
      if (cli.args.length) throw usage(`unknown command "${cli.args[0]}"; see t4a --help`);
      cli.outputHelp();
      return ExitCode.usage;
    }
    if (cli.options.help) return ExitCode.ok;
    await cli.runMatchedCommand();
    return await outcome;
  } catch (error) {
    return reportError(error);
  }
}

/**
 * The commands that are not requests (the daemon, MCP, batch, doctor…), each loading its code
 * only when run. `run` hands the CLI the outcome of the one that matched.
 */
function registerBuiltins(cli: ReturnType<typeof cac>, run: (outcome: () => Promise<number>) => void): void {
  cli
    .command("daemon [idle_timeout_ms]", "Run the daemon in the foreground (clients start it on demand)")
    .option("--web <addr>", "also serve the web page and API on host:port (t4a web prints a login URL)")
    .action((idleTimeoutMs: string | undefined, options: CliOptions) => {
      run(async () => {
        const [{ runDaemon }, { webHost }] = await Promise.all([import("../daemon/daemon.ts"), import("../web/host.ts")]);
        const idle = idleTimeoutMs === undefined ? undefined : Number(idleTimeoutMs);
        if (idle !== undefined && !(Number.isInteger(idle) && idle > 0)) {
          throw new T4aError("invalid_params", `idle_timeout_ms must be a positive integer, got "${idleTimeoutMs}"`);
        }
        const web = options.web === undefined ? undefined : String(options.web);
        return runDaemon({ socketPath: resolveSocket(options), version, idleTimeoutMs: idle, web, webHost });
      });
    });

  cli
    .command("mcp", "Serve the terminal tools to an MCP client (Claude Code, Codex, Cursor…) over stdio")
    .action((options: CliOptions) => {
      run(async () => {
        const { runMcpServer } = await import("../mcp/server.ts");
        return runMcpServer({ socketPath: resolveSocket(options), version, host: remoteHost(options) });
      });
    });

  cli
    .command("batch", "Run many requests over one connection: NDJSON requests or CLI lines on stdin, one JSON reply line each on stdout")
    .example('printf \'send t1 "ls\\\\n"\\ntext t1 --tail 5\\n\' | t4a batch')
    .action((options: CliOptions) => {
      run(async () => {
        const { runBatch } = await import("./batch.ts");
        return runBatch(() => connectDaemon(resolveSocket(options), true, remoteHost(options)));
      });
    });

  cli
    .command("dial-stdio", "Join stdin/stdout to the local daemon (what --host runs on the other machine over ssh)")
    .action((options: CliOptions) => {
      run(async () => {
        const { dialStdio } = await import("./dial-stdio.ts");
        return dialStdio(await connectDaemon(resolveSocket(options), true));
      });
    });

  cli
    .command("remote <action> <host>", "remote install HOST: put t4a on HOST as ~/.local/bin/t4a, the build for its OS and CPU")
    .option("--from <dir>", "where the release files are (default: release/ beside this binary, as npm run release leaves them)")
    .action((action: string, host: string, options: CliOptions) => {
      run(async () => {
        if (action !== "install") throw usage(`remote takes install, not "${action}"`);
        const { installRemote } = await import("./remote-install.ts");
        return installRemote(host, parentDirOf(resolveSocket({})), buildInfo().target, options.from === undefined ? undefined : String(options.from));
      });
    });

  cli
    .command("doctor", "What works on this machine and what does not, each with its fix (exit 1 when something asked for does not)")
    .option("--sandbox", "the sandbox must work")
    .option("--service", "the service (a systemd user manager) must work")
    .option("--json", "the checks as JSON")
    .example("t4a doctor --sandbox")
    .example("t4a doctor --host user@server")
    .action((options: CliOptions) => {
      run(async () => {
        const { runDoctor } = await import("./doctor.ts");
        return runDoctor({ socket: resolveSocket(options), sandbox: options.sandbox === true, service: options.service === true, host: remoteHost(options), json: options.json === true });
      });
    });

  cli
    .command("service <action>", "The daemon as an OS service: install, uninstall or status (systemd user unit, launchd agent)")
    .option("--web <addr>", "the service also serves the web page on host:port")
    .option("--print", "write the unit (or plist) to stdout instead of installing it")
    .action((action: string, options: CliOptions) => {
      run(async () => {
        if (!["install", "uninstall", "status"].includes(action)) throw usage(`service takes install, uninstall or status, not "${action}"`);
        const { runService } = await import("../service/service.ts");
        return runService({ action, web: options.web === undefined ? undefined : String(options.web), print: options.print === true });
      });
    });

  cli
    .command("schema <what>", "Print a JSON Schema: `spec` = connector.json (the session spec), for editors")
    .action((what: string) => {
      run(async () => {
        if (what !== "spec") throw usage(`unknown schema "${what}"; the one there is: spec`);
        const [{ jsonSchema }, { ConnectorFile }] = await Promise.all([import("../mcp/tools.ts"), import("../protocol/session-spec.ts")]);
        console.log(JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", title: "t4a connector.json", ...jsonSchema(ConnectorFile) }, null, 2));
        return ExitCode.ok;
      });
    });

}

async function runCommand(command: Command, spec: CliSpec, args: string[], options: CliOptions): Promise<number> {
  const name = command.name;
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
  const host = remoteHost(options);
  let connection: Awaited<ReturnType<typeof connectDaemon>>;
  try {
    // A remote daemon is started by its own dial-stdio, whatever the command.
    connection = await connectDaemon(path, spec.startsDaemon === true, host);
  } catch (error) {
    if (!(error instanceof NoDaemon)) throw error;
    // Persisted sessions wait to be brought back: starting a daemon creates them, so any command may.
    const { manifestPath } = await import("../service/manifest-path.ts");
    if (await Bun.file(manifestPath(process.env, path)).exists()) connection = await connectDaemon(path, true);
    else if (spec.withoutDaemon) return spec.withoutDaemon(options);
    else throw error;
  }
  try {
    const { reply, bytes } = await connection.request(request);
    if (reply.ok !== true) {
      if (options.json) console.log(JSON.stringify(reply));
      else console.error(`t4a: ${reply.error}${await versionSkew(connection, reply)}`);
      return ExitCode.refused;
    }
    if (name === "events") return await streamEvents(connection);
    if (spec.attachUi) {
      const { runAttach } = await import("./attach-ui.ts");
      return await runAttach(connection, reply, spec.attachUi(options));
    }
    if (options.json) {
      await spec.after?.(reply);
      console.log(JSON.stringify(reply));
      return ExitCode.ok;
    }
    let parsed: ReturnType<typeof parseReply>;
    try {
      parsed = parseReply(command, reply);
    } catch (error) {
      // Not what this t4a answers (another program, another version): say who and what came back.
      throw new PeerError(`${connection.peer} answered ${firstBytes(JSON.stringify(reply))}, not a ${name} reply: ${(error as Error).message}${await versionSkew(connection)}`);
    }
    await spec.after?.(parsed);
    return (await spec.print?.(parsed, options, bytes)) ?? ExitCode.ok;
  } finally {
    connection.close();
  }
}

/** After the ack, copy every event line to stdout until the daemon closes the stream. */
async function streamEvents(connection: Awaited<ReturnType<typeof connectDaemon>>): Promise<number> {
  for (;;) {
    const line = await connection.readLine();
    if (line === undefined) return ExitCode.ok;
    console.log(JSON.stringify(line));
  }
}

/**
 * A refusal that may come from a daemon of another version (an upgraded binary, an old daemon):
 * asked only then, so a normal call pays nothing. Answers the sentence to add, or "".
 */
async function versionSkew(connection: Awaited<ReturnType<typeof connectDaemon>>, reply?: Reply): Promise<string> {
  if (reply && !["unknown_cmd", "invalid_params", "bad_request"].includes(String(reply.code))) return "";
  const theirs = await connection.request({ cmd: "info" }).then(
    ({ reply: info }) => (typeof info.version === "string" ? info.version : undefined),
    () => undefined,
  );
  if (theirs === undefined || theirs === version) return "";
  return ` (the daemon runs t4a ${theirs}, this is t4a ${version}: \`t4a shutdown\` and call again to start this version; persisted sessions come back, the others end)`;
}

function parentDirOf(path: string): string {
  return path.slice(0, Math.max(1, path.lastIndexOf("/")));
}

function resolveSocket(options: CliOptions): string {
  return typeof options.socket === "string" ? options.socket : socketPath();
}

function reportError(error: unknown): number {
  if (error instanceof DaemonUnreachable) {
    console.error(`t4a: ${error.message}`);
    return ExitCode.unreachable;
  }
  if (error instanceof T4aError) {
    console.error(`t4a: ${error.message}`);
    // Refusals found before the daemon was asked (bad socket dir, bad option value) are usage errors.
    if (error.code === "bad_request") return ExitCode.unreachable;
    return error.code === "exists" || error.code === "internal" ? ExitCode.refused : ExitCode.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  console.error(`t4a: ${message}`);
  // cac's own errors (missing argument, unknown option) are usage errors.
  const isUsage = (error as { usage?: boolean }).usage || (error as Error)?.name === "CACError";
  return isUsage ? ExitCode.usage : ExitCode.unreachable;
}
