// tsc is the first reviewer of issue 56's rule: session-env-types.ts holds each misuse of the
// session's environment under a @ts-expect-error. Here each directive is taken out and tsc must
// then fail on exactly the line below it (a directive on a line that compiles would also fail
// `npm test`'s tsc as unused). The copy lives in a temp dir, its imports pointed back at src/.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "../..");
const tsc = join(root, "node_modules", ".bin", "tsc");

test("every misuse of the session's environment in session-env-types.ts fails tsc once its @ts-expect-error is gone; the guarded uses compile", () => {
  const source = readFileSync(join(import.meta.dir, "session-env-types.ts"), "utf8");
  const lines = source.split("\n");
  const expected: number[] = [];
  const stripped = lines.map((line, index) => {
    if (!line.trim().startsWith("// @ts-expect-error")) return line;
    expected.push(index + 2); // the 1-based number of the line below
    return "";
  });
  expect(expected.length).toBeGreaterThanOrEqual(10);
  const dir = mkdtempSync(join(tmpdir(), "t4a-types-"));
  try {
    writeFileSync(join(dir, "misuses.ts"), stripped.join("\n").replaceAll('from "../../', `from "${root}/`));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: join(root, "tsconfig.json"),
        compilerOptions: { typeRoots: [join(root, "node_modules", "@types")] },
        include: [join(dir, "misuses.ts"), join(root, "src", "assets.d.ts")],
      }),
    );
    const run = Bun.spawnSync([tsc, "--noEmit", "-p", join(dir, "tsconfig.json")], { cwd: dir, stdout: "pipe" });
    const output = run.stdout.toString();
    const failing = [...output.matchAll(/misuses\.ts\((\d+),\d+\): error/g)].map((match) => Number(match[1]));
    // Only errors of the copy: src/ itself compiles.
    expect(output.split("\n").filter((line) => /error TS/.test(line) && !line.includes("misuses.ts"))).toEqual([]);
    expect([...new Set(failing)].sort((x, y) => x - y)).toEqual(expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
