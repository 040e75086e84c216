// `t4a doctor` on this machine, then with bwrap gone from PATH, with user namespaces refused (the
// probe's seam), with no daemon and with one: each check says the right thing, with its fix.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

async function doctor(args: string[], env: Record<string, string> = {}) {
  const child = Bun.spawn([BIN, "doctor", ...args], { env: { ...sandbox.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return { code, stdout };
}

const HAS_BWRAP = Bun.which("bwrap") !== null;

test("no daemon yet, then a running one; --json gives the same checks", async () => {
  const before = await doctor([]);
  expect(before.code).toBe(0);
  expect(before.stdout).toContain(`daemon: not running (the first \`t4a create\` starts it, on ${sandbox.socket})`);
  await sandbox.start();
  const after = JSON.parse((await doctor(["--json"])).stdout) as { ok: boolean; checks: Array<{ name: string; ok: boolean; detail: string }> };
  expect(after.ok).toBe(true);
  expect(after.checks.find((check) => check.name === "daemon")!.detail).toContain(`running: pid ${await sandbox.daemonPid()}`);
  expect(after.checks.find((check) => check.name === "socket directory")!.detail).toContain("(private)");
  expect(after.checks.map((check) => check.name)).toContain("agent claude");
});

test.if(HAS_BWRAP)("the sandbox: works here; without bwrap on PATH, or without user namespaces, --sandbox fails naming the fix", async () => {
  const here = await doctor(["--sandbox"]);
  expect(here.code).toBe(0);
  expect(here.stdout).toContain("ok   sandbox: bwrap");
  // A PATH with the basics but no bwrap.
  const bin = join(sandbox.dir, "bin");
  mkdirSync(bin);
  for (const tool of ["sh", "bash", "socat", "systemctl", "loginctl"]) {
    const path = Bun.which(tool);
    if (path) symlinkSync(path, join(bin, tool));
  }
  const noBwrap = await doctor(["--sandbox"], { PATH: bin });
  expect(noBwrap.code).toBe(1);
  expect(noBwrap.stdout).toContain("FAIL sandbox: bwrap is not on PATH");
  expect(noBwrap.stdout).toContain("fix: install bubblewrap");
  // Reported, not failed, when the sandbox was not asked for.
  expect((await doctor([], { PATH: bin })).code).toBe(0);
  const noUserns = await doctor(["--sandbox"], { T4A_TEST_NO_USERNS: "1" });
  expect(noUserns.code).toBe(1);
  expect(noUserns.stdout).toContain("FAIL sandbox: bwrap cannot make a sandbox here");
  expect(noUserns.stdout).toContain("unprivileged user namespaces");
});
