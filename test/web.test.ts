// The web server from outside: every gate tried (no token, a wrong Origin, a rebinding Host,
// read-only), seed 002's issue flow against a real bare repo, and the page in a real browser
// (Debian's chromium, headless, driven by playwright-core): list, create, type, resize, reload,
// two pages at once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Sandbox, waitFor } from "./harness.ts";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));
let sandbox: Sandbox;
let base: string;
let token: string;
let repos: string;
let fakeBin: string;

function env(): Record<string, string> {
  return {
    ...sandbox.env,
    XDG_STATE_HOME: join(sandbox.dir, "state"),
    PATH: `${fakeBin}:${process.env.PATH}`,
    HOME: join(sandbox.dir, "home"),
  };
}

async function t4a(args: string[]) {
  const child = Bun.spawn([resolve(import.meta.dir, "../dist/t4a"), ...args], {
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

function sh(cwd: string, script: string): string {
  const result = Bun.spawnSync(["bash", "-c", script], {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });
  if (result.exitCode !== 0) throw new Error(`${script}: ${result.stderr}`);
  return result.stdout.toString().trim();
}

const auth = () => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  sandbox = new Sandbox();
  repos = join(sandbox.dir, "code");
  fakeBin = join(sandbox.dir, "fake-bin");
  for (const dir of [repos, fakeBin, join(sandbox.dir, "home")]) mkdirSync(dir, { recursive: true });
  symlinkSync(resolve(import.meta.dir, "fixtures/fake-agent.py"), join(fakeBin, "claude"));
  writeFileSync(join(sandbox.dir, "home", ".bash_profile"), `export PATH=${fakeBin}:$PATH\n`);
  // A bare repo as origin, and its clone where the web server looks for it.
  sh(
    sandbox.dir,
    `git init -q --bare origin.git && git clone -q origin.git ${repos}/widget 2>/dev/null && cd ${repos}/widget && echo hi > README && git add README && git commit -qm init && git push -q origin HEAD`,
  );
  const started = await t4a(["web", "--listen", "127.0.0.1:0", "--repos", repos]);
  expect(started.code).toBe(0);
  base = started.stdout.replace(/\/\?login=.*$/, "");
  token = readFileSync(join(sandbox.dir, "state", "t4a", "web", "token"), "utf8").trim();
});
afterAll(() => sandbox.cleanup());

test("every route wants the token; the token file is private; no CORS headers", async () => {
  for (const path of ["/api/sessions", "/api/info", "/", "/anything"])
    expect((await fetch(`${base}${path}`)).status).toBe(401);
  expect((await fetch(`${base}/api/sessions`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
  const ok = await fetch(`${base}/api/sessions`, { headers: auth() });
  expect(ok.status).toBe(200);
  expect(ok.headers.get("access-control-allow-origin")).toBeNull();
  expect(readFileSync(join(sandbox.dir, "state", "t4a", "web", "token"), "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
  const { statSync } = await import("node:fs");
  expect(statSync(join(sandbox.dir, "state", "t4a", "web", "token")).mode & 0o777).toBe(0o600);
  // The daemon's log never holds the token.
  expect(readFileSync(join(sandbox.dir, "run", "t4a.log"), "utf8")).not.toContain(token);
});

test("the one-time login URL sets an HttpOnly SameSite=Strict cookie, once", async () => {
  const login = (await t4a(["web"])).stdout;
  const first = await fetch(login, { redirect: "manual" });
  expect(first.status).toBe(302);
  const cookie = first.headers.get("set-cookie")!;
  expect(cookie).toContain("HttpOnly");
  expect(cookie).toContain("SameSite=Strict");
  const key = /#t4a-key=([0-9a-f]{64})$/.exec(first.headers.get("location") ?? "")?.[1];
  expect(key).toBeDefined();
  expect(
    (
      await fetch(`${base}/api/sessions`, {
        headers: { cookie: cookie.split(";")[0]!, "x-t4a-key": key!, "sec-fetch-site": "same-origin" },
      })
    ).status,
  ).toBe(200);
  expect((await fetch(login, { redirect: "manual" })).status).toBe(403); // used up
});

test("a rebinding Host, a foreign Origin: 403, and no WebSocket", async () => {
  expect((await fetch(`${base}/api/sessions`, { headers: { ...auth(), host: "evil.example" } })).status).toBe(403);
  const created = await fetch(`${base}/api/sessions`, {
    method: "POST",
    headers: { ...auth(), origin: "http://evil.example", "content-type": "application/json" },
    body: "{}",
  });
  expect(created.status).toBe(403);
  expect(
    ((await (await fetch(`${base}/api/sessions`, { headers: auth() })).json()) as { terminals: unknown[] }).terminals,
  ).toEqual([]);
  const id = (await t4a(["create", "--", "sleep", "100"])).stdout;
  const refused = await fetch(`${base}/api/sessions/${id}/terminal`, {
    headers: {
      ...auth(),
      origin: "http://evil.example",
      upgrade: "websocket",
      connection: "Upgrade",
      "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
      "sec-websocket-version": "13",
    },
  });
  expect(refused.status).toBe(403);
  // The same upgrade from our own origin is accepted.
  const socket = new WebSocket(`${base.replace("http", "ws")}/api/sessions/${id}/terminal`, {
    headers: { ...auth(), origin: base },
  } as unknown as string[]);
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error("refused"));
  });
  socket.close();
  await t4a(["kill", id]);
});

test("REST from the command table: create 201, text, send, screenshot, events (SSE), errors with wire codes", async () => {
  const created = await fetch(`${base}/api/sessions`, {
    method: "POST",
    headers: { ...auth(), "content-type": "application/json" },
    body: JSON.stringify({ cmd_args: ["bash", "--norc", "--noprofile"], name: "rest" }),
  });
  expect(created.status).toBe(201);
  expect(await created.json()).toMatchObject({ id: "rest", cols: 80 });
  const events = await fetch(`${base}/api/sessions/rest/events`, { headers: auth() });
  expect(events.headers.get("content-type")).toBe("text/event-stream");
  const reader = events.body!.getReader();
  expect(
    (
      await fetch(`${base}/api/sessions/rest/send`, {
        method: "POST",
        headers: auth(),
        body: JSON.stringify({ input: "echo via-rest; printf '\\a'\n" }),
      })
    ).status,
  ).toBe(200);
  let sse = "";
  await waitFor(
    async () => {
      sse += new TextDecoder().decode((await reader.read()).value);
      return sse.includes('"event":"bell"');
    },
    10_000,
    "a bell over SSE",
  );
  await reader.cancel();
  await waitFor(
    async () =>
      (
        (await (await fetch(`${base}/api/sessions/rest/text?tail=3`, { headers: auth() })).json()) as {
          lines: string[];
        }
      ).lines.includes("via-rest"),
    10_000,
    "the text",
  );
  const png = await fetch(`${base}/api/sessions/rest/screenshot.png?scale=50`, { headers: auth() });
  expect(png.headers.get("content-type")).toBe("image/png");
  expect(new Uint8Array(await png.arrayBuffer()).subarray(1, 4)).toEqual(new TextEncoder().encode("PNG"));
  const one = await (await fetch(`${base}/api/sessions/rest`, { headers: auth() })).json();
  expect(one).toMatchObject({ id: "rest", state: "running" });
  expect((await fetch(`${base}/api/sessions/nope/text`, { headers: auth() })).status).toBe(404);
  const bad = await fetch(`${base}/api/sessions/rest/resize`, {
    method: "POST",
    headers: auth(),
    body: JSON.stringify({ cols: 5000, rows: 1 }),
  });
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ ok: false, code: "invalid_params" });
  expect(await (await fetch(`${base}/api/sessions/rest`, { method: "DELETE", headers: auth() })).json()).toEqual({
    status: "stopped",
  });
});

test("seed 002's issue flow: POST {repo, issue} → worktree, branch, agent; again → 200; DELETE cleans up", async () => {
  const launch = () =>
    fetch(`${base}/api/sessions`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ repo: { owner: "acme", name: "widget" }, issue: 42 }),
    });
  const first = await launch();
  expect(first.status).toBe(201);
  const session = await first.json();
  expect(session).toMatchObject({
    id: "widget-42",
    repo: { owner: "acme", name: "widget" },
    issue: 42,
    worktree: join(repos, "widget-issue-42"),
    branch: "feat/issue-42",
    agent: "claude",
  });
  expect(sh(join(repos, "widget-issue-42"), "git branch --show-current")).toBe("feat/issue-42");
  await waitFor(
    async () =>
      (await t4a(["text", "widget-42"])).stdout.includes(
        "working on: Work on acme/widget#42. Start by running: gh issue view 42 -R acme/widget",
      ),
    15_000,
    "the agent's prompt",
  );
  expect((await launch()).status).toBe(200);
  const deleted = await (await fetch(`${base}/api/sessions/widget-42`, { method: "DELETE", headers: auth() })).json();
  expect(deleted).toEqual({ status: "stopped" });
  expect(existsSync(join(repos, "widget-issue-42"))).toBe(false);
  expect(sh(join(repos, "widget"), "git branch --list 'feat/*'")).toBe("");
});

test("read-only: input and changes refused, reading allowed", async () => {
  const ro = new Sandbox();
  try {
    const child = Bun.spawnSync(
      [resolve(import.meta.dir, "../dist/t4a"), "web", "--listen", "127.0.0.1:0", "--read-only"],
      { env: { ...ro.env, XDG_STATE_HOME: join(ro.dir, "state") } },
    );
    const roBase = child.stdout
      .toString()
      .trim()
      .replace(/\/\?login=.*$/, "");
    const roToken = readFileSync(join(ro.dir, "state", "t4a", "web", "token"), "utf8").trim();
    const id = await ro.ok(["create", "--", "cat"]);
    const headers = { authorization: `Bearer ${roToken}` };
    expect((await fetch(`${roBase}/api/sessions`, { headers })).status).toBe(200);
    expect(
      (
        await fetch(`${roBase}/api/sessions/${id}/send`, {
          method: "POST",
          headers,
          body: JSON.stringify({ input: "x" }),
        })
      ).status,
    ).toBe(403);
    expect((await fetch(`${roBase}/api/sessions/${id}`, { method: "DELETE", headers })).status).toBe(403);
    // Over the WebSocket, keys go nowhere.
    const socket = new WebSocket(`${roBase.replace("http", "ws")}/api/sessions/${id}/terminal`, {
      headers,
    } as unknown as string[]);
    await new Promise<void>((resolve) => (socket.onopen = () => resolve()));
    socket.send(new TextEncoder().encode("typed-by-a-viewer\r"));
    // Once the daemon has seen the socket close it has handled what came before; a marker typed
    // after that reaches the shell after anything the viewer's keys could have typed.
    socket.close();
    await waitFor(async () => (await ro.viewers(id)) === 0, 10_000, "the viewer to be gone");
    await ro.request({ cmd: "send", id, input: "marker-after-close\r" });
    await waitFor(async () => (await ro.screen(id)).includes("marker-after-close"), 10_000, "the marker");
    expect(await ro.screen(id)).not.toContain("typed-by-a-viewer");
  } finally {
    await ro.cleanup();
  }
});

test.if(Bun.which("openssl") !== null)("--tls-cert/--tls-key: HTTPS, and the login cookie is Secure", async () => {
  const tls = new Sandbox();
  try {
    const [cert, key] = [join(tls.dir, "cert.pem"), join(tls.dir, "key.pem")];
    expect(
      Bun.spawnSync(
        [
          "openssl",
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-keyout",
          key,
          "-out",
          cert,
          "-subj",
          "/CN=127.0.0.1",
          "-days",
          "1",
        ],
        { stderr: "ignore" },
      ).exitCode,
    ).toBe(0);
    const started = Bun.spawnSync(
      [resolve(import.meta.dir, "../dist/t4a"), "web", "--listen", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key],
      { env: { ...tls.env, XDG_STATE_HOME: join(tls.dir, "state") } },
    );
    const login = started.stdout.toString().trim();
    expect(login).toStartWith("https://127.0.0.1:");
    const response = await fetch(login, { redirect: "manual", tls: { rejectUnauthorized: false } } as RequestInit);
    expect(response.status).toBe(302);
    expect(response.headers.get("set-cookie")).toContain("; Secure");
    // Plain HTTP to the TLS port gets nothing useful.
    expect(
      await fetch(login.replace("https:", "http:"), { redirect: "manual" }).then(
        (r) => r.status,
        () => "refused",
      ),
    ).not.toBe(302);
  } finally {
    await tls.cleanup();
  }
});

test.if(CHROMIUM !== undefined)(
  "in chromium: log in, list, create bash from the form at the window's size, type, another size leaves it, reload, two pages",
  async () => {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
      const page = await context.newPage();
      await page.goto((await t4a(["web"])).stdout);
      await page.waitForSelector("#new");
      await page.click("#new");
      // A sandbox with no directory would run in the home (refused): the form asks for one first.
      await page.check("input[name=sandbox]");
      await page.click("#create button[type=submit]");
      expect(await page.textContent("#create-error")).toContain("A sandbox needs a project directory");
      await page.uncheck("input[name=sandbox]");
      await page.fill("input[name=command]", "bash --norc --noprofile");
      await page.click("#create button[type=submit]");
      await page.waitForSelector(".xterm-screen", { timeout: 5000 }).catch(async (error) => {
        throw new Error(
          `${error.message}; page says: ${await page.textContent("#create-error")} / ${await page.textContent("#status")}`,
        );
      });
      await page.waitForFunction(() => document.querySelector("#terminal-state")?.textContent === "connected");
      await page.waitForFunction(() => document.querySelectorAll(".xterm-rows > div").length > 0);
      const id = decodeURIComponent(new URL(page.url()).hash.replace("#/t/", ""));
      await waitFor(async () => /[$#]$/.test((await t4a(["text", id, "--tail", "1"])).stdout), 10_000, "the prompt");
      await page.keyboard.type("echo hello-web-$((6*7))");
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        () => (document.querySelector(".xterm-rows")?.textContent ?? "").includes("hello-web-42"),
        undefined,
        { timeout: 10_000 },
      );
      await waitFor(
        async () => (await t4a(["text", id])).stdout.includes("\nhello-web-42"),
        10_000,
        "t4a text to show it",
      );

      // Keystroke to echo on the page: measured, reported.
      const latencies: number[] = [];
      for (let i = 0; i < 20; i++) {
        const marker = String.fromCharCode(97 + (i % 26));
        latencies.push(
          await page.evaluate(async (ch) => {
            const rows = () => document.querySelector(".xterm-rows")?.textContent ?? "";
            const before = rows().split(ch).length;
            const started = performance.now();
            const textarea = document.querySelector(".xterm-helper-textarea") as HTMLTextAreaElement;
            textarea.dispatchEvent(new KeyboardEvent("keydown", { key: ch, bubbles: true }));
            textarea.value = ch;
            textarea.dispatchEvent(new InputEvent("input", { data: ch, inputType: "insertText", bubbles: true }));
            while (rows().split(ch).length <= before) await new Promise((r) => requestAnimationFrame(r));
            return performance.now() - started;
          }, marker),
        );
      }
      latencies.sort((a, b) => a - b);
      // The same without drawing: a key over the page's WebSocket to its echo coming back.
      const roundTrips = await page.evaluate(async (sessionId) => {
        // The page's login key, offered as the page itself does (a WebSocket cannot set headers).
        const socket = new WebSocket(`ws://${location.host}/api/sessions/${encodeURIComponent(sessionId)}/terminal`, [
          "t4a",
          `t4a-key.${sessionStorage.getItem("t4a-key")}`,
        ]);
        socket.binaryType = "arraybuffer";
        // The first message is the screen replay: the round trips start after it.
        await new Promise((resolve) => (socket.onmessage = resolve));
        const times: number[] = [];
        for (let i = 0; i < 50; i++) {
          const ch = "abcdefghijklmnopqrstuvwxyz"[i % 26]!;
          const started = performance.now();
          const echoed = new Promise<void>((resolve) => {
            socket.onmessage = (event) => {
              if (typeof event.data !== "string" && new TextDecoder().decode(event.data).includes(ch)) resolve();
            };
          });
          socket.send(new TextEncoder().encode(ch));
          await echoed;
          times.push(performance.now() - started);
        }
        socket.close();
        return times.sort((a, b) => a - b);
      }, id);
      console.log(
        `keystroke → echo: over the page's WebSocket p50 ${roundTrips[25]!.toFixed(1)} ms (p95 ${roundTrips[47]!.toFixed(1)}); ` +
          `drawn by xterm.js p50 ${latencies[10]!.toFixed(1)} ms (includes waiting for an animation frame)`,
      );
      await page.keyboard.press("Control+U");

      // A session made here took this window's size; another window does not change it (Fit would).
      const size = async () =>
        JSON.parse((await t4a(["list", "--json"])).stdout).terminals.find((t: { id: string }) => t.id === id) as {
          cols: number;
          rows: number;
        };
      const created = await waitFor(
        async () => {
          const now = await size();
          return now.cols < 120 && now;
        },
        10_000,
        "the new session to take the window's size",
      );
      await page.setViewportSize({ width: 700, height: 500 });
      await Bun.sleep(300);
      expect(await size()).toMatchObject({ cols: created.cols, rows: created.rows });

      // Reload: the screen comes back from the daemon.
      await page.reload();
      await page.waitForFunction(
        () => (document.querySelector(".xterm-rows")?.textContent ?? "").includes("hello-web-42"),
        undefined,
        { timeout: 10_000 },
      );

      // A second page (a tab of its own, so a login of its own: the key lives in each tab) sees what the first types.
      const second = await context.newPage();
      await second.goto((await t4a(["web"])).stdout);
      await second.waitForSelector("#new");
      await second.evaluate((hash) => (location.hash = hash), `#/t/${encodeURIComponent(id)}`);
      await second.waitForFunction(
        () => document.querySelector("#terminal-state")?.textContent === "connected",
        undefined,
        { timeout: 10_000 },
      );
      await page.click(".xterm-screen");
      await page.keyboard.type("echo both-see-$((2+3))");
      await page.keyboard.press("Enter");
      await second.waitForFunction(
        () => (document.querySelector(".xterm-rows")?.textContent ?? "").includes("both-see-5"),
        undefined,
        { timeout: 10_000 },
      );
      await page.screenshot({ path: join(sandbox.dir, "web-page.png") });
      // Back to the list: the session is there, with its state.
      await page.click("#back");
      await page.waitForSelector(`#sessions li[data-id="${id}"] .state`);
      expect(await page.textContent(`#sessions li[data-id="${id}"] .state`)).toMatch(/running|attached/);
      await t4a(["kill", id]);
    } finally {
      await browser.close();
    }
  },
  120_000,
);

if (CHROMIUM === undefined) console.log("skipped: the browser test needs Debian's chromium (.ci/run installs it)");
