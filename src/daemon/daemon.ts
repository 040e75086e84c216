// The daemon's life: claim the socket, serve, and on SIGTERM/SIGINT/shutdown end every session
// and remove the socket only if it is still ours. Loaded only by `t4a daemon` (heavy imports).
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, statSync, unlinkSync } from "node:fs";
import { forgetDaemon, livingDaemon, recordDaemon } from "../client/daemon-pid.ts";
import { dirname, join } from "node:path";
import { isCompiled } from "../client/executable.ts";
import { ensureSocketDir } from "../client/socket-dir.ts";
import { T4aError } from "../protocol/errors.ts";
import { EventBus } from "../terminal/event-bus.ts";
import { SessionRecords } from "../terminal/leftovers.ts";
import { Manifest } from "../service/manifest.ts";
import { releaseDaemonLock, takeDaemonLock } from "./daemon-lock.ts";
import { conversationsPath, daemonLockPath, manifestPath, stateDir as stateDirOf } from "../service/manifest-path.ts";
import { stringEnv } from "../spawn/env-keys.ts";
import { agentsFile } from "../spawn/agents/agents-file.ts";
import { installShellIntegration } from "../terminal/shell-integration.ts";
import type { SpawnContext } from "../spawn/plan.ts";
import type { DaemonContext, WebHost } from "../commands/context.ts";
import { defaultConfig } from "../session/config.ts";
import { Sessions } from "../session/sessions.ts";
import { ScreenPool } from "../terminal/screen-pool.ts";
import { removeDeadCgroups } from "../spawn/limits.ts";
import { runLeftoverCleanup } from "../spawn/plugins/external.ts";
import { listen, unreadReplyBytes } from "./server.ts";

export interface DaemonOptions {
  socketPath: string;
  version: string;
  idleTimeoutMs?: number;
  /** Serve the web page and API on this host:port from the start. */
  web?: string;
  /** The web front end, made by its own layer (src/web/) for this daemon's context. */
  webHost?: (ctx: DaemonContext) => WebHost;
}

/** How often the daemon looks whether its socket file is still there. */
const SOCKET_CHECK_MS = 2000;

/** Runs the cleanups a previous daemon recorded and never ran (each bounded), and removes its empty cgroups. */
async function finishLeftovers(records: SessionRecords, ended: number[]): Promise<void> {
  // The processes just SIGKILLed leave their cgroups as they die, not at once.
  for (let waited = 0; waited < 2000 && ended.some(isRunning); waited += 20) await Bun.sleep(20);
  for (const path of removeDeadCgroups())
    console.error(`t4a daemon: removed the empty cgroup ${path} a previous daemon left`);
  await Promise.all(
    records.pendingCleanups().map(async ({ key, cleanup }) => {
      const failed = await runLeftoverCleanup(cleanup);
      records.removeCleanup(key);
      console.error(
        `t4a daemon: ran the cleanup of ${cleanup.name} a previous daemon left` +
          (failed ? `: it failed (${failed})` : ""),
      );
    }),
  );
}

function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/s.test(readFileSync(`/proc/${pid}/stat`, "latin1"));
  } catch {
    return false;
  }
}

/** Runs until shutdown; resolves with the process exit code. */
export async function runDaemon(options: DaemonOptions): Promise<number> {
  const { socketPath } = options;
  ensureSocketDir(socketPath);
  if (await socketAnswers(socketPath)) {
    throw new T4aError("exists", `a daemon is already listening on ${socketPath}`);
  }
  // Before anything that ends processes or removes files: a pid file can be deleted or garbled,
  // the lock cannot be taken while its daemon runs.
  takeDaemonLock(daemonLockPath(process.env, socketPath), socketPath);
  // Alive but unreachable (its socket file was deleted): never a second daemon beside it, which
  // would take its sessions for leftovers and end them.
  const living = livingDaemon(socketPath);
  if (living) {
    throw new T4aError(
      "exists",
      `daemon ${living} still runs for ${socketPath} though its socket is gone; ` +
        `\`kill -USR1 ${living}\` makes it listen again`,
    );
  }
  removeIfPresent(socketPath); // stale: nobody answers on it

  // A daemon SIGKILLed on this socket left its sessions' HUP-ignoring processes running: end them
  // before serving, so nothing of the old daemon runs beside what this one starts.
  const records = new SessionRecords(`${socketPath}.sessions`);
  // Agents' notify channels (FIFOs) of an earlier daemon are read by nobody now.
  rmSync(join(dirname(socketPath), "notify"), { recursive: true, force: true });
  const leftovers = records.endLeftovers();
  for (const leftover of leftovers) {
    console.error(
      `t4a daemon: ended ${leftover.pids.length} process(es) left of session ${leftover.id} ` +
        `by a previous daemon: ${leftover.pids.join(" ")}`,
    );
  }
  records.adopt();
  // What it had promised to do at a session's end (plugin cleanups) and the cgroups it left;
  // the restore waits for it, so an old session's cleanup never runs under its restored self.
  const leftoversDone = finishLeftovers(
    records,
    leftovers.flatMap((leftover) => leftover.pids),
  );
  const bus = new EventBus();
  const config = defaultConfig(options.idleTimeoutMs);
  const spawn = spawnContext(socketPath, join(dirname(socketPath), "shell-integration"));
  const manifest = new Manifest(manifestPath(process.env, socketPath));
  for (const problem of manifest.problems) console.error(`t4a daemon: ${problem}`);
  const screens = new ScreenPool();
  const sessions = new Sessions({ bus, config, spawn, records, manifest, screens });
  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let stopping = false;
  let socketWatch: ReturnType<typeof setInterval> | undefined;

  const ctx: DaemonContext = {
    sessions,
    bus,
    config,
    version: options.version,
    startedAt: performance.now(),
    socketPath,
    stateDir: spawn.stateDir,
    daemonEnv: spawn.daemonEnv,
    requestShutdown: () => setTimeout(() => void stop(), 0),
    unreadReplyBytes,
  };
  ctx.web = options.webHost?.(ctx);

  // From the first socket on, nothing ends the daemon but a shutdown: not a signal that arrives
  // mid-restore (it stops as cleanly as later), not an exception a restored session throws.
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  process.on("SIGHUP", () => {}); // the terminal that started us going away is not a reason to stop
  if (process.env.T4A_DEBUG_MEMORY)
    (await import("../terminal/memory-probe.ts")).installMemoryProbe(process.env.T4A_DEBUG_MEMORY);
  process.on("uncaughtException", (error) => console.error("t4a daemon: uncaught exception:", error));
  process.on("unhandledRejection", (error) => console.error("t4a daemon: unhandled rejection:", error));

  installShellIntegration(spawn.integrationDir);
  // Each socket is made under a name of its own and renamed into place: Bun's stop() unlinks the
  // path it listened on, which must never be a socket another daemon has put there since.
  const listeners: Array<ReturnType<typeof listen>> = [];
  let ours = 0;
  const claimSocket = () => {
    const fresh = `${socketPath}.${process.pid}-${listeners.length}`;
    removeIfPresent(fresh);
    listeners.push(listen(fresh, ctx));
    chmodSync(fresh, 0o600);
    ours = statSync(fresh).ino;
    renameSync(fresh, socketPath);
  };
  // Listening before the restore: a client may subscribe to events and see each session come
  // back (`restored`); every other request waits for the restore, so none sees a partial list.
  const restoring = leftoversDone
    .then(() => sessions.restore())
    .then(
      (report) => {
        for (const restored of report) {
          if (restored.error)
            console.error(
              `t4a daemon: could not restore session ${restored.id}: ${restored.error} ` +
                `(kept: \`t4a restore ${restored.id}\` tries again, \`t4a kill ${restored.id}\` forgets it)`,
            );
          else console.error(`t4a daemon: restored session ${restored.id}`);
        }
      },
      (error: Error) => console.error(`t4a daemon: could not restore sessions: ${error.message}`),
    );
  ctx.restoring = restoring;
  claimSocket();
  recordDaemon(socketPath);
  await restoring;
  ctx.restoring = undefined;
  if (stopping) return finished; // a signal came during the restore
  // A deleted socket file (a cleanup script, a tmp reaper) is made again, as tmux does on
  // SIGUSR1; a path someone else has taken is left alone.
  const keepSocket = () => {
    if (stopping || existsSync(socketPath)) return;
    console.error(`t4a daemon: the socket ${socketPath} was removed; listening again`);
    claimSocket();
  };
  process.on("SIGUSR1", keepSocket);
  socketWatch = setInterval(keepSocket, SOCKET_CHECK_MS);

  async function stop(): Promise<void> {
    if (stopping) return;
    stopping = true;
    clearInterval(socketWatch);
    for (const listener of listeners) listener.stop(true);
    ctx.web?.close();
    // Mid-restore, what is being restored ends with the rest (and stays in the manifest).
    await ctx.restoring;
    await sessions.killAll();
    screens.close();
    manifest.flush(); // a directory or size change still waiting to be written
    // Another daemon may have replaced a socket we thought stale; never delete one that is not ours.
    try {
      if (statSync(socketPath).ino === ours) unlinkSync(socketPath);
    } catch {
      // Already gone.
    }
    forgetDaemon(socketPath);
    releaseDaemonLock();
    finish(0);
  }

  if (options.web !== undefined) {
    if (!ctx.web) throw new T4aError("unsupported", "this daemon has no web front end");
    const started = await ctx.web.start({ listen: options.web });
    console.error(`t4a daemon: web server on ${started.url} (run \`t4a web\` for a login URL)`);
  } else {
    // The web server the previous daemon ran comes back with this one (until `t4a web --stop`).
    await ctx.web?.resume().then(
      (resumed) => resumed && console.error(`t4a daemon: web server on ${resumed.url} again, as before the restart`),
      (error: Error) => console.error(`t4a daemon: could not serve the web again: ${error.message}`),
    );
  }

  console.error(`t4a daemon ${options.version} pid ${process.pid} listening on ${socketPath}`);
  return finished;
}

/** Paths and environment for the session plugins; the state dir follows the XDG base spec. */
function spawnContext(socketPath: string, integrationDir: string): SpawnContext {
  const daemonEnv = stringEnv(process.env);
  const stateDir = stateDirOf(process.env);
  const worktreesDir = process.env.T4A_WORKTREES_DIR || join(stateDir, "worktrees");
  // Hooks call the compiled binary back by its path; in development, whatever t4a is on PATH.
  const t4aPath = isCompiled() ? process.execPath : "t4a";
  const selfArgv = isCompiled() ? [process.execPath] : [process.execPath, Bun.main];
  const configDir = dirname(agentsFile(process.env));
  return {
    socketPath,
    stateDir,
    configDir,
    worktreesDir,
    integrationDir,
    daemonEnv,
    t4aPath,
    selfArgv,
    conversationsFile: conversationsPath(process.env, socketPath),
  };
}

async function socketAnswers(path: string): Promise<boolean> {
  try {
    const socket = await Bun.connect({ unix: path, socket: { data() {} } });
    socket.end();
    return true;
  } catch {
    return false;
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Not there.
  }
}
