// Program text is tainted (issue 56): what a remote host answers reaches this machine's terminal,
// an MCP client or a program using the client library only through the one stripping function
// (src/protocol/program-text.ts). A real sshd whose `t4a` is a hostile program: every string it
// answers carries a clipboard write (OSC 52), a screen clear (CSI 2J) and a right-to-left override.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { BIN, Sandbox } from "../harness.ts";
import { SSHD, startSshd, type LocalSshd } from "../fixtures/sshd.ts";
import { connect } from "../../src/lib/index.ts";

/** A C0 or C1 control (a tab and a newline aside), DEL, or a bidi control: none may reach a person from a remote. */
export const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

// Every request is logged to $HOME/requests.jsonl; with $HOME/fail-login present, the login says
// escapes on stderr and fails; with $HOME/bad-waits present, every wait is answered ill-typed, at once.
const HOSTILE = `#!/usr/bin/env python3
import sys, json, os
home = os.environ["HOME"]
if sys.argv[1:] == ["--version"]:
    print("t4a \x1b]52;c;QUJD\x07\x1b[2J\u202e9.9.9"); sys.exit(0)
if os.path.exists(os.path.join(home, "fail-login")):
    sys.stderr.write("\\x1b]52;c;QUJD\\x07\\x1b[2Jlogin denied\\u202e\\n"); sys.exit(255)
sys.stderr.write("t4a dial-stdio: joined\\n"); sys.stderr.flush()
EVIL = "\\x1b]52;c;QUJD\\x07\\x1b[2J\\u202e\\u009b31m"
for line in sys.stdin:
    request = json.loads(line)
    with open(os.path.join(home, "requests.jsonl"), "a") as log: log.write(json.dumps(request) + "\\n")
    cmd = request.get("cmd")
    terminal = {"id": "t1\\u202egpj.exe", "cols": 80, "rows": 24, "pid": 1, "alive": True, "title": EVIL + "title",
                "cmd_args": [EVIL], "cwd": "/" + EVIL, "shell_integration": None, "input_wanted": EVIL + "sudo",
                "agent": "claude", "agent_state": "waiting", "agent_line": EVIL + "Proceed?", "restored": True, "restore_note": EVIL + "moved"}
    plain = {key: value for key, value in terminal.items() if not key.startswith("agent")}
    plain["id"] = "t2"
    if cmd == "list":
        reply = {"ok": True, "terminals": [terminal, plain], "warnings": [EVIL + "warned"], "restore_failed": [{"id": "r1" + EVIL, "error": EVIL + "gone"}]}
        if request.get("needs"): reply["terminals"] = [dict(terminal, cols="eighty")]
    elif cmd == "text":
        reply = {"ok": True, "lines": [EVIL + "pwned"], "region": "viewport", "total_lines": 1, "token": "1"}
    elif cmd == "info":
        reply = {"ok": True, "version": EVIL, "pid": 1, "uptime_ms": 1, "sessions": 1, "subscribers": 0, "rss_bytes": 1, "socket": EVIL, "instance": "evil", "seq": 0}
    elif cmd == "wait":
        if os.path.exists(os.path.join(home, "bad-waits")):
            reply = {"ok": True, "condition": 42}
        else:
            reply = {"ok": True, "condition": "needs", "elapsed_ms": 1, "terminal": "t1" + EVIL, "why": "input", "line": EVIL + "line", "process": EVIL}
    elif cmd == "create":
        reply = {"ok": True, "id": "t9" + EVIL, "cols": 80, "rows": 24, "pid": 1}
    else:
        reply = {"ok": False, "code": "unsupported", "error": EVIL + "refused"}
    if "tag" in request: reply["tag"] = request["tag"]
    print(json.dumps(reply), flush=True)
`;

let sandbox: Sandbox;
let sshd: LocalSshd | undefined;
const config = () => join(sandbox.dir, "config");
const home = () => join(sshd!.dir, "home");
const env = () => ({
  ...sandbox.env,
  XDG_CONFIG_HOME: config(),
  T4A_REMOTE_T4A: '"$HOME/t4a"',
  T4A_CONNECT_TIMEOUT: "20",
  // --host takes an ssh target: ssh reads this sshd's key and port from its own config.
  T4A_SSH_COMMAND: `ssh -F ${sshd!.config}`,
});
/** The hostile host as --host names it (an ssh target, not a hosts.json name). */
const target = () => `ssh://${process.env.USER ?? "root"}@127.0.0.1:${sshd!.port}`;
const requests = (): Array<Record<string, unknown>> =>
  existsSync(join(home(), "requests.jsonl"))
    ? readFileSync(join(home(), "requests.jsonl"), "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

beforeAll(async () => {
  sandbox = new Sandbox();
  sshd = await startSshd(join(sandbox.dir, "ssh-evil"));
  if (!sshd) return;
  const program = join(home(), "t4a");
  writeFileSync(program, HOSTILE);
  chmodSync(program, 0o755);
  mkdirSync(config(), { recursive: true });
  const user = process.env.USER ?? "root";
  const added = Bun.spawnSync(
    [BIN, "hosts", "add", "evil", `ssh://${user}@127.0.0.1:${sshd.port}`, "--", "-F", sshd.config],
    { env: env() },
  );
  expect(added.exitCode).toBe(0);
}, 60_000);
afterAll(async () => {
  const controlDir = dirname(sandbox.socket);
  const masters = existsSync(controlDir) ? readdirSync(controlDir).filter((name) => name.startsWith("ssh-")) : [];
  for (const master of masters)
    Bun.spawnSync(["ssh", "-o", `ControlPath=${join(controlDir, master)}`, "-O", "exit", "unused"]);
  sshd?.stop();
  await sandbox.cleanup();
}, 60_000);

async function t4a(args: string[]) {
  const child = Bun.spawn([BIN, ...args], {
    cwd: sandbox.dir,
    env: env(),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

async function mcp(args: string[] = ["mcp"]) {
  const transport = new StdioClientTransport({ command: BIN, args, env: env(), cwd: sandbox.dir, stderr: "ignore" });
  const client = new Client({ name: "program-text-test", version: "0" });
  await client.connect(transport);
  const call = async (name: string, callArgs: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: callArgs }, undefined, {
      timeout: 60_000,
    })) as CallToolResult;
    return {
      error: result.isError === true,
      text: result.content.map((item) => (item.type === "text" ? item.text : `<${item.type}>`)).join("\n"),
    };
  };
  return { call, close: () => client.close() };
}

test.if(SSHD !== undefined)(
  "crossing 4: a remote's replies reach the terminal without control characters on the single-command path (HOST:ID, --host, its warnings, a failing login's stderr)",
  async () => {
    const read = await t4a(["text", "evil:t1"]);
    expect(read.stdout).toContain("pwned");
    expect(read.stdout + read.stderr).not.toMatch(UNSAFE);
    const listed = await t4a(["--host", target(), "list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("title");
    expect(listed.stderr).toContain("warned");
    expect(listed.stdout + listed.stderr).not.toMatch(UNSAFE);
    const text = await t4a(["--host", target(), "text", "t1"]);
    expect(text.stdout).toContain("pwned");
    expect(text.stdout + text.stderr).not.toMatch(UNSAFE);
    // --json is for programs, and is stripped the same way: a program that prints it shows it.
    const json = await t4a(["--host", target(), "list", "--json"]);
    expect(JSON.parse(json.stdout).terminals[0].title).toContain("title");
    expect(JSON.parse(json.stdout).terminals[0].title).not.toMatch(UNSAFE);
    const info = await t4a(["--host", target(), "wait", "t1", "--input", "--timeout", "5s"]);
    expect(info.stdout + info.stderr).not.toMatch(UNSAFE);
    // batch over --host: one JSON line a reply, each stripped (JSON escapes C0, not C1 nor bidi).
    const batch = Bun.spawnSync([BIN, "--host", target(), "batch"], {
      cwd: sandbox.dir,
      env: env(),
      stdin: new TextEncoder().encode("text t1\n"),
    });
    expect(batch.stdout.toString()).toContain("pwned");
    expect(batch.stdout.toString()).not.toMatch(/\\u001b|\\u0007|[\x80-\x9f\u202e]/);
    // doctor --host prints what the host's t4a says its version is.
    const doctor = await t4a(["doctor", "--host", target()]);
    expect(doctor.stdout).toContain("9.9.9");
    expect(doctor.stdout + doctor.stderr).not.toMatch(UNSAFE);
    writeFileSync(join(home(), "fail-login"), "");
    try {
      const failed = await t4a(["text", "evil:t2"]);
      expect(failed.code).toBe(3);
      expect(failed.stderr).toContain("login denied");
      expect(failed.stderr).not.toMatch(UNSAFE);
    } finally {
      rmSync(join(home(), "fail-login"));
    }
  },
  120_000,
);

test.if(SSHD !== undefined)(
  "crossing 5: MCP hands the model no control character from a remote (terminal_list all, a wait's line); `t4a mcp --host` checks the host's replies, strips them and sends it no cwd of this machine",
  async () => {
    const { call, close } = await mcp();
    try {
      const all = await call("terminal_list", { all: true });
      expect(all.text).toContain("evil:t1");
      expect(all.text).toContain("sudo");
      expect(all.text).not.toMatch(UNSAFE);
      const waited = await call("terminal_wait", { id: "evil:t1", input: true, timeout_ms: 5000 });
      expect(waited.text).toContain("line");
      expect(waited.text).not.toMatch(UNSAFE);
    } finally {
      await close();
    }
    const there = await mcp(["mcp", "--host", target()]);
    try {
      const listed = await there.call("terminal_list", {});
      expect(listed.text).toContain("title");
      expect(listed.text).not.toMatch(UNSAFE);
      const read = await there.call("terminal_read", { id: "t1" });
      expect(read.text).toContain("pwned");
      expect(read.text).not.toMatch(UNSAFE);
      const refused = await there.call("terminal_send", { id: "t1", text: "x" });
      expect(refused.error).toBe(true);
      expect(refused.text).not.toMatch(UNSAFE);
      // An ill-typed reply (a size that is not a number) is not passed on as if this machine's daemon said it.
      const bad = await there.call("terminal_list", { needs: true });
      expect(bad.error).toBe(true);
      expect(bad.text).toMatch(/evil|not what this t4a expects/);
      const before = requests().length;
      const created = await there.call("terminal_create", {});
      expect(created.text).not.toMatch(UNSAFE);
      const create = requests()
        .slice(before)
        .find((request) => request.cmd === "create");
      expect(create).toBeDefined();
      expect(create!.cwd).toBeUndefined();
      expect(create!.client_env).toBeUndefined();
    } finally {
      await there.close();
    }
  },
  120_000,
);

test.if(SSHD !== undefined)(
  "a right-to-left override (and every bidi control) in a remote's ids never reaches list --all",
  async () => {
    const listed = await t4a(["list", "--all"]);
    expect(listed.stdout).toContain("evil:t1");
    expect(listed.stdout + listed.stderr).not.toMatch(UNSAFE);
    const json = await t4a(["list", "--all", "--json"]);
    const ids = (JSON.parse(json.stdout).terminals as Array<{ id: string }>).map((t) => t.id);
    expect(ids.some((id) => id.startsWith("evil:t1"))).toBe(true);
    for (const id of ids) expect(id).not.toMatch(UNSAFE);
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "the client library: a remote's ids come back as HOST:ID (fed back, they reach that host, not this machine), its strings without control characters",
  async () => {
    const saved = { ...process.env };
    Object.assign(process.env, env());
    const client = await connect({ socket: sandbox.socket });
    try {
      const waited = await client.wait({ id: "evil:t1", input: true, timeout_ms: 5000 });
      expect(waited.terminal).toMatch(/^evil:t1/);
      expect(JSON.stringify(waited)).not.toMatch(/\\u001b|\\u009b/);
      expect(String(waited.line)).not.toMatch(UNSAFE);
      const before = requests().length;
      // Fed back, the id goes to the host that gave it.
      await client.text({ id: waited.terminal! }).catch(() => undefined);
      expect(
        requests()
          .slice(before)
          .some((request) => request.cmd === "text"),
      ).toBe(true);
    } finally {
      client.close();
      process.env = saved;
    }
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "wait --any --all against a host that answers every wait ill-typed at once asks it again more and more slowly, not hundreds of times",
  async () => {
    writeFileSync(join(home(), "bad-waits"), "");
    try {
      const before = requests().filter((request) => request.cmd === "wait").length;
      const waited = await t4a(["wait", "--any", "--all", "--timeout", "10s"]);
      const asked = requests().filter((request) => request.cmd === "wait").length - before;
      console.log(`a host answering every wait ill-typed: asked ${asked} times in 10 s`);
      expect(waited.stderr).toContain("evil");
      expect(waited.stderr).not.toMatch(UNSAFE);
      // At once, then 0.5 s doubling: 1 + 6 tries fit in 10 s (it was 384).
      expect(asked).toBeGreaterThan(1);
      expect(asked).toBeLessThanOrEqual(11);
    } finally {
      rmSync(join(home(), "bad-waits"));
    }
  },
  60_000,
);

if (!SSHD) console.log("skipped: the program-text tests need openssh-server (.ci/run installs it)");
