// `npm run release`: the executable for every server t4a targets (Linux and macOS, x64 and arm64,
// glibc and musl), each checked for its architecture with `file`, and SHA256SUMS that verify.
// Targets Bun cannot fetch (offline, no cache) are named as not built, and skipped here.
// Built with `--out` into the test's own directory: other tests build and read release files at the
// same time (the suite runs files in parallel), and dist/release is `npm run release`'s.
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const release = mkdtempSync(join(tmpdir(), "t4a-release-"));
afterAll(() => rmSync(release, { recursive: true, force: true }));
const ARCH: Record<string, RegExp> = {
  "linux-x64": /ELF 64-bit LSB executable, x86-64/,
  "linux-arm64": /ELF 64-bit LSB executable, ARM aarch64/,
  "linux-x64-musl": /ELF 64-bit LSB executable, x86-64.*interpreter \/lib\/ld-musl-x86_64/,
  "linux-arm64-musl": /ELF 64-bit LSB executable, ARM aarch64.*interpreter \/lib\/ld-musl-aarch64/,
  "darwin-x64": /Mach-O 64-bit x86_64 executable/,
  "darwin-arm64": /Mach-O 64-bit arm64 executable/,
};

test("the release: one executable per target, each for its architecture, with checksums that verify", () => {
  const built = Bun.spawnSync([process.execPath, "build.ts", "--release", "--out", release], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  const said = `${built.stdout}${built.stderr}`;
  const missing = Object.keys(ARCH).filter((target) => said.includes(`${target}: not built`));
  if (missing.length) console.log(`skipped: not built here (offline, no cached runtime?): ${missing.join(", ")}`);
  expect(missing.length).toBeLessThan(Object.keys(ARCH).length); // at least one target can be built
  const sizes: string[] = [];
  for (const [target, arch] of Object.entries(ARCH)) {
    if (missing.includes(target)) continue;
    const file = join(release, `t4a-${target}`);
    expect(Bun.spawnSync(["file", "-b", file]).stdout.toString()).toMatch(arch);
    sizes.push(`${target} ${(statSync(file).size / 1e6).toFixed(0)} MB`);
  }
  console.log(`release sizes: ${sizes.join(", ")}`);
  const check = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: release, stdout: "pipe", stderr: "pipe" });
  expect(check.stdout.toString()).not.toContain("FAILED");
  expect(check.exitCode).toBe(0);
  expect(readFileSync(join(release, "README"), "utf8")).toContain("t4a remote install HOST");
  expect(existsSync(join(root, "dist", "t4a"))).toBe(true); // the native build is untouched
  // Every target built in turn: past five minutes on a machine loaded tenfold.
}, 900_000);
