// agent: the session runs a coding-agent CLI from its preset (seed 003): the command line in
// the chosen spawn mode, the deterministic conversation id, the state hooks and their narrow
// notify channel, and what a sandbox must show it (its network, its home).
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { T4aError } from "../../protocol/errors.ts";
import { findAgent } from "../agents/agents.ts";
import { conversationId } from "../agents/conversations.ts";
import { launch, loginFlags, type SpawnMode } from "../agents/launch.ts";
import type { Plugin } from "../plan.ts";
import { agentHomeMounts } from "../sandbox/agent-home.ts";
import { splitLoaderVariables } from "../sandbox/bwrap.ts";
import { inside, real } from "../sandbox/paths.ts";
import { baseUrlEntry } from "../sandbox/proxy.ts";

/** Where a sandboxed agent finds its notify channel (bound there from the daemon's directory). */
export const SANDBOX_NOTIFY_PATH = "/tmp/.t4a-notify";

export const agent: Plugin = async (spec, plan, ctx, id) => {
  if (spec.agent === undefined) {
    for (const field of [
      "prompt",
      "yolo",
      "resume",
      "agent_args",
      "spawn_mode",
      "ssh_target",
      "ssh_args",
      "sandbox_no_net",
    ] as const) {
      if (spec[field] !== undefined) throw new T4aError("invalid_params", `${field} needs agent`);
    }
    return;
  }
  if (spec.cmd_args)
    throw new T4aError("invalid_params", "give agent or cmd_args, not both (extra agent arguments go in agent_args)");
  const source = spec.client_env ?? ctx.daemonEnv;
  const preset = findAgent(spec.agent, source);
  const mode: SpawnMode = spec.spawn_mode ?? (spec.ssh_target ? "ssh" : "login");
  if (mode === "ssh" && !spec.ssh_target) throw new T4aError("invalid_params", "spawn_mode ssh needs ssh_target");
  if (mode !== "ssh" && spec.ssh_target)
    throw new T4aError("invalid_params", `ssh_target needs spawn_mode ssh, not ${mode}`);
  const shell =
    plan.env.SHELL && Bun.which(plan.env.SHELL) ? plan.env.SHELL : Bun.which("bash") ? "/bin/bash" : "/bin/sh";
  let cliPath: string | undefined;
  if (mode === "ssh") {
    if (!Bun.which("ssh", { PATH: plan.env.PATH })) throw new T4aError("spawn_failed", "ssh not found on PATH");
  } else {
    cliPath = Bun.which(preset.cli, { PATH: plan.env.PATH, cwd: plan.cwd }) ?? undefined;
    // A login shell may find it where the bare PATH does not (nvm, asdf, ~/.local/bin added in .profile).
    if (!cliPath && (mode === "direct" || !(await foundByLoginShell(shell, preset.cli, plan)))) {
      throw new T4aError(
        "spawn_failed",
        `${preset.cli} not found on PATH${mode === "login" ? ` (nor by ${shell}'s login startup files)` : ""}; PATH was ${plan.env.PATH ?? "(unset)"}. ` +
          `Install ${preset.cli}, or add its directory to PATH in ${mode === "login" ? `${shell}'s login startup file (~/.profile)` : "the daemon's environment"}, or name its full path as "cli" for "${preset.name}" in $XDG_CONFIG_HOME/t4a/agents.json (~/.config/t4a/agents.json)`,
      );
    }
  }
  // The notify channel: a FIFO only the daemon reads (a sandbox cannot make unix sockets).
  const notifyPath = join(dirname(ctx.socketPath), "notify", `${id}-${randomBytes(4).toString("hex")}.fifo`);
  mkdirSync(dirname(notifyPath), { recursive: true, mode: 0o700 });
  const made = Bun.spawnSync(["mkfifo", "-m", "600", notifyPath], { stderr: "pipe" });
  if (made.exitCode !== 0)
    throw new T4aError("spawn_failed", `agent: cannot make the notify channel: ${made.stderr.toString().trim()}`);
  plan.cleanups.push(async () => rmSync(notifyPath, { force: true }));
  const built = launch({
    agent: preset,
    mode,
    conversationId: conversationId(ctx.conversationsFile, preset.name, spec.name ?? id, spec.resume === true),
    cwd: plan.cwd,
    home: plan.env.HOME ?? "/",
    shell,
    prompt: spec.prompt,
    yolo: spec.yolo === true,
    resume: spec.resume === true,
    extraArgs: spec.agent_args ?? [],
    notify: { t4a: ctx.t4aPath, id },
    ssh: spec.ssh_target ? { target: spec.ssh_target, args: spec.ssh_args ?? [] } : undefined,
    cliPath,
  });
  plan.argv = built.argv;
  plan.env = { ...plan.env, ...preset.env, T4A_SESSION: id, T4A_NOTIFY: notifyPath };
  plan.agent = {
    agent: preset,
    typedPrompt: built.typedPrompt,
    promptGiven: spec.prompt !== undefined && built.typedPrompt === undefined,
    resumed: built.resumed,
    notifyPath,
  };
  plan.facts.agent = preset.name;
  plan.facts.spawn_mode = mode;
  if (built.conversationId) plan.facts.conversation_id = built.conversationId;
  if (built.resumed) plan.facts.resumed = true;
  if (spec.sandbox) {
    // An agent reaches its API hosts (and the one its *_BASE_URL names); its home shows its
    // configuration, changing only what it keeps.
    if (!spec.sandbox_no_net) plan.allowDomains.push(...preset.domains, ...baseUrlHosts(plan.env));
    const privateDir = join(dirname(ctx.socketPath), "sandbox", id);
    plan.cleanups.push(async () => rmSync(privateDir, { recursive: true, force: true }));
    try {
      plan.mounts.push(...agentHomeMounts(plan.env.HOME ?? "/", preset.home, privateDir));
    } catch (error) {
      throw new T4aError("spawn_failed", `sandbox: cannot prepare ${preset.name}'s home: ${(error as Error).message}`);
    }
    plan.mounts.push({ kind: "bind", path: SANDBOX_NOTIFY_PATH, source: notifyPath });
    plan.env.T4A_NOTIFY = SANDBOX_NOTIFY_PATH;
    // A CLI installed under /tmp (a CI checkout, a scratch npm prefix) is covered by the sandbox's
    // private /tmp (it exited 127): its install is shown again, read-only.
    for (const root of cliPath ? installRoots(cliPath) : []) {
      if (inside(root, "/tmp") && !inside(root, real(plan.cwd))) plan.mounts.push({ kind: "ro-bind", path: root });
    }
  }
};

/** Where a CLI lives: the outermost node_modules holding it (a Node CLI needs its packages), else its directory; for its path and its link's target. */
function installRoots(cliPath: string): string[] {
  const roots = [cliPath, real(cliPath)].map((path) => {
    const at = path.indexOf("/node_modules/");
    return at >= 0 ? path.slice(0, at + "/node_modules".length) : dirname(path);
  });
  return [...new Set(roots)];
}

/** The hosts of the session's *_BASE_URL variables (a gateway; a local model server: its port only): its API too. */
function baseUrlHosts(env: Record<string, string>): string[] {
  return Object.entries(env).flatMap(([key, value]) => {
    const entry = key.endsWith("_BASE_URL") ? baseUrlEntry(value) : undefined;
    return entry ? [entry] : [];
  });
}

async function foundByLoginShell(
  shell: string,
  cli: string,
  plan: { env: Record<string, string>; cwd: string },
): Promise<boolean> {
  const child = Bun.spawn(
    [
      shell,
      ...loginFlags(shell)
        .map((flag) => flag.replace("i", ""))
        .filter((flag) => flag !== "-"),
      `command -v ${cli}`,
    ],
    {
      cwd: plan.cwd,
      // Not the session's loader variables (LD_PRELOAD from an env file): this runs unsandboxed.
      env: splitLoaderVariables(plan.env).safe,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout: 5000,
    },
  );
  const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return code === 0 && out.trim() !== "";
}
