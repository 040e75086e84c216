// Who attacks: a daemon and its CLI run as a given user, root (as CI runs) or an unprivileged one
// made for the test (useradd) and removed after it. Everything lives in one temp dir that user
// owns: home, state, config, socket, and a copy of the binary it can execute.
import { randomBytes } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, isAlive, waitFor, type RunResult } from "../harness.ts";

export const IS_ROOT = process.getuid?.() === 0;
export const HAS_BWRAP = Bun.which("bwrap") !== null;
/** As root, an unprivileged user can be made for the test; otherwise only the current user attacks. */
const RUNUSER = Bun.which("runuser") ?? "runuser";
export const CAN_MAKE_USERS = IS_ROOT && Bun.which("useradd") !== null && Bun.which("runuser") !== null;

export class Actor {
  readonly dir: string;
  readonly home: string;
  readonly bin: string;
  readonly socket: string;
  readonly state: string;
  readonly config: string;

  private constructor(readonly user: string | undefined) {
    this.dir = mkdtempSync(join(tmpdir(), "t4a-attack-"));
    chmodSync(this.dir, 0o755);
    this.home = join(this.dir, "home");
    this.state = join(this.dir, "state");
    this.config = join(this.dir, "config");
    this.socket = join(this.dir, "run", "t4a.sock");
    mkdirSync(this.home);
    // The binary where this user may run it (the checkout may be in a directory only root reads).
    this.bin = user ? join(this.dir, "t4a") : BIN;
    if (user) copyFileSync(BIN, this.bin), chmodSync(this.bin, 0o755);
  }

  /** The current user (root in CI), or a new unprivileged one. */
  static async make(kind: "self" | "unprivileged"): Promise<Actor> {
    if (kind === "self") return new Actor(undefined);
    // Unique on the machine: two made by one file (or two files of one worker, same pid) once drew the
    // same name out of pid + 1,000, and the second useradd failed with the first one left behind.
    const user = `t4a-atk-${randomBytes(5).toString("hex")}`;
    const made = accounts(["useradd", "--no-create-home", "--shell", "/bin/bash", user]);
    if (made.exitCode !== 0) throw new Error(`useradd: ${made.stderr}`);
    const actor = new Actor(user);
    Bun.spawnSync(["chown", "-R", `${user}:${user}`, actor.dir]);
    return actor;
  }

  /** Files the test made (as root) handed to this user. */
  own(...paths: string[]): void {
    if (this.user) Bun.spawnSync(["chown", "-R", `${this.user}:${this.user}`, ...paths]);
  }

  get env(): Record<string, string> {
    return {
      HOME: this.home,
      PATH: "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
      SHELL: "/bin/bash",
      USER: this.user ?? "root",
      LANG: "C.UTF-8",
      T4A_SOCKET: this.socket,
      XDG_STATE_HOME: this.state,
      XDG_CONFIG_HOME: this.config,
    };
  }

  /** `t4a args…` as this user. */
  async run(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<RunResult> {
    const env = { ...this.env, ...options.env };
    const argv = this.user
      ? [
          RUNUSER,
          "-u",
          this.user,
          "--",
          "env",
          "-i",
          ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
          this.bin,
          ...args,
        ]
      : [this.bin, ...args];
    const child = Bun.spawn(argv, {
      env,
      cwd: options.cwd ?? this.dir,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { code, stdout, stderr };
  }

  async ok(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
    const result = await this.run(args, options);
    if (result.code !== 0)
      throw new Error(`t4a ${args.join(" ")} (as ${this.user ?? "self"}) exited ${result.code}: ${result.stderr}`);
    return result.stdout.replace(/\n$/, "");
  }

  /** A shell (no startup files) in a new session; answers its id. */
  async shell(args: string[], cwd?: string): Promise<string> {
    return (await this.ok(["create", ...args, "--", "bash", "--norc", "--noprofile"], { cwd })).trim();
  }

  /** A command line run in the session's shell, as the user would, by this user. */
  async sh(id: string, command: string): Promise<string> {
    return this.ok(["run", id, command, "--timeout", "30s"]);
  }

  /** A shell command run outside any sandbox as this user (what the user does later). */
  outside(command: string, cwd = this.dir): RunResult {
    const env = { ...this.env, GIT_CONFIG_NOSYSTEM: "1" };
    const argv = this.user
      ? [
          RUNUSER,
          "-u",
          this.user,
          "--",
          "env",
          "-i",
          ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
          "bash",
          "-c",
          command,
        ]
      : ["bash", "-c", command];
    const result = Bun.spawnSync(argv, { cwd, env, stdout: "pipe", stderr: "pipe" });
    return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
  }

  async cleanup(): Promise<void> {
    const info = await this.run(["info", "--json"]);
    const pid = info.code === 0 ? (JSON.parse(info.stdout).pid as number) : undefined;
    await this.run(["shutdown"]);
    if (pid) await waitFor(() => !isAlive(pid), 5000).catch(() => process.kill(pid, "SIGKILL"));
    if (this.user) {
      Bun.spawnSync(["pkill", "-KILL", "-u", this.user]);
      const removed = accounts(["userdel", this.user]);
      if (removed.exitCode !== 0) console.log(`userdel ${this.user}: ${removed.stderr.trim()}`);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * useradd or userdel, again while another holds /etc/passwd's lock: files that make users run in
 * parallel, and shadow's own wait for the lock (15 tries, a second apart) can run out.
 */
function accounts(argv: string[]): { exitCode: number; stderr: string } {
  for (let attempt = 1; ; attempt++) {
    const done = Bun.spawnSync(argv, { stderr: "pipe" });
    const stderr = done.stderr.toString();
    if (done.exitCode === 0 || attempt === 5 || !/lock/i.test(stderr)) return { exitCode: done.exitCode, stderr };
  }
}
