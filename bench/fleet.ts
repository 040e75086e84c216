// The fleet section of `npm run bench` (`bun bench/run.ts fleet`; alone: `bun bench/fleet.ts
// [hosts] [sessions]`): what the fleet costs, with 1, 3 and 5 (or up to `hosts`)
// simulated hosts of 40 (or `sessions`) sessions each, every host its own sshd on localhost with
// its own daemon (the test fixture): `list --all` against a single `list` and against `ssh host
// tmux list-sessions` over every host in a shell loop (tmux holding as many sessions); the delay
// from a state change on a host to `wait --any --all` answering and to the page's event stream
// (SSE, relayed by the local daemon), each beside the same wait on the host's own socket; the
// local daemon's memory per remote session while a page follows every host. Medians of warm calls
// (ssh masters up) and the first, cold call; answers the rows (alone: prints a table and writes
// bench/results/fleet.json). Starts and ends everything it uses. This machine plays every host:
// figures are ratios to read beside each other, not what a network adds.
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SSHD, startSshd, type LocalSshd } from "../test/fixtures/sshd.ts";

export type FleetRow = Record<string, number | string>;

const BIN = join(import.meta.dir, "..", "dist", "t4a");
let MAX = 5;
let SESSIONS = 40;
const ROUNDS = 15;
const DELAY_ROUNDS = 7;
const TMUX = ["tmux", "-L", "t4a-fleet-bench"];
let dir = "";
let env: Record<string, string> = {};
const user = process.env.USER ?? "root";

const run = (args: string[], extra: Record<string, string> = {}) => {
  const started = performance.now();
  const done = Bun.spawnSync([BIN, ...args], { env: { ...env, ...extra } });
  if (done.exitCode !== 0) throw new Error(`t4a ${args.join(" ")}: ${done.stderr}`);
  return performance.now() - started;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const closeMasters = () => {
  const control = join(dir, "run");
  for (const name of readdirSync(control).filter((n) => n.startsWith("ssh-")))
    Bun.spawnSync(["ssh", "-o", `ControlPath=${join(control, name)}`, "-O", "exit", "x"]);
};

const sshds: LocalSshd[] = [];

/** The fleet's rows (undefined: no sshd here to play the hosts). */
export async function benchFleet(hosts = 5, sessions = 40): Promise<FleetRow[] | undefined> {
  if (!SSHD) return undefined;
  MAX = hosts;
  SESSIONS = sessions;
  sshds.length = 0;
  dir = mkdtempSync(join(tmpdir(), "t4a-fleet-bench-"));
  env = {
    ...(process.env as Record<string, string>),
    T4A_SOCKET: join(dir, "run", "t4a.sock"),
    T4A_REMOTE_T4A: '"$HOME/t4a"',
  };
  for (const name of Object.keys(env)) if (name.startsWith("XDG_")) delete env[name];
  // The web server's token and state in the bench's own directory, never the user's.
  env.XDG_STATE_HOME = join(dir, "state");
  try {
    for (let i = 0; i < MAX; i++) {
      const sshd = (await startSshd(join(dir, `ssh-${i}`)))!;
      sshds.push(sshd);
      const program = join(sshd.dir, "home", "t4a");
      writeFileSync(program, `#!/bin/sh\nT4A_SOCKET="$HOME/run/t4a.sock" exec ${BIN} "$@"\n`);
      chmodSync(program, 0o755);
      batchCreate(join(sshd.dir, "home", "run", "t4a.sock"));
    }
    batchCreate(env.T4A_SOCKET!);
    Bun.spawnSync([...TMUX, "new-session", "-d", "-s", "s0", "sleep 600"]);
    for (let n = 1; n < SESSIONS; n++) Bun.spawnSync([...TMUX, "new-session", "-d", "-s", `s${n}`, "sleep 600"]);
    // Hundreds of programs just started: let them settle before anything is timed.
    await Bun.sleep(15_000);
    const rows: FleetRow[] = [];
    rows.push({ what: "list (local)", warm_ms: median(Array.from({ length: ROUNDS }, () => run(["list"]))) });
    const one = `ssh://${user}@127.0.0.1:${sshds[0]!.port}`;
    const oneHost = { T4A_SSH_COMMAND: `ssh -F ${sshds[0]!.config}` };
    const coldOne = run(["--host", one, "list"], oneHost);
    rows.push({
      what: "--host h0 list",
      cold_ms: coldOne,
      warm_ms: median(Array.from({ length: ROUNDS }, () => run(["--host", one, "list"], oneHost))),
    });
    closeMasters();
    const counts = [1, 3, 5].filter((n) => n <= MAX);
    for (const count of counts) {
      const config = join(dir, `config-${count}`);
      for (let i = 0; i < count; i++)
        run(["hosts", "add", `h${i}`, `ssh://${user}@127.0.0.1:${sshds[i]!.port}`, "--", "-F", sshds[i]!.config], {
          XDG_CONFIG_HOME: config,
        });
      const cold = run(["list", "--all"], { XDG_CONFIG_HOME: config });
      const warm = median(Array.from({ length: ROUNDS }, () => run(["list", "--all"], { XDG_CONFIG_HOME: config })));
      rows.push({
        what: `list --all, ${count} host${count > 1 ? "s" : ""} + local (${SESSIONS} sessions each)`,
        cold_ms: cold,
        warm_ms: warm,
      });
      if (count === counts.at(-1)) {
        // What people do today: a shell loop of ssh over the same hosts (masters warm), tmux holding as many sessions.
        const loop = () => {
          const started = performance.now();
          for (let i = 0; i < count; i++) {
            const done = Bun.spawnSync([
              "ssh",
              "-F",
              sshds[i]!.config,
              "-o",
              "ControlMaster=auto",
              "-o",
              `ControlPath=${join(dir, "run")}/tmux-%C`,
              "-o",
              "ControlPersist=60",
              "-p",
              String(sshds[i]!.port),
              `${user}@127.0.0.1`,
              ...TMUX,
              "list-sessions",
            ]);
            if (done.exitCode !== 0) throw new Error(`ssh tmux list-sessions: ${done.stderr}`);
          }
          return performance.now() - started;
        };
        const coldLoop = loop();
        rows.push({
          what: `ssh host tmux list-sessions, a loop over ${count} hosts`,
          cold_ms: coldLoop,
          warm_ms: median(Array.from({ length: ROUNDS }, loop)),
        });
        await delays(count, config, rows);
      }
      closeMasters();
    }
    for (const row of rows)
      if (typeof row.warm_ms === "number" && row.what !== "list (local)")
        row.ratio_to_local_list = Number(row.warm_ms) / Number(rows[0]!.warm_ms);
    return rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 10) / 10 : v])),
    );
  } catch (error) {
    // What the local daemon said, when the bench broke: its log goes with the directory.
    console.error(
      await Bun.file(join(dir, "run", "t4a.log"))
        .text()
        .then(
          (log) => log.slice(-4000),
          () => "(no log)",
        ),
    );
    throw error;
  } finally {
    for (const sshd of sshds)
      Bun.spawnSync([BIN, "shutdown"], { env: { ...env, T4A_SOCKET: join(sshd.dir, "home", "run", "t4a.sock") } });
    Bun.spawnSync([BIN, "shutdown"], { env });
    Bun.spawnSync([...TMUX, "kill-server"]);
    try {
      closeMasters();
    } catch {}
    for (const sshd of sshds) sshd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const rows = await benchFleet(Number(process.argv[2] ?? 5), Number(process.argv[3] ?? 40));
  if (!rows) throw new Error("the fleet bench needs openssh-server (sshd plays each host)");
  console.table(rows);
  writeFileSync(
    join(import.meta.dir, "results", "fleet.json"),
    `${JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, rows }, null, 2)}\n`,
  );
}

/** SESSIONS sleeping sessions on one daemon, in one batch call. */
function batchCreate(socket: string): void {
  const lines = Array.from({ length: SESSIONS }, (_, n) => `create --name s${n} -- sleep 600`).join("\n");
  const done = Bun.spawnSync([BIN, "batch"], {
    env: { ...env, T4A_SOCKET: socket },
    stdin: new TextEncoder().encode(`${lines}\n`),
  });
  if (done.exitCode !== 0) throw new Error(`batch create: ${done.stderr}`);
}

/** ms from a session failing on the last host to: its own daemon's wait, wait --any --all here, and a page's SSE here. */
async function delays(count: number, config: string, rows: FleetRow[]): Promise<void> {
  const last = sshds[count - 1]!;
  const socket = join(last.dir, "home", "run", "t4a.sock");
  const fleetEnv = { ...env, XDG_CONFIG_HOME: config };
  /** Starts `wait`, lets it reach every daemon, makes a failing session on the last host: ms from that to the wait's answer. */
  const waitDelay = async (args: string[], extra: Record<string, string>, n: number) => {
    const waiter = Bun.spawn([BIN, "wait", "--any", "--timeout", "60s", ...args], {
      env: { ...fleetEnv, ...extra },
      stdout: "pipe",
      stderr: "pipe",
    });
    await Bun.sleep(1500); // a bench, not a test: time for the waits to be in place on every host
    const started = performance.now();
    run(["create", "--name", `fails${n}`, "--", "false"], { T4A_SOCKET: socket });
    await waiter.exited;
    const ms = performance.now() - started;
    run(["kill", `fails${n}`], { T4A_SOCKET: socket });
    return ms;
  };
  const direct: number[] = [];
  const fleet: number[] = [];
  for (let n = 0; n < DELAY_ROUNDS; n++) {
    direct.push(await waitDelay([], { T4A_SOCKET: socket }, n));
    fleet.push(await waitDelay(["--all"], {}, n + 100));
  }
  rows.push({ what: "a failure on a host -> its own wait --any (its socket)", warm_ms: median(direct) });
  rows.push({ what: `a failure on a host -> wait --any --all here (${count} hosts)`, warm_ms: median(fleet) });
  // The page: the local daemon's web server, its merged event stream (every host followed over ssh).
  // The relay reads the daemon's own hosts.json: this machine's daemon again, started with the fleet's.
  Bun.spawnSync([BIN, "shutdown"], { env });
  run(["create", "--name", "here", "--", "sleep", "600"], { XDG_CONFIG_HOME: config });
  const login = Bun.spawnSync([BIN, "web", "--listen", "127.0.0.1:0"], { env: fleetEnv }).stdout.toString().trim();
  const base = login.replace(/\/\?login=.*$/, "");
  const token = (await Bun.file(join(env.XDG_STATE_HOME!, "t4a", "web", "token")).text()).trim();
  const rss = () => {
    const info = Bun.spawnSync([BIN, "info", "--json"], { env: fleetEnv }).stdout.toString();
    return Number(JSON.parse(info).rss_bytes);
  };
  const rssBefore = rss();
  const stream = await fetch(`${base}/api/events?all=true`, { headers: { authorization: `Bearer ${token}` } });
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const until = async (test: (event: Record<string, unknown>) => boolean) => {
    for (;;) {
      for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
        const data = buffered.slice(0, end).replace(/^data: /, "");
        buffered = buffered.slice(end + 2);
        if (data.startsWith("{") && test(JSON.parse(data))) return;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error("the page's stream ended");
      buffered += value;
    }
  };
  let up = 0;
  await until((event) => event.event === "host" && event.state === "up" && ++up === count);
  const page: number[] = [];
  for (let n = 0; n < DELAY_ROUNDS; n++) {
    const started = performance.now();
    run(["create", "--name", `page${n}`, "--", "false"], { T4A_SOCKET: socket });
    await until((event) => event.event === "exit" && event.terminal === `h${count - 1}:page${n}`);
    page.push(performance.now() - started);
    run(["kill", `page${n}`], { T4A_SOCKET: socket });
  }
  rows.push({ what: `a failure on a host -> its exit on the page's SSE here (${count} hosts)`, warm_ms: median(page) });
  // The page's list across every host, as a page reads it after each change.
  const listed: number[] = [];
  for (let n = 0; n < ROUNDS; n++) {
    const started = performance.now();
    await (await fetch(`${base}/api/sessions?all=true`, { headers: { authorization: `Bearer ${token}` } })).json();
    listed.push(performance.now() - started);
  }
  rows.push({ what: `the page's list, ${count} hosts + local (GET /api/sessions?all=true)`, warm_ms: median(listed) });
  const rssAfter = rss();
  rows.push({
    what: `local daemon memory per remote session (rss, page following ${count * SESSIONS})`,
    kib: (rssAfter - rssBefore) / 1024 / (count * SESSIONS),
    rss_before_mib: rssBefore / 2 ** 20,
    rss_after_mib: rssAfter / 2 ** 20,
  });
  void reader.cancel();
  Bun.spawnSync([BIN, "web", "--stop"], { env: fleetEnv });
}
