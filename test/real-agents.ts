// The real agent CLIs (pinned in test/agents/package.json, installed by .ci/run or `npm run
// agents:install`) under t4a, offline against the fake model server (test/fixtures/fake-model.ts).
// For each one, a whole turn: the prompt runs, a permission question is asked and answered with
// the key its preset names, the file is written, the final text comes, and the agent state is
// right at every step (starting → working → waiting → working → idle, nothing else), with the
// latency of each state after the screen showed it. Then --yolo (no question), --direct (no login
// shell; quitting the CLI leaves a shell), and a resume whose next turn carries the earlier conversation. For claude and codex, a sandboxed
// turn in a worktree that commits, then a resume there that commits again. Where a CLI is not installed, its tests skip and say so.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { AGENTS_BIN, type AgentCli, prepareAgentHome } from "./fixtures/agent-homes.ts";
import { FakeModel, FILE_CONTENT } from "./fixtures/fake-model.ts";
import { BIN, Sandbox, statesOnceAsked, waitFor } from "./harness.ts";
import { HAS_BWRAP } from "./security/actor.ts";

/** The question each CLI asks before writing the file, as the waiting event's line. */
const QUESTION: Record<AgentCli, RegExp> = {
  claude: /^Do you want to create hello-claude\.txt\?$/,
  codex: /^Would you like to run the following command\?$/,
  gemini: /^Apply this change\?$/,
  qwen: /^Apply this change\?$/,
  opencode: /Permission required$/,
};

/**
 * How each CLI is quit from its input box. Not C-c: claude wants two presses close together and
 * codex counts them differently (both flaked); the quit command is one line each understands.
 */
const QUIT: Record<AgentCli, string> = {
  claude: "/exit",
  codex: "/quit",
  gemini: "/quit",
  qwen: "/quit",
  opencode: "/exit",
};

let sandbox: Sandbox;
let model: FakeModel;
let home: string;
let work: string;
let agentEnv: Record<string, string>;
/** Latencies measured here, printed at the end (and read by the note of issue 23). */
const latencies: string[] = [];

/** The file's own daemon, fake model server, home and work directory. */
function hooks(): void {
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
    if (latencies.length)
      console.log(`real agents, ms from the screen showing it to the state event:\n${latencies.join("\n")}`);
    model?.stop();
    await sandbox?.cleanup();
  });
}

function env(): Record<string, string> {
  return { ...sandbox.env, ...agentEnv, HOME: home, SHELL: "/bin/bash", PATH: `${AGENTS_BIN}:${process.env.PATH}` };
}

/** Any outcome of a CLI call: its exit code and what it printed. */
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
  const child = Bun.spawn([BIN, ...args], { cwd: work, env: env(), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`t4a ${args.join(" ")}: exit ${code}: ${stderr}`);
  return stdout.trim();
}

/** The session as list --json shows it. */
async function sessionOf(id: string): Promise<{ alive: boolean; agent_state?: string }> {
  return JSON.parse(await t4a(["list", "--json"])).terminals.find((t: { id: string }) => t.id === id);
}

interface Step {
  state: string;
  line: string;
  at: number;
}

/**
 * Watches one session: its agent_state events and, every 50 ms, its screen, so each event can be
 * set against the moment the screen first showed what it reports.
 */
class Watch {
  readonly steps: Step[] = [];
  readonly #seen = new Map<string, number>();
  #stop = false;
  #close = () => {};
  readonly #done: Promise<void>;

  private constructor(
    readonly id: string,
    private readonly marks: Record<string, (screen: string) => boolean>,
    subscribed: () => void,
  ) {
    this.#done = Promise.all([this.#events(subscribed), this.#screens()]).then(() => {});
  }

  /** A watch whose event subscription is in place: create the session after this, or its first states are missed. */
  static async start(id: string, marks: Record<string, (screen: string) => boolean>): Promise<Watch> {
    const { promise, resolve } = Promise.withResolvers<void>();
    const watch = new Watch(id, marks, resolve);
    await promise;
    return watch;
  }

  async #events(subscribed: () => void): Promise<void> {
    const connection = await sandbox.connect();
    this.#close = () => connection.close();
    // Every session's events (this one does not exist yet), this one's kept.
    await connection.request({ cmd: "events" });
    subscribed();
    for (
      let line = await connection.readLine().catch(() => undefined);
      line;
      line = await connection.readLine().catch(() => undefined)
    ) {
      if (line.event === "agent_state" && line.terminal === this.id)
        this.steps.push({ state: String(line.state), line: String(line.line), at: performance.now() });
    }
  }

  async #screens(): Promise<void> {
    while (!this.#stop) {
      const screen = await sandbox.screen(this.id).catch(() => "");
      for (const [mark, shows] of Object.entries(this.marks))
        if (!this.#seen.has(mark) && shows(screen)) this.#seen.set(mark, performance.now());
      await Bun.sleep(50);
    }
  }

  /** When the screen first showed `mark`. */
  seen(mark: string): number | undefined {
    return this.#seen.get(mark);
  }

  async until(state: string, timeoutMs = 60_000): Promise<Step> {
    // The states seen are read when the wait fails, not when it begins (then none ever showed:
    // "states so far: " empty, though the daemon had sent working, read as "no event at all").
    return waitFor(
      () => this.steps.findLast((step) => step.state === state),
      timeoutMs,
      `${this.id} to be ${state}`,
    ).catch((error: Error) => {
      throw new Error(`${error.message} (states so far: ${this.states().join(" → ") || "none"})`);
    });
  }

  /** The states in order, a question announced twice in a row counted once (harness.ts statesOnceAsked). */
  states(): string[] {
    return statesOnceAsked(this.steps);
  }

  /** Every state with its line, and the screen now: what a failure shows. */
  async report(): Promise<string> {
    const at = (step: Step) => `${(step.at / 1000).toFixed(1)}s`;
    const steps = this.steps.map((step) => `${at(step)} ${step.state}: ${step.line}`).join("\n");
    return `${steps}\n--- screen at ${(performance.now() / 1000).toFixed(1)}s ---\n${await sandbox.screen(this.id)}`;
  }

  async stop(): Promise<void> {
    this.#stop = true;
    this.#close();
    await this.#done;
  }
}

function installed(cli: AgentCli): boolean {
  const found = existsSync(join(AGENTS_BIN, cli));
  if (!found) console.log(`skipped: the real ${cli} is not installed (npm run agents:install)`);
  return found;
}

function eachCli(cli: AgentCli): void {
  const present = installed(cli);

  test.if(present)(
    `${cli}: a whole turn with a question, and the agent state right at every step`,
    async () => {
      const file = join(work, `hello-${cli}.txt`);
      const id = `turn-${cli}`;
      const watch = await Watch.start(id, {
        question: (screen) =>
          QUESTION[cli].test(
            screen
              .split("\n")
              .map((row) => row.replace(/^[\s│┃║╭╮╰╯─━╌╹▐▌█▄▀]+|[\s│┃║╭╮╰╯─━╌╹▐▌█▄▀]+$/g, ""))
              .find((row) => QUESTION[cli].test(row)) ?? "",
          ),
        answer: (screen) => /FAKE-ANSWER 1/.test(screen),
      });
      const created = performance.now();
      await t4a(["create", "--name", id, "--agent", cli, "--prompt", `Please t4a:write:${file}`]);
      const waiting = await watch.until("waiting", 90_000);
      expect(waiting.line).toMatch(QUESTION[cli]);
      const answered = performance.now();
      // approve presses the key the preset names for yes, and prints the question it answered.
      expect(await t4a(["approve", id])).toMatch(QUESTION[cli]);
      const idle = await watch.until("idle", 60_000);
      await waitFor(() => watch.seen("answer"), 30_000, "the final text");
      expect(readFileSync(file, "utf8")).toBe(FILE_CONTENT);
      expect(idle.line).toContain("FAKE-ANSWER 1");
      await watch.stop();
      // Nothing but the right states, in order: never idle before the turn, nor mid-turn. A stretch
      // of work may end within one screen read: the work after the answer (gemini, once in CI), or
      // the turn's start when the prompt is an argument and the model answers at once (codex on a
      // loaded machine: its first read already showed the question). Then that "working" is
      // missing, which is late, never wrong.
      const right = [
        ["working", "waiting", "working", "idle"],
        ["working", "waiting", "idle"],
        ["waiting", "working", "idle"],
      ].some((states) => states.join() === watch.states().join());
      if (!right) throw new Error(`wrong states:\n${await watch.report()}`);
      // Absent when the work after the answer ended within one screen read: no figure then.
      const working = watch.steps
        .slice(watch.steps.findIndex((step) => step.state === "waiting") + 1)
        .find((step) => step.state === "working");
      latencies.push(
        `${cli}: first ${watch.steps[0]!.state} ${Math.round(watch.steps[0]!.at - created)} after create; ` +
          `waiting +${Math.round(waiting.at - watch.seen("question")!)}; working +${working ? Math.round(working.at - answered) : "NaN"} after the answer; ` +
          `idle +${Math.round(idle.at - watch.seen("answer")!)} after the final text`,
      );
      await t4a(["kill", id]);
    },
    180_000,
  );

  test.if(present)(
    `${cli}: --yolo runs the turn without a question`,
    async () => {
      const file = join(work, `yolo-${cli}.txt`);
      const id = `yolo-${cli}`;
      const watch = await Watch.start(id, {});
      await t4a(["create", "--name", id, "--agent", cli, "--yolo", "--prompt", `Please t4a:write:${file}`]);
      const idle = await watch.until("idle", 90_000);
      // What a failure shows: every state with its line, and the screen when idle came.
      const seen = await watch.report();
      expect(existsSync(file), seen).toBe(true);
      expect(readFileSync(file, "utf8")).toBe(FILE_CONTENT);
      expect(idle.line, seen).toContain("FAKE-ANSWER");
      await watch.stop();
      expect(watch.states(), seen).toEqual(["working", "idle"]);
      await t4a(["kill", id]);
    },
    180_000,
  );

  test.if(present)(
    `${cli}: a tool silent for 4 s is not idle mid-turn`,
    async () => {
      const id = `silent-${cli}`;
      const marker = join(work, `silent-${cli}.done`);
      const watch = await Watch.start(id, {});
      // Not `sleep 4; touch …`: qwen 0.24 refuses a sleep followed by a command ("Run blocking commands in the background").
      const silent = `python3 -c 'import time, pathlib; time.sleep(4); pathlib.Path("${marker}").touch()'`;
      await t4a(["create", "--name", id, "--agent", cli, "--yolo", "--prompt", `Please t4a:run:${silent}`]);
      const idle = await watch.until("idle", 90_000);
      const seen = await watch.report();
      await watch.stop();
      // Idle only after the command ended and the model answered, never while it slept.
      expect(existsSync(marker), seen).toBe(true);
      expect(idle.line, seen).toContain("FAKE-ANSWER");
      expect(watch.states(), seen).toEqual(["working", "idle"]);
      await t4a(["kill", id]);
    },
    180_000,
  );

  /** A --yolo turn in a mode, then the CLI quit with its own command: a shell is left (seed 003). */
  async function turnThenQuit(mode: "direct" | "sandbox"): Promise<void> {
    const file = join(work, `${mode}-${cli}.txt`);
    const id = `${mode}-${cli}`;
    const watch = await Watch.start(id, {});
    await t4a(["create", "--name", id, "--agent", cli, `--${mode}`, "--yolo", "--prompt", `Please t4a:write:${file}`]);
    const idle = await watch.until("idle", 90_000).catch(async (error: Error) => {
      throw new Error(
        `${error.message}\n--- screen ---\n${await sandbox.screen(id)}\n${await t4a(["list", "--json"])}\n${JSON.stringify(model.requests.map((request) => request.path))}`,
      );
    });
    const seen = await watch.report();
    expect(existsSync(file), seen).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(FILE_CONTENT);
    expect(idle.line, seen).toContain("FAKE-ANSWER");
    await watch.stop();
    expect(watch.states(), seen).toEqual(["working", "idle"]);
    // The quit command typed as a person would: its text, then Enter apart (a slash menu opens first).
    await t4a(["send", id, QUIT[cli]]);
    await Bun.sleep(500);
    await t4a(["send", id, "-k", "Enter"]);
    await waitFor(
      async () => (await sessionOf(id))?.agent_state === "exited",
      30_000,
      `${cli} to exit on ${QUIT[cli]}`,
    );
    // What a failure shows (claude --direct once ended the session here, in CI only): the session and its screen.
    const after = await sessionOf(id);
    expect(
      after?.alive,
      `${JSON.stringify(after)}\n--- screen ---\n${await sandbox.screen(id).catch((error: Error) => error.message)}`,
    ).toBe(true);
    await t4a(["send", id, "echo shell-after-$((6*7))", "-k", "Enter"]);
    await waitFor(
      async () => (await t4aRaw(["text", id])).stdout.includes("shell-after-42"),
      20_000,
      "a shell after the agent",
    );
    await t4a(["kill", id]);
  }

  test.if(present)(
    `${cli}: --direct (no login shell) runs the turn; quitting it leaves a shell (seed 003)`,
    () => turnThenQuit("direct"),
    180_000,
  );

  // In bwrap: its API reached through the allow-list (the fake's 127.0.0.1 from its *_BASE_URL),
  // its home read-only but for what it keeps, hooks (claude's, qwen's) through the session's FIFO.
  // In a checkout under /tmp (CI's) this found two bugs: the proxy dropped the tail of claude's
  // first request, and opencode's SQLite WAL was made a directory (issue 23).
  const sandboxable = present && HAS_BWRAP;
  if (present && !HAS_BWRAP) console.log(`skipped: ${cli} --sandbox (no usable bwrap here)`);
  test.if(sandboxable)(
    `${cli}: --sandbox runs the turn in bwrap, states right; quitting it leaves a shell`,
    () => turnThenQuit("sandbox"),
    180_000,
  );

  // A directory the CLI has never seen, sandboxed, after it has run elsewhere (issue 45 item 11:
  // gemini 0.61 exited at start, ENOENT mkdir ~/.gemini/history/<dir>, its read-only history).
  test.if(sandboxable)(
    `${cli}: --sandbox in a directory it has not seen runs the turn`,
    async () => {
      const fresh = join(sandbox.dir, `unseen-${cli}`);
      mkdirSync(fresh, { recursive: true });
      Bun.spawnSync(["git", "init", "-q", fresh]);
      // Trusted as the user's checkout is (no trust question), and an earlier run's state in place.
      prepareAgentHome(home, model.url, [work, fresh]);
      mkdirSync(join(home, ".gemini", "history", "work"), { recursive: true });
      const id = `unseen-${cli}`;
      const file = join(fresh, "hello.txt");
      const watch = await Watch.start(id, {});
      await t4a([
        "create",
        "--name",
        id,
        "--agent",
        cli,
        "--sandbox",
        "--yolo",
        "--cwd",
        fresh,
        "--prompt",
        `Please t4a:write:${file}`,
      ]);
      const idle = await watch.until("idle", 90_000).catch(async (error: Error) => {
        throw new Error(`${error.message}\n${await watch.report()}`);
      });
      const seen = await watch.report();
      await watch.stop();
      expect(existsSync(file), seen).toBe(true);
      expect(idle.line, seen).toContain("FAKE-ANSWER");
      await t4a(["kill", id]);
    },
    180_000,
  );

  // Turn after turn through the sandbox's proxy (issue 45 item 11: opencode --sandbox answered
  // "Bad Request" on 4 of 7 turns; not seen here in 7 of 7, twice).
  test.if(sandboxable)(
    `${cli}: --sandbox answers ask after ask`,
    async () => {
      const id = `asks-${cli}`;
      await t4a(["create", "--name", id, "--agent", cli, "--sandbox"]);
      await t4a(["wait", id, "--agent", "idle", "--timeout", "90s"]);
      for (let turn = 1; turn <= 7; turn++) {
        const said = await t4aRaw(["ask", id, "--json", "--timeout", "90s", `t4a:say:Boxed answer ${turn}`]);
        expect(
          JSON.parse(said.stdout),
          `turn ${turn}: ${said.stdout}\n--- screen ---\n${await sandbox.screen(id)}`,
        ).toMatchObject({ ok: true, ended: "idle", answer: `Boxed answer ${turn}` });
      }
      await t4a(["kill", id]);
    },
    600_000,
  );

  test.if(present)(
    `${cli}: ask answers the scripted text; a question ends the ask, deny refuses it; transcript reads the log`,
    async () => {
      const id = `ask-${cli}`;
      await t4a(["create", "--name", id, "--agent", cli]);
      await t4a(["wait", id, "--agent", "idle", "--timeout", "90s"]);
      const said = await t4aRaw(["ask", id, "--json", "--timeout", "60s", "t4a:say:The answer is 42"]);
      const answer = JSON.parse(said.stdout);
      expect(answer).toMatchObject({ ok: true, ended: "idle", source: "log" });
      // From a log, the answer is the text the model sent, exactly (opencode's, read from its
      // screen, held the previous prompt and answer every second ask, hard-wrapped: issue 45 item 5).
      expect(answer.answer).toBe("The answer is 42");
      const again = JSON.parse(
        (await t4aRaw(["ask", id, "--json", "--timeout", "60s", "t4a:say:The next answer is 43"])).stdout,
      );
      expect(again).toMatchObject({ ok: true, ended: "idle", source: "log", answer: "The next answer is 43" });

      const file = join(work, `denied-${cli}.txt`);
      const asked = await t4aRaw(["ask", id, "--timeout", "60s", `Please t4a:write:${file}`]);
      expect(asked.code).toBe(4); // waiting on a question
      expect(asked.stderr).toMatch(/^t4a: waiting: /);
      expect(await t4a(["deny", id])).not.toBe("");
      await t4a(["wait", id, "--agent", "idle", "--timeout", "60s"]);
      expect(existsSync(file)).toBe(false);
      // Nothing asked now: approve is refused and says why.
      const refused = await t4aRaw(["approve", id, "--json"]);
      expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, code: "not_waiting" });

      const transcript = await t4aRaw(["transcript", id, "--json"]);
      const messages = JSON.parse(transcript.stdout).messages as Array<{ role: string; text: string }>;
      expect(messages, transcript.stdout).toContainEqual({ role: "user", text: "t4a:say:The answer is 42" });
      expect(messages, transcript.stdout).toContainEqual({ role: "assistant", text: "The answer is 42" });
      // Each message once, in order, the answers kept (issue 45 item 7: gemini rewrites its history
      // after a deny, and every earlier user line came twice, its answers gone). gemini 0.61's
      // rewritten history leaves the denied turn out: its transcript ends with the answer before.
      const spoken = messages
        .filter((message) => message.role !== "tool_call" && message.role !== "tool_result")
        .map((message) => `${message.role}: ${message.text}`);
      const before = [
        "user: t4a:say:The answer is 42",
        "assistant: The answer is 42",
        "user: t4a:say:The next answer is 43",
        "assistant: The next answer is 43",
      ];
      if (cli === "gemini") {
        expect(spoken, transcript.stdout).toEqual(before);
      } else {
        expect(spoken.slice(0, 5), transcript.stdout).toEqual([...before, `user: Please t4a:write:${file}`]);
        expect(
          messages.some((message) => message.role === "tool_call" && message.text.includes(`denied-${cli}.txt`)),
          transcript.stdout,
        ).toBe(true);
      }
      await t4a(["kill", id]);
    },
    240_000,
  );

  // Two sessions of one CLI in one directory, asked in turn: each answers with its own words
  // (codex's log has no id of ours; it was found by directory and time, and the newest was the
  // other session's: the pool at scale, issue 57). Not opencode: its one database holds every
  // conversation, told apart by directory and start only, and two in one directory still cross
  // (the second's ask falls back to its screen): a known gap, docs/agents.md.
  test.if(present && cli !== "opencode")(
    `${cli}: two sessions in one directory, each ask answered from its own conversation`,
    async () => {
      const ids = [`twin-a-${cli}`, `twin-b-${cli}`];
      for (const id of ids) await t4a(["create", "--name", id, "--agent", cli]);
      for (const id of ids) await t4a(["wait", id, "--agent", "idle", "--timeout", "90s"]);
      const ask = async (id: string, words: string) => {
        const said = await t4aRaw(["ask", id, "--json", "--timeout", "60s", `t4a:say:${words}`]);
        expect(JSON.parse(said.stdout), said.stdout).toMatchObject({ ok: true, answer: words });
      };
      for (const id of ids) await ask(id, `${id} round 1`);
      // The first one's log is now the directory's newest: the second's transcript is still its own.
      await ask(ids[0]!, `${ids[0]} round 2`);
      const transcript = await t4aRaw(["transcript", ids[1]!, "--json"]);
      const texts = (JSON.parse(transcript.stdout).messages as Array<{ text: string }>).map((message) => message.text);
      expect(texts, transcript.stdout).toContain(`${ids[1]} round 1`);
      expect(
        texts.filter((text) => text.includes(ids[0]!)),
        transcript.stdout,
      ).toEqual([]);
      await ask(ids[1]!, `${ids[1]} round 2`);
      for (const id of ids) await t4a(["kill", id]);
    },
    300_000,
  );

  // Read as an orchestrator does, at once on the idle: the answer is in the transcript (issue 45
  // item 8: qwen's log got its answer after the screen showed it; read at the idle, it was missing). gemini loaded
  // reads the prompt and its Enter 500 ms later at once and loses the Enter: t4a's retry sends it again.
  test.if(present)(
    `${cli}: transcript read the moment idle comes has the turn's answer`,
    async () => {
      const id = `idle-log-${cli}`;
      const watch = await Watch.start(id, {});
      await t4a(["create", "--name", id, "--agent", cli]);
      await t4a(["wait", id, "--agent", "idle", "--timeout", "90s"]);
      for (let turn = 1; turn <= 3; turn++) {
        await t4a(["send", id, `t4a:say:Answer number ${turn}`]);
        await Bun.sleep(500);
        await t4a(["send", id, "-k", "Enter"]);
        const sent = performance.now();
        await t4a(["wait", id, "--agent", "idle", "--timeout", "90s"]);
        const waited = Math.round(performance.now() - sent);
        const read = JSON.parse((await t4aRaw(["transcript", id, "--json"])).stdout);
        const last = read.messages?.at(-1);
        // A failure says what the daemon reported and when, and what the screen showed.
        const why = last?.text === `Answer number ${turn}` ? "" : `\nwaited ${waited} ms\n${await watch.report()}`;
        expect(last, `turn ${turn}: ${JSON.stringify(read)}${why}`).toEqual({
          role: "assistant",
          text: `Answer number ${turn}`,
        });
      }
      await watch.stop();
      await t4a(["kill", id]);
    },
    300_000,
  );

  // opencode draws the API's message bare, in its own frame: nothing tells it from an answer.
  test.if(present && cli !== "opencode")(
    `${cli}: an API error ends the ask as an error (exit 5), with the CLI's own error line`,
    async () => {
      const id = `err-${cli}`;
      await t4a(["create", "--name", id, "--agent", cli]);
      await t4a(["wait", id, "--agent", "idle", "--timeout", "90s"]);
      const failed = await t4aRaw(["ask", id, "--json", "--timeout", "60s", "t4a:fail:400"]);
      const reply = JSON.parse(failed.stdout);
      expect({ code: failed.code, ok: reply.ok, ended: reply.ended }).toEqual({ code: 5, ok: true, ended: "error" });
      expect(reply.error).toContain(
        cli === "claude" || cli === "qwen" ? "400 fake model: refused with 400" : "fake model: refused with",
      );
      // The next turn answers again: the error was that turn's, not the session's.
      const said = await t4aRaw(["ask", id, "--timeout", "60s", "t4a:say:Back again"]);
      expect({ code: said.code, stdout: said.stdout }).toEqual({
        code: 0,
        stdout: expect.stringContaining("Back again"),
      });
      await t4a(["kill", id]);
    },
    180_000,
  );

  // opencode's --continue ignores --prompt, so t4a types it; the prompt can land on its home screen
  // before the continued conversation is shown (passed here, failed once in a fresh clone): open.
  test.if(present)(
    `${cli}: resume brings the earlier conversation to the model; a fresh create under the same name starts over`,
    async () => {
      const id = `again-${cli}`;
      const first = `first-${cli}-${Date.now()}`;
      let watch = await Watch.start(id, {});
      await t4a(["create", "--name", id, "--agent", cli, "--yolo", "--prompt", `remember ${first}`]);
      await watch.until("idle", 90_000);
      await watch.stop();
      await t4a(["kill", id]);

      watch = await Watch.start(id, {});
      const second = `second-${cli}-${Date.now()}`;
      await t4a(["create", "--name", id, "--agent", cli, "--yolo", "--resume", "--prompt", `recall ${second}`]);
      const idle = await watch.until("idle", 90_000);
      const seen = await watch.report();
      await watch.stop();
      // Never idle before the resumed turn (opencode's prompt is typed once the conversation
      // shows): the first idle is the answer's. A turn that ends within one screen read (codex, once
      // in CI) shows no "working" before it, which is late, never wrong.
      expect(["working,idle", "idle"], seen).toContain(watch.states().join());
      expect(watch.steps.find((step) => step.state === "idle")!.line, seen).toContain("FAKE-ANSWER 2");
      // The model saw the new prompt with the old one before it: the same conversation.
      expect(model.seen(second).some((request) => JSON.stringify(request.body).includes(first))).toBe(true);
      expect(idle.line).toContain("FAKE-ANSWER 2");
      // Its log is still found (issue 45 item 6): the resumed conversation, old turn and new.
      const transcript = JSON.parse((await t4aRaw(["transcript", id, "--json"])).stdout);
      expect(transcript.messages, JSON.stringify(transcript)).toContainEqual({
        role: "user",
        text: `recall ${second}`,
      });
      expect(transcript.messages, JSON.stringify(transcript)).toContainEqual({
        role: "user",
        text: `remember ${first}`,
      });
      if (cli !== "codex" && cli !== "opencode")
        expect(((await sessionOf(id)) as { conversation_id?: string }).conversation_id).toBeString();
      await t4a(["kill", id]);

      // The same name again without --resume: a conversation of its own, started (not refused).
      watch = await Watch.start(id, {});
      const third = `third-${cli}-${Date.now()}`;
      await t4a(["create", "--name", id, "--agent", cli, "--yolo", "--prompt", `fresh ${third}`]);
      await watch.until("idle", 90_000);
      await watch.stop();
      expect(model.seen(third).some((request) => JSON.stringify(request.body).includes(first))).toBe(false);
      await t4a(["kill", id]);
    },
    300_000,
  );
}

/** The worktree t4a makes for `--worktree NAME` in `repo`: under the daemon's state dir (its HOME is this process's). */
function worktreeOf(repo: string, name: string): string {
  return join(
    process.env.XDG_STATE_HOME || join(process.env.HOME!, ".local", "state"),
    "t4a",
    "worktrees",
    `${basename(repo)}-${name}`,
  );
}

function git(repo: string, args: string[]): { code: number; out: string } {
  const result = Bun.spawnSync(["git", "-C", repo, ...args], { env: { ...process.env, HOME: home } });
  return { code: result.exitCode, out: `${result.stdout.toString()}${result.stderr.toString()}`.trim() };
}

// The security issue's last "show it" line: a real agent CLI still completes a sandboxed turn in
// a worktree, commits, and resumes. The turn's command writes a file, tries to write the main
// checkout (read-only in the sandbox), and commits on t4a/feat; from outside, the commit is on the
// branch and nothing else changed. Killed, the worktree goes (clean) and the branch stays (it has a
// commit); --resume on the same name brings it back and the conversation with it, and a second
// turn commits on top.
function sandboxedWorktree(cli: "claude" | "codex"): void {
  const runnable = existsSync(join(AGENTS_BIN, cli)) && HAS_BWRAP;
  if (existsSync(join(AGENTS_BIN, cli)) && !HAS_BWRAP)
    console.log(`skipped: ${cli} --sandbox --worktree (no usable bwrap here)`);
  test.if(runnable)(
    `${cli}: a sandboxed turn in a worktree commits on t4a/feat; --resume brings the conversation back for a second commit`,
    async () => {
      const started = performance.now();
      const repo = join(sandbox.dir, `repo-${cli}`);
      mkdirSync(repo, { recursive: true });
      for (const args of [
        ["init", "-q", "-b", "main"],
        ["config", "user.name", "T4a Test"],
        ["config", "user.email", "t4a-test@example.invalid"],
        ["commit", "-q", "--allow-empty", "-m", "base"],
      ]) {
        const done = git(repo, args);
        expect(done.code, done.out).toBe(0);
      }
      const base = git(repo, ["rev-parse", "HEAD"]).out;
      const tree = worktreeOf(repo, "feat");
      // The worktree is a project each CLI trusts, as the user's checkout is.
      prepareAgentHome(home, model.url, [work, repo, tree]);
      const id = `wt-${cli}`;
      const escaped = join(repo, "escaped.txt");
      const first = `printf feat-${cli} > feat-${cli}.txt; (echo escaped > ${escaped}) 2>/dev/null; git add -A && git commit -qm 'feat from ${cli}'`;
      const create = (extra: string[], prompt: string) =>
        t4a([
          "create",
          "--name",
          id,
          "--agent",
          cli,
          "--sandbox",
          "--worktree",
          "feat",
          "--yolo",
          ...extra,
          "--prompt",
          prompt,
          "--cwd",
          repo,
        ]);

      let watch = await Watch.start(id, {});
      await create([], `Please t4a:run:${first}`);
      const idle = await watch.until("idle", 120_000).catch(async (error: Error) => {
        throw new Error(
          `${error.message}\n--- screen ---\n${await sandbox.screen(id)}\n${await t4a(["list", "--json"])}`,
        );
      });
      const turned = performance.now();
      let seen = await watch.report();
      await watch.stop();
      expect(watch.states(), seen).toEqual(["working", "idle"]);
      const session = JSON.parse(await t4a(["list", "--json"])).terminals.find((t: { id: string }) => t.id === id);
      expect(session, JSON.stringify(session)).toMatchObject({
        worktree: tree,
        branch: "t4a/feat",
        worktree_created: true,
        sandbox: expect.stringMatching(/^bwrap/),
      });
      // From outside: the commit is on t4a/feat with the file; the main checkout and branch are as they were.
      expect(git(repo, ["log", "--format=%s", "t4a/feat"]).out, seen).toBe(`feat from ${cli}\nbase`);
      expect(git(repo, ["show", `t4a/feat:feat-${cli}.txt`]).out).toBe(`feat-${cli}`);
      expect(git(repo, ["diff", "--name-only", base, "t4a/feat"]).out).toBe(`feat-${cli}.txt`);
      expect(existsSync(escaped)).toBe(false);
      expect(git(repo, ["status", "--porcelain", "--untracked-files=all"]).out).toBe("");
      expect(git(repo, ["rev-parse", "main"]).out).toBe(base);
      expect(git(tree, ["status", "--porcelain", "--untracked-files=all"]).out).toBe("");
      expect(idle.line, seen).toContain("FAKE-ANSWER 1");

      // Killed: the clean worktree goes, the branch with its commit stays.
      const killed = await t4aRaw(["kill", id]);
      expect(killed.code, killed.stderr).toBe(0);
      await waitFor(() => !existsSync(tree), 10_000, "the clean worktree to be removed");
      expect(git(repo, ["rev-parse", "--verify", "--quiet", "refs/heads/t4a/feat"]).code).toBe(0);

      // Resumed on the same name and worktree: the worktree comes back on the branch, the model gets the earlier turn.
      const second = `printf second-${cli} > second-${cli}.txt && git add -A && git commit -qm 'second from ${cli}'`;
      watch = await Watch.start(id, {});
      const resumedAt = performance.now();
      await create(["--resume"], `Please t4a:run:${second}`);
      const again = await watch.until("idle", 120_000).catch(async (error: Error) => {
        throw new Error(`${error.message}\n--- screen ---\n${await sandbox.screen(id)}`);
      });
      seen = await watch.report();
      await watch.stop();
      expect(["working,idle", "idle"], seen).toContain(watch.states().join());
      const resumed = JSON.parse(await t4a(["list", "--json"])).terminals.find((t: { id: string }) => t.id === id);
      expect(resumed, JSON.stringify(resumed)).toMatchObject({
        worktree: tree,
        branch: "t4a/feat",
        resumed: true,
        sandbox: expect.stringMatching(/^bwrap/),
      });
      expect(again.line, seen).toContain("FAKE-ANSWER 2");
      expect(
        model.seen(second).some((request) => JSON.stringify(request.body).includes(`feat from ${cli}`)),
        seen,
      ).toBe(true);
      expect(git(repo, ["log", "--format=%s", "t4a/feat"]).out, seen).toBe(
        `second from ${cli}\nfeat from ${cli}\nbase`,
      );
      expect(git(repo, ["show", `t4a/feat:second-${cli}.txt`]).out).toBe(`second-${cli}`);
      expect(git(repo, ["status", "--porcelain", "--untracked-files=all"]).out).toBe("");
      expect(git(repo, ["rev-parse", "main"]).out).toBe(base);
      await t4a(["kill", id]);
      latencies.push(
        `${cli} worktree+sandbox: first turn idle ${Math.round(turned - started)} ms after the repo was made; resumed turn idle ${Math.round(performance.now() - resumedAt)} ms after the resume`,
      );
    },
    300_000,
  );
}

/**
 * What each CLI first asks when it has no credentials and the folder is not trusted, as the
 * waiting event's line: the question, not an option row ("> 1. Sign in with ChatGPT"). claude
 * exits offline (its login reaches api.anthropic.com) and opencode starts on a free default
 * model (idle): neither asks.
 */
const FIRST_QUESTION: Partial<Record<AgentCli, RegExp>> = {
  codex: /^Choose how you want to use Codex\.$/,
  gemini: /^Do you trust the files in this folder\?$/,
  qwen: /^Connect a Provider$/,
};

function firstScreen(cli: AgentCli, question: RegExp): void {
  test.if(existsSync(join(AGENTS_BIN, cli)))(
    `${cli}: its first screen without credentials is waiting, with the question as its line`,
    async () => {
      const bare = join(sandbox.dir, `bare-home-${cli}`);
      mkdirSync(bare, { recursive: true });
      writeFileSync(join(bare, ".bashrc"), "PS1='$ '\n");
      // No keys, no base URLs, nothing configured: a new user's machine.
      const withoutKeys = Object.fromEntries(
        Object.entries(env()).filter(([key]) => !/_API_KEY$|_BASE_URL$|^OPENAI_MODEL$/.test(key)),
      );
      const id = `first-${cli}`;
      const created = Bun.spawnSync([BIN, "create", "--name", id, "--agent", cli], {
        cwd: work,
        env: { ...withoutKeys, HOME: bare },
      });
      expect(created.exitCode, created.stderr.toString()).toBe(0);
      const waited = JSON.parse(
        await t4a(["wait", id, "--agent", "waiting", "--timeout", "60s", "--json"]).catch(async (error: Error) => {
          throw new Error(`${error.message}\n--- screen ---\n${await sandbox.screen(id)}`);
        }),
      );
      expect(waited.line).toMatch(question);
      await t4a(["kill", id]);
    },
    120_000,
  );
}

/**
 * Registers one CLI's tests, with a daemon, model server and home of their own: each CLI has its file
 * (test/real-agents-CLI.test.ts), so the suite runs them side by side. `agents --check`, which reads
 * every CLI, is test/new-agents.test.ts's (one run of every CLI's --help for the suite).
 */
export function realAgentTests(cli: AgentCli): void {
  hooks();
  eachCli(cli);
  if (cli === "claude" || cli === "codex") sandboxedWorktree(cli);
  const question = FIRST_QUESTION[cli];
  if (question) firstScreen(cli, question);
}
