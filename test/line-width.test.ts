// No line of src/ is over 120 characters, Biome's line width: Biome wraps code, but not a long
// message, regex or comment, which is what made the detectors hard to read (issue 58). A file
// that cannot do without one gets an allowance below, which may only shrink: more fails, and so
// does fewer (lower the number then, or remove the file once it has none).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const MAX_CHARACTERS = 120;
const root = resolve(import.meta.dir, "..");

/** Lines over the width, by path under src/: none left. */
const ALLOWED: Record<string, number> = {};

/** Every line of src/*.ts over the width, as `path:line: (characters)`, by path under src/. */
function longLines(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const path of new Bun.Glob("**/*.ts").scanSync({ cwd: resolve(root, "src") })) {
    const lines = readFileSync(resolve(root, "src", path), "utf8").split("\n");
    lines.forEach((line, i) => {
      const characters = [...line].length;
      if (characters <= MAX_CHARACTERS) return;
      found.set(path, [...(found.get(path) ?? []), `src/${path}:${i + 1}: (${characters})`]);
    });
  }
  return found;
}

test(`no line of src/ is over ${MAX_CHARACTERS} characters, but the allowed ones, whose allowance only shrinks`, () => {
  const found = longLines();
  const over = [...found].filter(([path, lines]) => lines.length > (ALLOWED[path] ?? 0)).flatMap(([, lines]) => lines);
  expect(over, "split the message, name the regex's parts, put the comment above the line").toEqual([]);
  const shrunk = Object.entries(ALLOWED)
    .filter(([path, allowed]) => (found.get(path)?.length ?? 0) < allowed)
    .map(([path, allowed]) => `${path}: ${found.get(path)?.length ?? 0}, allowed ${allowed}`);
  expect(shrunk, "fewer long lines than allowed: lower ALLOWED in test/line-width.test.ts").toEqual([]);
});
