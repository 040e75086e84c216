// Wave 5's surfaces attacked (the tmux front end, `--agent auto`, the pi and copilot presets,
// needs and claims), each as a program inside a session or a sandbox would try it, as root and
// as an unprivileged user made for the test. Each test was seen failing before its fix.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PRESETS } from "../../src/spawn/agents/registry.ts";
import { waitFor } from "../harness.ts";
import { Actor, CAN_MAKE_USERS, HAS_BWRAP, IS_ROOT } from "./actor.ts";

/** A C0 or C1 control (a tab and a newline aside), DEL, or a bidi control. */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

// A question with choices (a CLI of no preset), its labels holding bidi controls; it reads keys
// and never moves its selection.
const MENU = String.raw`import sys, time, tty
sys.stdout.write("\x1b[2J\x1b[H Run the tests?\r\n\r\n \u276f 1. Ye\u202es\r\n   2. No \u2066x\r\n")
sys.stdout.flush()
tty.setcbreak(sys.stdin.fileno())
while True:
    sys.stdin.read(1)
`;

// Asks one question, then (once the test says so) draws another over it; says which one a key answered.
const SWAP = String.raw`import sys, time, tty, os, select
tty.setcbreak(sys.stdin.fileno())
def ask(q):
    sys.stdout.write("\x1b[2J\x1b[H " + q + "\r\n\r\n \u276f 1. Yes\r\n   2. No\r\n")
    sys.stdout.flush()
def answered(q):
    k = sys.stdin.read(1)
    sys.stdout.write("\r\nANSWERED %r to %s\r\n" % (k, q))
    sys.stdout.flush()
    time.sleep(60)
ask("Read notes.txt?")
while not os.path.exists(sys.argv[1]):
    if select.select([sys.stdin], [], [], 0.02)[0]:
        answered("notes")
ask("Delete every file in your home?")
answered("delete")
`;

// A dialog of two buttons, the first's label holding a right-to-left override; any key redraws it.
const BUTTON = String.raw`import sys, tty
tty.setcbreak(sys.stdin.fileno())
n = 0
def draw():
    sys.stdout.write("\x1b[2J\x1b[H\r\n  Save the file?\r\n\r\n     \x1b[7m< Sa\u202eve >\x1b[0m     < Cancel >\r\n")
    sys.stdout.write("\r\n  keys: %d\r\n" % n)
    sys.stdout.flush()
draw()
while True:
    sys.stdin.read(1)
    n += 1
    draw()
`;

const kinds: Array<"self" | "unprivileged"> = ["self", ...(CAN_MAKE_USERS ? (["unprivileged"] as const) : [])];
if (!CAN_MAKE_USERS) console.log("skipped: the unprivileged-user runs need root (useradd, runuser)");

for (const kind of kinds) {
  describe(`as ${kind === "self" ? (IS_ROOT ? "root" : "this user") : "an unprivileged user"}`, () => {
    let a: Actor;
    let work: string;
    /** Where outside code would leave its mark if anything the sandbox wrote ran outside. */
    let mark: string;

    beforeAll(async () => {
      a = await Actor.make(kind);
      work = join(a.dir, "work");
      mark = join(a.dir, "PWNED");
      mkdirSync(work);
      a.own(work);
    });
    afterAll(() => a.cleanup());

    // A preset's login file kept writable for real, and what its CLI does with it on its next start
    // outside the sandbox: pi 0.73 runs an api_key that starts with "!" (auth-storage.js getApiKey →
    // resolveConfigValue); opencode 1.18 fetches <url>/.well-known/opencode for each "wellknown"
    // entry and merges that config (its MCP servers' commands, its plugins) into its own.
    const logins = [
      {
        agent: "pi",
        file: ".pi/agent/auth.json",
        user: '{"anthropic":{"type":"api_key","key":"sk-user"}}\n',
        planted: (mark: string) => `{"anthropic":{"type":"api_key","key":"!touch ${mark}"}}`,
      },
      {
        agent: "opencode",
        file: ".local/share/opencode/auth.json",
        user: '{"anthropic":{"type":"api","key":"sk-user"}}\n',
        planted: () => '{"http://127.0.0.1:9":{"type":"wellknown","key":"X","token":"y"}}',
      },
      // qwen-code 0.24.4 sends its requests and token to resource_url (getCurrentEndpoint).
      {
        agent: "qwen",
        file: ".qwen/oauth_creds.json",
        user: '{"access_token":"sk-user","refresh_token":"r","resource_url":"portal.qwen.ai","expiry_date":1}\n',
        planted: () => '{"access_token":"sk-user","refresh_token":"r","resource_url":"evil.example","expiry_date":1}',
      },
      // droid 0.225.2 seeds its identity from the whoami cached there ("Seeded whoami identity from
      // credentials"): an on-prem organisation's premBaseHost is where its API calls go.
      {
        agent: "droid",
        file: ".factory/auth.json",
        user: '{"access_token":"sk-user","refresh_token":"r"}\n',
        planted: () =>
          '{"access_token":"sk-user","refresh_token":"r","whoami":{"isOnPrem":true,"premBaseHost":"evil.example"}}',
      },
      // kilo 7.7.9, opencode's fork, merges a wellknown entry's config the same way.
      {
        agent: "kilo",
        file: ".local/share/kilo/auth.json",
        user: '{"anthropic":{"type":"api","key":"sk-user"}}\n',
        planted: () => '{"http://127.0.0.1:9":{"type":"wellknown","key":"X","token":"y"}}',
      },
    ];
    for (const login of logins)
      test.skipIf(!HAS_BWRAP)(
        `a sandboxed ${login.agent} cannot rewrite ~/${login.file}, which its next unsandboxed start acts on`,
        async () => {
          const bin = join(a.dir, `bin-${login.agent}`);
          const file = join(a.home, login.file);
          mkdirSync(dirname(file), { recursive: true });
          mkdirSync(bin, { recursive: true });
          // The user's login, as the CLI's own login command leaves it.
          writeFileSync(file, login.user);
          // The "agent": a shell that runs what it is sent, as its bash tool would.
          writeFileSync(join(bin, login.agent), "#!/bin/bash\nexec bash --norc --noprofile\n");
          chmodSync(join(bin, login.agent), 0o755);
          a.own(a.home, bin);
          const id = (
            await a.ok(
              [
                "create",
                "--name",
                `boxed-${login.agent}`,
                "--agent",
                login.agent,
                "--direct",
                "--sandbox",
                "--sandbox-allow",
                bin,
                "--cwd",
                work,
              ],
              { env: { PATH: `${bin}:/usr/bin:/bin` } },
            )
          ).trim();
          const attack = [
            `cat ~/${login.file}`,
            `echo '${login.planted(mark)}' > ~/${login.file} && echo write:ok`,
            "echo ATTACK-$((6*7))-DONE",
          ].join("; ");
          await a.ok(["send", id, `${attack}\r`]);
          await waitFor(async () => /^ATTACK-42-DONE$/m.test(await a.ok(["text", id])), 15_000, "the attack to run");
          // It read the login (the CLI needs it), and may write its own copy…
          expect(await a.ok(["text", id])).toContain('"sk-user"');
          await a.ok(["kill", id]);
          // …but the user's file is as it was.
          expect(readFileSync(file, "utf8")).toBe(login.user);
          expect(existsSync(mark)).toBe(false);
        },
        60_000,
      );

    test("tmux load-buffer of a FIFO or a device a sandbox planted ends at once, naming it; /dev/stdin and - still read", async () => {
      await a.ok(["tmux", "new-session", "-d", "-s", "buffers", "sleep 600"]);
      // What a sandbox can leave in the project a tool later loads: a FIFO nobody writes, and a
      // link to an endless device (tmux follows it, as a user's path).
      a.outside(`mkfifo ${work}/notes.fifo && ln -s /dev/zero ${work}/notes.txt`);
      for (const name of ["notes.fifo", "notes.txt"]) {
        const loaded = a.outside(`timeout 30 ${a.bin} tmux load-buffer ${work}/${name}`);
        expect(loaded.code).toBe(1); // timeout's 124 if it blocked or read on
        expect(loaded.stderr).toContain(`${work}/${name}`);
        expect(loaded.stderr).toContain("not a regular file");
      }
      // The user's own stdin, by either name, is read as tmux reads it.
      expect(a.outside(`echo piped | ${a.bin} tmux load-buffer - && ${a.bin} tmux show-buffer`).stdout).toBe("piped\n");
      expect(a.outside(`echo stdin | ${a.bin} tmux load-buffer /dev/stdin && ${a.bin} tmux show-buffer`).stdout).toBe(
        "stdin\n",
      );
      // A file past what a buffer may hold (the daemon's 1 MiB request line) is refused before it is sent.
      a.outside(`head -c 3000000 /dev/zero | tr '\\0' x > ${work}/big.txt`);
      const big = a.outside(`timeout 30 ${a.bin} tmux load-buffer ${work}/big.txt`);
      expect(big.code).toBe(1);
      expect(big.stderr).toContain("big.txt");
      // Nor does appending grow one buffer without end: each set-buffer -a is bounded, their sum too.
      const piece = "y".repeat(100_000);
      let refused: { code: number; stderr: string } | undefined;
      for (let i = 0; i < 12 && !refused; i++) {
        const appended = await a.run(["tmux", "set-buffer", "-a", "-b", "grown", piece]);
        if (appended.code !== 0) refused = appended;
      }
      expect(refused?.stderr).toContain("would hold more than");
      await a.ok(["tmux", "kill-session", "-t", "buffers"]);
    }, 60_000);

    test("tmux list-buffers' sample shows a file's C1 and bidi controls as text, as it does C0", async () => {
      await a.ok(["tmux", "new-session", "-d", "-s", "sampled", "sleep 600"]);
      // A file the sandbox wrote, loaded by a tool: CSI 2J as C1, a right-to-left override.
      writeFileSync(join(work, "sample.txt"), "a\u009b2Jb\u202ec\u2066d\x1be");
      a.own(join(work, "sample.txt"));
      await a.ok(["tmux", "load-buffer", "-b", "sample", join(work, "sample.txt")]);
      const listed = await a.ok(["tmux", "list-buffers"]);
      expect(listed).toContain("sample: ");
      expect(listed).not.toMatch(UNSAFE);
      // …and through a format of the caller's own.
      expect(await a.ok(["tmux", "list-buffers", "-F", "#{buffer_sample}"])).not.toMatch(UNSAFE);
      await a.ok(["tmux", "kill-session", "-t", "sampled"]);
    }, 60_000);

    test("an auto agent's choices (program text) reach no refusal raw: approve --always and choose, human and --json", async () => {
      // A CLI of no preset drawing a question whose choices hold a right-to-left override and an
      // isolate; it never moves its selection, so choose's arrows fail and say what it shows.
      writeFileSync(join(work, "menu.py"), MENU);
      a.own(join(work, "menu.py"));
      await a.ok(["create", "--name", "menu", "--agent", "auto", "--", "python3", join(work, "menu.py")]);
      await a.ok(["wait", "menu", "--agent", "waiting", "--timeout", "30s"]);
      for (const json of [[], ["--json"]]) {
        const always = await a.run(["approve", "menu", "--always", ...json]);
        expect(always.code).not.toBe(0);
        const said = always.stdout + always.stderr;
        expect(said).toContain("no choice that says always");
        expect(said).toContain("Ye");
        expect(said).not.toMatch(UNSAFE);
        const chosen = await a.run(["choose", "menu", "No", "--timeout", "5s", ...json]);
        expect(chosen.code).not.toBe(0);
        expect(chosen.stdout + chosen.stderr).toContain("selected");
        expect(chosen.stdout + chosen.stderr).not.toMatch(UNSAFE);
      }
      await a.ok(["kill", "menu"]);
    }, 90_000);

    // Whatever holds the terminal draws another question over the one reported, before its answer
    // arrives: an answer naming the reported question must not land in the other one.
    for (const agent of ["auto", "swapper"])
      test(`approve --question N after another question was drawn over N (${agent}): refused, no key reaches it`, async () => {
        writeFileSync(join(work, "swap.py"), SWAP);
        mkdirSync(join(a.config, "t4a"), { recursive: true });
        writeFileSync(
          join(a.config, "t4a", "agents.json"),
          JSON.stringify({
            swapper: { cli: "python3", waitingPatterns: ["\\?$"], answers: { yes: ["Enter"], no: ["Escape"] } },
          }),
        );
        a.own(join(work, "swap.py"), a.config);
        for (let round = 0; round < 3; round++) {
          const name = `swap-${agent}-${round}`;
          const trigger = join(work, `${name}.go`);
          // The preset's cli is python3 itself: its command is the script.
          await a.ok([
            "create",
            "--name",
            name,
            "--agent",
            agent,
            ...(agent === "auto" ? ["--", "python3"] : ["--direct", "--"]),
            join(work, "swap.py"),
            trigger,
          ]);
          const waiting = JSON.parse(await a.ok(["wait", name, "--agent", "waiting", "--timeout", "30s", "--json"]));
          expect(waiting.line).toBe("Read notes.txt?");
          // The approver read question N; the program draws its other question now.
          writeFileSync(trigger, "");
          await waitFor(
            async () => (await a.ok(["text", name])).includes("Delete every file"),
            10_000,
            "the other question",
          );
          const approved = await a.run(["approve", name, "--question", String(waiting.question_id), "--json"]);
          expect(JSON.parse(approved.stdout)).toMatchObject({ ok: false, code: "not_waiting" });
          await Bun.sleep(500);
          expect(await a.ok(["text", name])).not.toContain("ANSWERED");
          await a.ok(["kill", name]);
        }
      }, 120_000);

    test("choose's account of what it saw (seen) quotes a label without the program's bidi control, human and --json", async () => {
      // A dialog whose button's label holds a right-to-left override; a key redraws it unchanged.
      writeFileSync(join(work, "button.py"), BUTTON);
      a.own(join(work, "button.py"));
      await a.ok(["create", "--name", "button", "--", "python3", join(work, "button.py")]);
      await waitFor(async () => (await a.ok(["text", "button"])).includes("keys: 0"), 10_000, "the dialog");
      for (const json of [[], ["--json"]]) {
        const chosen = await a.run(["choose", "button", "Sa", "--timeout", "5s", ...json]);
        expect(chosen.stdout + chosen.stderr).toContain("ve >");
        expect(chosen.stdout + chosen.stderr).not.toMatch(UNSAFE);
      }
      await a.ok(["kill", "button"]);
    }, 60_000);

    // MCP hides question_id from the model: the server binds the answer to the question it showed.
    test.skipIf(kind !== "self")(
      "MCP's agent_approve after another question was drawn over the one terminal_wait showed: refused, no key reaches it",
      async () => {
        writeFileSync(join(work, "swap.py"), SWAP);
        const transport = new StdioClientTransport({
          command: a.bin,
          args: ["mcp"],
          env: a.env,
          cwd: a.dir,
          stderr: "pipe",
        });
        const client = new Client({ name: "t4a-attack", version: "0" });
        await client.connect(transport);
        const call = async (name: string, args: Record<string, unknown>) => {
          const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
          const text = result.content.map((item) => (item.type === "text" ? item.text : "")).join("\n");
          return { error: result.isError === true, text };
        };
        try {
          const trigger = join(work, "mcp-swap.go");
          const created = await call("terminal_create", {
            name: "mcp-swap",
            agent: "auto",
            cmd_args: ["python3", join(work, "swap.py"), trigger],
          });
          expect(created.error).toBe(false);
          const waited = await call("terminal_wait", { id: "mcp-swap", agent: "waiting", timeout_ms: 30_000 });
          expect(waited.text).toContain("Read notes.txt?");
          writeFileSync(trigger, "");
          await waitFor(
            async () => (await a.ok(["text", "mcp-swap"])).includes("Delete every file"),
            10_000,
            "the other question",
          );
          const approved = await call("agent_approve", { id: "mcp-swap" });
          expect(approved.error).toBe(true);
          expect(approved.text).toContain("not_waiting");
          await Bun.sleep(500);
          expect(await a.ok(["text", "mcp-swap"])).not.toContain("ANSWERED");
          // Read again, the model may answer what it now sees.
          const again = await call("terminal_wait", { id: "mcp-swap", agent: "waiting", timeout_ms: 30_000 });
          expect(again.text).toContain("Delete every file");
          expect((await call("agent_approve", { id: "mcp-swap" })).error).toBe(false);
          await waitFor(async () => (await a.ok(["text", "mcp-swap"])).includes("to delete"), 10_000, "the answer");
          await a.ok(["kill", "mcp-swap"]);
        } finally {
          await client.close();
        }
      },
      90_000,
    );
  });
}

/**
 * What each preset keeps writable for real, as reviewed against what its CLI does with it on its
 * next start outside a sandbox (docs/security.md, "What a sandboxed agent keeps"): conversations
 * and tokens only. A login file whose CLI runs a value (pi's "!cmd" key), merges a config a URL
 * serves (opencode's and kilo's "wellknown"), or sends its token where it says (qwen's
 * resource_url, droid's cached premBaseHost) is a private copy instead. Listed here as they were
 * at wave 5's attack; the login files were read in each CLI's code, the conversation stores only
 * named (cline's and continue's presets landed while it ran: listed, not read).
 */
const REVIEWED_KEEPS: Record<string, string[]> = {
  claude: [
    ".claude/projects/",
    ".claude/todos/",
    ".claude/file-history/",
    ".claude/plans/",
    ".claude/.credentials.json",
  ],
  codex: [".codex/sessions/", ".codex/archived_sessions/", ".codex/history.jsonl", ".codex/auth.json"],
  gemini: [".gemini/tmp/", ".gemini/oauth_creds.json", ".gemini/google_accounts.json"],
  qwen: [".qwen/tmp/", ".qwen/projects/"],
  opencode: [
    ".local/share/opencode/storage/",
    ".local/share/opencode/opencode.db",
    ".local/share/opencode/opencode.db-wal",
    ".local/share/opencode/opencode.db-shm",
    ".local/state/opencode/",
  ],
  pi: [".pi/agent/sessions/"],
  copilot: [".copilot/session-state/"],
  kilo: [
    ".local/share/kilo/storage/",
    ".local/share/kilo/kilo.db",
    ".local/share/kilo/kilo.db-wal",
    ".local/share/kilo/kilo.db-shm",
    ".local/state/kilo/",
  ],
  droid: [".factory/sessions/"],
  cline: [
    ".cline/data/sessions/",
    ".cline/data/db/sessions.db",
    ".cline/data/db/sessions.db-wal",
    ".cline/data/db/sessions.db-shm",
  ],
  continue: [".continue/sessions/"],
};

test("every path a preset keeps writable was reviewed for what its CLI does with it outside (a new one: review it, then add it here)", () => {
  const unreviewed = PRESETS.flatMap((preset) =>
    preset.home.keep
      .filter((kept) => !(REVIEWED_KEEPS[preset.name] ?? []).includes(kept))
      .map((kept) => `${preset.name}: ${kept}`),
  );
  expect(
    unreviewed,
    "does the CLI run, fetch or send its token by anything in it on its next start? (docs/security.md)",
  ).toEqual([]);
});
