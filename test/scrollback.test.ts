// The compact scrollback through the daemon, against tmux: a held text (long lines that wrap,
// wide characters at the edges) resized narrower and wider reads the same, history and screen,
// as tmux's capture of the same program after the same resizes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

const HELD = `import sys
for i in range(300):
    sys.stdout.write(f"{i:04d} " + "abcdefghij" * (i % 17) + ("中文" * (i % 5)) + "\\n")
sys.stdout.flush()
`;

/** Rows as both print them: trailing blanks and blank rows at the bottom left out. */
const rowsOf = (text: string) => {
  const rows = text.split("\n").map((row) => row.replace(/ +$/, ""));
  while (rows.length && rows.at(-1) === "") rows.pop();
  return rows;
};

test("resize rewraps the scrollback as tmux does: narrower, then wider", async () => {
  const tmux = Bun.which("tmux");
  if (!tmux) {
    console.log("skipped: tmux is not installed (.ci/run installs it)");
    return;
  }
  const script = join(sandbox.dir, "held.py");
  writeFileSync(script, HELD);
  const command = `python3 ${script}; exec sleep 600`;
  const id = await sandbox.ok(["create", "--cols", "80", "--rows", "24", "--", "sh", "-c", command]);
  await waitFor(async () => (await sandbox.screen(id)).includes("0299"), 10_000, "the held text");

  const server = ["-L", `t4a-scrollback-${process.pid}`, "-f", "/dev/null"];
  const env = { ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" };
  const run = (...args: string[]) => Bun.spawnSync([tmux, ...server, ...args], { env });
  try {
    expect(run("-u", "new-session", "-d", "-x", "80", "-y", "24", command).exitCode).toBe(0);
    run("set", "-g", "history-limit", "10000");
    await waitFor(
      () => run("capture-pane", "-p").stdout.toString().includes("0299"),
      10_000,
      "tmux to show the held text",
    );
    for (const [cols, rows] of [
      [50, 20],
      [120, 30],
      [33, 12],
    ] as const) {
      await sandbox.ok(["resize", id, String(cols), String(rows)]);
      run("resize-window", "-x", String(cols), "-y", String(rows));
      const theirs = await waitFor(
        () => {
          const capture = run("capture-pane", "-p", "-S", "-", "-E", "-").stdout.toString();
          return capture.split("\n")[0]!.length <= cols ? capture : undefined;
        },
        5000,
        "tmux to resize",
      );
      const ours = await sandbox.ok(["text", id, "--all"]);
      expect({ cols, rows: rowsOf(ours) }).toEqual({ cols, rows: rowsOf(theirs) });
    }
  } finally {
    run("kill-server");
    await sandbox.ok(["kill", id]);
  }
});
