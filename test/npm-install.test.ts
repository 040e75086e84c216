// The npm packages as a user gets them: `npm run pack` builds them from dist/release, a throwaway
// verdaccio (temp dir, random port, no uplinks: nothing leaves the machine) serves them, and
// `npm i -g` into an empty prefix and `npx` run them with nothing but Node and npm on PATH; a
// project's `npm install t4a` gives Node the client library and tsc its types.
// Skipped, saying why, when verdaccio (a devDependency) is not installed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { TARGETS } from "../scripts/pack.ts";
import { isAlive, waitFor } from "./harness.ts";
import { expectConsumerTypechecks, expectScenario } from "./fixtures/client-lib/check.ts";

const root = resolve(import.meta.dir, "..");
const verdaccio = join(root, "node_modules", "verdaccio", "bin", "verdaccio");
const musl =
  process.platform === "linux" && existsSync("/usr/bin/ldd") && readFileSync("/usr/bin/ldd", "utf8").includes("musl");
const host = `${process.platform}-${process.arch}${musl ? "-musl" : ""}`;
// On Linux the other C library's package is published too: npm must leave it out (`libc`).
const other = process.platform === "linux" ? (musl ? host.replace(/-musl$/, "") : `${host}-musl`) : undefined;
const skip = !TARGETS.includes(host)
  ? `no t4a build for ${host}`
  : existsSync(verdaccio)
    ? undefined
    : "verdaccio is not installed (npm ci installs it: a devDependency)";
if (skip) console.log(`skipped: ${skip}`);

const dir = mkdtempSync(join(tmpdir(), "t4a-npm-"));
const prefix = join(dir, "prefix");
const t4a = join(prefix, "bin", "t4a");
const npmrc = join(dir, "npmrc");
let registry = "";
let server: ReturnType<typeof Bun.spawn> | undefined;
const figures: string[] = [];

/** Only Node's own directory and the system's on PATH: what a machine with just Node and npm has. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  const node = Bun.which("node", {
    PATH: (process.env.PATH ?? "")
      .split(":")
      .filter((p) => !p.includes("node_modules"))
      .join(":"),
  });
  return {
    PATH: `${dirname(node ?? "/usr/bin/node")}:/usr/bin:/bin`,
    HOME: join(dir, "home"),
    SHELL: "/bin/sh",
    TERM: "xterm-256color",
    npm_config_userconfig: npmrc,
    npm_config_cache: join(dir, "npm-cache"),
    npm_config_registry: registry,
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    T4A_SOCKET: join(dir, "run", "t4a.sock"),
    ...extra,
  };
}

function run(argv: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const done = Bun.spawnSync(argv, {
    cwd: options.cwd ?? dir,
    env: options.env ?? env(),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: done.exitCode, stdout: done.stdout.toString(), stderr: done.stderr.toString() };
}

function ok(argv: string[], options: { cwd?: string; env?: Record<string, string> } = {}): string {
  const result = run(argv, options);
  if (result.code !== 0) throw new Error(`${argv.join(" ")} exited ${result.code}: ${result.stderr}${result.stdout}`);
  return result.stdout.trim();
}

beforeAll(async () => {
  if (skip) return;
  mkdirSync(join(dir, "home"));
  mkdirSync(join(dir, "run"), { mode: 0o700 });
  // The host's release files, built into the test's own directory: dist/release is `npm run release`'s,
  // and other tests build and read release files at the same time (the suite runs files in parallel).
  const release = join(dir, "release");
  for (const target of other ? [host, other] : [host])
    ok([process.execPath, "build.ts", "--target", target, "--out", release], {
      cwd: root,
      env: process.env as Record<string, string>,
    });
  let started = performance.now();
  // Into the test's own directory: dist/npm keeps what `npm run pack` left there.
  ok(
    [
      process.execPath,
      "scripts/pack.ts",
      "--release",
      release,
      "--out",
      join(dir, "npm"),
      "--target",
      host,
      ...(other ? ["--target", other] : []),
    ],
    { cwd: root, env: process.env as Record<string, string> },
  );
  figures.push(`pack ${Math.round(performance.now() - started)} ms`);

  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  registry = `http://127.0.0.1:${port}/`;
  writeFileSync(
    join(dir, "verdaccio.yaml"),
    [
      `storage: ${join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "    max_users: -1",
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $all",
      "max_body_size: 500mb",
      "web:",
      "  enable: false",
      "log: { type: stdout, format: pretty, level: error }",
      "",
    ].join("\n"),
  );
  // npm publish wants a token for the registry; this verdaccio takes anyone's.
  writeFileSync(npmrc, `//127.0.0.1:${port}/:_authToken=test\n`);
  server = Bun.spawn(["node", verdaccio, "-c", join(dir, "verdaccio.yaml"), "-l", `127.0.0.1:${port}`], {
    cwd: dir,
    stdout: "ignore",
    stderr: "ignore",
  });
  await waitFor(
    async () => (await fetch(`${registry}-/ping`).catch(() => undefined))?.ok,
    30_000,
    "verdaccio to answer",
  );

  started = performance.now();
  const tarballs = readdirSync(join(dir, "npm")).filter((name) => name.endsWith(".tgz"));
  for (const tarball of tarballs) {
    ok(["npm", "publish", join(dir, "npm", tarball)]);
    const bytes = Bun.file(join(dir, "npm", tarball)).size;
    figures.push(`${tarball} ${bytes > 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} kB`}`);
  }
  figures.push(`publish ${Math.round(performance.now() - started)} ms`);
  // Two builds, a pack of every target and a publish of each: past five minutes on a loaded machine.
}, 600_000);

afterAll(async () => {
  if (existsSync(t4a)) {
    const info = run([t4a, "info", "--json"]);
    run([t4a, "shutdown"]);
    const pid = info.code === 0 ? (JSON.parse(info.stdout).pid as number) : undefined;
    if (pid) await waitFor(() => !isAlive(pid), 5000).catch(() => process.kill(pid, "SIGKILL"));
  }
  server?.kill();
  await server?.exited;
  console.log(`npm install figures: ${figures.join(", ")}`);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!!skip)("npm packages from a local registry", () => {
  test("npm i -g t4a installs the launcher and only this machine's platform package; t4a create/send/text/kill work", async () => {
    const started = performance.now();
    ok(["npm", "install", "-g", "--prefix", prefix, "t4a"]);
    figures.push(`npm i -g ${Math.round(performance.now() - started)} ms`);
    const installed = join(prefix, "lib", "node_modules", "t4a", "node_modules", "@t4a");
    expect(readdirSync(installed)).toEqual([host]); // not the other C library's, nor another OS's
    expect(ok([t4a, "--version"])).toBe(`t4a ${pkg.version}`);

    const id = ok([t4a, "create", "--", "sh", "-c", "read line; echo got-$line; exec sleep 60"]);
    ok([t4a, "send", id, "abc", "-k", "Enter"]);
    await waitFor(() => ok([t4a, "text", id]).includes("got-abc"), 20_000, "the program to print what was typed");
    ok([t4a, "kill", id]);
    expect(ok([t4a, "list"])).not.toContain(`${id}\t`);
    // An exit code comes back as the binary gave it (3: not found, no daemon, …).
    const missing = run([t4a, "text", "t999"]);
    expect(missing.code).toBe(run([join(installed, host, "bin", "t4a"), "text", "t999"]).code);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("t999");
  }, 180_000);

  test("a signal sent to the launcher reaches t4a, and the launcher dies of it", async () => {
    const id = ok([t4a, "create", "--", "sleep", "60"]);
    const launcher = Bun.spawn([t4a, "wait", id, "--text", "never-printed", "--timeout", "60s"], {
      env: env(),
      stdout: "ignore",
      stderr: "ignore",
    });
    const children = `/proc/${launcher.pid}/task/${launcher.pid}/children`;
    const child = await waitFor(
      () => (existsSync(children) ? Number(readFileSync(children, "utf8").trim().split(" ")[0]) : 0),
      10_000,
      "the launcher to start t4a",
    );
    launcher.kill("SIGTERM");
    await launcher.exited;
    expect(launcher.signalCode).toBe("SIGTERM");
    await waitFor(() => !isAlive(child), 30_000, "t4a to end with its launcher");
    ok([t4a, "kill", id]);
  }, 60_000);

  test("npx t4a --version, and npx -y t4a mcp answers initialize and tools/list on stdio", async () => {
    const npxEnv = env({ npm_config_cache: join(dir, "npx-cache") });
    let started = performance.now();
    expect(ok(["npx", "-y", "t4a", "--version"], { env: npxEnv })).toBe(`t4a ${pkg.version}`);
    figures.push(`first npx ${Math.round(performance.now() - started)} ms`);
    started = performance.now();
    const mcp = Bun.spawn(["npx", "-y", "t4a", "mcp"], {
      cwd: dir,
      env: npxEnv,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const lines = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "npm-test", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ];
    mcp.stdin.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    await mcp.stdin.flush();
    const reader = mcp.stdout.getReader();
    let text = "";
    const replies: { id?: number; result?: { tools?: { name: string }[]; serverInfo?: { name: string } } }[] = [];
    while (!replies.some((reply) => reply.id === 2)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
      const complete = text.split("\n");
      text = complete.pop() ?? "";
      for (const line of complete) if (line.trim()) replies.push(JSON.parse(line));
    }
    figures.push(`npx mcp to tools/list ${Math.round(performance.now() - started)} ms`);
    mcp.stdin.end();
    const code = await mcp.exited;
    expect(replies.find((reply) => reply.id === 1)?.result?.serverInfo?.name).toBe("t4a");
    const tools = replies.find((reply) => reply.id === 2)?.result?.tools?.map((tool) => tool.name) ?? [];
    expect(tools).toContain("terminal_create");
    expect(tools).toContain("terminal_read");
    expect(code).toBe(0);
  }, 120_000);

  test("the launcher looks nowhere but its own install: not the cwd, not NODE_PATH; without its platform package it names it", () => {
    const bare = join(dir, "bare");
    ok(["npm", "install", "-g", "--prefix", bare, "--omit=optional", "t4a"]);
    // npm -g may install optional dependencies all the same: the platform package is removed here.
    const nested = join(bare, "lib", "node_modules", "t4a", "node_modules");
    if (existsSync(nested))
      console.log(
        `npm install -g --omit=optional installed ${readdirSync(join(nested, "@t4a")).join(", ")} all the same`,
      );
    rmSync(nested, { recursive: true, force: true });
    // A package of the right name and version in the cwd's node_modules and on NODE_PATH.
    const planted = join(dir, "planted");
    const fake = join(planted, "node_modules", "@t4a", host);
    mkdirSync(join(fake, "bin"), { recursive: true });
    writeFileSync(join(fake, "package.json"), JSON.stringify({ name: `@t4a/${host}`, version: pkg.version }));
    writeFileSync(join(fake, "bin", "t4a"), `#!/bin/sh\ntouch ${join(dir, "planted-ran")}\n`);
    chmodSync(join(fake, "bin", "t4a"), 0o755);
    const result = run([join(bare, "bin", "t4a"), "--version"], {
      cwd: planted,
      env: env({ NODE_PATH: join(planted, "node_modules") }),
    });
    expect(existsSync(join(dir, "planted-ran"))).toBe(false);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`@t4a/${host}@${pkg.version}`);
    expect(result.stderr).toContain("--omit=optional");
  }, 120_000);

  test("npm install t4a in a project: Node runs the client library's scenario with `import { connect } from \"t4a\"` (the package's own t4a starts the daemon), and tsc checks a TypeScript consumer against its types", () => {
    const project = join(dir, "lib-project");
    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "orchestrator", private: true, type: "module" }),
    );
    ok(["npm", "install", "t4a"], { cwd: project });
    for (const file of ["scenario.mjs", "run.mjs", "consumer.ts"])
      copyFileSync(join(root, "test", "fixtures", "client-lib", file), join(project, file));
    // A socket of its own: the daemon the launcher's t4a starts is this test's.
    const libEnv = env({ T4A_SOCKET: join(dir, "run-lib", "t4a.sock") });
    try {
      expectScenario(JSON.parse(ok(["node", "run.mjs"], { cwd: project, env: libEnv })));
    } finally {
      run([join(project, "node_modules", ".bin", "t4a"), "shutdown"], { cwd: project, env: libEnv });
    }
    expectConsumerTypechecks(project, libEnv);
  }, 120_000);

  test("Bun runs the launcher too", () => {
    expect(ok([process.execPath, join(prefix, "lib", "node_modules", "t4a", "bin", "t4a.js"), "--version"])).toBe(
      `t4a ${pkg.version}`,
    );
  });
});
