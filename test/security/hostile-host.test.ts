// A host of hosts.json is another machine: what it answers is tainted, and so is whether it
// answers at all. A real sshd whose `t4a` is a hostile program: it never answers a call, or
// answers a line that never ends. The MCP server (and the web relay, which shares DaemonLink and
// the connection code) must end each call with an error naming the host, never hold it forever or
// buffer until memory runs out.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { BIN, Sandbox, waitFor } from "../harness.ts";
import { WebRelay } from "../../src/web/relay.ts";
import { SSHD, startSshd, type LocalSshd } from "../fixtures/sshd.ts";

// Joins (says dial-stdio's ready line), then: `wait` and `list` never answered; `text` answered
// with a line that never ends (80 MiB, then silence, so a client without a bound holds it all);
// `events` joined, then a `lagged` and gone, at once.
const HOSTILE = `#!/usr/bin/env python3
import sys, json, time
sys.stderr.write("t4a dial-stdio: joined\\n"); sys.stderr.flush()
for line in sys.stdin:
    request = json.loads(line)
    if request.get("id") == "esc":
        # A blocking call answered once its progress has asked for the screen twice; the screen's lines carry terminal escapes.
        if request.get("cmd") == "text":
            print(json.dumps({"ok": True, "lines": ["\x1b]52;c;QUJD\x07\x1b[2Jpwned"], "tag": request.get("tag")}), flush=True)
            texts = globals().get("texts", 0) + 1
            if texts == 2:
                print(json.dumps({"ok": True, "condition": "idle", "elapsed_ms": 2500, "tag": waiting}), flush=True)
        elif request.get("cmd") == "wait":
            waiting = request.get("tag")
        continue
    if request.get("cmd") == "list" and request.get("needs"):
        terminal = {"id": "t", "cols": 80, "rows": 24, "pid": 1, "alive": True, "title": "x", "cmd_args": [], "cwd": "/", "shell_integration": None}
        print(json.dumps({"ok": True, "terminals": [dict(terminal, id=f"t{i}") for i in range(5000)], "tag": request.get("tag")}), flush=True)
        continue
    if request.get("cmd") == "attach":
        # A terminal 100 000 columns wide: the page's xterm.js would try to make it so.
        print(json.dumps({"ok": True, "cols": 100000, "rows": 100000, "tag": request.get("tag")}), flush=True)
        event = json.dumps({"event": "resize", "cols": 100000, "rows": 3}).encode()
        sys.stdout.buffer.write(b"E" + len(event).to_bytes(4, "big") + event)
        sys.stdout.buffer.write(b"O" + (5).to_bytes(4, "big") + b"hello")
        sys.stdout.flush()
        time.sleep(600)
    if request.get("cmd") == "events":
        # Joins, says this reader lagged, and leaves: at once, every time.
        print(json.dumps({"ok": True, "instance": "evil", "seq": 0, "tag": request.get("tag")}), flush=True)
        print(json.dumps({"event": "lagged", "dropped": 1}), flush=True)
        sys.exit(0)
    if request.get("cmd") == "text":
        sys.stdout.write('{"ok":true,"lines":["')
        chunk = "A" * (1024 * 1024)
        try:
            for _ in range(80):
                sys.stdout.write(chunk); sys.stdout.flush()
        except BrokenPipeError:
            sys.exit(0)
        time.sleep(600)
`;

let sandbox: Sandbox;
let sshd: LocalSshd | undefined;
const config = () => join(sandbox.dir, "config");
const env = () => ({
  ...sandbox.env,
  XDG_CONFIG_HOME: config(),
  T4A_REMOTE_T4A: '"$HOME/t4a"',
  T4A_CONNECT_TIMEOUT: "3",
});

beforeAll(async () => {
  sandbox = new Sandbox();
  sshd = await startSshd(join(sandbox.dir, "ssh-evil"));
  if (!sshd) return;
  const program = join(sshd.dir, "home", "t4a");
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

/** An MCP call that must end within 30 s (a hang is the failure, shown as such rather than as the test's timeout). */
async function mcp() {
  const transport = new StdioClientTransport({
    command: BIN,
    args: ["mcp"],
    env: env(),
    cwd: sandbox.dir,
    stderr: "ignore",
  });
  const client = new Client({ name: "hostile-host-test", version: "0" });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const started = performance.now();
    const hang = Bun.sleep(30_000).then(() => "hung" as const);
    const result = await Promise.race([
      client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>,
      hang,
    ]);
    if (result === "hung") return { error: true, text: "hung: no answer in 30 s", seconds: 30 };
    return {
      error: result.isError === true,
      text: result.content.map((item) => (item.type === "text" ? item.text : `<${item.type}>`)).join("\n"),
      seconds: (performance.now() - started) / 1000,
    };
  };
  return { call, close: () => client.close() };
}

test.if(SSHD !== undefined)(
  "a host that never answers holds no MCP call forever: its bound is the call's timeout_ms plus the connect timeout, then an error naming the host",
  async () => {
    const { call, close } = await mcp();
    try {
      const waited = await call("terminal_wait", { id: "evil:t1", timeout_ms: 500 });
      expect(waited.text).toMatch(/^evil unreachable: ssh .*no answer within 4 s/);
      expect(waited.error).toBe(true);
      // The next call makes a new link (the stuck one was dropped), and is bounded the same way.
      const again = await call("terminal_wait", { id: "evil:t1", timeout_ms: 1000 });
      expect(again.text).toMatch(/no answer within 4 s/);
      // terminal_list all: the host that does not answer is one line after 10 s; this machine's list still comes.
      const all = await call("terminal_list", { all: true });
      expect(all.text).toMatch(/^evil: unreachable: .*no answer within 10 s/m);
      expect(all.error).toBe(false);
    } finally {
      await close();
    }
  },
  120_000,
);

test.if(SSHD !== undefined)(
  "a blocking call's progress shows a host's last line without its control characters",
  async () => {
    const transport = new StdioClientTransport({
      command: BIN,
      args: ["mcp"],
      env: env(),
      cwd: sandbox.dir,
      stderr: "ignore",
    });
    const client = new Client({ name: "hostile-host-test", version: "0" });
    await client.connect(transport);
    const progress: string[] = [];
    try {
      await client.callTool({ name: "terminal_wait", arguments: { id: "evil:esc", timeout_ms: 5000 } }, undefined, {
        onprogress: (p) => void progress.push(String(p.message)),
        timeout: 60_000,
      });
    } finally {
      await client.close();
    }
    expect(progress.join("\n")).toContain("pwned");
    expect(progress.join("\n")).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "the web relay: a host's terminal size past what a terminal may have never reaches the page (its xterm.js would try to draw 100 000 columns)",
  async () => {
    const saved = { ...process.env };
    Object.assign(process.env, env());
    const relay = new WebRelay(sandbox.socket);
    const sent: unknown[] = [];
    const closed: string[] = [];
    try {
      relay.attach("evil", "t1", true, 0, {
        send: (data) => (sent.push(typeof data === "string" ? JSON.parse(data) : new TextDecoder().decode(data)), 0),
        close: (code, reason) => void closed.push(`${code} ${reason}`),
      });
      await waitFor(() => sent.length > 0 || closed.length > 0, 30_000);
      await Bun.sleep(500);
    } finally {
      relay.close();
      process.env = saved;
    }
    for (const message of sent)
      if (typeof message === "object" && message && "cols" in message)
        expect((message as { cols: number }).cols).toBeLessThanOrEqual(1000);
    expect(closed.join()).toMatch(/evil: .*100000/);
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "the CLI too: a call to a host that never answers ends after its bound, exit 3 naming the host; list --all names it after 10 s",
  async () => {
    const run = async (args: string[]) => {
      const child = Bun.spawn([BIN, ...args], {
        cwd: sandbox.dir,
        env: env(),
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const hung = Bun.sleep(30_000).then(() => (child.kill("SIGKILL"), "hung"));
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        Promise.race([child.exited, hung]),
      ]);
      return { code, stdout: stdout.trim(), stderr: stderr.trim() };
    };
    const waited = await run(["wait", "evil:t1", "--idle", "200ms", "--timeout", "500ms"]);
    expect(waited).toMatchObject({ code: 3, stderr: expect.stringMatching(/ssh .*no answer within 4 s/) });
    const listed = await run(["list", "--all"]);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(/evil: unreachable: no answer within 10 s/);
  },
  120_000,
);

test.if(SSHD !== undefined)(
  "a host that drops every events link as soon as it is joined is joined again more and more slowly, not in a tight loop of ssh processes",
  async () => {
    const child = Bun.spawn([BIN, "events", "--all"], {
      cwd: sandbox.dir,
      env: env(),
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
    });
    const lines: string[] = [];
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of child.stderr) {
      rest += decoder.decode(chunk);
      const parts = rest.split("\n");
      rest = parts.pop()!;
      lines.push(...parts.filter((line) => line.includes("joining again")));
      if (lines.length >= 4) break;
    }
    child.kill("SIGKILL");
    clearTimeout(killer);
    // The first try again at once (a reader that really fell behind resumes from the ring), then 0.5 s doubling.
    expect(lines.slice(0, 4).map((line) => /joining again(?: in ([\d.]+) s)?/.exec(line)?.[1] ?? "0")).toEqual([
      "0",
      "0.5",
      "1",
      "2",
    ]);
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "a host's list longer than any daemon's (5000 terminals; a daemon holds 4096 at most) is refused before its schema is checked",
  async () => {
    const { call, close } = await mcp();
    try {
      const all = await call("terminal_list", { all: true, needs: true });
      expect(all.text).toMatch(/^evil: unreachable: .*5000 terminals, more than a daemon may hold \(4096\)/m);
      expect(all.text).not.toContain("evil:t4999");
    } finally {
      await close();
    }
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "a host whose answer is a line that never ends is refused at 64 MiB, naming the host, not buffered without end",
  async () => {
    const { call, close } = await mcp();
    try {
      const read = await call("terminal_read", { id: "evil:t1" });
      expect(read.text).toMatch(/^evil unreachable: ssh .* sent more than 67108864 bytes without the end of a line/);
      expect(read.error).toBe(true);
    } finally {
      await close();
    }
  },
  120_000,
);

if (!SSHD) console.log("skipped: the hostile host tests need openssh-server (.ci/run installs it)");
