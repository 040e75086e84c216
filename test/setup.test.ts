// The first minutes on a fresh machine: `npm ci` raises no install-script warning, and the demo
// says where t4a is and leaves nothing behind in the temp directory.
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");

test("item 2: every dependency with an install script is approved in package.json (npm allowScripts)", async () => {
  const npm = Bun.spawnSync(["npm", "install-scripts", "ls", "--json"], { cwd: root, stderr: "pipe" });
  if (npm.exitCode !== 0) {
    // npm before 11.x has no allowScripts and warns about nothing: the check cannot run there.
    console.log(
      `skipped: this npm has no install-scripts command (${npm.stderr.toString().trim().split("\n").at(-1)})`,
    );
    return;
  }
  expect(JSON.parse(npm.stdout.toString())).toEqual({ allowScripts: [] });
  const pkg = await Bun.file(join(root, "package.json")).json();
  expect(pkg.allowScripts).toEqual({ bun: true });
});

test("item 1 and 3: the demo prints where t4a is and leaves nothing in TMPDIR", async () => {
  const tmp = mkdtempSync(join(tmpdir(), "t4a-demo-tmp-"));
  try {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), TMPDIR: tmp };
    delete env.T4A_SOCKET;
    const demo = Bun.spawn(["bash", "scripts/demo.sh"], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
    const [stdout, code] = await Promise.all([new Response(demo.stdout).text(), demo.exited]);
    expect(code).toBe(0);
    expect(stdout).toContain(`using ${root}/dist/t4a`);
    expect(stdout).toContain(`export PATH="${root}/dist:$PATH"`);
    expect(stdout).toContain("demo done");
    expect(readdirSync(tmp)).toEqual([]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}, 60_000);
