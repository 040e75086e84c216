// Attacks through tainted data (DESIGN.md "Wave 4"): what a sandboxed program could have written
// or chosen (its writable paths, the session's environment and env files, its kept agent
// directories) must never be executed, sourced, followed or blocked on outside a sandbox. Each
// test plants from inside a sandbox, then makes t4a act on it as the user's next command would,
// as root (CI's worst case) and as an unprivileged user made for the test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../harness.ts";
import { Actor, CAN_MAKE_USERS, HAS_BWRAP, IS_ROOT } from "./actor.ts";

const kinds: Array<"self" | "unprivileged"> = HAS_BWRAP
  ? ["self", ...(CAN_MAKE_USERS ? (["unprivileged"] as const) : [])]
  : [];
if (!HAS_BWRAP) console.log("skipped: the taint attacks need bubblewrap (.ci/run installs it)");
const HAS_CC = Bun.which("cc") !== null;

for (const kind of kinds) {
  describe(`as ${kind === "self" ? (IS_ROOT ? "root" : "this user") : "an unprivileged user"}`, () => {
    let a: Actor;
    let work: string;
    /** Where code would leave its mark if anything the sandbox planted ran outside it. */
    let mark: string;

    beforeAll(async () => {
      a = await Actor.make(kind);
      work = join(a.dir, "work");
      mark = join(a.dir, "PWNED");
      const setup = a.outside(`mkdir -p ${work} ${a.state}/t4a ${a.config}/t4a/plugins`);
      expect(setup.stderr).toBe("");
    });
    afterAll(() => a.cleanup());

    test("a .env the sandbox wrote (LD_PRELOAD of its own library, BASH_ENV) never acts on the user's plugins, their cleanups or an unsandboxed setup", async () => {
      // The user's plugin: a bash script, as plugins often are; its cleanup too.
      const plugin = join(a.config, "t4a", "plugins", "noop");
      writeFileSync(plugin, `#!/bin/bash\ncat > /dev/null\necho '{"cleanup":["/bin/bash","-c","true"]}'\n`, {
        mode: 0o755,
      });
      // What the sandbox plants: a library of its own (when there is a compiler to make it) and a script.
      const library = join(work, "evil.so");
      if (HAS_CC) {
        const source = join(a.dir, "evil.c");
        writeFileSync(
          source,
          `#include <stdio.h>\n__attribute__((constructor)) static void pwn(void) { FILE *f = fopen("${mark}", "a"); if (f) { fputs("preload\\n", f); fclose(f); } }\n`,
        );
        const built = Bun.spawnSync(["cc", "-shared", "-fPIC", "-o", join(a.home, "evil.so"), source], {
          stderr: "pipe",
        });
        expect(built.stderr.toString()).toBe("");
        a.own(join(a.home, "evil.so"));
      } else console.log("no C compiler: the LD_PRELOAD half plants a library that does nothing");
      const box = await a.shell(["--sandbox"], work);
      const planted = await a.sh(
        box,
        [
          HAS_CC
            ? `cp ${join(a.home, "evil.so")} ${library}`
            : `cp /lib/x86_64-linux-gnu/libm.so.6 ${library} 2>/dev/null; true`,
          `printf '#!/bin/sh\\necho bash_env >> ${mark}\\n' > ${work}/env.sh`,
          `printf 'LD_PRELOAD=${library}\\nBASH_ENV=${work}/env.sh\\nENV=${work}/env.sh\\n' > ${work}/.env`,
          "echo planted",
        ].join("; "),
      );
      expect(planted).toBe("planted");
      await a.ok(["kill", box]);
      expect(existsSync(mark)).toBe(false);
      // The user's next create in that project: sandboxed, the env file, a plugin, and a setup.
      const id = (
        await a.ok(
          ["create", "--sandbox", "--env-file", ".env", "--plugin", "noop", "--", "bash", "--norc", "--noprofile"],
          { cwd: work },
        )
      ).trim();
      expect(existsSync(mark) ? readFileSync(mark, "utf8") : "").toBe("");
      // The program itself gets them, inside.
      expect(await a.sh(id, 'echo "$LD_PRELOAD $BASH_ENV"')).toBe(`${library} ${work}/env.sh`);
      await a.ok(["kill", id]); // runs the plugin's cleanup
      expect(existsSync(mark) ? readFileSync(mark, "utf8") : "").toBe("");
      // No sandbox: a setup's own shell does not source BASH_ENV nor preload (the program gets both: it is unsandboxed by choice).
      const plain = await a.run(["create", "--env-file", ".env", "--setup", "true", "--no-integration", "--", "true"], {
        cwd: work,
      });
      expect(plain.stderr).toBe("");
      const after = existsSync(mark) ? readFileSync(mark, "utf8") : "";
      // The create has answered, so the setup ran. The program (/usr/bin/true, not bash) may preload; no shell sourced BASH_ENV.
      expect(after.split("\n").filter((line) => line === "bash_env")).toEqual([]);
      await a.run(["kill", plain.stdout.trim()]);
    });

    test("BUN_OPTIONS (and Node's) from the session never reach `t4a sandbox-exec`, which runs before the seccomp filter; the program still gets them", async () => {
      const preload = join(work, "pre.mjs");
      const ran = join(work, "preload-ran");
      writeFileSync(
        preload,
        `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(ran)}, process.argv.slice(1).join(" ") + "\\n");\n`,
      );
      a.own(preload);
      const box = JSON.parse(
        await a.ok(
          [
            "create",
            "--json",
            "--sandbox",
            "-e",
            `BUN_OPTIONS=--preload=${preload}`,
            "-e",
            `NODE_OPTIONS=--require=${preload}`,
            "--",
            "bash",
            "--norc",
            "--noprofile",
          ],
          { cwd: work },
        ),
      );
      expect(await a.sh(box.id, 'echo "$BUN_OPTIONS|$NODE_OPTIONS"')).toBe(`--preload=${preload}|--require=${preload}`);
      await a.ok(["kill", box.id]);
      expect(existsSync(ran) ? readFileSync(ran, "utf8") : "").toBe("");
      // Exported by a setup run inside the sandbox: the same.
      const set = JSON.parse(
        await a.ok(
          [
            "create",
            "--json",
            "--sandbox",
            "--setup",
            `export BUN_OPTIONS=--preload=${preload}`,
            "--",
            "bash",
            "--norc",
            "--noprofile",
          ],
          { cwd: work },
        ),
      );
      expect(await a.sh(set.id, 'echo "$BUN_OPTIONS"')).toBe(`--preload=${preload}`);
      await a.ok(["kill", set.id]);
      expect(existsSync(ran) ? readFileSync(ran, "utf8") : "").toBe("");
    });

    test("a sandboxed agent in a home without ~/.claude.json leaves nothing there: no directory in the file's place, no file", async () => {
      const bin = join(a.dir, "bin");
      mkdirSync(bin, { recursive: true });
      // The "agent": a shell that runs what it is sent, as an agent's tool calls would.
      writeFileSync(join(bin, "claude"), "#!/bin/bash\nexec bash --norc --noprofile\n", { mode: 0o755 });
      a.own(bin);
      expect(existsSync(join(a.home, ".claude.json"))).toBe(false);
      const create = [
        "create",
        "--json",
        "--agent",
        "claude",
        "--direct",
        "--sandbox",
        "--sandbox-allow",
        bin,
        "--cwd",
        work,
      ];
      const box = JSON.parse(await a.ok(create, { env: { PATH: `${bin}:/usr/bin:/bin` } }));
      const probe = [
        "test -d ~/.claude.json && echo config:directory || (test -e ~/.claude.json && echo config:present || echo config:absent)",
        "(echo '{}' > ~/.claude.json) 2>/dev/null && echo config:written || echo config:refused",
        "test -d ~/.claude && echo dir:present",
        "echo PROBE-$((6*7))-DONE", // the output, not the echoed command line, says it ran
      ].join("; ");
      await a.ok(["send", box.id, `${probe}\r`]);
      await waitFor(async () => /^PROBE-42-DONE$/m.test(await a.ok(["text", box.id])), 15_000, "the probe to run");
      const screen = (await a.ok(["text", box.id])).split("\n");
      const lines = screen.filter((line) => /^(config|dir):/.test(line));
      expect(lines).toEqual(["config:absent", "config:refused", "dir:present"]);
      await a.ok(["kill", box.id]);
      expect(existsSync(join(a.home, ".claude.json"))).toBe(false);
    });

    test("a conversation log made a FIFO or a symlink in the kept ~/.claude/projects: resume and transcript refuse it by name, the daemon keeps answering", async () => {
      const bin = join(a.dir, "bin");
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, "claude"), "#!/bin/bash\nexec bash --norc --noprofile\n", { mode: 0o755 });
      // A file of the user's outside the kept directory, shaped like a conversation of this cwd.
      const secret = join(a.home, "secret.jsonl");
      writeFileSync(
        secret,
        `{"type":"user","cwd":${JSON.stringify(work)},"message":{"content":"the user's secret"}}\n`,
      );
      a.own(bin, secret);
      const env = { PATH: `${bin}:/usr/bin:/bin` };
      const create = [
        "create",
        "--json",
        "--name",
        "trap-log",
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
      const first = JSON.parse(await a.ok(create, { env }));
      const log = join(
        a.home,
        ".claude",
        "projects",
        work.replace(/[^a-zA-Z0-9]/g, "-"),
        `${first.conversation_id}.jsonl`,
      );
      /** The FIFO's reader, if t4a blocked on it: a writer that opens and closes lets it go (cleanup, never the pass). */
      const release = () => {
        try {
          closeSync(openSync(log, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {
          // No reader: nothing blocked.
        }
      };
      const within = async <T>(work: Promise<T>, ms: number): Promise<T | "hung"> => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const hung = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), ms)));
        try {
          return await Promise.race([work, hung]);
        } finally {
          clearTimeout(timer);
        }
      };
      const plant = async (command: string) => {
        await a.ok(["send", first.id, `${command}; echo PLANT-$((6*7))-DONE\r`]);
        await waitFor(async () => /^PLANT-42-DONE$/m.test(await a.ok(["text", first.id])), 15_000, "the plant");
        await a.ok(["send", first.id, "clear\r"]);
        await waitFor(async () => !/PLANT-42-DONE/.test(await a.ok(["text", first.id])), 15_000, "the screen to clear");
      };
      try {
        // The live session: its log made a FIFO, then transcript asked for: no log it reads (a FIFO is no file), an answer at once.
        await plant(`mkdir -p ${JSON.stringify(join(log, ".."))} && rm -f ${log} && mkfifo ${log}`);
        const transcript = await within(a.run(["transcript", first.id]), 20_000);
        release();
        expect(transcript !== "hung" && transcript.stderr).toContain(`no conversation log of "trap-log" yet`);
        await a.ok(["kill", first.id]);
        // The next create resuming it (as a restore would): refused, named; the daemon still answers.
        const again = await within(a.run(create, { env }), 20_000);
        release();
        expect(again).not.toBe("hung");
        if (again === "hung") return;
        expect(again.code).not.toBe(0);
        expect(again.stdout + again.stderr).toContain("is not a regular file (a FIFO)"); // --json: the error is on stdout
        const listed = await within(a.run(["list", "--json"]), 20_000);
        expect(
          listed !== "hung" &&
            JSON.parse(listed.stdout).terminals.filter((terminal: { name?: string }) => terminal.name === "trap-log"),
        ).toEqual([]);
        // A symlink to a file outside, in the log's place: never followed, by transcript or resume.
        const box = JSON.parse(
          await a.ok(
            create.filter((arg) => arg !== "--resume"),
            { env },
          ),
        );
        // Its own log's place (a create without --resume starts a new conversation; the next --resume resumes that one).
        const boxLog = join(log, "..", `${box.conversation_id}.jsonl`);
        await a.ok([
          "send",
          box.id,
          `mkdir -p ${JSON.stringify(join(log, ".."))} && rm -f ${boxLog} && ln -s ${secret} ${boxLog}; echo LINK-$((6*7))-DONE\r`,
        ]);
        await waitFor(async () => /^LINK-42-DONE$/m.test(await a.ok(["text", box.id])), 15_000, "the link");
        const shown = await a.run(["transcript", box.id]);
        expect(shown.stdout).not.toContain("the user's secret");
        expect(shown.stderr).toContain("is a symbolic link; not followed");
        await a.ok(["kill", box.id]);
        const linked = await a.run(create, { env });
        expect(linked.stdout).not.toContain("the user's secret");
        expect(linked.code).not.toBe(0);
        expect(linked.stdout + linked.stderr).toContain("is a symbolic link; not followed");
      } finally {
        release();
      }
    });

    test("the network bridge cannot be taken over from inside: no ptrace, no memory, no file descriptors of it; the allow-list still works", async () => {
      const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("hello-from-allowed\n") });
      try {
        const script = join(a.home, "bridge-attack.py");
        writeFileSync(script, readFileSync(join(import.meta.dir, "..", "fixtures", "bridge-attack.py")));
        a.own(script);
        const report = join(work, "bridge-report");
        // The daemon reads the test's name mapping from its own environment: a fresh one for this test.
        await a.run(["shutdown"]);
        const hosts = { T4A_TEST_PROXY_HOSTS: "api.allowed.test=127.0.0.1" };
        const box = JSON.parse(
          await a.ok(
            [
              "create",
              "--json",
              "--sandbox",
              "--sandbox-allow-domain",
              "api.allowed.test",
              "--no-integration",
              "--",
              "python3",
              script,
              report,
              `http://api.allowed.test:${server.port}/`,
            ],
            { cwd: work, env: hosts },
          ),
        );
        expect((await a.run(["wait", box.id, "--exit", "--timeout", "60s"])).code).toBe(0);
        const lines = readFileSync(report, "utf8").trim().split("\n");
        expect(lines[0]).toMatch(/^bridges:[1-9]/);
        const attempts = lines.slice(1, -2);
        expect(attempts.length % 5).toBe(0);
        expect([...new Set(attempts)].sort()).toEqual([
          "fds:refused",
          "getfd:refused",
          "mem:refused",
          "ptrace:refused",
          "vm:refused",
        ]);
        expect(lines.slice(-2)).toEqual(["fetch:hello-from-allowed", "done"]);
        await a.run(["kill", box.id]);
      } finally {
        server.stop(true);
      }
    });

    test("a flood of tunnels from inside is capped per session (503 beyond 256); the daemon keeps answering", async () => {
      const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok\n") });
      try {
        const script = join(a.home, "flood.py");
        // 300 tunnels held open at once, then each one's status line counted.
        writeFileSync(
          script,
          [
            "import socket, sys, collections",
            "held = []",
            "for i in range(300):",
            "    s = socket.create_connection(('127.0.0.1', 3128)); s.sendall(('CONNECT api.allowed.test:%s HTTP/1.1\\r\\n\\r\\n' % sys.argv[2]).encode()); held.append(s)",
            "seen = collections.Counter()",
            "for s in held:",
            "    s.settimeout(20); data = b''",
            "    try:",
            "        while b'\\r\\n' not in data:",
            "            chunk = s.recv(4096)",
            "            if not chunk: break",
            "            data += chunk",
            "    except OSError as error: data = str(error).encode()",
            "    seen[data.split(b'\\r\\n')[0].decode()] += 1",
            "open(sys.argv[1], 'w').write('\\n'.join('%s=%d' % item for item in sorted(seen.items())) + '\\n')",
            "for s in held: s.close()",
          ].join("\n"),
        );
        a.own(script);
        const report = join(work, "flood-report");
        await a.run(["shutdown"]);
        const hosts = { T4A_TEST_PROXY_HOSTS: "api.allowed.test=127.0.0.1" };
        const box = JSON.parse(
          await a.ok(
            [
              "create",
              "--json",
              "--sandbox",
              "--sandbox-allow-domain",
              "api.allowed.test",
              "--no-integration",
              "--",
              "python3",
              script,
              report,
              String(server.port),
            ],
            { cwd: work, env: hosts },
          ),
        );
        expect(JSON.parse(await a.ok(["list", "--json"])).terminals.length).toBeGreaterThan(0);
        expect((await a.run(["wait", box.id, "--exit", "--timeout", "90s"])).code).toBe(0);
        expect(readFileSync(report, "utf8").trim().split("\n")).toEqual([
          "HTTP/1.1 200 Connection Established=256",
          "HTTP/1.1 503 Service Unavailable=44",
        ]);
        expect((await a.run(["list"])).code).toBe(0);
        await a.run(["kill", box.id]);
      } finally {
        server.stop(true);
      }
    });

    test("an env file the sandbox made a symlink (to the user's secrets) or a FIFO: --env-file refuses it by name, at once", async () => {
      const secret = join(a.home, "cloud-credentials");
      writeFileSync(secret, "AWS_SECRET_ACCESS_KEY=the-users-secret\n");
      a.own(secret);
      const box = await a.shell(["--sandbox"], work);
      expect(
        await a.sh(
          box,
          `mkdir -p ${work}/linked ${work}/piped && ln -sf ${secret} ${work}/linked/.env && mkfifo ${work}/piped/.env && echo planted`,
        ),
      ).toBe("planted");
      await a.ok(["kill", box]);
      const linked = await a.run(["create", "--sandbox", "--env-file", ".env", "--", "bash", "--norc", "--noprofile"], {
        cwd: join(work, "linked"),
      });
      expect(linked.code).not.toBe(0);
      expect(linked.stderr).toContain("is a symbolic link; not followed");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const piped = await Promise.race([
        a.run(["create", "--sandbox", "--env-file", ".env", "--", "true"], { cwd: join(work, "piped") }),
        new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), 20_000))),
      ]);
      clearTimeout(timer);
      if (piped === "hung") {
        // Let the blocked reader go: a writer that opens and closes.
        try {
          closeSync(openSync(join(work, "piped", ".env"), constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {}
      }
      expect(piped).not.toBe("hung");
      if (piped === "hung") return;
      expect(piped.stderr).toContain("is not a regular file (a FIFO)");
      // Neither create made a session.
      expect(JSON.parse(await a.ok(["list", "--json"])).terminals).toEqual([]);
    });
  });
}
