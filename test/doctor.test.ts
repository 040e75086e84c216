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
  const child = Bun.spawn([BIN, "doctor", ...args], {
    env: { ...sandbox.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  return { code, stdout };
}

const HAS_BWRAP = Bun.which("bwrap") !== null;

test("no daemon yet, then a running one; --json gives the same checks", async () => {
  const before = await doctor([]);
  expect(before.code).toBe(0);
  expect(before.stdout).toContain(`daemon: not running (the first \`t4a create\` starts it, on ${sandbox.socket})`);
  await sandbox.start();
  const after = JSON.parse((await doctor(["--json"])).stdout) as {
    ok: boolean;
    checks: Array<{ name: string; ok: boolean; detail: string }>;
  };
  expect(after.ok).toBe(true);
  expect(after.checks.find((check) => check.name === "daemon")!.detail).toContain(
    `running: pid ${await sandbox.daemonPid()}`,
  );
  expect(after.checks.find((check) => check.name === "socket directory")!.detail).toContain("(private)");
  expect(after.checks.map((check) => check.name)).toContain("agent claude");
  // glibc here: widths come from the C library, as the programs' own.
  expect(after.checks.find((check) => check.name === "character widths")).toMatchObject({
    ok: true,
    detail: expect.stringContaining("wcwidth (glibc, C.UTF-8)"),
  });
});

test.if(HAS_BWRAP)(
  "the sandbox: works here; without bwrap on PATH, or without user namespaces, --sandbox fails naming the fix",
  async () => {
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
  },
);

test("a daemon of another version that refuses a request: the message says which versions and what to do", async () => {
  const other = new Sandbox();
  mkdirSync(join(other.dir, "run"), { mode: 0o700 });
  // An "old daemon": it knows info, and nothing this client asks for.
  const old = Bun.listen({
    unix: other.socket,
    socket: {
      data(socket, chunk) {
        for (const line of new TextDecoder().decode(chunk).split("\n").filter(Boolean)) {
          const request = JSON.parse(line) as { cmd: string };
          const reply =
            request.cmd === "info"
              ? {
                  ok: true,
                  version: "0.0.1",
                  pid: 1,
                  uptime_ms: 1,
                  sessions: 0,
                  subscribers: 0,
                  rss_bytes: 1,
                  socket: other.socket,
                }
              : { ok: false, code: "unknown_cmd", error: `unknown command "${request.cmd}"` };
          socket.write(`${JSON.stringify(reply)}\n`);
        }
      },
    },
  });
  try {
    const child = Bun.spawn([BIN, "agents"], { env: other.env, stdout: "pipe", stderr: "pipe" });
    const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    expect(code).toBe(1);
    expect(stderr).toContain('unknown command "agents" (the daemon runs t4a 0.0.1, this is t4a');
    expect(stderr).toContain("`t4a shutdown` and call again");
  } finally {
    old.stop(true);
    await other.cleanup();
  }
});

test("a PATH without systemctl, loginctl, bwrap or any agent: every probe fails soft into a line with its fix", async () => {
  const bin = join(sandbox.dir, "few-bin");
  mkdirSync(bin, { recursive: true });
  for (const name of ["bash", "sh", "git", "ls", "cat"]) {
    const found = Bun.which(name);
    if (found) symlinkSync(found, join(bin, name));
  }
  const result = await doctor([], { PATH: bin });
  expect(result.stdout).not.toContain("Executable not found");
  expect(result.code).toBe(0); // nothing asked for fails: the basics work
  if (process.platform === "linux")
    expect(result.stdout).toMatch(/no +service: .*systemctl is not on PATH[^\n]*\n +fix: /);
  expect(result.stdout).toMatch(/character widths: /); // the probes after it ran too
  const service = await doctor(["--service"], { PATH: bin });
  if (process.platform === "linux") expect(service.code).toBe(1);
}, 60_000);
