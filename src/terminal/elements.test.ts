// The detector against the labelled screens of test/fixtures/screens/ (train set only: the holdout
// set is scored by the bench, never tuned on), and the outline an agent reads.
import { expect, test } from "bun:test";
import { fixtureNames, formatRates, loadFixture, scoreSet } from "../../test/fixtures/screens/score.ts";
import { cellGridOf } from "./screen.ts";
import { detectElements, outline } from "./elements.ts";

/**
 * Raised as the detector improves; the goal is 0.95. 496 screens since holdouts 9 and 10
 * (new screens of the issue's own programs, scored once at 93.7% / 92.4% and 97.3% / 94.2%) joined
 * train: 2185 of 2275 found, 31 extra (98.6% / 96.0%). Held below 0.99 on purpose, with the misses named: btop's
 * screen (22: the words in its box borders, labelled as buttons, a reading a second labeller did
 * not share, and its meters), weechat's panes (8: a window split by a rule is not read as panes),
 * inquirer-table-prompt's grid of ◯/◉ cells (10, and 3 extra checkboxes), nconf's checklist
 * labelled as a menu (3 extra checkboxes). Progress and tables hold lower for btop, nmon and
 * blessed-contrib; radios for the table prompt's cells.
 */
const FLOOR = { precision: 0.98, recall: 0.95, state: 0.98 };
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
  // (242 screens on a loaded shared machine take more than the default 5 s.)
}, 30_000);

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
}, 30_000);

/** The question or menu a fixture's detector reads, as label → [key, selected] per item. */
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
