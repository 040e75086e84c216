// The blind task suite of issue 59 for blind set 4 (test/fixtures/blind4): end-to-end tasks on its
// programs (none of their families in train nor in the earlier blind sets), written by an engineer
// who had not read the detector nor the acting code, before either ran on these programs. Each task is
// done by meaning only (`choose`/`fill`/`click` by the label the screen shows; where a prompt wraps
// over rows or has no words of its own, the field holding the cursor read from the snapshot; no raw
// keys) and its outcome is checked from outside (a file, a repository, a database, a keystore, the
// program's own listing). Each task also has a raw-key reference run that proves its checker:
// `npx bun bench/tasks-blind4.ts --reference` must pass every task. The harness is bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind4.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind4");
// minicom turns on application cursor keys: its Down is ESC O B (ESC [ B leaves the menu).
const DOWN = "\\x1bOB";

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
/** A fixture set-up script of test/fixtures/blind4 (mk-*.sh), run into `dir`. */
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

// ---- pip uninstall in a venv (mk-pip.sh)
const PIP = "$D/pip/venv/bin/pip uninstall --disable-pip-version-check";
const pipHas = (dir: string, pkg: string) =>
  run(join(dir, "pip", "venv", "bin", "pip"), ["show", "--disable-pip-version-check", pkg]).status === 0;
const pipSetup = (dir: string) => mk("mk-pip.sh", join(dir, "pip"));
const pip1 = task(
  "pip uninstall: remove tidepool (Y)",
  ["pip3"],
  `${PIP} tidepool; echo done > $OUT`,
  [["Proceed", ["choose", "Y"], "y\\r"]],
  (dir, o) => read(o) === "done" && !pipHas(dir, "tidepool") && pipHas(dir, "reefwatch"),
  pipSetup,
);
const pip2 = task(
  "pip uninstall: keep tidepool (n)",
  ["pip3"],
  `${PIP} tidepool; echo done > $OUT`,
  [["Proceed", ["choose", "n"], "n\\r"]],
  (dir, o) => read(o) === "done" && pipHas(dir, "tidepool"),
  pipSetup,
);
const pip3 = task(
  "pip uninstall of two: remove tidepool, keep reefwatch",
  ["pip3"],
  `${PIP} tidepool reefwatch; echo done > $OUT`,
  [
    ["Proceed", ["choose", "Y"], "y\\r"],
    ["Uninstalling reefwatch", ["choose", "n"], "n\\r"],
  ],
  (dir, o) => read(o) === "done" && !pipHas(dir, "tidepool") && pipHas(dir, "reefwatch"),
  pipSetup,
);

// ---- GNU patch on a tree that has the patch already (mk-patch.sh)
const PATCH = "cd $D/patch/tree && patch -p1 < ../fix.patch; echo done > $OUT";
const REVERSED = "Reversed (or previously applied) patch detected!  Assume -R? [n]";
const patch1 = task(
  "patch: the patch is already applied, reverse it (Assume -R: y)",
  ["patch"],
  PATCH,
  [["Assume -R", ["fill", REVERSED, "y", "--submit"], "y\\r"]],
  (dir, o) => read(o) === "done" && read(join(dir, "patch", "tree", "config.ini")).startsWith("timeout = 30"),
  (dir) => mk("mk-patch.sh", join(dir, "patch")),
);
const patch2 = task(
  "patch: the patch is already applied, leave the file alone (n, then Apply anyway: n)",
  ["patch"],
  PATCH,
  [
    ["Assume -R", ["fill", REVERSED, "n", "--submit"], "n\\r"],
    ["Apply anyway", ["fill", "Apply anyway? [n]", "n", "--submit"], "n\\r"],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "patch", "tree", "config.ini")).startsWith("timeout = 60"),
  (dir) => mk("mk-patch.sh", join(dir, "patch")),
);

// ---- svn update meeting a text conflict (mk-svn.sh)
const SVN = "cd $D/svn/wc2 && svn update; echo done > $OUT";
const svnStatus = (dir: string) => run("svn", ["status"], { cwd: join(dir, "svn", "wc2") }).out;
const svnNotes = (dir: string) => read(join(dir, "svn", "wc2", "notes.txt"));
const svnSetup = (dir: string) => mk("mk-svn.sh", join(dir, "svn"));
const svn1 = task(
  "svn update: postpone the conflict on notes.txt",
  ["svn", "svnadmin"],
  SVN,
  [["Select:", ["choose", "Postpone"], "p\\r"]],
  (dir, o) => read(o) === "done" && /^C\s+notes\.txt/m.test(svnStatus(dir)),
  svnSetup,
);
const svnMerge = (pick: string, key: string, line: string) =>
  task(
    `svn update: merge notes.txt with the built-in tool, ${pick}, mark it resolved`,
    ["svn", "svnadmin"],
    SVN,
    [
      ["Select:", ["choose", "Merge"], "m\\r"],
      ["abort file merge", ["choose", pick], `${key}\\r`],
      ["Mark as resolved", ["choose", "Mark as resolved"], "r\\r"],
    ],
    (dir, o) => read(o) === "done" && svnNotes(dir) === `alpha\n${line}\ngamma` && !/^C/m.test(svnStatus(dir)),
    svnSetup,
  );

// ---- keytool -genkeypair
const keytool = task(
  "keytool: a key pair for CN=Grace Hopper, OU=Compilers, O=Navy, L=Arlington, ST=Virginia, C=US",
  ["keytool"],
  "cd $D && keytool -genkeypair -alias app -keyalg RSA -keysize 2048 -keystore $D/app.p12 -storetype PKCS12; echo done > $OUT",
  [
    ["keystore password", ["fill", "Enter keystore password", "changeit", "--submit"], "changeit\\r"],
    ["Re-enter", ["fill", "Re-enter new password", "changeit", "--submit"], "changeit\\r"],
    [
      "first and last name",
      ["fill", "What is your first and last name? [Unknown]", "Grace Hopper", "--submit"],
      "Grace Hopper\\r",
    ],
    [
      "organizational unit",
      ["fill", "What is the name of your organizational unit? [Unknown]", "Compilers", "--submit"],
      "Compilers\\r",
    ],
    [
      "name of your organization?",
      ["fill", "What is the name of your organization? [Unknown]", "Navy", "--submit"],
      "Navy\\r",
    ],
    [
      "City or Locality",
      ["fill", "What is the name of your City or Locality? [Unknown]", "Arlington", "--submit"],
      "Arlington\\r",
    ],
    [
      "State or Province",
      ["fill", "What is the name of your State or Province? [Unknown]", "Virginia", "--submit"],
      "Virginia\\r",
    ],
    [
      "country code",
      ["fill", "What is the two-letter country code for this unit? [Unknown]", "US", "--submit"],
      "US\\r",
    ],
    // Its question wraps over rows ("… C=US correct" / "?" / "[no]:"): the field holding the cursor.
    ["[no]:", ["fill", CURSOR_INPUT, "yes", "--submit"], "yes\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    run("keytool", ["-list", "-v", "-keystore", join(dir, "app.p12"), "-storepass", "changeit"]).out.includes(
      "Owner: CN=Grace Hopper, OU=Compilers, O=Navy, L=Arlington, ST=Virginia, C=US",
    ),
);

// ---- s3cmd --configure
const s3 = (save: "y" | "N") =>
  task(
    `s3cmd --configure: keys, region eu-west-1, a proxy, no access test, settings ${save === "y" ? "saved" : "not saved"}`,
    ["s3cmd"],
    "HOME=$D s3cmd --configure -c $D/s3cfg; echo done > $OUT",
    [
      ["Access Key:", ["fill", "Access Key", "AKIAEXAMPLE42", "--submit"], "AKIAEXAMPLE42\\r"],
      ["Secret Key:", ["fill", "Secret Key", "wJalrXUtnFEMIexample", "--submit"], "wJalrXUtnFEMIexample\\r"],
      ["Default Region", ["fill", "Default Region [US]", "eu-west-1", "--submit"], "eu-west-1\\r"],
      [
        "S3 Endpoint",
        ["fill", "S3 Endpoint [s3.amazonaws.com]", "s3.amazonaws.com", "--submit"],
        "s3.amazonaws.com\\r",
      ],
      // Its prompt wraps over two rows: the field holding the cursor.
      [
        "DNS-style",
        ["fill", CURSOR_INPUT, "%(bucket)s.s3.amazonaws.com", "--submit"],
        "%(bucket)s.s3.amazonaws.com\\r",
      ],
      ["Encryption password", ["fill", "Encryption password", "tide-42", "--submit"], "tide-42\\r"],
      ["Path to GPG", ["fill", "Path to GPG program [/usr/bin/gpg]", "/usr/bin/gpg", "--submit"], "/usr/bin/gpg\\r"],
      ["HTTPS protocol", ["fill", "Use HTTPS protocol [Yes]", "Yes", "--submit"], "Yes\\r"],
      [
        "Proxy server name",
        ["fill", "HTTP Proxy server name", "proxy.example.internal", "--submit"],
        "proxy.example.internal\\r",
      ],
      ["Proxy server port", ["fill", "HTTP Proxy server port [3128]", "3128", "--submit"], "3128\\r"],
      ["Test access", ["choose", "n"], "n\\r"],
      ["Save settings", ["choose", save], `${save.toLowerCase()}\\r`],
      ...(save === "N" ? [["Retry configuration", ["choose", "n"], "n\\r"] as Pair] : []),
    ],
    (dir, o) => {
      const cfg = read(join(dir, "s3cfg"));
      return (
        read(o) === "done" &&
        (save === "y"
          ? cfg.includes("access_key = AKIAEXAMPLE42") &&
            cfg.includes("bucket_location = eu-west-1") &&
            cfg.includes("proxy_host = proxy.example.internal")
          : cfg === "")
      );
    },
  );

// ---- django-admin: createsuperuser and makemigrations (mk-django.sh)
const PY = "/usr/bin/python3";
const djUser = (dir: string, user: string, password: string) =>
  run(
    PY,
    [
      "manage.py",
      "shell",
      "-c",
      `from django.contrib.auth.models import User; u = User.objects.get(username=${JSON.stringify(user)}); print("ok" if u.is_superuser and u.check_password(${JSON.stringify(password)}) else "no")`,
    ],
    { cwd: join(dir, "dj") },
  ).out.trim() === "ok";
const SU = `cd $D/dj && ${PY} manage.py createsuperuser; echo done > $OUT`;
const djSetup = (dir: string) => mk("mk-django.sh", join(dir, "dj"));
const USERNAME = "Username (leave blank to use 'root')";
const dj1 = task(
  "django createsuperuser: grace with a strong password",
  ["django-admin"],
  SU,
  [
    ["Username", ["fill", USERNAME, "grace", "--submit"], "grace\\r"],
    ["Email address", ["fill", "Email address", "grace@example.org", "--submit"], "grace@example.org\\r"],
    ["Password:", ["fill", "Password", "Tide-pool-4242", "--submit"], "Tide-pool-4242\\r"],
    ["(again)", ["fill", "Password (again)", "Tide-pool-4242", "--submit"], "Tide-pool-4242\\r"],
  ],
  (dir, o) => read(o) === "done" && djUser(dir, "grace", "Tide-pool-4242"),
  djSetup,
);
const dj2 = task(
  "django createsuperuser: ada with the weak password 'ada', validation bypassed",
  ["django-admin"],
  SU,
  [
    ["Username", ["fill", USERNAME, "ada", "--submit"], "ada\\r"],
    ["Email address", ["fill", "Email address", "ada@example.org", "--submit"], "ada@example.org\\r"],
    ["Password:", ["fill", "Password", "ada", "--submit"], "ada\\r"],
    ["(again)", ["fill", "Password (again)", "ada", "--submit"], "ada\\r"],
    ["Bypass", ["choose", "y"], "y\\r"],
  ],
  (dir, o) => read(o) === "done" && djUser(dir, "ada", "ada"),
  djSetup,
);
const dj3 = task(
  "django createsuperuser: a weak password refused (N), then a strong one",
  ["django-admin"],
  SU,
  [
    ["Username", ["fill", USERNAME, "ada", "--submit"], "ada\\r"],
    ["Email address", ["fill", "Email address", "ada@example.org", "--submit"], "ada@example.org\\r"],
    ["Password:", ["fill", "Password", "ada", "--submit"], "ada\\r"],
    ["(again)", ["fill", "Password (again)", "ada", "--submit"], "ada\\r"],
    ["Bypass", ["choose", "N"], "n\\r"],
    [{ text: "Password:", count: 2 }, ["fill", "Password", "Reef-walk-9090", "--submit"], "Reef-walk-9090\\r"],
    [
      { text: "Password (again):", count: 2 },
      ["fill", "Password (again)", "Reef-walk-9090", "--submit"],
      "Reef-walk-9090\\r",
    ],
  ],
  (dir, o) => read(o) === "done" && djUser(dir, "ada", "Reef-walk-9090"),
  djSetup,
);
const migrations = (dir: string) =>
  readdirSync(join(dir, "dj", "shop", "migrations"))
    .filter((f) => f.startsWith("0002"))
    .map((f) => read(join(dir, "dj", "shop", "migrations", f)));
const MIGRATE = `cd $D/dj && ${PY} manage.py makemigrations shop; echo done > $OUT`;
const dj4 = task(
  "django makemigrations: title was renamed to name (y)",
  ["django-admin"],
  MIGRATE,
  [["[y/N]", ["choose", "y"], "y\\r"]],
  (dir, o) => read(o) === "done" && migrations(dir).some((m) => m.includes("RenameField")),
  (dir) => mk("mk-django.sh", join(dir, "dj"), "rename"),
);
const dj5 = task(
  "django makemigrations: not a rename (N), then quit to add a default in models.py",
  ["django-admin"],
  MIGRATE,
  [
    ["[y/N]", ["choose", "N"], "n\\r"],
    ["Select an option", ["choose", "Quit, and let me add a default in models.py"], "2\\r"],
  ],
  (dir, o) => read(o) === "done" && migrations(dir).length === 0,
  (dir) => mk("mk-django.sh", join(dir, "dj"), "rename"),
);

// ---- hledger add
const today = new Date().toISOString().slice(0, 10);
const hledger = task(
  "hledger add: 12.50 EUR of coffee beans from cash on 2026-12-01, saved, then quit",
  ["hledger"],
  "hledger add -f $D/main.journal; echo done > $OUT",
  [
    ["Date [", ["fill", `Date [${today}]`, "2026-12-01", "--submit"], "2026-12-01\\r"],
    ["Description", ["fill", "Description", "Coffee beans", "--submit"], "Coffee beans\\r"],
    ["Account 1", ["fill", "Account 1", "expenses:food", "--submit"], "expenses:food\\r"],
    ["Amount  1", ["fill", "Amount  1", "12.50 EUR", "--submit"], "12.50 EUR\\r"],
    ["Account 2", ["fill", "Account 2", "assets:cash", "--submit"], "assets:cash\\r"],
    // Typed commodity first: a value starting with "-" would be read as an option by the CLI.
    ["Amount  2", ["fill", "Amount  2 [-12.50 EUR]", "EUR -12.50", "--submit"], "EUR -12.50\\r"],
    ["Account 3", ["fill", "Account 3 (or . or enter to finish this transaction)", ".", "--submit"], ".\\r"],
    ["Save this", ["fill", "Save this transaction to the journal ? [y]", "y", "--submit"], "y\\r"],
    [{ text: "Date [", count: 2 }, ["fill", "Date [2026-12-01]", ".", "--submit"], ".\\r"],
  ],
  (dir, o) => {
    const printed = run("hledger", ["-f", join(dir, "main.journal"), "print"]).out;
    return (
      read(o) === "done" &&
      printed.includes("2026-12-01 Coffee beans") &&
      /expenses:food\s+12\.50 EUR/.test(printed) &&
      /assets:cash\s+(-12\.50 EUR|EUR -12\.50)/.test(printed)
    );
  },
  (dir) => writeFileSync(join(dir, "main.journal"), ""),
);

// ---- rclone config (mk-rclone.sh)
const RCLONE = "rclone --config $D/rc/rclone.conf config; echo done > $OUT";
const rclone1 = task(
  "rclone config: a new alias remote proj for /srv/proj, kept, then quit",
  ["rclone"],
  RCLONE,
  [
    ["n/s/q>", ["choose", "New remote"], "n\\r"],
    ["name>", ["fill", "name", "proj", "--submit"], "proj\\r"],
    ["Storage>", ["fill", "Storage", "alias", "--submit"], "alias\\r"],
    ["remote>", ["fill", "remote", "/srv/proj", "--submit"], "/srv/proj\\r"],
    ["y/e/d>", ["choose", "Yes this is OK"], "y\\r"],
    ["e/n/d/r/c/s/q>", ["choose", "Quit config"], "q\\r"],
  ],
  (dir, o) =>
    read(o) === "done" && read(join(dir, "rc", "rclone.conf")).includes("[proj]\ntype = alias\nremote = /srv/proj"),
  (dir) => mk("mk-rclone.sh", join(dir, "rc")),
);
const rclone2 = task(
  "rclone config: delete the remote media, keep archive, quit",
  ["rclone"],
  RCLONE,
  [
    ["e/n/d/r/c/s/q>", ["choose", "Delete remote"], "d\\r"],
    ["remote>", ["choose", "media"], "2\\r"],
    [{ text: "e/n/d/r/c/s/q>", count: 2 }, ["choose", "Quit config"], "q\\r"],
  ],
  (dir, o) => {
    const conf = read(join(dir, "rc", "rclone.conf"));
    return read(o) === "done" && conf.includes("[archive]") && !conf.includes("[media]");
  },
  (dir) => mk("mk-rclone.sh", join(dir, "rc"), "two"),
);

// ---- mercurial (mk-hg.sh)
const HG = "HGUSER=Ada hg --config ui.interactive=true";
const hgOut = (dir: string, ...args: string[]) => run("hg", args, { cwd: join(dir, "hg"), env: { HGPLAIN: "1" } }).out;
const merged = (dir: string) => hgOut(dir, "log", "-r", "p2()", "-T", "{node}").trim().length > 0;
const hg1 = task(
  "hg merge: plan.txt deleted on the other branch, changed here: delete it",
  ["hg"],
  `cd $D/hg && ${HG} merge cleanup; echo done > $OUT`,
  [["What do you want to do?", ["choose", "(d)elete"], "d\\r"]],
  (dir, o) => read(o) === "done" && merged(dir) && /^R plan\.txt/m.test(hgOut(dir, "status")),
  (dir) => mk("mk-hg.sh", join(dir, "hg"), "merge"),
);
const hg2 = task(
  "hg merge: plan.txt deleted on the other branch, changed here: keep the changed version",
  ["hg"],
  `cd $D/hg && ${HG} merge cleanup; echo done > $OUT`,
  [["What do you want to do?", ["choose", "(c)hanged version"], "c\\r"]],
  (dir, o) =>
    read(o) === "done" &&
    merged(dir) &&
    read(join(dir, "hg", "plan.txt")).endsWith("step three") &&
    !/^R plan\.txt/m.test(hgOut(dir, "status")),
  (dir) => mk("mk-hg.sh", join(dir, "hg"), "merge"),
);
const hg3 = task(
  "hg commit -i: commit plan.txt only (notes.txt unchecked), confirmed",
  ["hg"],
  `cd $D/hg && ${HG} --config ui.interface=curses commit -i -m 'only plan'; echo done > $OUT`,
  [
    ["Select hunks", ["choose", "notes.txt"], " "],
    [undefined, ["click", "--text", "c: confirm"], "c"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    hgOut(dir, "log", "-r", "tip", "-T", "{desc}|{files}") === "only plan|plan.txt" &&
    /^M notes\.txt/m.test(hgOut(dir, "status")),
  (dir) => mk("mk-hg.sh", join(dir, "hg"), "commit"),
);

// ---- bundle gem's first-run questions
const bundle = (
  test: string,
  ci: string,
  mit: string,
  coc: string,
  changelog: string,
  linter: string,
  files: Record<string, boolean>,
) =>
  task(
    `bundle gem tidy: tests ${test}, CI ${ci}, MIT ${mit}, code of conduct ${coc}, changelog ${changelog}, linter ${linter}`,
    ["bundle"],
    "cd $D && HOME=$D bundle gem tidy; echo done > $OUT",
    [
      ["test framework", ["choose", test], `${test}\\r`],
      ["CI service", ["choose", ci], `${ci}\\r`],
      ["MIT license", ["choose", mit], `${mit}\\r`],
      ["code of conduct", ["choose", coc], `${coc}\\r`],
      ["changelog", ["choose", changelog], `${changelog}\\r`],
      ["linter", ["choose", linter], `${linter}\\r`],
    ],
    (dir, o) =>
      read(o) === "done" && Object.entries(files).every(([f, want]) => existsSync(join(dir, "tidy", f)) === want),
  );

// ---- systemd-firstboot on a root directory of its own
const firstboot = task(
  "systemd-firstboot: timezone Europe/Lisbon, hostname tidepool",
  ["systemd-firstboot"],
  "systemd-firstboot --root=$D/fb --welcome=no --prompt-timezone --prompt-hostname; echo done > $OUT",
  [
    [
      "timezone name or number",
      [
        "fill",
        'Please enter timezone name or number (empty to skip, "list" to list options)',
        "Europe/Lisbon",
        "--submit",
      ],
      "Europe/Lisbon\\r",
    ],
    [
      "hostname for new system",
      ["fill", "Please enter hostname for new system (empty to skip)", "tidepool", "--submit"],
      "tidepool\\r",
    ],
  ],
  (dir, o) => {
    let zone = "";
    try {
      zone = readlinkSync(join(dir, "fb", "etc", "localtime"));
    } catch {}
    return (
      read(o) === "done" && zone.endsWith("Europe/Lisbon") && read(join(dir, "fb", "etc", "hostname")) === "tidepool"
    );
  },
  (dir) => mkdirSync(join(dir, "fb")),
);

// ---- minicom -s: save the setup as dfl, exit (as root minicom writes /etc/minicom/minirc.dfl)
const MINIRC = "/etc/minicom/minirc.dfl";
const minicom = task(
  "minicom -s: save setup as dfl, then exit from minicom",
  ["minicom"],
  "HOME=$D minicom -s; echo done > $OUT",
  [
    ["configuration", ["choose", "Save setup as dfl"], `${DOWN}|${DOWN}|${DOWN}|${DOWN}|${DOWN}|\\r`, 200],
    // "Configuration saved" shows in a box for a second or two, then the menu again.
    ["Configuration saved", ["choose", "Exit from Minicom"], `${DOWN}|${DOWN}|${DOWN}|\\r`, 1500],
  ],
  (_dir, o) => read(o) === "done" && existsSync(MINIRC) && read(MINIRC).includes("Machine-generated"),
  () => rmSync(MINIRC, { force: true }),
);

export const TASKS: Task[] = [
  pip1,
  pip2,
  pip3,
  patch1,
  patch2,
  svn1,
  svnMerge("use their version", "1", "BETA from wc1"),
  svnMerge("use your version", "2", "beta from wc2"),
  keytool,
  s3("y"),
  s3("N"),
  dj1,
  dj2,
  dj3,
  dj4,
  dj5,
  hledger,
  rclone1,
  rclone2,
  hg1,
  hg2,
  hg3,
  bundle("minitest", "github", "y", "n", "y", "rubocop", {
    "test/test_helper.rb": true,
    ".github/workflows/main.yml": true,
    "LICENSE.txt": true,
    "CODE_OF_CONDUCT.md": false,
    "CHANGELOG.md": true,
    ".rubocop.yml": true,
  }),
  bundle("rspec", "none", "n", "n", "n", "none", {
    "spec/spec_helper.rb": true,
    ".github": false,
    "LICENSE.txt": false,
    "CODE_OF_CONDUCT.md": false,
    "CHANGELOG.md": false,
    ".rubocop.yml": false,
  }),
  firstboot,
  minicom,
];

/** The suite on bench/tasks-blind.ts's harness (no npm tools: every program is a Debian package). */
export function runBlind4Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: undefined });
}
export { runBlind4Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind4Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
