// Agent argv building, in process: seed 003's order (resume, defaults and hooks, auto-approve,
// prompt, extra args), each spawn mode, and a hostile prompt kept byte for byte by the shell.
import { daemonClientEnv } from "../session-env.ts";
import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findAgent } from "./agents.ts";
import { deterministicUuid, launch, type LaunchOptions } from "./launch.ts";

const env = daemonClientEnv({ HOME: "/nonexistent-home", PATH: "/usr/bin:/bin" });
const options = (name: string, extra: Partial<LaunchOptions> = {}): LaunchOptions => ({
  agent: findAgent(name, env),
  mode: "login",
  conversationId: deterministicUuid("fix-42"),
  cwd: "/work/repo",
  home: "/nonexistent-home",
  shell: "/bin/bash",
  yolo: false,
  resume: false,
  extraArgs: [],
  notify: { t4a: "/opt/t4a", id: "fix-42" },
  ...extra,
});
const hostile = `it's "$(touch /tmp/pwned)" \`id\` $HOME; done\n`;

test("claude: session id, state hooks, yolo, the prompt, extra args, in that order (direct mode)", () => {
  const built = launch(
    options("claude", {
      mode: "direct",
      yolo: true,
      prompt: hostile,
      extraArgs: ["--model", "x"],
      cliPath: "/usr/bin/claude",
    }),
  );
  const id = deterministicUuid("fix-42");
  const args = built.argv.slice(built.argv.indexOf("/usr/bin/claude") + 1);
  expect(args.slice(0, 2)).toEqual(["--session-id", id]);
  expect(args[2]).toBe("--settings");
  expect(JSON.parse(args[3]!).hooks.Stop[0].hooks[0].command).toBe("/opt/t4a notify fix-42 idle");
  expect(args.slice(4)).toEqual(["--dangerously-skip-permissions", hostile, "--model", "x"]);
  expect(built.conversationId).toBe(id);
  expect(built.resumed).toBe(false);
});

test("login mode: one shell line, every argument quoted, the prompt reaches the CLI verbatim", () => {
  const built = launch(options("gemini", { prompt: hostile }));
  expect(built.argv.slice(0, 2)).toEqual(["/bin/bash", "-lic"]);
  // The shell's own parse of the line gives back exactly the argv (printf stands in for the CLI).
  const full = built.argv[2]!;
  const line = full.slice(0, full.lastIndexOf("; /opt/t4a notify")).replace(/^gemini/, "printf '%s\\0'");
  const words = Bun.spawnSync(["/bin/bash", "-c", line]).stdout.toString().split("\0").slice(0, -1);
  expect(words.at(-1)).toBe(hostile);
});

test("a TUI that takes no prompt argument gets it typed; resume without an id uses the latest flag", () => {
  const all = ["claude", "codex", "gemini", "qwen", "opencode"].map((name) => ({
    name,
    built: launch(options(name, { prompt: "hello", resume: true })),
  }));
  for (const { name, built } of all) {
    const agent = findAgent(name, env);
    // Resuming, opencode takes its prompt typed (its --prompt is ignored with --continue).
    if ((agent.resume.prompt ?? agent.prompt).via === "type") expect(built.typedPrompt).toBe("hello");
    else expect(built.typedPrompt).toBeUndefined();
    if (agent.resume.latest && !agent.resume.byId) expect(built.resumed).toBe(true);
  }
});

test("ssh mode: ssh -tt TARGET 'cd DIR && cli args'", () => {
  const built = launch(
    options("codex", { mode: "ssh", ssh: { target: "dev@box", args: ["-p", "2222"] }, prompt: "go" }),
  );
  expect(built.argv.slice(0, 5)).toEqual(["ssh", "-tt", "-p", "2222", "dev@box"]);
  expect(built.argv[5]).toStartWith("cd /work/repo && codex ");
  expect(built.argv[5]).toEndWith(" go");
});

test(
  "gemini resumes by id only from its log for this directory (its project's sha256), " +
    "else its latest; a log made a symlink or a FIFO is neither followed nor opened",
  () => {
    const home = mkdtempSync(join(tmpdir(), "t4a-gemini-resume-"));
    try {
      const id = deterministicUuid("fix-42");
      const resume = (cwd = "/work/repo") =>
        launch(options("gemini", { home, cwd, resume: true, mode: "direct", cliPath: "/usr/bin/gemini" }));
      const args = (built: ReturnType<typeof launch>) =>
        built.argv.slice(built.argv.indexOf("/usr/bin/gemini") + 1, built.argv.indexOf("/usr/bin/gemini") + 3);
      expect(args(resume())).toEqual(["--resume", "latest"]); // no log yet
      const chats = join(home, ".gemini", "tmp", "repo", "chats");
      mkdirSync(chats, { recursive: true });
      const log = join(chats, `session-2026-11-26T20-00-${id.slice(0, 8)}.jsonl`);
      const project = createHash("sha256").update("/work/repo").digest("hex");
      writeFileSync(
        log,
        `${JSON.stringify({ sessionId: id, projectHash: project, startTime: "2026-11-26T20:00:00Z" })}\n`,
      );
      const built = resume();
      expect(args(built)).toEqual(["--resume", id]);
      expect(built.conversationId).toBe(id);
      expect(args(resume("/work/other"))).toEqual(["--resume", "latest"]); // another project's conversation
      // Planted by a sandboxed gemini (~/.gemini/tmp is kept writable): a link to a file of the user's.
      const secret = join(home, "secret.jsonl");
      renameSync(log, secret);
      symlinkSync(secret, log);
      expect(args(resume())).toEqual(["--resume", "latest"]); // not followed: no log of its own there
      rmSync(log);
      Bun.spawnSync(["mkfifo", log]);
      expect(args(resume())).toEqual(["--resume", "latest"]); // never opened (it would block): no log there
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);
