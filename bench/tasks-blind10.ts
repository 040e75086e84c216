// The blind task suite of issue 59 for blind set 10 (test/fixtures/blind10): end-to-end tasks on its
// programs (none of them in train nor in the earlier blind sets), written by an engineer who had not
// read the detector nor the acting code, before either ran on these programs. Each task is done by
// meaning only (`choose`/`fill`/`click` by the label the screen shows, as
// test/fixtures/blind10/README.md labels it; where a prompt is only a marker (`kadmin.local:`,
// `ktutil:`, guile's `scheme@(guile-user)>`, `gnuplot>`) the field holding the cursor read from the
// snapshot; no raw keys) and its outcome is checked from outside (termshark's saved filters,
// goaccess's exit and its persisted data, a Kerberos database and its keys tried against a KDC, a
// keytab, files the REPLs write, a dar archive opened with its key and the files it restores, a
// nimble and a dub project's files, podman's volumes, a GRUB hash recomputed, tripwire's keys
// opened with their passphrases). Each task also has a raw-key reference run that proves its
// checker: `npx bun bench/tasks-blind10.ts --reference` must pass every task. The harness is
// bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind10.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { pbkdf2Sync } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind10");

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
/** A fixture set-up script of test/fixtures/blind10 (mk-*.sh), run into `dir`. */
const mk = (script: string, ...args: string[]) => execFileSync(join(HERE, script), args, { stdio: "ignore" });
const files = (dir: string) => mk("mk-files.sh", join(dir, "f"));

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
const nth = (text: string, count: number): Wait => ({ text, count });

// ---- termshark (mk-files.sh: f/cap/tides.pcap; HOME f/cap, where it keeps its recent filters)
const TERMSHARK = "cd f/cap && HOME=$D/f/cap termshark -r tides.pcap; echo done > $OUT";
const recentFilters = (dir: string) =>
  /recent-filters = \[([^\]]*)\]/.exec(read(join(dir, "f/cap/.config/termshark/termshark.toml")))?.[1] ?? "";
const termshark1 = task(
  "termshark: the display filter http typed in the Filter field and applied (Enter)",
  ["termshark"],
  TERMSHARK,
  [["Frame 1:", fill("Filter", "http"), "/|http|\\r", 1000]],
  (dir) => recentFilters(dir).includes('"http"'),
  files,
);
const termshark2 = task(
  "termshark: the display filter dns typed in the Filter field, then Apply pressed",
  ["termshark"],
  TERMSHARK,
  [
    ["Frame 1:", ["fill", "Filter", "dns"], "/|dns", 1000],
    [undefined, ["click", "--text", "Apply"], "\\r"],
  ],
  (dir) => recentFilters(dir).includes('"dns"'),
  files,
);
const termshark3 = task(
  "termshark: Quit from the Misc menu, the question answered Ok: termshark exits",
  ["termshark"],
  TERMSHARK,
  [
    ["Frame 1:", ["click", "--text", "Misc"], "\\x1b[<0;78;1M\\x1b[<0;78;1m", 1000],
    ["Refresh Screen", ["choose", "Quit"], "q"],
    ["want to quit", ["click", "--text", "Ok"], "\\r"],
  ],
  (_dir, o) => read(o) === "done",
  files,
);

// ---- goaccess (mk-files.sh: f/log/access.log in the combined format, f/log/common.log in the common one)
const goaccess = (log: string, format: string) =>
  task(
    `goaccess: ${log} read as ${format} (picked in its first form, Enter), the dashboard shown, then quit`,
    ["goaccess"],
    `cd f/log && goaccess ${log} --persist --db-path=$D/db/; echo $? > $OUT`,
    [
      [
        "Log Format Configuration",
        ["choose", format, "--submit"],
        `${format.startsWith("NCSA") ? "" : "\\x1bOB\\x1bOB"} |\\r`,
      ],
      ["Dashboard", ["choose", "[q]uit"], "q"],
    ],
    (dir, o) => read(o) === "0" && existsSync(join(dir, "db")) && readdirSync(join(dir, "db")).length > 0,
    (dir) => {
      files(dir);
      execFileSync("mkdir", ["-p", join(dir, "db")]);
    },
  );

// ---- krb5 (mk-krb5.sh): a realm HARBOUR.TEST in kr/; "db": master key tide-master-1, ada and bob
const krbEnv = (dir: string) => ({
  KRB5_CONFIG: join(dir, "kr/krb5.conf"),
  KRB5_KDC_PROFILE: join(dir, "kr/kdc.conf"),
});
const KRB = "cd kr && export KRB5_CONFIG=$D/kr/krb5.conf KRB5_KDC_PROFILE=$D/kr/kdc.conf";
const realm =
  (port: number, db = true) =>
  (dir: string) =>
    mk("mk-krb5.sh", join(dir, "kr"), String(port), String(port + 1), ...(db ? ["db"] : []));
/** Runs the task's realm's KDC, tries `kinit` (a password, or a keytab), stops the KDC. */
function kinit(dir: string, principal: string, how: { password: string } | { keytab: string }): boolean {
  const env = { ...krbEnv(dir), KRB5CCNAME: join(dir, "kr/cc") };
  const pid = join(dir, "kr/kdc.pid");
  if (run("krb5kdc", ["-P", pid], { env }).status !== 0) return false;
  try {
    spawnSync("sleep", ["0.5"]);
    return "password" in how
      ? run("kinit", [principal], { env, input: `${how.password}\n` }).status === 0
      : run("kinit", ["-k", "-t", how.keytab, principal], { env }).status === 0;
  } finally {
    const id = read(pid);
    if (id) spawnSync("kill", [id]);
    spawnSync("sleep", ["0.3"]);
  }
}
const principals = (dir: string) => run("kadmin.local", ["-q", "listprincs"], { env: krbEnv(dir) }).out;
const kdb5 = task(
  "kdb5_util create -s: a realm's database with the master key tide-master-1 (twice)",
  ["kdb5_util"],
  `${KRB} && kdb5_util create -s; echo done > $OUT`,
  [
    ["master key:", fill("Enter KDC database master key", "tide-master-1"), "tide-master-1\\r"],
    ["to verify:", fill("Re-enter KDC database master key to verify", "tide-master-1"), "tide-master-1\\r"],
  ],
  (dir, o) => {
    const env = krbEnv(dir);
    // The master key asked for (-m) opens the database only when it is the one given twice.
    const right = run("kdb5_util", ["-m", "list_mkeys"], { env, input: "tide-master-1\n" });
    const wrong = run("kdb5_util", ["-m", "list_mkeys"], { env, input: "tide-master-2\n" });
    return read(o) === "done" && right.status === 0 && right.out.includes("K/M@HARBOUR.TEST") && wrong.status !== 0;
  },
  realm(8810, false),
);
const addprinc = task(
  "kadmin.local: addprinc carol with the password carol-pass-1 (twice), quit: carol gets a ticket with it",
  ["kadmin.local", "krb5kdc", "kinit"],
  `${KRB} && kadmin.local; echo done > $OUT`,
  [
    ["kadmin.local:", cursor("addprinc carol"), "addprinc carol\\r"],
    [
      "Enter password for",
      fill('Enter password for principal "carol@HARBOUR.TEST"', "carol-pass-1"),
      "carol-pass-1\\r",
    ],
    [
      "Re-enter password for",
      fill('Re-enter password for principal "carol@HARBOUR.TEST"', "carol-pass-1"),
      "carol-pass-1\\r",
    ],
    [nth("kadmin.local:", 2), cursor("quit"), "quit\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    kinit(dir, "carol", { password: "carol-pass-1" }) &&
    !kinit(dir, "carol", { password: "carol-pass-2" }),
  realm(8820),
);
const delprinc = (answer: "yes" | "no") =>
  task(
    `kadmin.local: delprinc bob answered ${answer}, quit: bob ${answer === "yes" ? "gone" : "kept"}`,
    ["kadmin.local"],
    `${KRB} && kadmin.local; echo done > $OUT`,
    [
      ["kadmin.local:", cursor("delprinc bob"), "delprinc bob\\r"],
      ["(yes/no):", ["choose", answer], `${answer}\\r`],
      [nth("kadmin.local:", 2), cursor("quit"), "quit\\r"],
    ],
    (dir, o) => read(o) === "done" && principals(dir).includes("bob@HARBOUR.TEST") === (answer === "no"),
    realm(answer === "yes" ? 8830 : 8840),
  );
const ADDENT = "addent -password -p ada@HARBOUR.TEST -k 1 -e aes256-cts-hmac-sha1-96";
const ktutil = task(
  "ktutil: ada's key from the password ada-pass-1 written to ada.keytab: ada gets a ticket with the keytab",
  ["ktutil", "krb5kdc", "kinit"],
  `${KRB} && ktutil; echo done > $OUT`,
  [
    ["ktutil:", cursor(ADDENT), `${ADDENT}\\r`],
    ["Password for", fill("Password for ada@HARBOUR.TEST", "ada-pass-1"), "ada-pass-1\\r"],
    [nth("ktutil:", 2), cursor("wkt ada.keytab"), "wkt ada.keytab\\r"],
    [nth("ktutil:", 3), cursor("quit"), "quit\\r"],
  ],
  (dir, o) => read(o) === "done" && kinit(dir, "ada", { keytab: join(dir, "kr/ada.keytab") }),
  realm(8850),
);

// ---- guile (mk-files.sh: f/gu is its HOME)
const GUILE = "cd f/gu && HOME=$D/f/gu guile; echo done > $OUT";
const PROMPT = "scheme@(guile-user)>";
const SUM = '(call-with-output-file "sum.txt" (lambda (port) (write (+ 12 20 10) port)))';
const guile1 = task(
  "guile: 42 written to sum.txt, (exit)",
  ["guile"],
  GUILE,
  [
    [PROMPT, cursor(SUM), `${SUM}\\r`],
    [nth(PROMPT, 2), cursor("(exit)"), "(exit)\\r"],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "f/gu/sum.txt")) === "42",
  files,
);
const LEVEL = '(call-with-output-file "level.txt" (lambda (port) (write (length (list 1 2 3)) port)))';
const guile2 = task(
  "guile: an error's debugger prompt [1]> left with ,q, then 3 written to level.txt, (exit)",
  ["guile"],
  GUILE,
  [
    [PROMPT, cursor("(car (quote ()))"), "(car (quote ()))\\r"],
    ["[1]>", cursor(",q"), ",q\\r"],
    [nth(PROMPT, 2), cursor(LEVEL), `${LEVEL}\\r`],
    [nth(PROMPT, 3), cursor("(exit)"), "(exit)\\r"],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "f/gu/level.txt")) === "3",
  files,
);

// ---- gnuplot (mk-files.sh: f/plot/levels.dat)
const GNUPLOT = "cd f/plot && HOME=$D/f/plot gnuplot; echo done > $OUT";
const gnuplotLines = (lines: string[], extra: Pair[] = []): Pair[] => [
  ...extra,
  ...lines.map((line, i): Pair => [nth("gnuplot>", i + 1 + extra.length), cursor(line), `${line}\\r`]),
];
const gnuplot1 = task(
  "gnuplot: levels.dat plotted with lines into plot.txt on the dumb terminal, quit",
  ["gnuplot"],
  GNUPLOT,
  gnuplotLines([
    "set terminal dumb size 79,20",
    'set output "plot.txt"',
    'plot "levels.dat" with lines title "tide level"',
    "unset output",
    "quit",
  ]),
  (dir, o) =>
    read(o) === "done" &&
    /level/.test(read(join(dir, "f/plot/plot.txt"))) &&
    read(join(dir, "f/plot/plot.txt")).includes("+----"),
  files,
);
const gnuplot2 = task(
  "gnuplot: pause -1 with a message answered (Return), then the mean level printed to mean.txt, quit",
  ["gnuplot"],
  GNUPLOT,
  [
    [
      "gnuplot>",
      cursor('pause -1 "Hit return when the tide has turned"'),
      'pause -1 "Hit return when the tide has turned"\\r',
    ],
    ["tide has turned", fill("Hit return when the tide has turned", ""), "\\r"],
    [nth("gnuplot>", 2), cursor('stats "levels.dat" using 2 nooutput'), 'stats "levels.dat" using 2 nooutput\\r'],
    [nth("gnuplot>", 3), cursor('set print "mean.txt"'), 'set print "mean.txt"\\r'],
    [nth("gnuplot>", 4), cursor("print STATS_mean"), "print STATS_mean\\r"],
    [nth("gnuplot>", 5), cursor("unset print"), "unset print\\r"],
    [nth("gnuplot>", 6), cursor("quit"), "quit\\r"],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "f/plot/mean.txt")) === "2.675",
  files,
);

// ---- dar (mk-files.sh: f/dar/src, f/dar/plain.1.dar of it, f/dar/out where tides.txt has changed)
const darKey = task(
  "dar -c -K aes:: the archive tides encrypted with the key tide-key-7 (twice)",
  ["dar"],
  "cd f/dar && dar -c tides -R src -K aes:; echo done > $OUT",
  [
    ["requires a password", fill("Archive tides requires a password", "tide-key-7"), "tide-key-7\\r"],
    ["confirm your password", fill("Please confirm your password", "tide-key-7"), "tide-key-7\\r"],
  ],
  (dir, o) => {
    const cwd = join(dir, "f/dar");
    const list = (key: string) => run("dar", ["-l", "tides", "-K", `aes:${key}`, "-Q"], { cwd });
    const right = list("tide-key-7");
    return (
      read(o) === "done" && right.status === 0 && right.out.includes("tides.txt") && list("tide-key-8").status !== 0
    );
  },
  files,
);
const darOverwrite = (answer: "YES" | "NO") =>
  task(
    `dar -x over a changed tides.txt: ${answer === "YES" ? "overwritten (YES, twice: its data and its attributes)" : "kept (NO)"}`,
    ["dar"],
    "cd f/dar && dar -x plain -R out -g tides.txt; echo done > $OUT",
    answer === "YES"
      ? [
          ["is about to", ["choose", "YES"], "\\r"],
          ["FSA for", ["choose", "YES"], "\\r"],
        ]
      : [["is about to", ["choose", "NO"], "\\x1b"]],
    (dir, o) =>
      read(o) === "done" &&
      read(join(dir, "f/dar/out/tides.txt")) ===
        (answer === "YES" ? "high water 12:20\nlow water 18:32" : "changed by hand"),
    files,
  );

// ---- nimble init (mk-files.sh: f/nim/tidepool, HOME f/nim)
const NIMBLE = "cd f/nim/tidepool && HOME=$D/f/nim nimble init; echo done > $OUT";
const nimbleFile = (dir: string) => read(join(dir, "f/nim/tidepool/tidepool.nimble"));
const nimble1 = task(
  "nimble init: a binary package by Ada, description Tide tables, license Apache-2.0",
  ["nimble"],
  NIMBLE,
  [
    ["Your name?", fill("Answer", "Ada"), "Ada\\r"],
    ["Choices:", ["choose", "binary"], "\\t|\\r"],
    ["Initial version", fill("Answer", ""), "\\r"],
    ["Package description?", fill("Answer", "Tide tables"), "Tide tables\\r"],
    ["> MIT <", ["choose", "Apache-2.0"], "\\t|\\t|\\r"],
    ["Lowest supported", fill("Answer", ""), "\\r"],
  ],
  (dir, o) => {
    const nimble = nimbleFile(dir);
    return (
      read(o) === "done" &&
      /^author\s*=\s*"Ada"$/m.test(nimble) &&
      /^description\s*=\s*"Tide tables"$/m.test(nimble) &&
      /^license\s*=\s*"Apache-2.0"$/m.test(nimble) &&
      /^bin\s*=/m.test(nimble)
    );
  },
  files,
);
const nimble2 = task(
  "nimble init: a library package (the first choice kept) by Ada, license MIT kept",
  ["nimble"],
  NIMBLE,
  [
    ["Your name?", fill("Answer", "Ada"), "Ada\\r"],
    ["Choices:", ["choose", "library"], "\\r"],
    ["Initial version", fill("Answer", ""), "\\r"],
    ["Package description?", fill("Answer", ""), "\\r"],
    ["> MIT <", ["choose", "MIT"], "\\r"],
    ["Lowest supported", fill("Answer", ""), "\\r"],
  ],
  (dir, o) => {
    const nimble = nimbleFile(dir);
    return (
      read(o) === "done" &&
      /^author\s*=\s*"Ada"$/m.test(nimble) &&
      /^license\s*=\s*"MIT"$/m.test(nimble) &&
      !/^bin\s*=/m.test(nimble) &&
      existsSync(join(dir, "f/nim/tidepool/src/tidepool.nim"))
    );
  },
  files,
);

// ---- dub init (mk-files.sh: f/dub/harbour, HOME f/dub)
const DUB = "cd f/dub/harbour && HOME=$D/f/dub dub init; echo done > $OUT";
const year = new Date().getUTCFullYear();
const dubSteps = (format: "sdl" | "json", license: string): Pair[] => [
  ["recipe format", ["choose", format], `${format}\\r`],
  ["Name [", fill("Name [harbour]", ""), "\\r"],
  ["Description [", fill("Description [A minimal D application.]", "Tide tables"), "Tide tables\\r"],
  ["Author name", fill("Author name [root]", "Ada"), "Ada\\r"],
  ["License [", fill("License [proprietary]", license), `${license}\\r`],
  ["Copyright", fill(`Copyright string [Copyright © ${year}, Ada]`, ""), "\\r"],
  ["Add dependency", fill("Add dependency (leave empty to skip) []", ""), "\\r"],
];
const dub1 = task(
  "dub init: an SDL recipe, description Tide tables, author Ada, license MIT",
  ["dub"],
  DUB,
  dubSteps("sdl", "MIT"),
  (dir, o) => {
    const sdl = read(join(dir, "f/dub/harbour/dub.sdl"));
    return (
      read(o) === "done" &&
      sdl.includes('name "harbour"') &&
      sdl.includes('description "Tide tables"') &&
      sdl.includes('authors "Ada"') &&
      sdl.includes('license "MIT"')
    );
  },
  files,
);
const dub2 = task(
  "dub init: a JSON recipe, description Tide tables, author Ada, license BSL-1.0",
  ["dub"],
  DUB,
  dubSteps("json", "BSL-1.0"),
  (dir, o) => {
    const json = read(join(dir, "f/dub/harbour/dub.json"));
    return (
      read(o) === "done" &&
      !existsSync(join(dir, "f/dub/harbour/dub.sdl")) &&
      json.includes('"description": "Tide tables"') &&
      json.includes('"license": "BSL-1.0"')
    );
  },
  files,
);

// ---- podman (mk-podman.sh): a storage of the task's own with two unused volumes
const PODMAN = "podman --storage-driver vfs --root $D/po/storage --runroot $D/po/run";
const volumes = (dir: string) =>
  run("podman", [
    "--storage-driver",
    "vfs",
    "--root",
    join(dir, "po/storage"),
    "--runroot",
    join(dir, "po/run"),
    "volume",
    "ls",
  ]).out;
const podmanPrune = (answer: "y" | "N") =>
  task(
    `podman volume prune: ${answer === "y" ? "confirmed (y): both volumes removed" : "refused (N): both kept"}`,
    ["podman"],
    `${PODMAN} volume prune; echo done > $OUT`,
    [["[y/N]", ["choose", answer], `${answer.toLowerCase()}\\r`]],
    (dir, o) => {
      const left = volumes(dir);
      return (
        read(o) === "done" &&
        left.includes("harbour-data") === (answer === "N") &&
        left.includes("tide-cache") === (answer === "N")
      );
    },
    (dir) => mk("mk-podman.sh", join(dir, "po")),
  );
const podmanReset = task(
  "podman system reset: confirmed (y): the volumes are gone",
  ["podman"],
  `${PODMAN} system reset; echo done > $OUT`,
  [["[y/N]", ["choose", "y"], "y\\r"]],
  (dir, o) => read(o) === "done" && !volumes(dir).includes("harbour-data"),
  (dir) => mk("mk-podman.sh", join(dir, "po")),
);

// ---- grub-mkpasswd-pbkdf2: its hash recomputed from the password
const grubHashOf = (text: string, password: string) => {
  const m = /grub\.pbkdf2\.sha512\.(\d+)\.([0-9A-F]+)\.([0-9A-F]+)/.exec(text.replace(/\s+/g, ""));
  if (!m) return false;
  const salt = Buffer.from(m[2]!, "hex");
  return pbkdf2Sync(password, salt, Number(m[1]), 64, "sha512").toString("hex").toUpperCase() === m[3];
};
const grub = task(
  "grub-mkpasswd-pbkdf2: the password boot-lock-3 (twice): its PBKDF2 hash printed",
  ["grub-mkpasswd-pbkdf2"],
  "grub-mkpasswd-pbkdf2 | tee $D/hash.txt; echo done > $OUT",
  [
    ["Enter password:", fill("Enter password", "boot-lock-3"), "boot-lock-3\\r"],
    ["Reenter password:", fill("Reenter password", "boot-lock-3"), "boot-lock-3\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    grubHashOf(read(join(dir, "hash.txt")), "boot-lock-3") &&
    !grubHashOf(read(join(dir, "hash.txt")), "boot-lock-4"),
);

// ---- twadmin (tripwire): a key in tw/ opens with a passphrase when a copy of it takes a new one with it
const opens = (dir: string, kind: "site" | "local", passphrase: string) => {
  const copy = join(dir, `tw/probe-${passphrase}.key`);
  writeFileSync(copy, readFileSync(join(dir, `tw/${kind}.key`)));
  return (
    run("twadmin", [
      "--change-passphrases",
      `--${kind}-keyfile`,
      copy,
      `--${kind}-passphrase-old`,
      passphrase,
      `--${kind}-passphrase`,
      "probe-pass-9",
    ]).status === 0
  );
};
const twadmin = (kind: "site" | "local") =>
  task(
    `twadmin --generate-keys: the ${kind} key with the passphrase ${kind}-pass-1 (twice)`,
    ["twadmin"],
    `mkdir -p tw && cd tw && twadmin --generate-keys --${kind}-keyfile ${kind}.key; echo done > $OUT`,
    [
      [
        `${kind} keyfile passphrase:`,
        fill(`Enter the ${kind} keyfile passphrase`, `${kind}-pass-1`),
        `${kind}-pass-1\\r`,
      ],
      [`Verify the ${kind}`, fill(`Verify the ${kind} keyfile passphrase`, `${kind}-pass-1`), `${kind}-pass-1\\r`],
    ],
    (dir, o) =>
      read(o) === "done" &&
      existsSync(join(dir, `tw/${kind}.key`)) &&
      opens(dir, kind, `${kind}-pass-1`) &&
      !opens(dir, kind, `${kind}-pass-2`),
  );

export const TASKS: Task[] = [
  termshark1,
  termshark2,
  termshark3,
  goaccess("access.log", "NCSA Combined Log Format"),
  goaccess("common.log", "Common Log Format (CLF)"),
  kdb5,
  addprinc,
  delprinc("yes"),
  delprinc("no"),
  ktutil,
  guile1,
  guile2,
  gnuplot1,
  gnuplot2,
  darKey,
  darOverwrite("YES"),
  darOverwrite("NO"),
  nimble1,
  nimble2,
  dub1,
  dub2,
  podmanPrune("y"),
  podmanPrune("N"),
  podmanReset,
  grub,
  twadmin("site"),
  twadmin("local"),
];

/** The suite on bench/tasks-blind.ts's harness (no npm tools: every program is a Debian package). */
export function runBlind10Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: undefined });
}
export { runBlind10Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind10Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
