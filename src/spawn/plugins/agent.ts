// agent: the session runs a coding-agent CLI from its preset (seed 003): the command line in
// the chosen spawn mode, the deterministic conversation id, the state hooks and their narrow
// notify channel, and what a sandbox must show it (its network, its home).
import { mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import { T4aError } from "../../protocol/errors.ts";
import { findAgent } from "../agents/agents.ts";
import { conversationId } from "../agents/conversations.ts";
import { launch, loginFlags, shellQuote, type SpawnMode } from "../agents/launch.ts";
import type { Plugin } from "../plan.ts";
import { agentHomeMounts } from "../sandbox/agent-home.ts";
import { inside, real } from "../sandbox/paths.ts";
import { baseUrlEntry } from "../sandbox/proxy.ts";
import { type ClientEnv, clientEnv } from "../session-env.ts";

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
  // Finding the CLI, the shell that looks for it and the home it is given are the daemon's own
  // decisions: the client's environment, never the session's (an env file a sandbox wrote named
  // its own SHELL, and a HOME whose kept directory led to ~/.ssh).
  const client = clientEnv(spec, ctx.daemonEnv);
  const home = client.HOME ?? "/";
  let preset = findAgent(spec.agent, client);
  let agentArgs = spec.agent_args ?? [];
  if (preset.generic) {
    // Any CLI (`--agent auto -- CLI ARGS`): the command is the CLI and its arguments.
    const command = spec.cmd_args ?? spec.agent_args ?? [];
    if (spec.cmd_args && spec.agent_args)
      throw new T4aError(
        "invalid_params",
        `agent ${preset.name}: give its command in cmd_args or agent_args, not both`,
      );
    if (!command.length || !command[0])
      throw new T4aError(
        "invalid_params",
        `agent ${preset.name} runs the CLI named after -- (t4a create --agent ${preset.name} -- CLI ARGS)`,
      );
    for (const field of ["yolo", "resume"] as const) {
      if (spec[field])
        throw new T4aError(
          "invalid_params",
          `agent ${preset.name} knows no ${field} flag of its CLI: pass the CLI's own after --`,
        );
    }
    preset = { ...preset, cli: command[0] };
    agentArgs = command.slice(1);
  } else if (spec.cmd_args)
    throw new T4aError("invalid_params", "give agent or cmd_args, not both (extra agent arguments go in agent_args)");
  const mode: SpawnMode = spec.spawn_mode ?? (spec.ssh_target ? "ssh" : "login");
  if (mode === "ssh" && !spec.ssh_target) throw new T4aError("invalid_params", "spawn_mode ssh needs ssh_target");
  if (mode !== "ssh" && spec.ssh_target)
    throw new T4aError("invalid_params", `ssh_target needs spawn_mode ssh, not ${mode}`);
  const shell = clientShell(client);
  let cliPath: string | undefined;
  if (mode === "ssh") {
    if (!Bun.which("ssh", { PATH: client.PATH })) throw new T4aError("spawn_failed", "ssh not found on PATH");
  } else {
    cliPath = Bun.which(preset.cli, { PATH: client.PATH, cwd: home }) ?? undefined;
    // A login shell may find it where the bare PATH does not (nvm, asdf, ~/.local/bin added in .profile).
    if (!cliPath && (mode === "direct" || !(await foundByLoginShell(shell, preset.cli, client)))) {
      const login = mode === "login";
      const pathIsSetIn = login ? `${shell}'s login startup file (~/.profile)` : "the daemon's environment";
      throw new T4aError(
        "spawn_failed",
        `${preset.cli} not found on PATH${login ? ` (nor by ${shell}'s login startup files)` : ""}; ` +
          `PATH was ${client.PATH ?? "(unset)"}. ` +
          `Install ${preset.cli}, or add its directory to PATH in ${pathIsSetIn}, ` +
          `or name its full path as "cli" for "${preset.name}" in ` +
          "$XDG_CONFIG_HOME/t4a/agents.json (~/.config/t4a/agents.json)",
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
    home,
    shell,
    prompt: spec.prompt,
    yolo: spec.yolo === true,
    resume: spec.resume === true,
    extraArgs: agentArgs,
    notify: { t4a: ctx.t4aPath, id },
    ssh: spec.ssh_target ? { target: spec.ssh_target, args: spec.ssh_args ?? [] } : undefined,
    cliPath,
  });
  plan.argv = built.argv;
  plan.env.assign({ ...preset.env, T4A_SESSION: id, T4A_NOTIFY: notifyPath });
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
    if (!spec.sandbox_no_net) plan.allowDomains.push(...preset.domains, ...baseUrlHosts({ ...client, ...preset.env }));
    const privateDir = join(dirname(ctx.socketPath), "sandbox", id);
    plan.cleanups.push(async () => rmSync(privateDir, { recursive: true, force: true }));
    try {
      plan.mounts.push(...agentHomeMounts(client, preset.home, privateDir));
    } catch (error) {
      throw new T4aError("spawn_failed", `sandbox: cannot prepare ${preset.name}'s home: ${(error as Error).message}`);
    }
    plan.mounts.push({ kind: "bind", path: SANDBOX_NOTIFY_PATH, source: notifyPath });
    plan.env.set("T4A_NOTIFY", SANDBOX_NOTIFY_PATH);
    // A CLI installed under /tmp (a CI checkout, a scratch npm prefix) is covered by the sandbox's
    // private /tmp (it exited 127): its install is shown again, read-only.
    for (const root of cliPath ? installRoots(cliPath) : []) {
      if (inside(root, "/tmp") && !inside(root, real(plan.cwd))) plan.mounts.push({ kind: "ro-bind", path: root });
    }
  }
};

/**
 * Where a CLI lives: the outermost node_modules holding it (a Node CLI needs its packages), else its directory; for its
 * path and its link's target.
 */
function installRoots(cliPath: string): string[] {
  const roots = [cliPath, real(cliPath)].map((path) => {
    const at = path.indexOf("/node_modules/");
    return at >= 0 ? path.slice(0, at + "/node_modules".length) : dirname(path);
  });
  return [...new Set(roots)];
}

/**
 * The hosts of the *_BASE_URL variables (a gateway; a local model server: its port only) of the
 * client's environment and the agent's agents.json entry: its API too. Never the session's (-e,
 * an env file): a sandbox that wrote `ANTHROPIC_BASE_URL=https://elsewhere` into the .env would
 * have the next sandboxed agent's calls, with its credentials, let through to it.
 */
function baseUrlHosts(env: Readonly<Record<string, string>>): string[] {
  return Object.entries(env).flatMap(([key, value]) => {
    const entry = key.endsWith("_BASE_URL") ? baseUrlEntry(value) : undefined;
    return entry ? [entry] : [];
  });
}

/** The client's shell (bash, else sh): it looks for the CLI unsandboxed, and starts it in the session. */
function clientShell(client: ClientEnv): string {
  if (client.SHELL?.startsWith("/") && Bun.which(client.SHELL)) return client.SHELL;
  return Bun.which("bash") ? "/bin/bash" : "/bin/sh";
}

/**
 * `command -v CLI` in the client's login shell, run as the user outside any sandbox: the client's environment, in its
 * home.
 */
async function foundByLoginShell(shell: string, cli: string, client: ClientEnv): Promise<boolean> {
  const child = Bun.spawn(
    [
      shell,
      ...loginFlags(shell)
        .map((flag) => flag.replace("i", ""))
        .filter((flag) => flag !== "-"),
      `command -v ${shellQuote(cli)}`,
    ],
    {
      cwd: client.HOME && isDirectory(client.HOME) ? client.HOME : "/",
      env: { ...client },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout: 5000,
    },
  );
  const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return code === 0 && out.trim() !== "";
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
