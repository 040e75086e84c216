// The blind sets of issue 59 (BLIND_SETS of test/fixtures/screens/score.ts: test/fixtures/blind,
// blind2 …): programs of families not in the detector's train set, labelled by hand before the
// detector ran on them, scored apart and never tuned on. `npm run bench elements` scores every one
// (bench/run.ts); this file alone scores one set and runs its task suite (`tasksOf`):
//
//   npx bun bench/blind.ts SET [--no-tasks | --tasks-only] [--write]
//
// `--write` keeps the one scoring as bench/results/SET.json: the elements' rows and lines, and the task
// suite's lines under `tasks`. `--tasks-only` runs the task suite alone: a set whose elements were scored
// before keeps those figures, and `--write` adds its tasks beside them.
import { detectElements } from "../src/terminal/elements.ts";
import { cellGridOf } from "../src/terminal/screen.ts";
import type { Outcome, Task } from "./tasks-blind.ts";
import { existsSync } from "node:fs";
import { BLIND_SETS, type BlindSet, formatRates, isBlindSet, scoreSet } from "../test/fixtures/screens/score.ts";

export interface BlindRow {
  metric: string;
  t4a: number;
  unit: string;
  target?: string;
}

interface Shown {
  kind: string;
  row: number;
  col: number;
  width: number;
  label?: string;
  value?: string;
  selected?: boolean;
  checked?: boolean;
  cursor?: boolean;
  items?: Array<{ label: string; selected?: boolean; checked?: boolean }>;
}

const show = (e: Shown) =>
  `${e.kind} @${e.row},${e.col}+${e.width}${e.label !== undefined ? ` "${e.label}"` : ""}${e.value !== undefined ? ` value "${e.value}"` : ""}`;
const state = (e: Shown) =>
  JSON.stringify({
    selected: e.items ? e.items.filter((i) => i.selected).map((i) => i.label) : e.selected,
    checked: e.items?.some((i) => i.checked !== undefined)
      ? e.items.filter((i) => i.checked).map((i) => i.label)
      : e.checked,
    value: e.value,
    cursor: e.cursor,
  });

/** Scores one blind set; prints its rates, each screen's sums and every miss through `log`; returns the bench rows. */
export async function scoreBlind(set: BlindSet, log: (line: string) => void): Promise<BlindRow[]> {
  const title = `${set} 59`;
  const misses: string[] = [];
  const scored = await scoreSet(
    set,
    (fixture) => detectElements(cellGridOf(fixture.term)),
    (screen, miss) => {
      for (const e of miss.missed) misses.push(`    ${screen}: missed ${show(e)}`);
      for (const e of miss.extra) misses.push(`    ${screen}: false ${show(e)}`);
      for (const { labelled, detected } of miss.wrongState)
        misses.push(
          `    ${screen}: state of ${show(labelled)}: labelled ${state(labelled)}, detected ${state(detected)}`,
        );
    },
  );
  if (!scored.screens) return [];
  const name = `${title} (${scored.screens} screens)`;
  log(formatRates(name, scored.rates));
  for (const [screen, score] of Object.entries(scored.perScreen)) {
    const all = Object.entries(score).filter(([kind]) => kind !== "all");
    const sum = (field: "matched" | "detected" | "labelled") => all.reduce((n, [, k]) => n + k[field], 0);
    log(`  ${screen}: ${sum("matched")} matched, ${sum("detected")} detected, ${sum("labelled")} labelled`);
  }
  log(misses.length ? `  ${title}: every miss, in screen order:\n${misses.join("\n")}` : `  ${title}: no miss`);
  const rows: BlindRow[] = [];
  for (const r of scored.rates.filter((r) => r.kind === "all")) {
    rows.push({
      metric: `${name}: precision (${r.matched}/${r.detected})`,
      t4a: r.precision * 100,
      unit: "%",
      target: "≥ 90",
    });
    rows.push({
      metric: `${name}: recall (${r.matched}/${r.labelled})`,
      t4a: r.recall * 100,
      unit: "%",
      target: "≥ 85",
    });
    if (!Number.isNaN(r.state))
      rows.push({ metric: `${name}: state right`, t4a: r.state * 100, unit: "%", target: "≥ 95" });
  }
  return rows;
}

/**
 * The blind sets a loop over every set may score: a set not yet scored once stays out until its scoring
 * is called for (issue 59: blind15 waits for /work/notes/score-blind15-now; its one scoring is
 * `bench/blind.ts blind15`, which names it).
 */
export function scoredSets(): BlindSet[] {
  const waiting: Partial<Record<BlindSet, string>> = { blind15: "/work/notes/score-blind15-now" };
  return BLIND_SETS.filter((set) => {
    const marker = waiting[set];
    return marker === undefined || existsSync(marker);
  });
}

/** A task suite's module: its tasks, and a run of them by meaning that logs one line a task. */
interface TaskSuite {
  TASKS: Task[];
  runBlindTasks(log: (line: string) => void): Promise<Record<Outcome, number>>;
}

/**
 * A blind set's end-to-end task suite (bench/tasks-SET.ts; blind2's is bench/tasks-blind.ts, the
 * first written; the first set has none), written before the acting code ran on its programs.
 */
export async function tasksOf(set: BlindSet): Promise<TaskSuite | undefined> {
  if (set === "blind") return undefined;
  return import(set === "blind2" ? "./tasks-blind.ts" : `./tasks-${set}.ts`);
}

if (import.meta.main) {
  const arg = process.argv[2] ?? "";
  if (!isBlindSet(arg))
    throw new Error(`usage: bench/blind.ts SET [--no-tasks | --tasks-only] [--write]; SET a blind set, not ${arg}`);
  const set = arg;
  const write = process.argv.includes("--write");
  const tasksOnly = process.argv.includes("--tasks-only");
  const { readFileSync, writeFileSync } = await import("node:fs");
  const { spawnSync } = await import("node:child_process");
  const { cpus, totalmem } = await import("node:os");
  const file = new URL(`./results/${set}.json`, import.meta.url);
  const machine = `${cpus().length} × ${cpus()[0]?.model.split(" ").slice(0, 2).join(" ")}, ${Math.round(totalmem() / 2 ** 30)} GiB`;
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
    cwd: import.meta.dir,
    encoding: "utf8",
  }).stdout?.trim();
  if (!tasksOnly) {
    const lines: string[] = [];
    const rows = await scoreBlind(set, (line) => {
      console.log(line);
      lines.push(line);
    });
    for (const row of rows)
      console.log(`${row.metric}: ${row.t4a.toFixed(1)}${row.unit}${row.target ? ` (goal ${row.target})` : ""}`);
    if (write) {
      const results = {
        date: new Date().toISOString(),
        machine,
        commit,
        rows: rows.map((r) => ({ section: "elements", ...r })),
        lines,
      };
      writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
    }
  }
  const suite = process.argv.includes("--no-tasks") ? undefined : await tasksOf(set);
  if (suite) {
    const started = new Date().toISOString();
    const lines: string[] = [];
    const counts = await suite.runBlindTasks((line: string) => {
      console.log(`  task ${line}`);
      lines.push(line);
    });
    const summary = `${set} task suite (${suite.TASKS.length} tasks): ${JSON.stringify(counts)}`;
    console.log(summary);
    // The task lines join what is in the file: with --tasks-only, the elements scored before stay as they were.
    if (write) {
      const results = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : { machine };
      results.tasks = { date: started, machine, commit, lines, summary, counts };
      writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
    }
  }
}
