import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allowed, allowEntryProblem, startProxy } from "./proxy.ts";

test("allow-list patterns: a name exactly, *.domain for its subdomains only, never a look-alike", () => {
  const list = ["api.example.com", "*.corp.test"];
  expect(allowed("api.example.com", list)).toBe(true);
  expect(allowed("API.Example.com.", list)).toBe(true);
  expect(allowed("x.api.example.com", list)).toBe(false);
  expect(allowed("a.corp.test", list)).toBe(true);
  expect(allowed("a.b.corp.test", list)).toBe(true);
  expect(allowed("corp.test", list)).toBe(false);
  expect(allowed("evilcorp.test", list)).toBe(false);
  expect(allowEntryProblem("*.corp.test")).toBeUndefined();
  expect(allowEntryProblem("10.0.0.1")).toBeUndefined();
  for (const bad of ["a b", "*", "*.", "http://x", "x/y", "a..b"]) expect(allowEntryProblem(bad)).toBeString();
});

test("an allowed name that resolves to this machine is refused: no way to local services by DNS", async () => {
  const dir = mkdtempSync(join(tmpdir(), "t4a-proxy-"));
  const proxy = await startProxy(join(dir, "p.sock"), { allow: ["localhost"] });
  try {
    const answer = await new Promise<string>((resolve) => {
      let text = "";
      const socket = createConnection(join(dir, "p.sock"), () => socket.write("CONNECT localhost:22 HTTP/1.1\r\nhost: localhost:22\r\n\r\n"));
      socket.on("data", (chunk) => (text += chunk.toString()));
      socket.on("close", () => resolve(text));
    });
    expect(answer).toStartWith("HTTP/1.1 403");
    expect(answer).toContain("resolves to 127.0.0.1, a local address");
  } finally {
    proxy.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A server that answers with the number of body bytes it got, once it has all content-length says. */
async function countingServer(): Promise<{ port: number; close(): void }> {
  const server = createServer((socket) => {
    let received = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(received.subarray(0, end).toString())?.[1]);
      const body = received.length - end - 4;
      if (body >= length) socket.end(`HTTP/1.1 200 OK\r\ncontent-length: ${String(body).length}\r\n\r\n${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}

/** Sends a request through the proxy in parts, each `after` event-loop turns after the one before; answers the reply. */
function through(proxyPath: string, parts: Array<{ data: string; after: number }>): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const socket = createConnection(proxyPath, async () => {
      for (const part of parts) {
        // `after` turns of the event loop: the window is a few of them wide.
        for (let turn = 0; turn < part.after; turn++) await new Promise((resolve) => setImmediate(resolve));
        socket.write(part.data);
      }
    });
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("close", () => resolve(text));
    // Not a timing threshold: a lost chunk leaves the server waiting forever; this ends the wait.
    setTimeout(() => socket.destroy(), 5_000);
  });
}

test("a request body reaches the server whole: a head and body past 64 KB in one read, and a tail sent while the proxy connects upstream (claude's first request hung)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "t4a-proxy-"));
  const server = await countingServer();
  const proxy = await startProxy(join(dir, "p.sock"), { allow: ["127.0.0.1"] });
  const head = (length: number) => `POST http://127.0.0.1:${server.port}/v1/messages HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\ncontent-length: ${length}\r\n\r\n`;
  try {
    const big = "x".repeat(4 * 1024 * 1024);
    expect(await through(join(dir, "p.sock"), [{ data: head(big.length) + big, after: 0 }])).toEndWith(`\r\n\r\n${big.length}`);
    // The tail lands in the window between the head read and the upstream connect at one of
    // these delays (before the fix, 2 turns hung here, every run).
    for (let after = 0; after < 12; after++) {
      const answer = await through(join(dir, "p.sock"), [{ data: `${head(20_000)}${"y".repeat(10_000)}`, after: 0 }, { data: "z".repeat(10_000), after }]);
      expect(answer, `tail sent ${after} turns later`).toEndWith("\r\n\r\n20000");
    }
  } finally {
    proxy.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
