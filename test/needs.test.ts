// Needs with identity, and claims (issue 57), end to end with the fake agent CLIs
// (test/fixtures/fake-agent.py under each preset's name): an answered question is not reported
// again though the CLI has not redrawn; every need carries its id; a claim hands a need to one
// worker, others skip it, and an answer from another is refused with the holder's name; a claim
// ends with its anonymous connection or its lease; an ask racing a kill answers `exited`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DaemonConnection } from "../src/client/connection.ts";
import { PRESETS } from "../src/spawn/agents/registry.ts";
import { Sandbox } from "./harness.ts";

const FAKE = resolve(import.meta.dir, "fixtures/fake-agent.py");

let sandbox: Sandbox;
let home: string;
let fakeBin: string;

beforeAll(async () => {
  sandbox = new Sandbox();
  home = join(sandbox.dir, "home");
  fakeBin = join(sandbox.dir, "fake-bin");
  for (const dir of [home, fakeBin]) mkdirSync(dir, { recursive: true });
  for (const preset of PRESETS) {
    copyFileSync(FAKE, join(fakeBin, preset.cli));
    chmodSync(join(fakeBin, preset.cli), 0o755);
  }
  writeFileSync(join(home, ".bash_profile"), `export PATH=${fakeBin}:$PATH\n`);
  writeFileSync(join(home, ".bashrc"), "PS1='$ '\n");
});
afterAll(() => sandbox.cleanup());

async function t4a(args: string[]) {
  const child = Bun.spawn([resolve(import.meta.dir, "../dist/t4a"), ...args], {
    cwd: sandbox.dir,
    env: { ...sandbox.env, HOME: home, PATH: `${fakeBin}:${process.env.PATH}` },
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

async function ok(args: string[]): Promise<string> {
  const result = await t4a(args);
  if (result.code !== 0) throw new Error(`t4a ${args.join(" ")}: exit ${result.code}: ${result.stderr}`);
  return result.stdout;
}

const json = async (args: string[]) => JSON.parse(await ok([...args, "--json"]));

test("an approved question is not reported again while the CLI has not redrawn; each report carries the need's id", async () => {
  // codex reads its state from the screen alone; this one redraws 12 s after the answer's key (the checks below take
  // a second or two on a quiet machine, several on a loaded one: the redraw must come after them).
  await ok(["create", "--name", "slow", "-e", "FAKE_AFTER_ANSWER_S=12", "--agent", "codex", "--prompt", "approve it"]);
  try {
    await approvedOnce();
  } finally {
    // (Killed whatever failed: a live "slow" would be one more idle agent for the claims below.)
    await t4a(["kill", "slow"]);
  }
}, 90_000);

async function approvedOnce(): Promise<void> {
  await ok(["wait", "slow", "--agent", "waiting", "--timeout", "20s"]);
  const found = await json(["wait", "--any"]);
  // (Bun's toMatchObject leaves its matchers in the object it checks: numbers are checked apart.)
  expect(typeof found.need_id).toBe("number");
  expect(found).toMatchObject({ terminal: "slow", why: "waiting", question_id: 1 });
  const listed = (await json(["list", "--needs"])).terminals;
  expect(listed.map((t: { need: unknown }) => t.need)).toEqual([
    expect.objectContaining({ need_id: found.need_id, why: "waiting", question_id: 1 }),
  ]);
  await ok(["approve", "slow"]);
  // The question is still drawn (the CLI redraws in 12 s): no wait, no list reports it.
  for (let i = 0; i < 5; i++) {
    const again = await t4a(["wait", "--any", "--json", "--timeout", "200ms"]);
    expect({ code: again.code, reply: JSON.parse(again.stdout) }).toMatchObject({
      code: 1,
      reply: { code: "timeout" },
    });
  }
  expect((await json(["list", "--needs"])).terminals).toEqual([]);
  const info = (await json(["list"])).terminals.find((t: { id: string }) => t.id === "slow");
  expect(info).toMatchObject({ agent_state: "waiting", agent_question_answered: true });
  expect(info.need).toBeUndefined();
  // The turn's end is a need of its own (asked for by state), with a new id and its turn.
  const idle = await json(["wait", "--any", "--agent", "idle", "--timeout", "40s"]);
  expect([typeof idle.turn, typeof idle.need_id]).toEqual(["number", "number"]);
  expect(idle).toMatchObject({ terminal: "slow", state: "idle" });
  expect(idle.need_id).toBeGreaterThan(found.need_id);
}

test("claim: each idle agent goes to one worker; another's answer is refused with the holder's name, unless forced", async () => {
  const agents = ["c1", "c2", "c3"];
  for (const id of agents) await ok(["create", "--name", id, "--agent", "codex"]);
  for (const id of agents) await ok(["wait", id, "--agent", "idle", "--timeout", "20s"]);
  // Four workers claim at once: three agents, three distinct claims; the fourth finds none.
  const claims = await Promise.all(
    ["w1", "w2", "w3", "w4"].map((worker) =>
      t4a(["wait", "--any", "--agent", "idle", "--claim", "--worker", worker, "--json", "--timeout", "1s"]),
    ),
  );
  const got = claims.filter((claim) => claim.code === 0).map((claim) => JSON.parse(claim.stdout));
  expect(claims.filter((claim) => claim.code !== 0).length).toBe(1);
  expect(new Set(got.map((claim) => claim.terminal))).toEqual(new Set(agents));
  expect(new Set(got.map((claim) => claim.need_id)).size).toBe(3);
  for (const claim of got) expect(claim.claimed_by).toMatch(/^worker "w[1-4]"$/);
  // list shows who holds each.
  const held = got[0];
  const listed = await ok(["list"]);
  expect(listed).toContain(`need ${held.need_id} claimed by ${held.claimed_by}`);
  // An unclaimed wait skips claimed needs too.
  expect((await t4a(["wait", "--any", "--agent", "idle", "--timeout", "300ms"])).code).toBe(1);
  // Another worker's ask is refused, naming the holder; nothing was typed.
  const refused = await t4a(["ask", held.terminal, "--worker", "intruder", "--json", "stolen prompt"]);
  expect(refused.code).not.toBe(0);
  const refusal = JSON.parse(refused.stdout);
  expect(refusal).toMatchObject({ ok: false, code: "claimed" });
  expect(refusal.error).toContain(held.claimed_by);
  expect(await sandbox.screen(held.terminal)).not.toContain("stolen prompt");
  // The holder's own ask goes in, and ends its claim: the next idle is a new need, anyone's.
  const worker = /"(.*)"/.exec(held.claimed_by)![1]!;
  await ok(["ask", held.terminal, "--worker", worker, "--timeout", "30s", "the holder's prompt"]);
  const next = await json(["wait", "--any", "--agent", "idle", "--claim", "--worker", "w9", "--timeout", "5s"]);
  expect(next).toMatchObject({ terminal: held.terminal, claimed_by: 'worker "w9"' });
  expect(next.need_id).not.toBe(held.need_id);
  // --force acts over a claim.
  await ok(["ask", held.terminal, "--worker", "intruder", "--force", "--timeout", "30s", "forced prompt"]);
  for (const id of agents) await ok(["kill", id]);
}, 90_000);

test("a claim ends with its anonymous connection, or with its lease", async () => {
  await ok(["create", "--name", "lease", "--agent", "codex"]);
  await ok(["wait", "lease", "--agent", "idle", "--timeout", "20s"]);
  // Anonymous (no worker): held by the connection that claimed it, let go when it closes.
  const connection = await DaemonConnection.open(sandbox.socket);
  const { reply } = await connection.request({ cmd: "wait", any: true, agent: "idle", claim: true, timeout_ms: 5000 });
  expect(reply).toMatchObject({ ok: true, terminal: "lease", claimed_by: expect.stringMatching(/^connection \d+$/) });
  expect((await t4a(["wait", "--any", "--agent", "idle", "--timeout", "300ms"])).code).toBe(1);
  connection.close();
  const after = await json(["wait", "--any", "--agent", "idle", "--claim", "--worker", "w1", "--lease", "1s"]);
  expect(after).toMatchObject({ terminal: "lease", need_id: reply.need_id, claimed_by: 'worker "w1"' });
  // A named claim outlives its call, until its lease: then another worker is handed the need.
  const started = Date.now();
  const later = await json(["wait", "--any", "--agent", "idle", "--claim", "--worker", "w2", "--timeout", "10s"]);
  expect(later).toMatchObject({ terminal: "lease", need_id: reply.need_id, claimed_by: 'worker "w2"' });
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  await ok(["kill", "lease"]);
}, 60_000);

test("an ask racing a kill answers exited, never an internal error (50 races)", async () => {
  const outcomes = new Map<string, number>();
  const race = async (round: number) => {
    const id = `race${round}`;
    await ok(["create", "--name", id, "--agent", "codex"]);
    await ok(["wait", id, "--agent", "idle", "--timeout", "30s"]);
    const asked = t4a(["ask", id, "--json", "--timeout", "30s", `prompt ${round}`]);
    // The kill lands at a different point of the ask each round: before it types (a third of
    // the rounds, at times apart), while the turn runs, or once it ended, as the ask reads its
    // answer (this fake writes no log: the ask looks for it the whole 5 s).
    if (round % 3 === 0) await Bun.sleep((round % 10) * 150);
    else await t4a(["wait", id, "--agent", "working", "--timeout", "30s"]);
    if (round % 3 === 2) await t4a(["wait", id, "--agent", "idle", "--timeout", "30s"]);
    await t4a(["kill", id]);
    const reply = await asked;
    const parsed = JSON.parse(reply.stdout || "{}");
    const outcome = parsed.ok ? `ok:${parsed.ended}` : `error:${parsed.code}`;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  };
  // Ten at a time, each runner taking the next round as its last ends (no round waits for the
  // slowest of a batch): each race is its own agent, the same 50 rounds.
  let next = 0;
  const runner = async () => {
    while (next < 50) await race(next++);
  };
  await Promise.all(Array.from({ length: 10 }, runner));
  console.log("ask racing kill:", JSON.stringify(Object.fromEntries(outcomes)));
  // A kill before the ask finds the agent answers not_found; during it, exited; none is internal.
  for (const outcome of outcomes.keys())
    expect(["error:exited", "error:not_found", "ok:idle", "ok:exited"]).toContain(outcome);
  expect([...outcomes.values()].reduce((a, b) => a + b, 0)).toBe(50);
}, 600_000);

test("an Enter lost after a typed prompt (gemini on a loaded machine) goes in again: the ask answers, not a timeout", async () => {
  await ok(["create", "--name", "lost", "-e", "FAKE_LOSE_ENTER=1", "--agent", "gemini"]);
  await ok(["wait", "lost", "--agent", "idle", "--timeout", "20s"]);
  const asked = await t4a(["ask", "lost", "--json", "--timeout", "30s", "hello there"]);
  const reply = JSON.parse(asked.stdout);
  expect({ code: asked.code, ended: reply.ended }).toEqual({ code: 0, ended: "idle" });
  expect(reply.answer).toContain("done: hello there");
  await ok(["kill", "lost"]);
}, 60_000);
