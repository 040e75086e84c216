// The real agent CLIs (pinned in test/agents) with t4a as their terminal over MCP, offline against
// the fake model server: each registers `t4a mcp` as the README says (its own `mcp add`; codex a
// block of its config), lists it with its `mcp list`, then runs one non-interactive turn in which the scripted model calls t4a's tools
// (create a terminal, run a command, read the screen, screenshot, kill) and the test checks that
// each tool's result reached the model in the CLI's next request. Where a CLI is not installed,
// its test skips and says so.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_CLIS, AGENTS_BIN, type AgentCli, prepareAgentHome } from "./fixtures/agent-homes.ts";
import { FakeModel, isToolSearch, MCP_COMMAND, MCP_OUTPUT } from "./fixtures/fake-model.ts";
import { BIN, Sandbox } from "./harness.ts";

/**
 * The README's recipe per CLI: t4a registered for every project of this user. codex's is a block
 * of its config, not its `mcp add`: codex starts MCP servers with a few variables of its own
 * choosing (HOME, PATH, LANG…), so t4a's socket variables must be named to reach `t4a mcp`, or
 * its terminals land in another daemon than the user's `t4a list` (and `mcp add` rewrites the
 * entry without them).
 */
const CODEX_BLOCK = `[mcp_servers.t4a]\ncommand = "t4a"\nargs = ["mcp"]\nenv_vars = ["T4A_SOCKET", "XDG_RUNTIME_DIR"]\n`;
const REGISTER: Record<AgentCli, string[] | (() => void)> = {
  claude: ["claude", "mcp", "add", "--scope", "user", "t4a", "--", "t4a", "mcp"],
  codex: () => appendFileSync(join(home, ".codex", "config.toml"), CODEX_BLOCK),
  gemini: ["gemini", "mcp", "add", "--scope", "user", "t4a", "t4a", "mcp"],
  qwen: ["qwen", "mcp", "add", "--scope", "user", "t4a", "t4a", "mcp"],
  opencode: ["opencode", "mcp", "add", "t4a", "--", "t4a", "mcp"],
};

/**
 * One turn without a person: how each CLI runs a prompt and exits, with t4a's tools approved
 * beforehand (claude: --allowedTools mcp__t4a, as `permissions.allow` in its settings would;
 * codex: default_tools_approval_mode "approve" for t4a, as -c, since exec refuses a call
 * that needs approval; gemini, qwen: --yolo, without which gemini -p does not offer t4a's tools;
 * opencode: nothing, it asks before edits and shell commands but lets MCP tools run).
 */
const TURN: Record<AgentCli, (prompt: string) => string[]> = {
  claude: (prompt) => ["claude", "-p", prompt, "--allowedTools", "mcp__t4a"],
  codex: (prompt) => ["codex", "exec", "-c", 'mcp_servers.t4a.default_tools_approval_mode="approve"', prompt],
  gemini: (prompt) => ["gemini", "-p", prompt, "--yolo"],
  qwen: (prompt) => ["qwen", "-p", prompt, "--yolo"],
  opencode: (prompt) => ["opencode", "run", prompt],
};

let sandbox: Sandbox;
let model: FakeModel;
let home: string;
let work: string;
let bin: string;
let agentEnv: Record<string, string>;

beforeAll(async () => {
  sandbox = new Sandbox();
  model = new FakeModel();
  home = join(sandbox.dir, "home");
  work = join(sandbox.dir, "work");
  bin = join(sandbox.dir, "bin");
  for (const dir of [home, work, bin]) mkdirSync(dir, { recursive: true });
  Bun.spawnSync(["git", "init", "-q", work]);
  agentEnv = prepareAgentHome(home, model.url, [work]);
  // qwen sends images only to models it knows see them (qwen3-vl, gpt-4o…), "[image: image/png]"
  // otherwise; the fake is one that does, as a user's would be.
  const qwenSettings = join(home, ".qwen", "settings.json");
  const qwen = JSON.parse(readFileSync(qwenSettings, "utf8"));
  writeFileSync(
    qwenSettings,
    JSON.stringify({ ...qwen, model: { generationConfig: { modalities: { image: true } } } }, null, 2),
  );
  // `t4a` on PATH, as an installed one is. It refuses to run without this suite's socket: a CLI
  // that did not pass T4A_SOCKET on to its MCP server must fail here, not reach the machine's
  // own daemon at the default path.
  writeFileSync(
    join(bin, "t4a"),
    `#!/bin/sh\n[ "$T4A_SOCKET" = '${sandbox.socket}' ] || { echo "t4a test wrapper: T4A_SOCKET not passed on" >&2; exit 97; }\nexec '${BIN}' "$@"\n`,
    { mode: 0o755 },
  );
  await sandbox.start();
});
afterAll(async () => {
  model?.stop();
  await sandbox?.cleanup();
});

function env(): Record<string, string> {
  return {
    ...sandbox.env,
    ...agentEnv,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    PATH: `${bin}:${AGENTS_BIN}:${process.env.PATH}`,
  };
}

/** Runs an agent CLI to its end (or kills it after `timeoutMs`), in the project. */
async function run(argv: string[], timeoutMs = 120_000): Promise<{ code: number | null; out: string }> {
  const child = Bun.spawn(argv, { cwd: work, env: env(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  return { code: child.signalCode ? null : code, out: `${stdout}\n${stderr}` };
}

function installed(cli: AgentCli): boolean {
  const found = existsSync(join(AGENTS_BIN, cli));
  if (!found) console.log(`skipped: the real ${cli} is not installed (npm run agents:install)`);
  return found;
}

for (const cli of AGENT_CLIS) {
  test.if(installed(cli))(
    `${cli}: registered as the README says, its turn drives a t4a terminal over MCP and every result reaches the model`,
    async () => {
      const register = REGISTER[cli];
      if (typeof register === "function") register();
      else {
        const registered = await run(register);
        expect(registered.code, registered.out).toBe(0);
      }
      const listed = await run([cli, "mcp", "list"]);
      expect(listed.out).toContain("t4a");

      const name = `mcp-${cli}`;
      const prompt = `t4a:mcp:${name}`;
      const turn = await run(TURN[cli](prompt));
      const all = model.resultsAfter(prompt);
      const seen = `exit ${turn.code}\n${turn.out.slice(-3000)}\nresults: ${all.map((r) => `${r.tool}: ${r.result.slice(0, 300)}`).join("\n")}`;
      const results = all.filter((r) => !isToolSearch(r.tool)).map((r) => r.result);
      expect(results.length, seen).toBe(5);
      const [created, ran, read, screenshot, killed] = results as [string, string, string, string, string];
      expect(created, seen).toContain(name);
      expect(ran, seen).toContain(MCP_OUTPUT);
      expect(read, seen).toContain(MCP_COMMAND); // the screen's rows: the command line typed, then its output
      expect(read, seen).toContain(MCP_OUTPUT);
      expect(screenshot, seen).toContain("iVBORw0KGgo"); // a PNG, base64
      expect(killed, seen).not.toContain("not_found");
      expect(turn.out, seen).toContain("FAKE-ANSWER");
      expect(turn.code, seen).toBe(0);
      // The terminal was this suite's daemon's, and the kill ended it.
      const list = JSON.parse(await sandbox.ok(["list", "--json"])).terminals as Array<{ id: string; alive: boolean }>;
      expect(list.find((t) => t.id === name)?.alive ?? false).toBe(false);
    },
    300_000,
  );
}
