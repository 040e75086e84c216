// The mouse from the page, in Debian's chromium (playwright-core): a program that turned mouse
// reporting on before the page opened (the daemon's first bytes replay the mode) gets a click as a
// terminal sends it, in the encoding it asked for — a desktop click, and a phone's tap; mc opens
// its help and quits on its function-key bar; a read-only page sends nothing at all.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Sandbox, waitFor } from "./harness.ts";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));
const BIN = resolve(import.meta.dir, "../dist/t4a");
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
let sandbox: Sandbox;
/** Turns on the DEC modes given, then prints each read's bytes in hex, one read per line. */
const echo = resolve(import.meta.dir, "fixtures/mouse-echo.py");
let browser: Browser;

function env(box = sandbox): Record<string, string> {
  return { ...box.env, XDG_STATE_HOME: join(box.dir, "state"), HOME: join(box.dir, "home"), TERM: "xterm-256color" };
}

async function t4a(box: Sandbox, ...args: string[]): Promise<string> {
  const child = Bun.spawn([BIN, ...args], { cwd: box.dir, env: env(box), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`t4a ${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout.trim();
}

/** A logged-in page on a session, with every frame it sends on the session's socket recorded (hex). */
async function openSession(
  box: Sandbox,
  id: string,
  options: Parameters<Browser["newContext"]>[0] = {},
): Promise<{ context: BrowserContext; page: Page; sent: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("page error:", error.message));
  const sent: string[] = [];
  page.on("websocket", (socket) => {
    if (!socket.url().endsWith("/terminal")) return;
    socket.on("framesent", ({ payload }) => sent.push(Buffer.from(payload as string | Buffer).toString("hex")));
  });
  await page.goto(await t4a(box, "web"));
  await page.evaluate((to) => (location.hash = to), `#/t/${id}`);
  await page.waitForFunction(() => document.querySelector("#terminal-state")?.textContent?.startsWith("connected"));
  // Every program here reads input: the bar saying so comes, and moves the rows down, before any click.
  await page.waitForSelector("#answer-bar:not([hidden])", { timeout: 20_000 });
  return { context, page, sent };
}

/** The middle of a cell (1-based, as reports count) of an 80-column session, in the page's pixels. */
async function cell(page: Page, col: number, row: number): Promise<{ x: number; y: number }> {
  // The bar saying the program reads input comes and goes with its output, moving the rows: aim
  // once it is there and the terminal has stayed put a moment.
  let last = "";
  let since = Date.now();
  await waitFor(
    async () => {
      const now = await page.evaluate(() => {
        const box = document.querySelector(".xterm-screen")!.getBoundingClientRect();
        return (document.querySelector("#answer-bar") as HTMLElement).hidden
          ? ""
          : `${box.left},${box.top},${box.width},${box.height}`;
      });
      if (now !== last) [last, since] = [now, Date.now()];
      return now !== "" && Date.now() - since >= 400;
    },
    20_000,
    "the terminal to stay put",
  );
  return page.evaluate(
    ([col, row]) => {
      const rows = document.querySelectorAll(".xterm-rows > div");
      const screen = document.querySelector(".xterm-screen")!.getBoundingClientRect();
      const line = rows[row - 1]!.getBoundingClientRect();
      return { x: screen.left + ((col - 0.5) * screen.width) / 80, y: line.top + line.height / 2 };
    },
    [col, row] as const,
  );
}

const hex = (text: string) => Buffer.from(text, "latin1").toString("hex");

/** A session of the echo script, 80x24, with the DEC modes given on, ready before any page opens. */
async function echoing(box: Sandbox, modes: string): Promise<string> {
  const id = await t4a(box, "create", "--cols", "80", "--rows", "24", "--", "python3", echo, modes);
  await waitFor(async () => (await t4a(box, "text", id)).includes("ready"), 30_000, "the script to start");
  return id;
}

/** Below "ready", each read's "got <hex>" joined (a long one wraps onto the next row). */
async function got(box: Sandbox, id: string): Promise<string> {
  return (await t4a(box, "text", id)).split("ready")[1]!.replace(/\s+/g, "").replaceAll("got", "");
}

/**
 * Every byte the script read up to the "z" sent last, in hex (a loaded machine may join reads).
 * The "z" goes only once the script has shown `before`: the page's frames and the CLI's "z" come
 * on two connections, and a release frame still on its way would otherwise land after the "z".
 */
async function reads(box: Sandbox, id: string, before: string): Promise<string> {
  let seen = "";
  const until = async <T>(condition: () => Promise<T>, what: string) =>
    waitFor(condition, 30_000, what).catch((error: Error) => {
      throw new Error(`${error.message} (the script shows ${seen || "nothing"})`);
    });
  await until(async () => (seen = await got(box, id)).length >= hex(before).length, `the script to show the click`);
  await t4a(box, "send", id, "z");
  return until(async () => {
    seen = await got(box, id);
    return seen.endsWith(hex("z")) ? seen : undefined;
  }, "the z after the reports");
}

beforeAll(async () => {
  sandbox = new Sandbox();
  mkdirSync(join(sandbox.dir, "home"), { recursive: true });
  await t4a(sandbox, "web", "--listen", "127.0.0.1:0");
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

// A press and a release at column 10, row 5, as xterm sends them in each encoding xterm.js speaks.
const encodings: Array<[modes: string, click: string]> = [
  ["1000;1006", "\x1b[<0;10;5M\x1b[<0;10;5m"],
  ["1002;1006", "\x1b[<0;10;5M\x1b[<0;10;5m"],
  ["1000", "\x1b[M\x20\x2a\x25\x1b[M\x23\x2a\x25"],
];

for (const [modes, click] of encodings) {
  inChromium(
    `desktop: a click at 10:5 under ?${modes}h reaches the program as ${JSON.stringify(click)}`,
    async () => {
      const id = await echoing(sandbox, modes);
      const { context, page, sent } = await openSession(sandbox, id);
      try {
        await page.waitForFunction(() => (document.querySelector(".xterm-rows")?.textContent ?? "").includes("ready"));
        const at = await cell(page, 10, 5);
        await page.mouse.click(at.x, at.y);
        expect(await reads(sandbox, id, click)).toBe(hex(click) + hex("z"));
        expect(sent.join("")).toBe(hex(click));
      } finally {
        await context.close();
        await t4a(sandbox, "kill", id);
      }
    },
    60_000,
  );
}

inChromium(
  "phone: a tap is a click in the cell tapped, the one beside the cursor too (the browser's tap targeting does not pull it onto the cursor)",
  async () => {
    const id = await echoing(sandbox, "1000;1006");
    const { context, page, sent } = await openSession(sandbox, id, PHONE);
    try {
      await page.waitForFunction(() => (document.querySelector(".xterm-rows")?.textContent ?? "").includes("ready"));
      // The cursor waits at 1:2, below "ready": a tap two cells right of it and one down, then one far away.
      const taps = [
        [3, 3],
        [10, 12],
      ] as const;
      for (const [i, [col, row]] of taps.entries()) {
        const at = await cell(page, col, row);
        await page.touchscreen.tap(at.x, at.y);
        await page.waitForFunction(
          (n) => ((document.querySelector(".xterm-rows")?.textContent ?? "").match(/got /g) ?? []).length > n,
          i,
        );
      }
      const click = taps.map(([col, row]) => `\x1b[<0;${col};${row}M\x1b[<0;${col};${row}m`).join("");
      expect(await reads(sandbox, id, click)).toBe(hex(click) + hex("z"));
      expect(sent.join("")).toBe(hex(click));
    } finally {
      await context.close();
      await t4a(sandbox, "kill", id);
    }
  },
  60_000,
);

inChromium(
  "read-only: a click and a tap send nothing on the socket, and the program reads nothing",
  async () => {
    const ro = new Sandbox();
    try {
      mkdirSync(join(ro.dir, "home"), { recursive: true });
      await t4a(ro, "web", "--listen", "127.0.0.1:0", "--read-only");
      const id = await echoing(ro, "1000;1006");
      for (const options of [{}, PHONE]) {
        const { context, page, sent } = await openSession(ro, id, options);
        try {
          await page.waitForFunction(() =>
            (document.querySelector(".xterm-rows")?.textContent ?? "").includes("ready"),
          );
          const at = await cell(page, 10, 5);
          if (options === PHONE) await page.touchscreen.tap(at.x, at.y);
          else await page.mouse.click(at.x, at.y);
          await page.waitForTimeout(300);
          expect(sent).toEqual([]);
        } finally {
          await context.close();
        }
      }
      expect(await reads(ro, id, "")).toBe(hex("z"));
    } finally {
      await ro.cleanup();
    }
  },
  60_000,
);

inChromium(
  "mc: a click on 1Help opens its help, a click on 10Quit quits it (desktop, then a phone's taps)",
  async () => {
    if (!Bun.which("mc")) return console.log("skipped: mc is not installed");
    for (const [name, options] of [
      ["desktop", {}],
      ["phone", PHONE],
    ] as const) {
      const id = await t4a(sandbox, "create", "--cols", "80", "--rows", "24", "--", "mc", "-u");
      const bar = await waitFor(
        async () => (await t4a(sandbox, "text", id)).split("\n").find((line) => /10\s*Quit/.test(line)),
        30_000,
        `mc's key bar (${name})`,
      );
      const { context, page } = await openSession(sandbox, id, options);
      try {
        const rows = (await t4a(sandbox, "text", id)).split("\n");
        const row = rows.indexOf(bar) + 1;
        await page.waitForFunction(() => /10\s*Quit/.test(document.querySelector(".xterm-rows")?.textContent ?? ""));
        await page.screenshot({ path: `/tmp/t4a-web-mouse-mc-${name}.png` });
        const press = async (col: number) => {
          // A phone pans a session wider than its screen: bring the cell into view first, as a thumb would.
          await page.evaluate((x) => {
            const host = document.querySelector("#terminal")!;
            const screen = document.querySelector(".xterm-screen")!.getBoundingClientRect();
            host.scrollLeft = Math.max(0, ((x - 0.5) * screen.width) / 80 - host.clientWidth / 2);
          }, col);
          const at = await cell(page, col, row);
          if (options === PHONE) await page.touchscreen.tap(at.x, at.y);
          else await page.mouse.click(at.x, at.y);
        };
        await press(bar.indexOf("Help") + 1);
        await waitFor(
          async () => (await t4a(sandbox, "text", id)).includes("Midnight Commander"),
          15_000,
          `mc's help (${name})`,
        );
        await page.waitForFunction(() =>
          (document.querySelector(".xterm-rows")?.textContent ?? "").includes("Midnight Commander"),
        );
        await page.screenshot({ path: `/tmp/t4a-web-mouse-mc-${name}-help.png` });
        await t4a(sandbox, "send", id, "-k", "Escape");
        await t4a(sandbox, "send", id, "-k", "Escape");
        await waitFor(
          async () => !(await t4a(sandbox, "text", id)).includes("Midnight Commander"),
          15_000,
          "the help closed",
        );
        await press(bar.indexOf("Quit") + 1);
        await t4a(sandbox, "wait", id, "--exit", "--timeout", "30s");
      } finally {
        await context.close();
        await t4a(sandbox, "kill", id).catch(() => {});
      }
    }
  },
  120_000,
);

if (CHROMIUM === undefined)
  console.log("skipped: the browser mouse tests need Debian's chromium (.ci/run installs it)");
