// The blind task suite of issue 59 for blind set 6 (test/fixtures/blind6): end-to-end tasks on its
// programs (none of their families in train nor in the earlier blind sets), written by an engineer
// who had not read the detector nor the acting code, before either ran on these programs. Each task is
// done by meaning only (`choose`/`fill` by the label the screen shows, as test/fixtures/blind6/README.md
// labels it; where a prompt is only a marker (swipl's `?-`, maxima's `(%i1)`, sdiff's `%`) the field
// holding the cursor read from the snapshot; no raw keys) and its outcome is checked from outside
// (a FAT image, restored files, a CMake cache, files a REPL writes, a fossil repository, phpunit.xml,
// a .deb, a PKI). Each task also has a raw-key reference run that proves its checker:
// `npx bun bench/tasks-blind6.ts --reference` must pass every task. The harness is bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind6.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind6");

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
const run = (cmd: string, args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) => {
  const child = spawnSync(cmd, args, {
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { status: child.status, out: `${child.stdout ?? ""}${child.stderr ?? ""}` };
};
/** A fixture set-up script of test/fixtures/blind6 (mk-*.sh), run into `dir`. */
const mk = (script: string, ...args: string[]) => execFileSync(join(HERE, script), args, { stdio: "ignore" });

/** Wait for a text (or a text shown `count` times), then act (by meaning) or send (reference). */
type Wait = string | { text: string; count: number };
type Pair = [wait: Wait | undefined, act: string[], keys: string, sleep?: number];
function task(
  name: string,
  needs: string[],
  command: string,
  pairs: Pair[],
  check: Task["check"],
  setup?: Task["setup"],
): Task {
  const steps: Step[] = [];
  const reference: Step[] = [];
  for (const [wait, act, keys, sleep] of pairs) {
    if (wait) {
      const step = typeof wait === "string" ? { wait } : { wait: wait.text, count: wait.count };
      steps.push(step);
      reference.push(step);
    }
    steps.push({ act });
    for (const part of keys.split("|")) reference.push({ sleep: sleep ?? 300 }, { send: part });
  }
  return { name, needs, command, steps, reference, check, setup };
}

// ---- mcopy onto a FAT image holding report.txt and notes.txt already (mk-fat.sh); one key, no Enter
const fat = (dir: string) => mk("mk-fat.sh", join(dir, "fat"));
const MC = "cd fat && mcopy -i disk.img report.txt notes.txt ::; echo done > $OUT";
const mtype = (dir: string, file: string) => run("mtype", ["-i", join(dir, "fat", "disk.img"), `::${file}`]).out.trim();
const mfiles = (dir: string) =>
  run("mdir", ["-b", "-i", join(dir, "fat", "disk.img"), "::"])
    .out.split("\n")
    .map((line) => line.trim().replace(/^::\//, ""))
    .filter(Boolean);
const REPORT = 'Long file name "report.txt" already exists';
const NOTES = 'Long file name "notes.txt" already exists';
const mcopy1 = task(
  "mcopy: overwrite report.txt on the image, skip notes.txt",
  ["mcopy"],
  MC,
  [
    [REPORT, ["choose", "o)verwrite"], "o"],
    [NOTES, ["choose", "s)kip"], "s"],
  ],
  (dir, o) =>
    read(o) === "done" && mtype(dir, "report.txt") === "new report" && mtype(dir, "notes.txt") === "old notes",
  fat,
);
const mcopy2 = task(
  "mcopy: overwrite every file (O)verwrite-all)",
  ["mcopy"],
  MC,
  [[REPORT, ["choose", "O)verwrite-all"], "O"]],
  (dir, o) =>
    read(o) === "done" && mtype(dir, "report.txt") === "new report" && mtype(dir, "notes.txt") === "new notes",
  fat,
);
const mcopy3 = task(
  "mcopy: keep the image's report.txt and copy the new one beside it (a)utorename), skip the rest",
  ["mcopy"],
  MC,
  [
    [REPORT, ["choose", "a)utorename"], "a"],
    [NOTES, ["choose", "S)kip-all"], "S"],
  ],
  (dir, o) => {
    if (read(o) !== "done" || mtype(dir, "report.txt") !== "old report" || mtype(dir, "notes.txt") !== "old notes")
      return false;
    const others = mfiles(dir).filter((f) => f !== "report.txt" && f !== "notes.txt");
    return others.length === 1 && mtype(dir, others[0]!) === "new report";
  },
  fat,
);
const mcopy4 = task(
  "mcopy: copy report.txt as report-v2.txt (r)ename), then quit",
  ["mcopy"],
  MC,
  [
    [REPORT, ["choose", "r)ename"], "r"],
    [
      "New primary name",
      ["fill", 'New primary name for "report.txt"', "report-v2.txt", "--submit"],
      "report-v2.txt\\r",
    ],
    [NOTES, ["choose", "q)uit"], "q"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    mtype(dir, "report-v2.txt") === "new report" &&
    mtype(dir, "report.txt") === "old report" &&
    mtype(dir, "notes.txt") === "old notes",
  fat,
);

// ---- trash-restore over four trashed files (mk-trash.sh); the list's order is trash-cli's
const TR = "cd trash/w && HOME=$D/trash/home trash-restore; echo done > $OUT";
const trash = (dir: string) => mk("mk-trash.sh", join(dir, "trash"));
const restored = (dir: string) =>
  readdirSync(join(dir, "trash", "w"))
    .sort()
    .join(" ");
const trash1 = task(
  "trash-restore: bring back the final report.txt (deleted 2026-12-04)",
  ["trash-restore"],
  TR,
  [["What file to restore", ["choose", "2026-12-04 08:30:55 $D/trash/w/report.txt"], "2\\r"]],
  (dir, o) =>
    read(o) === "done" && restored(dir) === "report.txt" && read(join(dir, "trash/w/report.txt")) === "report, final",
  trash,
);
const trash2 = task(
  "trash-restore: bring back notes.md",
  ["trash-restore"],
  TR,
  [["What file to restore", ["choose", "2026-12-02 11:47:03 $D/trash/w/notes.md"], "3\\r"]],
  (dir, o) =>
    read(o) === "done" && restored(dir) === "notes.md" && read(join(dir, "trash/w/notes.md")) === "meeting notes",
  trash,
);

// ---- ccmake on a small project (mk-cmake.sh): configure, set, configure, generate
const CC = "cd cm/build && ccmake ../src; echo done > $OUT";
const cmake = (dir: string) => mk("mk-cmake.sh", join(dir, "cm"));
const cache = (dir: string) => read(join(dir, "cm/build/CMakeCache.txt"));
const ccmake1 = task(
  "ccmake: CMAKE_BUILD_TYPE Release, configure, generate",
  ["ccmake"],
  CC,
  [
    ["EMPTY CACHE", ["choose", "Configure"], "c"],
    ["TIDEPOOL_WITH_TESTS", ["fill", "CMAKE_BUILD_TYPE", "Release", "--submit"], "\\r|Release|\\r"],
    [undefined, ["choose", "Configure"], "c", 800],
    ["Generate", ["choose", "Generate"], "g", 800],
  ],
  (dir, o) =>
    read(o) === "done" &&
    cache(dir).includes("CMAKE_BUILD_TYPE:STRING=Release") &&
    existsSync(join(dir, "cm/build/Makefile")),
  cmake,
);
const ccmake2 = task(
  "ccmake: TIDEPOOL_WITH_TESTS on, TIDEPOOL_STATIC off, configure, generate",
  ["ccmake"],
  CC,
  [
    ["EMPTY CACHE", ["choose", "Configure"], "c"],
    ["TIDEPOOL_WITH_TESTS", ["choose", "TIDEPOOL_WITH_TESTS"], "\\x0e\\x0e\\x0e\\x0e\\x0e|\\r"],
    [undefined, ["choose", "TIDEPOOL_STATIC"], "\\x10|\\r"],
    [undefined, ["choose", "Configure"], "c", 800],
    ["Generate", ["choose", "Generate"], "g", 800],
  ],
  (dir, o) =>
    read(o) === "done" &&
    cache(dir).includes("TIDEPOOL_WITH_TESTS:BOOL=ON") &&
    cache(dir).includes("TIDEPOOL_STATIC:BOOL=OFF") &&
    existsSync(join(dir, "cm/build/Makefile")),
  cmake,
);

// ---- swipl on tide.pl (mk-prolog.sh)
const PL = "cd pl && HOME=$D/pl swipl tide.pl; echo done > $OUT";
const prolog = (dir: string) => mk("mk-prolog.sh", join(dir, "pl"));
const swipl = task(
  "swipl: a misspelt save_dept(42), the correction taken (y), halt",
  ["swipl"],
  PL,
  [
    ["?-", ["fill", CURSOR_INPUT, "save_dept(42).", "--submit"], "save_dept(42).\\r"],
    ["Correct to", ["fill", 'Correct to: "save_depth(42)"?', "y", "--submit"], "y"],
    [{ text: "?-", count: 2 }, ["fill", CURSOR_INPUT, "halt.", "--submit"], "halt.\\r", 800],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "pl/depth.txt")) === "42",
  prolog,
);

// ---- maxima: its sign questions (a batch string that writes the result), and its REPL
const maximaBatch = (expr: string) =>
  `maxima --very-quiet --batch-string='r: ${expr}$ with_stdout("r.txt", print(string(r)))$'; echo done > $OUT`;
const result = (dir: string) => read(join(dir, "r.txt"));
const maxima1 = task(
  "maxima: integrate(exp(-k*t), t, 0, inf) with k positive",
  ["maxima"],
  maximaBatch("integrate(exp(-k*t), t, 0, inf)"),
  [["zero?", ["choose", "positive"], "positive;\\r"]],
  (dir, o) => read(o) === "done" && result(dir) === "1/k",
);
const maxima2 = (answer: "yes" | "no") =>
  task(
    `maxima: integrate(x^a, x), a ${answer === "yes" ? "is" : "is not"} -1`,
    ["maxima"],
    maximaBatch("integrate(x^a, x)"),
    [["equal to", ["fill", "Is a equal to - 1?", `${answer};`, "--submit"], `${answer};\\r`]],
    (dir, o) => read(o) === "done" && result(dir) === (answer === "yes" ? "log(x)" : "x^(a+1)/(a+1)"),
  );
const maxima3 = task(
  "maxima REPL: integrate(exp(-k*t), t, 0, inf), k positive, the result written to r.txt, quit",
  ["maxima"],
  "HOME=$D maxima; echo done > $OUT",
  [
    [
      "(%i1)",
      ["fill", CURSOR_INPUT, "integrate(exp(-k*t), t, 0, inf);", "--submit"],
      "integrate(exp(-k*t), t, 0, inf);\\r",
    ],
    ["zero?", ["choose", "positive"], "positive;\\r"],
    [
      "(%i2)",
      ["fill", CURSOR_INPUT, 'with_stdout("r.txt", print(string(%o1)));', "--submit"],
      'with_stdout("r.txt", print(string(%o1)));\\r',
    ],
    ["(%i3)", ["fill", CURSOR_INPUT, "quit();", "--submit"], "quit();\\r"],
  ],
  (dir, o) => read(o) === "done" && result(dir) === "1/k",
);

// ---- fossil commit's warnings (mk-fossil.sh): dos.txt (CR/LF) and logo.bin (binary) added, not committed
const FO = (message: string) => `cd fo/w && HOME=$D/fo USER=ada fossil commit -m '${message}'; echo done > $OUT`;
const fo = (dir: string) => mk("mk-fossil.sh", join(dir, "fo"));
const changes = (dir: string) =>
  run("fossil", ["changes"], { cwd: join(dir, "fo/w"), env: { HOME: join(dir, "fo"), USER: "ada" } }).out.trim();
const checkins = (dir: string) =>
  run("fossil", ["timeline", "-n", "0", "-t", "ci"], {
    cwd: join(dir, "fo/w"),
    env: { HOME: join(dir, "fo"), USER: "ada" },
  })
    .out.split("\n")
    .filter((line) => /^\d\d:\d\d:\d\d \[/.test(line)).length;
const dosText = (dir: string) => readFileSync(join(dir, "fo/w/dos.txt"), "utf8");
const fossil1 = task(
  "fossil commit: dos.txt's CR/LF converted (c), the binary refused (N): nothing committed yet",
  ["fossil"],
  FO("add the tables"),
  [
    ["Commit anyhow", ["choose", "convert"], "c\\r"],
    ["binary data", ["choose", "N"], "n\\r"],
  ],
  (dir, o) => read(o) === "done" && dosText(dir) === "depth 42\nwind 7\n" && checkins(dir) === 2,
  fo,
);
const fossil2 = task(
  "fossil commit: CR/LF kept (y), the binary file too (y): committed",
  ["fossil"],
  FO("add the tables"),
  [
    ["Commit anyhow", ["choose", "y"], "y\\r"],
    ["binary data", ["choose", "y"], "y\\r"],
  ],
  (dir, o) => read(o) === "done" && checkins(dir) === 3 && changes(dir) === "" && dosText(dir).includes("\r\n"),
  fo,
);
const fossil3 = task(
  "fossil commit: not anyhow (N): nothing committed",
  ["fossil"],
  FO("add the tables"),
  [["Commit anyhow", ["choose", "N"], "n\\r"]],
  (dir, o) => read(o) === "done" && checkins(dir) === 2 && changes(dir).includes("ADDED"),
  fo,
);
const fossil4 = task(
  "fossil commit with an empty comment: continue (y), every warning answered all (a): committed",
  ["fossil"],
  FO(""),
  [
    ["continue (y/N)?", ["choose", "y"], "y\\r"],
    ["Commit anyhow", ["choose", "all"], "a\\r"],
  ],
  (dir, o) => read(o) === "done" && checkins(dir) === 3 && changes(dir) === "",
  fo,
);

// ---- phpunit --generate-configuration in an empty directory
const phpunitXml = (dir: string) => read(join(dir, "phpunit.xml"));
const phpunit1 = task(
  "phpunit --generate-configuration: bootstrap tests/bootstrap.php, tests tests/unit, source lib, cache default",
  ["phpunit"],
  "phpunit --generate-configuration; echo done > $OUT",
  [
    [
      "Bootstrap script",
      [
        "fill",
        "Bootstrap script (relative to path shown above; default: vendor/autoload.php)",
        "tests/bootstrap.php",
        "--submit",
      ],
      "tests/bootstrap.php\\r",
    ],
    [
      "Tests directory",
      ["fill", "Tests directory (relative to path shown above; default: tests)", "tests/unit", "--submit"],
      "tests/unit\\r",
    ],
    [
      "Source directory",
      ["fill", "Source directory (relative to path shown above; default: src)", "lib", "--submit"],
      "lib\\r",
    ],
    [
      "Cache directory",
      ["fill", "Cache directory (relative to path shown above; default: .phpunit.cache)", "", "--submit"],
      "\\r",
    ],
  ],
  (dir, o) => {
    const xml = phpunitXml(dir);
    return (
      read(o) === "done" &&
      xml.includes('bootstrap="tests/bootstrap.php"') &&
      xml.includes("<directory>tests/unit</directory>") &&
      xml.includes('<directory suffix=".php">lib</directory>') &&
      xml.includes('cacheResultFile=".phpunit.cache/test-results"')
    );
  },
);
const phpunit2 = task(
  "phpunit --generate-configuration: every default but the cache, .cache/phpunit",
  ["phpunit"],
  "phpunit --generate-configuration; echo done > $OUT",
  [
    [
      "Bootstrap script",
      ["fill", "Bootstrap script (relative to path shown above; default: vendor/autoload.php)", "", "--submit"],
      "\\r",
    ],
    [
      "Tests directory",
      ["fill", "Tests directory (relative to path shown above; default: tests)", "", "--submit"],
      "\\r",
    ],
    [
      "Source directory",
      ["fill", "Source directory (relative to path shown above; default: src)", "", "--submit"],
      "\\r",
    ],
    [
      "Cache directory",
      ["fill", "Cache directory (relative to path shown above; default: .phpunit.cache)", ".cache/phpunit", "--submit"],
      ".cache/phpunit\\r",
    ],
  ],
  (dir, o) => {
    const xml = phpunitXml(dir);
    return (
      read(o) === "done" &&
      xml.includes('bootstrap="vendor/autoload.php"') &&
      xml.includes("<directory>tests</directory>") &&
      xml.includes('cacheResultFile=".cache/phpunit/test-results"')
    );
  },
);

// ---- checkinstall on a Makefile (mk-files.sh): builds a .deb, installs nothing
const CI = "cd ci/tidepool-0.3 && checkinstall --install=no --fstrans=yes; echo done > $OUT";
const files = (dir: string) => mk("mk-files.sh", dir);
const debs = (dir: string) =>
  readdirSync(join(dir, "ci/tidepool-0.3"))
    .filter((f) => f.endsWith(".deb"))
    .join(" ");
const VALUES = "Enter a number to change any of them or press ENTER to continue";
const checkinstall1 = task(
  "checkinstall: no default docs, a summary, version 0.3.1 from the numbered values, built",
  ["checkinstall"],
  CI,
  [
    ["package docs?", ["fill", "Should I create a default set of package docs?  [y]", "n", "--submit"], "n\\r"],
    [">>", ["fill", CURSOR_INPUT, "Tide tables for the coast", "--submit"], "Tide tables for the coast\\r"],
    [{ text: ">>", count: 2 }, ["fill", CURSOR_INPUT, "", "--submit"], "\\r"],
    ["Enter a number", ["choose", "Version"], "3\\r"],
    ["new version", ["fill", "Enter new version", "0.3.1", "--submit"], "0.3.1\\r"],
    [{ text: "Enter a number", count: 2 }, ["fill", VALUES, "", "--submit"], "\\r"],
  ],
  (dir, o) => read(o) === "done" && debs(dir) === "tidepool_0.3.1-1_amd64.deb",
  files,
);
const checkinstall2 = task(
  "checkinstall: default docs (y), a summary, the name tidewatch from the numbered values, built",
  ["checkinstall"],
  CI,
  [
    ["package docs?", ["fill", "Should I create a default set of package docs?  [y]", "y", "--submit"], "y\\r"],
    [">>", ["fill", CURSOR_INPUT, "Tide tables for the coast", "--submit"], "Tide tables for the coast\\r"],
    [{ text: ">>", count: 2 }, ["fill", CURSOR_INPUT, "", "--submit"], "\\r"],
    ["Enter a number", ["choose", "Name"], "2\\r"],
    ["new name", ["fill", "Enter new name", "tidewatch", "--submit"], "tidewatch\\r"],
    [{ text: "Enter a number", count: 2 }, ["fill", VALUES, "", "--submit"], "\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    debs(dir) === "tidewatch_0.3-1_amd64.deb" &&
    run("dpkg-deb", ["-f", join(dir, "ci/tidepool-0.3/tidewatch_0.3-1_amd64.deb"), "Package"]).out.trim() ===
      "tidewatch",
  files,
);

// ---- easyrsa's confirmations (mk-ca.sh)
// easyrsa is not on PATH (/usr/share/easy-rsa/easyrsa); make-cadir, of the same package, is.
const EASYRSA = ["make-cadir"];
const ca = (dir: string) => mk("mk-ca.sh", join(dir, "er"));
const pki = (dir: string, file: string) => join(dir, "er/ca/pki", file);
const ER = (args: string) => `cd er/ca && ./easyrsa ${args}; echo done > $OUT`;
const easyrsa1 = (answer: "yes" | "no") =>
  task(
    `easyrsa init-pki over the PKI: ${answer === "yes" ? "removed (yes)" : "kept (no)"}`,
    EASYRSA,
    ER("init-pki"),
    [["Confirm removal", ["fill", "Confirm removal", answer, "--submit"], `${answer}\\r`]],
    (dir, o) => read(o) === "done" && existsSync(pki(dir, "ca.crt")) === (answer === "no") && existsSync(pki(dir, "")),
    ca,
  );
const easyrsa2 = task(
  "easyrsa sign-req server web1: the request details confirmed (yes)",
  EASYRSA,
  ER("sign-req server web1"),
  [["Confirm request details", ["fill", "Confirm request details", "yes", "--submit"], "yes\\r"]],
  (dir, o) => read(o) === "done" && existsSync(pki(dir, "issued/web1.crt")),
  ca,
);
const easyrsa3 = task(
  "easyrsa revoke web1 (signed in batch): revocation confirmed (yes)",
  EASYRSA,
  "cd er/ca && EASYRSA_BATCH=1 ./easyrsa sign-req server web1 >/dev/null 2>&1 && ./easyrsa revoke web1; echo done > $OUT",
  [["Continue with revocation", ["fill", "Continue with revocation", "yes", "--submit"], "yes\\r"]],
  (dir, o) => read(o) === "done" && /^R\t/m.test(read(pki(dir, "index.txt"))),
  ca,
);

// ---- wipe (mk-files.sh): wp/old-key.pem and wp/token.txt
const wiped = (dir: string) => readdirSync(join(dir, "wp")).sort().join(" ");
const wipe1 = task(
  "wipe old-key.pem: Yes",
  ["wipe"],
  "cd wp && wipe old-key.pem; echo done > $OUT",
  [["(Yes/No)", ["choose", "Yes"], "yes\\r"]],
  (dir, o) => read(o) === "done" && wiped(dir) === "token.txt",
  files,
);
const wipe2 = task(
  "wipe old-key.pem token.txt: No, both kept",
  ["wipe"],
  "cd wp && wipe old-key.pem token.txt; echo done > $OUT",
  [["(Yes/No)", ["choose", "No"], "no\\r"]],
  (dir, o) =>
    read(o) === "done" && wiped(dir) === "old-key.pem token.txt" && read(join(dir, "wp/token.txt")) === "token 1234",
  files,
);

// ---- sdiff -o (mk-files.sh): sd/ours.conf and sd/theirs.conf differ in version and log
const sdiff = task(
  "sdiff -o: the right version line (0.2), the left log line (info)",
  ["sdiff"],
  "cd sd && sdiff -o merged.conf ours.conf theirs.conf; echo done > $OUT",
  [
    ["%", ["fill", CURSOR_INPUT, "r", "--submit"], "r\\r"],
    ["log = debug", ["fill", CURSOR_INPUT, "l", "--submit"], "l\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    read(join(dir, "sd/merged.conf")) === "name = tidepool\nversion = 0.2\nport = 8080\nlog = info\nmode = fast",
  files,
);

export const TASKS: Task[] = [
  mcopy1,
  mcopy2,
  mcopy3,
  mcopy4,
  trash1,
  trash2,
  ccmake1,
  ccmake2,
  swipl,
  maxima1,
  maxima2("yes"),
  maxima2("no"),
  maxima3,
  fossil1,
  fossil2,
  fossil3,
  fossil4,
  phpunit1,
  phpunit2,
  checkinstall1,
  checkinstall2,
  easyrsa1("yes"),
  easyrsa1("no"),
  easyrsa2,
  easyrsa3,
  wipe1,
  wipe2,
  sdiff,
];

/** The suite on bench/tasks-blind.ts's harness (no npm tools: every program is a Debian package). */
export function runBlind6Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: undefined });
}
export { runBlind6Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind6Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
