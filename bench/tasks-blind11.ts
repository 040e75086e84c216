// The blind task suite of issue 59 for blind set 11 (test/fixtures/blind11): end-to-end tasks on its
// programs (none of them in train nor in the earlier blind sets), written by an engineer who had not
// read the detector nor the acting code, before either ran on these programs. Each task is done by
// meaning only (`choose`/`fill`/`click` by the label the screen shows, as
// test/fixtures/blind11/README.md labels it; a key-bar entry by its text (`click --text "F2 Save"`);
// where a prompt is only a marker (`varnish>`, `MariaDB [harbour]>`, `supervisor>`, hatop's `>`) the
// field holding the cursor read from the snapshot; no raw keys) and its outcome is checked from outside
// (a capture file sngrep writes, haproxy's and varnishd's own state read over their admin interfaces,
// the migration SQL drizzle-kit writes, the .vsix vsce writes, the rpm database of dnf's install root,
// MariaDB's users and databases, the file curl fetched and the server's log, etcd's users tried with
// their passwords, supervisord's processes, SoftHSM's token tried with its PINs, openconnect's cookie).
// Each task also has a raw-key reference run that proves its checker: `npx bun bench/tasks-blind11.ts
// --reference` must pass every task. The harness is bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind11.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind11");
/** The npm tools (test/fixtures/blind11/README.md): drizzle-kit with drizzle-orm, vsce. */
const TOOLS = "/tmp/t4a-blind11-tools";
const NPM_TOOLS = ["drizzle-kit@0.31.11", "drizzle-orm@0.45.4", "@vscode/vsce@3.9.2"];
const MODULES = join(TOOLS, "node_modules");

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
const run = (
  cmd: string,
  args: string[],
  options: { input?: string; cwd?: string; env?: Record<string, string> } = {},
) => {
  const child = spawnSync(cmd, args, {
    env: { ...process.env, ...options.env },
    cwd: options.cwd,
    input: options.input,
    encoding: "utf8",
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    timeout: 60_000,
  });
  return { status: child.status, out: `${child.stdout ?? ""}${child.stderr ?? ""}` };
};
/** A fixture set-up script of test/fixtures/blind11 (mk-*), run into `dir`. */
const mk = (script: string, ...args: string[]) => execFileSync(join(HERE, script), args, { stdio: "ignore" });
const files = (change: "column" | "table") => (dir: string) => mk("mk-files.sh", join(dir, "f"), change, MODULES);
/** Runs a check, then stops the task's server whatever the check says. */
const stopping =
  (stop: (dir: string) => void, check: Task["check"]): Task["check"] =>
  (dir, out) => {
    try {
      return check(dir, out);
    } finally {
      stop(dir);
    }
  };

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
const cursor = (value: string, submit = true) => ["fill", CURSOR_INPUT, value, ...(submit ? ["--submit"] : [])];
const fill = (label: string, value: string) => ["fill", label, value, "--submit"];
const choose = (label: string) => ["choose", label];
const nth = (text: string, count: number): Wait => ({ text, count });

// ---- sngrep (mk-files.sh: f/sip/calls.pcap of five dialogs; HOME f/sip)
const SNGREP = "cd f/sip && HOME=$D/f/sip sngrep -I calls.pcap; echo done > $OUT";
const F2 = "\\x1bOQ";
const sngrepSave = task(
  "sngrep: F2 Save, the file name all-calls, Save: every dialog written to all-calls.pcap",
  ["sngrep"],
  SNGREP,
  [
    ["Dialogs:", ["click", "--text", "F2 Save"], F2, 800],
    ["Save capture", ["fill", "Filename", "all-calls"], "all-calls"],
    [undefined, ["click", "Save"], "\\r", 500],
  ],
  (dir) => {
    const saved = read(join(dir, "f/sip/all-calls.pcap"));
    return ["call-tide-1", "call-pier-2", "call-buoy-3", "reg-ada", "ping-4"].every((id) => saved.includes(id));
  },
  files("column"),
);
const sngrepText = task(
  "sngrep: F2 Save, the file name calls-text, the .txt format, Save: the messages written as text",
  ["sngrep"],
  SNGREP,
  [
    ["Dialogs:", ["click", "--text", "F2 Save"], F2, 800],
    ["Save capture", ["fill", "Filename", "calls-text"], "calls-text"],
    [undefined, choose(".txt"), "\\t|\\t|\\t|\\t|\\t|\\x20"],
    [undefined, ["click", "Save"], "\\r", 500],
  ],
  (dir) => read(join(dir, "f/sip/calls-text.txt")).includes("INVITE sip:bob@harbour.test SIP/2.0"),
  files("column"),
);
const sngrepQuit = task(
  "sngrep: Esc Quit, the exit confirmed (Yes): sngrep exits",
  ["sngrep"],
  SNGREP,
  [
    ["Dialogs:", ["click", "--text", "Esc Quit"], "\\x1b", 800],
    ["Confirm exit", ["click", "Yes"], "\\r"],
  ],
  (_dir, o) => read(o) === "done",
  files("column"),
);

// ---- hatop on a haproxy (mk-haproxy.sh: backends tides (tide1-3) and piers (pier1-2), admin socket ha/haproxy.sock)
const haproxy = (port: number) => (dir: string) => mk("mk-haproxy.sh", join(dir, "ha"), String(port));
const haStop = (dir: string) => mk("mk-haproxy.sh", join(dir, "ha"), "stop");
/** `show servers state BACKEND` over haproxy's admin socket: server name → [admin state, user weight]. */
function servers(dir: string, backend: string): Map<string, [number, number]> {
  const out = run("python3", [
    "-c",
    "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\ns.sendall(('show servers state '+sys.argv[2]+'\\n').encode())\nb=b''\nwhile True:\n  c=s.recv(65536)\n  if not c: break\n  b+=c\nprint(b.decode())",
    join(dir, "ha/haproxy.sock"),
    backend,
  ]).out;
  const state = new Map<string, [number, number]>();
  for (const line of out.split("\n")) {
    const f = line.split(" ");
    if (f.length > 8 && /^\d+$/.test(f[0]!)) state.set(f[3]!, [Number(f[6]), Number(f[7])]);
  }
  return state;
}
const HATOP = "cd ha && hatop -s $D/ha/haproxy.sock; echo done > $OUT";
const hatopCli = (name: string, line: string, port: number, check: (dir: string) => boolean) =>
  task(
    `hatop: the CLI mode (5-CLI), ${name}`,
    ["hatop", "haproxy"],
    HATOP,
    [
      ["1-STATUS", ["click", "--text", "5-CLI"], "5", 800],
      ["command line", cursor(line), `${line}\\r`],
    ],
    stopping(haStop, (dir) => check(dir)),
    haproxy(port),
  );
const hatopDisable = hatopCli(
  "disable server tides/tide2: tide2 in maintenance, tide1 not",
  "disable server tides/tide2",
  28710,
  (dir) => {
    const s = servers(dir, "tides");
    return ((s.get("tide2")?.[0] ?? 0) & 1) === 1 && ((s.get("tide1")?.[0] ?? 1) & 1) === 0;
  },
);
const hatopWeight = hatopCli(
  "set weight tides/tide1 50: tide1's weight 50",
  "set weight tides/tide1 50",
  28720,
  (dir) => servers(dir, "tides").get("tide1")?.[1] === 50,
);
const hatopQuit = task(
  "hatop: Q=QUIT: hatop exits, haproxy still serves",
  ["hatop", "haproxy"],
  HATOP,
  [["1-STATUS", ["click", "--text", "Q=QUIT"], "q", 800]],
  stopping(haStop, (dir, o) => read(o) === "done" && servers(dir, "tides").size === 3),
  haproxy(28730),
);

// ---- varnishadm on a varnishd (mk-varnish.sh)
const varnish = (port: number) => (dir: string) => mk("mk-varnish.sh", join(dir, "vn"), String(port));
const vnStop = (dir: string) => mk("mk-varnish.sh", join(dir, "vn"), "stop");
const vadm = (dir: string, ...args: string[]) => run("varnishadm", ["-n", join(dir, "vn"), ...args]).out;
const VARNISHADM = "cd vn && varnishadm -n $D/vn; echo done > $OUT";
const varnishTtl = task(
  "varnishadm: param.set default_ttl 300, quit: the default TTL is 300 s",
  ["varnishadm", "varnishd"],
  VARNISHADM,
  [
    ["varnish>", cursor("param.set default_ttl 300"), "param.set default_ttl 300\\r"],
    [nth("varnish>", 2), cursor("quit"), "quit\\r"],
  ],
  stopping(
    vnStop,
    (dir, o) => read(o) === "done" && vadm(dir, "param.show", "default_ttl").includes("Value is: 300.000"),
  ),
  varnish(28740),
);
const varnishBan = task(
  "varnishadm: ban req.url ~ /tides, quit: the ban listed",
  ["varnishadm", "varnishd"],
  VARNISHADM,
  [
    ["varnish>", cursor("ban req.url ~ /tides"), "ban req.url ~ /tides\\r"],
    [nth("varnish>", 2), cursor("quit"), "quit\\r"],
  ],
  stopping(vnStop, (dir, o) => read(o) === "done" && vadm(dir, "ban.list").includes("req.url ~ /tides")),
  varnish(28750),
);

// ---- drizzle-kit generate (mk-files.sh: f/dz, its first migration, then a column or a table renamed in schema.ts)
const DRIZZLE = "cd f/dz && node_modules/.bin/drizzle-kit generate; echo done > $OUT";
/** The migration drizzle-kit wrote after the first one (its name is random). */
const migration = (dir: string) => {
  const out = join(dir, "f/dz/drizzle");
  const sql = existsSync(out) ? readdirSync(out).filter((f) => f.endsWith(".sql") && !f.startsWith("0000")) : [];
  return sql.length === 1 ? read(join(out, sql[0]!)) : "";
};
const drizzleRename = task(
  "drizzle-kit generate: harbour is place renamed: the migration renames the column",
  ["drizzle-kit"],
  DRIZZLE,
  [["renamed from another column", choose("place › harbour"), "\\x1b[B|\\r"]],
  (dir, o) => read(o) === "done" && /RENAME COLUMN [`"]place[`"] TO [`"]harbour[`"]/.test(migration(dir)),
  files("column"),
);
const drizzleCreate = task(
  "drizzle-kit generate: harbour is a new column: the migration adds harbour and drops place",
  ["drizzle-kit"],
  DRIZZLE,
  [["renamed from another column", choose("harbour"), "\\r"]],
  (dir, o) => {
    const sql = migration(dir);
    return (
      read(o) === "done" && sql.includes("ADD `harbour`") && /DROP COLUMN `place`/.test(sql) && !/RENAME/.test(sql)
    );
  },
  files("column"),
);
const drizzleTable = task(
  "drizzle-kit generate: levels is tides renamed, piers a new table: the migration renames tides and creates piers",
  ["drizzle-kit"],
  DRIZZLE,
  [
    ["renamed from another table", choose("tides › levels"), "\\x1b[B|\\r"],
    ["Is piers table", choose("piers"), "\\r"],
  ],
  (dir, o) => {
    const sql = migration(dir);
    return read(o) === "done" && /RENAME TO `levels`/.test(sql) && sql.includes("CREATE TABLE `piers`");
  },
  files("table"),
);
const drizzleTables = task(
  "drizzle-kit generate: levels and piers both new tables: the migration creates both and drops tides",
  ["drizzle-kit"],
  DRIZZLE,
  [
    ["renamed from another table", choose("levels"), "\\r"],
    ["Is piers table", choose("piers"), "\\r"],
  ],
  (dir, o) => {
    const sql = migration(dir);
    return (
      read(o) === "done" &&
      sql.includes("CREATE TABLE `levels`") &&
      sql.includes("CREATE TABLE `piers`") &&
      sql.includes("DROP TABLE `tides`")
    );
  },
  files("table"),
);

// ---- vsce package (mk-files.sh: f/ext, no repository field, no licence)
const VSCE = "cd f/ext && $T/vsce package; echo $? > $OUT";
const vsix = (dir: string) => existsSync(join(dir, "f/ext/tide-lens-0.1.0.vsix"));
const vsceYes = task(
  "vsce package: both warnings answered y: the .vsix written",
  ["vsce"],
  VSCE,
  [
    ["repository", choose("y"), "y\\r"],
    ["LICENSE", choose("y"), "y\\r"],
  ],
  (dir, o) => read(o) === "0" && vsix(dir),
  files("column"),
);
const vsceNo = task(
  "vsce package: the repository warning answered N: nothing written",
  ["vsce"],
  VSCE,
  [["repository", choose("N"), "n\\r"]],
  (dir, o) => read(o) !== "" && read(o) !== "0" && !vsix(dir),
  files("column"),
);

// ---- dnf in an install root with a local repository (mk-dnf.sh: tide-tables, pier-lights needing it)
const DNF =
  "dnf --installroot=$D/dnf/root --releasever=12 --setopt=reposdir=$D/dnf/repos.d --setopt=cachedir=$D/dnf/cache";
const rpmHas = (dir: string, pkg: string) => run("rpm", ["--root", join(dir, "dnf/root"), "-q", pkg]).status === 0;
const dnfRepo =
  (installed = false) =>
  (dir: string) =>
    mk("mk-dnf.sh", join(dir, "dnf"), ...(installed ? ["installed"] : []));
const dnfInstall = task(
  "dnf install tide-tables answered y: installed",
  ["dnf", "rpm"],
  `${DNF} install tide-tables; echo $? > $OUT`,
  [["Is this ok", choose("y"), "y\\r"]],
  (dir, o) => read(o) === "0" && rpmHas(dir, "tide-tables"),
  dnfRepo(),
);
const dnfNo = task(
  "dnf install pier-lights (with its dependency) answered N: nothing installed",
  ["dnf", "rpm"],
  `${DNF} install pier-lights; echo $? > $OUT`,
  [["Is this ok", choose("N"), "n\\r"]],
  (dir, o) => read(o) !== "" && read(o) !== "0" && !rpmHas(dir, "pier-lights") && !rpmHas(dir, "tide-tables"),
  dnfRepo(),
);
const dnfRemove = task(
  "dnf remove tide-tables answered y: removed",
  ["dnf", "rpm"],
  `${DNF} remove tide-tables; echo $? > $OUT`,
  [["Is this ok", choose("y"), "y\\r"]],
  (dir, o) => read(o) === "0" && !rpmHas(dir, "tide-tables"),
  dnfRepo(true),
);

// ---- mariadb (mk-db.sh: a server in db/, root without a password, anonymous users, a test database; "ada")
const dbStop = (dir: string) => mk("mk-db.sh", join(dir, "db"), "stop");
const db =
  (...args: string[]) =>
  (dir: string) => {
    mk("mk-db.sh", join(dir, "db"), ...args);
    execFileSync("bash", ["-c", `printf '[client]\\nsocket=%s\\n' "$0/db/sock" > "$0/db/my.cnf"`, dir]);
  };
/** A query as root (with a password or none): its output, or undefined when the login fails. */
const sql = (dir: string, query: string, password?: string) => {
  const r = run("mariadb", [
    "--no-defaults",
    `--socket=${join(dir, "db/sock")}`,
    "-uroot",
    ...(password ? [`-p${password}`] : []),
    "-N",
    "-e",
    query,
  ]);
  return r.status === 0 ? r.out : undefined;
};
/** root's accounts for other hosts than this one (mariadb-install-db makes one for the machine's name). */
const remoteRoot = (users: string) =>
  users
    .split("\n")
    .filter((u) => u.startsWith("root@") && !["root@localhost", "root@127.0.0.1", "root@::1"].includes(u.trim()));
const SECURE = "mariadb-secure-installation --defaults-file=$D/db/my.cnf; echo $? > $OUT";
const yn = (wait: string, answer: "Y" | "n"): Pair => [wait, choose(answer), `${answer.toLowerCase()}\\r`];
const secureAll = task(
  "mariadb-secure-installation: root password root-pass-1 set, anonymous users, remote root and the test database removed",
  ["mariadb-secure-installation", "mariadbd"],
  SECURE,
  [
    ["enter for none", fill("Enter current password for root (enter for none)", ""), "\\r"],
    yn("unix_socket authentication", "n"),
    yn("Set root password", "Y"),
    ["New password:", fill("New password", "root-pass-1"), "root-pass-1\\r"],
    ["Re-enter new password:", fill("Re-enter new password", "root-pass-1"), "root-pass-1\\r"],
    yn("Remove anonymous users", "Y"),
    yn("Disallow root login remotely", "Y"),
    yn("Remove test database", "Y"),
    yn("Reload privilege tables", "Y"),
  ],
  stopping(dbStop, (dir, o) => {
    const users = sql(dir, "SELECT CONCAT(user, '@', host) FROM mysql.user", "root-pass-1") ?? "";
    const dbs = sql(dir, "SHOW DATABASES", "root-pass-1") ?? "";
    return (
      read(o) === "0" &&
      sql(dir, "SELECT 1") === undefined &&
      users.includes("root@localhost") &&
      !/^@/m.test(users) &&
      remoteRoot(users).length === 0 &&
      dbs !== "" &&
      !/^test$/m.test(dbs)
    );
  }),
  db(),
);
const secureSome = task(
  "mariadb-secure-installation: no root password, anonymous users removed, remote root and the test database kept",
  ["mariadb-secure-installation", "mariadbd"],
  SECURE,
  [
    ["enter for none", fill("Enter current password for root (enter for none)", ""), "\\r"],
    yn("unix_socket authentication", "n"),
    yn("Set root password", "n"),
    yn("Remove anonymous users", "Y"),
    yn("Disallow root login remotely", "n"),
    yn("Remove test database", "n"),
    yn("Reload privilege tables", "Y"),
  ],
  stopping(dbStop, (dir, o) => {
    const users = sql(dir, "SELECT CONCAT(user, '@', host) FROM mysql.user") ?? "";
    const dbs = sql(dir, "SHOW DATABASES") ?? "";
    return (
      read(o) === "0" &&
      users.includes("root@localhost") &&
      remoteRoot(users).length > 0 &&
      !/^@/m.test(users) &&
      /^test$/m.test(dbs)
    );
  }),
  db(),
);
const INSERT = "INSERT INTO tides VALUES ('quay', 33);";
const mariadbClient = task(
  "mariadb -u ada -p: the password ada-pass-1, a row inserted into harbour.tides, quit",
  ["mariadb", "mariadbd"],
  "mariadb --no-defaults --socket=$D/db/sock -u ada -p harbour; echo done > $OUT",
  [
    ["Enter password:", fill("Enter password", "ada-pass-1"), "ada-pass-1\\r"],
    ["MariaDB [harbour]>", cursor(INSERT), `${INSERT}\\r`],
    [nth("MariaDB [harbour]>", 2), cursor("quit"), "quit\\r"],
  ],
  stopping(
    dbStop,
    (dir, o) => read(o) === "done" && sql(dir, "SELECT level FROM harbour.tides WHERE place = 'quay'")?.trim() === "33",
  ),
  db("ada"),
);

// ---- curl against a server with basic authentication (mk-http.py: ada / tide-pass-1)
const curl = task(
  "curl -u ada: the password tide-pass-1: report.txt fetched",
  ["curl"],
  "cd web && curl -u ada -o report.txt http://127.0.0.1:28760/report.txt; echo $? > $OUT",
  [["Enter host password", fill("Enter host password for user 'ada'", "tide-pass-1"), "tide-pass-1\\r"]],
  stopping(
    (dir) => {
      const pid = read(join(dir, "web/http.pid"));
      if (pid) spawnSync("kill", [pid]);
    },
    (dir, o) =>
      read(o) === "0" &&
      read(join(dir, "web/report.txt")).startsWith("high water 12:20") &&
      read(join(dir, "web/http.log")).endsWith("ada /report.txt 200"),
  ),
  (dir) => {
    execFileSync(join(HERE, "mk-http.py"), [join(dir, "web/site"), "28760"], { stdio: "ignore" });
    spawnSync("sleep", ["0.5"]);
  },
);

// ---- etcdctl on an etcd (mk-etcd.sh; "root": auth on, root / root-pass-1, ada / ada-pass-1 reading and writing /harbour/)
const etcd =
  (port: number, ...args: string[]) =>
  (dir: string) =>
    mk("mk-etcd.sh", join(dir, "etcd"), String(port), ...args);
const etcdStop = (dir: string) => mk("mk-etcd.sh", join(dir, "etcd"), "stop");
const etcdctl = (port: number, ...args: string[]) =>
  run("etcdctl", [`--endpoints=127.0.0.1:${port}`, ...args], { env: { ETCDCTL_API: "3" } });
const etcdRoot = task(
  "etcdctl user add root: the password root-pass-9 (twice): root logs in with it once auth is on",
  ["etcdctl", "etcd"],
  "etcdctl --endpoints=127.0.0.1:28770 user add root; echo $? > $OUT",
  [
    ["Password of root:", fill("Password of root", "root-pass-9"), "root-pass-9\\r"],
    ["again for confirmation", fill("Type password of root again for confirmation", "root-pass-9"), "root-pass-9\\r"],
  ],
  stopping(etcdStop, (_dir, o) => {
    if (read(o) !== "0") return false;
    etcdctl(28770, "user", "grant-role", "root", "root");
    if (etcdctl(28770, "auth", "enable").status !== 0) return false;
    return (
      etcdctl(28770, "--user", "root:root-pass-9", "get", "/harbour/tide").out.includes("high") &&
      etcdctl(28770, "--user", "root:root-pass-8", "get", "/harbour/tide").status !== 0
    );
  }),
  etcd(28770),
);
const etcdAda = task(
  "etcdctl --user ada put /harbour/pier open: the password ada-pass-1: the key written",
  ["etcdctl", "etcd"],
  "etcdctl --endpoints=127.0.0.1:28780 --user ada put /harbour/pier open; echo $? > $OUT",
  [["Password:", fill("Password", "ada-pass-1"), "ada-pass-1\\r"]],
  stopping(
    etcdStop,
    (_dir, o) =>
      read(o) === "0" &&
      etcdctl(28780, "--user", "root:root-pass-1", "get", "/harbour/pier", "--print-value-only").out.trim() === "open",
  ),
  etcd(28780, "root"),
);
const etcdPasswd = task(
  "etcdctl user passwd ada: the new password ada-pass-2 (twice): ada logs in with it, not with the old one",
  ["etcdctl", "etcd"],
  "etcdctl --endpoints=127.0.0.1:28790 --user root:root-pass-1 user passwd ada; echo $? > $OUT",
  [
    ["Password of ada:", fill("Password of ada", "ada-pass-2"), "ada-pass-2\\r"],
    ["again for confirmation", fill("Type password of ada again for confirmation", "ada-pass-2"), "ada-pass-2\\r"],
  ],
  stopping(
    etcdStop,
    (_dir, o) =>
      read(o) === "0" &&
      etcdctl(28790, "--user", "ada:ada-pass-2", "get", "/harbour/tide").out.includes("high") &&
      etcdctl(28790, "--user", "ada:ada-pass-1", "get", "/harbour/tide").status !== 0,
  ),
  etcd(28790, "root"),
);

// ---- supervisorctl (mk-supervisor.sh: sv/, the login ops / ops-pass-1, programs tide-logger and pier-watch)
const svUp = (dir: string) => mk("mk-supervisor.sh", join(dir, "sv"));
const svStop = (dir: string) => mk("mk-supervisor.sh", join(dir, "sv"), "stop");
const svStatus = (dir: string) =>
  run("supervisorctl", ["-c", join(dir, "sv/supervisord.conf"), "-u", "ops", "-p", "ops-pass-1", "status"]);
const SUPERVISOR = "cd sv && supervisorctl -c $D/sv/supervisord.conf; echo done > $OUT";
const login: Pair[] = [
  ["Username:", fill("Username", "ops"), "ops\\r"],
  ["Password:", fill("Password", "ops-pass-1"), "ops-pass-1\\r"],
];
const svStopOne = task(
  "supervisorctl: logged in as ops, stop tide-logger, quit: tide-logger stopped, pier-watch running",
  ["supervisorctl", "supervisord"],
  SUPERVISOR,
  [
    ...login,
    ["supervisor>", cursor("stop tide-logger"), "stop tide-logger\\r"],
    ["tide-logger: stopped", cursor("quit"), "quit\\r"],
  ],
  stopping(svStop, (dir, o) => {
    const out = svStatus(dir).out;
    return read(o) === "done" && /tide-logger\s+STOPPED/.test(out) && /pier-watch\s+RUNNING/.test(out);
  }),
  svUp,
);
const svShutdown = (answer: "y" | "N") =>
  task(
    `supervisorctl: logged in, shutdown answered ${answer}: supervisord ${answer === "y" ? "gone" : "still running"}`,
    ["supervisorctl", "supervisord"],
    SUPERVISOR,
    [
      ...login,
      ["supervisor>", cursor("shutdown"), "shutdown\\r"],
      ["Really shut", choose(answer), `${answer.toLowerCase()}\\r`, 500],
    ],
    stopping(svStop, (dir) => {
      spawnSync("sleep", ["1.5"]);
      return answer === "y"
        ? svStatus(dir).status !== 0 && !svStatus(dir).out.includes("RUNNING")
        : /tide-logger\s+RUNNING/.test(svStatus(dir).out);
    }),
    svUp,
  );

// ---- softhsm2-util and pkcs11-tool (mk-hsm.sh: tokens in hsm/; "token": harbour, SO PIN 87654321, user PIN 1234)
const HSM_ENV = "export SOFTHSM2_CONF=$D/hsm/softhsm2.conf";
const MODULE = "/usr/lib/softhsm/libsofthsm2.so";
const p11 = (dir: string, ...args: string[]) =>
  run("pkcs11-tool", ["--module", MODULE, "--token-label", "harbour", ...args], {
    env: { SOFTHSM2_CONF: join(dir, "hsm/softhsm2.conf") },
  }).status === 0;
const userPin = (dir: string, pin: string) => p11(dir, "--login", "--pin", pin, "--list-objects");
/** The SO PIN opens the token when it sets the user PIN (to the same 1234). */
const soPin = (dir: string, pin: string) =>
  p11(dir, "--init-pin", "--login", "--login-type", "so", "--so-pin", pin, "--new-pin", "1234");
const hsmInit = task(
  "softhsm2-util --init-token: SO PIN 87654321 and user PIN 1234 (each twice): the token opens with each",
  ["softhsm2-util", "pkcs11-tool"],
  `${HSM_ENV} && softhsm2-util --init-token --free --label harbour; echo $? > $OUT`,
  [
    ["enter SO PIN:", fill("Please enter SO PIN", "87654321"), "87654321\\r"],
    ["reenter SO PIN:", fill("Please reenter SO PIN", "87654321"), "87654321\\r"],
    ["enter user PIN:", fill("Please enter user PIN", "1234"), "1234\\r"],
    ["reenter user PIN:", fill("Please reenter user PIN", "1234"), "1234\\r"],
  ],
  (dir, o) =>
    read(o) === "0" &&
    userPin(dir, "1234") &&
    !userPin(dir, "4321") &&
    soPin(dir, "87654321") &&
    !soPin(dir, "12345678"),
  (dir) => mk("mk-hsm.sh", join(dir, "hsm")),
);
const hsmPin = task(
  "pkcs11-tool --change-pin: from 1234 to 5678 (twice): the token opens with 5678, not 1234",
  ["pkcs11-tool", "softhsm2-util"],
  `${HSM_ENV} && pkcs11-tool --module ${MODULE} --token-label harbour --change-pin; echo $? > $OUT`,
  [
    ["current PIN:", fill("Please enter the current PIN", "1234"), "1234\\r"],
    ["the new PIN:", fill("Please enter the new PIN", "5678"), "5678\\r"],
    ["new PIN again", fill("Please enter the new PIN again", "5678"), "5678\\r"],
  ],
  (dir, o) => read(o) === "0" && userPin(dir, "5678") && !userPin(dir, "1234"),
  (dir) => mk("mk-hsm.sh", join(dir, "hsm"), "token"),
);

// ---- openconnect --authenticate to an ocserv (mk-vpn.sh: self-signed, groups piers and tides, ada / tide-pass-1)
const vpn = (port: number) => (dir: string) => mk("mk-vpn.sh", join(dir, "vpn"), String(port));
const vpnStop = (dir: string) => mk("mk-vpn.sh", join(dir, "vpn"), "stop");
const OPENCONNECT = (port: number) =>
  `cd vpn && openconnect --authenticate 127.0.0.1:${port} > $D/vpn/cookie.txt; echo $? > $OUT`;
const vpnLogin = task(
  "openconnect --authenticate: the certificate accepted (yes), the group tides, ada / tide-pass-1: a cookie",
  ["openconnect", "ocserv"],
  OPENCONNECT(28800),
  [
    ["Enter 'yes'", choose("yes"), "yes\\r"],
    ["Group:", choose("tides"), "tides\\r"],
    ["Username:", fill("Username", "ada"), "ada\\r"],
    ["Password:", fill("Password", "tide-pass-1"), "tide-pass-1\\r"],
  ],
  stopping(vpnStop, (dir, o) => read(o) === "0" && read(join(dir, "vpn/cookie.txt")).includes("COOKIE=")),
  vpn(28800),
);
const vpnRefuse = task(
  "openconnect --authenticate: the certificate refused (no): no cookie, a failure",
  ["openconnect", "ocserv"],
  OPENCONNECT(28810),
  [["Enter 'yes'", choose("no"), "no\\r"]],
  stopping(
    vpnStop,
    (dir, o) => read(o) !== "" && read(o) !== "0" && !read(join(dir, "vpn/cookie.txt")).includes("COOKIE="),
  ),
  vpn(28810),
);

export const TASKS: Task[] = [
  sngrepSave,
  sngrepText,
  sngrepQuit,
  hatopDisable,
  hatopWeight,
  hatopQuit,
  varnishTtl,
  varnishBan,
  drizzleRename,
  drizzleCreate,
  drizzleTable,
  drizzleTables,
  vsceYes,
  vsceNo,
  dnfInstall,
  dnfNo,
  dnfRemove,
  secureAll,
  secureSome,
  mariadbClient,
  curl,
  etcdRoot,
  etcdAda,
  etcdPasswd,
  svStopOne,
  svShutdown("y"),
  svShutdown("N"),
  hsmInit,
  hsmPin,
  vpnLogin,
  vpnRefuse,
];

/** The npm tools' bin (installed into TOOLS when missing). */
function npmTools(): string | undefined {
  const bin = join(MODULES, ".bin");
  const have = () => existsSync(join(bin, "drizzle-kit")) && existsSync(join(bin, "vsce"));
  if (!have()) spawnSync("npm", ["i", "--prefix", TOOLS, "--no-audit", "--no-fund", ...NPM_TOOLS], { stdio: "ignore" });
  return have() ? bin : undefined;
}

/** The suite on bench/tasks-blind.ts's harness. */
export function runBlind11Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: npmTools() });
}
export { runBlind11Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind11Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
