// sandbox: the program runs under bubblewrap (Linux), in a new user namespace without
// capabilities whoever runs the daemon: the whole filesystem read-only, writable only its cwd, a
// private /tmp and the allowed paths (never $HOME, nor in or around t4a's own directories but its worktrees and
// scratchpads), git's executable
// parts read-only (git-guard.ts), no unix sockets (seccomp), no network unless asked, its own PID
// namespace, killed with the daemon. It fails closed: no bwrap, no user namespaces, a missing
// path → the create fails naming the cause; never an unsandboxed spawn. t4a itself is out of
// reach: its socket directory and the web token's directory are covered by empty tmpfs mounts and
// T4A_SOCKET is unset. macOS: the same rules as a sandbox-exec profile (bwrap.ts; not run here).
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { T4aError } from "../../protocol/errors.ts";
import { shownLine } from "../../protocol/program-text.ts";
import type { Mount, Plugin, SpawnContext, SpawnPlan } from "../plan.ts";
import { splitLoaderVariables } from "../loader-variables.ts";
import { bwrapArgs, probeBwrap } from "../sandbox/bwrap.ts";
import { gitGuard } from "../sandbox/git-guard.ts";
import { inside, real } from "../sandbox/paths.ts";
import { allowEntryProblem, startProxy } from "../sandbox/proxy.ts";
import { clientEnv } from "../session-env.ts";

/** bwrap works here (user namespaces allowed): checked once per daemon, by running it. */
let usable: Promise<string | undefined> | undefined;

/** Variables that lead to host IPC the sandbox must not reach (its sockets are refused anyway). */
const HOST_IPC_VARIABLES = [
  "DBUS_SESSION_BUS_ADDRESS",
  "SSH_AUTH_SOCK",
  "GPG_AGENT_INFO",
  "DISPLAY",
  "WAYLAND_DISPLAY",
  "XDG_RUNTIME_DIR",
];

export const sandbox: Plugin = async (spec, plan, ctx, id) => {
  if (!spec.sandbox) {
    if (spec.sandbox_net || spec.sandbox_allow?.length || spec.sandbox_allow_domain?.length) {
      throw new T4aError("invalid_params", "sandbox_net, sandbox_allow and sandbox_allow_domain need sandbox");
    }
    return;
  }
  if (process.platform !== "linux") {
    throw new T4aError(
      "unsupported",
      `sandbox: not available on ${process.platform} yet (the sandbox-exec profile is generated but not run)`,
    );
  }
  const bwrap = await usableBwrap(ctx.daemonEnv.PATH);
  const program = plan.argv[0]!;
  // A check only (nothing runs here): the program is found as its own PATH finds it, inside.
  if (!Bun.which(program, { PATH: plan.env.get("PATH") ?? "/usr/bin:/bin", cwd: plan.cwd })) {
    throw new T4aError("spawn_failed", `${program}: command not found or not executable`);
  }
  const allowed = spec.sandbox_allow ?? [];
  for (const path of allowed)
    if (!existsSync(path)) throw new T4aError("invalid_params", `sandbox: allowed path ${path} does not exist`);

  // Home as the daemon's and the client's environments say, never the session's.
  const home = ctx.daemonEnv.HOME ?? clientEnv(spec, ctx.daemonEnv).HOME;
  const mounts = await sandboxMounts(ctx, home, [plan.cwd, ...allowed], plan.mounts);
  for (const name of HOST_IPC_VARIABLES) plan.env.unset(name);
  plan.env.unset("T4A_SOCKET");
  const domains = unique([...(spec.sandbox_allow_domain ?? []), ...plan.allowDomains]);
  const net = spec.sandbox_net === true ? "host" : domains.length ? "proxy" : "none";
  const bridge = net === "proxy" ? await allowListNetwork(domains, plan, mounts, ctx, id) : [];
  plan.wrap = ({ argv, env }) => {
    // bwrap and the shim before it start without the loader variables; the program gets them
    // from sandbox-exec, after the filter.
    const { safe, loader } = splitLoaderVariables(env);
    const exec = [
      ...ctx.selfArgv,
      "sandbox-exec",
      ...bridge,
      ...Object.entries(loader).flatMap(([key, value]) => ["--env", `${key}=${value}`]),
      "--",
    ];
    return { argv: [...bwrapArgs(bwrap, { cwd: plan.startIn ?? plan.cwd, mounts, net, exec }), ...argv], env: safe };
  };
  plan.facts.sandbox =
    net === "host"
      ? "bwrap, network"
      : net === "proxy"
        ? `bwrap, network to ${domains.join(", ")}`
        : "bwrap, no network";
};

/**
 * The mounts of a sandbox writable at `writable` (each refused when it is or holds home or one
 * of t4a's directories): git's executable parts read-only, t4a's private directories hidden.
 */
async function sandboxMounts(
  ctx: SpawnContext,
  home: string | undefined,
  writable: string[],
  extra: Mount[],
): Promise<Mount[]> {
  // Hidden: this daemon's directory, the default one of the user's own daemon when that is
  // elsewhere, and the web server's token (made now if need be, so it is hidden once it exists).
  const webDir = join(ctx.stateDir, "web");
  mkdirSync(webDir, { recursive: true, mode: 0o700 });
  const runtime = ctx.daemonEnv.XDG_RUNTIME_DIR;
  const hidden = unique([real(dirname(ctx.socketPath)), real(webDir), ...(runtime ? [real(`${runtime}/t4a`)] : [])]);
  refuseProtected(writable, extra, hidden, protectedDirs(ctx, home, hidden), home, ctx);

  const guard = await gitGuard(writable.map(real));
  const readable = [ctx.integrationDir, ...ctx.selfArgv.filter((arg) => arg.startsWith("/"))];
  return [
    // A home under /tmp (a test's, a container's) is readable like any home, not covered.
    ...(home && inside(real(home), "/tmp") ? [{ kind: "ro-bind", path: real(home) } as Mount] : []),
    ...guard.shown.map((path): Mount => ({ kind: "ro-bind", path })),
    ...writable.map((path): Mount => ({ kind: "bind", path })),
    ...guard.writable.map((path): Mount => ({ kind: "bind", path })),
    ...extra,
    ...guard.readOnly.map((path): Mount => ({ kind: "ro-bind", path })),
    // Other users' and this user's runtime directories: sockets of every desktop service.
    ...["/run/user", ...(runtime ? [runtime] : [])]
      .filter((dir) => existsSync(dir))
      .map((path): Mount => ({ kind: "tmpfs", path })),
    ...hidden.map((path): Mount => ({ kind: "tmpfs", path })),
    // The shell-integration scripts and this binary (sandbox-exec, agents' `t4a notify`), shown
    // again where the private /tmp or a hidden directory covers them.
    ...readable
      .filter(
        (path) =>
          inside(path, "/tmp") ||
          inside(path, "/run/user") ||
          [...hidden, ...(runtime ? [runtime] : [])].some((dir) => inside(path, dir)),
      )
      .map((path): Mount => ({ kind: "ro-bind", path })),
  ];
}

/**
 * A command run to its end in a sandbox writable only at `dir` (a repository's setup script on a
 * commit that is not the user's): the argv and env to spawn instead.
 */
export async function sandboxedCommand(
  ctx: SpawnContext,
  dir: string,
  net: "none" | "host",
  argv: string[],
  env: Record<string, string>,
): Promise<{ argv: string[]; env: Record<string, string> }> {
  if (process.platform !== "linux")
    throw new T4aError("unsupported", `sandbox: not available on ${process.platform} yet`);
  const bwrap = await usableBwrap(ctx.daemonEnv.PATH);
  const mounts = await sandboxMounts(ctx, ctx.daemonEnv.HOME ?? env.HOME, [dir], []);
  const inner = { ...env };
  for (const name of HOST_IPC_VARIABLES) delete inner[name];
  delete inner.T4A_SOCKET;
  const { safe, loader } = splitLoaderVariables(inner);
  const exec = [
    ...ctx.selfArgv,
    "sandbox-exec",
    ...Object.entries(loader).flatMap(([key, value]) => ["--env", `${key}=${value}`]),
    "--",
  ];
  return { argv: [...bwrapArgs(bwrap, { cwd: dir, mounts, net, exec }), ...argv], env: safe };
}

async function usableBwrap(path: string | undefined): Promise<string> {
  const bwrap = Bun.which("bwrap", { PATH: path ?? "/usr/bin:/bin" });
  if (!bwrap)
    throw new T4aError(
      "spawn_failed",
      "sandbox: bwrap not found on PATH (install bubblewrap); refusing to run unsandboxed",
    );
  usable ??= probeBwrap(bwrap);
  const broken = await usable;
  if (broken) {
    usable = undefined; // the cause may be fixed later: ask again next time
    throw new T4aError(
      "spawn_failed",
      `sandbox: bwrap cannot create a sandbox here (${broken}); refusing to run unsandboxed`,
    );
  }
  return bwrap;
}

/** Home and t4a's own directories (its manifest, agents.json, socket): what runs unsandboxed later. */
function protectedDirs(ctx: SpawnContext, home: string | undefined, hidden: string[]): string[] {
  return unique([...(home ? [home] : []), ctx.stateDir, ctx.configDir, ...hidden].map(real));
}

/**
 * Refuses a writable path inside t4a's hidden directories or inside its config or state directory
 * (plugins, agents.json, the manifest and the approvals are what runs or is trusted outside
 * later; only its worktrees and scratchpads are work), or one that holds home or a t4a
 * directory; the agent's kept paths are checked too (agents.json could name any).
 */
function refuseProtected(
  writable: string[],
  mounts: Mount[],
  hidden: string[],
  protectedDirs: string[],
  home: string | undefined,
  ctx: SpawnContext,
): void {
  const work = [ctx.worktreesDir, join(ctx.stateDir, "scratchpads")].map(real);
  for (const path of writable) {
    const dir = hidden.find((hide) => inside(real(path), hide));
    if (dir) throw new T4aError("invalid_params", `sandbox: ${path} is inside t4a's private directory ${dir}`);
  }
  for (const path of [...writable, ...mounts.flatMap((mount) => (mount.kind === "bind" ? [mount.path] : []))]) {
    const held = protectedDirs.find((dir) => inside(dir, real(path)));
    if (!held) continue;
    const what = held === real(home ?? "") ? "your home directory" : `t4a's directory ${held}`;
    throw new T4aError(
      "invalid_params",
      `sandbox: ${path} would make ${what} writable; give the sandbox a project directory (--cwd)`,
    );
  }
  for (const path of writable) {
    const own = [ctx.configDir, ctx.stateDir].map(real).find((mine) => inside(real(path), mine));
    if (own && !work.some((dir) => inside(real(path), dir)))
      throw new T4aError(
        "invalid_params",
        `sandbox: ${path} is inside t4a's directory ${own}; give the sandbox a project directory (--cwd)`,
      );
  }
}

/**
 * The allow-listed network: this session's proxy on a unix socket shown inside, the proxy
 * variables pointing at the bridge's port; answers sandbox-exec's bridge arguments.
 */
async function allowListNetwork(
  domains: string[],
  plan: SpawnPlan,
  mounts: Mount[],
  ctx: SpawnContext,
  id: string,
): Promise<string[]> {
  for (const domain of domains) {
    const problem = allowEntryProblem(domain);
    if (problem) throw new T4aError("invalid_params", `sandbox_allow_domain: ${problem}`);
  }
  const socket = join(dirname(ctx.socketPath), "proxy", `${id}.sock`);
  mkdirSync(dirname(socket), { recursive: true, mode: 0o700 });
  const proxy = await startProxy(socket, {
    allow: domains,
    hosts: testHosts(ctx.daemonEnv.T4A_TEST_PROXY_HOSTS),
    // What the sandbox asked for (any bytes but a space) goes to t4a.log, which a person reads: one line, shown.
    onRefused: (target, why) =>
      console.error(`t4a daemon: sandbox ${id}: refused ${shownLine(target)}: ${shownLine(why)}`),
  });
  plan.cleanups.push(async () => proxy.close());
  mounts.push({ kind: "bind", path: SANDBOX_PROXY_PATH, source: socket });
  const http = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
  const socks = `socks5h://127.0.0.1:${SANDBOX_PROXY_PORT}`;
  plan.env.assign({
    HTTP_PROXY: http,
    HTTPS_PROXY: http,
    http_proxy: http,
    https_proxy: http,
    ALL_PROXY: socks,
    all_proxy: socks,
    NODE_USE_ENV_PROXY: "1",
  });
  for (const name of ["NO_PROXY", "no_proxy"]) plan.env.unset(name);
  return ["--bridge", `${SANDBOX_PROXY_PORT}=${SANDBOX_PROXY_PATH}`];
}

/** Where the allow-list proxy's socket shows inside, and the port the bridge gives it there. */
const SANDBOX_PROXY_PATH = "/tmp/.t4a-proxy.sock";
const SANDBOX_PROXY_PORT = 3128;

/** T4A_TEST_PROXY_HOSTS="name=ip,…": the tests' own DNS (offline), never set in real use. */
function testHosts(value: string | undefined): Record<string, string> | undefined {
  if (!value) return undefined;
  return Object.fromEntries(value.split(",").map((pair) => pair.split("=") as [string, string]));
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
