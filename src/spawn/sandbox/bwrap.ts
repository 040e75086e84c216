// The sandbox's command line: bubblewrap on Linux (run here and tested), and the same rules as a
// sandbox-exec profile for macOS (generated, not run here). Pure functions of the rules.
import type { Mount } from "../plan.ts";

export interface SandboxRules {
  cwd: string;
  /** Over the read-only root, /dev, /proc and a private /tmp, in this order: later covers earlier. */
  mounts: Mount[];
  /** none: no network at all; host: the host's network namespace; proxy: only the bridge to the allow-list proxy. */
  net: "none" | "host" | "proxy";
  /** What bwrap runs: `t4a sandbox-exec … --` (the seccomp filter), then the program. */
  exec: string[];
}

/**
 * The bwrap command line. Always a new user namespace without capabilities, whoever runs the
 * daemon (as root the sandbox would otherwise keep CAP_SYS_ADMIN and could unmount its walls),
 * and no user namespaces inside (no way to gain capabilities over the mounts again).
 */
export function bwrapArgs(bwrap: string, rules: SandboxRules): string[] {
  const args = [bwrap, "--unshare-user", "--disable-userns", "--cap-drop", "ALL"];
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  for (const mount of rules.mounts) {
    if (mount.kind === "tmpfs") args.push("--tmpfs", mount.path);
    else args.push(`--${mount.kind}`, mount.source ?? mount.path, mount.path);
  }
  args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  // proxy: its own network namespace too; the bridge inside is the only way out.
  if (rules.net !== "host") args.push("--unshare-net");
  // No --new-session: the program must keep the PTY as its controlling terminal (job control,
  // Ctrl-C); the PTY is its own, so TIOCSTI reaches nothing outside.
  args.push("--die-with-parent", "--chdir", rules.cwd, "--", ...rules.exec);
  return args;
}

/** What a program on macOS writes wherever it runs: temporary directories, /dev/null, its terminal. */
const WRITABLE_ON_MACOS = [
  '(subpath "/private/tmp")',
  '(subpath "/private/var/folders")',
  '(literal "/dev/null")',
  '(regex #"^/dev/tty")',
  '(regex #"^/dev/ttys")',
];

/**
 * The same rules for macOS's sandbox-exec (SBPL): read everywhere, write only where a writable
 * bind says, nothing of a hidden (tmpfs) path. Not run here: there is no macOS to run it on.
 */
export function sandboxExecProfile(rules: SandboxRules): string {
  const quote = (path: string) => JSON.stringify(path);
  const writable = rules.mounts.filter((mount) => mount.kind === "bind").map((mount) => mount.path);
  const writableHere = [rules.cwd, ...writable].map((path) => `(subpath ${quote(path)})`);
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process*)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix*)",
    "(allow file-read*)",
    `(allow file-write* ${[...WRITABLE_ON_MACOS, ...writableHere].join(" ")})`,
    ...rules.mounts
      .filter((mount) => mount.kind === "ro-bind")
      .map((mount) => `(deny file-write* (subpath ${quote(mount.path)}))`),
    ...rules.mounts
      .filter((mount) => mount.kind === "tmpfs")
      .map((mount) => `(deny file-read* file-write* network-outbound (subpath ${quote(mount.path)}))`),
  ];
  lines.push(rules.net === "host" ? "(allow network*)" : "(deny network*)");
  return `${lines.join("\n")}\n`;
}

/** Can bwrap make a sandbox here, with the flags it will get? undefined when it can, else why not. */
export async function probeBwrap(bwrap: string): Promise<string | undefined> {
  const args = bwrapArgs(bwrap, { cwd: "/", mounts: [], net: "none", exec: ["true"] });
  const child = Bun.spawn(args, { stdin: "ignore", stdout: "ignore", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  return code === 0 ? undefined : stderr.trim().split("\n").at(-1) || `bwrap exited ${code}`;
}
