// The commands that are not requests: the daemon, MCP, batch, doctor… Each loads its code only
// when run. Read by the same line reader as the requests (parse.ts); help lists them first.
import type { CliOptions } from "../commands/command.ts";
import { remoteHost, remoteTarget } from "../commands/cli-helpers.ts";
import { connectDaemon } from "../client/connect.ts";
import { T4aError } from "../protocol/errors.ts";
import { type LineSpec, usage } from "./parse.ts";
import { parentDir, resolveSocket } from "../client/socket-path.ts";

/** What a built-in command needs from the CLI around it. */
export interface BuiltinContext {
  version: string;
  target: string;
}

export interface Builtin extends LineSpec {
  summary: string;
  examples?: string[];
  run(args: string[], options: CliOptions, context: BuiltinContext): Promise<number>;
}

export const builtins: Record<string, Builtin> = {
  daemon: {
    usage: "daemon [idle_timeout_ms]",
    summary: "Run the daemon in the foreground (clients start it on demand)",
    options: [["--web <addr>", "also serve the web page and API on host:port (t4a web prints a login URL)"]],
    async run([idleTimeoutMs], options, { version }) {
      const [{ runDaemon }, { webHost }] = await Promise.all([import("../daemon/daemon.ts"), import("../web/host.ts")]);
      const idle = idleTimeoutMs === undefined ? undefined : Number(idleTimeoutMs);
      if (idle !== undefined && !(Number.isInteger(idle) && idle > 0)) {
        throw new T4aError("invalid_params", `idle_timeout_ms must be a positive integer, got "${idleTimeoutMs}"`);
      }
      const web = options.web === undefined ? undefined : String(options.web);
      return runDaemon({ socketPath: resolveSocket(options), version, idleTimeoutMs: idle, web, webHost });
    },
  },
  mcp: {
    usage: "mcp",
    summary: "Serve the terminal tools to an MCP client (Claude Code, Codex, Cursor…) over stdio",
    async run(_args, options, { version }) {
      const { runMcpServer } = await import("../mcp/server.ts");
      return runMcpServer({
        socketPath: resolveSocket(options),
        version,
        host: remoteHost(options),
        target: await remoteTarget(options),
      });
    },
  },
  batch: {
    usage: "batch",
    summary:
      "Run many requests over one connection: NDJSON requests " +
      "or CLI lines on stdin, one JSON reply line each on stdout",
    examples: ["printf 'send t1 \"ls\\\\n\"\\ntext t1 --tail 5\\n' | t4a batch"],
    async run(_args, options) {
      const { runBatch } = await import("./batch.ts");
      const host = await remoteTarget(options);
      return runBatch(() => connectDaemon(resolveSocket(options), true, host), host !== undefined);
    },
  },
  "dial-stdio": {
    usage: "dial-stdio",
    summary: "Join stdin/stdout to the local daemon (what --host runs on the other machine over ssh)",
    async run(_args, options) {
      const { dialStdio } = await import("./dial-stdio.ts");
      return dialStdio(await connectDaemon(resolveSocket(options), true));
    },
  },
  remote: {
    usage: "remote <action> <host>",
    summary: "remote install HOST: put t4a on HOST as ~/.local/bin/t4a, the build for its OS and CPU",
    options: [
      [
        "--from <dir|file>",
        "the build to copy: a release file, or the directory holding t4a-<target> files (default: " +
          "this binary when it fits, else release/ beside it, as npm run release leaves them)",
      ],
    ],
    async run([action, host], options, { target }) {
      if (action !== "install") throw usage(`remote takes install, not "${action}"`);
      if (host === undefined) throw usage("remote install needs a host: a name in hosts.json, or [user@]host[:port]");
      const { installRemote } = await import("./remote-install.ts");
      return installRemote(
        (await remoteTarget({ host }))!,
        parentDir(resolveSocket({})),
        target,
        options.from === undefined ? undefined : String(options.from),
      );
    },
  },
  doctor: {
    usage: "doctor",
    summary:
      "What works on this machine and what does not, each with its fix (exit 1 when something asked for does not)",
    options: [
      ["--sandbox", "the sandbox must work"],
      ["--service", "the service (a systemd user manager) must work"],
      ["--json", "the checks as JSON"],
    ],
    examples: ["t4a doctor --sandbox", "t4a doctor --host user@server"],
    async run(_args, options) {
      const { runDoctor } = await import("./doctor.ts");
      return runDoctor({
        socket: resolveSocket(options),
        sandbox: options.sandbox === true,
        service: options.service === true,
        host: await remoteTarget(options),
        json: options.json === true,
      });
    },
  },
  service: {
    usage: "service <action>",
    summary: "The daemon as an OS service: install, uninstall or status (systemd user unit, launchd agent)",
    options: [
      ["--web <addr>", "the service also serves the web page on host:port"],
      ["--print", "write the unit (or plist) to stdout instead of installing it"],
    ],
    async run([action], options) {
      if (!["install", "uninstall", "status"].includes(action!))
        throw usage(`service takes install, uninstall or status, not "${action}"`);
      const { runService } = await import("../service/service.ts");
      return runService({
        action: action!,
        web: options.web === undefined ? undefined : String(options.web),
        print: options.print === true,
      });
    },
  },
  hosts: {
    usage: "hosts [action] [...args]",
    summary:
      "The fleet: hosts add NAME [user@]host[:port] [-- ssh options], hosts " +
      "rm NAME, hosts list; then NAME:ID, list --all, wait --any --all",
    examples: [
      "t4a hosts add box me@box.lan",
      "t4a hosts add gpu ssh://me@gpu:2222 -- -J bastion",
      "t4a text box:t3",
      "t4a list --all",
    ],
    async run([action = "list", ...rest], options) {
      const { addHost, hostsPath, loadHosts, removeHost } = await import("../client/hosts.ts");
      if (action === "add") {
        const [name, target, ...sshArgs] = rest;
        if (name === undefined || target === undefined)
          throw usage("hosts add NAME [ssh://][user@]host[:port] [-- ssh options]");
        addHost(name, target, sshArgs);
        return 0;
      }
      if (action === "rm" || action === "remove") {
        if (rest.length !== 1) throw usage("hosts rm NAME");
        if (removeHost(rest[0]!)) return 0;
        throw new T4aError("not_found", `host "${rest[0]}" is not in ${hostsPath()}`);
      }
      if (action !== "list") throw usage(`hosts takes add, rm or list, not "${action}"`);
      const { hosts, problems } = loadHosts();
      for (const problem of problems) console.error(`t4a: warning: ${problem}`);
      if (options.json) console.log(JSON.stringify({ path: hostsPath(), hosts }));
      else
        for (const [name, host] of Object.entries(hosts))
          console.log([name, host.target, ...(host.ssh_args ?? [])].join("\t"));
      return 0;
    },
  },
  tmux: {
    usage: "tmux [...args]",
    summary: "tmux's command line over t4a's sessions (also: t4a run under the name tmux); see docs/tmux.md",
    examples: ["t4a tmux new-session -d -s build 'make test'", "t4a tmux capture-pane -p -t build"],
    // main.ts hands `t4a tmux …` over before this table is read; this entry is for the help.
    async run(args, _options, { version }) {
      const { runTmux } = await import("./tmux/tmux.ts");
      return runTmux(args, { version, self: [process.execPath] });
    },
  },
  "tmux-shim": {
    usage: "tmux-shim <dir>",
    summary: "Make DIR/tmux a link to t4a, so tools that run tmux drive t4a (put DIR first on PATH)",
    async run([dir]) {
      const { makeShim } = await import("./tmux/shim.ts");
      return makeShim(dir!);
    },
  },
  schema: {
    usage: "schema <what>",
    summary: "Print a JSON Schema: `spec` = connector.json (the session spec), for editors",
    async run([what]) {
      if (what !== "spec") throw usage(`unknown schema "${what}"; the one there is: spec`);
      const [{ jsonSchema }, { ConnectorFile }] = await Promise.all([
        import("../mcp/tools.ts"),
        import("../protocol/session-spec.ts"),
      ]);
      console.log(
        JSON.stringify(
          {
            $schema: "http://json-schema.org/draft-07/schema#",
            title: "t4a connector.json",
            ...jsonSchema(ConnectorFile),
          },
          null,
          2,
        ),
      );
      return 0;
    },
  },
};
