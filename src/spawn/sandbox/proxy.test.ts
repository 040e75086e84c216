import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
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
