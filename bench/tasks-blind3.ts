// The blind task suite of issue 59 for blind set 3 (test/fixtures/blind3): end-to-end tasks on its
// programs (none of their families in train nor in the earlier blind sets), written by an engineer
// who had not read the detector nor the acting code, before either ran on these programs. Each task is
// done by meaning only (`choose`/`fill` by the label the screen shows; where a prompt has no words of
// its own or its words wrap over rows, the field holding the cursor read from the snapshot; no raw
// keys) and its outcome is checked from outside (a file, a repository, a key, the program's own check).
// Each task also has a raw-key reference run that proves its checker: `npx bun bench/tasks-blind3.ts
// --reference` must pass every task. The harness is bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind3.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind3");
const TOOLS = "/tmp/t4a-blind3-tools";
const NPM_TOOLS = [
  "create-vue@3.24.0",
  "@changesets/cli@2.31.1",
  "hygen@6.2.11",
  "plop@4.0.5",
  "commitizen@4.3.2",
  "cz-conventional-changelog@3.3.0",
];
const DOWN = "\\x1b[B";
const LEFT = "\\x1b[D";

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
const run = (cmd: string, args: string[], env: Record<string, string> = {}) => {
  const child = spawnSync(cmd, args, {
    env: { ...process.env, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { status: child.status, out: `${child.stdout ?? ""}${child.stderr ?? ""}` };
};
/** A fixture set-up script of test/fixtures/blind3 (mk-*.sh), run into `dir`. */
const mk = (script: string, ...args: string[]) => execFileSync(join(HERE, script), args, { stdio: "ignore" });

function npmTools(): string | undefined {
  const bin = join(TOOLS, "node_modules", ".bin");
  const have = () => ["create-vue", "changeset", "hygen", "plop", "cz"].every((b) => existsSync(join(bin, b)));
  if (!have()) spawnSync("npm", ["i", "--prefix", TOOLS, "--no-audit", "--no-fund", ...NPM_TOOLS], { stdio: "ignore" });
  return have() ? bin : undefined;
}

/** Wait for a text, then act (by meaning) or send (reference): the pair both runs share. */
type Pair = [wait: string | undefined, act: string[], keys: string, sleep?: number];
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
      steps.push({ wait });
      reference.push({ wait });
    }
    steps.push({ act });
    // Keys split by "|" are sent apart (smenu loses arrow keys that come in one burst).
    for (const part of keys.split("|")) reference.push({ sleep: sleep ?? 300 }, { send: part });
  }
  return { name, needs, command, steps, reference, check, setup };
}

// ---- create-vue
const vuePkg = (dir: string, app: string) => read(join(dir, app, "package.json"));
const vue1 = task(
  "create-vue: shop-ui in TypeScript with Router and Pinia, Vue 3.6 RC with pnpm, a blank project",
  ["create-vue"],
  "cd $D && $T/create-vue; echo done > $OUT",
  [
    ["Project name", ["fill", "Project name (target directory)", "shop-ui", "--submit"], "shop-ui\\r"],
    ["Use TypeScript?", ["choose", "Yes"], "\\r"],
    ["Select features", ["choose", "Router (SPA development)"], `${DOWN} `],
    [undefined, ["choose", "Pinia (state management)", "--submit"], `${DOWN} \\r`],
    ["Select experimental", ["choose", "Vue 3.6 (Release Candidate)", "--submit"], `${DOWN} \\r`],
    ["package manager", ["choose", "pnpm"], `${DOWN}\\r`],
    ["blank Vue project", ["choose", "Yes"], `${LEFT}\\r`],
  ],
  (dir, o) => {
    const pkg = vuePkg(dir, "shop-ui");
    return (
      read(o) === "done" &&
      pkg.includes('"vue-router"') &&
      pkg.includes('"pinia"') &&
      pkg.includes('"typescript"') &&
      existsSync(join(dir, "shop-ui", "pnpm-workspace.yaml")) &&
      !existsSync(join(dir, "shop-ui", "src", "components"))
    );
  },
);
const vue2 = task(
  "create-vue: clock in JavaScript with Vitest and Prettier, Prettier replaced by Oxfmt, example code kept",
  ["create-vue"],
  "cd $D && $T/create-vue; echo done > $OUT",
  [
    ["Project name", ["fill", "Project name (target directory)", "clock", "--submit"], "clock\\r"],
    ["Use TypeScript?", ["choose", "No"], "\\x1b[C\\r"],
    ["Select features", ["choose", "Vitest (unit testing)"], `${DOWN}${DOWN}${DOWN} `],
    [undefined, ["choose", "Prettier (code formatting)", "--submit"], `${DOWN}${DOWN}${DOWN} \\r`],
    ["Select experimental", ["choose", "Replace Prettier with Oxfmt", "--submit"], " \\r"],
    ["blank Vue project", ["choose", "No"], "\\r"],
  ],
  (dir, o) => {
    const pkg = vuePkg(dir, "clock");
    return (
      read(o) === "done" &&
      pkg.includes('"vitest"') &&
      pkg.includes("oxfmt") &&
      !pkg.includes('"typescript"') &&
      existsSync(join(dir, "clock", "src", "components"))
    );
  },
);

// ---- changeset
const changesets = (dir: string) =>
  readdirSync(join(dir, "cs", ".changeset"))
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .map((f) => read(join(dir, "cs", ".changeset", f)));
const changeset1 = task(
  "changeset: a major bump of @acme/core, 'Drop the legacy retry API', confirmed",
  ["changeset"],
  "cd $D/cs && $T/changeset; echo done > $OUT",
  [
    ["Which packages", ["choose", "@acme/core", "--submit"], `${DOWN} \\r`],
    ["major bump", ["choose", "@acme/core@1.2.0", "--submit"], `${DOWN} \\r`],
    ["Summary", ["fill", "Summary", "Drop the legacy retry API", "--submit"], "Drop the legacy retry API\\r"],
    ["desired changeset", ["choose", "Y"], "\\r"],
  ],
  (dir, o) => {
    const all = changesets(dir);
    return (
      read(o) === "done" &&
      all.length === 1 &&
      /"@acme\/core": major/.test(all[0]!) &&
      all[0]!.includes("Drop the legacy retry API")
    );
  },
  (dir) => mk("mk-cs.sh", join(dir, "cs"), join(TOOLS, "node_modules", ".bin", "changeset")),
);
const changeset2 = task(
  "changeset: a major bump of the unchanged @acme/cli, then declined at 'desired changeset?'",
  ["changeset"],
  "cd $D/cs && $T/changeset; echo done > $OUT",
  [
    ["Which packages", ["choose", "@acme/cli", "--submit"], `${DOWN}${DOWN}${DOWN} \\r`],
    ["major bump", ["choose", "@acme/cli@0.4.1", "--submit"], `${DOWN} \\r`],
    // A 0.x package's first major version is asked about again.
    ["first major version", ["choose", "Y"], "\\r"],
    ["Summary", ["fill", "Summary", "Rename the binary", "--submit"], "Rename the binary\\r"],
    ["desired changeset", ["choose", "n"], "n\\r"],
  ],
  (dir, o) =>
    read(o) === "done" && changesets(dir).length === 0 && existsSync(join(dir, "cs", ".changeset", "config.json")),
  (dir) => mk("mk-cs.sh", join(dir, "cs"), join(TOOLS, "node_modules", ".bin", "changeset")),
);

// ---- hygen, plop, commitizen (one project, mk-gen.sh)
const gen = (dir: string) => mk("mk-gen.sh", join(dir, "gen"));
const hygen = (name: string, kind: string, down: string, answer: string, key: string) =>
  task(
    `hygen: component ${name}, kind ${kind}, test file ${answer}`,
    ["hygen"],
    "cd $D/gen && $T/hygen component new; echo done > $OUT",
    [
      ["Component name?", ["fill", "Component name?", name, "--submit"], `${name}\\r`],
      ["Which kind", ["choose", kind], `${down}\\r`],
      ["test file", ["choose", answer], key],
    ],
    (dir, o) =>
      read(o) === "done" &&
      read(join(dir, "gen", "src", `${kind}s`, `${name}.js`)) === `// ${name} (${kind}), test: ${answer === "y"}`,
    gen,
  );
const plop1 = task(
  "plop: component Cart, kind widget, extras test and styles",
  ["plop"],
  "cd $D/gen && $T/plop; echo done > $OUT",
  [
    ["choose a generator", ["choose", "component"], "\\r"],
    ["Component name", ["fill", "Component name", "Cart", "--submit"], "Cart\\r"],
    ["Component kind", ["choose", "widget"], `${DOWN}\\r`],
    ["Extras", ["choose", "test"], `${DOWN} `],
    [undefined, ["choose", "styles", "--submit"], `${DOWN} \\r`],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "gen", "out", "Cart.txt")) === "Cart widget test,styles",
  gen,
);
const plop2 = task(
  "plop: store named cart",
  ["plop"],
  "cd $D/gen && $T/plop; echo done > $OUT",
  [
    ["choose a generator", ["choose", "store"], `${DOWN}\\r`],
    ["Store name", ["fill", "Store name", "cart", "--submit"], "cart\\r"],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "gen", "out", "cart.store.txt")) === "store cart",
  gen,
);
const cz = task(
  "commitizen: fix(config): read the retry count from settings, with a body, not breaking, no issue",
  ["cz", "git"],
  "cd $D/gen && $T/cz; echo done > $OUT",
  [
    ["type of change", ["choose", "fix"], `${DOWN}\\r`],
    // The prompts wrap over two rows: the field with the cursor, read from the snapshot.
    ["scope of this change", ["fill", CURSOR_INPUT, "config", "--submit"], "config\\r"],
    [
      "short, imperative",
      ["fill", CURSOR_INPUT, "read the retry count from settings", "--submit"],
      "read the retry count from settings\\r",
    ],
    ["longer description", ["fill", CURSOR_INPUT, "It was hard-coded to 3.", "--submit"], "It was hard-coded to 3.\\r"],
    ["breaking changes", ["choose", "N"], "\\r"],
    ["open issues", ["choose", "N"], "\\r"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    run("git", ["-C", join(dir, "gen"), "log", "-1", "--format=%s%n%b"]).out.trim() ===
      "fix(config): read the retry count from settings\nIt was hard-coded to 3.",
  gen,
);

// ---- aspell
const SPELL = "Teh quick brown fox jumpd over the lazy dog.\nIt was recieved well.\n";
const spellSetup = (dir: string) => writeFileSync(join(dir, "spell.txt"), SPELL);
const aspell1 = task(
  "aspell: correct the three words from the suggestions (The, jumped, received)",
  ["aspell"],
  "HOME=$D aspell check $D/spell.txt; echo done > $OUT",
  [
    ["Ignore all", ["choose", "The"], "1"],
    ["jumped", ["choose", "jumped"], "1"],
    ["received", ["choose", "received"], "1"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    read(join(dir, "spell.txt")) === "The quick brown fox jumped over the lazy dog.\nIt was received well.",
  spellSetup,
);
const aspell2 = task(
  "aspell: ignore Teh, replace jumpd by a typed 'leapt', exit at recieved",
  ["aspell"],
  "HOME=$D aspell check $D/spell.txt; echo done > $OUT",
  [
    ["Ignore all", ["choose", "Ignore"], "i"],
    ["jumped", ["choose", "Replace"], "r"],
    ["With:", ["fill", "With", "leapt", "--submit"], "leapt\\r"],
    ["received", ["choose", "Exit"], "x"],
  ],
  (dir, o) =>
    read(o) === "done" &&
    read(join(dir, "spell.txt")) === "Teh quick brown fox leapt over the lazy dog.\nIt was recieved well.",
  spellSetup,
);

// ---- smenu
const smenu1 = task(
  "smenu: deploy to canary (a row of words)",
  ["smenu"],
  "echo staging production canary preview local-dev qa-east qa-west | smenu -m 'Deploy to which environment?' > $D/env.txt; echo done > $OUT",
  [["environment", ["choose", "canary"], "\\x1b[C|\\x1b[C|\\r", 600]],
  (dir, o) => read(o) === "done" && read(join(dir, "env.txt")) === "canary",
);
const smenu2 = task(
  "smenu: check out release/2.5 (a numbered column)",
  ["smenu"],
  "printf '%s\\n' main develop feature/login feature/cart fix/ssl-timeout fix/typo release/2.4 release/2.5 hotfix/payments docs/api chore/deps spike/graphql | smenu -c -N -n 8 -m 'Check out which branch?' > $D/br.txt; echo done > $OUT",
  [["branch", ["choose", "release/2.5"], `${`${DOWN}|`.repeat(7)}\\r`, 600]],
  (dir, o) => read(o) === "done" && read(join(dir, "br.txt")) === "release/2.5",
);

// ---- fsck.fat -r
const fsckN = (dir: string, img: string) => run("/usr/sbin/fsck.fat", ["-n", join(dir, img)]).out;
const fat = (name: string, kind: string, pairs: Pair[], check: (report: string) => boolean) => {
  const img = kind === "dirty" ? "fat.img" : "fat32.img";
  return task(
    name,
    ["fsck.fat"],
    `/usr/sbin/fsck.fat -r $D/${img}; echo done > $OUT`,
    pairs,
    (dir, o) => read(o) === "done" && check(fsckN(dir, img)),
    (dir) => mk("mk-fat.sh", kind, join(dir, img)),
  );
};
const fat1 = fat(
  "fsck.fat -r: remove the dirty bit and write the change",
  "dirty",
  [
    ["[12?q]?", ["choose", "Remove dirty bit"], "1"],
    ["Write changes", ["choose", "Write changes"], "1"],
  ],
  (report) => !report.includes("Dirty bit") && report.includes("0 files"),
);
const fat2 = fat(
  "fsck.fat -r: remove the dirty bit, then leave the filesystem unchanged",
  "dirty",
  [
    ["[12?q]?", ["choose", "Remove dirty bit"], "1"],
    ["Write changes", ["choose", "Leave filesystem unchanged"], "2"],
  ],
  (report) => report.includes("Dirty bit"),
);
const fat3 = fat(
  "fsck.fat -r: copy the boot sector to its backup, no action on the dirty bit, write",
  "backup",
  [
    ["[123?q]?", ["choose", "Copy original to backup"], "1"],
    ["Dirty bit", ["choose", "No action"], "2"],
    ["Write changes", ["choose", "Write changes"], "1"],
  ],
  (report) => report.includes("Dirty bit") && !report.includes("differences between boot sector"),
);

// ---- composer init
const composer = task(
  "composer init: acme/retry, a library under MIT, stable, no dependencies, confirmed",
  ["composer"],
  "cd $D/acme-lib && HOME=$D COMPOSER_HOME=$D/.composer composer init; echo done > $OUT",
  [
    [
      "Package name",
      ["fill", "Package name (<vendor>/<name>) [root/acme-lib]", "acme/retry", "--submit"],
      "acme/retry\\r",
    ],
    ["Description", ["fill", "Description []", "Retry helpers", "--submit"], "Retry helpers\\r"],
    [
      "Author",
      ["fill", "Author [n to skip]", "Ada Lovelace <ada@example.org>", "--submit"],
      "Ada Lovelace <ada@example.org>\\r",
    ],
    ["Minimum Stability", ["fill", "Minimum Stability []", "stable", "--submit"], "stable\\r"],
    [
      "Package Type",
      ["fill", "Package Type (e.g. library, project, metapackage, composer-plugin) []", "library", "--submit"],
      "library\\r",
    ],
    ["License", ["fill", "License []", "MIT", "--submit"], "MIT\\r"],
    [
      "(require) interactively",
      ["fill", "Would you like to define your dependencies (require) interactively [yes]?", "no", "--submit"],
      "no\\r",
    ],
    // This prompt and the next wrap over two rows: the field with the cursor.
    ["(require-dev) interactively", ["fill", CURSOR_INPUT, "no", "--submit"], "no\\r"],
    ["PSR-4", ["fill", CURSOR_INPUT, "n", "--submit"], "n\\r"],
    ["confirm generation", ["fill", "Do you confirm generation [yes]?", "yes", "--submit"], "yes\\r"],
  ],
  (dir, o) => {
    const json = read(join(dir, "acme-lib", "composer.json"));
    return (
      read(o) === "done" &&
      json.includes('"name": "acme/retry"') &&
      json.includes('"type": "library"') &&
      json.includes('"license": "MIT"') &&
      json.includes('"minimum-stability": "stable"') &&
      json.includes('"email": "ada@example.org"')
    );
  },
  (dir) => mkdirSync(join(dir, "acme-lib")),
);

// ---- gem uninstall
const gems = (dir: string) => run("gem", ["list", "tidepool"], { GEM_HOME: join(dir, "gem", "gems") }).out;
const gem1 = task(
  "gem uninstall: remove tidepool 1.0.0 only",
  ["gem"],
  "GEM_HOME=$D/gem/gems gem uninstall tidepool; echo done > $OUT",
  [["Select gem", ["choose", "tidepool-1.0.0"], "1\\r"]],
  (dir, o) => read(o) === "done" && gems(dir).includes("tidepool (2.0.0)"),
  (dir) => mk("mk-gem.sh", join(dir, "gem")),
);
const gem2 = task(
  "gem uninstall: all versions, keep the executable",
  ["gem"],
  "GEM_HOME=$D/gem/gems gem uninstall tidepool; echo done > $OUT",
  [
    ["Select gem", ["choose", "All versions"], "3\\r"],
    ["[Yn]", ["choose", "n"], "n\\r"],
  ],
  (dir, o) =>
    read(o) === "done" && !gems(dir).includes("tidepool (") && existsSync(join(dir, "gem", "gems", "bin", "tidepool")),
  (dir) => mk("mk-gem.sh", join(dir, "gem")),
);

// ---- cookiecutter
const cookie = (name: string, slug: string, license: string, key: string, docker: string) =>
  task(
    `cookiecutter: ${name}, license ${license}, docker ${docker}`,
    ["cookiecutter"],
    "cd $D/cc && HOME=$D/cc cookiecutter tpl; echo done > $OUT",
    [
      ["project_name", ["fill", "project_name [My Service]", name, "--submit"], `${name}\\r`],
      ["project_slug", ["fill", `project_slug [${slug}]`, slug, "--submit"], `${slug}\\r`],
      ["author", ["fill", "author [Ada Lovelace]", "Grace Hopper", "--submit"], "Grace Hopper\\r"],
      ["Choose from", ["choose", license], `${key}\\r`],
      ["use_docker", ["fill", "use_docker [n]", docker, "--submit"], `${docker}\\r`],
    ],
    (dir, o) =>
      read(o) === "done" &&
      read(join(dir, "cc", slug, "project.txt")) ===
        `name=${name}\nlicense=${license}\ndocker=${docker}\nauthor=Grace Hopper`,
    (dir) => mk("mk-cc.sh", join(dir, "cc")),
  );

// ---- pass
const PASS_ENV = "GNUPGHOME=$D/pass/gnupg PASSWORD_STORE_DIR=$D/pass/store";
const passShow = (dir: string) =>
  run("pass", ["show", "db/prod"], {
    GNUPGHOME: join(dir, "pass", "gnupg"),
    PASSWORD_STORE_DIR: join(dir, "pass", "store"),
  });
const passSetup = (dir: string) => mk("mk-pass.sh", join(dir, "pass"));
const pass1 = task(
  "pass insert: overwrite db/prod with n3w-secret, typed twice",
  ["pass", "gpg"],
  `${PASS_ENV} pass insert db/prod; echo done > $OUT`,
  [
    ["Overwrite it?", ["choose", "y"], "y\\r"],
    ["Enter password", ["fill", "Enter password for db/prod", "n3w-secret", "--submit"], "n3w-secret\\r"],
    ["Retype", ["fill", "Retype password for db/prod", "n3w-secret", "--submit"], "n3w-secret\\r"],
  ],
  (dir, o) => read(o) === "done" && passShow(dir).out.trim() === "n3w-secret",
  passSetup,
);
const pass2 = task(
  "pass rm: delete db/prod (yes)",
  ["pass", "gpg"],
  `${PASS_ENV} pass rm db/prod; echo done > $OUT`,
  [["Are you sure", ["choose", "y"], "y\\r"]],
  (dir, o) =>
    read(o) === "done" && passShow(dir).status !== 0 && !existsSync(join(dir, "pass", "store", "db", "prod.gpg")),
  passSetup,
);
const pass3 = task(
  "pass rm: keep db/prod (N)",
  ["pass", "gpg"],
  `${PASS_ENV} pass rm db/prod; echo done > $OUT`,
  [["Are you sure", ["choose", "N"], "n\\r"]],
  (dir, o) => read(o) === "done" && passShow(dir).out.trim() === "old-secret",
  passSetup,
);

// ---- gh auth login (survey): up to the SSH key it generates; the network step after is not reached
const gh = task(
  "gh auth login: GitHub Enterprise Server git.example.internal over SSH, a new key with passphrase 'tide pool 42'",
  ["gh", "ssh-keygen"],
  "HOME=$D GH_CONFIG_DIR=$D/cfg gh auth login; echo done > $OUT",
  [
    ["log into", ["choose", "GitHub Enterprise Server"], `${DOWN}\\r`],
    ["hostname", ["fill", "GHE hostname", "git.example.internal", "--submit"], "git.example.internal\\r"],
    ["protocol", ["choose", "SSH"], `${DOWN}\\r`],
    ["SSH key", ["choose", "Y"], "y\\r"],
    [
      "passphrase",
      ["fill", "Enter a passphrase for your new SSH key (Optional)", "tide pool 42", "--submit"],
      "tide pool 42\\r",
    ],
  ],
  (dir) => {
    const key = join(dir, ".ssh", "id_ed25519");
    return (
      existsSync(`${key}.pub`) &&
      run("ssh-keygen", ["-y", "-P", "", "-f", key]).status !== 0 &&
      run("ssh-keygen", ["-y", "-P", "tide pool 42", "-f", key]).status === 0
    );
  },
);

export const TASKS: Task[] = [
  vue1,
  vue2,
  changeset1,
  changeset2,
  hygen("Cart", "widget", DOWN, "y", "y"),
  hygen("Home", "page", "", "N", "\\r"),
  plop1,
  plop2,
  cz,
  aspell1,
  aspell2,
  smenu1,
  smenu2,
  fat1,
  fat2,
  fat3,
  composer,
  gem1,
  gem2,
  cookie("Billing API", "billing-api", "Apache-2.0", "4", "y"),
  cookie("Inventory", "inventory", "MIT", "1", "n"),
  pass1,
  pass2,
  pass3,
  gh,
];

/** The suite on bench/tasks-blind.ts's harness, with this set's npm tools. */
export function runBlind3Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: npmTools() });
}
export { runBlind3Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind3Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
