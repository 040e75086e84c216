// `bun bench/fleet.ts [hosts]`: what `list --all` costs against a single `list`, with 1, 3 and 5
// (or up to `hosts`) simulated hosts, each its own sshd on localhost with its own daemon (the
// test fixture). Medians of warm calls (ssh masters up) and the first, cold call; prints a table
// and writes bench/results/fleet.json. Starts and ends everything it uses.
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSshd, type LocalSshd } from "../test/fixtures/sshd.ts";

const BIN = join(import.meta.dir, "..", "dist", "t4a");
const MAX = Number(process.argv[2] ?? 5);
const ROUNDS = 15;
const dir = mkdtempSync(join(tmpdir(), "t4a-fleet-bench-"));
const env: Record<string, string> = { ...(process.env as Record<string, string>), T4A_SOCKET: join(dir, "run", "t4a.sock"), T4A_REMOTE_T4A: '"$HOME/t4a"' };
for (const name of Object.keys(env)) if (name.startsWith("XDG_")) delete env[name];
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
  for (const name of readdirSync(control).filter((n) => n.startsWith("ssh-"))) Bun.spawnSync(["ssh", "-o", `ControlPath=${join(control, name)}`, "-O", "exit", "x"]);
};

const sshds: LocalSshd[] = [];
try {
  for (let i = 0; i < MAX; i++) {
    const sshd = (await startSshd(join(dir, `ssh-${i}`)))!;
    sshds.push(sshd);
    const program = join(sshd.dir, "home", "t4a");
    writeFileSync(program, `#!/bin/sh\nT4A_SOCKET="$HOME/run/t4a.sock" exec ${BIN} "$@"\n`);
    chmodSync(program, 0o755);
    for (const n of [1, 2]) run(["create", "--name", `s${n}`, "--", "sleep", "600"], { T4A_SOCKET: join(sshd.dir, "home", "run", "t4a.sock") });
  }
  for (const n of [1, 2]) run(["create", "--name", `s${n}`, "--", "sleep", "600"]);
  const rows: Array<Record<string, number | string>> = [];
  rows.push({ what: "list (local)", warm_ms: median(Array.from({ length: ROUNDS }, () => run(["list"]))) });
  const one = `ssh://${user}@127.0.0.1:${sshds[0]!.port}`;
  const oneHost = { T4A_SSH_COMMAND: `ssh -F ${sshds[0]!.config}` };
  const coldOne = run(["--host", one, "list"], oneHost);
  rows.push({ what: "--host h0 list", cold_ms: coldOne, warm_ms: median(Array.from({ length: ROUNDS }, () => run(["--host", one, "list"], oneHost))) });
  closeMasters();
  for (const count of [1, 3, 5].filter((n) => n <= MAX)) {
    const config = join(dir, `config-${count}`);
    for (let i = 0; i < count; i++) run(["hosts", "add", `h${i}`, `ssh://${user}@127.0.0.1:${sshds[i]!.port}`, "--", "-F", sshds[i]!.config], { XDG_CONFIG_HOME: config });
    const cold = run(["list", "--all"], { XDG_CONFIG_HOME: config });
    const warm = median(Array.from({ length: ROUNDS }, () => run(["list", "--all"], { XDG_CONFIG_HOME: config })));
    rows.push({ what: `list --all, ${count} host${count > 1 ? "s" : ""} + local`, cold_ms: cold, warm_ms: warm });
    closeMasters();
  }
  const rounded = rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 10) / 10 : v])));
  console.table(rounded);
  writeFileSync(join(import.meta.dir, "results", "fleet.json"), `${JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, rows: rounded }, null, 2)}\n`);
} finally {
  for (const sshd of sshds) Bun.spawnSync([BIN, "shutdown"], { env: { ...env, T4A_SOCKET: join(sshd.dir, "home", "run", "t4a.sock") } });
  Bun.spawnSync([BIN, "shutdown"], { env });
  try {
    closeMasters();
  } catch {}
  for (const sshd of sshds) sshd.stop();
  rmSync(dir, { recursive: true, force: true });
}
