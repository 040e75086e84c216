// Resource limits for a session's whole process tree (beyond seed 002, which lists "no memory or
// CPU guards"): memory, CPU share and process count, through a cgroup of the session's own.
// - cgroup v1 (a controller per hierarchy, as on this CI machine): the daemon makes a child of its
//   own cgroup in each controller it needs and writes the limits there;
// - cgroup v2 where the daemon may not write the tree (the usual desktop and server): a transient
//   systemd scope (`systemd-run --user --scope -p MemoryMax=…`), as tmux users do by hand.
// The program enters the cgroup before it runs: a shim writes its own pid into the cgroup, then
// execs (outside the sandbox, which it wraps). Anything else refuses the create: a limit asked for
// is never silently dropped (rlimits are not a stand-in: RLIMIT_AS breaks node CLIs that reserve
// gigabytes of address space, RLIMIT_NPROC counts every process of the user, and none caps CPU).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { T4aError } from "../protocol/errors.ts";

export interface LimitRequest {
  memory_bytes?: number;
  /** Of one CPU: 50 = half a core, 200 = two cores. */
  cpu_percent?: number;
  pids?: number;
}

export interface LimitUsage {
  memory_bytes?: number;
  pids?: number;
}

/** A session's cgroup, made before its spawn and removed at its end. */
export interface SessionLimits {
  readonly limits: LimitRequest;
  /** How "v1 cgroup" or "systemd scope": where the limits live. */
  readonly how: string;
  /** Put before the command (outside the sandbox): enters the cgroup, then execs the rest. */
  readonly prefix: string[];
  /** What the session's processes use now; `pid` is its program's. */
  usage(pid: number): LimitUsage;
  /** Processes of the session the kernel killed for want of memory. */
  oomKills(pid: number): number;
  /** Kills what is left in the cgroup and removes it. */
  remove(): Promise<void>;
}

const CPU_PERIOD_US = 100_000;

/** "2G", "512M", "100k", "1073741824": bytes. */
export function parseBytes(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)i?[bB]?$/.exec(text.trim());
  if (!match) return undefined;
  const scale = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[
    match[2]!.toLowerCase() as "" | "k" | "m" | "g" | "t"
  ];
  return Math.round(Number(match[1]) * scale);
}

/** The cgroup v1 hierarchies mounted here, by controller: where each is, and the daemon's place in it. */
export function v1Hierarchies(
  mountinfo = readText("/proc/self/mountinfo"),
  ownCgroups = readText("/proc/self/cgroup"),
): Map<string, string> {
  const own = new Map<string, string>();
  for (const line of ownCgroups.split("\n")) {
    const [, controllers, path] = line.split(":");
    if (controllers) for (const controller of controllers.split(",")) own.set(controller, path ?? "/");
  }
  const found = new Map<string, string>();
  for (const line of mountinfo.split("\n")) {
    const [left, right] = line.split(" - ");
    if (!left || !right) continue;
    const fields = left.split(" ");
    const [type, , options] = right.split(" ");
    if (type !== "cgroup") continue;
    const root = fields[3] ?? "/";
    const mountPoint = fields[4] ?? "";
    for (const controller of (options ?? "").split(",")) {
      if (!["memory", "cpu", "pids"].includes(controller)) continue;
      const path = own.get(controller) ?? "/";
      const relative = root !== "/" && path.startsWith(root) ? path.slice(root.length) : path;
      found.set(controller, join(mountPoint, relative).replace(/(.)\/$/, "$1"));
    }
  }
  return found;
}

let made = 0;

/** Makes the session's cgroup with these limits, or refuses saying why they cannot be enforced here. */
export async function makeLimits(
  id: string,
  limits: LimitRequest,
  env: Record<string, string>,
): Promise<SessionLimits> {
  const hierarchies = v1Hierarchies();
  const needed = [
    ...(limits.memory_bytes !== undefined ? ["memory"] : []),
    ...(limits.cpu_percent !== undefined ? ["cpu"] : []),
    ...(limits.pids !== undefined ? ["pids"] : []),
  ];
  if (needed.every((controller) => hierarchies.has(controller))) return v1Limits(id, limits, hierarchies, needed);
  return scopeLimits(
    limits,
    env,
    `cgroup v1 has no ${needed.filter((c) => !hierarchies.has(c)).join(", ")} controller here`,
  );
}

function v1Limits(id: string, limits: LimitRequest, hierarchies: Map<string, string>, needed: string[]): SessionLimits {
  // Memory and pids are read for usage even when only the CPU is limited.
  const controllers = [...new Set([...needed, ...["memory", "pids"].filter((c) => hierarchies.has(c))])];
  const name = `t4a-${process.pid}-${++made}-${id.replace(/[^A-Za-z0-9_.-]/g, "_")}`;
  const dirs = new Map(controllers.map((controller) => [controller, join(hierarchies.get(controller)!, name)]));
  const undo = () => {
    for (const dir of dirs.values()) rmdirQuietly(dir);
  };
  try {
    for (const dir of dirs.values()) mkdirSync(dir);
    if (limits.memory_bytes !== undefined) {
      writeFileSync(join(dirs.get("memory")!, "memory.limit_in_bytes"), String(limits.memory_bytes));
      // With swap accounting, swap counts too: the limit is on memory, not on what fits in RAM.
      const swap = join(dirs.get("memory")!, "memory.memsw.limit_in_bytes");
      if (existsSync(swap)) writeFileSync(swap, String(limits.memory_bytes));
    }
    if (limits.cpu_percent !== undefined) {
      writeFileSync(join(dirs.get("cpu")!, "cpu.cfs_period_us"), String(CPU_PERIOD_US));
      writeFileSync(
        join(dirs.get("cpu")!, "cpu.cfs_quota_us"),
        String(Math.round((CPU_PERIOD_US * limits.cpu_percent) / 100)),
      );
    }
    if (limits.pids !== undefined) writeFileSync(join(dirs.get("pids")!, "pids.max"), String(limits.pids));
  } catch (error) {
    undo();
    const parent = [...dirs.values()][0]?.replace(/\/[^/]+$/, "");
    throw new T4aError(
      "unsupported",
      `cannot enforce the limits here: ${(error as Error).message} ` +
        `(cgroup v1 needs the daemon to run as root or own ${parent})`,
    );
  }
  const procs = [...dirs.values()].map((dir) => join(dir, "cgroup.procs"));
  // `$$` is the shim, which then becomes the program: everything it starts stays inside.
  const enter = procs.map((path) => `echo $$ > '${path}'`).join(" && ");
  const script = `${enter} || { echo "t4a: could not enter the session's cgroup" >&2; exit 125; }; exec "$@"`;
  const read = (controller: string, file: string) => {
    const dir = dirs.get(controller);
    return dir ? readNumber(join(dir, file)) : undefined;
  };
  return {
    limits,
    how: "cgroup v1",
    prefix: ["/bin/sh", "-c", script, "t4a-limits"],
    usage: () => ({ memory_bytes: read("memory", "memory.usage_in_bytes"), pids: read("pids", "pids.current") }),
    oomKills: () => {
      const dir = dirs.get("memory");
      const match = dir ? /^oom_kill (\d+)$/m.exec(readText(join(dir, "memory.oom_control"))) : null;
      return match ? Number(match[1]) : 0;
    },
    async remove() {
      await emptyCgroups(procs);
      undo();
    },
  };
}

/** cgroup v2 through the user's systemd: a transient scope around the program. */
async function scopeLimits(limits: LimitRequest, env: Record<string, string>, why: string): Promise<SessionLimits> {
  const systemdRun = Bun.which("systemd-run", { PATH: env.PATH ?? "/usr/bin:/bin" });
  const reachable = systemdRun
    ? (await Bun.spawn(["systemctl", "--user", "show-environment"], { env, stdout: "ignore", stderr: "ignore" })
        .exited) === 0
    : false;
  if (!systemdRun || !reachable) {
    throw new T4aError(
      "unsupported",
      `cannot enforce the limits here: ${why}, ` +
        "and no systemd user manager answers for a cgroup v2 scope (systemd-run --user); nothing was started",
    );
  }
  const properties = [
    ...(limits.memory_bytes !== undefined ? [`MemoryMax=${limits.memory_bytes}`, "MemorySwapMax=0"] : []),
    ...(limits.cpu_percent !== undefined ? [`CPUQuota=${limits.cpu_percent}%`] : []),
    ...(limits.pids !== undefined ? [`TasksMax=${limits.pids}`] : []),
  ];
  // The scope is the program's cgroup: found from its pid.
  const cgroup = (pid: number) => {
    const path = /^0::(.+)$/m.exec(readText(`/proc/${pid}/cgroup`))?.[1];
    return path ? join("/sys/fs/cgroup", path) : undefined;
  };
  const unit = `t4a-${process.pid}-${++made}.scope`;
  return {
    limits,
    how: "systemd scope",
    prefix: [
      systemdRun!,
      "--user",
      "--scope",
      "--quiet",
      "--collect",
      `--unit=${unit}`,
      ...properties.flatMap((property) => ["-p", property]),
      "--",
    ],
    usage: (pid) => {
      const dir = cgroup(pid);
      return dir
        ? { memory_bytes: readNumber(join(dir, "memory.current")), pids: readNumber(join(dir, "pids.current")) }
        : {};
    },
    oomKills: (pid) => {
      const dir = cgroup(pid);
      const match = dir ? /^oom_kill (\d+)$/m.exec(readText(join(dir, "memory.events"))) : null;
      return match ? Number(match[1]) : 0;
    },
    // Stopping the scope kills what is left in it (a setsid'd leftover); systemd then collects it.
    async remove() {
      await Bun.spawn(["systemctl", "--user", "stop", unit], { env, stdout: "ignore", stderr: "ignore" }).exited;
    },
  };
}

/**
 * Removes the empty session cgroups (`t4a-PID-N-ID`) that daemons no longer alive left in the
 * hierarchies this daemon uses (a SIGKILLed daemon removes none); answers the paths removed. A
 * living daemon's, and any still holding a process, are left alone.
 */
export function removeDeadCgroups(): string[] {
  const removed: string[] = [];
  for (const root of new Set(v1Hierarchies().values())) {
    let names: string[];
    try {
      names = readdirSync(root);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = /^t4a-(\d+)-\d+-/.exec(name)?.[1];
      if (pid === undefined || Number(pid) === process.pid || isRunning(Number(pid))) continue;
      try {
        rmdirSync(join(root, name));
        removed.push(join(root, name));
      } catch {
        // Not empty (something of it still runs), or not ours to remove.
      }
    }
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** SIGKILLs whatever is still in the cgroups (a daemon the program left behind) until they are empty. */
async function emptyCgroups(procs: string[]): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const pids = procs.flatMap((path) => readText(path).split("\n").filter(Boolean).map(Number));
    if (!pids.length) return;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone between the read and the kill.
      }
    }
    await Bun.sleep(20);
  }
}

function rmdirQuietly(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not made, or still busy: the kernel keeps an empty cgroup cheaply.
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function readNumber(path: string): number | undefined {
  const text = readText(path).trim();
  return /^\d+$/.test(text) ? Number(text) : undefined;
}
