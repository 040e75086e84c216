// The CLI's --help as a new user reads it: no default that says the opposite of the flag, and
// every flag of every command documented in the README's CLI reference.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { commands } from "../src/commands/index.ts";
import { Sandbox } from "./harness.ts";

const readme = readFileSync(resolve(import.meta.dir, "../README.md"), "utf8");

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

test("item 7: the README's CLI reference names every flag of every command", () => {
  const missing: string[] = [];
  for (const command of commands) {
    for (const [flags] of command.cli?.options ?? []) {
      const long = /--[a-z][a-z-]*/.exec(flags)![0];
      const row = readme.split("\n").find((line) => line.startsWith(`| \`t4a ${command.cli!.usage.split(" ")[0]}`));
      if (!row?.includes(long)) missing.push(`${command.name} ${long}`);
    }
  }
  expect(missing).toEqual([]);
});
