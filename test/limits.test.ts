// Resource limits on a session's whole process tree, through a real cgroup (v1 on this CI machine,
// as root): a program allocating past its memory limit is killed and its exit says so; a fork loop
// stops at the process limit; the CPU quota is what was asked; whatever the session left running
// (even in a session of its own) ends with it. Where limits cannot be enforced (an unprivileged
// user here: no writable cgroup, no systemd user manager), the create is refused and nothing runs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { v1Hierarchies } from "../src/spawn/limits.ts";
import { isAlive, Sandbox, waitFor } from "./harness.ts";
import { Actor, CAN_MAKE_USERS } from "./security/actor.ts";

/** This machine lets the daemon (us) make cgroups in the v1 memory, cpu and pids hierarchies. */
const V1_WRITABLE = (() => {
  const hierarchies = v1Hierarchies();
  if (!["memory", "cpu", "pids"].every((controller) => hierarchies.has(controller))) return false;
  const probe = join(hierarchies.get("memory")!, `t4a-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
})();
if (!V1_WRITABLE)
  console.log("skipped: enforcing limits needs writable cgroup v1 controllers (root on this CI machine)");

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

interface Listed {
  id: string;
  pid: number;
  alive: boolean;
  signal?: string;
  reason?: string;
  limits?: { memory_bytes?: number; cpu_percent?: number; pids?: number; how: string };
  usage?: { memory_bytes?: number; pids?: number };
}

async function listed(id: string): Promise<Listed> {
  return (JSON.parse(await sandbox.ok(["list", "--json"])).terminals as Listed[]).find((session) => session.id === id)!;
}

/** Where a process's cgroup of this v1 controller is: the hierarchy's mount point and its path there. */
function cgroupDir(pid: number, controller: string): string {
  const mount = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .find(
      (line) => / - cgroup cgroup /.test(line) && line.split(" - ")[1]!.split(" ")[2]!.split(",").includes(controller),
    )!
    .split(" ")[4]!;
  const path = readFileSync(`/proc/${pid}/cgroup`, "utf8")
    .split("\n")
    .find((line) => line.split(":")[1]?.split(",").includes(controller))!
    .split(":")[2]!;
  return join(mount, path);
}

test.if(V1_WRITABLE)(
  "a program allocating past --limit-memory is killed, and its exit event says memory_limit; list shows the limits and the usage",
  async () => {
    const id = await sandbox.ok([
      "create",
      "--limit-memory",
      "64M",
      "--limit-pids",
      "50",
      "--",
      "python3",
      "-c",
      "import sys, time\ninput()\nx = []\nfor i in range(64):\n    x.append(bytearray(8 * 1024 * 1024)); print(i * 8, 'MB', flush=True)\ntime.sleep(30)",
    ]);
    // The program's shim moves itself into the cgroup as it starts: usage counts from then.
    const before = await waitFor(
      async () => {
        const now = await listed(id);
        return (now.usage?.memory_bytes ?? 0) > 0 && now;
      },
      10_000,
      "the program to enter its cgroup",
    );
    expect(before.limits).toEqual({ memory_bytes: 64 * 1024 * 1024, pids: 50, how: "cgroup v1" });
    expect(before.usage?.pids).toBeGreaterThanOrEqual(1);
    await sandbox.ok(["send", id, "", "-k", "Enter"]);
    await sandbox.ok(["wait", id, "--exit", "--timeout", "20s"]).catch(() => {});
    const after = await waitFor(
      async () => {
        const now = await listed(id);
        return !now.alive && now.reason !== undefined && now;
      },
      10_000,
      "the exit report",
    );
    expect(after).toMatchObject({ signal: "SIGKILL", reason: "memory_limit" });
    expect(await sandbox.screen(id)).not.toContain("504 MB");
    await sandbox.ok(["kill", id]);
  },
);

test.if(V1_WRITABLE)(
  "--limit-pids stops a fork loop; --limit-cpu sets the quota; what the session left behind ends with it",
  async () => {
    const id = await sandbox.ok([
      "create",
      "--limit-pids",
      "12",
      "--limit-cpu",
      "50%",
      "--",
      "bash",
      "--norc",
      "--noprofile",
    ]);
    const { pid } = await listed(id);
    // The shim moves itself into the cgroup as it starts: right after create it may not be there yet (a CI failure).
    await waitFor(() => cgroupDir(pid, "cpu").includes(`-${id}`), 10_000, "the program to enter its cgroup");
    expect(readFileSync(join(cgroupDir(pid, "cpu"), "cpu.cfs_quota_us"), "utf8").trim()).toBe("50000");
    // A process that left the session's process group (setsid) is still in its cgroup: it ends too.
    await sandbox.ok(["send", id, "setsid sleep 1001 < /dev/null > /dev/null 2>&1 & echo escaped", "-k", "Enter"]);
    await waitFor(async () => (await sandbox.screen(id)).includes("\nescaped"), 10_000, "the escaped sleep");
    const escaped = await waitFor(
      () => Number(Bun.spawnSync(["pgrep", "-f", "^sleep 1001$"]).stdout.toString().trim().split("\n")[0]),
      5000,
      "its pid",
    );
    // bash retries a refused fork for seconds; python says it at once.
    const forker =
      "import os, time\nn = 0\ntry:\n    for i in range(30):\n        if os.fork() == 0:\n            time.sleep(100); os._exit(0)\n        n += 1\nexcept OSError as e:\n    print('fork refused after', n, e.strerror)";
    await sandbox.ok(["send", id, `python3 -c "${forker.replace(/\n/g, "\\n")}"; echo forks-done`, "-k", "Enter"]);
    await waitFor(async () => (await sandbox.screen(id)).includes("\nforks-done"), 20_000, "the fork loop to end");
    expect(await sandbox.screen(id)).toMatch(/fork refused after \d+ Resource temporarily unavailable/);
    expect((await listed(id)).usage?.pids).toBeLessThanOrEqual(12);
    await sandbox.ok(["kill", id]);
    await waitFor(() => !isAlive(escaped), 10_000, "the escaped process to end with the session");
    expect(existsSync(`/proc/${pid}`)).toBe(false);
  },
);

test.if(V1_WRITABLE)("a limit that is not a size is refused before anything starts", async () => {
  const refused = await sandbox.run(["create", "--limit-memory", "lots", "--", "true"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('limit_memory: "lots" is not a size');
});

test.if(CAN_MAKE_USERS)(
  "where limits cannot be enforced (an unprivileged user: no writable cgroup, no user manager) the create is refused; nothing runs",
  async () => {
    const user = await Actor.make("unprivileged");
    try {
      const mark = join(user.dir, "ran");
      const refused = await user.run(["create", "--limit-memory", "256M", "--", "touch", mark]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("cannot enforce the limits here");
      expect(existsSync(mark)).toBe(false);
      expect(JSON.parse((await user.run(["list", "--json"])).stdout).terminals).toEqual([]);
    } finally {
      await user.cleanup();
    }
  },
  30_000,
);
