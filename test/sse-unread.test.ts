// An event stream (SSE) whose reader stops reading through a flood, past Bun.serve's 10 s idle
// limit, is not closed: the reader reads on and is told it lagged (issue 57). Out of
// test/slow-readers.test.ts's serial phase: it measures no RSS, and mostly waits.
import { expect, test } from "bun:test";
import { BIN, Sandbox } from "./harness.ts";

test("an event stream (SSE) unread through a flood and past Bun's 10 s idle limit is not closed: its reader reads on, and reads that it lagged (issue 57)", async () => {
  const box = new Sandbox();
  const state = `${box.dir}/state`;
  const env = { ...box.env, XDG_STATE_HOME: state };
  const web = Bun.spawnSync([BIN, "web", "--listen", "127.0.0.1:0"], { env, stdout: "pipe", stderr: "pipe" });
  expect(web.exitCode).toBe(0);
  const base = new URL(web.stdout.toString().trim());
  const token = (await Bun.file(`${state}/t4a/web/token`).text()).trim();
  const go = `${box.dir}/read-now`;
  // One stream that reads nothing until told, then reads what it is sent until 3 s of quiet.
  // (No small SO_RCVBUF: shrunk after connect, the kernel's zero-window probes back off for seconds.)
  const reader = Bun.spawn(
    [
      "python3",
      "-c",
      `import os, socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(("GET /api/events HTTP/1.1\\r\\nHost: 127.0.0.1:%s\\r\\nAuthorization: Bearer %s\\r\\n\\r\\n" % (sys.argv[1], sys.argv[2])).encode())
print("SENT", flush=True)
while not os.path.exists(sys.argv[3]): time.sleep(0.05)
s.settimeout(3)
got = b""
try:
    while True:
        chunk = s.recv(65536)
        if not chunk: break
        got += chunk
except (socket.timeout, ConnectionError) as error:
    sys.stderr.write("reader: %r\\n" % error)
print(len(got), got.count(b'"event":"lagged"'), flush=True)`,
      base.port,
      token,
      go,
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  try {
    const out = reader.stdout.getReader();
    expect(new TextDecoder().decode((await out.read()).value)).toContain("SENT");
    // Far more events than the socket's buffers and the stream's 1 MB hold, then none.
    const made = await box.request({
      cmd: "create",
      cmd_args: [
        "python3",
        "-c",
        "import sys\nfor i in range(300000): sys.stdout.write('\\x1b]133;C\\x07\\x1b]133;D;%d\\x07' % (i % 100))\nsys.stdout.flush()\nprint('MARKS-DONE')\nsys.stdin.read()",
      ],
    });
    const id = made.reply.id as string;
    expect((await box.request({ cmd: "wait", id, text: "MARKS-DONE", timeout_ms: 120_000 })).reply.ok).toBe(true);
    // Unread past Bun.serve's 10 s idle limit: the server ends the stream while it lags.
    await Bun.sleep(15_000);
    await Bun.write(go, "");
    let said = "";
    for (let chunk = await out.read(); !chunk.done && !/\d+ \d+\n/.test(said); chunk = await out.read())
      said += new TextDecoder().decode(chunk.value);
    const [bytes, lagged] = /(\d+) (\d+)\n/.exec(said)!.slice(1).map(Number);
    console.log(
      `an unread SSE stream: ${bytes} bytes read after the flood, ${lagged} lagged notice(s) (${JSON.stringify(said)})`,
    );
    expect(bytes).toBeGreaterThan(0);
    expect(lagged).toBeGreaterThanOrEqual(1);
    await box.request({ cmd: "kill", id });
  } finally {
    reader.kill("SIGKILL");
    await reader.exited;
    await box.cleanup();
  }
}, 240_000);
