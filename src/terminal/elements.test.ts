// The detector against the labelled screens of test/fixtures/screens/ (train set only: the holdout
// set is scored by the bench, never tuned on), and the outline an agent reads.
import { expect, test } from "bun:test";
import { Terminal } from "@xterm/headless";
import {
  blindDir,
  fixtureNames,
  fixtureTerminal,
  formatRates,
  loadFixture,
  scoreSet,
  writeAll,
} from "../../test/fixtures/screens/score.ts";
import { cellGridOf } from "./screen.ts";
import { detectElements, outline } from "./elements.ts";

/**
 * Raised as the detector improves; the issue's goal is 0.95. 496 screens since holdouts 9 and 10
 * (new screens of the issue's own programs, scored once at 93.7% / 92.4% and 97.3% / 94.2%) joined
 * train: 2185 of 2275 found, 31 extra (98.6% / 96.0%). Held below 0.99 on purpose, with the misses named: btop's
 * screen (22: the words in its box borders, labelled as buttons, a reading a second labeller did
 * not share, and its meters), weechat's panes (8: a window split by a rule is not read as panes),
 * inquirer-table-prompt's grid of ◯/◉ cells (10, and 3 extra checkboxes), nconf's checklist
 * labelled as a menu (3 extra checkboxes). Progress and tables hold lower for btop, nmon and
 * blessed-contrib; radios for the table prompt's cells.
 */
// Precision 0.97 from sweep 3's 44 screens (session 11, 817 -> 861 screens: 98.5% / 96.0% -> 97.7% / 95.3% after
// its own fixes): the rest of their misses are the full-screen and line-prompt classes other work this session takes.
const FLOOR = { precision: 0.97, recall: 0.95, state: 0.98 };
/** Every kind on its own. */
const KIND_FLOOR = 0.9;
const KIND_EXCEPTIONS: Record<string, { precision?: number; recall?: number }> = {
  progress: { recall: 0.8 },
  table: { recall: 0.85 },
  radio: { recall: 0.8 },
};

test("the train set: precision, recall and state accuracy, overall and per kind, stay above the floor", async () => {
  const { rates, screens } = await scoreSet("train", (fixture) => detectElements(cellGridOf(fixture.term)));
  console.log(`${screens} train screens\n${formatRates("train", rates)}`);
  const all = rates.find((r) => r.kind === "all")!;
  expect(screens).toBeGreaterThan(0);
  expect(all.precision).toBeGreaterThanOrEqual(FLOOR.precision);
  expect(all.recall).toBeGreaterThanOrEqual(FLOOR.recall);
  expect(all.state).toBeGreaterThanOrEqual(FLOOR.state);
  for (const r of rates) {
    const floor = { precision: KIND_FLOOR, recall: KIND_FLOOR, ...KIND_EXCEPTIONS[r.kind] };
    expect({ kind: r.kind, precision: r.precision >= floor.precision, recall: r.recall >= floor.recall }).toEqual({
      kind: r.kind,
      precision: true,
      recall: true,
    });
  }
  // (Some 700 screens: a machine loaded twentyfold took past 30 s.)
}, 120_000);

test("refs number elements in reading order, items under theirs; the same screen gives the same refs", async () => {
  const fixture = await loadFixture("dialog-menu");
  try {
    const elements = detectElements(cellGridOf(fixture.term));
    expect(elements.map((e) => e.ref)).toEqual(elements.map((_, i) => `e${i + 1}`));
    for (let i = 1; i < elements.length; i++) {
      const [a, b] = [elements[i - 1]!, elements[i]!];
      expect(a.row < b.row || (a.row === b.row && a.col <= b.col)).toBe(true);
    }
    const menu = elements.find((e) => e.kind === "menu")!;
    expect(menu.items!.map((item) => item.ref)).toEqual(menu.items!.map((_, i) => `${menu.ref}.${i + 1}`));
    expect(detectElements(cellGridOf(fixture.term))).toEqual(elements);
  } finally {
    fixture.term.dispose();
  }
});

test("the outline: one line per element, items indented under it with their state and key", async () => {
  const fixture = await loadFixture("dialog-menu");
  try {
    const text = outline(detectElements(cellGridOf(fixture.term)));
    expect(text).toMatch(/^- dialog ".+" \[e1\]$/m);
    expect(text).toMatch(/^- menu \[e\d+\]:\n {2}- item ".+" \[e\d+\.1\]/m);
    expect(text).toMatch(/^ {2}- item ".+" \[e\d+\.\d+\] \(selected\) key=\S+$/m);
    expect(text).toMatch(/^- buttons: "OK" \[e\d+\] \(selected\), "Cancel" \[e\d+\]$/m);
  } finally {
    fixture.term.dispose();
  }
});

test("every fixture (train and holdout) runs through the detector without throwing", async () => {
  for (const name of fixtureNames()) {
    const fixture = await loadFixture(name);
    try {
      expect(Array.isArray(detectElements(cellGridOf(fixture.term)))).toBe(true);
    } finally {
      fixture.term.dispose();
    }
  }
}, 120_000);

/** The question or menu a fixture's detector reads, as label → [key, selected] per item. */
/** The kinds detected on a fixture, text aside. */
async function kindsOf(name: string) {
  const fixture = await loadFixture(name);
  try {
    return detectElements(cellGridOf(fixture.term))
      .filter((e) => e.kind !== "text")
      .map((e) => e.kind);
  } finally {
    fixture.term.dispose();
  }
}

/** The questions detected on a screen the bytes draw. */
async function questionsIn(bytes: string) {
  const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
  await new Promise<void>((done) => term.write(bytes, done));
  try {
    return detectElements(cellGridOf(term))
      .map((e) => e.kind)
      .filter((kind) => kind === "question");
  } finally {
    term.dispose();
  }
}

async function itemsOf(name: string, kind: "question" | "menu") {
  const fixture = await loadFixture(name);
  try {
    const element = detectElements(cellGridOf(fixture.term)).find((e) => e.kind === kind);
    return {
      label: element?.label,
      items: element?.items?.map((i) => [i.label, i.key ?? null, i.selected ?? false]),
    };
  } finally {
    fixture.term.dispose();
  }
}

// Issue 59's classes, each on a real program's screen (train fixtures).
test("ssh's (yes/no/[fingerprint]): answers typed whole; the fingerprint, to paste, no key nor default", async () => {
  expect(await itemsOf("ssh-hostkey-unknown", "question")).toEqual({
    label: "Are you sure you want to continue connecting",
    items: [
      ["Yes", "yes", false],
      ["No", "no", false],
      ["fingerprint", null, false],
    ],
  });
});

test("dpkg's (Y/I/N/O/D/Z) [default=N]: only N is the default, the labels are the legend's lines above", async () => {
  expect(await itemsOf("dpkg-conffile", "question")).toEqual({
    label: "demo.conf",
    items: [
      ["install the package maintainer's version", "y", false],
      ["install the package maintainer's version", "i", false],
      ["keep your currently-installed version", "n", true],
      ["keep your currently-installed version", "o", false],
      ["show the differences between the versions", "d", false],
      ["start a shell to examine the situation", "z", false],
    ],
  });
});

test("a description only the focused item shows (prompts' 'None - Skip linter …') is not its label", async () => {
  for (const [name, focused] of [
    ["next-linter", "None"],
    ["next-linter-moved", "Biome"],
  ])
    expect(await itemsOf(name!, "menu")).toEqual({
      label: undefined,
      items: ["ESLint", "Biome", "None"].map((label) => [label, null, label === focused]),
    });
});

test("update-alternatives --config: its wrapped first line is prose; its table holds, its rule short", async () => {
  for (const name of ["alternatives-config", "alternatives-config-long"]) {
    const fixture = await loadFixture(name);
    try {
      const kinds = detectElements(cellGridOf(fixture.term)).map((e) => `${e.kind}@${e.row}`);
      expect({ name, kinds }).toEqual({ name, kinds: ["text@0", "table@3", "input@19"] });
    } finally {
      fixture.term.dispose();
    }
  }
});

test("completion grids: words with nothing lit are text, not a status; bash's '--More--' is its pager's", async () => {
  const kindsOf = async (name: string) => {
    const fixture = await loadFixture(name);
    try {
      return detectElements(cellGridOf(fixture.term)).map((e) => `${e.kind}@${e.row}`);
    } finally {
      fixture.term.dispose();
    }
  };
  expect(await kindsOf("python-complete")).toEqual(["text@0", "input@6"]);
  expect(await kindsOf("bash-complete-grid")).toEqual(["text@0", "input@7"]);
  expect(await kindsOf("bash-complete-more")).toEqual(["text@0", "status@23"]);
});

// Blind set 2's misses (issue 59), now train: one class each.
test("a one-row list of marked keys after a question ('([y]es|[n]o|…):', '[v]iew patch/…'): a question", async () => {
  expect(await itemsOf("b2-sendemail-confirm", "question")).toEqual({
    label: "Send this email?",
    items: ["y", "n", "e", "q", "a"].map((key, i) => [["[y]es", "[n]o", "[e]dit", "[q]uit", "[a]ll"][i], key, false]),
  });
  expect(await itemsOf("b2-git-am-apply", "question")).toEqual({
    label: "Apply?",
    items: ["[y]es", "[n]o", "[e]dit", "[v]iew patch", "[a]ccept all"].map((label) => [label, label[1], false]),
  });
  // borg's "[yN]:" after its "?": a letter each, the capital the default.
  expect(await itemsOf("b2-borg-display", "question")).toEqual({
    label: "Do you want your passphrase to be displayed for verification?",
    items: [
      ["Yes", "y", false],
      ["No", "n", true],
    ],
  });
});

// Blind set 7's (issue 59), now train: rcs's letters after the "?", the default in parentheses after them.
test("letters in brackets after a question, the default in parentheses ('? [yn](y): '): a question", async () => {
  expect(await itemsOf("b7-rcs-reuse", "question")).toEqual({
    label: "reuse log message of previous file?",
    items: [
      ["y", "y", true],
      ["n", "n", false],
    ],
  });
  expect(await itemsOf("b7-rcs-remove", "question")).toEqual({
    label: "writable tide.txt exists; remove it?",
    items: [
      ["n", "n", true],
      ["y", "y", false],
    ],
  });
});

// Blind set 8's (issue 59), now train: letters in brackets after the "?", a "?" among them, one more answer after a
// comma.
test("letters in brackets after a question, a '?' among them ('? [Ynpsiuqx?], [H]elp:'): a question", async () => {
  expect(await itemsOf("b8-debfoster-first", "question")).toEqual({
    label: "Keep tide-tables?",
    items: [["Y", "y", true], ...[..."npsiuqx?"].map((letter) => [letter, letter, false]), ["[H]elp", "h", false]],
  });
  expect(await itemsOf("b8-debfoster-quit", "question")).toEqual({
    label: "Exit without saving?",
    items: [
      ["y", "y", false],
      ["N", "n", true],
      ["?", "?", false],
    ],
  });
  // Under an answered one ("…[H]elp: Y" and what it printed), the next is the question.
  expect((await itemsOf("b8-debfoster-next", "question")).label).toBe("Keep buoy-monitor?");
  // Printed above a shell's prompt (cat of a log), the cursor on the prompt's row: output, no question.
  for (const [bytes, kinds] of [
    ["Keep tide-tables? [Ynpsiuqx?], [H]elp:\r\n$ ", []],
    ["Exit without saving? [yN?]:\r\n$ ", []],
    ["Exit without saving? [yN?]: ", ["question"]],
  ] as const) {
    const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
    await new Promise<void>((done) => term.write(bytes, done));
    try {
      expect(
        detectElements(cellGridOf(term))
          .map((e) => e.kind)
          .filter((kind) => kind === "question"),
      ).toEqual([...kinds]);
    } finally {
      term.dispose();
    }
  }
});

// Sweep 1 (issue 59): program families new to train, their misses read as classes.
test("letters in brackets, more elided, the key listing the rest after ('[ynW...], or ? for …')", async () => {
  expect(await itemsOf("sw-darcs-record", "question")).toEqual({
    label: "Shall I record this change? (1/5)",
    items: [
      ["y", "y", false],
      ["n", "n", false],
      ["W", "w", true],
      ["?", "?", false],
    ],
  });
  // Under two answered ones ("…options: y"), the one at the cursor is the question; its count is part of its words.
  expect((await itemsOf("sw-darcs-record-next", "question")).label).toBe("Shall I record this change? (4/5)");
  expect(await kindsOf("sw-darcs-record-next")).toEqual(["question"]);
  // Printed above a shell's prompt (cat of a log), the cursor on the prompt's row: output, no question.
  for (const [bytes, kinds] of [
    ["Shall I record this change? (1/5)  [ynW...], or ? for more options:\r\n$ ", []],
    ["Shall I record this change? (1/5)  [ynW...], or ? for more options: ", ["question"]],
    ["Do you really want to exit ([y]/n)?\r\n$ ", []],
    ["Do you really want to exit ([y]/n)? ", ["question"]],
  ] as const)
    expect(await questionsIn(bytes)).toEqual([...kinds]);
});

test("a yes/no of a letter each, the default in brackets ('([y]/n)?'); a help remark is no label", async () => {
  expect(await itemsOf("sw-ipython-exit", "question")).toEqual({
    label: "Do you really want to exit",
    items: [
      ["Yes", "y", true],
      ["No", "n", false],
    ],
  });
  expect((await itemsOf("sw-ttyprompt-expand", "question")).label).toBe("Overwrite Gemfile?");
});

test("a yes/no, its default named alone in brackets after it ('(yes/no) [yes]'): that answer the default", async () => {
  for (const name of ["sw-poetry-deps", "sw-poetry-confirm"])
    expect((await itemsOf(name, "question")).items).toEqual([
      ["Yes", "yes", true],
      ["No", "no", false],
    ]);
});

test("tty-prompt: a '‣' marks the lit item, hexagons are boxes (⬢ checked), the key hint is the prompt's", async () => {
  expect(await itemsOf("sw-ttyprompt-select", "menu")).toEqual({
    label: undefined,
    items: [
      ["staging", null, false],
      ["production", null, true],
      ["canary", null, false],
    ],
  });
  const fixture = await loadFixture("sw-ttyprompt-multi-first");
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
    expect(found.map((e) => [e.kind, e.label, e.checked, e.selected ?? false])).toEqual([
      ["checkbox", "nginx", false, false],
      ["checkbox", "postgres", true, true],
      ["checkbox", "redis", false, false],
      ["checkbox", "cron", false, false],
      ["checkbox", "sshd", false, false],
    ]);
  } finally {
    fixture.term.dispose();
  }
  // "Pick a region: (Press ↑/↓/←/→ arrow to move and Enter to select)" on the top row: the prompt's line, no status.
  expect(await kindsOf("sw-ttyprompt-paged")).toEqual(["menu"]);
});

// Blind set 8's plink (issue 59), now train: a yes/no whose remarks after commas name more keys; a line waiting for
// Return at the cursor, the sentences before it on its row part of it.
test("a yes/no with remarks naming keys ('(y/n, Return cancels …, i for …)'); 'Press Return to …'", async () => {
  expect(await itemsOf("b8-plink-hostkey", "question")).toEqual({
    label: "Store key in cache?",
    items: [
      ["y", "y", false],
      ["n", "n", false],
      ["Return", "Enter", false],
      ["i", "i", false],
    ],
  });
  expect(await itemsOf("b8-plink-granted", "question")).toEqual({
    label: "Access granted. Press Return to begin session.",
    items: [["Return", "Enter", false]],
  });
  // Printed above a shell's prompt: output, no question; "Press Return to …" only where the cursor waits after it.
  for (const [bytes, kinds] of [
    ["Store key in cache? (y/n, Return cancels connection, i for more info)\r\n$ ", []],
    ["Store key in cache? (y/n, Return cancels connection, i for more info) ", ["question"]],
    ["Access granted. Press Return to begin session.\r\n$ ", []],
    ["Access granted. Press Return to begin session. ", ["question"]],
  ] as const) {
    const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
    await new Promise<void>((done) => term.write(bytes, done));
    try {
      const found = detectElements(cellGridOf(term)).filter((e) => e.kind === "question");
      expect(found.map((e) => e.kind)).toEqual([...kinds]);
    } finally {
      term.dispose();
    }
  }
});

// Blind set 8's cvs (issue 59), now train: answers a key and ")" open, parted by commas, on the row over a prompt that
// names what is asked and its default in parentheses.
test("answers 'a)bort, c)ontinue, …' over a prompt 'Action: (continue)': one question labelled by it", async () => {
  const fixture = await loadFixture("b8-cvs-action");
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
    expect(found.map((e) => [e.kind, e.label, e.row, e.height, e.items?.map((i) => [i.label, i.key])])).toEqual([
      [
        "question",
        "Action",
        2,
        2,
        [
          ["a)bort", "a"],
          ["c)ontinue", "c"],
          ["e)dit", "e"],
          ["!)reuse this message unchanged for remaining dirs", "!"],
        ],
      ],
    ]);
  } finally {
    fixture.term.dispose();
  }
  // Printed above a shell's prompt, or over a prompt whose default is none of the answers, or none: no question.
  for (const [bytes, kinds] of [
    ["a)bort, c)ontinue, e)dit\r\nAction: (continue) ", ["question"]],
    ["a)bort, c)ontinue, e)dit\r\nAction: (continue)\r\n$ ", []],
    ["a)bort, c)ontinue, e)dit\r\nAction: (delete) ", []],
    ["a)bort, c)ontinue, e)dit\r\nPassword: ", []],
  ] as const) {
    const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
    await new Promise<void>((done) => term.write(bytes, done));
    try {
      const found = detectElements(cellGridOf(term)).filter((e) => e.kind === "question");
      expect(found.map((e) => e.kind)).toEqual([...kinds]);
    } finally {
      term.dispose();
    }
  }
});

// Blind set 8's ikiwiki (issue 59), now train: a question asking which, what, who … reads a line, whatever it holds in
// parentheses (rm's "rm: remove regular file 'a'?" stays a yes or no).
test("a question opening with 'Which', 'What' …, a remark in parentheses in it: an input labelled by it", async () => {
  const fixture = await loadFixture("b8-ikiwiki-admin");
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
    expect(found.map((e) => [e.kind, e.label, e.value])).toEqual([
      ["input", "Which user (wiki account, openid, or email) will be admin?", ""],
    ]);
  } finally {
    fixture.term.dispose();
  }
  for (const [bytes, found] of [
    ["Who (login name) should own it? ", ["input", "Who (login name) should own it?"]],
    ["Remove the file (and its backup)? ", ["question", "Remove the file (and its backup)?"]],
  ] as const) {
    const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
    await new Promise<void>((done) => term.write(bytes, done));
    try {
      const elements = detectElements(cellGridOf(term)).filter((e) => e.kind !== "text");
      expect(elements.map((e) => [e.kind, e.label])).toEqual([[...found]]);
    } finally {
      term.dispose();
    }
  }
});

// Blind set 8's steghide (issue 59), now train: a question in lower case under a short line of output opens on its
// own row; the line above ended far from the edge, so nothing wrapped onto it.
test("a lower-case question under a short line ('… done' over 'the file … overwrite ? (y/n)'): own row", async () => {
  expect(await itemsOf("b8-steghide-overwrite", "question")).toEqual({
    label: 'the file "out.bmp" does already exist. overwrite ?',
    items: [
      ["Yes", "y", false],
      ["No", "n", false],
    ],
  });
});

// Blind set 8's certbot (issue 59), now train: a prompt broken off mid-sentence at the row's end goes on in lower case
// on the cursor's row, however long the rest.
test("a prompt's sentence broken at the row's end, its long rest on the cursor's row: one input", async () => {
  const fixture = await loadFixture("b8-certbot-list");
  try {
    const input = detectElements(cellGridOf(fixture.term)).find((e) => e.kind === "input");
    expect([input?.row, input?.height, input?.label]).toEqual([
      8,
      2,
      "Select the appropriate numbers separated by commas and/or spaces, or leave input blank to select all options " +
        "shown (Enter 'c' to cancel)",
    ]);
  } finally {
    fixture.term.dispose();
  }
});

// Blind set 8's pg_activity (issue 59), now train: a full-screen program's title on the top row, parts parted by " - ".
test("a top row 'Name 1.2 - part - part', the cursor hidden, rows under it (pg_activity's): a status", async () => {
  const fixture = await loadFixture("b8-pgactivity-main");
  try {
    const top = detectElements(cellGridOf(fixture.term)).find((e) => e.row === 0);
    expect([top?.kind, top?.text?.slice(0, 24)]).toEqual(["status", "PostgreSQL 15.18 - vm - "]);
  } finally {
    fixture.term.dispose();
  }
  // The same row with the cursor shown at a prompt under it is a banner: text.
  const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
  await writeAll(term, "Tool 1.2 - vm - db\r\none\r\ntwo\r\nthree\r\n> ");
  try {
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "status")).toEqual([]);
  } finally {
    term.dispose();
  }
});

// Blind set 8's pg_activity help (issue 59), now train: the cursor hidden right under "Press any key to exit.".
test("'Press any key to exit.' with the cursor hidden under it, nothing below: a question", async () => {
  const fixture = await loadFixture("b8-pgactivity-help");
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question");
    expect(found.map((e) => [e.row, e.label])).toEqual([[19, "Press any key to exit."]]);
  } finally {
    fixture.term.dispose();
  }
});

// Blind set 8's pg_activity (issue 59): a box's right side after "(y/n)" is no answer typed.
test("a '(y/n)' question in a box, its right side after it, the cursor hidden: a question", async () => {
  const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
  await writeAll(
    term,
    "\x1b[?25l\r\n  ┌──────────────────┐\r\n  │ Terminate 23? (y/n) │\r\n  └──────────────────┘\r\n",
  );
  try {
    const found = detectElements(cellGridOf(term)).filter((e) => e.kind === "question");
    expect(found.map((e) => [e.col, e.label, e.items?.map((i) => i.key)])).toEqual([[4, "Terminate 23?", ["y", "n"]]]);
  } finally {
    term.dispose();
  }
});

test('a remark in parentheses ending in the colon is part of the prompt ("Are you sure? (Type …):")', async () => {
  const fixture = await loadFixture("b2-luks-confirm");
  try {
    const inputs = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
    expect(inputs.map((e) => [e.kind, e.label, e.value])).toEqual([
      ["input", "Are you sure? (Type 'yes' in capital letters)", ""],
    ]);
  } finally {
    fixture.term.dispose();
  }
});

test("questions above the one at the cursor are history (certtool's '(y/N): n', '(y/N): ' by Enter)", async () => {
  const fixture = await loadFixture("b2-certtool-server");
  try {
    const questions = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question");
    expect(questions.map((q) => [q.row, q.label])).toEqual([[23, "Is this a TLS web server certificate?"]]);
  } finally {
    fixture.term.dispose();
  }
});

test("a numbered list on the screen's last rows (a program's output scrolled up under it) does not throw", async () => {
  for (const [bytes, kinds] of [
    ["\x1b[23;1H1. foo\r\n2. bar", ["text"]],
    ["\x1b[22;1HWhich one?\r\n1. foo\r\n2. bar", ["question"]],
  ] as const) {
    const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
    await new Promise<void>((done) => term.write(bytes, done));
    try {
      expect(detectElements(cellGridOf(term)).map((e) => e.kind)).toEqual([...kinds]);
    } finally {
      term.dispose();
    }
  }
});

test("a default in the ink of the prompt's '›' before it (dialoguer's '(tauri-app) ›') is not the value", async () => {
  for (const [name, value] of [
    ["b2-tauri-name", ""],
    ["b2-tauri-identifier", "com.ex"],
  ] as const) {
    const fixture = await loadFixture(name);
    try {
      const input = detectElements(cellGridOf(fixture.term)).find((e) => e.kind === "input");
      expect({ name, value: input?.value }).toEqual({ name, value });
    } finally {
      fixture.term.dispose();
    }
  }
});

test("create-astro: '● Yes  ○ No' under its question is a question; '◼ --dry-run …' lines are bullets", async () => {
  for (const [name, question, taken] of [
    ["b2-astro-deps", "Install dependencies?", "Yes"],
    ["b2-astro-git", "Initialize a new git repository?", "No"],
  ] as const) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
      expect({ name, found: found.map((e) => [e.kind, e.label, e.items?.find((i) => i.selected)?.label]) }).toEqual({
        name,
        found: [["question", question, taken]],
      });
    } finally {
      fixture.term.dispose();
    }
  }
});

test("a list starts at its top row: lf's bold folders over its lit file, bun's first item", async () => {
  expect((await itemsOf("b2-lf-main", "menu")).items?.map(([label, , selected]) => [label, selected])).toEqual([
    ["docs", false],
    ["src", false],
    ["build.log", true],
    ["old.tmp", false],
    ["README.md", false],
  ]);
  expect((await itemsOf("b2-bun-react", "menu")).items?.map(([label, , selected]) => [label, selected])).toEqual([
    ["Default (blank)", false],
    ["TailwindCSS", true],
    ["Shadcn + TailwindCSS", false],
  ]);
});

test("deno's side-barred block ('┏ …', '┗ Allow? [y/n/A] (y = yes, …)') is a dialog; its keys as shown", async () => {
  for (const [name, title] of [
    ["b2-deno-read", 'Deno requests read access to "/etc/hostname".'],
    ["b2-deno-write", 'Deno requests write access to "out.txt".'],
  ] as const) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
      expect({ name, found: found.map((e) => [e.kind, e.label, e.col, e.height]) }).toEqual({
        name,
        found: [
          ["dialog", title, 0, 7],
          ["question", "Allow?", 2, 2],
        ],
      });
    } finally {
      fixture.term.dispose();
    }
  }
  expect(await itemsOf("b2-deno-read", "question")).toEqual({
    label: "Allow?",
    items: [
      ["Yes", "y", false],
      ["No", "n", false],
      ["All", "A", false],
    ],
  });
});

test("a hidden cursor after a dim placeholder under its question is the answer's field, nothing typed", async () => {
  const fixture = await loadFixture("b2-astro-name");
  try {
    const inputs = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
    expect(inputs.map((e) => [e.row, e.col, e.label, e.value])).toEqual([
      [4, 9, "Where should we create your new project?", ""],
    ]);
  } finally {
    fixture.term.dispose();
  }
});

test("create-vue: a description in parentheses on the boxes' rows is part of each name, focused or not", async () => {
  const fixture = await loadFixture("b3-vue-features");
  try {
    const boxes = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "checkbox");
    expect(boxes.map((e) => [e.label, e.checked, e.selected ?? false])).toEqual([
      ["JSX Support", false, false],
      ["Router (SPA development)", true, false],
      ["Pinia (state management)", true, false],
      ["Vitest (unit testing)", false, true],
      ["End-to-End Testing", false, false],
      ["Linter (error prevention)", false, false],
      ["Prettier (code formatting)", false, false],
    ]);
  } finally {
    fixture.term.dispose();
  }
});

test("cookiecutter: '1 - MIT' rows over the prompt that reads the number are the question's options", async () => {
  expect(await itemsOf("b3-cc-license", "question")).toEqual({
    label: undefined,
    items: [
      ["MIT", "1", false],
      ["BSD-3-Clause", "2", false],
      ["GPL-3.0-only", "3", false],
      ["Apache-2.0", "4", false],
    ],
  });
});

test("changeset: '🦋  ' before each line an icon; a choice's '…' header no field; focus by underline", async () => {
  const found = async (name: string) => {
    const fixture = await loadFixture(name);
    try {
      return detectElements(cellGridOf(fixture.term))
        .filter((e) => e.kind !== "text")
        .map((e) => [e.kind, e.label, e.value ?? e.items?.map((i) => i.label) ?? e.selected ?? false]);
    } finally {
      fixture.term.dispose();
    }
  };
  expect(await found("b3-changeset-include")).toEqual([
    ["checkbox", "changed packages", false],
    ["checkbox", "@acme/core", false],
    ["checkbox", "unchanged packages", true],
    ["checkbox", "@acme/cli", false],
  ]);
  expect(await found("b3-changeset-minor")).toEqual([
    ["checkbox", "all packages", false],
    ["checkbox", "@acme/core@1.2.0", true],
  ]);
  expect(await found("b3-changeset-summary")).toEqual([["input", "Summary", "Add the retry option"]]);
  expect(await found("b3-changeset-confirm")).toEqual([["question", "Is this your desired changeset?", ["Yes", "No"]]]);
});

test("answered '? Question answer' rows over a later question are history: no menu, field nor status", async () => {
  for (const [name, kinds] of [
    ["b3-plop-extras", ["checkbox", "checkbox", "checkbox"]],
    ["b3-cz-breaking", ["question"]],
    ["b3-gh-passphrase", ["input"]],
  ] as const) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
      expect({ name, kinds: found.map((e) => e.kind) }).toEqual({ name, kinds: [...kinds] });
    } finally {
      fixture.term.dispose();
    }
  }
});

test("composer: '[yes]?' reads a line (an input); a long answered prompt is no wrapped part of the next", async () => {
  const term = fixtureTerminal(80, 6);
  try {
    const packageType = "Package Type (e.g. library, project, metapackage, composer-plugin) []: library";
    await writeAll(term, `${packageType}\r\nLicense []: MIT\r\nDo you confirm generation [yes]? `);
    const found = detectElements(cellGridOf(term)).filter((e) => e.kind !== "text");
    expect(found.map((e) => [e.kind, e.label, e.value, e.default])).toEqual([
      ["input", "Do you confirm generation?", "", "yes"],
    ]);
    const term2 = fixtureTerminal(80, 6);
    await writeAll(term2, `${packageType}\r\nLicense []: `);
    const field = detectElements(cellGridOf(term2)).filter((e) => e.kind === "input");
    term2.dispose();
    expect(field.map((e) => [e.label, e.value, e.default])).toEqual([["License", "", undefined]]);
  } finally {
    term.dispose();
  }
});

test("a bracketed default after a prompt's '?' is the prompt's, not its value (patch, hledger)", async () => {
  const fields = async (name: string) => {
    const fixture = await loadFixture(name);
    try {
      return detectElements(cellGridOf(fixture.term))
        .filter((e) => e.kind === "input")
        .map((e) => [e.label, e.value, e.default]);
    } finally {
      fixture.term.dispose();
    }
  };
  expect(await fields("b4-patch-reversed")).toEqual([
    ["Reversed (or previously applied) patch detected! Assume -R?", "", "n"],
  ]);
  expect(await fields("b4-patch-anyway")).toEqual([["Apply anyway?", "", "n"]]);
  expect(await fields("b4-hledger-save")).toEqual([["Save this transaction to the journal ?", "", "y"]]);
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "patching file config.ini\r\nApply anyway? [n] y");
    const typed = detectElements(cellGridOf(term)).filter((e) => e.kind === "input");
    expect(typed.map((e) => [e.label, e.value, e.default])).toEqual([["Apply anyway?", "y", "n"]]);
  } finally {
    term.dispose();
  }
});

test("a default alone on the answer's row: labelled with the question above (keytool's '[Unknown]:')", async () => {
  for (const [name, label, value, offered] of [
    ["b4-keytool-name", "What is your first and last name?", "Ada Lovelace", "Unknown"],
    ["b4-keytool-correct", "Is CN=Ada Lovelace, OU=Platform, O=Acme, L=London, ST=Unknown, C=GB correct?", "", "no"],
  ]) {
    const fixture = await loadFixture(name!);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
      expect(found.map((e) => [e.label, e.value, e.default])).toEqual([[label, value, offered]]);
    } finally {
      fixture.term.dispose();
    }
  }
});

test("answers listed with keys in parentheses, the last row ending in ':' (svn's '(p) Postpone, …')", async () => {
  const listed = async (name: string) => {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
      return found.map((e) => [e.kind, e.row, e.height, e.items?.map((i) => `${i.key}=${i.label}`)]);
    } finally {
      fixture.term.dispose();
    }
  };
  expect(await listed("b4-svn-conflict")).toEqual([
    ["question", 6, 2, ["p=Postpone", "df=Show diff", "e=Edit file", "m=Merge", "s=Show all options"]],
  ]);
  const merge = await listed("b4-svn-merge");
  expect(merge.filter((e) => e[0] !== "table")).toEqual([
    [
      "question",
      14,
      8,
      [
        "1=use their version",
        "2=use your version",
        "12=their version first, then yours",
        "21=your version first, then theirs",
        "e1=edit their version and use the result",
        "e2=edit your version and use the result",
        "eb=edit both versions and use the result",
        "p=postpone this conflicting section leaving conflict markers",
        "a=abort file merge and return to main menu",
      ],
    ],
  ]);
});

test("lettered options over a prompt of their keys ('e/n/d/r/c/s/q>'); ' 1 > archive' over 'remote>'", async () => {
  const questions = async (name: string) => {
    const fixture = await loadFixture(name);
    try {
      return detectElements(cellGridOf(fixture.term))
        .filter((e) => e.kind === "question")
        .map((e) => [e.row, e.items?.map((i) => `${i.key}=${i.label}`)]);
    } finally {
      fixture.term.dispose();
    }
  };
  expect(await questions("b4-rclone-menu")).toEqual([
    [
      7,
      [
        "e=Edit existing remote",
        "n=New remote",
        "d=Delete remote",
        "r=Rename remote",
        "c=Copy remote",
        "s=Set configuration password",
        "q=Quit config",
      ],
    ],
  ]);
  expect(await questions("b4-rclone-delete")).toEqual([[18, ["1=archive", "2=media"]]]);
  // Not over any prompt: a shell's output of "1 > 2" rows is no list.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, " 1 > archive\r\n 2 > media\r\n\r\n$ ");
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("answers named in the sentence over the question, a key in each word: hg's '(c)hanged version'", async () => {
  // (Blind set 4's screen, read where it is: its question's label is on its last row, not its first, as train's
  // fixture check wants.)
  const fixture = await loadFixture("b4-hg-deleted", blindDir("blind4"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
    expect(found.map((e) => [e.kind, e.row, e.label, e.items?.map((i) => `${i.key}=${i.label}`)])).toEqual([
      ["question", 0, "What do you want to do?", ["c=(c)hanged version", "d=(d)elete", "u=(u)nresolved"]],
    ]);
  } finally {
    fixture.term.dispose();
  }
  // One keyed word alone is no choice: the row stays the prompt's input.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "See the (m)anual for more.\r\nWhat do you want to do? ");
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("a question, lines that explain it, then a prompt ending in answers parted by '/' (bundler's)", async () => {
  const questions = async (name: string) => {
    const fixture = await loadFixture(name);
    try {
      return detectElements(cellGridOf(fixture.term))
        .filter((e) => e.kind !== "text")
        .map((e) => [e.kind, e.row, e.label, e.items?.map((i) => `${i.key}=${i.label}`)]);
    } finally {
      fixture.term.dispose();
    }
  };
  expect(await questions("b4-bundle-test")).toEqual([
    [
      "question",
      1,
      "Do you want to generate tests with your gem?",
      ["rspec=rspec", "minitest=minitest", "test-unit=test-unit", "none=none"],
    ],
  ]);
  expect(await questions("b4-bundle-mit")).toEqual([
    ["question", 14, "Do you want to license your code permissively under the MIT license?", ["y=y", "n=n"]],
  ]);
  // The question's sentence may go on after its "?", a list and a blank row under it (bundler's CI question), the
  // question answered above it no part of it.
  const ci = fixtureTerminal(80, 24);
  try {
    await writeAll(
      ci,
      "Enter a test framework. rspec/minitest/test-unit/(none): minitest\r\n" +
        "Do you want to set up continuous integration for your gem? Supported services:\r\n" +
        "* CircleCI:       https://circleci.com/\r\n* GitHub Actions: https://github.com/features/actions\r\n\r\n" +
        "Future `bundle gem` calls will use your choice. This setting can be changed anytime with `bundle config " +
        "gem.ci`.\r\nEnter a CI service. github/travis/gitlab/circle/(none): ",
    );
    const found = detectElements(cellGridOf(ci)).filter((e) => e.kind === "question");
    expect(found.map((e) => [e.row, e.label, e.items?.map((i) => i.key).join("/")])).toEqual([
      [1, "Do you want to set up continuous integration for your gem?", "github/travis/gitlab/circle/none"],
    ]);
  } finally {
    ci.dispose();
  }
  // The prompt filled its row, the cursor gone on to the next row's start (bundler's code of conduct question).
  const coc = fixtureTerminal(80, 8);
  try {
    const last = "out how to enforce codes of conduct, see https://bit.ly/coc-enforcement. y/(n): ";
    await writeAll(
      coc,
      "Do you want to include a code of conduct in gems you generate?\r\n" +
        `Codes of conduct can increase contributions to your project by contributors who\r\n${last}\r\n`,
    );
    const found = detectElements(cellGridOf(coc)).filter((e) => e.kind === "question" || e.kind === "input");
    expect(found.map((e) => [e.kind, e.row, e.height, e.label, e.items?.map((i) => `${i.row}:${i.key}`)])).toEqual([
      ["question", 0, 4, "Do you want to include a code of conduct in gems you generate?", ["2:y", "2:n"]],
    ]);
  } finally {
    coc.dispose();
  }
  // No default in parentheses: a path prompt ("Save to a/b:") is no choice.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "Where should it go?\r\nSave to src/lib: ");
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("two boxes, every name drawn dim but one: that one is focused (create-vue's experimental features)", async () => {
  const term = fixtureTerminal(80, 6);
  try {
    const dim = (s: string) => `\x1b[2m${s}\x1b[22m`;
    await writeAll(
      term,
      `\x1b[?25l\x1b[36m◆\x1b[39m  Select experimental features to include in your project:\r\n` +
        `\x1b[36m│\x1b[39m  \x1b[36m◻\x1b[39m Replace Prettier with Oxfmt\r\n` +
        `\x1b[36m│\x1b[39m  ${dim("◻")} ${dim("Vue 3.6 (Release Candidate)")}\r\n\x1b[36m└\x1b[39m`,
    );
    const boxes = detectElements(cellGridOf(term)).filter((e) => e.kind === "checkbox");
    expect(boxes.map((e) => [e.label, e.selected ?? false])).toEqual([
      ["Replace Prettier with Oxfmt", true],
      ["Vue 3.6", false],
    ]);
  } finally {
    term.dispose();
  }
});

test("commitizen: 'docs:     Documentation only changes' rows are named without the colon", async () => {
  const { items } = await itemsOf("b3-cz-type", "menu");
  expect(items?.slice(0, 3)).toEqual([
    ["feat", null, false],
    ["fix", null, false],
    ["docs", null, true],
  ]);
});

test("a prompt library's question over the cursor's row: wrapped onto it, or read under it after a count", async () => {
  const b = (s: string) => `\x1b[1m${s}\x1b[22m`;
  const q = "\x1b[32m?\x1b[39m ";
  const scope = "What is the scope of this change (e.g. component or file name): (press enter ";
  for (const [screen, label, value] of [
    [`${q}${b(scope)}\r\n${b("to skip)")} conf`, `${scope.trim()} to skip)`, "conf"],
    [
      `${q}${b("Write a short description (max 87 chars):")}\r\n \x1b[32m(4)\x1b[39m read`,
      "Write a short description (max 87 chars):",
      "read",
    ],
  ]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, screen!);
      const found = detectElements(cellGridOf(term)).filter((e) => e.kind !== "text");
      expect(found.map((e) => [e.kind, e.label, e.value, e.cursor])).toEqual([["input", label, value, true]]);
    } finally {
      term.dispose();
    }
  }
});

test("a line prompt wrapped mid-word (s3cmd's template): one label, joined where it broke, typed or not", async () => {
  const prompt = "DNS-style bucket+hostname:port template for accessing a bucket [%(bucket)s.s3.amazonaws.com]: ";
  const label = "DNS-style bucket+hostname:port template for accessing a bucket";
  for (const value of ["", "%(bucket)s.s3.amazonaws.com"]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, `Use "s3.amazonaws.com" for S3 Endpoint and not the target Amazon S3.\r\n${prompt}${value}`);
      const found = detectElements(cellGridOf(term)).filter((e) => e.kind === "input");
      expect(found.map((e) => [e.row, e.height, e.label, e.value, e.cursor, e.default])).toEqual([
        [1, 2, label, value, true, "%(bucket)s.s3.amazonaws.com"],
      ]);
    } finally {
      term.dispose();
    }
  }
  // Only its last mark wrapped (composer's "… interactively [yes]" over "? no").
  const asked = "Would you like to define your dev dependencies (require-dev) interactively [yes]?";
  for (const value of ["", "no"]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, `Define your dev dependencies.\r\n\r\n${asked} ${value}`);
      const found = detectElements(cellGridOf(term)).filter((e) => e.kind === "input");
      expect(found.map((e) => [e.row, e.height, e.label, e.value, e.default])).toEqual([
        [2, 2, asked.replace(" [yes]", ""), value, "yes"],
      ]);
    } finally {
      term.dispose();
    }
  }
});

test("a numbered option wrapped onto the next row (Django's '1) Provide a one-off default …'): one item", async () => {
  const term = fixtureTerminal(80, 8);
  try {
    await writeAll(
      term,
      "Please select a fix:\r\n 1) Provide a one-off default now (will be set on all existing rows with a null value " +
        "for this column)\r\n 2) Quit, and let me add a default in models.py\r\nSelect an option: ",
    );
    const found = detectElements(cellGridOf(term)).filter((e) => e.kind === "question" || e.kind === "input");
    expect(found.map((e) => [e.kind, e.row, e.height, e.items?.map((i) => `${i.key}=${i.label}`)])).toEqual([
      [
        "question",
        1,
        4,
        [
          "1=Provide a one-off default now (will be set on all existing rows with a null value for this column)",
          "2=Quit, and let me add a default in models.py",
        ],
      ],
      ["input", 4, 1, undefined],
    ]);
  } finally {
    term.dispose();
  }
});

test("a bullet before a prompt (systemd-firstboot's '‣ Please enter hostname …:') is not in its label", async () => {
  const fixture = await loadFixture("b4-firstboot-hostname", blindDir("blind4"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
    expect(found.map((e) => [e.row, e.col, e.label, e.value])).toEqual([
      [10, 0, "Please enter hostname for new system (empty to skip)", ""],
    ]);
  } finally {
    fixture.term.dispose();
  }
});

test("hledger's banner is text; a prompt's '(or . or enter to finish …):' is its own", async () => {
  for (const name of ["b4-hledger-save", "b4-hledger-amount", "b4-hledger-date"]) {
    const fixture = await loadFixture(name, blindDir("blind4"));
    try {
      expect(detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "status")).toEqual([]);
    } finally {
      fixture.term.dispose();
    }
  }
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "Account 2: assets:cash\r\nAccount 3 (or . or enter to finish this transaction): ");
    const found = detectElements(cellGridOf(term)).filter((e) => e.kind !== "text");
    expect(found.map((e) => [e.kind, e.row, e.label, e.value])).toEqual([
      ["input", 1, "Account 3 (or . or enter to finish this transaction)", ""],
    ]);
  } finally {
    term.dispose();
  }
  // A hint line alone is still a status: "Press enter to confirm or esc to cancel" under a question.
  const hint = fixtureTerminal(80, 6);
  try {
    await writeAll(hint, "Delete the branch?\r\n\r\nPress enter to confirm or esc to cancel");
    expect(detectElements(cellGridOf(hint)).filter((e) => e.kind === "status").length).toBe(1);
  } finally {
    hint.dispose();
  }
});

test("tables over '=' rules under each name (rclone's 'Name  Type'), '---+---' under '|' cells (svn's)", async () => {
  const tables = async (name: string) => {
    const fixture = await loadFixture(name, blindDir("blind4"));
    try {
      return detectElements(cellGridOf(fixture.term))
        .filter((e) => e.kind === "table")
        .map((e) => [e.row, e.col, e.width, e.height, e.header, e.rows]);
    } finally {
      fixture.term.dispose();
    }
  };
  expect(await tables("b4-rclone-menu")).toEqual([[2, 0, 26, 4, ["Name", "Type"], 2]]);
  const svn = [10, 0, 77, 4, ["(1) their version (at line 2)", "(2) your version (at line 2)"], 1];
  expect(await tables("b4-svn-merge")).toEqual([svn]);
  expect(await tables("b4-svn-resolved")).toEqual([[9, ...svn.slice(1)]]);
  // Two words over dashes under the first only, or a sentence over a rule across it: no table.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "Release notes\r\n=======\r\nfixed the build\r\n");
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "table")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("settings a capital letter picks ('A -  Serial Device : /dev/modem') over 'Change which setting?'", async () => {
  const fixture = await loadFixture("b4-minicom-serial", blindDir("blind4"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question" || e.kind === "input");
    expect(found.map((e) => [e.kind, e.row, e.col, e.height, e.label])).toEqual([
      ["question", 4, 6, 16, "Change which setting?"],
    ]);
    expect(found[0]!.items!.slice(0, 3).map((i) => `${i.key}=${i.label}`)).toEqual([
      "A=Serial Device",
      "B=Lockfile Location",
      "C=Callin Program",
    ]);
    expect(found[0]!.items!.length).toBe(14);
  } finally {
    fixture.term.dispose();
  }
});

test("hg's chunk selector: '[x]**  notes.txt' boxes (a fold mark after), its two-row bar one status", async () => {
  for (const [name, checked, notes, plan] of [
    ["b4-hg-chunks", true, true, undefined],
    ["b4-hg-chunks-off", false, undefined, true],
  ] as const) {
    const fixture = await loadFixture(name, blindDir("blind4"));
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
      expect(found.map((e) => [e.kind, e.row, e.height, e.label, e.checked, e.selected])).toEqual([
        ["status", 0, 2, undefined, undefined, undefined],
        ["checkbox", 2, 1, "notes.txt", checked, notes],
        ["checkbox", 3, 1, "plan.txt", true, plan],
      ]);
    } finally {
      fixture.term.dispose();
    }
  }
});

test("a REPL's line ending in '?' (irb's 'irb(main):001:0> File.exist?') is code typed, no question", async () => {
  const fixture = await loadFixture("b2-irb-complete-moved", blindDir("blind2"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input" || e.kind === "question");
    expect(found.map((e) => [e.kind, e.row, e.value])).toEqual([["input", 0, "File.exist?"]]);
  } finally {
    fixture.term.dispose();
  }
});

test("a value typed after a prompt that filled its row goes on under it (systemd-firstboot's): one field", async () => {
  const prompt = '‣ Please enter timezone name or number (empty to skip, "list" to list options): ';
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, `${prompt}Europe/Lisbon`);
    const found = detectElements(cellGridOf(term)).filter((e) => e.kind !== "text");
    expect(found.map((e) => [e.kind, e.row, e.height, e.label, e.value, e.cursor])).toEqual([
      [
        "input",
        0,
        2,
        'Please enter timezone name or number (empty to skip, "list" to list options)',
        "Europe/Lisbon",
        true,
      ],
    ]);
  } finally {
    term.dispose();
  }
  // A long line of output ending in ":" over a shell's prompt: the prompt is its own.
  const shell = fixtureTerminal(80, 6);
  try {
    await writeAll(shell, `${"x".repeat(79)}:\r\n$ ls`);
    const found = detectElements(cellGridOf(shell)).filter((e) => e.kind === "input");
    expect(found.map((e) => [e.row, e.value])).toEqual([[1, "ls"]]);
  } finally {
    shell.dispose();
  }
});

test("a completion pop-up under the field, nothing selected (irb's reline dialog): a menu of its words", async () => {
  const term = fixtureTerminal(80, 6);
  try {
    const box = (word: string) => `\x1b[46m${word.padEnd(17)}\x1b[0m`;
    await writeAll(
      term,
      `irb(main):001:0> deploy_\r\n${" ".repeat(17)}${box("deploy_staging")}\r\n` +
        `${" ".repeat(17)}${box("deploy_production")}\x1b[1;25H`,
    );
    const found = detectElements(cellGridOf(term)).filter((e) => e.kind !== "text");
    expect(found.map((e) => [e.kind, e.row, e.col, e.items?.map((i) => [i.label, i.selected ?? false])])).toEqual([
      ["input", 0, 0, undefined],
      [
        "menu",
        1,
        17,
        [
          ["deploy_staging", false],
          ["deploy_production", false],
        ],
      ],
    ]);
  } finally {
    term.dispose();
  }
});

test("rclone's storage list: '36 / SSH/SFTP' over '   \\ (sftp)' rows, its top scrolled off", async () => {
  const fixture = await loadFixture("b4-rclone-storage", blindDir("blind4"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question");
    expect(found.map((e) => [e.row, e.items?.length, e.items?.slice(0, 2).map((i) => `${i.key}=${i.label}`)])).toEqual([
      [1, 11, ["36=SSH/SFTP", "37=Sia Decentralized Cloud"]],
    ]);
  } finally {
    fixture.term.dispose();
  }
  // " 1 / 3" rows over a shell's prompt are no question.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "1 / copied\r\n   \\ (a)\r\n2 / copied\r\n   \\ (b)\r\n$ ");
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("a row closing the parenthesis the row above opened goes on with it (create-vue's answered hints)", async () => {
  for (const name of ["b3-vue-blank", "b3-vue-features"]) {
    const fixture = await loadFixture(name, blindDir("blind3"));
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter(
        (e) => (e.kind === "status" && (e.row === 9 || e.row === 13)) || e.kind === "table",
      );
      expect(found).toEqual([]);
    } finally {
      fixture.term.dispose();
    }
  }
});

test("a question in lower case goes on from the sentence above it (gem's 'in addition to the gem?')", async () => {
  const fixture = await loadFixture("b3-gem-executables", blindDir("blind3"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question");
    expect(found.map((e) => [e.row, e.height, e.label, e.items?.map((i) => i.key)])).toEqual([
      [7, 4, "in addition to the gem?", ["y", "n"]],
    ]);
  } finally {
    fixture.term.dispose();
  }
});

test("a line wholly in parentheses saying how to move ('(Move up and down to reveal more …)'): a hint", async () => {
  const fixture = await loadFixture("b3-cz-type", blindDir("blind3"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "status");
    expect(found.map((e) => [e.row, e.text])).toEqual([[10, "(Move up and down to reveal more choices)"]]);
  } finally {
    fixture.term.dispose();
  }
});

test("answers named by words with a key in parentheses ('(Y)es / A(u)to rename all', '(N)o/(y)es')", async () => {
  const want: Record<string, unknown[]> = {
    "b5-7z-replace": [15, 9, "Would you like to replace the existing file", ["Y", "N", "A", "S", "u", "Q"]],
    "b5-ansible-step": [6, 1, "Perform task: TASK: Write the release file", ["n", "y", "c"]],
    "b5-ansible-step-second": [12, 1, "Perform task: TASK: Mark the release as tagged", ["n", "y", "c"]],
  };
  for (const [name, expected] of Object.entries(want)) {
    const fixture = await loadFixture(name, blindDir("blind5"));
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question" || e.kind === "input");
      expect(found.map((e) => [e.row, e.height, e.label, e.items?.map((i) => i.key)]) as unknown[]).toEqual([expected]);
    } finally {
      fixture.term.dispose();
    }
  }
  // Answered, the cursor gone on to the next row: history, no question.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "Perform task: TASK: x (N)o/(y)es/(c)ontinue: y\r\n$ ");
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("a confirmation's last '?' (find -ok's '< rm … > ?', xargs -p's '…?...') is its prompt's", async () => {
  const want: Record<string, unknown[]> = {
    "b5-find-ok": [0, "< rm ... ./a.tmp > ?", ""],
    "b5-find-ok-second": [1, "< rm ... ./c.tmp > ?", ""],
    "b5-xargs-p": [0, "rm a.tmp b.tmp c.tmp?...", ""],
  };
  for (const [name, expected] of Object.entries(want)) {
    const fixture = await loadFixture(name, blindDir("blind5"));
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
      expect(found.map((e) => [e.row, e.label, e.value]) as unknown[]).toEqual([expected]);
    } finally {
      fixture.term.dispose();
    }
  }
  // Typed after it: the value is what was typed. (A "?" typed after a question's own "?" is a value: visudo's.)
  for (const [shown, label, value] of [
    ["< rm ... ./a.tmp > ? y", "< rm ... ./a.tmp > ?", "y"],
    ["rm a.tmp?...y", "rm a.tmp?...", "y"],
    ["What now? ?", "What now?", "?"],
  ]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, shown!);
      const found = detectElements(cellGridOf(term)).filter((e) => e.kind === "input");
      expect(found.map((e) => [e.label, e.value])).toEqual([[label, value]]);
    } finally {
      term.dispose();
    }
  }
});

test("a question's sentence wrapped over rows opening at the first column is its label (reportbug's)", async () => {
  const want: Record<string, [number, string]> = {
    "b5-reportbug-internet": [16, "Will reportbug often have direct Internet access? (You should answer yes to"],
    "b5-reportbug-mta": [22, 'Do you have a "mail transport agent" (MTA) like Exim, Postfix or SSMTP configured on'],
  };
  for (const [name, [row, opening]] of Object.entries(want)) {
    const fixture = await loadFixture(name, blindDir("blind5"));
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question");
      expect(found.map((e) => e.row)).toEqual([row]);
      expect(found[0]!.label!.startsWith(opening)).toBe(true);
    } finally {
      fixture.term.dispose();
    }
  }
});

test("a default in brackets before '>', its question above: the question the label, '[root]' the default", async () => {
  const fixture = await loadFixture("b5-reportbug-name", blindDir("blind5"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
    expect(found.map((e) => [e.row, e.label, e.value, e.default])).toEqual([
      [20, "What real name should be used for sending bug reports?", "", "root"],
    ]);
  } finally {
    fixture.term.dispose();
  }
});

test("words listed in parentheses over a row of their keys ('(single, indep, …)' over '[s/i/l/p]?')", async () => {
  const fixture = await loadFixture("b5-dhmake-type", blindDir("blind5"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question" || e.kind === "input");
    expect(found.map((e) => [e.kind, e.row, e.height, e.label, e.items?.map((i) => `${i.key}=${i.label}`)])).toEqual([
      ["question", 3, 2, "Type of package", ["s=single", "i=indep", "l=library", "p=python"]],
    ]);
  } finally {
    fixture.term.dispose();
  }
  // Answered, the cursor gone on past the program's next lines: history, no question.
  const fixture2 = await loadFixture("b5-dhmake-correct", blindDir("blind5"));
  try {
    const found = detectElements(cellGridOf(fixture2.term)).filter((e) => e.kind === "question");
    expect(found.map((e) => e.label)).toEqual(["Are the details correct?"]);
  } finally {
    fixture2.term.dispose();
  }
});

test("items numbered from 1, a name then a description column going on below (reportbug's modes)", async () => {
  const fixture = await loadFixture("b5-reportbug-mode", blindDir("blind5"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question" || e.kind === "input");
    expect(found.map((e) => [e.kind, e.row, e.height, e.items?.map((i) => `${i.key}=${i.label}`)])).toEqual([
      ["question", 2, 12, ["1=novice", "2=standard", "3=advanced", "4=expert"]],
      ["input", 15, 1, undefined],
    ]);
  } finally {
    fixture.term.dispose();
  }
  // Not numbered from 1, or a row between not in the description's column: no question.
  for (const rows of [
    "2 novice    Offer a\r\n3 expert    Bypass b\r\n",
    "1 novice    Offer a\r\n  and more\r\n2 expert    b\r\n",
  ]) {
    const term = fixtureTerminal(80, 8);
    try {
      await writeAll(term, `${rows}\r\nSelect mode: `);
      expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
    } finally {
      term.dispose();
    }
  }
});

test("a column of fields at the screen's foot, one a row (cscope's ten 'Find …:'): each an input", async () => {
  for (const [name, cursorAt] of [
    ["b5-cscope-main", 13],
    ["b5-cscope-results", undefined],
  ] as const) {
    const fixture = await loadFixture(name, blindDir("blind5"));
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
      expect(found.map((e) => e.row)).toEqual([13, 14, 15, 16, 17, 18, 19, 20, 21, 22]);
      expect(found[7]!.label).toBe("Find this file");
      expect(found.filter((e) => e.cursor).map((e) => e.row)).toEqual(cursorAt === undefined ? [] : [cursorAt]);
    } finally {
      fixture.term.dispose();
    }
  }
  // Labels holding values, or a shell's prompt under them: no form.
  for (const text of [
    "Name: Ada\r\nEmail: a@b\r\nDate: today\r\nType: indep\r\n",
    "Find a:\r\nFind b:\r\nFind c:\r\nFind d:\r\n$ ",
  ]) {
    const term = fixtureTerminal(80, 8);
    try {
      await writeAll(term, text);
      expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "input" && !e.cursor)).toEqual([]);
    } finally {
      term.dispose();
    }
  }
});

test("a '>' before a prompt's or a question's words is no part of its label (sphinx-quickstart's)", async () => {
  const want: Record<string, [string, number, string]> = {
    "b5-sphinx-name": ["input", 13, "Project name"],
    "b5-sphinx-language": ["input", 23, "Project language"],
    "b5-sphinx-separate": ["question", 10, "Separate source and build directories"],
  };
  for (const [name, [kind, row, label]] of Object.entries(want)) {
    const fixture = await loadFixture(name, blindDir("blind5"));
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === kind && e.row === row);
      expect(found.map((e) => e.label)).toEqual([label]);
    } finally {
      fixture.term.dispose();
    }
  }
});

test("plain column names over rows whose cells start under them (cscope's); a 'Press the ? key' hint", async () => {
  for (const [name, rows] of [
    ["b5-cscope-symbol", 3],
    ["b5-cscope-results", 3],
  ] as const) {
    const fixture = await loadFixture(name, blindDir("blind5"));
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "table");
      expect(found.map((e) => [e.row, e.header, e.rows])).toEqual([[2, ["File", "Function", "Line"], rows]]);
    } finally {
      fixture.term.dispose();
    }
  }
  const fixture = await loadFixture("b5-cscope-main", blindDir("blind5"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "status");
    expect(found.map((e) => e.row)).toEqual([0]);
  } finally {
    fixture.term.dispose();
  }
  // Words under names but not starting under each: no table.
  const term = fixtureTerminal(80, 8);
  try {
    await writeAll(term, "  File   Function  Line\r\nthe tide rose and fell twice\r\nover the long flat sands\r\n$ ");
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "table")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("answers one per row, a key in parentheses in the first word, over the prompt (visudo's options)", async () => {
  const fixture = await loadFixture("b2-visudo-options", blindDir("blind2"));
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question" || e.kind === "input");
    expect(found.map((e) => [e.kind, e.row, e.items?.map((i) => i.key)])).toEqual([
      ["question", 5, ["e", "x", "Q"]],
      ["input", 9, undefined],
    ]);
  } finally {
    fixture.term.dispose();
  }
});

test("'key=word' answers ('(a=all/c=convert/y/N)?'), or words a key and ')' opens ('o)verwrite')", async () => {
  const want: Record<string, unknown[]> = {
    "b6-fossil-crlf": [2, 1, "Commit anyhow", ["all:a", "convert:c", "Yes:y", "No:n*"]],
    "b6-fossil-binary": [5, 1, "Commit anyhow", ["all:a", "Yes:y", "No:n*"]],
    "b6-mcopy-clash": [
      0,
      3,
      'Long file name "report.txt" already exists.',
      ["a", "A", "r", "R", "o", "O", "s", "S", "q"],
    ],
    "b6-mcopy-second": [
      3,
      3,
      'Long file name "notes.txt" already exists.',
      ["a", "A", "r", "R", "o", "O", "s", "S", "q"],
    ],
  };
  for (const [name, expected] of Object.entries(want)) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question" || e.kind === "input");
      const items = (e: (typeof found)[number]) =>
        name.startsWith("b6-fossil")
          ? e.items?.map((i) => `${i.label}:${i.key}${i.selected ? "*" : ""}`)
          : e.items?.map((i) => i.key);
      expect(found.map((e) => [e.row, e.height, e.label, items(e)]) as unknown[]).toEqual([expected]);
    } finally {
      fixture.term.dispose();
    }
  }
  // Answered, the cursor gone on to the next row: history, no question; nor rows of such words that end no prompt.
  for (const text of [
    "Commit anyhow (a=all/c=convert/y/N)? y\r\n$ ",
    "a)utorename o)verwrite\r\ns)kip q)uit (aosq): s\r\n$ ",
  ]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
    } finally {
      term.dispose();
    }
  }
});

test("a prompt's mark inside its parentheses is part of its words (phpunit's '(…; default: src):')", async () => {
  const want: Record<string, unknown[]> = {
    "b6-phpunit-bootstrap": [4, "Bootstrap script (relative to path shown above; default: vendor/autoload.php)", ""],
    "b6-phpunit-source": [7, "Source directory (relative to path shown above; default: src)", ""],
  };
  for (const [name, expected] of Object.entries(want)) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
      expect(found.map((e) => [e.row, e.label, e.value]) as unknown[]).toEqual([expected]);
    } finally {
      fixture.term.dispose();
    }
  }
  // A value typed after it is the value.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "Cache directory (default: .cache): tmp/c");
    expect(
      detectElements(cellGridOf(term))
        .filter((e) => e.kind === "input")
        .map((e) => [e.label, e.value, e.default]),
    ).toEqual([["Cache directory", "tmp/c", ".cache"]]);
  } finally {
    term.dispose();
  }
});

test("a prompt that is only a mark at the first column ('?-', '(%i1)', '%'), nothing below: the input", async () => {
  const want: Record<string, unknown[]> = {
    "b6-swipl-start": [7, "", ""],
    "b6-maxima-start": [6, "", ""],
    "b6-maxima-result": [21, "", ""],
    "b6-sdiff-first": [2, "", ""],
    "b6-sdiff-help": [13, "", ""],
  };
  for (const [name, expected] of Object.entries(want)) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
      expect(found.map((e) => [e.row, e.label ?? "", e.value]) as unknown[]).toEqual([expected]);
    } finally {
      fixture.term.dispose();
    }
  }
  // A line typed after it is the value; after a lone ':' or '?' words with blanks are a prompt's, not typed.
  for (const [text, expected] of [
    ["?- save_dept(42).", [["", "save_dept(42)."]]],
    ["%r", [["", "r"]]],
  ] as const) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(
        detectElements(cellGridOf(term))
          .filter((e) => e.kind === "input")
          .map((e) => [e.label ?? "", e.value]),
      ).toEqual(expected as unknown as string[][]);
    } finally {
      term.dispose();
    }
  }
});

test("rows numbered in order from 0 over a prompt asking for a number ('[0..3]', 'Enter a number')", async () => {
  const want: Record<string, unknown[]> = {
    "b6-trash-list": [0, 4, ["0", "1", "2", "3"], "2026-12-04 08:30:55 /tmp/b6/trash/w/report.txt", ""],
    "b6-trash-typed": [0, 4, ["0", "1", "2", "3"], "2026-12-04 08:30:55 /tmp/b6/trash/w/report.txt", "2"],
    "b6-checkinstall-values": [6, 16, [...Array(16).keys()].map(String), "Name", ""],
  };
  for (const [name, [row, height, keys, third, value]] of Object.entries(want)) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term));
      const question = found.filter((e) => e.kind === "question");
      expect(
        question.map((e) => [e.row, e.height, e.items?.map((i) => i.key), e.items?.[2]?.label]) as unknown[],
      ).toEqual([[row, height, keys, third]]);
      // The prompt stays an input (no key hint, no "press ENTER" question): the number is typed there.
      expect(found.filter((e) => e.kind === "input" && e.cursor).map((e) => e.value) as unknown[]).toEqual([value]);
      expect(found.filter((e) => e.kind === "status")).toEqual([]);
    } finally {
      fixture.term.dispose();
    }
  }
  // Not numbered from 0 or 1, or no number asked: no question.
  for (const text of ["  3 apples\r\n  4 pears\r\nWhich one [3..4]: ", "  0 apples\r\n  1 pears\r\nWhich one: "]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
    } finally {
      term.dispose();
    }
  }
});

test("a marker's label on the row above ('Enter new version:' over '>>'); a question over a blank row", async () => {
  const want: Record<string, unknown[]> = {
    "b6-checkinstall-version": [23, "Enter new version", ""],
    "b6-maxima-equal": [16, "Is a equal to - 1?", ""],
  };
  for (const [name, expected] of Object.entries(want)) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
      expect(found.map((e) => [e.row, e.label, e.value]) as unknown[]).toEqual([expected]);
    } finally {
      fixture.term.dispose();
    }
  }
  for (const [text, expected] of [
    ["Is a equal to - 1?\r\n\r\nno;", [["Is a equal to - 1?", "no;"]]],
    // (One listing its answers is a question's, not this input's label.)
    ["Is k positive, negative or zero?\r\n\r\n", []],
  ] as const) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(
        detectElements(cellGridOf(term))
          .filter((e) => e.kind === "input")
          .map((e) => [e.label, e.value]),
      ).toEqual(expected as unknown as string[][]);
    } finally {
      term.dispose();
    }
  }
});

test("a value begun on a full prompt row goes on under it (phpunit's '…autoload.php): t' over 'ests/…')", async () => {
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(
      term,
      "Bootstrap script (relative to path shown above; default: vendor/autoload.php): tests/bootstrap.php",
    );
    expect(
      detectElements(cellGridOf(term))
        .filter((e) => e.kind === "input")
        .map((e) => [e.row, e.height, e.label, e.value]),
    ).toEqual([
      [0, 2, "Bootstrap script (relative to path shown above; default: vendor/autoload.php)", "tests/bootstrap.php"],
    ]);
  } finally {
    term.dispose();
  }
});

test("7z's question asked again right under its answered line starts at its own paragraph", async () => {
  const term = fixtureTerminal(80, 8);
  try {
    const ask = "Would you like to replace the existing file:\r\n  Path:     ./src/a.txt\r\n? (Y)es / (N)o / (Q)uit? ";
    await writeAll(term, `${ask}Y\r\n${ask}`);
    expect(
      detectElements(cellGridOf(term))
        .filter((e) => e.kind === "question")
        .map((e) => [e.row, e.height, e.label]),
    ).toEqual([[3, 3, "Would you like to replace the existing file"]]);
  } finally {
    term.dispose();
  }
});

test("a form of settings, the focused name in reverse (ccmake's cache): inputs and ON/OFF checkboxes", async () => {
  const fixtures: Record<string, Terminal> = {};
  for (const name of ["b6-ccmake-entries", "b6-ccmake-edit", "b6-ccmake-advanced", "b6-ccmake-empty"])
    fixtures[name] = (await loadFixture(name)).term;
  const rows = (name: string) =>
    detectElements(cellGridOf(fixtures[name]!))
      .filter((e) => e.kind !== "text")
      .map((e) => [e.kind, e.row, e.label ?? "", e.value ?? e.checked ?? "", e.cursor ?? e.selected ?? ""]);
  try {
    // The focus at the value's first cell: selected, no cursor (keys there are ccmake's commands, never typed).
    expect(rows("b6-ccmake-entries").slice(0, 7) as unknown[]).toEqual([
      ["input", 1, "CMAKE_BUILD_TYPE", "", false],
      ["input", 2, "CMAKE_INSTALL_PREFIX", "/usr/local", false],
      ["input", 3, "TIDEPOOL_BACKEND", "sqlite", false],
      ["input", 4, "TIDEPOOL_PREFIX", "/opt/tidepool", false],
      ["checkbox", 5, "TIDEPOOL_STATIC", true, false],
      ["checkbox", 6, "TIDEPOOL_WITH_TESTS", false, false],
      ["status", 19, "", "", ""],
    ]);
    const entries = detectElements(cellGridOf(fixtures["b6-ccmake-entries"]!));
    expect(entries.find((e) => e.label === "CMAKE_BUILD_TYPE")?.selected).toBe(true);
    // Being edited, the cursor at the value's end: the field holds it; the two hint rows under the bar one status.
    expect(rows("b6-ccmake-edit") as unknown[]).toEqual([
      ["input", 1, "CMAKE_BUILD_TYPE", "Rel", true],
      ["input", 2, "CMAKE_INSTALL_PREFIX", "/usr/local", false],
      ["input", 3, "TIDEPOOL_BACKEND", "sqlite", false],
      ["input", 4, "TIDEPOOL_PREFIX", "/opt/tidepool", false],
      ["checkbox", 5, "TIDEPOOL_STATIC", true, false],
      ["checkbox", 6, "TIDEPOOL_WITH_TESTS", false, false],
      ["status", 19, "", "", ""],
      ["status", 21, "", "", ""],
    ]);
    expect(rows("b6-ccmake-advanced").filter((r) => r[0] !== "status").length).toBe(17);
    // The placeholder in reverse, the cursor on its first cell: no field.
    expect(rows("b6-ccmake-empty") as unknown[]).toEqual([
      ["status", 19, "", "", ""],
      ["status", 20, "", "", ""],
    ]);
  } finally {
    for (const term of Object.values(fixtures)) term.dispose();
  }
  // Not a listing of names and values (env, a table) with no name lit, nor one with the cursor elsewhere.
  for (const [text, cursor] of [
    ["  PATH      /usr/bin\r\n  HOME      /root\r\n  SHELL     /bin/sh\r\n$ ", "\x1b[4;3H"],
    ["  \x1b[7mPATH\x1b[m      /usr/bin\r\n  HOME      /root\r\n  SHELL     /bin/sh\r\n$ ", ""],
  ] as const) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text + cursor);
      expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "input" && e.label === "PATH")).toEqual([]);
    } finally {
      term.dispose();
    }
  }
});

test("a question ending in the name it quotes reads a line (tar -w's 'extract ‘a.txt’?')", async () => {
  const want: Record<string, unknown[]> = {
    "b7-tar-first": [0, "extract ‘a.txt’?", ""],
    "b7-tar-third": [2, "extract ‘c.txt’?", ""],
    "b6-swipl-correct": [8, 'Correct to: "save_depth(42)"?', ""],
  };
  for (const [name, expected] of Object.entries(want)) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
      expect(found.map((e) => [e.kind, e.row, e.label, e.value]) as unknown[]).toEqual([["input", ...expected]]);
    } finally {
      fixture.term.dispose();
    }
  }
  const term = fixtureTerminal(80, 6);
  try {
    // Typed right after the "?" (tar's echo): the value; a tool named before it is still a question (rm's).
    await writeAll(term, "extract ‘b.txt’?n");
    expect(detectElements(cellGridOf(term)).map((e) => [e.kind, e.label, e.value])).toEqual([
      ["input", "extract ‘b.txt’?", "n"],
    ]);
    await writeAll(term, "\r\nrm: remove regular file 'b.txt'? ");
    expect(
      detectElements(cellGridOf(term))
        .filter((e) => e.kind !== "text")
        .map((e) => [e.kind, e.label]),
    ).toEqual([["question", "rm: remove regular file 'b.txt'?"]]);
  } finally {
    term.dispose();
  }
});

test("a prompt asked again with a remark ('… key: (repeat)'); a hint far right of the cursor", async () => {
  const want: Record<string, unknown[]> = {
    "b7-ccrypt-repeat": [1, "Enter encryption key: (repeat)", ""],
    // kpcli's '("g" or "w" to auto-generate, "i" for interactive)' right of an unechoed field: no value.
    "b7-kpcli-password": [11, "Password", ""],
  };
  for (const [name, expected] of Object.entries(want)) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
      expect(found.map((e) => [e.row, e.label, e.value]) as unknown[]).toEqual([expected]);
    } finally {
      fixture.term.dispose();
    }
  }
  // npm's default in parentheses after a prompt not asked above is still no part of the label.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "package name: (notes) ");
    expect(detectElements(cellGridOf(term)).map((e) => [e.kind, e.label, e.value])).toEqual([
      ["input", "package name", ""],
    ]);
  } finally {
    term.dispose();
  }
});

test("a program's banner naming its version is output, no key hint (iex's, mail's)", async () => {
  for (const name of ["b7-iex-start", "b7-mail-read"]) {
    const fixture = await loadFixture(name);
    try {
      expect(detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "status")).toEqual([]);
    } finally {
      fixture.term.dispose();
    }
  }
});

test("dselect's menu ('* 0. [A]ccess' lit, '1.'…, a column of sentences), its key help, its table", async () => {
  const fixtures: Record<string, Terminal> = {};
  for (const name of ["b7-dselect-main", "b7-dselect-moved", "b7-dselect-access"])
    fixtures[name] = (await loadFixture(name)).term;
  try {
    const main = detectElements(cellGridOf(fixtures["b7-dselect-main"]!)).filter((e) => e.kind !== "text");
    expect(main.map((e) => [e.kind, e.row, e.height]) as unknown[]).toEqual([
      ["menu", 2, 7],
      ["status", 10, 2],
    ]);
    expect(main[0]!.items!.map((i) => [i.key, i.label, i.selected ?? false]) as unknown[]).toEqual([
      ["0", "[A]ccess", true],
      ["1", "[U]pdate", false],
      ["2", "[S]elect", false],
      ["3", "[I]nstall", false],
      ["4", "[C]onfig", false],
      ["5", "[R]emove", false],
      ["6", "[Q]uit", false],
    ]);
    const moved = detectElements(cellGridOf(fixtures["b7-dselect-moved"]!)).find((e) => e.kind === "menu");
    expect(moved?.items?.find((i) => i.selected)?.label).toBe("[C]onfig");
    // Two names on a bar over rows whose cells start under both: a table; the pane's title bar in the same colour
    // over its description is no menu.
    const access = detectElements(cellGridOf(fixtures["b7-dselect-access"]!)).filter((e) => e.kind !== "text");
    expect(access.map((e) => [e.kind, e.row, e.header ?? ""]) as unknown[]).toEqual([
      ["status", 0, ""],
      ["table", 1, ["Abbrev.", "Description"]],
      ["status", 23, ""],
    ]);
  } finally {
    for (const term of Object.values(fixtures)) term.dispose();
  }
  // Two names on a bar over rows whose cells do not start under both: no table.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(
      term,
      "\x1b[44m  Name          Status\x1b[K\x1b[m\r\n  alpha   running fine\r\n  beta    stopped now\r\n",
    );
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "table")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("lnav's bars: crumbs under the top bar, a message over the command line, '/' named by its bar", async () => {
  const want: Record<string, unknown[][]> = {
    "b7-lnav-main": [
      ["status", 0, ""],
      ["status", 1, ""],
      ["status", 21, ""],
      ["status", 22, ""],
      ["status", 23, ""],
    ],
    "b7-lnav-search": [
      ["status", 0, ""],
      ["status", 1, ""],
      ["status", 15, ""],
      ["status", 22, ""],
      ["input", 23, "Search for"],
    ],
    "b7-lnav-command": [
      ["status", 0, ""],
      ["status", 1, ""],
      ["status", 20, ""],
      ["status", 21, ""],
      ["input", 23, ":"],
    ],
  };
  for (const [name, expected] of Object.entries(want)) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
      expect(found.map((e) => [e.kind, e.row, e.label ?? ""]) as unknown[], name).toEqual(expected);
    } finally {
      fixture.term.dispose();
    }
  }
  // A shell's prompt under words ending in ":" on no bar of their own, a path with '›' not under a top bar: neither.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "docs › api › v2 › index\r\nSearch for: the notes\r\n/tmp");
    const found = detectElements(cellGridOf(term)).filter((e) => e.kind !== "text");
    expect(found.filter((e) => e.kind === "status")).toEqual([]);
    expect(found.filter((e) => e.label === "Search for")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("numbered headers, one marked current, over a one-mark prompt (mail's '>N  1 …'): a question", async () => {
  for (const [name, keys] of [
    ["b7-mail-headers", ["1*", "2", "3", "4"]],
    ["b7-mail-deleted", ["1", "2", "4*"]],
  ] as const) {
    const fixture = await loadFixture(name);
    try {
      const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question");
      expect(found.map((e) => e.items?.map((i) => `${i.key}${i.selected ? "*" : ""}`))).toEqual([[...keys]]);
    } finally {
      fixture.term.dispose();
    }
  }
  // The same rows over a shell's prompt are output.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, ">N  1 ci@build.example.  Mon Dec  7 08:01    8/195   Build 812 failed\r\n");
    await writeAll(term, " N  2 bob@example.org    Mon Dec  7 08:05    8/201   Tide tables for January\r\n$ ");
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("testdisk's '>[ Geometry ]' lit among '[ Tag ] what it does' rows; gdu's right-aligned figures", async () => {
  const fixtures: Record<string, Terminal> = {};
  for (const name of ["b3-testdisk-main", "b3-testdisk-type", "b3-gdu-list", "b3-gdu-delete"])
    fixtures[name] = (await loadFixture(name)).term;
  const menu = (name: string) => detectElements(cellGridOf(fixtures[name]!)).find((e) => e.kind === "menu");
  try {
    expect(menu("b3-testdisk-main")?.items?.map((i) => [i.key, i.label, i.selected ?? false]) as unknown[]).toEqual([
      ["Analyse", "Analyse current partition structure and search for lost partitions", false],
      ["Advanced", "Filesystem Utils", false],
      ["Geometry", "Change disk geometry", true],
      ["Options", "Modify options", false],
      ["MBR Code", "Write TestDisk MBR code to first sector", false],
      ["Delete", "Delete all data in the partition table", false],
      ["Quit", "Return to disk selection", false],
    ]);
    expect(menu("b3-testdisk-type")?.items?.find((i) => i.selected)?.key).toBe("EFI GPT");
    // "    2.9 MiB […] /node_modules" over "  496.0 KiB […] /logs" lit: one list from its first row.
    for (const name of ["b3-gdu-list", "b3-gdu-delete"]) {
      const list = menu(name);
      expect([list?.row, list?.height, list?.items?.find((i) => i.selected)?.label]).toEqual([
        2,
        5,
        "496.0 KiB [# ] /logs",
      ]);
    }
    // A box's choices, the focused one on a background of its own padded by blanks ("  yes  ").
    const buttons = detectElements(cellGridOf(fixtures["b3-gdu-delete"]!)).filter((e) => e.kind === "button");
    expect(buttons.map((b) => [b.label, b.selected])).toEqual([
      ["yes", true],
      ["no", false],
      ["don't ask me again", false],
    ]);
  } finally {
    for (const term of Object.values(fixtures)) term.dispose();
  }
});

test("a wizard's fields stacked under bold labels ('> Work'), its tab strip, its lone '[Next]' (aerc's)", async () => {
  const fixture = await loadFixture("b3-aerc-typed");
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
    expect(found.map((e) => [e.kind, e.row, e.label ?? "", e.value ?? "", e.cursor ?? ""]) as unknown[]).toEqual([
      ["status", 0, "", "", ""],
      ["input", 10, "Name for this account? (e.g. 'Personal' or 'Work')", "Work", false],
      ["input", 13, "Full name for outgoing emails? (e.g. 'John Doe')", "Ada Lovelace", false],
      ["input", 16, "Your email address? (e.g. 'john@example.org')", "ada@example.org", true],
      ["button", 18, "Next", "", ""],
    ]);
  } finally {
    fixture.term.dispose();
  }
  // Quoted lines under bold ones, the cursor elsewhere (a shell's prompt under a rendered reply): no fields.
  const term = fixtureTerminal(80, 8);
  try {
    await writeAll(term, "\x1b[1mAlice wrote\x1b[m\r\n> lunch?\r\n\r\n\x1b[1mBob wrote\x1b[m\r\n> sure\r\n$ ");
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "input" && e.label !== "$")).toEqual([]);
  } finally {
    term.dispose();
  }
});

test("a row of single words, one alone in reverse, the cursor hidden on it (smenu's): a menu of words", async () => {
  const fixture = await loadFixture("b3-smenu-row");
  try {
    const menu = detectElements(cellGridOf(fixture.term)).find((e) => e.kind === "menu");
    expect(menu?.items?.map((i) => `${i.label}${i.selected ? " *" : ""}`)).toEqual([
      "staging",
      "production *",
      "canary",
      "preview",
      "local-dev",
      "qa-east",
      "qa-west",
    ]);
  } finally {
    fixture.term.dispose();
  }
  // A word lit in a sentence with the cursor shown on it (an editor's search hit): no menu.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "the quick \x1b[7mbrown\x1b[m fox jumps\x1b[1;11H");
    expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "menu")).toEqual([]);
  } finally {
    term.dispose();
  }
});

// Blind set 8's (issue 59), now train: an argument hint drawn faint after what is typed is no part of the value.
test("a faint argument hint after the typed text ('HSET k' then grey 'field value …'): not the value", async () => {
  const fixture = await loadFixture("b8-redis-hint");
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
    expect(found.map((e) => [e.row, e.value])).toEqual([[1, "HSET station:pier"]]);
  } finally {
    fixture.term.dispose();
  }
  // Dim (SGR 2) or a grey of the 256 colours alike; the cursor moved back into what is typed (the rest in the typed
  // text's ink) keeps the whole value.
  for (const [text, value] of [
    ['127.0.0.1:6379> SET tide:low "08:10"\x1b[2m [NX|XX] [GET]\x1b[0m\x1b[14D', 'SET tide:low "08:10"'],
    ["db> GET k\x1b[38;5;244m key\x1b[0m\x1b[4D", "GET k"],
    ["db> GET key\x1b[3D", "GET key"],
  ] as const) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(
        detectElements(cellGridOf(term))
          .filter((e) => e.kind === "input")
          .map((e) => e.value),
      ).toEqual([value]);
    } finally {
      term.dispose();
    }
  }
});

test("a usage line's arguments in angle brackets in square ones ('edit [<editor>]'): no buttons", async () => {
  const fixture = await loadFixture("b8-nmh-options");
  try {
    expect(detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "button")).toEqual([]);
  } finally {
    fixture.term.dispose();
  }
  // A default button standing apart keeps its brackets' meaning ("[<Yes>]  [ No ]").
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "usage: rm [<file>] [-f]\r\n\r\n      [<Yes>]  [ No ]  [ Cancel ]");
    expect(
      detectElements(cellGridOf(term))
        .filter((e) => e.kind === "button")
        .map((e) => e.label),
    ).toEqual(["Yes", "No", "Cancel"]);
  } finally {
    term.dispose();
  }
});

test("a numbered reply between a prompt with a command typed and the prompt again: output, no question", async () => {
  const fixture = await loadFixture("b8-redis-result");
  try {
    expect(detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question")).toEqual([]);
  } finally {
    fixture.term.dispose();
  }
  // The same list under a command typed at another prompt (bash select's "#?" under it) still asks.
  for (const [text, questions] of [
    ["db> LRANGE k 0 -1\r\n1) a\r\n2) b\r\ndb> ", 0],
    ["db> LRANGE k 0 -1\r\n1) a\r\n2) b\r\n#? ", 1],
  ] as const) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question").length).toBe(questions);
    } finally {
      term.dispose();
    }
  }
});

test("an option wrapped onto the next row over a prompt with a bracketed default ('[default: …]')", async () => {
  expect(await itemsOf("b9-cabal-spec", "question")).toEqual({
    label: undefined,
    items: [
      ["1.10   (legacy)", "1", false],
      ["2.0    (+ support for Backpack, internal sub-libs, '^>=' operator)", "2", false],
      ["2.2    (+ support for 'common', 'elif', redundant commas, SPDX)", "3", false],
      ["2.4    (+ support for '**' globbing)", "4", false],
      [
        "3.0    (+ set notation for ==, common stanzas in ifs, more redundant commas, better pkgconfig-depends)",
        "5",
        false,
      ],
    ],
  });
});

test("notices are output, not statuses: 'warning: … /bin/sh', 'Reading GPRC: …', a '***' message's row", async () => {
  for (const name of ["b9-at-prompt", "b9-gp-break"]) {
    const fixture = await loadFixture(name);
    try {
      expect(detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "status")).toEqual([]);
    } finally {
      fixture.term.dispose();
    }
  }
});

test("a '>' after a prompt's colon is its mark ('…[<0 for unlimited path]: >'): an input, not a status", async () => {
  const fixture = await loadFixture("b9-certutil-pathlen");
  try {
    expect(detectElements(cellGridOf(fixture.term)).map((e) => [e.kind, e.label, e.value])).toContainEqual([
      "input",
      "Enter the path length constraint, enter to skip [<0 for unlimited path]",
      "",
    ]);
  } finally {
    fixture.term.dispose();
  }
  const critical = await loadFixture("b9-certutil-critical");
  try {
    expect(detectElements(cellGridOf(critical.term)).filter((e) => e.kind === "status")).toEqual([]);
  } finally {
    critical.term.dispose();
  }
  // What is typed after the mark is the value.
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, "Enter the limit, enter to skip [<0 for none]: > 12");
    expect(
      detectElements(cellGridOf(term))
        .filter((e) => e.kind === "input")
        .map((e) => [e.label, e.value]),
    ).toEqual([["Enter the limit, enter to skip [<0 for none]", "12"]]);
  } finally {
    term.dispose();
  }
});

test("rows numbered from 0 over a row closing them and a bare ' >' (certutil's key usages): a question", async () => {
  for (const [name, first] of [
    ["b9-certutil-usage", "Digital Signature"],
    ["b9-certutil-usage-again", "Digital Signature"],
    ["b9-certutil-extusage", "Server Auth"],
  ] as const) {
    const { items } = await itemsOf(name, "question");
    expect(items?.[0]).toEqual([first, "0", false]);
  }
  // Under a shell's prompt, or with the closing row elsewhere than the numbers' column, no question.
  for (const text of ["   0 - a\r\n   1 - b\r\n   Other\r\n$ ", "   0 - a\r\n   1 - b\r\nOther to finish\r\n > "]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
    } finally {
      term.dispose();
    }
  }
});

test("a question's remark in parentheses under it, the cursor at its end, is its second row ('[N/y/f]')", async () => {
  expect(await itemsOf("b9-opam-init", "question")).toEqual({
    label: "Do you want opam to modify ~/.bash_profile?",
    items: [
      ["No", "n", true],
      ["Yes", "y", false],
      ["f", "f", false],
    ],
  });
  // A prompt drawn after the remark on its row (printed unended, ">>> " after it), or the cursor below: output.
  for (const text of ["Wipe? [N/y/f]\r\n(default is no)>>> ", "Wipe? [N/y/f]\r\n(default is no)\r\n$ "]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
    } finally {
      term.dispose();
    }
  }
});

test("a REPL's lone '?' or ':' mark: one field, one label, before and after code is typed (gp's '? ')", async () => {
  const read = async (text: string) => {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      return detectElements(cellGridOf(term)).map((e) => [e.kind, e.label, e.value]);
    } finally {
      term.dispose();
    }
  };
  expect(await read("? ")).toEqual([["input", "", ""]]);
  expect(await read('? write("sum.txt", sum(i=1,100,i))')).toEqual([["input", "", 'write("sum.txt", sum(i=1,100,i))']]);
  // A prompt's words after the mark stay words (inquirer's, jove's).
  expect((await read("? Package name"))[0]![0]).toBe("text");
  expect((await read(": find-file (default notes.txt)"))[0]![0]).toBe("text");
});

test("answers named in the prompt's words on the cursor's row ('Please type y to accept, n otherwise:')", async () => {
  expect(await itemsOf("b9-makeself-licence", "question")).toEqual({
    label: "Please type y to accept, n otherwise",
    items: [
      ["y", "y", false],
      ["n", "n", false],
    ],
  });
  // Printed above a shell's prompt, or a prompt drawn after it on its row: no question.
  for (const text of ["Please type y to accept, n otherwise:\r\n$ ", "Please type y to accept, n otherwise:>>> "]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
    } finally {
      term.dispose();
    }
  }
});

test("code in parentheses typed after a REPL's '>' is the value, no default (clisp's '[1]> (+ 1 2)')", async () => {
  for (const [text, value] of [
    ["[1]> (+ 1 2)", "(+ 1 2)"],
    [
      '[1]> (with-open-file (s "r.txt" :direction :output) (print 7 s))',
      '(with-open-file (s "r.txt" :direction :output) (print 7 s))',
    ],
    ["name: (proj) ", ""],
    ["What keysize do you want? (3072) 40", "40"],
  ] as const) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(
        detectElements(cellGridOf(term))
          .filter((e) => e.kind === "input")
          .map((e) => e.value),
      ).toEqual([value]);
    } finally {
      term.dispose();
    }
  }
});

test("a debugger's restarts (name, ':R1', what it does) over its 'Break 1 [2]>' (clisp): a question", async () => {
  expect(await itemsOf("b9-clisp-restarts", "question")).toEqual({
    label: undefined,
    items: [
      ["USE-VALUE", ":R1", false],
      ["STORE-VALUE", ":R2", false],
      ["ABORT", ":R3", false],
    ],
  });
  // Above a shell's prompt, or with a line typed at the prompt: output.
  const rows = "USE-VALUE      :R1      Input a value.\r\nABORT          :R2      Abort main loop\r\n";
  for (const text of [`${rows}$ `, `${rows}Break 1 [2]> (foo)`]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, text);
      expect(detectElements(cellGridOf(term)).filter((e) => e.kind === "question")).toEqual([]);
    } finally {
      term.dispose();
    }
  }
});

test("a REPL's line longer than its row, wrapped under its prompt ('[1]> (with-open-file …')", async () => {
  const form = '(with-open-file (s "level.txt" :direction :output) (print (list (boundp (quote tide-level)) 8) s))';
  const term = fixtureTerminal(80, 6);
  try {
    await writeAll(term, `[1]> ${form}`);
    expect(
      detectElements(cellGridOf(term))
        .filter((e) => e.kind === "input")
        .map((e) => [e.label, e.value, e.height]),
    ).toEqual([["[1]", form, 2]]);
  } finally {
    term.dispose();
  }
});

/** The elements (text aside) a screen the bytes draw reads as: kind, row, col, label, then items' labels and keys. */
async function brief(bytes: string, cols = 80, rows = 24) {
  const term = fixtureTerminal(cols, rows);
  try {
    await writeAll(term, bytes);
    return detectElements(cellGridOf(term))
      .filter((e) => e.kind !== "text")
      .map((e) => [
        e.kind,
        e.row,
        e.col,
        e.label ?? null,
        ...(e.selected !== undefined ? [e.selected] : []),
        ...(e.items ? [e.items.map((i) => `${i.label}${i.key ? `=${i.key}` : ""}${i.selected ? "*" : ""}`)] : []),
      ]);
  } finally {
    term.dispose();
  }
}

/** The elements of a spent blind set's screen, briefly: kind, row, col, label, items' labels and keys. */
async function blindBrief(name: string, set: "blind10" | "blind11" | "blind12" | "blind13") {
  const fixture = await loadFixture(name, blindDir(set));
  try {
    return detectElements(cellGridOf(fixture.term))
      .filter((e) => e.kind !== "text")
      .map((e) => [
        e.kind,
        e.row,
        e.col,
        e.label ?? null,
        ...(e.selected !== undefined ? [e.selected] : []),
        ...(e.items ? [e.items.map((i) => `${i.label}${i.key ? `=${i.key}` : ""}${i.selected ? "*" : ""}`)] : []),
      ]);
  } finally {
    fixture.term.dispose();
  }
}

// Full-screen classes blind10 missed (meaning19): menu bars, frames, tables, hint rows, tree expanders.
test("a menu bar at the top row's right end, words padded on a bar: buttons; the title a status", async () => {
  const bar = (open: boolean) =>
    "\x1b[31mlogview 3.1\x1b[0m  |  app.log" +
    " ".repeat(31) +
    "\x1b[48;5;250m\x1b[30m  View  " +
    (open ? "\x1b[45m\x1b[37m" : "") +
    "  Tools  " +
    "\x1b[48;5;250m\x1b[30m  Help  \x1b[0m" +
    "\r\n".repeat(3) +
    " 12:00 started\r\n 12:01 listening";
  expect((await brief(bar(false))).filter((e) => e[1] === 0)).toEqual([
    ["status", 0, 0, null],
    ["button", 0, 56, "View", false],
    ["button", 0, 64, "Tools", false],
    ["button", 0, 73, "Help", false],
  ]);
  expect((await brief(bar(true))).filter((e) => e[0] === "button").map((e) => e[4])).toEqual([false, true, false]);
  // Words across a plain row are no menu bar (a title then a word at its end).
  expect((await brief(`myprog 1.0${" ".repeat(64)}Ready\r\n\r\nhello`)).filter((e) => e[0] === "button")).toEqual([]);
  // termshark's bar, its Misc drop-down open (the frame under it hangs from Misc).
  expect((await blindBrief("b10-termshark-misc", "blind10")).filter((e) => e[1] === 0)).toEqual([
    ["status", 0, 0, null],
    ["button", 0, 62, "Analysis", false],
    ["button", 0, 74, "Misc", true],
  ]);
});

test("half-block frames ('▛▀▜', '▌ ▐', '▙▄▟') are dialogs; an untitled frame round one field row is not", async () => {
  const inner = (text: string) => `▌${text.padEnd(28)}▐`;
  const half =
    `\x1b[3;10H\x1b[43m\x1b[30m▛${"▀".repeat(28)}▜` +
    `\x1b[4;10H${inner("     Really close?")}` +
    `\x1b[5;10H${inner("   <Yes>       <No>")}` +
    `\x1b[6;10H▙${"▄".repeat(28)}▟\x1b[0m`;
  expect((await brief(half)).filter((e) => e[0] === "dialog")).toEqual([["dialog", 2, 9, null]]);
  const bar =
    "┌" +
    "─".repeat(60) +
    "┐\r\n│Search: \x1b[46m" +
    " ".repeat(40) +
    "\x1b[0m <Go>" +
    " ".repeat(7) +
    "│\r\n└" +
    "─".repeat(60) +
    "┘\r\nfirst row\r\nsecond row";
  const found = await brief(bar);
  expect(found.filter((e) => e[0] === "dialog")).toEqual([]);
  expect(found.filter((e) => e[0] === "input").map((e) => e[3])).toEqual(["Search"]);
  // Titled, it is a small dialog asking for the field (mc's "Quick cd").
  expect((await brief(bar.replace("┌────────", "┌─ Find ─"))).filter((e) => e[0] === "dialog")).toEqual([
    ["dialog", 0, 0, "Find"],
  ]);
});

test("a header on the top bar's colour heads a table; percentages in columns are cells, no progress", async () => {
  const rows = [
    "+   23.14%     0.00%  python3   [unknown]             [.] 0x00007fee07656240",
    "+   10.54%    10.54%  bash      [kernel.kallsyms]     [k] pvm_irq_enable",
    "+    8.74%     8.23%  python3   libpython3.11.so.1.0  [.] _PyEval_EvalFrame",
    "+    5.14%     5.14%  python3   libc.so.6             [.] _int_free",
  ];
  const screen =
    "\x1b[?25l\x1b[44m\x1b[97mSamples: 389  of event 'cpu-clock', Event count (approx.): 779559112\x1b[K\r\n" +
    "  Overhead   Period  Command   Shared Object         Symbol\x1b[K\x1b[0m\r\n" +
    rows.join("\r\n");
  expect(await brief(screen)).toEqual([
    ["status", 0, 0, null],
    ["table", 1, 0, null],
  ]);
  // goaccess's panel: figures and percentages in columns, a bar of "|" after the data.
  const panel =
    " Hits     h% Vis.     v% Tx. Amount Data\r\n ---- ------ ---- ------ ---------- ----\r\n" +
    [
      "   12 20.00%    9 20.45%  19.66 KiB 05/Dec/2026 ||||||||||||||||||||",
      "   10 16.67%    8 18.18%  19.22 KiB 04/Dec/2026 ||||||||||||||||",
      "    7 11.67%   10 22.73%  18.79 KiB 03/Dec/2026 ||||||||||||",
    ].join("\r\n");
  expect(await brief(panel)).toEqual([["table", 0, 1, null]]);
  // A meter glued to its percent stays one: "40% ████".
  expect((await brief("copy   40% ████████      \r\nmove   75% ██████████████")).map((e) => e[0])).toEqual([
    "progress",
    "progress",
  ]);
});

test("hint rows in boxes and at the bottom ('[SPACE] to toggle - [q] to quit', 'ENTER: OK, ESC: Cancel')", async () => {
  const box =
    "+" +
    "-".repeat(50) +
    "+\r\n| Pick a format" +
    " ".repeat(36) +
    "|\r\n| [SPACE] to toggle - [ENTER] to proceed - [q] to quit|\r\n|" +
    " ".repeat(50) +
    "|\r\n| [ ] JSON lines" +
    " ".repeat(35) +
    "|\r\n| [ ] CSV" +
    " ".repeat(42) +
    "|\r\n+" +
    "-".repeat(50) +
    "+";
  expect((await brief(box)).filter((e) => e[0] === "status")).toEqual([["status", 2, 2, null]]);
  const symbol =
    "┌─Go to line" +
    "─".repeat(30) +
    "┐\r\n│Which line?" +
    " ".repeat(30) +
    "│\r\n│" +
    " ".repeat(41) +
    "│\r\n│ENTER: OK, ESC: Cancel" +
    " ".repeat(19) +
    "│\r\n└" +
    "─".repeat(41) +
    "┘";
  expect((await brief(symbol)).filter((e) => e[0] === "status")).toEqual([["status", 3, 1, null]]);
  expect(
    (await brief(`${"\r\n".repeat(22)} [?] Help [Enter] Expand  0/r - 07/Dec/2026:07:26:13   [q]uit Tool 1.7`)).map(
      (e) => e[0],
    ),
  ).toEqual(["status"]);
  // A sentence naming a key is no hint row.
  expect((await brief("Use [Enter] to open the file you want.")).map((e) => e[0])).toEqual([]);
});

test("a box's question over 'Enter: Yes, ESC: No': items Yes (Enter) and No (ESC)", async () => {
  const box =
    "\x1b[5;20H┌───────────────────────────┐" +
    "\x1b[6;20H│Discard the changes?       │" +
    "\x1b[7;20H│                           │" +
    "\x1b[8;20H│Enter: Yes, ESC: No        │" +
    "\x1b[9;20H└───────────────────────────┘";
  expect((await brief(box)).filter((e) => e[0] === "question")).toEqual([
    ["question", 5, 20, "Discard the changes?", ["Yes=Enter", "No=ESC"]],
  ]);
});

test("a tree's rows keep their expanders '[+] ' and '[-] ' out of the item names", async () => {
  const menu = (await blindBrief("b10-termshark-list", "blind10")).find((e) => e[0] === "menu")!;
  expect((menu[4] as string[]).map((i) => i.slice(0, 12))).toEqual([
    "Frame 1: 79 ",
    "Ethernet II,",
    "Internet Pro",
    "User Datagra",
    "Domain Name ",
  ]);
});

/** The elements other than text a screen of `rows` the bytes draw reads as: kind, label, items' labels and keys. */
async function readAs(bytes: string, rows = 8) {
  const term = fixtureTerminal(80, rows);
  try {
    await writeAll(term, bytes);
    return detectElements(cellGridOf(term))
      .filter((e) => e.kind !== "text")
      .map((e) => ({
        kind: e.kind,
        label: e.label,
        ...(e.items ? { items: e.items.map((i) => [i.label, i.key ?? null, i.selected ?? false]) } : {}),
      }));
  } finally {
    term.dispose();
  }
}

// Blind set 10's line prompts, read as classes (its screens to train).
test("answers that are keys named in the bracket ('OK? [return = YES | Esc = NO]'), wrapped", async () => {
  expect(await itemsOf("b10-dar-overwrite", "question")).toEqual({
    label: "/tmp/b10a/f/dar/out/tides.txt is about to be overwritten, OK?",
    items: [
      ["YES", "Return", false],
      ["NO", "Esc", false],
    ],
  });
  // The cursor's row under it is the answer's: no field.
  expect(await kindsOf("b10-dar-overwrite")).toEqual(["question"]);
  expect(await kindsOf("b10-dar-fsa")).toEqual(["question"]);
  // Another program's, on one row, the cursor after it; "Enter" and "Escape" spelt out.
  expect(await readAs("Replace the old key? [Enter = Replace | Escape = Keep] ")).toEqual([
    {
      kind: "question",
      label: "Replace the old key?",
      items: [
        ["Replace", "Enter", false],
        ["Keep", "Esc", false],
      ],
    },
  ]);
  // Printed above a shell's prompt, or with text under it: output.
  expect(await readAs("Replace the old key? [Enter = Replace | Escape = Keep]\r\n$ ")).toEqual([
    { kind: "input", label: "$" },
  ]);
  expect(
    (await readAs("Replace the old key? [Enter = Replace | Escape = Keep]\r\nkept\r\n")).map((e) => e.kind),
  ).not.toContain("question");
});

test("words in parentheses, the default in brackets after ('format (sdl/json) [json]:'): a question", async () => {
  expect(await itemsOf("b10-dub-format", "question")).toEqual({
    label: "Package recipe format",
    items: [
      ["sdl", "sdl", false],
      ["json", "json", true],
    ],
  });
  // (The default in brackets after the words is the one selected, as poetry's "(yes/no) [yes]".)
  expect(await readAs("Output style (plain/colour/none) [plain]: ")).toEqual([
    {
      kind: "question",
      label: "Output style",
      items: [
        ["plain", "plain", true],
        ["colour", "colour", false],
        ["none", "none", false],
      ],
    },
  ]);
  // Answered, under the next prompt: history.
  expect((await readAs("Output style (plain/colour/none) [plain]: none\r\nName [x]: ")).map((e) => e.kind)).toEqual([
    "input",
  ]);
});

test("a list cycled with Tab, its item between '>' and '<' ('Choices:> library <' over 'binary'): a menu", async () => {
  const items = [
    ["library", null, true],
    ["binary", null, false],
    ["hybrid", null, false],
  ];
  expect(await itemsOf("b10-nimble-type", "menu")).toEqual({ label: undefined, items });
  expect((await itemsOf("b10-nimble-binary", "menu")).items).toEqual([
    ["library", null, false],
    ["binary", null, true],
    ["hybrid", null, false],
  ]);
  // nimble's "... enter to use them." under "... Default values are shown in square brackets, press": the message
  // going on, no key hint.
  expect(await kindsOf("b10-nimble-type")).toEqual(["menu"]);
  // Another list of the shape, the cursor hidden on it, no label on its first row.
  expect(await readAs("Pick a colour\r\n  > red <\r\n    green\r\n    blue\x1b[?25l\x1b[2;3H")).toEqual([
    {
      kind: "menu",
      label: undefined,
      items: [
        ["red", null, true],
        ["green", null, false],
        ["blue", null, false],
      ],
    },
  ]);
  // Printed above a shell's prompt: output (Tab there would complete a command).
  expect(await readAs("Choices:> library <\r\n           binary\r\n$ ")).toEqual([{ kind: "input", label: "$" }]);
});

test("a pause for Return read as a line ('Press return for more:', 'Hit return when …')", async () => {
  for (const name of ["b10-gnuplot-more", "b10-gnuplot-pause"]) {
    const fixture = await loadFixture(name);
    try {
      const input = detectElements(cellGridOf(fixture.term)).find((e) => e.kind === "input");
      expect([input?.label, input?.value, input?.cursor]).toEqual([
        name.endsWith("more") ? "Press return for more" : "Hit return when the tide has turned",
        "",
        true,
      ]);
    } finally {
      fixture.term.dispose();
    }
  }
  expect(await readAs("Hit RETURN once the disk is in: ")).toEqual([
    { kind: "input", label: "Hit RETURN once the disk is in" },
  ]);
  // Output above a prompt, or the cursor elsewhere on its row: not.
  expect(await readAs("Hit return when the tide has turned\r\ngnuplot> ")).toEqual([
    { kind: "input", label: "gnuplot" },
  ]);
  expect(await readAs("Press return for more:\x1b[1;1H")).not.toContainEqual({
    kind: "input",
    label: "Press return for more",
  });
});

test("a REPL's line wrapped under a named prompt ('scheme@(guile-user)> (call-with-output-file …')", async () => {
  const form = '(call-with-output-file "sum.txt" (lambda (port) (write (+ 12 20 10) port)))';
  for (const prompt of ["scheme@(guile-user)>", "scheme@(guile-user) [1]>"]) {
    const term = fixtureTerminal(80, 6);
    try {
      await writeAll(term, `${prompt} ${form}`);
      expect(
        detectElements(cellGridOf(term))
          .filter((e) => e.kind === "input")
          .map((e) => [e.label, e.value, e.height]),
      ).toEqual([[prompt, form, 2]]);
    } finally {
      term.dispose();
    }
  }
});

test("a drop-down of 'shortcut| name' rows, rules between: a menu, keys, the lit one selected", async () => {
  const row = (text: string, lit = false) =>
    lit ? `┃${text.slice(0, 10)}\x1b[47m\x1b[30m${text.slice(10)}\x1b[0m┃` : `┃${text}┃`;
  const lines = [
    `┏${"━".repeat(24)}┓`,
    row("  Ctrl-O| Open file     ", true),
    row("       s| Save          "),
    `┃${"━".repeat(24)}┃`,
    row("        | Settings      "),
    row("       q| Quit          "),
    `┗${"━".repeat(24)}┛`,
  ];
  const screen = lines.map((line, i) => `\x1b[${i + 2};40H${line}`).join("");
  expect(await brief(`\x1b[?25l${screen}`)).toEqual([
    ["menu", 2, 40, null, ["Open file=Ctrl-O*", "Save=s", "Settings", "Quit=q"]],
  ]);
});

test("a header with sort marks (' -'), a drop-down drawn over its right part: the table left of it", async () => {
  const rows = [" No. Time - Source Dest - Proto Length Info -"];
  for (let i = 1; i <= 4; i++)
    rows.push(`\x1b[48;5;238m ${i}   0.${i}000 10.0.8 10.0.9 DNS   7${i}     Standard query 0x100${i}\x1b[0m`);
  const menu = [`┏${"━".repeat(20)}┓`, "┃     d| Dark mode   ┃", "┃     l| Show log    ┃", "┃     h| Help        ┃"];
  menu.push("┃     q| Quit        ┃", `┗${"━".repeat(20)}┛`);
  const screen = `\x1b[?25l\r\n\r\n${rows.join("\r\n")}${menu.map((line, i) => `\x1b[${i + 2};40H${line}`).join("")}`;
  expect((await brief(screen)).map((e) => e.slice(0, 3))).toEqual([
    ["table", 2, 1],
    ["menu", 2, 40],
  ]);
});

test("a tag in brackets before a prompt's words ('[sudo] password for ada: ') is the prompt's, no marker", async () => {
  expect(await readAs("[sudo] password for ada: ")).toEqual([{ kind: "input", label: "[sudo] password for ada" }]);
  // irssi's "[(status)] " stays a marker, a line typed after it.
  expect(await readAs("[(status)] hello there")).toEqual([{ kind: "input", label: "" }]);
});

test("numbered options over a prompt holding one of their keys to edit ('Geographic area: 6'): asked", async () => {
  const list = "Please select the area.\r\n\r\n  1. Africa   3. Antarctica\r\n  2. America  4. Asia\r\n";
  const keys = (elements: Awaited<ReturnType<typeof readAs>>) =>
    elements.find((e) => e.kind === "question")?.items?.map((i) => i[1]);
  expect(keys(await readAs(`${list}Geographic area: 4`))).toEqual(["1", "3", "2", "4"]);
  // A value that is no key of theirs is typed text: not read as a default.
  expect(keys(await readAs(`${list}Geographic area: x9`))).toBeUndefined();
});

test("a window's widgets in its border are no part of its title; '[+]' boxes are checked (xwpe's Find)", async () => {
  const fixture = await loadFixture("s2-xwpe-find");
  try {
    const elements = detectElements(cellGridOf(fixture.term));
    expect(elements.filter((e) => e.kind === "dialog").map((e) => e.label)).toEqual(["Find"]);
    expect(elements.filter((e) => e.kind === "checkbox" && e.checked).map((e) => e.label)).toEqual([
      "ForwarD",
      "Global",
      "From Cursor",
    ]);
  } finally {
    fixture.term.dispose();
  }
  const save = await loadFixture("s2-xwpe-save");
  try {
    expect(
      detectElements(cellGridOf(save.term))
        .filter((e) => e.kind === "dialog")
        .map((e) => e.label),
    ).toEqual(["Message"]);
  } finally {
    save.term.dispose();
  }
});

test("a frame cut into panes by rules from '┬' to '┴' is no dialog; each pane's lit list a menu (ytree)", async () => {
  const fixture = await loadFixture("s2-ytree-files");
  try {
    const elements = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
    expect(elements.map((e) => e.kind)).toEqual(["status", "menu", "menu"]);
    expect(elements.slice(1).map((e) => e.items?.map((i) => `${i.label}${i.selected ? "*" : ""}`))).toEqual([
      ["/tmp/sw2/yt/harbour", "buoys/", "logs", "tides*"],
      ["december.txt*", "january.txt"],
    ]);
  } finally {
    fixture.term.dispose();
  }
});

test("a drop-down's items after a capital hot key ('S Save   ^S', 'F File ▷'): the key, the name", async () => {
  expect((await itemsOf("s2-wordgrinder-style", "menu")).items?.slice(3, 5)).toEqual([
    ["Set plain", "O", false],
    ["Change paragraph style", "P", false],
  ]);
  expect((await itemsOf("s2-wordgrinder-menu", "menu")).items?.[0]).toEqual(["File", "F", true]);
});

test("a bare 'y/N?' ending a question's row, the cursor after it ('… process down y/N? '): a question", async () => {
  expect(await readAs("Really shut the remote supervisord process down y/N? ")).toEqual([
    {
      kind: "question",
      label: "Really shut the remote supervisord process down?",
      items: [
        ["Yes", "y", false],
        ["No", "n", true],
      ],
    },
  ]);
  // Printed above a shell's prompt, or answered with output under it: no question.
  expect(await readAs("Remove it y/N?\r\n$ ")).toEqual([{ kind: "input", label: "$" }]);
  expect((await readAs("Remove it y/N? y\r\nremoved\r\n")).map((e) => e.kind)).not.toContain("question");
});

// Full-screen classes blind11 missed (meaning20): header bars without a rule, framed results, meters.
test("a header bar over a list, no rule under it (reversed, coloured, a lit row in it): a table", async () => {
  const rev = "\x1b[7m";
  const off = "\x1b[0m";
  const pad = (t: string) => t.padEnd(80);
  const screen =
    `${rev}${pad(" monitor 1.0")}${off}\r\n\r\n` +
    `${rev}${pad("NAME            W STATUS   CURRENT    TOTAL")}${off}\r\n\r\n` +
    `${rev}${pad(">>> front")}${off}\r\n` +
    "web1            1 UP             3       10\r\n\r\n" +
    "web2            1 DOWN           0        4\r\n" +
    "web3            1 UP             1        7\r\n" +
    `\x1b[23;1H${rev}${pad(" 1-STATUS  2-TRAFFIC  Q=QUIT")}${off}`;
  expect(await brief(screen)).toEqual([
    ["status", 0, 1, null],
    ["table", 2, 0, null],
    ["status", 22, 1, null],
  ]);
  // A scroll mark "^^^" before the first name is no name of it.
  const marked = (await blindBrief("b11-varnishstat-main", "blind11")).filter((e) => e[0] !== "status");
  expect(marked).toEqual([["table", 3, 0, null]]);
  // The list's "[ ]" marks are cells of its rows, not checkboxes.
  expect((await blindBrief("b11-sngrep-list", "blind11")).map((e) => e[0])).not.toContain("checkbox");
  // A form drawn over the list hides its middle: the names and cells either side still head and make its rows.
  for (const name of ["b11-sngrep-filter", "b11-sngrep-columns"]) {
    const shown = await blindBrief(name, "blind11");
    expect(shown.filter((e) => e[0] === "table").map((e) => e.slice(0, 3))).toEqual([["table", 4, 0]]);
    expect(shown.filter((e) => e[0] === "checkbox" && (e[2] as number) < 6)).toEqual([]);
  }
});

async function tableOf(bytes: string) {
  const term = fixtureTerminal(80, 24);
  try {
    await writeAll(term, bytes);
    const t = detectElements(cellGridOf(term)).find((e) => e.kind === "table");
    return t && { row: t.row, height: t.height, header: t.header, rows: t.rows };
  } finally {
    term.dispose();
  }
}

test("a result framed by '+---+' rules ('| place | level |'): a table, its bottom rule outside", async () => {
  const rule = "+-------+-------+";
  const detected = await tableOf(
    `${rule}\r\n| place | level |\r\n${rule}\r\n| pier  |    42 |\r\n| buoy  |    17 |\r\n${rule}\r\n2 rows in set\r\n`,
  );
  expect(detected).toEqual({ row: 1, height: 4, header: ["place", "level"], rows: 2 });
});

test("a meter in brackets after its label ('Pipes: [      0/0]', a count right-aligned): no input", async () => {
  const meters =
    "       Pipes: [                              0/0]\r\n Connections: [|||||                   12/9986]\x1b[?25l";
  expect((await brief(meters)).map((e) => e[0])).not.toContain("input");
  // A field in brackets holding its value on the left is one.
  expect((await brief("Name: [Ada             ]")).map((e) => e[0])).toContain("input");
});

// Blind set 11's line prompts, read as classes.
test("word choices parted by '|' in brackets after a name and its colon ('Group: [piers|tides]:')", async () => {
  expect(await readAs("Please enter your username.\r\nGroup: [piers|tides]:")).toEqual([
    {
      kind: "question",
      label: "Group",
      items: [
        ["piers", "piers", false],
        ["tides", "tides", false],
      ],
    },
  ]);
  // Printed above a shell's prompt: no question.
  expect((await readAs("Group: [piers|tides]:\r\n$ ")).map((e) => e.kind)).not.toContain("question");
});

test("answers quoted in the prompt's words, each with what it does ('Enter 'yes' to accept, …')", async () => {
  const prompt = "Enter 'yes' to accept, 'no' to abort; anything else to view:";
  expect(await readAs(`Reason: signer not found\r\n${prompt} `)).toEqual([
    {
      kind: "question",
      label: "Enter 'yes' to accept, 'no' to abort; anything else to view",
      items: [
        ["yes", "yes", false],
        ["no", "no", false],
      ],
    },
  ]);
  // Not where the cursor waits: output, no question.
  expect((await readAs(`${prompt}\r\n$ `)).map((e) => e.kind)).not.toContain("question");
  expect((await readAs(`${prompt} yes\r\nConnected\r\n`)).map((e) => e.kind)).not.toContain("question");
});

test("a select's items as a sign, a name and a grey description (hanji's '❯ + harbour  create column')", async () => {
  const q = "Is \x1b[1;34mharbour\x1b[0m column created or renamed from another column?\r\n";
  const rows =
    "\x1b[32m❯ +\x1b[0m harbour \x1b[90mcreate column\x1b[0m\r\n" +
    "  \x1b[33m~\x1b[0m place › harbour \x1b[90mrename column\x1b[0m";
  expect(await readAs(`\x1b[?25l${q}${rows}`)).toEqual([
    {
      kind: "menu",
      label: undefined,
      items: [
        ["harbour", null, true],
        ["place › harbour", null, false],
      ],
    },
  ]);
  // One item alone under its question, the cursor hidden: a list too; the cursor shown (a shell's "❯" prompt): not.
  const one = "Is piers table created or renamed?\r\n\x1b[32m❯ +\x1b[0m piers \x1b[90mcreate table\x1b[0m";
  expect(await readAs(`\x1b[?25l${one}`)).toEqual([{ kind: "menu", label: undefined, items: [["piers", null, true]] }]);
  expect((await readAs(one)).map((e) => e.kind)).not.toContain("menu");
});

test("quoted words joined by 'or' ('Type \"accept\" or \"decline\":'); 'yes/no:' after a '?'", async () => {
  expect(await readAs('Do you accept the license? Type "accept" or "decline": ')).toEqual([
    {
      kind: "question",
      label: "Do you accept the license?",
      items: [
        ["accept", "accept", false],
        ["decline", "decline", false],
      ],
    },
  ]);
  expect((await readAs("Are you sure? (enter 'yes' or 'no') ")).map((e) => e.label)).toEqual(["Are you sure?"]);
  expect(await readAs("Use default settings? yes/no: ")).toEqual([
    {
      kind: "question",
      label: "Use default settings?",
      items: [
        ["Yes", "yes", false],
        ["No", "no", false],
      ],
    },
  ]);
  // Printed above a shell's prompt: output.
  for (const printed of ['Type "accept" or "decline":', "Use default settings? yes/no:"])
    expect((await readAs(`${printed}\r\n$ `)).map((e) => e.kind)).not.toContain("question");
});

test("keyed words parted by commas after '?' ('Retry? (r)etry, (a)bort:'), 'Yes or No:', 'Type YES …:'", async () => {
  expect(await readAs("Retry? (r)etry, (a)bort: ")).toEqual([
    {
      kind: "question",
      label: "Retry?",
      items: [
        ["(r)etry", "r", false],
        ["(a)bort", "a", false],
      ],
    },
  ]);
  expect(await readAs("Really delete? Yes or No: ")).toEqual([
    {
      kind: "question",
      label: "Really delete?",
      items: [
        ["Yes", "Yes", false],
        ["No", "No", false],
      ],
    },
  ]);
  // A word to type named in the prompt, the cursor after its colon: a field, not a key hint.
  expect(await readAs("Type YES to confirm: ")).toEqual([{ kind: "input", label: "Type YES to confirm" }]);
  // vim's row, an answer of another shape before the commas: vim's question, not these.
  const vim = "[O]pen Read-Only, (E)dit anyway, (R)ecover, (Q)uit, (A)bort: ";
  expect((await readAs(vim)).find((e) => e.kind === "question")?.items?.[0]).toEqual(["[O]pen Read-Only", "o", false]);
  for (const printed of ["Retry? (r)etry, (a)bort:", "Really delete? Yes or No:"])
    expect((await readAs(`${printed}\r\n$ `)).map((e) => e.kind)).not.toContain("question");
});

// Sweep 2's line prompts left over (train screens).
test("answers parted by blanks, a key in parentheses each, after 'BREAK:' and going on under it (erl's)", async () => {
  const { label, items } = await itemsOf("s2-erl-break", "question");
  expect(label).toBe("BREAK");
  expect(items?.slice(0, 3)).toEqual([
    ["(a)bort", "a", false],
    ["(A)bort with dump", "A", false],
    ["(c)ontinue", "c", false],
  ]);
  expect(items?.at(-1)).toEqual(["(d)istribution", "d", false]);
  // Printed above a shell's prompt: output.
  const printed = "BREAK: (a)bort (A)bort with dump (c)ontinue (p)roc info (i)nfo\r\n$ ";
  expect((await readAs(printed)).map((e) => e.kind)).not.toContain("question");
  // Asked again under the first, answered: the last one is the question.
  const twice = `${printed.slice(0, -4)}\r\nc\r\n2>\r\n${printed.slice(0, -4)}\r\n`;
  expect((await readAs(twice, 12)).filter((e) => e.kind === "question").length).toBe(1);
});

test("restarts numbered from 0 under their heading, over a debugger's level prompt ('0]', sbcl's)", async () => {
  expect(await itemsOf("s2-sbcl-restarts", "question")).toEqual({
    label: "restarts (invokable by number or by possibly-abbreviated name):",
    items: [
      ["CONTINUE", "0", false],
      ["USE-VALUE", "1", false],
      ["STORE-VALUE", "2", false],
      ["ABORT", "3", false],
    ],
  });
  expect((await itemsOf("s2-sbcl-nested", "question")).items?.[1]).toEqual([
    "Exit debugger, returning to top level.",
    "1",
    false,
  ]);
  // Over a shell's prompt: output.
  const printed = "restarts (invokable by number):\r\n  0: [CONTINUE] Retry.\r\n  1: [ABORT   ] Exit.\r\n$ ";
  expect((await readAs(printed)).map((e) => e.kind)).not.toContain("question");
});

test("a box's hint naming each answer's key ('<Y for yes, N for no, or CTRL+C to cancel>')", async () => {
  expect(await itemsOf("s2-wordgrinder-discard", "question")).toEqual({
    label: undefined,
    items: [
      ["yes", "y", false],
      ["no", "n", false],
      ["cancel", "CTRL+C", false],
    ],
  });
});

test("a box in a window round the screen is a dialog; an '[x]' opening its border is not in its title", async () => {
  const dialogs: Array<string | undefined> = [];
  for (const name of ["s3-hte-goto", "s3-hte-search", "s3-hte-mode", "s3-hte-open"]) {
    const fixture = await loadFixture(name);
    try {
      for (const e of detectElements(cellGridOf(fixture.term))) if (e.kind === "dialog") dialogs.push(e.label);
    } finally {
      fixture.term.dispose();
    }
  }
  expect(dialogs).toEqual(["goto", "search", "select mode", "open file"]);
});

test("a menu bar's entry of two words joined by '-' ('Local-Hex') is one; the open one lit (hte's File)", async () => {
  const fixture = await loadFixture("s3-hte-file");
  try {
    const buttons = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "button" && e.row === 0);
    expect(buttons.map((e) => `${e.label}${e.selected ? "*" : ""}`)).toEqual([
      "File*",
      "Edit",
      "Windows",
      "Help",
      "Local-Hex",
    ]);
  } finally {
    fixture.term.dispose();
  }
});

test("fields on a colour of their own after their labels in a box, no cursor in them: inputs (hte)", async () => {
  const inputs: string[] = [];
  for (const name of ["s3-hte-search", "s3-hte-open"]) {
    const fixture = await loadFixture(name);
    try {
      for (const e of detectElements(cellGridOf(fixture.term)))
        if (e.kind === "input") inputs.push(`${e.label ?? ""}=${e.value}${e.cursor ? "|" : ""}`);
    } finally {
      fixture.term.dispose();
    }
  }
  // (A drop-down's "v" is no part of its value; a field whose label stands on the row above is left to the rest.)
  expect(inputs).toEqual(expect.arrayContaining(["ascii=|", "hex=", "from ofs=", "to ofs=", "mode=autodetect"]));
});

test("words padded on a colour of their own in a box's row, '_' shadows after: buttons (hte, xwpe)", async () => {
  const rows: string[][] = [];
  for (const name of ["s3-hte-goto", "s2-xwpe-find"]) {
    const fixture = await loadFixture(name);
    try {
      rows.push(
        detectElements(cellGridOf(fixture.term))
          .filter((e) => e.kind === "button" && e.row > 0)
          .map((e) => `${e.label}${e.selected ? "*" : ""}`),
      );
    } finally {
      fixture.term.dispose();
    }
  }
  expect(rows).toEqual([
    ["Ok", "Cancel", "Functions"],
    ["Ok", "Cancel"],
  ]);
});

test("a prompt's words before its mark ('pattern › tid', jest's): the label, the mark not in it", async () => {
  expect(await brief("\r\n Pattern Mode Usage\r\n\r\n pattern › tid")).toContainEqual(["input", 3, 1, "pattern"]);
});

test("marks after their names in a grid ('REGISTER   [*]   OPTIONS    [ ]'): checkboxes named so", async () => {
  const grid =
    "  REGISTER   [*]        OPTIONS    [ ]\r\n  INVITE     [*]        PUBLISH    [*]\r\n" +
    "  NOTIFY     [ ]        REFER      [*]\r\n";
  const boxes = (await brief(grid)).filter((e) => e[0] === "checkbox");
  expect(boxes.map((e) => [e[1], e[2], e[3]])).toEqual([
    [0, 2, "REGISTER"],
    [0, 24, "OPTIONS"],
    [1, 2, "INVITE"],
    [1, 24, "PUBLISH"],
    [2, 2, "NOTIFY"],
    [2, 24, "REFER"],
  ]);
  // A box before its label, a pane of names beside it, is the label's (htop's setup: "Meters    [ ]    Tree view").
  const pane = "Display   [ ]    Tree view\r\nMeters    [x]    Show tabs\r\nColors    [ ]    Hide threads\r\n";
  expect((await brief(pane)).filter((e) => e[0] === "checkbox").map((e) => e[3])).toEqual([
    "Tree view",
    "Show tabs",
    "Hide threads",
  ]);
});

test("a list's '- ' guides and its '^' … 'v' scroll arrows down its last column are not in items (hte)", async () => {
  const { items } = await itemsOf("s3-hte-mode", "menu");
  expect(items?.slice(0, 3)).toEqual([
    ["hex", null, true],
    ["text", null, false],
    ["disasm/x86", null, false],
  ]);
  expect(items?.at(-1)).toEqual(["elf/symbol table .dynsym (6)", null, false]);
});

test("a prompt whose last ')' closes its words, a '?' inside, the cursor after (buku's): one prompt", async () => {
  const term = fixtureTerminal(80, 24);
  try {
    await writeAll(term, "1-2/2\r\n\x1b[7mbuku (? for help)\x1b[0m ");
    const input = detectElements(cellGridOf(term)).find((e) => e.kind === "input");
    expect([input?.label, input?.value]).toEqual(["buku (? for help)", ""]);
  } finally {
    term.dispose();
  }
});

test("a form's plain fields after the one holding the cursor ('  SIP From:' over '  SIP To:'): inputs", async () => {
  const form = (await blindBrief("b11-sngrep-filter", "blind11")).filter((e) => e[0] === "input");
  expect(form.map((e) => [e[1], e[2], e[3]])).toEqual([
    [6, 18, "SIP From"],
    [7, 33, "SIP To"],
    [8, 33, "Source"],
    [9, 33, "Destination"],
    [10, 33, "Payload"],
  ]);
  // Rows of words with colons in a box and no field holding the cursor stay text.
  const box =
    "┌────────────────────────────┐\r\n│  Name:   ada               │\r\n" +
    "│  Shell:  bash              │\r\n└────────────────────────────┘\x1b[?25l";
  expect((await brief(box)).filter((e) => e[0] === "input")).toEqual([]);
});

test("a banner between two rules alike ('-----' over 'Varnish Cache CLI 1.0' over '-----'): no header", async () => {
  const banner = "200\r\n-----------------------------\r\nVarnish Cache CLI 1.0\r\n-----------------------------\r\n";
  const rows = "Linux,6.18,x86_64,-junix,-sdefault\r\nvarnish-7.1.1 revision 7cee1c58\r\n\r\nvarnish> ";
  expect((await brief(banner + rows)).map((e) => e[0])).not.toContain("table");
  // Names standing apart between rules alike are a header (a package manager's transaction).
  const rule = "=".repeat(60);
  const transaction =
    `${rule}\r\n Package      Arch      Version      Size\r\n${rule}\r\n` +
    "Installing:\r\n tide  noarch  1.0-1  6.0 k\r\n";
  expect((await brief(transaction)).map((e) => e[0])).toContain("table");
});

test("pm2 monit: two rows, one barred across its pane, a menu keyed by '[ 1]'; white ink lights no row", async () => {
  const menus: string[][] = [];
  for (const name of ["s3-pm2-monit", "s3-pm2-monit-down"]) {
    const fixture = await loadFixture(name);
    try {
      for (const e of detectElements(cellGridOf(fixture.term))) {
        const items = e.items?.map((i) => `${i.key}=${i.label}${i.selected ? "*" : ""}`) ?? [];
        if (e.kind === "menu" && e.row < 16) menus.push(items);
        else if (e.kind === "menu" && e.col < 20) menus.push(["metrics as a menu"]);
      }
    } finally {
      fixture.term.dispose();
    }
  }
  expect(menus).toEqual([
    ["1=buoy-sync*", "0=tide-api"],
    ["1=buoy-sync", "0=tide-api*"],
  ]);
});

test("a code frame's lines numbered before a '|' gutter, '>' at the failing one (jest's): no menu", async () => {
  const frame =
    "  ● low tide\r\n\r\n      2 | test('high tide', () => {});\r\n    > 3 | test('low tide', () => {});\r\n" +
    "        |                         ^\r\n      4 |\r\n";
  expect((await brief(frame)).map((e) => e[0])).not.toContain("menu");
});

test("numbered rows drawn as buttons to the row's end ('[1]   < url   >'): a menu keyed by the numbers", async () => {
  const row = (n: number, url: string, lit = false) =>
    `[${n}]   ${lit ? "\x1b[44m" : ""}< ${url.padEnd(70)}>\x1b[0m\r\n`;
  const list = row(1, "https://harbour.example/tides.pdf") + row(2, "https://buoys.example.org/42", true);
  const menu = (await brief(`${list}${row(3, "http://wiki.harbour.example/pier")}\x1b[?25l`)).filter(
    (e) => e[0] !== "text",
  );
  expect(menu).toEqual([
    [
      "menu",
      0,
      0,
      null,
      ["https://harbour.example/tides.pdf=1", "https://buoys.example.org/42=2*", "http://wiki.harbour.example/pier=3"],
    ],
  ]);
});

// Blind set 12's (spent) line marks: a mark in brackets opening the prompt's row is the program's, not its label.
test("a line mark in brackets opening a prompt or a question ('[ ?? ] Listen on port:') is not its label", async () => {
  const marks = "\x1b[1;34m[\x1b[33m ** \x1b[34m]\x1b[0m -- Global settings --\r\n";
  const ask = "\x1b[1;34m[\x1b[33m ?? \x1b[34m]\x1b[0m ";
  expect(await readAs(`${marks}${ask}Listen on port (1025 to 65534): `)).toEqual([
    { kind: "input", label: "Listen on port (1025 to 65534)" },
  ]);
  expect(await readAs(`${marks}${ask}Proceed anyway? (yes/no) [no]: `)).toEqual([
    {
      kind: "question",
      label: "Proceed anyway?",
      items: [
        ["Yes", "yes", false],
        ["No", "no", true],
      ],
    },
  ]);
  // A word in the brackets is no mark: "[ ok ] Name:" keeps it.
  expect((await readAs("[ ok ] Name: ")).map((e) => e.label)).toEqual(["[ ok ] Name"]);
});

// Blind set 12's (spent) full-screen classes (meaning22), read as classes.
test("a state column at a list's right edge ('pier-lights  UP' over 'buoy-check  DOWN'): not in names", async () => {
  const menus = async (name: string) =>
    (await blindBrief(name, "blind12")).filter((e) => e[0] === "menu").map((e) => e[e.length - 1]);
  expect(await menus("b12-mprocs-main")).toEqual([["tide-logger*", "pier-lights", "buoy-check"]]);
  expect(await menus("b12-mprocs-stopped")).toEqual([["tide-logger", "pier-lights", "buoy-check*"]]);
  // The same shape written: a box of three processes, the lit one on grey, its state words at the frame.
  const row = (name: string, state: string, lit = false) =>
    `\x1b[${lit ? "48;5;240m" : "0m"}│${name.padEnd(20)}${state.padStart(8)} \x1b[0m│\r\n`;
  const rows = `${row("harbour-api", "RUNNING")}${row("tide-worker", "RUNNING", true)}${row("pier-cron", "EXITED")}`;
  const box = `┌${"─".repeat(29)}┐\r\n${rows}└${"─".repeat(29)}┘\x1b[?25l`;
  expect((await brief(box)).filter((e) => e[0] === "menu").map((e) => e[e.length - 1])).toEqual([
    ["harbour-api", "tide-worker*", "pier-cron"],
  ]);
});

test("a state mark before every item's name ('»  tides#dev' over '✓  tides#build'): no part of the names", async () => {
  const menus = async (name: string) =>
    (await blindBrief(name, "blind12")).filter((e) => e[0] === "menu").map((e) => e[e.length - 1]);
  expect(await menus("b12-turbo-tasks")).toEqual([
    ["tides#dev*", "piers#dev", "tides#build", "charts#build", "piers#build"],
  ]);
  const row = (mark: string, name: string, lit = false) =>
    `${lit ? "\x1b[7m" : ""} ${mark}  ${name.padEnd(16)}\x1b[0m\r\n`;
  const list = `${row("»", "api#dev")}${row("»", "web#dev", true)}${row("✓", "docs#build")}\x1b[?25l`;
  expect((await brief(list)).filter((e) => e[0] === "menu").map((e) => e[e.length - 1])).toEqual([
    ["api#dev", "web#dev*", "docs#build"],
  ]);
});

test("a console's banner naming its version first ('QEMU 7.2.22 monitor - type 'help' for …'): no status", async () => {
  for (const name of ["b12-qemu-start", "b12-qemu-status"])
    expect((await blindBrief(name, "blind12")).map((e) => e[0])).not.toContain("status");
  const banner = "Tidectl 3.1 console - type 'help' for more information\r\ntidectl> ";
  expect((await brief(banner)).map((e) => e[0])).toEqual(["input"]);
});

test("a placeholder in angle brackets used inside the help text's words ('for <JAIL>'): no button", async () => {
  expect((await blindBrief("b12-fail2ban-help", "blind12")).map((e) => e[0])).not.toContain("button");
  const help =
    "    get <POOL> depth <UNIT>       gets the depth of <UNIT> for\r\n" +
    "                                  <POOL>\r\n    set <POOL> idle               sets the pool idle\r\ntide> ";
  expect((await brief(help)).map((e) => e[0])).toEqual(["input"]);
  // A button standing apart in a dialog stays one.
  expect((await brief("  Remove the tide table?\r\n\r\n     <Yes>      <No>\r\n")).map((e) => e[0])).toContain(
    "button",
  );
});

/** What the detector reads from bytes written to an 80-column terminal: each element's kind, bounds, label, value. */
async function boundsOf(bytes: string, rows = 24) {
  const term = fixtureTerminal(80, rows);
  try {
    await writeAll(term, bytes);
    return detectElements(cellGridOf(term))
      .filter((e) => e.kind !== "text")
      .map((e) => [e.kind, e.row, e.col, e.width, e.height, e.label ?? null, e.value ?? null]);
  } finally {
    term.dispose();
  }
}

// Blind set 12's (spent) line prompts, read as classes.
test("a question over the row it is answered on, the cursor there (a2enmod's 'Which module(s) …?')", async () => {
  const asked = "Your choices are: alias auth_basic autoindex headers rewrite ssl status\r\n";
  const question = "Which module(s) do you want to enable (wildcards ok)?";
  expect(await boundsOf(`${asked}${question}\r\n`)).toEqual([["input", 1, 0, 80, 2, question, ""]]);
  expect(await boundsOf(`${asked}${question}\r\nrewrite headers`)).toEqual([
    ["input", 1, 0, 80, 2, question, "rewrite headers"],
  ]);
  // (Not one listing its answers: those are a question's items, wordsListedAsked's. Nor a question a prompt was
  // written under since.)
  const listing = "Is k positive, negative or zero?";
  expect(await boundsOf(`${listing}\r\n`)).toEqual([["question", 0, 0, 32, 1, listing, null]]);
  expect((await boundsOf(`${asked}${question}\r\n$ `)).map((e) => e[5])).toEqual(["$"]);
});

test("answers wrapped alone under their question (icinga2's '… setup)' over ' [Y/n]:'): its label", async () => {
  const question = "Please specify if this is an agent/satellite setup ('n' installs a master setup)";
  expect(question.length).toBe(80);
  const found = await boundsOf(`Welcome!\r\n\r\n${question} [Y/n]: `);
  expect(found.map((e) => e.slice(0, 6))).toEqual([["question", 2, 0, 80, 2, question]]);
  // (Answers alone on a row of their own under prose not filling its row ask it unlabelled: parted's "Yes/No?".)
  const parted = "Warning: all data on this disk will be lost. Do you want to continue?\r\nYes/No? ";
  expect((await boundsOf(parted)).map((e) => e.slice(0, 6))).toEqual([["question", 0, 0, 69, 2, null]]);
});

test("a yes/no question under the paragraph explaining it (google-authenticator's): from its first row", async () => {
  const paragraph = [
    "If the computer that you are logging into isn't hardened against brute-force",
    "login attempts, you can enable rate-limiting for the authentication module.",
    "By default, this limits attackers to no more than 3 login attempts every 30s.",
  ];
  const ask = "Do you want to enable rate-limiting? (y/n) ";
  const found = await boundsOf(`Done.\r\n\r\n${paragraph.join("\r\n")}\r\n${ask}`);
  expect(found.map((e) => e.slice(0, 6))).toEqual([["question", 2, 0, 77, 4, "Do you want to enable rate-limiting?"]]);
  // The question opening the paragraph, sentences after it wrapped onto its answers' row: labelled with it alone.
  const reuse = [
    "Do you want to disallow multiple uses of the same authentication",
    "token? This restricts you to one login about every 30s, but it increases",
    "your chances to notice or even prevent man-in-the-middle attacks (y/n) ",
  ];
  expect((await boundsOf(`\r\n${reuse.join("\r\n")}`)).map((e) => e.slice(0, 6))).toEqual([
    ["question", 1, 0, 72, 3, "Do you want to disallow multiple uses of the same authentication token?"],
  ]);
  // (Lines of output over a question, no sentence wrapped from one to the next, are no part of it: apt's.)
  const apt =
    "Need to get 1,234 kB of archives.\r\nAfter this operation, 4,096 kB of additional disk space will be used.\r\n";
  expect((await boundsOf(`${apt}Do you want to continue? [Y/n] `)).map((e) => e.slice(0, 6))).toEqual([
    ["question", 2, 0, 30, 1, "Do you want to continue?"],
  ]);
});

test("foot hints ('m - More binds', 'i - Interact   u/d - Scroll logs'): statuses, cut ones too", async () => {
  const statuses = async (name: string) =>
    (await blindBrief(name, "blind12")).filter((e) => e[0] === "status").map((e) => [e[1], e[2]]);
  expect(await statuses("b12-turbo-tasks")).toEqual([
    [22, 0],
    [23, 25],
  ]);
  expect(await statuses("b12-turbo-keybinds")).toEqual([[22, 0]]);
  // Options numbered so at the foot are no hints.
  const options = `${"\r\n".repeat(20)}1 - MIT\r\n2 - BSD\r\n3 - GPL\r\nChoose from 1, 2, 3 [1]: `;
  expect((await brief(options)).map((e) => e[0])).not.toContain("status");
});

test("a titled one-row box across a list's frame, the cursor in it: the list read, its line a field", async () => {
  for (const [name, value] of [
    ["b12-mprocs-add", "npm run lint"],
    ["b12-mprocs-rename", ""],
  ] as const) {
    const fixture = await loadFixture(name, blindDir("blind12"));
    try {
      const found = detectElements(cellGridOf(fixture.term));
      expect(found.filter((e) => e.kind === "menu").map((e) => e.items!.map((i) => i.label))).toEqual([
        ["tide-logger", "pier-lights", "buoy-check"],
      ]);
      expect(found.filter((e) => e.kind === "input").map((e) => [e.row, e.value, e.cursor])).toEqual([
        [11, value, true],
      ]);
    } finally {
      fixture.term.dispose();
    }
  }
  // Drawn by a program: a frame of three rows, a box titled "Rename" across its right side holding the cursor.
  const list = (name: string, lit = false) => `│${lit ? "\x1b[7m" : ""}${name.padEnd(16)}\x1b[0m│\r\n`;
  const screen =
    `┌${"─".repeat(16)}┐\r\n${list("harbour")}${list("tides", true)}${list("piers")}` +
    `${"│                │\r\n".repeat(4)}└${"─".repeat(16)}┘` +
    `\x1b[6;10H┌Rename${"─".repeat(20)}┐\x1b[7;10H│pier-${" ".repeat(21)}│\x1b[8;10H└${"─".repeat(26)}┘\x1b[7;16H`;
  const read = (await brief(screen)).filter((e) => e[0] !== "text");
  expect(read.map((e) => e[0])).toEqual(["dialog", "menu", "dialog", "input"]);
  // Printed above a shell's prompt, the cursor not in it: no field.
  const printed = `┌Rename${"─".repeat(20)}┐\r\n│pier-${" ".repeat(21)}│\r\n└${"─".repeat(26)}┘\r\n$ `;
  expect((await brief(printed)).filter((e) => e[0] === "input").map((e) => e[3])).toEqual(["$"]);
});

test("a palette: '/' over a rule over commands, a name, what it does, a key at the edge: field and menu", async () => {
  const shown = (await blindBrief("b12-mprocs-commands", "blind12")).filter((e) => e[0] !== "text");
  expect(shown.map((e) => e.slice(0, 3))).toEqual([
    ["dialog", 0, 10],
    ["input", 1, 11],
    ["menu", 3, 13],
  ]);
  expect((shown[2]![shown[2]!.length - 1] as string[]).slice(0, 4)).toEqual([
    "quit=q*",
    "force-quit=Q",
    "toggle-focus=C-a",
    "focus-term",
  ]);
  const row = (name: string, does: string, key = "", lit = false) =>
    `│${lit ? "\x1b[48;5;240m▎ " : "  "}${name.padEnd(21)}${does.padEnd(30)}${key.padStart(3)} \x1b[0m│\r\n`;
  const palette =
    `╭─ Actions ${"─".repeat(47)}╮\r\n│/ ${" ".repeat(51)}1/4 │\r\n├${"─".repeat(57)}┤\r\n` +
    `${row("open-harbour", "Open the harbour", "o", true)}${row("close-all-tide-gates", "Close every gate", "C-g")}` +
    `${row("list-piers", "List the piers")}${row("quit", "Quit", "q")}╰${"─".repeat(57)}╯\x1b[2;4H`;
  const read = (await brief(palette)).filter((e) => e[0] === "input" || e[0] === "menu");
  expect(read.map((e) => e[e.length - 1])).toEqual([
    null,
    ["open-harbour=o*", "close-all-tide-gates=C-g", "list-piers", "quit=q"],
  ]);
});

test("a console's line typed past its row's end ('nft> add chain … policy ac' over 'cept; }'): one field", async () => {
  const typed = "add chain inet harbour input { type filter hook input priority 0; policy accept; }";
  expect(await boundsOf(`nft> add table inet harbour\r\nnft> ${typed}`)).toEqual([
    ["input", 1, 0, 80, 2, "nft", typed],
  ]);
  // (A name in parentheses is a marker, as on one row: qemu's.)
  const long = `info ${"x".repeat(80)}`;
  expect(await boundsOf(`(qemu) ${long}`)).toEqual([["input", 0, 0, 80, 2, "", long]]);
});

test("a pause whose key's name is in brackets ('Press [ENTER] to continue or Ctrl-c to cancel.')", async () => {
  const pause = "Press [ENTER] to continue or Ctrl-c to cancel.";
  expect(await readAs(`Adding repository.\r\n${pause}`)).toEqual([
    { kind: "question", label: pause, items: [["ENTER", "Enter", false]] },
  ]);
  // Its row framed in brackets (lynis's): the frame is no part of it; the cursor on the row under it.
  const framed = "Press [ENTER] to continue, or [CTRL]+C to stop";
  expect(await readAs(`  - Running checks\r\n\r\n[ ${framed} ]\r\n`)).toEqual([
    { kind: "question", label: framed, items: [["ENTER", "Enter", false]] },
  ]);
});

test("rows telling a key and what it does under a title (jest's 'Watch Usage' over ' › Press a to …')", async () => {
  expect(await itemsOf("s3-jest-watch", "question")).toEqual({
    label: "Watch Usage",
    items: [
      ["run all tests", "a", false],
      ["run only failed tests", "f", false],
      ["filter by a filename regex pattern", "p", false],
      ["filter by a test name regex pattern", "t", false],
      ["quit watch mode", "q", false],
      ["trigger a test run", "Enter", false],
    ],
  });
  // Printed above a shell's prompt (the cursor after "$ "), or with one row only: no question.
  const rows = "Watch Usage\r\n › Press a to run all tests.\r\n › Press q to quit watch mode.\r\n";
  expect((await readAs(`${rows}$ `)).map((e) => e.kind)).not.toContain("question");
  expect((await readAs("Watch Usage\r\n › Press a to run all tests.\r\n")).map((e) => e.kind)).not.toContain(
    "question",
  );
});

// Sweep 4's line prompts (train screens s4-*): a yes/no question's default alone in angle brackets before its "?".
test("a question's default alone in angle brackets before its '?' (e2fsck's 'Clear<y>?') is a question", async () => {
  expect(await itemsOf("s4-e2fsck-clear", "question")).toEqual({
    label: "Root inode is not a directory. Clear",
    items: [["Yes", "y", true]],
  });
  // Answered ("Clear<y>? yes" under the next line), or printed above a shell's prompt: no question.
  expect((await readAs("Clear<y>? yes\r\nPass 2: Checking directory structure")).map((e) => e.kind)).not.toContain(
    "question",
  );
  const printed = await readAs("Root inode is not a directory.  Clear<y>?\r\n$ ");
  expect(printed.map((e) => e.kind)).not.toContain("question");
  // patch's default alone in square brackets after its "?" stays a line's field (b4-patch-anyway).
  expect((await readAs("Apply anyway? [n] ")).map((e) => e.kind)).toEqual(["input"]);
});

/** A fixture's inputs: label, value. */
async function inputsOf(name: string) {
  const fixture = await loadFixture(name);
  try {
    const found = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "input");
    return found.map((e) => [e.label ?? null, e.value ?? null]);
  } finally {
    fixture.term.dispose();
  }
}

test("a lowercase word and colon before a prompt's words and colon is a tag ('prompt: Station name:')", async () => {
  expect(await inputsOf("s4-prompt-first")).toEqual([["Station name", ""]]);
  expect(await inputsOf("s4-prompt-error")).toEqual([["Depth in metres", ""]]);
  expect(await inputsOf("s4-prompt-password")).toEqual([["password", "***"]]);
  // A value typed with a colon after a one-word prompt ("url: http://…") keeps its prompt.
  expect((await readAs("url: http://harbour.example")).map((e) => e.label)).toEqual(["url"]);
});

test("a thread's name and frame number in brackets as a debugger's prompt (jdb's 'main[1] ') is a mark", async () => {
  expect(await inputsOf("s4-jdb-main")).toEqual([["", ""]]);
  expect((await readAs("> run\r\nBreakpoint hit\r\nmain[1] where")).map((e) => [e.kind, e.label])).toEqual([
    ["input", ""],
  ]);
});

test("a pager's pause between dashes ('-- Type space to continue --', gawk's '[Enter] to continue …')", async () => {
  expect(await itemsOf("s4-hunspell-help", "question")).toEqual({
    label: "Type space to continue",
    items: [["space", "Space", false]],
  });
  expect(await itemsOf("s4-gawk-help", "question")).toEqual({
    label: "[Enter] to continue or [q] + [Enter] to quit",
    items: [
      ["Enter", "Enter", false],
      ["q", "q", false],
    ],
  });
  // Printed above a shell's prompt, or a rule with words in it that asks nothing: no question.
  expect((await readAs("-- Type space to continue --\r\n$ ")).map((e) => e.kind)).not.toContain("question");
  expect((await readAs("---- Section two ----")).map((e) => e.kind)).not.toContain("question");
});

test("a pager's prompt in reverse over blank rows, the cursor after it (less's '(END)'): status", async () => {
  expect(await kindsOf("s4-debugfs-ls")).toEqual(["status"]);
  // Reverse words in a page's middle, the cursor elsewhere: no status.
  expect((await readAs("\x1b[7m(END)\x1b[0m\r\nmore text\r\n$ ")).map((e) => e.kind)).not.toContain("status");
});

test("a page count ending a header bar (vfu's '#NAM    1 of     5') is no data row's figure", async () => {
  for (const name of ["s4-vfu-main", "s4-vfu-copy"]) {
    const fixture = await loadFixture(name);
    try {
      const table = detectElements(cellGridOf(fixture.term)).find((e) => e.kind === "table");
      expect([table?.row, table?.rows, table?.header?.slice(0, 3)]).toEqual([2, 5, ["MODE", "OWNER", "GROUP"]]);
    } finally {
      fixture.term.dispose();
    }
  }
  // A row of data holding "1 of 5" among its cells stays no header.
  expect(await tableOf("ada   tides   1 of 5\r\nbob   buoys   2 of 5\r\ncy    piers   3 of 5\r\n")).toBeUndefined();
});

test("a box's first line ending in \"(Press 'y' to quit)\": a question of that key, labelled if it asks", async () => {
  const questions = async (name: string) =>
    (await blindBrief(name, "blind12")).filter((e) => e[0] === "question").map((e) => [e[3], e[4]]);
  expect(await questions("b12-imediff-quit")).toEqual([["Do you 'quit without saving'?", ["y=y"]]]);
  expect(await questions("b12-imediff-unclean")).toEqual([[null, ["y=y"]]]);
  // The same words outside a box, a line of output: no question.
  const printed = await brief("Do you 'drop the tide table'? (Press 'y' to drop)\r\n$ ");
  expect(printed.map((e) => e[0])).not.toContain("question");
});

/** A train fixture's elements, briefly: kind, row, col, label (or value), selected. */
async function trainBrief(name: string) {
  const fixture = await loadFixture(name);
  try {
    return detectElements(cellGridOf(fixture.term))
      .filter((e) => e.kind !== "text")
      .map((e) => [e.kind, e.row, e.col, e.label ?? e.value ?? null, ...(e.selected ? [true] : [])]);
  } finally {
    fixture.term.dispose();
  }
}

test("choices parted by '│' ending a bottom bar, one on its own colour (nefte's '│Save│As│…'): buttons", async () => {
  const bottom = (await trainBrief("s4-efte-quit")).filter((e) => e[1] === 23);
  expect(bottom).toEqual([
    ["button", 23, 53, "Save", true],
    ["button", 23, 58, "As"],
    ["button", 23, 61, "All"],
    ["button", 23, 65, "Discard"],
    ["button", 23, 73, "Cancel"],
  ]);
  // The same words parted by '│' in a line of output: no buttons.
  const printed = await brief("File Modified: /tmp/a.txt   │Save│As│All│Discard│Cancel\r\n$ ");
  expect(printed.map((e) => e[0])).not.toContain("button");
});

test("a prompt opening a bottom bar, the cursor after it (nefte's 'Find:'): an input, no status", async () => {
  expect((await trainBrief("s4-efte-find")).filter((e) => e[1] === 23)).toEqual([["input", 23, 0, "Find"]]);
});

test("rows opening with 'Label:' in one bold ink at the top or foot (vfu's 'Mask:'): one status", async () => {
  for (const name of ["s4-vfu-main", "s4-vfu-copy", "s4-vfu-chdir"]) {
    const statuses = (await trainBrief(name)).filter((e) => e[0] === "status");
    expect([name, statuses]).toEqual([
      name,
      [
        ["status", 0, 0, null],
        ["status", 20, 0, null],
      ],
    ]);
  }
  // The same rows printed plain, a shell's prompt under them: no status.
  const printed = await brief("Mask: *     VFU 5.07\r\nPath: /tmp/vf/\r\n$ ");
  expect(printed.map((e) => e[0])).not.toContain("status");
});

test("keys on their own colour before what they do, parted by '|' at the foot (hnb's 'ESC menu'): status", async () => {
  for (const name of ["s4-hnb-main", "s4-hnb-edit"])
    expect([name, (await trainBrief(name)).filter((e) => e[1] === 23)]).toEqual([name, [["status", 23, 0, null]]]);
  // The same words printed plain above a shell's prompt: no status.
  const printed = await brief("ESC menu | F2 save | F5 commandline | return edit\r\n$ ");
  expect(printed.map((e) => e[0])).not.toContain("status");
});

test("a source listing's numbered lines, a '>' at the current one (node inspect's '> 4   for'): no menu", async () => {
  for (const name of ["s4-node-inspect-break", "s4-node-inspect-start"])
    expect([name, (await trainBrief(name)).filter((e) => e[0] === "menu")]).toEqual([name, []]);
  // Numbered choices, a '>' at one, their names at one column: still a menu.
  const kinds = (await brief("Pick a tide:\r\n> 1 Spring\r\n  2 Neap\r\n  3 King\r\n")).map((e) => e[0]);
  expect(kinds).toContain("menu");
});

// Train kept a default in brackets in the input's label ("Port [8080]"), blind sets 12 and 13 dropped it: one
// convention now, the question's words the label and the default an attribute of its own (shown in the outline).
test("a default a line prompt offers ('Your full name [root]:', 'Port (8080):', npm's '(proj)'): apart", async () => {
  const rows: [string, [string, string | undefined, string | undefined]][] = [
    ["Your full name [root]: ", ["input", "Your full name", "root"]],
    ["Port (8080): ", ["input", "Port", "8080"]],
    [
      "Would you like to define your dependencies interactively [yes]? ",
      ["input", "Would you like to define your dependencies interactively?", "yes"],
    ],
    [
      "Your choice? [default: 2.4    (+ support for '**' globbing)] ",
      ["input", "Your choice?", "2.4 (+ support for '**' globbing)"],
    ],
    ["package name: (proj) ", ["input", "package name", "proj"]],
    ["Select (default p): ", ["input", "Select", "p"]],
    ["Full Name []: ", ["input", "Full Name", undefined]],
    // Not a default: a range, a list of answers, a remark, the object of a word.
    ["What file to restore [0..3]: ", ["input", "What file to restore [0..3]", undefined]],
    [
      "Set 1 of 2, preserve files [1 - 2, all, quit]: ",
      ["input", "Set 1 of 2, preserve files [1 - 2, all, quit]", undefined],
    ],
    ["Password for [WORKGROUP\\ada]: ", ["input", "Password for [WORKGROUP\\ada]", undefined]],
    ["Timeout for freeing VFSs (sec): ", ["input", "Timeout for freeing VFSs (sec)", undefined]],
  ];
  for (const [bytes, want] of rows) {
    const term = new Terminal({ cols: 100, rows: 24, allowProposedApi: true, scrollback: 0 });
    await new Promise<void>((done) => term.write(bytes, done));
    try {
      const elements = detectElements(cellGridOf(term)).filter((e) => e.kind !== "text");
      expect(elements.map((e) => [e.kind, e.label, e.default])).toEqual([want]);
      if (want[2]) expect(outline(elements)).toContain(`(cursor, default ${JSON.stringify(want[2])}): ""`);
    } finally {
      term.dispose();
    }
  }
  // On a bar of its own colour the brackets are the program's flags as well as its default (nano's "Search [Case
  // Sensitive]"): kept as shown.
  const fixture = await loadFixture("h11-nano-search-case");
  try {
    const input = detectElements(cellGridOf(fixture.term)).find((e) => e.kind === "input");
    expect([input?.label, input?.default]).toEqual(["Search [Case Sensitive]", undefined]);
  } finally {
    fixture.term.dispose();
  }
});

test("a line ending in a key in brackets or '[]', the cursor after (unison's changes): a question", async () => {
  const bottom = async (name: string) => (await trainBrief(name)).filter((e) => e[1] === 23 || e[0] === "button");
  expect(await bottom("s3-unison-change")).toEqual([["question", 23, 0, null]]);
  expect(await bottom("s3-unison-next")).toEqual([["question", 23, 0, null]]);
  expect(await bottom("s3-unison-proceed")).toEqual([["question", 23, 0, "Proceed with propagating updates?"]]);
  // Its pause's default key glued after the sentence is no part of its words, nor a button once answered.
  expect(await bottom("s3-unison-first")).toEqual([["question", 23, 0, "Press return to continue."]]);
  // A key after a "?" reads a line (patch's "Assume -R? [n]"), a bracket before a ":" too: inputs.
  expect((await brief("Apply anyway? [n] ")).map((e) => e[0])).toEqual(["input"]);
  expect((await brief("use_docker [n]: ")).map((e) => e[0])).toEqual(["input"]);
  // The same line printed above a shell's prompt: nothing awaited there.
  expect(await brief("file     <-?-> file       tides.txt  []\r\n$ ")).toEqual([["input", 1, 0, "$"]]);
});

test("a tall frame, its sides down to the screen's last row, its bottom cut (imediff's help): a dialog", async () => {
  const dialogs = (await blindBrief("b12-imediff-help", "blind12")).filter((e) => e[0] === "dialog");
  expect(dialogs.map((e) => [e[1], e[2]])).toEqual([[0, 5]]);
  // A short frame cut by the edge (a few rows printed last): no dialog.
  const frame = "┌──────────┐\r\n│ tides    │\r\n│ piers    │\r\n│ fuel     │";
  const short = await brief(`${"\r\n".repeat(20)}${frame}`);
  expect(short.map((e) => e[0])).not.toContain("dialog");
});

test("a top bar of entries parted by '|', each a name and its key in parentheses (lldb gui's): buttons", async () => {
  const top = (await blindBrief("b13-lldb-gui-main", "blind13")).filter((e) => e[1] === 0);
  expect(top).toEqual([
    ["button", 0, 2, "LLDB", false],
    ["button", 0, 14, "Target", false],
    ["button", 0, 28, "Process", false],
    ["button", 0, 43, "Thread", false],
    ["button", 0, 57, "View", false],
    ["button", 0, 69, "Help", false],
  ]);
  // The same words printed plain above a shell's prompt: no buttons.
  const printed = await brief("| LLDB (F1) | Target (F2) | Process (F3) | Thread (F4) |\r\n$ ");
  expect(printed.map((e) => e[0])).not.toContain("button");
});

test("rows each 'press KEY + enter to …' at one column (vite's shortcuts): one status", async () => {
  const statuses = (await blindBrief("b13-vite-help", "blind13")).filter((e) => e[0] === "status");
  expect(statuses.map((e) => [e[1], e[2]])).toEqual([
    [5, 2],
    [9, 2],
  ]);
});

test("a frame round the screen, its bottom border saying Esc cancels (lldb gui's Attach): a dialog", async () => {
  const shown = await blindBrief("b13-lldb-gui-attach", "blind13");
  expect(shown.filter((e) => e[0] === "dialog")).toEqual([["dialog", 1, 0, "Attach Process"]]);
});

test("a lone bracketed word set in from a box's side on its own row (lldb gui's '[Attach]'): a button", async () => {
  const shown = await blindBrief("b13-lldb-gui-attach", "blind13");
  expect(shown.filter((e) => e[0] === "button" && e[1] === 13)).toEqual([["button", 13, 37, "Attach", false]]);
  // A bracketed word opening a box's row (a tag, a list's mark): no button.
  const tag = await brief("┌──────────────────┐\r\n│[Tides] high water│\r\n└──────────────────┘\r\n");
  expect(tag.map((e) => e[0])).not.toContain("button");
});

test("a frame beside another pane's side on every row, its corners under a drop-down: no dialog", async () => {
  const shown = await blindBrief("b13-lldb-gui-view", "blind13");
  expect(shown.filter((e) => e[0] === "dialog")).toEqual([]);
});

test("a source pane's numbered lines after a gutter's bar, its line lit (lldb gui's Sources): no menu", async () => {
  const shown = await blindBrief("b13-lldb-gui-process", "blind13");
  expect(shown.filter((e) => e[0] === "menu").map((e) => e[1])).toEqual([2]);
});

test("a help box's section name lit, its key lines indented under it (bmon's 'Navigation'): no menu", async () => {
  expect((await trainBrief("s4-bmon-help")).filter((e) => e[0] === "menu")).toEqual([]);
});

test("a form's group box, '◆Name' over ' PID' (lldb gui's 'Attach By'): radios, the marked one checked", async () => {
  const shown = await blindBrief("b13-lldb-gui-attach", "blind13");
  expect(shown.filter((e) => e[0] === "radio" || e[0] === "menu")).toEqual([
    ["radio", 4, 3, "Name", true],
    ["radio", 5, 3, "PID", false],
  ]);
});

// Blind set 13's ghci (spent): its continuation prompt "ghci| " under "ghci> :{" is a REPL's mark, an unlabelled field.
test("a REPL's continuation prompt, its name and '|' under the same name's '>' (ghci's 'ghci| '): field", async () => {
  expect(await brief("ghci> :{\r\nghci| let pier = 4\r\nghci| ")).toEqual([["input", 2, 0, ""]]);
  // Not a table's cells, nor a name and "|" under other rows.
  expect(await brief("a | b\r\nfoo| bar")).toEqual([]);
});

// Blind set 6's maxima (spent): "Is k positive, negative or zero?" over the cursor a question of those words.
test("a question ending in the words it takes ('positive, negative or zero?'), the cursor under: items", async () => {
  const fixture = await loadFixture("b6-maxima-sign", blindDir("blind6"));
  try {
    const [asked] = detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question");
    expect([asked?.label, asked?.items?.map((i) => i.label)]).toEqual([
      "Is k positive, negative or zero?",
      ["positive", "negative", "zero"],
    ]);
  } finally {
    fixture.term.dispose();
  }
  // Printed above a shell's prompt: no question.
  expect((await brief("Is k positive, negative or zero?\r\n$ ")).map((e) => e[0])).not.toContain("question");
});

// Blind set 13's line prompts (spent at 20:05), as classes.
test("blind13's line prompts: words, choices and default, numbered choices, wrapped answers, key clauses", async () => {
  const b13 = async (name: string) => {
    const fixture = await loadFixture(name, blindDir("blind13"));
    try {
      return detectElements(cellGridOf(fixture.term)).filter((e) => e.kind === "question" || e.kind === "input");
    } finally {
      fixture.term.dispose();
    }
  };
  const items = (e: { items?: { label: string; key?: string; selected?: boolean }[] }) =>
    (e.items ?? []).map((i) => `${i.label}${i.key ? `=${i.key}` : ""}${i.selected ? "*" : ""}`);
  // Words in parentheses parted by ", ", the default in brackets after them (samba-tool's): a question, that selected.
  const [role] = await b13("b13-samba-role");
  expect([role!.kind, role!.label, items(role!)]).toEqual([
    "question",
    "Server Role",
    ["dc=dc*", "member=member", "standalone=standalone"],
  ]);
  // A "[default: …]" before the prompt's ":" is no mark of it (rspamadm's); the list over it selects the default.
  const choice = await b13("b13-rspamd-choice");
  expect(choice.map((e) => [e.kind, e.label, e.default ?? null])).toEqual([
    ["question", "How would you like to set up DKIM signing?", null],
    ["input", "Enter your choice (1, 2, 3, 4)", "1"],
  ]);
  expect(items(choice[0]!)[0]).toBe("Use domain from mime from header for sign=1*");
  // Numbered choices after a prompt's ":" on its row (codespell -i 3's): a question, not a field's value.
  const [pick] = await b13("b13-codespell-choose");
  expect([pick!.kind, pick!.label, items(pick!)]).toEqual([
    "question",
    "Choose an option (blank for none)",
    ["allocate=0", "allotted=1", "allot=2"],
  ]);
  // Answers the terminal broke at the row's end (lldb's "… proceed: [Y" over "/n]"): a question of both rows.
  const [quit] = await b13("b13-lldb-quit");
  expect([quit!.kind, quit!.row, quit!.height, items(quit!)]).toEqual(["question", 17, 2, ["Yes=y*", "No=n"]]);
  // Clauses naming keys over TeX's "?" prompt: a question, each a key's action.
  const [options] = await b13("b13-tex-options");
  expect([options!.kind, options!.label, items(options!)]).toEqual([
    "question",
    undefined,
    [
      "proceed",
      "scroll future error messages=S",
      "run without stopping=R",
      "run quietly=Q",
      "insert something=I",
      "edit your file=E",
      "ignore the next 1 to 9 tokens of input",
      "help=H",
      "quit=X",
    ],
  ]);
  // The same printed above a shell's prompt: none of them asks.
  for (const printed of [
    "Choose an option (blank for none):  0) allocate 1) allotted 2) allot:\r\n$ ",
    "Type <return> to proceed, S to scroll future error messages,\r\nR to run without stopping, Q to run quietly,\r\n" +
      "H for help, X to quit.\r\n?\r\n$ ",
  ])
    expect((await brief(printed)).map((e) => e[0])).not.toContain("question");
  expect((await brief(`${"x".repeat(70)} Proceed: [Y\r\n/n]\r\n$ `)).map((e) => e[0])).not.toContain("question");
});

// Blind set 14's classes (spent at 21:07), as classes.
const b14 = async (name: string) => {
  const fixture = await loadFixture(name, blindDir("blind14"));
  try {
    return detectElements(cellGridOf(fixture.term)).filter((e) => e.kind !== "text");
  } finally {
    fixture.term.dispose();
  }
};

test("blind14: a question over a hint or its default, answered on the row below: one labelled input", async () => {
  const shape = (e: {
    kind: string;
    row: number;
    height: number;
    label?: string;
    value?: string;
    default?: string;
  }) => [e.kind, e.row, e.height, e.label ?? null, e.value ?? null, e.default ?? null];
  const label = "What license is your project under? Provide the SPDX License Identifier.";
  expect((await b14("b14-reuse-license")).map(shape)).toEqual([["input", 2, 3, label, "", null]]);
  expect((await b14("b14-reuse-typed")).map(shape)).toEqual([["input", 2, 3, label, "Apache-2.0", null]]);
  expect((await b14("b14-msginit-email")).map(shape)).toEqual([
    ["input", 4, 4, "Is the following your email address?", "", "root@vm"],
  ]);
  // The hint wrapped at the row's end (at 60 columns).
  expect((await b14("b14-msginit-narrow")).map(shape)).toEqual([
    ["input", 6, 5, "Is the following your email address?", "", "root@vm"],
  ]);
  // The same rows printed above a shell's prompt: output, no field labelled by them.
  const printed = await brief(`What license is it? Provide one.\r\nTo stop, hit RETURN.\r\n$ `);
  expect(printed.map((e) => e[3])).not.toContain("What license is it? Provide one.");
  // A question and a sentence of output under it, the cursor left further down after a blank row: not asked there.
  const far = await brief(`Is this yours?\r\nIt was found.\r\n\r\n`);
  expect(far.map((e) => e[3])).not.toContain("Is this yours?");
});

test("blind14: lettered answers wrapped onto the cursor's row under their question: one question", async () => {
  const items = (e: { items?: { label: string; key?: string; row: number; col: number }[] }) =>
    (e.items ?? []).map((i) => `${i.label}=${i.key}@${i.row},${i.col}`);
  const label = "You have not updated the SOA record! Would you like to increase-serial?";
  const [serial, ...more] = await b14("b14-pdns-serial");
  expect(more).toEqual([]);
  expect([serial!.kind, serial!.row, serial!.height, serial!.label, items(serial!)]).toEqual([
    "question",
    5,
    3,
    label,
    [
      "(y)es - increase serial=y@6,0",
      "(n)o - leave SOA record as is=n@6,25",
      "(e)dit your changes=e@6,56",
      "(q)uit=q@6,77",
    ],
  ]);
  // At 60 columns the question wraps too: its rows joined for the label.
  const [narrow, ...other] = await b14("b14-pdns-narrow");
  expect(other).toEqual([]);
  expect([narrow!.row, narrow!.height, narrow!.label, items(narrow!).at(-1)]).toEqual([5, 4, label, "(q)uit=q@8,17"]);
  // The same printed above a shell's prompt: output.
  const printed = `Go on?\r\n${"(y)es - go on, (n)o - leave the record as is, (e)dit your changes, (q)uit: "}\r\n$ `;
  expect((await brief(printed, 60)).map((e) => e[0])).not.toContain("question");
});

test("blind14: a list over key help naming the arrow keys and Return: a menu, the signed row selected", async () => {
  const shape = (e: { kind: string; row: number; height: number; items?: { label: string; selected?: boolean }[] }) => [
    e.kind,
    e.row,
    e.height,
    (e.items ?? []).map((i) => `${i.label}${i.selected ? "*" : ""}`),
  ];
  expect((await b14("b14-n-menu")).map(shape)).toEqual([
    ["menu", 1, 3, ["node/18.19.1", "node/20.11.0", "node/22.3.0"]],
    ["status", 5, 2, []],
  ]);
  expect((await b14("b14-n-installed")).map(shape)[0]).toEqual([
    "menu",
    1,
    3,
    ["node/18.19.1", "node/20.11.0*", "node/22.3.0"],
  ]);
  expect((await b14("b14-n-deleted")).map(shape)).toEqual([
    ["menu", 1, 2, ["node/18.19.1", "node/20.11.0*"]],
    ["status", 4, 2, []],
  ]);
  // The same list and help printed above a shell's prompt: output.
  const help = "Use up/down arrow keys to select a version, return key to install, q to quit";
  const printed = await brief(`\r\n    v1.2\r\n    v1.3\r\n    v1.4\r\n\r\n${help}\r\n$ `);
  expect(printed.map((e) => e[0])).not.toContain("menu");
});

test("blind14: a message, then how to stop in parentheses ('Connected (press CTRL+C to quit)'): output", async () => {
  expect((await b14("b14-wscat-sent")).map((e) => e.kind)).toEqual(["input"]);
  expect((await b14("b14-wscat-connected")).map((e) => e.kind)).toEqual(["input"]);
  // A key hint alone on the top row stays a status.
  expect((await brief("Press CTRL+C to quit\r\n> "))[0]?.[0]).toBe("status");
});
