// Small conversions from cac's loosely typed options to request fields.
// Shared by the command files' CLI wiring; no daemon code.
import { T4aError } from "../protocol/errors.ts";
import type { RemoteHost } from "../client/connect.ts";
import type { CliOptions } from "./command.ts";
import type { DaemonContext } from "./context.ts";

/** An integer option, or undefined when absent. Rejects "12x" instead of sending NaN, naming the flag. */
export function intOption(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value === "boolean" || !Number.isInteger(n))
    throw new T4aError(
      "invalid_params",
      `${flag}: expected an integer, got ${typeof value === "boolean" ? "nothing" : `"${value}"`}`,
    );
  return n;
}

/** A repeatable option as a list (cac gives a scalar for one use, an array for several). */
export function listOption(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/**
 * A path option as an absolute path: `~/` is the home directory, a relative path is relative to
 * `base` (the current directory), `.` and `..` are resolved. The daemon has no cwd of the caller's.
 */
export function absolutePath(path: string, base = process.cwd()): string {
  const home = process.env.HOME ?? "/";
  const expanded = path === "~" ? home : path.startsWith("~/") ? `${home}/${path.slice(2)}` : path;
  const out: string[] = [];
  for (const part of (expanded.startsWith("/") ? expanded : `${base}/${expanded}`).split("/")) {
    if (part === "..") out.pop();
    else if (part && part !== ".") out.push(part);
  }
  return `/${out.join("/")}`;
}

/** --host, else $T4A_HOST: the machine whose daemon answers (undefined: this one). */
export function remoteHost(options: CliOptions): string | undefined {
  const host = typeof options.host === "string" ? options.host : process.env.T4A_HOST;
  return host || undefined;
}

/**
 * The host to reach: --host (or T4A_HOST) as an ssh target, or, when it is a name in hosts.json
 * (`t4a hosts add box me@box.lan`), that host: its target and its own ssh options. The file is
 * read only for a bare name, so a call without --host reads nothing more.
 */
export async function remoteTarget(options: CliOptions): Promise<string | RemoteHost | undefined> {
  const host = remoteHost(options);
  if (host === undefined || !/^[^@:/\s]+$/.test(host)) return host;
  const { loadHosts } = await import("../client/hosts.ts");
  const { hosts } = loadHosts();
  return Object.hasOwn(hosts, host) ? hosts[host] : host;
}

/** The CLI's spelling of who acts on a need (approve, deny, ask, send). */
export const ACTING_OPTIONS: Array<[string, string]> = [
  ["--worker <name>", "the worker acting (as it claimed the need with wait --any --claim --worker)"],
  ["--force", "act even though another worker holds the need's claim"],
];

export const actingRequest = (options: CliOptions) => ({
  worker: options.worker === undefined ? undefined : String(options.worker),
  force: options.force ? true : undefined,
});

/** Who acts, as the session's claims see it: the worker named, else the connection asked on. */
export const actor = (params: { worker?: string; force?: boolean }, ctx: DaemonContext) => ({
  worker: params.worker,
  force: params.force,
  connection: ctx.connection?.id,
});
