// The daemon's web front end behind the WebHost interface the commands see (`t4a web`, `t4a daemon
// --web`): one server at a time, started and stopped on request. Loads the server (and the page
// bundled into it) only when asked to serve. A running server is remembered (web/server-<socket
// key>.json in the state dir, which no sandbox can see) until `t4a web --stop`: the next daemon on
// that socket, restarted or
// auto-started, serves it again at the same address, so open pages and their logins come back.
import { existsSync, rmSync } from "node:fs";
import * as v from "valibot";
import type { DaemonContext, WebHost, WebOptions } from "../commands/context.ts";
import { T4aError } from "../protocol/errors.ts";
import { WebParams, type WebServerInfo } from "../protocol/web.ts";
import { stateDir, webServerPath } from "../service/manifest-path.ts";
import { writePrivateFile } from "../client/private-file.ts";
import { loadStateFile } from "../client/state-file.ts";
import { Logins } from "./auth.ts";
import type { WebServer } from "./server.ts";

const DEFAULT_LISTEN = "127.0.0.1:7681";

export function webHost(ctx: DaemonContext): WebHost {
  let running: WebServer | undefined;
  // One per socket, as the manifest: another daemon of this user (a test's) never serves it.
  const remembered = webServerPath(process.env, ctx.socketPath);

  async function start(options: WebOptions): Promise<WebServerInfo> {
    const listen = options.listen ?? DEFAULT_LISTEN;
    if ((options.tls_cert === undefined) !== (options.tls_key === undefined))
      throw new T4aError("invalid_params", "tls_cert and tls_key go together");
    const { startWeb, isLoopback, parseListen } = await import("./server.ts");
    if (running && (options.listen === undefined || running.listen === listen)) return describe(running);
    running?.stop();
    running = undefined;
    try {
      running = startWeb(ctx, {
        listen,
        readOnly: options.read_only === true,
        repos: options.repos,
        agent: options.agent ?? "claude",
        tlsCert: options.tls_cert,
        tlsKey: options.tls_key,
        allowHosts: options.allow_host ?? [],
        stateDir: stateDir(process.env),
      });
    } catch (error) {
      if (error instanceof T4aError) throw error;
      throw new T4aError("spawn_failed", `cannot listen on ${listen}: ${(error as Error).message}`);
    }
    // The port it got, not 0: a page left open reconnects to the same origin.
    writePrivateFile(remembered, JSON.stringify({ ...options, listen: running.listen }));
    const info = describe(running);
    if (!isLoopback(parseListen(listen).host)) {
      info.warning =
        `listening on ${listen}, beyond this machine: anyone who gets the token can run any command as you. ` +
        "Prefer 127.0.0.1 behind tailscale serve or an SSH tunnel.";
      console.error(`t4a daemon: WARNING: the web server listens on ${listen}, not on loopback`);
    }
    return info;
  }

  return {
    start,
    async resume() {
      if (running || !existsSync(remembered)) return undefined;
      const read = loadStateFile(remembered, (json) => v.parse(v.omit(WebParams, ["stop", "logout_all"]), json));
      if (!read.value) {
        // Its copy is kept: the next start does not stumble on it again.
        if (read.keptAs) rmSync(remembered, { force: true });
        throw new T4aError("invalid_params", `${read.problems.join("; ")}; run t4a web again`);
      }
      return start(read.value);
    },
    logoutAll(): number {
      return new Logins(stateDir(process.env)).revokeAll();
    },
    stop(): boolean {
      rmSync(remembered, { force: true });
      if (!running) return false;
      running.stop();
      running = undefined;
      return true;
    },
    close() {
      running?.stop();
      running = undefined;
    },
  };
}

function describe(web: WebServer): WebServerInfo {
  return {
    url: web.url,
    login_url: web.loginUrl(),
    listen: web.listen,
    read_only: web.readOnly,
    allowed_hosts: web.allowedHosts,
    logins: new Logins(stateDir(process.env)).list().length,
  };
}
