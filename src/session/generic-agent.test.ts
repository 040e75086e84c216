import { expect, test } from "bun:test";
import { GENERIC_BUSY } from "../spawn/agents/registry.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureTerminal, loadFixture, screenText, writeAll } from "../../test/fixtures/screens/score.ts";
import { detectElements } from "../terminal/elements.ts";
import { cellGridOf } from "../terminal/screen.ts";
import { findQuestion, inputRow, lastWords, pickChoice, TURN_SUMMARY } from "./generic-agent.ts";

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

/** The elements of a screen kept as its text (test/fixtures/agent-screens, from `t4a text`). */
function readText(name: string): string {
  return readFileSync(join(import.meta.dir, "../../test/fixtures/agent-screens", `${name}.txt`), "utf8");
}

async function elementsOfText(name: string) {
  const text = readText(name);
  const term = fixtureTerminal(80, 24);
  try {
    await writeAll(term, text.replace(/\n$/, "").replaceAll("\n", "\r\n"));
    return detectElements(cellGridOf(term));
  } finally {
    term.dispose();
  }
}

test("continue (cn 1.5.47): a menu under its dialog's question is the question, its items the choices", async () => {
  const question = findQuestion(await elementsOfText("continue-write"));
  expect(question?.line).toBe("Would you like to continue?");
  // Each label as the screen's text has it: with its key hint ("Continue (tab)").
  expect(pickChoice(question!, "yes")?.label).toMatch(/^Continue(?! \+)/);
  expect(pickChoice(question!, "always")?.label).toStartWith("Continue + don't ask again");
  expect(pickChoice(question!, "no")?.label).toStartWith("No, and tell Continue what to do differently");
});

test("continue (cn 1.5.47) at rest: its last words are above its input box, not the directory row", async () => {
  const elements = await elementsOfText("continue-idle");
  expect(findQuestion(elements)).toBe(undefined);
  expect(lastWords(elements, inputRow(elements, readText("continue-idle").split("\n")))).toBe("FAKE-ANSWER 1");
});

test("cline (3.0.65): the question a few rows above its keys, [y] Approve the yes, [n] Deny the no", async () => {
  const question = findQuestion(await elementsOfText("cline-run"));
  expect(question?.line).toBe("Approve tool call?");
  expect(question?.choices.map((choice) => [choice.label, choice.item?.key])).toEqual([
    ["Approve", "y"],
    ["Deny", "n"],
  ]);
  expect(pickChoice(question!, "yes")?.label).toBe("Approve");
  expect(pickChoice(question!, "no")?.label).toBe("Deny");
  expect(pickChoice(question!, "always")).toBe(undefined);
});

test("a turn's summary with a verb of any letters is no words (claude 2.1.330's \"✻ Sautéed for 0s\")", () => {
  expect(TURN_SUMMARY.test("✻ Sautéed for 0s · done 3:32 PM")).toBe(true);
  expect(TURN_SUMMARY.test("✻ Crunched for 0s · done 12:21 PM")).toBe(true);
  expect(TURN_SUMMARY.test("FAKE-ANSWER 1")).toBe(false);
});

test("droid (0.225.2): a menu of answers under a row that asks no '?' is the question, the row its line", async () => {
  const fixture = await loadFixture("droid-run", join(import.meta.dir, "../../test/fixtures/agent-screens"));
  try {
    const elements = detectElements(cellGridOf(fixture.term));
    // Its question row reads as a table's header, the rows under it as the body: the row as drawn
    // when the screen's rows are given, else the header's words.
    expect(findQuestion(elements)?.line).toBe("Command to approve medium risk");
    const question = findQuestion(elements, screenText(fixture.buffer, 24));
    expect(question?.line).toBe("Command to approve · medium risk");
    expect(pickChoice(question!, "yes")?.label).toBe("Yes, allow");
    expect(pickChoice(question!, "always")?.label).toStartWith("Yes, and always allow medium impact commands");
    expect(pickChoice(question!, "no")?.label).toBe("No, cancel");
  } finally {
    fixture.term.dispose();
  }
});

test("droid (0.225.2) at rest: its last words are above its mode bar, a row spread to both edges", async () => {
  const elements = await elementsOfText("droid-idle");
  expect(findQuestion(elements)).toBe(undefined);
  expect(lastWords(elements, inputRow(elements, readText("droid-idle").split("\n")))).toBe("⛬  FAKE-ANSWER 1");
});

test("busy hints: a CLI's own (esc to interrupt, to cancel, ctrl+c to stop) are, a tip's advice is not", () => {
  const busy = (row: string) => GENERIC_BUSY.some((pattern) => new RegExp(pattern, "m").test(`  ~/work\n${row}\n`));
  expect(busy("✻ Thinking… (esc to interrupt)")).toBe(true);
  expect(busy("⠏ Generating (esc to cancel, 3s)")).toBe(true);
  expect(busy("  Press Ctrl+C to stop")).toBe(true);
  expect(busy("                  ● Tip Press escape to stop the AI mid-response")).toBe(false); // kilo 7.7.9
  expect(busy("● Tip: ctrl+c to stop the current command")).toBe(false);
});
