// Running git for the plugins: argv only (never a shell), output captured within a cap and a time
// bound, a clear error carrying git's own message. The only place src/spawn/ runs git. A
// repository t4a touches may have been written by a sandboxed program, so no git call of t4a's
// runs anything the repository names: no fsmonitor, no hooks, no filter (smudge, clean,
// process), no external diff, no pager, no ssh command, no signature check (the daemon is never
// the one to execute what a sandbox wrote).
import { T4aError } from "../protocol/errors.ts";

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout went past the cap: what is here is its start, and git was stopped. */
  truncated?: true;
}

export interface GitOptions {
  /** Fed to git's stdin. */
  input?: Uint8Array;
  /** At most this many bytes of stdout are kept; git is stopped past it (default 32 MiB). */
  maxBytes?: number;
  /** git is killed after this long, answering code -1 (default 10 min: a big checkout). */
  timeoutMs?: number;
  /**
   * The filter overrides already listed for this repository (`filterOverrides`): many calls in a row list them once.
   */
  filters?: Record<string, string>;
}

/**
 * Settings that would make git run a program the repository names. Filters are per driver name: see `filterOverrides`.
 */
const UNTRUSTING = [
  ...["core.fsmonitor=false", "core.hooksPath=/dev/null", "core.sshCommand=false", "diff.external=", "core.pager=cat"],
  ...[
    "log.showSignature=false",
    "gpg.program=false",
    "gpg.ssh.program=false",
    "gpg.x509.program=false",
    "core.askPass=false",
  ],
].flatMap((setting) => ["-c", setting]);

/** Subcommands (as t4a uses them) that never convert file content: no filter can run, none to turn off. */
const NO_CONTENT = new Set([
  "config",
  "rev-parse",
  "check-ref-format",
  "rev-list",
  "log",
  "branch",
  "symbolic-ref",
  "merge-base",
  "check-ignore",
  "ls-files",
]);

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** Runs `git -C cwd args…`; never throws for a non-zero exit (see `gitOk`). */
export async function git(cwd: string, args: string[], options: GitOptions = {}): Promise<GitResult> {
  const globals = globalOptions(args);
  const subcommand = args[globals.length];
  const filters =
    subcommand !== undefined && NO_CONTENT.has(subcommand)
      ? {}
      : (options.filters ?? (await filterOverrides(cwd, globals)));
  return run(["git", "-C", cwd, ...UNTRUSTING, ...args], filters, options);
}

/** Runs git and answers its stdout, or fails the create with git's message. */
export async function gitOk(cwd: string, args: string[], what: string, options: GitOptions = {}): Promise<string> {
  const result = await git(cwd, args, options);
  if (result.code !== 0)
    throw new T4aError("spawn_failed", `${what}: ${result.stderr || `git ${args[0]} exited ${result.code}`}`);
  return result.stdout;
}

/**
 * A filter driver is chosen by attributes (the tree's .gitattributes, which a sandbox writes) and
 * defined in config, where `-c` can only name drivers one by one: every driver any config scope
 * defines is emptied (and made optional, or a `required` one with no command would refuse the
 * checkout). Passed as GIT_CONFIG_KEY_n, so a driver name with `=` or spaces cannot be misparsed.
 * `git config` itself runs nothing.
 */
export async function filterOverrides(cwd: string, globals: string[] = []): Promise<Record<string, string>> {
  const listed = await run(
    ["git", "-C", cwd, ...UNTRUSTING, ...globals, "config", "-z", "--name-only", "--get-regexp", "^filter\\."],
    {},
    { timeoutMs: 60_000 },
  );
  const drivers = new Set<string>();
  for (const key of listed.stdout.split("\0")) {
    const match = /^filter\.(.+)\.[^.]+$/s.exec(key);
    if (match) drivers.add(match[1]!);
  }
  const env: Record<string, string> = {};
  let n = 0;
  for (const driver of drivers) {
    for (const [field, value] of [
      ["smudge", ""],
      ["clean", ""],
      ["process", ""],
      ["required", "false"],
    ]) {
      env[`GIT_CONFIG_KEY_${n}`] = `filter.${driver}.${field}`;
      env[`GIT_CONFIG_VALUE_${n}`] = value!;
      n++;
    }
  }
  if (n > 0) env.GIT_CONFIG_COUNT = String(n);
  return env;
}

/**
 * The options before the subcommand (`--git-dir X --work-tree Y`): the config listing must read the same repository.
 */
function globalOptions(args: string[]): string[] {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-"))
    i += ["--git-dir", "--work-tree", "-c", "-C", "--namespace"].includes(args[i]!) ? 2 : 1;
  return args.slice(0, i);
}

async function run(argv: string[], extraEnv: Record<string, string>, options: GitOptions): Promise<GitResult> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(env)) if (/^GIT_CONFIG_(COUNT|KEY_|VALUE_)/.test(key)) delete env[key];
  const child = Bun.spawn(argv, {
    stdin: options.input ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
    // No pager, no prompts for credentials, no editor: the daemon has no one to ask.
    env: {
      ...env,
      ...extraEnv,
      GIT_TERMINAL_PROMPT: "0",
      GIT_PAGER: "cat",
      GIT_EDITOR: "true",
      GIT_ASKPASS: "false",
      SSH_ASKPASS: "false",
      LC_ALL: "C",
    },
  });
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    child.kill("SIGKILL");
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  try {
    const [out, err, code] = await Promise.all([
      readCapped(child.stdout, options.maxBytes ?? DEFAULT_MAX_BYTES, () => child.kill("SIGKILL")),
      readCapped(child.stderr, 64 * 1024, () => {}),
      child.exited,
    ]);
    const stderr = late
      ? `git did not finish within ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`
      : err.text.trim();
    // Only the end: leading blanks mean something (status's " M").
    return {
      code: late ? -1 : out.truncated ? 0 : code,
      stdout: out.text.trimEnd(),
      stderr,
      ...(out.truncated ? { truncated: true as const } : {}),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** A stream read up to `max` bytes; past it the rest is dropped and `stop` called (git killed). */
async function readCapped(
  stream: ReadableStream<Uint8Array>,
  max: number,
  stop: () => void,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (truncated) continue; // drained, not kept, until the kill closes it
    if (size + value.length > max) {
      chunks.push(value.subarray(0, max - size));
      size = max;
      truncated = true;
      stop();
      continue;
    }
    chunks.push(value);
    size += value.length;
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), truncated };
}
