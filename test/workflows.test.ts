// The GitHub workflows cannot run here: what they call is checked instead. Every `npm run X` is a
// script in package.json, every file they run exists and is executable, the release publishes a
// tarball for each target `npm run pack` makes, and its rewrite of install.sh hits one line.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { TARGETS } from "../scripts/pack.ts";

const root = resolve(import.meta.dir, "..");
const workflow = (name: string) => readFileSync(join(root, ".github", "workflows", name), "utf8");

test("the workflows call npm scripts and files that exist", () => {
  for (const name of ["ci.yml", "release.yml"]) {
    const text = workflow(name);
    expect(Object.keys((Bun.YAML.parse(text) as { jobs: object }).jobs).length).toBe(1);
    for (const [, script] of text.matchAll(/npm run ([\w:-]+)/g))
      expect(Object.keys(pkg.scripts)).toContain(script ?? "");
    for (const [, file] of text.matchAll(/run: (\.ci\/\S+)/g))
      expect(statSync(join(root, file ?? "")).mode & 0o111).not.toBe(0);
  }
  expect(workflow("ci.yml")).toContain("run: .ci/run");
  expect(readFileSync(join(root, ".ci", "run"), "utf8")).toContain("npm test");
});

test("the release publishes every platform package before t4a, and points install.sh at its repository", () => {
  const text = workflow("release.yml");
  const loop = text
    .match(/for target in ([\w -]+); do/)?.[1]
    ?.trim()
    .split(/\s+/);
  expect(loop?.sort()).toEqual([...TARGETS].sort());
  expect(text.indexOf("dist/npm/t4a-${target}-${version}.tgz")).toBeLessThan(
    text.indexOf("dist/npm/t4a-${version}.tgz"),
  );
  expect(text).toContain("npm run release");
  expect(text).toContain("npm run pack");
  expect(text).toContain("secrets.NPM_TOKEN");
  expect(readFileSync(join(root, "install.sh"), "utf8").match(/^T4A_REPO=.*$/gm)).toHaveLength(1);
  expect(existsSync(join(root, "install.sh"))).toBe(true);
});
