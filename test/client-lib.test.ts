// The client library (`import { connect } from "t4a"`, src/lib/) against the real daemon: one
// scenario (fixtures/client-lib/scenario.mjs) run under Bun from src/, then under Node from the
// library as the package ships it (scripts/lib.ts), and a TypeScript consumer typechecked by tsc
// against the shipped .d.mts. The library starts the daemon itself (no Sandbox.start()).
import { afterAll, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildLibrary, LIBRARY_FIELDS } from "../scripts/lib.ts";
import { connect, T4aError } from "../src/lib/index.ts";
import { scenario, type Seen } from "./fixtures/client-lib/scenario.mjs";
import { BIN, Sandbox } from "./harness.ts";

const root = resolve(import.meta.dir, "..");
const fixtures = join(import.meta.dir, "fixtures", "client-lib");
const sandboxes: Sandbox[] = [];
const dir = mkdtempSync(join(tmpdir(), "t4a-client-lib-"));

afterAll(async () => {
  for (const sandbox of sandboxes) await sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** What every run of the scenario must have seen. */
export function expectScenario(seen: Seen): void {
  expect(seen.id).toBe("lib");
  expect(seen.textWhileWaiting).toBe(true); // answered while the wait before it was still waiting
  expect(seen.wait).toBe("text");
  expect(seen.text).toContain("hello-lib");
  expect(seen.exec).toEqual({ output: "42", code: 0, running: false });
  expect(seen.events).toContain("command_done");
  expect(seen.png.isBytes).toBe(true);
  expect(seen.png.magic).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  expect(seen.error).toMatchObject({ isT4aError: true, code: "not_found" });
  expect((seen.error as { message: string }).message).toContain("no-such-terminal");
  expect(seen.listed).not.toContain("lib");
}

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
  await expect(connect({ socket: sandbox.socket, start: false })).rejects.toThrow(`no daemon answers on ${sandbox.socket}`);
  expect((await sandbox.run(["info"])).code).not.toBe(0);
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
  const node = Bun.spawnSync(["node", "run.mjs", BIN], { cwd: project, env: sandbox.env, stdout: "pipe", stderr: "pipe" });
  expect(node.stderr.toString()).toBe("");
  expect(node.exitCode).toBe(0);
  expectScenario(JSON.parse(node.stdout.toString()));

  writeFileSync(
    join(project, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true, types: [], lib: ["es2022"] }, files: ["consumer.ts", "globals.d.ts"] }),
  );
  // A tiny declaration of Node's console: the consumer needs no @types/node.
  writeFileSync(join(project, "globals.d.ts"), "declare const console: { log(...args: unknown[]): void };\n");
  writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module", private: true }));
  const tsc = Bun.spawnSync([join(root, "node_modules", ".bin", "tsc"), "-p", "."], { cwd: project, stdout: "pipe", stderr: "pipe" });
  expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
  expect(tsc.exitCode).toBe(0);
  expect(existsSync(join(pkg, "types", "lib", "wire.d.mts"))).toBe(true);
}, 180_000);
