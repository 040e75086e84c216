// sandbox: the program runs under bubblewrap (Linux): the whole filesystem read-only, writable
// only its cwd, a private /tmp and the allowed paths; no network unless asked; its own PID
// namespace; killed with the daemon. It fails closed: no bwrap, no user namespaces, a missing
// path → the create fails naming the cause; never an unsandboxed spawn. t4a itself is out of
// reach: the socket directory (socket, lock, session records) and the web token's directory are
// covered by empty tmpfs mounts and T4A_SOCKET is unset, so the program can neither ask the
// daemon for an unsandboxed session nor borrow the web server's token.
// macOS: the same rules as a sandbox-exec profile (sandboxExecProfile; not run here).
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { T4aError } from "../../protocol/errors.ts";
import type { Plugin } from "../plan.ts";

/** bwrap works here (user namespaces allowed): checked once per daemon, by running it. */
let usable: Promise<string | undefined> | undefined;

export const sandbox: Plugin = async (spec, plan, ctx) => {
  if (!spec.sandbox) {
    if (spec.sandbox_net || spec.sandbox_allow?.length) throw new T4aError("invalid_params", "sandbox_net and sandbox_allow need sandbox");
    return;
  }
  if (process.platform !== "linux") {
    throw new T4aError("unsupported", `sandbox: not available on ${process.platform} yet (the sandbox-exec profile is generated but not run)`);
  }
  const bwrap = Bun.which("bwrap", { PATH: ctx.daemonEnv.PATH ?? "/usr/bin:/bin" });
  if (!bwrap) throw new T4aError("spawn_failed", "sandbox: bwrap not found on PATH (install bubblewrap); refusing to run unsandboxed");
  usable ??= probe(bwrap);
  const broken = await usable;
  if (broken) {
    usable = undefined; // the cause may be fixed later: ask again next time
    throw new T4aError("spawn_failed", `sandbox: bwrap cannot create a sandbox here (${broken}); refusing to run unsandboxed`);
  }
  const program = plan.argv[0]!;
  if (!Bun.which(program, { PATH: plan.env.PATH ?? "/usr/bin:/bin", cwd: plan.cwd })) {
    throw new T4aError("spawn_failed", `${program}: command not found or not executable`);
  }
  const allowed = [...(spec.sandbox_allow ?? []), ...plan.writable];
  for (const path of allowed) if (!existsSync(path)) throw new T4aError("invalid_params", `sandbox: allowed path ${path} does not exist`);
  // This daemon's directory, the default one of the user's own daemon when that is elsewhere,
  // and the web server's token (made now if need be, so it is hidden once it exists).
  const webDir = join(ctx.stateDir, "web");
  mkdirSync(webDir, { recursive: true, mode: 0o700 });
  const hidden = [...new Set([privateDir(ctx.socketPath), real(webDir), ...(ctx.daemonEnv.XDG_RUNTIME_DIR ? [real(`${ctx.daemonEnv.XDG_RUNTIME_DIR}/t4a`)] : [])])];
  for (const path of [plan.cwd, ...allowed]) {
    const dir = hidden.find((hide) => inside(real(path), hide));
    if (dir) throw new T4aError("invalid_params", `sandbox: ${path} is inside t4a's private directory ${dir}`);
  }

  // The shell-integration scripts, and this binary (agents' hooks call `t4a notify`), must stay
  // readable even where the private /tmp or a hidden directory would cover them.
  const readable = [ctx.integrationDir, ...(ctx.t4aPath.startsWith("/") ? [ctx.t4aPath] : [])];
  plan.wrap = bwrapArgs(bwrap, { cwd: plan.cwd, writable: allowed, net: spec.sandbox_net === true, hide: hidden, readable, binds: plan.binds });
  delete plan.env.T4A_SOCKET;
  plan.facts.sandbox = spec.sandbox_net ? "bwrap, network" : "bwrap, no network";
};

export interface SandboxRules {
  cwd: string;
  writable: string[];
  net: boolean;
  /** Covered by an empty tmpfs, after every other mount so nothing re-exposes them. */
  hide: string[];
  /** Bound back read-only over what `hide` or the private /tmp covers (shell integration, this binary). */
  readable: string[];
  /** [host path, path inside]: shown last, so nothing covers them (an agent's notify socket). */
  binds?: Array<[string, string]>;
}

/** The bwrap command line for the rules. Mount order matters: later mounts cover earlier ones. */
export function bwrapArgs(bwrap: string, rules: SandboxRules): string[] {
  const args = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  // Writable paths are bound after /tmp's tmpfs, so a cwd under /tmp shows through it.
  for (const path of [rules.cwd, ...rules.writable]) args.push("--bind", path, path);
  for (const path of rules.hide) args.push("--tmpfs", path);
  for (const path of rules.readable) {
    if (inside(path, "/tmp") || rules.hide.some((hidden) => inside(path, hidden))) args.push("--ro-bind", path, path);
  }
  for (const [host, inner] of rules.binds ?? []) args.push("--bind", host, inner);
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!rules.net) args.push("--unshare-net");
  // No --new-session: the program must keep the PTY as its controlling terminal (job control,
  // Ctrl-C); the PTY is its own, so TIOCSTI reaches nothing outside.
  args.push("--die-with-parent", "--chdir", rules.cwd, "--");
  return args;
}

/** The same rules for macOS's sandbox-exec (SBPL): read everywhere, write only where allowed. */
export function sandboxExecProfile(rules: SandboxRules): string {
  const quote = (path: string) => JSON.stringify(path);
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process*)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix*)",
    "(allow file-read*)",
    `(allow file-write* (subpath "/private/tmp") (subpath "/private/var/folders") (literal "/dev/null") (regex #"^/dev/tty") (regex #"^/dev/ttys")${[rules.cwd, ...rules.writable].map((path) => ` (subpath ${quote(path)})`).join("")})`,
    ...rules.hide.map((path) => `(deny file-read* file-write* network-outbound (subpath ${quote(path)}))`),
    ...rules.readable.map((path) => `(allow file-read* (subpath ${quote(path)}))`),
  ];
  lines.push(rules.net ? "(allow network*)" : "(deny network*)");
  return `${lines.join("\n")}\n`;
}

/** The directory holding the socket, its lock and the session records (all t4a's own). */
function privateDir(socketPath: string): string {
  return real(dirname(socketPath));
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir.replace(/\/$/, "")}/`);
}

async function probe(bwrap: string): Promise<string | undefined> {
  const child = Bun.spawn([bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net", "--", "true"], {
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  return code === 0 ? undefined : stderr.trim().split("\n").at(-1) || `bwrap exited ${code}`;
}
