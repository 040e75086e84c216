// exec with a yield (the Codex/OpenHands exec_command shape) against real shells: it returns at
// the yield with the output so far and a token, continues from the token to the exit code, comes
// back as soon as a command asks for a password, and cuts output to its budget saying so. Through
// the CLI in a shell loop, and through MCP's terminal_exec / terminal_write with the SDK's client.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { DaemonConnection, Reply } from "../src/client/connection.ts";
import { BIN, Sandbox } from "./harness.ts";

const BASH = ["bash", "--norc", "--noprofile"];
let sandbox: Sandbox;
let t: DaemonConnection;
beforeAll(async () => {
  sandbox = new Sandbox();
  t = await sandbox.connect();
});
afterAll(async () => {
  t.close();
  await sandbox.cleanup();
});

async function request(req: Reply): Promise<Reply> {
  return (await t.request(req)).reply;
}

async function shell(): Promise<string> {
  const reply = await request({ cmd: "create", cmd_args: BASH, cwd: sandbox.dir });
  expect(reply.ok).toBe(true);
  return reply.id as string;
}

test("exec yields at the yield time with the output so far, and continues from its token to the exit code", async () => {
  const id = await shell();
  const first = await request({
    cmd: "exec",
    id,
    command: "for i in 1 2 3 4 5 6; do echo step$i; sleep 0.5; done; exit_status=7; (exit 7)",
    yield_ms: 1200,
  });
  expect(first).toMatchObject({ ok: true, running: true, cut: 0 });
  expect(first.output).toStartWith("step1\n");
  expect(first.output).not.toContain("step6");
  expect(first.code).toBeUndefined();
  // While it runs, the shell is busy: another command is refused, not typed into the program.
  expect(await request({ cmd: "exec", id, command: "echo no" })).toMatchObject({ ok: false, code: "busy" });
  let seen = first.output as string;
  let token = first.token as string;
  for (let step = 0; step < 20; step++) {
    const next = await request({ cmd: "exec", id, continue: token, yield_ms: 1000 });
    expect(next.ok).toBe(true);
    seen += next.output as string;
    token = next.token as string;
    if (!next.running) {
      expect(next.code).toBe(7);
      break;
    }
  }
  // Each piece once, in order: the continuations add up to the whole output.
  expect(seen).toBe("step1\nstep2\nstep3\nstep4\nstep5\nstep6\n");
  // The token of an ended command answers the same again; a token of an older command is refused.
  expect(await request({ cmd: "exec", id, continue: token })).toMatchObject({
    ok: true,
    running: false,
    code: 7,
    output: "",
  });
  expect(await request({ cmd: "exec", id, command: "true" })).toMatchObject({ ok: true, code: 0 });
  expect(await request({ cmd: "exec", id, continue: token })).toMatchObject({ ok: false, code: "not_found" });
  expect(await request({ cmd: "exec", id, continue: "nonsense" })).toMatchObject({ ok: false, code: "invalid_params" });
  expect(await request({ cmd: "exec", id })).toMatchObject({ ok: false, code: "invalid_params" });
});

test.if(process.platform === "linux")(
  "exec comes back when the command asks for a password, and continue types it",
  async () => {
    const id = await shell();
    const asked = await request({
      cmd: "exec",
      id,
      command: "read -s -p 'Password: ' pw; echo; echo got ${#pw} chars",
      yield_ms: 30_000,
    });
    expect(asked).toMatchObject({ ok: true, running: true, input_wanted: "bash", output: "Password:" });
    const done = await request({ cmd: "exec", id, continue: asked.token, input: "s3cret\n", yield_ms: 10_000 });
    expect(done).toMatchObject({ ok: true, running: false, code: 0, output: "\ngot 6 chars\n" });
    // Input for a command that has ended reaches nobody: refused.
    expect(await request({ cmd: "exec", id, continue: done.token, input: "x\n" })).toMatchObject({
      ok: false,
      code: "exited",
    });
  },
);

test("a full-screen program is answered with its screen (and says so); quitting it, output resumes where it was, nothing replayed", async () => {
  const id = await shell();
  await request({ cmd: "run", id, command: "echo earlier-output", timeout_ms: 15_000 });
  const file = `${sandbox.dir}/notes.txt`;
  await Bun.write(file, Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n"));
  const opened = await request({ cmd: "exec", id, command: `vi ${file}`, yield_ms: 10_000 });
  expect(opened).toMatchObject({ ok: true, running: true, screen: true, input_wanted: "vi" });
  expect((opened.output as string).split("\n")[0]).toBe("line 1");
  const quit = await request({ cmd: "exec", id, continue: opened.token, input: ":q!\r", yield_ms: 10_000 });
  expect(quit).toMatchObject({ ok: true, running: false, code: 0 });
  expect(quit.output).not.toContain("earlier-output");
  expect(quit.screen).toBeUndefined();

  // less starts at its first line, as the screen shows it.
  const paged = await request({ cmd: "exec", id, command: `less ${file}`, yield_ms: 10_000 });
  expect(paged).toMatchObject({ ok: true, running: true, screen: true });
  expect((paged.output as string).split("\n")[0]).toBe("line 1");
  expect(await request({ cmd: "exec", id, continue: paged.token, input: "q", yield_ms: 10_000 })).toMatchObject({
    running: false,
    code: 0,
    output: "",
  });
  await request({ cmd: "kill", id });
});

test("a budget cuts the middle of long output and says how much", async () => {
  const id = await shell();
  const reply = await request({ cmd: "exec", id, command: "seq 1 5000", max_output: 1000 });
  expect(reply).toMatchObject({ ok: true, running: false, code: 0 });
  const output = reply.output as string;
  expect(output).toStartWith("1\n2\n");
  expect(output).toEndWith("4999\n5000\n");
  expect(reply.cut as number).toBeGreaterThan(20_000);
  expect(output).toContain(`[… ${reply.cut} characters cut …]`);
  expect(output.length).toBeLessThan(1100);
});

test("the CLI in a shell loop: exec, then continue until it ends, exit code as the command's", async () => {
  const id = await shell();
  const script = `
    out=$("${BIN}" exec ${id} --json --yield 700ms -- 'echo a; sleep 1; echo b; sleep 1; echo c; (exit 3)')
    while :; do
      printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["output"], end="")'
      running=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["running"])')
      [ "$running" = True ] || break
      token=$(printf '%s' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
      out=$("${BIN}" exec ${id} --json --yield 700ms --continue "$token")
    done
    printf '%s' "$out" | python3 -c 'import json,sys; print("code", json.load(sys.stdin)["code"])'
  `;
  const child = Bun.spawnSync(["bash", "-c", script], { env: sandbox.env });
  expect(child.stdout.toString()).toBe("a\nb\nc\ncode 3\n");
  // Without --json: the output on stdout, the status on stderr, the command's exit code.
  const plain = Bun.spawnSync([BIN, "exec", id, "--", "echo hi; false"], { env: sandbox.env });
  expect({ stdout: plain.stdout.toString(), code: plain.exitCode }).toEqual({ stdout: "hi\n", code: 1 });
  expect(plain.stderr.toString()).toStartWith("t4a: exit code 1;");
});

test("MCP: terminal_exec yields within the client's limit, terminal_write continues to the exit code", async () => {
  const transport = new StdioClientTransport({
    command: BIN,
    args: ["mcp"],
    env: sandbox.env,
    cwd: sandbox.dir,
    stderr: "pipe",
  });
  const client = new Client({ name: "t4a-test", version: "0" });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return {
      isError: result.isError,
      text: result.content.map((item) => (item.type === "text" ? item.text : "")).join(""),
    };
  };
  try {
    const tools = (await client.listTools()).tools;
    const exec = tools.find((tool) => tool.name === "terminal_exec")!;
    const write = tools.find((tool) => tool.name === "terminal_write")!;
    expect(exec.inputSchema.required).toEqual(["id", "command"]);
    expect(Object.keys(exec.inputSchema.properties!)).not.toContain("continue");
    expect(write.inputSchema.required).toEqual(["id", "continue"]);
    expect(Object.keys(write.inputSchema.properties!)).not.toContain("command");
    const id = await shell();
    const started = await call("terminal_exec", { id, command: "echo building; sleep 2; echo built", yield_ms: 500 });
    expect(started.isError).toBeFalsy();
    expect(started.text).toContain("still running");
    expect(started.text).toContain("building");
    const token = /continue with token (\S+)\]/.exec(started.text)![1];
    const finished = await call("terminal_write", { id, continue: token, yield_ms: 10_000 });
    expect(finished.text).toBe(`[exit code 0; ${/; (\d+) ms\]/.exec(finished.text)![1]} ms]\nbuilt\n`);
  } finally {
    await client.close();
  }
});
