// The browser view for people running many agents, in Debian's chromium (playwright-core): who
// needs me (order, question, title and favicon count, a notification), what changed (a worktree's
// diff), Back and hash navigation, copy and paste, the daemon's scrollback, a session's size kept
// when a phone opens it, a read-only page without controls, and a daemon restart (the web server
// comes back; a session that did not says it is gone).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Sandbox, waitFor } from "./harness.ts";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));
const BIN = resolve(import.meta.dir, "../dist/t4a");
let sandbox: Sandbox;
let fakeBin: string;
let repo: string;
let browser: Browser;

function env(): Record<string, string> {
  return {
    ...sandbox.env,
    XDG_STATE_HOME: join(sandbox.dir, "state"),
    PATH: `${fakeBin}:${process.env.PATH}`,
    HOME: join(sandbox.dir, "home"),
  };
}

async function t4a(...args: string[]): Promise<string> {
  const child = Bun.spawn([BIN, ...args], { cwd: sandbox.dir, env: env(), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`t4a ${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout.trim();
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

interface Listed {
  id: string;
  cols: number;
  rows: number;
  agent_state?: string;
  worktree?: string;
  branch?: string;
  cmd_args: string[];
}

async function listed(id: string): Promise<Listed | undefined> {
  return (JSON.parse(await t4a("list", "--json")).terminals as Listed[]).find((session) => session.id === id);
}

/** A logged-in page (a fresh one-time login URL each time). */
async function openPage(
  options: Parameters<Browser["newContext"]>[0] = {},
  hash = "",
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.goto(await t4a("web"));
  if (hash) await page.evaluate((to) => (location.hash = to), hash);
  return { context, page };
}

const rowsText = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll(".xterm-rows > div")].map((row) => row.textContent ?? "").join("\n"),
  );

beforeAll(async () => {
  sandbox = new Sandbox();
  fakeBin = join(sandbox.dir, "fake-bin");
  repo = join(sandbox.dir, "repo");
  for (const dir of [fakeBin, join(sandbox.dir, "home")]) mkdirSync(dir, { recursive: true });
  symlinkSync(resolve(import.meta.dir, "fixtures/fake-agent.py"), join(fakeBin, "claude"));
  writeFileSync(join(sandbox.dir, "home", ".bash_profile"), `export PATH=${fakeBin}:$PATH\n`);
  sh(sandbox.dir, "git init -q repo && cd repo && echo hello > README.md && git add . && git commit -qm init");
  await t4a("web", "--listen", "127.0.0.1:0");
  if (CHROMIUM) {
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  }
});
afterAll(async () => {
  await browser?.close();
  await sandbox.cleanup();
});

const inChromium = test.if(CHROMIUM !== undefined);

inChromium(
  "who needs me: waiting first with its question, the count in title and favicon, a notification once allowed",
  async () => {
    await t4a("create", "--name", "calm", "--agent", "claude", "--prompt", "review it");
    await t4a("create", "--name", "plain", "--", "bash", "--norc");
    await t4a("create", "--name", "asker", "--agent", "claude", "--prompt", "please approve the edit");
    await waitFor(
      async () => (await listed("asker"))?.agent_state === "waiting" && (await listed("calm"))?.agent_state === "idle",
      20_000,
      "one agent waiting, one idle",
    );
    const { context, page } = await openPage();
    try {
      await context.grantPermissions(["notifications"]);
      // Notifications are recorded (the browser's own permission path is used as it is).
      await page.addInitScript(() => {
        const real = window.Notification;
        const shown: Array<{ title: string; body?: string }> = [];
        (window as unknown as { shown: typeof shown }).shown = shown;
        class Recorded {
          static get permission() {
            return real.permission;
          }
          static requestPermission() {
            return real.requestPermission();
          }
          constructor(title: string, options?: NotificationOptions) {
            shown.push({ title, body: options?.body });
          }
          close() {}
        }
        (window as unknown as { Notification: unknown }).Notification = Recorded;
      });
      await page.reload();
      await page.waitForSelector('#sessions li[data-id="asker"]');
      const order = await page.$$eval("#sessions li", (items) =>
        items.map((item) => `${(item as HTMLElement).dataset.id}:${(item as HTMLElement).dataset.state}`),
      );
      expect(order[0]).toBe("asker:waiting");
      expect(order.indexOf("calm:idle")).toBeGreaterThan(0);
      expect(await page.textContent('#sessions li[data-id="asker"] .question')).toContain("Do you want to proceed?");
      expect(await page.textContent('#sessions li[data-id="asker"] .state')).toMatch(/^waiting \d+ s$/);
      await page.waitForFunction(() => document.title.startsWith("(1) "));
      expect(await page.getAttribute("link[rel=icon]", "data-count")).toBe("1");
      // The last rows as text, legible: the card shows what the agent wrote.
      await page.waitForFunction(() =>
        (document.querySelector('#sessions li[data-id="calm"] .thumb')?.textContent ?? "").includes("done: review it"),
      );

      // Opt in, then a second agent starts waiting: one notification naming it and its question.
      await page.click("#notify");
      await page.waitForFunction(() => document.querySelector("#notify")?.getAttribute("aria-pressed") === "true");
      await t4a("send", "calm", "approve this too", "-k", "Enter");
      await page.waitForFunction(() => document.title.startsWith("(2) "), undefined, { timeout: 20_000 });
      const shown = await page.evaluate(
        () => (window as unknown as { shown: Array<{ title: string; body?: string }> }).shown,
      );
      expect(shown).toEqual([{ title: "calm needs you", body: expect.stringContaining("Do you want to proceed?") }]);
      // Answered: no longer waiting; its turn ends unseen, so it counts as a review (and says so) until opened.
      await t4a("approve", "calm");
      await page.waitForFunction(() => document.title === "(2) t4a: 1 waiting, 1 review", undefined, {
        timeout: 20_000,
      });
      const later = await page.evaluate(
        () => (window as unknown as { shown: Array<{ title: string; body?: string }> }).shown,
      );
      expect(later.at(-1)).toEqual({
        title: "calm finished its turn",
        body: expect.stringContaining("done: approve this too"),
      });
      await page.click('#sessions li[data-id="calm"] .thumb');
      await page.waitForFunction(() => document.title === "(1) t4a: 1 waiting");
    } finally {
      await context.close();
      for (const id of ["calm", "plain", "asker"]) await t4a("kill", id);
    }
  },
  90_000,
);

inChromium(
  "what changed: a worktree session's branch, commits, uncommitted files and diff, in the page and from t4a diff",
  async () => {
    // Made from the form: a name, a command, a directory and a worktree.
    const made = await openPage();
    await made.page.click("#new");
    await made.page.fill("input[name=name]", "worker");
    await made.page.fill("input[name=command]", "bash --norc --noprofile");
    await made.page.fill("input[name=cwd]", repo);
    await made.page.fill("input[name=worktree]", "feature");
    await made.page.click("#create button[type=submit]");
    await made.page.waitForFunction(() => location.hash === "#/t/worker");
    await made.context.close();
    const id = "worker";
    expect(await listed(id)).toMatchObject({
      worktree: expect.stringContaining("repo-feature"),
      branch: "t4a/feature",
      cmd_args: ["bash", "--norc", "--noprofile"],
    });
    await t4a(
      "send",
      id,
      "echo more >> README.md && git -c user.name=t -c user.email=t@t commit -qam 'second line' && echo new > notes.txt && echo edited >> README.md && echo ok-$((1+1))",
      "-k",
      "Enter",
    );
    await waitFor(async () => (await t4a("text", id)).includes("ok-2"), 10_000, "the commit and edits");
    const cli = JSON.parse(await t4a("diff", id, "--json"));
    expect(cli.branch).toBe("t4a/feature");
    expect(cli.commits.map((commit: { subject: string }) => commit.subject)).toEqual(["second line"]);
    expect(cli.files).toEqual([
      { status: " M", path: "README.md" },
      { status: "??", path: "notes.txt" },
    ]);
    expect(cli.diff).toContain("+more\n+edited");
    expect(cli.diff).toContain("+++ b/notes.txt\n@@ -0,0 +1 @@\n+new");
    const { context, page } = await openPage();
    try {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.click(`#sessions li[data-id="${id}"] button.changes`);
      await page.waitForSelector(".diff");
      expect(page.url()).toEndWith(`#/d/${id}`);
      expect(await page.textContent("#changes-body .commits")).toContain("second line");
      expect(await page.textContent("#changes-body .files")).toContain("notes.txt");
      expect(await page.$$eval(".diff .add", (lines) => lines.map((line) => line.textContent?.trim()))).toEqual([
        "+more",
        "+edited",
        "+new",
      ]);
      await page.click("#changes-body button.copy");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("t4a/feature");
      // Back (the page's, then the browser's) returns to the list.
      await page.click("#changes-back");
      await page.waitForSelector("#list-view:not([hidden])");
    } finally {
      await context.close();
      await t4a("kill", id);
    }
  },
  60_000,
);

inChromium(
  "the terminal: Ctrl+Shift+L and the Back button leave it, the hash opens one; copy and paste; scrollback reachable",
  async () => {
    const id = await t4a("create", "--name", "keys", "--", "bash", "--norc", "--noprofile");
    const other = await t4a("create", "--name", "other", "--", "bash", "--norc", "--noprofile");
    await t4a("send", id, "seq 1 300; printf 'copyme42\\n'", "-k", "Enter");
    await waitFor(async () => (await t4a("text", id)).includes("\ncopyme42"), 10_000, "the output");
    const { context, page } = await openPage();
    try {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.click(`#sessions li[data-id="${id}"]`);
      await page.waitForFunction(() => document.querySelector("#terminal-state")?.textContent?.startsWith("connected"));
      expect(page.url()).toEndWith(`#/t/${id}`);

      // Copy: a double-clicked word, then Ctrl+Shift+C (Ctrl+C stays the program's).
      const row = page.locator(".xterm-rows > div", { hasText: /^copyme42$/ });
      const box = (await row.boundingBox())!;
      await page.mouse.dblclick(box.x + 4, box.y + box.height / 2);
      await page.keyboard.press("Control+Shift+C");
      await waitFor(
        () => page.evaluate(() => navigator.clipboard.readText()).then((text) => text === "copyme42"),
        5000,
        "the selection in the clipboard",
      );
      // Paste: the browser's paste, typed into the session.
      await page.evaluate(() => navigator.clipboard.writeText("echo pasted-$((40+2))"));
      await page.keyboard.press("Control+Shift+V");
      await page.keyboard.press("Enter");
      await waitFor(async () => (await t4a("text", id)).includes("\npasted-42"), 10_000, "the pasted command to run");

      // Scrolling up reaches what was written before the page opened (the daemon's scrollback).
      expect(await rowsText(page)).not.toMatch(/^1$/m);
      await page.mouse.move(box.x + 100, box.y);
      for (let i = 0; i < 40 && !/^1$/m.test(await rowsText(page)); i++)
        for (let j = 0; j < 10; j++) await page.mouse.wheel(0, -400);
      expect(await rowsText(page)).toMatch(/^1\n2\n3\n4$/m);

      // Ctrl+Shift+L with the terminal focused goes back to the list; the browser's Back returns.
      await page.click(".xterm-screen");
      await page.keyboard.press("Control+Shift+L");
      await page.waitForSelector("#list-view:not([hidden])");
      expect(new URL(page.url()).hash).toMatch(/^(#\/)?$/);
      await page.goForward();
      await page.waitForFunction((want) => document.querySelector("#terminal-title")?.textContent === want, id);
      await page.goBack();
      await page.waitForSelector("#list-view:not([hidden])");
      // A typed hash opens that session.
      await page.evaluate((to) => (location.hash = to), `#/t/${other}`);
      await page.waitForFunction(
        (want) =>
          document.querySelector("#terminal-title")?.textContent === want &&
          document.querySelector("#terminal-state")?.textContent?.startsWith("connected"),
        other,
      );
    } finally {
      await context.close();
      await t4a("kill", id);
      await t4a("kill", other);
    }
  },
  60_000,
);

inChromium(
  "a phone opening a session keeps its size for everyone, reads it, types with the keys bar; Fit takes the size",
  async () => {
    const id = await t4a(
      "create",
      "--name",
      "wide",
      "--cols",
      "120",
      "--rows",
      "36",
      "--",
      "bash",
      "--norc",
      "--noprofile",
    );
    const { context, page } = await openPage(
      { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
      `#/t/${id}`,
    );
    try {
      await page.waitForFunction(() => document.querySelector("#terminal-state")?.textContent?.startsWith("connected"));
      await page.waitForFunction(() => document.querySelectorAll(".xterm-rows > div").length === 36);
      expect(await listed(id)).toMatchObject({ cols: 120, rows: 36 });
      // Drawn at a readable size and panned, not shrunk to nothing; the header gives its row.
      const font = await page.evaluate(() =>
        Number.parseFloat(getComputedStyle(document.querySelector(".xterm-rows")!).fontSize),
      );
      expect(font).toBeGreaterThanOrEqual(9);
      expect(await page.isVisible("header")).toBe(false);
      expect(await page.isVisible("#keys")).toBe(true);
      // The keys bar: Ctrl then c is ^C; arrows and Tab reach the program.
      await page.tap(".xterm-screen");
      await page.keyboard.type("sleep 100");
      await page.keyboard.press("Enter");
      await waitFor(async () => (await t4a("text", id)).includes("sleep 100"), 5000, "the command");
      await page.tap("#keys [data-key=ctrl]");
      await page.keyboard.type("c");
      await page.keyboard.type("echo after-ctrl-c");
      await page.keyboard.press("Enter");
      await waitFor(async () => (await t4a("text", id)).includes("\nafter-ctrl-c"), 5000, "^C to end sleep");
      await page.tap("#keys [data-key=up]");
      await page.tap("#keys [data-key=up]");
      await waitFor(
        async () => (await t4a("text", id, "--tail", "1")).includes("sleep 100"),
        5000,
        "the history through the arrow key",
      );
      await page.tap("#keys [data-key=ctrl-c]");
      // The page left: the session's size is what it was.
      await context.close();
      expect(await listed(id)).toMatchObject({ cols: 120, rows: 36 });
      // Fit: the explicit choice to take this window's size.
      const desk = await openPage({ viewport: { width: 900, height: 600 } }, `#/t/${id}`);
      await desk.page.waitForFunction(() =>
        document.querySelector("#terminal-state")?.textContent?.startsWith("connected"),
      );
      expect(await listed(id)).toMatchObject({ cols: 120, rows: 36 });
      await desk.page.click("#fit");
      await waitFor(
        async () => {
          const size = await listed(id);
          return size && size.cols < 120 && size.cols > 40 && size.rows < 36;
        },
        10_000,
        "the session to take the window's size",
      );
      await desk.context.close();
    } finally {
      await t4a("kill", id);
    }
  },
  60_000,
);

inChromium(
  "read-only: the page offers no control the server would refuse",
  async () => {
    const ro = new Sandbox();
    try {
      const started = Bun.spawnSync([BIN, "web", "--listen", "127.0.0.1:0", "--read-only"], {
        env: { ...ro.env, XDG_STATE_HOME: join(ro.dir, "state") },
      });
      const id = await ro.ok(["create", "--", "bash", "--norc", "--noprofile"]);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(started.stdout.toString().trim());
      await page.waitForSelector(`#sessions li[data-id="${id}"]`);
      expect(await page.isVisible(".read-only-badge")).toBe(true);
      expect(await page.isVisible("#new")).toBe(false);
      await page.click(`#sessions li[data-id="${id}"]`);
      await page.waitForFunction(
        () => document.querySelector("#terminal-state")?.textContent === "connected, read-only",
      );
      for (const control of ["#kill", "#fit", "#keys"]) expect(await page.isVisible(control)).toBe(false);
      await context.close();
    } finally {
      await ro.cleanup();
    }
  },
  60_000,
);

inChromium(
  "a daemon restart: the page says the daemon is down, the web server comes back by itself, a session that did not says it is gone",
  async () => {
    const id = await t4a("create", "--name", "mortal", "--", "bash", "--norc", "--noprofile");
    const kept = await t4a("create", "--name", "kept", "--persist", "--", "bash", "--norc", "--noprofile");
    const { context, page } = await openPage({}, `#/t/${id}`);
    const list = await openPage();
    try {
      await page.waitForFunction(() => document.querySelector("#terminal-state")?.textContent?.startsWith("connected"));
      await list.page.waitForSelector(`#sessions li[data-id="${kept}"]`);
      await t4a("shutdown");
      await list.page.waitForFunction(
        () => document.querySelector("#banner")?.textContent?.includes("not reachable"),
        undefined,
        { timeout: 15_000 },
      );
      // Any client starts the daemon again; the web server it ran comes back at the same address.
      await t4a("list");
      await page.waitForFunction(
        () => (document.querySelector("#gone-message")?.textContent ?? "").includes("This session is gone"),
        undefined,
        { timeout: 20_000 },
      );
      expect(await page.isVisible("#gone")).toBe(true);
      await list.page.waitForFunction(
        (want) =>
          !document.querySelector("#banner:not([hidden])") && document.querySelector(`#sessions li[data-id="${want}"]`),
        kept,
        { timeout: 20_000 },
      );
      expect(await list.page.$(`#sessions li[data-id="${id}"]`)).toBeNull();
      // `t4a web --stop` forgets it: the next daemon serves no web.
      const token = readFileSync(join(sandbox.dir, "state", "t4a", "web", "token"), "utf8").trim();
      const base = new URL(page.url()).origin;
      await t4a("web", "--stop");
      await t4a("shutdown");
      await t4a("list");
      expect(
        await fetch(`${base}/api/about`, { headers: { authorization: `Bearer ${token}` } }).then(
          (r) => r.status,
          () => "refused",
        ),
      ).toBe("refused");
    } finally {
      await context.close();
      await list.context.close();
      await t4a("kill", kept).catch(() => {});
      await t4a("web", "--listen", "127.0.0.1:0");
    }
  },
  90_000,
);

/** A card's selector. */
const card = (id: string) => `#sessions li[data-id="${id}"]`;
const stateOfListed = async (id: string) => (await listed(id))?.agent_state;

inChromium(
  "act on a card: Approve answers an agent's question from the list (timed from the question to the answer), with Always where the preset has one",
  async () => {
    await t4a("create", "--name", "ask1", "--agent", "claude", "--prompt", "first");
    await waitFor(async () => (await stateOfListed("ask1")) === "idle", 20_000, "the agent idle");
    const { context, page } = await openPage();
    try {
      await page.waitForSelector(`${card("ask1")} form.reply`);
      // It starts waiting while the page is open: the page learns it from the event stream.
      await t4a("send", "ask1", "please approve the edit", "-k", "Enter");
      const approve = page.locator(`${card("ask1")} button[data-act=approve]`);
      await approve.waitFor({ timeout: 20_000 });
      const shownAt = Date.now();
      expect(await page.isVisible(`${card("ask1")} button[data-act=always]`)).toBe(true);
      expect(await page.isVisible(`${card("ask1")} button[data-act=deny]`)).toBe(true);
      expect(await page.textContent(`${card("ask1")} .question`)).toContain("Do you want to proceed?");
      // When the daemon saw it start waiting (its clock: the same machine's).
      const waitingSince = Number(await page.getAttribute(card("ask1"), "data-since"));
      const answered = page.waitForResponse((response) => response.url().endsWith("/api/sessions/ask1/approve"));
      await approve.click();
      expect((await answered).status()).toBe(200);
      const answeredAt = Date.now();
      await waitFor(
        async () => (await t4a("text", "ask1")).includes("done: please approve the edit"),
        20_000,
        "the turn to go on after the answer",
      );
      expect(await stateOfListed("ask1")).not.toBe("waiting");
      expect(answeredAt).toBeGreaterThan(waitingSince);
      console.log(
        `cockpit: the card showed Approve ${shownAt - waitingSince} ms after the agent started waiting; answered from the page ${answeredAt - waitingSince} ms after`,
      );
    } finally {
      await context.close();
      await t4a("kill", "ask1");
    }
  },
  90_000,
);

inChromium(
  "reply from a card: an idle agent's next prompt from its reply box; the finished turn is counted as review until the card is opened",
  async () => {
    await t4a("create", "--name", "rep1", "--agent", "claude", "--prompt", "first");
    await waitFor(async () => (await stateOfListed("rep1")) === "idle", 20_000, "the agent idle");
    const { context, page } = await openPage();
    try {
      await page.waitForSelector(`${card("rep1")} form.reply input`);
      expect(await page.title()).toBe("t4a");
      await page.fill(`${card("rep1")} form.reply input`, "write the summary");
      await page.press(`${card("rep1")} form.reply input`, "Enter");
      await waitFor(
        async () => (await t4a("text", "rep1")).includes("done: write the summary"),
        20_000,
        "the prompt's turn",
      );
      // The turn ended and nobody looked: review, in the title, the favicon and on the card.
      await page.waitForFunction(() => document.title === "(1) t4a: 1 review", undefined, { timeout: 20_000 });
      expect(await page.getAttribute("link[rel=icon]", "data-count")).toBe("1");
      expect(await page.getAttribute(card("rep1"), "data-need")).toBe("review");
      expect(await page.textContent("#status")).toBe("1 session, 1 review");
      // Opening it is looking at it: cleared, and still cleared back on the list and after a reload.
      await page.click(`${card("rep1")} .thumb`);
      await page.waitForFunction(() => document.querySelector("#terminal-state")?.textContent?.startsWith("connected"));
      await page.click("#back");
      await page.waitForSelector(`${card("rep1")}:not([data-need])`);
      expect(await page.title()).toBe("t4a");
      await page.reload();
      await page.waitForSelector(`${card("rep1")}:not([data-need])`);
      expect(await page.title()).toBe("t4a");
    } finally {
      await context.close();
      await t4a("kill", "rep1");
    }
  },
  90_000,
);

inChromium(
  "the keyboard across three waiting agents: the first is focused, a / d / a answer each and focus moves to the next; r replies to a finished one",
  async () => {
    const ids = ["kb1", "kb2", "kb3"];
    for (const id of ids) await t4a("create", "--name", id, "--agent", "claude", "--prompt", `approve step ${id}`);
    await waitFor(
      async () => (await Promise.all(ids.map(stateOfListed))).every((state) => state === "waiting"),
      30_000,
      "three agents waiting",
    );
    const { context, page } = await openPage();
    try {
      await page.waitForFunction(() => document.title.startsWith("(3) t4a: 3 waiting"));
      const order = await page.$$eval("#sessions li[data-need=waiting]", (items) =>
        items.map((item) => (item as HTMLElement).dataset.id!),
      );
      expect(order.sort()).toEqual(ids);
      const cardOrder = await page.$$eval("#sessions li[data-need=waiting]", (items) =>
        items.map((item) => (item as HTMLElement).dataset.id!),
      );
      const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.id);
      await page.waitForFunction(
        (first) => (document.activeElement as HTMLElement | null)?.dataset.id === first,
        cardOrder[0],
      );
      const keys = ["a", "d", "a"];
      for (const [i, key] of keys.entries()) {
        expect(await focused()).toBe(cardOrder[i]);
        await page.keyboard.press(key);
        await waitFor(
          async () => (await stateOfListed(cardOrder[i]!)) !== "waiting",
          60_000,
          `${cardOrder[i]} answered by ${key}`,
        );
        if (i + 1 < keys.length)
          await page.waitForFunction(
            (next) => (document.activeElement as HTMLElement | null)?.dataset.id === next,
            cardOrder[i + 1],
          );
      }
      // Their turns end unseen: three to review. r on the focused one goes to its reply box; Enter sends the next prompt.
      await page
        .waitForFunction(() => document.title === "(3) t4a: 3 review", undefined, { timeout: 90_000 })
        .catch(async (error: Error) => {
          const states = await Promise.all(ids.map(stateOfListed));
          throw new Error(`${error.message}\ntitle "${await page.title()}", states ${states.join(", ")}`);
        });
      const target = (await focused()) ?? "none";
      expect(ids).toContain(target);
      await page.keyboard.press("r");
      expect(await page.evaluate(() => (document.activeElement?.closest("li") as HTMLElement | null)?.dataset.id)).toBe(
        target,
      );
      // Its Send is on: it was off while the card's answer went, and a list read meanwhile once left it off (Enter did nothing).
      expect(await page.isDisabled(`${card(target)} form.reply button`)).toBe(false);
      await page.keyboard.type("go on");
      await page.keyboard.press("Enter");
      // (A ceiling, not a speed: a real claude answers in seconds, but a loaded machine once took over 20 s.)
      await waitFor(async () => (await t4a("text", target)).includes("done: go on"), 60_000, "the reply typed after r");
    } finally {
      await context.close();
      for (const id of ids) await t4a("kill", id);
    }
  },
  180_000,
);

inChromium(
  "a phone: one tap answers a waiting agent; the keys bar has every key whole; the header's count is not cut; a tap on the terminal focuses it",
  async () => {
    await t4a("create", "--name", "ph1", "--agent", "claude", "--prompt", "please approve from the phone");
    for (const n of [2, 3, 4, 5, 6]) await t4a("create", "--name", `sh${n}`, "--", "bash", "--norc", "--noprofile");
    await waitFor(async () => (await stateOfListed("ph1")) === "waiting", 20_000, "the agent waiting");
    const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
    const { context, page } = await openPage(phone);
    try {
      await page.waitForSelector(`${card("ph1")} button[data-act=approve]`);
      await page.waitForFunction(() => (document.querySelector("#status")?.textContent ?? "").includes("waiting"));
      // The count is whole: its box is as wide as its text, inside the screen.
      const status = await page.$eval("#status", (element) => ({
        text: element.textContent,
        scroll: element.scrollWidth,
        client: element.clientWidth,
        right: element.getBoundingClientRect().right,
      }));
      expect(status.text).toBe("6 sessions, 1 waiting");
      expect(status.scroll).toBeLessThanOrEqual(status.client);
      expect(status.right).toBeLessThanOrEqual(390);
      // The card's answers are whole: each label as wide as its button lets it be, inside the screen
      // (Approve was cut to "Appro": a 49 px button for 78 px of text).
      const answers = await page.$$eval(`${card("ph1")} .answer button.act`, (buttons) =>
        buttons.map((button) => ({
          label: button.textContent,
          scroll: button.scrollWidth,
          client: button.clientWidth,
          right: button.getBoundingClientRect().right,
        })),
      );
      expect(answers.map((answer) => answer.label)).toEqual(expect.arrayContaining(["Approve", "Deny"]));
      for (const answer of answers) {
        expect(`${answer.label}: ${answer.scroll} of ${answer.client}`).toBe(
          `${answer.label}: ${answer.client} of ${answer.client}`,
        );
        expect(answer.right).toBeLessThanOrEqual(390);
      }
      await page.screenshot({ path: "/tmp/cockpit-phone-list.png" });
      await page.tap(`${card("ph1")} button[data-act=approve]`);
      await waitFor(async () => (await stateOfListed("ph1")) !== "waiting", 20_000, "one tap to answer");

      // The terminal: every key of the bar inside the screen, none scrolled away.
      await page.tap(`${card("sh2")} .thumb`);
      await page.waitForFunction(() => document.querySelector("#terminal-state")?.textContent?.startsWith("connected"));
      const keys = await page.$$eval("#keys button", (buttons) =>
        buttons.map((button) => ({
          key: (button as HTMLElement).dataset.key,
          ...button.getBoundingClientRect().toJSON(),
        })),
      );
      expect(keys.map((key) => key.key)).toEqual([
        "esc",
        "tab",
        "ctrl",
        "ctrl-c",
        "enter",
        "y",
        "n",
        "1",
        "2",
        "3",
        "left",
        "up",
        "down",
        "right",
      ]);
      for (const key of keys) {
        expect(key.left).toBeGreaterThanOrEqual(0);
        expect(key.right).toBeLessThanOrEqual(390);
        expect(key.width).toBeGreaterThanOrEqual(40);
        expect(key.height).toBeGreaterThanOrEqual(40);
      }
      // A tap anywhere on the terminal's area (here below the rows) gives it the keyboard.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const area = (await page.locator("#terminal").boundingBox())!;
      await page.touchscreen.tap(area.x + area.width / 2, area.y + area.height - 10);
      await page.waitForFunction(() => document.activeElement?.classList.contains("xterm-helper-textarea"));
      await page.tap("#keys [data-key=y]");
      await page.tap("#keys [data-key=enter]");
      await waitFor(
        async () => (await t4a("text", "sh2")).includes("y: command not found"),
        10_000,
        "y and Enter from the keys bar",
      );
      await page.screenshot({ path: "/tmp/cockpit-phone-terminal.png" });
    } finally {
      await context.close();
      for (const id of ["ph1", "sh2", "sh3", "sh4", "sh5", "sh6"]) await t4a("kill", id);
    }
  },
  120_000,
);

inChromium(
  "what a program controls is text: a question with <img onerror> stays text on the card and the bar; a plain program's y/n gets its keys; Always only where the preset has it",
  async () => {
    const script = join(fakeBin, "hostile-agent");
    writeFileSync(
      script,
      `#!/bin/bash\nprintf 'hostile ready\\n'\nprintf 'Allow <img src=x onerror="window.pwned=1"> to run? [y/n] '\nread -r -n1 answer\nprintf '\\033[2J\\033[Hanswered %s\\nhostile ready\\n' "$answer"\nsleep 1000\n`,
      { mode: 0o755 },
    );
    const config = join(sandbox.dir, "home", ".config", "t4a");
    mkdirSync(config, { recursive: true });
    writeFileSync(
      join(config, "agents.json"),
      JSON.stringify({ hostile: { cli: script, waitingPatterns: ["\\[y/n\\]"], readyPatterns: ["ready"] } }),
    );
    await t4a("create", "--name", "evil", "--agent", "hostile", "--direct");
    await t4a("create", "--name", "yn", "--", "bash", "-c", "read -p 'Continue? [y/n] ' a; echo got-$a; sleep 100");
    await waitFor(async () => (await stateOfListed("evil")) === "waiting", 20_000, "the hostile agent waiting");
    const { context, page } = await openPage();
    try {
      await page.waitForSelector(`${card("evil")} button[data-act=approve]`);
      expect(await page.textContent(`${card("evil")} .question`)).toContain(
        'Allow <img src=x onerror="window.pwned=1"> to run?',
      );
      expect(await page.$$(`#sessions img`)).toEqual([]);
      // Its preset (agents.json) names no "always": no button offers it.
      expect(await page.isVisible(`${card("evil")} button[data-act=always]`)).toBe(false);
      // The plain program's own question: y, n and Enter, and the count says "reading input".
      await page.waitForSelector(`${card("yn")} button[data-key=y]`, { timeout: 20_000 });
      expect(
        await page.$$eval(`${card("yn")} button.key`, (buttons) => buttons.map((button) => button.textContent)),
      ).toEqual(["y", "n", "Enter"]);
      await page.waitForFunction(() => document.title === "(2) t4a: 1 waiting, 1 reading input");
      // On a phone, a card with Approve and Deny alone (no Always) and its reply box: every label
      // whole (Approve was cut to "Appro", a 49 px button beside a reply box on one row).
      const phone = await openPage({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 2,
      });
      try {
        await phone.page.waitForSelector(`${card("evil")} button[data-act=approve]`);
        await phone.page.waitForSelector(`${card("yn")} button[data-key=y]`);
        await phone.page.screenshot({ path: "/tmp/cockpit-phone-no-always.png" });
        const labels = await phone.page.$$eval("#sessions .answer button", (buttons) =>
          buttons.map((button) => ({
            label: button.textContent,
            scroll: button.scrollWidth,
            client: button.clientWidth,
            right: button.getBoundingClientRect().right,
          })),
        );
        expect(labels.map((label) => label.label)).toEqual(
          expect.arrayContaining(["Approve", "Deny", "y", "n", "Enter"]),
        );
        for (const label of labels) {
          expect(`${label.label}: ${label.scroll} of ${label.client}`).toBe(
            `${label.label}: ${label.client} of ${label.client}`,
          );
          expect(label.right).toBeLessThanOrEqual(390);
        }
      } finally {
        await phone.context.close();
      }
      await page.waitForFunction(
        () =>
          document.querySelector('#sessions li[data-id="yn"] .question')?.textContent ===
          "bash is reading input: Continue? [y/n]",
      );
      await page.screenshot({ path: "/tmp/cockpit-desktop-hostile.png" });
      await page.click(`${card("yn")} button[data-key=y]`);
      await page.click(`${card("yn")} button[data-key=Enter]`);
      await waitFor(async () => (await t4a("text", "yn")).includes("got-y"), 10_000, "y and Enter from the card");
      // The terminal's bar: the same question, as text, with its buttons.
      await page.click(`${card("evil")} .thumb`);
      await page.waitForSelector("#answer-bar:not([hidden])");
      expect(await page.textContent("#answer-state")).toBe(
        'waiting: Allow <img src=x onerror="window.pwned=1"> to run? [y/n]',
      );
      expect(await page.$$("#terminal-view img")).toEqual([]);
      await page.screenshot({ path: "/tmp/cockpit-desktop-bar.png" });
      await page.click("#answer-controls button[data-act=approve]");
      await waitFor(async () => (await t4a("text", "evil")).includes("answered"), 10_000, "the answer from the bar");
      await page.waitForSelector("#answer-bar[hidden]", { state: "attached", timeout: 20_000 });
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    } finally {
      await context.close();
      rmSync(join(config, "agents.json"));
      for (const id of ["evil", "yn"]) await t4a("kill", id);
    }
  },
  90_000,
);

inChromium(
  "review before kill: a worktree card's diff stats, kill says what is kept and the ended card shows the branch; an ended session is removed; every kind of need at a glance",
  async () => {
    await t4a("create", "--name", "wt", "--cwd", repo, "--worktree", "cockpit", "--", "bash", "--norc", "--noprofile");
    await t4a(
      "send",
      "wt",
      "echo more >> README.md && git -c user.name=t -c user.email=t@t commit -qam 'cockpit line' && echo new > notes.txt && echo edited >> README.md && echo ok-$((1+1))",
      "-k",
      "Enter",
    );
    await waitFor(async () => (await t4a("text", "wt")).includes("ok-2"), 10_000, "the commit and edits");
    await t4a("create", "--name", "asks", "--agent", "claude", "--prompt", "please approve the migration");
    await t4a("create", "--name", "done1", "--agent", "claude", "--prompt", "first");
    await t4a("create", "--name", "bad", "--", "bash", "-c", "exit 3");
    await waitFor(
      async () => (await stateOfListed("asks")) === "waiting" && (await stateOfListed("done1")) === "idle",
      20_000,
      "one waiting, one idle",
    );
    const { context, page } = await openPage();
    try {
      await page.waitForSelector(`${card("done1")} form.reply`);
      await t4a("send", "done1", "summarise the branch", "-k", "Enter");
      await page.waitForFunction(() => document.title === "(3) t4a: 1 waiting, 1 review, 1 failed", undefined, {
        timeout: 20_000,
      });
      await page.waitForFunction(
        () =>
          /^\+3 −0, 2 files, 1 commit$/.test(
            document.querySelector('#sessions li[data-id="wt"] .stats')?.textContent ?? "",
          ),
        undefined,
        { timeout: 20_000 },
      );
      // Waited for, not read once: in one run of 13, right after the title said 1 review, the cards
      // read asks, bad, done1: done1 was drawn without its need by a list read after the title's.
      const order = () =>
        page.$$eval("#sessions li", (items) => items.map((item) => (item as HTMLElement).dataset.id).join());
      await waitFor(async () => (await order()) === "asks,done1,bad,wt", 20_000, "the cards in order of need").catch(
        async (error) => {
          throw new Error(`${(error as Error).message}: ${await order()}`);
        },
      );
      await page.waitForFunction(() =>
        (document.querySelector('#sessions li[data-id="done1"] .thumb')?.textContent ?? "").includes(
          "done: summarise the branch",
        ),
      );
      await page.screenshot({ path: "/tmp/cockpit-desktop.png" });

      // A failure opened is known: no longer counted (its card stays, failed, until removed).
      await page.click(`${card("bad")} .thumb`);
      await page.waitForSelector("#gone:not([hidden])");
      await page.click("#gone-back");
      await page.waitForFunction(() => document.title === "(2) t4a: 1 waiting, 1 review");
      expect(await page.getAttribute(card("bad"), "data-state")).toBe("failed");
      // Restart: the ended session runs again as it was made (and ends again: exit 3).
      const pidBefore = (JSON.parse(await t4a("list", "--json")).terminals as Array<{ id: string; pid: number }>).find(
        (t) => t.id === "bad",
      )!.pid;
      await page.click(`${card("bad")} button.restart`);
      await waitFor(
        async () =>
          (JSON.parse(await t4a("list", "--json")).terminals as Array<{ id: string; pid: number }>).find(
            (t) => t.id === "bad",
          )?.pid !== pidBefore,
        20_000,
        "the restart",
      );
      await page.waitForSelector(`${card("bad")}[data-state=failed]`);
      // Remove: the ended session leaves the list.
      await page.click(`${card("bad")} button.remove`);
      await page.waitForSelector(card("bad"), { state: "detached" });
      expect(await listed("bad")).toBeUndefined();

      // Kill from its terminal: the dialog says what it changed and that the work is kept.
      await page.click(`${card("wt")} .thumb`);
      await page.waitForFunction(() => document.querySelector("#terminal-state")?.textContent?.startsWith("connected"));
      await page.click("#kill");
      await page.waitForFunction(() =>
        (document.querySelector("#kill-work")?.textContent ?? "").includes("+3 −0, 2 files, 1 commit"),
      );
      expect(await page.textContent("#kill-work")).toContain("The work is kept");
      expect(await page.textContent("#kill-confirm")).toBe("Kill, keep the work");
      await page.click("#kill-confirm");
      await page.waitForSelector(`${card("wt")}[data-state=killed]`);
      expect(await page.textContent(`${card("wt")} .branch`)).toBe("its work is on branch t4a/cockpit");
      expect(await listed("wt")).toBeUndefined();
      expect(sh(repo, "git branch --list t4a/cockpit")).toContain("t4a/cockpit");
      // Nobody opened done1: its turn is still to review.
      expect(await page.getAttribute(card("done1"), "data-need")).toBe("review");
      await page.screenshot({ path: "/tmp/cockpit-desktop-killed.png" });
      await page.click(`${card("wt")} button.remove`);
      await page.waitForSelector(card("wt"), { state: "detached" });

      // A phone opening the waiting agent: the bar says what it waits on; one tap on Approve answers.
      const phone = await openPage(
        { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
        "#/t/asks",
      );
      try {
        await phone.page.waitForSelector("#answer-bar:not([hidden])");
        expect(await phone.page.textContent("#answer-state")).toBe("waiting: Do you want to proceed? (y/n)");
        await phone.page.waitForSelector("#answer-controls button[data-act=always]");
        for (const button of await phone.page.$$("#answer-controls button")) {
          const fits = await button.evaluate(
            (element) => element.scrollWidth <= element.clientWidth && element.getBoundingClientRect().right <= 390,
          );
          expect(fits).toBe(true);
        }
        await phone.page.screenshot({ path: "/tmp/cockpit-phone-answer-bar.png" });
        await phone.page.tap("#answer-controls button[data-act=approve]");
        await waitFor(async () => (await stateOfListed("asks")) !== "waiting", 20_000, "one tap in the bar");
        await phone.page.waitForSelector("#answer-bar[hidden]", { state: "attached", timeout: 20_000 });
      } finally {
        await phone.context.close();
      }
    } finally {
      await context.close();
      for (const id of ["asks", "done1"]) await t4a("kill", id);
      sh(
        repo,
        "git worktree list --porcelain | grep -q repo-cockpit && git worktree remove --force ../repo-cockpit; git branch -D t4a/cockpit >/dev/null 2>&1; true",
      );
    }
  },
  120_000,
);

inChromium(
  "create offers every preset, agents.json's too; one not on PATH says which PATH and how to fix it, before and after Create",
  async () => {
    const config = join(sandbox.dir, "home", ".config", "t4a");
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, "agents.json"), JSON.stringify({ mine: { cli: "nope-cli-t4a" } }));
    const { context, page } = await openPage();
    try {
      await page.click("#new");
      await page.waitForFunction(() => document.querySelectorAll("#agent-names option").length >= 6);
      const offered = await page.$$eval("#agent-names option", (options) =>
        options.map((option) => (option as HTMLOptionElement).value),
      );
      expect(offered).toEqual(expect.arrayContaining(["claude", "codex", "gemini", "qwen", "opencode", "mine"]));
      expect(
        await page.$eval('#agent-names option[value="claude"]', (option) => (option as HTMLOptionElement).label),
      ).toContain(join(sandbox.dir, "fake-bin", "claude"));
      await page.fill("input[name=agent]", "mine");
      const note = await page.textContent("#agent-note");
      expect(note).toContain(`nope-cli-t4a is not on the daemon's PATH (${fakeBin}:`);
      expect(note).toContain('give its full path as "cli" for "mine" in ~/.config/t4a/agents.json');
      await page.click("#create button[type=submit]");
      await page.waitForFunction(() =>
        (document.querySelector("#create-error")?.textContent ?? "").includes("not found on PATH"),
      );
      expect(await page.textContent("#create-error")).toMatch(
        /nope-cli-t4a not found on PATH \(nor by .*login startup files\); PATH was .*fake-bin.*Install nope-cli-t4a/,
      );
    } finally {
      await context.close();
      rmSync(join(config, "agents.json"));
    }
  },
  60_000,
);

if (CHROMIUM === undefined) console.log("skipped: the browser view tests need Debian's chromium (.ci/run installs it)");
