// Clients that never read their replies (a `t4a batch` whose stdout nobody drains, a raw socket
// left open): the daemon's memory stays bounded, since a connection with replies unread gets no
// more requests run for it, and one that falls far behind is dropped; every other client is
// answered meanwhile.
// Serial phase: measures the daemon's RSS (up to 1.5 GB unread) while clients never read; other
// files' load changes how far behind they fall.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BIN, rssBytes, Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = new Sandbox();
  await sandbox.connect();
});
afterAll(() => sandbox.cleanup());

const MB = 1024 * 1024;

test("30 connections that never read 64 replies of ~2 MB each: RSS stays bounded, another client is answered", async () => {
  // 10 000 lines of 200 characters: a `text --all` reply of ~2 MB.
  const made = await sandbox.request({
    cmd: "create",
    cmd_args: [
      "python3",
      "-c",
      "import sys\nfor i in range(10000): print(str(i).rjust(200, 'x'))\nprint('DONE')\nsys.stdin.read()",
    ],
    cols: 220,
    rows: 24,
  });
  const id = made.reply.id as string;
  expect((await sandbox.request({ cmd: "wait", id, text: "DONE", timeout_ms: 60_000 })).reply.ok).toBe(true);
  const one = (await sandbox.request({ cmd: "text", id, region: "all" })).reply;
  expect((one.lines as string[]).join("\n").length).toBeGreaterThan(1.9 * MB);

  const daemon = await sandbox.daemonPid();
  const before = rssBytes(daemon);
  // One process holds 30 connections, each sent 64 requests (half of them tagged), and reads nothing.
  const lines = Array.from({ length: 64 }, (_, i) =>
    JSON.stringify({ cmd: "text", id, region: "all", ...(i % 2 ? { tag: i } : {}) }),
  ).join("\n");
  const holder = Bun.spawn(
    [
      "python3",
      "-c",
      `import socket, sys, time\nheld = []\nfor _ in range(30):\n    s = socket.socket(socket.AF_UNIX)\n    s.connect(sys.argv[1])\n    s.sendall(sys.argv[2].encode() + b"\\n")\n    held.append(s)\nprint("SENT", flush=True)\ntime.sleep(600)`,
      sandbox.socket,
      lines,
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  try {
    const reader = holder.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("SENT");
    // Another client is answered while they sit there; meanwhile the daemon's memory is sampled.
    let peak = rssBytes(daemon);
    const sampling = setInterval(() => (peak = Math.max(peak, rssBytes(daemon))), 100);
    try {
      for (let i = 0; i < 5; i++) {
        const answer = await sandbox.request({ cmd: "text", id, tail: 1 });
        expect(answer.reply.ok).toBe(true);
      }
      // Settled: the daemon has done all it will for the stuck readers (its RSS stops rising).
      let last = 0;
      await waitFor(
        () => {
          const now = rssBytes(daemon);
          const still = Math.abs(now - last) < 4 * MB;
          last = now;
          return still;
        },
        60_000,
        "the daemon's memory to settle",
      );
    } finally {
      clearInterval(sampling);
    }
    const settled = rssBytes(daemon);
    const unread = (await sandbox.request({ cmd: "info" })).reply.unread_reply_bytes as number;
    console.log(
      `30 stuck readers: daemon RSS ${Math.round(before / MB)} MB before, peak ${Math.round(peak / MB)} MB, settled ${Math.round(settled / MB)} MB with them still connected; ${Math.round(unread / MB)} MB of replies held for them`,
    );
    // By construction: what the daemon holds for them is at most 128 MB (the total cap) plus the
    // one reply that crossed it. Unbounded, it held 2–6 GB.
    expect(unread).toBeLessThanOrEqual(128 * MB + 3 * MB);
    // RSS, which also keeps what the heap grew to in the burst (~1900 replies made at once: about
    // what the same load costs when every client reads, +860 MB measured) and returns it lazily:
    // a loose bound, far under the 6.6 GB held before (+100 MB on a quiet machine, +500 MB loaded).
    expect((settled - before) / MB).toBeLessThan(1536);
  } finally {
    holder.kill("SIGKILL");
    await holder.exited;
  }
  await sandbox.request({ cmd: "kill", id });
}, 180_000);

test("20 event streams (SSE) that never read, while a program marks 300 000 commands done: RSS stays bounded", async () => {
  // A daemon of its own, started by `web` with a state directory of its own (where the token is).
  const box = new Sandbox();
  const state = `${box.dir}/state`;
  const env = { ...box.env, XDG_STATE_HOME: state };
  const web = Bun.spawnSync([BIN, "web", "--listen", "127.0.0.1:0"], { env, stdout: "pipe", stderr: "pipe" });
  expect(web.exitCode).toBe(0);
  const base = new URL(web.stdout.toString().trim());
  const token = (await Bun.file(`${state}/t4a/web/token`).text()).trim();
  const daemon = await box.daemonPid();
  const before = rssBytes(daemon);
  // 20 streams that read nothing after their request is sent.
  const holder = Bun.spawn(
    [
      "python3",
      "-c",
      `import socket, sys, time\nheld = []\nfor _ in range(20):\n    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))\n    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)\n    s.sendall(("GET /api/events HTTP/1.1\\r\\nHost: 127.0.0.1:%s\\r\\nAuthorization: Bearer %s\\r\\n\\r\\n" % (sys.argv[1], sys.argv[2])).encode())\n    held.append(s)\nprint("SENT", flush=True)\ntime.sleep(600)`,
      base.port,
      token,
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  try {
    expect(new TextDecoder().decode((await holder.stdout.getReader().read()).value)).toContain("SENT");
    const made = await box.request({
      cmd: "create",
      cmd_args: [
        "python3",
        "-c",
        "import sys\nfor i in range(300000): sys.stdout.write('\\x1b]133;C\\x07\\x1b]133;D;%d\\x07' % (i % 100))\nsys.stdout.flush()\nprint('MARKS-DONE')\nsys.stdin.read()",
      ],
    });
    const id = made.reply.id as string;
    let peak = rssBytes(daemon);
    const sampling = setInterval(() => (peak = Math.max(peak, rssBytes(daemon))), 100);
    try {
      expect((await box.request({ cmd: "wait", id, text: "MARKS-DONE", timeout_ms: 120_000 })).reply.ok).toBe(true);
    } finally {
      clearInterval(sampling);
    }
    console.log(
      `20 unread event streams, 600 000 command events: daemon RSS ${Math.round(before / MB)} MB before, peak ${Math.round(peak / MB)} MB`,
    );
    // Each stream holds at most 1 MB of events for its reader (then drops them and says so);
    // unbounded, each held every event: +1131 MB for these 600 000, growing with every event. What
    // is left is the heap's churn of encoding them (+250 MB measured).
    expect((peak - before) / MB).toBeLessThan(700);
    await box.request({ cmd: "kill", id });
  } finally {
    holder.kill("SIGKILL");
    await holder.exited;
    await box.cleanup();
  }
}, 240_000);
