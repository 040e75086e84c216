// Attacks through the directory t4a runs in: a cloned repository is where agents call t4a from,
// and what it holds is the attacker's. A compiled Bun program reads bunfig.toml (whose `preload`
// runs code) and .env (which sets the environment) from there unless built not to.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox, waitFor } from "../harness.ts";

let sandbox: Sandbox;
let repo: string;

beforeAll(() => {
  sandbox = new Sandbox();
  repo = join(sandbox.dir, "cloned-repo");
  mkdirSync(repo);
  writeFileSync(join(repo, "bunfig.toml"), 'preload = ["./pwn.ts"]\n[run]\npreload = ["./pwn.ts"]\n');
  writeFileSync(join(repo, "pwn.ts"), `require("fs").writeFileSync(${JSON.stringify(join(repo, "PWNED"))}, "ran");\n`);
  writeFileSync(join(repo, ".env"), "T4A_HOST=attacker.invalid\nT4A_SOCKET=/tmp/attacker/t4a.sock\nT4A_PLANTED=1\n");
});
afterAll(() => sandbox.cleanup());

async function t4aIn(cwd: string, args: string[]) {
  const child = Bun.spawn([BIN, ...args], { cwd, env: sandbox.env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

test("a repository's bunfig.toml runs nothing and its .env changes nothing, for the CLI and the daemon it starts", async () => {
  expect((await t4aIn(repo, ["--version"])).code).toBe(0);
  expect(existsSync(join(repo, "PWNED"))).toBe(false);
  // The daemon starts from here (the first call), and the session inherits its environment.
  const created = await t4aIn(repo, ["create", "--", "sh", "-c", "echo planted=${T4A_PLANTED:-none}; sleep 30"]);
  expect(created.stderr).toBe("");
  expect(created.code).toBe(0);
  const id = created.stdout.trim();
  const listed = await t4aIn(repo, ["list"]);
  expect(listed.stderr).not.toContain("attacker");
  expect(listed.stdout).toContain(id);
  const line = await waitFor(
    async () => /planted=\S+/.exec((await t4aIn(repo, ["text", id])).stdout)?.[0],
    10_000,
    "the session's line",
  );
  expect(line).toBe("planted=none");
  expect(existsSync(join(repo, "PWNED"))).toBe(false);
  await t4aIn(repo, ["kill", id]);
});
