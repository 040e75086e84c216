import { afterAll, expect, test } from "bun:test";
import { BELL_SUPPRESS_MS } from "./screen-host.ts";
import { ScreenPool, type ScreenEvents, type ScreenProxy } from "./screen-pool.ts";

const pools = { worker: new ScreenPool(2), inline: new ScreenPool(0) };
afterAll(() => Object.values(pools).forEach((pool) => pool.close()));
const encode = (text: string) => new TextEncoder().encode(text);

function open(pool: ScreenPool, log: string[], extra: Partial<ScreenEvents> = {}): ScreenProxy {
  return pool.open(
    { cols: 40, rows: 6, scrollback: 50 },
    {
      reply: (data) => log.push(`reply ${JSON.stringify(data)}`),
      title: (title) => log.push(`title ${title}`),
      bell: () => log.push("bell"),
      osc: { 133: (payload, at) => log.push(`mark ${payload} at ${at.row}:${at.col}`) },
      parsed: (parsed) => log.push(`parsed ${parsed.bytes}`),
      ...extra,
    },
  );
}

for (const [kind, pool] of Object.entries(pools)) {
  test(`${kind}: a read answers for all the output handed over, after every event of it, in order`, () => {
    const log: string[] = [];
    const screen = open(pool, log);
    screen.write(encode("one\r\ntwo\x1b]133;A\x07\x1b]2;T\x07\x07"));
    const chunk = Buffer.from("\r\nthree\x1b[c"); // as the PTY gives it: a Buffer, read again by taps after the write
    screen.write(chunk);
    expect(chunk.toString()).toBe("\r\nthree\x1b[c");
    expect(screen.unparsed).toBeGreaterThanOrEqual(0);
    expect(screen.lines("viewport", 3, 6, true)).toEqual(["one", "two", "three"]);
    // A worker gets the output of one turn as one message, and reports it parsed once.
    const parsed = kind === "worker" ? ["parsed 33"] : ["parsed 23", "parsed 10"];
    expect(log.filter((line) => !line.startsWith("parsed"))).toEqual([
      "mark A at 1:3",
      "title T",
      "bell",
      'reply "\\u001b[?1;2c"',
    ]);
    expect(log.filter((line) => line.startsWith("parsed"))).toEqual(parsed);
    expect(log.at(-1)).toBe(parsed.at(-1));
    expect(String(screen.title)).toBe("T");
    expect(screen.unparsed).toBe(0);
    screen.dispose();
  });

  test(`${kind}: a read made while an event is handled, and the read it interrupted, each get their own answer`, () => {
    const log: string[] = [];
    let inner: string[] = [];
    const screen: ScreenProxy = open(pool, log, { osc: { 133: () => (inner = screen.lines("viewport", 0, 1, true)) } });
    screen.write(encode("a\x1b]133;A\x07\r\nb"));
    expect(screen.cursor().row).toBe(1);
    expect(inner.length).toBe(1);
    screen.dispose();
  });

  test(`${kind}: bells 200 ms apart at most; of a run of titles the last, if new; of answers one`, async () => {
    const log: string[] = [];
    const screen = open(pool, log);
    const told = () => log.filter((line) => !line.startsWith("parsed"));
    screen.write(
      encode(`${"\x07".repeat(5000)}\x1b]2;a\x07\x1b]2;b\x07${"\x1b[c".repeat(3)}\x07\x1b]2;c\x07\x07\x1b]2;c\x07`),
    );
    expect(screen.cursor().row).toBe(0);
    const reply = JSON.stringify("\x1b[?1;2c".repeat(3));
    // The bells after the first come within 200 ms of it, unless the machine stalls that long.
    expect(told()[0]).toBe("bell");
    expect(told().filter((line) => line !== "bell")).toEqual(["title b", `reply ${reply}`, "title c"]);
    const bells = told().filter((line) => line === "bell").length;
    await Bun.sleep(BELL_SUPPRESS_MS + 50);
    screen.write(encode("\x07\x1b]2;c\x07"));
    expect(screen.cursor().row).toBe(0);
    expect(told().filter((line) => line === "bell").length).toBe(bells + 1);
    expect(told().at(-1)).toBe("bell");
    screen.dispose();
  });

  test(`${kind}: the events after one whose handler reads still come after it, in order`, () => {
    const log: string[] = [];
    const screen: ScreenProxy = open(pool, log, {
      osc: {
        133: (payload) => {
          log.push(`mark ${payload}`);
          screen.cursor();
          log.push(`read after ${payload}`);
        },
      },
    });
    // A worker parses 8 KB at a time: "three" comes in a later message than the rest.
    screen.write(
      encode(`a\x1b]133;A\x07\x1b]2;one\x07\x1b]133;B\x07\x1b]2;two\x07\x07${"\x1b[0m".repeat(3000)}\x1b]2;three\x07`),
    );
    expect(screen.cursor().row).toBe(0);
    // When each read is answered differs (inline: at once; a worker: after the events before it).
    expect(log.filter((line) => !line.startsWith("parsed") && !line.startsWith("read"))).toEqual([
      "mark A",
      "title one",
      "mark B",
      "title two",
      "bell",
      "title three",
    ]);
    expect(log.filter((line) => line.startsWith("read")).sort()).toEqual(["read after A", "read after B"]);
    screen.dispose();
  });
}

test("the worker's screen and one on this thread answer every read alike", async () => {
  const logs = { worker: [] as string[], inline: [] as string[] };
  const screens = { worker: open(pools.worker, logs.worker), inline: open(pools.inline, logs.inline) };
  const output = encode(
    Array.from({ length: 300 }, (_, i) => `\x1b[3${i % 8}mline ${i} ${"x".repeat(i % 70)}\x1b[0m\r\n`).join("") +
      "\x1b[?1049h\x1b[2;3Hup here\x1b[?1049l\x1b]0;done\x07",
  );
  for (let offset = 0; offset < output.length; offset += 1000) {
    for (const screen of Object.values(screens)) screen.write(output.subarray(offset, offset + 1000));
  }
  await Promise.all(Object.values(screens).map((screen) => screen.resize(33, 9)));
  const read = (screen: ScreenProxy) => ({
    all: screen.lines("all", 0, screen.regionLength("all"), false),
    serialized: screen.serialize(20),
    grid: screen.cellGrid(),
    cursor: screen.cursor(),
    changed: screen.changedSince("0.0.0", "viewport"),
    between: screen.rowsBetween({ row: 40, col: 2 }, { row: 45, col: 5 }),
  });
  expect(read(screens.worker)).toEqual(read(screens.inline));
  const events = (log: string[]) => log.filter((line) => !line.startsWith("parsed"));
  const parsedBytes = (log: string[]) =>
    log.filter((line) => line.startsWith("parsed")).reduce((sum, line) => sum + Number(line.split(" ")[1]), 0);
  expect(events(logs.worker)).toEqual(events(logs.inline));
  expect(parsedBytes(logs.worker)).toBe(output.length);
  expect(parsedBytes(logs.inline)).toBe(output.length);
  for (const screen of Object.values(screens)) screen.dispose();
});

test("sessions go to the least loaded worker, and a worker starts only when a screen needs it", () => {
  const pool = new ScreenPool(2);
  const log: string[] = [];
  const screens = [open(pool, log), open(pool, log), open(pool, log)];
  for (const [index, screen] of screens.entries()) screen.write(encode(`screen ${index}`));
  expect(screens.map((screen) => screen.lines("viewport", 5, 6, true)[0])).toEqual([
    "screen 0",
    "screen 1",
    "screen 2",
  ]);
  expect(pool.loads).toEqual([2, 1]);
  screens[0]!.dispose();
  screens[2]!.dispose();
  expect(pool.loads).toEqual([0, 1]);
  open(pool, log);
  expect(pool.loads).toEqual([1, 1]);
  expect(new ScreenPool(2).loads).toEqual([]);
  pool.close();
});

test(
  "a worker gone: its screens' reads fail at once with a clear " +
    "error, writes are dropped, and the next screen gets a new worker",
  () => {
    const pool = new ScreenPool(1);
    const log: string[] = [];
    const screen = open(pool, log);
    screen.write(encode("before"));
    expect(screen.lines("viewport", 5, 6, true)).toEqual(["before"]);
    pool.close(); // what a worker that failed or exited leaves behind, as the pool sees it
    expect(() => screen.write(encode("after"))).not.toThrow();
    expect(() => screen.cursor()).toThrow(/screen worker of this session was closed/);
    const next = open(pool, log);
    next.write(encode("fresh"));
    expect(next.lines("viewport", 5, 6, true)).toEqual(["fresh"]);
    pool.close();
  },
);
