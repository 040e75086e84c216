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
