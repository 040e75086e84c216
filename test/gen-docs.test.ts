// One source for the reference: docs/cli.md's commands and docs/mcp.md's tool table are what
// scripts/gen-docs.ts makes from the command table, `t4a help CMD` is `t4a CMD --help` and says the
// same, and the tool table names exactly the tools `t4a mcp` lists.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { cliCommands, GENERATED, withGenerated } from "../scripts/gen-docs.ts";
import { DETAILS } from "../src/cli/details.ts";
import { BIN, Sandbox } from "./harness.ts";

const ROOT = resolve(import.meta.dir, "..");

for (const [file, make] of Object.entries(GENERATED)) {
  test(`${file} is what scripts/gen-docs.ts makes now (run it after changing a command)`, () => {
    const now = readFileSync(resolve(ROOT, file), "utf8");
    expect(now).toBe(withGenerated(now, make(), file));
  });
}

test("details.ts names only commands there are", () => {
  const names = new Set(cliCommands().map(({ name }) => name));
  expect(Object.keys(DETAILS).filter((name) => !names.has(name))).toEqual([]);
});

test("edge 1: `t4a help CMD` is `t4a CMD --help` for every command, says what it does, and ends its line", async () => {
  const sandbox = new Sandbox();
  try {
    const reference = readFileSync(resolve(ROOT, "docs/cli.md"), "utf8");
    const differ: string[] = [];
    for (const { name, spec } of cliCommands()) {
      const help = await sandbox.run(["help", name]);
      // `t4a tmux ARGS` is tmux's grammar, --help included (tmux answers its usage): only `help tmux` is t4a's.
      const dashed = name === "tmux" ? help : await sandbox.run([name, "--help"]);
      if (help.code !== 0 || help.stdout !== dashed.stdout || dashed.code !== 0) differ.push(name);
      expect(help.stdout.endsWith("\n")).toBe(true);
      // The summary is in both, and the page's section for it has every option the help lists.
      expect(help.stdout.replace(/\s+/g, " ")).toContain(spec.summary.replace(/\s+/g, " "));
      const section = reference.split(`\n### t4a ${name}\n`)[1]?.split("\n### ")[0] ?? "";
      for (const [flags] of spec.options ?? []) {
        const long = /--[a-z][a-z-]*/.exec(flags)![0];
        expect(`${name}: ${help.stdout.includes(long)}`).toBe(`${name}: true`);
        expect(`${name}: ${section.includes(long)}`).toBe(`${name}: true`);
      }
    }
    expect(differ).toEqual([]);
    expect((await sandbox.run(["help"])).stdout).toBe((await sandbox.run(["--help"])).stdout);
    const unknown = await sandbox.run(["help", "nosuch"]);
    expect({ code: unknown.code, stderr: unknown.stderr.trim() }).toEqual({
      code: 2,
      stderr: 't4a: unknown command "nosuch"; see t4a --help',
    });
  } finally {
    await sandbox.cleanup();
  }
});

test("edge 4: docs/mcp.md's table names exactly the tools `t4a mcp` lists, with their count and size", async () => {
  const sandbox = new Sandbox();
  const server = Bun.spawn([BIN, "mcp"], { env: sandbox.env, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
  try {
    const send = (message: object) => server.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "docs-test", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    server.stdin.flush();
    let buffered = "";
    let listed: Array<{ name: string; description: string; inputSchema: object }> | undefined;
    const reader = server.stdout.getReader();
    while (!listed) {
      const { value, done } = await reader.read();
      if (done) throw new Error("t4a mcp ended before it listed its tools");
      buffered += new TextDecoder().decode(value);
      for (const line of buffered.split("\n").slice(0, -1)) {
        const message = JSON.parse(line);
        if (message.id === 2) listed = message.result.tools;
      }
      buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
    }
    const page = readFileSync(resolve(ROOT, "docs/mcp.md"), "utf8");
    const inTable = [...page.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(inTable).toEqual(listed.map((tool) => tool.name));
    expect(page).toContain(`\`t4a mcp\` lists ${listed.length} tools.`);
    const size = listed.reduce((sum, tool) => sum + JSON.stringify(tool).length, 0);
    expect(page).toContain(`are ${size.toLocaleString("en-US")} characters`);
  } finally {
    server.kill();
    await server.exited;
    await sandbox.cleanup();
  }
});
