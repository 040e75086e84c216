// The hosts of hosts.json as a long-lived client sees them (the MCP server, the web relay): one
// DaemonLink per host, opened on first use and kept (one ssh link each, over its ControlMaster).
// hosts.json is read at each lookup, so a host added, changed or removed counts at once. What a
// host answers is tainted: callers take its strings through displayable and its ids through qualify.
import { T4aError } from "../protocol/errors.ts";
import { DaemonLink } from "./daemon-link.ts";
import { LOCAL, loadHosts, resolveHost, splitHostId } from "./hosts.ts";

/**
 * A host that has not answered a list in this long is shown as not answering (a stopped machine keeps ssh waiting; a
 * hostile one never answers).
 */
const LIST_WAIT_MS = 10_000;

/**
 * A host's answer to a list, or an error once it has taken LIST_WAIT_MS (the list of every host shows the others
 * meanwhile).
 */
export async function listWait<T>(answer: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(() => reject(new Error(`no answer within ${LIST_WAIT_MS / 1000} s`)), LIST_WAIT_MS)),
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

export class FleetLinks {
  readonly #socketPath: string;
  readonly #links = new Map<string, { entry: string; link: DaemonLink }>();

  constructor(socketPath: string) {
    this.#socketPath = socketPath;
  }

  /** The host's link; an unknown host is invalid_params naming hosts.json. */
  link(host: string): DaemonLink {
    const entry = resolveHost(host);
    const key = JSON.stringify(entry);
    const known = this.#links.get(host);
    if (known?.entry === key) return known.link;
    known?.link.close();
    const link = new DaemonLink(this.#socketPath, entry);
    this.#links.set(host, { entry: key, link });
    return link;
  }

  /** The names in hosts.json now, and what of the file could not be read. */
  hosts(): { names: string[]; problems: string[] } {
    const { hosts, problems } = loadHosts();
    return { names: Object.keys(hosts), problems };
  }

  close(): void {
    for (const { link } of this.#links.values()) link.close();
    this.#links.clear();
  }
}

/** `box:t3` → box and t3; `local:t3` and `t3` → this machine's t3. */
export function routeId(id: string): { host: string; id: string } {
  const split = splitHostId(id);
  if (!split) return { host: LOCAL, id };
  if (!split.id) throw new T4aError("invalid_params", `"${id}" names no terminal after the host`);
  return split;
}

/** An id as the fleet shows it: HOST:ID, or the bare id for this machine's. */
export const qualify = (host: string, id: unknown): string => (host === LOCAL ? String(id) : `${host}:${String(id)}`);
