// A CLI of no preset asks, then redraws its question again and again while it does something else
// than read its terminal (copilot under load: its dialog drawn anew, a clock ticking beside it, its
// footer's "esc to cancel" a busy hint). No key went in: the question still stands, in its own
// words, so the agent still waits on it and approve answers it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "./harness.ts";

const REDRAWER = String.raw`import sys, time, tty, select
tty.setcbreak(sys.stdin.fileno())
def draw(tick):
    sys.stdout.write("\x1b[2J\x1b[H Do you want to run this command?\r\n\r\n \u276f 1. Yes\r\n   2. No\r\n\r\n")
    sys.stdout.write(" (%ds)\r\n \u2191/\u2193 to navigate \u00b7 enter to select \u00b7 esc to cancel\r\n" % tick)
    sys.stdout.flush()
draw(0)
while not select.select([sys.stdin], [], [], 8)[0]:
    # Redrawn every 150 ms for 8 s, asleep between (not reading its terminal)
    for tick in range(1, 54):
        time.sleep(0.15)
        draw(tick)
k = sys.stdin.read(1)
sys.stdout.write("\r\nANSWERED %r\r\n" % k)
sys.stdout.flush()
time.sleep(60)
`;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(async () => {
  await sandbox?.cleanup();
});

test("an auto agent's question redrawn while its CLI does not read: still waiting, no working, approve answers it", async () => {
  const script = join(sandbox.dir, "redrawer.py");
  writeFileSync(script, REDRAWER);
  await sandbox.ok(["create", "--name", "redraw", "--agent", "auto", "--", "python3", script]);
  try {
    await sandbox.ok(["wait", "redraw", "--agent", "waiting", "--timeout", "60s"]);
    // The redraws begin within 8 s of the first read; watch the state across them.
    await waitFor(
      async () =>
        /\(\d+s\)/.test(await sandbox.ok(["text", "redraw"])) &&
        !(await sandbox.ok(["text", "redraw"])).includes("(0s)"),
      30_000,
      "the redraws",
    );
    const seen: string[] = [];
    for (let i = 0; i < 20; i++) {
      const listed = JSON.parse(await sandbox.ok(["list", "--json"]));
      seen.push(String(listed.terminals?.[0]?.agent_state));
      await Bun.sleep(250);
    }
    expect(
      seen.filter((state) => state !== "waiting"),
      seen.join(","),
    ).toEqual([]);
    await sandbox.ok(["approve", "redraw"]);
    await waitFor(async () => (await sandbox.ok(["text", "redraw"])).includes("ANSWERED"), 20_000, "the answer");
  } finally {
    await sandbox.run(["kill", "redraw"]);
  }
}, 120_000);
