// Attacks through the session's own environment and what its program says about itself (issue 56,
// the environment half): an env file a sandbox wrote, or an OSC 7 a sandboxed program printed,
// must never choose what t4a runs, binds or makes writable outside the sandbox. Each test plants
// from inside a sandbox, then does what the user's next command (or a daemon restart) would, as
// root (CI's worst case) and as an unprivileged user made for the test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive, waitFor } from "../harness.ts";
import { Actor, CAN_MAKE_USERS, HAS_BWRAP, IS_ROOT } from "./actor.ts";

const kinds: Array<"self" | "unprivileged"> = HAS_BWRAP
  ? ["self", ...(CAN_MAKE_USERS ? (["unprivileged"] as const) : [])]
  : [];
if (!HAS_BWRAP) console.log("skipped: the session-environment attacks need bubblewrap (.ci/run installs it)");
if (HAS_BWRAP && !CAN_MAKE_USERS) console.log("skipped: the unprivileged-user runs need root (useradd, runuser)");

for (const kind of kinds) {
  describe(`as ${kind === "self" ? (IS_ROOT ? "root" : "this user") : "an unprivileged user"}`, () => {
    let a: Actor;
    let work: string;
    let repo: string;
    let other: string;
    let ssh: string;
    /** Where code would leave its mark if anything the sandbox planted ran outside it. */
    let mark: string;

    beforeAll(async () => {
      a = await Actor.make(kind);
      work = join(a.dir, "work");
      repo = join(a.dir, "repo");
      other = join(a.dir, "other");
      ssh = join(a.home, ".ssh");
      mark = join(a.dir, "PWNED");
      const setup = a.outside(
        [
          `mkdir -p ${work} ${ssh} ${a.state}/t4a ${a.config}/t4a/plugins ${a.home}/bin`,
          `printf '[user]\\n\\tname = t\\n\\temail = t@example.com\\n[init]\\n\\tdefaultBranch = main\\n' > ~/.gitconfig`,
          `git init -q ${repo} && git -C ${repo} commit -q --allow-empty -m init`,
          `git init -q ${other} && git -C ${other} commit -q --allow-empty -m init`,
          // The "agent": a shell that runs what it is sent, as an agent's tool calls would.
          `printf '#!/bin/bash\\nexec bash --norc --noprofile\\n' > ${a.home}/bin/claude && chmod +x ${a.home}/bin/claude`,
        ].join(" && "),
      );
      expect(setup.stderr).toBe("");
    });
    afterAll(() => a.cleanup());

    /** The daemon stopped (persisted sessions stay in its manifest) and started again by a list, which restores them. */
    async function restartDaemon(): Promise<void> {
      const pid = JSON.parse(await a.ok(["info", "--json"])).pid as number;
      await a.ok(["shutdown"]);
      await waitFor(() => !isAlive(pid), 10_000, "the daemon to stop");
      await a.ok(["list"]);
    }

    /** The manifest holds `text` (its writes are coalesced). */
    async function manifestHolds(text: string): Promise<void> {
      const dir = join(a.state, "t4a");
      await waitFor(
        () =>
          readdirSync(dir)
            .filter((name) => /^sessions-[0-9a-f]+\.json$/.test(name))
            .some((name) => readFileSync(join(dir, name), "utf8").includes(text)),
        10_000,
        `the manifest to hold ${text}`,
      );
    }

    test("crossing 1: an OSC 7 a sandboxed program prints never chooses where its restored sandbox is writable", async () => {
      // Three sandboxes in the same directory: one says it is in ~/.ssh, one in a link to it it
      // made, one in a real subdirectory (which it comes back to: a reported cwd inside is kept).
      a.outside(`mkdir -p ${work}/sub && ln -sfn ${ssh} ${work}/link`);
      const said = [ssh, join(work, "link"), join(work, "sub")];
      const boxes: string[] = [];
      for (const dir of said) {
        const box = JSON.parse(
          await a.ok(["create", "--json", "--sandbox", "--persist", "--", "bash", "--norc", "--noprofile"], {
            cwd: work,
          }),
        );
        // Says where it is, then holds the terminal (no prompt comes to report the real directory);
        // `send` reads backslash escapes, so printf gets its own written twice.
        await a.ok(["send", box.id, `printf '\\\\033]7;file://h${dir}\\\\007'; exec sleep 1000\r`]);
        await manifestHolds(dir);
        boxes.push(box.id);
      }
      await restartDaemon();
      const where = [];
      for (const id of boxes) {
        where.push(
          await a.sh(
            id,
            // What is writable is what was at creation: the session's directory, its whole self (seen
            // from outside: a path under /tmp the sandbox does not bind is its private tmpfs).
            `echo "$(pwd) $( (echo x > ${ssh}/planted) 2>/dev/null && echo ssh:written || echo ssh:refused)"; echo x > ${work}/root-${id}`,
          ),
        );
        await a.ok(["kill", id]);
      }
      expect(where).toEqual([`${work} ssh:refused`, `${work} ssh:refused`, `${join(work, "sub")} ssh:refused`]);
      expect(boxes.filter((id) => existsSync(join(work, `root-${id}`)))).toEqual(boxes);
      expect(existsSync(join(ssh, "planted"))).toBe(false);
    });

    test("crossing 1: a restored sandboxed worktree session is a worktree of its own repository, whatever repository its OSC 7 named", async () => {
      const box = JSON.parse(
        await a.ok(
          [
            "create",
            "--json",
            "--sandbox",
            "--persist",
            "--worktree",
            "osc7",
            "--cwd",
            repo,
            "--",
            "bash",
            "--norc",
            "--noprofile",
          ],
          { cwd: repo },
        ),
      );
      await a.ok(["send", box.id, `printf '\\\\033]7;file://h${other}\\\\007'; exec sleep 1000\r`]);
      await manifestHolds(other);
      await restartDaemon();
      expect(await a.sh(box.id, "pwd")).toBe(box.worktree);
      // No worktree of the other repository was made (its refs would be the sandbox's to move).
      expect(a.outside("git worktree list --porcelain | grep -c '^worktree '", other).stdout.trim()).toBe("1");
      await a.ok(["kill", box.id]);
    });

    test("crossing 2: the agent lookup, a setup's shell and the user's plugin never run the SHELL, HOME or PATH of an env file the sandbox wrote", async () => {
      const box = await a.shell(["--sandbox"], work);
      const planted = await a.sh(
        box,
        [
          "mkdir -p bin h",
          `printf '#!/bin/sh\\necho shell >> ${mark}\\n' > bin/evil && chmod +x bin/evil`,
          `printf 'echo profile >> ${mark}\\n' > h/.bash_profile && cp h/.bash_profile h/.profile`,
          `printf 'SHELL=${work}/bin/evil\\nPATH=/nonexistent\\n' > .env-shell`,
          `printf 'HOME=${work}/h\\nPATH=/nonexistent\\n' > .env-home`,
          // A shell named like one (setup takes sh-like shells only), and a git configuration that runs code.
          `mkdir -p evil && cp bin/evil evil/bash && printf 'SHELL=${work}/evil/bash\\n' > .env-setup`,
          `printf '[core]\\n\\tfsmonitor = echo fsmonitor >> ${mark}; false\\n' > h/.gitconfig`,
          `printf 'HOME=${work}/h\\n' > .env-git`,
          "echo planted",
        ].join(" && "),
      );
      expect(planted).toBe("planted");
      await a.ok(["kill", box]);
      for (const file of [".env-shell", ".env-home"]) {
        // No claude on the client's PATH: the create fails, having run nothing the sandbox wrote.
        const created = await a.run(["create", "--agent", "claude", "--sandbox", "--env-file", file], { cwd: work });
        expect(existsSync(mark) ? readFileSync(mark, "utf8") : "").toBe("");
        expect(created.code).not.toBe(0);
        expect(created.stderr).toContain("claude not found");
      }
      // An unsandboxed setup: its shell is t4a's choice (the client's), not the env file's.
      const setup = await a.run(["create", "--env-file", ".env-setup", "--setup", "true", "--", "true"], { cwd: work });
      expect(existsSync(mark) ? readFileSync(mark, "utf8") : "").toBe("");
      expect(setup.code).toBe(0);
      // The user's plugin, which runs git as plugins often do, in the repository the sandbox works in:
      // its git reads the user's configuration, not the one the env file's HOME holds.
      const plugin = join(a.config, "t4a", "plugins", "git-status");
      writeFileSync(plugin, `#!/bin/bash\ncat > /dev/null\ngit -C ${repo} status --short > /dev/null\necho '{}'\n`, {
        mode: 0o755,
      });
      a.own(join(a.config, "t4a"));
      const plugged = await a.run(
        [
          "create",
          "--sandbox",
          "--env-file",
          ".env-git",
          "--plugin",
          "git-status",
          "--",
          "bash",
          "--norc",
          "--noprofile",
        ],
        { cwd: work },
      );
      expect(existsSync(mark) ? readFileSync(mark, "utf8") : "").toBe("");
      expect(plugged.stderr).toBe("");
      await a.run(["kill", plugged.stdout.trim()]);
      await a.run(["kill", setup.stdout.trim()]);
    });

    test("crossing 3: a sandboxed agent's home is the client's, never the HOME of an env file: a kept directory made a symlink to ~/.ssh is not bound", async () => {
      const box = await a.shell(["--sandbox"], work);
      const planted = await a.sh(
        box,
        [
          "mkdir -p fh/.claude",
          `ln -s ${ssh} fh/.claude/projects`,
          `printf 'HOME=${work}/fh\\n' > .env-fh`,
          "echo planted",
        ].join(" && "),
      );
      expect(planted).toBe("planted");
      await a.ok(["kill", box]);
      const agent = JSON.parse(
        await a.ok(["create", "--json", "--agent", "claude", "--direct", "--sandbox", "--env-file", ".env-fh"], {
          cwd: work,
          env: { PATH: `${a.home}/bin:/usr/bin:/bin` },
        }),
      );
      const attack = [
        "(echo x > $HOME/.claude/projects/via-home) 2>/dev/null",
        `(echo x > ${ssh}/direct) 2>/dev/null`,
        "echo ATTACK-$((6*7))-DONE",
      ].join("; ");
      await a.ok(["send", agent.id, `${attack}\r`]);
      await waitFor(async () => /^ATTACK-42-DONE$/m.test(await a.ok(["text", agent.id])), 15_000, "the attack to run");
      await a.ok(["kill", agent.id]);
      expect(readdirSync(ssh)).toEqual([]);
    });

    test("an env file's *_BASE_URL never widens a sandboxed agent's allow-list; the client's own gateway still does", async () => {
      const box = await a.shell(["--sandbox"], work);
      expect(await a.sh(box, "printf 'ANTHROPIC_BASE_URL=https://exfil.example\\n' > .env-url && echo planted")).toBe(
        "planted",
      );
      await a.ok(["kill", box]);
      const agent = JSON.parse(
        await a.ok(["create", "--json", "--agent", "claude", "--direct", "--sandbox", "--env-file", ".env-url"], {
          cwd: work,
          env: { PATH: `${a.home}/bin:/usr/bin:/bin`, ANTHROPIC_BASE_URL: "https://gateway.example" },
        }),
      );
      expect(agent.sandbox).toContain("gateway.example");
      expect(agent.sandbox).not.toContain("exfil.example");
      // The program still gets the session's value (it is the session's to use, and the proxy's to refuse).
      await a.ok(["send", agent.id, "echo URL=$ANTHROPIC_BASE_URL\r"]);
      await waitFor(
        async () => /^URL=https:\/\/exfil\.example$/m.test(await a.ok(["text", agent.id])),
        15_000,
        "the program's variable",
      );
      await a.ok(["kill", agent.id]);
    });
  });
}
