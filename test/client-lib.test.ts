// The client library (`import { connect } from "t4a"`, src/lib/) against the real daemon: one
// scenario (fixtures/client-lib/scenario.mjs) run under Bun from src/, then under Node from the
// library as the package ships it (scripts/lib.ts), and a TypeScript consumer typechecked by tsc
// against the shipped .d.mts. The library starts the daemon itself (no Sandbox.start()).
import { afterAll, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildLibrary, LIBRARY_FIELDS } from "../scripts/lib.ts";
import { connect, DaemonUnreachable, T4aError } from "../src/lib/index.ts";
import { scenario } from "./fixtures/client-lib/scenario.mjs";
import { BIN, Sandbox } from "./harness.ts";
import { SSHD, startSshd } from "./fixtures/sshd.ts";
import { expectConsumerTypechecks, expectScenario } from "./fixtures/client-lib/check.ts";

const fixtures = join(import.meta.dir, "fixtures", "client-lib");
const sandboxes: Sandbox[] = [];
const dir = mkdtempSync(join(tmpdir(), "t4a-client-lib-"));

afterAll(async () => {
  for (const sandbox of sandboxes) await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

test("under Bun: create, send, wait and text in flight together, exec, events, screenshot bytes, a T4aError; the daemon started by connect()", async () => {
  const sandbox = new Sandbox();
  sandboxes.push(sandbox);
  expect((await sandbox.run(["info"])).code).not.toBe(0); // no daemon yet
  const seen = await scenario(connect, T4aError, { socket: sandbox.socket, t4a: BIN });
  expectScenario(seen);
  expect((await sandbox.run(["info"])).code).toBe(0); // the one the library started, still serving
}, 120_000);

test("under Bun: without start, no daemon is an error, and nothing is started", async () => {
  const sandbox = new Sandbox();
  sandboxes.push(sandbox);
  const refused = await connect({ socket: sandbox.socket, start: false }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(DaemonUnreachable);
  expect((refused as Error).message).toContain(`no daemon answers on ${sandbox.socket}`);
  expect((await sandbox.run(["info"])).code).not.toBe(0);
});

test("under Bun: a daemon that goes away while a wait is in flight fails it as DaemonUnreachable", async () => {
  const sandbox = new Sandbox();
  sandboxes.push(sandbox);
  const t4a = await connect({ socket: sandbox.socket, t4a: BIN });
  try {
    const { id, pid } = await t4a.create({ cmd_args: ["sleep", "60"] });
    const waiting = t4a.wait({ id, text: "never", timeout_ms: 60_000 }).catch((error: unknown) => error);
    await t4a.text({ id }); // the wait was read before this was answered
    process.kill(Number((await t4a.info()).pid), "SIGKILL");
    const failed = await waiting;
    expect(failed).toBeInstanceOf(DaemonUnreachable);
    expect((failed as Error).message).toContain("closed");
    process.kill(pid, "SIGKILL"); // its daemon is gone: nobody else ends it
  } finally {
    t4a.close();
  }
});

test("under Node: the shipped library runs the same scenario, and tsc checks a consumer against its types", async () => {
  const project = join(dir, "project");
  const pkg = join(project, "node_modules", "t4a");
  mkdirSync(pkg, { recursive: true });
  await buildLibrary(pkg);
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "t4a", version: "0.0.0", ...LIBRARY_FIELDS }));
  for (const file of ["scenario.mjs", "run.mjs", "consumer.ts"]) cpSync(join(fixtures, file), join(project, file));

  const sandbox = new Sandbox();
  sandboxes.push(sandbox);
  const node = Bun.spawnSync(["node", "run.mjs", BIN], {
    cwd: project,
    env: sandbox.env,
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(node.stderr.toString()).toBe("");
  expect(node.exitCode).toBe(0);
  expectScenario(JSON.parse(node.stdout.toString()));

  writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module", private: true }));
  expectConsumerTypechecks(project);
  expect(existsSync(join(pkg, "types", "lib", "wire.d.mts"))).toBe(true);
}, 180_000);

test.if(SSHD !== undefined)(
  "over ssh (a real sshd): the scenario with { host }, and HOST:ID from a local client; an unknown host names hosts.json",
  async () => {
    const local = new Sandbox();
    sandboxes.push(local);
    const sshd = (await startSshd(join(local.dir, "ssh")))!;
    const remoteSocket = join(local.dir, "remote-run", "t4a.sock");
    const host = `ssh://${process.env.USER ?? "root"}@127.0.0.1:${sshd.port}`;
    // The library reads these as the CLI does: ssh with the test's config, the "remote" t4a with a socket of its own.
    const saved = {
      ssh: process.env.T4A_SSH_COMMAND,
      remote: process.env.T4A_REMOTE_T4A,
      config: process.env.XDG_CONFIG_HOME,
    };
    process.env.T4A_SSH_COMMAND = `ssh -F ${sshd.config}`;
    process.env.T4A_REMOTE_T4A = `env T4A_SOCKET=${remoteSocket} ${BIN}`;
    process.env.XDG_CONFIG_HOME = join(local.dir, "config");
    try {
      expectScenario(await scenario(connect, T4aError, { host, socket: local.socket }));
      expect(existsSync(remoteSocket)).toBe(true); // it ran there, not here
      expect((await local.run(["info"])).code).not.toBe(0);

      await local.ok(["hosts", "add", "far", host]);
      const remote = await connect({ host: "far", socket: local.socket });
      const { id } = await remote.create({
        name: "far-one",
        cmd_args: ["sh", "-c", "read x; echo far-$((x+2)); exec sleep 60"],
      });
      remote.close();
      const t4a = await connect({ socket: local.socket, t4a: BIN });
      try {
        const waiting = t4a.wait({ id: `far:${id}`, text: "far-42", timeout_ms: 30_000 });
        await t4a.send({ id: `far:${id}`, input: "40\n" });
        expect((await waiting).condition).toBe("text");
        expect((await t4a.text({ id: `far:${id}` })).lines.join("\n")).toContain("far-42");
        await t4a.kill({ id: `far:${id}` });
        const unknown = await t4a.text({ id: "nowhere:t1" }).catch((error: unknown) => error);
        expect(unknown).toBeInstanceOf(T4aError);
        expect(unknown).toMatchObject({ code: "invalid_params", message: expect.stringContaining("hosts.json") });
      } finally {
        t4a.close();
      }
    } finally {
      for (const [key, value] of [
        ["T4A_SSH_COMMAND", saved.ssh],
        ["T4A_REMOTE_T4A", saved.remote],
        ["XDG_CONFIG_HOME", saved.config],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      Bun.spawnSync([BIN, "shutdown"], { env: { ...local.env, T4A_SOCKET: remoteSocket } });
      sshd.stop();
    }
  },
  120_000,
);
