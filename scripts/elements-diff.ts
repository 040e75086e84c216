// Where the detector and the labels of test/fixtures/screens/ disagree, screen by screen:
// `npx bun scripts/elements-diff.ts [train|holdout|NAME…]`. Labels missed (-) and elements found
// that no label matches (+), with the states that differ (~).
import { fixtureNames, loadFixture, matches, stateRight, type Element } from "../test/fixtures/screens/score.ts";
import { detectElements } from "../src/terminal/elements.ts";
import { cellGridOf } from "../src/terminal/screen.ts";

const args = process.argv.slice(2);
const names =
  args.length === 0 || args[0] === "train" || args[0] === "holdout"
    ? fixtureNames((args[0] as "train" | "holdout") ?? "train")
    : args;
const brief = (e: Element) => `${e.kind} ${e.row}:${e.col}+${e.width}${e.label !== undefined ? ` "${e.label}"` : ""}`;
for (const name of names) {
  const fixture = await loadFixture(name);
  const detected = (detectElements(cellGridOf(fixture.term)) as Element[]).filter((e) => e.kind !== "text");
  fixture.term.dispose();
  const used = new Set<number>();
  const lines: string[] = [];
  for (const want of fixture.meta.elements) {
    const index = detected.findIndex((got, i) => !used.has(i) && matches(want, got));
    if (index < 0) {
      lines.push(`  - ${brief(want)}`);
      continue;
    }
    used.add(index);
    if (stateRight(want, detected[index]!) === false) {
      const got = detected[index]!;
      lines.push(
        `  ~ ${brief(want)}: want ${JSON.stringify({ value: want.value, selected: want.selected, checked: want.checked, percent: want.percent, items: want.items?.filter((i) => i.selected).map((i) => i.label) })} got ${JSON.stringify({ value: got.value, selected: got.selected, checked: got.checked, percent: got.percent, items: got.items?.filter((i) => i.selected).map((i) => i.label) })}`,
      );
    }
  }
  detected.forEach((got, i) => used.has(i) || lines.push(`  + ${brief(got)}`));
  if (lines.length) console.log(`${name}\n${lines.join("\n")}`);
}
