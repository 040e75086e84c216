// install.sh, run by dash (POSIX sh) against a local HTTP server holding release files: the right
// file for the OS, CPU and C library, checked against SHA256SUMS; a wrong sum, an unknown CPU and
// a file that does not run here are refused with nothing installed. `uname` and `ldd` are faked
// on PATH to play other machines. shellcheck runs on it when installed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };

const root = resolve(import.meta.dir, "..");
const script = join(root, "install.sh");
const host =
  process.platform === "linux" && process.arch === "x64"
    ? "linux-x64"
    : process.platform === "linux" && process.arch === "arm64"
      ? "linux-arm64"
      : undefined;
const skip = host ? undefined : `the test plays Linux machines; this is ${process.platform}-${process.arch}`;
if (skip) console.log(`skipped: ${skip}`);

const dir = mkdtempSync(join(tmpdir(), "t4a-install-sh-"));
// The release files this test serves, built into its own directory (dist/release is `npm run release`'s,
// and other tests build and read release files at the same time: the suite runs files in parallel).
const release = join(dir, "release");
const requests: string[] = [];
let server: ReturnType<typeof Bun.serve> | undefined;
let base = "";

beforeAll(() => {
  if (skip || !host) return;
  // darwin-arm64 only when Bun has its runtime (offline with no cache it cannot: that test says so).
  for (const target of [host, `${host}-musl`, "darwin-arm64"]) {
    const built = Bun.spawnSync([process.execPath, "build.ts", "--target", target, "--out", release], {
      cwd: root,
      stdout: "pipe",
      stderr: "pipe",
    });
    if (built.exitCode !== 0 && target !== "darwin-arm64")
      throw new Error(`bun build.ts --target ${target}: ${built.stderr}`);
  }
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push(path);
      // /good/FILE: the release as built; /bad/: the same files, every sum in SHA256SUMS off by one digit.
      const [, kind, name] = path.split("/");
      if (!name || !/^[\w.-]+$/.test(name) || (kind !== "good" && kind !== "bad"))
        return new Response("no", { status: 404 });
      const file = Bun.file(join(release, name));
      if (kind === "bad" && name === "SHA256SUMS") {
        return file
          .text()
          .then((text) => new Response(text.replace(/^(\w)/gm, (digit) => (digit === "0" ? "1" : "0"))));
      }
      return file.exists().then((exists) => (exists ? new Response(file) : new Response("not found", { status: 404 })));
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  // Three builds of the whole binary: minutes on a loaded machine, far past the 60 s default.
}, 300_000);

afterAll(() => {
  server?.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

/** A fake command for PATH: prints `out` (on stderr too for ldd, as musl's does) and exits `code`. */
function fake(bin: string, name: string, body: string): void {
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}

let runs = 0;
/** Runs install.sh with dash, HOME a fresh temp dir, `bin` first on PATH. */
async function install(args: string[], options: { base: string; bin?: string; env?: Record<string, string> }) {
  const home = join(dir, `home${++runs}`);
  mkdirSync(home);
  const started = performance.now();
  requests.length = 0;
  // Not spawnSync: the server answering it runs on this process's event loop.
  const child = Bun.spawn(["dash", script, ...args], {
    cwd: home,
    env: {
      PATH: `${options.bin ? `${options.bin}:` : ""}/usr/bin:/bin`,
      HOME: home,
      T4A_INSTALL_BASE: options.base,
      ...options.env,
    },
    stdout: "pipe",
    stderr: "pipe",
    timeout: 50_000,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return {
    home,
    code,
    out: `${stdout}${stderr}`,
    ms: Math.round(performance.now() - started),
    requests: [...requests],
  };
}

describe.skipIf(!!skip)("install.sh", () => {
  test("is shellcheck-clean as POSIX sh", () => {
    if (!Bun.which("shellcheck"))
      return console.log("skipped: shellcheck is not installed (apt-get install shellcheck)");
    const checked = Bun.spawnSync(["shellcheck", "-s", "sh", script], { stdout: "pipe", stderr: "pipe" });
    expect(checked.stdout.toString()).toBe("");
    expect(checked.exitCode).toBe(0);
  });

  test("installs this machine's file, checked against SHA256SUMS, to ~/.local/bin, and says how to put it on PATH", async () => {
    const run = await install([], { base: `${base}/good` });
    expect(run.code).toBe(0);
    const installed = join(run.home, ".local", "bin", "t4a");
    expect(Bun.spawnSync([installed, "--version"]).stdout.toString().trim()).toBe(`t4a ${pkg.version}`);
    expect(run.requests).toEqual(["/good/SHA256SUMS", `/good/t4a-${host}`]);
    const sum = readFileSync(join(release, "SHA256SUMS"), "utf8").match(new RegExp(`^(\\w+)  t4a-${host}$`, "m"))?.[1];
    expect(run.out).toContain(`SHA-256 ${sum} matches`);
    expect(run.out).toContain(`export PATH="${join(run.home, ".local", "bin")}:$PATH"`);
    console.log(`install.sh from a local server: ${run.ms} ms`);
  }, 60_000);

  test("--prefix DIR installs there, replacing what was there; no PATH advice when DIR is on PATH", async () => {
    const prefix = join(dir, "prefix bin");
    mkdirSync(prefix);
    writeFileSync(join(prefix, "t4a"), "old");
    const run = await install(["--prefix", prefix], { base: `${base}/good`, env: { PATH: `${prefix}:/usr/bin:/bin` } });
    expect(run.code).toBe(0);
    expect(
      Bun.spawnSync([join(prefix, "t4a"), "--version"])
        .stdout.toString()
        .trim(),
    ).toBe(`t4a ${pkg.version}`);
    expect(run.out).not.toContain("not on PATH");
  }, 60_000);

  test("a file that does not match SHA256SUMS is refused and nothing is installed", async () => {
    const run = await install([], { base: `${base}/bad` });
    expect(run.code).toBe(1);
    expect(run.out).toContain(`t4a-${host} does not match SHA256SUMS`);
    expect(existsSync(join(run.home, ".local", "bin", "t4a"))).toBe(false);
  }, 60_000);

  test("an unknown CPU is named and nothing is downloaded", async () => {
    const bin = join(dir, "riscv");
    fake(bin, "uname", `case "$1" in -s) echo Linux ;; -m) echo riscv64 ;; esac`);
    const run = await install([], { base: `${base}/good`, bin });
    expect(run.code).toBe(1);
    expect(run.out).toContain("no t4a build for the riscv64 CPU");
    expect(run.requests).toEqual([]);
  });

  test("musl (ldd says so) gets the -musl file; on a glibc machine it does not run, which is said, and nothing is installed", async () => {
    const bin = join(dir, "musl");
    fake(bin, "ldd", `echo "musl libc (x86_64)" >&2; echo "Version 1.2.5" >&2; exit 1`);
    const run = await install([], { base: `${base}/good`, bin });
    expect(run.requests).toEqual(["/good/SHA256SUMS", `/good/t4a-${host}-musl`]);
    expect(run.out).toContain("matches SHA256SUMS");
    if (existsSync(`/lib/ld-musl-${process.arch === "x64" ? "x86_64" : "aarch64"}.so.1`)) {
      expect(run.code).toBe(0); // this machine has musl's loader: the file runs
      return;
    }
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      `t4a-${host}-musl does not run on this machine (the musl build; T4A_INSTALL_LIBC=glibc or musl picks the other)`,
    );
    expect(existsSync(join(run.home, ".local", "bin", "t4a"))).toBe(false);
    // The override wins over ldd.
    const forced = await install([], { base: `${base}/good`, bin, env: { T4A_INSTALL_LIBC: "glibc" } });
    expect(forced.code).toBe(0);
    expect(forced.requests).toEqual(["/good/SHA256SUMS", `/good/t4a-${host}`]);
  }, 60_000);

  test("macOS on arm64 gets t4a-darwin-arm64 (which then does not run on Linux: refused)", async () => {
    const bin = join(dir, "mac");
    fake(bin, "uname", `case "$1" in -s) echo Darwin ;; -m) echo arm64 ;; esac`);
    const run = await install([], { base: `${base}/good`, bin });
    if (!existsSync(join(release, "t4a-darwin-arm64")))
      return console.log("skipped: t4a-darwin-arm64 could not be built here (offline, no cached runtime?)");
    expect(run.requests).toEqual(["/good/SHA256SUMS", "/good/t4a-darwin-arm64"]);
    expect(run.code).toBe(1);
    expect(run.out).toContain("t4a-darwin-arm64 does not run on this machine");
  }, 60_000);

  test("a base URL that answers 404 is named", async () => {
    const run = await install([], { base: `${base}/missing` });
    expect(run.code).toBe(1);
    expect(run.out).toContain(`cannot download ${base}/missing/SHA256SUMS`);
  });
});
