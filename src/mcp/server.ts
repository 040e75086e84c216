// `t4a mcp`: the terminal tools over MCP on stdio, built on the official SDK; a daemon client like
// the CLI. The only importer of @modelcontextprotocol/sdk, loaded for `t4a mcp` alone (never on
// the CLI path). stdout carries the protocol and nothing else; a failed call never ends the server.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { T4aError } from "../protocol/errors.ts";
import { DaemonLink } from "./daemon-link.ts";
import { type Tool, type ToolResult, toolError, toolRequest, toolResult, tools, toolsByName } from "./tools.ts";

const INSTRUCTIONS =
  "t4a gives you real terminals. terminal_create starts one (your shell by default); terminal_run runs a shell command and answers its output " +
  "and exit code; for interactive programs, terminal_send types, terminal_wait blocks until the program is idle or prints something, " +
  "terminal_screenshot shows the screen as an image (cheap, good for TUIs) and terminal_read gives exact text by rows from the bottom. " +
  "Kill terminals you no longer need.";

/**
 * The SDK validates elicitation answers with Ajv, built in its constructor; this server never
 * elicits, so it skips that work at startup.
 */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "t4a does not elicit" }),
};

export async function runMcpServer(options: { socketPath: string; version: string; host?: string }): Promise<number> {
  const link = new DaemonLink(options.socketPath, options.host);
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
    const stopProgress =
      tool.spec.blocking && progressToken !== undefined
        ? reportProgress(link, typeof args.id === "string" ? args.id : undefined, (progress, message) =>
            extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress, message } }),
          )
        : undefined;
    const call = callTool(link, tool, args, extra.signal);
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
  await server.close();
  return 0;
}

async function callTool(link: DaemonLink, tool: Tool, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
  try {
    const daemonRequest = toolRequest(tool, args);
    const { reply, bytes } = await link.request(daemonRequest, signal);
    return toolResult(tool, reply, bytes);
  } catch (error) {
    // Not the daemon's refusal (that is a reply) but no daemon at all, or one gone mid-call.
    const message = error instanceof Error ? error.message : String(error);
    return toolError(error instanceof T4aError ? `${error.code}: ${message}` : `daemon unreachable: ${message}`);
  }
}

/** How often a blocking call tells the client it is still waiting (and what the screen shows). */
const PROGRESS_EVERY_MS = 1000;

/**
 * While a wait or run blocks: every second, the elapsed time and the terminal's last line, so the
 * client (and its user) sees it is alive and may reset its request timeout. Returns the stop.
 */
function reportProgress(link: DaemonLink, id: string | undefined, notify: (progress: number, message: string) => Promise<void>): () => void {
  const started = performance.now();
  let stopped = false;
  const timer = setInterval(async () => {
    const elapsedS = Math.round((performance.now() - started) / 100) / 10;
    let last = "";
    if (id !== undefined) {
      // The cursor often sits on a blank row below the output: show the last row with text.
      const { reply } = await link.request({ cmd: "text", id, tail: 3 }).catch(() => ({ reply: {} as Record<string, unknown> }));
      const lines = Array.isArray(reply.lines) ? (reply.lines as string[]) : [];
      last = lines.findLast((line) => line.trim() !== "") ?? "";
    }
    if (!stopped) await notify(elapsedS, `waiting ${elapsedS} s${last ? `; last line: ${last}` : ""}`).catch(() => {});
  }, PROGRESS_EVERY_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
