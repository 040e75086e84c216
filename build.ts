// Builds dist/t4a: one self-contained executable (daemon + CLI client + embedded font).
// Run with `bun build.ts` (npm run build). Generated assets go to dist/, never into src/.
import { mkdirSync } from "node:fs";
import pkg from "./package.json" with { type: "json" };
import { buildFontAsset } from "./src/render/font-build.ts";

mkdirSync("dist", { recursive: true });
buildFontAsset();

const outfile = process.env.T4A_OUTFILE ?? "dist/t4a";
const started = performance.now();
const build = Bun.spawnSync(
  [
    process.execPath,
    "build",
    "--compile",
    "--minify",
    "--bytecode",
    "--format=esm",
    // Chunks load on first import: the daemon's node builtins (fs, crypto) and xterm stay off the CLI path.
    "--splitting",
    `--define=T4A_VERSION=${JSON.stringify(pkg.version)}`,
    "src/main.ts",
    "--outfile",
    outfile,
  ],
  { stdout: "inherit", stderr: "inherit" },
);
if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);
console.log(`built ${outfile} in ${Math.round(performance.now() - started)} ms`);
