// The web front end's request and what it answers: shared by the `web` command, the handler
// contract's WebHost (commands/context.ts) and its implementation in src/web/.
import * as v from "valibot";
import { deferred } from "./deferred.ts";

export const WebParams = deferred(() =>
  v.object({
    listen: v.optional(
      v.pipe(v.string(), v.description("host:port to listen on (default 127.0.0.1:7681; port 0 picks one)")),
    ),
    read_only: v.optional(v.pipe(v.boolean(), v.description("refuse input and every change: watch only"))),
    repos: v.optional(
      v.pipe(
        v.string(),
        v.startsWith("/", "must be an absolute path"),
        v.description("directory of clones for issue launches (seed 002)"),
      ),
    ),
    agent: v.optional(
      v.pipe(v.string(), v.minLength(1), v.description("the agent issue launches start (default claude)")),
    ),
    tls_cert: v.optional(
      v.pipe(v.string(), v.startsWith("/"), v.description("serve HTTPS with this certificate (PEM)")),
    ),
    tls_key: v.optional(v.pipe(v.string(), v.startsWith("/"), v.description("and this key (PEM)"))),
    allow_host: v.optional(
      v.pipe(v.array(v.string()), v.description("more Host names to serve (a tailscale serve name)")),
    ),
    stop: v.optional(v.pipe(v.boolean(), v.description("stop the web server"))),
    logout_all: v.optional(
      v.pipe(v.boolean(), v.description("end every browser login (each browser must open a new login URL)")),
    ),
  }),
);

/** A running web server as `t4a web` reports it. */
export const WebServerInfo = deferred(() =>
  v.object({
    url: v.string(),
    /** A fresh one-time URL that logs a browser in. */
    login_url: v.string(),
    listen: v.string(),
    read_only: v.boolean(),
    /** The names the Host header may carry (anything else is refused: DNS rebinding). */
    allowed_hosts: v.array(v.string()),
    /** Browser logins that have not expired. */
    logins: v.number(),
    /** Set when it listens beyond this machine. */
    warning: v.optional(v.string()),
  }),
);
export type WebServerInfo = v.InferOutput<typeof WebServerInfo>;
