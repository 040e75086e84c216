// The fleet end to end: hosts.json (`t4a hosts`), `HOST:ID` routed over ssh, `list --all`,
// `wait --any --all` and `events --all`, against four real sshd's on localhost (each "host" is its
// own sshd with a home of its own, whose `t4a` runs a daemon on a socket in that home), a host
// that does not answer, and a hostile one whose replies carry terminal escapes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BIN, Sandbox, waitFor } from "./harness.ts";
import { SSHD, startSshd, type LocalSshd } from "./fixtures/sshd.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const NAMES = ["a", "b", "c"] as const;
let sandbox: Sandbox;
const sshds: Record<string, LocalSshd> = {};
const config = () => join(sandbox.dir, "config");
const remoteSocket = (name: string) => join(sshds[name]!.dir, "home", "run", "t4a.sock");
const user = process.env.USER ?? "root";

// A remote that answers with escapes in every string (an id, a title, a wait's line, an error).
const HOSTILE = `#!/usr/bin/env python3
import sys, json
sys.stderr.write("t4a dial-stdio: joined\\n"); sys.stderr.flush()
for line in sys.stdin:
    request = json.loads(line)
    cmd = request.get("cmd")
    if cmd == "list":
        reply = {"ok": True, "terminals": [{"id": "evil\\x1b]0;pwned\\x07", "cols": 80, "rows": 24, "pid": 1, "alive": True,
                 "title": "\\x1b[2J\\x1b]52;c;QUJD\\x07title", "cmd_args": [], "cwd": "/", "shell_integration": None}]}
    elif cmd == "wait":
        reply = {"ok": True, "condition": "needs", "elapsed_ms": 0, "terminal": "x\\x1b[31m", "why": "failed", "line": "\\x1b]52;c;QUJD\\x07boom"}
    else:
        reply = {"ok": False, "code": "unsupported", "error": "\\x1b[2Jrefused"}
    if "tag" in request: reply["tag"] = request["tag"]
    print(json.dumps(reply), flush=True)
`;

beforeAll(async () => {
  sandbox = new Sandbox();
  const started = await Promise.all(
    [...NAMES, "evil"].map(async (name) => [name, await startSshd(join(sandbox.dir, `ssh-${name}`))] as const),
  );
  if (started.some(([, sshd]) => !sshd)) return;
  for (const [name, sshd] of started) {
    sshds[name] = sshd!;
    // The remote's `t4a`: this binary on a socket in that host's home (T4A_REMOTE_T4A="$HOME/t4a").
    const program = join(sshd!.dir, "home", "t4a");
    writeFileSync(program, name === "evil" ? HOSTILE : `#!/bin/sh\nT4A_SOCKET="$HOME/run/t4a.sock" exec ${BIN} "$@"\n`);
    chmodSync(program, 0o755);
  }
}, 60_000);
afterAll(async () => {
  for (const name of NAMES)
    if (sshds[name]) Bun.spawnSync([BIN, "shutdown"], { env: { ...sandbox.env, T4A_SOCKET: remoteSocket(name) } });
  // The ssh masters kept for 60 s, one per host, end now rather than outlive the test.
  const controlDir = dirname(sandbox.socket);
  const masters = existsSync(controlDir) ? readdirSync(controlDir).filter((name) => name.startsWith("ssh-")) : [];
  for (const master of masters)
    Bun.spawnSync(["ssh", "-o", `ControlPath=${join(controlDir, master)}`, "-O", "exit", "unused"]);
  for (const sshd of Object.values(sshds)) sshd.stop();
  await sandbox.cleanup();
}, 60_000);

const env = (configHome = config()) => ({
  ...sandbox.env,
  XDG_CONFIG_HOME: configHome,
  T4A_REMOTE_T4A: '"$HOME/t4a"',
  T4A_CONNECT_TIMEOUT: "20",
});

async function t4a(args: string[], configHome?: string) {
  const child = Bun.spawn([BIN, ...args], {
    cwd: sandbox.dir,
    env: env(configHome),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

/** `t4a` straight on a host's daemon socket (this machine plays every host). */
const onHost = (name: string, args: string[]) =>
  Bun.spawnSync([BIN, ...args], { env: { ...sandbox.env, T4A_SOCKET: remoteSocket(name) } });

const addHost = async (name: string, configHome?: string) => {
  const sshd = sshds[name]!;
  const added = await t4a(
    ["hosts", "add", name, `ssh://${user}@127.0.0.1:${sshd.port}`, "--", "-F", sshd.config],
    configHome,
  );
  expect(added).toMatchObject({ code: 0, stderr: "" });
};

test.if(SSHD !== undefined)(
  "hosts add, list, rm: a private file in the config directory, names and targets checked",
  async () => {
    for (const name of NAMES) await addHost(name);
    const path = join(config(), "t4a", "hosts.json");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")).hosts)).toEqual(["a", "b", "c"]);
    const listed = await t4a(["hosts", "list"]);
    expect(listed.stdout.split("\n").map((line) => line.split("\t")[0])).toEqual(["a", "b", "c"]);
    expect(listed.stdout).toContain(`\t-F\t${sshds.a!.config}`);
    for (const [name, target] of [
      ["x:y", "h"],
      ["x/y", "h"],
      ["local", "h"],
      ["n".repeat(65), "h"],
      ["ok", "bad host"],
      ["ok", "-oProxyCommand=x"],
    ]) {
      const refused = await t4a(["hosts", "add", "--", name!, target!]);
      expect(refused.code).toBe(2);
    }
    // ssh options must start with an option: a bare word would become the destination or the command.
    expect((await t4a(["hosts", "add", "ok", "h", "--", "evil-destination"])).code).toBe(2);
    await t4a(["hosts", "add", "down", "ssh://nobody@127.0.0.1:1"]);
    expect((await t4a(["hosts", "rm", "down"])).code).toBe(0);
    expect((await t4a(["hosts", "rm", "down"])).stderr).toContain("not in");
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")).hosts)).toEqual(["a", "b", "c"]);
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "HOST:ID reaches that host's terminal: text, send, wait, run, attach, kill; an unknown host names hosts.json",
  async () => {
    expect(onHost("a", ["create", "--name", "far", "--", "bash", "--norc", "--noprofile"]).exitCode).toBe(0);
    expect((await t4a(["run", "a:far", "--", "echo on-a-$((40+2))"])).stdout).toBe("on-a-42");
    expect((await t4a(["send", "a:far", "echo sent-to-a\\n"])).code).toBe(0);
    await waitFor(async () => (await t4a(["text", "a:far"])).stdout.includes("\nsent-to-a"), 10_000, "the text on a");
    // It is a's terminal: b has none of that name, and nor has this machine.
    expect((await t4a(["text", "b:far"])).stderr).toContain('terminal "far" not found');
    expect((await t4a(["text", "far"])).code).not.toBe(0);
    // The wait sees only output after it began, which a send may beat: send until it answers.
    let answered = false;
    const waited = t4a(["wait", "a:far", "--text", "later-on-a", "--timeout", "30s"]).finally(() => (answered = true));
    await waitFor(
      async () => answered || ((await t4a(["send", "a:far", "echo later-on-a\\n"])).code === 0 && answered),
      30_000,
      "the wait on a:far to see a send",
    );
    expect((await waited).code).toBe(0);
    // attach a:far, inside a local PTY (a session of the local daemon): its screen, and keys back.
    await sandbox.request({ cmd: "create", name: "viewer", cmd_args: [BIN, "attach", "a:far"], env: env() });
    await waitFor(
      async () => (await sandbox.screen("viewer")).includes("later-on-a"),
      20_000,
      "a's screen in the local attach",
    );
    await sandbox.ok(["send", "viewer", "echo typed-into-a\\r"]);
    await waitFor(
      async () => (await t4a(["text", "a:far"])).stdout.includes("\ntyped-into-a"),
      20_000,
      "keys through attach a:far",
    );
    await sandbox.ok(["send", "viewer", "\\x1c"]);
    await sandbox.request({ cmd: "kill", id: "viewer" });
    // batch is one connection, one daemon: a host's id there is refused, saying so.
    const batch = Bun.spawn([BIN, "batch"], {
      env: env(),
      stdin: new TextEncoder().encode("text a:far\nlist --all\n"),
      stdout: "pipe",
    });
    const lines = (await new Response(batch.stdout).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.ok, line.code])).toEqual([
      [false, "unsupported"],
      [false, "unsupported"],
    ]);
    expect(lines[0].error).toContain('"a:far" names a host');
    const unknown = await t4a(["text", "nowhere:t1"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown host "nowhere"');
    expect(unknown.stderr).toContain(join(config(), "t4a", "hosts.json"));
    // `local:` is this machine's daemon; a name with ':' is no longer a terminal name.
    await sandbox.ok(["create", "--name", "here", "--", "bash", "--norc", "--noprofile"]);
    expect((await t4a(["run", "local:here", "--", "echo at-home"])).stdout).toBe("at-home");
    expect((await sandbox.run(["create", "--name", "x:y", "--", "true"])).code).not.toBe(0);
    expect((await t4a(["kill", "a:far"])).code).toBe(0);
    await sandbox.ok(["kill", "here"]);
    expect(onHost("a", ["list"]).stdout.toString()).toBe("");
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "list --all: every host's terminals beside the local ones, a host that does not answer is one line",
  async () => {
    // Programs that need nobody (a shell at its prompt reads its terminal: it would need you).
    for (const name of NAMES)
      expect(onHost(name, ["create", "--name", `on-${name}`, "--", "sleep", "600"]).exitCode).toBe(0);
    await sandbox.ok(["create", "--name", "here", "--", "sleep", "600"]);
    const plain = await t4a(["list", "--all"]);
    expect(plain).toMatchObject({ code: 0, stderr: "" });
    const rows = plain.stdout.split("\n").map((line) => line.split("\t").slice(0, 2).join(" "));
    expect(rows).toEqual(["local here", "a a:on-a", "b b:on-b", "c c:on-c"]);
    // A host that is off: the others still show, it is named on stderr, and it is no failure.
    const cfg = join(sandbox.dir, "config-down");
    for (const name of NAMES) await addHost(name, cfg);
    await t4a(["hosts", "add", "down", "ssh://nobody@127.0.0.1:1"], cfg);
    const partly = await t4a(["list", "--all", "--json"], cfg);
    expect(partly.code).toBe(0);
    const reply = JSON.parse(partly.stdout);
    expect(reply.terminals.map((t: { id: string; host: string }) => `${t.host} ${t.id}`)).toEqual([
      "local here",
      "a a:on-a",
      "b b:on-b",
      "c c:on-c",
    ]);
    expect(reply.unreachable).toHaveLength(1);
    expect(reply.unreachable[0]).toMatchObject({ host: "down" });
    expect(reply.unreachable[0].error).toMatch(/ssh nobody@127\.0\.0\.1: .*(refused|connect)/i);
    const human = await t4a(["list", "--all"], cfg);
    expect(human.stdout.split("\n")).toHaveLength(4);
    expect(human.stderr).toMatch(/^t4a: down: unreachable: ssh nobody@127\.0\.0\.1/);
    // --needs across hosts: only b's failed exit.
    expect(onHost("b", ["create", "--name", "broke", "--", "bash", "-c", "exit 3"]).exitCode).toBe(0);
    await waitFor(
      async () => (await t4a(["list", "--all", "--needs"])).stdout.startsWith("b\tb:broke\t"),
      10_000,
      "b's failed exit in list --all --needs",
    );
    expect(onHost("b", ["kill", "broke"]).exitCode).toBe(0);
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "wait --any --all: the first terminal on any host that needs you, as HOST:ID",
  async () => {
    // Nothing needs anyone yet: the wait blocks until c's program fails.
    // Whether c's program fails before or after the wait reaches c, the wait answers it: level-triggered.
    let answered = false;
    const waiting = t4a(["wait", "--any", "--all", "--timeout", "60s"]).finally(() => (answered = true));
    expect(onHost("a", ["list"]).exitCode).toBe(0);
    expect(answered).toBe(false);
    expect(onHost("c", ["create", "--name", "fails", "--", "bash", "-c", "exit 7"]).exitCode).toBe(0);
    const waited = await waiting;
    expect(waited).toEqual({ code: 0, stdout: "c:fails\tfailed\texited 7", stderr: "" });
    // Level-triggered, as without --all: it is still there, so the next wait answers at once.
    expect((await t4a(["wait", "--any", "--all", "--json"])).stdout).toContain('"terminal":"c:fails"');
    expect(onHost("c", ["kill", "fails"]).exitCode).toBe(0);
    // Every wait timing out is a timeout, exit 1, as without --all.
    const none = await t4a(["wait", "--any", "--all", "--timeout", "1s"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no terminal needed a person");
    expect((await t4a(["wait", "--all", "--idle"])).code).toBe(2);
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "events --all: every host's events on one stream, each with its host",
  async () => {
    const events = Bun.spawn([BIN, "events", "--all"], { env: env(), stdout: "pipe", stderr: "pipe" });
    try {
      let seen = "";
      void (async () => {
        for await (const chunk of events.stdout) seen += new TextDecoder().decode(chunk);
      })();
      const bellLine = () => seen.split("\n").find((line) => line.includes('"event":"bell"'));
      // A bell from a new session on b, again until one arrives: the first may ring before the
      // stream has joined b's daemon.
      let rung = 0;
      await waitFor(
        () =>
          bellLine() ??
          void onHost("b", ["create", "--name", `ring${++rung}`, "--", "bash", "-c", "printf '\\a'; exec sleep 600"]),
        30_000,
        "a bell from b",
      );
      expect(JSON.parse(bellLine()!)).toMatchObject({
        event: "bell",
        host: "b",
        terminal: expect.stringMatching(/^b:ring\d+$/),
      });
    } finally {
      events.kill();
      await events.exited;
    }
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "events --all through a dropped link: it reconnects and resumes, each event made meanwhile once",
  async () => {
    const events = Bun.spawn([BIN, "events", "--all"], { env: env(), stdout: "pipe", stderr: "pipe" });
    let seen = "";
    let said = "";
    void (async () => {
      for await (const chunk of events.stdout) seen += new TextDecoder().decode(chunk);
    })();
    void (async () => {
      for await (const chunk of events.stderr) said += new TextDecoder().decode(chunk);
    })();
    const lines = () =>
      seen
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { event: string; host: string; terminal?: string; seq?: number });
    try {
      let rung = 0;
      await waitFor(
        () =>
          lines().some((e) => e.host === "b" && e.event === "created") ||
          void onHost("b", ["create", "--name", `before${++rung}`, "--", "sleep", "600"]),
        30_000,
        "the stream to join b",
      );
      // The link drops: b's ssh master is killed, and b's sshd takes no new login until let go,
      // so what b does now happens while the stream cannot reach it.
      const restore = await dropLink("b");
      try {
        await waitFor(() => said.includes("b: "), 30_000, "the stream to see b's link drop");
        for (let i = 1; i <= 3; i++)
          expect(
            onHost("b", ["create", "--name", `during${i}`, "--", "bash", "-c", "printf '\\a'; exec sleep 600"])
              .exitCode,
          ).toBe(0);
      } finally {
        restore();
      }
      await waitFor(
        () =>
          ["during1", "during2", "during3"].every((n) =>
            lines().some((e) => e.terminal === `b:${n}` && e.event === "bell"),
          ),
        60_000,
        "the events made during the drop",
      );
      // And the stream goes on live after the replay.
      expect(onHost("b", ["create", "--name", "after", "--", "sleep", "600"]).exitCode).toBe(0);
      await waitFor(() => lines().some((e) => e.terminal === "b:after"), 30_000, "a live event after the resume");
      const fromB = lines().filter((e) => e.host === "b");
      for (const n of ["during1", "during2", "during3", "after"])
        expect(fromB.filter((e) => e.terminal === `b:${n}` && e.event === "created")).toHaveLength(1);
      const seqs = fromB.map((e) => e.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(fromB.some((e) => e.event === "gap")).toBe(false);
    } finally {
      events.kill();
      await events.exited;
      for (const name of onHost("b", ["list", "--json"])
        .stdout.toString()
        .match(/"id":"(before|during|after)\d*"/g) ?? [])
        onHost("b", ["kill", name.slice(6, -1)]);
    }
  },
  120_000,
);

/** A host's link dropped and kept down: its ssh master killed, its sshd stopped (no new login) until the answer is called. */
async function dropLink(name: string): Promise<() => void> {
  const sshd = sshds[name]!;
  const sshdPid = Number(readFileSync(join(sshd.dir, "sshd.pid"), "utf8"));
  // The master may be starting again still (the last test killed the one before): asked until it answers.
  let master = 0;
  let said = "";
  await waitFor(
    () => {
      [master, said] = masterOf(sshd);
      return master > 0;
    },
    30_000,
    `ssh -O check to name ${name}'s master`,
  ).catch(() => undefined);
  expect(master, `ssh -O check: ${said}`).toBeGreaterThan(0);
  process.kill(sshdPid, "SIGSTOP");
  process.kill(master, "SIGKILL");
  return () => process.kill(sshdPid, "SIGCONT");
}

/** The pid of the ssh master to a host (0 when none answers), and what ssh -O check said. */
function masterOf(sshd: (typeof sshds)[string]): [number, string] {
  const check = Bun.spawnSync(
    [
      "ssh",
      "-F",
      sshd.config,
      "-o",
      `ControlPath=${dirname(sandbox.socket)}/ssh-%C`,
      "-p",
      String(sshd.port),
      "-O",
      "check",
      `${user}@127.0.0.1`,
    ],
    { stderr: "pipe" },
  );
  return [Number(/pid=(\d+)/.exec(check.stderr.toString())?.[1] ?? 0), check.stderr.toString().trim()];
}

/** The event subscribers of a host's daemon: a wait --any in place there is one. */
const waitsOn = (name: string): number => JSON.parse(onHost(name, ["info", "--json"]).stdout.toString()).subscribers;

/** A spawned t4a's stdout and stderr as they come. */
function spawnReading(args: string[]) {
  const child = Bun.spawn([BIN, ...args], { env: env(), stdout: "pipe", stderr: "pipe" });
  const out = { stdout: "", stderr: "" };
  void (async () => {
    for await (const chunk of child.stdout) out.stdout += new TextDecoder().decode(chunk);
  })();
  void (async () => {
    for await (const chunk of child.stderr) out.stderr += new TextDecoder().decode(chunk);
  })();
  return { child, out };
}

test.if(SSHD !== undefined)(
  "wait --any --all through a dropped link: it joins again and answers what changed on that host meanwhile",
  async () => {
    const { child, out } = spawnReading(["wait", "--any", "--all", "--timeout", "90s"]);
    try {
      await waitFor(() => waitsOn("b") > 0, 30_000, "the wait to be in place on b");
      const restore = await dropLink("b");
      try {
        await waitFor(() => out.stderr.includes("b: "), 30_000, "the wait to see b's link drop");
        expect(onHost("b", ["create", "--name", "fails-during", "--", "bash", "-c", "exit 7"]).exitCode).toBe(0);
      } finally {
        restore();
      }
      expect(await child.exited).toBe(0);
      expect(out.stdout.trim()).toBe("b:fails-during\tfailed\texited 7");
      expect(out.stderr).toMatch(/^t4a: b: .*; asking again/);
    } finally {
      child.kill();
      onHost("b", ["kill", "fails-during"]);
    }
  },
  120_000,
);

test.if(SSHD !== undefined)(
  "wait --any --all through a dropped link: a need that came and went meanwhile still answers (resumed after the wait's seq)",
  async () => {
    const { child, out } = spawnReading(["wait", "--any", "--all", "--timeout", "90s"]);
    try {
      await waitFor(() => waitsOn("b") > 0, 30_000, "the wait to be in place on b");
      const restore = await dropLink("b");
      try {
        await waitFor(() => out.stderr.includes("b: "), 30_000, "the wait to see b's link drop");
        // It fails and is gone before the wait can join b again: no terminal needs anyone by then.
        expect(onHost("b", ["create", "--name", "came-and-went", "--", "bash", "-c", "exit 9"]).exitCode).toBe(0);
        await waitFor(
          () => onHost("b", ["list", "--json"]).stdout.toString().includes('"exit_code":9'),
          30_000,
          "came-and-went to fail",
        );
        expect(onHost("b", ["kill", "came-and-went"]).exitCode).toBe(0);
      } finally {
        restore();
      }
      expect(await child.exited).toBe(0);
      expect(out.stdout.trim()).toBe("b:came-and-went\tfailed\texited 9");
    } finally {
      child.kill();
    }
  },
  120_000,
);

test.if(SSHD !== undefined)(
  "events --all: a host unreachable at the start is tried again, saying so, and joins the stream when it comes back",
  async () => {
    const program = join(sshds.a!.dir, "home", "t4a");
    const installed = readFileSync(program, "utf8");
    writeFileSync(program, "#!/bin/sh\necho 't4a: not installed yet' >&2\nexit 127\n");
    const { child, out } = spawnReading(["events", "--all"]);
    try {
      await waitFor(
        () => /t4a: a: unreachable: .*joining again/.test(out.stderr),
        30_000,
        "events --all to say a is unreachable and tried again",
      );
      writeFileSync(program, installed);
      const lines = () =>
        out.stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { event: string; host: string; terminal?: string });
      let made = 0;
      await waitFor(
        () =>
          lines().some((e) => e.host === "a" && e.event === "created") ||
          void onHost("a", ["create", "--name", `late${++made}`, "--", "sleep", "600"]),
        60_000,
        "a's events once it is back",
      );
      expect(out.stderr).toContain("t4a: a: joined");
      expect(child.exitCode).toBe(null);
    } finally {
      writeFileSync(program, installed);
      child.kill();
      await child.exited;
      for (const name of onHost("a", ["list", "--json"])
        .stdout.toString()
        .match(/"id":"late\d+"/g) ?? [])
        onHost("a", ["kill", name.slice(6, -1)]);
    }
  },
  120_000,
);

/** `t4a mcp` with this test's hosts; call(tool, args) answers the result's text and whether it is an error. */
async function mcp(configHome = config()) {
  const transport = new StdioClientTransport({
    command: BIN,
    args: ["mcp"],
    env: env(configHome),
    cwd: sandbox.dir,
    stderr: "ignore",
  });
  const client = new Client({ name: "fleet-test", version: "0" });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return {
      error: result.isError === true,
      text: result.content.map((item) => (item.type === "text" ? item.text : `<${item.type}>`)).join("\n"),
    };
  };
  return { call, close: () => client.close() };
}

test.if(SSHD !== undefined)(
  "MCP: HOST:ID ids, create on a host, terminal_list all; an unknown host names hosts.json",
  async () => {
    const { call, close } = await mcp();
    try {
      const created = await call("terminal_create", {
        host: "a",
        name: "mcp-far",
        cmd_args: ["bash", "--norc", "--noprofile"],
      });
      expect(created.error).toBe(false);
      expect(JSON.parse(created.text).id).toBe("a:mcp-far");
      // It is a's: this machine has no terminal of that name.
      expect(onHost("a", ["list"]).stdout.toString()).toContain("mcp-far");
      const ran = await call("terminal_run", { id: "a:mcp-far", command: "echo on-a-$((6*7))" });
      expect(ran).toMatchObject({ error: false });
      expect(ran.text).toContain("on-a-42");
      expect((await call("terminal_send", { id: "a:mcp-far", input: "echo typed\n" })).error).toBe(false);
      expect((await call("terminal_wait", { id: "a:mcp-far", idle_ms: 300 })).error).toBe(false);
      expect((await call("terminal_read", { id: "a:mcp-far" })).text).toContain("\ntyped");
      await sandbox.ok(["create", "--name", "mcp-here", "--", "sleep", "600"]);
      const all = await call("terminal_list", { all: true });
      expect(all.error).toBe(false);
      const ids = all.text.split("\n").map((line) => line.split(/\s+/)[0]);
      expect(ids).toContain("mcp-here");
      expect(ids).toContain("a:mcp-far");
      // Without all: this machine's alone, as before.
      expect((await call("terminal_list")).text).not.toContain("a:mcp-far");
      const unknown = await call("terminal_read", { id: "nowhere:t1" });
      expect(unknown.error).toBe(true);
      expect(unknown.text).toContain('unknown host "nowhere"');
      expect((await call("terminal_kill", { id: "a:mcp-far" })).error).toBe(false);
      expect(onHost("a", ["list"]).stdout.toString()).not.toContain("mcp-far");
      await sandbox.ok(["kill", "mcp-here"]);
    } finally {
      await close();
    }
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "MCP: terminal_wait any with all waits on every host and answers HOST:ID",
  async () => {
    const { call, close } = await mcp();
    try {
      const waiting = call("terminal_wait", { any: true, all: true, timeout_ms: 60_000 });
      await waitFor(() => waitsOn("c") > 0, 30_000, "the wait to be in place on c");
      expect(onHost("c", ["create", "--name", "mcp-fails", "--", "bash", "-c", "exit 5"]).exitCode).toBe(0);
      const waited = await waiting;
      expect(waited.error).toBe(false);
      expect(JSON.parse(waited.text)).toMatchObject({
        condition: "needs",
        terminal: "c:mcp-fails",
        why: "failed",
        host: "c",
      });
      // all is a wait with any; every host timing out is the timeout error.
      expect((await call("terminal_wait", { id: "t1", idle_ms: 10, all: true })).text).toContain("invalid_params");
      onHost("c", ["kill", "mcp-fails"]);
      const none = await call("terminal_wait", { any: true, all: true, timeout_ms: 1000 });
      expect(none).toMatchObject({ error: true });
      expect(none.text).toContain("timeout");
    } finally {
      onHost("c", ["kill", "mcp-fails"]);
      await close();
    }
  },
  90_000,
);

test.if(SSHD !== undefined)(
  "MCP: a hostile host's list reaches the model without control characters, a host that is down is one line",
  async () => {
    const cfg = join(sandbox.dir, "config-evil-mcp");
    await addHost("evil", cfg);
    await t4a(["hosts", "add", "down", "ssh://nobody@127.0.0.1:1"], cfg);
    const { call, close } = await mcp(cfg);
    try {
      const all = await call("terminal_list", { all: true });
      expect(all.error).toBe(false);
      expect(all.text).toContain("evil:evil ]0;pwned ");
      expect(all.text).toMatch(/^down: unreachable: /m);
      expect(all.text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
      const refused = await call("terminal_read", { id: "evil:t1" });
      expect(refused.error).toBe(true);
      expect(refused.text).not.toContain("\x1b");
    } finally {
      await close();
    }
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "a hostile host: its ids, titles, lines and errors reach the terminal without control characters",
  async () => {
    const cfg = join(sandbox.dir, "config-evil");
    await addHost("evil", cfg);
    const listed = await t4a(["list", "--all"], cfg);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("evil\tevil:evil ]0;pwned ");
    expect(listed.stdout + listed.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    const json = await t4a(["list", "--all", "--json"], cfg);
    expect(JSON.parse(json.stdout).terminals[1].title).not.toContain("\x1b");
    const waited = await t4a(["wait", "--any", "--all", "--timeout", "30s"], cfg);
    expect(waited.stdout).toBe("evil:x [31m\tfailed\t ]52;c;QUJD boom");
    const refused = await t4a(["text", "evil:t1"], cfg);
    expect(refused.code).toBe(1);
    expect(refused.stderr).not.toMatch(/\x1b/);
  },
  60_000,
);

if (!SSHD) console.log("skipped: the fleet tests need openssh-server (.ci/run installs it)");
