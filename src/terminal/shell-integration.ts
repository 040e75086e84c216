// Injects t4a's shell integration into interactive bash, zsh and fish at spawn: rewrites argv/env
// so the shell loads t4a's hooks after the user's own startup files. Writes only into t4a's
// private directory, never into the user's home.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import bashScript from "./shell/bash.sh" with { type: "text" };
import fishScript from "./shell/fish.fish" with { type: "text" };
import zprofileScript from "./shell/zprofile.zsh" with { type: "text" };
import zshenvScript from "./shell/zshenv.zsh" with { type: "text" };
import zshrcScript from "./shell/zshrc.zsh" with { type: "text" };

export type ShellKind = "bash" | "zsh" | "fish";

export interface Spawn {
  argv: string[];
  env: Record<string, string>;
}

/** Write the hook files into `dir` (created 0700). Called once when the daemon starts. */
export function installShellIntegration(dir: string): void {
  mkdirSync(join(dir, "zsh"), { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const files: Array<[string, string]> = [
    ["bash.sh", bashScript],
    ["fish.fish", fishScript],
    ["zsh/.zshenv", zshenvScript],
    ["zsh/.zprofile", zprofileScript],
    ["zsh/.zshrc", zshrcScript],
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), text, { mode: 0o600 });
}

/**
 * The spawn rewritten to load the integration, or undefined when argv is not an interactive
 * shell t4a knows (a script, `-c`, another program): those run untouched.
 */
export function integrate(spawn: Spawn, dir: string, nonce: string): { spawn: Spawn; shell: ShellKind } | undefined {
  const [program, ...args] = spawn.argv;
  const name = basename(program ?? "");
  // Options only (no script operand, no -c): the shell will read commands interactively.
  const interactive = args.every((arg) => arg.startsWith("-") && arg !== "-c" && !/^-[a-zA-Z]*c/.test(arg));
  if (!interactive) return undefined;
  const env: Record<string, string> = { ...spawn.env, T4A_NONCE: nonce };
  const login = args.some((arg) => arg === "-l" || arg === "--login" || /^-[a-zA-Z]*l/.test(arg));

  if (name === "bash") {
    if (args.some((arg) => arg === "--posix" || arg === "--rcfile" || arg === "--init-file")) return undefined;
    const kept = args.filter((arg) => arg !== "--norc" && arg !== "-l" && arg !== "--login" && arg !== "--noprofile");
    if (args.includes("--norc")) env.T4A_NORC = "1";
    if (login && !args.includes("--noprofile")) env.T4A_LOGIN = "1";
    // --rcfile is ignored by login shells, so login is emulated by the script itself.
    return { spawn: { argv: [program!, "--rcfile", join(dir, "bash.sh"), ...kept], env }, shell: "bash" };
  }
  if (name === "zsh") {
    if (args.some((arg) => arg === "-f" || arg === "--no-rcs")) return undefined;
    env.T4A_USER_ZDOTDIR = spawn.env.ZDOTDIR ?? "";
    env.ZDOTDIR = join(dir, "zsh");
    return { spawn: { argv: spawn.argv, env }, shell: "zsh" };
  }
  if (name === "fish") {
    return {
      spawn: { argv: [...spawn.argv, "--init-command", `source ${shellQuote(join(dir, "fish.fish"))}`], env },
      shell: "fish",
    };
  }
  return undefined;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
