// The layer order of src/ (DESIGN.md "Wave 3"): a folder imports only itself and the folders below
// it, so no import circle can span two folders; and no two files import each other in a circle.
// Reads every import in src/, type-only ones too.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dir, "..", "src");

/** Top to bottom; folders on one line are peers and may not import each other. */
export const LAYERS: string[][] = [
  // lib: the package's client library (`import { connect } from "t4a"`), entered only by the
  // package build; it uses the client and the command table's types, and nothing uses it.
  ["main.ts", "lib"],
  ["cli"],
  ["mcp", "web"],
  ["daemon"],
  ["commands"],
  ["session"],
  ["spawn", "stream", "service", "render", "remote"],
  ["terminal"],
  ["client"],
  ["protocol"],
];

const rank = new Map(LAYERS.flatMap((peers, i) => peers.map((folder) => [folder, i] as const)));

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) yield path;
  }
}

const folderOf = (path: string) => relative(root, path).split("/")[0]!;

/** Every relative import of a file (static, dynamic and type-only), as absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm)) {
    found.push(resolve(dirname(file), match[1]!));
  }
  return found;
}

test("every folder of src/ imports only folders below it in the layer order", () => {
  const files = [...sourceFiles(root)];
  const unknown = [...new Set(files.map(folderOf))].filter((folder) => !rank.has(folder));
  expect(unknown).toEqual([]);
  const upward: string[] = [];
  for (const file of files) {
    const from = folderOf(file);
    for (const target of importsOf(file)) {
      if (!target.startsWith(root)) continue;
      const to = folderOf(target);
      if (to === from) continue;
      if (rank.get(to)! <= rank.get(from)!) upward.push(`${relative(root, file)} -> ${relative(root, target)}`);
    }
  }
  expect(upward).toEqual([]);
});

test("no import circle between any two files of src/ (tests aside)", () => {
  const files = [...sourceFiles(root)].filter((file) => !file.endsWith(".test.ts"));
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => known.has(target))]));
  const circles: string[] = [];
  const path: string[] = [];
  const onPath = new Set<string>();
  const done = new Set<string>();
  const visit = (file: string) => {
    path.push(file);
    onPath.add(file);
    for (const target of graph.get(file)!) {
      if (onPath.has(target))
        circles.push(
          path
            .slice(path.indexOf(target))
            .map((p) => relative(root, p))
            .join(" -> "),
        );
      else if (!done.has(target)) visit(target);
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
  };
  for (const file of files) if (!done.has(file)) visit(file);
  expect(circles).toEqual([]);
});

test("the checker sees an upward import (it can fail)", () => {
  const from = rank.get("terminal")!;
  const to = rank.get("commands")!;
  expect(to <= from).toBe(true);
  expect(importsOf(join(root, "main.ts")).some((path) => folderOf(path) === "cli")).toBe(true);
});
