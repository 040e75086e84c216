// agents: the coding-agent presets (registry + agents.json), each installed or missing, with its
// path and version, as the sessions would find them (the caller's PATH when it sends it).
import * as v from "valibot";
import { defineCommand, type Reply } from "./command.ts";
import { callerEnv } from "../spawn/env-keys.ts";

export const AgentsParams = v.object({
  client_env: v.optional(v.pipe(v.record(v.string(), v.string()), v.description("the caller's environment (its PATH finds the CLIs)"))),
});

/** `cli --version` gets this long to answer; some CLIs check for updates first. */
const VERSION_TIMEOUT_MS = 5000;

export const AgentsReply = v.object({
  agents: v.array(v.object({ name: v.string(), cli: v.string(), installed: v.boolean(), path: v.nullable(v.string()), version: v.nullable(v.string()) })),
});

export const agents = defineCommand({
  name: "agents",
  params: AgentsParams,
  reply: AgentsReply,
  async handle(params, ctx) {
    const { loadAgents } = await import("../spawn/agents/agents.ts");
    const env = params.client_env ?? ctx.daemonEnv;
    const list = await Promise.all(
      loadAgents(env).map(async (agent) => {
        const path = Bun.which(agent.cli, { PATH: env.PATH ?? "/usr/bin:/bin" });
        return { name: agent.name, cli: agent.cli, installed: path !== null, path, version: path ? await version(path) : null };
      }),
    );
    return { agents: list };
  },
  cli: {
    usage: "agents",
    summary: "List the coding-agent presets: installed or missing, path, version",
    request: () => ({ client_env: callerEnv(false) }),
    print(response) {
      for (const agent of response.agents as Reply[]) {
        console.log([agent.name, agent.installed ? "installed" : "missing", agent.path ?? agent.cli, agent.version ?? ""].join("\t").trimEnd());
      }
    },
    startsDaemon: true,
  },
  http: [{ method: "GET", path: "/api/agents" }],
});

async function version(path: string): Promise<string | null> {
  const child = Bun.spawn([path, "--version"], { stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  const timer = setTimeout(() => child.kill(), VERSION_TIMEOUT_MS);
  const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  clearTimeout(timer);
  return code === 0 ? (out.trim().split("\n")[0] ?? null) : null;
}
