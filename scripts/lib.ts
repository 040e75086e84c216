// The client library as the `t4a` package ships it (scripts/pack.ts calls this): src/lib/ bundled
// for Node into lib/index.mjs, and its types into types/: tsc's declarations of src/lib/index.ts
// and of only the files they import, as .d.mts. src/lib/wire.ts makes tsc print every command's
// params and reply as plain object types, so the types need neither valibot nor the rest of src/.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");

/** The package.json fields that offer the library: ESM only (its .mjs and .d.mts say so to Node and tsc). */
export const LIBRARY_FIELDS = {
  exports: {
    ".": { types: "./types/lib/index.d.mts", default: "./lib/index.mjs" },
    "./package.json": "./package.json",
  },
  types: "./types/lib/index.d.mts",
  files: ["lib", "types"],
};

/** Writes lib/index.mjs and types/lib/index.d.mts (and what it imports) into the package `dir`. */
export async function buildLibrary(dir: string): Promise<void> {
  const built = await Bun.build({ entrypoints: [join(root, "src", "lib", "index.ts")], target: "node", format: "esm" });
  if (!built.success) throw new Error(`library bundle: ${built.logs.join("\n")}`);
  mkdirSync(join(dir, "lib"), { recursive: true });
  writeFileSync(join(dir, "lib", "index.mjs"), await built.outputs[0]!.text());

  const out = mkdtempSync(join(tmpdir(), "t4a-lib-types-"));
  try {
    const tsc = Bun.spawnSync(
      [join(root, "node_modules", ".bin", "tsc"), "-p", join(root, "scripts", "lib.tsconfig.json"), "--outDir", out],
      { stdout: "pipe", stderr: "pipe" },
    );
    if (tsc.exitCode !== 0)
      throw new Error(`library types: tsc exited ${tsc.exitCode}: ${tsc.stdout.toString()}${tsc.stderr.toString()}`);
    // From the entry, each declaration file and those it imports, their specifiers made .mjs.
    const wanted = [join(out, "lib", "index.d.ts")];
    const done = new Set<string>();
    for (let file = wanted.pop(); file; file = wanted.pop()) {
      if (done.has(file)) continue;
      done.add(file);
      const text = readFileSync(file, "utf8").replace(
        /(from\s+["'])(\.{1,2}\/[^"']+)\.ts(["'])/g,
        (_, from: string, path: string, quote: string) => {
          wanted.push(resolve(dirname(file!), `${path}.d.ts`));
          return `${from}${path}.mjs${quote}`;
        },
      );
      if (/from\s+["'](?!\.)/.test(text))
        throw new Error(
          `library types: ${relative(out, file)} imports a package: ${text.match(/from\s+["'](?!\.)[^"']+/)![0]}`,
        );
      const target = join(dir, "types", relative(out, file).replace(/\.d\.ts$/, ".d.mts"));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const dir = resolve(process.argv[2] ?? join(root, "dist", "lib"));
  await buildLibrary(dir);
  console.log(`built the client library into ${dir}`);
}
