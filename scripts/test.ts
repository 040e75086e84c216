// `npm test`'s test run, in two phases: every test file that can share the machine runs in parallel
// (bun test --parallel, worker processes, slowest first from test/timings.json), then the files
// whose header says `// Serial phase: <why>` run one at a time, alone. Runs nothing but bun test.
// The parallel phase runs in two lanes at once, half the workers each: the files that start the real
// agent CLIs (they use AGENTS_BIN), and the rest. Slowest first alone put four agent CLIs on two
// cores at once for the phase's first minutes, and their turns timed out (CI, session 11).
//
//   bun scripts/test.ts [--workers N] [--update-timings] [--phase parallel|serial] [PATH-PART…]
//
// --workers N (or T4A_TEST_WORKERS): parallel workers (default 4: measured on a 2-core machine, see
// docs/development.md#tests). --update-timings: writes each file's measured duration back to test/timings.json
// (npm run test:timings). --phase: that phase only. PATH-PART: only files whose path contains one of them.
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
const TIMINGS = "test/timings.json";
/** 2, 3 and 4 were measured on the 2-core CI machine (docs/development.md#tests): 4 is the fastest. The CPU is
 * the bound (busy 99 % through the first half at 4), so more would only starve the real agent CLIs. */
const DEFAULT_WORKERS = 4;
const SERIAL = /^\/\/ Serial phase: /m;
/** A file that starts the real agent CLIs names their bin directory, or runs test/real-agents.ts's tests. */
const AGENT_CLIS = /\bAGENTS_BIN\b|\/real-agents\.ts"/;

const args = process.argv.slice(2);
let workers = Number(process.env.T4A_TEST_WORKERS || DEFAULT_WORKERS);
let updateTimings = false;
let only: string | undefined;
const filters: string[] = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  if (arg === "--workers") workers = Number(args[++i]);
  else if (arg.startsWith("--workers=")) workers = Number(arg.slice("--workers=".length));
  else if (arg === "--update-timings") updateTimings = true;
  else if (arg === "--phase" || arg.startsWith("--phase=")) only = arg === "--phase" ? args[++i] : arg.slice(8);
  else if (arg.startsWith("-")) {
    console.error(`unknown option ${arg}; known: --workers N, --update-timings, --phase parallel|serial`);
    process.exit(2);
  } else filters.push(arg);
}
if (!Number.isInteger(workers) || workers < 1) {
  console.error(`--workers wants a whole number of at least 1, got ${workers}`);
  process.exit(2);
}

// The files bun test would find: *.test.ts outside node_modules (test/agents holds only those).
const files = [...new Bun.Glob("**/*.test.ts").scanSync({ cwd: root })]
  .filter((file) => !file.split("/").includes("node_modules") && !file.startsWith("dist/"))
  .filter((file) => filters.length === 0 || filters.some((part) => file.includes(part)))
  .sort();
const text = (file: string) => readFileSync(join(root, file), "utf8");
const serial = files.filter((file) => SERIAL.test(text(file).slice(0, 4000)));
const parallel = files.filter((file) => !serial.includes(file));
const agentLane = workers >= 2 ? parallel.filter((file) => AGENT_CLIS.test(text(file))) : [];
const otherLane = parallel.filter((file) => !agentLane.includes(file));

const timings = ["--timings", TIMINGS, ...(updateTimings ? ["--update-timings"] : [])];
type Lane = { files: string[]; argv: string[] };
const agentWorkers = Math.max(1, Math.floor(workers / 2));
const phases: Array<{ name: string; lanes: Lane[] }> = [
  {
    name:
      `parallel phase: ${parallel.length} files, ${workers} workers` +
      (agentLane.length ? ` (${agentLane.length} files starting agent CLIs in a lane of ${agentWorkers})` : ""),
    lanes: [
      { files: otherLane, argv: [`--parallel=${workers - (agentLane.length ? agentWorkers : 0)}`, ...timings] },
      { files: agentLane, argv: [`--parallel=${agentWorkers}`, ...timings] },
    ],
  },
  {
    name: `serial phase: ${serial.length} files, one at a time (each says why in its header)`,
    lanes: [{ files: serial, argv: timings }],
  },
];

// The tests' environment is the suite's: run from a git hook or `git rebase --exec`, GIT_DIR,
// GIT_INDEX_FILE… would send every git a test runs to the caller's repository (test/preload.ts
// strips them again, for a bare `bun test`). Only an identity comes along.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !name.startsWith("GIT_") || /^GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL)$/.test(name),
  ),
);

env.T4A_TEST_RUN = randomBytes(4).toString("hex");

let failed = false;
const took: string[] = [];
for (const phase of phases) {
  const lanes = phase.lanes.filter((lane) => lane.files.length > 0);
  if (lanes.length === 0 || (only !== undefined && !phase.name.startsWith(only))) continue;
  console.error(`\n=== ${phase.name}\n`);
  const started = performance.now();
  // The first lane prints as it runs; the others into a file each, printed whole after, so no
  // failure's text is cut by another lane's lines (.ci/run reprints each failure from its text).
  // --update-timings runs the lanes one after another: each rewrites the one timings file.
  const outputs: string[] = [];
  const runs = lanes.map((lane, i) => async () => {
    let out: number | "inherit" = "inherit";
    if (i > 0) {
      outputs[i] = join(tmpdir(), `t4a-test-lane-${env.T4A_TEST_RUN}-${i}.log`);
      out = openSync(outputs[i], "w");
    }
    const run = Bun.spawn(
      [process.execPath, "test", "--timeout", "60000", ...lane.argv, ...lane.files.map((file) => `./${file}`)],
      { cwd: root, env, stdio: ["inherit", out, out] },
    );
    const code = await run.exited;
    if (typeof out === "number") closeSync(out);
    return code;
  });
  const codes: number[] = [];
  if (updateTimings) for (const run of runs) codes.push(await run());
  else codes.push(...(await Promise.all(runs.map((run) => run()))));
  for (const output of outputs.filter(Boolean)) {
    process.stderr.write(readFileSync(output));
    rmSync(output, { force: true });
  }
  const code = codes.find((c) => c !== 0) ?? 0;
  if (code !== 0) failed = true;
  took.push(`${phase.name.split(":")[0]} ${((performance.now() - started) / 60_000).toFixed(1)} min (exit ${code})`);
}
// The homes test/preload.ts made for this run's workers (a worker the runner ends leaves its own).
for (const home of new Bun.Glob(`t4a-test-home-${env.T4A_TEST_RUN}-*`).scanSync({ cwd: tmpdir(), onlyFiles: false }))
  rmSync(join(tmpdir(), home), { recursive: true, force: true });
console.error(`\n=== ${took.join("; ")}`);
process.exit(failed ? 1 : 0);
