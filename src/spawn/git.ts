// Running git for the plugins: argv only (never a shell), output captured, a clear error carrying
// git's own message. The only place src/spawn/ runs git. A repository t4a touches may have been
// written by a sandboxed program, so no git call of t4a's runs anything the repository names:
// no fsmonitor, no hooks (the daemon is never the one to execute what a sandbox wrote).
import { T4aError } from "../protocol/errors.ts";

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Settings that would make git run a program the repository names. */
const UNTRUSTING = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.sshCommand=false", "-c", "diff.external=", "-c", "core.pager=cat"];

/** Runs `git -C cwd args…`; never throws for a non-zero exit (see `gitOk`). */
export async function git(cwd: string, args: string[]): Promise<GitResult> {
  const child = Bun.spawn(["git", "-C", cwd, ...UNTRUSTING, ...args], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    // No pager, no prompts for credentials, no editor: the daemon has no one to ask.
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", GIT_EDITOR: "true", LC_ALL: "C" },
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  // Only the end: leading blanks mean something (status's " M").
  return { code, stdout: stdout.trimEnd(), stderr: stderr.trim() };
}

/** Runs git and answers its stdout, or fails the create with git's message. */
export async function gitOk(cwd: string, args: string[], what: string): Promise<string> {
  const result = await git(cwd, args);
  if (result.code !== 0) throw new T4aError("spawn_failed", `${what}: ${result.stderr || `git ${args[0]} exited ${result.code}`}`);
  return result.stdout;
}
