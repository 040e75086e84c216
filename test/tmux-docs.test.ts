// docs/tmux.md's compatibility table is the front end's own (src/cli/tmux/compat.ts renders it
// from the tables the code runs on): the page and the code cannot disagree. With
// T4A_TEST_WRITE_DOCS=1 the test writes the table into the page instead.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { compatibilityMarkdown } from "../src/cli/tmux/compat.ts";
import { COMMANDS, parseCommand } from "../src/cli/tmux/grammar.ts";

const PAGE = resolve(import.meta.dir, "../docs/tmux.md");
const START = "<!-- compat:start -->\n";
const END = "<!-- compat:end -->";

test("docs/tmux.md's compatibility table is the one the code makes", () => {
  const page = readFileSync(PAGE, "utf8");
  const from = page.indexOf(START) + START.length;
  const to = page.indexOf(END);
  expect(from).toBeGreaterThan(START.length - 1);
  const table = compatibilityMarkdown();
  if (process.env.T4A_TEST_WRITE_DOCS === "1") writeFileSync(PAGE, page.slice(0, from) + table + page.slice(to));
  else expect(page.slice(from, to)).toBe(table);
});

test("each flag the table calls refused is refused, each accepted one is read", () => {
  for (const command of COMMANDS) {
    for (const letter of command.template.replace(/:/g, "")) {
      const takes = command.template[command.template.indexOf(letter) + 1] === ":";
      const words = [command.name, takes ? `-${letter}x` : `-${letter}`, ...Array(command.args[0]).fill("a")];
      const read = () => parseCommand(words);
      if (command.refused?.includes(letter)) expect(read).toThrow("t4a does not implement");
      else expect(read().flags.has(letter)).toBe(true);
    }
    expect(() => parseCommand([command.name, "-%"])).toThrow(`command ${command.name}: unknown flag -%`);
  }
});
