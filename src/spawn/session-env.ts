// The two environments a create holds (docs/security.md "The session's environment"): the
// client's (what the creating CLI or MCP server sent as client_env, else the daemon's own), and
// the session's (built from it plus -e, --env-file, connector env_file, plugins' answers and
// setup's exports: tainted, a sandbox can write the env file). The daemon's own actions (finding
// a CLI, building an agent's home, choosing a shell for a lookup) take only the client's.
// The types hold the rule: a SessionEnv is no Record, so it reaches no spawn's `env` and none of
// the functions that take a ClientEnv; its variables leave it only through the guards below.
import { splitLoaderVariables } from "./loader-variables.ts";
import type { SessionSpec } from "../protocol/session-spec.ts";

declare const clientBrand: unique symbol;

/** The creating client's environment (or the daemon's): what the daemon's own lookups and home building read. */
export type ClientEnv = Readonly<Record<string, string>> & { readonly [clientBrand]: true };

/** The client's environment of a create: its `client_env`, else the daemon's own. Never the session's. */
export function clientEnv(spec: Pick<SessionSpec, "client_env">, daemonEnv: Record<string, string>): ClientEnv {
  return (spec.client_env ?? daemonEnv) as ClientEnv;
}

/** The daemon's own environment, as the client's when a create sent none. */
export function daemonClientEnv(daemonEnv: Record<string, string>): ClientEnv {
  return daemonEnv as ClientEnv;
}

/**
 * Where a helper outside the sandbox finds programs and reads its own configuration, which can
 * run programs: git's ~/.gitconfig and $XDG_CONFIG_HOME/git/config (core.fsmonitor, aliases), a
 * kubeconfig's exec credential plugin, AWS's credential_process, docker's credential helpers,
 * cargo's rustc-wrapper, npm's script-shell and node-options. The client's, never the session's.
 */
const CLIENT_OWN = [
  "PATH",
  "HOME",
  "SHELL",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_CACHE_HOME",
  // where pip, fontconfig and others look for system-wide configuration (pip.conf's index-url)
  "XDG_CONFIG_DIRS",
  "XDG_DATA_DIRS",
  "KUBECONFIG",
  "AWS_CONFIG_FILE",
  "AWS_SHARED_CREDENTIALS_FILE",
  "DOCKER_CONFIG",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "GNUPGHOME",
];
/** npm reads its whole configuration from these too (npm_config_script_shell, …_node_options). */
const CLIENT_OWN_PREFIX = /^npm_config_/i;

/**
 * The session's environment: what its program will get. Opaque (a private field, no index
 * signature): it is not assignable to a spawn's `env`, to a ClientEnv, nor spread into a record
 * (a spread copies nothing). Single variables are read by name, each read a visible choice.
 */
export class SessionEnv {
  readonly #vars: Record<string, string>;

  constructor(vars: Readonly<Record<string, string>> = {}) {
    this.#vars = { ...vars };
  }

  get(name: string): string | undefined {
    return Object.hasOwn(this.#vars, name) ? this.#vars[name] : undefined;
  }

  set(name: string, value: string): void {
    this.#vars[name] = value;
  }

  unset(name: string): void {
    delete this.#vars[name];
  }

  /** Sets each variable given (an undefined value is skipped). */
  assign(vars: Readonly<Record<string, string | undefined>> | undefined): void {
    for (const [name, value] of Object.entries(vars ?? {})) if (value !== undefined) this.#vars[name] = value;
  }

  names(): string[] {
    return Object.keys(this.#vars);
  }

  /** Name and value pairs, to read as data (never to spawn with). */
  entries(): Array<[string, string]> {
    return Object.entries(this.#vars);
  }

  /**
   * As data in a JSON document (an external plugin's input): JSON.stringify calls this. Typed unknown: no spawn takes
   * it.
   */
  toJSON(): unknown {
    return { ...this.#vars };
  }

  /**
   * GUARD: the environment of the session's own program (and of what runs inside its sandbox:
   * the sandbox's wrapper takes the loader variables out of bwrap's and hands them over after
   * its filter). Only the terminal's spawn and the sandbox's wrap call this.
   */
  forProgram(): Record<string, string> {
    return { ...this.#vars };
  }

  /**
   * GUARD: the environment of a helper t4a runs as the user outside any sandbox (an external
   * plugin, its cleanup, an unsandboxed setup's shell): without the variables that steer loaders,
   * shells and runtimes (bwrap.ts's one list), and with the client's PATH, HOME, SHELL, XDG
   * directories and tools' configuration locations (CLIENT_OWN), never the session's.
   */
  forHelper(client: ClientEnv): Record<string, string> {
    const { safe } = splitLoaderVariables(this.#vars);
    for (const name of Object.keys(safe)) if (CLIENT_OWN_PREFIX.test(name)) delete safe[name];
    for (const [name, value] of Object.entries(client)) if (CLIENT_OWN_PREFIX.test(name)) safe[name] = value;
    for (const name of CLIENT_OWN) {
      const value = name === "PATH" ? (client.PATH ?? "/usr/local/bin:/usr/bin:/bin") : client[name];
      if (value === undefined) delete safe[name];
      else safe[name] = value;
    }
    return safe;
  }
}
