// The log readers on records shaped as the real CLIs write them (copied from gemini 0.61's log
// around a denied tool call, shortened).
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTranscript } from "./transcript.ts";

test("gemini: a `$set.messages` record is the whole history again (rewritten after a deny: new ids, parts as lists, the denied turn left out)", async () => {
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
});
