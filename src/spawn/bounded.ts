// Running a helper the spawn chain waits for (a plugin, a setup, a repository's setup script):
// in a process group of its own, with stdin given, both outputs read, and a bound on its time.
// On the bound the whole group is killed and its pipes abandoned (a child it left behind may hold
// them open), so a hung helper never holds up the create past it.
import { randomUUID } from "node:crypto";
import { daemonRecords } from "../terminal/leftovers.ts";

export interface Bounded {
  stdout: string;
  stderr: string;
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  signal: string | null;
}

/** Runs `argv`; answers how it ended, or "late" when it took longer than `timeoutMs` (then killed). */
export async function runBounded(
  argv: string[],
  options: { cwd: string; env: Record<string, string>; stdin?: string; timeoutMs: number },
): Promise<Bounded | "late"> {
  // Recorded before it is spawned, and while it runs: if the daemon is SIGKILLed at any point after
  // the spawn, the next one finds the helper (and what it started) by this token and ends it (leftovers.ts).
  const token = randomUUID();
  const records = daemonRecords();
  records?.addHelper(token);
  try {
    const child = Bun.spawn(argv, {
      cwd: options.cwd,
      env: { ...options.env, T4A_HELPER: token },
      stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
    if (STALL_AFTER_SPAWN_MS > 0) Bun.sleepSync(STALL_AFTER_SPAWN_MS);
    const finished = Promise.all([readCapped(child.stdout), readCapped(child.stderr), child.exited]);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), options.timeoutMs)));
    const outcome = await Promise.race([finished, late]).finally(() => clearTimeout(timer));
    if (outcome === "late") {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone already.
      }
      return "late";
    }
    const [stdout, stderr, code] = outcome;
    return { stdout, stderr, code, signal: child.signalCode === null ? null : String(child.signalCode) };
  } finally {
    records?.removeHelper(token);
  }
}

/**
 * Tests only (test/leftovers.test.ts): the daemon stalls this long right after spawning a helper,
 * as a starved one may, so that a test can SIGKILL it in the window between spawn and what follows.
 */
const STALL_AFTER_SPAWN_MS = Number(process.env.T4A_TEST_HELPER_STALL_MS) || 0;

/** What a helper may print before the rest is dropped (read on, so the writer never blocks). */
const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

async function readCapped(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size >= MAX_OUTPUT_BYTES) continue;
    chunks.push(chunk.subarray(0, MAX_OUTPUT_BYTES - size));
    size += chunk.length;
  }
  return Buffer.concat(chunks).toString("utf8");
}
