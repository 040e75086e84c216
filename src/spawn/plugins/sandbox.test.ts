import { expect, test } from "bun:test";
import { bwrapArgs, sandboxExecProfile, type SandboxRules } from "./sandbox.ts";

const rules: SandboxRules = {
  cwd: "/work/repo",
  writable: ["/home/u/.claude", "/state/scratch"],
  net: false,
  hide: ["/run/user/1000/t4a"],
  readable: ["/run/user/1000/t4a/shell-integration"],
};

test("bwrap: read-only root, private /tmp, writable binds, then the hidden dir last, no network", () => {
  const args = bwrapArgs("/usr/bin/bwrap", rules);
  const at = (flag: string, path: string) => args.findIndex((arg, i) => arg === flag && args[i + 1] === path);
  expect(args.slice(0, 4)).toEqual(["/usr/bin/bwrap", "--ro-bind", "/", "/"]);
  expect(at("--tmpfs", "/tmp")).toBeLessThan(at("--bind", "/work/repo"));
  // Later mounts cover earlier ones: the hide comes after every writable bind.
  expect(at("--tmpfs", "/run/user/1000/t4a")).toBeGreaterThan(at("--bind", "/state/scratch"));
  expect(at("--ro-bind", "/run/user/1000/t4a/shell-integration")).toBeGreaterThan(at("--tmpfs", "/run/user/1000/t4a"));
  expect(args).toContain("--unshare-net");
  expect(args).toContain("--unshare-pid");
  expect(args).toContain("--die-with-parent");
  expect(args).not.toContain("--new-session");
  expect(args.slice(-3)).toEqual(["--chdir", "/work/repo", "--"]);
  expect(bwrapArgs("/usr/bin/bwrap", { ...rules, net: true })).not.toContain("--unshare-net");
});

test("sandbox-exec (macOS): deny by default, read everywhere, write only where allowed, t4a's directory denied", () => {
  const profile = sandboxExecProfile(rules);
  const lines = profile.trim().split("\n");
  expect(lines.slice(0, 2)).toEqual(["(version 1)", "(deny default)"]);
  expect(profile).toContain("(allow file-read*)");
  const write = lines.find((line) => line.startsWith("(allow file-write*"))!;
  for (const path of ["/work/repo", "/home/u/.claude", "/state/scratch", "/private/tmp"]) expect(write).toContain(`(subpath "${path}")`);
  expect(write).not.toContain('(subpath "/")');
  expect(profile).toContain('(deny file-read* file-write* network-outbound (subpath "/run/user/1000/t4a"))');
  expect(lines.at(-1)).toBe("(deny network*)");
  expect(sandboxExecProfile({ ...rules, net: true }).trim().split("\n").at(-1)).toBe("(allow network*)");
  // Paths are quoted as SBPL strings: a quote in a path cannot end the rule.
  expect(sandboxExecProfile({ ...rules, cwd: '/a"b' })).toContain('(subpath "/a\\"b")');
});
