// Memory comes back when sessions go: 321 sessions created and all killed showed the daemon at
// 169 MB RSS (61 MB before). What held it was closed screens not yet collected on the screens'
// threads (JavaScriptCore collects as a thread allocates, or on its own timer 5-15 s later); the
// floor it returns to is the daemon's with its screen threads started. A leak fails this test.
// Serial phase: measures the daemon's RSS falling back to its floor after its sessions are killed;
// other files' load changes when the screens' threads collect.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { DaemonConnection } from "../src/client/connection.ts";
import { Sandbox, rssBytes, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

const SESSIONS = 200;
const LAST = 20_000;

test(`${SESSIONS} sessions with 10 000 rows of scrollback each, all killed: the daemon's RSS goes most of the way back`, async () => {
  await sandbox.start();
  const daemon = await sandbox.daemonPid();
  const connection = await DaemonConnection.open(sandbox.socket);
  try {
    await connection.request({ cmd: "config", kill_grace_ms: 100 });
    const round = async (count: number): Promise<number> => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        const argv =
          i % 3 === 0 ? ["bash", "--norc", "--noprofile", "-i"] : ["sh", "-c", `seq 1 ${LAST}; exec sleep 1000`];
        const { reply } = await connection.request({ cmd: "create", cmd_args: argv, cols: 80, rows: 24 });
        if (reply.ok !== true) throw new Error(`create: ${JSON.stringify(reply)}`);
        ids.push(reply.id as string);
      }
      // The last session's seq has printed all its lines (the others ran before it).
      const last = ids.at(-1)!;
      if (ids.length % 3 !== 1)
        await waitFor(
          async () =>
            ((await connection.request({ cmd: "text", id: last })).reply.lines as string[]).includes(String(LAST)),
          60_000,
          `${last} to print`,
        );
      const live = rssBytes(daemon);
      for (const id of ids) await connection.request({ cmd: "kill", id });
      await waitFor(
        async () => ((await connection.request({ cmd: "list" })).reply.terminals as unknown[]).length === 0,
        60_000,
        "every session to end",
      );
      return live;
    };
    // Warm-up: every screen thread started, code compiled, then the baseline once that settles.
    await round(6);
    const base = await waitFor(
      async () => {
        const first = rssBytes(daemon);
        await Bun.sleep(2000);
        return rssBytes(daemon) >= first - 2e6 ? rssBytes(daemon) : undefined;
      },
      30_000,
      "the baseline to settle",
    );
    const live = await round(SESSIONS);
    const grown = live - base;
    expect(grown).toBeGreaterThan(40e6); // the sessions did hold memory
    let after = rssBytes(daemon);
    await waitFor(() => (after = rssBytes(daemon)) - base < grown * 0.35, 60_000, "the RSS to come down").catch(
      () => undefined,
    );
    console.log(
      `RSS ${(base / 1e6).toFixed(0)} MB, ${(live / 1e6).toFixed(0)} MB with ${SESSIONS} sessions, ${(after / 1e6).toFixed(0)} MB after they were killed`,
    );
    expect(after - base).toBeLessThan(grown * 0.35);
  } finally {
    connection.close();
  }
}, 300_000);
