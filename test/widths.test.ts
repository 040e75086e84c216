// Columns as the programs count them: a row with a keycap emoji leaves the cursor where tmux
// leaves it (libc wcwidth), so every later column of the row lines up with the program's idea.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

const ROW = "1\\357\\270\\217\\342\\203\\243|\\340\\244\\250\\340\\244\\277|\\302\\255|\\342\\230\\260|x"; // printf octal escapes (dash has no \x): 1️⃣|नि|SHY|☰|x

test("item 12: the keycap row leaves the cursor where tmux leaves it", async () => {
  const tmux = Bun.which("tmux");
  if (!tmux) {
    console.log("skipped: tmux is not installed (.ci/run installs it)");
    return;
  }
  const script = `printf '${ROW}'; exec sleep 100`;
  const id = await sandbox.ok(["create", "--", "sh", "-c", script]);
  await waitFor(async () => (await sandbox.screen(id)).includes("|x"), 5000, "the row");
  const [, col] = (await sandbox.ok(["cursor", id])).split(" ").map(Number);

  const server = ["-L", `t4a-widths-${process.pid}`, "-f", "/dev/null"];
  const env = { ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" };
  try {
    expect(
      Bun.spawnSync([tmux, ...server, "-u", "new-session", "-d", "-x", "80", "-y", "24", script], { env }).exitCode,
    ).toBe(0);
    const tmuxCol = await waitFor(
      () => {
        const pane = Bun.spawnSync([tmux, ...server, "capture-pane", "-p"], { env }).stdout.toString();
        if (!pane.includes("|x")) return undefined;
        return Number(
          Bun.spawnSync([tmux, ...server, "display", "-p", "#{cursor_x}"], { env })
            .stdout.toString()
            .trim(),
        );
      },
      5000,
      "tmux to draw the row",
    );
    expect(col).toBe(tmuxCol);
    expect(col).toBe(10); // 1️⃣ 1 + | + नि 2 + | + SHY 1 + | + ☰ 1 + | + x
  } finally {
    Bun.spawnSync([tmux, ...server, "kill-server"]);
    await sandbox.ok(["kill", id]);
  }
});
