// The blind task suite of issue 59 for blind set 8 (test/fixtures/blind8): end-to-end tasks on its
// programs (none of them in train nor in the earlier blind sets), written by an engineer who had not
// read the detector nor the acting code, before either ran on these programs. Each task is done by
// meaning only (`choose`/`fill` by the label the screen shows, as test/fixtures/blind8/README.md
// labels it; where a prompt is only a marker (psql's `tides=>`/`tides->`, redis-cli's
// `127.0.0.1:PORT>`) the field holding the cursor read from the snapshot; no raw keys) and its outcome
// is checked from outside (the database's catalog, Redis's keys, a CVS repository, a Breezy branch,
// nmh's folders and a sent message, what a steghide passphrase opens, a PuTTY key and host-key cache,
// gnutls's known hosts, ikiwiki's setup file, certbot's lineages, debfoster's keeper file and the
// packages it asked to remove). Each task also has a raw-key reference run that proves its checker:
// `npx bun bench/tasks-blind8.ts --reference` must pass every task. The harness is
// bench/tasks-blind.ts's. Each task that needs a server (PostgreSQL, Redis, sshd, gnutls-serv) starts
// its own on a port of its own (so two halves of the suite can run at once) and its checker stops it.
//
//   npx bun bench/tasks-blind8.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind8");

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
/** A fixture set-up script of test/fixtures/blind8 (mk-*.sh), run with these arguments. */
const mk = (script: string, ...args: string[]) => execFileSync(join(HERE, script), args, { stdio: "ignore" });
const files = (dir: string) => mk("mk-files.sh", join(dir, "f"));
const listing = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort().join(" ") : "");

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
const choose = (item: string) => ["choose", item];
const twice = (text: string): Wait => ({ text, count: 2 });

// ---- PostgreSQL (mk-pg.sh): a cluster per task outside the task's folder (the postgres user runs it),
// role ada (password harbour-5), databases tides (readings, stations) and scratch.
const pgDir = (port: number) => `/tmp/t4a-blind8-pg-${port}`;
const pgSetup = (port: number) => (dir: string) => {
  mk("mk-pg.sh", pgDir(port), String(port));
  files(dir);
};
const pgEnv = (port: number) => `export HOME=$D/f/pg PSQL_HISTORY=/dev/null PGHOST=${pgDir(port)}/sock PGPORT=${port}`;
/** A query run as postgres; "" when it fails. */
const sql = (port: number, db: string, query: string) => {
  const r = run("runuser", [
    "-u",
    "postgres",
    "--",
    "psql",
    "-h",
    `${pgDir(port)}/sock`,
    "-p",
    String(port),
    "-U",
    "postgres",
    "-d",
    db,
    "-At",
    "-c",
    query,
  ]);
  return r.status === 0 ? r.out.trim() : "";
};
const login = (port: number, user: string, password: string) =>
  run("psql", ["-h", `${pgDir(port)}/sock`, "-p", String(port), "-U", user, "-d", "tides", "-Atc", "select 1"], {
    env: { PGPASSWORD: password },
  }).out.trim() === "1";
/** Checks, then stops the task's cluster and removes it (whatever the outcome). */
const pgCheck =
  (port: number, check: (dir: string, o: string) => boolean): Task["check"] =>
  (dir, o) => {
    try {
      return check(dir, o);
    } finally {
      run("runuser", [
        "-u",
        "postgres",
        "--",
        "/usr/lib/postgresql/15/bin/pg_ctl",
        "-D",
        `${pgDir(port)}/data`,
        "-m",
        "immediate",
        "stop",
      ]);
      rmSync(pgDir(port), { recursive: true, force: true });
    }
  };
const PSQL_PASSWORD: Pair = ["Password for user", fill("Password for user ada", "harbour-5"), "harbour-5\\r"];
const psql1 = task(
  "psql: log in as ada, create table tide_log, quit",
  ["psql"],
  `${pgEnv(5401)} && psql -U ada tides; echo done > $OUT`,
  [
    PSQL_PASSWORD,
    [
      "tides=>",
      cursor("create table tide_log(at text, depth numeric);"),
      "create table tide_log(at text, depth numeric);\\r",
    ],
    [twice("tides=>"), cursor("\\q"), "\\\\q\\r"],
  ],
  pgCheck(5401, (_dir, o) => read(o) === "done" && sql(5401, "tides", "select count(*) from tide_log") === "0"),
  pgSetup(5401),
);
const psql2 = task(
  "psql: \\password: ada's new password tide-6 (twice), quit",
  ["psql"],
  `${pgEnv(5402)} && psql -U ada tides; echo done > $OUT`,
  [
    PSQL_PASSWORD,
    ["tides=>", cursor("\\password"), "\\\\password\\r"],
    ["Enter new password", fill('Enter new password for user "ada"', "tide-6"), "tide-6\\r"],
    ["Enter it again", fill("Enter it again", "tide-6"), "tide-6\\r"],
    [twice("tides=>"), cursor("\\q"), "\\\\q\\r"],
  ],
  pgCheck(5402, (_dir, o) => read(o) === "done" && login(5402, "ada", "tide-6") && !login(5402, "ada", "harbour-5")),
  pgSetup(5402),
);
const psql3 = task(
  "psql: an insert over two lines (tides->), quit",
  ["psql"],
  `${pgEnv(5403)} && psql -U ada tides; echo done > $OUT`,
  [
    PSQL_PASSWORD,
    ["tides=>", cursor("insert into readings values"), "insert into readings values\\r"],
    ["tides->", cursor("('jetty', 2.9);"), "('jetty', 2.9);\\r"],
    [twice("tides=>"), cursor("\\q"), "\\\\q\\r"],
  ],
  pgCheck(
    5403,
    (_dir, o) =>
      read(o) === "done" && sql(5403, "tides", "select depth from readings where station = 'jetty'") === "2.9",
  ),
  pgSetup(5403),
);
const roleOf = (port: number, name: string) =>
  sql(port, "postgres", `select rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname = '${name}'`);
const createuser1 = task(
  "createuser --interactive -P: ben (pw-ben), not superuser, may create databases, not roles",
  ["createuser"],
  `${pgEnv(5404)} && createuser -U ada --interactive -P; echo done > $OUT`,
  [
    ["role to add", fill("Enter name of role to add", "ben"), "ben\\r"],
    ["password for new role", fill("Enter password for new role", "pw-ben"), "pw-ben\\r"],
    ["Enter it again", fill("Enter it again", "pw-ben"), "pw-ben\\r"],
    ["superuser?", choose("n"), "n\\r"],
    ["create databases?", choose("y"), "y\\r"],
    ["more new roles?", choose("n"), "n\\r"],
    ["Password:", fill("Password", "harbour-5"), "harbour-5\\r"],
  ],
  pgCheck(5404, (_dir, o) => read(o) === "done" && roleOf(5404, "ben") === "f|t|f" && login(5404, "ben", "pw-ben")),
  pgSetup(5404),
);
const createuser2 = task(
  "createuser --interactive: cara, not superuser, no databases, may create roles",
  ["createuser"],
  `${pgEnv(5405)} && createuser -U ada --interactive; echo done > $OUT`,
  [
    ["role to add", fill("Enter name of role to add", "cara"), "cara\\r"],
    ["superuser?", choose("n"), "n\\r"],
    ["create databases?", choose("n"), "n\\r"],
    ["more new roles?", choose("y"), "y\\r"],
    ["Password:", fill("Password", "harbour-5"), "harbour-5\\r"],
  ],
  pgCheck(5405, (_dir, o) => read(o) === "done" && roleOf(5405, "cara") === "f|f|t"),
  pgSetup(5405),
);
const dropdb = (answer: "y" | "n", port: number) =>
  task(
    `dropdb -i scratch: ${answer === "y" ? "dropped (y)" : "kept (n)"}`,
    ["dropdb"],
    `${pgEnv(port)} && dropdb -U ada -i scratch; echo done > $OUT`,
    answer === "y"
      ? [
          ["Are you sure?", choose("y"), "y\\r"],
          ["Password:", fill("Password", "harbour-5"), "harbour-5\\r"],
        ]
      : [["Are you sure?", choose("n"), "n\\r"]],
    pgCheck(
      port,
      (_dir, o) =>
        read(o) === "done" &&
        sql(port, "postgres", "select count(*) from pg_database where datname = 'scratch'") ===
          (answer === "y" ? "0" : "1"),
    ),
    pgSetup(port),
  );

// ---- redis-cli (mk-redis.sh): a server per task (password tide-7), keys station:pier, station:buoy, tide:next
const redisSetup = (port: number) => (dir: string) => {
  files(dir);
  mk("mk-redis.sh", join(dir, "rd"), String(port));
};
const redisCheck =
  (port: number, check: (get: (...args: string[]) => string, o: string) => boolean): Task["check"] =>
  (_dir, o) => {
    const get = (...args: string[]) =>
      run("redis-cli", ["-p", String(port), "-a", "tide-7", "--no-auth-warning", ...args]).out.trim();
    try {
      return check(get, o);
    } finally {
      get("shutdown", "nosave");
    }
  };
const REDIS_PASSWORD: Pair = ["input password", fill("Please input password", "tide-7"), "tide-7\\r"];
const redis1 = task(
  'redis-cli --askpass: SET tide:low "08:10", quit',
  ["redis-cli"],
  "cd f/rd && HOME=$D/f/rd redis-cli -p 6401 --askpass; echo done > $OUT",
  [
    REDIS_PASSWORD,
    ["6401>", cursor('SET tide:low "08:10"'), 'SET tide:low "08:10"\\r'],
    [twice("6401>"), cursor("quit"), "quit\\r"],
  ],
  redisCheck(6401, (get, o) => read(o) === "done" && get("GET", "tide:low") === "08:10"),
  redisSetup(6401),
);
const redis2 = task(
  "redis-cli --askpass: HSET station:pier depth 4.5 (its hint shown), quit",
  ["redis-cli"],
  "cd f/rd && HOME=$D/f/rd redis-cli -p 6402 --askpass; echo done > $OUT",
  [
    REDIS_PASSWORD,
    ["6402>", cursor("HSET station:pier depth 4.5"), "HSET station:pier depth 4.5\\r"],
    [twice("6402>"), cursor("quit"), "quit\\r"],
  ],
  redisCheck(6402, (get, o) => read(o) === "done" && get("HGET", "station:pier", "depth") === "4.5"),
  redisSetup(6402),
);

// ---- cvs (mk-files.sh): f/cv/harbour, tide.txt changed since 1.1
const CVS = "export CVSROOT=$D/f/cv/root HOME=$D/f/cv EDITOR=true";
const cvsHead = (dir: string) =>
  /head: (\S+)/.exec(run("rlog", ["-h", join(dir, "f/cv/root/harbour/tide.txt,v")]).out)?.[1] ?? "";
const cvs1 = (item: string, key: string, committed: boolean) =>
  task(
    `cvs commit tide.txt, the log message left empty: ${committed ? "continue" : "abort"} (${item})`,
    ["cvs"],
    `${CVS} && cd f/cv/harbour && cvs commit tide.txt; echo done > $OUT`,
    [["Action:", choose(item), `${key}\\r`]],
    (dir, o) => read(o) === "done" && cvsHead(dir) === (committed ? "1.2" : "1.1"),
    files,
  );
const cvs2 = (answer: "y" | "n") =>
  task(
    `cvs release -d harbour (one file changed): ${answer === "y" ? "released and deleted (y)" : "kept (n)"}`,
    ["cvs"],
    `${CVS} && cd f/cv && cvs release -d harbour; echo done > $OUT`,
    [
      [
        "Are you sure",
        fill("Are you sure you want to release (and delete) directory `harbour'", answer),
        `${answer}\\r`,
      ],
    ],
    (dir, o) => read(o) === "done" && existsSync(join(dir, "f/cv/harbour")) === (answer === "n"),
    files,
  );

// ---- brz (mk-files.sh): f/bz/tree, two revisions and two unknown files
const BRZ = "export HOME=$D/f/bz/home && cd f/bz/tree";
const revno = (dir: string) =>
  run("brz", ["revno"], { cwd: join(dir, "f/bz/tree"), env: { HOME: join(dir, "f/bz/home") } }).out.trim();
const brz1 = (answer: "y" | "n") =>
  task(
    `brz uncommit: ${answer === "y" ? "the last revision uncommitted ([y]es)" : "kept ([n]o)"}`,
    ["brz"],
    `${BRZ} && brz uncommit; echo done > $OUT`,
    [["Uncommit these", choose(answer === "y" ? "[y]es" : "[n]o"), answer]],
    (dir, o) => read(o) === "done" && revno(dir) === (answer === "y" ? "1" : "2"),
    files,
  );
const brz2 = task(
  "brz clean-tree --unknown: junk.tmp and notes.draft deleted ([y]es)",
  ["brz"],
  `${BRZ} && brz clean-tree --unknown; echo done > $OUT`,
  [["Are you sure", choose("[y]es"), "y"]],
  (dir, o) => read(o) === "done" && listing(join(dir, "f/bz/tree")) === ".bzr a.txt",
  files,
);

// ---- nmh (mk-files.sh): f/im an empty HOME; f/nm a set-up one, comp's form addressed to bob
const nmh1 = task(
  "nmh install-mh: no help, the standard path (y), Mail created (y)",
  ["/usr/bin/mh/install-mh"],
  "cd f/im && HOME=$D/f/im PATH=/usr/bin/mh:$PATH install-mh; echo done > $OUT",
  [
    ["want help?", fill("Do you want help?", "n"), "n\\r"],
    ["standard nmh path", fill('Do you want the standard nmh path "$D/f/im/Mail"?', "y"), "y\\r"],
    ["Create it?", fill('"Mail" doesn\'t exist; Create it?', "y"), "y\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    /^Path: Mail$/m.test(read(join(dir, "f/im/.mh_profile"))) &&
    existsSync(join(dir, "f/im/Mail")),
  files,
);
const NMH = "cd f/nm && export HOME=$D/f/nm MHMTSCONF=$D/f/nm/mts.conf PATH=/usr/bin/mh:$PATH && comp -editor true";
const nmh2 = task(
  "nmh comp: What now? send (the tide tables message to bob)",
  ["/usr/bin/mh/comp"],
  `${NMH}; echo done > $OUT`,
  [["What now?", fill("What now?", "send"), "send\\r"]],
  (dir, o) => {
    const sent = join(dir, "f/nm/sent");
    const names = listing(sent).split(" ").filter(Boolean);
    return (
      read(o) === "done" &&
      names.length === 1 &&
      /^To: bob@example\.org$/m.test(read(join(sent, names[0]!))) &&
      /^Subject: tide tables$/m.test(read(join(sent, names[0]!)))
    );
  },
  files,
);
const nmh3 = task(
  "nmh comp: What now? refile +archive, the folder created (y)",
  ["/usr/bin/mh/comp"],
  `${NMH}; echo done > $OUT`,
  [
    ["What now?", fill("What now?", "refile +archive"), "refile +archive\\r"],
    ["Create folder", fill('Create folder "$D/f/nm/Mail/archive"?', "y"), "y\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    read(join(dir, "f/nm/Mail/archive/1")).includes("Subject: tide tables") &&
    listing(join(dir, "f/nm/sent")) === "",
  files,
);

// ---- steghide (mk-files.sh): f/sg/cover.bmp, secret.txt, out.bmp (old.txt under "old-pass")
const sg = (dir: string, file: string) => join(dir, "f/sg", file);
/** What `file` gives with `passphrase` (the embedded file's text), extracted into a folder of its own. */
const extracts = (dir: string, file: string, passphrase: string) => {
  const into = join(dir, `x-${passphrase}`);
  rmSync(into, { recursive: true, force: true });
  execFileSync("mkdir", ["-p", into]);
  const r = run("steghide", ["extract", "-q", "-f", "-sf", sg(dir, file), "-p", passphrase], { cwd: into });
  const names = listing(into).split(" ").filter(Boolean);
  return r.status === 0 && names.length === 1 ? `${names[0]}: ${read(join(into, names[0]!))}` : "";
};
const SG_PASS: Pair[] = [
  ["Enter passphrase:", fill("Enter passphrase", "tide-8"), "tide-8\\r"],
  ["Re-Enter passphrase:", fill("Re-Enter passphrase", "tide-8"), "tide-8\\r"],
];
const steghide1 = task(
  "steghide embed secret.txt in new.bmp with the passphrase tide-8 (twice)",
  ["steghide"],
  "cd f/sg && steghide embed -cf cover.bmp -ef secret.txt -sf new.bmp; echo done > $OUT",
  SG_PASS,
  (dir, o) => read(o) === "done" && extracts(dir, "new.bmp", "tide-8") === "secret.txt: meet at the pier at six",
  files,
);
const steghide2 = (answer: "y" | "n") =>
  task(
    `steghide embed over out.bmp: ${answer === "y" ? "overwritten (y)" : "not overwritten (n)"}`,
    ["steghide"],
    "cd f/sg && steghide embed -cf cover.bmp -ef secret.txt -sf out.bmp; echo done > $OUT",
    [...SG_PASS, ["overwrite ?", choose(answer), answer]],
    (dir, o) =>
      read(o) === "done" &&
      (answer === "y"
        ? extracts(dir, "out.bmp", "tide-8") === "secret.txt: meet at the pier at six"
        : extracts(dir, "out.bmp", "old-pass") === "old.txt: the old message"),
    files,
  );
const steghide3 = task(
  "steghide extract from out.bmp with the passphrase old-pass",
  ["steghide"],
  "cd f/sg && steghide extract -sf out.bmp; echo done > $OUT",
  [["Enter passphrase:", fill("Enter passphrase", "old-pass"), "old-pass\\r"]],
  (dir, o) => read(o) === "done" && read(sg(dir, "old.txt")) === "the old message",
  files,
);

// ---- puttygen and plink (mk-sshd.sh: an sshd per task letting root in by client.ppk, passphrase tide-9)
const puttygen = task(
  "puttygen: a new ed25519 key saved under the passphrase tide-9 (twice)",
  ["puttygen"],
  "cd f/pt && HOME=$D/f/pt puttygen -t ed25519 -C ada@harbour -o key.ppk; echo done > $OUT",
  [
    ["passphrase to save", fill("Enter passphrase to save key", "tide-9"), "tide-9\\r"],
    ["Re-enter", fill("Re-enter passphrase to verify", "tide-9"), "tide-9\\r"],
  ],
  (dir, o) => {
    const key = join(dir, "f/pt/key.ppk");
    const opens = (passphrase: string) =>
      run("bash", [
        "-c",
        `puttygen "${key}" --old-passphrase <(printf '%s\\n' "${passphrase}") -O private-openssh -o "${key}.${passphrase}.openssh"`,
      ]).status === 0;
    return read(o) === "done" && read(key).includes("Encryption: aes256-cbc") && opens("tide-9") && !opens("harbour");
  },
  files,
);
const PUTTY_CACHE = join(
  run("getent", ["passwd", String(process.getuid?.() ?? 0)]).out.split(":")[5] ?? "/root",
  ".putty/sshhostkeys",
);
const plink = (answer: "y" | "n", port: number) =>
  task(
    `plink to an unknown host: ${answer === "y" ? "its key stored in the cache (y)" : "connected once, not cached (n)"}, passphrase tide-9, the command run`,
    ["plink"],
    `cd f/pt && HOME=$D/f/pt plink -P ${port} -i $D/sd/client.ppk root@127.0.0.1 'echo landed > $D/f/pt/landed.txt'; echo done > $OUT`,
    [
      ["Store key in cache?", choose(answer), `${answer}\\r`],
      ["Passphrase for key", fill('Passphrase for key "ada@harbour"', "tide-9"), "tide-9\\r"],
      ["Press Return", choose("Return"), "\\r"],
    ],
    (dir, o) => {
      try {
        const cached = read(PUTTY_CACHE).includes(`@${port}:127.0.0.1 `);
        return read(o) === "done" && read(join(dir, "f/pt/landed.txt")) === "landed" && cached === (answer === "y");
      } finally {
        const pid = read(join(dir, "sd/sshd.pid"));
        if (pid) run("kill", [pid]);
        if (existsSync(PUTTY_CACHE)) run("sed", ["-i", `/@${port}:127\\.0\\.0\\.1 /d`, PUTTY_CACHE]);
      }
    },
    (dir) => {
      execFileSync("mkdir", ["-p", "/run/sshd"]);
      mk("mk-sshd.sh", join(dir, "sd"), String(port));
      files(dir);
    },
  );

// ---- gnutls-cli --tofu (mk-tls.sh: a gnutls-serv per task, its certificate never seen before)
const gnutls = (answer: "y" | "N", port: number) =>
  task(
    `gnutls-cli --tofu to a server never contacted: ${answer === "y" ? "trusted (y)" : "not trusted (N)"}`,
    ["gnutls-cli"],
    `cd f/th && HOME=$D/f/th gnutls-cli --tofu -p ${port} 127.0.0.1; echo done > $OUT`,
    [["trust it?", choose(answer), `${answer.toLowerCase()}\\r`]],
    (dir, o) => {
      try {
        const known = read(join(dir, "f/th/.gnutls/known_hosts"));
        // Trusted: the pin is stored and the client stays connected; not trusted: it ends, nothing stored.
        return answer === "y"
          ? known.includes(`|127.0.0.1|${port}|`)
          : read(o) === "done" && !known.includes(`|${port}|`);
      } finally {
        const pid = read(join(dir, "tl/serv.pid"));
        if (pid) run("kill", [pid]);
      }
    },
    (dir) => {
      mk("mk-tls.sh", join(dir, "tl"), String(port));
      files(dir);
    },
  );

// ---- ikiwiki's auto.setup (mk-files.sh: f/ik, a HOME with a git identity)
const ikiwiki = task(
  "ikiwiki auto.setup: the wiki harbour, git kept, admin ada with the password pw-wiki-1 (twice)",
  ["ikiwiki"],
  "cd f/ik && HOME=$D/f/ik ikiwiki --setup /etc/ikiwiki/auto.setup; echo done > $OUT",
  [
    ["be named?", fill("What will the wiki be named?", "harbour"), "\\x15harbour\\r"],
    ["revision control", fill("What revision control system to use?", "git"), "\\r"],
    ["will be admin?", fill("Which user (wiki account, openid, or email) will be admin?", "ada"), "ada\\r"],
    ["Choose a password", fill("Choose a password", "pw-wiki-1"), "pw-wiki-1\\r"],
    ["Confirm password", fill("Confirm password", "pw-wiki-1"), "pw-wiki-1\\r"],
  ],
  (dir, o) => {
    const setup = read(join(dir, "f/ik/harbour.setup"));
    return (
      read(o) === "done" &&
      /^wikiname: harbour$/m.test(setup) &&
      /^adminuser:\n- ada$/m.test(setup) &&
      /^rcs: git$/m.test(setup) &&
      existsSync(join(dir, "f/ik/harbour.git")) &&
      existsSync(join(dir, "f/ik/public_html/harbour/index.html"))
    );
  },
  files,
);

// ---- certbot delete (mk-certbot.sh: lineages buoy.test, harbour.test, pier.test)
const certbot = (name: string, key: string, answer: "(Y)es" | "(N)o") =>
  task(
    `certbot delete: ${name} picked from the list, ${answer === "(Y)es" ? "deleted ((Y)es)" : "kept ((N)o)"}`,
    ["certbot"],
    "cd cb && HOME=$D/cb certbot delete --config-dir $D/cb/config --work-dir $D/cb/work --logs-dir $D/cb/logs; echo done > $OUT",
    [
      ["Enter 'c' to cancel", choose(name), `${key}\\r`],
      ["(Y)es/(N)o", choose(answer), `${answer[1]!.toLowerCase()}\\r`],
    ],
    (dir, o) =>
      read(o) === "done" &&
      listing(join(dir, "cb/config/live")) ===
        (answer === "(Y)es"
          ? ["buoy.test", "harbour.test", "pier.test"].filter((n) => n !== name).join(" ")
          : "buoy.test harbour.test pier.test"),
    (dir) => mk("mk-certbot.sh", join(dir, "cb")),
  );

// ---- debfoster over a made-up dpkg status (mk-debfoster.sh: its commands only log)
const DEBFOSTER = "cd df && debfoster -c $D/df/debfoster.conf; echo done > $OUT";
const debfoster1 = task(
  "debfoster: keep tide-tables (Y), remove buoy-monitor (n), skip pier-lights (s), keep wind-rose (Y)",
  ["debfoster"],
  DEBFOSTER,
  [
    ["Keep tide-tables?", choose("Y"), "y"],
    ["Keep buoy-monitor?", choose("n"), "n"],
    ["Keep pier-lights?", choose("s"), "s"],
    ["Keep wind-rose?", choose("Y"), "y"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    read(join(dir, "df/keepers")).split("\n").sort().join(" ") === "-buoy-monitor tide-tables wind-rose" &&
    read(join(dir, "df/removed.txt")) === "buoy-monitor",
  (dir) => mk("mk-debfoster.sh", join(dir, "df")),
);
const debfoster2 = task(
  "debfoster: quit at the first question (q), exit without saving (y)",
  ["debfoster"],
  DEBFOSTER,
  [
    ["Keep tide-tables?", choose("q"), "q"],
    ["Exit without saving?", choose("y"), "y"],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "df/keepers")) === "" && !existsSync(join(dir, "df/removed.txt")),
  (dir) => mk("mk-debfoster.sh", join(dir, "df")),
);

export const TASKS: Task[] = [
  psql1,
  psql2,
  psql3,
  createuser1,
  createuser2,
  dropdb("y", 5406),
  dropdb("n", 5407),
  redis1,
  redis2,
  cvs1("c)ontinue", "c", true),
  cvs1("a)bort", "a", false),
  cvs2("y"),
  cvs2("n"),
  brz1("y"),
  brz1("n"),
  brz2,
  nmh1,
  nmh2,
  nmh3,
  steghide1,
  steghide2("y"),
  steghide2("n"),
  steghide3,
  puttygen,
  plink("y", 2401),
  plink("n", 2402),
  gnutls("y", 4401),
  gnutls("N", 4402),
  ikiwiki,
  certbot("pier.test", "3", "(Y)es"),
  certbot("buoy.test", "1", "(N)o"),
  debfoster1,
  debfoster2,
];

/** The suite on bench/tasks-blind.ts's harness (no npm tools: every program is a Debian package). */
export function runBlind8Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: undefined });
}
export { runBlind8Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind8Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
