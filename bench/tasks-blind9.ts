// The blind task suite of issue 59 for blind set 9 (test/fixtures/blind9): end-to-end tasks on its
// programs (none of them in train nor in the earlier blind sets), written by an engineer who had not
// read the detector nor the acting code, before either ran on these programs. Each task is done by
// meaning only (`choose`/`fill` by the label the screen shows, as test/fixtures/blind9/README.md
// labels it; where a prompt is only a marker (clisp's `[1]>`, gp's `?`, certutil's `>`) the field
// holding the cursor read from the snapshot; no raw keys) and its outcome is checked from outside
// (an NSS database, a certificate request, a PKCS#12 file, a minisign key and signature, a VNC
// password file, known hosts and a file the remote command writes, a .cabal file, files the REPLs
// write, extracted files, an SCCS history, opam's switch and the shell profile). Each task also has a
// raw-key reference run that proves its checker: `npx bun bench/tasks-blind9.ts --reference` must
// pass every task. The harness is bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind9.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind9");

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
/** A fixture set-up script of test/fixtures/blind9 (mk-*.sh), run into `dir`. */
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
const twice = (text: string): Wait => ({ text, count: 2 });

// ---- certutil and pk12util (mk-nss.sh): nss/ with noise and pw.txt (harbour-9); "db" a database
// with that password; "ca" also the self-signed CA harbour-ca
const nss = (kind?: string) => (dir: string) => mk("mk-nss.sh", join(dir, "nss"), ...(kind ? [kind] : []));
const DB_PIN = 'Enter Password or Pin for "NSS Certificate DB"';
const PIN: Pair = ["Pin for", fill(DB_PIN, "harbour-9"), "harbour-9\\r"];
/** certutil -K with a password: "no keys found" once the password opened an empty database. */
const opensDb = (dir: string, password: string) => {
  writeFileSync(join(dir, "try-pw"), `${password}\n`);
  return run("certutil", ["-K", "-d", `sql:${join(dir, "nss")}`, "-f", join(dir, "try-pw")]).out.includes(
    "no keys found",
  );
};
const certutil1 = task(
  "certutil -N: a new key database with the password harbour-9 (twice)",
  ["certutil"],
  "cd nss && certutil -N -d sql:.; echo done > $OUT",
  [
    ["new password:", fill("Enter new password", "harbour-9"), "harbour-9\\r"],
    ["Re-enter", fill("Re-enter password", "harbour-9"), "harbour-9\\r"],
  ],
  (dir, o) => read(o) === "done" && opensDb(dir, "harbour-9") && !opensDb(dir, "tide-9999"),
  nss(),
);
const certOf = (dir: string, nick: string) =>
  run("certutil", ["-L", "-d", `sql:${join(dir, "nss")}`, "-n", nick]).out.replace(/\s+/g, " ");
const CA_CMD =
  "cd nss && certutil -S -n pier-ca -s 'CN=Pier CA,O=Harbour' -x -t 'CT,,' -k rsa -g 2048 -d sql:. -z noise -2; echo done > $OUT";
const certutil2 = task(
  "certutil -S -2: a CA certificate (y), path length 1, a critical extension (y)",
  ["certutil"],
  CA_CMD,
  [
    PIN,
    ["CA certificate", ["choose", "y"], "y\\r"],
    ["path length", fill("Enter the path length constraint, enter to skip [<0 for unlimited path]", "1"), "1\\r"],
    ["critical extension", ["choose", "y"], "y\\r"],
  ],
  (dir, o) => {
    const cert = certOf(dir, "pier-ca");
    return (
      read(o) === "done" &&
      cert.includes("Basic Constraints Critical: True Data: Is a CA with a maximum path length of 1.")
    );
  },
  nss("db"),
);
const certutil3 = task(
  "certutil -S -2: not a CA (N), the extension not critical (N)",
  ["certutil"],
  CA_CMD,
  [
    PIN,
    ["CA certificate", ["choose", "N"], "n\\r"],
    ["path length", fill("Enter the path length constraint, enter to skip [<0 for unlimited path]", ""), "\\r"],
    ["critical extension", ["choose", "N"], "n\\r"],
  ],
  (dir, o) => {
    const cert = certOf(dir, "pier-ca");
    return read(o) === "done" && cert.includes("Name: Certificate Basic Constraints Data: Is not a CA.");
  },
  nss("db"),
);
const certutil4 = task(
  "certutil -R: a request whose key usages are Digital Signature and Key encipherment, its extended usage Server Auth",
  ["certutil", "openssl"],
  "cd nss && certutil -R -s 'CN=pier.example.org,O=Harbour' -k rsa -g 2048 -d sql:. -z noise -f pw.txt -a -o pier.csr -1 -6; echo done > $OUT",
  [
    ["Other to finish", ["choose", "Digital Signature"], "0\\r"],
    [twice("Other to finish"), ["choose", "Key encipherment"], "2\\r"],
    [{ text: "Other to finish", count: 3 }, cursor("9"), "9\\r"],
    ["critical extension", ["choose", "N"], "n\\r"],
    ["Server Auth", ["choose", "Server Auth"], "0\\r"],
    [twice("Server Auth"), cursor("9"), "9\\r"],
    [twice("critical extension"), ["choose", "N"], "n\\r"],
  ],
  (dir, o) => {
    const req = run("openssl", ["req", "-in", join(dir, "nss/pier.csr"), "-noout", "-text"]).out;
    return (
      read(o) === "done" &&
      /Digital Signature, Key Encipherment\s*\n/.test(req) &&
      /TLS Web Server Authentication\s*\n/.test(req) &&
      !req.includes("Non Repudiation")
    );
  },
  nss("db"),
);
const pk12util = task(
  "pk12util -o: harbour-ca exported to ca.p12 with the file password export-77 (twice)",
  ["pk12util"],
  "cd nss && pk12util -o ca.p12 -n harbour-ca -d sql:.; echo done > $OUT",
  [
    PIN,
    ["PKCS12 file:", fill("Enter password for PKCS12 file", "export-77"), "export-77\\r"],
    ["Re-enter", fill("Re-enter password", "export-77"), "export-77\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    run("pk12util", ["-l", join(dir, "nss/ca.p12"), "-W", "export-77"]).status === 0 &&
    run("pk12util", ["-l", join(dir, "nss/ca.p12"), "-W", "export-78"]).status !== 0,
  nss("ca"),
);

// ---- minisign (mk-files.sh): f/ms/release.txt, old.key (password tide-pass-4) and old.pub
const ms = (dir: string, file: string) => join(dir, "f/ms", file);
const signs = (dir: string, key: string, pub: string, password: string) => {
  const file = ms(dir, "probe.txt");
  writeFileSync(file, "probe\n");
  return (
    run("minisign", ["-S", "-s", ms(dir, key), "-m", file], { input: `${password}\n` }).status === 0 &&
    run("minisign", ["-V", "-p", ms(dir, pub), "-m", file]).status === 0
  );
};
const minisign1 = task(
  "minisign -G: a key pair tide.key / tide.pub with the password harbour-9 (twice)",
  ["minisign"],
  "cd f/ms && minisign -G -p tide.pub -s tide.key; echo done > $OUT",
  [
    ["Password:", fill("Password", "harbour-9"), "harbour-9\\r"],
    ["one more time", fill("Password (one more time)", "harbour-9"), "harbour-9\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    signs(dir, "tide.key", "tide.pub", "harbour-9") &&
    !signs(dir, "tide.key", "tide.pub", "harbour-8"),
  files,
);
const minisign2 = task(
  "minisign -S: release.txt signed with old.key (password tide-pass-4)",
  ["minisign"],
  "cd f/ms && minisign -S -s old.key -m release.txt; echo done > $OUT",
  [["Password:", fill("Password", "tide-pass-4"), "tide-pass-4\\r"]],
  (dir, o) =>
    read(o) === "done" && run("minisign", ["-V", "-p", ms(dir, "old.pub"), "-m", ms(dir, "release.txt")]).status === 0,
  files,
);

// ---- vncpasswd (mk-files.sh: f/vnc is its HOME); the file is DES of the passwords with VNC's fixed key
const vncFile = (...passwords: string[]) =>
  spawnSync("vncpasswd", ["-f"], { input: `${passwords.join("\n")}\n` }).stdout.toString("hex");
const vncWritten = (dir: string) =>
  existsSync(join(dir, "f/vnc/.vnc/passwd")) ? readFileSync(join(dir, "f/vnc/.vnc/passwd")).toString("hex") : "";
const VNC = "cd f/vnc && HOME=$D/f/vnc vncpasswd; echo done > $OUT";
const vnc1 = task(
  "vncpasswd: the password harbour9 (twice), no view-only password (n)",
  ["vncpasswd"],
  VNC,
  [
    ["Password:", fill("Password", "harbour9"), "harbour9\\r"],
    ["Verify:", fill("Verify", "harbour9"), "harbour9\\r"],
    ["view-only", ["choose", "n"], "n\\r"],
  ],
  (dir, o) => read(o) === "done" && vncWritten(dir) === vncFile("harbour9"),
  files,
);
const vnc2 = task(
  "vncpasswd: the password harbour9 (twice), a view-only password viewer1 (y, twice)",
  ["vncpasswd"],
  VNC,
  [
    ["Password:", fill("Password", "harbour9"), "harbour9\\r"],
    ["Verify:", fill("Verify", "harbour9"), "harbour9\\r"],
    ["view-only", ["choose", "y"], "y\\r"],
    [twice("Password:"), fill("Password", "viewer1"), "viewer1\\r"],
    [twice("Verify:"), fill("Verify", "viewer1"), "viewer1\\r"],
  ],
  (dir, o) => read(o) === "done" && vncWritten(dir) === vncFile("harbour9", "viewer1"),
  files,
);

// ---- dbclient (mk-ssh.sh): an OpenSSH server on a port of the task's own, stopped by the check
const sshd = (port: number) => (dir: string) => mk("mk-ssh.sh", join(dir, "ssh"), String(port));
const stopSshd = (dir: string) => {
  const pid = read(join(dir, "ssh/sshd.pid"));
  if (pid) spawnSync("kill", [pid]);
};
const dbclient = (answer: "y" | "n", port: number) =>
  task(
    `dbclient: an unknown host key ${answer === "y" ? "accepted (y): the remote command runs" : "refused (n): nothing runs"}`,
    ["dbclient"],
    `cd ssh && HOME=$D/ssh/home dbclient -p ${port} -i $D/ssh/user_key.db root@127.0.0.1 'echo pier > $D/landed.txt'; echo done > $OUT`,
    [["(y/n)", ["choose", answer], `${answer}\\r`]],
    (dir, o) => {
      const ran = read(join(dir, "landed.txt")) === "pier";
      const known = read(join(dir, "ssh/home/.ssh/known_hosts")).includes("ssh-ed25519");
      stopSshd(dir);
      return read(o) === "done" && ran === (answer === "y") && known === (answer === "y");
    },
    sshd(port),
  );

// ---- cabal init -i (mk-cabal.sh): HOME cab/, the project directory cab/tide-pool
const CABAL = "cd cab/tide-pool && HOME=$D/cab cabal init -i; echo done > $OUT";
const cabalFile = (dir: string) => read(join(dir, "cab/tide-pool/tide-pool.cabal"));
const SIMPLE = "Should I generate a simple project with sensible defaults? [default: y]";
const cabal1 = task(
  "cabal init -i: a library tide-pool, MIT, by Ada <ada@example.org>, synopsis Tide tables, with a test suite",
  ["cabal"],
  CABAL,
  [
    ["sensible defaults", fill(SIMPLE, "n"), "n\\r"],
    ["What does the package build", ["choose", "Library"], "2\\r"],
    ["Cabal specification", cursor(""), "\\r"],
    ["Package name?", fill("Package name? [default: tide-pool]", ""), "\\r"],
    ["Package version?", fill("Package version? [default: 0.1.0.0]", ""), "\\r"],
    ["choose a license", ["choose", "MIT"], "5\\r"],
    ["Author name?", fill("Author name?", "Ada"), "Ada\\r"],
    ["email?", fill("Maintainer email?", "ada@example.org"), "ada@example.org\\r"],
    ["homepage", fill("Project homepage URL?", ""), "\\r"],
    ["synopsis?", fill("Project synopsis?", "Tide tables"), "Tide tables\\r"],
    ["category", cursor(""), "\\r"],
    ["source directory", ["choose", "src"], "1\\r"],
    ["test suite", fill("Should I generate a test suite for the library? [default: y]", "y"), "y\\r"],
    ["Test directory", ["choose", "test"], "1\\r"],
    ["base language", ["choose", "Haskell2010"], "1\\r"],
    ["informative comments", ["choose", "n"], "n\\r"],
  ],
  (dir, o) => {
    const cabal = cabalFile(dir);
    return (
      read(o) === "done" &&
      /^license:\s+MIT$/m.test(cabal) &&
      /^author:\s+Ada$/m.test(cabal) &&
      /^maintainer:\s+ada@example\.org$/m.test(cabal) &&
      /^synopsis:\s+Tide tables$/m.test(cabal) &&
      /^library$/m.test(cabal) &&
      /^test-suite /m.test(cabal) &&
      !/^executable /m.test(cabal)
    );
  },
  (dir) => mk("mk-cabal.sh", join(dir, "cab")),
);
const cabal2 = task(
  "cabal init -i: the simple project with sensible defaults (y)",
  ["cabal"],
  CABAL,
  [["sensible defaults", fill(SIMPLE, "y"), "y\\r"]],
  (dir, o) => read(o) === "done" && /^executable tide-pool$/m.test(cabalFile(dir)),
  (dir) => mk("mk-cabal.sh", join(dir, "cab")),
);

// ---- clisp (mk-files.sh: f/cl/.clisprc.lisp defines tide-height, tide-depth, tide-range)
const CLISP = "cd f/cl && HOME=$D/f/cl clisp; echo done > $OUT";
const clisp1 = task(
  "clisp: (tide-range) written to range.txt, quit",
  ["clisp"],
  CLISP,
  [
    [
      "[1]>",
      cursor('(with-open-file (s "range.txt" :direction :output) (print (tide-range) s))'),
      '(with-open-file (s "range.txt" :direction :output) (print (tide-range) s))\\r',
    ],
    ["[2]>", cursor("(quit)"), "(quit)\\r"],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "f/cl/range.txt")) === "7",
  files,
);
const LEVEL = '(with-open-file (s "level.txt" :direction :output) (print (list (boundp (quote tide-level)) r) s))';
const clisp2 = (restart: "STORE-VALUE" | "USE-VALUE") =>
  task(
    `clisp: an unbound tide-level, the restart ${restart} with 7, then whether it stayed bound written to level.txt`,
    ["clisp"],
    CLISP,
    [
      ["[1]>", cursor("(defvar r (+ tide-level 1))"), "(defvar r (+ tide-level 1))\\r"],
      ["Break 1", ["choose", restart], restart === "STORE-VALUE" ? ":r2\\r" : ":r1\\r"],
      [restart === "STORE-VALUE" ? "New TIDE-LEVEL>" : "Use instead of TIDE-LEVEL>", cursor("7"), "7\\r"],
      ["[3]>", cursor(LEVEL), `${LEVEL}\\r`],
      ["[4]>", cursor("(quit)"), "(quit)\\r"],
    ],
    (dir, o) =>
      read(o) === "done" && read(join(dir, "f/cl/level.txt")) === (restart === "STORE-VALUE" ? "(T 8)" : "(NIL 8)"),
    files,
  );

// ---- gp (mk-files.sh: f/gp is its HOME)
const GP = "cd f/gp && HOME=$D/f/gp gp -q; echo done > $OUT";
const gp1 = task(
  "gp: the sum of 1..100 written to sum.txt, quit",
  ["gp"],
  GP,
  [
    ["?", cursor('write("sum.txt", sum(i=1,100,i))'), 'write("sum.txt", sum(i=1,100,i))\\r'],
    [twice("?"), cursor("\\q"), "\\\\q\\r"],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "f/gp/sum.txt")) === "5050",
  files,
);
const gp2 = task(
  "gp: 1/0 opens the break loop, left with break, then primepi(1000) written to pi.txt, quit",
  ["gp"],
  GP,
  [
    ["?", cursor("1/0"), "1/0\\r"],
    ["break>", cursor("break"), "break\\r"],
    [twice("?"), cursor('write("pi.txt", primepi(1000))'), 'write("pi.txt", primepi(1000))\\r'],
    [{ text: "?", count: 3 }, cursor("\\q"), "\\\\q\\r"],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "f/gp/pi.txt")) === "168",
  files,
);

// ---- makeself (mk-files.sh: f/mk/harbour-tools.run with a licence; PAGER=cat prints it)
const makeself = (answer: "y" | "n") =>
  task(
    `makeself installer: the licence ${answer === "y" ? "accepted (y): tides.txt extracted" : "refused (n): nothing extracted"}`,
    ["makeself"],
    "cd f/mk && PAGER=cat ./harbour-tools.run --target out; echo done > $OUT",
    [["type y to accept", ["choose", answer], `${answer}\\r`]],
    (dir, o) => read(o) === "done" && existsSync(join(dir, "f/mk/out/tides.txt")) === (answer === "y"),
    files,
  );

// ---- sccs (mk-sccs.sh): s.tide.txt checked out for editing, a line added; "mr" asks for MRs
const prs = (dir: string) => run("sccs", ["prs", "-r1.2", "s.tide.txt"], { cwd: join(dir, "sc") }).out;
const sccs1 = task(
  "sccs delta: the comment 'added the noon high water'",
  ["sccs"],
  "cd sc && sccs delta s.tide.txt; echo done > $OUT",
  [["comments?", fill("comments?", "added the noon high water"), "added the noon high water\\r"]],
  (dir, o) => read(o) === "done" && /COMMENTS:\nadded the noon high water\n/.test(prs(dir)),
  (dir) => mk("mk-sccs.sh", join(dir, "sc")),
);
const sccs2 = task(
  "sccs delta: MR-12 and the comment 'evening low water'",
  ["sccs"],
  "cd sc && sccs delta s.tide.txt; echo done > $OUT",
  [
    ["MRs?", fill("MRs?", "MR-12"), "MR-12\\r"],
    ["comments?", fill("comments?", "evening low water"), "evening low water\\r"],
  ],
  (dir, o) => read(o) === "done" && /MRs:\nMR-12\nCOMMENTS:\nevening low water\n/.test(prs(dir)),
  (dir) => mk("mk-sccs.sh", join(dir, "sc"), "mr"),
);

// ---- opam (mk-opam.sh): a local repository; "switch": initialised with an empty switch harbour
const OPAM = "HOME=$D/op OPAMROOT=$D/op/.opam OPAMROOTISOK=1";
const opamInit = (answer: "y" | "N") =>
  task(
    `opam init: ~/.bash_profile ${answer === "y" ? "modified (y)" : "left alone (N)"}`,
    ["opam"],
    `cd op && ${OPAM} opam init --bare --disable-sandboxing local $D/op/repo; echo done > $OUT`,
    [["[N/y/f]", ["choose", answer], `${answer.toLowerCase()}\\r`]],
    (dir, o) =>
      read(o) === "done" &&
      existsSync(join(dir, "op/.opam/config")) &&
      read(join(dir, "op/.bash_profile")).includes("opam-init/init.sh") === (answer === "y"),
    (dir) => mk("mk-opam.sh", join(dir, "op"), "repo"),
  );
const installed = (dir: string, file: string) => existsSync(join(dir, "op/.opam/harbour", file));
const opamInstall = task(
  "opam install pier: the two installations confirmed (Y)",
  ["opam"],
  `cd op && ${OPAM} opam install pier; echo done > $OUT`,
  [["[Y/n]", ["choose", "Y"], "y\\r"]],
  (dir, o) => read(o) === "done" && installed(dir, "pier.txt") && installed(dir, "tide.txt"),
  (dir) => mk("mk-opam.sh", join(dir, "op"), "switch"),
);
const opamRemove = task(
  "opam remove tide: the two removals refused (n)",
  ["opam"],
  `cd op && ${OPAM} opam remove tide; echo done > $OUT`,
  [["[Y/n]", ["choose", "n"], "n\\r"]],
  (dir, o) => read(o) === "done" && installed(dir, "pier.txt") && installed(dir, "tide.txt"),
  (dir) => mk("mk-opam.sh", join(dir, "op"), "installed"),
);

export const TASKS: Task[] = [
  certutil1,
  certutil2,
  certutil3,
  certutil4,
  pk12util,
  minisign1,
  minisign2,
  vnc1,
  vnc2,
  dbclient("y", 2291),
  dbclient("n", 2292),
  cabal1,
  cabal2,
  clisp1,
  clisp2("STORE-VALUE"),
  clisp2("USE-VALUE"),
  gp1,
  gp2,
  makeself("y"),
  makeself("n"),
  sccs1,
  sccs2,
  opamInit("y"),
  opamInit("N"),
  opamInstall,
  opamRemove,
];

/** The suite on bench/tasks-blind.ts's harness (no npm tools: every program is a Debian package). */
export function runBlind9Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: undefined });
}
export { runBlind9Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind9Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
