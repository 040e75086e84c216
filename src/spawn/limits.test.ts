import { expect, test } from "bun:test";
import { parseBytes, v1Hierarchies } from "./limits.ts";

test("sizes: 512M, 2G, 1.5g, 100k, bare bytes; nonsense is undefined", () => {
  expect(parseBytes("512M")).toBe(512 * 1024 ** 2);
  expect(parseBytes("2G")).toBe(2 * 1024 ** 3);
  expect(parseBytes("1.5g")).toBe(1.5 * 1024 ** 3);
  expect(parseBytes("100KiB")).toBe(100 * 1024);
  expect(parseBytes("4096")).toBe(4096);
  for (const bad of ["lots", "-1G", "2X", ""]) expect(parseBytes(bad)).toBeUndefined();
});

test(
  "v1 hierarchies: each controller's mount point joined with the " +
    "daemon's own cgroup there, a container's mount root taken off",
  () => {
    const mountinfo = [
      "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755",
      "31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct",
      "34 30 0:31 /docker/abc /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory",
      "38 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids",
      "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw",
    ].join("\n");
    const own = ["8:pids:/user.slice", "4:memory:/docker/abc/app", "1:cpu,cpuacct:/", "0::/"].join("\n");
    expect(Object.fromEntries(v1Hierarchies(mountinfo, own))).toEqual({
      cpu: "/sys/fs/cgroup/cpu,cpuacct",
      memory: "/sys/fs/cgroup/memory/app",
      pids: "/sys/fs/cgroup/pids/user.slice",
    });
    // cgroup v2 only: no v1 hierarchy at all.
    expect(v1Hierarchies("40 30 0:37 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw", "0::/user.slice")).toEqual(new Map());
  },
);
