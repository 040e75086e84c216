// The presets as the user has them: the registry, plus $XDG_CONFIG_HOME/t4a/agents.json, which
// overrides a preset's fields (cli path, extra args, env…) or adds a new agent. Read on every
// create, so an edit applies to the next session without a daemon restart.
import { existsSync, readFileSync } from "node:fs";
import * as v from "valibot";
import { T4aError } from "../../protocol/errors.ts";
import { describeIssue } from "../../protocol/issue-path.ts";
import { agentsFile } from "./agents-file.ts";
import { AUTO, type AgentPreset, PRESETS } from "./registry.ts";
import type { ClientEnv } from "../session-env.ts";

const Strings = v.array(v.string());

const PromptVia = v.union([
  v.strictObject({ via: v.literal("positional") }),
  v.strictObject({ via: v.literal("flag"), flag: v.pipe(v.string(), v.minLength(1)) }),
  v.strictObject({ via: v.literal("type") }),
]);

/** One entry of agents.json: any preset field, plus `extraArgs` and `env` of the user's own. */
const Override = v.strictObject({
  cli: v.optional(v.pipe(v.string(), v.minLength(1))),
  defaultArgs: v.optional(Strings),
  extraArgs: v.optional(Strings),
  autoApprove: v.optional(Strings),
  env: v.optional(v.record(v.string(), v.string())),
  prompt: v.optional(PromptVia),
  resume: v.optional(
    v.strictObject({
      sessionIdFlag: v.optional(v.string()),
      byId: v.optional(Strings),
      latest: v.optional(Strings),
      prompt: v.optional(PromptVia),
      shownPatterns: v.optional(Strings),
    }),
  ),
  envKeys: v.optional(Strings),
  home: v.optional(v.strictObject({ config: Strings, keep: Strings })),
  domains: v.optional(Strings),
  waitingPatterns: v.optional(Strings),
  busyPatterns: v.optional(Strings),
  chromePatterns: v.optional(Strings),
  readyPatterns: v.optional(Strings),
  errorPatterns: v.optional(Strings),
  answers: v.optional(v.strictObject({ yes: Strings, always: v.optional(Strings), no: Strings })),
  log: v.optional(
    v.strictObject({ paths: Strings, format: v.picklist(["claude", "codex", "gemini", "qwen", "opencode"]) }),
  ),
});

export interface Agent extends AgentPreset {
  extraArgs: string[];
  env: Record<string, string>;
}

/**
 * Every agent: the presets with the user's overrides, then the user's own (agents.json where the client's environment
 * says: it names programs t4a runs).
 */
export function loadAgents(env: ClientEnv): Agent[] {
  const path = agentsFile(env);
  const agents = new Map<string, Agent>(
    [...PRESETS, AUTO].map((preset) => [preset.name, { ...preset, extraArgs: [], env: {} }]),
  );
  if (!existsSync(path)) return [...agents.values()];
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new T4aError("invalid_params", `${path}: not JSON (${(error as Error).message})`);
  }
  const parsed = v.safeParse(
    v.record(
      v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9._-]*$/i, "agent names are letters, digits, . _ -")),
      Override,
    ),
    json,
  );
  if (!parsed.success) {
    throw new T4aError("invalid_params", `${path}: ${describeIssue(parsed.issues[0])}`);
  }
  for (const [name, override] of Object.entries(parsed.output)) {
    const base = agents.get(name);
    if (!base && !override.cli) throw new T4aError("invalid_params", `${path}: ${name}: a new agent needs "cli"`);
    agents.set(name, {
      ...(base ?? {
        name,
        cli: override.cli!,
        defaultArgs: [],
        autoApprove: [],
        prompt: { via: "positional" },
        resume: {},
        envKeys: [],
        home: { config: [], keep: [] },
        domains: [],
        waitingPatterns: [],
        busyPatterns: [],
        readyPatterns: [],
        chromePatterns: [],
        answers: { yes: ["Enter"], no: ["Escape"] },
        extraArgs: [],
        env: {},
      }),
      ...override,
      name,
    } as Agent);
  }
  return [...agents.values()];
}

export function findAgent(name: string, env: ClientEnv): Agent {
  const agents = loadAgents(env);
  const agent = agents.find((candidate) => candidate.name === name);
  if (!agent)
    throw new T4aError("invalid_params", `unknown agent "${name}"; known: ${agents.map((a) => a.name).join(", ")}`);
  return agent;
}
