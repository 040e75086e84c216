// The blind task suite of issue 59 for blind set 15 (test/fixtures/blind15): end-to-end tasks on its
// programs (none of them in train nor in the earlier blind sets), written by an engineer who had not
// read the detector nor the acting code, before either ran on these programs. Each task is done by
// meaning only (`choose`/`fill`/`click` by the label the screen shows, as test/fixtures/blind15/README.md
// labels it; a key hint by its text (`click --text "F10 key to save changes"`); where a prompt is only a
// marker (ngspice's `ngspice 1 ->`, nslookup's `>`, telnet's `telnet>` and a remote session's bare line,
// hstr's filter) the field holding the cursor read from the snapshot; no raw keys) and its outcome is
// checked from outside (the settings cdw saves, the passwd and shadow files pwck rewrites, the suppressions
// valgrind prints to its log, the files ngspice writes, the queries dnsmasq logs, the mail an SMTP server
// receives through telnet, the files the commands hstr picks make). Each task also has a raw-key
// reference run that proves its checker: `npx bun bench/tasks-blind15.ts --reference` must pass every
// task. The harness is bench/tasks-blind.ts's. The programs are Debian's (README.md); a task whose
// program is missing is skipped.
//
//   npx bun bench/tasks-blind15.ts [--reference] [--only N,M]
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind15");

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
const lines = (file: string) => read(file).split("\n");
/** A fixture set-up of test/fixtures/blind15/mk-files.sh: DIR/f/KIND made afresh. */
const files = (kind: string) => (dir: string) =>
  execFileSync(join(HERE, "mk-files.sh"), [join(dir, "f"), kind], { stdio: "ignore" });

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
const fill = (label: string, value: string) => ["fill", label, value];
const answer = (label: string, value: string) => ["fill", label, value, "--submit"];
const choose = (label: string) => ["choose", label];
const click = (label: string) => ["click", label];
const hint = (text: string) => ["click", "--text", text];
const nth = (text: string, count: number): Wait => ({ text, count });

// ---- cdw (mk-files.sh cdw: home/ its HOME, empty: a first start shows two boxes); it saves ~/.cdw/cdw.conf
const CDW = "cd f/cdw && HOME=$D/f/cdw/home cdw; echo $? > $OUT";
// cdw reads a lone Esc after a pause: keys of a reference are spaced.
const UP = "\\x1bOA";
const DOWN = "\\x1bOB";
const conf = (dir: string) => lines(join(dir, "f/cdw/home/.cdw/cdw.conf"));
const started: Pair[] = [
  ["Config file error", click("OK"), "\\r", 800],
  ["Config file problems", click("OK"), "\\r", 800],
];
const configuration: Pair = [
  "Select files from hard drive",
  choose("Configuration"),
  `${Array(8).fill(DOWN).join("|")}|\\r`,
  500,
];
const cdwQuit = task(
  "cdw: close the first start's two boxes (OK), Quit, confirm with OK: cdw ends, status 0",
  ["cdw"],
  CDW,
  [
    ...started,
    ["Select files from hard drive", choose("Quit"), `${UP}|\\r`, 800],
    ["Do you really want to quit cdw?", click("OK"), "\\r", 800],
  ],
  (_dir, o) => read(o) === "0",
  files("cdw"),
);
const cdwHardware = task(
  "cdw: Configuration, its Hardware page, the custom drive path /dev/sr7, saved with F10: cdw.conf names it",
  ["cdw"],
  CDW,
  [
    ...started,
    configuration,
    ["Press F9 / F10 key", click("Hardware"), "\\x1b[15~", 800],
    ["Custom path to drive", fill("Custom path to drive", "/dev/sr7"), "\\t|/dev/sr7", 800],
    [undefined, hint("F10 key to save changes"), "\\x1b[21~", 800],
  ],
  (dir) => conf(dir).includes("custom_drive=/dev/sr7") && conf(dir).includes("selected_drive=custom"),
  files("cdw"),
);
const cdwCancel = task(
  "cdw: Quit but Cancel it, then Configuration, Hardware, /dev/sr9 as the drive path, F10: cdw.conf names it",
  ["cdw"],
  CDW,
  [
    ...started,
    ["Select files from hard drive", choose("Quit"), `${UP}|\\r`, 800],
    ["Do you really want to quit cdw?", click("Cancel"), "\\t|\\r", 800],
    [undefined, choose("Configuration"), `${UP}|${UP}|\\r`, 800],
    ["Press F9 / F10 key", click("Hardware"), "\\x1b[15~", 800],
    ["Custom path to drive", fill("Custom path to drive", "/dev/sr9"), "\\t|/dev/sr9", 800],
    [undefined, hint("F10 key to save changes"), "\\x1b[21~", 800],
  ],
  (dir, o) => !existsSync(o) && conf(dir).includes("custom_drive=/dev/sr9"),
  files("cdw"),
);
const cdwNothing = task(
  "cdw: Delete files with none selected, OK on No files to delete, then Quit and OK: cdw ends, status 0",
  ["cdw"],
  CDW,
  [
    ...started,
    ["Select files from hard drive", choose("Delete files"), `${DOWN}|\\r`, 800],
    ["Nothing to delete", click("OK"), "\\r", 800],
    [undefined, choose("Quit"), `${DOWN}|${DOWN}|${DOWN}|${DOWN}|${DOWN}|${DOWN}|${DOWN}|${DOWN}|${DOWN}|\\r`, 500],
    ["Do you really want to quit cdw?", click("OK"), "\\r", 800],
  ],
  (_dir, o) => read(o) === "0",
  files("cdw"),
);
const cdwEscape = task(
  "cdw: Configuration, Hardware, /dev/sr7 typed, then ESC to cancel: cdw.conf has no custom drive path",
  ["cdw"],
  CDW,
  [
    ...started,
    configuration,
    ["Press F9 / F10 key", click("Hardware"), "\\x1b[15~", 800],
    ["Custom path to drive", fill("Custom path to drive", "/dev/sr7"), "\\t|/dev/sr7", 800],
    [undefined, hint("ESC to cancel"), "\\x1b", 1500],
    ["cdw configuration:", choose("Quit"), `${DOWN}|${DOWN}|\\r`, 800],
    ["Do you really want to quit cdw?", click("OK"), "\\r", 800],
  ],
  (dir, o) => read(o) === "0" && !conf(dir).some((line) => line.startsWith("custom_drive=/dev/sr7")),
  files("cdw"),
);

// ---- pwck on a copy of passwd and shadow (mk-files.sh pwck); it rewrites them when it ends
const PWCK = "cd f/pwck && pwck $D/f/pwck/passwd $D/f/pwck/shadow; echo $? > $OUT";
const BROKEN = "delete line 'harbour master'?";
// $D: the task's directory, put in by the harness.
const ADD = "add user 'buoy' in $D/f/pwck/shadow?";
const GHOST = "delete line 'ghost:!:20000:0:99999:7:::'?";
const pw = (dir: string) => ({ passwd: lines(join(dir, "f/pwck/passwd")), shadow: lines(join(dir, "f/pwck/shadow")) });
const pwckAll = task(
  "pwck: delete the broken line, add buoy to shadow, delete ghost's shadow line: the files mended",
  ["pwck"],
  PWCK,
  [
    ["delete line 'harbour master'?", answer(BROKEN, "y"), "y\\r"],
    ["add user 'buoy'", answer(ADD, "y"), "y\\r"],
    ["delete line 'ghost", answer(GHOST, "y"), "y\\r"],
  ],
  (dir, o) => {
    const { passwd, shadow } = pw(dir);
    return (
      existsSync(o) &&
      !passwd.includes("harbour master") &&
      shadow.some((line) => line.startsWith("buoy:")) &&
      !shadow.some((line) => line.startsWith("ghost:"))
    );
  },
  files("pwck"),
);
const pwckNone = task(
  "pwck: answer no to all three questions: passwd and shadow unchanged",
  ["pwck"],
  PWCK,
  [
    ["delete line 'harbour master'?", answer(BROKEN, "n"), "n\\r"],
    ["add user 'buoy'", answer(ADD, "n"), "n\\r"],
    ["delete line 'ghost", answer(GHOST, "n"), "n\\r"],
  ],
  (dir, o) => {
    const { passwd, shadow } = pw(dir);
    return (
      existsSync(o) &&
      passwd.includes("harbour master") &&
      !shadow.some((line) => line.startsWith("buoy:")) &&
      shadow.some((line) => line.startsWith("ghost:"))
    );
  },
  files("pwck"),
);
const pwckSome = task(
  "pwck: keep the broken line, add buoy to shadow, keep ghost: only buoy's shadow line is new",
  ["pwck"],
  PWCK,
  [
    ["delete line 'harbour master'?", answer(BROKEN, "n"), "n\\r"],
    ["add user 'buoy'", answer(ADD, "y"), "y\\r"],
    ["delete line 'ghost", answer(GHOST, "n"), "n\\r"],
  ],
  (dir, o) => {
    const { passwd, shadow } = pw(dir);
    return (
      existsSync(o) &&
      passwd.includes("harbour master") &&
      shadow.some((line) => line.startsWith("buoy:")) &&
      shadow.some((line) => line.startsWith("ghost:"))
    );
  },
  files("pwck"),
);

// ---- valgrind --gen-suppressions=yes on tides (mk-files.sh valgrind: three errors); its output in vg.log
const VALGRIND = "cd f/valgrind && valgrind --gen-suppressions=yes ./tides 2>&1 | tee vg.log; echo done > $OUT";
const kinds = (dir: string) =>
  lines(join(dir, "f/valgrind/vg.log"))
    .map((line) => line.trim())
    .filter((line) => line.startsWith("Memcheck:"));
const vgFirst = task(
  "valgrind: print the first error's suppression (Y), not the others (N): one suppression, Memcheck:Cond",
  ["valgrind"],
  VALGRIND,
  [
    ["Print suppression", choose("Y"), "y\\r"],
    ["Invalid write", choose("N"), "n\\r"],
    ["Invalid free()", choose("N"), "n\\r"],
  ],
  (dir, o) => read(o) === "done" && kinds(dir).join(",") === "Memcheck:Cond",
  files("valgrind"),
);
const vgContinue = task(
  "valgrind: C at the first question (no more questions, nothing printed): no suppression, the run ends",
  ["valgrind"],
  VALGRIND,
  [["Print suppression", choose("C"), "c\\r"]],
  (dir, o) =>
    read(o) === "done" && kinds(dir).length === 0 && read(join(dir, "f/valgrind/vg.log")).includes("ERROR SUMMARY"),
  files("valgrind"),
);
const vgSecond = task(
  "valgrind: N, then Y for the invalid write, then N: one suppression, Memcheck:Addr4",
  ["valgrind"],
  VALGRIND,
  [
    ["Print suppression", choose("N"), "n\\r"],
    ["Invalid write", choose("Y"), "y\\r"],
    ["Invalid free()", choose("N"), "n\\r"],
  ],
  (dir, o) => read(o) === "done" && kinds(dir).join(",") === "Memcheck:Addr4",
  files("valgrind"),
);

// ---- ngspice rc.cir (mk-files.sh ngspice); the `ngspice N ->` prompt is a marker
const NGSPICE = "cd f/ngspice && ngspice rc.cir; echo $? > $OUT";
const data = (dir: string, file: string) => lines(join(dir, "f/ngspice", file)).filter((line) => /\d/.test(line));
const ngTran = task(
  "ngspice: a transient run (tran 10u 5m), its v(out) written to tran.txt with wrdata, quit: tran.txt holds it",
  ["ngspice"],
  NGSPICE,
  [
    ["ngspice 1 ->", cursor("tran 10u 5m"), "tran 10u 5m\\r"],
    ["ngspice 2 ->", cursor("wrdata tran.txt v(out)"), "wrdata tran.txt v(out)\\r"],
    ["ngspice 3 ->", cursor("quit"), "quit\\r"],
  ],
  (dir, o) => read(o) === "0" && data(dir, "tran.txt").length > 100,
  files("ngspice"),
);
const ngOp = task(
  "ngspice: the operating point (op), v(out) written to op.txt, quit: op.txt says 5 V",
  ["ngspice"],
  NGSPICE,
  [
    ["ngspice 1 ->", cursor("op"), "op\\r"],
    ["ngspice 2 ->", cursor("wrdata op.txt v(out)"), "wrdata op.txt v(out)\\r"],
    ["ngspice 3 ->", cursor("quit"), "quit\\r"],
  ],
  (dir, o) => read(o) === "0" && /5\.0+e\+00/.test(data(dir, "op.txt").join("\n")),
  files("ngspice"),
);
const ngAlter = task(
  "ngspice: r1 altered to 2k, a transient run from 0 V (uic), written to slow.txt, quit: 63% of 5 V at 2 ms",
  ["ngspice"],
  NGSPICE,
  [
    ["ngspice 1 ->", cursor("alter r1 2k"), "alter r1 2k\\r"],
    ["ngspice 2 ->", cursor("tran 10u 5m uic"), "tran 10u 5m uic\\r"],
    ["ngspice 3 ->", cursor("wrdata slow.txt v(out)"), "wrdata slow.txt v(out)\\r"],
    ["ngspice 4 ->", cursor("quit"), "quit\\r"],
  ],
  (dir, o) => {
    // At 2 ms the 2k circuit (tau 2 ms) is at about 63% of 5 V; the 1k one (tau 1 ms) would be at 86%.
    const at = data(dir, "slow.txt")
      .map((line) => line.trim().split(/\s+/).map(Number))
      .find(([t]) => t !== undefined && t >= 0.002);
    return read(o) === "0" && at !== undefined && at[1]! > 2.9 && at[1]! < 3.5;
  },
  files("ngspice"),
);

// ---- nslookup against a dnsmasq of its own (mk-files.sh nslookup: hosts); dnsmasq logs each query
const dnsmasq = (port: number) =>
  `dnsmasq --keep-in-foreground --port ${port} --listen-address=127.0.0.1 --bind-interfaces --user=root --no-resolv --no-hosts ` +
  `--local=/harbour.test/ --addn-hosts=$D/f/nslookup/hosts --mx-host=harbour.test,mail.harbour.test,10 ` +
  `--txt-record=harbour.test,tides-at-six --log-queries --log-facility=$D/queries.log`;
const NSLOOKUP = (port: number) =>
  `cd f/nslookup && ${dnsmasq(port)} & srv=$!; sleep 1; nslookup -port=${port} - 127.0.0.1; echo $? > $OUT; kill $srv`;
const queried = (dir: string, query: string) => read(join(dir, "queries.log")).includes(query);
const nsMx = task(
  "nslookup: the MX record of harbour.test (set type=MX), then exit: dnsmasq was asked for it",
  ["nslookup", "dnsmasq"],
  NSLOOKUP(5401),
  [
    [">", cursor("set type=MX"), "set type=MX\\r"],
    [nth(">", 2), cursor("harbour.test"), "harbour.test\\r"],
    ["mail exchanger", cursor("exit"), "exit\\r"],
  ],
  (dir, o) => read(o) === "0" && queried(dir, "query[MX] harbour.test from 127.0.0.1"),
  files("nslookup"),
);
const nsTwo = task(
  "nslookup: pier.harbour.test and buoy.harbour.test, then exit: dnsmasq was asked for both addresses",
  ["nslookup", "dnsmasq"],
  NSLOOKUP(5402),
  [
    [">", cursor("pier.harbour.test"), "pier.harbour.test\\r"],
    ["192.0.2.7", cursor("buoy.harbour.test"), "buoy.harbour.test\\r"],
    ["192.0.2.9", cursor("exit"), "exit\\r"],
  ],
  (dir, o) =>
    read(o) === "0" &&
    queried(dir, "query[A] pier.harbour.test from 127.0.0.1") &&
    queried(dir, "query[A] buoy.harbour.test from 127.0.0.1"),
  files("nslookup"),
);
const nsTxt = task(
  "nslookup: the TXT record of harbour.test (set type=TXT), then exit: dnsmasq was asked for it",
  ["nslookup", "dnsmasq"],
  NSLOOKUP(5403),
  [
    [">", cursor("set type=TXT"), "set type=TXT\\r"],
    [nth(">", 2), cursor("harbour.test"), "harbour.test\\r"],
    ["tides-at-six", cursor("exit"), "exit\\r"],
  ],
  (dir, o) => read(o) === "0" && queried(dir, "query[TXT] harbour.test from 127.0.0.1"),
  files("nslookup"),
);

// ---- telnet to python's smtpd DebuggingServer (what it receives in $D/mail.log)
const smtpd = (port: number) =>
  `python3 -u -W ignore -m smtpd -n -c DebuggingServer 127.0.0.1:${port} > $D/mail.log 2>&1 & srv=$!; ` +
  `for i in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.2; done; `;
const mailed = (dir: string, ...texts: string[]) => {
  const log = read(join(dir, "mail.log"));
  return texts.every((text) => log.includes(text));
};
const smtp = (from: string, to: string, subject: string, body: string, first: Wait): Pair[] => [
  [first, cursor("HELO pier.harbour.test"), "HELO pier.harbour.test\\r"],
  [nth("250 ", 1), cursor(`MAIL FROM:<${from}>`), `MAIL FROM:<${from}>\\r`],
  [nth("250 ", 2), cursor(`RCPT TO:<${to}>`), `RCPT TO:<${to}>\\r`],
  [nth("250 ", 3), cursor("DATA"), "DATA\\r"],
  ["354 ", cursor(`Subject: ${subject}`), `Subject: ${subject}\\r`],
  [undefined, cursor(""), "\\r"],
  [undefined, cursor(body), `${body}\\r`],
  [undefined, cursor("."), ".\\r"],
  [nth("250 ", 4), cursor("QUIT"), "QUIT\\r"],
];
const telnetMail = task(
  "telnet to an SMTP server: HELO, a mail from ada to grace, Subject tides, one line, QUIT: the server got it",
  ["telnet", "python3"],
  `cd f/telnet && ${smtpd(2541)}telnet 127.0.0.1 2541; echo $? > $OUT; kill $srv`,
  smtp("ada@harbour.test", "grace@harbour.test", "tides", "High tide at six.", "220 "),
  (dir) => mailed(dir, "Subject: tides", "High tide at six."),
  files("telnet"),
);
const telnetOpen = task(
  "telnet with no host: open the SMTP server from telnet>, send a mail from grace to ada, QUIT: the server got it",
  ["telnet", "python3"],
  `cd f/telnet && ${smtpd(2542)}telnet; echo $? > $OUT; kill $srv`,
  [
    ["telnet>", cursor("open 127.0.0.1 2542"), "open 127.0.0.1 2542\\r"],
    ...smtp("grace@harbour.test", "ada@harbour.test", "buoys", "Buoy B7 is red.", "220 "),
  ],
  (dir) => mailed(dir, "Subject: buoys", "Buoy B7 is red."),
  files("telnet"),
);
const telnetQuit = task(
  "telnet with no host: quit at telnet>: telnet ends with status 0, no mail sent",
  ["telnet", "python3"],
  `cd f/telnet && ${smtpd(2543)}telnet; echo $? > $OUT; kill $srv`,
  [["telnet>", cursor("quit"), "quit\\r"]],
  (dir, o) => read(o) === "0" && !mailed(dir, "MESSAGE FOLLOWS"),
  files("telnet"),
);

// ---- hstr over a history of its own (mk-files.sh hstr), from an interactive bash that runs what it picks
const HSTR = "cd f/hstr && HOME=$D/f/hstr HISTFILE=$D/f/hstr/.bash_history bash --norc -i; echo $? > $OUT";
const HSTR_START: Pair[] = [
  ["bash-", ["fill", CURSOR_INPUT, "history -r; PS1='% '; hstr", "--submit"], "history -r; PS1='% '; hstr\\r"],
];
const hstrPick = task(
  "hstr: pick touch pier-2.done from the history: it runs, pier-2.done is made",
  ["hstr"],
  HSTR,
  [
    ...HSTR_START,
    ["Type to filter", choose("touch pier-2.done"), "\\x1bOB|\\x1bOB|\\x1bOB|\\x1bOB|\\x1bOB|\\x1bOB|\\x1bOB|\\r"],
  ],
  (dir) => existsSync(join(dir, "f/hstr/pier-2.done")) && !existsSync(join(dir, "f/hstr/buoy-7.done")),
  files("hstr"),
);
const hstrFilter = task(
  "hstr: filter by tide, pick echo tide > tide.txt: it runs, tide.txt says tide",
  ["hstr"],
  HSTR,
  [...HSTR_START, ["Type to filter", cursor("tide"), "tide|\\r", 500]],
  (dir) => read(join(dir, "f/hstr/tide.txt")) === "tide",
  files("hstr"),
);
const hstrBuoy = task(
  "hstr: filter by buoy, pick touch buoy-7.done: it runs, buoy-7.done is made",
  ["hstr"],
  HSTR,
  [
    ...HSTR_START,
    ["Type to filter", ["fill", CURSOR_INPUT, "buoy"], "buoy"],
    [undefined, choose("touch buoy-7.done"), "\\x1bOB|\\r", 500],
  ],
  (dir) => existsSync(join(dir, "f/hstr/buoy-7.done")) && !existsSync(join(dir, "f/hstr/pier-2.done")),
  files("hstr"),
);

export const TASKS: Task[] = [
  cdwQuit,
  cdwHardware,
  cdwCancel,
  cdwNothing,
  cdwEscape,
  pwckAll,
  pwckNone,
  pwckSome,
  vgFirst,
  vgContinue,
  vgSecond,
  ngTran,
  ngOp,
  ngAlter,
  nsMx,
  nsTwo,
  nsTxt,
  telnetMail,
  telnetOpen,
  telnetQuit,
  hstrPick,
  hstrFilter,
  hstrBuoy,
];

/** The suite on bench/tasks-blind.ts's harness (no npm tools: every program is Debian's). */
export function runBlind15Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: undefined });
}
export { runBlind15Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind15Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
