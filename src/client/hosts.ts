// The fleet's address book: $XDG_CONFIG_HOME/t4a/hosts.json names the machines whose daemons the
// client reaches over ssh (`t4a hosts add box user@box`, then `t4a text box:t3`). The user's own
// file, read through the state-file loader and written atomically, mode 600. Reads and writes the
// file only: it connects to nothing and runs nothing.
import { join } from "node:path";
import { T4aError } from "../protocol/errors.ts";
import { writePrivateFile } from "./private-file.ts";
import { parseHost } from "./ssh.ts";
import { expectObject, loadStateFile } from "./state-file.ts";

/** One machine: an ssh target as --host takes it, and ssh options of its own (`-J jump`, `-i key`). */
export interface HostEntry {
  target: string;
  ssh_args?: string[];
}

export type Hosts = Record<string, HostEntry>;

/** The daemon of this machine, in fleet output and as `local:ID`: no host may take its name. */
export const LOCAL = "local";

export function hostsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || "/", ".config"), "t4a", "hosts.json");
}

/** Why NAME cannot name a host, or undefined. */
export function badHostName(name: string): string | undefined {
  if (name.length === 0 || name.length > 64) return `a host name is 1 to 64 characters, got ${name.length}`;
  if (/[:/\s\x00-\x1f\x7f]/.test(name))
    return `host name "${name}" must not contain ':', '/', spaces or control characters`;
  if (name.startsWith("-")) return `host name "${name}" must not start with '-'`;
  if (name === LOCAL) return `"${LOCAL}" is this machine's daemon; name the host otherwise`;
  return undefined;
}

/** Why these ssh options are refused, or undefined: each must be one option word, not the destination or a command. */
function badSshArgs(args: unknown): string | undefined {
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== "string" || /[\x00-\x1f\x7f]/.test(arg)))
    return "ssh_args must be a list of strings without control characters";
  // ssh takes the first word that is not an option (or an option's value) as the destination: a
  // list that does not start with an option could make the remote command something else.
  if (args.length > 0 && !String(args[0]).startsWith("-"))
    return `ssh_args must start with an option (like -J or -i), got "${args[0]}"`;
  if (args.includes("--")) return "ssh_args must not contain --";
  return undefined;
}

/** Reads hosts.json (none yet: empty); an unreadable file is kept aside and reported, naming it. */
export function loadHosts(path = hostsPath()): { hosts: Hosts; problems: string[] } {
  // An entry left out is the user's edit to fix, said at each read; only a file that cannot be
  // read at all is copied aside (a copy per call of a fleet command would pile up).
  const skipped: string[] = [];
  const read = loadStateFile(path, (json) => {
    const hosts: Hosts = {};
    const entries = expectObject(expectObject(json, path).hosts ?? {}, `"hosts" in ${path}`);
    for (const [name, raw] of Object.entries(entries)) {
      const entry = raw as Partial<HostEntry> | null;
      const why =
        badHostName(name) ??
        (typeof entry?.target !== "string" ? "it has no target" : targetProblem(entry.target)) ??
        (entry?.ssh_args === undefined ? undefined : badSshArgs(entry.ssh_args));
      if (why) skipped.push(`${path}: host "${name}" left out: ${why}`);
      else
        hosts[name] = {
          target: entry!.target!,
          ...(entry!.ssh_args?.length ? { ssh_args: [...entry!.ssh_args] } : {}),
        };
    }
    return hosts;
  });
  return { hosts: read.value ?? {}, problems: [...read.problems, ...skipped] };
}

function targetProblem(target: string): string | undefined {
  try {
    parseHost(target);
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^--host/, "the target");
  }
}

/** Adds or replaces NAME; throws a usage error saying what is wrong with it. */
export function addHost(name: string, target: string, sshArgs: string[], path = hostsPath()): HostEntry {
  const why = badHostName(name) ?? targetProblem(target) ?? (sshArgs.length ? badSshArgs(sshArgs) : undefined);
  if (why) throw new T4aError("invalid_params", why);
  const { hosts, problems } = loadHosts(path);
  if (problems.length) throw new T4aError("internal", problems.join("; "));
  const entry: HostEntry = { target, ...(sshArgs.length ? { ssh_args: sshArgs } : {}) };
  hosts[name] = entry;
  saveHosts(hosts, path);
  return entry;
}

/** Removes NAME; false when there was none. */
export function removeHost(name: string, path = hostsPath()): boolean {
  const { hosts, problems } = loadHosts(path);
  if (problems.length) throw new T4aError("internal", problems.join("; "));
  if (!Object.hasOwn(hosts, name)) return false;
  delete hosts[name];
  saveHosts(hosts, path);
  return true;
}

function saveHosts(hosts: Hosts, path: string): void {
  writePrivateFile(path, `${JSON.stringify({ hosts }, null, 2)}\n`);
}

/** `box:t3` → the host's name and the id there; undefined when the id names no host (no ':'). */
export function splitHostId(id: string): { host: string; id: string } | undefined {
  const colon = id.indexOf(":");
  if (colon < 0) return undefined;
  return { host: id.slice(0, colon), id: id.slice(colon + 1) };
}

/** NAME as hosts.json has it; an unknown name is a usage error naming the file. */
export function resolveHost(name: string, path = hostsPath()): HostEntry {
  const { hosts, problems } = loadHosts(path);
  const entry = Object.hasOwn(hosts, name) ? hosts[name] : undefined;
  if (entry) return entry;
  const known = Object.keys(hosts);
  throw new T4aError(
    "invalid_params",
    `unknown host "${name}": not in ${path}${known.length ? ` (there: ${known.join(", ")})` : ""}; ` +
      `\`t4a hosts add ${name} [user@]host\` adds it${problems.length ? ` (${problems.join("; ")})` : ""}`,
  );
}
