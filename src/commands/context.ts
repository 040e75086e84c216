// The handler contract: what every command handler receives. Types only at run time; the daemon
// builds the value (daemon.ts), tests build their own. The web server is behind WebHost, so no
// command imports a front end.
import type * as v from "valibot";
import type { DaemonConfig } from "../session/config.ts";
import type { Sessions } from "../session/sessions.ts";
import type { EventBus } from "../terminal/event-bus.ts";
import type { WebParams, WebServerInfo } from "../protocol/web.ts";

export interface DaemonContext {
  sessions: Sessions;
  bus: EventBus;
  /** Live settings; `config` changes them. */
  config: DaemonConfig;
  version: string;
  startedAt: number;
  socketPath: string;
  /** $XDG_STATE_HOME/t4a: worktrees, the manifest, approved setup scripts. */
  stateDir: string;
  /** The daemon's own environment (what a request without the client's falls back to). */
  daemonEnv: Record<string, string>;
  /** The web front end, when this daemon can serve one. */
  web?: WebHost;
  /** While the persisted sessions of an earlier daemon come back: requests but `events` wait for it. */
  restoring?: Promise<void>;
  /** Bytes of replies written for clients that have not read them yet (bounded: server.ts). */
  unreadReplyBytes?(): number;
  /**
   * The client connection the request came on (the socket server's; none over HTTP or in tests):
   * what a connection holds (an anonymous claim) ends when it closes.
   */
  connection?: ConnectionScope;
  /** Begin a clean shutdown after the current reply has been written. */
  requestShutdown(): void;
}

/** How to serve the web front end: what `t4a web` asks for, but stop. */
export type WebOptions = Omit<v.InferOutput<typeof WebParams>, "stop">;

/** The daemon's web front end as the commands see it; src/web/ implements it. */
export interface WebHost {
  /** Starts it (or answers the running one when the listen address is the same or not given). */
  start(options: WebOptions): Promise<WebServerInfo>;
  /** Stops it and forgets it (a restarted daemon serves no web); answers false when none ran. */
  stop(): boolean;
  /** Serves again what was served before the daemon restarted, unless it was stopped; undefined when nothing was. */
  resume(): Promise<WebServerInfo | undefined>;
  /** Stops it for the daemon's shutdown, remembering it for the next daemon. */
  close(): void;
  /** Ends every browser login, running server or not; answers how many were live. */
  logoutAll(): number;
}

/** One client connection as a command sees it. */
export interface ConnectionScope {
  /** Counted from 1 per daemon. */
  id: number;
  /** Calls `closed` when the connection closes; answers the unregister. */
  onClose(closed: () => void): () => void;
}
