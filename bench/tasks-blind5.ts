// The blind task suite of issue 59 for blind set 5 (test/fixtures/blind5): end-to-end tasks on its
// programs (none of their families in train nor in the earlier blind sets), written by an engineer
// who had not read the detector nor the acting code, before either ran on these programs. Each task is
// done by meaning only (`choose`/`fill` by the label the screen shows; where a prompt is only a marker
// (`jshell>`, R's `>`, `cpan[1]>`, reportbug's bare `>`) or its words wrap over rows, the field holding
// the cursor read from the snapshot; no raw keys) and its outcome is checked from outside (files, a
// crontab, a config file, a workspace image). Each task also has a raw-key reference run that proves
// its checker: `npx bun bench/tasks-blind5.ts --reference` must pass every task. The harness is
// bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind5.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind5");

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
/** A fixture set-up script of test/fixtures/blind5 (mk-*.sh), run into `dir`. */
const mk = (script: string, ...args: string[]) => execFileSync(join(HERE, script), args, { stdio: "ignore" });
const gunzip = (file: string) => run("gzip", ["-dc", file]).out.trim();

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
const files = (dir: string) => mk("mk-files.sh", dir);

// ---- gzip over an existing .gz (mk-files.sh)
const gzip1 = task(
  "gzip: notes.txt.gz exists, overwrite it (y)",
  ["gzip"],
  "gzip notes.txt; echo done > $OUT",
  [["overwrite", ["choose", "y"], "y\\r"]],
  (dir, o) =>
    read(o) === "done" && gunzip(join(dir, "notes.txt.gz")) === "new notes" && !existsSync(join(dir, "notes.txt")),
  files,
);
const gzip2 = task(
  "gzip of two: keep notes.txt.gz (n), overwrite todo.txt.gz (y)",
  ["gzip"],
  "gzip notes.txt todo.txt; echo done > $OUT",
  [
    ["notes.txt.gz already exists", ["choose", "n"], "n\\r"],
    ["todo.txt.gz already exists", ["choose", "y"], "y\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    gunzip(join(dir, "notes.txt.gz")) === "old notes" &&
    read(join(dir, "notes.txt")) === "new notes" &&
    gunzip(join(dir, "todo.txt.gz")) === "new todo" &&
    !existsSync(join(dir, "todo.txt")),
  files,
);

// ---- 7z x over existing files (mk-files.sh): arc.7z has alpha/beta, the tree "ALPHA local"/"BETA local"
const SZ = "7z x arc.7z; echo done > $OUT";
const src = (dir: string, file: string) => read(join(dir, "src", file));
const sz1 = task(
  "7z x: replace src/a.txt (Yes), keep src/b.txt (No)",
  ["7z"],
  SZ,
  [
    ["(Q)uit?", ["choose", "(Y)es"], "y\\r"],
    [{ text: "(Q)uit?", count: 2 }, ["choose", "(N)o"], "n\\r"],
  ],
  (dir, o) => read(o) === "done" && src(dir, "a.txt") === "alpha" && src(dir, "b.txt") === "BETA local",
  files,
);
const sz2 = task(
  "7z x: replace every file (Always)",
  ["7z"],
  SZ,
  [["(Q)uit?", ["choose", "(A)lways"], "a\\r"]],
  (dir, o) => read(o) === "done" && src(dir, "a.txt") === "alpha" && src(dir, "b.txt") === "beta",
  files,
);
const sz3 = task(
  "7z x: keep the local files, the archive's beside them (Auto rename all)",
  ["7z"],
  SZ,
  [["(Q)uit?", ["choose", "A(u)to rename all"], "u\\r"]],
  (dir, o) => {
    if (read(o) !== "done" || src(dir, "a.txt") !== "ALPHA local" || src(dir, "b.txt") !== "BETA local") return false;
    const texts = readdirSync(join(dir, "src")).map((f) => src(dir, f));
    return texts.includes("alpha") && texts.includes("beta");
  },
  files,
);

// ---- crontab for the user b5cron (mk-cron.sh; crontab -u needs root)
const cronList = () => run("crontab", ["-u", "b5cron", "-l"]);
const cronSetup = (dir: string) => mk("mk-cron.sh", join(dir, "cron"));
const cron1 = task(
  "crontab -ri: delete b5cron's crontab (y)",
  ["crontab"],
  "crontab -u b5cron -ri; echo done > $OUT",
  [["really delete", ["choose", "y"], "y\\r"]],
  (_dir, o) => read(o) === "done" && cronList().status !== 0,
  cronSetup,
);
const cron2 = task(
  "crontab -ri: keep b5cron's crontab (n)",
  ["crontab"],
  "crontab -u b5cron -ri; echo done > $OUT",
  [["really delete", ["choose", "n"], "n\\r"]],
  (_dir, o) => read(o) === "done" && cronList().out.includes("/usr/local/bin/backup --quiet"),
  cronSetup,
);
const cron3 = task(
  "crontab -e: an edit with a bad line, retried (y) and installed",
  ["crontab"],
  "EDITOR=$D/cron/editor.sh crontab -u b5cron -e; echo done > $OUT",
  [["retry the same edit", ["choose", "y"], "y\\r"]],
  (_dir, o) => {
    const list = cronList().out;
    return read(o) === "done" && list.includes("15 4 * * mon /usr/local/bin/report") && !list.includes("not a cron");
  },
  cronSetup,
);
const cron4 = task(
  "crontab -e: an edit with a bad line, not retried (n): the old crontab stays",
  ["crontab"],
  "EDITOR=$D/cron/editor.sh crontab -u b5cron -e; echo done > $OUT",
  [["retry the same edit", ["choose", "n"], "n\\r"]],
  (_dir, o) => {
    const list = cronList().out;
    return read(o) === "done" && list.includes("/usr/local/bin/backup") && !list.includes("/usr/local/bin/report");
  },
  cronSetup,
);

// ---- find -ok and xargs -p (mk-files.sh): scratch/{a,b,c}.tmp and keep.txt
const scratch = (dir: string) => readdirSync(join(dir, "scratch")).sort().join(" ");
const find1 = task(
  "find -ok rm: remove a.tmp and b.tmp, keep c.tmp",
  ["find"],
  "cd scratch && find . -name '*.tmp' -ok rm {} \\;; echo done > $OUT",
  [
    ["./a.tmp > ?", ["fill", "< rm ... ./a.tmp > ?", "y", "--submit"], "y\\r"],
    ["./c.tmp > ?", ["fill", "< rm ... ./c.tmp > ?", "n", "--submit"], "n\\r"],
    ["./b.tmp > ?", ["fill", "< rm ... ./b.tmp > ?", "y", "--submit"], "y\\r"],
  ],
  (dir, o) => read(o) === "done" && scratch(dir) === "c.tmp keep.txt",
  files,
);
const xargs1 = task(
  "xargs -p rm: run it (y)",
  ["xargs"],
  "cd scratch && ls *.tmp | xargs -p rm; echo done > $OUT",
  [["?...", ["fill", "rm a.tmp b.tmp c.tmp?...", "y", "--submit"], "y\\r"]],
  (dir, o) => read(o) === "done" && scratch(dir) === "keep.txt",
  files,
);

// ---- sphinx-quickstart in an empty directory
const sphinx1 = task(
  "sphinx-quickstart: separate source and build, Tidepool by Ada Lovelace, release 0.1, English",
  ["sphinx-quickstart"],
  "sphinx-quickstart; echo done > $OUT",
  [
    ["Separate source", ["choose", "y"], "y\\r"],
    ["Project name", ["fill", "Project name", "Tidepool", "--submit"], "Tidepool\\r"],
    ["Author name", ["fill", "Author name(s)", "Ada Lovelace", "--submit"], "Ada Lovelace\\r"],
    ["Project release", ["fill", "Project release []", "0.1", "--submit"], "0.1\\r"],
    ["Project language", ["fill", "Project language [en]", "en", "--submit"], "en\\r"],
  ],
  (dir, o) => {
    const conf = read(join(dir, "source", "conf.py"));
    return (
      read(o) === "done" &&
      conf.includes("project = 'Tidepool'") &&
      conf.includes("author = 'Ada Lovelace'") &&
      conf.includes("release = '0.1'") &&
      existsSync(join(dir, "build"))
    );
  },
);
const sphinx2 = task(
  "sphinx-quickstart: one directory, Gezeiten by Grace Hopper, release 1.0, German",
  ["sphinx-quickstart"],
  "sphinx-quickstart; echo done > $OUT",
  [
    ["Separate source", ["choose", "n"], "n\\r"],
    ["Project name", ["fill", "Project name", "Gezeiten", "--submit"], "Gezeiten\\r"],
    ["Author name", ["fill", "Author name(s)", "Grace Hopper", "--submit"], "Grace Hopper\\r"],
    ["Project release", ["fill", "Project release []", "1.0", "--submit"], "1.0\\r"],
    ["Project language", ["fill", "Project language [en]", "de", "--submit"], "de\\r"],
  ],
  (dir, o) => {
    const conf = read(join(dir, "conf.py"));
    return (
      read(o) === "done" &&
      conf.includes("project = 'Gezeiten'") &&
      conf.includes("language = 'de'") &&
      !existsSync(join(dir, "source"))
    );
  },
);

// ---- flit init on a module (mk-src.sh)
const flit = task(
  "flit init: tidepool by Ada Lovelace, home page, Apache license",
  ["flit"],
  "cd src/flit && HOME=$D flit init; echo done > $OUT",
  [
    ["Module name", ["fill", "Module name [tidepool]", "tidepool", "--submit"], "tidepool\\r"],
    ["Author:", ["fill", "Author", "Ada Lovelace", "--submit"], "Ada Lovelace\\r"],
    ["Author email", ["fill", "Author email", "ada@tidepool.org", "--submit"], "ada@tidepool.org\\r"],
    ["Home page", ["fill", "Home page", "https://tidepool.org", "--submit"], "https://tidepool.org\\r"],
    ["Enter 1-4", ["choose", "Apache"], "2\\r"],
  ],
  (dir, o) => {
    const toml = read(join(dir, "src", "flit", "pyproject.toml"));
    return (
      read(o) === "done" &&
      toml.includes('name = "Ada Lovelace"') &&
      toml.includes("ada@tidepool.org") &&
      /Apache/.test(toml) &&
      toml.includes("https://tidepool.org")
    );
  },
  (dir) => mk("mk-src.sh", join(dir, "src")),
);

// ---- reportbug --configure with a HOME of its own
const reportbug = task(
  "reportbug --configure: standard mode, offline, Ada Lovelace, no MTA, an SMTP host with a user and TLS, a proxy",
  ["reportbug"],
  "HOME=$D reportbug --configure; echo done > $OUT",
  [
    ["Select mode", ["choose", "standard"], "2\\r"],
    ["Internet access", ["choose", "n"], "n\\r"],
    [
      "real name",
      ["fill", "What real name should be used for sending bug reports? [root]", "Ada Lovelace", "--submit"],
      "Ada Lovelace\\r",
    ],
    // Its question wraps over four rows above the `[root@localhost]>` answer row: the field holding the cursor.
    ["email addresses", ["fill", CURSOR_INPUT, "ada@tidepool.org", "--submit"], "ada@tidepool.org\\r"],
    ["transport agent", ["choose", "N"], "n\\r"],
    // A bare `>` under an explanation: the field holding the cursor.
    ["SMTP host", ["fill", CURSOR_INPUT, "smtp.tidepool.org", "--submit"], "smtp.tidepool.org\\r"],
    ["user name", ["fill", CURSOR_INPUT, "ada", "--submit"], "ada\\r"],
    ["with TLS", ["choose", "y"], "y\\r"],
    [
      "proxy server",
      ["fill", CURSOR_INPUT, "http://proxy.tidepool.org:3128/", "--submit"],
      "http://proxy.tidepool.org:3128/\\r",
    ],
  ],
  (dir, o) => {
    const rc = read(join(dir, ".reportbugrc"));
    return (
      read(o) === "done" &&
      /^mode standard$/m.test(rc) &&
      rc.includes('realname "Ada Lovelace"') &&
      rc.includes('email "ada@tidepool.org"') &&
      /^offline$/m.test(rc) &&
      rc.includes('smtphost "smtp.tidepool.org"') &&
      rc.includes('smtpuser "ada"') &&
      /^smtptls$/m.test(rc) &&
      rc.includes("http://proxy.tidepool.org:3128/")
    );
  },
);

// ---- dh_make on a source tree (mk-src.sh)
const DM =
  "cd src/deb/tidepool-0.1 && DEBFULLNAME='Ada Lovelace' DEBEMAIL=ada@tidepool.org dh_make --createorig; echo done > $OUT";
const control = (dir: string) => read(join(dir, "src", "deb", "tidepool-0.1", "debian", "control"));
const dhmake1 = task(
  "dh_make: an arch-independent package (indep), the details confirmed",
  ["dh_make"],
  DM,
  [
    ["[s/i/l/p]?", ["choose", "indep"], "i"],
    ["correct?", ["choose", "Y"], "y"],
  ],
  (dir, o) => read(o) === "done" && /^Architecture: all$/m.test(control(dir)) && control(dir).includes("Ada Lovelace"),
  (dir) => mk("mk-src.sh", join(dir, "src")),
);
const dhmake2 = task(
  "dh_make: single, the details refused (n), asked again: indep, confirmed",
  ["dh_make"],
  DM,
  [
    ["[s/i/l/p]?", ["choose", "single"], "s"],
    ["correct?", ["choose", "n"], "n"],
    [{ text: "[s/i/l/p]?", count: 2 }, ["choose", "indep"], "i"],
    [{ text: "correct?", count: 2 }, ["choose", "Y"], "y"],
  ],
  (dir, o) => read(o) === "done" && /^Architecture: all$/m.test(control(dir)),
  (dir) => mk("mk-src.sh", join(dir, "src")),
);

// ---- cpan's first run with a HOME of its own
const cpan = task(
  "cpan: configured automatically, then a build cache of 50 MB committed in its shell",
  ["cpan"],
  "HOME=$D cpan; echo done > $OUT",
  [
    [
      "automatically?",
      ["fill", "Would you like to configure as much as possible automatically? [yes]", "yes", "--submit"],
      "yes\\r",
    ],
    ["cpan[1]>", ["fill", CURSOR_INPUT, "o conf build_cache 50", "--submit"], "o conf build_cache 50\\r"],
    ["cpan[2]>", ["fill", CURSOR_INPUT, "o conf commit", "--submit"], "o conf commit\\r"],
    ["cpan[3]>", ["fill", CURSOR_INPUT, "quit", "--submit"], "quit\\r"],
  ],
  (dir, o) => read(o) === "done" && /'build_cache' => q\[50\]/.test(read(join(dir, ".cpan", "CPAN", "MyConfig.pm"))),
);

// ---- ansible-playbook --step with vars_prompt (mk-ansible.sh)
const AN = "cd an && ANSIBLE_CONFIG=$D/an/ansible.cfg ansible-playbook release.yml --step; echo done > $OUT";
const anOut = (dir: string, file: string) => join(dir, "an", "out", file);
const ansibleAnswers = (version: string, channel: string): Pair[] => [
  ["Release version", ["fill", "Release version [1.0.0]", version, "--submit"], `${version}\\r`],
  ["Channel", ["fill", "Channel (stable or beta) [stable]", channel, "--submit"], `${channel}\\r`],
  ["Signing token", ["fill", "Signing token", "s3cret", "--submit"], "s3cret\\r"],
  ["confirm Signing", ["fill", "confirm Signing token", "s3cret", "--submit"], "s3cret\\r"],
];
const ansible1 = task(
  "ansible-playbook --step: release 2.1.0 on beta, every task performed",
  ["ansible-playbook"],
  AN,
  [
    ...ansibleAnswers("2.1.0", "beta"),
    ["Write the release file (N)o", ["choose", "(y)es"], "y\\r"],
    ["Mark the release as tagged (N)o", ["choose", "(y)es"], "y\\r"],
    ["Announce the release (N)o", ["choose", "(y)es"], "y\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    read(anOut(dir, "release.txt")) === "version=2.1.0 channel=beta token=6" &&
    existsSync(anOut(dir, "tagged")) &&
    read(anOut(dir, "announced")) === "2.1.0",
  (dir) => mk("mk-ansible.sh", join(dir, "an")),
);
const ansible2 = task(
  "ansible-playbook --step: release 3.0.0 on stable, not tagged (No), then continue",
  ["ansible-playbook"],
  AN,
  [
    ...ansibleAnswers("3.0.0", "stable"),
    ["Write the release file (N)o", ["choose", "(y)es"], "y\\r"],
    ["Mark the release as tagged (N)o", ["choose", "(N)o"], "n\\r"],
    ["Announce the release (N)o", ["choose", "(c)ontinue"], "c\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    read(anOut(dir, "release.txt")) === "version=3.0.0 channel=stable token=6" &&
    !existsSync(anOut(dir, "tagged")) &&
    read(anOut(dir, "announced")) === "3.0.0",
  (dir) => mk("mk-ansible.sh", join(dir, "an")),
);

// ---- R: a profile that asks (chooseCRANmirror, menu) and writes the answer; q()'s workspace question
const rProfile = (dir: string, body: string) => writeFileSync(join(dir, "ask.R"), `${body}\nq("no")\n`);
const R_ASK = "HOME=$D R_PROFILE_USER=$D/ask.R R --no-save --quiet; echo done > $OUT";
const rMirror = task(
  "R chooseCRANmirror: UK (London 1)",
  ["R"],
  R_ASK,
  [["Selection:", ["choose", "UK (London 1) [https]"], "72\\r"]],
  (dir, o) => read(o) === "done" && read(join(dir, "repos")) === "https://cran.ma.imperial.ac.uk",
  (dir) =>
    rProfile(
      dir,
      `utils::chooseCRANmirror(graphics = FALSE)\nwriteLines(getOption("repos")[["CRAN"]], "${dir}/repos")`,
    ),
);
const rMenu = task(
  "R menu(): build reefwatch",
  ["R"],
  R_ASK,
  [["Selection:", ["choose", "reefwatch"], "2\\r"]],
  (dir, o) => read(o) === "done" && read(join(dir, "pick")) === "reefwatch",
  (dir) =>
    rProfile(
      dir,
      `pick <- utils::menu(c("tidepool", "reefwatch", "kelp"), title = "Which package to build?")\n` +
        `writeLines(c("none", "tidepool", "reefwatch", "kelp")[pick + 1], "${dir}/pick")`,
    ),
);
const rSave = (answer: "y" | "n") =>
  task(
    `R q(): depth <- 42, then the workspace ${answer === "y" ? "saved (y)" : "not saved (n)"}`,
    ["R"],
    "HOME=$D R --quiet; echo done > $OUT",
    [
      [">", ["fill", CURSOR_INPUT, "depth <- 42", "--submit"], "depth <- 42\\r"],
      [{ text: ">", count: 2 }, ["fill", CURSOR_INPUT, "q()", "--submit"], "q()\\r"],
      ["Save workspace", ["choose", answer], `${answer}\\r`],
    ],
    (dir, o) => {
      if (read(o) !== "done") return false;
      const image = join(dir, ".RData");
      if (answer === "n") return !existsSync(image);
      return run("Rscript", ["-e", `load("${image}"); cat(depth)`]).out.trim() === "42";
    },
  );

// ---- jshell
const jshell = task(
  "jshell: int depth = 42, saved to snip.jsh, exit",
  ["jshell"],
  "HOME=$D jshell; echo done > $OUT",
  [
    ["jshell>", ["fill", CURSOR_INPUT, "int depth = 42;", "--submit"], "int depth = 42;\\r"],
    ["depth ==> 42", ["fill", CURSOR_INPUT, "/save snip.jsh", "--submit"], "/save snip.jsh\\r"],
    [{ text: "jshell>", count: 3 }, ["fill", CURSOR_INPUT, "/exit", "--submit"], "/exit\\r"],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "snip.jsh")).includes("int depth = 42;"),
);

export const TASKS: Task[] = [
  gzip1,
  gzip2,
  sz1,
  sz2,
  sz3,
  cron1,
  cron2,
  cron3,
  cron4,
  find1,
  xargs1,
  sphinx1,
  sphinx2,
  flit,
  reportbug,
  dhmake1,
  dhmake2,
  cpan,
  ansible1,
  ansible2,
  rMirror,
  rMenu,
  rSave("y"),
  rSave("n"),
  jshell,
];

/** The suite on bench/tasks-blind.ts's harness (no npm tools: every program is a Debian package). */
export function runBlind5Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: undefined });
}
export { runBlind5Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind5Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
