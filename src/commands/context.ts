// The handler contract: what every command handler receives. Types only at run time; the daemon
// builds the value (daemon.ts), tests build their own. The web server is behind WebHost, so no
// command imports a front end.
import type { DaemonConfig } from "../session/config.ts";
import type { Sessions } from "../session/sessions.ts";
import type { EventBus } from "../terminal/event-bus.ts";

export interface DaemonContext {
  sessions: Sessions;
  bus: EventBus;
  /** Live settings; `config` changes them. */
  config: DaemonConfig;
  version: string;
  startedAt: number;
  socketPath: string;
  /** The daemon's own environment (what a request without the client's falls back to). */
  daemonEnv: Record<string, string>;
  /** The web front end, when this daemon can serve one. */
  web?: WebHost;
  /** Begin a clean shutdown after the current reply has been written. */
  requestShutdown(): void;
}

/** How to serve the web front end: what `t4a web` asks for (the fields of its request). */
export interface WebOptions {
  /** host:port; port 0 picks a free one. */
  listen?: string;
  read_only?: boolean;
  /** Where the clones for issue launches live. */
  repos?: string;
  /** The agent issue launches start. */
  agent?: string;
  tls_cert?: string;
  tls_key?: string;
  /** More names the Host header may carry (a tailscale serve name, a reverse proxy's). */
  allow_host?: string[];
}

/** A running web server as `t4a web` reports it. */
export interface WebServerInfo {
  url: string;
  listen: string;
  read_only: boolean;
  /** A fresh one-time URL that logs a browser in. */
  login_url: string;
  /** Set when it listens beyond this machine. */
  warning?: string;
}

/** The daemon's web front end as the commands see it; src/web/ implements it. */
export interface WebHost {
  /** Starts it (or answers the running one when the listen address is the same or not given). */
  start(options: WebOptions): Promise<WebServerInfo>;
  /** Answers false when none ran. */
  stop(): boolean;
}
