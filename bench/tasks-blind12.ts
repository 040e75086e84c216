// The blind task suite of issue 59 for blind set 12 (test/fixtures/blind12): end-to-end tasks on its
// programs (none of them in train nor in the earlier blind sets), written by an engineer who had not
// read the detector nor the acting code, before either ran on these programs. Each task is done by
// meaning only (`choose`/`fill`/`click` by the label the screen shows, as test/fixtures/blind12/README.md
// labels it; a key hint by its text (`click --text "s: Start"`, `"i - Interact"`); where a prompt is only a
// marker (`fail2ban>`, `knotc>`, `nft>`, `(qemu)`, mprocs's Add process box, a turbo task's own prompt) the
// field holding the cursor read from the snapshot; no raw keys) and its outcome is checked from outside (what
// turbo's and mprocs's processes write, the secret file google-authenticator writes, icinga2's zones and
// features, znc.conf, apache2's enabled modules and sites, the bans fail2ban's action logs, the zone knotd
// serves, the ruleset nft leaves, slapd's entries, the VM's state over QMP). Each task also has a raw-key
// reference run that proves its checker: `npx bun bench/tasks-blind12.ts --reference` must pass every task.
// The harness is bench/tasks-blind.ts's.
//
//   npx bun bench/tasks-blind12.ts [--reference] [--only N,M]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { CURSOR_INPUT, type Outcome, runBlindTasks, type Step, type Task } from "./tasks-blind.ts";

const HERE = resolve(import.meta.dir, "../test/fixtures/blind12");
/** The npm tools (test/fixtures/blind12/README.md): turbo, mprocs. */
const TOOLS = "/tmp/t4a-blind12-tools";
const NPM_TOOLS = ["turbo@2.11.13", "mprocs@0.9.6"];
const MODULES = join(TOOLS, "node_modules");

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
const lines = (file: string) => read(file).split("\n").filter(Boolean);
const run = (cmd: string, args: string[]) => {
  const child = spawnSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  return { status: child.status, out: `${child.stdout ?? ""}${child.stderr ?? ""}` };
};
/** A fixture set-up script of test/fixtures/blind12 (mk-*), run with `args`. */
const mk = (script: string, ...args: string[]) => execFileSync(join(HERE, script), args, { stdio: "ignore" });
const files = (kind: string) => (dir: string) => mk("mk-files.sh", join(dir, "f"), kind, MODULES);
/** Runs a check, then stops the task's server (or puts back what it changed) whatever the check says. */
const stopping =
  (stop: (dir: string) => void, check: Task["check"]): Task["check"] =>
  (dir, out) => {
    try {
      return check(dir, out);
    } finally {
      stop(dir);
    }
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

// ---- turbo run dev build, its TUI (mk-files.sh turbo: the dev tasks ask `NAME> command (reload, stop):` and log each
// answer to apps/NAME/commands.log)
const TURBO = "cd f/turbo && $T/turbo run dev build; echo done > $OUT";
const turboReload = task(
  "turbo TUI: interact with tides#dev (i - Interact), give it the command reload: tides logs reload",
  ["turbo"],
  TURBO,
  [
    ["tides> command", hint("i - Interact"), "i", 1000],
    ["Stop interacting", cursor("reload"), "reload\\r"],
  ],
  (dir) => read(join(dir, "f/turbo/apps/tides/commands.log")) === "reload",
  files("turbo"),
);
const turboStop = task(
  "turbo TUI: select piers#dev, interact with it, give it the command stop: piers logs stop, tides nothing",
  ["turbo"],
  TURBO,
  [
    ["tides> command", choose("piers#dev"), "\\x1b[B", 1000],
    ["piers> command", hint("i - Interact"), "i"],
    ["Stop interacting", cursor("stop"), "stop\\r"],
  ],
  (dir) =>
    read(join(dir, "f/turbo/apps/piers/commands.log")) === "stop" &&
    !existsSync(join(dir, "f/turbo/apps/tides/commands.log")),
  files("turbo"),
);

// ---- mprocs (mk-files.sh mprocs: tide-logger appends to tide.log every second, pier-lights, buoy-check not started:
// it touches buoy.done)
const MPROCS = "cd f/mprocs && $T/mprocs; echo done > $OUT";
const stale = (file: string, ms: number) => existsSync(file) && Date.now() - statSync(file).mtimeMs > ms;
const mprocsAdd = task(
  "mprocs: All commands (p), the New process dialog, the command touch added.txt: it runs",
  ["mprocs"],
  MPROCS,
  [
    ["tide reading", hint("p: All commands"), "p", 800],
    ["Commands", choose("show-add-proc"), "\\x1b|a"],
    ["Add process", cursor("touch added.txt"), "touch added.txt\\r"],
  ],
  (dir) => existsSync(join(dir, "f/mprocs/added.txt")),
  files("mprocs"),
);
const mprocsStart = task(
  "mprocs: select buoy-check, Start it (s: Start): it runs",
  ["mprocs"],
  MPROCS,
  [
    ["tide reading", choose("buoy-check"), "j|j", 500],
    [undefined, hint("s: Start"), "s"],
  ],
  (dir) => existsSync(join(dir, "f/mprocs/buoy.done")),
  files("mprocs"),
);
const mprocsStop = task(
  "mprocs: Stop the selected tide-logger (x: Stop): tide.log stops growing, pier-lights not asked",
  ["mprocs"],
  MPROCS,
  [["tide reading", hint("x: Stop"), "x", 800]],
  (dir) => stale(join(dir, "f/mprocs/tide.log"), 4000),
  files("mprocs"),
);
const mprocsQuit = task(
  "mprocs: Quit (q: Quit): mprocs exits, tide-logger with it",
  ["mprocs"],
  MPROCS,
  [["tide reading", hint("q: Quit"), "q", 800]],
  (dir, o) => {
    Bun.sleepSync(3000);
    return read(o) === "done" && stale(join(dir, "f/mprocs/tide.log"), 2500);
  },
  files("mprocs"),
);

// ---- google-authenticator -s f/ga/secret
// -C: no code asked (t4a's command line would read the answer -1 as an option: not what these tasks measure)
const GA = "google-authenticator -C -s $D/f/ga/secret; echo $? > $OUT";
const secret = (dir: string) => lines(join(dir, "f/ga/secret"));
const gaAll = task(
  "google-authenticator: time-based, no code asked, file updated, reuse disallowed, no wider window, rate limit",
  ["google-authenticator"],
  GA,
  [
    ["time-based (y/n)", choose("y"), "y\\r"],
    ["update your", choose("y"), "y\\r"],
    ["disallow multiple uses", choose("y"), "y\\r"],
    ["Do you want to do so?", choose("n"), "n\\r"],
    ["enable rate-limiting?", choose("y"), "y\\r"],
  ],
  (dir, o) => {
    const s = secret(dir);
    return (
      read(o) === "0" &&
      s.includes('" TOTP_AUTH') &&
      s.includes('" DISALLOW_REUSE') &&
      s.includes('" RATE_LIMIT 3 30') &&
      !s.some((l) => l.includes("WINDOW_SIZE"))
    );
  },
  files("ga"),
);
const gaWindow = task(
  "google-authenticator: time-based, no code asked, file updated, reuse allowed, the window of 17, no rate limit",
  ["google-authenticator"],
  GA,
  [
    ["time-based (y/n)", choose("y"), "y\\r"],
    ["update your", choose("y"), "y\\r"],
    ["disallow multiple uses", choose("n"), "n\\r"],
    ["Do you want to do so?", choose("y"), "y\\r"],
    ["enable rate-limiting?", choose("n"), "n\\r"],
  ],
  (dir, o) => {
    const s = secret(dir);
    return (
      read(o) === "0" &&
      s.includes('" TOTP_AUTH') &&
      s.includes('" WINDOW_SIZE 17') &&
      !s.includes('" DISALLOW_REUSE') &&
      !s.some((l) => l.includes("RATE_LIMIT"))
    );
  },
  files("ga"),
);
const gaNoFile = task(
  "google-authenticator: time-based, no code asked, the file not updated (n): no secret file written",
  ["google-authenticator"],
  GA,
  [
    ["time-based (y/n)", choose("y"), "y\\r"],
    ["update your", choose("n"), "n\\r"],
  ],
  (dir, o) => read(o) !== "" && !existsSync(join(dir, "f/ga/secret")),
  files("ga"),
);

// ---- icinga2 node wizard (mk-icinga.sh puts /etc/icinga2 and /var/lib/icinga2 back as installed, before and after)
const ICINGA = "icinga2 node wizard; echo $? > $OUT";
const icingaReset = () => mk("mk-icinga.sh");
const etc = (file: string) => read(join("/etc/icinga2", file));
const icingaMaster = task(
  "icinga2 node wizard: a master harbour-master, zone harbour, global zone tides-global, API on 127.0.0.1:5666, conf.d off",
  ["icinga2"],
  ICINGA,
  [
    ["[Y/n]:", choose("n"), "n\\r"],
    ["common name (CN)", fill("Please specify the common name (CN)", "harbour-master"), "harbour-master\\r"],
    ["Master zone name", fill("Master zone name", "harbour"), "harbour\\r"],
    ["additional global zones", choose("y"), "y\\r"],
    ["name of the global Zone", fill("Please specify the name of the global Zone", "tides-global"), "tides-global\\r"],
    ["another global zone", choose("N"), "n\\r"],
    ["Bind Host", fill("Bind Host", "127.0.0.1"), "127.0.0.1\\r"],
    ["Bind Port", fill("Bind Port", "5666"), "5666\\r"],
    ["conf.d directory", choose("Y"), "y\\r"],
  ],
  stopping(icingaReset, (_dir, o) => {
    const zones = etc("zones.conf");
    const api = etc("features-enabled/api.conf");
    return (
      read(o) === "0" &&
      zones.includes('object Endpoint "harbour-master"') &&
      zones.includes('object Zone "harbour"') &&
      zones.includes('object Zone "tides-global"') &&
      /bind_host = "127\.0\.0\.1"/.test(api) &&
      /bind_port = 5666/.test(api) &&
      /^\/\/ include_recursive "conf\.d"/m.test(etc("icinga2.conf"))
    );
  }),
  icingaReset,
);
const icingaKeep = task(
  "icinga2 node wizard: a master piers-master, zone piers, no other global zone, API on 127.0.0.1:5665, conf.d kept",
  ["icinga2"],
  ICINGA,
  [
    ["[Y/n]:", choose("n"), "n\\r"],
    ["common name (CN)", fill("Please specify the common name (CN)", "piers-master"), "piers-master\\r"],
    ["Master zone name", fill("Master zone name", "piers"), "piers\\r"],
    ["additional global zones", choose("N"), "n\\r"],
    ["Bind Host", fill("Bind Host", "127.0.0.1"), "127.0.0.1\\r"],
    ["Bind Port", fill("Bind Port", "5665"), "5665\\r"],
    ["conf.d directory", choose("n"), "n\\r"],
  ],
  stopping(icingaReset, (_dir, o) => {
    const zones = etc("zones.conf");
    return (
      read(o) === "0" &&
      zones.includes('object Endpoint "piers-master"') &&
      zones.includes('object Zone "piers"') &&
      !zones.includes("tides-global") &&
      /^include_recursive "conf\.d"/m.test(etc("icinga2.conf"))
    );
  }),
  icingaReset,
);

// ---- znc --makeconf, as nobody, in a data directory nobody can reach (the task's directory is root's alone), linked
// from f/znc-data
const ZNC =
  "Z=$(mktemp -d /tmp/t4a-blind12-znc.XXXXXX) && chown nobody $Z && ln -s $Z f/znc-data && " +
  "runuser -u nobody -- znc --datadir $Z --makeconf; echo $? > $OUT";
const zncConf = (dir: string) => read(join(dir, "f/znc-data/configs/znc.conf"));
const zncGone = (dir: string) => {
  const data = join(dir, "f/znc-data");
  if (existsSync(data)) rmSync(realpathSync(data), { recursive: true, force: true });
};
const zncUser: Pair[] = [
  ["Username (alphanumeric)", fill("Username (alphanumeric)", "ada"), "ada\\r"],
  ["Enter password:", fill("Enter password", "harbour-pass"), "harbour-pass\\r"],
  ["Confirm password:", fill("Confirm password", "harbour-pass"), "harbour-pass\\r"],
  ["Nick [ada]", fill("Nick", "ada"), "ada\\r"],
  ["Alternate nick", fill("Alternate nick", "ada_"), "ada_\\r"],
  ["Ident", fill("Ident", "ada"), "ada\\r"],
  ["Real name", fill("Real name (optional)", "Ada Lovelace"), "Ada Lovelace\\r"],
  ["Bind host", fill("Bind host (optional)", "127.0.0.1"), "127.0.0.1\\r"],
];
const zncNetwork = task(
  "znc --makeconf: port 6697 (proceed), no SSL, no IPv6, user ada, network harbournet on irc.harbour.test, #tides",
  ["znc"],
  ZNC,
  [
    ["Listen on port", fill("Listen on port (1025 to 65534)", "6697"), "6697\\r"],
    ["Proceed anyway?", choose("yes"), "yes\\r"],
    ["Listen using SSL", choose("no"), "no\\r"],
    ["IPv6", choose("no"), "no\\r"],
    ...zncUser,
    ["Set up a network?", choose("yes"), "yes\\r"],
    ["Name [freenode]", fill("Name", "harbournet"), "harbournet\\r"],
    ["Server host", fill("Server host (host only)", "irc.harbour.test"), "irc.harbour.test\\r"],
    ["Server uses SSL?", choose("no"), "no\\r"],
    ["Server port", fill("Server port (1 to 65535)", "6667"), "6667\\r"],
    ["Server password", fill("Server password (probably empty)", "tide-irc"), "tide-irc\\r"],
    ["Initial channels", fill("Initial channels", "#tides"), "#tides\\r"],
    ["Launch ZNC now?", choose("no"), "no\\r"],
  ],
  stopping(zncGone, (dir, o) => {
    const c = zncConf(dir);
    return (
      read(o) === "0" &&
      /Port = 6697/.test(c) &&
      /SSL = false/.test(c) &&
      /IPv6 = false/.test(c) &&
      c.includes("<User ada>") &&
      c.includes("<Network harbournet>") &&
      /Server\s+= irc\.harbour\.test 6667 tide-irc/.test(c) &&
      c.includes("<Chan #tides>")
    );
  }),
  files("znc"),
);
const zncSsl = task(
  "znc --makeconf: port 7000 with SSL, IPv4 and IPv6, user ada, no network: SSL on, no network",
  ["znc"],
  ZNC,
  [
    ["Listen on port", fill("Listen on port (1025 to 65534)", "7000"), "7000\\r"],
    ["Listen using SSL", choose("yes"), "yes\\r"],
    ["IPv6", choose("yes"), "yes\\r"],
    ...zncUser,
    ["Set up a network?", choose("no"), "no\\r"],
    ["Launch ZNC now?", choose("no"), "no\\r"],
  ],
  stopping(zncGone, (dir, o) => {
    const c = zncConf(dir);
    return (
      read(o) === "0" &&
      /Port = 7000/.test(c) &&
      /SSL = true/.test(c) &&
      c.includes("<User ada>") &&
      !c.includes("<Network")
    );
  }),
  files("znc"),
);

// ---- a2enmod, a2ensite, a2dismod on f/apache2 (APACHE_CONFDIR)
const AP = "export APACHE_CONFDIR=$D/f/apache2 &&";
const enabled = (dir: string, what: string) => readdirSync(join(dir, "f/apache2", what));
const a2enmod = task(
  "a2enmod with no argument: enable rewrite and headers from its list",
  ["a2enmod"],
  `${AP} a2enmod; echo $? > $OUT`,
  [
    [
      "wildcards ok",
      fill("Which module(s) do you want to enable (wildcards ok)?", "rewrite headers"),
      "rewrite headers\\r",
    ],
  ],
  (dir, o) =>
    read(o) === "0" &&
    ["rewrite.load", "headers.load"].every((m) => enabled(dir, "mods-enabled").includes(m)) &&
    !enabled(dir, "mods-enabled").includes("ssl.load"),
  files("apache"),
);
const a2ensite = task(
  "a2ensite with no argument: enable default-ssl from its list",
  ["a2ensite"],
  `${AP} a2ensite; echo $? > $OUT`,
  [["wildcards ok", fill("Which site(s) do you want to enable (wildcards ok)?", "default-ssl"), "default-ssl\\r"]],
  (dir, o) => read(o) === "0" && enabled(dir, "sites-enabled").includes("default-ssl.conf"),
  files("apache"),
);
const ESSENTIAL = "To continue type in the phrase 'Yes, do as I say!' or retry by passing '-f'";
const a2dismodYes = task(
  "a2dismod authz_host: the essential module disabled after the typed phrase",
  ["a2dismod"],
  `${AP} a2dismod authz_host; echo $? > $OUT`,
  [["do as I say", fill(ESSENTIAL, "Yes, do as I say!"), "Yes, do as I say!\\r"]],
  (dir, o) => read(o) === "0" && !enabled(dir, "mods-enabled").includes("authz_host.load"),
  files("apache"),
);
const a2dismodNo = task(
  "a2dismod authz_host: not confirmed (no): the module stays enabled",
  ["a2dismod"],
  `${AP} a2dismod authz_host; echo $? > $OUT`,
  [["do as I say", fill(ESSENTIAL, "no"), "no\\r"]],
  (dir, o) => read(o) !== "" && enabled(dir, "mods-enabled").includes("authz_host.load"),
  files("apache"),
);

// ---- fail2ban-client -i on a server of its own (mk-f2b.sh: jails harbour and piers, 10.0.0.5 banned in harbour;
// the action logs "JAIL ban IP" / "JAIL unban IP" to f2b/actions.log)
const f2b = (dir: string) => mk("mk-f2b.sh", join(dir, "f2b"));
const f2bStop = (dir: string) => mk("mk-f2b.sh", join(dir, "f2b"), "stop");
const FAIL2BAN = "fail2ban-client -c $D/f2b/conf -i; echo done > $OUT";
const actions = (dir: string) => lines(join(dir, "f2b/actions.log"));
const f2bBan = task(
  "fail2ban-client -i: ban 10.0.0.9 in the piers jail, exit",
  ["fail2ban-client", "fail2ban-server"],
  FAIL2BAN,
  [
    ["fail2ban>", cursor("set piers banip 10.0.0.9"), "set piers banip 10.0.0.9\\r"],
    [nth("fail2ban>", 2), cursor("exit"), "exit\\r"],
  ],
  stopping(f2bStop, (dir, o) => read(o) === "done" && actions(dir).includes("piers ban 10.0.0.9")),
  f2b,
);
const f2bUnban = task(
  "fail2ban-client -i: unban 10.0.0.5 from the harbour jail, exit",
  ["fail2ban-client", "fail2ban-server"],
  FAIL2BAN,
  [
    ["fail2ban>", cursor("set harbour unbanip 10.0.0.5"), "set harbour unbanip 10.0.0.5\\r"],
    [nth("fail2ban>", 2), cursor("exit"), "exit\\r"],
  ],
  stopping(
    f2bStop,
    (dir, o) =>
      read(o) === "done" &&
      actions(dir).includes("harbour unban 10.0.0.5") &&
      !actions(dir).some((l) => l.startsWith("piers")),
  ),
  f2b,
);

// ---- knotc's console on a knotd of its own (mk-knot.sh: the zone harbour.test with www, pier and buoy)
const knot = (port: number) => (dir: string) => mk("mk-knot.sh", join(dir, "knot"), String(port));
const knotStop = (dir: string) => mk("mk-knot.sh", join(dir, "knot"), "stop");
const KNOTC = "knotc -c $D/knot/knot.conf; echo $? > $OUT";
const zone = (dir: string) => run("knotc", ["-c", join(dir, "knot/knot.conf"), "zone-read", "harbour.test"]).out;
const knotSteps = (lines: string[]): Pair[] =>
  lines.map((line, i) => [nth("knotc>", i + 1), cursor(line), `${line}\\r`] as Pair);
const knotAdd = task(
  "knotc: a transaction adding tide A 10.0.0.30 to harbour.test, committed, exit: the zone serves it",
  ["knotc", "knotd"],
  KNOTC,
  knotSteps([
    "zone-begin harbour.test",
    "zone-set harbour.test tide 3600 A 10.0.0.30",
    "zone-commit harbour.test",
    "exit",
  ]),
  stopping(knotStop, (dir, o) => read(o) === "0" && zone(dir).includes("tide.harbour.test. 3600 A 10.0.0.30")),
  knot(28560),
);
const knotRemove = task(
  "knotc: a transaction removing pier from harbour.test, committed, exit: pier gone, www kept",
  ["knotc", "knotd"],
  KNOTC,
  knotSteps(["zone-begin harbour.test", "zone-unset harbour.test pier", "zone-commit harbour.test", "exit"]),
  stopping(
    knotStop,
    (dir, o) => read(o) === "0" && !zone(dir).includes("pier.harbour.test.") && zone(dir).includes("www.harbour.test."),
  ),
  knot(28570),
);
const knotAbort = task(
  "knotc: a transaction setting buoy's TXT, aborted (zone-abort), exit: the zone unchanged",
  ["knotc", "knotd"],
  KNOTC,
  knotSteps([
    "zone-begin harbour.test",
    'zone-set harbour.test buoy 3600 TXT "battery 5%"',
    "zone-abort harbour.test",
    "exit",
  ]),
  stopping(knotStop, (dir, o) => read(o) === "0" && zone(dir).includes('"battery 62%"') && !zone(dir).includes("5%")),
  knot(28580),
);

// ---- nft -i in a network namespace of its own; the ruleset written to nft/ruleset.txt when it ends
const NFT = "mkdir -p nft && unshare -n bash -c 'nft -i; nft list ruleset > $D/nft/ruleset.txt'; echo $? > $OUT";
const ruleset = (dir: string) => read(join(dir, "nft/ruleset.txt"));
const nftSteps = (lines: string[]): Pair[] =>
  lines.map((line, i) => [nth("nft>", i + 1), cursor(line), `${line}\\r`] as Pair);
const nftSsh = task(
  "nft -i: a table harbour, an input chain, a rule accepting tcp port 22, quit: the ruleset holds it",
  ["nft", "unshare"],
  NFT,
  nftSteps([
    "add table inet harbour",
    "add chain inet harbour input { type filter hook input priority 0; policy accept; }",
    "add rule inet harbour input tcp dport 22 accept",
    "quit",
  ]),
  (dir, o) => read(o) === "0" && /table inet harbour/.test(ruleset(dir)) && /tcp dport 22 accept/.test(ruleset(dir)),
);
const nftDelete = task(
  "nft -i: tables harbour and piers added, harbour deleted, quit: only piers left",
  ["nft", "unshare"],
  NFT,
  nftSteps(["add table inet harbour", "add table inet piers", "delete table inet harbour", "quit"]),
  (dir, o) => read(o) === "0" && /table inet piers/.test(ruleset(dir)) && !/harbour/.test(ruleset(dir)),
);

// ---- ldap-utils on a slapd of its own (mk-ldap.sh: dc=harbour,dc=test, admin password harbour-admin, ada and bob)
const ldap = (port: number) => (dir: string) => mk("mk-ldap.sh", join(dir, "ldap"), String(port));
const ldapStop = (dir: string) => mk("mk-ldap.sh", join(dir, "ldap"), "stop");
const LDAP = (port: number, line: string) =>
  `cd ldap && ${line} -x -H ldap://127.0.0.1:${port} -D cn=admin,dc=harbour,dc=test -W; echo $? > $OUT`;
const people = (port: number) =>
  run("ldapsearch", [
    "-x",
    "-H",
    `ldap://127.0.0.1:${port}`,
    "-b",
    "ou=people,dc=harbour,dc=test",
    "-LLL",
    "mail",
    "uid",
  ]).out;
const PASSWORD: Pair = ["Enter LDAP Password:", fill("Enter LDAP Password", "harbour-admin"), "harbour-admin\\r"];
const ldapAdd = task(
  "ldapadd -W -f grace.ldif: the admin's password: grace added",
  ["ldapadd", "slapd"],
  LDAP(28390, "ldapadd -f grace.ldif"),
  [PASSWORD],
  stopping(ldapStop, (_dir, o) => read(o) === "0" && people(28390).includes("uid: grace")),
  ldap(28390),
);
const ldapDelete = task(
  "ldapdelete -W uid=bob: the admin's password: bob deleted, ada kept",
  ["ldapdelete", "slapd"],
  LDAP(28391, "ldapdelete uid=bob,ou=people,dc=harbour,dc=test"),
  [PASSWORD],
  stopping(
    ldapStop,
    (_dir, o) => read(o) === "0" && !people(28391).includes("uid: bob") && people(28391).includes("uid: ada"),
  ),
  ldap(28391),
);
const ldapModify = task(
  "ldapmodify -W -f ada-mail.ldif: the admin's password: ada's mail is ada@piers.test",
  ["ldapmodify", "slapd"],
  LDAP(28392, "ldapmodify -f ada-mail.ldif"),
  [PASSWORD],
  stopping(ldapStop, (_dir, o) => read(o) === "0" && people(28392).includes("mail: ada@piers.test")),
  ldap(28392),
);

// ---- qemu's monitor on the terminal: a VM stopped at start (prelaunch), no disk; its state read over QMP
const QEMU =
  "qemu-system-x86_64 -machine pc -m 64 -nographic -nodefaults -S -monitor stdio -name harbour-vm " +
  "-qmp unix:$D/qmp.sock,server=on,wait=off; echo $? > $OUT";
/** The VM's status over QMP (running, paused, prelaunch …), "" when it answers not. */
function vmStatus(dir: string): string {
  const out = run("python3", [
    "-c",
    "import json,socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.settimeout(5)\ns.connect(sys.argv[1])\nf=s.makefile('rw')\n" +
      "f.readline()\nf.write(json.dumps({'execute':'qmp_capabilities'})+'\\n');f.flush();f.readline()\n" +
      "f.write(json.dumps({'execute':'query-status'})+'\\n');f.flush()\n" +
      "while True:\n  r=json.loads(f.readline())\n  if 'return' in r: print(r['return']['status']); break",
    join(dir, "qmp.sock"),
  ]).out;
  return out.trim();
}
const qemuKill = (dir: string) => {
  run("python3", [
    "-c",
    "import json,socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.settimeout(5)\ns.connect(sys.argv[1])\nf=s.makefile('rw')\n" +
      "f.readline()\nf.write(json.dumps({'execute':'qmp_capabilities'})+'\\n');f.flush();f.readline()\n" +
      "f.write(json.dumps({'execute':'quit'})+'\\n');f.flush()",
    join(dir, "qmp.sock"),
  ]);
};
const qemuCont = task(
  "qemu monitor: cont: the VM runs",
  ["qemu-system-x86_64"],
  QEMU,
  [["(qemu)", cursor("cont"), "cont\\r"]],
  stopping(qemuKill, (dir) => vmStatus(dir) === "running"),
);
const qemuStop = task(
  "qemu monitor: cont, then stop: the VM paused (not prelaunch)",
  ["qemu-system-x86_64"],
  QEMU,
  [
    ["(qemu)", cursor("cont"), "cont\\r"],
    [nth("(qemu)", 2), cursor("stop"), "stop\\r"],
  ],
  stopping(qemuKill, (dir) => vmStatus(dir) === "paused"),
);
const qemuQuit = task(
  "qemu monitor: quit: qemu ends",
  ["qemu-system-x86_64"],
  QEMU,
  [["(qemu)", cursor("quit"), "quit\\r"]],
  (_dir, o) => read(o) === "0",
);

export const TASKS: Task[] = [
  turboReload,
  turboStop,
  mprocsAdd,
  mprocsStart,
  mprocsStop,
  mprocsQuit,
  gaAll,
  gaWindow,
  gaNoFile,
  icingaMaster,
  icingaKeep,
  zncNetwork,
  zncSsl,
  a2enmod,
  a2ensite,
  a2dismodYes,
  a2dismodNo,
  f2bBan,
  f2bUnban,
  knotAdd,
  knotRemove,
  knotAbort,
  nftSsh,
  nftDelete,
  ldapAdd,
  ldapDelete,
  ldapModify,
  qemuCont,
  qemuStop,
  qemuQuit,
];

/** The npm tools' bin (installed into TOOLS when missing). */
function npmTools(): string | undefined {
  const bin = join(MODULES, ".bin");
  const have = () => ["turbo", "mprocs"].every((tool) => existsSync(join(bin, tool)));
  if (!have()) spawnSync("npm", ["i", "--prefix", TOOLS, "--no-audit", "--no-fund", ...NPM_TOOLS], { stdio: "ignore" });
  return have() ? bin : undefined;
}

/** The suite on bench/tasks-blind.ts's harness. */
export function runBlind12Tasks(log: (line: string) => void, options: { reference?: boolean; only?: number[] } = {}) {
  return runBlindTasks(log, { ...options, tasks: TASKS, toolsBin: npmTools() });
}
export { runBlind12Tasks as runBlindTasks };
export type { Outcome };

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--only");
  const only = at >= 0 ? args[at + 1]!.split(",").map(Number) : undefined;
  const counts = await runBlind12Tasks((line) => console.log(line), { reference: args.includes("--reference"), only });
  console.log(counts);
}
