// `t4a mcp`: the terminal tools over MCP on stdio, built on the official SDK; a daemon client like
// the CLI. The only importer of @modelcontextprotocol/sdk, loaded for `t4a mcp` alone (never on
// the CLI path). stdout carries the protocol and nothing else; a failed call never ends the server.
// A call naming HOST:ID (or create's `host`) goes to that host's daemon over ssh, its reply checked
// against the command's schema and its ids qualified; terminal_list `all` asks every host, and
// terminal_wait `any` + `all` waits on every host at once.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { T4aError } from "../protocol/errors.ts";
import { parseReply, type Reply } from "../commands/command.ts";
import type { RemoteHost } from "../client/connect.ts";
import { DaemonLink } from "../client/daemon-link.ts";
import { FleetLinks, listWait, qualify, routeId } from "../client/fleet-links.ts";
import { LOCAL } from "../client/hosts.ts";
import { displayable, shownLine } from "../protocol/program-text.ts";
import { type Tool, type ToolResult, toolError, toolRequest, toolResult, tools, toolsByName } from "./tools.ts";

const INSTRUCTIONS =
  "t4a gives you real terminals. terminal_create starts one (your shell by default); terminal_run runs a shell " +
  "command and answers its output and exit code; for interactive programs, terminal_send types, terminal_wait " +
  "blocks until the program is idle or prints something, terminal_screenshot shows the screen as an image (cheap, " +
  "good for TUIs) and terminal_read gives exact text by rows from the bottom. Kill terminals you no longer need.";

/**
 * The SDK validates elicitation answers with Ajv, built in its constructor; this server never
 * elicits, so it skips that work at startup.
 */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "t4a does not elicit" }),
};

export async function runMcpServer(options: {
  socketPath: string;
  version: string;
  host?: string;
  /** The host to reach, as --host named it: an ssh target, or hosts.json's entry for a name. */
  target?: string | RemoteHost;
}): Promise<number> {
  const link = new DaemonLink(options.socketPath, options.target ?? options.host);
  const fleet = new FleetLinks(options.socketPath);
  const server = new Server(
    { name: "t4a", version: options.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: noElicitation },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
  }));

  const inFlight = new Set<Promise<ToolResult>>();
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = toolsByName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool "${request.params.name}"`);
    const args = request.params.arguments ?? {};
    const progressToken = request.params._meta?.progressToken;
    let routed: { host: string; args: Record<string, unknown> };
    let daemon: DaemonLink;
    try {
      routed = target(tool, args);
      if (routed.host !== LOCAL && options.host)
        throw new Error(`"${routed.host}" names a host, and so does t4a mcp --host`);
      daemon = routed.host === LOCAL ? link : fleet.link(routed.host);
    } catch (error) {
      return toolError(`invalid_params: ${shownLine((error as Error).message)}`);
    }
    const stopProgress =
      tool.spec.blocking && progressToken !== undefined
        ? reportProgress(daemon, typeof routed.args.id === "string" ? routed.args.id : undefined, (progress, message) =>
            extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress, message } }),
          )
        : undefined;
    const all = tool.spec.fleet?.field === "all" && args.all === true;
    // `t4a mcp --host NAME`: "this machine's" daemon is that host's, and what it answers is tainted as any host's.
    const remote = routed.host !== LOCAL ? routed.host : options.host;
    const call = !all
      ? callTool(daemon, routed.host, remote, tool, routed.args, extra.signal)
      : tool.command.name === "wait"
        ? waitAll(link, fleet, tool, args, extra.signal, options.host)
        : listAll(link, fleet, tool, args, extra.signal, options.host);
    void call.finally(() => stopProgress?.());
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
    return call;
  });

  // The transport does not notice the end of stdin. A client that ends it after its last request
  // (`… | t4a mcp`) still gets its answers; then the server ends.
  const ended = new Promise<void>((resolve) => process.stdin.once("end", resolve));
  await server.connect(new StdioServerTransport());
  await ended;
  await Promise.allSettled(inFlight);
  // The SDK writes a call's answer a few promise turns after the call settles; let it, then flush.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => process.stdout.write("", resolve));
  link.close();
  fleet.close();
  await server.close();
  return 0;
}

/** Where a call goes: the host its id names (HOST:ID), create's `host`, else this machine. */
function target(tool: Tool, args: Record<string, unknown>): { host: string; args: Record<string, unknown> } {
  if (tool.spec.fleet?.field === "host") {
    const { host, ...rest } = args;
    return { host: typeof host === "string" && host !== "" ? host : LOCAL, args: rest };
  }
  if (typeof args.id !== "string") return { host: LOCAL, args };
  const routed = routeId(args.id);
  return { host: routed.host, args: { ...args, id: routed.id } };
}

/**
 * One call. `host`: where its id pointed (LOCAL, or a hosts.json name: ids come back as HOST:ID);
 * `remote`: the machine that answers when it is not this one (a HOST:ID, or `t4a mcp --host`).
 */
async function callTool(
  daemon: DaemonLink,
  host: string,
  remote: string | undefined,
  tool: Tool,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolResult> {
  try {
    const daemonRequest = toolRequest(tool, args);
    if (remote !== undefined) {
      // This machine's directory and environment mean nothing there (as the CLI's --host).
      delete daemonRequest.client_env;
      if (args.cwd === undefined) delete daemonRequest.cwd;
    }
    const answers = tool.command.name === "approve" || tool.command.name === "deny";
    const read = typeof args.id === "string" ? reported.get(`${host}\0${args.id}`) : undefined;
    // The question this client was last shown on that terminal: the answer is for it, not for
    // another drawn over it since (question_id is hidden from the model for the tools' size).
    if (answers && read !== undefined && daemonRequest.question_id === undefined) daemonRequest.question_id = read;
    const { reply, bytes } = await daemon.request(daemonRequest, signal);
    if (reply.ok === true) noteQuestions(host, args, reply, answers);
    return toolResult(tool, remote === undefined ? reply : fromHost(tool, remote, reply, host !== LOCAL), bytes);
  } catch (error) {
    // Not the daemon's refusal (that is a reply) but no daemon at all, or one gone mid-call.
    const message = error instanceof Error ? error.message : String(error);
    const where = remote === undefined ? "daemon" : shownLine(remote);
    return toolError(
      error instanceof T4aError ? `${error.code}: ${message}` : `${where} unreachable: ${shownLine(message)}`,
    );
  }
}

/**
 * The question each terminal was last reported waiting on to this client (`HOST\0ID`): a wait, a
 * list or an info that showed it. One MCP server per process, one client per server. An answer
 * spends it: the next is sent without one until a question is read again.
 */
const reported = new Map<string, number>();

function noteQuestions(host: string, args: Record<string, unknown>, reply: Reply, answered: boolean): void {
  const note = (id: unknown, questionId: unknown) => {
    if (typeof id !== "string") return;
    if (typeof questionId === "number") reported.set(`${host}\0${id}`, questionId);
    else reported.delete(`${host}\0${id}`);
  };
  if (answered) return void reported.delete(`${host}\0${String(args.id)}`);
  if (Array.isArray(reply.terminals))
    for (const t of reply.terminals as Reply[])
      note(t.id, (t.need as Reply | undefined)?.question_id ?? t.agent_question_id);
  else if (reply.question_id !== undefined || reply.state !== undefined || reply.agent_state !== undefined)
    note(reply.terminal ?? args.id, reply.question_id ?? reply.agent_question_id);
}

/**
 * A host's reply as the model may see it: only what the command's reply schema allows, every
 * string through the one stripping function, its ids as HOST:ID (a host cannot name another's
 * terminal; `qualifyIds` false under `t4a mcp --host`, whose ids are all that host's), its refusal
 * on one line.
 */
function fromHost(tool: Tool, host: string, reply: Reply, qualifyIds = true): Reply {
  if (reply.ok !== true)
    return {
      ok: false,
      code: shownLine(String(reply.code)),
      error: `${host}: ${shownLine(String(reply.error))}`,
    };
  // An ill-typed reply throws: the caller names the host as unreachable.
  const parsed = displayable(parseReply(tool.command, reply) as Reply);
  if (!qualifyIds) return { ok: true, ...parsed };
  for (const field of ["id", "terminal"])
    if (typeof parsed[field] === "string") parsed[field] = qualify(host, parsed[field]);
  for (const field of ["terminals", "restore_failed"])
    if (Array.isArray(parsed[field]))
      parsed[field] = (parsed[field] as Reply[]).map((t) => ({ ...t, id: qualify(host, t.id) }));
  return { ok: true, ...parsed };
}

/** A reply from the link `t4a mcp` calls this machine's: under --host, that host's, checked and stripped. */
const fromLink = (tool: Tool, reply: Reply, remote: string | undefined): Reply =>
  remote === undefined ? reply : fromHost(tool, remote, reply, false);

/** terminal_list all: every host's list at once, ids as HOST:ID; a host that does not answer is one line. */
async function listAll(
  link: DaemonLink,
  fleet: FleetLinks,
  tool: Tool,
  args: Record<string, unknown>,
  signal: AbortSignal,
  remote: string | undefined,
): Promise<ToolResult> {
  const { names, problems } = fleet.hosts();
  const request = toolRequest(tool, args);
  const answers = await Promise.all(
    [LOCAL, ...names].map(async (host) => {
      try {
        const { reply } = await (host === LOCAL
          ? link.request(request, signal)
          : listWait(fleet.link(host).request(request, signal)));
        const checked = host === LOCAL ? fromLink(tool, reply, remote) : fromHost(tool, host, reply);
        if (checked.ok !== true) return { host, error: String(checked.error) };
        return { host, terminals: (checked.terminals as Reply[]) ?? [] };
      } catch (error) {
        return {
          host,
          error: `unreachable: ${shownLine(error instanceof Error ? error.message : String(error))}`,
        };
      }
    }),
  );
  const terminals = answers.flatMap((answer) => answer.terminals ?? []);
  if (args.needs === true) {
    const { needRank } = await import("../commands/needs.ts");
    terminals.sort((a, b) => needRank(a) - needRank(b));
  }
  const listed = toolResult(tool, { ok: true, terminals });
  const notes = [
    ...problems,
    ...answers.flatMap((answer) => (answer.error === undefined ? [] : [`${answer.host}: ${answer.error}`])),
  ];
  if (notes.length) listed.content.push({ type: "text", text: notes.join("\n") });
  return listed;
}

/**
 * terminal_wait any + all: the wait on every host at once; the first answer wins (as HOST:ID,
 * with its host) and the others are let go (each daemon ends its wait by its timeout). A host
 * that does not answer is a line after the answer; every wait timing out is the timeout error.
 */
async function waitAll(
  link: DaemonLink,
  fleet: FleetLinks,
  tool: Tool,
  args: Record<string, unknown>,
  signal: AbortSignal,
  remote: string | undefined,
): Promise<ToolResult> {
  if (args.any !== true || args.id !== undefined)
    return toolError("invalid_params: all waits with any (no id): until a terminal on any host needs a person");
  const { names, problems } = fleet.hosts();
  const request = toolRequest(tool, args);
  const stop = new AbortController();
  const cancel = () => stop.abort();
  signal.addEventListener("abort", cancel, { once: true });
  const notes = [...problems];
  let refused: Reply | undefined;
  try {
    const won = await new Promise<Reply | undefined>((resolve) => {
      let pending = names.length + 1;
      for (const host of [LOCAL, ...names]) {
        void (async () => {
          try {
            const { reply } = await (host === LOCAL ? link : fleet.link(host)).request(request, stop.signal);
            const checked = host === LOCAL ? fromLink(tool, reply, remote) : fromHost(tool, host, reply);
            if (checked.ok === true) return resolve({ ...checked, host });
            if (checked.code === "timeout") refused ??= checked;
            else notes.push(host === LOCAL ? `${host}: ${String(checked.error)}` : String(checked.error));
          } catch (error) {
            if (!stop.signal.aborted)
              notes.push(`${host}: unreachable: ${shownLine(error instanceof Error ? error.message : String(error))}`);
          } finally {
            if (--pending === 0) resolve(undefined);
          }
        })();
      }
    });
    const result = toolResult(tool, won ?? refused ?? { ok: false, code: "unreachable", error: "no host answered" });
    if (notes.length) result.content.push({ type: "text", text: notes.join("\n") });
    return result;
  } finally {
    stop.abort();
    signal.removeEventListener("abort", cancel);
  }
}

/** How often a blocking call tells the client it is still waiting (and what the screen shows). */
const PROGRESS_EVERY_MS = 1000;

/**
 * While a wait or run blocks: every second, the elapsed time and the terminal's last line, so the
 * client (and its user) sees it is alive and may reset its request timeout. Returns the stop.
 */
function reportProgress(
  link: DaemonLink,
  id: string | undefined,
  notify: (progress: number, message: string) => Promise<void>,
): () => void {
  const started = performance.now();
  let stopped = false;
  const timer = setInterval(async () => {
    const elapsedS = Math.round((performance.now() - started) / 100) / 10;
    let last = "";
    if (id !== undefined) {
      // The cursor often sits on a blank row below the output: show the last row with text.
      const { reply } = await link
        .request({ cmd: "text", id, tail: 3 })
        .catch(() => ({ reply: {} as Record<string, unknown> }));
      const lines = Array.isArray(reply.lines) ? (reply.lines as string[]) : [];
      // What the program (or another host) put there is tainted: no control character reaches the client.
      last = shownLine(String(lines.findLast((line) => String(line).trim() !== "") ?? ""));
    }
    if (!stopped) await notify(elapsedS, `waiting ${elapsedS} s${last ? `; last line: ${last}` : ""}`).catch(() => {});
  }, PROGRESS_EVERY_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
