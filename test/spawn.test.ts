// Session plugins end to end, with real git repos and real bubblewrap: worktrees made, reused,
// cleaned, kept; the sandbox's walls (filesystem, network, the t4a socket); the environment
// policy; timeouts; connector.json up and down.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DaemonConnection, type Reply } from "../src/client/connection.ts";
import { Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
let state: string;
let repo: string;
const hasBwrap = Bun.which("bwrap") !== null;

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

beforeAll(() => {
  sandbox = new Sandbox();
  state = join(sandbox.dir, "state");
  repo = join(sandbox.dir, "repo");
  mkdirSync(join(repo, "src"), { recursive: true });
  sh(
    repo,
    "git init -q -b main && echo 'node_modules/' > .gitignore && echo hi > src/a.txt && git add -A && git commit -qm init",
  );
  mkdirSync(join(repo, "node_modules", "left-pad"), { recursive: true });
  writeFileSync(join(repo, "node_modules", "left-pad", "index.js"), "module.exports = 1;\n");
});
afterAll(() => sandbox.cleanup());

/** The daemon's environment: its own state dir, and a variable only the daemon has. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return { ...sandbox.env, XDG_STATE_HOME: state, ONLY_IN_DAEMON: "stale", ...extra };
}

async function t4a(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const child = Bun.spawn([`${import.meta.dir}/../dist/t4a`, ...args], {
    cwd: options.cwd ?? sandbox.dir,
    env: options.env ?? env(),
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

async function ok(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  const result = await t4a(args, options);
  if (result.code !== 0) throw new Error(`t4a ${args.join(" ")}: exit ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** Run a command in a session's shell and answer its output lines. */
async function run(id: string, command: string): Promise<string[]> {
  const { reply } = await sandbox.request({ cmd: "run", id, command, timeout_ms: 20_000 });
  if (reply.ok !== true) throw new Error(`run ${command}: ${reply.error}`);
  return reply.lines as string[];
}

async function created(args: string[], cwd = repo, extraEnv?: Record<string, string>): Promise<Reply> {
  return JSON.parse(
    await ok(["create", "--json", ...args, "--", "bash", "--norc", "--noprofile"], {
      cwd,
      env: extraEnv ? env(extraEnv) : undefined,
    }),
  );
}

test("worktree: made on branch t4a/NAME in the same subdirectory, node_modules linked, removed with its branch when clean", async () => {
  // The daemon starts from this first create, with XDG_STATE_HOME pointing into the sandbox.
  const session = await created(["--worktree", "clean-one"], join(repo, "src"));
  const dir = join(state, "t4a", "worktrees", "repo-clean-one");
  expect(session).toMatchObject({ worktree: dir, branch: "t4a/clean-one" });
  expect(await run(session.id as string, "pwd; git branch --show-current; cat a.txt")).toEqual([
    join(dir, "src"),
    "t4a/clean-one",
    "hi",
  ]);
  expect(lstatSync(join(dir, "node_modules")).isSymbolicLink()).toBe(true);
  expect(readlinkSync(join(dir, "node_modules"))).toBe(join(repo, "node_modules"));
  expect(await run(session.id as string, "git status --porcelain | wc -l")).toEqual(["0"]); // the link is excluded
  const killed = await t4a(["kill", session.id as string]);
  expect(killed).toMatchObject({ code: 0, stderr: "" });
  expect(existsSync(dir)).toBe(false);
  expect(sh(repo, "git branch --list 't4a/*'")).toBe("");
  expect(existsSync(join(repo, "node_modules", "left-pad", "index.js"))).toBe(true); // the link went, not its target
});

test("worktree: the same name reuses it; kept when dirty, its branch kept when it has commits", async () => {
  const first = await created(["--worktree", "busy"]);
  const dir = first.worktree as string;
  await run(first.id as string, "echo work > new.txt");
  const second = await created(["--worktree", "busy"]);
  expect(second.worktree).toBe(dir);
  expect(await run(second.id as string, "cat new.txt")).toEqual(["work"]);
  // Ending one user of a shared worktree leaves it to the other.
  expect((await t4a(["kill", second.id as string])).stderr).toContain("still used by 1 other session");
  // Uncommitted work: the worktree and its branch stay, and kill says so.
  const events = await DaemonConnection.open(sandbox.socket);
  await events.request({ cmd: "events", terminal: first.id });
  const dirty = await t4a(["kill", first.id as string]);
  expect(dirty.stderr).toBe(`t4a: kept worktree ${dir}: 1 uncommitted or untracked file`);
  expect(existsSync(join(dir, "new.txt"))).toBe(true);
  const exit = await waitFor(
    async () => {
      const line = await events.readLine();
      return line?.event === "exit" ? line : undefined;
    },
    10_000,
    "the exit event",
  );
  expect(exit.kept).toEqual([{ what: "worktree", path: dir, reason: "1 uncommitted or untracked file" }]);
  events.close();
  // Committed work: the worktree goes, the branch with the commit stays.
  const third = await created(["--worktree", "busy"]);
  await run(third.id as string, "git add new.txt && git -c user.name=t -c user.email=t@t commit -qm work");
  const committed = await t4a(["kill", third.id as string]);
  expect(committed.stderr).toBe("t4a: kept branch t4a/busy: 1 commit beyond its base");
  expect(existsSync(dir)).toBe(false);
  expect(sh(repo, "git log --format=%s t4a/busy -1")).toBe("work");
  // Reusing the name later checks the kept branch out as it is: nothing reset.
  const again = await created(["--worktree", "busy"]);
  expect(await run(again.id as string, "cat new.txt; git log --format=%s -1")).toEqual(["work", "work"]);
  await t4a(["kill", again.id as string]);
  sh(repo, "git branch -D t4a/busy");
});

test("worktree: outside a git repo, or with a bad name, the create fails and nothing is made", async () => {
  const plain = join(sandbox.dir, "not-a-repo");
  mkdirSync(plain, { recursive: true });
  const outside = await t4a(["create", "--worktree", "x", "--", "true"], { cwd: plain });
  expect(outside.code).toBe(1);
  expect(outside.stderr).toContain("is not in a git repository");
  for (const bad of ["a/b", "..", "-x", "a\tb", "a..b", ".hidden"]) {
    const result = await t4a(["create", `--worktree=${bad}`, "--", "true"], { cwd: repo });
    expect({ bad, code: result.code }).toEqual({ bad, code: result.code === 1 ? 1 : 2 });
    expect(result.stderr).toContain("worktree");
  }
  const list = JSON.parse(await ok(["list", "--json"]));
  expect(list.terminals).toEqual([]);
  expect(sh(repo, "git worktree list | wc -l")).toBe("1");
});

test("scratchpad: shared between sessions, linked in a worktree and excluded from git there", async () => {
  const a = await created(["--scratchpad", "notes", "--worktree", "pad-a"]);
  const b = await created(["--scratchpad", "notes"]);
  const dir = join(state, "t4a", "scratchpads", "notes");
  expect(
    await run(
      a.id as string,
      'echo from-a > "$T4A_SCRATCHPAD/finding"; readlink scratchpad; git status --porcelain | wc -l',
    ),
  ).toEqual([dir, "0"]);
  expect(await run(b.id as string, 'cat "$T4A_SCRATCHPAD/finding"')).toEqual(["from-a"]);
  expect((await t4a(["kill", a.id as string])).stderr).toBe(""); // clean: the link is excluded
  await t4a(["kill", b.id as string]);
  expect(readFileSync(join(dir, "finding"), "utf8")).toBe("from-a\n");
});

test("env: the client's values, not the daemon's; passthrough keys; -e, --env-file and --inherit-env", async () => {
  writeFileSync(join(sandbox.dir, "vars.env"), "# comment\nexport FROM_FILE='one two'\nQUOTED=\"a\\nb\"\n");
  const clientEnv = { ...env(), ANTHROPIC_API_KEY: "sk-test", CLIENT_ONLY: "x", LANG: "C.UTF-8" };
  delete (clientEnv as Record<string, string>).ONLY_IN_DAEMON;
  const id = JSON.parse(
    await ok(
      ["create", "--json", "--env-file", "vars.env", "-e", "FROM_FLAG=2", "--", "bash", "--norc", "--noprofile"],
      { env: clientEnv },
    ),
  ).id as string;
  const seen = await run(
    id,
    'echo "d=${ONLY_IN_DAEMON-unset} c=${CLIENT_ONLY-unset} k=$ANTHROPIC_API_KEY f=$FROM_FILE g=$FROM_FLAG l=$LANG p=$TERM_PROGRAM"; printf %s "$QUOTED" | wc -l',
  );
  expect(seen).toEqual(["d=unset c=unset k=sk-test f=one two g=2 l=C.UTF-8 p=t4a", "1"]);
  await t4a(["kill", id]);
  const inherit = JSON.parse(
    await ok(["create", "--json", "--inherit-env", "--", "bash", "--norc", "--noprofile"], { env: clientEnv }),
  ).id as string;
  expect(await run(inherit, 'echo "c=${CLIENT_ONLY-unset} d=${ONLY_IN_DAEMON-unset}"')).toEqual(["c=x d=unset"]);
  await t4a(["kill", inherit]);
  // A raw client that sends no environment gets the daemon's policy variables, nothing else.
  const { reply } = await sandbox.request({ cmd: "create", cmd_args: ["bash", "--norc", "--noprofile"] });
  expect(await run(reply.id as string, 'echo "d=${ONLY_IN_DAEMON-unset} h=$HOME"')).toEqual([
    `d=unset h=${process.env.HOME}`,
  ]);
  await sandbox.request({ cmd: "kill", id: reply.id });
});

test("timeout: the session is ended as kill does, and its exit event says why", async () => {
  const events = await DaemonConnection.open(sandbox.socket);
  await events.request({ cmd: "events" });
  const id = await ok(["create", "--timeout", "1s", "--", "sleep", "100"]);
  const started = performance.now();
  const exit = await waitFor(
    async () => {
      const line = await events.readLine();
      return line?.event === "exit" && line.terminal === id ? line : undefined;
    },
    10_000,
    "the timeout",
  );
  expect(performance.now() - started).toBeGreaterThan(900);
  expect(exit).toMatchObject({ reason: "timeout", signal: "SIGHUP" });
  expect(JSON.parse(await ok(["list", "--json"])).terminals.map((t: Reply) => t.id)).not.toContain(id);
  events.close();
});

test("connector.json: up creates three sessions (again: left alone), down ends them; a bad field names its path and spawns nothing", async () => {
  const file = join(sandbox.dir, "connector.json");
  writeFileSync(
    file,
    JSON.stringify({
      sessions: [
        { name: "web", cmd: ["sleep", "100"] },
        { name: "agent", cmd: ["bash", "--norc"], cwd: "repo", worktree: "from-file" },
        { name: "notes", cmd: ["sleep", "100"], scratchpad: "shared", env: { K: "v" } },
      ],
    }),
  );
  expect(await ok(["up", file])).toBe("web\tcreated\nagent\tcreated\nnotes\tcreated");
  expect(await ok(["up", file])).toBe("web\texists\nagent\texists\nnotes\texists");
  const listed = JSON.parse(await ok(["list", "--json"])).terminals as Reply[];
  expect(listed.find((t) => t.id === "agent")).toMatchObject({
    worktree: join(state, "t4a", "worktrees", "repo-from-file"),
  });
  expect(await ok(["down", file])).toBe("web\tended\nagent\tended\nnotes\tended");
  expect(existsSync(join(state, "t4a", "worktrees", "repo-from-file"))).toBe(false);

  writeFileSync(
    file,
    JSON.stringify({ sessions: [{ name: "ok1", cmd: ["sleep", "1"] }, { name: "ok2" }, { name: "bad", worktree: 7 }] }),
  );
  const bad = await t4a(["up", file]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("sessions[2].worktree: ");
  // A create that fails in the daemon undoes the ones before it.
  writeFileSync(
    file,
    JSON.stringify([
      { name: "first", cmd: ["sleep", "100"] },
      { name: "second", cmd: ["/no/such/program"] },
    ]),
  );
  const failed = await t4a(["up", file]);
  expect(failed.code).toBe(1);
  expect(failed.stderr).toContain("sessions[1]: cannot start");
  expect(JSON.parse(await ok(["list", "--json"])).terminals).toEqual([]);
  const schema = JSON.parse(await ok(["schema", "spec"]));
  expect(JSON.stringify(schema)).toContain('"worktree"');
});

test.if(hasBwrap)(
  "sandbox: writes only in cwd, /tmp and allowed paths; no network; no way to the t4a socket",
  async () => {
    // A web token, as `t4a web` leaves it: the sandbox must not read it.
    mkdirSync(join(state, "t4a", "web"), { recursive: true, mode: 0o700 });
    writeFileSync(join(state, "t4a", "web", "token"), "secret-web-token\n", { mode: 0o600 });
    const allowed = join(sandbox.dir, "allowed");
    mkdirSync(allowed, { recursive: true });
    const work = join(sandbox.dir, "work");
    mkdirSync(work, { recursive: true });
    // A server on the host's loopback: reachable only with --sandbox-net.
    const server = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: { open: (s) => void s.end("hello-from-host\n"), data() {} },
    });
    try {
      const box = await created(["--sandbox", "--sandbox-allow", allowed], work);
      const id = box.id as string;
      expect(box.sandbox).toBe("bwrap, no network");
      const probe = [
        "touch in-cwd && echo cwd:ok",
        "touch /tmp/x && echo tmp:ok",
        `touch ${allowed}/y && echo allowed:ok`,
        "touch /var/t4a-escape 2>/dev/null || echo outside:denied",
        // The host's /tmp is not the sandbox's: this lands in a private tmpfs, never on the host.
        `touch ${sandbox.dir}/outside`,
        `touch ${process.env.HOME}/t4a-escape 2>/dev/null || echo home:denied`,
        `(echo > /dev/tcp/127.0.0.1/${server.port}) 2>/dev/null && echo net:open || echo net:denied`,
        'echo "socket-env:${T4A_SOCKET-unset}"',
        `ls -A ${join(sandbox.dir, "run")} | tr '\\n' ' '; echo`,
        `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${sandbox.socket}')" 2>/dev/null && echo socket:reached || echo socket:unreachable`,
        `ls /proc | grep -c '^[0-9]'`,
        `cat ${join(state, "t4a", "web", "token")} 2>/dev/null || echo token:hidden`,
      ].join("; ");
      const lines = await run(id, probe);
      expect(lines.slice(0, 8)).toEqual([
        "cwd:ok",
        "tmp:ok",
        "allowed:ok",
        "outside:denied",
        "home:denied",
        "net:denied",
        "socket-env:unset",
        "shell-integration",
      ]);
      expect(lines[8]).toBe("socket:unreachable");
      expect(Number(lines[9])).toBeLessThan(10); // its own PID namespace: no daemon to see
      expect(lines[10]).toBe("token:hidden");
      expect(existsSync(join(sandbox.dir, "outside"))).toBe(false);
      await t4a(["kill", id]);

      const open = await created(["--sandbox", "--sandbox-net"], work);
      expect(await run(open.id as string, `exec 3<>/dev/tcp/127.0.0.1/${server.port}; head -1 <&3`)).toEqual([
        "hello-from-host",
      ]);
      await t4a(["kill", open.id as string]);
    } finally {
      server.stop(true);
    }
    // Fail closed: a path that does not exist, a cwd inside t4a's own directory.
    expect(
      (await t4a(["create", "--sandbox", "--sandbox-allow", "/no/such/dir", "--", "true"], { cwd: work })).stderr,
    ).toContain("allowed path /no/such/dir does not exist");
    expect((await t4a(["create", "--sandbox", "--cwd", join(sandbox.dir, "run"), "--", "true"])).stderr).toContain(
      "inside t4a's private directory",
    );
  },
);

test.if(hasBwrap)(
  "sandbox: a daemon without bwrap on its PATH refuses to create, never running unsandboxed",
  async () => {
    const lonely = new Sandbox();
    try {
      const bin = join(lonely.dir, "bin");
      mkdirSync(bin);
      for (const tool of ["bash", "sh", "true", "git", "env"]) symlinkSync(Bun.which(tool)!, join(bin, tool));
      const daemonEnv = { ...lonely.env, PATH: bin };
      const result = Bun.spawn([`${import.meta.dir}/../dist/t4a`, "create", "--sandbox", "--", "true"], {
        env: daemonEnv,
        cwd: lonely.dir,
        stderr: "pipe",
      });
      const [stderr, code] = await Promise.all([new Response(result.stderr).text(), result.exited]);
      expect(code).toBe(1);
      expect(stderr).toContain("sandbox: bwrap not found on PATH (install bubblewrap); refusing to run unsandboxed");
      expect((await lonely.request({ cmd: "list" })).reply.terminals).toEqual([]);
    } finally {
      await lonely.cleanup();
    }
  },
);

if (!hasBwrap) console.log("skipped: the sandbox tests need bubblewrap (.ci/run installs it)");
