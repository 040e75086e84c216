// A pool of workers over real agent CLIs (issue 57): four workers, each a loop of CLI calls as
// docs/orchestrators.md's shell recipe, over agents of every installed CLI against the fake model
// server, sharing one queue of prompts (some write a file, so the CLI asks first). Each worker
// claims a need (`wait --any --agent waiting,idle --claim --worker wN`) and acts on it (ask the
// next prompt, or approve). Checked: every need handed out once (no need_id twice), none missed
// (every prompt answered, every question approved, none left open), and no two workers on one
// agent at once (the spans from claim to the end of its act never overlap on an agent).
// POOL_AGENTS_PER_CLI (default 1) and POOL_PROMPTS (default 15) scale it; the run is 2 and 30.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_CLIS, AGENTS_BIN, prepareAgentHome } from "./fixtures/agent-homes.ts";
import { FakeModel, FILE_CONTENT } from "./fixtures/fake-model.ts";
import { BIN, Sandbox } from "./harness.ts";

const PER_CLI = Number(process.env.POOL_AGENTS_PER_CLI ?? 1);
const PROMPTS = Number(process.env.POOL_PROMPTS ?? 15);
const WORKERS = ["w1", "w2", "w3", "w4"];

let sandbox: Sandbox;
let model: FakeModel;
let home: string;
let work: string;
let agentEnv: Record<string, string>;
const installed = AGENT_CLIS.filter((cli) => existsSync(join(AGENTS_BIN, cli)));
const agents = installed.flatMap((cli) => Array.from({ length: PER_CLI }, (_, i) => ({ id: `${cli}-${i + 1}`, cli })));
/**
 * Each agent in a directory of its own, as an orchestrator gives each a worktree: two sessions of
 * one CLI in one directory read each other's conversation log (codex's is found by its directory
 * and start time), and an ask would answer with the other's words.
 */
const dirOf = (id: string) => join(work, id);

beforeAll(async () => {
  sandbox = new Sandbox();
  model = new FakeModel();
  home = join(sandbox.dir, "home");
  work = join(sandbox.dir, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  Bun.spawnSync(["git", "init", "-q", work]);
  for (const { id } of agents) mkdirSync(dirOf(id));
  agentEnv = prepareAgentHome(home, model.url, [work, ...agents.map(({ id }) => dirOf(id))]);
  writeFileSync(join(home, ".bashrc"), "PS1='$ '\n");
  await sandbox.start();
});
afterAll(async () => {
  model?.stop();
  await sandbox?.cleanup();
});

async function t4a(args: string[], cwd = work): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...sandbox.env,
    ...agentEnv,
    HOME: home,
    SHELL: "/bin/bash",
    PATH: `${AGENTS_BIN}:${process.env.PATH}`,
  };
  const child = Bun.spawn([BIN, ...args], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

interface Handout {
  worker: string;
  terminal: string;
  need_id: number;
  state: "waiting" | "idle";
  /** When the daemon handed it out (its clock: the claim's expiry less the lease), ms since the epoch. */
  from: number;
  /**
   * When the act on it had surely not yet ended in the daemon: the ask was sent after this
   * test's clock read `sent`, and ran `elapsed_ms` there. A claim of the same agent by another
   * worker before it is two workers on one agent at once (the same machine's clock throughout).
   */
  to: number;
  did: string;
}

const LEASE_MS = 30 * 60_000;

test.if(installed.length > 0)(
  `a pool of ${WORKERS.length} workers over ${PER_CLI} agent(s) of each installed CLI and ${PROMPTS} prompts: each need handed out once, none missed, one worker per agent at a time`,
  async () => {
    for (const { id, cli } of agents)
      expect((await t4a(["create", "--name", id, "--agent", cli], dirOf(id))).code).toBe(0);
    // Every third prompt writes a file (in the agent's directory): the CLI asks before it does, a need of its own.
    const queue = Array.from({ length: PROMPTS }, (_, n) => n);
    const promptOf = (n: number, id: string) =>
      n % 3 === 2 ? `t4a:write:${dirOf(id)}/pool-${n}.txt` : `t4a:say:POOL-ANSWER-${n}`;
    const asked = new Map<
      number,
      { terminal: string; ended: string; answer: string; source: string; at: number; elapsed_ms: number }
    >();
    const handouts: Handout[] = [];
    const started = performance.now();
    const now = () => Math.round(performance.now() - started);
    let inFlight = 0;
    const worker = async (me: string) => {
      for (;;) {
        const claimed = await t4a([
          "wait",
          "--any",
          "--agent",
          "waiting,idle",
          "--claim",
          "--worker",
          me,
          "--lease",
          `${LEASE_MS}ms`,
          "--json",
          "--timeout",
          "20s",
        ]);
        const reply = JSON.parse(claimed.stdout);
        if (!reply.ok) {
          expect(reply.code).toBe("timeout");
          // Nothing to claim: done once no prompt is left and no ask runs (its end would be a need).
          if (queue.length === 0 && inFlight === 0) return;
          continue;
        }
        const handout: Handout = {
          worker: me,
          terminal: reply.terminal,
          need_id: reply.need_id,
          state: reply.state,
          from: reply.claim_expires_at - LEASE_MS,
          to: 0,
          did: "",
        };
        handouts.push(handout);
        if (reply.state === "waiting") {
          handout.to = Date.now();
          const approved = await t4a(["approve", reply.terminal, "--worker", me]);
          expect({ approve: approved.code, stderr: approved.stderr }).toEqual({ approve: 0, stderr: "" });
          handout.did = "approve";
        } else {
          const next = queue.shift();
          if (next === undefined) {
            // No work for it: the claim is kept (never handed out again), the agent left idle.
            handout.did = "nothing";
            handout.to = handout.from;
            continue;
          }
          inFlight++;
          const sent = Date.now();
          const prompt = promptOf(next, reply.terminal);
          const done = await t4a(["ask", reply.terminal, "--worker", me, "--json", "--timeout", "5m", prompt]);
          inFlight--;
          const outcome = JSON.parse(done.stdout);
          expect(outcome.ok).toBe(true);
          handout.to = sent + outcome.elapsed_ms;
          asked.set(next, {
            terminal: reply.terminal,
            ended: outcome.ended,
            answer: outcome.answer,
            source: outcome.source,
            at: sent,
            elapsed_ms: outcome.elapsed_ms,
          });
          handout.did = `ask ${next}`;
        }
      }
    };
    await Promise.all(WORKERS.map(worker));
    const summary = `${WORKERS.length} workers, ${agents.length} agents (${installed.join(", ")}), ${PROMPTS} prompts: ${handouts.length} needs handed out in ${Math.round(now() / 1000)} s (${handouts.filter((h) => h.state === "waiting").length} questions)`;
    console.log(`pool: ${summary}`);
    // Each need handed out once.
    const ids = handouts.map((h) => h.need_id);
    expect(ids.length, summary).toBe(new Set(ids).size);
    // None missed: every prompt asked and answered; every write's question approved, its file written.
    expect([...asked.keys()].sort((a, b) => a - b)).toEqual(queue.length === 0 ? [...Array(PROMPTS).keys()] : []);
    const story = (terminal: string) =>
      JSON.stringify({
        asks: [...asked].filter(([, a]) => a.terminal === terminal),
        handouts: handouts.filter((h) => h.terminal === terminal),
      });
    for (const [n, { ended, answer, terminal }] of asked) {
      if (n % 3 === 2) {
        // The ask returned on the question; the approval (by any worker) let the turn finish.
        expect({ n, terminal, ended }).toEqual({ n, terminal, ended: "waiting" });
      } else {
        expect({ n, terminal, ended }).toEqual({ n, terminal, ended: "idle" });
        expect(answer, story(terminal)).toContain(`POOL-ANSWER-${n}`);
      }
    }
    const questions = handouts.filter((h) => h.state === "waiting");
    expect(questions.length).toBe(Math.floor((PROMPTS + 1) / 3));
    for (let n = 2; n < PROMPTS; n += 3)
      expect(readFileSync(join(dirOf(asked.get(n)!.terminal), `pool-${n}.txt`), "utf8")).toContain(FILE_CONTENT);
    // No question left open.
    const open = await t4a(["wait", "--any", "--agent", "waiting", "--timeout", "2s", "--json"]);
    expect(JSON.parse(open.stdout)).toMatchObject({ ok: false, code: "timeout" });
    // One worker per agent at a time: on each agent, the spans of different workers never overlap.
    for (const { id } of agents) {
      const spans = handouts.filter((h) => h.terminal === id).sort((a, b) => a.from - b.from);
      for (let i = 1; i < spans.length; i++)
        expect(
          spans[i]!.from >= spans[i - 1]!.to || spans[i]!.worker === spans[i - 1]!.worker,
          `${id}: ${JSON.stringify(spans[i - 1])} then ${JSON.stringify(spans[i])}`,
        ).toBe(true);
    }
    for (const { id } of agents) await t4a(["kill", id]);
  },
  1_800_000,
);
