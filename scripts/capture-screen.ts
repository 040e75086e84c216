// Captures one real screen as a fixture of docs/elements.md: runs a program under t4a (dist/t4a,
// recording its bytes from the first one), drives it with keys, then replays the recording into
// @xterm/headless and writes NAME.ans (viewport + cursor + modes) and a NAME.json skeleton whose
// elements are left for a person to label. It checks the replay against what t4a's `text` shows.
//
//   npx bun scripts/capture-screen.ts NAME [--set train|holdout|SET (a blind set: BLIND_SETS of score.ts)] [--cols 80] [--rows 24]
//     [--program "dialog 1.3 --menu"] [-c CREATE-ARG]... [steps...] [-- COMMAND...]
//   steps, run in order: --wait TEXT (appears on screen), --send KEYS (C escapes, as t4a send),
//     --key "Down Down Enter" (named keys, encoded in the program's modes), --idle MS (no output
//     for that long), --sleep MS
//   The session's command is COMMAND (a shell line when one word with spaces); -c passes
//   arguments to `t4a create` (e.g. -c --agent -c claude). T4A_SOCKET etc. come from the env.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SerializeAddon } from "@xterm/addon-serialize";
import {
  BLIND_SETS,
  blindDir,
  fixtureTerminal,
  isBlindSet,
  SCREENS_DIR,
  screenText,
  writeAll,
} from "../test/fixtures/screens/score.ts";

const BIN = resolve(import.meta.dir, "../dist/t4a");

function t4a(args: string[], allowFail = false): string {
  const child = Bun.spawnSync([BIN, ...args], { stdout: "pipe", stderr: "pipe" });
  if (child.exitCode !== 0 && !allowFail)
    throw new Error(`t4a ${args.join(" ")}: exit ${child.exitCode}: ${child.stderr.toString()}`);
  return child.stdout.toString();
}

type Step = { wait: string } | { send: string } | { keys: string[] } | { idle: number } | { sleep: number };

const argv = process.argv.slice(2);
const name = argv.shift();
if (!name || name.startsWith("-")) throw new Error("usage: capture-screen.ts NAME [options] [steps] [-- COMMAND...]");
let set = "train";
let cols = 80;
let rows = 24;
let program = "";
const createArgs: string[] = [];
const steps: Step[] = [];
let command: string[] = [];
while (argv.length) {
  const arg = argv.shift()!;
  const next = () => {
    const value = argv.shift();
    if (value === undefined) throw new Error(`${arg} needs a value`);
    return value;
  };
  if (arg === "--") {
    command = argv.splice(0);
  } else if (arg === "--set") set = next();
  else if (arg === "--cols") cols = Number(next());
  else if (arg === "--rows") rows = Number(next());
  else if (arg === "--program") program = next();
  else if (arg === "-c") createArgs.push(next());
  else if (arg === "--wait") steps.push({ wait: next() });
  else if (arg === "--send") steps.push({ send: next() });
  else if (arg === "--key") steps.push({ keys: next().split(/\s+/) });
  else if (arg === "--idle") steps.push({ idle: Number(next()) });
  else if (arg === "--sleep") steps.push({ sleep: Number(next()) });
  else throw new Error(`unknown option ${arg}`);
}
if (set !== "train" && set !== "holdout" && !isBlindSet(set))
  throw new Error(`--set is train, holdout or a blind set (${BLIND_SETS.join(", ")}), not ${set}`);
// A blind set (issue 59) lives apart from the screens the detector is tuned on, each in its own folder.
const outDir = isBlindSet(set) ? blindDir(set) : SCREENS_DIR;

const work = mkdtempSync(join(tmpdir(), "capture-"));
const cast = join(work, "screen.cast");
const id = `cap-${name}-${process.pid}`;
const shellLine = command.length === 1 && command[0]!.includes(" ");
const runArgs = shellLine ? ["bash", "-c", command[0]!] : command;
t4a([
  "create",
  "--name",
  id,
  "--cols",
  String(cols),
  "--rows",
  String(rows),
  "--record",
  cast,
  ...createArgs,
  ...(runArgs.length ? ["--", ...runArgs] : []),
]);
try {
  for (const step of steps) {
    if ("wait" in step) {
      // On the screen, not only in new output: the text may have come before this step.
      const deadline = Date.now() + Number(process.env.CAPTURE_WAIT_MS ?? 180_000);
      while (!t4a(["text", id]).includes(step.wait)) {
        if (Date.now() > deadline) throw new Error(`"${step.wait}" never showed; the screen:\n${t4a(["text", id])}`);
        await Bun.sleep(200);
      }
    } else if ("send" in step) t4a(["send", id, step.send]);
    else if ("keys" in step) t4a(["send", id, "", ...step.keys.flatMap((key) => ["-k", key])]);
    else if ("idle" in step) t4a(["wait", id, "--idle", `${step.idle}ms`, "--timeout", "60s"], true);
    else await Bun.sleep(step.sleep);
  }
  t4a(["wait", id, "--idle", "700ms", "--timeout", "30s"], true);
  const shown = t4a(["text", id]);
  const [cursorRow, cursorCol] = t4a(["cursor", id]).trim().split(/\s+/).map(Number) as [number, number];
  // The recording is written out when it stops.
  t4a(["record", id, "--stop"]);

  // Replay every output byte the recording holds (asciicast v2: header, then [t, code, data]).
  const term = fixtureTerminal(cols, rows);
  const serializer = new SerializeAddon();
  term.loadAddon(serializer as unknown as Parameters<typeof term.loadAddon>[0]);
  for (const line of readFileSync(cast, "utf8").split("\n").slice(1)) {
    if (!line.trim()) continue;
    const [, code, data] = JSON.parse(line) as [number, string, string];
    if (code === "o") await writeAll(term, data);
    else if (code === "r") {
      const [c, r] = data.split("x").map(Number) as [number, number];
      term.resize(c, r);
    }
  }
  const buffer = term.buffer.active;
  const core = (
    term as unknown as {
      _core: { coreMouseService: { activeEncoding: string }; coreService: { isCursorHidden: boolean } };
    }
  )._core;
  // The alternate screen is serialized after the normal one, behind CSI ?1049h CSI H: keep only it.
  let body = serializer.serialize({ scrollback: 0, excludeModes: true });
  const alt = "\x1b[?1049h\x1b[H";
  if (buffer.type === "alternate" && body.includes(alt)) body = body.slice(body.lastIndexOf(alt) + alt.length);
  const mouse = term.modes.mouseTrackingMode;
  const encoding = { SGR: "sgr", URXVT: "urxvt" }[core.coreMouseService.activeEncoding] ?? "default";
  const modes =
    ({ none: "", x10: "\x1b[?9h", vt200: "\x1b[?1000h", drag: "\x1b[?1002h", any: "\x1b[?1003h" }[mouse] ?? "") +
    ({ sgr: "\x1b[?1006h", urxvt: "\x1b[?1015h", default: "" }[encoding] ?? "");
  const ans = `\x1b[0m${body}\x1b[0m\x1b[${buffer.cursorY + 1};${buffer.cursorX + 1}H${modes}${core.coreService.isCursorHidden ? "\x1b[?25l" : ""}`;

  // The .ans alone must give back the screen t4a showed, and the cursor t4a reported.
  const check = fixtureTerminal(cols, rows);
  await writeAll(check, ans);
  const replayed = screenText(check.buffer.active, rows);
  const trim = (text: string[]) =>
    text
      .map((row) => row.trimEnd())
      .join("\n")
      .trimEnd();
  const t4aRows = shown.replace(/\n$/, "").split("\n");
  if (trim(replayed) !== trim(t4aRows)) {
    console.error(`replay differs from t4a text:\n--- t4a\n${trim(t4aRows)}\n--- replay\n${trim(replayed)}`);
    process.exitCode = 1;
  }
  if (check.buffer.active.cursorY !== cursorRow || check.buffer.active.cursorX !== cursorCol) {
    console.error(
      `cursor: t4a ${cursorRow} ${cursorCol}, replay ${check.buffer.active.cursorY} ${check.buffer.active.cursorX}`,
    );
    process.exitCode = 1;
  }
  writeFileSync(join(outDir, `${name}.ans`), ans);
  const jsonPath = join(outDir, `${name}.json`);
  // A capture taken again keeps the labels already written.
  const elements = existsSync(jsonPath) ? JSON.parse(readFileSync(jsonPath, "utf8")).elements : [];
  const meta = {
    program: program || runArgs[0] || createArgs.join(" "),
    command: [...createArgs, ...(shellLine ? command : runArgs)].join(" "),
    cols,
    rows,
    cursor: [cursorRow, cursorCol],
    mouse,
    encoding,
    set,
    elements,
  };
  writeFileSync(jsonPath, `${JSON.stringify(meta, null, 2)}\n`);
  console.log(replayed.map((row, i) => `${String(i).padStart(2)}|${row}`).join("\n"));
  console.log(
    `cursor ${cursorRow} ${cursorCol}${core.coreService.isCursorHidden ? " (hidden)" : ""}, mouse ${mouse}/${encoding}, ${ans.length} bytes -> ${name}.ans`,
  );
} finally {
  t4a(["kill", id], true);
  rmSync(work, { recursive: true, force: true });
}
