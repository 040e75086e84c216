// Real tmux clients against t4a as `tmux`, each beside the real tmux 3.3a in the same test:
// Terminal-Bench's TmuxSession command sequence (test/fixtures/terminus_session.py: its exact
// tmux lines, its key preparation and incremental output, with exec_run as a local subprocess).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { BIN, Sandbox } from "./harness.ts";

const REAL_TMUX = Bun.which("tmux", { PATH: "/usr/bin:/bin:/usr/local/bin" });
const PYTHON = Bun.which("python3");
const DRIVER = resolve(import.meta.dir, "fixtures/terminus_session.py");

let box: Sandbox;
let shimDir: string;
let realDir: string;

beforeAll(() => {
  box = new Sandbox();
  shimDir = join(box.dir, "bin");
  realDir = join(box.dir, "real");
  mkdirSync(shimDir, { recursive: true });
  mkdirSync(realDir, { recursive: true, mode: 0o700 });
  symlinkSync(BIN, join(shimDir, "tmux"));
});
afterAll(async () => {
  if (REAL_TMUX)
    await Bun.spawn([REAL_TMUX, "kill-server"], { env: { ...process.env, TMUX_TMPDIR: realDir }, stderr: "ignore" })
      .exited;
  await box.cleanup();
});

function env(kind: "t4a" | "tmux"): Record<string, string> {
  const base: Record<string, string> = { ...(process.env as Record<string, string>), SHELL: "/bin/bash" };
  delete base.TMUX;
  delete base.TMUX_PANE;
  return kind === "t4a"
    ? { ...base, T4A_SOCKET: box.socket, PATH: `${shimDir}:${process.env.PATH}` }
    : { ...base, TMUX_TMPDIR: realDir };
}

async function terminus(kind: "t4a" | "tmux", extra: string[] = []): Promise<Record<string, unknown>> {
  const work = join(box.dir, `work-${kind}`);
  mkdirSync(work, { recursive: true });
  const child = Bun.spawn([PYTHON!, DRIVER, "agent", join(work, "agent.log"), work, ...extra], {
    env: env(kind),
    cwd: work,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`${kind}: the driver exited ${code}: ${stderr}`);
  const seen = JSON.parse(stdout.replaceAll(work, "WORK")) as Record<string, unknown>;
  seen.log_has_task = readFileSync(join(work, "agent.log"), "utf8").includes("alpha");
  return seen;
}

describe.skipIf(!REAL_TMUX || !PYTHON)("Terminal-Bench's TmuxSession sequence", () => {
  test("a blocking shell task, incremental output, history, clear-history, a TUI, a timeout: as with tmux", async () => {
    const [t4a, tmux] = await Promise.all([terminus("t4a", ["--after-timeout"]), terminus("tmux")]);
    // t4a alone: a waiter killed by `timeout` takes no later signal (tmux 3.3a's does, and the next
    // blocking send then hangs until its own timeout).
    expect(t4a.after_timeout).toBe(true);
    delete t4a.after_timeout;
    expect(t4a).toEqual(tmux);
    expect(t4a.log_has_task).toBe(true);
    expect(t4a.timeout).toBe(true);
    expect(t4a.tui_screen).toEqual(["alpha", "beta", "out.txt (END)"]);
  });
});
