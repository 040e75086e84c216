// Screenshots through the daemon: the wire format, a full-screen TUI against a golden image,
// whole frames only (DEC 2026), and a binary that renders with no font files beside it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodePng } from "../src/render/png.ts";
import { BIN, Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

const GOLDEN = join(import.meta.dir, "fixtures/screenshots/vim-daemon.png");

test("screenshot answers a len header then raw PNG bytes, or base64 inside the JSON", async () => {
  const id = await sandbox.ok(["create", "--", "bash", "--norc", "--noprofile"]);
  const { reply, bytes } = await sandbox.request({ cmd: "screenshot", id });
  expect(reply).toEqual({ ok: true, len: bytes!.length });
  const image = decodePng(bytes!);
  expect([image.width, image.height]).toEqual([528, 317]); // 80x24 at the default 66%
  const inline = (await sandbox.request({ cmd: "screenshot", id, encoding: "base64", scale: 100, pad: 1 })).reply;
  expect(decodePng(Buffer.from(inline.png as string, "base64"))).toMatchObject({ width: 820, height: 520 });
  expect((await sandbox.request({ cmd: "screenshot", id, scale: 5 })).reply).toMatchObject({
    ok: false,
    code: "invalid_params",
  });
  await sandbox.ok(["kill", id]);
});

test("vim through the daemon matches its golden image pixel for pixel", async () => {
  const file = join(sandbox.dir, "sample.txt");
  writeFileSync(file, "t4a golden\n\tindented line\nbox: ┌─┐ └─┘ 中文\n");
  const id = await sandbox.ok([
    "create",
    "--cols",
    "60",
    "--rows",
    "12",
    "--",
    "vim",
    "-u",
    "NONE",
    "-N",
    "-n",
    "-i",
    "NONE",
    "+set number",
    "+set laststatus=2",
    "sample.txt",
  ]);
  await waitFor(async () => (await sandbox.screen(id)).includes("sample.txt"), 5000, "vim's status line");
  await sandbox.request({ cmd: "wait", id, idle_ms: 300 });
  const png = (await sandbox.request({ cmd: "screenshot", id, scale: 100 })).bytes!;
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(GOLDEN, png);
  expect(existsSync(GOLDEN)).toBe(true);
  const actual = decodePng(png);
  const expected = decodePng(readFileSync(GOLDEN));
  expect([actual.width, actual.height]).toEqual([expected.width, expected.height]);
  const differing = countDifferences(actual.rgba, expected.rgba);
  if (differing) writeFileSync(join(tmpdir(), "vim-daemon.actual.png"), png);
  expect(differing).toBe(0);
  await sandbox.ok(["send", id, ":q!\\r"]);
  await sandbox.ok(["kill", id]);
});

test("a read during a synchronized-output frame waits for the whole frame", async () => {
  // Opens a DEC 2026 frame, draws half, pauses 300 ms, draws the rest, closes the frame.
  const script =
    "import sys,time\nw=sys.stdout.write\nw('\\x1b[?2026h\\x1b[2J\\x1b[Hfirst half\\r\\n'); sys.stdout.flush(); time.sleep(0.3)\nw('second half\\r\\n\\x1b[?2026l'); sys.stdout.flush(); time.sleep(30)";
  const id = await sandbox.ok(["create", "--", "python3", "-c", script]);
  await waitFor(
    async () =>
      (await sandbox.request({ cmd: "cursor", id })).reply.row === 1 || (await sandbox.screen(id)).includes("second"),
    5000,
    "the frame to start",
  );
  const screen = await sandbox.screen(id);
  expect(screen).toContain("first half");
  expect(screen).toContain("second half");
  await sandbox.ok(["kill", id]);
});

test("the compiled binary, copied alone, renders with no font files beside it", async () => {
  const alone = mkdtempSync(join(tmpdir(), "t4a-alone-"));
  try {
    copyFileSync(BIN, join(alone, "t4a"));
    Bun.spawnSync(["chmod", "+x", join(alone, "t4a")]);
    const env = { ...process.env, T4A_SOCKET: join(alone, "run", "t4a.sock") };
    const run = (args: string[]) => Bun.spawnSync([join(alone, "t4a"), ...args], { env, cwd: alone });
    const id = run(["create", "--", "bash", "--norc", "--noprofile"]).stdout.toString().trim();
    expect(id).toMatch(/^t\d+$/);
    expect(run(["screenshot", id, "-o", join(alone, "shot.png")]).exitCode).toBe(0);
    expect(decodePng(readFileSync(join(alone, "shot.png")))).toMatchObject({ width: 528, height: 317 });
    run(["shutdown"]);
  } finally {
    rmSync(alone, { recursive: true, force: true });
  }
});

function countDifferences(a: Uint8Array, b: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) count++;
  }
  return count;
}
