// web: start (or stop) the daemon's HTTP server: REST, terminals over WebSocket, and the page.
// Answers the URL and a one-time login URL for a browser; running it again is harmless and gives
// a fresh login URL.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { WebParams, WebServerInfo } from "../protocol/web.ts";
import { defineCommand } from "./command.ts";
import { absolutePath, listOption } from "./cli-helpers.ts";

/** The running server, or (stop) that it stopped. */
export const WebReply = deferred(() =>
  v.object({
    ...v.partial(WebServerInfo).entries,
    stopped: v.optional(v.literal(true)),
    logins_revoked: v.optional(v.number()),
  }),
);

export const web = defineCommand({
  name: "web",
  params: WebParams,
  reply: WebReply,
  async handle(params, ctx) {
    if (!ctx.web) throw new T4aError("unsupported", "this daemon has no web front end");
    if (params.logout_all) return { logins_revoked: ctx.web.logoutAll() };
    if (params.stop) {
      if (!ctx.web.stop()) throw new T4aError("not_found", "no web server runs");
      return { stopped: true as const };
    }
    return { ...(await ctx.web.start(params)) };
  },
  cli: {
    usage: "web",
    summary: "Serve the sessions to a browser (REST + WebSocket + page); prints a one-time login URL",
    options: [
      ["--listen <addr>", "host:port (default 127.0.0.1:7681)"],
      ["--read-only", "watch only: no input, no changes"],
      ["--repos <dir>", "clones for issue launches: POST /api/sessions {repo, issue}"],
      ["--agent <name>", "the agent issue launches start (default claude)"],
      ["--tls-cert <file>", "serve HTTPS: certificate (PEM)"],
      ["--tls-key <file>", "serve HTTPS: key (PEM)"],
      ["--allow-host <name>", "another Host name to accept, e.g. a tailscale serve name (repeatable)"],
      ["--stop", "stop the web server"],
      ["--logout-all", "end every browser login"],
    ],
    examples: ["t4a web", "t4a web --listen 127.0.0.1:8080 --repos ~/code"],
    request: (_args, options) => ({
      listen: options.listen === undefined ? undefined : String(options.listen),
      read_only: options.readOnly === true ? true : undefined,
      repos: options.repos === undefined ? undefined : absolutePath(String(options.repos)),
      agent: options.agent === undefined ? undefined : String(options.agent),
      tls_cert: options.tlsCert === undefined ? undefined : absolutePath(String(options.tlsCert)),
      tls_key: options.tlsKey === undefined ? undefined : absolutePath(String(options.tlsKey)),
      allow_host: options.allowHost === undefined ? undefined : listOption(options.allowHost),
      stop: options.stop === true ? true : undefined,
      logout_all: options.logoutAll === true ? true : undefined,
    }),
    print(response) {
      if (response.stopped) return console.error("t4a: the web server stopped");
      if (response.logins_revoked !== undefined)
        return console.error(
          `t4a: ended ${response.logins_revoked} browser login${response.logins_revoked === 1 ? "" : "s"}`,
        );
      if (response.warning) console.error(`t4a: WARNING: ${response.warning}`);
      const logins = `${response.logins ?? 0} browser login${response.logins === 1 ? "" : "s"}`;
      console.error(
        `t4a: serving ${response.url}${response.read_only ? " (read-only)" : ""} as ` +
          `${response.allowed_hosts?.join(", ")}; ${logins} (end them: t4a web --logout-all)`,
      );
      console.error("t4a: open this to log in a browser tab (it works one time; another tab needs another `t4a web`):");
      console.log(response.login_url);
    },
    startsDaemon: true,
  },
});
