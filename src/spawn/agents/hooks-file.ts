// qwen's state hooks, which it reads only from settings files: a per-session copy of its
// system-defaults file (the lowest scope) with t4a's hooks added, named by
// QWEN_CODE_SYSTEM_DEFAULTS_PATH. The user's settings are never written; hooks of every scope run,
// so the user's own still do, and a defaults file the user already has is kept, t4a's hooks
// appended to its own.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stateHooks, type LaunchOptions } from "./launch.ts";

export const QWEN_DEFAULTS_VARIABLE = "QWEN_CODE_SYSTEM_DEFAULTS_PATH";

/** Where qwen 0.24 looks for its system defaults, as its getSystemDefaultsPath(). */
function qwenDefaultsPath(env: Record<string, string>): string {
  if (env.QWEN_CODE_SYSTEM_DEFAULTS_PATH) return env.QWEN_CODE_SYSTEM_DEFAULTS_PATH;
  const settings =
    env.QWEN_CODE_SYSTEM_SETTINGS_PATH ??
    (process.platform === "darwin" ? "/Library/Application Support/QwenCode/settings.json" : "/etc/qwen-code/settings.json");
  return join(dirname(settings), "system-defaults.json");
}

/**
 * Writes the defaults file with t4a's hooks to `path`. False (nothing written, the screen alone
 * tells the state) when the user's own defaults file cannot be read as JSON: never hide it.
 */
export function writeQwenHooksFile(path: string, env: Record<string, string>, notify: LaunchOptions["notify"]): boolean {
  const existing = qwenDefaultsPath(env);
  let defaults: Record<string, unknown> = {};
  if (existsSync(existing)) {
    try {
      defaults = JSON.parse(readFileSync(existing, "utf8")) as Record<string, unknown>;
    } catch {
      return false;
    }
    if (typeof defaults !== "object" || defaults === null || Array.isArray(defaults)) return false;
  }
  const theirs = (typeof defaults.hooks === "object" && defaults.hooks !== null ? defaults.hooks : {}) as Record<string, unknown>;
  const hooks: Record<string, unknown> = { ...theirs };
  for (const [event, ours] of Object.entries(stateHooks(notify))) hooks[event] = [...(Array.isArray(theirs[event]) ? (theirs[event] as unknown[]) : []), ...ours];
  writeFileSync(path, JSON.stringify({ ...defaults, hooks }, null, 2), { mode: 0o600 });
  return true;
}
