// t4a as tmux, side by side with the real tmux 3.3a in the same test: the same command lines run
// against both (t4a through a `tmux -> t4a` link, tmux with its own private socket directory),
// and what they print and exit with is compared: error words, list formats, capture-pane with and
// without -e/-J/-N on programs that colour, wrap and scroll, and real TUIs (less, vim).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync, existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { AGENTS_BIN, prepareAgentHome } from "./fixtures/agent-homes.ts";
import { FakeModel } from "./fixtures/fake-model.ts";
import { BIN, Sandbox, waitFor } from "./harness.ts";

const REAL_TMUX = Bun.which("tmux", { PATH: "/usr/bin:/bin:/usr/local/bin" });

let box: Sandbox;
let shimDir: string;
let realDir: string;

beforeAll(() => {
  box = new Sandbox();
  shimDir = join(box.dir, "bin");
  realDir = join(box.dir, "real");
  mkdirSync(shimDir, { recursive: true });
  mkdirSync(realDir, { recursive: true, mode: 0o700 });
  symlinkSync(BIN, join(shimDir, "tmux"));
});
afterAll(async () => {
  if (REAL_TMUX) await tmuxReal(["-L", "fresh", "kill-server"]);
  if (REAL_TMUX) await tmuxReal(["kill-server"]);
  // The daemons of the -L servers tests made (a test that failed midway leaves one running).
  for (const name of ["fresh", "ks"]) {
    const socket = join(dirname(box.socket), `tmux-${name}.sock`);
    if (existsSync(socket)) await runWith([BIN, "shutdown"], { ...baseEnv(), T4A_SOCKET: socket });
  }
  await box.cleanup();
});

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function runWith(argv: string[], env: Record<string, string>): Promise<Ran> {
  const child = Bun.spawn(argv, { env, cwd: box.dir, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

const baseEnv = () => {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
  };
  delete env.TMUX;
  delete env.TMUX_PANE;
  return env;
};

/** t4a run as `tmux` (the link), on the sandbox's socket. */
const tmuxT4a = (args: string[]) =>
  runWith([join(shimDir, "tmux"), ...args], {
    ...baseEnv(),
    T4A_SOCKET: box.socket,
    PATH: `${shimDir}:${process.env.PATH}`,
  });
/** The real tmux, with a socket directory of its own. */
const tmuxReal = (args: string[]) =>
  runWith([REAL_TMUX!, ...args], { ...baseEnv(), TMUX_TMPDIR: realDir, PATH: process.env.PATH ?? "/usr/bin:/bin" });

/** The same line through both; the socket paths in their words made alike. */
async function both(args: string[]): Promise<{ t4a: Ran; tmux: Ran }> {
  const [t4a, tmux] = await Promise.all([tmuxT4a(args), tmuxReal(args)]);
  const norm = (ran: Ran) => ({
    ...ran,
    stderr: ran.stderr.replace(/(no server running on|error connecting to) \S+( \([^)]*\))?/g, "$1 SOCKET"),
  });
  return { t4a: norm(t4a), tmux: norm(tmux) };
}

async function same(args: string[]): Promise<Ran> {
  const { t4a, tmux } = await both(args);
  expect({ args, code: t4a.code, stdout: t4a.stdout, stderr: t4a.stderr }).toEqual({
    args,
    code: tmux.code,
    stdout: tmux.stdout,
    stderr: tmux.stderr,
  });
  return t4a;
}

/** Both panes show `text` (the program has drawn what the test compares). */
async function shownInBoth(target: string, text: string): Promise<void> {
  for (const run of [tmuxT4a, tmuxReal]) {
    await waitFor(
      async () => (await run(["capture-pane", "-p", "-t", target])).stdout.includes(text),
      15_000,
      `${text} in ${target}`,
    );
  }
}

/**
 * -J keeps trailing spaces, and tmux counts a row's cells up to the furthest ever written, even
 * after an erase cleared them (xterm, t4a's emulator, forgets erased cells): rows drawn over by a
 * TUI may end in spaces in tmux only. The same text otherwise.
 */
async function sameJoined(target: string): Promise<void> {
  const { t4a, tmux } = await both(["capture-pane", "-p", "-J", "-t", target]);
  const trimmed = (text: string) => text.replace(/ +$/gm, "");
  expect(t4a.code).toBe(tmux.code);
  expect(trimmed(t4a.stdout)).toEqual(trimmed(tmux.stdout));
}

describe.skipIf(!REAL_TMUX)("t4a as tmux against tmux 3.3a", () => {
  test("with no server: the same words and exit codes", async () => {
    for (const args of [["ls"], ["has-session", "-t", "x"], ["kill-session", "-t", "x"], ["list-panes", "-a"]]) {
      await same(args);
    }
    // What only needs the grammar: the same with or without a server.
    await same(["bogus"]);
    await same(["send-keys", "-Z", "x"]);
    await same(["new-session", "-Q"]);
  });

  test("sessions: has-session, duplicates, exact names, targets and their errors", async () => {
    await same(["new-session", "-d", "-s", "alpha", "-x", "100", "-y", "30", "sleep 300"]);
    await same(["new-session", "-d", "-s", "alpha"]);
    await same(["has-session", "-t", "alpha"]);
    await same(["has-session", "-t=alpha"]);
    await same(["has-session", "-t", "alp"]); // a unique prefix
    await same(["has-session", "-t=alp"]); // exact: no prefix
    await same(["has-session", "-t", "nope"]);
    await same(["has-session", "-t", "alpha:1"]);
    await same(["has-session", "-t", "alpha:0.3"]);
    await same(["send-keys", "-t", "nope", "x"]);
    await same(["capture-pane", "-p", "-t", "%9"]);
    await same(["kill-session", "-t", "nope"]);
    await same([
      "display-message",
      "-p",
      "-t",
      "alpha",
      "#{session_name} #{session_id} #{window_id} #{pane_id} #{window_index} #{pane_index}",
    ]);
    await same([
      "display-message",
      "-p",
      "-t",
      "=alpha:0.0",
      "#{pane_width}x#{pane_height} #{window_layout} #{pane_dead} #{session_attached} #{session_windows} #{window_panes} #{pane_active}",
    ]);
    await same([
      "display-message",
      "-p",
      "-t",
      "$0",
      "#{?pane_dead,dead,alive} #{==:#{session_name},alpha} #{=3:session_name} #{nonexistent}|",
    ]);
    await same(["display-message", "-p", "-t", "%0", "#{pane_current_command} #{cursor_x},#{cursor_y}"]);
    expect((await tmuxT4a(["display-message", "-p", "-t", "%0", "#{pane_tty}"])).stdout).toMatch(/^\/dev\/pts\/\d+\n$/);
    await same(["new-session", "-d", "-P", "-F", "#{session_name} #{pane_id} #{session_id}"]);
  });

  test("list formats: list-sessions, list-windows, list-panes with -F and their own", async () => {
    await same(["list-sessions", "-F", "#{session_name}|#{session_windows}|#{session_attached}|#{session_id}"]);
    await same([
      "list-windows",
      "-a",
      "-F",
      "#{session_name}:#{window_index} #{window_id} #{window_layout} #{window_flags}",
    ]);
    await same([
      "list-panes",
      "-a",
      "-F",
      "#{session_name}:#{window_index}.#{pane_index} #{pane_id} #{pane_width}x#{pane_height} #{pane_dead}",
    ]);
    // tmux names a window after its program when it looks (bash until its child has exec'd, and a
    // pane that prints nothing may keep that): the same line but for the name.
    const named = (text: string) => text.replace(/^(\S*\d+): \S+?([*-]?) \(/gm, "$1: NAME$2 (");
    for (const args of [
      ["list-windows", "-t", "alpha"],
      ["list-windows", "-a"],
    ]) {
      const windows = await both(args);
      expect(named(windows.t4a.stdout)).toEqual(named(windows.tmux.stdout));
    }
    await same(["list-sessions", "-f", "#{==:#{session_name},alpha}", "-F", "#{session_name}"]);
    // Their own formats carry times and history figures: the same but for those.
    const { t4a, tmux } = await both(["list-sessions"]);
    const times = (text: string) => text.replace(/\(created [^)]*\)/g, "(created T)");
    expect(times(t4a.stdout)).toEqual(times(tmux.stdout));
    const panes = await both(["list-panes", "-t", "alpha"]);
    const figures = (text: string) => text.replace(/\[history \d+\/\d+, \d+ bytes\]/g, "[history]");
    expect(figures(panes.t4a.stdout)).toEqual(figures(panes.tmux.stdout));
  });

  test("capture-pane, with and without -e/-J/-N, of colours, wrapped lines and scrollback", async () => {
    const script = join(box.dir, "paint.py");
    writeFileSync(
      script,
      [
        "import sys, time",
        "w = sys.stdout.write",
        "for i in range(40): w(f'line {i}\\n')",
        "w('\\033[31mred\\033[0m \\033[1;4mbold-under\\033[0m \\033[3mital\\033[23m \\033[7mrev\\033[27m plain\\n')",
        "w('\\033[38;5;208m256\\033[48;5;17mbg\\033[0m \\033[38;2;10;20;30mrgb\\033[0m \\033[92mbright\\033[0m\\n')",
        "w('x' * 95 + ' wrapped past the edge of a 60-column pane \\033[32mgreen\\033[0m\\n')",
        "w('trailing   \\n')",
        "w('wide: \\u4e2d\\u6587 ok\\n')",
        "w('\\033[1mbold carries\\nacross lines\\033[0m\\n')",
        "w('END\\n')",
        "sys.stdout.flush(); time.sleep(300)",
      ].join("\n"),
    );
    await same(["new-session", "-d", "-s", "paint", "-x", "60", "-y", "20", `python3 ${script}`]);
    await shownInBoth("paint", "END");
    for (const flags of [
      [],
      ["-e"],
      ["-J"],
      ["-N"],
      ["-e", "-J"],
      ["-S", "-"],
      ["-S", "-", "-e"],
      ["-S", "-", "-J"],
      ["-S", "-", "-E", "-"],
      ["-S", "-10", "-E", "5"],
      ["-S", "3", "-E", "1"],
      ["-S", "-5", "-e", "-J", "-N"],
    ]) {
      await same(["capture-pane", "-p", ...flags, "-t", "paint"]);
    }
  });

  test("capture-pane of real TUIs: less and vim", async () => {
    const file = join(box.dir, "notes.txt");
    writeFileSync(file, Array.from({ length: 60 }, (_, i) => `note ${i} ${"~".repeat(i % 50)}`).join("\n"));
    await same([
      "new-session",
      "-d",
      "-s",
      "pager",
      "-x",
      "70",
      "-y",
      "15",
      `env TERM=xterm-256color LESS= less ${file}`,
    ]);
    await shownInBoth("pager", "note 0");
    for (const flags of [[], ["-e"]]) await same(["capture-pane", "-p", ...flags, "-t", "pager"]);
    await sameJoined("pager");
    await same(["send-keys", "-t", "pager", "G"]);
    await shownInBoth("pager", "note 59");
    await same(["capture-pane", "-p", "-e", "-t", "pager"]);
    await same([
      "new-session",
      "-d",
      "-s",
      "editor",
      "-x",
      "70",
      "-y",
      "15",
      `env TERM=xterm-256color vim -u NONE -N -n -c 'syntax on' ${file}`,
    ]);
    await shownInBoth("editor", "note 1");
    for (const flags of [[], ["-e"]]) await same(["capture-pane", "-p", ...flags, "-t", "editor"]);
    await sameJoined("editor");
    await same(["send-keys", "-t", "editor", "Escape", ":q!", "Enter"]);
  });

  test("send-keys: key names, C-/M-, -l, -H, text after keys, -N", async () => {
    await same([
      "new-session",
      "-d",
      "-s",
      "keys",
      "-x",
      "80",
      "-y",
      "10",
      "python3 -c \"import sys,tty; tty.setraw(0); print('READY', end='\\r\\n', flush=True); print(repr(sys.stdin.read(40)), end='\\r\\nDONE\\r\\n', flush=True); import time; time.sleep(300)\"",
    ]);
    await shownInBoth("keys", "READY");
    await same(["send-keys", "-t", "keys", "abc", "Enter", "C-a", "M-x", "Up", "-", "F5", "BTab", "Space"]);
    await same(["send-keys", "-t", "keys", "-l", "Enter"]);
    await same(["send-keys", "-t", "keys", "-H", "41", "42"]);
    await same(["send-keys", "-t", "keys", "-N", "3", "z"]);
    await same(["send-keys", "-t", "keys", "^C", "C-m", "end!", "x", "y", "zzzzzzzzzz"]);
    await shownInBoth("keys", "DONE");
    await same(["capture-pane", "-p", "-t", "keys"]);
  });

  test("buffers: set, show, list, load, save, paste -d", async () => {
    await same(["set-buffer", "-b", "one", "hello"]);
    await same(["set-buffer", "-b", "one", "-a", " world"]);
    await same(["show-buffer", "-b", "one"]);
    await same(["show-buffer", "-b", "nope"]);
    const file = join(box.dir, "buffer.txt");
    writeFileSync(file, "from a file\n");
    await same(["load-buffer", "-b", "two", file]);
    await same(["list-buffers", "-F", "#{buffer_name} #{buffer_size}"]);
    await same(["save-buffer", "-b", "two", "-"]);
    await same(["new-session", "-d", "-s", "paste", "-x", "60", "-y", "8", "cat"]);
    await same(["paste-buffer", "-d", "-b", "two", "-t", "paste"]);
    await same(["list-buffers", "-F", "#{buffer_name}"]);
    await same(["delete-buffer", "-b", "one"]);
    await same(["delete-buffer", "-b", "one"]);
    // The pasted line as the tty echoed it, then as cat wrote it back: both, or a capture may see one.
    await shownInBoth("paste", "from a file\nfrom a file");
    await same(["capture-pane", "-p", "-t", "paste"]);
  });

  test("options: @user options, show-options, refused names, remain-on-exit", async () => {
    await same(["set-option", "-g", "@owner", "agent one"]);
    await same(["show-options", "-g", "@owner"]);
    await same(["show-options", "-gv", "@owner"]);
    await same(["show-options", "-v", "@nope"]);
    await same(["set-option", "-g", "not-an-option", "1"]);
    await same(["set-option", "-gq", "not-an-option", "1"]);
    await same(["show-options", "-g", "default-"]); // ambiguous prefix
    await same(["set-option", "-g", "hist", "3000"]);
    await same(["set-option", "-g", "history-l", "3000"]); // a unique prefix
    await same(["show-options", "-gv", "history-limit"]);
    await same(["set-option", "-t", "alpha", "@task", "42"]);
    await same(["show-options", "-t", "alpha", "@task"]);
    await same(["display-message", "-p", "-t", "alpha", "#{@task} #{@owner}"]);
    await same(["set-option", "-g", "mouse", "on"]);
    await same(["show-options", "-gv", "mouse"]);
    // remain-on-exit: a pane whose program ended stays, dead, only with it.
    await same(["new-session", "-d", "-s", "brief", "true"]);
    // Gone in both before remain-on-exit is set (the option as it is at the exit decides).
    for (const run of [tmuxT4a, tmuxReal])
      await waitFor(async () => (await run(["has-session", "-t", "brief"])).code === 1);
    await same(["set-option", "-g", "remain-on-exit", "on"]);
    await same(["new-session", "-d", "-s", "kept", "exit 3"]);
    for (const run of [tmuxT4a, tmuxReal])
      await waitFor(async () => (await run(["display-message", "-p", "-t", "kept", "#{pane_dead}"])).stdout === "1\n");
    await same(["has-session", "-t", "brief"]);
    await same(["display-message", "-p", "-t", "kept", "#{pane_dead} #{window_panes}"]);
    // tmux 3.3a fills pane_dead_status only when it reaped the pane in time (seen empty and 3 here).
    expect((await tmuxT4a(["display-message", "-p", "-t", "kept", "#{pane_dead_status}"])).stdout).toBe("3\n");
    await same(["set-option", "-g", "remain-on-exit", "off"]);
    await same(["kill-session", "-t", "kept"]);
  });

  test("wait-for: a signal before the wait is kept; -L/-U lock", async () => {
    await same(["wait-for", "-S", "early"]);
    await same(["wait-for", "early"]);
    await same(["wait-for", "-L", "lock"]);
    await same(["wait-for", "-U", "lock"]);
    await same(["wait-for", "-U", "lock"]);
  });
});

describe.skipIf(!REAL_TMUX)("windows: each a t4a session in its tmux session", () => {
  // Last: tmux counts sessions, windows and panes apart, t4a gives them one count, so the ids
  // (`$N`, `@N`, `%N`) differ from here on; what is compared leaves them out.
  const layout = "#{window_index} #{window_active} #{window_flags} #{window_panes} #{session_windows}";
  test("new-window, select-window, kill-window, the current and last windows, kill-session", async () => {
    await same(["new-session", "-d", "-s", "win", "-x", "90", "-y", "20", "sleep 300"]);
    await same(["new-window", "-d", "-t", "win", "sleep 301"]);
    await same(["new-window", "-t", "win", "-n", "named", "-P", "sleep 302"]);
    await same(["new-window", "-t", "win:5", "-P", "-F", "#{session_name}:#{window_index}", "sleep 303"]);
    await same(["new-window", "-t", "win:5", "sleep 304"]);
    await same(["list-windows", "-t", "win", "-F", layout]);
    await same(["display-message", "-p", "-t", "win", "#{window_index}"]);
    await same(["display-message", "-p", "-t", "win:named", "#{window_index}"]);
    await same(["display-message", "-p", "-t", "win:^", "#{window_index}"]);
    await same(["display-message", "-p", "-t", "win:$", "#{window_index}"]);
    await same(["select-window", "-t", "win:1"]);
    await same(["kill-window", "-t", "win:1"]);
    await same(["list-windows", "-t", "win", "-F", layout]);
    await same(["select-window", "-t", "win:0"]);
    await same(["select-window", "-t", "win:2"]);
    await same(["list-windows", "-t", "win", "-F", layout]);
    await same(["list-panes", "-s", "-t", "win", "-F", "#{window_index}.#{pane_index} #{pane_width}x#{pane_height}"]);
    await same(["list-sessions", "-F", "#{session_name} #{session_windows}"]);
    // Options: a session's whichever window is current, a window's its own.
    await same(["set-option", "-t", "win", "@team", "blue"]);
    await same(["select-window", "-t", "win:5"]);
    await same(["show-options", "-t", "win", "@team"]);
    await same(["display-message", "-p", "-t", "win:2", "#{@team}"]);
    await same(["set-window-option", "-t", "win:5", "@w", "five"]);
    await same(["display-message", "-p", "-t", "win:5", "#{@w}|#{@team}"]);
    await same(["display-message", "-p", "-t", "win:2", "#{@w}|"]);
    await same(["select-window", "-t", "win:2"]);
    await same(["kill-window", "-t", "win:0"]);
    await same(["has-session", "-t", "win"]);
    await same(["list-windows", "-t", "win", "-F", layout]);
    await same(["kill-session", "-t", "win"]);
    await same(["has-session", "-t", "win"]);
  });

  test("move-window across sessions and indexes, -r, select-layout", async () => {
    const flags = "#{session_name}:#{window_index} #{window_active} #{window_flags}";
    await same(["new-session", "-d", "-s", "ma", "sleep 300"]);
    await same(["new-window", "-d", "-t", "ma", "sleep 301"]);
    await same(["new-session", "-d", "-s", "mb", "sleep 302"]);
    await same(["move-window", "-s", "ma:1", "-t", "mb:0"]); // in use
    await same(["move-window", "-s", "ma:1", "-t", "mb"]); // the next free index
    await same(["list-windows", "-a", "-f", "#{m:m[ab],#{session_name}}", "-F", flags]);
    await same(["move-window", "-d", "-s", "mb:1", "-t", "mb:5"]);
    await same(["list-windows", "-t", "mb", "-F", flags]);
    await same(["move-window", "-r", "-t", "mb"]);
    await same(["list-windows", "-t", "mb", "-F", flags]);
    await same(["move-window", "-s", "ma:0", "-t", "mb:"]); // ma's last window: ma ends
    await same(["move-window", "-k", "-s", "mb:2", "-t", "mb:0"]);
    await same(["has-session", "-t", "ma"]);
    await same(["list-windows", "-t", "mb", "-F", flags]);
    await same(["select-layout", "-t", "mb"]);
    await same(["select-layout", "-t", "mb", "tiled"]);
    await same(["select-layout", "-t", "mb", "bogus"]);
    await same(["kill-session", "-t", "mb"]);
  });

  test("split-window, select-pane, resize-pane, kill-pane, select-layout: the same panes and cells", async () => {
    // Cells as tmux reports them (ids left out: tmux counts panes apart from sessions).
    const cells =
      "#{pane_index} #{pane_width}x#{pane_height} #{pane_left},#{pane_top} #{pane_right},#{pane_bottom} #{pane_active} #{pane_at_left}#{pane_at_right}#{pane_at_top}#{pane_at_bottom} #{window_panes} #{window_width}x#{window_height}";
    await same(["new-session", "-d", "-s", "sp", "-x", "80", "-y", "24", "sleep 300"]);
    await same(["split-window", "-t", "sp", "sleep 301"]);
    await same([
      "split-window",
      "-h",
      "-t",
      "sp",
      "-P",
      "-F",
      "#{session_name}:#{window_index}.#{pane_index}",
      "sleep 302",
    ]);
    await same(["split-window", "-v", "-l", "3", "-t", "sp:0.0", "sleep 303"]);
    await same(["split-window", "-h", "-p", "30", "-b", "-d", "-t", "sp:0.0", "sleep 304"]);
    await same(["split-window", "-h", "-l", "40%", "-t", "sp:0.4", "-P", "sleep 305"]);
    await same(["list-panes", "-t", "sp", "-F", cells]);
    await same(["display-message", "-p", "-t", "sp", "#{pane_index} #{window_panes}"]);
    await same(["resize-pane", "-t", "sp:0.1", "-x", "20"]);
    await same(["resize-pane", "-t", "sp:0.3", "-U", "2"]);
    await same(["resize-pane", "-t", "sp:0.5", "-L", "3"]);
    await same(["list-panes", "-t", "sp", "-F", cells]);
    await same(["kill-pane", "-t", "sp:0.2"]);
    await same(["list-panes", "-t", "sp", "-F", cells]);
    await same(["select-pane", "-t", "sp:0.2"]);
    await same(["select-pane", "-t", "sp", "-l"]);
    await same(["display-message", "-p", "-t", "sp", "#{pane_index}"]);
    await same(["select-pane", "-t", "sp", "-R"]);
    await same(["display-message", "-p", "-t", "sp", "#{pane_index}"]);
    await same(["select-pane", "-t", "sp", "-D"]);
    await same(["display-message", "-p", "-t", "sp:0.{bottom}", "#{pane_index}"]);
    for (const layout of ["main-vertical", "main-h", "tiled", "even-horizontal", "even-vertical"]) {
      await same(["select-layout", "-t", "sp", layout]);
      await same(["list-panes", "-t", "sp", "-F", cells]);
    }
    await same(["set-option", "-w", "-t", "sp", "main-pane-width", "50%"]);
    await same(["select-layout", "-t", "sp", "main-vertical"]);
    await same(["list-panes", "-t", "sp", "-F", cells]);
    await same(["resize-window", "-t", "sp", "-x", "100", "-y", "30"]);
    await same(["list-panes", "-t", "sp", "-F", cells]);
    // A program in a pane sees its cell's size.
    await same([
      "split-window",
      "-t",
      "sp:0.0",
      "-l",
      "5",
      "-c",
      "/tmp",
      "-e",
      "WHERE=x",
      "sh -c 'stty size; echo $WHERE; pwd; sleep 300'",
    ]);
    await shownInBoth("sp:0.1", "/tmp");
    await same(["capture-pane", "-p", "-t", "sp:0.1", "-E", "2"]);
    await same(["list-panes", "-s", "-t", "sp", "-F", `#{window_index}.${cells}`]);
    await same(["split-window", "-t", "sp:0.1", "-l", "500"]);
    await same(["kill-pane", "-a", "-t", "sp:0.3"]);
    await same(["list-panes", "-t", "sp", "-F", cells]);
    await same(["kill-pane", "-t", "sp"]);
    await same(["has-session", "-t", "sp"]);
  });

  test("a fresh server: the same ids and layout strings as tmux's", async () => {
    // On a server of its own, t4a's one count gives the ids tmux's three counts give here.
    const L = (args: string[]) => ["-L", "fresh", ...args];
    const ids = "#{session_id} #{window_id} #{pane_id} #{pane_index} #{window_layout}";
    await same(L(["new-session", "-d", "-s", "f", "-x", "120", "-y", "40", "sleep 300"]));
    await same(L(["split-window", "-h", "-t", "f", "-P", "-F", "#{pane_id}", "sleep 301"]));
    await same(L(["split-window", "-t", "f", "-P", "-F", "#{pane_id} #{window_id}", "sleep 302"]));
    await same(L(["split-window", "-b", "-l", "25%", "-t", "f:0.0", "sleep 303"]));
    await same(L(["list-panes", "-t", "f", "-F", ids]));
    await same(L(["display-message", "-p", "-t", "%2", ids]));
    await same(L(["display-message", "-p", "-t", "@0.1", ids]));
    await same(L(["select-layout", "-t", "f", "main-horizontal"]));
    await same(L(["list-panes", "-t", "f", "-F", ids]));
    const string = (await tmuxReal(L(["display-message", "-p", "-t", "f", "#{window_layout}"]))).stdout.trim();
    await same(L(["select-layout", "-t", "f", "tiled"]));
    await same(L(["select-layout", "-t", "f", string]));
    await same(L(["list-panes", "-t", "f", "-F", ids]));
    await same(L(["select-layout", "-t", "f", "1234,80x24,0,0,9"]));
    await same(L(["kill-server"]));
    // Gone on both (tmux leaves its socket file behind: "no server running"; t4a removes its own).
    const { t4a, tmux } = await both(L(["ls"]));
    expect([t4a.code, tmux.code]).toEqual([1, 1]);
  });

  test("rename-session and rename-window", async () => {
    await same(["new-session", "-d", "-s", "old", "sleep 300"]);
    await same(["new-window", "-d", "-t", "old", "sleep 301"]);
    await same(["new-session", "-d", "-s", "taken", "sleep 302"]);
    await same(["rename-session", "-t", "old", "taken"]);
    await same(["rename-session", "-t", "old", "new:name"]);
    await same(["has-session", "-t", "old"]);
    await same(["list-windows", "-t", "new_name", "-F", "#{session_name}:#{window_index} #{window_active}"]);
    await same(["split-window", "-d", "-t", "new_name:1", "sleep 303"]);
    await same(["rename-window", "-t", "new_name:1", "renamed"]);
    // (Window 1 only: tmux names window 0 after its program once its rename timer runs.)
    await same(["list-panes", "-t", "new_name:1", "-F", "#{window_index}.#{pane_index} #{window_name}"]);
    await same(["list-panes", "-s", "-t", "new_name", "-F", "#{window_index}.#{pane_index} #{pane_active}"]);
    // The old name is free for a new session.
    await same(["new-session", "-d", "-s", "old", "sleep 304"]);
    await same(["list-sessions", "-F", "#{session_name} #{session_windows}", "-f", "#{m:*[od]*,#{session_name}}"]);
    for (const name of ["old", "new_name", "taken"]) await same(["kill-session", "-t", name]);
  });
});

describe("t4a as tmux, on its own", () => {
  test("-V names t4a; the link refuses to replace a real tmux", async () => {
    const version = await tmuxT4a(["-V"]);
    expect(version.stdout).toMatch(/^tmux 3\.3a \(t4a [^)]+\)\n$/);
    const dir = join(box.dir, "shim-test");
    mkdirSync(dir);
    writeFileSync(join(dir, "tmux"), "#!/bin/sh\necho real\n", { mode: 0o755 });
    const refused = await box.run(["tmux-shim", dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("not replaced");
    expect(readFileSync(join(dir, "tmux"), "utf8")).toContain("real");
    const other = join(box.dir, "shim-ok");
    expect((await box.run(["tmux-shim", other])).code).toBe(0);
    expect((await runWith([join(other, "tmux"), "-V"], baseEnv())).stdout).toContain("t4a");
    expect((await box.run(["tmux-shim", other])).code).toBe(0); // already ours
  });

  test("one set of sessions: a tmux session is a t4a session, a t4a session a tmux target", async () => {
    expect(
      (await tmuxT4a(["new-session", "-d", "-s", "shared", "-e", "GREETING=hi there", "bash --norc --noprofile"])).code,
    ).toBe(0);
    const listed = await box.ok(["list", "--json"]);
    expect(JSON.parse(listed).terminals.map((t: { id: string }) => t.id)).toContain("shared");
    await box.ok(["create", "--name", "made-by-t4a", "--", "sleep", "300"]);
    expect((await tmuxT4a(["has-session", "-t", "made-by-t4a"])).code).toBe(0);
    // $TMUX and $TMUX_PANE inside the pane, and -e reached it.
    await tmuxT4a(["send-keys", "-t", "shared", 'echo "[$TMUX_PANE] [${TMUX%%,*}] [$GREETING]"', "Enter"]);
    const pane = (await tmuxT4a(["display-message", "-p", "-t", "shared", "#{pane_id}"])).stdout.trim();
    await waitFor(async () =>
      (await tmuxT4a(["capture-pane", "-p", "-t", "shared"])).stdout.includes(`[${pane}] [${box.socket}] [hi there]`),
    );
    // A tmux command inside the pane acts on its own pane without -t.
    await tmuxT4a(["send-keys", "-t", "shared", "tmux display -p 'inside #{session_name}' > inside.txt", "Enter"]);
    await waitFor(
      () =>
        existsSync(join(box.dir, "inside.txt")) &&
        readFileSync(join(box.dir, "inside.txt"), "utf8") === "inside shared\n",
    );
  });

  test("kill-server ends what tmux made; a t4a session made outside tmux keeps the daemon", async () => {
    const socket = join(dirname(box.socket), "tmux-ks.sock");
    const env = { ...baseEnv(), T4A_SOCKET: box.socket, PATH: `${shimDir}:${process.env.PATH}` };
    const tmux = (args: string[]) => runWith([join(shimDir, "tmux"), "-L", "ks", ...args], env);
    const t4a = (args: string[]) => runWith([BIN, ...args], { ...env, T4A_SOCKET: socket });
    expect((await tmux(["new-session", "-d", "-s", "made-by-tmux", "sleep 300"])).code).toBe(0);
    expect(existsSync(socket)).toBe(true);
    expect((await t4a(["create", "--name", "made-by-t4a", "--", "sleep", "300"])).code).toBe(0);
    const killed = await tmux(["kill-server"]);
    expect(killed.code).toBe(0);
    expect(killed.stderr).toContain("made-by-t4a");
    const ids = (JSON.parse((await t4a(["list", "--json"])).stdout).terminals as Array<{ id: string; alive: boolean }>)
      .filter((t) => t.alive)
      .map((t) => t.id);
    expect(ids).toEqual(["made-by-t4a"]);
    // With only tmux's sessions, kill-server ends the daemon as tmux's server exits.
    expect((await t4a(["kill", "made-by-t4a"])).code).toBe(0);
    expect((await tmux(["new-session", "-d", "-s", "again", "sleep 300"])).code).toBe(0);
    expect(await tmux(["kill-server"])).toEqual({ code: 0, stdout: "", stderr: "" });
    const gone = await tmux(["ls"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/no server running|error connecting/);
  });

  test("a known agent CLI started through tmux is an agent session, as t4a create --agent makes it", async () => {
    const installed = existsSync(join(AGENTS_BIN, "claude"));
    expect(installed).toBe(true);
    const model = new FakeModel();
    try {
      const home = join(box.dir, "home-claude");
      const work = join(box.dir, "work-claude");
      mkdirSync(home, { recursive: true });
      mkdirSync(work, { recursive: true });
      const env = {
        ...baseEnv(),
        ...prepareAgentHome(home, model.url, [work]),
        HOME: home,
        T4A_SOCKET: box.socket,
        PATH: `${shimDir}:${AGENTS_BIN}:${process.env.PATH}`,
      };
      const tmux = (args: string[]) => runWith([join(shimDir, "tmux"), ...args], env);
      expect((await tmux(["new-session", "-d", "-s", "agent-one", "-c", work, "claude"])).code).toBe(0);
      expect((await tmux(["new-session", "-d", "-s", "agent-two", "-c", work, "claude", "--model", "x"])).code).toBe(0);
      // A shell line that is more than a command is run as it is, not as an agent.
      expect(
        (await tmux(["new-session", "-d", "-s", "not-agent", "-c", work, "claude --version; sleep 300"])).code,
      ).toBe(0);
      const terminals = JSON.parse(await box.ok(["list", "--json"])).terminals as Array<{ id: string; agent?: string }>;
      const agentOf = (id: string) => terminals.find((t) => t.id === id)?.agent;
      expect([agentOf("agent-one"), agentOf("agent-two"), agentOf("not-agent")]).toEqual([
        "claude",
        "claude",
        undefined,
      ]);
      // Its state is read as an agent's: claude's input box, then idle.
      await waitFor(
        async () => {
          const listed = JSON.parse(await box.ok(["list", "--json"])).terminals as Array<{
            id: string;
            agent_state?: string;
          }>;
          return listed.find((t) => t.id === "agent-one")?.agent_state !== undefined;
        },
        60_000,
        "an agent state for the tmux-made claude",
      );
      // The session's environment never chooses the CLI: a `claude` first on `-e PATH` does not run.
      const fake = join(box.dir, "fake-bin");
      const mark = join(box.dir, "FAKE-CLAUDE-RAN");
      mkdirSync(fake, { recursive: true });
      writeFileSync(join(fake, "claude"), `#!/bin/sh\ntouch ${mark}\nsleep 300\n`, { mode: 0o755 });
      const envPath = `PATH=${fake}:${process.env.PATH}`;
      expect((await tmux(["new-session", "-d", "-s", "agent-env", "-c", work, "-e", envPath, "claude"])).code).toBe(0);
      // The real claude draws its screen (the fake would draw nothing: it only leaves its mark).
      await waitFor(
        async () => (await box.screen("agent-env")).trim() !== "",
        60_000,
        "claude's screen in the -e PATH session",
      );
      expect(existsSync(mark)).toBe(false);
      for (const id of ["agent-one", "agent-two", "not-agent", "agent-env"]) await tmux(["kill-session", "-t", id]);
    } finally {
      model.stop();
    }
  });

  test("a waiter killed by timeout takes no later signal", async () => {
    const killed = await runWith(["timeout", "0.5", join(shimDir, "tmux"), "wait-for", "gone"], {
      ...baseEnv(),
      T4A_SOCKET: box.socket,
    });
    expect(killed.code).toBe(124);
    expect((await tmuxT4a(["wait-for", "-S", "gone"])).code).toBe(0);
    // The signal found nobody (the killed waiter left): kept for this wait, which returns at once.
    expect((await tmuxT4a(["wait-for", "gone"])).code).toBe(0);
  });

  test("pipe-pane writes the pane's output to a command until stopped", async () => {
    const log = join(box.dir, "pipe.log");
    expect((await tmuxT4a(["new-session", "-d", "-s", "piped", "bash --norc --noprofile"])).code).toBe(0);
    expect((await tmuxT4a(["pipe-pane", "-t", "piped", `cat > ${log}`])).code).toBe(0);
    await tmuxT4a(["send-keys", "-t", "piped", "echo PIPED-$((6*7))", "Enter"]);
    await waitFor(() => existsSync(log) && readFileSync(log, "utf8").includes("PIPED-42"));
    expect((await tmuxT4a(["pipe-pane", "-t", "piped"])).code).toBe(0);
    await Bun.sleep(200);
    const before = readFileSync(log, "utf8");
    await tmuxT4a(["send-keys", "-t", "piped", "echo AFTER-$((6*7))", "Enter"]);
    await waitFor(async () => (await tmuxT4a(["capture-pane", "-p", "-t", "piped"])).stdout.includes("AFTER-42"));
    expect(readFileSync(log, "utf8")).toBe(before);
  });

  test("attach-session shows the session in a terminal and types into it; C-\\ detaches", async () => {
    expect((await tmuxT4a(["new-session", "-d", "-s", "viewed", "bash --norc --noprofile"])).code).toBe(0);
    await tmuxT4a(["send-keys", "-t", "viewed", "echo VIEWED-$((6*7))", "Enter"]);
    // The terminal attach takes over: a t4a session of its own (a real PTY).
    await box.ok(["create", "--name", "viewer", "--", join(shimDir, "tmux"), "attach-session", "-t", "viewed"]);
    await waitFor(async () => (await box.screen("viewer")).includes("VIEWED-42"), 15_000, "the attached screen");
    await box.ok(["send", "viewer", "echo TYPED-$((6*7))\r"]);
    await waitFor(async () => (await tmuxT4a(["capture-pane", "-p", "-t", "viewed"])).stdout.includes("TYPED-42"));
    await box.ok(["send", "viewer", "--key", "C-\\"]);
    const viewerAlive = async () =>
      (JSON.parse(await box.ok(["list", "--json"])).terminals as Array<{ id: string; alive: boolean }>).find(
        (t) => t.id === "viewer",
      )?.alive;
    await waitFor(async () => (await viewerAlive()) === false, 15_000, "the detach");
    expect((await tmuxT4a(["has-session", "-t", "viewed"])).code).toBe(0);
  });

  test("mouse on: the wheel in attach-session scrolls the history, as tmux's copy mode; down to the end leaves it", async () => {
    expect((await tmuxT4a(["new-session", "-d", "-s", "wheel", "bash --norc --noprofile"])).code).toBe(0);
    expect((await tmuxT4a(["set-option", "-t", "wheel", "mouse", "on"])).code).toBe(0);
    await tmuxT4a(["send-keys", "-t", "wheel", "seq 1 200", "Enter"]);
    await waitFor(async () => /^200$/m.test((await tmuxT4a(["capture-pane", "-p", "-t", "wheel"])).stdout));
    await box.ok(["create", "--name", "wheel-view", "--", join(shimDir, "tmux"), "attach-session", "-t", "wheel"]);
    await waitFor(async () => /^200$/m.test(await box.screen("wheel-view")), 15_000, "the attached screen");
    expect(await box.screen("wheel-view")).not.toMatch(/^150$/m);
    // Four steps of the wheel up, as the terminal reports them (SGR mouse, button 64): 20 lines.
    for (let i = 0; i < 4; i++) await box.ok(["send", "wheel-view", "\x1b[<64;10;10M"]);
    await waitFor(
      async () => {
        const screen = await box.screen("wheel-view");
        return screen.includes("[20/") && /^160$/m.test(screen) && !/^200$/m.test(screen);
      },
      15_000,
      "the history 20 lines up",
    );
    // Keys in the view are the view's: nothing reaches the program.
    await box.ok(["send", "wheel-view", "x"]);
    // Down to the end: the live screen again, and keys reach the program.
    for (let i = 0; i < 4; i++) await box.ok(["send", "wheel-view", "\x1b[<65;10;10M"]);
    await waitFor(
      async () => {
        const screen = await box.screen("wheel-view");
        return !screen.includes("[20/") && !screen.includes("[5/") && /^200$/m.test(screen);
      },
      15_000,
      "the live screen back",
    );
    await box.ok(["send", "wheel-view", "echo BACK-$((6*7))\r"]);
    await waitFor(async () => (await tmuxT4a(["capture-pane", "-p", "-t", "wheel"])).stdout.includes("BACK-42"));
    expect((await tmuxT4a(["capture-pane", "-p", "-t", "wheel"])).stdout).not.toContain("xecho");
    await box.ok(["send", "wheel-view", "--key", "C-\\"]);
  });

  test("what t4a does not implement fails, saying so", async () => {
    for (const args of [
      ["swap-pane"],
      ["join-pane"],
      ["copy-mode"],
      ["send-keys", "-X", "begin-selection"],
      ["capture-pane", "-a", "-p"],
    ]) {
      const ran = await tmuxT4a(args);
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain("t4a does not implement");
    }
  });
});
