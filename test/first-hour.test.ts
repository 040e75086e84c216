// Issue 62's rough edges, each as a new user met it in the first hour: the help, the waits, the
// event stream, the names of a fleet's hosts, a snapshot of an ended program, the page's labels.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BIN, Sandbox, waitFor } from "./harness.ts";
import { SSHD, startSshd } from "./fixtures/sshd.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(async () => {
  await sandbox.cleanup();
});

async function shellAtPrompt(): Promise<string> {
  const id = await sandbox.ok(["create", "--", "bash", "--norc"]);
  await sandbox.ok(["wait", id, "--input", "--timeout", "20s"]);
  return id;
}

test("edge 8: a text wait that times out on text already on screen says so, and --screen matches it", async () => {
  const id = await shellAtPrompt();
  await sandbox.ok(["send", id, "echo $((6*7))-done\\n"]);
  await waitFor(async () => (await sandbox.ok(["text", id])).includes("\n42-done"), 10_000, "the output");
  for (const condition of [
    ["--text", "42-done"],
    ["--regex", "^4[0-9]-done$"],
  ]) {
    const late = await sandbox.run(["wait", id, ...condition, "--timeout", "300ms"]);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain("nothing matched within 300 ms");
    expect(late.stderr).toContain("is on the screen already");
    expect(late.stderr).toContain("--screen");
    expect(await sandbox.ok(["wait", id, ...condition, "--screen", "--timeout", "5s"])).toBe("42-done");
  }
  // The typed echo is never a match, --screen or not: a line typed and not run stays unmatched.
  await sandbox.ok(["send", id, "echo never-run-$((1))"]);
  const echo = await sandbox.run(["wait", id, "--text", "never-run", "--screen", "--timeout", "300ms"]);
  expect(echo.code).toBe(1);
  expect(echo.stderr).not.toContain("on the screen already");
  // Text that is nowhere on screen times out as before, with no hint.
  const absent = await sandbox.run(["wait", id, "--text", "not-there-at-all", "--timeout", "300ms"]);
  expect(absent.stderr.trim()).toBe("t4a: nothing matched within 300 ms");
  await sandbox.ok(["kill", id]);
});

test("t4a events ends once its reader has gone (`t4a events | head -n 1`)", async () => {
  const id = await shellAtPrompt();
  const events = Bun.spawn(["bash", "-c", `"${BIN}" events ${id} | head -n 1`], {
    env: sandbox.env,
    stdout: "pipe",
    stderr: "pipe",
  });
  // head takes the first event and leaves; the next events find the pipe closed.
  await waitFor(
    async () => {
      await sandbox.ok(["send", id, "true\\n"]);
      return events.exitCode !== null;
    },
    15_000,
    "t4a events to end after head left",
  );
  expect(await new Response(events.stdout).text()).toContain('"terminal"');
  await sandbox.ok(["kill", id]);
});

test("edge 9: a snapshot of a program that has exited shows no input where its cursor was left", async () => {
  const id = await sandbox.ok(["create", "--", "bash", "-c", "echo 'Name: '; echo all done"]);
  await sandbox.ok(["wait", id, "--exit", "--timeout", "20s"]);
  const shown = await sandbox.ok(["snapshot", id]);
  expect(shown).toContain("Name:");
  expect(shown).toContain("all done");
  expect(shown).not.toContain("input");
  expect(shown).not.toContain("(cursor)");
  // A live program at the same kind of prompt still has its input.
  const live = await sandbox.ok(["create", "--", "bash", "-c", "read -p 'Name: ' x"]);
  await sandbox.ok(["wait", live, "--input", "--timeout", "20s"]);
  // (A screen this small is given as its text, the field with the cursor named in the header: issue 59.)
  expect(await sandbox.ok(["snapshot", live])).toMatch(/input "Name" \[e1\] \(cursor\)|cursor 0:6 in e1/);
  await sandbox.ok(["kill", id]);
  await sandbox.ok(["kill", live]);
});

test("edge 7: `t4a agents` gives a custom agent's version only when it prints one, never its first words", async () => {
  const bin = join(sandbox.dir, "agent-bin");
  const config = join(sandbox.dir, "agent-config");
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(config, "t4a"), { recursive: true });
  // One knows no --version and greets (a TUI would draw its first screen); one prints its version.
  writeFileSync(join(bin, "greeter"), "#!/bin/sh\necho 'Welcome to greeter: what shall we build today?'\n");
  writeFileSync(join(bin, "versioned"), "#!/bin/sh\necho 'versioned 1.4.2 (build 7)'\n");
  chmodSync(join(bin, "greeter"), 0o755);
  chmodSync(join(bin, "versioned"), 0o755);
  writeFileSync(
    join(config, "t4a", "agents.json"),
    JSON.stringify({ greeter: { cli: "greeter" }, versioned: { cli: "versioned" } }),
  );
  const env = { ...sandbox.env, PATH: `${bin}:${process.env.PATH}`, XDG_CONFIG_HOME: config };
  const child = Bun.spawn([BIN, "agents", "--json"], { env, stdout: "pipe", stderr: "pipe" });
  const reply = JSON.parse(await new Response(child.stdout).text()) as {
    agents: Array<{ name: string; installed: boolean; version: string | null }>;
  };
  const byName = new Map(reply.agents.map((agent) => [agent.name, agent]));
  expect(byName.get("greeter")).toMatchObject({ installed: true, version: null });
  expect(byName.get("versioned")).toMatchObject({ installed: true, version: "1.4.2" });
});

test.if(SSHD !== undefined)(
  "edge 6: a host's name from `t4a hosts add` works wherever a host is taken: --host, T4A_HOST, doctor --host, remote install",
  async () => {
    const sshd = (await startSshd(join(sandbox.dir, "ssh-box")))!;
    const config = join(sandbox.dir, "box-config");
    const remoteSocket = join(sshd.dir, "home", "run", "t4a.sock");
    // The far end's `t4a`: this binary on a socket in that host's home, as test/fleet.test.ts has it.
    writeFileSync(join(sshd.dir, "home", "t4a"), `#!/bin/sh\nT4A_SOCKET="$HOME/run/t4a.sock" exec ${BIN} "$@"\n`);
    chmodSync(join(sshd.dir, "home", "t4a"), 0o755);
    const env = { ...sandbox.env, XDG_CONFIG_HOME: config, T4A_REMOTE_T4A: '"$HOME/t4a"', T4A_CONNECT_TIMEOUT: "20" };
    const t4a = async (args: string[], extra: Record<string, string> = {}) => {
      const child = Bun.spawn([BIN, ...args], { env: { ...env, ...extra }, stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      return { stdout: stdout.trim(), stderr: stderr.trim(), code };
    };
    try {
      const user = process.env.USER ?? "root";
      // The ssh options of the host's own (its config: key, known hosts) ride in hosts.json only.
      expect((await t4a(["hosts", "add", "box", `${user}@127.0.0.1:${sshd.port}`, "--", "-F", sshd.config])).code).toBe(
        0,
      );
      const created = await t4a(["--host", "box", "create", "--name", "far", "--", "bash", "--norc"]);
      expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: "" });
      expect(created.stdout).toBe("far");
      expect((await t4a(["list"], { T4A_HOST: "box" })).stdout).toContain("far");
      expect((await t4a(["text", "box:far"])).code).toBe(0);
      const doctor = await t4a(["doctor", "--host", "box", "--json"]);
      const hostCheck = (JSON.parse(doctor.stdout).checks as Array<{ name: string; ok: boolean }>).find((check) =>
        check.name.startsWith("host "),
      );
      expect(hostCheck).toMatchObject({ ok: true });
      const installed = await t4a(["remote", "install", "box", "--from", BIN]);
      expect({ code: installed.code, said: installed.stderr }).toMatchObject({ code: 0 });
      expect(installed.stderr + installed.stdout).toContain("installed");
      expect((await t4a(["--host", "box", "kill", "far"])).code).toBe(0);
      // A target that is no name in hosts.json is still an ssh target as before.
      const unnamed = await t4a(["--host", "no-such-host-name.invalid", "list"]);
      expect(unnamed.code).toBe(3);
    } finally {
      Bun.spawnSync([BIN, "shutdown"], { env: { ...env, T4A_SOCKET: remoteSocket } });
      // The ssh master kept for 60 s ends now rather than outlive the test.
      for (const master of readdirSync(dirname(sandbox.socket)).filter((name) => name.startsWith("ssh-")))
        Bun.spawnSync(["ssh", "-o", `ControlPath=${join(dirname(sandbox.socket), master)}`, "-O", "exit", "unused"]);
      sshd.stop();
    }
  },
  120_000,
);

test("t4a events --all ends once its reader has gone, as t4a events does", async () => {
  const id = await shellAtPrompt();
  const config = join(sandbox.dir, "no-hosts-config");
  mkdirSync(config, { recursive: true });
  const events = Bun.spawn(["bash", "-c", `"${BIN}" events --all | head -n 1`], {
    env: { ...sandbox.env, XDG_CONFIG_HOME: config },
    stdout: "pipe",
    stderr: "pipe",
  });
  await waitFor(
    async () => {
      await sandbox.ok(["send", id, "true\\n"]);
      return events.exitCode !== null;
    },
    15_000,
    "t4a events --all to end after head left",
  );
  expect(await new Response(events.stdout).text()).toContain('"host":"local"');
  expect(await new Response(events.stderr).text()).toBe("");
  await sandbox.ok(["kill", id]);
});

test("a --done wait that begins after its command finished says so when it times out, with the code", async () => {
  const id = await shellAtPrompt();
  await sandbox.ok(["send", id, "(exit 3)\\n"]);
  await sandbox.ok(["wait", id, "--input", "--timeout", "20s"]); // the prompt is back: the command is done
  const late = await sandbox.run(["wait", id, "--done", "--timeout", "300ms"]);
  expect(late.code).toBe(1);
  expect(late.stderr).toContain("nothing matched within 300 ms");
  expect(late.stderr).toContain("had finished already (exit 3)");
  // Something typed since: the hint would be wrong, so there is none.
  await sandbox.ok(["send", id, "sleep 30\\n"]);
  const running = await sandbox.run(["wait", id, "--done", "--timeout", "300ms"]);
  expect(running.stderr.trim()).toBe("t4a: nothing matched within 300 ms");
  await sandbox.ok(["kill", id]);
});
