import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addHost, badHostName, hostsPath, loadHosts, removeHost, resolveHost, splitHostId } from "./hosts.ts";

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), "t4a-hosts-"));
  dirs.push(dir);
  return join(dir, "t4a", "hosts.json");
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

test("hosts.json lives in the config directory", () => {
  expect(hostsPath({ XDG_CONFIG_HOME: "/c", HOME: "/h" })).toBe("/c/t4a/hosts.json");
  expect(hostsPath({ HOME: "/h" })).toBe("/h/.config/t4a/hosts.json");
});

test("names: no ':' '/' spaces or control characters, no leading '-', at most 64, not local", () => {
  for (const bad of ["", "a:b", "a/b", "a b", "a\x1b", "-x", "n".repeat(65), "local"])
    expect(badHostName(bad)).toBeString();
  for (const good of ["box", "gpu-1", "n".repeat(64), "box.lan"]) expect(badHostName(good)).toBeUndefined();
});

test("add, resolve, remove: mode 600, replaced whole, an unknown host names the file", () => {
  const path = fresh();
  addHost("box", "ssh://me@box:2222", ["-J", "bastion"], path);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(resolveHost("box", path)).toEqual({ target: "ssh://me@box:2222", ssh_args: ["-J", "bastion"] });
  expect(() => resolveHost("nowhere", path)).toThrow(`unknown host "nowhere": not in ${path} (there: box)`);
  expect(() => addHost("x", "-oProxyCommand=sh", [], path)).toThrow();
  expect(() => addHost("x", "h", ["destination"], path)).toThrow("must start with an option");
  expect(removeHost("box", path)).toBe(true);
  expect(removeHost("box", path)).toBe(false);
  expect(readdirSync(join(path, ".."))).toEqual(["hosts.json"]);
});

test("a hand-edited file: bad entries are left out and named, an unreadable file is kept aside", () => {
  const path = fresh();
  addHost("ok", "me@ok", [], path);
  const good = readFileSync(path, "utf8");
  writeFileSync(
    path,
    JSON.stringify({
      hosts: { ok: { target: "me@ok" }, "a:b": { target: "h" }, bad: { target: "h", ssh_args: ["h2"] }, none: {} },
    }),
  );
  const read = loadHosts(path);
  expect(Object.keys(read.hosts)).toEqual(["ok"]);
  expect(read.problems.filter((p) => p.includes("left out"))).toHaveLength(3);
  // Left-out entries are said, not copied aside at every read; a rewrite would lose them: refused.
  expect(readdirSync(join(path, ".."))).toEqual(["hosts.json"]);
  expect(() => addHost("new", "me@new", [], path)).toThrow("left out");
  writeFileSync(path, "{not json");
  const broken = loadHosts(path);
  expect(broken.hosts).toEqual({});
  expect(broken.problems[0]).toContain(`${path} is unreadable`);
  expect(readdirSync(join(path, "..")).some((name) => name.startsWith("hosts.json.corrupt-"))).toBe(true);
  // Adding to a file that cannot be read refuses, rather than overwrite what the user had.
  expect(() => addHost("new", "me@new", [], path)).toThrow("unreadable");
  expect(readFileSync(path, "utf8")).toBe("{not json");
  expect(good).toContain('"ok"');
});

test("HOST:ID splits at the first ':'; an id without one names no host", () => {
  expect(splitHostId("box:t3")).toEqual({ host: "box", id: "t3" });
  expect(splitHostId("box:a:b")).toEqual({ host: "box", id: "a:b" });
  expect(splitHostId("t3")).toBeUndefined();
});
