// `npm run pack`: the npm packages, from dist/release into dist/npm/*.tgz, all of package.json's version.
// `t4a` holds the launcher (npm/t4a/bin/t4a.js) and the client library (scripts/lib.ts), and
// lists one package per platform, @t4a/<target> with os/cpu/libc, as optional dependencies: npm installs the one that fits, and
// nothing is downloaded by an install script. A binary whose SHA-256 is not SHA256SUMS's is refused.
// `--target NAME` (repeatable) packs only those platform packages; `t4a` still lists all six.
// `--release DIR` and `--out DIR` replace dist/release and dist/npm (the tests' fake releases).
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { buildLibrary, LIBRARY_FIELDS } from "./lib.ts";

const root = resolve(import.meta.dir, "..");
const args = process.argv.slice(2);
const option = (name: string) => args.flatMap((arg, i) => (args[i - 1] === name ? [arg] : []));
const release = resolve(option("--release")[0] ?? join(root, "dist", "release"));
const out = resolve(option("--out")[0] ?? join(root, "dist", "npm"));
export const TARGETS = ["linux-x64", "linux-arm64", "linux-x64-musl", "linux-arm64-musl", "darwin-x64", "darwin-arm64"];

/** Runs `npm pack` in `dir`, the tarball into dist/npm; answers its file name. */
function npmPack(dir: string): string {
  const packed = Bun.spawnSync(["npm", "pack", "--json", "--pack-destination", out], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (packed.exitCode !== 0) throw new Error(`npm pack in ${dir}: ${packed.stderr.toString().trim()}`);
  return JSON.parse(packed.stdout.toString())[0].filename;
}

function platformPackage(target: string, sums: Map<string, string>): string {
  const file = join(release, `t4a-${target}`);
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run release first`);
  const sum = createHash("sha256").update(readFileSync(file)).digest("hex");
  if (sums.get(`t4a-${target}`) !== sum)
    throw new Error(`t4a-${target}: its SHA-256 is not the one in ${join(release, "SHA256SUMS")}`);
  const [os, cpu, libc] = target.split("-");
  const dir = join(out, target);
  mkdirSync(join(dir, "bin"), { recursive: true });
  copyFileSync(file, join(dir, "bin", "t4a"));
  chmodSync(join(dir, "bin", "t4a"), 0o755);
  const manifest = {
    name: `@t4a/${target}`,
    version: pkg.version,
    description: `t4a for ${target}: the executable the t4a package runs on this platform`,
    os: [os],
    cpu: [cpu],
    ...(os === "linux" ? { libc: [libc ?? "glibc"] } : {}),
    files: ["bin/t4a"],
    preferUnplugged: true,
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(dir, "README.md"),
    `# @t4a/${target}\n\nThe t4a executable for ${target}. Install \`t4a\`, not this package: npm picks this one on ${target}.\n`,
  );
  return npmPack(dir);
}

async function mainPackage(): Promise<string> {
  const dir = join(out, "t4a");
  await buildLibrary(dir);
  mkdirSync(join(dir, "bin"), { recursive: true });
  copyFileSync(join(root, "npm", "t4a", "bin", "t4a.js"), join(dir, "bin", "t4a.js"));
  chmodSync(join(dir, "bin", "t4a.js"), 0o755);
  const manifest = {
    name: "t4a",
    version: pkg.version,
    description: pkg.description,
    bin: { t4a: "bin/t4a.js" },
    engines: { node: ">=18" },
    ...LIBRARY_FIELDS,
    files: ["bin/t4a.js", ...LIBRARY_FIELDS.files],
    optionalDependencies: Object.fromEntries(TARGETS.map((target) => [`@t4a/${target}`, pkg.version])),
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(join(root, "npm", "t4a", "README.md"), join(dir, "README.md"));
  return npmPack(dir);
}

async function main(): Promise<void> {
  const wanted = option("--target");
  const unknown = wanted.filter((target) => !TARGETS.includes(target));
  if (unknown.length) {
    console.error(`unknown target ${unknown.join(", ")}; known: ${TARGETS.join(", ")}`);
    process.exit(2);
  }
  const sumsFile = join(release, "SHA256SUMS");
  if (!existsSync(sumsFile)) {
    console.error(`${sumsFile} is missing: run npm run release first`);
    process.exit(1);
  }
  const sums = new Map(
    readFileSync(sumsFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => [line.split("  ")[1] ?? "", line.split("  ")[0] ?? ""]),
  );
  // What an earlier run left (only that: --out may name a directory holding other things).
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) {
    if ((name.startsWith("t4a-") && name.endsWith(".tgz")) || name === "t4a" || TARGETS.includes(name))
      rmSync(join(out, name), { recursive: true, force: true });
  }
  const started = performance.now();
  try {
    for (const target of wanted.length ? wanted : TARGETS)
      console.log(`packed dist/npm/${platformPackage(target, sums)}`);
    console.log(`packed dist/npm/${await mainPackage()}`);
  } catch (error) {
    console.error(`pack: ${(error as Error).message}`);
    process.exit(1);
  }
  console.log(`pack: ${pkg.version} in ${Math.round(performance.now() - started)} ms`);
}

if (import.meta.main) await main();
