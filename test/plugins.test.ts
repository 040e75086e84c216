// Plugins of the user's own (real executables from test/fixtures/plugins, copied into
// $XDG_CONFIG_HOME/t4a/plugins), --setup before the program, and a worktree's own setup: what
// each makes of a session, how each failure refuses the create and undoes the chain, and that a
// sandboxed program can change none of it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { getPriority } from "node:os";
import { join, resolve } from "node:path";
import { isAlive, Sandbox, waitFor } from "./harness.ts";
import { HAS_BWRAP } from "./security/actor.ts";

/** `nice -n 7` adds to the niceness the suite runs at (a run under `nice` starts above 0). */
const NICED = Math.min(19, getPriority() + 7);

let sandbox: Sandbox;
let config: string;
let work: string;
let repo: string;

function env(): Record<string, string> {
  return { ...sandbox.env, XDG_CONFIG_HOME: config, XDG_STATE_HOME: join(sandbox.dir, "state") };
}

async function t4a(args: string[], cwd = work) {
  const child = Bun.spawn([resolve(import.meta.dir, "../dist/t4a"), ...args], {
    cwd,
    env: env(),
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

async function ok(args: string[], cwd = work): Promise<string> {
  const result = await t4a(args, cwd);
  if (result.code !== 0) throw new Error(`t4a ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

/** Runs a session's program to its end and answers its screen. */
async function output(id: string): Promise<string> {
  await ok(["wait", id, "--exit", "--timeout", "20s"]);
  return ok(["text", id]);
}

function sh(cwd: string, script: string): string {
  const result = Bun.spawnSync(["bash", "-c", script], {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });
  if (result.exitCode !== 0) throw new Error(`${script}: ${result.stderr}`);
  return result.stdout.toString().trim();
}

beforeAll(async () => {
  sandbox = new Sandbox();
  config = join(sandbox.dir, "config");
  work = join(sandbox.dir, "work");
  repo = join(sandbox.dir, "repo");
  mkdirSync(work, { recursive: true });
  cpSync(resolve(import.meta.dir, "fixtures/plugins"), join(config, "t4a", "plugins"), { recursive: true });
  writeFileSync(join(work, ".t4a-env"), "GREETING=hello-from-dotenv\nPROJECT=widget\n");
  sh(sandbox.dir, "git init -q repo && cd repo && echo one > file.txt && git add . && git commit -qm init");
  // The daemon starts with the first create, with this config directory.
});
afterAll(() => sandbox.cleanup());

test("a plugin's env reaches the program; a wrapping plugin's prefix runs it (nice), and its cleanup runs at the end", async () => {
  const mark = join(sandbox.dir, "cleaned");
  const created = JSON.parse(
    await ok([
      "create",
      "--json",
      "--plugin",
      "dotenv",
      "--plugin",
      "nice",
      "-e",
      `PLUGIN_MARK_PATH=${mark}`,
      "-e",
      "T4A_NICE=7",
      "--",
      "bash",
      "-c",
      "echo \"$GREETING $PROJECT nice=$(cut -d' ' -f19 /proc/$$/stat)\"; sleep 0.2",
    ]),
  );
  expect(created.plugins).toEqual(["dotenv", "nice"]);
  expect(await output(created.id)).toContain(`hello-from-dotenv widget nice=${NICED}`);
  expect(
    JSON.parse(await ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === created.id).plugins,
  ).toEqual(["dotenv", "nice"]);
  await ok(["kill", created.id]);
  expect(readFileSync(mark, "utf8")).toBe("cleaned\n");
  // NAME=ARG: the argument reaches the plugin (another env file).
  writeFileSync(join(work, "other.env"), "GREETING=from-the-argument\n");
  const withArg = await ok(["create", "--plugin", "dotenv=other.env", "--", "bash", "-c", 'echo "[$GREETING]"']);
  expect(await output(withArg)).toContain("[from-the-argument]");
  await ok(["kill", withArg]);
});

test("a plugin that fails, hangs, answers garbage, names no directory, or does not exist refuses the create, with its words; nothing is left", async () => {
  const cases: Array<[string, RegExp]> = [
    ["fails", /plugin fails failed \(exit 3\): fails: no credentials for the vault/],
    ["garbage", /plugin garbage answered something that is not JSON: "hello, I am not JSON/],
    ["moves", /plugin moves: cwd \/nonexistent\/place is not a directory/],
    ["missing", /plugin missing: no executable .*\/t4a\/plugins\/missing/],
    ["hangs", /plugin hangs did not answer within 10 s/],
  ];
  const hangsPids = join(sandbox.dir, "hangs.pids");
  for (const [name, message] of cases) {
    const refused = await t4a([
      "create",
      "--name",
      `p-${name}`,
      "--plugin",
      name,
      "-e",
      `HANGS_PIDS=${hangsPids}`,
      "--",
      "true",
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(message);
  }
  expect(JSON.parse(await ok(["list", "--json"])).terminals).toEqual([]);
  // The chain is undone: the worktree made before the failing plugin is gone, and its branch.
  const refused = await t4a(["create", "--worktree", "undone", "--plugin", "fails", "--", "true"], repo);
  expect(refused.code).toBe(1);
  expect(sh(repo, "git worktree list | wc -l")).toBe("1");
  expect(sh(repo, "git branch --list 't4a/undone'")).toBe("");
  // The hanging plugin's whole process group was killed, the child it left behind too.
  const pids = readFileSync(hangsPids, "utf8").trim().split(" ").map(Number);
  expect(pids).toHaveLength(2);
  await waitFor(
    () => pids.every((pid) => !isAlive(pid)),
    10_000,
    `the hanging plugin and its child (${pids.join(", ")}) to be gone`,
  );
}, 60_000);

test.if(HAS_BWRAP)(
  "a sandboxed program cannot change a plugin; the plugin still wraps it and the sandbox wraps both",
  async () => {
    const pluginFile = join(config, "t4a", "plugins", "nice");
    const id = await ok([
      "create",
      "--sandbox",
      "--plugin",
      "nice",
      "-e",
      `PLUGIN_MARK_PATH=${join(work, "mark")}`,
      "--",
      "bash",
      "-c",
      `(echo 'echo pwned' > ${pluginFile}) 2>/dev/null && echo plugin:written || echo plugin:refused; (touch ${join(config, "t4a", "plugins", "new")}) 2>/dev/null && echo added || echo not-added; echo nice=$(cut -d' ' -f19 /proc/$$/stat)`,
    ]);
    const screen = await output(id);
    expect(screen).toContain("plugin:refused");
    expect(screen).toContain("not-added");
    expect(screen).toContain(`nice=${NICED}`);
    expect(readFileSync(pluginFile, "utf8")).toContain("argv_prefix");
    await ok(["kill", id]);
  },
);

test("--setup: what it sets reaches the program; a failing setup refuses the create with its output and starts nothing", async () => {
  mkdirSync(join(work, ".venv", "bin"), { recursive: true });
  writeFileSync(
    join(work, ".venv", "bin", "activate"),
    `export VIRTUAL_ENV=${work}/.venv\nexport PATH="$VIRTUAL_ENV/bin:$PATH"\nunset T4A_DROP_ME\n`,
  );
  writeFileSync(join(work, ".venv", "bin", "tool"), "#!/bin/sh\necho venv-tool\n");
  chmodSync(join(work, ".venv", "bin", "tool"), 0o755);
  const id = await ok(
    [
      "create",
      "--setup",
      "echo setting up; source .venv/bin/activate",
      "-e",
      "T4A_DROP_ME=1",
      "--",
      "bash",
      "-c",
      'echo "venv=$VIRTUAL_ENV drop=${T4A_DROP_ME-unset}"; tool',
    ],
    work,
  );
  const screen = await output(id);
  expect(screen).toContain(`venv=${work}/.venv drop=unset`);
  expect(screen).toContain("venv-tool");
  expect(screen).not.toContain("setting up"); // the setup's own output is not the program's
  await ok(["kill", id]);

  const refused = await t4a([
    "create",
    "--name",
    "nosetup",
    "--setup",
    "echo cannot find nvm >&2; false",
    "--",
    "touch",
    join(work, "started"),
  ]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("setup failed (exit 1); the program did not start");
  expect(refused.stderr).toContain("cannot find nvm");
  expect(existsSync(join(work, "started"))).toBe(false);
  expect(JSON.parse(await ok(["list", "--json"])).terminals).toEqual([]);
});

test.if(HAS_BWRAP)("--setup runs inside the sandbox: it cannot write outside the session's directory", async () => {
  // The home is shown read-only (a path under /tmp would land in the sandbox's private /tmp).
  const outside = join(process.env.HOME ?? "/root", `t4a-escaped-by-setup-${process.pid}`);
  const refused = await t4a(["create", "--sandbox", "--setup", `touch ${outside}`, "--", "true"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("setup failed");
  expect(existsSync(outside)).toBe(false);
  const inside = await ok([
    "create",
    "--sandbox",
    "--setup",
    "touch made-by-setup && export MADE=yes",
    "--",
    "bash",
    "-c",
    'echo "made=$MADE"',
  ]);
  expect(await output(inside)).toContain("made=yes");
  expect(existsSync(join(work, "made-by-setup"))).toBe(true);
  await ok(["kill", inside]);
});

test("cost: what one external plugin adds to create (median of 10)", async () => {
  const median = async (args: string[]) => {
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const id = await ok(["create", ...args, "--", "true"]);
      times.push(performance.now() - started);
      await ok(["kill", id]);
    }
    return times.sort((a, b) => a - b)[5]!;
  };
  const plain = await median([]);
  const plugged = await median(["--plugin", "dotenv"]);
  console.log(
    `create: ${plain.toFixed(1)} ms; with one external plugin (a bash script): ${plugged.toFixed(1)} ms (+${(plugged - plain).toFixed(1)} ms, median of 10)`,
  );
  expect(plugged).toBeGreaterThan(0);
}, 60_000);

test("a new worktree gets the ignored files .worktreeinclude lists, and runs .t4a/setup only once its exact bytes are approved", async () => {
  const app = join(sandbox.dir, "app");
  sh(
    sandbox.dir,
    [
      "git init -q app && cd app",
      "printf '.env\\n.env.local\\ncerts/\\nbuild/\\nnode_modules/\\n' > .gitignore",
      "printf '.env\\ncerts/\\n# not this one: .env.local\\nsecret-link\\n' > .worktreeinclude",
      "mkdir -p .t4a && printf '#!/bin/sh\\necho \"setup ran in $T4A_WORKTREE on $T4A_BRANCH\" > setup-ran.txt\\n' > .t4a/setup",
      "printf 'setup-ran.txt\\n' >> .gitignore",
      "git add . && git commit -qm init",
      "echo API_KEY=abc > .env && echo LOCAL=1 > .env.local && mkdir certs && echo pem > certs/dev.pem && chmod 600 certs/dev.pem",
      `ln -s /etc/passwd secret-link && printf 'secret-link\\n' >> .git/info/exclude`,
    ].join(" && "),
  );
  // Not approved: the files come, the script does not run, and create says why. (Each session lives
  // until the end: one that ended would take its clean worktree with it, maybe before it is read.)
  const first = await t4a(["create", "--json", "--worktree", "one", "--", "sleep", "600"], app);
  expect(first.code).toBe(0);
  const one = JSON.parse(first.stdout);
  expect(one.worktree_included).toBe(2);
  expect(one.worktree_setup).toMatch(
    /^not run: \.t4a\/setup \(sha256 [0-9a-f]{12}\) is not approved; read it, then run `t4a trust .*\/app`$/,
  );
  expect(readFileSync(join(one.worktree, ".env"), "utf8")).toBe("API_KEY=abc\n");
  expect(readFileSync(join(one.worktree, "certs", "dev.pem"), "utf8")).toBe("pem\n");
  expect(existsSync(join(one.worktree, ".env.local"))).toBe(false); // ignored, but not listed
  expect(existsSync(join(one.worktree, "secret-link"))).toBe(false); // a symlink is never followed out
  expect(existsSync(join(one.worktree, "setup-ran.txt"))).toBe(false);
  const warned = await t4a(["create", "--worktree", "two", "--", "sleep", "600"], app);
  expect(warned.stderr).toContain("t4a: worktree setup not run: .t4a/setup");

  // Approved: the next new worktree runs it.
  const approved = await t4a(["trust"], app);
  expect(approved.code).toBe(0);
  expect(approved.stderr).toContain("approved");
  const three = JSON.parse(await ok(["create", "--json", "--worktree", "three", "--", "sleep", "600"], app));
  expect(three.worktree_setup).toBe("ran .t4a/setup");
  expect(readFileSync(join(three.worktree, "setup-ran.txt"), "utf8")).toBe(
    `setup ran in ${three.worktree} on t4a/three\n`,
  );

  // A changed script (committed on the base) is not the approved one: not run until approved again.
  sh(
    app,
    `printf '#!/bin/sh\\ntouch ${join(sandbox.dir, "PWNED")}\\n' > .t4a/setup && git commit -qam 'change the setup'`,
  );
  const four = JSON.parse(await ok(["create", "--json", "--worktree", "four", "--", "sleep", "600"], app));
  expect(four.worktree_setup).toStartWith("not run:");
  expect(existsSync(join(sandbox.dir, "PWNED"))).toBe(false);

  // An approved script that fails refuses the create and undoes the worktree.
  sh(
    app,
    "printf '#!/bin/sh\\necho installing; echo npm ERR! missing >&2; exit 4\\n' > .t4a/setup && git commit -qam 'a failing setup'",
  );
  await ok(["trust"], app);
  const failed = await t4a(["create", "--worktree", "five", "--", "true"], app);
  expect(failed.code).toBe(1);
  expect(failed.stderr).toContain(".t4a/setup failed (exit 4)");
  expect(failed.stderr).toContain("npm ERR! missing");
  expect(sh(app, "git worktree list")).not.toContain("app-five");
  for (const terminal of JSON.parse(await ok(["list", "--json"])).terminals) await ok(["kill", terminal.id]);
});

test.if(Bun.which("jq") !== null)(
  "the docs' example plugin (docs/sandbox-and-security.md) works as printed",
  async () => {
    const readme = readFileSync(resolve(import.meta.dir, "../docs/sandbox-and-security.md"), "utf8");
    const script = /```sh\n(#!\/bin\/sh\n# ~\/\.config\/t4a\/plugins\/dotenv[\s\S]*?)```/.exec(readme)?.[1];
    expect(script).toBeDefined();
    const path = join(config, "t4a", "plugins", "readme-dotenv");
    writeFileSync(path, script!);
    chmodSync(path, 0o755);
    writeFileSync(join(work, "app.env"), "# a comment\nDATABASE_URL=postgres://db/app?x=1\nMODE=dev\n");
    const id = await ok([
      "create",
      "--plugin",
      "readme-dotenv=app.env",
      "--",
      "bash",
      "-c",
      'echo "[$DATABASE_URL] [$MODE]"',
    ]);
    expect(await output(id)).toContain("[postgres://db/app?x=1] [dev]");
    await ok(["kill", id]);
  },
);

test("connector.json names plugins and setup like the CLI flags", async () => {
  const file = join(work, "connector.json");
  writeFileSync(
    file,
    JSON.stringify({
      sessions: [
        {
          name: "from-file",
          cmd: ["bash", "-c", 'echo "[$GREETING] [$FROM_SETUP]"'],
          plugins: ["dotenv"],
          setup: "export FROM_SETUP=yes",
        },
      ],
    }),
  );
  await ok(["up", file]);
  expect(await output("from-file")).toContain("[hello-from-dotenv] [yes]");
  expect(
    JSON.parse(await ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === "from-file").plugins,
  ).toEqual(["dotenv"]);
  await ok(["down", file]);
});
