// Torture, emulator side: malformed input of the kinds tmux's parser guards against (absurd counts,
// unterminated strings, overlong UTF-8, DCS garbage, megabyte lines, random bytes). After each, the
// next text a program prints shows in `text` and a decodable screenshot; the daemon stays the same.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DaemonConnection, Reply } from "../src/client/connection.ts";
import { decodePng } from "../src/render/png.ts";
import { Sandbox, rssBytes, waitFor } from "./harness.ts";
import { SOAK, logProblems, pick, prng } from "./torture-kit.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

const ESC = "\x1b";
const ST = `${ESC}\\`;
/** What ends any string state and any mode a random stream may have left: CAN, ST, then RIS (`reset`). */
const FULL_RESET = `\x18${ST}${ESC}c`;

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const bytes = (...parts: Array<string | number[] | Uint8Array>) =>
  Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part))));

interface Case {
  name: string;
  payload: Uint8Array;
  /**
   * Printed before the next text. Plain text after an unterminated OSC/DCS is payload, in xterm
   * and tmux alike; only ST, BEL, CAN, SUB or ESC end the string. So those cases send an ST first.
   */
  recover?: string;
}

function cases(): Case[] {
  const r = prng(0x5eed);
  const huge = 2147483647;
  return [
    {
      name: "CSI with 80 params",
      payload: bytes(
        `${ESC}[${Array.from({ length: 80 }, (_, i) => i + 1).join(";")}m`,
        `${ESC}[${"1;".repeat(80)}H`,
        `${ESC}[${"9".repeat(80)}C`,
      ),
    },
    {
      name: "SGR with 1000 params",
      payload: bytes(
        `${ESC}[${Array.from({ length: 1000 }, (_, i) => ["38;5;196", "48;2;1;2;3", "1", "4:3", "58:2::9:9:9"][i % 5]).join(";")}mcolour${ESC}[0m\r\n`,
      ),
    },
    { name: "1 MB unterminated OSC", payload: bytes(`${ESC}]0;`, "A".repeat(1024 * 1024)), recover: ST },
    {
      name: "1 MB unterminated OSC 8 hyperlink",
      payload: bytes(`${ESC}]8;;http://`, "x".repeat(1024 * 1024)),
      recover: ST,
    },
    { name: "11 MB OSC past xterm's payload limit", payload: bytes(`${ESC}]2;`, "B".repeat(11 * 1024 * 1024), "\x07") },
    {
      name: "hyperlink left open, then 100 000 lines",
      payload: bytes(`${ESC}]8;;http://example.com/${ST}`, "linked line\r\n".repeat(100_000)),
    },
    { name: "1 MB title, terminated", payload: bytes(`${ESC}]2;`, "T".repeat(1024 * 1024), "\x07") },
    {
      name: "overlong UTF-8",
      payload: bytes(
        [0xc0, 0x80, 0xc1, 0xbf, 0xe0, 0x80, 0x80, 0xe0, 0x9f, 0xbf, 0xf0, 0x80, 0x80, 0x80, 0xf0, 0x8f, 0xbf, 0xbf],
        [0xf8, 0x88, 0x80, 0x80, 0x80, 0xfc, 0x84, 0x80, 0x80, 0x80, 0x80, 0xfe, 0xff, 0x0d, 0x0a],
      ),
    },
    {
      name: "surrogates encoded in UTF-8",
      payload: bytes([0xed, 0xa0, 0x80, 0xed, 0xbf, 0xbf, 0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80, 0x0d, 0x0a]),
    },
    {
      name: "truncated UTF-8 then ASCII",
      payload: bytes([0xe4, 0xb8, 0x41, 0xf0, 0x9f, 0x98, 0x42, 0x80, 0xbf, 0xc3, 0x0d, 0x0a]),
    },
    { name: "beyond U+10FFFF", payload: bytes([0xf4, 0x90, 0x80, 0x80, 0xf7, 0xbf, 0xbf, 0xbf, 0x0d, 0x0a]) },
    {
      name: "DCS garbage",
      payload: bytes(
        `${ESC}P`,
        r.bytes(4096).map((b) => (b === 0x1b ? 0x20 : b)),
        ST,
        `${ESC}P$q${"m".repeat(1000)}${ST}`,
        `${ESC}P1000;1000;1000q#0;2;100;0;0#0!99999~${ST}`,
      ),
    },
    { name: "1 MB unterminated DCS", payload: bytes(`${ESC}P+q`, "41".repeat(512 * 1024)), recover: ST },
    {
      name: "APC, PM and SOS strings",
      payload: bytes(
        `${ESC}_`,
        "a".repeat(100_000),
        ST,
        `${ESC}^`,
        "p".repeat(100_000),
        ST,
        `${ESC}X`,
        "s".repeat(100_000),
        ST,
      ),
    },
    {
      name: "huge repeat counts and coordinates",
      payload: bytes(
        `x${ESC}[99999999b\r\n`,
        `y${ESC}[${huge}b\r\n`,
        `${ESC}[65535;65535H`,
        ...["S", "T", "L", "M", "@", "P", "X", "I", "Z", "E", "F", "A", "B", "C", "D", "G", "d", "e", "a", "`"].map(
          (final) => `${ESC}[${huge}${final}`,
        ),
        `${ESC}[${huge};${huge}r${ESC}[${huge};${huge}f${ESC}[r${ESC}[H`,
      ),
    },
    { name: "2 MB line without newline", payload: bytes("x".repeat(2 * 1024 * 1024)) },
    {
      name: "device queries the program never reads answers to",
      payload: bytes(`${ESC}[c${ESC}[6n${ESC}[>c${ESC}]10;?\x07${ESC}[?u`.repeat(20_000)),
    },
    { name: "1 MB of seeded random bytes", payload: r.bytes(1024 * 1024), recover: FULL_RESET },
  ];
}

/** Runs the payload file, then the recovery and the marker, in one session; answers its id. */
async function replay(
  connection: DaemonConnection,
  index: number,
  payload: Uint8Array,
  recover: string,
  marker: string,
): Promise<string> {
  const payloadFile = join(sandbox.dir, `case-${index}.bin`);
  const nextFile = join(sandbox.dir, `case-${index}.next`);
  writeFileSync(payloadFile, payload);
  writeFileSync(nextFile, latin1(`${recover}\r\n${marker}\r\n`));
  // No echo: answers to device queries stay unread in the program's input instead of scrolling the screen.
  const script = 'stty -echo; cat "$1"; cat "$2"; exec sleep 100000';
  const { reply } = await connection.request({
    cmd: "create",
    cmd_args: ["sh", "-c", script, "t4a", payloadFile, nextFile],
  });
  expect(reply.ok).toBe(true);
  return reply.id as string;
}

async function expectMarker(connection: DaemonConnection, id: string, marker: string, name: string): Promise<void> {
  await waitFor(
    async () =>
      ((await connection.request({ cmd: "text", id })).reply.lines as string[]).some((line) => line.includes(marker)),
    pick(20_000, 60_000),
    `${marker} after ${name}`,
  );
  const { reply, bytes: png } = await connection.request({ cmd: "screenshot", id });
  expect({ name, ok: reply.ok }).toEqual({ name, ok: true });
  expect(decodePng(png!)).toMatchObject({ width: 528, height: 317 });
  expect((await connection.request({ cmd: "cursor", id })).reply.ok).toBe(true);
}

test(
  "after each malformed escape sequence, the next text renders in text and in a screenshot",
  async () => {
    const connection = await sandbox.connect();
    const daemon = await sandbox.daemonPid();
    const timings: string[] = [];
    for (const [index, { name, payload, recover = "" }] of cases().entries()) {
      const started = performance.now();
      const marker = `NEXT-TEXT-${index}`;
      const id = await replay(connection, index, payload, recover, marker);
      await expectMarker(connection, id, marker, name);
      timings.push(`${name} ${(performance.now() - started).toFixed(0)} ms`);
      if (name === "1 MB title, terminated") {
        // Titles are capped at 1024 characters: list and title events carry the title in every line.
        const listed = (await connection.request({ cmd: "list" })).reply.terminals as Reply[];
        expect((listed.find((t) => t.id === id)!.title as string).length).toBe(1024);
      }
      await connection.request({ cmd: "kill", id });
    }
    console.log(
      `escape torture (${timings.length} cases): ${timings.join("; ")}; daemon RSS ${(rssBytes(daemon) / 1e6).toFixed(0)} MB`,
    );
    expect(await sandbox.daemonPid()).toBe(daemon);
    expect(logProblems(sandbox)).toEqual([]);
    connection.close();
  },
  SOAK ? 600_000 : 60_000,
);

test(
  "every case one after another in one session, then a reset: the next text still renders",
  async () => {
    const connection = await sandbox.connect();
    const daemon = await sandbox.daemonPid();
    const rounds = pick(1, 5);
    const all = Buffer.concat(Array.from({ length: rounds }, () => cases().map((c) => c.payload)).flat());
    const started = performance.now();
    const id = await replay(connection, 1000, all, FULL_RESET, "NEXT-TEXT-ALL");
    await expectMarker(connection, id, "NEXT-TEXT-ALL", "every case");
    console.log(
      `escape torture, all cases in one session: ${(all.length / 1e6).toFixed(1)} MB in ${(performance.now() - started).toFixed(0)} ms`,
    );
    await connection.request({ cmd: "kill", id });
    expect(await sandbox.daemonPid()).toBe(daemon);
    expect(logProblems(sandbox)).toEqual([]);
    connection.close();
  },
  SOAK ? 600_000 : 60_000,
);

// Every answer the emulator gives (DA, DSR, colour queries…) is written to the PTY; while the
// program left its input unread, Bun's terminal writer queued them without bound (51 -> 188 MB in
// 15 s). pty.ts now asks the tty how much input is unread and holds answers back past 1 KiB.
test("item 13: a program asking device queries without reading the answers does not grow the daemon", async () => {
  // A daemon of its own: the heap left by the fuzz above makes RSS swing by hundreds of MB.
  const sandbox = new Sandbox();
  const connection = await sandbox.connect();
  const daemon = await sandbox.daemonPid();
  const script = `stty raw -echo; exec python3 -c "import os\nwhile True: os.write(1, b'\\x1b[c\\x1b[6n' * 10000)"`;
  const { id } = (await connection.request({ cmd: "create", cmd_args: ["sh", "-c", script] })).reply as { id: string };
  const before = rssBytes(daemon);
  await Bun.sleep(10_000);
  const grown = rssBytes(daemon) - before;
  console.log(`device-query flood: daemon RSS grew ${(grown / 1e6).toFixed(1)} MB in 10 s`);
  expect(grown).toBeLessThan(100 * 1024 * 1024); // 212 MB before the fix, ~30 MB after
  const listed = (await connection.request({ cmd: "list" })).reply.terminals as Reply[];
  expect(listed.find((t) => t.id === id)?.answers_dropped).toBeGreaterThan(0);
  await connection.request({ cmd: "kill", id });
  // A program that reads gets every answer, in order.
  const reader = `stty raw -echo; exec python3 -c "import os,sys\nfor i in range(200): os.write(1, b'\\x1b[6n'); r = os.read(0, 64); assert r.startswith(b'\\x1b['), r\nos.write(1, b'all-answered')"`;
  const answered = (await connection.request({ cmd: "create", cmd_args: ["sh", "-c", `${reader}; sleep 100`] }))
    .reply as { id: string };
  await waitFor(async () => (await sandbox.screen(answered.id)).includes("all-answered"), 10_000, "200 answers");
  await connection.request({ cmd: "kill", id: answered.id });
  connection.close();
  await sandbox.cleanup();
}, 60_000);
