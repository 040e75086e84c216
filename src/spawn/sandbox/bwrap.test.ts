import { expect, test } from "bun:test";
import { splitLoaderVariables } from "../loader-variables.ts";
import { bwrapArgs, type SandboxRules, sandboxExecProfile } from "./bwrap.ts";

const rules: SandboxRules = {
  cwd: "/work/repo",
  mounts: [
    { kind: "bind", path: "/work/repo" },
    { kind: "bind", path: "/state/scratch" },
    { kind: "ro-bind", path: "/work/repo/.git/hooks" },
    { kind: "tmpfs", path: "/run/user/1000/t4a" },
    { kind: "ro-bind", path: "/run/user/1000/t4a/shell-integration" },
  ],
  net: "none",
  exec: ["/usr/bin/t4a", "sandbox-exec", "--"],
};

test("bwrap: no capabilities, read-only root, private /tmp, the mounts in order, no network", () => {
  const args = bwrapArgs("/usr/bin/bwrap", rules);
  const at = (flag: string, path: string) => args.findIndex((arg, i) => arg === flag && args[i + 1] === path);
  expect(args.slice(0, 5)).toEqual(["/usr/bin/bwrap", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"]);
  expect(at("--ro-bind", "/")).toBeGreaterThan(0);
  expect(at("--tmpfs", "/tmp")).toBeLessThan(at("--bind", "/work/repo"));
  // Later mounts cover earlier ones: each comes in the rules' order.
  const order = rules.mounts.map((mount) => at(`--${mount.kind}`, mount.path));
  expect(order).toEqual([...order].sort((a, b) => a - b));
  expect(args).toContain("--unshare-net");
  expect(args).toContain("--unshare-pid");
  expect(args).toContain("--die-with-parent");
  expect(args).not.toContain("--new-session");
  expect(args.slice(-6)).toEqual(["--chdir", "/work/repo", "--", "/usr/bin/t4a", "sandbox-exec", "--"]);
  expect(bwrapArgs("/usr/bin/bwrap", { ...rules, net: "host" })).not.toContain("--unshare-net");
  expect(bwrapArgs("/usr/bin/bwrap", { ...rules, net: "proxy" })).toContain("--unshare-net");
  // A bind from elsewhere: source, then the path inside.
  const copy = bwrapArgs("/usr/bin/bwrap", {
    ...rules,
    mounts: [{ kind: "bind", path: "/home/u/.claude.json", source: "/run/t4a/sandbox/a/0-.claude.json" }],
  });
  expect(copy.join(" ")).toContain("--bind /run/t4a/sandbox/a/0-.claude.json /home/u/.claude.json");
});

test("the loader's variables never reach bwrap: they are split off for the program alone", () => {
  const { safe, loader } = splitLoaderVariables({
    PATH: "/bin",
    LD_PRELOAD: "/x.so",
    LD_LIBRARY_PATH: "/l",
    GCONV_PATH: "/g",
    HOME: "/h",
  });
  expect(safe).toEqual({ PATH: "/bin", HOME: "/h" });
  expect(loader).toEqual({ LD_PRELOAD: "/x.so", LD_LIBRARY_PATH: "/l", GCONV_PATH: "/g" });
});

test(
  "shells' startup hooks, runtimes' options and git's execution " +
    "knobs are split off too; ordinary variables are not",
  () => {
    const steering = [
      "BASH_ENV",
      "ENV",
      "ZDOTDIR",
      "PROMPT_COMMAND",
      "BASH_FUNC_ls%%",
      "BUN_OPTIONS",
      "BUN_INSPECT",
      "NODE_OPTIONS",
      "PYTHONSTARTUP",
      "PYTHONPATH",
      "PERL5OPT",
      "RUBYOPT",
      "JAVA_TOOL_OPTIONS",
      "GIT_SSH_COMMAND",
      "GIT_CONFIG_COUNT",
      "GLIBC_TUNABLES",
      "PAGER",
    ];
    const ordinary = [
      "PATH",
      "HOME",
      "LANG",
      "TERM",
      "ANTHROPIC_API_KEY",
      "HTTPS_PROXY",
      "NODE_ENV",
      "ENVIRONMENT",
      "MY_BUN_OPTIONS",
    ];
    const { safe, loader } = splitLoaderVariables(
      Object.fromEntries([...steering, ...ordinary].map((key) => [key, "x"])),
    );
    expect(Object.keys(loader).sort()).toEqual([...steering].sort());
    expect(Object.keys(safe).sort()).toEqual([...ordinary].sort());
  },
);

test("sandbox-exec (macOS): deny by default, read everywhere, write only where allowed, t4a's directory denied", () => {
  const profile = sandboxExecProfile(rules);
  const lines = profile.trim().split("\n");
  expect(lines.slice(0, 2)).toEqual(["(version 1)", "(deny default)"]);
  expect(profile).toContain("(allow file-read*)");
  const write = lines.find((line) => line.startsWith("(allow file-write*"))!;
  for (const path of ["/work/repo", "/state/scratch", "/private/tmp"]) expect(write).toContain(`(subpath "${path}")`);
  expect(write).not.toContain('(subpath "/")');
  expect(profile).toContain('(deny file-write* (subpath "/work/repo/.git/hooks"))');
  expect(profile).toContain('(deny file-read* file-write* network-outbound (subpath "/run/user/1000/t4a"))');
  expect(lines.at(-1)).toBe("(deny network*)");
  expect(
    sandboxExecProfile({ ...rules, net: "host" })
      .trim()
      .split("\n")
      .at(-1),
  ).toBe("(allow network*)");
  // Paths are quoted as SBPL strings: a quote in a path cannot end the rule.
  expect(sandboxExecProfile({ ...rules, cwd: '/a"b' })).toContain('(subpath "/a\\"b")');
});
