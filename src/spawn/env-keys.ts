// The environment policy's variable names (seed 003): a minimal base a terminal program needs,
// plus the keys coding agents read (seed 003's list, and every variable a preset says its CLI
// reads). Plain data: the CLI loads it to send its own values.
import { readFileSync } from "node:fs";
import { agentsFile } from "./agents/agents-file.ts";
import { PRESETS } from "./agents/registry.ts";

/** What a program in a terminal needs to find its home, its tools, its locale and its display. */
export const BASE_KEYS = [
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "PATH",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "DISPLAY",
  "XAUTHORITY",
  "WAYLAND_DISPLAY",
  "XDG_RUNTIME_DIR",
  "XDG_CURRENT_DESKTOP",
  "XDG_SESSION_TYPE",
  "DBUS_SESSION_BUS_ADDRESS",
  "SSH_AUTH_SOCK",
  // Where programs keep their configuration and data: a CLI configured under XDG_CONFIG_HOME=/x
  // must find /x in the session too.
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_CACHE_HOME",
  "XDG_CONFIG_DIRS",
  "XDG_DATA_DIRS",
] as const;

/** API keys, cloud credentials and proxies the agent CLIs read (seed 003's AGENT_ENV_VARS). */
export const PASSTHROUGH_KEYS = [
  "AMP_API_KEY",
  "ANTHROPIC_API_KEY",
  "AUTOHAND_API_KEY",
  "AUGMENT_SESSION_AUTH",
  "AWS_ACCESS_KEY_ID",
  "AWS_DEFAULT_REGION",
  "AWS_PROFILE",
  "AWS_REGION",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AZURE_OPENAI_API_ENDPOINT",
  "AZURE_OPENAI_API_KEY",
  "AZURE_OPENAI_KEY",
  "CODEBUFF_API_KEY",
  "COPILOT_CLI_TOKEN",
  "CURSOR_API_KEY",
  "DASHSCOPE_API_KEY",
  "FACTORY_API_KEY",
  "GEMINI_API_KEY",
  "GH_TOKEN",
  "GITHUB_TOKEN",
  "GOOGLE_API_KEY",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "GOOGLE_CLOUD_LOCATION",
  "GOOGLE_CLOUD_PROJECT",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "KIMI_API_KEY",
  "MISTRAL_API_KEY",
  "MOONSHOT_API_KEY",
  "NO_PROXY",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "http_proxy",
  "https_proxy",
  "no_proxy",
] as const;

const POLICY_KEYS = new Set<string>([
  ...BASE_KEYS,
  ...PASSTHROUGH_KEYS,
  ...PRESETS.flatMap((preset) => preset.envKeys),
]);

/**
 * The policy's variables out of an environment: the base, LC_*, the passthrough list, and the
 * `envKeys` of the user's own agents.json entries (found through that environment).
 */
export function policyEnv(env: Record<string, string | undefined>): Record<string, string> {
  const extra = new Set(userAgentEnvKeys(env));
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && (POLICY_KEYS.has(key) || key.startsWith("LC_") || extra.has(key))) out[key] = value;
  }
  return out;
}

/**
 * The `envKeys` of the user's own agents.json entries, read without validating (the daemon
 * validates it at create): so a gateway variable a user lists there reaches the session too.
 */
function userAgentEnvKeys(env: Record<string, string | undefined>): string[] {
  try {
    const json = JSON.parse(readFileSync(agentsFile(env), "utf8")) as Record<string, { envKeys?: unknown }>;
    return Object.values(json).flatMap((entry) =>
      Array.isArray(entry?.envKeys) ? entry.envKeys.filter((key) => typeof key === "string") : [],
    );
  } catch {
    return [];
  }
}

/** An environment without its unset entries. */
export function stringEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * What a client sends as `client_env`: its own values for the policy's variables (or all of them
 * with `inherit`), so a session gets the caller's environment, not the daemon's stale one.
 * Only these cross the socket; the daemon would drop the rest anyway.
 */
export function callerEnv(inherit: boolean): Record<string, string> {
  const env = stringEnv(process.env);
  return inherit ? env : policyEnv(env);
}
