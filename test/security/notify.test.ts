// Attacks on an agent session's notify channel (its FIFO, the one door a sandboxed agent has):
// escape sequences in a report (an OSC 52 clipboard write printed by `wait --agent`), garbage
// and oversized lines, a request of another protocol. The channel sets a state, and nothing more.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../harness.ts";

let sandbox: Sandbox;
const env = () => ({ ...sandbox.env, HOME: sandbox.dir });
async function t4a(args: string[]) {
  const child = Bun.spawn([join(import.meta.dir, "../../dist/t4a"), ...args], {
    cwd: sandbox.dir,
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

beforeAll(() => {
  sandbox = new Sandbox();
  // An "agent" that is a plain shell: the test writes into its channel as a hostile CLI would.
  mkdirSync(join(sandbox.dir, ".config", "t4a"), { recursive: true });
  writeFileSync(
    join(sandbox.dir, ".config", "t4a", "agents.json"),
    JSON.stringify({ shell: { cli: "bash", defaultArgs: ["--norc", "--noprofile"] } }),
  );
});
afterAll(() => sandbox.cleanup());

test("a report's escape sequences never reach a reader; garbage and another protocol change nothing", async () => {
  const id = (await t4a(["create", "--agent", "shell", "--direct"])).stdout;
  await waitFor(async () => /[$#] ?$/.test((await t4a(["text", id, "--tail", "1"])).stdout), 10_000, "the shell");
  // As a file, so no layer between here and the shell reads its escapes first.
  const script = join(sandbox.dir, "hostile.sh");
  writeFileSync(
    script,
    [
      `head -c 20000 /dev/zero | tr '\\0' x > "$T4A_NOTIFY"`, // one line longer than any report
      `printf '{"cmd":"create","cmd_args":["touch","/tmp/t4a-pwned-notify"]}\\n' > "$T4A_NOTIFY"`,
      `printf 'waiting \\033]52;c;SGVsbG8=\\007 \\033[2J question?\\n' > "$T4A_NOTIFY"`,
    ].join("\n"),
  );
  await t4a(["send", id, `bash ${script}\r`]);
  const waited = await t4a(["wait", id, "--agent", "waiting", "--timeout", "10s"]);
  expect(waited.code).toBe(0);
  expect(waited.stdout).toContain("SGVsbG8=");
  expect(waited.stdout).toContain("question?");
  expect(waited.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  const listed = JSON.parse((await t4a(["list", "--json"])).stdout).terminals as Array<{
    id: string;
    agent_state: string;
    agent_line?: string;
  }>;
  expect(listed.map((t) => t.id)).toEqual([id]);
  expect(JSON.stringify(listed)).not.toContain("\\u001b");
  // The same through the daemon's socket (`t4a notify` from outside the session).
  expect((await t4a(["notify", id, "idle", "\x1b]52;c;SGk=\x07done"])).code).toBe(0);
  expect(JSON.stringify(JSON.parse((await t4a(["list", "--json"])).stdout))).not.toContain("\\u001b");
  await t4a(["kill", id]);
});
