// Builds dist/t4a: one self-contained executable (daemon + CLI client + embedded font).
// Run with `bun build.ts` (npm run build). Generated assets go to dist/, never into src/.
// `bun build.ts --release` (npm run release) builds the same executable for every server t4a
// targets into dist/release/, with SHA256SUMS and a README; `--target NAME` builds one of them.
// `--out DIR` puts them in DIR instead (a test's own directory: tests run in parallel).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import pkg from "./package.json" with { type: "json" };
import { buildFontAsset } from "./src/render/font-build.ts";

/** Release targets: t4a's name for each, and Bun's. */
const TARGETS: Record<string, string> = {
  "linux-x64": "bun-linux-x64",
  "linux-arm64": "bun-linux-arm64",
  "linux-x64-musl": "bun-linux-x64-musl",
  "linux-arm64-musl": "bun-linux-arm64-musl",
  "darwin-x64": "bun-darwin-x64",
  "darwin-arm64": "bun-darwin-arm64",
};

/** How every executable is compiled: t4a, and the bench's floor programs it is measured against. */
export const COMPILE_FLAGS = [
  "--compile",
  "--minify",
  "--bytecode",
  "--format=esm",
  // A compiled Bun program reads bunfig.toml and .env from the directory it runs in: a
  // repository's bunfig.toml could preload code into every t4a call made there, its .env set
  // T4A_HOST or T4A_SOCKET (test/security/cwd.test.ts).
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-dotenv",
];

const commit =
  Bun.spawnSync(["git", "rev-parse", "--short=12", "HEAD"], { stderr: "ignore" }).stdout.toString().trim() || "unknown";
const built = new Date().toISOString();

/** Compiles src/main.ts for `target` (undefined: this machine) to `outfile`; answers bun's error output on failure. */
function compile(outfile: string, target: string | undefined): string | undefined {
  const name = target ?? `${process.platform}-${process.arch}`;
  const build = Bun.spawnSync(
    [
      process.execPath,
      "build",
      ...COMPILE_FLAGS,
      // Chunks load on first import: the daemon's node builtins (fs, crypto) and xterm stay off the CLI path.
      "--splitting",
      ...(target ? [`--target=${TARGETS[target]}`] : []),
      `--define=T4A_VERSION=${JSON.stringify(pkg.version)}`,
      `--define=T4A_BUILD=${JSON.stringify(JSON.stringify({ commit, built, target: name, bun: Bun.version }))}`,
      "src/main.ts",
      // The screen pool's worker threads start from this entry (screen-pool.ts).
      "src/terminal/screen-worker.ts",
      // opencode's database is read on a worker thread from this entry (opencode-log.ts).
      "src/session/opencode-worker.ts",
      "--outfile",
      outfile,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (build.exitCode === 0) return undefined;
  return (
    `${build.stderr.toString().trim() || build.stdout.toString().trim()}`.split("\n").slice(-3).join(" / ") ||
    `exit ${build.exitCode}`
  );
}

function main(): void {
  mkdirSync("dist", { recursive: true });
  buildFontAsset();
  const args = process.argv.slice(2);
  const started = performance.now();

  if (args[0] === "--release" || args[0] === "--target") {
    const wanted = args[0] === "--release" ? Object.keys(TARGETS) : [args[1] ?? ""];
    const unknown = wanted.filter((target) => !TARGETS[target]);
    if (unknown.length) {
      console.error(`unknown target ${unknown.join(", ")}; known: ${Object.keys(TARGETS).join(", ")}`);
      process.exit(2);
    }
    const outAt = args.indexOf("--out");
    const dir = outAt > 0 && args[outAt + 1] ? args[outAt + 1]! : "dist/release";
    mkdirSync(dir, { recursive: true });
    const failed: string[] = [];
    const sums: string[] = [];
    for (const target of wanted) {
      const file = `t4a-${target}`;
      const error = compile(`${dir}/${file}`, target);
      if (error) {
        // Offline with no cached runtime, say: named, and the others still built.
        failed.push(target);
        console.error(`${target}: not built: ${error}`);
        continue;
      }
      sums.push(
        `${createHash("sha256")
          .update(readFileSync(`${dir}/${file}`))
          .digest("hex")}  ${file}`,
      );
      console.log(`built ${dir}/${file}`);
    }
    if (args[0] === "--target") {
      // One target built (remote install on demand): its line in the list replaced, the others kept.
      const listed = existsSync(`${dir}/SHA256SUMS`)
        ? readFileSync(`${dir}/SHA256SUMS`, "utf8").split("\n").filter(Boolean)
        : [];
      const names = new Set(sums.map((line) => line.split("  ")[1]));
      writeFileSync(
        `${dir}/SHA256SUMS`,
        `${[...listed.filter((line) => !names.has(line.split("  ")[1])), ...sums].join("\n")}\n`,
      );
    }
    if (args[0] === "--release") {
      writeFileSync(`${dir}/SHA256SUMS`, `${sums.join("\n")}\n`);
      writeFileSync(
        `${dir}/README`,
        [
          `t4a ${pkg.version} (commit ${commit}, built ${built} with bun ${Bun.version})`,
          "",
          "One self-contained executable per platform; copy the one for your server, rename it t4a, and run it:",
          ...Object.keys(TARGETS).map(
            (target) => `  t4a-${target}${target.endsWith("musl") ? "   (Alpine and other musl systems)" : ""}`,
          ),
          "",
          "`t4a remote install HOST` copies the right one over ssh and checks it against SHA256SUMS.",
          "Check a download: sha256sum -c SHA256SUMS (macOS: shasum -a 256 -c SHA256SUMS).",
          "",
        ].join("\n"),
      );
    }
    console.log(
      `release: ${wanted.length - failed.length} of ${wanted.length} built in ${Math.round(performance.now() - started)} ms${failed.length ? `; not built: ${failed.join(", ")}` : ""}`,
    );
    process.exit(failed.length ? 1 : 0);
  }

  const outfile = process.env.T4A_OUTFILE ?? "dist/t4a";
  const error = compile(outfile, undefined);
  if (error) {
    console.error(error);
    process.exit(1);
  }
  console.log(`built ${outfile} in ${Math.round(performance.now() - started)} ms`);
}

if (import.meta.main) main();
