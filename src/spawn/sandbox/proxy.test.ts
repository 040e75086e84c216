import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { allowed, allowEntryProblem, baseUrlEntry, startProxy } from "./proxy.ts";

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
      const socket = createConnection(join(dir, "p.sock"), () =>
        socket.write("CONNECT localhost:22 HTTP/1.1\r\nhost: localhost:22\r\n\r\n"),
      );
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

/**
 * Sends a request through the proxy in parts, each `after` event-loop turns after the one before; answers the reply.
 */
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

test("a request body reaches the server whole: a head and body past 64 KB in one read, " +
  "and a tail sent while the proxy connects upstream (claude's first request hung)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "t4a-proxy-"));
  const server = await countingServer();
  const proxy = await startProxy(join(dir, "p.sock"), { allow: ["127.0.0.1"] });
  const head = (length: number) =>
    `POST http://127.0.0.1:${server.port}/v1/messages HTTP/1.1\r\n` +
    `host: 127.0.0.1:${server.port}\r\ncontent-length: ${length}\r\n\r\n`;
  try {
    const big = "x".repeat(4 * 1024 * 1024);
    expect(await through(join(dir, "p.sock"), [{ data: head(big.length) + big, after: 0 }])).toEndWith(
      `\r\n\r\n${big.length}`,
    );
    // The tail lands in the window between the head read and the upstream connect at one of
    // these delays (before the fix, 2 turns hung here, every run).
    for (let after = 0; after < 12; after++) {
      const answer = await through(join(dir, "p.sock"), [
        { data: `${head(20_000)}${"y".repeat(10_000)}`, after: 0 },
        { data: "z".repeat(10_000), after },
      ]);
      expect(answer, `tail sent ${after} turns later`).toEndWith("\r\n\r\n20000");
    }
  } finally {
    proxy.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

/** One request through the proxy; answers all it got back (the proxy or the server closes). */
function ask(proxyPath: string, request: string): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const socket = createConnection(proxyPath, () => socket.write(request));
    socket.on("data", (chunk) => {
      text += chunk.toString();
      // A tunnel stays open: its answer is the proxy's status line.
      if (request.startsWith("CONNECT") && text.includes("\r\n\r\n")) socket.destroy();
    });
    socket.on("close", () => resolve(text));
    setTimeout(() => socket.destroy(), 10_000);
  });
}

/** A server that answers each request with the Host header it got. */
async function hostEcho(): Promise<{ port: number; close(): void }> {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) => new Response(`host=${request.headers.get("host")}`),
  });
  return { port: server.port!, close: () => server.stop(true) };
}

test(
  "an allowed name leading to this machine's own addresses or " +
    "to cloud metadata (IMDSv6, Alibaba's, v4-mapped) is refused",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "t4a-proxy-"));
    const own = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === "IPv4")?.address;
    const hosts: Record<string, string> = {
      "imds6.test": "fd00:ec2::254",
      "aliyun.test": "100.100.100.200",
      "mapped.test": "::ffff:169.254.169.254",
      "zero.test": "0.0.0.0",
      ...(own ? { "own.test": own } : {}),
    };
    const proxy = await startProxy(join(dir, "p.sock"), { allow: Object.keys(hosts), hosts });
    try {
      for (const [name, address] of Object.entries(hosts)) {
        const answer = await ask(join(dir, "p.sock"), `CONNECT ${name}:443 HTTP/1.1\r\nhost: ${name}:443\r\n\r\n`);
        expect(answer, name).toStartWith("HTTP/1.1 403");
        expect(answer, name).toContain(`resolves to ${address}, a local address`);
      }
    } finally {
      proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("plain HTTP: the Host header must name the URL's host (no fronting); a missing one is added", async () => {
  const dir = mkdtempSync(join(tmpdir(), "t4a-proxy-"));
  const server = await hostEcho();
  const proxy = await startProxy(join(dir, "p.sock"), { allow: ["api.test"], hosts: { "api.test": "127.0.0.1" } });
  const url = `http://api.test:${server.port}/`;
  try {
    expect(await ask(join(dir, "p.sock"), `GET ${url} HTTP/1.1\r\nHost: API.test:${server.port}\r\n\r\n`)).toEndWith(
      `host=API.test:${server.port}`,
    );
    const fronted = await ask(join(dir, "p.sock"), `GET ${url} HTTP/1.1\r\nHost: evil.test\r\n\r\n`);
    expect(fronted).toStartWith("HTTP/1.1 403");
    expect(fronted).toContain("the Host header names evil.test, not api.test");
    expect(
      await ask(join(dir, "p.sock"), `GET ${url} HTTP/1.1\r\nHost: api.test:${server.port}\r\nHost: evil.test\r\n\r\n`),
    ).toStartWith("HTTP/1.1 403");
    expect(await ask(join(dir, "p.sock"), `GET ${url} HTTP/1.0\r\n\r\n`)).toEndWith(`host=api.test:${server.port}`);
  } finally {
    proxy.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("connections per session are capped: past the cap a tunnel gets 503; one closing makes room", async () => {
  const dir = mkdtempSync(join(tmpdir(), "t4a-proxy-"));
  const server = await hostEcho();
  const proxy = await startProxy(join(dir, "p.sock"), {
    allow: ["api.test"],
    hosts: { "api.test": "127.0.0.1" },
    maxConnections: 8,
  });
  const held: Array<ReturnType<typeof createConnection>> = [];
  const tunnel = () =>
    new Promise<string>((resolve) => {
      let text = "";
      const socket = createConnection(join(dir, "p.sock"), () =>
        socket.write(`CONNECT api.test:${server.port} HTTP/1.1\r\n\r\n`),
      );
      held.push(socket);
      socket.on("data", (chunk) => {
        text += chunk.toString();
        if (text.includes("\r\n\r\n")) resolve(text.split("\r\n")[0]!);
      });
      socket.on("close", () => resolve(text.split("\r\n")[0]!));
    });
  try {
    for (let i = 0; i < 8; i++) expect(await tunnel()).toBe("HTTP/1.1 200 Connection Established");
    expect(await tunnel()).toBe("HTTP/1.1 503 Service Unavailable");
    held[0]!.destroy();
    // The closed one's place frees once the proxy has seen it close.
    let status = "";
    for (let attempt = 0; attempt < 100 && !status.includes("200"); attempt++) {
      if (attempt) await Bun.sleep(20);
      status = await tunnel();
    }
    expect(status).toBe("HTTP/1.1 200 Connection Established");
  } finally {
    for (const socket of held) socket.destroy();
    proxy.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  "a loopback entry with a port (a *_BASE_URL's local model " +
    "server) opens that port only, for 127.0.0.1 and localhost alike",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "t4a-proxy-"));
    const server = await hostEcho();
    const other = await hostEcho();
    expect(baseUrlEntry(`http://127.0.0.1:${server.port}/v1`)).toBe(`127.0.0.1:${server.port}`);
    expect(baseUrlEntry("http://localhost/v1")).toBe("localhost:80");
    expect(baseUrlEntry("https://[::1]/v1")).toBe("[::1]:443");
    expect(baseUrlEntry("https://gateway.example.com:8443/v1")).toBe("gateway.example.com");
    expect(allowEntryProblem(`127.0.0.1:${server.port}`)).toBeUndefined();
    expect(allowEntryProblem("localhost:99999")).toBeString();
    const proxy = await startProxy(join(dir, "p.sock"), {
      allow: [baseUrlEntry(`http://localhost:${server.port}/v1`)!],
    });
    try {
      for (const host of ["127.0.0.1", "localhost"]) {
        expect(
          await ask(
            join(dir, "p.sock"),
            `GET http://${host}:${server.port}/ HTTP/1.1\r\nhost: ${host}:${server.port}\r\n\r\n`,
          ),
          host,
        ).toEndWith(`host=${host}:${server.port}`);
        const refused = await ask(join(dir, "p.sock"), `CONNECT ${host}:${other.port} HTTP/1.1\r\n\r\n`);
        expect(refused, host).toStartWith("HTTP/1.1 403");
      }
    } finally {
      proxy.close();
      server.close();
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "plain HTTP: one request per connection, and the client is told so " +
    "(connection: close in the response's head), the streamed body whole",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "t4a-proxy-"));
    // As the fake model and most servers answer: HTTP/1.1 with no Connection header (kept by default), a streamed body.
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(
          new ReadableStream({
            async start(controller) {
              for (let i = 0; i < 5; i++) {
                controller.enqueue(new TextEncoder().encode(`data: part ${i}\n\n`));
                await Bun.sleep(20);
              }
              controller.close();
            },
          }),
          { headers: { "content-type": "text/event-stream", "keep-alive": "timeout=5" } },
        ),
    });
    const proxy = await startProxy(join(dir, "p.sock"), { allow: [`127.0.0.1:${server.port}`] });
    try {
      const answer = await ask(
        join(dir, "p.sock"),
        `POST http://127.0.0.1:${server.port}/v1/messages HTTP/1.1\r\n` +
          `host: 127.0.0.1:${server.port}\r\nconnection: keep-alive\r\ncontent-length: 2\r\n\r\nhi`,
      );
      const end = answer.indexOf("\r\n\r\n");
      const head = answer.slice(0, end);
      const body = answer.slice(end + 4);
      expect(head).toStartWith("HTTP/1.1 200");
      expect(head.split("\r\n").filter((line) => /^(connection|keep-alive):/i.test(line))).toEqual([
        "connection: close",
      ]);
      for (let i = 0; i < 5; i++) expect(body).toContain(`data: part ${i}`);
    } finally {
      proxy.close();
      server.stop(true);
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
