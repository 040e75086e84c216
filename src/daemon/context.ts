// What every command handler receives: the terminal pool, the live config, daemon facts.
// Types only at run time; the daemon builds the value in daemon.ts.
import type { AgentWatch } from "../spawn/agents/watch.ts";
import type { SpawnContext } from "../spawn/plan.ts";
import type { Manifest } from "../service/manifest.ts";
import type { Recorder } from "../stream/recorder.ts";
import type { EventBus } from "../terminal/event-bus.ts";
import type { Pool } from "../terminal/pool.ts";

export interface DaemonConfig {
  idle_timeout_ms: number;
  scrollback_lines: number;
  /** Per terminal; 0 = only the line limit. */
  scrollback_bytes: number;
  kill_grace_ms: number;
  max_sessions: number;
}

export interface DaemonContext {
  pool: Pool;
  bus: EventBus;
  config: DaemonConfig;
  version: string;
  startedAt: number;
  socketPath: string;
  /** Private directory holding the shell-integration hook files. */
  integrationDir: string;
  /** What the session plugins need (paths, the daemon's environment). */
  spawn: SpawnContext;
  /** The state watch of each agent session, by terminal id. */
  agents: Map<string, AgentWatch>;
  /** The sessions to bring back when a daemon starts again. */
  manifest: Manifest;
  /** How many viewers (attach, browsers) each terminal has now. */
  viewers: Map<string, number>;
  /** The web server, while one runs. */
  web?: { url: string; stop(): void; listen: string };
  /** The running recording of each terminal that has one. */
  recordings: Map<string, Recorder>;
  /** Begin a clean shutdown after the current reply has been written. */
  requestShutdown(): void;
}
