import { expect, test } from "bun:test";
import { loadFixture } from "../../test/fixtures/screens/score.ts";
import { detectElements } from "../terminal/elements.ts";
import { cellGridOf } from "../terminal/screen.ts";
import { findQuestion, lastWords, pickChoice } from "./generic-agent.ts";

async function elementsOf(name: string) {
  const fixture = await loadFixture(name);
  try {
    return detectElements(cellGridOf(fixture.term));
  } finally {
    fixture.term.dispose();
  }
}

// The five CLIs' real permission questions (test/fixtures/screens), read with no preset.
test.each([
  ["claude-write", "Do you want to create hello-claude.txt?", "Yes", "Yes, and switch to accept edits"],
  ["codex-run", "Would you like to run the following command?", "Yes, proceed", "Yes, and don't ask again for c"],
  ["gemini-write", "Apply this change?", "Allow once", "Allow for this session"],
  ["qwen-write", "Apply this change?", "Yes, allow once", "Yes, allow always"],
  ["opencode-write", "Permission required", "Allow once", "Allow always"],
])("%s: the question and the choices that say yes and always", async (name, line, yes, always) => {
  const question = findQuestion(await elementsOf(name));
  expect(question?.line).toBe(line);
  expect(pickChoice(question!, "yes")?.label).toBe(yes);
  expect(pickChoice(question!, "always")?.label.startsWith(always)).toBe(true);
});

test("no is the choice that says no, else none (Escape then)", async () => {
  expect(pickChoice(findQuestion(await elementsOf("qwen-write"))!, "no")?.label).toBe("No, suggest changes");
  expect(pickChoice(findQuestion(await elementsOf("opencode-write"))!, "no")?.label).toBe("Reject");
});

test("an idle screen asks nothing; its last words are above the input box, not its frame", async () => {
  for (const name of ["claude-idle", "codex-idle", "qwen-idle"])
    expect(findQuestion(await elementsOf(name))).toBe(undefined);
  const words = lastWords(await elementsOf("claude-idle"));
  expect(words).not.toMatch(/mode on|for shortcuts|^❯/);
  expect(words).not.toBe("");
});
