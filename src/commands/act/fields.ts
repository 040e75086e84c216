// fill on an input: focus it (a click, or Tab), erase, type; the value seen there (or a masked or unechoed field said
// so), and with submit Enter and the field seen taken (left behind showing the value, a REPL's prompt back empty, a
// table under a form's field changed). Not a command.
import { T4aError } from "../../protocol/errors.ts";
import type { CellGrid } from "../../terminal/cell-grid.ts";
import { beforeCursor, cellOf, findAgain, nameOf, rowText, type Target } from "../../terminal/targets.ts";
import { type ActReply, type Actor, SETTLE_MS } from "./actor.ts";
import { clean } from "../../terminal/elements/view.ts";
import { type Look, sameLook, tableChanged } from "./look.ts";

/** How long a full-screen form's table, gone after Enter in a field that keeps its text, is waited for to come back. */
const RELOAD_MS = 6000;

/** How long the screen off a filled field's row must stand still before Enter for a table's change to count. */
const REST_MS = 700;

/**
 * How long keys typed into a field read key by key with the tty's echo off must leave the screen as it was (the
 * cursor where it was: nothing drawn) to count as read unshown.
 */
const KEYS_UNSHOWN_MS = 1500;

/**
 * Type `value` into an input in place of what it holds: focus it (a click, or Tab), erase, type; then wait to see it
 * there.
 */
export async function fill(actor: Actor, look: Look, target: Target, value: string, submit = false): Promise<ActReply> {
  if (target.element.kind !== "input")
    throw new T4aError("invalid_params", `${target.element.ref} is a ${target.element.kind}, not an input`);
  let field = target.element;
  const shownValue = (field.value ?? "").trim();
  if (field.cursor && PROMPT_AS_VALUE.test(shownValue) && beforeCursor(look.grid).endsWith(`${shownValue} `))
    throw new T4aError(
      "invalid_params",
      `${nameOf(target)} shows ${JSON.stringify(shownValue)} right before the cursor, a prompt's last mark: ` +
        "the prompt of the program reading the line (a shell's, a REPL's), drawn after text that reads as a field; " +
        "nothing was typed",
    );
  if (!field.cursor) {
    if (actor.mouseOn(look)) {
      await actor.click(cellOf(target));
      field =
        (await actor.until((seen) =>
          findAgain(seen.elements, target)?.element.cursor ? findAgain(seen.elements, target)!.element : undefined,
        )) ?? field;
    }
    if (!field.cursor) {
      await actor.tabTo(target, (again) => again.element.cursor === true, "the cursor");
      field = findAgain((await actor.look()).elements, target)?.element ?? field;
    }
  }
  // A line read with the tty's echo off (getpass, `read -s`, sudo) shows nothing of what is typed. So do keys read one
  // by one with it off by a program writing lines, not a full-screen one (kpcli's "Password:", read with
  // Term::ReadKey): there, only once the screen stayed as it was, the cursor too, for a while (a line editor or a
  // prompt library draws what it reads and moves the cursor).
  const unechoed = !actor.echoes && (actor.readsLines || !actor.alternate);
  await erase(actor, target, field.value ?? "");
  const typedAt = await actor.look();
  // (Read before typing: a program taking one key raw may read its next line in canonical mode at once.)
  const raw = !actor.readsLines;
  if (value) await actor.type(value);
  const typedTime = performance.now();
  const norm = (text: string | undefined) => (text ?? "").trim();
  const length = [...value].length;
  let how: string | undefined;
  // A prompt whose program reads one key raw and takes it at once (swipl's 'Correct to: "save_depth(42)"?' answers
  // "yes" to y and runs on): the prompt's row shows the prompt, then a word opening with the key; the cursor left it.
  const promptRow = typedAt.grid.cursor.row;
  const prompt = beforeCursor(typedAt.grid).trimEnd();
  const oneKey = raw && length === 1;
  let tookKey: string | undefined;
  const shown = await actor.until((seen) => {
    if (oneKey && prompt && seen.grid.cursor.row !== promptRow) {
      const row = rowText(seen.grid, promptRow).trimEnd();
      const word = row.startsWith(prompt) ? /^\s(\p{L}+)$/u.exec(row.slice(prompt.length))?.[1] : undefined;
      if (word?.toLowerCase().startsWith(value.toLowerCase())) {
        tookKey = row.trim();
        return true;
      }
    }
    const now = findAgain(seen.elements, target)?.element.value;
    if (norm(now) === norm(value)) return true;
    if (echoedAfterPrompt(typedAt.grid, seen.grid, value)) return true;
    // A masked field: one mask character for each character typed.
    if (length && now && [...now].length === length && /^([*•●▪·∙◆■#])\1*$/u.test(now)) {
      how = `the field is masked: it shows ${length} ${JSON.stringify([...now][0])} for the ${length} characters typed`;
      return true;
    }
    if (
      unechoed &&
      (now ?? "") === "" &&
      !actor.echoes &&
      (actor.readsLines ||
        (performance.now() - typedTime >= KEYS_UNSHOWN_MS &&
          seen.text === typedAt.text &&
          seen.grid.cursor.row === typedAt.grid.cursor.row &&
          seen.grid.cursor.col === typedAt.grid.cursor.col))
    ) {
      how = `the field echoes nothing (the tty's echo is off): ${length} characters typed, none shown`;
      return true;
    }
    return undefined;
  });
  if (!shown) {
    if (actor.exited) return actor.reply("uncertain", "the program exited before the field showed the value");
    const now = findAgain((await actor.look()).elements, target)?.element.value;
    throw new T4aError("timeout", `${nameOf(target)} shows ${JSON.stringify(now ?? "")}, not ${JSON.stringify(value)}`);
  }
  // (Taken already: an Enter now would answer whatever it asks next.)
  if (tookKey)
    return actor.reply(
      "submitted",
      `the program took the key at once, no Enter sent: the prompt's row shows ${JSON.stringify(tookKey)}`,
    );
  if (!submit) return actor.reply("filled", how);
  return submitted(actor, typedAt, target, how ? undefined : value, how, look);
}

/**
 * What was typed, echoed right after the prompt it was typed at: the prompt's row as it was up to the cursor, then the
 * value, the cursor after it. A prompt with no blank after its mark ("Username:") reads as no field once a value
 * follows it ("Username:ops"), but the row it was typed on says the same as a field's value would.
 */
function echoedAfterPrompt(before: CellGrid, after: CellGrid, value: string): boolean {
  const { row, col } = before.cursor;
  // (Printable ASCII only: one character, one cell; and on the one row, not wrapped.)
  if (!/^[ -~]+$/.test(value) || col + value.length >= before.cols) return false;
  if (after.cursor.row !== row || after.cursor.col !== col + value.length) return false;
  const [was, now] = [rowText(before, row), rowText(after, row)];
  return now.slice(0, col) === was.slice(0, col) && now.slice(col).trimEnd() === value && !was.slice(col).trim();
}

/**
 * A prompt library redraws an answered field as its label and the value (dialoguer's "? Project name (tauri-app) ›"
 * left as "✔ Project name · notes-app"): the line holds the field's worded label, the value after it.
 */
function labelThenValue(line: string, label: string | undefined, value: string): boolean {
  if (!label || !/\p{L}{2}/u.test(label)) return false;
  const at = line.indexOf(label);
  return at >= 0 && line.indexOf(value, at + label.length) >= 0;
}

/**
 * Enter after a filled field, and its goal state: the field gone or left behind (the cursor on
 * another row), the line it was on showing the value (what a masked or unechoed field cannot).
 * `start` is the screen before the field was focused (a table under it then, before a pop-up hid it).
 */
async function submitted(
  actor: Actor,
  before: Look,
  target: Target,
  value: string | undefined,
  how: string | undefined,
  start = before,
): Promise<ActReply> {
  const row = before.grid.cursor.row;
  const prompt = beforeCursor(before.grid).trim();
  let filledLook = await actor.look();
  const history = actor.historyLength();
  // A table under a full-screen form's field may tell that Enter took it (tableChanged): only one at rest before Enter,
  // the screen off the field's row unchanged for a while (a live capture's rows come and go by themselves).
  const others = (look: Look) =>
    look.text
      .split("\n")
      .filter((_, i) => i !== row)
      .join("\n");
  // (Given a few windows to come to rest: a pop-up's completions may still be drawn after the value shows.)
  let tabled = false;
  if (actor.alternate && start.elements.some((e) => e.kind === "table" && e.row > target.element.row)) {
    for (let tries = 0; tries < 3 && !tabled; tries++) {
      const base = tries === 0 ? filledLook : await actor.look();
      tabled = !(await actor.until((look) => (others(look) !== others(base) ? true : undefined), REST_MS));
      if (tabled) filledLook = base;
    }
  }
  // (A line typed on the normal screen that starts a full-screen view: lldb's "gui".)
  const normal = !actor.alternate;
  await actor.keys("Enter");
  let changedAt = 0;
  let quiet: Look | undefined;
  let quietAt = 0;
  const result = await actor.until((look): ActReply | undefined => {
    if (look.text === filledLook.text && sameLook(look, filledLook)) return undefined;
    changedAt ||= performance.now();
    const again = findAgain(look.elements, target);
    const left = !again?.element.cursor || look.grid.cursor.row !== again.element.row;
    // The value shown in the field before Enter, the normal screen then given up for the alternate one: a program took
    // the whole screen on that line (lldb's "gui" at "(lldb) "), the line was taken.
    if (normal && actor.alternate && value?.trim())
      return actor.reply(
        "submitted",
        `${nameOf(target)} showed ${JSON.stringify(value)} before Enter, and after it a full-screen view took the ` +
          "terminal (the alternate screen): the line was taken",
      );
    // A field that shows nothing of what is typed (masked, or the tty's echo off), asked by the same words on a row
    // below the one it was on, that row still showing the prompt: the line was entered and the next prompt reads like
    // it (gocryptfs's old then new "Password:"). What stands between is quoted: it may also say the value was refused.
    // (So too an empty line entered at a pause asked again after the next page: gnuplot's "Press return for more:".)
    const next =
      !left && (value === undefined || value === "")
        ? nextPrompt(look, again, row - (actor.historyLength() - history), prompt)
        : undefined;
    // (A refusal between them, sudo's "Sorry, try again.": the line was entered, and not taken.)
    if (next !== undefined && REFUSED.test(next))
      return actor.reply(
        "uncertain",
        `the line was entered, but ${nameOf(target)} asks again on a row below ` +
          `after ${JSON.stringify(next.slice(0, 160))}`,
      );
    if (next !== undefined)
      return actor.reply(
        "submitted",
        `${how ?? "an empty line entered"}; the prompt stays above as entered, ` +
          `and ${nameOf(target)} asks on a row below` +
          (next ? ` (between them: ${JSON.stringify(next.slice(0, 160))})` : ""),
      );
    // A REPL's prompt comes back empty on a new row once the line is taken (R's ">", jshell's "jshell>"): found again
    // holding the cursor, but the line entered now stands above it as one more line than before Enter.
    if (
      !left &&
      value !== undefined &&
      promptBack(filledLook, look, again, prompt, value, actor.historyLength() > history)
    )
      return actor.reply(
        "submitted",
        `the prompt came back empty under the line entered (${JSON.stringify(`${prompt} ${value.trim()}`.trim())})`,
      );
    if (left) {
      if (value === undefined) return actor.reply("submitted", how);
      // (A row the prompt filled to its end goes on at the next one: systemd-firstboot's value under its prompt.)
      const rows = look.text.split("\n");
      const cursorRow = look.grid.cursor.row;
      const lines = rows.concat(
        rows.flatMap((r, i) =>
          r.trimEnd().length >= look.grid.cols - 1 && i + 1 < rows.length && i !== cursorRow && i + 1 !== cursorRow
            ? [r.trimEnd() + rows[i + 1]!]
            : [],
        ),
      );
      // An empty line entered (a pause's "Hit return when …"): only the field's own row, moved up by what scrolled off,
      // showing its prompt and nothing after it; any other line holding the prompt's words is no evidence.
      if (!value.trim()) {
        const was = row - (actor.historyLength() - history);
        const own = was >= 0 && was !== cursorRow ? rowText(look.grid, was).trim() : "";
        if (prompt && own === prompt)
          return actor.reply("submitted", `the prompt's row stays as entered, nothing typed: ${JSON.stringify(own)}`);
        // (Or pushed off the top by a long output since Enter: certtool's last prompt under its certificate.)
        const off = prompt && was < 0 ? actor.history(Math.min(actor.historyLength() - history, 500)) : [];
        if (off.some((r) => r.trim() === prompt))
          return actor.reply("submitted", `the answered line ${JSON.stringify(prompt)} scrolled off the top`);
        // No prompt on the row (a question read on the row under it, reuse's licence question): that row, moved up by
        // what scrolled off, still empty, and the question's own row still over it where it was, showing its words.
        const asked = was - (row - target.element.row);
        const words = target.element.label ? clean(target.element.label) : "";
        if (!prompt && was >= 0 && was !== cursorRow && !rowText(look.grid, was).trim() && asked >= 0 && words) {
          const shown = clean(rowText(look.grid, asked));
          if (shown && words.startsWith(shown))
            return actor.reply(
              "submitted",
              `an empty line entered: the field's own row stays empty under ${JSON.stringify(shown.slice(0, 120))}`,
            );
        }
        return performance.now() - changedAt > SETTLE_MS
          ? actor.reply("uncertain", `after Enter the prompt's row does not show ${JSON.stringify(prompt)} as entered`)
          : undefined;
      }
      // No prompt before the value on its row (a question read on the row under it, a2enmod's; bc's bare line): only
      // that row, moved up by what scrolled off, showing the value is evidence. Another line holding the value's words
      // (a2enmod's "Your choices are: … rewrite …" over the question) was there before Enter.
      if (!prompt) {
        const was = row - (actor.historyLength() - history);
        const own = was >= 0 && was !== cursorRow ? lines[was]! : "";
        const wrappedOn = own.trimEnd().length >= look.grid.cols - 1 ? own.trimEnd() + (rows[was + 1] ?? "") : own;
        if ([own, wrappedOn].some((r) => r.trim() === value.trim()))
          return actor.reply("submitted", `the field's own row shows ${JSON.stringify(value.trim())} as entered`);
        const off = was < 0 ? actor.history(Math.min(actor.historyLength() - history, 500)) : [];
        if (off.some((r) => r.trim() === value.trim()))
          return actor.reply("submitted", `the field's own row ${JSON.stringify(value.trim())} scrolled off the top`);
      }
      const line = lines.find(
        (r, i) =>
          prompt &&
          i !== cursorRow &&
          r.includes(value.trim()) &&
          (r.includes(prompt) || labelThenValue(r, target.element.label, value.trim())),
      );
      if (line) return actor.reply("submitted", `the answered line shows ${JSON.stringify(line.trim())}`);
      // A long answer may push the answered line off the top (certtool's certificate after its last prompt): it is
      // in the lines that scrolled off since Enter, and only there.
      const gone = prompt ? actor.history(Math.min(actor.historyLength() - history, 500)) : [];
      const scrolled = gone.find((r) => r.trim() === `${prompt} ${value.trim()}`.trim());
      if (scrolled)
        return actor.reply("submitted", `the answered line ${JSON.stringify(scrolled.trim())} scrolled off the top`);
    }
    // A full-screen form's field that keeps its text after Enter (a filter bar): taken only when a table under it,
    // at rest while the value was typed, shows other rows now, and no dialog or question came up instead.
    const kept =
      tabled && again?.element.cursor && value?.trim() && (again.element.value ?? "").trim() === value.trim();
    const applied = kept ? tableChanged(start, filledLook, look, target.element.row) : undefined;
    if (applied)
      return actor.reply("submitted", `after Enter ${nameOf(target)} keeps ${JSON.stringify(value)}, and ${applied}`);
    // (Such a field's program may redraw for a while, its table emptied and filled again: settled from its last
    // change.)
    if (kept && (!quiet || look.text !== quiet.text || !sameLook(look, quiet))) {
      quiet = look;
      quietAt = performance.now();
    }
    // (Its table gone from under it while it loads the rows again: given longer.)
    const loading =
      kept &&
      start.elements.some((e) => e.kind === "table" && e.row > target.element.row) &&
      !look.elements.some((e) => e.kind === "table" && e.row > target.element.row);
    if (performance.now() - (kept ? quietAt : changedAt) <= (loading ? RELOAD_MS : SETTLE_MS)) return undefined;
    const changed = tableChanged(filledLook, filledLook, look, -1);
    return actor.reply(
      "uncertain",
      (again?.element.cursor
        ? `after Enter ${nameOf(target)} still holds the cursor, showing ${JSON.stringify(again.element.value ?? "")}`
        : `after Enter no line shows ${JSON.stringify(value)}`) + (changed ? `; ${changed}` : ""),
    );
  });
  if (result) return result;
  if (actor.exited) return actor.reply("exited", how);
  // (Changed, and still changing or loading when the wait ran out: what it shows is said, nothing claimed.)
  if (changedAt) return actor.reply("uncertain", `after Enter the screen was still changing when the wait ran out`);
  throw new T4aError("timeout", `Enter after ${nameOf(target)}: the screen did not change within the wait`);
}

/** Words refusing a line just entered: sudo's "Sorry, try again.", "incorrect password", "Passwords do not match". */
const REFUSED = /\b(?:sorry|try again|incorrect|wrong|invalid|denied|failed|do(?:es)? not match|mismatch)\b/i;

/**
 * A field that shows nothing typed, entered: its row (`was`, moved up by what scrolled off since) still shows its
 * prompt, and a field of the same words holds the cursor on a row below it. The rows between them, joined with " / "
 * ("" when none); undefined when the screen does not show that.
 */
function nextPrompt(look: Look, again: Target | undefined, was: number, prompt: string): string | undefined {
  if (!again?.element.cursor || !prompt || was < 0 || again.element.row <= was) return undefined;
  if (look.grid.cursor.row !== again.element.row || !rowText(look.grid, was).trim().startsWith(prompt))
    return undefined;
  return Array.from({ length: again.element.row - was - 1 }, (_, i) => rowText(look.grid, was + 1 + i).trim())
    .filter(Boolean)
    .join(" / ");
}

/**
 * The line entered at a REPL's prompt is taken when the prompt comes back empty (R's ">", jshell's "jshell>"): the
 * field found again holds the cursor and nothing, on another row (or the screen scrolled), and one line more than
 * before Enter shows the prompt and the value, off the cursor's row: the entered line, now history. (The same line
 * entered earlier is counted on both screens: it is no evidence; a line scrolled off leaves this uncertain.)
 */
function promptBack(
  filled: Look,
  look: Look,
  again: Target | undefined,
  prompt: string,
  value: string,
  scrolled: boolean,
): boolean {
  const typed = value.trim();
  if (!again?.element.cursor || (again.element.value ?? "").trim() || !typed || !prompt) return false;
  if (look.grid.cursor.row === filled.grid.cursor.row && !scrolled) return false;
  // (A line longer than its row goes on at the next one: guile's "scheme@(guile-user) [1]> (call-with-output-file …
  // (writ" over "e (length …)))", read joined.)
  const count = (seen: Look) => {
    const rows = seen.text.split("\n");
    const cursor = seen.grid.cursor.row;
    return rows.filter((r, i) => {
      if (i === cursor) return false;
      const full = r.trimEnd().length >= seen.grid.cols - 1 && i + 1 < rows.length && i + 1 !== cursor;
      const line = full ? r + rows[i + 1] : r;
      return line.includes(prompt) && line.includes(typed, line.indexOf(prompt));
    }).length;
  };
  return count(look) > count(filled);
}

/**
 * A field's value ending in a prompt's closing mark ("$", ">>>", "(gdb)", sbcl's "*", swipl's "?-"), the cursor one
 * blank after it: what a line-oriented program drew after a row printed with no newline (`cat` of a file ending in
 * "extract ‘a.txt’?"), not a value typed.
 */
const PROMPT_AS_VALUE = /(?:[$#%>❯➜»)*&]|\?-)$/u;

/** Erasing a field stops once it shows nothing, or after this many rounds that changed nothing seen. */
const MAX_STILL_ROUNDS = 2;
const MAX_ERASE_ROUNDS = 16;
/** How long a round waits to see the field change before it looks again anyway. */
const ERASE_ROUND_MS = 600;

/**
 * Erase what a field shows, from its end: as many Backspaces as it shows characters, again while
 * it shows more (a value longer than the field: dialog shows a window of its end, which may look
 * the same after a round, "xxxx…"), until it shows nothing, or rounds change nothing seen (a field
 * that cannot be erased). A field that shows nothing of what it holds (a password box echoing
 * nothing) cannot be seen to be empty, and is typed into as it is.
 */
export async function erase(actor: Actor, target: Target, shown: string): Promise<void> {
  const valueIn = (seen: Look) => findAgain(seen.elements, target)?.element.value ?? "";
  let still = 0;
  for (let round = 0; shown && round < MAX_ERASE_ROUNDS && still < MAX_STILL_ROUNDS; round++) {
    const before = await actor.look();
    await actor.keys(...(round === 0 ? ["End"] : []), ...Array<string>([...shown].length).fill("BSpace"));
    const changed = await actor.until(
      (seen) => (seen.text !== before.text || !sameLook(seen, before) ? seen : undefined),
      ERASE_ROUND_MS,
    );
    if (actor.exited) return;
    still = changed ? 0 : still + 1;
    shown = valueIn(changed ?? (await actor.look()));
  }
}
