// Each real agent CLI's refusal screens end a turn as an error (issue 57): the fake model server
// answers as the real services refuse (credit, quota, auth, rate limit, overload: see REFUSALS in
// test/fixtures/fake-model.ts), and `t4a ask` ends `error` with the CLI's own words, exit 5, where
// before claude's "Credit balance is too low" and every opencode refusal ended `idle`, exit 0.
// Kinds a CLI retries for minutes (gemini, qwen and opencode on 429 and 5xx) are left out; claude
// is told not to retry (CLAUDE_CODE_MAX_RETRIES=0), as an orchestrator that wants the error now would.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_CLIS, AGENTS_BIN, type AgentCli, prepareAgentHome } from "./fixtures/agent-homes.ts";
import { FakeModel, type Refusal } from "./fixtures/fake-model.ts";
import { BIN, Sandbox } from "./harness.ts";

/** What each CLI is asked to fail with, and words its error line must hold. */
const KINDS: Record<AgentCli, Array<[Refusal, RegExp]>> = {
  claude: [
    ["credit", /Credit balance is too low/],
    ["auth", /401/],
    ["quota", /monthly usage limit/],
    ["ratelimit", /rate limit/],
    ["overloaded", /Overloaded/],
  ],
  codex: [
    ["credit", /Quota exceeded/],
    ["auth", /401 Unauthorized/],
  ],
  gemini: [
    ["credit", /Usage limit reached|quota/i],
    ["auth", /API key not valid/],
  ],
  qwen: [["auth", /401 Incorrect API key/]],
  opencode: [
    ["credit", /credit balance is too low/],
    ["auth", /401 invalid x-api-key/],
  ],
};

let sandbox: Sandbox;
let model: FakeModel;
let home: string;
let work: string;
let agentEnv: Record<string, string>;

beforeAll(async () => {
  sandbox = new Sandbox();
  model = new FakeModel();
  home = join(sandbox.dir, "home");
  work = join(sandbox.dir, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  Bun.spawnSync(["git", "init", "-q", work]);
  agentEnv = prepareAgentHome(home, model.url, [work]);
  writeFileSync(join(home, ".bashrc"), "PS1='$ '\n");
  await sandbox.start();
});
afterAll(async () => {
  model?.stop();
  await sandbox?.cleanup();
});

async function t4a(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...sandbox.env,
    ...agentEnv,
    HOME: home,
    SHELL: "/bin/bash",
    PATH: `${AGENTS_BIN}:${process.env.PATH}`,
  };
  const child = Bun.spawn([BIN, ...args], { cwd: work, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

// The CLIs run at once (test.concurrent), each in its own session: a test waits mostly on t4a's
// settles, not the CPU (an ask lets the agent rest 1.5 s first, and after a refusal, which leaves
// no answer in the CLI's log, looks there for one up to 5 s): one after another the file took 135 s.
for (const cli of AGENT_CLIS) {
  const present = existsSync(join(AGENTS_BIN, cli));
  if (!present) console.log(`refusals: ${cli} is not installed (npm run agents:install): its test skips`);
  test.concurrent.if(present)(
    `${cli}: each refusal screen (${KINDS[cli].map(([kind]) => kind).join(", ")}) ends the ask as an error, exit 5, with its words`,
    async () => {
      const id = `refused-${cli}`;
      expect((await t4a(["create", "--name", id, "-e", "CLAUDE_CODE_MAX_RETRIES=0", "--agent", cli])).code).toBe(0);
      expect((await t4a(["wait", id, "--agent", "idle", "--timeout", "120s"])).code).toBe(0);
      for (const [kind, words] of KINDS[cli]) {
        const asked = await t4a(["ask", id, "--json", "--timeout", "150s", `t4a:fail:${kind}`]);
        const reply = JSON.parse(asked.stdout);
        expect({ kind, code: asked.code, ended: reply.ended }).toEqual({ kind, code: 5, ended: "error" });
        expect(reply.error).toMatch(words);
        // gemini asks on a spent quota (Keep trying / Stop): the error is the question, still open.
        if (reply.question !== undefined) {
          expect((await t4a(["choose", id, "Stop"])).code).toBe(0);
          expect((await t4a(["wait", id, "--agent", "idle", "--timeout", "60s"])).code).toBe(0);
        }
      }
      // The session goes on: the next turn answers.
      const said = await t4a(["ask", id, "--timeout", "120s", "t4a:say:Still here"]);
      expect({ code: said.code, stdout: said.stdout }).toEqual({
        code: 0,
        stdout: expect.stringContaining("Still here"),
      });
      await t4a(["kill", id]);
    },
    900_000,
  );
}
