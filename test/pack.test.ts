// `npm run pack` on a fake release (six small files and their SHA256SUMS): one package per target
// with its os/cpu/libc and the executable at bin/t4a (mode 755), `t4a` with the launcher and all six
// as optional dependencies of the same version, and no install scripts; a binary that is not the
// one SHA256SUMS lists, or is missing, is refused.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { TARGETS } from "../scripts/pack.ts";

const root = resolve(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "t4a-pack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeRelease(name: string, tamper?: string): string {
  const release = join(dir, name);
  mkdirSync(release);
  const sums = TARGETS.map((target) => {
    const body = `#!/bin/sh\necho fake ${target}\n`;
    writeFileSync(join(release, `t4a-${target}`), target === tamper ? `${body}# changed\n` : body, { mode: 0o755 });
    return `${new Bun.CryptoHasher("sha256").update(body).digest("hex")}  t4a-${target}`;
  });
  writeFileSync(join(release, "SHA256SUMS"), `${sums.join("\n")}\n`);
  return release;
}

const pack = (release: string, out: string) =>
  Bun.spawnSync([process.execPath, "scripts/pack.ts", "--release", release, "--out", out], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });

/** A tarball's files with their modes (`tar tvzf`), and one file's text. */
const listing = (tgz: string) => Bun.spawnSync(["tar", "tvzf", tgz]).stdout.toString();
const extract = (tgz: string, file: string) => Bun.spawnSync(["tar", "xzOf", tgz, file]).stdout.toString();

test("one package per target with os/cpu/libc, and t4a listing them all", () => {
  const out = join(dir, "npm");
  mkdirSync(out);
  writeFileSync(join(out, "keep-me"), "not pack's"); // --out's other contents are left alone
  const packed = pack(fakeRelease("release"), out);
  expect(packed.stderr.toString()).toBe("");
  expect(packed.exitCode).toBe(0);
  const v = pkg.version;
  expect(
    readdirSync(out)
      .filter((name) => name.endsWith(".tgz"))
      .sort(),
  ).toEqual([`t4a-${v}.tgz`, ...TARGETS.map((target) => `t4a-${target}-${v}.tgz`)].sort());
  expect(readdirSync(out)).toContain("keep-me");
  for (const target of TARGETS) {
    const tgz = join(out, `t4a-${target}-${v}.tgz`);
    const manifest = JSON.parse(extract(tgz, "package/package.json"));
    const [os, cpu, libc] = target.split("-");
    expect(manifest).toMatchObject({ name: `@t4a/${target}`, version: v, os: [os], cpu: [cpu] });
    expect(manifest.libc).toEqual(os === "linux" ? [libc ?? "glibc"] : undefined);
    expect(manifest.scripts).toBeUndefined();
    expect(listing(tgz)).toMatch(/^-rwxr-xr-x .* package\/bin\/t4a$/m);
    expect(extract(tgz, "package/bin/t4a")).toBe(`#!/bin/sh\necho fake ${target}\n`);
  }
  const main = join(out, `t4a-${v}.tgz`);
  const manifest = JSON.parse(extract(main, "package/package.json"));
  expect(manifest).toMatchObject({ name: "t4a", version: v, bin: { t4a: "bin/t4a.js" }, engines: { node: ">=18" } });
  expect(manifest.optionalDependencies).toEqual(Object.fromEntries(TARGETS.map((target) => [`@t4a/${target}`, v])));
  expect(manifest.scripts).toBeUndefined();
  expect(manifest.dependencies).toBeUndefined();
  expect(listing(main)).toMatch(/^-rwxr-xr-x .* package\/bin\/t4a\.js$/m);
  expect(
    listing(main)
      .trim()
      .split("\n")
      .map((line) => line.split(/\s+/).at(-1))
      .sort(),
  ).toEqual([
    "package/README.md",
    "package/bin/t4a.js",
    "package/lib/index.mjs",
    "package/package.json",
    "package/types/client/errors.d.mts",
    "package/types/lib/client.d.mts",
    "package/types/lib/index.d.mts",
    "package/types/lib/wire.d.mts",
    "package/types/protocol/errors.d.mts",
  ]);
  // The library: ESM, its types beside it (test/client-lib.test.ts runs and typechecks it).
  expect(manifest.exports["."]).toEqual({ types: "./types/lib/index.d.mts", default: "./lib/index.mjs" });
}, 120_000);

test("a binary that is not the one SHA256SUMS lists is refused, and so is a missing one", () => {
  const tampered = pack(fakeRelease("tampered", "linux-arm64"), join(dir, "npm-tampered"));
  expect(tampered.exitCode).toBe(1);
  expect(tampered.stderr.toString()).toContain("t4a-linux-arm64: its SHA-256 is not the one in");
  const release = fakeRelease("missing");
  rmSync(join(release, "t4a-darwin-x64"));
  const missing = pack(release, join(dir, "npm-missing"));
  expect(missing.exitCode).toBe(1);
  expect(missing.stderr.toString()).toContain("t4a-darwin-x64 is missing");
}, 120_000);
