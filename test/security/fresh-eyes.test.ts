// Issue 56's last section: its rule attacked by someone who had not read the fix. Each test is a
// place where program text (a screen row, a branch a sandbox named, a process's own argv) still
// reached a reader raw after the rule landed, as root and as an unprivileged user made for the test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, waitFor } from "../harness.ts";
import { Actor, CAN_MAKE_USERS, HAS_BWRAP, IS_ROOT } from "./actor.ts";

const kinds: Array<"self" | "unprivileged"> = ["self", ...(CAN_MAKE_USERS ? (["unprivileged"] as const) : [])];
/** A C0 or C1 control (a tab and a newline aside), DEL, or a bidi control. */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** The same over a whole output, whose progress lines may end in a carriage return. */
const UNSAFE_OUT = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

// An agent CLI of the user's own whose dialog row holds a right-to-left override (a cell keeps it).
const DIALOG = String.raw`import sys, time
sys.stdout.write("\x1b[2J\x1b[H Bash(ls)\r\n\r\n Do you want to proceed \u202e? (y/n)\r\n")
sys.stdout.flush()
sys.stdin.readline()
time.sleep(60)
`;

// Writes its conversation log under $HOME/logs/<a directory named with a right-to-left override
// and a C1 CSI>/<its id>.jsonl, as a sandboxed CLI may name the directories of its kept home.
const LOGGER = String.raw`#!/usr/bin/env python3
import json, os, sys, time
sid = sys.argv[sys.argv.index("--sid") + 1]
folder = os.path.join(os.environ["HOME"], "logs", "p\u202eroj\u009b2J")
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, sid + ".jsonl"), "w") as log:
    log.write(json.dumps({"type": "user", "message": {"role": "user", "content": "hello"}}) + "\n")
print("logged", flush=True)
time.sleep(60)
`;

for (const kind of kinds) {
  describe(`as ${kind === "self" ? (IS_ROOT ? "root" : "this user") : "an unprivileged user"}`, () => {
    let a: Actor;
    beforeAll(async () => {
      a = await Actor.make(kind);
      writeFileSync(join(a.dir, "dialog.py"), DIALOG);
      writeFileSync(join(a.dir, "logger.py"), LOGGER, { mode: 0o755 });
      mkdirSync(join(a.config, "t4a"), { recursive: true });
      writeFileSync(
        join(a.config, "t4a", "agents.json"),
        JSON.stringify({
          dialog: {
            cli: "python3",
            waitingPatterns: ["Do you want to proceed"],
            answers: { yes: ["y", "Enter"], no: ["n", "Enter"] },
          },
          // A CLI that keeps its conversation where claude does, in a directory it names itself.
          logger: {
            cli: join(a.dir, "logger.py"),
            resume: { sessionIdFlag: "--sid" },
            log: { paths: ["logs/*/{id}.jsonl"], format: "claude" },
          },
        }),
      );
      a.own(join(a.dir, "dialog.py"), join(a.dir, "logger.py"), a.config);
    });
    afterAll(() => a.cleanup());

    test("a need's line (the question read off the screen) reaches list --json without the screen's bidi control", async () => {
      await a.ok(["create", "--name", "asker", "--agent", "dialog", "--direct", "--", join(a.dir, "dialog.py")]);
      await a.ok(["wait", "asker", "--agent", "waiting", "--timeout", "20s"]);
      const listed = JSON.parse(await a.ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === "asker");
      expect(listed.need.line).toContain("Do you want to proceed");
      expect(listed.need.line).not.toMatch(UNSAFE);
      await a.ok(["kill", "asker"]);
    }, 60_000);

    test("approve prints (and MCP's agent_approve answers) the question it answered without the screen's bidi control", async () => {
      await a.ok(["create", "--name", "approved", "--agent", "dialog", "--direct", "--", join(a.dir, "dialog.py")]);
      await a.ok(["wait", "approved", "--agent", "waiting", "--timeout", "20s"]);
      const printed = await a.ok(["approve", "approved"]);
      expect(printed).toContain("Do you want to proceed");
      expect(printed).not.toMatch(UNSAFE);
      await a.ok(["kill", "approved"]);
    }, 60_000);

    test("transcript's path (a directory the agent named in its kept home) comes without a C1 or bidi control", async () => {
      await a.ok(["create", "--name", "logger", "--agent", "logger", "--direct"]);
      await waitFor(async () => (await a.ok(["text", "logger"])).includes("logged"), 20_000, "the log");
      const read = JSON.parse(await a.ok(["transcript", "logger", "--json"]));
      expect(read.messages.map((m: { text: string }) => m.text)).toEqual(["hello"]);
      expect(read.path).toContain("roj");
      expect(read.path).not.toMatch(UNSAFE);
      await a.ok(["kill", "logger"]);
    }, 60_000);

    test("a session's name and a worker's are refused with a C1 or bidi control in them (list prints ids as they are)", async () => {
      // A name an MCP client's model chose, or a tmux-driving tool passed on: t1 U+202E gpj.exe shows as t1exe.jpg.
      for (const name of ["t1\u202egpj.exe", "x\u009b2Jy"]) {
        const made = await a.run(["create", "--name", name, "--", "true"]);
        expect(made.code).not.toBe(0);
        expect(made.stderr).toContain("name must not contain");
      }
      const claimed = await a.run(["wait", "--any", "--claim", "--worker", "w\u202e1", "--timeout", "1s"]);
      expect(claimed.code).not.toBe(0);
      expect(claimed.stderr).toContain("worker must not contain");
    }, 60_000);

    test("notify's reply (the line it set) comes without a bidi control the report carried", async () => {
      await a.ok(["create", "--name", "told", "--agent", "dialog", "--direct", "--", join(a.dir, "dialog.py")]);
      await a.ok(["wait", "told", "--agent", "waiting", "--timeout", "20s"]);
      const reply = JSON.parse(await a.ok(["notify", "told", "working", "busy \u202eelbuort", "--json"]));
      expect(reply.line).toContain("elbuort");
      expect(reply.line).not.toMatch(UNSAFE);
      await a.ok(["kill", "told"]);
    }, 60_000);

    test("tmux's #{pane_tty} is the pane's terminal, never a path the program put on its stdin (a file named with escapes)", async () => {
      // The pane's program swaps its stdin for a file in /dev/shm whose name sets the window's title.
      const name = `t4a-atk-${process.pid}-${kind}`;
      const evil = `/dev/shm/${name}$(printf '\\033]0;pwned\\007')x`;
      await a.ok(["tmux", "new-session", "-d", "-s", "swapped", `touch "${evil}" && exec 0<"${evil}" sleep 60`]);
      const shown = await waitFor(async () => {
        const out = await a.ok([
          "tmux",
          "display-message",
          "-p",
          "-t",
          "swapped",
          "#{pane_current_command}|#{pane_tty}",
        ]);
        return out.startsWith("sleep|") ? out : undefined;
      }, 20_000);
      a.outside(`rm -f /dev/shm/${name}*`);
      expect(shown).not.toContain("pwned");
      expect(shown).not.toMatch(UNSAFE);
      await a.ok(["tmux", "kill-session", "-t", "swapped"]);
    }, 60_000);

    test("tmux capture-pane's joined, spaced and styled forms (text's capture) come without a row's bidi control, as plain rows do", async () => {
      await a.ok(["tmux", "new-session", "-d", "-s", "rows", "printf 'row \\342\\200\\256desrever x\\n'; sleep 60"]);
      await waitFor(
        async () => (await a.ok(["tmux", "capture-pane", "-p", "-t", "rows"])).includes("desrever"),
        20_000,
      );
      for (const flags of [[], ["-J"], ["-N"], ["-e"], ["-e", "-J"]]) {
        const captured = await a.ok(["tmux", "capture-pane", "-p", ...flags, "-t", "rows"]);
        expect(captured).toContain("desrever");
        // -e's escapes are t4a's own SGR: none here, the row has no colour.
        expect(captured).not.toMatch(UNSAFE);
      }
      await a.ok(["tmux", "kill-session", "-t", "rows"]);
    }, 60_000);

    test.skipIf(!HAS_BWRAP || !Bun.which("make"))(
      "a .env the sandbox wrote never steers a build tool the user's plugin runs (make's MAKEFLAGS --eval and MAKEFILES run shell as the user)",
      async () => {
        const work = join(a.dir, "work");
        const mark = join(a.dir, "PWNED-make");
        mkdirSync(join(a.config, "t4a", "plugins"), { recursive: true });
        mkdirSync(work, { recursive: true });
        // The user's plugin: a bash script that runs make, as a plugin preparing a project might.
        writeFileSync(
          join(a.config, "t4a", "plugins", "builds"),
          "#!/bin/bash\ncat > /dev/null\nmake -s -f /dev/null -q >/dev/null 2>&1\necho '{}'\n",
          { mode: 0o755 },
        );
        a.own(work, a.config);
        const box = await a.shell(["--sandbox"], work);
        const planted = await a.sh(
          box,
          [
            `printf 'x:\\n\\t@echo makefiles >> ${mark}\\n.DEFAULT_GOAL := x\\n' > ${work}/evil.mk`,
            `printf 'MAKEFLAGS=--eval=$(shell echo eval >> ${mark})\\nMAKEFILES=${work}/evil.mk\\n' > ${work}/.env`,
            "echo planted",
          ].join("; "),
        );
        expect(planted).toBe("planted");
        await a.ok(["kill", box]);
        // The user's next create in that project: sandboxed, the env file, the plugin.
        const id = (
          await a.ok(
            ["create", "--sandbox", "--env-file", ".env", "--plugin", "builds", "--", "bash", "--norc", "--noprofile"],
            { cwd: work },
          )
        ).trim();
        expect(existsSync(mark) ? readFileSync(mark, "utf8") : "").toBe("");
        // The program itself gets them, inside.
        expect(await a.sh(id, 'echo "$MAKEFILES"')).toBe(`${work}/evil.mk`);
        await a.ok(["kill", id]);
      },
      60_000,
    );

    test.skipIf(!HAS_BWRAP)(
      "what a sandbox asks its proxy for reaches t4a.log as one line without escapes (no title set, no forged line)",
      async () => {
        const work = join(a.dir, "proxied");
        mkdirSync(work, { recursive: true });
        a.own(work);
        const id = await a.shell(["--sandbox", "--sandbox-allow-domain", "example.com"], work);
        // A request line whose target sets the terminal's title and starts a line of its own.
        const said = await a.sh(
          id,
          `exec 3<>/dev/tcp/127.0.0.1/3128; printf 'GET http://x\\033]0;pwned\\007\\nFORGED/ HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n' >&3; head -1 <&3`,
        );
        expect(said).toContain("HTTP/1.1 4");
        const log = await waitFor(
          () => {
            const text = readFileSync(join(a.dir, "run", "t4a.log"), "utf8");
            return text.includes("pwned") ? text : undefined;
          },
          10_000,
          "the refusal in the log",
        );
        expect(log).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
        expect(log).not.toMatch(/^FORGED/m);
        await a.ok(["kill", id]);
      },
      60_000,
    );

    test.skipIf(!HAS_BWRAP)(
      "a branch a sandboxed worktree names (git allows C1 and bidi controls in a ref) reaches t4a diff shown as text",
      async () => {
        const repo = join(a.dir, "repo");
        const made = a.outside(
          [
            `printf '[user]\\n\\tname = t\\n\\temail = t@example.com\\n' > ~/.gitconfig`,
            `git init -q ${repo} && cd ${repo} && echo one > file.txt && git add . && git commit -qm init`,
          ].join(" && "),
        );
        expect(made.stderr).toBe("");
        const box = JSON.parse(
          await a.ok(["create", "--json", "--sandbox", "--worktree", "named", "--", "bash", "--norc", "--noprofile"], {
            cwd: repo,
          }),
        );
        // U+009B is CSI to a terminal that takes C1 controls; U+202E reverses what follows.
        const said = await a.sh(box.id, `git checkout -q -b $'x\\xe2\\x80\\xae\\xc2\\x9b2Jy' && echo branched`);
        expect(said).toBe("branched");
        const human = await a.ok(["diff", box.id]);
        expect(human).toContain("x");
        expect(human).not.toMatch(UNSAFE);
        const json = JSON.parse(await a.ok(["diff", "--json", box.id]));
        expect(json.branch).toStartWith("x");
        expect(json.branch).not.toMatch(UNSAFE);
        await a.run(["kill", box.id]);
      },
      60_000,
    );
  });
}

// `t4a remote install HOST`: what the far side's login prints (its uname answer, its stderr, the
// version and path its shell echoes back) reaches this terminal. The host is hostile; its ssh is a
// stand-in that answers as that host's login would, selected by the mode file.
const HOSTILE_SSH = [
  "#!/bin/bash",
  'mode=$(cat "$(dirname "$0")/mode")',
  'cmd="${@: -1}"',
  "evil=$'\\e]52;c;QUJD\\a\\e[2J\\xe2\\x80\\xae\\xc2\\x9b31m'",
  'case "$cmd" in',
  '  "uname -sm;"*)',
  '    [ "$mode" = probe-fails ] && { printf \'denied %s\\n\' "$evil" >&2; exit 255; }',
  '    [ "$mode" = odd-os ] && { printf \'Plan9%s x\\n\' "$evil"; exit 0; }',
  "    printf 'Linux x86_64\\nldd (GNU libc) 2.36\\n'; exit 0;;",
  "esac",
  "cat > /dev/null",
  '[ "$mode" = copy-fails ] && { printf \'disk full %s\\n\' "$evil" >&2; exit 1; }',
  'printf \'t4a 9.9%s\\npath:/x%s/t4a\\n\' "$evil" "$evil"',
  "",
].join("\n");

describe("remote install against a hostile host", () => {
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = new Sandbox();
    writeFileSync(join(sandbox.dir, "ssh"), HOSTILE_SSH, { mode: 0o755 });
  });
  afterAll(() => sandbox.cleanup());

  for (const mode of ["probe-fails", "odd-os", "copy-fails", "installed"]) {
    test(`${mode}: nothing the host says reaches the terminal with a control or bidi character`, async () => {
      writeFileSync(join(sandbox.dir, "mode"), mode);
      const from = join(sandbox.dir, "t4a-file");
      writeFileSync(from, "#!/bin/sh\necho t4a 1.0\n", { mode: 0o755 });
      const child = Bun.spawn([BIN, "remote", "install", "me@far.example", "--from", from], {
        env: { ...sandbox.env, T4A_SSH_COMMAND: join(sandbox.dir, "ssh") },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      expect(code).toBe(mode === "installed" ? 0 : mode === "odd-os" ? 1 : 3);
      // What the host said is there, shown as text.
      expect(`${stdout}${stderr}`).toMatch(/denied|Plan9|disk full|9\.9/);
      expect(stdout).not.toMatch(UNSAFE_OUT);
      expect(stderr).not.toMatch(UNSAFE_OUT);
    }, 30_000);
  }
});
