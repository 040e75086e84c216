// Attacks on the sandbox, each as an attacker inside would try it (issue 22), run as root (as CI
// runs: the worst case, a root daemon) and as an unprivileged user made for the test. Every test
// tries to get out and checks from outside that it did not: capabilities and mounts, home and
// t4a's own directories, git's executable parts, an agent's configuration, host IPC, the loader.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../harness.ts";
import { Actor, CAN_MAKE_USERS, HAS_BWRAP, IS_ROOT } from "./actor.ts";

const kinds: Array<"self" | "unprivileged"> = HAS_BWRAP
  ? ["self", ...(CAN_MAKE_USERS ? (["unprivileged"] as const) : [])]
  : [];
if (!HAS_BWRAP) console.log("skipped: the sandbox attacks need bubblewrap (.ci/run installs it)");
if (HAS_BWRAP && !CAN_MAKE_USERS) console.log("skipped: the unprivileged-user runs need root (useradd, runuser)");

for (const kind of kinds) {
  describe(`as ${kind === "self" ? (IS_ROOT ? "root" : "this user") : "an unprivileged user"}`, () => {
    let a: Actor;
    let work: string;
    let repo: string;
    /** Where outside code would leave its mark if anything the sandbox wrote ran outside. */
    let mark: string;

    beforeAll(async () => {
      a = await Actor.make(kind);
      work = join(a.dir, "work");
      repo = join(a.dir, "repo");
      mark = join(a.dir, "PWNED");
      const setup = a.outside(
        [
          `mkdir -p ${work} ${a.state}/t4a ${a.config}/t4a`,
          `printf '[user]\\n\\tname = t\\n\\temail = t@example.com\\n[init]\\n\\tdefaultBranch = main\\n' > ~/.gitconfig`,
          `git init -q ${repo} && cd ${repo} && echo one > file.txt && git add file.txt && git commit -qm init`,
        ].join(" && "),
      );
      expect(setup.stderr).toBe("");
    });
    afterAll(() => a.cleanup());

    test("no capabilities, whoever runs the daemon: no remount, no unmount of the walls, no user namespace, no way to the socket", async () => {
      const id = await a.shell(["--sandbox"], work);
      const lines = (
        await a.sh(
          id,
          [
            "grep CapEff /proc/self/status | tr -d '\\t'",
            "mount -o remount,rw,bind / 2>/dev/null && echo remount:yes || echo remount:no",
            // The private /tmp covers the daemon's directory here: unmounting it would show the socket.
            "umount -l /tmp 2>/dev/null && echo umount:yes || echo umount:no",
            "unshare -Ur true 2>/dev/null && echo userns:yes || echo userns:no",
            `test -e ${a.socket} && echo socket:visible || echo socket:hidden`,
            `socat -u OPEN:/dev/null UNIX-CONNECT:${a.socket} 2>/dev/null && echo socket:reached || echo socket:unreachable`,
            'echo "T4A_SOCKET=${T4A_SOCKET-unset}"',
          ].join("; "),
        )
      ).split("\n");
      expect(lines).toEqual([
        "CapEff:0000000000000000",
        "remount:no",
        "umount:no",
        "userns:no",
        "socket:hidden",
        "socket:unreachable",
        "T4A_SOCKET=unset",
      ]);
      expect(JSON.parse(await a.ok(["list", "--json"])).terminals).toHaveLength(1);
      await a.ok(["kill", id]);
    });

    test("home, anything holding it, and t4a's own directories are never writable", async () => {
      for (const cwd of [a.home, "/", a.dir, a.state, join(a.state, "t4a"), join(a.config, "t4a")]) {
        const refused = await a.run(["create", "--sandbox", "--cwd", cwd, "--", "true"]);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toMatch(
          /would make (your home directory|t4a's directory .*) writable|inside t4a's private directory/,
        );
      }
      const allowed = await a.run(["create", "--sandbox", "--sandbox-allow", a.home, "--cwd", work, "--", "true"]);
      expect(allowed.stderr).toContain("would make your home directory writable");
      // No cwd at all: the home, refused, never a sandbox with a writable home.
      expect((await a.run(["create", "--sandbox", "--", "true"], { cwd: "/" })).stderr).toContain(
        "would make your home directory writable",
      );
      expect(JSON.parse(await a.ok(["list", "--json"])).terminals).toEqual([]);
    });

    test("a worktree's .git, config, hooks and pointers stay as they were; the agent still commits; nothing runs outside", async () => {
      const box = JSON.parse(
        await a.ok(["create", "--json", "--sandbox", "--worktree", "evil", "--", "bash", "--norc", "--noprofile"], {
          cwd: repo,
        }),
      );
      const lines = (
        await a.sh(
          box.id,
          [
            "rm -f .git 2>/dev/null; test -f .git && echo dotgit:kept || echo dotgit:gone",
            `git config core.fsmonitor 'touch ${mark}; false' 2>/dev/null && echo config:written || echo config:refused`,
            `(echo 'touch ${mark}' > "$(git rev-parse --git-common-dir)/hooks/post-checkout") 2>/dev/null && echo hook:written || echo hook:refused`,
            `(echo ${work} > "$(git rev-parse --git-dir)/commondir") 2>/dev/null && echo commondir:written || echo commondir:refused`,
            `(echo 'gitdir: ${work}' > .git) 2>/dev/null && echo pointer:written || echo pointer:refused`,
            "echo two >> file.txt && git commit -qam 'from the sandbox' && echo commit:ok",
          ].join("; "),
        )
      ).split("\n");
      expect(lines).toEqual([
        "dotgit:kept",
        "config:refused",
        "hook:refused",
        "commondir:refused",
        "pointer:refused",
        "commit:ok",
      ]);
      await a.ok(["kill", box.id]);
      // The user's next git commands, outside: the commit is there, nothing planted runs.
      const after = a.outside(
        `git log --format=%s -1 t4a/evil && git status --short && git checkout -q t4a/evil && git checkout -q main && git worktree list | wc -l`,
        repo,
      );
      expect(after.stdout.split("\n").slice(0, 1)).toEqual(["from the sandbox"]);
      expect(existsSync(mark)).toBe(false);
      expect(existsSync(box.worktree)).toBe(false); // clean: removed, its branch kept for the commit
    });

    test("t4a diff never obeys a .git the sandbox made: it reads the worktree through its recorded git dir, and refuses a sandbox without one", async () => {
      const box = JSON.parse(
        await a.ok(["create", "--json", "--sandbox", "--worktree", "differ", "--", "bash", "--norc", "--noprofile"], {
          cwd: repo,
        }),
      );
      // A repository of its own inside the tree, configured to run the attacker's code, and the
      // shell moved into it (the session's cwd follows): git run there would obey it.
      const lines = (
        await a.sh(
          box.id,
          [
            `mkdir -p trap && cd trap && git init -q . && git config core.fsmonitor 'touch ${mark}; false' && git config diff.external 'touch ${mark}' && echo x > f && echo trap:made`,
            `printf '* diff=evil\\n' > ../.gitattributes && (git -C .. config diff.evil.textconv 'touch ${mark}' 2>/dev/null && echo textconv:written || echo textconv:refused)`,
            "echo changed >> ../file.txt && echo edited",
          ].join("; "),
        )
      ).split("\n");
      expect(lines).toEqual(["trap:made", "textconv:refused", "edited"]);
      const changes = JSON.parse(await a.ok(["diff", "--json", box.id]));
      expect(changes.dir).toBe(box.worktree);
      expect(changes.diff).toContain("+changed");
      expect(changes.files.map((file: { path: string }) => file.path)).toEqual(
        expect.arrayContaining([".gitattributes", "file.txt"]),
      );
      expect(existsSync(mark)).toBe(false);
      await a.ok(["kill", box.id]);
      const plain = await a.shell(["--sandbox"], repo);
      const refused = await a.run(["diff", plain]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("read from its worktree only");
      expect(existsSync(mark)).toBe(false);
      await a.ok(["kill", plain]);
    });

    test("a session that replaced its worktree's .git (no sandbox to stop it) is kept, never cleaned with git obeying that .git", async () => {
      const box = JSON.parse(
        await a.ok(["create", "--json", "--worktree", "replaced", "--", "bash", "--norc", "--noprofile"], {
          cwd: repo,
        }),
      );
      await a.sh(
        box.id,
        `rm .git && git init -q . && git config core.fsmonitor 'touch ${mark}; false' && git config core.hooksPath /nonexistent && echo replaced`,
      );
      const killed = await a.run(["kill", box.id]);
      expect(killed.stderr).toContain("its .git no longer leads into the repository");
      expect(existsSync(box.worktree)).toBe(true);
      expect(existsSync(mark)).toBe(false);
    });

    test("a sandbox at a repository's root: config, hooks, info and a hooks path in the tree are read-only; commits work", async () => {
      a.outside("git config core.hooksPath .husky && mkdir -p .husky", repo);
      const id = await a.shell(["--sandbox"], repo);
      const lines = (
        await a.sh(
          id,
          [
            `(printf '[core]\\n\\tfsmonitor = touch ${mark}\\n' >> .git/config) 2>/dev/null && echo config:written || echo config:refused`,
            `(echo 'touch ${mark}' > .git/hooks/pre-commit) 2>/dev/null && echo hook:written || echo hook:refused`,
            `(echo '* filter=evil' > .git/info/attributes) 2>/dev/null && echo info:written || echo info:refused`,
            `(echo 'touch ${mark}' > .husky/pre-commit) 2>/dev/null && echo husky:written || echo husky:refused`,
            "git commit -q --allow-empty -m 'sandboxed commit' && echo commit:ok",
          ].join("; "),
        )
      ).split("\n");
      expect(lines).toEqual(["config:refused", "hook:refused", "info:refused", "husky:refused", "commit:ok"]);
      await a.ok(["kill", id]);
      const after = a.outside(
        "git commit -q --allow-empty -m 'the user, later' && git status --short && git log --format=%s -2",
        repo,
      );
      expect(after.stdout.trim().split("\n")).toEqual(["the user, later", "sandboxed commit"]);
      expect(existsSync(mark)).toBe(false);
      a.outside("git config --unset core.hooksPath", repo);
    });

    test("a sandboxed agent reads its configuration but cannot change what its next unsandboxed run executes; what it keeps persists", async () => {
      const bin = join(a.dir, "bin");
      mkdirSync(join(a.home, ".claude", "commands"), { recursive: true });
      mkdirSync(bin, { recursive: true });
      const settings = '{"theme":"dark"}\n';
      writeFileSync(join(a.home, ".claude", "settings.json"), settings);
      writeFileSync(join(a.home, ".claude.json"), '{"numStartups":1}\n');
      // The "agent": a shell that runs what it is sent, as an agent's tool calls would.
      writeFileSync(join(bin, "claude"), "#!/bin/bash\nexec bash --norc --noprofile\n");
      chmodSync(join(bin, "claude"), 0o755);
      a.own(a.home, bin);
      const create = [
        "create",
        "--json",
        "--name",
        "boxed-claude",
        "--agent",
        "claude",
        "--resume",
        "--direct",
        "--sandbox",
        "--sandbox-allow",
        bin,
        "--cwd",
        work,
      ];
      const first = JSON.parse(await a.ok(create, { env: { PATH: `${bin}:/usr/bin:/bin` } }));
      expect(first.resumed).toBeUndefined();
      const id = first.id as string;
      // Where claude keeps this conversation, to resume it: written from inside, as claude would.
      const conversation = `~/.claude/projects/${work.replace(/[^a-zA-Z0-9]/g, "-")}/${first.conversation_id}.jsonl`;
      const attack = [
        `cat ~/.claude/settings.json`,
        `echo '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"touch ${mark}"}]}]}}' > ~/.claude/settings.json`,
        `echo '{"mcpServers":{"evil":{"command":"touch","args":["${mark}"]}}}' > ~/.claude.json`,
        // Saved as CLIs save (gemini's projects.json): a new file renamed over the old one.
        `echo '{"hooks":{}}' > ~/.claude/settings.json.tmp && mv ~/.claude/settings.json.tmp ~/.claude/settings.json && echo rename:ok`,
        "mkdir -p ~/.claude/agents && echo evil > ~/.claude/agents/evil.md",
        "(echo evil > ~/.claude/commands/evil.md) 2>/dev/null || echo commands:refused",
        "echo conversation > ~/.claude/projects/kept.jsonl",
        `mkdir -p $(dirname ${conversation}) && echo '{"type":"user","sessionId":"${first.conversation_id}"}' > ${conversation}`,
        "echo ATTACK-$((6*7))-DONE", // the output, not the echoed command line, says it ran
      ].join("; ");
      await a.ok(["send", id, `${attack}\r`]);
      await waitFor(async () => /^ATTACK-42-DONE$/m.test(await a.ok(["text", id])), 15_000, "the attack to run");
      const screen = await a.ok(["text", id]);
      expect(screen).toContain('{"theme":"dark"}');
      expect(screen).toContain("commands:refused");
      expect(screen).toContain("rename:ok");
      await a.ok(["kill", id]);
      expect(readFileSync(join(a.home, ".claude", "settings.json"), "utf8")).toBe(settings);
      expect(readFileSync(join(a.home, ".claude.json"), "utf8")).toBe('{"numStartups":1}\n');
      expect(existsSync(join(a.home, ".claude", "agents", "evil.md"))).toBe(false);
      expect(existsSync(join(a.home, ".claude", "commands", "evil.md"))).toBe(false);
      expect(readFileSync(join(a.home, ".claude", "projects", "kept.jsonl"), "utf8")).toBe("conversation\n");
      // The conversation it kept is resumed by the next sandboxed start.
      const again = JSON.parse(await a.ok(create, { env: { PATH: `${bin}:/usr/bin:/bin` } }));
      expect(again).toMatchObject({ conversation_id: first.conversation_id, resumed: true });
      await a.ok(["kill", again.id]);
    });

    test("no host IPC: unix sockets on disk and abstract ones are refused, the desktop's variables are gone", async () => {
      const path = join(work, "host.sock");
      const onDisk = Bun.spawn(["socat", `UNIX-LISTEN:${path},fork,mode=777`, "SYSTEM:echo host-says-hi"], {
        stdio: ["ignore", "ignore", "ignore"],
      });
      const name = `t4a-atk-${process.pid}`;
      const abstract = Bun.spawn(["socat", `ABSTRACT-LISTEN:${name},fork`, "SYSTEM:echo host-says-hi"], {
        stdio: ["ignore", "ignore", "ignore"],
      });
      try {
        await waitFor(() => existsSync(path), 5000, "the host socket");
        const env = ["-e", "SSH_AUTH_SOCK=/tmp/agent.sock", "-e", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/0/bus"];
        for (const net of [[], ["--sandbox-net"]]) {
          const id = await a.shell(["--sandbox", ...net, ...env], work);
          const lines = (
            await a.sh(
              id,
              [
                `socat - UNIX-CONNECT:${path} 2>/dev/null || echo disk:refused`,
                `socat - ABSTRACT-CONNECT:${name} 2>/dev/null || echo abstract:refused`,
                `python3 -c 'import socket; socket.socket(socket.AF_UNIX)' 2>&1 | tail -1`,
                'echo "ssh=${SSH_AUTH_SOCK-unset} dbus=${DBUS_SESSION_BUS_ADDRESS-unset}"',
              ].join("; "),
            )
          ).split("\n");
          expect(lines).toEqual([
            "disk:refused",
            "abstract:refused",
            "PermissionError: [Errno 1] Operation not permitted",
            "ssh=unset dbus=unset",
          ]);
          await a.ok(["kill", id]);
        }
      } finally {
        onDisk.kill();
        abstract.kill();
      }
    });

    test("the network is an allow-list: an allowed name passes (HTTP, CONNECT, SOCKS5); another name, a raw IP and this machine's services do not", async () => {
      const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("hello-from-allowed\n") });
      try {
        const hosts = { T4A_TEST_PROXY_HOSTS: "api.allowed.test=127.0.0.1,other.test=127.0.0.1" };
        // The daemon reads the test's name mapping from its own environment: a fresh one for this test.
        await a.run(["shutdown"]);
        const box = JSON.parse(
          await a.ok(
            [
              "create",
              "--json",
              "--sandbox",
              "--sandbox-allow-domain",
              "api.allowed.test",
              "--",
              "bash",
              "--norc",
              "--noprofile",
            ],
            { cwd: work, env: hosts },
          ),
        );
        expect(box.sandbox).toBe("bwrap, network to api.allowed.test");
        const port = server.port;
        const lines = (
          await a.sh(
            box.id,
            [
              `curl -s --max-time 10 http://api.allowed.test:${port}/ || echo http:failed`,
              `curl -s --max-time 10 -p http://api.allowed.test:${port}/ || echo connect:failed`,
              `curl -s --max-time 10 --socks5-hostname 127.0.0.1:3128 http://api.allowed.test:${port}/ || echo socks:failed`,
              `curl -s --max-time 10 http://other.test:${port}/`,
              `curl -s --max-time 10 -x http://127.0.0.1:3128 http://127.0.0.1:${port}/`,
              `curl -s --max-time 10 --noproxy '*' http://127.0.0.1:${port}/ || echo direct:unreachable`,
              `curl -s --max-time 10 --socks5 127.0.0.1:3128 http://127.0.0.1:${port}/ || echo socks-ip:refused`,
            ].join("; "),
          )
        ).split("\n");
        expect(lines.slice(0, 3)).toEqual(["hello-from-allowed", "hello-from-allowed", "hello-from-allowed"]);
        expect(lines[3]).toBe("t4a sandbox: other.test is not in this sandbox's allow-list (--sandbox-allow-domain)");
        expect(lines[4]).toBe("t4a sandbox: 127.0.0.1 is not in this sandbox's allow-list (--sandbox-allow-domain)");
        expect(lines.slice(5)).toEqual(["direct:unreachable", "socks-ip:refused"]);
        await a.ok(["kill", box.id]);
        // The bridge dies with the program: a program that exits ends its session.
        const short = JSON.parse(
          await a.ok(
            [
              "create",
              "--json",
              "--sandbox",
              "--sandbox-allow-domain",
              "api.allowed.test",
              "--no-integration",
              "--",
              "sh",
              "-c",
              "exit 3",
            ],
            { cwd: work },
          ),
        );
        expect((await a.run(["wait", short.id, "--exit", "--timeout", "10s"])).code).toBe(0);
        // No allow-list, no network at all; a bad entry is refused.
        expect(
          (await a.run(["create", "--sandbox", "--sandbox-allow-domain", "bad host", "--", "true"], { cwd: work }))
            .stderr,
        ).toContain("is not a host name");
      } finally {
        server.stop(true);
      }
    });

    test("the session's loader variables never reach bwrap or the shim before it: only the program gets them", async () => {
      const library = [
        "/lib/x86_64-linux-gnu/libm.so.6",
        "/lib/aarch64-linux-gnu/libm.so.6",
        "/usr/lib/libm.so.6",
      ].find((path) => existsSync(path));
      if (!library) return console.log("skipped: no libm to preload");
      const box = JSON.parse(
        await a.ok(
          ["create", "--json", "--sandbox", "-e", `LD_PRELOAD=${library}`, "--", "bash", "--norc", "--noprofile"],
          { cwd: work },
        ),
      );
      // The session's pid is bwrap's once the shim has exec'd into it: its environment is what it started with.
      await waitFor(
        () => readFileSync(`/proc/${box.pid}/cmdline`, "utf8").split("\0")[0]!.endsWith("bwrap"),
        10_000,
        "the shim to become bwrap",
      );
      const environ = readFileSync(`/proc/${box.pid}/environ`, "utf8").split("\0");
      expect(environ.filter((entry) => entry.startsWith("LD_"))).toEqual([]);
      expect(await a.sh(box.id, 'echo "inside: $LD_PRELOAD"')).toBe(`inside: ${library}`);
      await a.ok(["kill", box.id]);
    });
  });
}
