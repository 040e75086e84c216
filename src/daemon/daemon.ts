// The daemon's life: claim the socket, serve, and on SIGTERM/SIGINT/shutdown end every session
// and remove the socket only if it is still ours. Loaded only by `t4a daemon` (heavy imports).
import { chmodSync, rmSync, statSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { isCompiled } from "../client/executable.ts";
import { ensureSocketDir } from "../client/socket-dir.ts";
import { T4aError } from "../protocol/errors.ts";
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SCROLLBACK_LINES,
} from "../protocol/limits.ts";
import { EventBus } from "../terminal/event-bus.ts";
import { SessionRecords } from "../terminal/leftovers.ts";
import { Manifest } from "../service/manifest.ts";
import { manifestPath, stateDir as stateDirOf } from "../service/manifest-path.ts";
import { stringEnv } from "../spawn/env-keys.ts";
import { Pool } from "../terminal/pool.ts";
import { installShellIntegration } from "../terminal/shell-integration.ts";
import type { SpawnContext } from "../spawn/plan.ts";
import type { DaemonContext } from "./context.ts";
import { listen } from "./server.ts";

export interface DaemonOptions {
  socketPath: string;
  version: string;
  idleTimeoutMs?: number;
  /** Serve the web page and API on this host:port from the start. */
  web?: string;
}

/** Runs until shutdown; resolves with the process exit code. */
export async function runDaemon(options: DaemonOptions): Promise<number> {
  const { socketPath } = options;
  ensureSocketDir(socketPath);
  if (await socketAnswers(socketPath)) {
    throw new T4aError("exists", `a daemon is already listening on ${socketPath}`);
  }
  removeIfPresent(socketPath); // stale: nobody answers on it

  // A daemon SIGKILLed on this socket left its sessions' HUP-ignoring processes running: end them
  // before serving, so nothing of the old daemon runs beside what this one starts.
  const records = new SessionRecords(`${socketPath}.sessions`);
  // Agents' notify sockets of an earlier daemon answer nobody now.
  rmSync(join(dirname(socketPath), "notify"), { recursive: true, force: true });
  for (const leftover of records.endLeftovers()) {
    console.error(`t4a daemon: ended ${leftover.pids.length} process(es) left of session ${leftover.id} by a previous daemon: ${leftover.pids.join(" ")}`);
  }
  const bus = new EventBus();
  const pool = new Pool(bus, records);
  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let stopping = false;

  const ctx: DaemonContext = {
    pool,
    bus,
    config: {
      idle_timeout_ms: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      scrollback_lines: DEFAULT_SCROLLBACK_LINES,
      scrollback_bytes: 0,
      kill_grace_ms: DEFAULT_KILL_GRACE_MS,
      max_sessions: DEFAULT_MAX_SESSIONS,
    },
    version: options.version,
    startedAt: performance.now(),
    socketPath,
    integrationDir: join(dirname(socketPath), "shell-integration"),
    spawn: spawnContext(socketPath, join(dirname(socketPath), "shell-integration")),
    agents: new Map(),
    recordings: new Map(),
    viewers: new Map(),
    manifest: new Manifest(manifestPath(process.env, socketPath)),
    requestShutdown: () => setTimeout(() => void stop(), 0),
  };

  installShellIntegration(ctx.integrationDir);
  await restoreSessions(ctx);
  const listener = listen(socketPath, ctx);
  chmodSync(socketPath, 0o600);
  const ours = statSync(socketPath).ino;

  async function stop(): Promise<void> {
    if (stopping) return;
    stopping = true;
    listener.stop(true);
    ctx.web?.stop();
    await pool.killAll(ctx.config.kill_grace_ms);
    // Another daemon may have replaced a socket we thought stale; never delete one that is not ours.
    try {
      if (statSync(socketPath).ino === ours) unlinkSync(socketPath);
    } catch {
      // Already gone.
    }
    finish(0);
  }

  if (options.web !== undefined) {
    const { startWebServer } = await import("../commands/web.ts");
    const started = await startWebServer(ctx, { listen: options.web });
    console.error(`t4a daemon: web server on ${started.url} (run \`t4a web\` for a login URL)`);
  }

  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  process.on("SIGHUP", () => {}); // the terminal that started us going away is not a reason to stop
  process.on("uncaughtException", (error) => console.error("t4a daemon: uncaught exception:", error));
  process.on("unhandledRejection", (error) => console.error("t4a daemon: unhandled rejection:", error));
  console.error(`t4a daemon ${options.version} pid ${process.pid} listening on ${socketPath}`);
  return finished;
}

/**
 * The persisted sessions of an earlier daemon on this socket, created again with the same ids,
 * directories (a shell's last one), plugins and size; agents resume their conversation.
 */
async function restoreSessions(ctx: DaemonContext): Promise<void> {
  const entries = ctx.manifest.entries();
  if (!entries.length) return;
  const { createSession } = await import("../commands/create.ts");
  for (const entry of entries) {
    const spec = Manifest.specOf(entry, ctx.spawn.daemonEnv);
    const restored = { ...spec, cwd: entry.cwd ?? spec.cwd, cols: entry.cols, rows: entry.rows, ...(spec.agent ? { resume: true } : {}) };
    try {
      await createSession(restored, ctx, true);
      ctx.bus.publish({ event: "restored", terminal: entry.id, cwd: restored.cwd ?? "" });
      console.error(`t4a daemon: restored session ${entry.id}`);
    } catch (error) {
      ctx.manifest.remove(entry.id);
      console.error(`t4a daemon: could not restore session ${entry.id}: ${(error as Error).message}`);
    }
  }
}

/** Paths and environment for the session plugins; the state dir follows the XDG base spec. */
function spawnContext(socketPath: string, integrationDir: string): SpawnContext {
  const daemonEnv = stringEnv(process.env);
  const stateDir = stateDirOf(process.env);
  const worktreesDir = process.env.T4A_WORKTREES_DIR || join(stateDir, "worktrees");
  // Hooks call the compiled binary back by its path; in development, whatever t4a is on PATH.
  const t4aPath = isCompiled() ? process.execPath : "t4a";
  return { socketPath, stateDir, worktreesDir, integrationDir, daemonEnv, t4aPath };
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
