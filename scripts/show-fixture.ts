// Prints a fixture's screen with its style runs (for labelling by hand): each row's text, then
// each run of cells sharing inverse/bold/colours as `col+len style "text"`.
import { resolve } from "node:path";
import { loadFixture, SCREENS_DIR } from "../test/fixtures/screens/score.ts";

// `--dir test/fixtures/blind2` reads a blind set's screens.
const args = process.argv.slice(2);
const at = args.indexOf("--dir");
const dir = at >= 0 ? resolve(args.splice(at, 2)[1]!) : SCREENS_DIR;
for (const name of args) {
  const { meta, buffer, term, cursorVisible } = await loadFixture(name, dir);
  console.log(
    `== ${name} ${meta.cols}x${meta.rows} cursor ${meta.cursor} ${cursorVisible ? "shown" : "hidden"} mouse ${meta.mouse}/${meta.encoding}`,
  );
  console.log(`   ${"0123456789".repeat(Math.ceil(meta.cols / 10)).slice(0, meta.cols)}`);
  for (let row = 0; row < meta.rows; row++) {
    const line = buffer.getLine(row)!;
    console.log(`${String(row).padStart(2)}|${line.translateToString(false)}`);
    const runs: string[] = [];
    let start = 0;
    let style = "";
    let text = "";
    const flush = (end: number) => {
      if (style && (text.trim() || /INV|bg[1-6](,|$)|bg#/.test(style)))
        runs.push(`${start}+${end - start} ${style} "${text}"`);
    };
    for (let col = 0; col < meta.cols; col++) {
      const cell = line.getCell(col)!;
      const s = [
        cell.isInverse() ? "INV" : "",
        cell.isBold() ? "bold" : "",
        cell.isDim() ? "dim" : "",
        cell.isUnderline() ? "ul" : "",
        cell.isFgDefault() ? "" : `fg${cell.isFgRGB() ? `#${cell.getFgColor().toString(16)}` : cell.getFgColor()}`,
        cell.isBgDefault() ? "" : `bg${cell.isBgRGB() ? `#${cell.getBgColor().toString(16)}` : cell.getBgColor()}`,
      ]
        .filter(Boolean)
        .join(",");
      if (s !== style) {
        flush(col);
        start = col;
        style = s;
        text = "";
      }
      text += cell.getChars() || (cell.getWidth() ? " " : "");
    }
    flush(meta.cols);
    if (runs.length) console.log(`    ${runs.join("  ")}`);
  }
  term.dispose();
}
