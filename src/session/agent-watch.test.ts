// The agent watch in process, through its host interface: a fake screen and event stream stand in
// for the terminal, so each rule (activity, idle, a question on screen, hooks, typed prompts,
// exit) is checked without a PTY or a CLI.
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

const states = (host: ReturnType<typeof fakeHost>) => host.published.flatMap((event) => (event.event === "agent_state" ? [event.state] : []));
const env = { HOME: "/nonexistent-home" };

test("screen patterns: activity is working, idle is idle, a question on screen at idle is waiting", () => {
  const host = fakeHost();
  const watch = new AgentWatch("a1", findAgent("gemini", env), host, undefined);
  expect(watch.state).toBe("starting");
  host.rows = ["thinking…"];
  host.emit({ event: "activity", terminal: "a1" });
  host.rows = ["Allow execution of: rm -rf build?", "1. Yes, allow once"];
  host.emit({ event: "idle", terminal: "a1", after_ms: 2000 });
  expect(watch.state).toBe("waiting");
  expect(watch.line).toBe("Allow execution of: rm -rf build?");
  // Input answers the question: the same question still on screen no longer counts.
  watch.input();
  host.changedRows = ["done."];
  host.rows = ["Allow execution of: rm -rf build?", "done."];
  host.emit({ event: "idle", terminal: "a1", after_ms: 2000 });
  expect(states(host)).toEqual(["working", "waiting", "idle"]);
  watch.dispose();
});

test("hooks win over activity; waiters resolve on the state and fail when the agent exits", async () => {
  const host = fakeHost();
  const watch = new AgentWatch("a2", findAgent("claude", env), host, undefined);
  const working = watch.until("working", 10_000);
  watch.notify("working");
  expect((await working).state).toBe("working");
  // Once hooked, a pause in output is not "idle": only the Stop hook says so.
  host.emit({ event: "idle", terminal: "a2", after_ms: 2000 });
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

test("a timeout names the state the agent is in", async () => {
  const host = fakeHost();
  const watch = new AgentWatch("a3", findAgent("claude", env), host, undefined);
  await expect(watch.until("idle", 5)).rejects.toThrow('agent "a3" was not idle within 5 ms (it is starting)');
  watch.dispose();
});

test("a typed prompt goes in once the TUI shows its ready pattern, as a bracketed paste, then Enter", async () => {
  const host = fakeHost();
  const watch = new AgentWatch("a4", findAgent("gemini", env), host, "fix the bug");
  host.rows = ["loading…"];
  host.emit({ event: "idle", terminal: "a4", after_ms: 2000 });
  expect(host.written).toEqual([]);
  host.rows = ["Type your message or @path/to/file"];
  host.emit({ event: "idle", terminal: "a4", after_ms: 2000 });
  expect(host.written).toEqual(["\x1b[200~fix the bug\x1b[201~"]);
  expect(watch.state).toBe("working");
  // The Enter follows the paste on a timer of its own.
  for (let tries = 0; host.written.length < 2 && tries < 200; tries++) await Bun.sleep(5);
  expect(host.written).toEqual(["\x1b[200~fix the bug\x1b[201~", "\r"]);
  // Only once.
  host.emit({ event: "idle", terminal: "a4", after_ms: 2000 });
  expect(host.written).toHaveLength(2);
  watch.dispose();
});
