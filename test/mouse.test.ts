// send --click / --scroll end to end: a program that turns mouse reporting on gets the report in
// the mode it asked for (a python script printing the bytes it reads, raw), one that did not gets
// nothing and the caller an error saying so; mc quits on a click on its "10Quit"; click --text
// clicks words no element holds.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
/** Turns on the DEC modes given, then prints each read's bytes in hex, one read per line. */
const echo = resolve(import.meta.dir, "fixtures/mouse-echo.py");
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.start();
});
afterAll(() => sandbox.cleanup());

async function echoing(modes: string): Promise<string> {
  const id = await sandbox.ok(["create", "--", "python3", echo, modes]);
  await waitFor(async () => (await sandbox.screen(id)).includes("ready"), 30_000, "the script to start");
  return id;
}

/** Every byte the script read up to the "z" sent last, in hex (a loaded machine may join reads). */
async function reads(id: string): Promise<string> {
  return waitFor(
    async () => {
      const got = (await sandbox.screen(id))
        .split("\n")
        .filter((line) => line.startsWith("got "))
        .map((line) => line.slice(4))
        .join("");
      return got.endsWith(hex("z")) ? got : undefined;
    },
    30_000,
    "the z after the reports",
  );
}

const hex = (text: string) => Buffer.from(text, "latin1").toString("hex");

const modes: Array<[modes: string, click: string, wheelDown: string]> = [
  ["1000;1006", "\x1b[<0;10;5M\x1b[<0;10;5m", "\x1b[<65;4;3M"],
  ["1000", "\x1b[M\x20\x2a\x25\x1b[M\x23\x2a\x25", "\x1b[M\x61\x24\x23"],
  ["9", "\x1b[M\x20\x2a\x25", ""],
  ["1002;1015", "\x1b[32;10;5M\x1b[35;10;5M", "\x1b[97;4;3M"],
  ["1003;1005", "\x1b[M\x20\x2a\x25\x1b[M\x23\x2a\x25", "\x1b[M\x61\x24\x23"],
];

for (const [set, click, wheelDown] of modes) {
  test(`mode ?${set}h: a click at 4:9 and a wheel turn at 2:3 arrive as ${JSON.stringify(click)}`, async () => {
    const id = await echoing(set);
    await sandbox.ok(["send", id, "--click", "4:9"]);
    if (wheelDown) await sandbox.ok(["send", id, "--scroll", "down", "2:3"]);
    else {
      const refused = await sandbox.run(["send", id, "--scroll", "down", "2:3"]);
      expect(refused.stderr).toContain("reports no wheel");
    }
    await sandbox.ok(["send", id, "z"]);
    expect(await reads(id)).toBe(hex(click) + hex(wheelDown) + hex("z"));
    await sandbox.ok(["kill", id]);
  });
}

test("no mouse mode: nothing is sent, and the error says so (no_mouse)", async () => {
  const id = await echoing("");
  const cli = await sandbox.run(["send", id, "--click", "1:1"]);
  expect(cli.code).not.toBe(0);
  expect(cli.stderr).toContain("turned no mouse reporting on");
  const { reply } = await sandbox.request({ cmd: "send", id, scroll: { direction: "up", row: 0, col: 0 } });
  expect(reply).toMatchObject({ ok: false, code: "no_mouse" });
  await sandbox.ok(["send", id, "z"]);
  // The refused click and scroll wrote nothing before the z.
  expect(await reads(id)).toBe(hex("z"));
  await sandbox.ok(["kill", id]);
});

test("click --text on words no element holds: a mouse click where they show, or an error saying where they are and why nothing was sent", async () => {
  // mouse-echo prints "ready" on row 0; the detector sees no button there.
  const id = await echoing("1000;1006");
  expect(await sandbox.ok(["click", id, "--text", "READY"])).toMatch(/^uncertain: .* \(mouse: click 0:2\)$/);
  await sandbox.ok(["send", id, "z"]);
  expect(await reads(id)).toBe(hex("\x1b[<0;3;1M\x1b[<0;3;1m") + hex("z"));
  await sandbox.ok(["kill", id]);

  const still = await echoing("");
  const refused = await sandbox.run(["click", still, "--text", "ready"]);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain(
    "the text shows at 0:2, but the program turned no mouse reporting on, so nothing was sent",
  );
  await sandbox.ok(["send", still, "z"]);
  expect(await reads(still)).toBe(hex("z"));
  await sandbox.ok(["kill", still]);
});

test("mc quits on a click on its function-key bar's 10Quit", async () => {
  if (!Bun.which("mc")) return console.log("skipped: mc is not installed");
  const id = await sandbox.ok(["create", "--", "mc"]);
  const bar = await waitFor(
    async () => (await sandbox.screen(id)).split("\n").find((line) => /10\s*Quit/.test(line)),
    30_000,
    "mc's key bar",
  );
  const rows = (await sandbox.screen(id)).split("\n");
  await sandbox.ok(["send", id, "--click", `${rows.indexOf(bar)}:${bar.indexOf("Quit")}`]);
  await sandbox.ok(["wait", id, "--exit", "--timeout", "30s"]);
  await sandbox.ok(["kill", id]);
});
