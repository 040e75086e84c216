// The log readers on records shaped as the real CLIs write them (copied from gemini 0.61's log
// around a denied tool call, shortened).
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openFiles } from "../terminal/open-files.ts";
import { findLog, readTranscript } from "./transcript.ts";

test(
  "gemini: a `$set.messages` record is the whole history again (rewritten " +
    "after a deny: new ids, parts as lists, the denied turn left out)",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "t4a-transcript-test-"));
    try {
      const context = { text: "<session_context>\nThis is the Gemini CLI.\n</session_context>" };
      const records = [
        { sessionId: "3168b70a", projectHash: "ccf0", startTime: "2026-11-26T20:46:30.869Z", kind: "main" },
        { $set: { messages: [{ id: "c1", type: "user", content: [context] }] } },
        { id: "u1", type: "user", content: [{ text: "t4a:say:The answer is 42" }] },
        { $set: { lastUpdated: "2026-11-26T20:46:32.903Z" } },
        { id: "g1", type: "gemini", content: "The answer is 42", thoughts: [] },
        { id: "u2", type: "user", content: [{ text: "Please t4a:write:/work/denied.txt" }] },
        { id: "g2", type: "gemini", content: "", thoughts: [] },
        {
          id: "g2",
          type: "gemini",
          content: "",
          toolCalls: [{ name: "write_file", args: { file_path: "/work/denied.txt" }, status: "cancelled" }],
        },
        { id: "i1", type: "info", content: "Request cancelled." },
        { id: "c2", type: "user", content: [context, { text: "t4a:say:The answer is 42" }] },
        { id: "g3", type: "gemini", content: [{ text: "The answer is 42" }], thoughts: [], tokens: null },
        {
          $set: {
            messages: [
              { id: "c2", type: "user", content: [context, { text: "t4a:say:The answer is 42" }] },
              { id: "g3", type: "gemini", content: [{ text: "The answer is 42" }] },
            ],
          },
        },
        { id: "u3", type: "user", content: [{ text: "t4a:say:Next" }] },
        { id: "g4", type: "gemini", content: "Next" },
      ];
      const log = join(dir, "session.jsonl");
      writeFileSync(log, records.map((record) => JSON.stringify(record)).join("\n"));
      expect(
        await readTranscript(log, dir, "gemini", { home: dir, cwd: dir, conversationId: undefined, startedAt: 0 }),
      ).toEqual([
        { role: "user", text: "t4a:say:The answer is 42" },
        { role: "assistant", text: "The answer is 42" },
        { role: "user", text: "t4a:say:Next" },
        { role: "assistant", text: "Next" },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "codex: of two sessions' rollouts in one directory, the one this " +
    "session's processes hold open is its own, though the other is newer",
  async () => {
    const home = mkdtempSync(join(tmpdir(), "t4a-transcript-test-"));
    const day = join(home, ".codex/sessions/2026/12/06");
    mkdirSync(day, { recursive: true });
    const startedAt = Date.now() - 1_000;
    const rollout = (name: string, words: string) => {
      const path = join(day, `rollout-${name}.jsonl`);
      const meta = { type: "session_meta", payload: { cwd: "/work", timestamp: new Date().toISOString() } };
      const answer = {
        type: "response_item",
        payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: words }] },
      };
      writeFileSync(path, `${JSON.stringify(meta)}\n${JSON.stringify(answer)}\n`);
      return path;
    };
    const mine = rollout("a", "mine");
    const theirs = rollout("b", "theirs");
    utimesSync(mine, new Date(startedAt + 100), new Date(startedAt + 100)); // the other session wrote last
    // Its process holds it open, as codex does while it runs; a child of it, as the node wrapper's.
    const holder = Bun.spawn(["bash", "-c", `bash -c 'exec 3>>"${mine}"; exec sleep 30' & wait`]);
    try {
      const log = { paths: [".codex/sessions/*/*/*/rollout-*.jsonl"], format: "codex" as const };
      const place = { home, cwd: "/work", conversationId: undefined, startedAt };
      expect(findLog(log, place)?.path).toBe(theirs); // without the open files: the newest
      let found: ReturnType<typeof findLog>;
      for (let tries = 0; tries < 200 && found?.path !== mine; tries++) {
        found = findLog(log, { ...place, openFiles: () => openFiles(holder.pid) });
        if (found?.path !== mine) await Bun.sleep(25); // until the child has opened it
      }
      expect(found).toMatchObject({ path: mine, held: true });
      const messages = await readTranscript(found!.path, found!.root, "codex", place);
      expect(messages.map((message) => message.text)).toEqual(["mine"]);
    } finally {
      for (const child of readFileSync(`/proc/${holder.pid}/task/${holder.pid}/children`, "utf8").split(" "))
        if (child.trim()) process.kill(Number(child), "SIGKILL");
      holder.kill("SIGKILL");
      rmSync(home, { recursive: true, force: true });
    }
  },
);

/** A home with one log at `relative`, its records as JSON lines. */
function logAt(home: string, relative: string, records: object[]): string {
  const path = join(home, relative);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, `${records.map((record) => JSON.stringify(record)).join("\n")}\n`);
  return path;
}

test(
  "pi: its session log read (tool call and result one line each, its model changes left out), " +
    "found by directory and start",
  async () => {
    const home = mkdtempSync(join(tmpdir(), "t4a-transcript-test-"));
    try {
      const startedAt = Date.parse("2026-12-06T16:51:33.000Z");
      // Copied from pi 0.73.1's log of a turn against the fake model, shortened.
      const records = (cwd: string, at: string) => [
        { type: "session", version: 3, id: "01a24c44-991f-751d-b5ba-b3fc65b13061", timestamp: at, cwd },
        { type: "model_change", id: "d7284f0a", parentId: null, provider: "fake", modelId: "fake-model" },
        { type: "thinking_level_change", id: "9b0a4a18", parentId: "d7284f0a", thinkingLevel: "off" },
        {
          type: "message",
          id: "c32b6ee6",
          message: { role: "user", content: [{ type: "text", text: "Please t4a:write:/work/log-pi.txt" }] },
        },
        {
          type: "message",
          id: "6dfc4d8a",
          message: {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "A file to write." },
              {
                type: "toolCall",
                id: "call_2",
                name: "write",
                arguments: { path: "/work/log-pi.txt", content: "FAKE-FILE-CONTENT" },
              },
            ],
            api: "openai-completions",
            stopReason: "toolUse",
          },
        },
        {
          type: "message",
          id: "c62b021e",
          message: {
            role: "toolResult",
            toolCallId: "call_2",
            toolName: "write",
            content: [{ type: "text", text: "Successfully wrote 17 bytes to /work/log-pi.txt" }],
            isError: false,
          },
        },
        {
          type: "message",
          id: "b8d50a1a",
          message: { role: "assistant", content: [{ type: "text", text: "FAKE-ANSWER 1" }], stopReason: "stop" },
        },
      ];
      const sessions = ".pi/agent/sessions";
      const mine = logAt(
        home,
        `${sessions}/--work--/2026-12-06T16-51-33-791Z_01a2.jsonl`,
        records("/work", "2026-12-06T16:51:33.791Z"),
      );
      // Another directory's, and this directory's from before the session started: not its own.
      logAt(
        home,
        `${sessions}/--other--/2026-12-06T16-51-34-000Z_02b3.jsonl`,
        records("/other", "2026-12-06T16:51:34.000Z"),
      );
      logAt(
        home,
        `${sessions}/--work--/2026-12-06T16-40-00-000Z_03c4.jsonl`,
        records("/work", "2026-12-06T16:40:00.000Z"),
      );
      const log = { paths: [`${sessions}/*/*.jsonl`], format: "pi" as const };
      const place = { home, cwd: "/work", conversationId: undefined, startedAt };
      const found = findLog(log, place);
      expect(found?.path).toBe(mine);
      expect(await readTranscript(found!.path, found!.root, "pi", place)).toEqual([
        { role: "user", text: "Please t4a:write:/work/log-pi.txt" },
        { role: "tool_call", text: 'write {"path":"/work/log-pi.txt","content":"FAKE-FILE-CONTENT"}' },
        { role: "tool_result", text: "Successfully wrote 17 bytes to /work/log-pi.txt" },
        { role: "assistant", text: "FAKE-ANSWER 1" },
      ]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);

test(
  "droid: its session log read (its context preamble and turn outcomes left out), " + "found by directory and start",
  async () => {
    const home = mkdtempSync(join(tmpdir(), "t4a-transcript-test-"));
    try {
      const startedAt = Date.parse("2026-12-06T16:51:57.000Z");
      // Copied from droid 0.225.2's log of a turn against the fake model, shortened.
      const records = (cwd: string, at: string) => [
        { type: "session_start", id: "aa71b9a7", title: "Fake title", version: 2, cwd },
        {
          type: "message",
          id: "context-fa8eebc2",
          timestamp: at,
          message: {
            role: "user",
            content: [
              { type: "text", text: "<system-reminder>\nThe tools listed below are available …\n</system-reminder>" },
              { type: "text", text: "<system-reminder>Current date: 2026-12-06.</system-reminder>" },
            ],
          },
        },
        {
          type: "message",
          id: "fa8eebc2",
          parentId: "context-fa8eebc2",
          message: {
            role: "user",
            content: [{ type: "text", text: "Please t4a:write:/work/log-droid.txt" }],
            userMessageSource: "cli_tui",
          },
        },
        {
          type: "message",
          id: "529fc15e",
          message: {
            role: "assistant",
            content: [
              {
                type: "tool_use",
                id: "toolu_7",
                name: "Execute",
                input: { summary: "t4a test step", command: "printf %s FAKE > /work/x", riskLevel: "medium" },
              },
            ],
            modelId: "custom:Fake-model-0",
          },
        },
        {
          type: "message",
          id: "b0dfb850",
          message: {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "toolu_7",
                is_error: false,
                content: "Command completed successfully\n\n[Process exited with code 0]",
              },
            ],
          },
        },
        {
          type: "message",
          id: "b9943e87",
          message: { role: "assistant", content: [{ type: "text", text: "FAKE-ANSWER 1" }] },
        },
        { type: "agent_turn_outcome", turnId: "fa8eebc2", reason: "completed", resultKind: "text" },
      ];
      const sessions = ".factory/sessions";
      const mine = logAt(home, `${sessions}/-work/aa71b9a7.jsonl`, records("/work", "2026-12-06T16:51:57.713Z"));
      logAt(home, `${sessions}/-other/bb82.jsonl`, records("/other", "2026-12-06T16:51:58.000Z"));
      logAt(home, `${sessions}/-work/cc93.jsonl`, records("/work", "2026-12-06T16:40:00.000Z"));
      const log = { paths: [`${sessions}/*/*.jsonl`], format: "droid" as const };
      const place = { home, cwd: "/work", conversationId: undefined, startedAt };
      const found = findLog(log, place);
      expect(found?.path).toBe(mine);
      expect(await readTranscript(found!.path, found!.root, "droid", place)).toEqual([
        { role: "user", text: "Please t4a:write:/work/log-droid.txt" },
        {
          role: "tool_call",
          text: 'Execute {"summary":"t4a test step","command":"printf %s FAKE > /work/x","riskLevel":"medium"}',
        },
        { role: "tool_result", text: "Command completed successfully [Process exited with code 0]" },
        { role: "assistant", text: "FAKE-ANSWER 1" },
      ]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);

test("copilot: its events read by the id t4a gave it (its system prompt, turns and usage left out)", async () => {
  const home = mkdtempSync(join(tmpdir(), "t4a-transcript-test-"));
  try {
    const id = "b5ca710b-ad3d-4f16-b982-0ffda68d3406";
    const event = (type: string, data: object) => ({ type, data, id: "ad8a6ca0", timestamp: "2026-12-06T16:57:20Z" });
    // Copied from copilot 1.0.102's events.jsonl of a turn against the fake model, shortened.
    const records = [
      event("session.start", { sessionId: id, copilotVersion: "1.0.102", context: { cwd: "/work" } }),
      event("session.model_change", { source: "startup", newModel: "fake-model" }),
      event("user.message", {
        content: "Please t4a:write:/work/x",
        transformedContent:
          "<current_datetime>2026-12-06T16:57:22.046+00:00</current_datetime>\n\nPlease t4a:write:/work/x",
      }),
      event("system.message", { role: "system", content: "You are the GitHub Copilot CLI, a terminal assistant …" }),
      event("assistant.turn_start", { turnId: "0" }),
      event("session.usage_record", { usage: { model: "fake-model", inputTokens: 10 } }),
      event("assistant.message", {
        content: "",
        toolRequests: [
          {
            toolCallId: "call_9",
            name: "bash",
            arguments: { command: "printf %s FAKE > /work/x", description: "t4a test step" },
            type: "function",
          },
        ],
      }),
      event("tool.execution_start", { toolCallId: "call_9", toolName: "bash", arguments: { command: "printf" } }),
      event("tool.execution_complete", {
        toolCallId: "call_9",
        success: true,
        result: { content: "\n<shellId: 0 completed with exit code 0>" },
      }),
      event("assistant.turn_end", { turnId: "0" }),
      event("assistant.message", { content: "FAKE-ANSWER 1", toolRequests: [] }),
    ];
    logAt(home, `.copilot/session-state/${id}/events.jsonl`, records);
    logAt(home, ".copilot/session-state/0e000000-other/events.jsonl", [event("user.message", { content: "theirs" })]);
    const log = { paths: [".copilot/session-state/{id}/events.jsonl"], format: "copilot" as const };
    const place = { home, cwd: "/work", conversationId: id, startedAt: Date.now() };
    const found = findLog(log, place);
    expect(found?.path).toBe(join(home, `.copilot/session-state/${id}/events.jsonl`));
    expect(await readTranscript(found!.path, found!.root, "copilot", place)).toEqual([
      { role: "user", text: "Please t4a:write:/work/x" },
      { role: "tool_call", text: 'bash {"command":"printf %s FAKE > /work/x","description":"t4a test step"}' },
      { role: "tool_result", text: "<shellId: 0 completed with exit code 0>" },
      { role: "assistant", text: "FAKE-ANSWER 1" },
    ]);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
