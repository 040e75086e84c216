// Program-chosen names (issue 56, crossing 6): what a program says about itself — its process name
// (/proc/PID/comm, which it sets with prctl), the directory its OSC 7 reports, its title — reaches
// `t4a list`, `wait --input`, `events` and MCP only through the one stripping function, as root and
// as an unprivileged user made for the test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive, waitFor } from "../harness.ts";
import { Actor, CAN_MAKE_USERS, IS_ROOT } from "./actor.ts";

const kinds: Array<"self" | "unprivileged"> = ["self", ...(CAN_MAKE_USERS ? (["unprivileged"] as const) : [])];
/** A C0 or C1 control (a tab and a newline aside), DEL, or a bidi control. */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

// Names itself "ESC[1A ESC[2K ESC]0;X BEL" (the line above erased, the window's title set: 14 of
// comm's 15 bytes), sets a title holding a right-to-left override, prints one on a row, and reads
// its terminal.
const RENAME = String.raw`import ctypes
ctypes.CDLL(None).prctl(15, b"\x1b[1A\x1b[2K\x1b]0;X\x07", 0, 0, 0)
print("\x1b]2;\u202etitle\x07", end="", flush=True)
print("row \u202edesrever\u2066 \u009b31mred")
input()
`;
// Reports a directory whose URL-encoded name holds a screen clear and a title set, and stays (the
// shell's next prompt would report its own directory).
const REPORT = String.raw`print("\x1b]7;file://h/tmp/%1b[2J%1b]0;X%07gone\x07", end="", flush=True)
input()
`;

/** The daemon's events of one terminal so far (its ring, from seq 0), as `t4a events` prints them. */
async function eventsOf(a: Actor, id: string): Promise<string> {
  const env = Object.entries(a.env).map(([k, v]) => `${k}=${v}`);
  const argv = [
    ...(a.user ? ["runuser", "-u", a.user, "--", "env", "-i", ...env] : []),
    a.bin,
    "events",
    id,
    "--since",
    "0",
  ];
  const child = Bun.spawn(argv, { env: a.env, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  let out = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  const stop = setTimeout(() => child.kill("SIGKILL"), 15_000);
  while (!out.includes('"input_wanted"')) {
    const { value, done } = await reader.read();
    if (done) break;
    out += decoder.decode(value);
  }
  clearTimeout(stop);
  child.kill("SIGKILL");
  return out;
}

/** The daemon's manifest of persisted sessions, as text. */
function manifest(a: Actor): string {
  const dir = join(a.state, "t4a");
  const name = existsSync(dir) ? readdirSync(dir).find((file) => /^sessions-[0-9a-f]+\.json$/.test(file)) : undefined;
  return name ? readFileSync(join(dir, name), "utf8") : "";
}

for (const kind of kinds) {
  describe(`as ${kind === "self" ? (IS_ROOT ? "root" : "this user") : "an unprivileged user"}`, () => {
    let a: Actor;
    beforeAll(async () => {
      a = await Actor.make(kind);
    });
    afterAll(() => a.cleanup());

    test("a program's own name (prctl) and title reach list, wait --input and events without control characters", async () => {
      const id = await a.shell([]);
      writeFileSync(join(a.dir, "rename.py"), RENAME);
      a.own(join(a.dir, "rename.py"));
      await a.ok(["send", id, `python3 ${join(a.dir, "rename.py")}\n`]);
      const waited = await a.ok(["wait", id, "--input", "--timeout", "20s"]);
      expect(waited).toContain("0;X");
      expect(waited).not.toMatch(UNSAFE);
      // A bidi control lands in a cell (xterm executes every C0 and C1): the rows come without it.
      const rows = await a.ok(["text", id]);
      expect(rows).toContain("row desrever red");
      expect(rows).not.toMatch(UNSAFE);
      const listed = await a.ok(["list"]);
      expect(listed).toContain("reading input");
      expect(listed).not.toMatch(UNSAFE);
      const json = JSON.parse(await a.ok(["list", "--json"])).terminals[0];
      expect(json.input_wanted).toContain("0;X");
      expect(json.input_wanted).not.toMatch(UNSAFE);
      expect(json.title).toContain("title");
      expect(json.title).not.toMatch(UNSAFE);
      const streamed = await eventsOf(a, id);
      await a.ok(["kill", id]);
      expect(streamed).toContain('"input_wanted"');
      expect(streamed).not.toMatch(/\\u001b|\\u0007|\\u009b|\u202e|\u009b/);
    }, 60_000);

    test("a directory its OSC 7 reports with escape bytes in it never reaches list's restore note raw", async () => {
      const id = await a.shell(["--persist", "--name", "named"]);
      writeFileSync(join(a.dir, "report.py"), REPORT);
      a.own(join(a.dir, "report.py"));
      await a.ok(["send", id, `python3 ${join(a.dir, "report.py")}\n`]);
      const pid = JSON.parse(await a.ok(["info", "--json"])).pid as number;
      // The manifest holds the reported directory once the daemon has seen it.
      await waitFor(async () => JSON.parse(await a.ok(["list", "--json"])).terminals[0]?.cwd?.includes("gone"), 10_000);
      const cwd = JSON.parse(await a.ok(["list", "--json"])).terminals[0].cwd as string;
      expect(cwd).not.toMatch(UNSAFE);
      await waitFor(() => manifest(a).includes("gone"), 10_000, "the reported directory in the manifest");
      process.kill(pid, "SIGKILL");
      await waitFor(() => !isAlive(pid), 5000);
      // The next call starts a daemon, which brings the persisted shell back.
      const listed = await waitFor(async () => {
        const out = await a.ok(["list"]);
        return out.includes("named") ? out : undefined;
      }, 20_000);
      // Its directory is gone (it never was): the note names it, stripped.
      expect(listed).toMatch(/restored: .*gone/);
      expect(listed).not.toMatch(UNSAFE);
      expect(JSON.stringify(JSON.parse(await a.ok(["list", "--json"])))).not.toMatch(/\\u001b|\\u0007/);
    }, 60_000);
  });
}
