// The blind task suite of issue 59 for blind set 7 (test/fixtures/blind7): end-to-end tasks on its
// programs (none of them in train nor in the earlier blind sets), written by an engineer who had not
// read the detector nor the acting code, before either ran on these programs. Each task is done by
// meaning only (`choose`/`fill` by the label the screen shows, as test/fixtures/blind7/README.md
// labels it; where a prompt is only a marker (rcs's `>>`, `kpcli:/>`, `iex(1)>`, mail's `&`, kpcli's
// `|`) the field holding the cursor read from the snapshot; no raw keys) and its outcome is checked
// from outside (RCS files, files ccrypt/scrypt/gocryptfs make and what their keys open, a KeePass
// database read back, files iex writes, a mailbox, ~/.aws, extracted files, an exit status). Each task
// also has a raw-key reference run that proves its checker: `npx bun bench/tasks-blind7.ts
// --reference` must pass every task. The harness is bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind7.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind7");

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
/** A fixture set-up script of test/fixtures/blind7 (mk-*.sh), run into `dir`. */
const mk = (script: string, ...args: string[]) => execFileSync(join(HERE, script), args, { stdio: "ignore" });
const files = (dir: string) => mk("mk-files.sh", join(dir, "f"));
const listing = (dir: string) => readdirSync(dir).sort().join(" ");

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

// ---- rcs (mk-rcs.sh): tide.txt and wind.txt locked and changed, moon.txt not under RCS yet
const rcs = (dir: string) => mk("mk-rcs.sh", join(dir, "rcs"));
const rlog = (dir: string, ...args: string[]) => run("rlog", args, { cwd: join(dir, "rcs") }).out;
const logOf = (dir: string, file: string, rev: string) =>
  rlog(dir, `-r${rev}`, file)
    .split("\n")
    .filter(
      (line) =>
        line &&
        !/^(revision|date:|RCS file|Working file|head:|branch:|locks:|access|symbolic|keyword|total|description|=====|-----|\t)/.test(
          line,
        ),
    )
    .pop() ?? "";
const CI = "cd rcs && ci -u tide.txt wind.txt; echo done > $OUT";
const rcs1 = task(
  'rcs ci: tide.txt and wind.txt checked in, the log message "deeper water" reused for wind.txt (y)',
  ["ci"],
  CI,
  [
    [">>", cursor("deeper water"), "deeper water\\r"],
    [twice(">>"), cursor("."), ".\\r"],
    ["reuse log", ["choose", "y"], "y\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    logOf(dir, "tide.txt", "1.2") === "deeper water" &&
    logOf(dir, "wind.txt", "1.2") === "deeper water" &&
    !rlog(dir, "-L", "-R", "tide.txt", "wind.txt").trim(),
  rcs,
);
const rcs2 = task(
  'rcs ci: tide.txt\'s message not reused for wind.txt (n), wind.txt gets "calmer"',
  ["ci"],
  CI,
  [
    [">>", cursor("deeper water"), "deeper water\\r"],
    [twice(">>"), cursor("."), ".\\r"],
    ["reuse log", ["choose", "n"], "n\\r"],
    [{ text: ">>", count: 3 }, cursor("calmer"), "calmer\\r"],
    [{ text: ">>", count: 4 }, cursor("."), ".\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    logOf(dir, "tide.txt", "1.2") === "deeper water" &&
    logOf(dir, "wind.txt", "1.2") === "calmer",
  rcs,
);
const rcs3 = (answer: "y" | "n") =>
  task(
    `rcs co -l over the writable tide.txt: ${answer === "y" ? "removed (y), revision 1.1 checked out" : "kept (n)"}`,
    ["co"],
    "cd rcs && co -l tide.txt; echo done > $OUT",
    [["remove it?", ["choose", answer], `${answer}\\r`]],
    (dir, o) =>
      read(o) === "done" && read(join(dir, "rcs/tide.txt")) === (answer === "y" ? "depth 42" : "depth 42\ndepth 43"),
    rcs,
  );
const rcs4 = task(
  'rcs ci -u moon.txt: the description "moon phases for the harbour"',
  ["ci"],
  "cd rcs && ci -u moon.txt; echo done > $OUT",
  [
    [">>", cursor("moon phases for the harbour"), "moon phases for the harbour\\r"],
    [twice(">>"), cursor("."), ".\\r"],
  ],
  (dir, o) => read(o) === "done" && /description:\nmoon phases for the harbour\n/.test(rlog(dir, "-t", "moon.txt")),
  rcs,
);

// ---- ccrypt (mk-files.sh): cc/notes.txt, cc/keys.txt over an older keys.txt.cpt, cc/old.txt.cpt (key "tide")
const cc = (dir: string, file: string) => join(dir, "f/cc", file);
const opens = (dir: string, file: string, key: string) => run("ccrypt", ["-c", "-K", key, cc(dir, file)]).out.trim();
const KEY = "Enter encryption key";
const REPEAT = "Enter encryption key: (repeat)";
const ccrypt1 = task(
  "ccrypt notes.txt with the key harbour (twice)",
  ["ccrypt"],
  "cd f/cc && ccrypt notes.txt; echo done > $OUT",
  [
    ["encryption key:", fill(KEY, "harbour"), "harbour\\r"],
    ["(repeat)", fill(REPEAT, "harbour"), "harbour\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    !existsSync(cc(dir, "notes.txt")) &&
    opens(dir, "notes.txt.cpt", "harbour") === "secret notes",
  files,
);
const ccrypt2 = (answer: "y" | "n") =>
  task(
    `ccrypt keys.txt over an older keys.txt.cpt: ${answer === "y" ? "overwritten (y)" : "not overwritten (n)"}`,
    ["ccrypt"],
    "cd f/cc && ccrypt keys.txt; echo done > $OUT",
    [
      ["encryption key:", fill(KEY, "harbour"), "harbour\\r"],
      ["(repeat)", fill(REPEAT, "harbour"), "harbour\\r"],
      ["overwrite", ["choose", answer], `${answer}\\r`],
    ],
    (dir, o) =>
      read(o) === "done" &&
      (answer === "y"
        ? !existsSync(cc(dir, "keys.txt")) && opens(dir, "keys.txt.cpt", "harbour") === "api key 1234"
        : read(cc(dir, "keys.txt")) === "api key 1234" && read(cc(dir, "keys.txt.cpt")) === "an older encrypted file"),
    files,
  );
const ccrypt3 = task(
  "ccrypt -d old.txt.cpt with the key tide",
  ["ccrypt"],
  "cd f/cc && ccrypt -d old.txt.cpt; echo done > $OUT",
  [["decryption key:", fill("Enter decryption key", "tide"), "tide\\r"]],
  (dir, o) => read(o) === "done" && read(cc(dir, "old.txt")) === "the old file" && !existsSync(cc(dir, "old.txt.cpt")),
  files,
);

// ---- gocryptfs (mk-files.sh): gc/vault empty, gc/made made with the password "tide"
const unlocks = (dir: string, folder: string, password: string) =>
  run("gocryptfs-xray", ["-dumpmasterkey", join(dir, "f/gc", folder, "gocryptfs.conf")], { input: `${password}\n` })
    .status === 0;
const gocryptfs1 = task(
  "gocryptfs -init vault with the password harbour (twice)",
  ["gocryptfs"],
  "cd f/gc && gocryptfs -init vault; echo done > $OUT",
  [
    ["Password:", fill("Password", "harbour"), "harbour\\r"],
    ["Repeat:", fill("Repeat", "harbour"), "harbour\\r"],
  ],
  (dir, o) => read(o) === "done" && unlocks(dir, "vault", "harbour") && !unlocks(dir, "vault", "tide"),
  files,
);
const gocryptfs2 = task(
  "gocryptfs -passwd made: the old password tide, the new one harbour (twice)",
  ["gocryptfs"],
  "cd f/gc && gocryptfs -passwd made; echo done > $OUT",
  [
    ["Password:", fill("Password", "tide"), "tide\\r"],
    ["new password", fill("Password", "harbour"), "harbour\\r"],
    ["Repeat:", fill("Repeat", "harbour"), "harbour\\r"],
  ],
  (dir, o) => read(o) === "done" && unlocks(dir, "made", "harbour") && !unlocks(dir, "made", "tide"),
  files,
);

// ---- scrypt (mk-files.sh): sc/token.txt
const scrypt = task(
  "scrypt enc token.txt token.enc with the passphrase harbour (twice)",
  ["scrypt"],
  "cd f/sc && scrypt enc -t 0.2 token.txt token.enc; echo done > $OUT",
  [
    ["enter passphrase:", fill("Please enter passphrase", "harbour"), "harbour\\r"],
    ["confirm passphrase:", fill("Please confirm passphrase", "harbour"), "harbour\\r"],
  ],
  (dir, o) => {
    if (read(o) !== "done") return false;
    writeFileSync(join(dir, "pass"), "harbour\n");
    return (
      run("scrypt", ["dec", "--passphrase", `file:${join(dir, "pass")}`, join(dir, "f/sc/token.enc")]).out.trim() ===
      "token 5678"
    );
  },
  files,
);

// ---- kpcli on f/kp/vault.kdbx (mk-files.sh; master password tidepool-master)
const KP = "cd f/kp && HOME=$D/f/kp kpcli --kdb vault.kdbx; echo done > $OUT";
const MASTER: Pair = ["master password", fill("Provide the master password", "tidepool-master"), "tidepool-master\\r"];
const show = (dir: string, path: string) => {
  writeFileSync(join(dir, "master"), "tidepool-master");
  return run(
    "kpcli",
    [
      "--kdb",
      join(dir, "f/kp/vault.kdbx"),
      "--pwfile",
      join(dir, "master"),
      "--readonly",
      "--command",
      `show -f ${path}`,
    ],
    { env: { HOME: join(dir, "f/kp") } },
  ).out;
};
const kpcli1 = task(
  "kpcli: a new entry Codeberg in /Internet (ada, cb-pass-5, https://codeberg.org, tag git), saved (y)",
  ["kpcli"],
  KP,
  [
    MASTER,
    ["kpcli:/>", cursor("cd Internet"), "cd Internet\\r"],
    ["kpcli:/Internet>", cursor("new"), "new\\r"],
    ["Title:", fill("Title", "Codeberg"), "Codeberg\\r"],
    ["Username:", fill("Username", "ada"), "ada\\r"],
    ["auto-generate", fill("Password", "cb-pass-5"), "cb-pass-5\\r"],
    ["Retype", fill("Retype to verify", "cb-pass-5"), "cb-pass-5\\r"],
    ["URL:", fill("URL", "https://codeberg.org"), "https://codeberg.org\\r"],
    ["Tags:", fill("Tags", "git"), "git\\r"],
    ["Strings:", ["choose", "(F)inish"], "F"],
    ["end multi-line", cursor("."), ".\\r"],
    ["save it now", ["choose", "y"], "y\\r"],
    [twice("kpcli:/Internet>"), cursor("quit"), "quit\\r"],
  ],
  (dir, o) => {
    const entry = show(dir, "/Internet/Codeberg");
    return (
      read(o) === "done" &&
      /Uname: ada\n/.test(entry) &&
      /Pass: cb-pass-5\n/.test(entry) &&
      /URL: https:\/\/codeberg\.org\n/.test(entry)
    );
  },
  files,
);
const kpcli2 = task(
  "kpcli: rm /Internet/GitLab, saved (y), quit",
  ["kpcli"],
  KP,
  [
    MASTER,
    ["kpcli:/>", cursor("rm Internet/GitLab"), "rm Internet/GitLab\\r"],
    ["save it now", ["choose", "y"], "y\\r"],
    [twice("kpcli:/>"), cursor("quit"), "quit\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    !show(dir, "/Internet/GitLab").includes("Uname:") &&
    show(dir, "/Internet/GitHub").includes("Uname: ada"),
  files,
);
const kpcli3 = task(
  "kpcli: rm /Internet/Gitea, not saved (N), quit anyway (y): Gitea kept",
  ["kpcli"],
  KP,
  [
    MASTER,
    ["kpcli:/>", cursor("rm Internet/Gitea"), "rm Internet/Gitea\\r"],
    ["save it now", ["choose", "N"], "n\\r"],
    [twice("kpcli:/>"), cursor("quit"), "quit\\r"],
    ["Really quit", ["choose", "y"], "y"],
  ],
  (dir, o) => read(o) === "done" && show(dir, "/Internet/Gitea").includes("Uname: ada"),
  files,
);

// ---- iex with save_depth, save_wind, save_tide_table imported (mk-files.sh)
const EX = "cd f/ex && HOME=$D/f/ex iex; echo done > $OUT";
const iexOut = (dir: string, file: string) => read(join(dir, "f/ex", file));
const iex1 = task(
  "iex: save_ typed, save_wind picked from the completion list, run, halt",
  ["iex"],
  EX,
  [
    ["iex(1)>", cursor("save_", false), "save_|\\t"],
    ["save_wind/0", ["choose", "save_wind/0"], "wind"],
    [undefined, cursor("save_wind"), "\\r"],
    ["iex(2)>", cursor("System.halt"), "System.halt\\r"],
  ],
  (dir, o) => read(o) === "done" && iexOut(dir, "out.txt") === "wind 7",
  files,
);
const iex2 = task(
  "iex: the sum of 1..10 written to sum.txt, halt",
  ["iex"],
  EX,
  [
    [
      "iex(1)>",
      cursor('File.write!("sum.txt", Integer.to_string(Enum.sum(1..10)))'),
      'File.write!("sum.txt", Integer.to_string(Enum.sum(1..10)))\\r',
    ],
    ["iex(2)>", cursor("System.halt"), "System.halt\\r"],
  ],
  (dir, o) => read(o) === "done" && iexOut(dir, "sum.txt") === "55",
  files,
);
const iex3 = task(
  "iex: a fn over two lines (...(1)>) writes the squares to sq.txt, halt",
  ["iex"],
  EX,
  [
    [
      "iex(1)>",
      cursor('File.write!("sq.txt", Enum.map_join([1, 2, 3], " ", fn x ->'),
      'File.write!("sq.txt", Enum.map_join([1, 2, 3], " ", fn x ->\\r',
    ],
    ["...(1)>", cursor("x * x end))"), "x * x end))\\r"],
    ["iex(2)>", cursor("System.halt"), "System.halt\\r"],
  ],
  (dir, o) => read(o) === "done" && iexOut(dir, "sq.txt") === "1 4 9",
  files,
);

// ---- mail (bsd-mailx) on f/ml/mbox, four messages (mk-files.sh)
const ML = "cd f/ml && HOME=$D/f/ml mail -f mbox; echo done > $OUT";
const BOB = "bob@example.org    Mon Dec  7 08:05    8/201   Tide tables for January";
const mail1 = task(
  "mail: bob's Tide tables message read (picked from the list), saved to tides.txt, quit",
  ["mail"],
  ML,
  [
    ["&", ["choose", BOB], "2\\r"],
    ["January tables", cursor("s tides.txt"), "s tides.txt\\r"],
    ['"tides.txt"', cursor("q"), "q\\r"],
  ],
  (dir, o) =>
    read(o) === "done" && read(join(dir, "f/ml/tides.txt")).includes("The January tables are attached as text."),
  files,
);
const mail2 = task(
  "mail: the Lunch on Friday? message deleted (d 3), quit",
  ["mail"],
  ML,
  [
    ["&", cursor("d 3"), "d 3\\r"],
    [twice("&"), cursor("q"), "q\\r"],
  ],
  (dir, o) => {
    const box = read(join(dir, "f/ml/mbox"));
    return (
      read(o) === "done" && !box.includes("Lunch on Friday") && box.includes("Build 812") && box.includes("Build 813")
    );
  },
  files,
);

// ---- aws configure (awscli 2.9.19 at /usr/bin/aws; a pip aws may come first on PATH)
const awsFile = (dir: string, home: string, file: string) => read(join(dir, home, ".aws", file));
const aws1 = task(
  "aws configure: a key, its secret, region eu-central-1, output json",
  ["aws"],
  "mkdir -p aw && HOME=$D/aw /usr/bin/aws configure; echo done > $OUT",
  [
    ["Key ID", fill("AWS Access Key ID [None]", "AKIAIOSFODNN7EXWXYZ"), "AKIAIOSFODNN7EXWXYZ\\r"],
    [
      "Secret",
      fill("AWS Secret Access Key [None]", "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"),
      "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY\\r",
    ],
    ["region", fill("Default region name [None]", "eu-central-1"), "eu-central-1\\r"],
    ["output format", fill("Default output format [None]", "json"), "json\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    awsFile(dir, "aw", "credentials").includes("aws_access_key_id = AKIAIOSFODNN7EXWXYZ") &&
    awsFile(dir, "aw", "credentials").includes("aws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY") &&
    awsFile(dir, "aw", "config").includes("region = eu-central-1") &&
    awsFile(dir, "aw", "config").includes("output = json"),
);
const aws2 = task(
  "aws configure over a configured profile: key, secret and output kept, region us-east-2",
  ["aws"],
  "HOME=$D/am /usr/bin/aws configure; echo done > $OUT",
  [
    ["Key ID", fill("AWS Access Key ID [****************WXYZ]", ""), "\\r"],
    ["Secret", fill("AWS Secret Access Key [****************EKEY]", ""), "\\r"],
    ["region", fill("Default region name [eu-west-1]", "us-east-2"), "us-east-2\\r"],
    ["output format", fill("Default output format [json]", ""), "\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    awsFile(dir, "am", "credentials").includes("aws_access_key_id = AKIAIOSFODNN7EXWXYZ") &&
    awsFile(dir, "am", "config").includes("region = us-east-2") &&
    awsFile(dir, "am", "config").includes("output = json"),
  (dir) => mk("mk-aws.sh", join(dir, "am")),
);

// ---- tar -w and cpio -ir (mk-files.sh): ar/t.tar and ar/c.cpio hold a.txt b.txt c.txt, ar/x is empty
const extracted = (dir: string) => listing(join(dir, "f/ar/x"));
const tar = task(
  "tar -xwf: a.txt and c.txt extracted (y), b.txt not (n)",
  ["tar"],
  "cd f/ar/x && tar -xwf ../t.tar; echo done > $OUT",
  [
    ["a.txt", fill("extract ‘a.txt’?", "y"), "y\\r"],
    ["b.txt", fill("extract ‘b.txt’?", "n"), "n\\r"],
    ["c.txt", fill("extract ‘c.txt’?", "y"), "y\\r"],
  ],
  (dir, o) => read(o) === "done" && extracted(dir) === "a.txt c.txt" && read(join(dir, "f/ar/x/c.txt")) === "gamma",
  files,
);
const cpio = task(
  "cpio -ir: a.txt as alpha.txt, b.txt skipped (empty), c.txt kept as c.txt",
  ["cpio"],
  "cd f/ar/x && cpio -ir < ../c.cpio; echo done > $OUT",
  [
    ["rename a.txt", fill("rename a.txt ->", "alpha.txt"), "alpha.txt\\r"],
    ["rename b.txt", fill("rename b.txt ->", ""), "\\r"],
    ["rename c.txt", fill("rename c.txt ->", "c.txt"), "c.txt\\r"],
  ],
  (dir, o) =>
    read(o) === "done" && extracted(dir) === "alpha.txt c.txt" && read(join(dir, "f/ar/x/alpha.txt")) === "alpha",
  files,
);

// ---- dselect with its own admin directory (mk-dselect.sh)
const dselect = task(
  "dselect: Quit from the main menu (exit status 0)",
  ["dselect"],
  "cd ds && dselect --admindir $D/ds/admin; echo done:$? > $OUT",
  [["Quit dselect", ["choose", "[Q]uit"], "6|\\r"]],
  (_dir, o) => read(o) === "done:0",
  (dir) => mk("mk-dselect.sh", join(dir, "ds")),
);

export const TASKS: Task[] = [
  rcs1,
  rcs2,
  rcs3("y"),
  rcs3("n"),
  rcs4,
  ccrypt1,
  ccrypt2("y"),
  ccrypt2("n"),
  ccrypt3,
  gocryptfs1,
  gocryptfs2,
  scrypt,
  kpcli1,
  kpcli2,
  kpcli3,
  iex1,
  iex2,
  iex3,
  mail1,
  mail2,
  aws1,
  aws2,
  tar,
  cpio,
  dselect,
];

/** The suite on bench/tasks-blind.ts's harness (no npm tools: every program is a Debian package). */
export function runBlind7Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: undefined });
}
export { runBlind7Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind7Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
