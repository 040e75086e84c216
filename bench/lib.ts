// Shared pieces of the benchmarks: a private t4a daemon and a private tmux server, timing helpers,
// process memory and CPU from /proc. Benchmarks measure; they never assert.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DaemonConnection, type Reply } from "../src/client/connection.ts";

/** The t4a measured: dist/t4a, or another build (T4A_BENCH_BIN) to compare builds with the same bench. */
export const BIN = process.env.T4A_BENCH_BIN ?? resolve(import.meta.dir, "../dist/t4a");

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Wall time of a whole process, `runs` times; returns the samples in ms. */
export function timeProcess(argv: string[], runs: number, env?: Record<string, string>): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const started = Bun.nanoseconds();
    const result = Bun.spawnSync(argv, { env, stdout: "ignore", stderr: "ignore" });
    const elapsed = (Bun.nanoseconds() - started) / 1e6;
    if (result.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${result.exitCode}`);
    if (i >= 3) samples.push(elapsed); // the first runs warm the page cache
  }
  return samples;
}

export function rssBytes(pid: number): number {
  return statusBytes(pid, "VmRSS");
}

/** Private memory of a process (RssAnon): RSS without the pages of its executable and libraries. */
export function privateBytes(pid: number): number {
  return statusBytes(pid, "RssAnon");
}

/** A kB field of /proc/PID/status, in bytes. */
function statusBytes(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, "latin1");
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) * 1024;
}

/** CPU seconds (user + system) a process has used. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** A t4a daemon with its own socket. */
export class T4a {
  readonly dir = mkdtempSync(join(tmpdir(), "t4a-bench-"));
  readonly socket = join(this.dir, "run", "t4a.sock");
  readonly env: Record<string, string>;
  connection!: DaemonConnection;
  pid = 0;

  /** `env`: more of the daemon's environment (T4A_SCREEN_WORKERS=0 parses on its own thread). */
  constructor(env: Record<string, string> = {}) {
    this.env = { ...(process.env as Record<string, string>), ...env, T4A_SOCKET: this.socket };
  }

  async start(): Promise<this> {
    // Only create auto-starts a daemon; start one of our own in the background instead.
    Bun.spawn([BIN, "daemon"], {
      env: this.env,
      cwd: "/",
      stdio: ["ignore", "ignore", "ignore"],
      detached: true,
    }).unref();
    for (let delayMs = 2; ; delayMs = Math.min(delayMs * 2, 50)) {
      if (Bun.spawnSync([BIN, "info"], { env: this.env }).exitCode === 0) break;
      await Bun.sleep(delayMs);
    }
    this.connection = await DaemonConnection.open(this.socket);
    this.pid = Number((await this.request({ cmd: "info" })).pid);
    return this;
  }

  async request(request: Reply): Promise<Reply> {
    const { reply } = await this.connection.request(request);
    if (reply.ok !== true) throw new Error(`${request.cmd}: ${reply.error}`);
    return reply;
  }

  /** A second connection for blocking requests (replies keep order per connection). */
  open(): Promise<DaemonConnection> {
    return DaemonConnection.open(this.socket);
  }

  cli(args: string[]): string[] {
    return [BIN, "--socket", this.socket, ...args];
  }

  stop(): void {
    Bun.spawnSync([BIN, "shutdown"], { env: this.env });
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A tmux server with its own socket and no user config. */
export class Tmux {
  readonly dir = mkdtempSync(join(tmpdir(), "tmux-bench-"));
  readonly socket = join(this.dir, "tmux.sock");

  cmd(...args: string[]): string[] {
    return ["tmux", "-f", "/dev/null", "-S", this.socket, ...args];
  }

  run(...args: string[]): string {
    const result = Bun.spawnSync(this.cmd(...args), { stderr: "pipe" });
    if (result.exitCode !== 0) throw new Error(`tmux ${args.join(" ")}: ${result.stderr.toString()}`);
    return result.stdout.toString();
  }

  serverPid(): number {
    return Number(this.run("display-message", "-p", "#{pid}").trim());
  }

  stop(): void {
    Bun.spawnSync(this.cmd("kill-server"), { stderr: "ignore" });
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function hasTmux(): boolean {
  return Bun.which("tmux") !== null;
}

export function tmuxVersion(): string {
  return Bun.spawnSync(["tmux", "-V"]).stdout.toString().trim();
}

/** The spread of samples: interquartile range over median (0.1 = 10%). */
export function spread(values: number[]): number {
  return (percentile(values, 75) - percentile(values, 25)) / median(values);
}

/** The 1-minute load average (what other programs, and ours, keep the cores busy with). */
export function loadAverage(): number {
  return Number(readFileSync("/proc/loadavg", "latin1").split(" ")[0]);
}

/**
 * The share of one core a 30 ms spin gets now: ~1 when a core is free, less when other programs
 * want the cores. Taken between rounds, while nothing of ours runs: unlike the load average, our
 * own earlier rounds do not count in it.
 */
export function cpuShare(spinMs = 30): number {
  const started = performance.now();
  const before = process.cpuUsage();
  while (performance.now() - started < spinMs);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / (performance.now() - started);
}

/** One run of one side: its wall time, and the CPU its server (daemon and threads / tmux server) spent. */
export interface Measured {
  wall_ms: number;
  cpu_ms?: number;
}

export interface Interleaved {
  /** Per side, every round's wall and CPU milliseconds. */
  sides: Record<string, { wall: number[]; cpu: number[] }>;
  rounds: number;
  /** The load average before the first round and after the last. */
  load: [number, number];
  /** cpuShare() before each round. */
  shares: number[];
}

/** Noise limits (env): most spread of a side, least core share, fewest and most rounds. */
export const NOISE = {
  maxSpread: Number(process.env.T4A_BENCH_MAX_SPREAD ?? 0.1),
  minShare: Number(process.env.T4A_BENCH_MIN_SHARE ?? 0.85),
  minRounds: Number(process.env.T4A_BENCH_MIN_ROUNDS ?? 5),
  maxRounds: Number(process.env.T4A_BENCH_MAX_ROUNDS ?? 15),
};

/**
 * Runs every side once per round, in turn (t4a, tmux, floor, t4a, …), after one discarded warm-up
 * round, until the first side's paired ratio to each other side (pairedRatios) and each side's
 * CPU are within NOISE.maxSpread (at least minRounds), or maxRounds have run.
 */
export async function interleave(run: Record<string, () => Promise<Measured>>): Promise<Interleaved> {
  const names = Object.keys(run);
  const sides = Object.fromEntries(names.map((name) => [name, { wall: [] as number[], cpu: [] as number[] }]));
  const shares: number[] = [];
  const loadBefore = loadAverage();
  for (const name of names) await run[name]!(); // warm-up: page cache, first worker, first shell
  let rounds = 0;
  while (rounds < NOISE.maxRounds) {
    shares.push(cpuShare());
    for (const name of names) {
      const measured = await run[name]!();
      sides[name]!.wall.push(measured.wall_ms);
      if (measured.cpu_ms !== undefined) sides[name]!.cpu.push(measured.cpu_ms);
    }
    rounds++;
    if (rounds < NOISE.minRounds) continue;
    const ours = sides[names[0]!]!.wall;
    const settled = names.every(
      (name, index) =>
        (index === 0 || spread(pairedRatios(ours, sides[name]!.wall)) <= NOISE.maxSpread) &&
        (sides[name]!.cpu.length === 0 || spread(sides[name]!.cpu) <= NOISE.maxSpread),
    );
    if (settled) break;
  }
  return { sides, rounds, load: [loadBefore, loadAverage()], shares };
}

/**
 * Each round's own ratio of two interleaved sides (ours[i] / theirs[i]). The machine's speed
 * drifts between rounds (this VM's `script` floor moved 580–1040 ms in one quiet minute) but
 * little within one, so the median of these ratios and their spread judge the difference; the
 * ratio of two medians carries both sides' drift.
 */
export function pairedRatios(ours: number[], theirs: number[]): number[] {
  return ours.map((value, round) => value / theirs[round]!);
}

/**
 * Why a ratio of these samples cannot be trusted, or undefined when it can: a side's spread over
 * the limit, or (for wall time, `shared`) the cores were not free while it ran.
 */
export function noiseOf(result: Interleaved, samples: number[][], shared: boolean): string | undefined {
  const worst = Math.max(...samples.map(spread));
  const share = median(result.shares);
  const busy = shared && share < NOISE.minShare;
  if (worst <= NOISE.maxSpread && !busy) return undefined;
  return `noisy: load ${result.load[0].toFixed(1)}, core share ${Math.round(share * 100)}%, spread ${Math.round(worst * 100)}%`;
}
