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

export async function runMcpServer(options: { socketPath: string; version: string }): Promise<number> {
  const link = new DaemonLink(options.socketPath);
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
    const call = callTool(link, tool, request.params.arguments ?? {}, extra.signal);
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
    const { reply, bytes } = tool.spec.blocking ? await link.blocking(daemonRequest, signal) : await link.request(daemonRequest);
    return toolResult(tool, reply, bytes);
  } catch (error) {
    // Not the daemon's refusal (that is a reply) but no daemon at all, or one gone mid-call.
    const message = error instanceof Error ? error.message : String(error);
    return toolError(error instanceof T4aError ? `${error.code}: ${message}` : `daemon unreachable: ${message}`);
  }
}
