// The screen is the program's to draw, and the daemon reads it (snapshot, choose, click, fill) in
// its one thread: a screen drawn to make detection slow must not hold the daemon.
import { expect, test } from "bun:test";
import { fixtureTerminal, writeAll } from "../../test/fixtures/screens/score.ts";
import { detectElements } from "./elements.ts";
import { cellGridOf } from "./screen.ts";

test("a 1000x1000 screen tiled with 83 584 boxes reads at most " +
  "256 of them (each was compared with every other: 19 s)", async () => {
  const size = 1000;
  const row = (r: number) => ["┌──┐", "│ab│", "└──┘"][r % 3]!.repeat(size / 4);
  const term = fixtureTerminal(size, size);
  await writeAll(term, Array.from({ length: size }, (_, r) => `\x1b[${r + 1};1H${row(r)}`).join(""));
  const elements = detectElements(cellGridOf(term));
  expect(elements.filter((e) => e.kind === "dialog").length).toBeLessThanOrEqual(256);
  term.dispose();
}, 120_000);
