// The MCP tools, generated from the command table: each command's `mcp` spec gives the name and
// description, its valibot params the JSON Schema; daemon replies become tool results here.
// The only importer of @valibot/to-json-schema. No MCP SDK, no sockets.
import { toJsonSchema } from "@valibot/to-json-schema";
import {
  type Command,
  type McpSpec,
  parseReply,
  type Reply,
  textContent,
  type ToolContent,
} from "../commands/command.ts";
import { commands } from "../commands/index.ts";
import { shownLines } from "../protocol/program-text.ts";

export interface Tool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties?: Record<string, object>; required?: string[] };
  command: Command;
  spec: McpSpec;
}

export interface ToolResult {
  content: ToolContent[];
  isError?: boolean;
  [key: string]: unknown;
}

export const tools: Tool[] = commands.flatMap((command) => mcpSpecs(command).map((spec) => toTool(command, spec)));

/** The tools one command offers: none, one, or several (exec and its continuation). */
export function mcpSpecs(command: Command): McpSpec[] {
  return command.mcp === undefined ? [] : Array.isArray(command.mcp) ? command.mcp : [command.mcp];
}

/** A valibot schema as JSON Schema (refinements JSON Schema cannot say are left to the daemon). */
export function jsonSchema(schema: Parameters<typeof toJsonSchema>[0]): object {
  return toJsonSchema(schema, { errorMode: "ignore" });
}

export const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));

function toTool(command: Command, spec: McpSpec): Tool {
  // "ignore": refinements JSON Schema cannot say (v.check on names) stay the daemon's to enforce.
  const schema = toJsonSchema(command.params, { errorMode: "ignore" }) as Tool["inputSchema"];
  // The draft's URL tells a model nothing, and each turn of a client pays for it once per tool.
  delete (schema as { $schema?: string }).$schema;
  for (const field of spec.hide ?? []) delete schema.properties?.[field];
  schema.required = [...(schema.required ?? []), ...(spec.require ?? [])].filter(
    (field) => !spec.hide?.includes(field),
  );
  if (spec.group) {
    for (const field of spec.group.fields) delete schema.properties?.[field];
    schema.properties = {
      ...schema.properties,
      [spec.group.field]: { type: "object", description: spec.group.description },
    };
  }
  if (spec.fleet)
    schema.properties = {
      ...schema.properties,
      [spec.fleet.field]: { type: spec.fleet.type, description: spec.fleet.description },
    };
  return { name: spec.tool, description: spec.description, inputSchema: schema, command, spec };
}

/** The daemon request for a tool call. The daemon validates the arguments; hidden fields never pass. */
export function toolRequest(tool: Tool, args: Reply): Reply {
  const group = tool.spec.group;
  const grouped =
    group && typeof args[group.field] === "object" && args[group.field] !== null ? (args[group.field] as Reply) : {};
  const flat: Reply = { ...args };
  if (tool.spec.fleet) delete flat[tool.spec.fleet.field];
  if (group) {
    delete flat[group.field];
    // Only the grouped fields come out of the group: it cannot set a field the tool shows or hides.
    for (const field of group.fields) if (field in grouped) flat[field] = grouped[field];
  }
  const fields = { ...(tool.spec.request?.(flat) ?? flat) };
  for (const field of tool.spec.hide ?? []) delete fields[field];
  return { ...fields, cmd: tool.command.name };
}

export function toolResult(tool: Tool, reply: Reply, payload?: Uint8Array): ToolResult {
  // A refusal may quote a program (the shell's words on a line it could not run): stripped.
  if (reply.ok !== true) return toolError(shownLines(`${reply.code}: ${reply.error}`));
  if (tool.spec.result) {
    let parsed: Reply;
    try {
      parsed = parseReply(tool.command, reply);
    } catch (error) {
      return toolError(`internal: ${(error as Error).message}`);
    }
    return { content: tool.spec.result(parsed, payload) };
  }
  const { ok: _ok, tag: _tag, ...fields } = reply;
  return { content: textContent(Object.keys(fields).length ? JSON.stringify(fields) : "ok") };
}

export function toolError(message: string): ToolResult {
  return { content: textContent(message), isError: true };
}
