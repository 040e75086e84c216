// Attacks on the web server (issue 22): a leaked cookie, a page on another port of 127.0.0.1
// (same site: it receives the cookie and may try to frame the UI), cross-site requests carrying
// the cookie, a huge body, a malformed path, malformed WebSocket control messages, and a server
// on all interfaces that must answer at the names it prints. Each tries to get in and fails.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { Sandbox, waitFor } from "../harness.ts";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));
let sandbox: Sandbox;
let base: string;
let token: string;

const env = () => ({ ...sandbox.env, XDG_STATE_HOME: join(sandbox.dir, "state"), HOME: sandbox.dir });
async function t4a(args: string[]) {
  const child = Bun.spawn([join(import.meta.dir, "../../dist/t4a"), ...args], { cwd: sandbox.dir, env: env(), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

/** Logs in as a browser would and answers the cookie it got (name=value). */
async function login(): Promise<string> {
  const response = await fetch((await t4a(["web"])).stdout, { redirect: "manual", headers: { "user-agent": "attack-test" } });
  expect(response.status).toBe(302);
  return response.headers.get("set-cookie")!.split(";")[0]!;
}

beforeAll(async () => {
  sandbox = new Sandbox();
  const started = await t4a(["web", "--listen", "127.0.0.1:0"]);
  expect(started.code).toBe(0);
  base = started.stdout.replace(/\/\?login=.*$/, "");
  token = readFileSync(join(sandbox.dir, "state", "t4a", "web", "token"), "utf8").trim();
});
afterAll(() => sandbox.cleanup());

test("the cookie is a login of its own, never the token; it expires, and --logout-all ends every one", async () => {
  const cookie = await login();
  const [name, value] = cookie.split("=");
  expect(name).toBe(`t4a_login_${new URL(base).port}`);
  expect(value).not.toBe(token);
  expect(readFileSync(join(sandbox.dir, "state", "t4a", "web", "logins.json"), "utf8")).not.toContain(value!); // kept hashed
  expect((await fetch(`${base}/api/sessions`, { headers: { cookie } })).status).toBe(200);
  // The API token as a cookie is nothing.
  expect((await fetch(`${base}/api/sessions`, { headers: { cookie: `${name}=${token}` } })).status).toBe(401);
  expect((await t4a(["web"])).stderr).toContain("1 browser login");
  const revoked = await t4a(["web", "--logout-all"]);
  expect(revoked.stderr).toContain("ended 1 browser login");
  expect((await fetch(`${base}/api/sessions`, { headers: { cookie } })).status).toBe(401);
  // An expired login is refused too (the file's clock moved back a week).
  const again = await login();
  const path = join(sandbox.dir, "state", "t4a", "web", "logins.json");
  const logins = JSON.parse(readFileSync(path, "utf8")) as Record<string, { expires: number }>;
  for (const entry of Object.values(logins)) entry.expires = Date.now() - 1;
  writeFileSync(path, JSON.stringify(logins));
  expect((await fetch(`${base}/api/sessions`, { headers: { cookie: again } })).status).toBe(401);
  // Scripts with the token are not browsers: no login needed.
  expect((await fetch(`${base}/api/sessions`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
});

test("a request carrying the cookie from anywhere but our own page is refused (Sec-Fetch-Site)", async () => {
  const cookie = await login();
  const as = (site: string, path = "/api/sessions", method = "GET") => fetch(`${base}${path}`, { method, headers: { cookie, "sec-fetch-site": site }, redirect: "manual" }).then((r) => r.status);
  expect(await as("same-origin")).toBe(200);
  expect(await as("same-site")).toBe(403); // another port of 127.0.0.1
  expect(await as("cross-site")).toBe(403);
  expect(await as("none")).toBe(403); // a typed URL may load the page, not call the API
  expect(await as("none", "/")).toBe(200);
  expect(await as("same-site", "/")).toBe(403);
  expect(await as("same-site", "/api/sessions", "POST")).toBe(403);
  expect(((await (await fetch(`${base}/api/sessions`, { headers: { cookie } })).json()) as { terminals: unknown[] }).terminals).toEqual([]);
});

test("every answer forbids framing and loading from elsewhere", async () => {
  const cookie = await login();
  for (const [path, headers] of [["/", { cookie }], ["/api/sessions", { cookie }], ["/api/sessions", {}], ["/nope", {}]] as const) {
    const response = await fetch(`${base}${path}`, { headers });
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  }
});

test("a 40 MB body, a malformed path, a malformed control message: refused cleanly, nothing typed, the server still serves", async () => {
  const auth = { authorization: `Bearer ${token}` };
  const big = await fetch(`${base}/api/sessions`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: `{"cmd_args":["true"],"env":{"X":"${"x".repeat(40 * 1024 * 1024)}"}}` }).then(
    (r) => r.status,
    () => "closed",
  );
  expect([413, "closed"]).toContain(big);
  const bad = await fetch(`${base}/api/sessions/%ZZ/text`, { headers: auth });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ ok: false, code: "bad_request" });
  expect(readFileSync(join(sandbox.dir, "run", "t4a.log"), "utf8")).not.toContain("internal error");

  const id = (await t4a(["create", "--", "bash", "--norc", "--noprofile"])).stdout;
  await waitFor(async () => /[$#] ?$/.test((await t4a(["text", id, "--tail", "1"])).stdout), 10_000, "the prompt");
  const socket = new WebSocket(`${base.replace("http", "ws")}/api/sessions/${id}/terminal`, { headers: { ...auth, origin: base } } as unknown as string[]);
  await new Promise<void>((resolve, reject) => ((socket.onopen = () => resolve()), (socket.onerror = () => reject(new Error("refused")))));
  for (const message of ["\x01NaN;NaN", "\x01-5;10", "\x01;", "\x0199999;1", "\x01" + "1".repeat(5000)]) socket.send(message);
  socket.send("\x01100;30");
  socket.send("echo typed-after\r");
  await waitFor(async () => (await t4a(["text", id])).stdout.includes("\ntyped-after"), 10_000, "the text after them");
  const screen = (await t4a(["text", id])).stdout;
  expect(screen).not.toContain("NaN");
  expect(screen).not.toContain("-5;10");
  expect(JSON.parse((await t4a(["list", "--json"])).stdout).terminals[0]).toMatchObject({ cols: 100, rows: 30 });
  socket.close();
  await t4a(["kill", id]);
});

test.if(CHROMIUM !== undefined)("in chromium: a page on another port of 127.0.0.1 gets a login (not the token) and cannot frame the UI", async () => {
  const { chromium } = await import("playwright-core");
  let seenCookie = "";
  const evil = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      seenCookie = request.headers.get("cookie") ?? "";
      return new Response(`<iframe id="ui" src="${base}/" width="800" height="600"></iframe>`, { headers: { "content-type": "text/html" } });
    },
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
  try {
    const page = await browser.newPage();
    await page.goto((await t4a(["web"])).stdout);
    await page.waitForSelector("#new");
    await page.goto(`http://127.0.0.1:${evil.port}/`);
    await page.waitForSelector("#ui");
    await page.waitForTimeout(500); // the frame's navigation settles (blocked, or not)
    // Cookies are not port-scoped: the other server sees the login cookie, never the API token.
    expect(seenCookie).toContain(`t4a_login_${new URL(base).port}=`);
    expect(seenCookie).not.toContain(token);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    const framedApp = frame ? await frame.$("#new").catch(() => null) : null;
    expect(framedApp).toBeNull();
  } finally {
    await browser.close();
    evil.stop(true);
  }
}, 60_000);

test("listening on every interface: the printed URL works, and so does each address it says it answers to", async () => {
  const all = await t4a(["web", "--listen", "0.0.0.0:0"]);
  expect(all.code).toBe(0);
  const url = all.stdout.replace(/\/\?login=.*$/, "");
  expect(url).toStartWith("http://127.0.0.1:");
  const port = new URL(url).port;
  const auth = { authorization: `Bearer ${token}` };
  expect((await fetch(`${url}/api/sessions`, { headers: auth })).status).toBe(200);
  const lan = Object.values(networkInterfaces()).flatMap((list) => list ?? []).find((entry) => entry.family === "IPv4" && !entry.internal);
  if (lan) {
    expect(all.stderr).toContain(lan.address);
    expect((await fetch(`http://${lan.address}:${port}/api/sessions`, { headers: auth })).status).toBe(200);
  }
  expect((await fetch(`${url}/api/sessions`, { headers: { ...auth, host: "evil.example" } })).status).toBe(403);
  await t4a(["web", "--stop"]);
});

test("no HTTP request chooses the environment the daemon runs programs with (client_env: PATH, XDG_CONFIG_HOME)", async () => {
  // What an attacker can write: a directory of fake CLIs and an agents.json naming one of them.
  const evil = join(sandbox.dir, "evil");
  const marker = join(sandbox.dir, "evil-ran");
  mkdirSync(join(evil, "config", "t4a"), { recursive: true });
  for (const cli of ["claude", "codex", "gemini", "qwen", "opencode", "evil"]) {
    writeFileSync(join(evil, cli), `#!/bin/sh\necho ${cli} >> ${marker}\necho 1.0\n`, { mode: 0o755 });
  }
  writeFileSync(join(evil, "config", "t4a", "agents.json"), JSON.stringify({ evil: { cli: join(evil, "evil") } }));
  const auth = { authorization: `Bearer ${token}` };
  const asked = [
    fetch(`${base}/api/agents?client_env=${encodeURIComponent(JSON.stringify({ PATH: evil }))}`, { headers: auth }),
    fetch(`${base}/api/agents?check=true&client_env=${encodeURIComponent(JSON.stringify({ PATH: "/usr/bin:/bin", XDG_CONFIG_HOME: join(evil, "config") }))}`, { headers: auth }),
    fetch(`${base}/api/sessions`, { method: "POST", headers: { ...auth, "content-type": "application/json", origin: base }, body: JSON.stringify({ agent: "evil", client_env: { PATH: evil, XDG_CONFIG_HOME: join(evil, "config") } }) }),
  ];
  const answers = await Promise.all(asked);
  for (const answer of answers) {
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toContain("client_env");
  }
  expect(existsSync(marker)).toBe(false);
  // The daemon's own view is unchanged: no agent "evil", nothing from the attacker's PATH.
  const own = (await (await fetch(`${base}/api/agents`, { headers: auth })).json()) as { agents: Array<{ name: string; path: string | null }> };
  expect(own.agents.map((agent) => agent.name)).not.toContain("evil");
  expect(own.agents.some((agent) => agent.path?.startsWith(evil))).toBe(false);
  expect(existsSync(marker)).toBe(false);
  expect(JSON.parse((await t4a(["list", "--json"])).stdout).terminals).toEqual([]);
});
