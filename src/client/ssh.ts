// `t4a --host [ssh://][user@]host[:port] <command>`: the same protocol to a daemon on another
// machine, through `ssh host t4a dial-stdio` (the `docker -H ssh://` pattern). OpenSSH brings the
// auth, the encryption, jump hosts and ~/.ssh/config; one master connection per host is reused
// (ControlMaster/ControlPersist, in the private socket directory), so a shell loop of calls pays
// for one handshake. T4A_SSH_COMMAND replaces `ssh` (e.g. `ssh -F cfg`), T4A_REMOTE_T4A the
// remote program (default: t4a on PATH, else ~/.local/bin/t4a, where `t4a remote install` puts it).
import { DaemonConnection, type Reply } from "./connection.ts";
import { DaemonUnreachable } from "./errors.ts";

/** What the remote's dial-stdio prints on stderr once it is joined to its daemon. */
export const DIAL_READY = "t4a dial-stdio: joined";

/**
 * How long the remote may take to show it runs t4a (its ready line or a first reply):
 * T4A_CONNECT_TIMEOUT seconds, default 30. A login that runs something else and says nothing
 * would otherwise hang every call.
 */
export function connectTimeoutMs(): number {
  const seconds = Number(process.env.T4A_CONNECT_TIMEOUT);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 30) * 1000;
}

/** The longest a daemon works on a call that names no timeout_ms (run's and ask's default). */
const UNTIMED_CALL_MS = 10 * 60 * 1000;
/** A create may run git (10 min at most), a worktree's setup (10 min) and plugins: bounded well past their sum. */
const CREATE_CALL_MS = 30 * 60 * 1000;

/**
 * How long a daemon through a pipe may take to answer: the call's own timeout_ms or exec's
 * yield_ms (else UNTIMED_CALL_MS; a create CREATE_CALL_MS: its timeout_ms is the session's lifetime),
 * plus the connect timeout. What another host does is tainted: one that never answers holds no
 * call forever.
 */
export function replyBoundMs(request: Reply): number {
  if (request.cmd === "create") return CREATE_CALL_MS + connectTimeoutMs();
  const own = request.timeout_ms ?? request.yield_ms;
  return (typeof own === "number" && Number.isFinite(own) ? own : UNTIMED_CALL_MS) + connectTimeoutMs();
}

export interface HostTarget {
  /** [user@]host as ssh takes it. */
  destination: string;
  port?: number;
}

export function parseHost(host: string): HostTarget {
  const match = /^(?:ssh:\/\/)?((?:[^@/\s]+@)?(?:\[[0-9a-fA-F:]+\]|[^:/@\s]+))(?::(\d+))?\/?$/.exec(host.trim());
  if (!match || match[1]!.startsWith("-"))
    throw new DaemonUnreachable(`--host must be [ssh://][user@]host[:port], got "${host}"`);
  return { destination: match[1]!.replace(/^(.*@)?\[(.*)\]$/, "$1$2"), port: match[2] ? Number(match[2]) : undefined };
}

/** ssh and its options for a target: the user's command, plus connection sharing. */
export function sshArgv(target: HostTarget, controlDir: string, remote: string[], extra: string[] = []): string[] {
  const ssh = (process.env.T4A_SSH_COMMAND ?? "ssh").split(/\s+/).filter(Boolean);
  return [
    ...ssh,
    "-o",
    "ControlMaster=auto",
    "-o",
    `ControlPath=${controlDir}/ssh-%C`,
    "-o",
    "ControlPersist=60",
    "-o",
    "BatchMode=yes",
    "-o",
    `ConnectTimeout=${Math.ceil(connectTimeoutMs() / 1000)}`,
    ...(target.port ? ["-p", String(target.port)] : []),
    // A host's own options from hosts.json (`-J jump`, `-i key`): the user's file, checked to start with an option.
    ...extra,
    "--",
    target.destination,
    ...remote,
  ];
}

/** The remote side of the pipe: its t4a joined to its daemon (started there if need be). */
export function remoteDial(): string {
  return remoteT4a("dial-stdio");
}

/** A shell command running the remote's t4a with these (shell-safe) arguments. */
export function remoteT4a(args: string): string {
  const configured = process.env.T4A_REMOTE_T4A;
  if (configured) return `${configured} ${args}`;
  return `if command -v t4a >/dev/null 2>&1; then exec t4a ${args}; else exec "$HOME/.local/bin/t4a" ${args}; fi`;
}

export async function openRemote(host: string, controlDir: string, sshArgs: string[] = []): Promise<DaemonConnection> {
  const target = parseHost(host);
  return openPipe(sshArgv(target, controlDir, [remoteDial()], sshArgs), `ssh ${target.destination}`);
}

/**
 * A connection through a program that joins its stdin/stdout to a daemon and says DIAL_READY on
 * stderr once joined: ssh running the remote's dial-stdio, or a local `t4a dial-stdio` (the
 * client library's way to start a daemon). node:child_process, so the library runs under Node too.
 */
/** Characters of a pipe's stderr kept for its errors. */
const STDERR_KEPT = 16 * 1024;
/** How long a pipe's program has to exit once its stdin ended. */
const PIPE_END_GRACE_MS = 5000;

export async function openPipe(argv: string[], peer: string, env?: NodeJS.ProcessEnv): Promise<DaemonConnection> {
  // Loaded here: dial-stdio and hosts.json's readers import this file and start no program.
  const { spawn } = await import("node:child_process");
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], env });
  // What it says on stderr is kept for errors: its last STDERR_KEPT characters (a host may say a lot).
  let stderr = "";
  // A write after the program exited (refused, no route) fails EPIPE: its exit below says why.
  child.stdin.on("error", () => {});
  const wire = {
    write: (bytes: string | Uint8Array) => {
      if (child.stdin.writable) child.stdin.write(bytes);
    },
    end: () => {
      child.stdin.end();
      // A peer that keeps its side open after ours ended (a hostile or stuck host) is not kept.
      setTimeout(
        () => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"),
        PIPE_END_GRACE_MS,
      ).unref?.();
    },
  };
  const { connection, feed, ended } = DaemonConnection.over(wire, peer, replyBoundMs);
  let answered = false;
  let over = false;
  const end = (failure: string | undefined) => {
    if (over) return;
    over = true;
    clearTimeout(timer);
    if (failure) connection.failWith(failure);
    ended();
  };
  const timeoutMs = connectTimeoutMs();
  const timer = setTimeout(() => {
    // Ended here, not when ssh's pipes close: a ControlPersist master it forked may hold them open.
    end(
      `${peer}: no answer from t4a there within ${timeoutMs / 1000} s ` +
        `(the login ran something else, or t4a there is stuck)${said(stderr)}; T4A_CONNECT_TIMEOUT sets the wait`,
    );
    child.kill("SIGKILL");
  }, timeoutMs);
  timer.unref?.();
  const heard = () => {
    answered = true;
    clearTimeout(timer);
  };
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
    if (!answered && stderr.includes(DIAL_READY)) heard();
  });
  child.stdout.on("data", (chunk: Buffer) => {
    if (!answered) heard();
    feed(chunk);
  });
  // Both its output ended and it exited: when it failed (no route, no key, no t4a there), its own
  // words go to the caller.
  let code: number | null | undefined;
  let outputEnded = false;
  const settle = () => {
    if (code === undefined || !outputEnded) return;
    end(code === 0 ? undefined : `${peer}: ${said(stderr).replace(/^: /, "") || `exited ${code}`}`);
  };
  child.stdout.on("end", () => {
    outputEnded = true;
    settle();
  });
  child.on("exit", (exitCode) => {
    code = exitCode;
    settle();
  });
  child.on("error", (error) => end(`${peer}: ${error.message}`));
  return connection;
}

/** ssh's own words, without the remote t4a's ready line: ": words", or nothing. */
function said(stderr: string): string {
  const words = stderr
    .split("\n")
    .filter((line) => line.trim() && line.trim() !== DIAL_READY)
    .join("\n")
    .trim();
  return words ? `: ${words}` : "";
}
