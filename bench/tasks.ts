// The end-to-end task suite of issue 59: concrete tasks on programs of families not in the
// detector's train set, each done by meaning only (snapshot text in, choose/fill by label out, no
// raw keys), its outcome checked from outside (a file, the program's own output). Each task is:
// done (every action answered its goal state and the outcome is right), uncertain (an action said
// so), refused (an action failed, saying what the screen showed), or wrong (actions reported done
// and the outcome is not what was asked: the worst, the goal is none). Run by `npm run bench elements`.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startSshd } from "../test/fixtures/sshd.ts";

const BIN = resolve(import.meta.dir, "../dist/t4a");
const PROGRAMS = resolve(import.meta.dir, "../test/fixtures/programs");
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

type Step = { wait: string } | { act: string[] };
interface Task {
  name: string;
  /** Programs that must be on the machine; the task is skipped (and said so) without them. */
  needs: string[];
  setup?: (dir: string) => void;
  /** A bash line; $D is the task's directory, $OUT a file for the program's answer. */
  command: string;
  steps: Step[];
  check: (dir: string, out: string) => boolean;
}

export type Outcome = "done" | "uncertain" | "refused" | "wrong" | "skipped";

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
const md5 = (file: string) => execFileSync("md5sum", [file]).toString().split(" ")[0]!;

function tz(picks: string[], expected: string): Task {
  return {
    name: `tzselect: ${picks.join(" / ")} gives ${expected}`,
    needs: ["tzselect"],
    command: "tzselect > $OUT",
    steps: [{ wait: "#?" }, ...picks.flatMap((pick) => [{ act: ["choose", pick] }, { wait: "#?" }]).slice(0, -1)],
    check: (_dir, out) => read(out) === expected,
  };
}

function unzip(name: string, steps: Step[], check: (dir: string) => boolean): Task {
  return {
    name,
    needs: ["unzip", "zip"],
    setup(dir) {
      writeFileSync(join(dir, "notes.txt"), "one\n");
      writeFileSync(join(dir, "todo.txt"), "two\n");
      execFileSync("zip", ["-q", "a.zip", "notes.txt", "todo.txt"], { cwd: dir });
      writeFileSync(join(dir, "notes.txt"), "mine\n");
      writeFileSync(join(dir, "todo.txt"), "mine too\n");
    },
    command: "cd $D && unzip a.zip; echo done > $OUT",
    steps: [{ wait: "replace notes.txt?" }, ...steps],
    check: (dir) => check(dir),
  };
}

function mkfs(answer: string, formatted: boolean): Task {
  return {
    name: `mke2fs on a disk image holding a file system: answer ${answer}`,
    needs: ["mkfs.ext4"],
    setup(dir) {
      execFileSync("truncate", ["-s", "8M", join(dir, "disk.img")]);
      execFileSync("mkfs.ext4", ["-q", "-F", join(dir, "disk.img")]);
      writeFileSync(join(dir, "before"), md5(join(dir, "disk.img")));
    },
    command: "mkfs.ext4 $D/disk.img; echo done > $OUT",
    steps: [{ wait: "Proceed anyway?" }, { act: ["choose", answer] }],
    check: (dir) => (md5(join(dir, "disk.img")) !== read(join(dir, "before"))) === formatted,
  };
}

function alternatives(pick: string[], expected: string): Task {
  return {
    name: `update-alternatives --config, 12 choices: ${pick.join(" ")}`,
    needs: ["update-alternatives"],
    setup(dir) {
      mkdirSync(join(dir, "alt"));
      mkdirSync(join(dir, "admin"));
      mkdirSync(join(dir, "links"));
      for (let i = 1; i <= 12; i++) {
        writeFileSync(join(dir, "alt", `browser${i}`), `#!/bin/sh\necho browser${i}\n`, { mode: 0o755 });
        execFileSync("update-alternatives", [
          "--admindir",
          join(dir, "admin"),
          "--altdir",
          join(dir, "links"),
          "--install",
          join(dir, "www-browser"),
          "www-browser",
          join(dir, "alt", `browser${i}`),
          String(i * 10),
        ]);
      }
    },
    command: "update-alternatives --admindir $D/admin --altdir $D/links --config www-browser; echo done > $OUT",
    steps: [{ wait: "selection number" }, { act: pick }],
    check: (dir) =>
      execFileSync("update-alternatives", [
        "--admindir",
        join(dir, "admin"),
        "--altdir",
        join(dir, "links"),
        "--query",
        "www-browser",
      ])
        .toString()
        .includes(`Value: ${join(dir, "alt", expected)}`),
  };
}

function vite(name: string, steps: Step[], check: (pkg: string) => boolean): Task {
  return {
    name,
    needs: ["create-vite"],
    command: "cd $D && create-vite; echo done > $OUT",
    steps: [{ wait: "Project name" }, ...steps],
    check: (dir) => check(read(join(dir, "garden-app", "package.json"))),
  };
}

const py = (file: string) => `python3 ${PROGRAMS}/${file} $OUT`;

/** create-next-app 15 (the `prompts` library's one-row toggles "No / Yes"); what it scaffolds is checked. */
function next(name: string, steps: Step[], check: (app: (file: string) => string) => boolean): Task {
  return {
    name,
    needs: ["create-next-app"],
    command:
      "cd $D && create-next-app myapp --skip-install --disable-git --use-npm " +
      '--app --turbopack --no-src-dir --import-alias "@/*"; echo done > $OUT',
    steps: [{ wait: "TypeScript?" }, ...steps],
    check: (dir) =>
      check((file) => (existsSync(join(dir, "myapp", file)) ? read(join(dir, "myapp", file)) || " " : "")),
  };
}

/**
 * ssh to a local sshd whose host key is not known: "(yes/no/[fingerprint])?" answered by a word;
 * logged in and the key kept, or refused and nothing kept. $SSHCONF and $SSHPORT name the sshd.
 */
function hostKey(answer: string, accepted: boolean): Task {
  return {
    name: `ssh, host key unknown: answer ${answer}`,
    needs: ["ssh", "sshd"],
    command:
      "ssh -F $SSHCONF -o StrictHostKeyChecking=ask -o UserKnownHostsFile=$D/known -p $SSHPORT 127.0.0.1 " +
      "echo logged-in > $OUT",
    steps: [{ wait: "(yes/no/[fingerprint])?" }, { act: ["choose", answer] }],
    check: (dir, out) =>
      accepted
        ? read(out) === "logged-in" && read(join(dir, "known")).includes("ssh-ed25519")
        : read(out) === "" && !existsSync(join(dir, "known")),
  };
}

/**
 * dpkg's conffile question (Y/I/N/O/D/Z), answered by what its legend says: version 1.0 of a tiny
 * package installed into a private root, its conffile changed, then 1.1 installed over it.
 */
function conffile(answer: string, expected: string): Task {
  return {
    name: `dpkg conffile question: ${answer}`,
    needs: ["dpkg-deb", "dpkg"],
    setup(dir) {
      const root = join(dir, "root");
      mkdirSync(join(root, "var/lib/dpkg/updates"), { recursive: true });
      mkdirSync(join(root, "var/lib/dpkg/info"), { recursive: true });
      writeFileSync(join(root, "var/lib/dpkg/status"), "");
      for (const version of ["1.0", "1.1"]) {
        const pkg = join(dir, `pkg-${version}`);
        mkdirSync(join(pkg, "DEBIAN"), { recursive: true });
        mkdirSync(join(pkg, "etc/demo"), { recursive: true });
        writeFileSync(
          join(pkg, "DEBIAN/control"),
          `Package: t4a-bench-conf\nVersion: ${version}\nArchitecture: all\n` +
            "Maintainer: t4a <t4a@example.org>\nDescription: demo\n",
        );
        writeFileSync(join(pkg, "DEBIAN/conffiles"), "/etc/demo/demo.conf\n");
        writeFileSync(join(pkg, "etc/demo/demo.conf"), `setting = ${version}\n`);
        execFileSync("dpkg-deb", ["-b", pkg, `${pkg}.deb`], { stdio: "ignore" });
      }
      execFileSync("dpkg", ["--force-not-root", `--root=${root}`, "-i", join(dir, "pkg-1.0.deb")], { stdio: "ignore" });
      writeFileSync(join(root, "etc/demo/demo.conf"), "setting = mine\n");
    },
    command: "dpkg --force-not-root --root=$D/root -i $D/pkg-1.1.deb; echo done > $OUT",
    steps: [{ wait: "[default=N]" }, { act: ["choose", answer] }],
    check: (dir) => read(join(dir, "root/etc/demo/demo.conf")) === expected,
  };
}

export const TASKS: Task[] = [
  tz(["Europe", "Spain", "Spain (mainland)", "Yes"], "Europe/Madrid"),
  tz(["Europe", "Spain", "Canary Islands", "Yes"], "Atlantic/Canary"),
  // (Sweden's clocks agree with most of Germany's since tzdata 2022: tzselect gives Europe/Berlin.)
  tz(["Europe", "Sweden", "Yes"], "Europe/Berlin"),
  tz(["Asia", "Japan", "Yes"], "Asia/Tokyo"),
  alternatives(["choose", "$D/alt/browser7"], "browser7"),
  alternatives(["fill", "selection number", "10", "--submit"], "browser7"),
  unzip(
    "unzip: keep every file that is there ([N]one)",
    [{ act: ["choose", "[N]one"] }],
    (dir) => read(join(dir, "notes.txt")) === "mine" && read(join(dir, "todo.txt")) === "mine too",
  ),
  unzip(
    "unzip: replace them all ([A]ll)",
    [{ act: ["choose", "[A]ll"] }],
    (dir) => read(join(dir, "notes.txt")) === "one" && read(join(dir, "todo.txt")) === "two",
  ),
  unzip(
    "unzip: extract notes.txt under a new name, keep todo.txt",
    [
      { act: ["choose", "[r]ename"] },
      { wait: "new name" },
      { act: ["fill", "new name", "notes-zip.txt", "--submit"] },
      { wait: "replace todo.txt?" },
      { act: ["choose", "[n]o"] },
    ],
    (dir) =>
      read(join(dir, "notes-zip.txt")) === "one" &&
      read(join(dir, "notes.txt")) === "mine" &&
      read(join(dir, "todo.txt")) === "mine too",
  ),
  mkfs("N", false),
  mkfs("y", true),
  {
    name: "Python getpass: give the vault password",
    needs: ["python3"],
    command: `python3 -c "import getpass; open('$OUT','w').write(getpass.getpass('Vault password: '))"`,
    steps: [{ wait: "Vault password" }, { act: ["fill", "Vault password", "hunter22", "--submit"] }],
    check: (_dir, out) => read(out) === "hunter22",
  },
  {
    name: "bash read -p: give a name",
    needs: ["bash"],
    command: 'read -r -p "Full name: " n; printf %s "$n" > $OUT',
    steps: [{ wait: "Full name" }, { act: ["fill", "Full name", "Ada Lovelace", "--submit"] }],
    check: (_dir, out) => read(out) === "Ada Lovelace",
  },
  {
    name: "bash select: pick deploy",
    needs: ["bash"],
    command: 'PS3="Action: "; select a in build test deploy quit; do printf %s "$a" > $OUT; break; done',
    steps: [{ wait: "Action:" }, { act: ["choose", "deploy"] }],
    check: (_dir, out) => read(out) === "deploy",
  },
  {
    name: "numbered list of 12 (python input()): pick Kiwi, item 10",
    needs: ["python3"],
    command: py("numbered.py"),
    steps: [{ wait: "Number:" }, { act: ["choose", "Kiwi"] }],
    check: (_dir, out) => read(out) === "Kiwi",
  },
  {
    name: "list whose focused item grows a description: pick Router",
    needs: ["python3"],
    command: py("grow-menu.py"),
    steps: [{ wait: "Vitest" }, { act: ["choose", "Router"] }],
    check: (_dir, out) => read(out) === "Router",
  },
  {
    name: "masked password field (one * per key): set s3cret",
    needs: ["python3"],
    command: py("masked.py"),
    steps: [{ wait: "Password:" }, { act: ["fill", "Password", "s3cret", "--submit"] }],
    check: (_dir, out) => read(out) === "s3cret",
  },
  {
    name: "one-key question that clears the screen: answer yes",
    needs: ["python3"],
    command: py("single-key.py"),
    steps: [{ wait: "Overwrite" }, { act: ["choose", "yes"] }],
    check: (_dir, out) => read(out) === "y",
  },
  vite(
    "create-vite: React + TypeScript, Oxlint, no install",
    [
      { act: ["fill", "Project name", "garden-app", "--submit"] },
      { wait: "framework" },
      { act: ["choose", "React"] },
      { wait: "variant" },
      { act: ["choose", "TypeScript"] },
      { wait: "linter" },
      { act: ["choose", "Oxlint"] },
      { wait: "Install with" },
      { act: ["choose", "No"] },
    ],
    (pkg) => pkg.includes('"react"') && pkg.includes('"typescript"') && pkg.includes("oxlint"),
  ),
  vite(
    "create-vite: Vanilla JavaScript, no install",
    [
      { act: ["fill", "Project name", "garden-app", "--submit"] },
      { wait: "framework" },
      { act: ["choose", "Vanilla"] },
      { wait: "variant" },
      { act: ["choose", "JavaScript"] },
      { wait: "Install with" },
      { act: ["choose", "No"] },
    ],
    (pkg) => pkg.includes('"vite"') && !pkg.includes("typescript"),
  ),
  vite(
    "create-vite: Vue + TypeScript, no install",
    [
      { act: ["fill", "Project name", "garden-app", "--submit"] },
      { wait: "framework" },
      { act: ["choose", "Vue"] },
      { wait: "variant" },
      { act: ["choose", "TypeScript"] },
      { wait: "Install with" },
      { act: ["choose", "No"] },
    ],
    (pkg) => pkg.includes('"vue"') && pkg.includes("typescript"),
  ),
  next(
    "create-next-app: JavaScript (TypeScript No), Biome, Tailwind Yes",
    [
      { act: ["choose", "No"] },
      { wait: "linter" },
      { act: ["choose", "Biome"] },
      { wait: "Tailwind CSS?" },
      { act: ["choose", "Yes"] },
    ],
    (app) =>
      !!app("jsconfig.json") &&
      !app("tsconfig.json") &&
      !!app("biome.json") &&
      app("package.json").includes("tailwindcss"),
  ),
  next(
    "create-next-app: TypeScript Yes, ESLint, Tailwind No",
    [
      { act: ["choose", "Yes"] },
      { wait: "linter" },
      { act: ["choose", "ESLint"] },
      { wait: "Tailwind CSS?" },
      { act: ["choose", "No"] },
    ],
    (app) => !!app("tsconfig.json") && !!app("eslint.config.mjs") && !app("package.json").includes("tailwindcss"),
  ),
  hostKey("yes", true),
  hostKey("no", false),
  conffile("keep your currently-installed version", "setting = mine"),
  conffile("install the package maintainer's version", "setting = 1.1"),
];

/** The scaffolders the tasks run, pinned, from the npm registry. */
const TOOLS: Record<string, string> = {
  "create-vite": "create-vite@9.3.0",
  "create-next-app": "create-next-app@15.5.28",
};

/**
 * The scaffolders, installed once into a cache directory: the ones there (a failed install leaves its tasks skipped).
 */
function benchTools(): { bin: string; installed: Set<string> } {
  const dir = join(tmpdir(), "t4a-bench-tools");
  const bin = join(dir, "node_modules", ".bin");
  const missing = Object.keys(TOOLS).filter((tool) => !existsSync(join(bin, tool)));
  if (missing.length)
    spawnSync("npm", ["i", "--prefix", dir, "--no-audit", "--no-fund", ...missing.map((tool) => TOOLS[tool]!)], {
      stdio: "ignore",
    });
  return { bin, installed: new Set(Object.keys(TOOLS).filter((tool) => existsSync(join(bin, tool)))) };
}

interface Reply {
  effect?: string;
  seen?: string;
  error?: string;
}

/** Run every task once, in order; each line of `log` says what happened. */
export async function runTasks(log: (line: string) => void, only = ""): Promise<Record<Outcome, number>> {
  const home = mkdtempSync(join(tmpdir(), "t4a-tasks-"));
  chmod700(home);
  const env = { ...process.env, T4A_SOCKET: join(home, "t4a.sock") };
  const tools = benchTools();
  const path = `${tools.installed.size ? `${tools.bin}:` : ""}${process.env.PATH}`;
  const t4a = (args: string[]) => {
    const child = spawnSync(BIN, args, { env: { ...env, PATH: path }, encoding: "utf8" });
    return { ok: child.status === 0, out: child.stdout, err: child.stderr.trim() };
  };
  const counts: Record<Outcome, number> = { done: 0, uncertain: 0, refused: 0, wrong: 0, skipped: 0 };
  // A local sshd for the host-key tasks (test/fixtures/sshd.ts), when one is installed.
  const wanted = TASKS.filter((task) => task.name.includes(only));
  const sshd = wanted.some((task) => task.needs.includes("sshd"))
    ? await startSshd(join(home, "ssh")).catch(() => undefined)
    : undefined;
  try {
    for (const [index, task] of TASKS.entries()) {
      if (!task.name.includes(only)) continue;
      const missing = task.needs.filter((program) =>
        program in TOOLS ? !tools.installed.has(program) : program === "sshd" ? !sshd : !Bun.which(program),
      );
      if (missing.length) {
        counts.skipped++;
        log(`${index + 1}. skipped (${missing.join(", ")} not here): ${task.name}`);
        continue;
      }
      const dir = join(home, `task${index + 1}`);
      mkdirSync(dir);
      task.setup?.(dir);
      const out = join(dir, "out");
      const line = task.command
        .replaceAll("$D", dir)
        .replaceAll("$OUT", out)
        .replaceAll("$SSHCONF", sshd?.config ?? "")
        .replaceAll("$SSHPORT", String(sshd?.port ?? 0));
      const id = t4a(["create", "--cwd", dir, "--", "bash", "--norc", "-c", `${line}; sleep 600`]).out.trim();
      const replies: Reply[] = [];
      let failed = "";
      for (const step of task.steps) {
        if ("wait" in step) {
          // On the screen, not only in new output: it may have come before this step.
          const until = Date.now() + 20_000;
          while (!t4a(["text", id]).out.includes(step.wait) && Date.now() < until) await Bun.sleep(150);
          if (!t4a(["text", id]).out.includes(step.wait)) {
            failed = `never showed "${step.wait}"`;
            break;
          }
          t4a(["wait", id, "--idle", "300ms", "--timeout", "5s"]);
          continue;
        }
        const [verb, ...args] = step.act.map((a) => a.replace(/^\$D/, dir));
        const done = t4a([verb!, id, ...args, "--json"]);
        if (!done.ok) {
          failed = `${verb} ${args.join(" ")}: ${(done.err || done.out).trim().replace(/^t4a: /, "") || "failed"}`;
          break;
        }
        const reply = JSON.parse(done.out) as Reply;
        replies.push(reply);
        if (!DONE.has(reply.effect ?? "")) break;
      }
      // The outcome, once the program has had time to write it.
      const settle = Date.now() + 5000;
      while (!existsSync(out) && Date.now() < settle) await Bun.sleep(100);
      await Bun.sleep(200);
      const right = task.check(dir, out);
      const claimed = !failed && replies.length === task.steps.filter((s) => "act" in s).length;
      const allDone = claimed && replies.every((r) => DONE.has(r.effect ?? ""));
      const outcome: Outcome = failed ? "refused" : !allDone ? "uncertain" : right ? "done" : "wrong";
      counts[outcome]++;
      const last = replies[replies.length - 1];
      const why = failed || (last ? `${last.effect}${last.seen ? `: ${last.seen}` : ""}` : "");
      log(
        `${index + 1}. ${outcome}${outcome !== "done" ? ` (outcome ${right ? "right" : "not right"})` : ""}: ` +
          `${task.name} — ${why.slice(0, 160)}`,
      );
      t4a(["kill", id]);
    }
  } finally {
    sshd?.stop();
    t4a(["shutdown"]);
    rmSync(home, { recursive: true, force: true });
  }
  return counts;
}

function chmod700(dir: string): void {
  execFileSync("chmod", ["700", dir]);
}

// `npx bun bench/tasks.ts [WORDS]`: every task, or those whose name holds WORDS.
if (import.meta.main) {
  const counts = await runTasks((line) => console.log(line), process.argv[2] ?? "");
  console.log(counts);
}
