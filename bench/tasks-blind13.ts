// The blind task suite of issue 59 for blind set 13 (test/fixtures/blind13): end-to-end tasks on its
// programs (none of them in train nor in the earlier blind sets), written by an engineer who had not
// read the detector nor the acting code, before either ran on these programs. Each task is done by
// meaning only (`choose`/`fill`/`click` by the label the screen shows, as test/fixtures/blind13/README.md
// labels it; a key hint by its text (`click --text "press q + enter to quit"`); where a prompt is only a
// marker (`(lldb)`, ed's `*`, `scons>>>`, `ghci>`, TeX's `?` and `**`) the field holding the cursor read from
// the snapshot; no raw keys) and its outcome is checked from outside (the files the debugged program, ed,
// codespell, isort, pdflatex, ffmpeg, scons and ghci write, the files rspamadm writes under
// /etc/rspamd/local.d, notmuch's config, samba-tool's smb.conf, vite's port). Each task also has a raw-key
// reference run that proves its checker: `npx bun bench/tasks-blind13.ts --reference` must pass every task.
// The harness is bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind13.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind13");
/** The npm tools (test/fixtures/blind13/README.md): vite. */
const TOOLS = "/tmp/t4a-blind13-tools";
const NPM_TOOLS = ["vite@7.3.8"];
const MODULES = join(TOOLS, "node_modules");

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
const run = (cmd: string, args: string[], env: Record<string, string> = {}) => {
  const child = spawnSync(cmd, args, {
    encoding: "utf8",
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
  return { status: child.status, out: `${child.stdout ?? ""}${child.stderr ?? ""}` };
};
/** A fixture set-up script of test/fixtures/blind13 (mk-*), run with `args`. */
const mk = (script: string, ...args: string[]) => execFileSync(join(HERE, script), args, { stdio: "ignore" });
const files = (kind: string) => (dir: string) => mk("mk-files.sh", join(dir, "f"), kind, MODULES);
/** Runs a check, then puts back what the task changed outside its directory, whatever the check says. */
const stopping =
  (stop: (dir: string) => void, check: Task["check"]): Task["check"] =>
  (dir, out) => {
    try {
      return check(dir, out);
    } finally {
      stop(dir);
    }
  };
/** Waits (up to `ms`) for the program to say it is done: some take long after their last answer. */
const settled = (out: string, ms = 90_000) => {
  const until = Date.now() + ms;
  while (!existsSync(out) && Date.now() < until) Bun.sleepSync(250);
  return read(out);
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
const hint = (text: string) => ["click", "--text", text];
const nth = (text: string, count: number): Wait => ({ text, count });

// ---- lldb-14 on tide (mk-files.sh lldb: tide writes `tide N` to tide.out when it ends; buoy sleeps)
const LLDB = "cd f/lldb && PYTHONPATH=/usr/lib/llvm-14/lib/python3.11/dist-packages lldb-14 ./tide; echo done > $OUT";
const tideOut = (dir: string) => read(join(dir, "f/lldb/tide.out"));
const atBreak: Pair[] = [
  ["(lldb)", cursor("b tide"), "b tide\\r"],
  ["Breakpoint 1:", cursor("run"), "run\\r"],
];
const lldbContinue = task(
  "lldb: break at tide, run, continue, quit: tide ends and writes tide 7",
  ["lldb-14"],
  LLDB,
  [...atBreak, ["stop reason", cursor("continue"), "continue\\r"], ["exited with status", cursor("quit"), "quit\\r"]],
  (dir, o) => read(o) === "done" && tideOut(dir) === "tide 7",
  files("lldb"),
);
const lldbQuitYes = task(
  "lldb: at the breakpoint quit, Do you really want to proceed: Y: lldb ends, tide killed before it writes",
  ["lldb-14"],
  LLDB,
  [...atBreak, ["stop reason", cursor("quit"), "quit\\r"], ["really want to proceed", choose("Y"), "y\\r"]],
  (dir, o) => read(o) === "done" && !existsSync(join(dir, "f/lldb/tide.out")),
  files("lldb"),
);
const lldbQuitNo = task(
  "lldb: at the breakpoint quit, answer n, then continue and quit: tide writes tide 7",
  ["lldb-14"],
  LLDB,
  [
    ...atBreak,
    ["stop reason", cursor("quit"), "quit\\r"],
    ["really want to proceed", choose("n"), "n\\r"],
    [nth("(lldb)", 4), cursor("continue"), "continue\\r"],
    ["exited with status", cursor("quit"), "quit\\r"],
  ],
  (dir, o) => read(o) === "done" && tideOut(dir) === "tide 7",
  files("lldb"),
);
const lldbGuiContinue = task(
  "lldb gui at the breakpoint: the help closed, Process (F3), Continue: tide ends and writes tide 7",
  ["lldb-14"],
  LLDB,
  [
    ...atBreak,
    ["stop reason", cursor("gui"), "gui\\r"],
    ["[Press any key to exit]", hint("[Press any key to exit]"), " ", 800],
    ["Process (F3)", hint("Process (F3)"), "\\x1bOR", 800],
    ["Detach suspended", choose("Continue"), "\\x1bOB|\\x1bOB|\\x1bOB|\\x1bOB|\\r"],
  ],
  (dir) => {
    const until = Date.now() + 15_000;
    while (tideOut(dir) === "" && Date.now() < until) Bun.sleepSync(250);
    return tideOut(dir) === "tide 7";
  },
  files("lldb"),
);
const lldbGuiExit = task(
  "lldb gui: the help closed, LLDB (F1), Exit: back at (lldb), then quit: lldb ends",
  ["lldb-14"],
  LLDB,
  [
    ["(lldb)", cursor("gui"), "gui\\r"],
    ["[Press any key to exit]", hint("[Press any key to exit]"), " ", 800],
    ["LLDB (F1)", hint("LLDB (F1)"), "\\x1bOP", 800],
    ["About LLDB", choose("Exit"), "\\x1bOB|\\r"],
    [nth("(lldb)", 3), cursor("quit"), "quit\\r"],
  ],
  (_dir, o) => settled(o, 15_000) === "done",
  files("lldb"),
);

// ---- ed -p '*' (mk-files.sh ed: tides.txt, three lines, 50 bytes)
const ED = "cd f/ed && ed -p '*' tides.txt; echo $? > $OUT";
const TIDES = "high water 06:00\nlow water 12:10\nhigh water 18:20";
const tidesTxt = (dir: string) => read(join(dir, "f/ed/tides.txt"));
const edDelete = task(
  "ed: delete line 2, write, quit: tides.txt keeps the two high waters",
  ["ed"],
  ED,
  [
    ["50", cursor("2d"), "2d\\r"],
    [nth("*", 2), cursor("w"), "w\\r"],
    [nth("*", 3), cursor("q"), "q\\r"],
  ],
  (dir, o) => read(o) === "0" && tidesTxt(dir) === "high water 06:00\nhigh water 18:20",
  files("ed"),
);
const edSubstitute = task(
  "ed: on line 1 06:00 becomes 06:15, write, quit",
  ["ed"],
  ED,
  [
    ["50", cursor("1s/06:00/06:15/"), "1s/06:00/06:15/\\r"],
    [nth("*", 2), cursor("w"), "w\\r"],
    [nth("*", 3), cursor("q"), "q\\r"],
  ],
  (dir, o) => read(o) === "0" && tidesTxt(dir) === TIDES.replace("06:00", "06:15"),
  files("ed"),
);
const edDiscard = task(
  "ed: delete line 2, q refused (buffer modified), Q: quits, tides.txt unchanged",
  ["ed"],
  ED,
  [
    ["50", cursor("2d"), "2d\\r"],
    [nth("*", 2), cursor("q"), "q\\r"],
    ["?", cursor("Q"), "Q\\r"],
  ],
  (dir, o) => read(o) !== "" && tidesTxt(dir) === TIDES,
  files("ed"),
);

// ---- codespell -i 3 -w (mk-files.sh codespell: src/tide.c with teh and alloate, README.md with recieved)
const CODESPELL = "cd f/codespell && codespell -i 3 -w src/tide.c README.md; echo $? > $OUT";
const src = (dir: string) => read(join(dir, "f/codespell/src/tide.c"));
const readme = (dir: string) => read(join(dir, "f/codespell/README.md"));
const codespellAll = task(
  "codespell -i 3: the, allocate, received: all three fixed",
  ["codespell"],
  CODESPELL,
  [
    ["teh ==> the", choose("Y"), "y\\r"],
    ["Choose an option", choose("allocate"), "0\\r"],
    ["recieved ==> received", choose("Y"), "y\\r"],
  ],
  (dir, o) =>
    read(o) !== "" &&
    src(dir).includes("Read the tide table and allocate a buffer") &&
    readme(dir).includes("lights are received"),
  files("codespell"),
);
const codespellSome = task(
  "codespell -i 3: teh kept (n), allot chosen, recieved kept (n)",
  ["codespell"],
  CODESPELL,
  [
    ["teh ==> the", choose("n"), "n\\r"],
    ["Choose an option", choose("allot"), "2\\r"],
    ["recieved ==> received", choose("n"), "n\\r"],
  ],
  (dir, o) =>
    read(o) !== "" &&
    src(dir).includes("Read teh tide table and allot a buffer") &&
    readme(dir).includes("lights are recieved"),
  files("codespell"),
);
const codespellAllotted = task(
  "codespell -i 3: teh fixed, allotted chosen, recieved fixed",
  ["codespell"],
  CODESPELL,
  [
    ["teh ==> the", choose("Y"), "y\\r"],
    ["Choose an option", choose("allotted"), "1\\r"],
    ["recieved ==> received", choose("Y"), "y\\r"],
  ],
  (dir, o) =>
    read(o) !== "" &&
    src(dir).includes("Read the tide table and allotted a buffer") &&
    readme(dir).includes("lights are received"),
  files("codespell"),
);

// ---- isort --interactive (mk-files.sh isort: tides.py and buoys.py unsorted)
const ISORT = "cd f/isort && isort --interactive tides.py buoys.py; echo $? > $OUT";
const py = (dir: string, file: string) => read(join(dir, "f/isort", file));
const isortFirst = task(
  "isort --interactive: tides.py's changes applied (y), buoys.py's not (n)",
  ["isort"],
  ISORT,
  [
    ["[y/n/q]?", choose("y"), "y\\r"],
    [nth("[y/n/q]?", 2), choose("n"), "n\\r"],
  ],
  (dir, o) =>
    read(o) === "0" &&
    py(dir, "tides.py").startsWith("import json\nimport os\nimport sys\n") &&
    py(dir, "buoys.py").startsWith("import zlib\nimport abc"),
  files("isort"),
);
const isortQuit = task(
  "isort --interactive: quit (q) at tides.py: neither file changed",
  ["isort"],
  ISORT,
  [["[y/n/q]?", choose("q"), "q\\r"]],
  (dir, o) =>
    read(o) !== "" &&
    py(dir, "tides.py").startsWith("import sys\nimport os") &&
    py(dir, "buoys.py").startsWith("import zlib\nimport abc"),
  files("isort"),
);

// ---- pdflatex (mk-files.sh tex: tides.tex with \tabel and \input{chapter2}, piers.tex with \input{chapter2},
// chapter1.tex, buoys.tex)
const TEX = (file: string) => `cd f/tex && pdflatex ${file}; echo $? > $OUT`;
const texLog = (dir: string, name: string) => read(join(dir, `f/tex/${name}.log`));
const texPdf = (dir: string, name: string) => existsSync(join(dir, `f/tex/${name}.pdf`));
const texTides = task(
  "pdflatex tides.tex: go on past the error (the ? prompt empty), chapter1 for the missing file: tides.pdf made with it",
  ["pdflatex"],
  TEX("tides.tex"),
  [
    ["Undefined control sequence", cursor(""), "\\r"],
    ["Enter file name:", fill("Enter file name", "chapter1"), "chapter1\\r"],
  ],
  // pdflatex ends 1 (an error was met), the PDF made all the same
  (dir, o) => read(o) === "1" && texPdf(dir, "tides") && texLog(dir, "tides").includes("chapter1.tex"),
  files("tex"),
);
const texPiers = task(
  "pdflatex piers.tex: chapter1 for the missing chapter2: piers.pdf made with it",
  ["pdflatex"],
  TEX("piers.tex"),
  [["Enter file name:", fill("Enter file name", "chapter1"), "chapter1\\r"]],
  (dir, o) => read(o) === "0" && texPdf(dir, "piers") && texLog(dir, "piers").includes("chapter1.tex"),
  files("tex"),
);
const texQuit = task(
  "pdflatex piers.tex: X typed at Enter file name (Type X to quit): no piers.pdf",
  ["pdflatex"],
  TEX("piers.tex"),
  [["Enter file name:", fill("Enter file name", "X"), "X\\r"]],
  (dir, o) => read(o) === "1" && !texPdf(dir, "piers"),
  files("tex"),
);
const texStar = task(
  "pdflatex with no file: buoys at the ** prompt: buoys.pdf made",
  ["pdflatex"],
  "cd f/tex && pdflatex; echo $? > $OUT",
  [["**", cursor("buoys"), "buoys\\r"]],
  (dir, o) => read(o) === "0" && texPdf(dir, "buoys"),
  files("tex"),
);
const texRun = task(
  "pdflatex tides.tex: ? at the ? prompt, then run without stopping (R): it ends in nonstop mode, no PDF",
  ["pdflatex"],
  TEX("tides.tex"),
  [
    ["Undefined control sequence", cursor("?"), "?\\r"],
    ["X to quit", choose("run without stopping"), "R\\r"],
  ],
  (dir, o) => read(o) === "1" && texLog(dir, "tides").includes("entering \\nonstopmode") && !texPdf(dir, "tides"),
  files("tex"),
);

// ---- ffmpeg (mk-files.sh ffmpeg: clip.mp4, 30 s; small.mp4 a stale file)
const FFMPEG = "cd f/ffmpeg && ffmpeg -hide_banner -i clip.mp4 -vf scale=160:120 small.mp4; echo $? > $OUT";
const small = (dir: string) => join(dir, "f/ffmpeg/small.mp4");
const ffmpegYes = task(
  "ffmpeg over small.mp4: Overwrite? y: small.mp4 is the new video",
  ["ffmpeg"],
  FFMPEG,
  [["Overwrite? [y/N]", choose("y"), "y\\r"]],
  (dir, o) => settled(o, 60_000) === "0" && statSync(small(dir)).size > 1000,
  files("ffmpeg"),
);
const ffmpegNo = task(
  "ffmpeg over small.mp4: Overwrite? N: small.mp4 left as it was",
  ["ffmpeg"],
  FFMPEG,
  [["Overwrite? [y/N]", choose("N"), "n\\r"]],
  (dir, o) => read(o) === "1" && read(small(dir)) === "old",
  files("ffmpeg"),
);
const ffmpegStop = task(
  "ffmpeg -re: Press [q] to stop: it stops early, slow.mp4 shorter than the clip",
  ["ffmpeg"],
  "cd f/ffmpeg && ffmpeg -hide_banner -re -i clip.mp4 -vf scale=160:120 -y slow.mp4; echo $? > $OUT",
  [["frame=", hint("Press [q] to stop"), "q", 2000]],
  (dir, o) => {
    if (settled(o, 20_000) !== "0") return false;
    const probe = run("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "format=duration",
      "-of",
      "csv=p=0",
      join(dir, "f/ffmpeg/slow.mp4"),
    ]);
    const seconds = Number(probe.out.trim());
    return seconds > 0 && seconds < 20;
  },
  files("ffmpeg"),
);

// ---- scons --interactive (mk-files.sh scons: the programs tide and buoy)
const SCONS = "cd f/scons && scons --interactive; echo done > $OUT";
const built = (dir: string, name: string) => existsSync(join(dir, "f/scons", name));
const sconsBuild = task(
  "scons --interactive: build tide, exit: tide built, buoy not",
  ["scons"],
  SCONS,
  [
    ["scons>>>", cursor("build tide"), "build tide\\r"],
    ["done building", cursor("exit"), "exit\\r"],
  ],
  (dir, o) => read(o) === "done" && built(dir, "tide") && !built(dir, "buoy"),
  files("scons"),
);
const sconsClean = task(
  "scons --interactive: build buoy, then clean buoy, exit: no buoy left",
  ["scons"],
  SCONS,
  [
    ["scons>>>", cursor("build buoy"), "build buoy\\r"],
    ["done building", cursor("clean buoy"), "clean buoy\\r"],
    ["done cleaning", cursor("exit"), "exit\\r"],
  ],
  (dir, o) => read(o) === "done" && !built(dir, "buoy") && !built(dir, "buoy.o"),
  files("scons"),
);

// ---- rspamadm configwizard: it writes /etc/rspamd/local.d (put back as installed before and after)
const RSPAMD = "rspamadm configwizard; echo $? > $OUT";
const rspamdReset = (dir: string) => mk("mk-files.sh", join(dir, "f"), "rspamd");
const local = (file: string) => read(join("/etc/rspamd/local.d", file));
const rspamdPassword = task(
  "rspamadm configwizard: continue, a controller password, no Redis, no DKIM, apply: worker-controller.inc written",
  ["rspamadm"],
  RSPAMD,
  [
    ["continue?[Y/n]", choose("Y"), "y\\r"],
    ["do you want to set one?", choose("Y"), "y\\r"],
    ["Enter passphrase:", fill("Enter passphrase", "harbour-pass"), "harbour-pass\\r"],
    ["Redis servers?", choose("n"), "n\\r"],
    ["dkim signing feature?", choose("N"), "n\\r"],
    ["Apply changes?", choose("Y"), "y\\r"],
  ],
  stopping(
    rspamdReset,
    (_dir, o) =>
      settled(o, 20_000) === "0" &&
      /password = "\$2\$/.test(local("worker-controller.inc")) &&
      local("dkim_signing.conf") === "",
  ),
  rspamdReset,
);
const rspamdDkim = task(
  "rspamadm configwizard: no password, DKIM by authenticated user (3), harbour.test, selector tides, keys in the task: applied",
  ["rspamadm"],
  RSPAMD,
  [
    ["continue?[Y/n]", choose("Y"), "y\\r"],
    ["do you want to set one?", choose("n"), "n\\r"],
    ["Redis servers?", choose("n"), "n\\r"],
    ["dkim signing feature?", choose("y"), "y\\r"],
    ["Enter your choice", choose("Use domain from authenticated user for sign"), "3\\r"],
    ["data mismatch", choose("Y"), "y\\r"],
    ["effective domain", choose("Y"), "y\\r"],
    ["directory for the keys", fill("Enter output directory for the keys", "$D/f/rspamd/dkim"), "$D/f/rspamd/dkim\\r"],
    ["domain to sign:", fill("Enter domain to sign", "harbour.test"), "harbour.test\\r"],
    ["Enter selector", fill("Enter selector", "tides"), "tides\\r"],
    ["create privkey", choose("Y"), "y\\r"],
    ["another DKIM domain", choose("N"), "n\\r"],
    ["Apply changes?", choose("Y"), "y\\r"],
  ],
  stopping(rspamdReset, (dir, o) => {
    const conf = local("dkim_signing.conf");
    return (
      settled(o, 20_000) === "0" &&
      conf.includes("tides") &&
      conf.includes("harbour.test") &&
      existsSync(join(dir, "f/rspamd/dkim/harbour.test.tides.key")) &&
      local("worker-controller.inc") === ""
    );
  }),
  rspamdReset,
);
const rspamdNoApply = task(
  "rspamadm configwizard: a controller password, no Redis, no DKIM, changes not applied (n): nothing written",
  ["rspamadm"],
  RSPAMD,
  [
    ["continue?[Y/n]", choose("Y"), "y\\r"],
    ["do you want to set one?", choose("Y"), "y\\r"],
    ["Enter passphrase:", fill("Enter passphrase", "harbour-pass"), "harbour-pass\\r"],
    ["Redis servers?", choose("n"), "n\\r"],
    ["dkim signing feature?", choose("N"), "n\\r"],
    ["Apply changes?", choose("n"), "n\\r"],
  ],
  stopping(
    rspamdReset,
    (_dir, o) =>
      settled(o, 20_000) === "0" && local("worker-controller.inc") === "" && local("dkim_signing.conf") === "",
  ),
  rspamdReset,
);

// ---- notmuch setup (mk-files.sh notmuch: a HOME of its own with mail/)
const NOTMUCH =
  "cd f/notmuch && HOME=$D/f/notmuch NOTMUCH_CONFIG=$D/f/notmuch/notmuch-config notmuch setup; echo $? > $OUT";
const notmuchSetup = task(
  "notmuch setup: Ada Lovelace, ada@harbour.test, no other address, the mail directory, tags new, spam excluded",
  ["notmuch"],
  NOTMUCH,
  [
    ["Your full name", fill("Your full name", "Ada Lovelace"), "Ada Lovelace\\r"],
    ["primary email address", fill("Your primary email address", "ada@harbour.test"), "ada@harbour.test\\r"],
    ["Additional email address", fill("Additional email address", ""), "\\r"],
    [
      "Top-level directory",
      fill("Top-level directory of your email archive", "$D/f/notmuch/mail"),
      "$D/f/notmuch/mail\\r",
    ],
    ["Tags to apply", fill("Tags to apply to all new messages (separated by spaces)", "new"), "new\\r"],
    ["Tags to exclude", fill("Tags to exclude when searching messages (separated by spaces)", "spam"), "spam\\r"],
  ],
  (dir, o) => {
    const conf = read(join(dir, "f/notmuch/notmuch-config"));
    return (
      read(o) === "0" &&
      conf.split("\n").includes(`path=${join(dir, "f/notmuch/mail")}`) &&
      /^name=Ada Lovelace$/m.test(conf) &&
      /^primary_email=ada@harbour.test$/m.test(conf) &&
      /^tags=new;?$/m.test(conf) &&
      /^exclude_tags=spam;?$/m.test(conf)
    );
  },
  files("notmuch"),
);

// ---- ghci (mk-files.sh ghci: Tide.hs)
const GHCI = "cd f/ghci && ghci; echo done > $OUT";
const ghciWrite = task(
  "ghci: load Tide, write tide 5 to level.txt, quit: level.txt holds 11",
  ["ghci"],
  GHCI,
  [
    ["ghci>", cursor(":load Tide"), ":load Tide\\r"],
    ["module loaded", cursor('writeFile "level.txt" (show (tide 5))'), 'writeFile "level.txt" (show (tide 5))\\r'],
    [undefined, cursor(":q"), ":q\\r", 1500],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "f/ghci/level.txt")) === "11",
  files("ghci"),
);
const ghciHarbours = task(
  "ghci: load Tide, write the harbours joined by commas to harbours.txt, quit",
  ["ghci"],
  GHCI,
  [
    ["ghci>", cursor(":load Tide"), ":load Tide\\r"],
    [
      "module loaded",
      cursor('writeFile "harbours.txt" (concatMap (++ ",") harbours)'),
      'writeFile "harbours.txt" (concatMap (++ ",") harbours)\\r',
    ],
    [undefined, cursor(":q"), ":q\\r", 1500],
  ],
  (dir, o) => read(o) === "done" && read(join(dir, "f/ghci/harbours.txt")) === "tides,piers,buoys,",
  files("ghci"),
);

// ---- vite (mk-files.sh vite: index.html, the tools' node_modules)
const VITE = "cd f/vite && ./node_modules/.bin/vite --port 5179 --strictPort; echo done > $OUT";
const viteQuit = task(
  "vite: press h + enter to show help, then press q + enter to quit: vite ends, its port closed",
  ["vite"],
  VITE,
  [
    ["show help", hint("press h + enter to show help"), "h\\r"],
    ["Shortcuts", hint("press q + enter to quit"), "q\\r"],
  ],
  (_dir, o) => settled(o, 15_000) === "done" && run("curl", ["-s", "-m", "2", "http://localhost:5179/"]).status !== 0,
  files("vite"),
);

// ---- samba-tool domain provision --interactive into f/samba/dc
const SAMBA =
  "cd f/samba && samba-tool domain provision --interactive --targetdir=$D/f/samba/dc --use-rfc2307; echo $? > $OUT";
const smbConf = (dir: string) => read(join(dir, "f/samba/dc/etc/smb.conf"));
/** DNS backend NONE writes a `server services` line without `dns`; the internal DNS keeps the default services. */
const dnsServed = (conf: string) => {
  const services = /^\s*server services = (.*)$/m.exec(conf)?.[1];
  return services === undefined || services.split(/,\s*/).includes("dns");
};
const sambaHarbour = task(
  "samba-tool domain provision: realm harbour.test, domain HARBOUR, a dc, DNS NONE, the password twice: provisioned",
  ["samba-tool"],
  SAMBA,
  [
    ["Realm:", fill("Realm", "harbour.test"), "harbour.test\\r"],
    ["Domain [", fill("Domain", "HARBOUR"), "HARBOUR\\r"],
    ["Server Role", choose("dc"), "dc\\r"],
    ["DNS backend", choose("NONE"), "NONE\\r"],
    ["Administrator password:", fill("Administrator password", "Harbour-Pass1"), "Harbour-Pass1\\r"],
    ["Retype password:", fill("Retype password", "Harbour-Pass1"), "Harbour-Pass1\\r"],
  ],
  (dir, o) => {
    const conf = smbConf(dir);
    return (
      settled(o) === "0" &&
      /realm = HARBOUR\.TEST/i.test(conf) &&
      /workgroup = HARBOUR/.test(conf) &&
      /server role = active directory domain controller/.test(conf) &&
      !dnsServed(conf)
    );
  },
  files("samba"),
);
const sambaPiers = task(
  "samba-tool domain provision: realm piers.test, domain PIERS, a dc, the internal DNS, no forwarder: provisioned",
  ["samba-tool"],
  SAMBA,
  [
    ["Realm:", fill("Realm", "piers.test"), "piers.test\\r"],
    ["Domain [", fill("Domain", "PIERS"), "PIERS\\r"],
    ["Server Role", choose("dc"), "dc\\r"],
    ["DNS backend", choose("SAMBA_INTERNAL"), "SAMBA_INTERNAL\\r"],
    ["DNS forwarder", fill("DNS forwarder IP address (write 'none' to disable forwarding)", "none"), "none\\r"],
    ["Administrator password:", fill("Administrator password", "Piers-Pass22"), "Piers-Pass22\\r"],
    ["Retype password:", fill("Retype password", "Piers-Pass22"), "Piers-Pass22\\r"],
  ],
  (dir, o) => {
    const conf = smbConf(dir);
    return (
      settled(o) === "0" &&
      /realm = PIERS\.TEST/i.test(conf) &&
      /workgroup = PIERS/.test(conf) &&
      dnsServed(conf) &&
      !/dns forwarder/.test(conf)
    );
  },
  files("samba"),
);

export const TASKS: Task[] = [
  lldbContinue,
  lldbQuitYes,
  lldbQuitNo,
  lldbGuiContinue,
  lldbGuiExit,
  edDelete,
  edSubstitute,
  edDiscard,
  codespellAll,
  codespellSome,
  codespellAllotted,
  isortFirst,
  isortQuit,
  texTides,
  texPiers,
  texQuit,
  texStar,
  texRun,
  ffmpegYes,
  ffmpegNo,
  ffmpegStop,
  sconsBuild,
  sconsClean,
  rspamdPassword,
  rspamdDkim,
  rspamdNoApply,
  notmuchSetup,
  ghciWrite,
  ghciHarbours,
  viteQuit,
  sambaHarbour,
  sambaPiers,
];

/** The npm tools' bin (installed into TOOLS when missing). */
function npmTools(): string | undefined {
  const bin = join(MODULES, ".bin");
  const have = () => ["vite"].every((tool) => existsSync(join(bin, tool)));
  if (!have()) spawnSync("npm", ["i", "--prefix", TOOLS, "--no-audit", "--no-fund", ...NPM_TOOLS], { stdio: "ignore" });
  return have() ? bin : undefined;
}

/** The suite on bench/tasks-blind.ts's harness. */
export function runBlind13Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: npmTools() });
}
export { runBlind13Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind13Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
