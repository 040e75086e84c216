// Agent state with no preset (`--agent auto -- CLI ARGS`, issue 60): the real agent CLIs (pinned in
// test/agents/package.json) run as any CLI would, their presets off, offline against the fake
// model. For each one, a whole turn read from what every CLI shares: the prompt typed once it
// rests, working while it animates, waiting on the question its screen's elements show (with its
// own choices), approve picking the question's yes, idle at rest after the answer; then an ask
// answered from the screen. Where a CLI is not installed, its test skips and says so.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_CLIS, AGENT_COMMAND, AGENTS_BIN, NEW_AGENT_CLIS, prepareAgentHome } from "./fixtures/agent-homes.ts";
import { FakeModel, FILE_CONTENT } from "./fixtures/fake-model.ts";
import { BIN, Sandbox, waitFor } from "./harness.ts";

/** What each CLI needs on its command line to run here as a user would run it (no preset adds it). */
const ARGS: Record<string, string[]> = {
  // Without it codex starts a shared app-server that outlives the session (the preset adds it too).
  codex: ["--no-daemon"],
};

/** CLIs that never ask before a tool runs (pi, by design): their turn is working, then idle. */
const NEVER_ASKS = new Set(["pi"]);

let sandbox: Sandbox;
let model: FakeModel;
let home: string;
let work: string;
let agentEnv: Record<string, string>;
/** Each CLI's outcome, printed at the end: how many of them got every state right. */
const outcomes: string[] = [];

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
// A test that failed or timed out before its own kill leaves no agent CLI running into the next.
afterEach(() => sandbox.killAll());
afterAll(async () => {
  if (outcomes.length) console.log(`auto agents (no preset):\n${outcomes.join("\n")}`);
  model?.stop();
  await sandbox?.cleanup();
});

function env(): Record<string, string> {
  return { ...sandbox.env, ...agentEnv, HOME: home, SHELL: "/bin/bash", PATH: `${AGENTS_BIN}:${process.env.PATH}` };
}

async function t4aRaw(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn([BIN, ...args], { cwd: work, env: env(), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

async function t4a(args: string[]): Promise<string> {
  const done = await t4aRaw(args);
  if (done.code !== 0) throw new Error(`t4a ${args.join(" ")}: exit ${done.code}: ${done.stderr}`);
  return done.stdout;
}

/** A session's agent_state events, collected from before it is created. */
async function watchStates(
  id: string,
): Promise<{ steps: Array<{ state: string; line: string; at: number }>; stop: () => void }> {
  const connection = await sandbox.connect();
  await connection.request({ cmd: "events" });
  const steps: Array<{ state: string; line: string; at: number }> = [];
  const started = performance.now();
  void (async () => {
    for (;;) {
      const line = await connection.readLine().catch(() => undefined);
      if (!line) return;
      if (line.event === "agent_state" && line.terminal === id)
        steps.push({ state: String(line.state), line: String(line.line), at: Math.round(performance.now() - started) });
    }
  })();
  return { steps, stop: () => connection.close() };
}

for (const cli of [...AGENT_CLIS, ...NEW_AGENT_CLIS]) {
  const command = AGENT_COMMAND[cli] ?? cli;
  const present = existsSync(join(AGENTS_BIN, command));
  if (!present) console.log(`skipped: the real ${cli} is not installed (npm run agents:install)`);

  test.if(present)(
    `${cli} with no preset (--agent auto): a whole turn${NEVER_ASKS.has(cli) ? "" : " with its question, approve picking its yes"}, states right; ask answers`,
    async () => {
      const id = `auto-${cli}`;
      const file = join(work, `auto-${cli}.txt`);
      const watch = await watchStates(id);
      const report = async () =>
        `${watch.steps.map((step) => `${step.at} ms ${step.state}: ${step.line}`).join("\n")}\n--- screen ---\n${await sandbox.screen(id).catch(() => "")}`;
      const until = (state: string, timeoutMs: number) =>
        waitFor(() => watch.steps.find((step, i) => step.state === state && i >= 1), timeoutMs, `${id} ${state}`).catch(
          async (error: Error) => {
            throw new Error(`${error.message}\n${await report()}`);
          },
        );
      const created = await t4aRaw([
        "create",
        "--name",
        id,
        "--agent",
        "auto",
        "--prompt",
        `Please t4a:write:${file}`,
        "--",
        command,
        ...(ARGS[cli] ?? []),
      ]);
      expect(created.code, created.stderr).toBe(0);
      if (!NEVER_ASKS.has(cli)) {
        const waiting = await until("waiting", 90_000);
        // The question as its screen shows it: a sentence that asks.
        expect(waiting.line, await report()).toMatch(/\?|Permission required|Command to approve/);
        const approved = await t4aRaw(["approve", id, "--json"]);
        expect(approved.code, `${approved.stdout}${approved.stderr}\n${await report()}`).toBe(0);
      }
      await waitFor(
        () =>
          watch.steps.findLast(
            (step, i) =>
              step.state === "idle" &&
              watch.steps.slice(0, i).some((before) => before.state === (NEVER_ASKS.has(cli) ? "working" : "waiting")),
          ),
        60_000,
        `${id} idle after the answer`,
      ).catch(async (error: Error) => {
        throw new Error(`${error.message}\n${await report()}`);
      });
      await waitFor(() => existsSync(file), 10_000, `${file} written`);
      expect(readFileSync(file, "utf8")).toBe(FILE_CONTENT);
      const seen = await report();
      const states = watch.steps.map((step) => step.state).join(",");
      const idleLine = watch.steps.findLast((step) => step.state === "idle")!.line;
      outcomes.push(
        `${cli}: ${watch.steps.map((step) => `${step.state} ${step.at}`).join(", ")} · idle line ${JSON.stringify(idleLine)}`,
      );
      // Never idle mid-turn: the prompt typed (working), its question, the answer's work (which may
      // end within one screen read), idle. Before the prompt is typed, its start may be at rest (idle).
      expect(
        (NEVER_ASKS.has(cli) ? ["working,idle"] : ["working,waiting,working,idle", "working,waiting,idle"]).flatMap(
          (s) => [s, `idle,${s}`],
        ),
        seen,
      ).toContain(states);
      expect(idleLine, seen).toContain("FAKE-ANSWER 1");
      // ask types into it and reads the answer from its screen (no log known).
      const said = await t4aRaw(["ask", id, "--json", "--timeout", "60s", "t4a:say:Auto answer 42"]);
      const reply = JSON.parse(said.stdout);
      expect(reply, `${said.stdout}\n${await report()}`).toMatchObject({ ok: true, ended: "idle", source: "screen" });
      expect(reply.answer, await report()).toContain("Auto answer 42");
      watch.stop();
      await t4a(["kill", id]);
    },
    240_000,
  );
}
