// Wave 5's surfaces attacked (the tmux front end, `--agent auto`, the pi and copilot presets,
// needs and claims), each as a program inside a session or a sandbox would try it, as root and
// as an unprivileged user made for the test. Each test was seen failing before its fix.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { waitFor } from "../harness.ts";
import { Actor, CAN_MAKE_USERS, HAS_BWRAP, IS_ROOT } from "./actor.ts";

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
  });
}
