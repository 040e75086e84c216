// The blind task suite of issue 59 for blind set 14 (test/fixtures/blind14): end-to-end tasks on its
// programs (none of them in train nor in the earlier blind sets), written by an engineer who had not
// read the detector nor the acting code, before either ran on these programs. Each task is done by
// meaning only (`choose`/`fill`/`click` by the label the screen shows, as test/fixtures/blind14/README.md
// labels it; a key hint by its text (`click --text "q to quit"`); where a prompt is only a marker (xmllint's
// `/ >`, mlr's `[mlr]`, wscat's `>`) the field holding the cursor read from the snapshot; no raw keys) and its
// outcome is checked from outside (the .reuse/dep5 reuse writes, the .po file msginit writes, the XML file
// xmllint saves or writes, the CSV file mlr writes, the zone pdnsutil leaves in its SQLite backend, the
// tags gbp makes, the pnpm corepack downloads, the package.json npm changes, the node n installs, what a
// wscat server receives). Each task also has a raw-key reference run that proves its checker:
// `npx bun bench/tasks-blind14.ts --reference` must pass every task. The harness is bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind14.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind14");
/** The npm tools (test/fixtures/blind14/README.md): wscat, n, webpack. */
const TOOLS = "/tmp/t4a-blind14-tools";
const NPM_TOOLS = ["wscat@6.1.0", "n@10.2.0", "webpack@5.113.0"];
const MODULES = join(TOOLS, "node_modules");

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
/** A file's text without colours (mlr colours what it writes when its terminal takes colour). */
const plain = (file: string) => read(file).replace(/\x1b\[[0-9;]*m/g, "");
const run = (cmd: string, args: string[], cwd?: string) => {
  const child = spawnSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  return { status: child.status, out: `${child.stdout ?? ""}${child.stderr ?? ""}` };
};
/** Waits (up to `seconds`) for a file: a program that installs from the registry ends later than the harness waits. */
const waitFor = (file: string, seconds: number) =>
  spawnSync("bash", ["-c", `for i in $(seq ${seconds}); do [ -e "$0" ] && exit 0; sleep 1; done`, file]);
/** A fixture set-up of test/fixtures/blind14/mk-files.sh: DIR/f/KIND made afresh. */
const files =
  (kind: string, env: Record<string, string> = {}) =>
  (dir: string) =>
    execFileSync(join(HERE, "mk-files.sh"), [join(dir, "f"), kind, MODULES], {
      stdio: "ignore",
      env: { ...process.env, ...env },
    });

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
const cursor = (value: string) => ["fill", CURSOR_INPUT, value, "--submit"];
const fill = (label: string, value: string) => ["fill", label, value, "--submit"];
const choose = (label: string) => ["choose", label];
const hint = (text: string) => ["click", "--text", text];
const nth = (text: string, count: number): Wait => ({ text, count });
/** Downloads that are not from a package registry go to a closed port here and fail at once. */
const NOWEB = "https_proxy=http://127.0.0.1:9 http_proxy=http://127.0.0.1:9";

// ---- reuse init (mk-files.sh reuse: a git repository); it writes .reuse/dep5
const LICENSE = "What license is your project under? Provide the SPDX License Identifier.";
const OTHER = "What other license is your project under? Provide the SPDX License Identifier.";
const NAME = "What is the name of the project?";
const ADDRESS = "What is the internet address of the project?";
const MAINTAINER = "What is the name of the maintainer?";
const EMAIL = "What is the e-mail address of the maintainer?";
const REUSE = `cd f/reuse && ${NOWEB} reuse init; echo $? > $OUT`;
const project = (name: string, url: string, who: string, mail: string): Pair[] => [
  ["name of the project", fill(NAME, name), `${name}\\r`],
  ["internet address", fill(ADDRESS, url), `${url}\\r`],
  ["name of the maintainer", fill(MAINTAINER, who), `${who}\\r`],
  ["e-mail address", fill(EMAIL, mail), `${mail}\\r`],
];
const dep5 = (name: string, url: string, contact: string) => (dir: string, o: string) => {
  const text = read(join(dir, "f/reuse/.reuse/dep5"));
  return (
    read(o) === "0" &&
    text.includes(`Upstream-Name: ${name}\n`) &&
    text.includes(`Upstream-Contact: ${contact}\n`) &&
    text.includes(`Source: ${url}`)
  );
};
const reuseInit = task(
  "reuse init: licence MIT, no other, project tides, its address, maintainer Ada Lovelace, her e-mail: dep5 names them",
  ["reuse"],
  REUSE,
  [
    ["What license is your project under", fill(LICENSE, "MIT"), "MIT\\r"],
    ["What other license", fill(OTHER, ""), "\\r"],
    ...project("tides", "https://tides.harbour.test", "Ada Lovelace", "ada@harbour.test"),
  ],
  dep5("tides", "https://tides.harbour.test", "Ada Lovelace <ada@harbour.test>"),
  files("reuse"),
);
const reuseInvalid = task(
  "reuse init: an identifier it refuses (harbour), then MIT when asked again, project buoys by Grace Hopper: dep5",
  ["reuse"],
  REUSE,
  [
    ["What license is your project under", fill(LICENSE, "harbour"), "harbour\\r"],
    [nth("What license is your project under", 2), fill(LICENSE, "MIT"), "MIT\\r"],
    ["What other license", fill(OTHER, ""), "\\r"],
    ...project("buoys", "https://buoys.harbour.test", "Grace Hopper", "grace@harbour.test"),
  ],
  dep5("buoys", "https://buoys.harbour.test", "Grace Hopper <grace@harbour.test>"),
  files("reuse"),
);
const reuseTwo = task(
  "reuse init: licences MIT and Apache-2.0, then none more, project piers by Ada: dep5",
  ["reuse"],
  REUSE,
  [
    ["What license is your project under", fill(LICENSE, "MIT"), "MIT\\r"],
    ["What other license", fill(OTHER, "Apache-2.0"), "Apache-2.0\\r"],
    [nth("What other license", 2), fill(OTHER, ""), "\\r"],
    ...project("piers", "https://piers.harbour.test", "Ada", "ada@harbour.test"),
  ],
  dep5("piers", "https://piers.harbour.test", "Ada <ada@harbour.test>"),
  files("reuse"),
);

// ---- msginit (mk-files.sh msginit: tides.pot); it writes the new catalogue
const ASKED = "Is the following your email address?";
const msginit = (lang: string, mail: string) =>
  task(
    `msginit -l ${lang}: the e-mail address ${mail} in place of the one found: ${lang}.po names it`,
    ["msginit"],
    `cd f/msginit && unset EMAIL && ${NOWEB} msginit -l ${lang} -i tides.pot -o ${lang}.po; echo $? > $OUT`,
    [["Please confirm by pressing Return", fill(ASKED, mail), `${mail}\\r`]],
    (dir, o) => {
      const po = read(join(dir, `f/msginit/${lang}.po`));
      return read(o) === "0" && po.includes(`<${mail}>`) && po.includes(`"Language: ${lang}\\n"`);
    },
    files("msginit"),
  );

// ---- xmllint --shell (mk-files.sh xmllint: harbour.xml); the `/ >` prompt is a marker
const XMLLINT = "cd f/xmllint && xmllint --shell harbour.xml; echo $? > $OUT";
const xml = (dir: string, file = "harbour.xml") => read(join(dir, "f/xmllint", file));
const xmlSet = task(
  "xmllint --shell: go to the second pier, set its text to West, save, quit: harbour.xml has West",
  ["xmllint"],
  XMLLINT,
  [
    ["/ >", cursor("cd //pier[2]"), "cd //pier[2]\\r"],
    ["pier >", cursor("set West"), "set West\\r"],
    [undefined, cursor("save"), "save\\r"],
    [undefined, cursor("quit"), "quit\\r"],
  ],
  (dir, o) =>
    read(o) === "0" && xml(dir).includes('<pier id="2">West</pier>') && xml(dir).includes('<pier id="1">North</pier>'),
  files("xmllint"),
);
const xmlWrite = task(
  "xmllint --shell: go to the buoy, write it to buoy.xml, quit: buoy.xml holds the buoy",
  ["xmllint"],
  XMLLINT,
  [
    ["/ >", cursor("cd //buoy"), "cd //buoy\\r"],
    ["buoy >", cursor("write buoy.xml"), "write buoy.xml\\r"],
    [undefined, cursor("quit"), "quit\\r"],
  ],
  (dir, o) => read(o) === "0" && xml(dir, "buoy.xml").includes('<buoy colour="red">B7</buoy>'),
  files("xmllint"),
);
const xmlQuit = task(
  "xmllint --shell: set the first pier to East, then quit without saving: harbour.xml unchanged",
  ["xmllint"],
  XMLLINT,
  [
    ["/ >", cursor("cd //pier[1]"), "cd //pier[1]\\r"],
    ["pier >", cursor("set East"), "set East\\r"],
    [undefined, cursor("quit"), "quit\\r"],
  ],
  (dir, o) => read(o) === "0" && xml(dir).includes('<pier id="1">North</pier>') && !xml(dir).includes("East"),
  files("xmllint"),
);

// ---- mlr repl --icsv --ocsv (mk-files.sh mlr: tides.csv); the `[mlr]` prompt is a marker
const MLR = "cd f/mlr && mlr repl --icsv --ocsv; echo $? > $OUT";
const mlrRange = task(
  "mlr repl: open tides.csv, read the first record, add range = high - low, write it to first.csv, quit",
  ["mlr"],
  MLR,
  [
    ["[mlr]", cursor(":open tides.csv"), ":open tides.csv\\r"],
    [undefined, cursor(":read"), ":read\\r"],
    [undefined, cursor("$range = $high - $low"), "$range = $high - $low\\r"],
    [undefined, cursor(":> first.csv"), ":> first.csv\\r"],
    [undefined, cursor(":write"), ":write\\r"],
    [undefined, cursor(":quit"), ":quit\\r"],
  ],
  (dir, o) => {
    const [head, row] = plain(join(dir, "f/mlr/first.csv")).split("\n");
    return read(o) === "0" && head === "port,day,high,low,range" && /^kingsport,mon,4\.2,0\.8,3\.4/.test(row ?? "");
  },
  files("mlr"),
);
const mlrThird = task(
  "mlr repl: open tides.csv, skip two records, read the third, write it to third.csv, quit",
  ["mlr"],
  MLR,
  [
    ["[mlr]", cursor(":open tides.csv"), ":open tides.csv\\r"],
    [undefined, cursor(":skip 2"), ":skip 2\\r"],
    [undefined, cursor(":read"), ":read\\r"],
    [undefined, cursor(":> third.csv"), ":> third.csv\\r"],
    [undefined, cursor(":write"), ":write\\r"],
    [undefined, cursor(":quit"), ":quit\\r"],
  ],
  (dir, o) => read(o) === "0" && plain(join(dir, "f/mlr/third.csv")) === "port,day,high,low\npiermouth,mon,3.1,1.1",
  files("mlr"),
);

// ---- pdnsutil edit-zone (mk-files.sh pdns: harbour.test in SQLite, serial.txt its SOA serial; ed.sh moves pier to .8)
const PDNS =
  "cd f/pdns && EDITOR=$D/f/pdns/ed.sh pdnsutil --config-dir=$D/f/pdns edit-zone harbour.test; echo $? > $OUT";
const SERIAL_NO = "(n)o - leave SOA record as is";
const SERIAL_YES = "(y)es - increase serial";
const zone = (dir: string) => {
  const list = run("pdnsutil", [`--config-dir=${join(dir, "f/pdns")}`, "list-zone", "harbour.test"]).out;
  const soa = list.split("\n").find((line) => line.split(/\s+/)[3] === "SOA");
  return { pier: /^pier\.harbour\.test\.?\s+\d+\s+IN\s+A\s+(\S+)/m.exec(list)?.[1], serial: soa?.split(/\s+/)[6] };
};
const initial = (dir: string) => read(join(dir, "f/pdns/serial.txt"));
const pdnsApply = task(
  "pdnsutil edit-zone: leave the serial as is, apply the change: pier is 192.0.2.8, the serial unchanged",
  ["pdnsutil"],
  PDNS,
  [
    ["increase-serial?", choose(SERIAL_NO), "n"],
    ["(a)pply these changes", choose("(a)pply these changes"), "a"],
  ],
  (dir) => {
    const now = zone(dir);
    return now.pier === "192.0.2.8" && now.serial === initial(dir);
  },
  files("pdns"),
);
const pdnsSerial = task(
  "pdnsutil edit-zone: increase the serial, apply the change: pier is 192.0.2.8, the serial went up",
  ["pdnsutil"],
  PDNS,
  [
    ["increase-serial?", choose(SERIAL_YES), "y"],
    ["(a)pply these changes", choose("(a)pply these changes"), "a"],
  ],
  (dir) => {
    const now = zone(dir);
    return now.pier === "192.0.2.8" && Number(now.serial) > Number(initial(dir));
  },
  files("pdns"),
);
const pdnsQuit = task(
  "pdnsutil edit-zone: leave the serial as is, then quit without applying: pier is still 192.0.2.7",
  ["pdnsutil"],
  PDNS,
  [
    ["increase-serial?", choose(SERIAL_NO), "n"],
    ["(a)pply these changes", choose("(q)uit"), "q"],
  ],
  (dir, o) => existsSync(o) && zone(dir).pier === "192.0.2.7",
  files("pdns"),
);

// ---- gbp import-orig (mk-files.sh gbp: tides_1.2.orig.tar.gz beside an empty repository)
const GBP = "cd f/gbp/repo && gbp import-orig ../tides_1.2.orig.tar.gz; echo $? > $OUT";
const tags = (dir: string) => run("git", ["tag"], join(dir, "f/gbp/repo")).out.split("\n");
const gbp = (name: string, version: string) =>
  task(
    `gbp import-orig: source package ${name}, upstream version ${version}: the tag upstream/${version}`,
    ["gbp"],
    GBP,
    [
      ["source package name?", fill("What will be the source package name?", name), `${name}\\r`],
      ["upstream version?", fill("What is the upstream version?", version), `${version}\\r`],
    ],
    (dir, o) => read(o) === "0" && tags(dir).includes(`upstream/${version}`),
    files("gbp"),
  );

// ---- corepack (mk-files.sh corepack: packageManager pnpm@9.15.0, COREPACK_HOME empty); pnpm from the npm registry
// NODE_EXTRA_CA_CERTS: the machine's CA file, npm's cafile here; COREPACK_INTEGRITY_KEYS=0: the registry here serves
// no signatures for corepack to check.
const COREPACK =
  "cd f/corepack && export NODE_EXTRA_CA_CERTS=${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt} " +
  "COREPACK_INTEGRITY_KEYS=0 && COREPACK_HOME=$D/f/corepack/home COREPACK_ENABLE_DOWNLOAD_PROMPT=1 " +
  "corepack pnpm --version; echo $? > $OUT";
const pnpmHere = (dir: string) => {
  const home = join(dir, "f/corepack/home");
  const find = run("find", [home, "-path", "*pnpm/9.15.0*", "-name", "package.json"]).out.trim();
  return existsSync(home) && find.length > 0;
};
const corepackYes = task(
  "corepack: continue the download of the pnpm the project pins: pnpm 9.15.0 in COREPACK_HOME, it runs",
  ["corepack"],
  COREPACK,
  [["Do you want to continue?", choose("Y"), "y\\r"]],
  (dir, o) => {
    waitFor(o, 90);
    return read(o) === "0" && pnpmHere(dir);
  },
  files("corepack"),
);
const corepackNo = task(
  "corepack: refuse the download: no pnpm in COREPACK_HOME, corepack fails",
  ["corepack"],
  COREPACK,
  [["Do you want to continue?", choose("n"), "n\\r"]],
  (dir, o) => {
    waitFor(o, 30);
    return read(o) !== "" && read(o) !== "0" && !pnpmHere(dir);
  },
  files("corepack"),
);

// ---- webpack without webpack-cli (mk-files.sh webpack-npm: webpack installed by npm as a devDependency)
const WEBPACK = "cd f/webpack-npm && npx webpack; echo $? > $OUT";
const devDeps = (dir: string) => {
  try {
    return JSON.parse(read(join(dir, "f/webpack-npm/package.json"))).devDependencies ?? {};
  } catch {
    return {};
  }
};
const webpackYes = task(
  "webpack: install webpack-cli when asked: package.json's devDependencies gain webpack-cli",
  ["npm"],
  WEBPACK,
  [["(yes/no):", choose("yes"), "yes\\r"]],
  (dir, o) => {
    waitFor(o, 120);
    return "webpack-cli" in devDeps(dir) && existsSync(join(dir, "f/webpack-npm/node_modules/webpack-cli"));
  },
  files("webpack-npm"),
);
const webpackNo = task(
  "webpack: do not install webpack-cli: package.json unchanged, no webpack-cli",
  ["npm"],
  WEBPACK,
  [["(yes/no):", choose("no"), "no\\r"]],
  (dir, o) => {
    waitFor(o, 30);
    return (
      existsSync(o) &&
      !("webpack-cli" in devDeps(dir)) &&
      !existsSync(join(dir, "f/webpack-npm/node_modules/webpack-cli"))
    );
  },
  files("webpack-npm"),
);

// ---- n (mk-files.sh n: a cache of 18.19.1, 20.11.0 and 22.3.0 in f/n/np; N_INSTALLED: one installed first)
const N = "cd f/n && N_PREFIX=$D/f/n/np $T/n; echo $? > $OUT";
const N_ON_PATH = "cd f/n && PATH=$D/f/n/np/bin:$PATH N_PREFIX=$D/f/n/np $T/n; echo $? > $OUT";
const active = (dir: string) => {
  const node = join(dir, "f/n/np/bin/node");
  return existsSync(node) ? run(node, []).out.trim() : "";
};
const nInstall = task(
  "n: install node/18.19.1 from the cache: the prefix's node is v18.19.1",
  ["n"],
  N,
  [["q to quit", choose("node/18.19.1"), "\\x1b[A|\\r"]],
  (dir, o) => existsSync(o) && active(dir) === "v18.19.1",
  files("n"),
);
const nSwitch = task(
  "n: with 20.11.0 installed, switch to node/22.3.0: the prefix's node is v22.3.0",
  ["n"],
  N_ON_PATH,
  [["q to quit", choose("node/22.3.0"), "\\x1b[B|\\r"]],
  (dir, o) => existsSync(o) && active(dir) === "v22.3.0",
  files("n", { N_INSTALLED: "20.11.0" }),
);
const nQuit = task(
  "n: quit (q to quit) without installing: no node in the prefix",
  ["n"],
  N,
  [["q to quit", hint("q to quit"), "q"]],
  (dir, o) => existsSync(o) && !existsSync(join(dir, "f/n/np/bin/node")),
  files("n"),
);

// ---- wscat -c to a wscat -l started before it (its output, what it received, in server.out)
const wscat = (port: number, message: string) =>
  task(
    `wscat -c: send ${message} to the server: the server receives it`,
    ["wscat"],
    `(sleep 600 | $T/wscat -l ${port} > $D/server.out 2>&1 &); sleep 3; ` +
      `$T/wscat -c ws://127.0.0.1:${port}; echo $? > $OUT`,
    [["Connected", cursor(message), `${message}\\r`]],
    (dir) =>
      read(join(dir, "server.out"))
        .split("\n")
        .some((line) => line.replace(/^[<>] /, "") === message),
  );

export const TASKS: Task[] = [
  reuseInit,
  reuseInvalid,
  reuseTwo,
  msginit("fr", "ada@harbour.test"),
  msginit("de", "tides-team@harbour.test"),
  xmlSet,
  xmlWrite,
  xmlQuit,
  mlrRange,
  mlrThird,
  pdnsApply,
  pdnsSerial,
  pdnsQuit,
  gbp("tides", "1.2"),
  gbp("tide-tables", "1.3.0"),
  corepackYes,
  corepackNo,
  webpackYes,
  webpackNo,
  nInstall,
  nSwitch,
  nQuit,
  wscat(8721, "tide high"),
  wscat(8722, '{"pier":2}'),
];

/** The npm tools' bin (installed into TOOLS when missing). */
function npmTools(): string | undefined {
  const bin = join(MODULES, ".bin");
  const have = () => ["wscat", "n", "webpack"].every((tool) => existsSync(join(bin, tool)));
  if (!have()) spawnSync("npm", ["i", "--prefix", TOOLS, "--no-audit", "--no-fund", ...NPM_TOOLS], { stdio: "ignore" });
  return have() ? bin : undefined;
}

/** The suite on bench/tasks-blind.ts's harness. */
export function runBlind14Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: npmTools() });
}
export { runBlind14Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind14Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
