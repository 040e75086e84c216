// agents: the coding-agent presets (registry + agents.json), each installed or missing, with its
// path and version, as the sessions would find them (the caller's PATH when it sends it).
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import { forDisplay, fromProgram } from "../protocol/program-text.ts";
import { deferred } from "../protocol/deferred.ts";
import { escapeRegExp } from "../terminal/elements/view.ts";
import { defineCommand, type Reply } from "./command.ts";
import { callerEnv } from "../spawn/env-keys.ts";
import type { Agent } from "../spawn/agents/agents.ts";

export const AgentsParams = deferred(() =>
  v.object({
    check: v.optional(
      v.pipe(
        v.boolean(),
        v.description("run each installed CLI's --help and report the preset flags it no longer lists"),
      ),
    ),
    client_env: v.optional(
      v.pipe(v.record(v.string(), v.string()), v.description("the caller's environment (its PATH finds the CLIs)")),
    ),
    versions: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "ask each installed CLI its version (default true; a node CLI takes seconds): false answers at once",
        ),
      ),
    ),
  }),
);

/**
 * How many CLIs are asked their version at once (their --help: one at a time, oneAtATime). Twelve
 * node and Bun CLIs started together on two busy cores took over 15 s each (pi, gemini, kilo,
 * opencode, auggie, qodercli, amp killed at the timeout, load 12): no version, flags read as missing.
 */
const AT_ONCE = 2;

/** Runs the tasks AT_ONCE at a time; the results in the tasks' order. */
async function inTurns<T>(tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const at = next++;
      results[at] = await tasks[at]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, tasks.length) }, worker));
  return results;
}

/** `cli --version` gets this long to answer (node CLIs load their whole bundle first: gemini ~5 s here). */
const VERSION_TIMEOUT_MS = 15_000;
/**
 * `cli --help` under --check, asked for, one at a time, gets longer: cline's 150 MB binary took
 * past 15 s on a machine loaded eighteenfold, and its flags were then said missing.
 */
const HELP_TIMEOUT_MS = 60_000;

export const AgentsReply = deferred(() =>
  v.object({
    agents: v.array(
      v.object({
        name: v.string(),
        cli: v.string(),
        installed: v.boolean(),
        path: v.nullable(v.string()),
        version: v.nullable(v.string()),
        /** With check: the preset's flags its --help no longer lists (empty: all there). */
        missing_flags: v.optional(v.array(v.string())),
        /** With check: why its flags could not be read (its --help killed at the limit): none is said missing. */
        unchecked: v.optional(v.string()),
        /** The keys (send's names) that answer its question: yes, yes for the session (where it has one), no. */
        answers: v.object({
          yes: v.array(v.string()),
          always: v.optional(v.array(v.string())),
          no: v.array(v.string()),
        }),
      }),
    ),
    /** The PATH the CLIs were looked for on (the caller's, else the daemon's). */
    searched_path: v.string(),
  }),
);

export const agents = defineCommand({
  name: "agents",
  params: AgentsParams,
  reply: AgentsReply,
  async handle(params, ctx) {
    const { loadAgents } = await import("../spawn/agents/agents.ts");
    const { clientEnv } = await import("../spawn/session-env.ts");
    const env = clientEnv(params, ctx.daemonEnv);
    const list = await inTurns(
      loadAgents(env)
        // auto is no CLI of its own: it runs the one named after -- (create's help says so).
        .filter((agent) => !agent.generic)
        .map((agent) => async () => {
          const path = Bun.which(agent.cli, { PATH: env.PATH ?? "/usr/bin:/bin" });
          const found = {
            name: agent.name,
            cli: agent.cli,
            installed: path !== null,
            path,
            version: path && params.versions !== false ? await version(path) : null,
            answers: agent.answers,
          };
          return params.check && path ? { ...found, ...(await oneAtATime(() => missingFlags(path, agent))) } : found;
        }),
    );
    return { agents: list, searched_path: env.PATH ?? "/usr/bin:/bin" };
  },
  cli: {
    usage: "agents",
    summary: "List the coding-agent presets: installed or missing, path, version (--check: flags their --help lost)",
    options: [
      ["--check", "run each installed CLI's --help and report the preset flags it no longer lists (exit 1 if any)"],
    ],
    request: (_args, options) => ({ client_env: callerEnv(false), ...(options.check === true ? { check: true } : {}) }),
    // 1 when a preset's flags are missing or could not be read, with --json too (process.exitCode set
    // in print was overwritten by the 0 the CLI returns after it).
    exit: (response) =>
      (response.agents as Reply[]).some(
        (agent) => agent.unchecked || (agent.missing_flags as string[] | undefined)?.length,
      )
        ? 1
        : 0,
    print(response) {
      for (const agent of response.agents as Reply[]) {
        const missing = agent.missing_flags as string[] | undefined;
        const check = agent.unchecked
          ? `flags unchecked: ${agent.unchecked}`
          : missing === undefined
            ? ""
            : missing.length
              ? `missing flags: ${missing.join(" ")}`
              : "flags ok";
        console.log(
          [agent.name, agent.installed ? "installed" : "missing", agent.path ?? agent.cli, agent.version ?? "", check]
            .join("\t")
            .trimEnd(),
        );
      }
    },
    startsDaemon: true,
  },
  http: [{ method: "GET", path: "/api/agents" }],
});

/**
 * The CLI's version: from the npm package it was installed from when there is one (the file the
 * command links to sits in it: instant, where `--version` of a node CLI takes seconds), else
 * what `--version` prints.
 */
async function version(path: string): Promise<string | null> {
  // A package.json's version and what a CLI prints are theirs: shown through the one stripping function.
  const packaged = packageVersion(path);
  if (packaged !== null) return forDisplay(fromProgram(packaged));
  const { text, code } = await outputOf(path, ["--version"]);
  // Some CLIs colour their version: what is printed and sent is the text alone.
  const plain = text.replace(
    /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|[\x00-\x08\x0b-\x1f\x7f]/g,
    "",
  );
  // A version is a number with dots (`aider 0.86.1`, `v1.2.3`): a CLI that knows no --version and
  // starts its TUI, or greets, answers its first words instead, which are no version.
  const line = plain
    .split("\n")
    .map((row) => row.trim())
    .filter(Boolean)
    .slice(0, 3)
    .find((row) => row.length <= 80 && VERSION.test(row));
  return code === 0 && line ? VERSION.exec(line)![1]! : null;
}

const VERSION = /(?:^|[\s(v])(\d+\.\d+(?:\.\d+)*(?:-[0-9A-Za-z.-]+)?)(?=$|[\s),])/;

function packageVersion(path: string): string | null {
  try {
    let dir = dirname(realpathSync(path));
    for (let depth = 0; depth < 4; depth++, dir = dirname(dir)) {
      const manifest = join(dir, "package.json");
      if (!existsSync(manifest)) continue;
      const json = JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown; bin?: unknown };
      return typeof json.version === "string" && json.bin !== undefined ? json.version : null;
    }
  } catch {
    // Not an npm package, or not readable: ask the CLI.
  }
  return null;
}

let checking: Promise<unknown> = Promise.resolve();

/**
 * Runs the CLIs' --help one after another: eleven at once on a loaded machine took cline 3.0.65's
 * (a 150 MB binary) past the timeout, and an empty help reads as every flag missing.
 */
function oneAtATime<T>(run: () => Promise<T>): Promise<T> {
  const turn = checking.then(run, run);
  checking = turn.catch(() => undefined);
  return turn;
}

/**
 * The preset's flags (its default, auto-approve, prompt, resume and hook flags) that the CLI's
 * --help does not list; a flag of a subcommand (codex `resume --last`) is looked for in that
 * subcommand's help.
 */
async function missingFlags(path: string, agent: Agent): Promise<{ missing_flags: string[] } | { unchecked: string }> {
  const flags = new Map<string, string[]>(); // flag → the subcommand whose help lists it
  const add = (args: readonly string[]) => {
    const sub = args[0] !== undefined && !args[0].startsWith("-") && !args[0].includes("{") ? [args[0]] : [];
    for (const arg of args) if (/^--?[a-zA-Z]/.test(arg)) flags.set(arg, sub);
  };
  add(agent.defaultArgs);
  add(agent.autoApprove);
  if (agent.prompt.via === "flag") add([agent.prompt.flag]);
  if (agent.resume.sessionIdFlag) add([agent.resume.sessionIdFlag]);
  add(agent.resume.byId ?? []);
  add(agent.resume.latest ?? []);
  if (agent.hooks === "claude-settings") add(["--settings"]);
  const helps = new Map<string, Promise<{ text: string; signal: string | null }>>();
  const help = (sub: string[]) => {
    const key = sub.join(" ");
    if (!helps.has(key)) helps.set(key, outputOf(path, [...sub, "--help"], true, HELP_TIMEOUT_MS));
    return helps.get(key)!;
  };
  const missing: string[] = [];
  for (const [flag, sub] of flags) {
    const { text, signal } = await help(sub);
    // Killed, its help may be cut short: what it did not print yet is not missing.
    if (signal)
      return {
        unchecked: `${[...sub, "--help"].join(" ")} ended by ${signal} (its limit is ${HELP_TIMEOUT_MS / 1000} s)`,
      };
    if (!new RegExp(`(^|[\\s,\\[])${escapeRegExp(flag)}([\\s,=\\]]|$)`, "m").test(text))
      missing.push(sub.length ? `${sub.join(" ")} ${flag}` : flag);
  }
  return { missing_flags: missing };
}

/**
 * What `path args…` prints (stdout, then stderr with `withStderr`), its exit code, and the signal
 * that ended it (SIGTERM at the timeout).
 */
async function outputOf(
  path: string,
  args: string[],
  withStderr = false,
  timeoutMs = VERSION_TIMEOUT_MS,
): Promise<{ text: string; code: number; signal: string | null }> {
  const child = Bun.spawn([path, ...args], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: withStderr ? "pipe" : "ignore",
    timeout: timeoutMs,
  });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    withStderr ? new Response(child.stderr).text() : "",
    child.exited,
  ]);
  return {
    text: withStderr ? `${out}\n${err}` : out,
    code,
    signal: child.signalCode === null ? null : String(child.signalCode),
  };
}
