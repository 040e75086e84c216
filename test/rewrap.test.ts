// A narrow resize must not throw the scrollback away: `resize 20 24` then `resize 200 24` on a
// session holding 10 000 lines left 1 002 of them; tmux keeps all 10 000 in the same steps.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

/** Lines of 40 characters (two rows each at 20 columns); the numbered ones among `text --all`. */
const COMMAND = `seq -f 'line %05g .............................' 1 10000; exec sleep 600`;
const numbered = (text: string) => text.split("\n").filter((row) => /^line \d{5} \.+$/.test(row.trimEnd()));

test("resize 20 24 then 200 24 keeps all 10 000 lines, as tmux does", async () => {
  const id = await sandbox.ok(["create", "--cols", "80", "--rows", "24", "--", "sh", "-c", COMMAND]);
  try {
    await waitFor(async () => (await sandbox.screen(id)).includes("line 10000"), 30_000, "the last line");
    expect(numbered(await sandbox.ok(["text", id, "--all"])).length).toBe(10_000);
    await sandbox.ok(["resize", id, "20", "24"]);
    await sandbox.ok(["resize", id, "200", "24"]);
    const lines = numbered(await sandbox.ok(["text", id, "--all"]));
    expect({ count: lines.length, first: lines[0], last: lines.at(-1) }).toEqual({
      count: 10_000,
      first: "line 00001 .............................",
      last: "line 10000 .............................",
    });
  } finally {
    await sandbox.ok(["kill", id]);
  }

  const tmux = Bun.which("tmux");
  if (!tmux) return console.log("tmux not installed: the comparison with it is skipped");
  const conf = join(sandbox.dir, "tmux.conf");
  writeFileSync(conf, "set -g history-limit 10000\n");
  const server = ["-L", `t4a-rewrap-${process.pid}`, "-f", conf];
  const run = (...args: string[]) =>
    Bun.spawnSync([tmux, ...server, ...args], { env: { ...process.env, LANG: "C.UTF-8" } });
  try {
    expect(run("-u", "new-session", "-d", "-x", "80", "-y", "24", COMMAND).exitCode).toBe(0);
    await waitFor(
      () => run("capture-pane", "-p").stdout.toString().includes("line 10000"),
      30_000,
      "tmux to show the last line",
    );
    run("resize-window", "-x", "20", "-y", "24");
    run("resize-window", "-x", "200", "-y", "24");
    // Read once tmux shows the wide rows (a capture at 20 columns splits every line).
    const theirs = await waitFor(
      () => {
        const capture = run("capture-pane", "-p", "-S", "-", "-E", "-").stdout.toString();
        return capture.includes("line 10000 .............................") ? capture : undefined;
      },
      10_000,
      "tmux to resize",
    );
    expect(numbered(theirs).length).toBe(10_000);
  } finally {
    run("kill-server");
  }
});
