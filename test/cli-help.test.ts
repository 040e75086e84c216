// The CLI's --help as a new user reads it: no default that says the opposite of the flag, and
// every flag of every command documented in the CLI reference (docs/cli.md).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { commands } from "../src/commands/index.ts";
import { BIN, Sandbox } from "./harness.ts";

const reference = readFileSync(resolve(import.meta.dir, "../docs/cli.md"), "utf8");

test("item 7: no --help shows a default beside a --no- flag", async () => {
  const sandbox = new Sandbox();
  try {
    for (const command of commands) {
      if (!command.cli) continue;
      const help = await sandbox.ok([command.name, "--help"]);
      for (const line of help.split("\n").filter((line) => /^\s+--no-/.test(line))) {
        expect(`${command.name}: ${line}`).not.toMatch(/\(default: (true|false)\)/);
      }
    }
  } finally {
    await sandbox.cleanup();
  }
});

test("item 7: the CLI reference (docs/cli.md) names every flag of every command", () => {
  const missing: string[] = [];
  for (const command of commands) {
    for (const [flags] of command.cli?.options ?? []) {
      const long = /--[a-z][a-z-]*/.exec(flags)![0];
      const name = command.cli!.usage.split(" ")[0];
      const section = reference.split(`\n### t4a ${name}\n`)[1]?.split("\n### ")[0];
      if (!section?.includes(long)) missing.push(`${command.name} ${long}`);
    }
  }
  expect(missing).toEqual([]);
});

test("a newcomer's help and errors: everyday commands first, a bad value names its flag, no validator's wording, no PNG on a terminal", async () => {
  const sandbox = new Sandbox();
  try {
    const help = await sandbox.ok(["--help"]);
    const listed = [...help.matchAll(/^ {2}([a-z-]+) /gm)].map((match) => match[1]);
    expect(listed.slice(0, 6)).toEqual(["create", "list", "send", "text", "wait", "run"]);
    expect(listed.indexOf("daemon")).toBeGreaterThan(listed.indexOf("kill"));
    expect(help).not.toContain("Display this message");

    const id = await sandbox.ok(["create", "--", "bash", "--norc"]);
    const badInt = await sandbox.run(["create", "--cols", "abc"]);
    expect({ code: badInt.code, stderr: badInt.stderr.trim() }).toEqual({
      code: 2,
      stderr: 't4a: --cols: expected an integer, got "abc"',
    });
    const overCap = await sandbox.run(["run", id, "--max-lines", "9999999", "true"]);
    expect({ code: overCap.code, stderr: overCap.stderr.trim() }).toEqual({
      code: 1,
      stderr: "t4a: run: --max-lines: must be at most 100000, got 9999999",
    });
    expect(overCap.stderr).not.toMatch(/Invalid|Expected|received/);

    // stdout a terminal (script gives it one): refused before anything is drawn, with the fix.
    const onTty = Bun.spawnSync(["script", "-qec", `${BIN} screenshot ${id}`, "/dev/null"], {
      env: sandbox.env,
      stdout: "pipe",
      stderr: "pipe",
    });
    const shown = onTty.stdout.toString();
    expect(shown).toContain("stdout is a terminal");
    expect(shown).toContain("-o screen.png");
    expect(shown).not.toContain("\x89PNG");
    await sandbox.ok(["kill", id]);
  } finally {
    await sandbox.cleanup();
  }
});
