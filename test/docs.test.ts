// Docs that run: every ```sh runnable block in README.md and docs/*.md is run by bash -e, with
// `t4a` on PATH as the compiled binary, against a daemon of its own in a private directory.
// A changed flag or reply breaks this test, not the reader. Blocks that need what a test cannot
// have (an API key, another machine) are plain ```sh and are not run; a block whose first line is
// `# needs: PROGRAM…` is skipped, saying so, where one of them is not installed (.ci/run installs them).
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { BIN, Sandbox } from "./harness.ts";

const ROOT = resolve(import.meta.dir, "..");

export interface RunnableBlock {
  file: string;
  line: number;
  script: string;
}

/** The ```sh runnable blocks of one markdown text, with the line of each one's fence (1-based). */
export function runnableBlocks(file: string, markdown: string): RunnableBlock[] {
  const blocks: RunnableBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash) +runnable\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end]!.startsWith("```")) end++;
    blocks.push({ file, line: start, script: lines.slice(start, end).join("\n") });
    i = end;
  }
  return blocks;
}

function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join(ROOT, "docs", name));
  return [join(ROOT, "README.md"), ...docs];
}

const blocks = markdownFiles().flatMap((file) => runnableBlocks(relative(ROOT, file), readFileSync(file, "utf8")));

test("the docs hold runnable blocks (README's tour and recipes, docs/recipes.md)", () => {
  const files = new Set(blocks.map((block) => block.file));
  expect(files.has("README.md")).toBe(true);
  expect(files.has("docs/recipes.md")).toBe(true);
  expect(blocks.length).toBeGreaterThanOrEqual(8);
});

test("runnableBlocks finds a block, its line, and skips plain sh blocks", () => {
  const found = runnableBlocks("x.md", "a\n```sh\nnot me\n```\n```sh runnable\necho one\necho two\n```\n");
  expect(found).toEqual([{ file: "x.md", line: 5, script: "echo one\necho two" }]);
});

/** The programs a block names on a first line `# needs: dialog jq` that are not on PATH. */
function missing(block: RunnableBlock): string[] {
  const needs = /^# needs: (.+)$/m.exec(block.script.split("\n")[0] ?? "")?.[1] ?? "";
  return needs.split(/\s+/).filter((program) => program && Bun.which(program) === null);
}

for (const block of blocks) {
  const absent = missing(block);
  if (absent.length > 0) console.warn(`${block.file}:${block.line}: skipped, not installed: ${absent.join(" ")}`);
  test.skipIf(absent.length > 0)(`${block.file}:${block.line} runs as printed`, async () => {
    const sandbox = new Sandbox();
    try {
      const bin = join(sandbox.dir, "bin");
      const work = join(sandbox.dir, "work");
      const home = join(sandbox.dir, "home");
      for (const dir of [bin, work, home]) mkdirSync(dir, { recursive: true });
      symlinkSync(BIN, join(bin, "t4a"));
      const child = Bun.spawn(["bash", "-e", "-c", block.script], {
        cwd: work,
        env: {
          ...sandbox.env,
          PATH: `${bin}:${process.env.PATH}`,
          HOME: home,
          XDG_CONFIG_HOME: join(home, ".config"),
          XDG_STATE_HOME: join(home, ".local/state"),
        },
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), 50_000);
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      clearTimeout(timer);
      if (code !== 0)
        throw new Error(`${block.file}:${block.line} exited ${code}\n--- stdout\n${stdout}--- stderr\n${stderr}`);
      expect(code).toBe(0);
    } finally {
      await sandbox.cleanup();
    }
  });
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

test("anchorOf makes GitHub's anchors", () => {
  expect(anchorOf("Shell loops: `t4a batch`")).toBe("shell-loops-t4a-batch");
  expect(anchorOf("A session's environment")).toBe("a-sessions-environment");
  expect(anchorOf("connector.json")).toBe("connectorjson");
  expect(anchorOf("For orchestrators: ask, approve, exec, input wanted")).toBe(
    "for-orchestrators-ask-approve-exec-input-wanted",
  );
});

test("every link between README.md and docs/ reaches a file, and a heading where it names one", () => {
  const broken: string[] = [];
  const anchors = (file: string) =>
    new Set(
      readFileSync(file, "utf8")
        .replace(/^```[\s\S]*?^```/gm, "")
        .split("\n")
        .filter((line) => /^#{1,6} /.test(line))
        .map((line) => anchorOf(line.replace(/^#+ /, ""))),
    );
  for (const file of markdownFiles()) {
    const text = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue; // https:, mailto:
      const [path, anchor] = target!.split("#");
      const into = path ? resolve(dirname(file), path) : file;
      if (!existsSync(into)) broken.push(`${relative(ROOT, file)}: ${target} (no such file)`);
      else if (anchor && into.endsWith(".md") && !anchors(into).has(anchor))
        broken.push(`${relative(ROOT, file)}: ${target} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});

test("docs/web-and-phone.md names every button the page has (it once said the page had no Restart)", () => {
  const page = resolve(ROOT, "src/web/page");
  const labels = new Set<string>();
  for (const name of readdirSync(page)) {
    const source = readFileSync(join(page, name), "utf8");
    for (const [, label] of source.matchAll(/element\("button", "[^"]*", "([^"]+)"\)/g)) labels.add(label!);
    for (const [, label] of source.matchAll(/\["[a-z]+", "([A-Z][a-z]+)", answers/g)) labels.add(label!);
    for (const [, label] of source.matchAll(/<button id="[a-z-]+"[^>]*>([A-Z][A-Za-z ]+)<\/button>/g))
      labels.add(label!);
  }
  expect(labels.size).toBeGreaterThanOrEqual(12);
  const doc = readFileSync(resolve(ROOT, "docs/web-and-phone.md"), "utf8").replace(/\s+/g, " ");
  expect([...labels].filter((label) => !doc.includes(label))).toEqual([]);
});

test("edge 10: the fleet has a heading, and the CLI reference's list and hosts link to it", () => {
  const fleet = readFileSync(resolve(ROOT, "docs/fleet-and-remotes.md"), "utf8");
  expect(fleet).toContain("\n## A fleet\n");
  const reference = readFileSync(resolve(ROOT, "docs/cli.md"), "utf8");
  for (const name of ["list", "hosts"]) {
    const section = reference.split(`\n### t4a ${name}\n`)[1]?.split("\n### ")[0] ?? "";
    expect(`${name}: ${section.includes("](fleet-and-remotes.md#a-fleet)")}`).toBe(`${name}: true`);
  }
});
