// One page across hosts, in Debian's chromium: two hosts (each its own real sshd on localhost
// with a home and a t4a daemon of its own) relayed by this machine's daemon over ssh. Cards from
// both beside the local ones (host label, host filter), an approve on a remote fake agent, a
// remote terminal opened and typed into, a host going away and coming back; a hostile host's
// session name reaches the page as text; a read-only login cannot act on a remote session.
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { BIN, Sandbox, waitFor } from "./harness.ts";
import { SSHD, startSshd, type LocalSshd } from "./fixtures/sshd.ts";

const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => existsSync(path));
const HOSTS = ["a", "b"] as const;
const HOSTILE_NAME = "<img src=x onerror=window.pwned=1>";
const user = process.env.USER ?? "root";
let sandbox: Sandbox;
let fakeBin: string;
let browser: Browser | undefined;
const sshds: Record<string, LocalSshd> = {};

const remoteSocket = (name: string) => join(sshds[name]!.dir, "home", "run", "t4a.sock");
const env = () => ({
  ...sandbox.env,
  XDG_CONFIG_HOME: join(sandbox.dir, "config"),
  XDG_STATE_HOME: join(sandbox.dir, "state"),
  T4A_REMOTE_T4A: '"$HOME/t4a"',
  T4A_CONNECT_TIMEOUT: "20",
});

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

/** `t4a` straight on a host's daemon socket (this machine plays every host), the fake agents on its PATH. */
function onHost(name: string, args: string[]): string {
  const done = Bun.spawnSync([BIN, ...args], {
    env: { ...sandbox.env, PATH: `${fakeBin}:${process.env.PATH}`, T4A_SOCKET: remoteSocket(name) },
  });
  if (done.exitCode !== 0) throw new Error(`${name}: t4a ${args.join(" ")}: ${done.stderr}`);
  return done.stdout.toString().trim();
}
const hostList = (name: string) =>
  JSON.parse(onHost(name, ["list", "--json"])).terminals as Array<{ id: string; agent_state?: string }>;

const ready = () => SSHD !== undefined && Object.keys(sshds).length === HOSTS.length;

beforeAll(async () => {
  sandbox = new Sandbox();
  fakeBin = join(sandbox.dir, "fake-bin");
  mkdirSync(fakeBin);
  symlinkSync(resolve(import.meta.dir, "fixtures/fake-agent.py"), join(fakeBin, "claude"));
  const started = await Promise.all(
    HOSTS.map(async (name) => [name, await startSshd(join(sandbox.dir, `ssh-${name}`))] as const),
  );
  if (started.some(([, sshd]) => !sshd)) return;
  for (const [name, sshd] of started) {
    sshds[name] = sshd!;
    const program = join(sshd!.dir, "home", "t4a");
    writeFileSync(program, `#!/bin/sh\nT4A_SOCKET="$HOME/run/t4a.sock" exec ${BIN} "$@"\n`);
    chmodSync(program, 0o755);
    await t4a("hosts", "add", name, `ssh://${user}@127.0.0.1:${sshd!.port}`, "--", "-F", sshd!.config);
  }
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
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const name of HOSTS)
    if (sshds[name]) Bun.spawnSync([BIN, "shutdown"], { env: { ...sandbox.env, T4A_SOCKET: remoteSocket(name) } });
  await sandbox.cleanup();
  // The ssh masters the local daemon kept, one per host, end now rather than outlive the test.
  const controlDir = dirname(sandbox.socket);
  for (const master of existsSync(controlDir)
    ? readdirSync(controlDir).filter((name) => name.startsWith("ssh-"))
    : []) {
    Bun.spawnSync(["ssh", "-o", `ControlPath=${join(controlDir, master)}`, "-O", "exit", "unused"]);
  }
  for (const sshd of Object.values(sshds)) sshd.stop();
}, 60_000);

async function openPage(viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser!.newContext({ viewport });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.goto(await t4a("web", "--listen", "127.0.0.1:0"));
  return page;
}

const card = (id: string) => `#sessions li[data-id="${id.replace(/"/g, '\\"')}"]`;

test.if(SSHD !== undefined && CHROMIUM !== undefined)(
  "one page: cards from two hosts, an approve on a remote agent, a remote terminal, a host away and back",
  async () => {
    expect(ready()).toBe(true);
    onHost("a", ["create", "--name", "sh-a", "--", "bash", "--norc", "--noprofile"]);
    onHost("a", [
      "create",
      "--name",
      HOSTILE_NAME,
      "--",
      "bash",
      "-c",
      "printf '\\033]0;<b>title</b><script>window.pwned=2</script>\\007'; exec sleep 600",
    ]);
    onHost("b", ["create", "--name", "asker", "--agent", "claude", "--prompt", "please approve the edit"]);
    await t4a("create", "--name", "here", "--", "sleep", "600");
    await waitFor(
      () => hostList("b").find((t) => t.id === "asker")?.agent_state === "waiting",
      30_000,
      "b's agent to wait on its question",
    );
    const page = await openPage({ width: 1280, height: 800 });
    try {
      await page.waitForSelector(card("b:asker"), { timeout: 30_000 });
      await page.waitForSelector(card("a:sh-a"));
      await page.waitForSelector(card("here"));
      // The waiting agent on b comes first, with its question and its host.
      const first = await page.$eval("#sessions li", (item) => (item as HTMLElement).dataset.id);
      expect(first).toBe("b:asker");
      expect(await page.textContent(`${card("b:asker")} .host`)).toBe("b");
      expect(await page.textContent(`${card("b:asker")} .question`)).toContain("Do you want to proceed?");
      expect(await page.$(`${card("here")} .host`)).toBeNull();
      // A hostile host's session name and title: text on the page, never markup.
      await page.waitForSelector(card(`a:${HOSTILE_NAME}`));
      expect(await page.textContent(`${card(`a:${HOSTILE_NAME}`)} .name`)).toBe(`a:${HOSTILE_NAME}`);
      await page
        .waitForFunction(
          (id) =>
            (
              document.querySelector(`#sessions li[data-id="${CSS.escape(id)}"] .meta:last-of-type`)?.textContent ?? ""
            ).includes("<b>title</b>"),
          `a:${HOSTILE_NAME}`,
          { timeout: 30_000 },
        )
        .catch(() => {});
      expect(await page.$$eval("#sessions img, #sessions script, #sessions b", (found) => found.length)).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      await page.screenshot({ path: "/tmp/fleet-desktop-list.png" });
      // The host filter: a's sessions alone.
      await page.selectOption("#host-filter", "a");
      const onlyA = await page.$$eval("#sessions li", (items) => items.map((item) => (item as HTMLElement).dataset.id));
      expect(onlyA.length).toBeGreaterThan(0);
      expect(onlyA.every((id) => id!.startsWith("a:"))).toBe(true);
      await page.selectOption("#host-filter", "");
      // Create on a chosen host from the form: it is a's, and its terminal opens.
      await page.click("#new");
      await page.selectOption("#create-host select", "a");
      await page.fill("#create input[name=name]", "made-on-a");
      await page.fill("#create input[name=command]", "sleep 600");
      await page.click("#create button[type=submit]");
      await waitFor(
        () => hostList("a").some((t) => t.id === "made-on-a"),
        30_000,
        "the session made from the page on a",
      );
      await page.waitForFunction(() => location.hash === `#/t/${encodeURIComponent("a:made-on-a")}`, undefined, {
        timeout: 30_000,
      });
      // Kill from the terminal view: the dialog, then a's session is gone.
      await page.waitForSelector("#terminal-view:not([hidden])");
      await page.click("#kill");
      await page.click("#kill-confirm");
      await waitFor(() => !hostList("a").some((t) => t.id === "made-on-a"), 30_000, "the kill on a from the page");
      // Approve on b's agent from this page: the daemon relays it to b's daemon over ssh.
      await page.click(`${card("b:asker")} button[data-act="approve"]`);
      await waitFor(
        () => hostList("b").find((t) => t.id === "asker")?.agent_state !== "waiting",
        30_000,
        "b's agent to take the approve",
      );
      // The card follows b's events through the relay: no longer waiting.
      await page.waitForFunction(
        (selector) => document.querySelector(selector)?.getAttribute("data-state") !== "waiting",
        card("b:asker"),
        { timeout: 30_000 },
      );
      // a's shell in the terminal view: its screen, and keys back through the relay.
      await page.click(card("a:sh-a"));
      await page.waitForSelector("#terminal-view:not([hidden]) .xterm-rows");
      await page.click("#terminal");
      await page.keyboard.type("echo via-relay-$((6*7))\n");
      await waitFor(
        () => onHost("a", ["text", "sh-a"]).includes("via-relay-42"),
        30_000,
        "keys typed on the page to reach a",
      );
      await page.waitForFunction(
        () => [...document.querySelectorAll(".xterm-rows > div")].some((row) => row.textContent === "via-relay-42"),
        undefined,
        { timeout: 30_000 },
      );
      await page.screenshot({ path: "/tmp/fleet-desktop-terminal.png" });
      await page.click("#back");
      // b goes away: its daemon ends and its t4a cannot be run (a machine off, as seen from here).
      // a's and this machine's cards stay, b is named; b's sessions end with its daemon.
      const program = join(sshds.b!.dir, "home", "t4a");
      renameSync(program, `${program}.away`);
      Bun.spawnSync([BIN, "shutdown"], { env: { ...sandbox.env, T4A_SOCKET: remoteSocket("b") } });
      await page
        .waitForFunction(() => (document.querySelector("#status")?.textContent ?? "").includes("b: "), undefined, {
          timeout: 60_000,
        })
        .catch(async (error) => {
          await page.screenshot({ path: "/tmp/fleet-away-failed.png" });
          throw new Error(`${(error as Error).message}; the status said: ${await page.textContent("#status")}`);
        });
      await page.waitForFunction((selector) => document.querySelector(selector) === null, card("b:asker"), {
        timeout: 30_000,
      });
      expect(await page.$(card("a:sh-a"))).not.toBeNull();
      // b comes back (a new daemon there, with a session): its cards return without a reload.
      renameSync(`${program}.away`, program);
      onHost("b", ["create", "--name", "back", "--", "sleep", "600"]);
      await page.waitForSelector(card("b:back"), { timeout: 60_000 });
      await page.waitForFunction(
        () => !(document.querySelector("#status")?.textContent ?? "").includes("b: "),
        undefined,
        { timeout: 30_000 },
      );
    } finally {
      await page.context().close();
    }
    // A phone: the same cards, host labels and all.
    const phone = await openPage({ width: 390, height: 844 });
    try {
      await phone.waitForSelector(card("b:back"), { timeout: 30_000 });
      await phone.waitForSelector(card("a:sh-a"));
      await phone.screenshot({ path: "/tmp/fleet-phone-list.png", fullPage: true });
    } finally {
      await phone.context().close();
    }
  },
  240_000,
);

test.if(SSHD !== undefined && CHROMIUM !== undefined)(
  "the create form offers the chosen host's agents, as that host's daemon finds them",
  async () => {
    expect(ready()).toBe(true);
    onHost("a", ["list"]); // a's daemon runs with the fake claude on its PATH; this machine's has none
    const page = await openPage({ width: 1280, height: 800 });
    const claude = () =>
      page.$eval("#agent-names option[value=claude]", (option) => (option as HTMLOptionElement).label).catch(() => "");
    try {
      await page.waitForSelector("#create-host:not([hidden])", { state: "attached", timeout: 30_000 });
      await page.click("#new");
      await page.waitForFunction(
        () => document.querySelector("#agent-names option[value=claude]") !== null,
        undefined,
        { timeout: 30_000 },
      );
      expect(await claude()).toBe("claude — not on PATH");
      await page.selectOption("#create-host select", "a");
      await waitFor(async () => (await claude()).includes(fakeBin), 30_000, "a's claude in the form");
      await page.selectOption("#create-host select", "local");
      await waitFor(async () => (await claude()) === "claude — not on PATH", 30_000, "this machine's agents again");
    } finally {
      await page.context().close();
    }
  },
  120_000,
);

test.if(SSHD !== undefined)(
  "a read-only login reads remote sessions and cannot act on them, nor type into their terminals",
  async () => {
    expect(ready()).toBe(true);
    if (!hostList("a").some((t) => t.id === "sh-a"))
      onHost("a", ["create", "--name", "sh-a", "--", "bash", "--norc", "--noprofile"]);
    await t4a("web", "--stop");
    const login = await t4a("web", "--listen", "127.0.0.1:0", "--read-only");
    const base = login.replace(/\/\?login=.*$/, "");
    const headers = {
      authorization: `Bearer ${readFileSync(join(sandbox.dir, "state", "t4a", "web", "token"), "utf8").trim()}`,
      origin: base,
    };
    const listed = await (await fetch(`${base}/api/sessions?all=true`, { headers })).json();
    expect(listed.terminals.map((t: { id: string }) => t.id)).toContain("a:sh-a");
    expect((await fetch(`${base}/api/sessions/a%3Ash-a/text`, { headers })).status).toBe(200);
    // What a remote worktree session changed reads through the relay too (the page's Changes).
    const repo = join(sandbox.dir, "repo");
    mkdirSync(repo);
    const git = (...args: string[]) =>
      expect(Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo }).exitCode).toBe(
        0,
      );
    git("init", "-q");
    writeFileSync(join(repo, "a.txt"), "one\n");
    git("add", ".");
    git("commit", "-qm", "init");
    onHost("a", [
      "create",
      "--name",
      "wt",
      "--cwd",
      repo,
      "--worktree",
      "w1",
      "--",
      "bash",
      "-c",
      "echo two > a.txt; exec sleep 600",
    ]);
    await waitFor(
      async () =>
        ((await (await fetch(`${base}/api/sessions/a%3Awt/diff`, { headers })).json()).files ?? []).length > 0,
      30_000,
      "a's worktree change through the relay",
    );
    const changes = await (await fetch(`${base}/api/sessions/a%3Awt/diff`, { headers })).json();
    expect(changes.files).toEqual([{ status: " M", path: "a.txt" }]);
    expect(changes.diff).toContain("+two");
    for (const [method, path, body] of [
      ["POST", "/api/sessions/a%3Ash-a/send", { input: "refused\r" }],
      ["POST", "/api/sessions/b%3Aasker/approve", {}],
      ["DELETE", "/api/sessions/a%3Ash-a", undefined],
      ["POST", "/api/sessions", { host: "a", cmd_args: ["true"] }],
    ] as const) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect({ path, status: response.status }).toEqual({ path, status: 403 });
    }
    // Over the relayed WebSocket, keys go nowhere: a's daemon was asked for a read-only attach.
    const socket = new WebSocket(`${base.replace("http", "ws")}/api/sessions/a%3Ash-a/terminal`, {
      headers,
    } as unknown as string[]);
    let screen = "";
    socket.binaryType = "arraybuffer";
    socket.onmessage = (message) =>
      (screen += typeof message.data === "string" ? "" : new TextDecoder().decode(message.data as ArrayBuffer));
    await new Promise<void>(
      (resolve, reject) => ((socket.onopen = () => resolve()), (socket.onerror = () => reject(new Error("no socket")))),
    );
    await waitFor(() => screen.length > 0, 30_000, "a's screen through the relay");
    socket.send(new TextEncoder().encode("echo typed-by-a-viewer\r"));
    socket.send("\x0150;10");
    socket.close();
    // a's viewer count drops once the relay's attach is gone; a marker after that comes after any typed key.
    await waitFor(
      () => !onHost("a", ["list", "--json"]).includes('"viewers":1'),
      30_000,
      "the relayed viewer to be gone",
    );
    onHost("a", ["send", "sh-a", "echo marker-after-close\\r"]);
    await waitFor(() => onHost("a", ["text", "sh-a"]).includes("marker-after-close"), 30_000, "the marker");
    expect(onHost("a", ["text", "sh-a"])).not.toContain("typed-by-a-viewer");
    expect(
      JSON.parse(onHost("a", ["list", "--json"])).terminals.find((t: { id: string }) => t.id === "sh-a").cols,
    ).not.toBe(50);
    await t4a("web", "--stop");
  },
  120_000,
);

test.if(SSHD !== undefined)(
  "a remote session's own event stream: the host's events of that terminal alone, relayed",
  async () => {
    expect(ready()).toBe(true);
    onHost("a", ["create", "--name", "ringer", "--", "bash", "--norc", "--noprofile"]);
    onHost("a", ["create", "--name", "other", "--", "bash", "--norc", "--noprofile"]);
    await t4a("web", "--stop").catch(() => {}); // a server of an earlier test, if any
    const login = await t4a("web", "--listen", "127.0.0.1:0");
    const base = login.replace(/\/\?login=.*$/, "");
    const headers = {
      authorization: `Bearer ${readFileSync(join(sandbox.dir, "state", "t4a", "web", "token"), "utf8").trim()}`,
      origin: base,
    };
    const stream = await fetch(`${base}/api/sessions/a%3Aringer/events`, { headers });
    expect(stream.status).toBe(200);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        seen += value;
      }
    })();
    const events = () =>
      [...seen.matchAll(/^data: (.*)$/gm)].map(
        (match) => JSON.parse(match[1]!) as { event: string; terminal?: string; host?: string },
      );
    try {
      await waitFor(() => events().some((e) => e.event === "host" && e.host === "a"), 30_000, "the stream to join a");
      // Bells on both of a's terminals, again until one comes: only ringer's reach this stream.
      await waitFor(
        () => {
          if (events().some((e) => e.event === "bell")) return true;
          for (const id of ["other", "ringer"]) onHost("a", ["send", id, "printf '\\a'\\r"]);
        },
        30_000,
        "a bell of a:ringer",
      );
      onHost("a", ["send", "other", "printf '\\a'\\r"]);
      onHost("a", ["send", "ringer", "exit\\r"]);
      await waitFor(() => events().some((e) => e.event === "exit"), 30_000, "ringer's exit");
      expect(
        events()
          .filter((e) => e.event !== "host")
          .every((e) => e.terminal === "a:ringer" && e.host === "a"),
      ).toBe(true);
      // Only a host of hosts.json is followed.
      expect((await fetch(`${base}/api/sessions/nowhere%3At1/events`, { headers })).status).toBe(400);
    } finally {
      void reader.cancel();
      for (const id of ["ringer", "other"])
        Bun.spawnSync([BIN, "kill", id], { env: { ...sandbox.env, T4A_SOCKET: remoteSocket("a") } });
      await t4a("web", "--stop");
    }
  },
  120_000,
);

if (!SSHD) console.log("skipped: the web fleet tests need openssh-server (.ci/run installs it)");
