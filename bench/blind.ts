// The blind sets of issue 59 (test/fixtures/blind, blind2, blind3, blind4, blind5, blind6, blind7, blind8, blind9): programs of families not in
// the detector's train set, labelled by hand before the detector ran on them, scored apart and never
// tuned on. `npm run bench elements` scores every one (bench/run.ts); this file alone scores one set
// and, for blind2 to blind9, runs its task suite (bench/tasks-blind.ts, tasks-blind3.ts,
// tasks-blind4.ts, tasks-blind5.ts, tasks-blind6.ts, tasks-blind7.ts, tasks-blind8.ts, tasks-blind9.ts):
//
//   npx bun bench/blind.ts blind2|blind3|blind4|blind5|blind6|blind7|blind8|blind9 [--no-tasks] [--write]
// Every screen counts, in name order; every miss is printed: a labelled element not found, a
// detected one no label took, a match whose state is wrong.
import { detectElements } from "../src/terminal/elements.ts";
import { cellGridOf } from "../src/terminal/screen.ts";
import { formatRates, scoreSet } from "../test/fixtures/screens/score.ts";

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
export async function scoreBlind(
  set: "blind" | "blind2" | "blind3" | "blind4" | "blind5" | "blind6" | "blind7" | "blind8" | "blind9",
  log: (line: string) => void,
): Promise<BlindRow[]> {
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

if (import.meta.main) {
  const arg = process.argv[2];
  const set =
    arg === "blind" ||
    arg === "blind3" ||
    arg === "blind4" ||
    arg === "blind5" ||
    arg === "blind6" ||
    arg === "blind7" ||
    arg === "blind8" ||
    arg === "blind9"
      ? arg
      : "blind2";
  const lines: string[] = [];
  const rows = await scoreBlind(set, (line) => {
    console.log(line);
    lines.push(line);
  });
  for (const row of rows)
    console.log(`${row.metric}: ${row.t4a.toFixed(1)}${row.unit}${row.target ? ` (goal ${row.target})` : ""}`);
  // `--write`: the one scoring kept as bench/results/SET.json (its rows and every line printed).
  if (process.argv.includes("--write")) {
    const { writeFileSync } = await import("node:fs");
    const { cpus, totalmem } = await import("node:os");
    const machine = `${cpus().length} × ${cpus()[0]?.model.split(" ").slice(0, 2).join(" ")}, ${Math.round(totalmem() / 2 ** 30)} GiB`;
    const results = {
      date: new Date().toISOString(),
      machine,
      rows: rows.map((r) => ({ section: "elements", ...r })),
      lines,
    };
    writeFileSync(new URL(`./results/${set}.json`, import.meta.url), `${JSON.stringify(results, null, 1)}\n`);
  }
  if (set !== "blind" && !process.argv.includes("--no-tasks")) {
    const { runBlindTasks, TASKS } = await import(
      set === "blind2"
        ? "./tasks-blind.ts"
        : set === "blind3"
          ? "./tasks-blind3.ts"
          : set === "blind4"
            ? "./tasks-blind4.ts"
            : set === "blind5"
              ? "./tasks-blind5.ts"
              : set === "blind6"
                ? "./tasks-blind6.ts"
                : set === "blind7"
                  ? "./tasks-blind7.ts"
                  : set === "blind8"
                    ? "./tasks-blind8.ts"
                    : "./tasks-blind9.ts"
    );
    const counts = await runBlindTasks((line: string) => console.log(`  task ${line}`));
    console.log(`${set} task suite (${TASKS.length} tasks): ${JSON.stringify(counts)}`);
  }
}
