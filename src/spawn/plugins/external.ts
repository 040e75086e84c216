// external: plugins of the user's own, with the built-ins' interface (seed 001: "third-party
// plugins are possible"). A plugin is an executable file `$XDG_CONFIG_HOME/t4a/plugins/NAME`: one
// file a name, nothing to register, in t4a's own config directory, which no sandbox can write.
// Chosen per session (`--plugin NAME[=ARG]`), each runs as the daemon's user, never in a
// sandbox, after the worktree, env and agent links and before the sandbox, which still wraps
// whatever a plugin made and still decides what is writable.
//
// Protocol: the plugin gets the plan so far as one JSON object on stdin
//   {"t4a_plugin":1,"id","name","arg","cwd","argv","env","facts"}
// and answers one JSON object on stdout, every field optional:
//   {"cwd":"/abs/dir","argv_prefix":["nice","-n","10"],"env":{"K":"V"},"unset_env":["K"],
//    "cleanup":["cmd","arg"]}
// A non-zero exit, a reply that is not that object, or no answer within PLUGIN_TIMEOUT_MS fails
// the create with the plugin's words, and the chain is undone. The cleanup runs when the session
// ends (exit, kill, shutdown), in the plugin's directory, with the same bound.
// A plugin runs outside any sandbox with the plan's environment, which holds the session's
// `-e`/`--env-file` variables (tainted: a sandbox can write the `.env`): it never gets those that
// steer loaders, shells or runtimes (LD_PRELOAD, BASH_ENV, BUN_OPTIONS…), and its PATH, HOME,
// SHELL, XDG directories and tools' configuration locations (KUBECONFIG, npm_config_*…) are the
// creating client's (or the daemon's): a git it runs reads your ~/.gitconfig, not one the
// session's HOME names (SessionEnv.forHelper). It still sees them in its input.
import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { T4aError } from "../../protocol/errors.ts";
import type { KeptItem } from "../../protocol/fields.ts";
import { daemonRecords, type PendingCleanup } from "../../terminal/leftovers.ts";
import { runBounded } from "../bounded.ts";
import type { Plugin, SpawnContext } from "../plan.ts";
import { clientEnv } from "../session-env.ts";

/** A plugin (and its cleanup) must answer within this long. */
export const PLUGIN_TIMEOUT_MS = 10_000;
const AbsoluteDir = v.pipe(v.string(), v.startsWith("/", "must be an absolute path"));

const PluginReply = v.strictObject({
  cwd: v.optional(AbsoluteDir),
  argv_prefix: v.optional(v.array(v.string())),
  env: v.optional(
    v.record(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "is not a variable name")), v.string()),
  ),
  unset_env: v.optional(v.array(v.string())),
  cleanup: v.optional(v.pipe(v.array(v.string()), v.minLength(1))),
});

/** Where NAME's executable is. */
function pluginPath(ctx: SpawnContext, name: string): string {
  return join(ctx.configDir, "plugins", name);
}

export const external: Plugin = async (spec, plan, ctx, id) => {
  for (const choice of spec.plugins ?? []) {
    const split = choice.indexOf("=");
    const name = split < 0 ? choice : choice.slice(0, split);
    const arg = split < 0 ? null : choice.slice(split + 1);
    const path = pluginPath(ctx, name);
    if (!isExecutableFile(path)) throw new T4aError("invalid_params", `plugin ${name}: no executable ${path}`);
    const input = { t4a_plugin: 1, id, name, arg, cwd: plan.cwd, argv: plan.argv, env: plan.env, facts: plan.facts };
    const helperEnv = plan.env.forHelper(clientEnv(spec, ctx.daemonEnv));
    const { stdout } = await runPlugin(name, [path], JSON.stringify(input), plan.cwd, helperEnv);
    let parsed: unknown;
    try {
      parsed = JSON.parse(stdout);
    } catch {
      throw new T4aError(
        "spawn_failed",
        `plugin ${name} answered something that is not JSON: ${JSON.stringify(stdout.slice(0, 200))}`,
      );
    }
    const reply = v.safeParse(PluginReply, parsed);
    if (!reply.success) {
      const issue = reply.issues[0];
      throw new T4aError(
        "spawn_failed",
        `plugin ${name} answered a plan t4a cannot use: ${v.getDotPath(issue) ?? "the reply"} ${issue.message}`,
      );
    }
    const answer = reply.output;
    if (answer.cwd !== undefined) {
      if (!isDirectory(answer.cwd))
        throw new T4aError("spawn_failed", `plugin ${name}: cwd ${answer.cwd} is not a directory`);
      plan.cwd = answer.cwd;
    }
    if (answer.argv_prefix?.length) plan.argv = [...answer.argv_prefix, ...plan.argv];
    for (const key of answer.unset_env ?? []) plan.env.unset(key);
    plan.env.assign(answer.env);
    if (answer.cleanup) {
      const [command, cwd, env] = [answer.cleanup, plan.cwd, plan.env.forHelper(clientEnv(spec, ctx.daemonEnv))];
      // Recorded now, so a daemon SIGKILLed before the session ends has the next one run it.
      const records = daemonRecords();
      const key = records?.addCleanup({
        name: `plugin ${name}`,
        argv: command,
        cwd,
        env: { ...env, T4A_PLUGIN: `${name} cleanup` },
      });
      plan.cleanups.push(async () => {
        try {
          await runPlugin(`${name} cleanup`, command, "", cwd, env);
          return [];
        } catch (error) {
          return [{ what: "plugin", path: name, reason: (error as Error).message } satisfies KeptItem];
        } finally {
          if (key) records?.removeCleanup(key);
        }
      });
    }
    (plan.facts.plugins ??= []).push(name);
  }
};

/**
 * Runs a cleanup an earlier daemon recorded and never ran, as it would have run then; answers why it failed, if it did.
 */
export async function runLeftoverCleanup(cleanup: PendingCleanup): Promise<string | undefined> {
  try {
    const outcome = await runBounded(cleanup.argv, {
      cwd: cleanup.cwd,
      env: cleanup.env,
      stdin: "",
      timeoutMs: PLUGIN_TIMEOUT_MS,
    });
    if (outcome === "late") return `did not finish within ${PLUGIN_TIMEOUT_MS / 1000} s`;
    if (outcome.code !== 0)
      return `exit ${outcome.code ?? outcome.signal}: ${outcome.stderr.trim().split("\n").slice(-5).join("\n")}`;
    return undefined;
  } catch (error) {
    return `could not start: ${(error as Error).message}`;
  }
}

/** Runs a plugin (or its cleanup): its stdout, or a T4aError naming it (its exit, a signal, no answer in time). */
async function runPlugin(
  name: string,
  argv: string[],
  input: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ stdout: string }> {
  let outcome: Awaited<ReturnType<typeof runBounded>>;
  try {
    outcome = await runBounded(argv, {
      cwd,
      env: { ...env, T4A_PLUGIN: name },
      stdin: input,
      timeoutMs: PLUGIN_TIMEOUT_MS,
    });
  } catch (error) {
    throw new T4aError("spawn_failed", `plugin ${name} could not start: ${(error as Error).message}`);
  }
  if (outcome === "late")
    throw new T4aError("spawn_failed", `plugin ${name} did not answer within ${PLUGIN_TIMEOUT_MS / 1000} s`);
  if (outcome.code !== 0) {
    const said = outcome.stderr.trim().split("\n").slice(-5).join("\n");
    throw new T4aError(
      "spawn_failed",
      `plugin ${name} failed (exit ${outcome.code ?? outcome.signal})${said ? `: ${said}` : ""}`,
    );
  }
  return { stdout: outcome.stdout };
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
