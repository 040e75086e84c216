// The blind task suite of issue 59 (blind set 2): end-to-end tasks on the programs of
// test/fixtures/blind2 (none of their families in the detector's train set), written by an engineer
// who had not read the detector nor the acting code, before either was run on these programs. Each
// task is done by meaning only (`choose`/`fill` by label, the one unlabelled field read from the
// snapshot as the input holding the cursor; no raw keys) and its outcome checked from outside (a
// file, a repository, a key slot). Each task also has a raw-key reference run (`send` only) that
// proves its checker: `npx bun bench/tasks-blind.ts --reference` must pass every task.
//
//   npx bun bench/tasks-blind.ts [--reference] [--only N]
// Outcomes as bench/tasks.ts: done, uncertain, refused, wrong (done claimed, outcome not right).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const BIN = resolve(import.meta.dir, "../dist/t4a");
const DONE = new Set([
  "selected",
  "answered",
  "checked",
  "unchecked",
  "filled",
  "submitted",
  "gone",
  "opened",
  "exited",
]);
/** A step's target that is the input holding the cursor, read from the snapshot (a REPL's unlabelled prompt). */
export const CURSOR_INPUT = "@cursor-input";

/** `wait` for a text on the screen (`count` times at least: a prompt asked again); `act` by meaning; `send` raw keys (reference runs only). */
export type Step = { wait: string; count?: number } | { act: string[] } | { send: string } | { sleep: number };
export interface Task {
  name: string;
  /** Programs that must be on the machine (npm ones are looked up in the tools directory). */
  needs: string[];
  setup?: (dir: string) => void;
  /** A bash line; $D is the task's directory, $OUT a file the command writes when the program is done, $T the npm tools' bin. */
  command: string;
  steps: Step[];
  /** The same task with raw keys: proves the checker. */
  reference: Step[];
  check: (dir: string, out: string) => boolean;
}

export type Outcome = "done" | "uncertain" | "refused" | "wrong" | "skipped";

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
const ok = (cmd: string, args: string[], env: Record<string, string> = {}, input?: string) =>
  spawnSync(cmd, args, {
    env: { ...process.env, ...env },
    input,
    stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  }).status === 0;
const out = (cmd: string, args: string[], cwd?: string) =>
  spawnSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).stdout ?? "";

// ---- select-editor
function selectEditor(label: string, key: string, path: string): Task {
  return {
    name: `select-editor: make ${label} the editor`,
    needs: ["select-editor"],
    command: "HOME=$D select-editor; echo done > $OUT",
    steps: [{ wait: "Choose 1-" }, { act: ["choose", label] }],
    reference: [{ wait: "Choose 1-" }, { send: `${key}\\r` }],
    check: (dir) => read(join(dir, ".selected_editor")).includes(`SELECTED_EDITOR="${path}"`),
  };
}

// ---- visudo: an editor that leaves a syntax error behind
const SUDOERS = "root ALL=(ALL:ALL) ALL\n";
function visudo(name: string, steps: Step[], reference: Step[], saved: boolean): Task {
  return {
    name,
    needs: ["visudo"],
    setup(dir) {
      writeFileSync(
        join(dir, "bad-edit"),
        '#!/bin/sh\nfor f; do :; done\necho "deploy ALL=(ALL NOPASSWD: /usr/bin/systemctl" >> "$f"\n',
        { mode: 0o755 },
      );
      writeFileSync(join(dir, "sudoers"), SUDOERS, { mode: 0o440 });
    },
    command: "EDITOR=$D/bad-edit visudo -f $D/sudoers; echo done > $OUT",
    steps: [{ wait: "What now?" }, ...steps],
    reference: [{ wait: "What now?" }, ...reference],
    check: (dir, o) =>
      read(o) === "done" &&
      (saved
        ? read(join(dir, "sudoers")).includes("deploy ALL")
        : readFileSync(join(dir, "sudoers"), "utf8") === SUDOERS),
  };
}

// ---- git send-email / git am -i
function mailRepo(dir: string): void {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: join(dir, "repo"), stdio: "ignore" });
  mkdirSync(join(dir, "repo"));
  git("init", "-q");
  git("config", "user.name", "Ada Lovelace");
  git("config", "user.email", "ada@example.org");
  writeFileSync(join(dir, "repo", "a.txt"), "one\n");
  git("add", "a.txt");
  git("commit", "-qm", "first");
  writeFileSync(join(dir, "repo", "a.txt"), "one\ntwo\n");
  git("commit", "-qam", "Fix the counter's off-by-one");
  git("format-patch", "-1", "-o", "../patches");
  git("reset", "-q", "--hard", "HEAD~1");
  writeFileSync(join(dir, "fake-smtp"), `#!/bin/sh\ncat > ${join(dir, "sent.eml")}\n`, { mode: 0o755 });
}
const PATCH = "../patches/0001-Fix-the-counter-s-off-by-one.patch";
function sendEmail(answer: string, key: string, sent: boolean): Task {
  return {
    name: `git send-email: answer ${answer} to "Send this email?"`,
    needs: ["git"],
    setup: mailRepo,
    command: `cd $D/repo && git send-email --to=bob@example.org --smtp-server=$D/fake-smtp ${PATCH}; echo done > $OUT`,
    steps: [{ wait: "Send this email?" }, { act: ["choose", answer] }],
    reference: [{ wait: "Send this email?" }, { send: `${key}\\r` }],
    check: (dir, o) =>
      read(o) === "done" &&
      read(join(dir, "sent.eml")).includes("Subject: [PATCH] Fix the counter's off-by-one") === sent,
  };
}
function gitAm(answer: string, key: string, applied: boolean): Task {
  return {
    name: `git am -i: answer ${answer} to "Apply?"`,
    needs: ["git"],
    setup: mailRepo,
    command: `cd $D/repo && git am -i ${PATCH}; echo done > $OUT`,
    steps: [{ wait: "Apply?" }, { act: ["choose", answer] }],
    reference: [{ wait: "Apply?" }, { send: `${key}\\r` }],
    check: (dir, o) =>
      read(o) === "done" &&
      (out("git", ["log", "-1", "--format=%s"], join(dir, "repo")).trim() === "Fix the counter's off-by-one") ===
        applied,
  };
}

// ---- certtool
const certPrompts: Array<[string, string, string]> = [
  // [the prompt's text as shown (what the screen waits for), its label, the answer]
  ["Country name (2 chars):", "Country name (2 chars)", "NL"],
  ["State or province name:", "State or province name", "Zuid-Holland"],
  ["Locality name:", "Locality name", "Delft"],
  ["Organization name:", "Organization name", "Example BV"],
  ["Organizational unit name:", "Organizational unit name", ""],
  ["Common name:", "Common name", "web.internal"],
  ["UID:", "UID", ""],
  ["(DC):", "Enter the subject's domain component (DC)", ""],
  ["E-mail:", "E-mail", ""],
  ["value:", "value", ""],
  ["expire in (days):", "The certificate will expire in (days)", "30"],
];
/** The y/n questions: [its text, the item chosen as shown ((y/N) or (Y/n)), the key typed in the reference]. */
const certQuestions: Array<[string, string, string]> = [
  ["Does the certificate belong to an authority?", "N", "n"],
  ["Is this a TLS web client certificate?", "N", "n"],
  ["Will the certificate be used for IPsec IKE operations?", "N", "n"],
  ["Is this a TLS web server certificate?", "y", "y"],
];
const certTail: Array<[string, string, string]> = [
  // An additional dnsName is asked until one is left empty.
  [
    "Enter a dnsName of the subject of the certificate:",
    "Enter a dnsName of the subject of the certificate",
    "web.internal",
  ],
  [
    "Enter an additional dnsName of the subject of the certificate:",
    "Enter an additional dnsName of the subject of the certificate",
    "",
  ],
  ["Enter a URI of the subject of the certificate:", "Enter a URI of the subject of the certificate", ""],
  [
    "Enter the IP address of the subject of the certificate:",
    "Enter the IP address of the subject of the certificate",
    "",
  ],
];
const certLast: Array<[string, string, string]> = [
  ["used for signing (DHE ciphersuites)?", "Y", "y"],
  ["used for encryption (RSA ciphersuites)?", "Y", "y"],
  ["used for data encryption?", "N", "n"],
  ["used to sign OCSP requests?", "N", "n"],
  ["used to sign code?", "N", "n"],
  ["used for time stamping?", "N", "n"],
  ["used for email protection?", "N", "n"],
];
const certCrl: [string, string, string] = [
  "Enter the URI of the CRL distribution point:",
  "Enter the URI of the CRL distribution point",
  "",
];
const certOk: [string, string, string] = ["Is the above information ok?", "y", "y"];
/** Each prompt is waited for by its count on the screen, so that a repeated one (dnsName) is not taken for the last. */
function certSteps(reference: boolean): Step[] {
  const steps: Step[] = [];
  const seen = new Map<string, number>();
  const waitFor = (text: string) => {
    const count = (seen.get(text) ?? 0) + 1;
    seen.set(text, count);
    steps.push({ wait: text, count });
  };
  const fill = ([text, label, value]: [string, string, string]) => {
    waitFor(text);
    steps.push(reference ? { send: `${value}\\r` } : { act: ["fill", label, value, "--submit"] });
  };
  const choose = ([text, item, key]: [string, string, string]) => {
    waitFor(text);
    steps.push(reference ? { send: `${key}\\r` } : { act: ["choose", item] });
  };
  certPrompts.forEach(fill);
  certQuestions.forEach(choose);
  certTail.forEach(fill);
  certLast.forEach(choose);
  fill(certCrl);
  choose(certOk);
  return steps;
}

// ---- tools from npm (create-tauri-app, deno): installed once into a cache directory
const TOOLS = join(tmpdir(), "t4a-bench-blind-tools");
const NPM_TOOLS = ["create-tauri-app@4.7.4", "deno@2.9.6"];
function npmTools(): string | undefined {
  const bin = join(TOOLS, "node_modules", ".bin");
  if (!existsSync(join(bin, "create-tauri-app")) || !existsSync(join(bin, "deno")))
    spawnSync("npm", ["i", "--prefix", TOOLS, "--no-audit", "--no-fund", ...NPM_TOOLS], { stdio: "ignore" });
  return existsSync(join(bin, "create-tauri-app")) && existsSync(join(bin, "deno")) ? bin : undefined;
}
const BUN = process.execPath;

// Leptos is the third Rust template (Vanilla, Yew, Leptos, Sycamore): two downs and Enter.
const RUST_LEPTOS = "\\x1b[B\\x1b[B\\r";

function tauri(name: string, steps: Step[], reference: Step[], check: (dir: string) => boolean): Task {
  return {
    name,
    needs: ["create-tauri-app"],
    command: "cd $D && $T/create-tauri-app; echo done > $OUT",
    steps: [{ wait: "Project name" }, ...steps],
    reference: [{ wait: "Project name" }, ...reference],
    check: (dir, o) => read(o) === "done" && check(dir),
  };
}

function deno(name: string, steps: Step[], reference: Step[], wrote: boolean): Task {
  return {
    name,
    needs: ["deno"],
    setup(dir) {
      writeFileSync(
        join(dir, "main.ts"),
        'const text = await Deno.readTextFile("/etc/hostname");\nawait Deno.writeTextFile("out.txt", text);\n',
      );
    },
    command: "cd $D && $T/deno run --no-config main.ts; echo done > $OUT",
    steps: [{ wait: "Allow?" }, ...steps],
    reference: [{ wait: "Allow?" }, ...reference],
    check: (dir, o) =>
      read(o) === "done" &&
      (wrote ? read(join(dir, "out.txt")) === read("/etc/hostname") : !existsSync(join(dir, "out.txt"))),
  };
}

function fdupes(name: string, steps: Step[], reference: Step[], kept: string[], gone: string[]): Task {
  return {
    name,
    needs: ["fdupes"],
    setup(dir) {
      mkdirSync(join(dir, "photos"));
      mkdirSync(join(dir, "backup"));
      writeFileSync(join(dir, "photos", "beach.jpg"), "IMG-1\n");
      writeFileSync(join(dir, "backup", "beach-copy.jpg"), "IMG-1\n");
    },
    command: "cd $D && fdupes -rd --plain photos backup; echo done > $OUT",
    steps: [{ wait: "preserve files" }, ...steps],
    reference: [{ wait: "preserve files" }, ...reference],
    check: (dir, o) =>
      read(o) === "done" && kept.every((f) => existsSync(join(dir, f))) && gone.every((f) => !existsSync(join(dir, f))),
  };
}

/** bun's Library template named tinylib, its entry src/lib.ts, no React. */
function library(dir: string): boolean {
  const pkg = read(join(dir, "package.json"));
  return pkg.includes('"name": "tinylib"') && pkg.includes('"module": "src/lib.ts"') && !pkg.includes("react");
}

const LUKS = "cryptsetup luksFormat --pbkdf-memory 32768 --iter-time 200 $D/vault.img; echo done > $OUT";
const SURE = "Are you sure? (Type 'yes' in capital letters)";

export const TASKS: Task[] = [
  selectEditor("/usr/bin/vim.basic", "2", "/usr/bin/vim.basic"),
  selectEditor("/bin/ed", "4", "/bin/ed"),
  visudo(
    "visudo: a syntax error; exit without saving (x typed at What now?)",
    [{ act: ["fill", "What now?", "x", "--submit"] }],
    [{ send: "x\\r" }],
    false,
  ),
  visudo(
    "visudo: a syntax error; ask for the options, exit without saving",
    [
      { act: ["fill", "What now?", "?", "--submit"] },
      { wait: "Options are" },
      { act: ["choose", "e(x)it without saving changes to sudoers file"] },
    ],
    [{ send: "?\\r" }, { wait: "Options are" }, { send: "x\\r" }],
    false,
  ),
  visudo(
    "visudo: a syntax error; ask for the options, quit and save anyway",
    [
      { act: ["fill", "What now?", "?", "--submit"] },
      { wait: "Options are" },
      { act: ["choose", "(Q)uit and save changes to sudoers file (DANGER!)"] },
    ],
    [{ send: "?\\r" }, { wait: "Options are" }, { send: "Q\\r" }],
    true,
  ),
  sendEmail("[y]es", "y", true),
  sendEmail("[q]uit", "q", false),
  gitAm("[y]es", "y", true),
  gitAm("[n]o", "n", false),
  {
    name: "certtool: a self-signed TLS server certificate for web.internal, 30 days",
    needs: ["certtool"],
    setup(dir) {
      execFileSync("certtool", ["--generate-privkey", "--outfile", join(dir, "key.pem")], { stdio: "ignore" });
    },
    command: "cd $D && certtool --generate-self-signed --load-privkey key.pem --outfile cert.pem; echo done > $OUT",
    steps: certSteps(false),
    reference: certSteps(true),
    check(dir, o) {
      if (read(o) !== "done") return false;
      const info = out("certtool", ["-i", "--infile", join(dir, "cert.pem")]);
      return (
        info.includes("CN=web.internal") &&
        info.includes("O=Example BV") &&
        info.includes("TLS WWW Server") &&
        info.includes("DNSname: web.internal")
      );
    },
  },
  {
    name: "certtool --to-p12: bundle key and certificate under the name web, password p12pass",
    needs: ["certtool"],
    setup(dir) {
      execFileSync("certtool", ["--generate-privkey", "--outfile", join(dir, "key.pem")], { stdio: "ignore" });
      writeFileSync(join(dir, "t.tmpl"), "cn = web.internal\nexpiration_days = 30\n");
      execFileSync(
        "certtool",
        ["--generate-self-signed", "--load-privkey", "key.pem", "--template", "t.tmpl", "--outfile", "cert.pem"],
        { cwd: dir, stdio: "ignore" },
      );
    },
    command:
      "cd $D && certtool --to-p12 --load-privkey key.pem --load-certificate cert.pem --outder --outfile out.p12; echo done > $OUT",
    steps: [
      { wait: "Enter a name for the key" },
      { act: ["fill", "Enter a name for the key", "web", "--submit"] },
      { wait: "Enter password" },
      { act: ["fill", "Enter password", "p12pass", "--submit"] },
      { wait: "Confirm password" },
      { act: ["fill", "Confirm password", "p12pass", "--submit"] },
    ],
    reference: [
      { wait: "Enter a name for the key" },
      { send: "web\\r" },
      { wait: "Enter password" },
      { send: "p12pass\\r" },
      { wait: "Confirm password" },
      { send: "p12pass\\r" },
    ],
    check: (dir, o) =>
      read(o) === "done" &&
      out("certtool", ["--p12-info", "--inder", "--password", "p12pass", "--infile", join(dir, "out.p12")]).includes(
        "web",
      ),
  },
  {
    name: "cryptsetup luksFormat on a file: confirm, passphrase twice",
    needs: ["cryptsetup"],
    setup: (dir) => execFileSync("truncate", ["-s", "32M", join(dir, "vault.img")]),
    command: LUKS,
    steps: [
      { wait: "Are you sure?" },
      { act: ["fill", SURE, "YES", "--submit"] },
      { wait: "Enter passphrase" },
      { act: ["fill", "Enter passphrase for $D/vault.img", "correct horse", "--submit"] },
      { wait: "Verify passphrase" },
      { act: ["fill", "Verify passphrase", "correct horse", "--submit"] },
    ],
    reference: [
      { wait: "Are you sure?" },
      { send: "YES\\r" },
      { wait: "Enter passphrase" },
      { send: "correct horse\\r" },
      { wait: "Verify passphrase" },
      { send: "correct horse\\r" },
    ],
    check: (dir, o) =>
      read(o) === "done" &&
      ok(
        "cryptsetup",
        ["luksOpen", "--test-passphrase", "--key-file", "-", join(dir, "vault.img")],
        {},
        "correct horse",
      ),
  },
  {
    name: "cryptsetup luksFormat on a file: decline (no)",
    needs: ["cryptsetup"],
    setup: (dir) => execFileSync("truncate", ["-s", "32M", join(dir, "vault.img")]),
    command: LUKS,
    steps: [{ wait: "Are you sure?" }, { act: ["fill", SURE, "no", "--submit"] }],
    reference: [{ wait: "Are you sure?" }, { send: "no\\r" }],
    check: (dir, o) => read(o) === "done" && !ok("cryptsetup", ["isLuks", join(dir, "vault.img")]),
  },
  {
    name: "borg init: a repository with passphrase 'tide pool 42', not displayed",
    needs: ["borg"],
    command: "borg init --encryption=repokey $D/repo; echo done > $OUT",
    steps: [
      { wait: "Enter new passphrase" },
      { act: ["fill", "Enter new passphrase", "tide pool 42", "--submit"] },
      { wait: "Enter same passphrase again" },
      { act: ["fill", "Enter same passphrase again", "tide pool 42", "--submit"] },
      { wait: "displayed for verification" },
      { act: ["choose", "N"] },
    ],
    reference: [
      { wait: "Enter new passphrase" },
      { send: "tide pool 42\\r" },
      { wait: "Enter same passphrase again" },
      { send: "tide pool 42\\r" },
      { wait: "displayed for verification" },
      { send: "n\\r" },
    ],
    check: (dir, o) =>
      read(o) === "done" && ok("borg", ["list", join(dir, "repo")], { BORG_PASSPHRASE: "tide pool 42" }),
  },
  {
    name: "restic init: a repository with password 'tide pool 42'",
    needs: ["restic"],
    command: "restic init --repo $D/repo; echo done > $OUT",
    steps: [
      { wait: "enter password for new repository" },
      { act: ["fill", "enter password for new repository", "tide pool 42", "--submit"] },
      { wait: "enter password again" },
      { act: ["fill", "enter password again", "tide pool 42", "--submit"] },
    ],
    reference: [
      { wait: "enter password for new repository" },
      { send: "tide pool 42\\r" },
      { wait: "enter password again" },
      { send: "tide pool 42\\r" },
    ],
    check: (dir, o) =>
      read(o) === "done" &&
      ok("restic", ["--repo", join(dir, "repo"), "cat", "config"], { RESTIC_PASSWORD: "tide pool 42" }),
  },
  {
    name: "age -p: encrypt a file with a passphrase",
    needs: ["age"],
    setup: (dir) => writeFileSync(join(dir, "secret.txt"), "the launch code\n"),
    command: "cd $D && age -p -o secret.txt.age secret.txt; echo done > $OUT",
    steps: [
      { wait: "Enter passphrase" },
      { act: ["fill", "Enter passphrase (leave empty to autogenerate a secure one)", "tide pool 42", "--submit"] },
      { wait: "Confirm passphrase" },
      { act: ["fill", "Confirm passphrase", "tide pool 42", "--submit"] },
    ],
    reference: [
      { wait: "Enter passphrase" },
      { send: "tide pool 42\\r" },
      { wait: "Confirm passphrase" },
      { send: "tide pool 42\\r" },
    ],
    check(dir, o) {
      if (read(o) !== "done") return false;
      // Decrypt it as a person would, the passphrase typed on a terminal (age reads it from /dev/tty).
      const py = `import os,pty,sys,time
pid,fd=pty.fork()
if pid==0:
    os.execvp("age",["age","-d","-o","${join(dir, "plain.txt")}","${join(dir, "secret.txt.age")}"])
time.sleep(0.5); os.write(fd,b"tide pool 42\\r")
while True:
    try:
        if not os.read(fd,1024): break
    except OSError: break
sys.exit(os.waitpid(pid,0)[1]>>8)`;
      return ok("python3", ["-c", py]) && read(join(dir, "plain.txt")) === "the launch code";
    },
  },
  deno(
    "deno: allow the read, allow the write",
    [{ act: ["choose", "y"] }, { wait: "write access" }, { act: ["choose", "y"] }],
    [{ send: "y\\r" }, { wait: "write access" }, { send: "y\\r" }],
    true,
  ),
  deno(
    "deno: allow the read, deny the write",
    [{ act: ["choose", "y"] }, { wait: "write access" }, { act: ["choose", "n"] }],
    [{ send: "y\\r" }, { wait: "write access" }, { send: "n\\r" }],
    false,
  ),
  {
    name: "bun init: a Library project",
    needs: ["bun"],
    command: `cd $D && ${BUN} init; echo done > $OUT`,
    steps: [
      { wait: "Select a project template" },
      { act: ["choose", "Library"] },
      { wait: "package name" },
      { act: ["fill", CURSOR_INPUT, "tinylib", "--submit"] },
      { wait: "entry point" },
      { act: ["fill", CURSOR_INPUT, "src/lib.ts", "--submit"] },
    ],
    reference: [
      { wait: "Select a project template" },
      { sleep: 500 },
      { send: "\\x1b[B\\x1b[B\\r" },
      { wait: "package name" },
      { send: "tinylib\\r" },
      { wait: "entry point" },
      { send: "src/lib.ts\\r" },
    ],
    check: (dir, o) => read(o) === "done" && library(dir),
  },
  {
    name: "bun init: a React project with TailwindCSS",
    needs: ["bun"],
    command: `cd $D && ${BUN} init; echo done > $OUT`,
    steps: [
      { wait: "Select a project template" },
      { act: ["choose", "React"] },
      { wait: "Select a React template" },
      { act: ["choose", "TailwindCSS"] },
    ],
    reference: [
      { wait: "Select a project template" },
      { sleep: 500 },
      { send: "\\x1b[B\\r" },
      { wait: "Select a React template" },
      { sleep: 500 },
      { send: "\\x1b[B\\r" },
    ],
    check: (dir, o) => read(o) === "done" && read(join(dir, "package.json")).includes("tailwind"),
  },
  tauri(
    "create-tauri-app: notes-app, TypeScript/JavaScript with npm, Vue, TypeScript",
    [
      { act: ["fill", "Project name", "notes-app", "--submit"] },
      { wait: "Identifier" },
      { act: ["fill", "Identifier", "com.example.notes", "--submit"] },
      { wait: "language" },
      { act: ["choose", "TypeScript / JavaScript"] },
      { wait: "package manager" },
      { act: ["choose", "npm"] },
      { wait: "UI template" },
      { act: ["choose", "Vue"] },
      { wait: "UI flavor" },
      { act: ["choose", "TypeScript"] },
    ],
    [
      { send: "notes-app\\r" },
      { wait: "Identifier" },
      { send: "com.example.notes\\r" },
      { wait: "language" },
      { sleep: 300 },
      { send: "\\r" },
      { wait: "package manager" },
      { sleep: 300 },
      { send: "\\x1b[B\\x1b[B\\r" },
      { wait: "UI template" },
      { sleep: 300 },
      { send: "\\x1b[B\\r" },
      { wait: "UI flavor" },
      { sleep: 300 },
      { send: "\\r" },
    ],
    (dir) => {
      const pkg = read(join(dir, "notes-app", "package.json"));
      const conf = read(join(dir, "notes-app", "src-tauri", "tauri.conf.json"));
      return (
        pkg.includes('"vue"') &&
        pkg.includes('"typescript"') &&
        conf.includes('"com.example.notes"') &&
        !existsSync(join(dir, "notes-app", "pnpm-lock.yaml"))
      );
    },
  ),
  tauri(
    "create-tauri-app: clock, Rust frontend with Leptos",
    [
      { act: ["fill", "Project name", "clock", "--submit"] },
      { wait: "Identifier" },
      { act: ["fill", "Identifier", "com.example.clock", "--submit"] },
      { wait: "language" },
      { act: ["choose", "Rust"] },
      { wait: "UI template" },
      { act: ["choose", "Leptos"] },
    ],
    [
      { send: "clock\\r" },
      { wait: "Identifier" },
      { send: "com.example.clock\\r" },
      { wait: "language" },
      { sleep: 300 },
      { send: "\\x1b[B\\r" },
      { wait: "UI template" },
      { sleep: 300 },
      { send: RUST_LEPTOS },
    ],
    (dir) =>
      read(join(dir, "clock", "Cargo.toml")).includes("leptos") &&
      read(join(dir, "clock", "src-tauri", "tauri.conf.json")).includes('"com.example.clock"'),
  ),
  fdupes(
    "fdupes -d: keep photos/beach.jpg, delete its copy",
    [{ act: ["choose", "photos/beach.jpg"] }],
    [{ send: "1\\r" }],
    ["photos/beach.jpg"],
    ["backup/beach-copy.jpg"],
  ),
  fdupes(
    "fdupes -d: keep both (all)",
    [{ act: ["fill", "Set 1 of 1, preserve files [1 - 2, all, quit]", "all", "--submit"] }],
    [{ send: "all\\r" }],
    ["photos/beach.jpg", "backup/beach-copy.jpg"],
    [],
  ),
  {
    name: "units: 3 miles in km (logged), then quit",
    needs: ["units"],
    command: "HOME=$D units --log $D/units.log; echo done > $OUT",
    steps: [
      { wait: "You have:" },
      { act: ["fill", "You have", "3 miles", "--submit"] },
      { wait: "You want:" },
      { act: ["fill", "You want", "km", "--submit"] },
      // units writes its log when it ends: `quit` at its prompt ends it.
      { wait: "You have:", count: 2 },
      { act: ["fill", "You have", "quit", "--submit"] },
    ],
    reference: [
      { wait: "You have:" },
      { send: "3 miles\\r" },
      { wait: "You want:" },
      { send: "km\\r" },
      { wait: "You have:", count: 2 },
      { send: "quit\\r" },
    ],
    check: (dir, o) =>
      read(o) === "done" && /From: 3 miles\nTo:\s+km\n\s*\* 4\.828032/.test(read(join(dir, "units.log"))),
  },
  irb("deploy_staging", "staging", 0),
  irb("deploy_production", "production", 1),
];

/** irb with two methods that share a prefix: type the prefix, pick one from the completion dialog. */
function irb(method: string, written: string, index: number): Task {
  return {
    name: `irb: type deploy_ and pick ${method} from the completion dialog`,
    needs: ["irb"],
    setup(dir) {
      writeFileSync(
        join(dir, "irbrc"),
        'def deploy_staging; File.write("out.txt", "staging"); end\ndef deploy_production; File.write("out.txt", "production"); end\n',
      );
    },
    command: "cd $D && HOME=$D IRBRC=$D/irbrc irb; echo done > $OUT",
    steps: [
      { wait: "irb(main)" },
      { act: ["fill", CURSOR_INPUT, "deploy_"] },
      { wait: "deploy_staging" },
      { act: ["choose", method] },
    ],
    reference: [
      { wait: "irb(main)" },
      { send: "deploy_" },
      { wait: "deploy_staging" },
      { sleep: 300 },
      { send: `${"\\t".repeat(index + 1)}` },
      { sleep: 300 },
      { send: "\\r" },
    ],
    check: (dir) => read(join(dir, "out.txt")) === written,
  };
}

interface Reply {
  effect?: string;
  seen?: string;
  error?: string;
}

/** The ref of the input that holds the cursor, from `snapshot --json`; undefined when none does. */
function cursorInput(snapshot: unknown): string | undefined {
  let found: string | undefined;
  const walk = (node: unknown) => {
    if (found || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return void node.forEach(walk);
    const el = node as Record<string, unknown>;
    if (el.kind === "input" && el.cursor === true && typeof el.ref === "string") found = el.ref;
    for (const value of Object.values(el)) walk(value);
  };
  walk(snapshot);
  return found;
}

/** Run the tasks in order (by meaning, or with raw keys when `reference`); each line of `log` says what happened. */
export async function runBlindTasks(
  log: (line: string) => void,
  options: {
    reference?: boolean;
    only?: number[];
    /** Another suite's tasks (bench/tasks-blind3.ts) and the bin directory of its npm tools. */
    tasks?: Task[];
    toolsBin?: string;
  } = {},
): Promise<Record<Outcome, number>> {
  const home = mkdtempSync(join(tmpdir(), "t4a-blind-tasks-"));
  execFileSync("chmod", ["700", home]);
  const env = { ...process.env, T4A_SOCKET: join(home, "t4a.sock") };
  const tasks = options.tasks ?? TASKS;
  const toolsBin = options.tasks ? options.toolsBin : npmTools();
  const t4a = (args: string[]) => {
    const child = spawnSync(BIN, args, { env, encoding: "utf8" });
    return { ok: child.status === 0, out: child.stdout, err: child.stderr.trim() };
  };
  const counts: Record<Outcome, number> = { done: 0, uncertain: 0, refused: 0, wrong: 0, skipped: 0 };
  try {
    for (const [index, task] of tasks.entries()) {
      if (options.only && !options.only.includes(index + 1)) continue;
      const missing = task.needs.filter((program) =>
        toolsBin && existsSync(join(toolsBin, program))
          ? false
          : program === "create-tauri-app" || program === "deno"
            ? !toolsBin
            : program === "bun"
              ? false
              : !Bun.which(program) && !existsSync(`/usr/sbin/${program}`),
      );
      if (missing.length) {
        counts.skipped++;
        log(`${index + 1}. skipped (${missing.join(", ")} not here): ${task.name}`);
        continue;
      }
      const dir = join(home, `task${index + 1}`);
      mkdirSync(dir);
      task.setup?.(dir);
      const outFile = join(dir, "out");
      const sub = (text: string) =>
        text
          .replaceAll("$D", dir)
          .replaceAll("$OUT", outFile)
          .replaceAll("$T", toolsBin ?? "");
      const line = sub(task.command);
      const id = t4a([
        "create",
        "--cwd",
        dir,
        "--",
        "bash",
        "--norc",
        "-c",
        `export PATH=$PATH:/usr/sbin:/sbin; ${line}; sleep 600`,
      ]).out.trim();
      const replies: Reply[] = [];
      let failed = "";
      const steps = options.reference ? task.reference : task.steps;
      for (const step of steps) {
        if ("wait" in step) {
          // On the screen, not only in new output: it may have come before this step.
          const until = Date.now() + 30_000;
          const shown = () => t4a(["text", id]).out.split(step.wait).length - 1 >= (step.count ?? 1);
          while (!shown() && Date.now() < until) await Bun.sleep(150);
          if (!shown()) {
            failed = `never showed "${step.wait}"`;
            break;
          }
          t4a(["wait", id, "--idle", "300ms", "--timeout", "5s"]);
          continue;
        }
        if ("sleep" in step) {
          await Bun.sleep(step.sleep);
          continue;
        }
        if ("send" in step) {
          // $D and the rest as in the command: a reference types the same path the by-meaning step fills.
          t4a(["send", id, sub(step.send)]);
          continue;
        }
        const [verb, ...rest] = step.act.map(sub);
        let args = rest;
        if (args[0] === CURSOR_INPUT) {
          // What an agent does with a prompt that has no words: read the snapshot, take the field with the cursor.
          const snap = t4a(["snapshot", id, "--json"]);
          let ref: string | undefined;
          try {
            ref = snap.ok ? cursorInput(JSON.parse(snap.out)) : undefined;
          } catch {
            ref = undefined;
          }
          if (!ref) {
            failed = `${verb}: the snapshot shows no input holding the cursor`;
            break;
          }
          args = [ref, ...args.slice(1)];
        }
        const done = t4a([verb!, id, ...args, "--json"]);
        if (!done.ok) {
          failed = `${verb} ${args.join(" ")}: ${(done.err || done.out).trim().replace(/^t4a: /, "") || "failed"}`;
          break;
        }
        let reply: Reply;
        try {
          reply = JSON.parse(done.out) as Reply;
        } catch {
          failed = `${verb} ${args.join(" ")}: a reply that is not JSON: ${done.out.slice(0, 120)}`;
          break;
        }
        replies.push(reply);
        if (!DONE.has(reply.effect ?? "")) break;
      }
      // The outcome, once the program has had time to write it.
      const settle = Date.now() + 15_000;
      while (!existsSync(outFile) && Date.now() < settle) await Bun.sleep(100);
      await Bun.sleep(300);
      const right = task.check(dir, outFile);
      const acts = steps.filter((s) => "act" in s).length;
      const claimed = !failed && replies.length === acts;
      const allDone = claimed && replies.every((r) => DONE.has(r.effect ?? ""));
      const outcome: Outcome = options.reference
        ? failed || !right
          ? "wrong"
          : "done"
        : failed
          ? "refused"
          : !allDone
            ? "uncertain"
            : right
              ? "done"
              : "wrong";
      counts[outcome]++;
      const last = replies[replies.length - 1];
      const why = failed || (last ? `${last.effect}${last.seen ? `: ${last.seen}` : ""}` : "");
      log(
        `${index + 1}. ${options.reference ? (outcome === "done" ? "reference passes" : "REFERENCE FAILS") : outcome}${!options.reference && outcome !== "done" ? ` (outcome ${right ? "right" : "not right"})` : ""}: ${task.name}${why ? ` — ${why.slice(0, 200)}` : ""}`,
      );
      if (!right && process.env.T4A_BLIND_DEBUG) log(t4a(["text", id]).out);
      t4a(["kill", id]);
    }
  } finally {
    t4a(["shutdown"]);
    if (!process.env.T4A_BLIND_KEEP) rmSync(home, { recursive: true, force: true });
  }
  return counts;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlindTasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
