// Key hints pressed: the one key a full-screen program's bar draws for an action (ccmake's "[c] Configure", nano's
// "^X Exit"), only where no shell nor REPL would read it, then what changed (`uncertain`, `opened`, `selected`,
// `exited`). Reading the hints is src/terminal/hints.ts's.
import { T4aError } from "../../protocol/errors.ts";
import { type CellGrid, CellFlag } from "../../terminal/cell-grid.ts";
import { type Element, isReplPrompt } from "../../terminal/elements.ts";
import { type Hint, hintTarget, keyHints } from "../../terminal/hints.ts";
import { beforeCursor, rowText, type Target } from "../../terminal/targets.ts";
import { type ActReply, type Actor, SETTLE_MS, SHELL } from "./actor.ts";
import { escapeRegExp } from "../../terminal/elements/view.ts";
import { type Look, putAtCursor, sameLook, screenEnds } from "./look.ts";
import { refuseShellOutput } from "./shell-output.ts";

/**
 * A prompt's closing mark where the cursor waits: "$", "#", "%", ">", "❯". Wider than isShellPrompt (the elements'
 * test, which must not take a program's "What now> " for a shell's) on purpose: no hint is pressed after any of them.
 */
const PROMPT_MARK = /[$#%>❯➜»]$/u;

/**
 * A prompt holding the cursor, from its row's start: a few words ending in ">", ")", ":" or "?" and a blank (pdb's
 * "(Pdb) ", "sqlite> ", python's ">>> "): a REPL reads the line there, whatever bar was drawn under it.
 */
const LINE_PROMPT = /^\s*\S.{0,38}[>):?] $/;

/**
 * A prompt's last mark and one blank right before a hidden cursor (python's ">>> ", node's "> ", pdb's "(Pdb) ", sbcl's
 * "* ", swipl's "?- "): a REPL's line may wait there, its cursor hidden by what was drawn before it. Not ": " nor
 * "? ": a full-screen program parks its hidden cursor after a field's label (sngrep's "Display Filter: ").
 */
const HIDDEN_PROMPT = /(?:[$#%>❯➜»)*&›]|\?-) $/u;

/** A row's start, or a mark of one or two characters and a blank there: bc's no prompt, gp's "? ", "λ ", "λ> ". */
const BARE_PROMPT = /^(?:\S{1,2} )?$/u;

/** A prompt no rule knows from its row's start: a few characters, a blank ("tides ", "In: "). */
const LONG_PROMPT = /^\S.{0,30} $/u;

/** How long a screen rests before a hint's key is pressed: output going past is no program's bar. */
const HINT_QUIET_MS = 300;

/**
 * Before `target` is chosen or clicked: the key hint the caller's words name on its very cells, pressed instead (a
 * key-hint row read as the element; words naming a hint elsewhere too are refused by hintTarget); else the guard
 * against a shell's or a REPL's output. Undefined: go on with the target.
 */
export function hintInstead(
  actor: Actor,
  look: Look,
  target: Target,
  words: string | undefined,
): Promise<ActReply> | undefined {
  const hint = words ? hintTarget(look.grid, look.elements, words, target) : undefined;
  if (hint) return pressHint(actor, look, hint);
  refuseShellOutput(actor, look, target);
  return undefined;
}

/**
 * Whether two looks show the same bar at `row`: that row the same, and most rows (a monitor redraws its figures and
 * clock every second, the bar staying; output going past moves every row).
 */
function sameBar(a: Look, b: Look, row: number): boolean {
  const rowsA = a.text.split("\n");
  const rowsB = b.text.split("\n");
  const moved = rowsA.filter((r, i) => r !== rowsB[i]).length;
  return rowsA[row] === rowsB[row] && moved * 2 < rowsA.length;
}

/** A box's bottom side alone on a row: "└────┘", "╰────╯", "┗━━━━┛". */
const BOTTOM_RULE = /^\s*[└╰┗╚+][─━═-]+[┘╯┛╝+]\s*$/;

/**
 * Press the one key a key hint draws (ccmake's "[c] Configure", hg's "c: confirm", nano's "^X Exit"): only on a
 * full-screen program's bar at the screen's top or bottom, the screen at rest, with no shell reading the terminal and
 * no shell's prompt or cursor under or after the hint, the program taking keys one by one. A hint names no state to
 * check: the reply is `uncertain`, saying what changed (or `exited`).
 */
export async function pressHint(actor: Actor, look: Look, hint: Hint): Promise<ActReply> {
  const refuse = (why: string) =>
    new T4aError("unsupported", `the key hint ${JSON.stringify(hint.text)}: ${why}; nothing was sent`);
  if (!hint.key)
    throw refuse(
      `${JSON.stringify(hint.drawn)} is no one key to press (a letter, digit or mark as drawn, ^ and a letter, ` +
        "Enter or Space)",
    );
  const { grid } = look;
  const { element } = hint;
  if (hint.sentence && !actor.alternate) return pressSentence(actor, look, hint, refuse);
  if (hint.sentence && (element.kind !== "status" || hint.enter))
    throw refuse(
      hint.enter
        ? "a key and Enter is a line reader's hint, and a full-screen program reads keys"
        : "a sentence in a full-screen program's text is no bar's hint",
    );
  const last = element.row + element.height - 1;
  // (Or a box's bottom rule under the hints, the bar a help box at the foot: mprocs's "<q: Quit>  <x: Stop>".)
  // (Or the program's status line, a status of its own under it: lldb gui's "Process: 14807  stopped" under its help
  // box's "[Press any key to exit]".)
  const statusRow = (r: number) =>
    look.elements.some((e) => e.kind === "status" && e !== element && e.row <= r && r < e.row + e.height);
  const blankBelow = Array.from({ length: grid.rows - last - 1 }, (_, i) => last + 1 + i).every(
    (r) => !rowText(grid, r).trim() || BOTTOM_RULE.test(rowText(grid, r)) || statusRow(r),
  );
  if (!(element.row === 0 || (last >= grid.rows - 4 && blankBelow)))
    throw refuse("it is not on a bar at the screen's top or bottom");
  if (!actor.alternate)
    throw refuse("it is on the normal screen (a program's output, a shell's scrollback), not a full-screen program's");
  const { row, col, visible } = grid.cursor;
  if (visible && (row > hint.row || (row === hint.row && col > hint.col)))
    throw refuse("the cursor waits under it or after it (text printed above a prompt, not a program's bar)");
  const atPrompt = promptHolds(actor, look, hint.key);
  if (atPrompt) throw refuse(atPrompt);
  // (Or its output draws the same screen again and again, sngrep's every 200 ms: the hint's row the same, and most
  // rows, over as long.)
  if (!(await actor.quiet(HINT_QUIET_MS, SETTLE_MS))) {
    const first = await actor.look();
    await Bun.sleep(HINT_QUIET_MS);
    if (!sameBar(first, await actor.look(), hint.row)) throw refuse("the screen does not rest (output going past)");
  }
  const reader = await actor.pollingReader();
  const notKeys = readerOfKeys(reader);
  if (notKeys || !reader) throw refuse(notKeys ?? "no program is reading the terminal now");
  const now = await actor.look();
  if (!sameBar(look, now, hint.row)) throw refuse("the screen changed while it was read");
  await actor.keys(hint.key);
  const changed = await actor.until((seen) => (seen.text !== now.text || !sameLook(seen, now) ? seen : undefined));
  if (!changed) {
    if (actor.exited) return actor.reply("exited", `after ${hint.key} (the key hint ${JSON.stringify(hint.text)})`);
    throw new T4aError(
      "timeout",
      `${actor.sent.join(" ")}: the screen did not change within the wait (the program may not have taken it)`,
    );
  }
  await actor.quiet(HINT_QUIET_MS, SETTLE_MS);
  if (actor.exited) return actor.reply("exited", `after ${hint.key} (the key hint ${JSON.stringify(hint.text)})`);
  const after = await actor.look();
  // (A REPL with no prompt a rule knows, bc's none or gp's "? ", waits under a bar an earlier program drew: its line
  // editor shows the key where its cursor was, and nothing else changes. That key is text in its line: taken back.)
  if ([...hint.key].length === 1 && putAtCursor(now, after) === hint.key) {
    await actor.keys("BSpace");
    const back = await actor.until((seen) => (seen.text === now.text ? seen : undefined), SETTLE_MS);
    throw new T4aError(
      "unsupported",
      `the key hint ${JSON.stringify(hint.text)}: ${hint.key} was shown where the cursor waited and nothing else ` +
        "changed: a line being typed (a REPL's, its prompt none a rule knows), not a program's bar; BSpace was sent " +
        `to take it back${back ? "" : ", but the screen is not as it was"}`,
    );
  }
  const pressed = `pressed ${hint.key} for the key hint ${JSON.stringify(hint.text)}`;
  // The program that read the key ended, the terminal's shell going on after it (hatop's "Q=QUIT").
  if (reader.pid > 0 && !actor.running(reader.pid))
    return actor.reply("exited", `${pressed}: the program reading the keys (${reader.executable}) ended`);
  if (tabMadeCurrent(now, after, hint))
    return actor.reply("selected", `${pressed}: it is drawn as the current one of its bar now, as it was not before`);
  const dialog = dialogNaming(now, after, hint.words);
  if (dialog) return actor.reply("opened", `${pressed}: a dialog new on the screen says ${JSON.stringify(dialog)}`);
  // The box the hint was drawn on gone after the key, its rows blank ("[Press any key to exit]" on lldb gui's help
  // box's border): `gone`.
  const box = (l: Look) => l.text.split("\n").slice(Math.max(0, hint.row - 2), hint.row + 1);
  if (box(now).join("").includes(hint.text) && box(after).every((r) => !r.trim()))
    return actor.reply("gone", `${pressed}: the rows it was drawn on are blank now`);
  // (Or the dialog it was drawn on no longer on the screen, the hint's words nowhere: lldb gui's "Help" box.)
  const holder = now.elements.find(
    (e) => e.kind === "dialog" && hint.row >= e.row && hint.row < e.row + e.height && hint.col >= e.col,
  );
  const same = (e: Element) => e.kind === "dialog" && e.row === holder?.row && e.col === holder.col;
  if (holder && !after.elements.some(same) && !after.text.includes(hint.text))
    return actor.reply("gone", `${pressed}: the dialog it was on${holder.label ? ` ("${holder.label}")` : ""} is gone`);
  const still = keyHints(after.grid, after.elements).some((h) => h.text === hint.text && h.row === hint.row);
  const ends = screenEnds(after.text);
  return actor.reply(
    "uncertain",
    `pressed ${hint.key} for the key hint ${JSON.stringify(hint.text)}, which names no state to check: the screen ` +
      `changed, the hint ${still ? "still shows" : "is gone"}; it ends with ${JSON.stringify(ends.slice(0, 160))}`,
  );
}

/** A row opening with a sentence hint ("press r + enter to restart the server"): vite's help lists them. */
const SENTENCE_ROW = /^\s*(?:[^\p{L}\p{N}\s]{1,2}\s+)?(?:press|hit)\s/iu;

/**
 * A key hint written as a sentence on the normal screen (ffmpeg's "Press [q] to stop" among its log, vite's "press h +
 * enter to show help" above the empty row it reads): pressed only where the program that printed it reads, no shell
 * nor REPL: the cursor under the hint, after no prompt's mark; a key alone to a program taking keys one by one, a key
 * and Enter to one reading lines with nothing but the hints' rows between the hint and the empty row the cursor waits
 * on; the screen at rest but for a progress row. `exited` once the program that read the key ends; else `uncertain`.
 */
async function pressSentence(
  actor: Actor,
  look: Look,
  hint: Hint,
  refuse: (why: string) => T4aError,
): Promise<ActReply> {
  const { grid } = look;
  const { row, col, visible } = grid.cursor;
  const before = beforeCursor(grid);
  refuseShellOutput(actor, look);
  if (!visible) throw refuse("the cursor is hidden: where the program reads cannot be told");
  if (row <= hint.row)
    throw refuse("the cursor does not wait under it (the hint is no program's words above its read)");
  if (PROMPT_MARK.test(before.trimEnd()) || LINE_PROMPT.test(before) || isReplPrompt(before))
    throw refuse("the cursor waits after a prompt (a shell's or a REPL's line, not the program that printed it)");
  if (hint.enter) {
    if (!actor.readsLines) throw refuse("it says a key and Enter, but the program reads keys one by one, not lines");
    if (before.trim() || rowText(grid, row).slice(col).trim())
      throw refuse("the cursor's row holds text: a line typed or a prompt, not the empty row a line reader waits on");
    for (let r = hint.row + 1; r < row; r++)
      if (rowText(grid, r).trim() && !SENTENCE_ROW.test(rowText(grid, r)))
        throw refuse("other output stands between it and the cursor (the hint is not the program's last words)");
  } else if (actor.readsLines)
    throw refuse("the program reads whole lines (canonical mode), and the hint says one key");
  if (!(await actor.quiet(HINT_QUIET_MS, SETTLE_MS))) {
    const first = await actor.look();
    await Bun.sleep(HINT_QUIET_MS);
    if (!sameBar(first, await actor.look(), hint.row)) throw refuse("the screen does not rest (output going past)");
  }
  const reader = await actor.pollingReader();
  const notKeys = readerOfKeys(reader);
  if (notKeys || !reader) throw refuse(notKeys ?? "no program is reading the terminal now");
  const now = await actor.look();
  if (!sameBar(look, now, hint.row)) throw refuse("the screen changed while it was read");
  const keys = hint.enter ? [hint.key!, "Enter"] : [hint.key!];
  await actor.keys(...keys);
  const pressed = `pressed ${keys.join(" ")} for the key hint ${JSON.stringify(hint.text)}`;
  // (The program ends a moment after the key: ffmpeg writes its file's end first.)
  const ended = () => actor.exited || (reader.pid > 0 && !actor.running(reader.pid));
  const after = await actor.until((seen) => (ended() ? seen : undefined), SETTLE_MS);
  if (after || ended())
    return actor.reply("exited", `${pressed}: the program reading the keys (${reader.executable}) ended`);
  const later = await actor.look();
  if (!hint.enter && putAtCursor(now, later) === hint.key) {
    await actor.keys("BSpace");
    throw new T4aError(
      "unsupported",
      `the key hint ${JSON.stringify(hint.text)}: ${hint.key} was shown where the cursor waited and nothing else ` +
        "changed: a line being typed, not a key the program took; BSpace was sent to take it back",
    );
  }
  return actor.reply(
    "uncertain",
    `${pressed}, which names no state to check: the screen ${later.text === now.text ? "did not change" : "changed"}` +
      `; it ends with ${JSON.stringify(screenEnds(later.text).slice(0, 160))}`,
  );
}

/**
 * Why a key no program's bar may take would go to a line being typed where the cursor waits (a shell's or a REPL's
 * prompt, visible or hidden, or a program reading whole lines); undefined when none holds. Asked before a key hint's
 * key and a menu bar's F-key (buttons.ts).
 */
export function promptHolds(actor: Actor, look: Look, key: string): string | undefined {
  const { grid } = look;
  const { row, col, visible } = grid.cursor;
  if (visible && PROMPT_MARK.test(beforeCursor(grid).trimEnd())) return "the cursor waits after a shell's prompt";
  if (visible && LINE_PROMPT.test(beforeCursor(grid)))
    return "the cursor waits after a prompt (a REPL's line being typed, not a program's bar)";
  // (A hidden cursor is parked anywhere by a full-screen program, but a REPL draws its prompt where the cursor stands:
  // a bar drawn on the alternate screen, the cursor hidden and sent home, then python's ">>> " there.)
  if (!visible && (HIDDEN_PROMPT.test(beforeCursor(grid)) || isReplPrompt(beforeCursor(grid))))
    return "the cursor, hidden, waits after a prompt's mark (a REPL's line may wait there, not a program's bar)";
  // (Nor, for a key no line editor shows as typed, a Ctrl chord or Enter, where a REPL of a prompt no rule knows may
  // wait with its line empty: bc's none, gp's "? ", "λ ". A character typed there is looked for after: taken back.)
  if (
    !visible &&
    [...key].length !== 1 &&
    BARE_PROMPT.test(beforeCursor(grid)) &&
    !rowText(grid, row).slice(col).trim()
  )
    return (
      "the cursor, hidden, waits with nothing after it on its row and at most a mark of two characters before it (a " +
      "REPL's empty line may wait there), and the key is none that would show if a line took it"
    );
  // (Nor where such a REPL's prompt is longer: a few characters from its row's start and a blank, nothing after it,
  // every row under it blank but the bars: python's "tides " drawn over a bar left on the alternate screen took C-o and
  // Space into its line, attack round of session 14. A full-screen program draws its rows under a parked cursor.)
  const statusAt = (r: number) => look.elements.some((e) => e.kind === "status" && e.row <= r && r < e.row + e.height);
  const under = Array.from({ length: grid.rows - row - 1 }, (_, i) => row + 1 + i);
  if (
    !visible &&
    [...key].length !== 1 &&
    LONG_PROMPT.test(beforeCursor(grid)) &&
    !rowText(grid, row).slice(col).trim() &&
    under.every((r) => !rowText(grid, r).trim() || statusAt(r))
  )
    return (
      "the cursor, hidden, waits after a few characters and a blank at its row's start, nothing after it and every " +
      "row under it blank but the bars (a REPL's empty line may wait there), and the key is none that would show"
    );
  if (actor.readsLines) return "the program reads whole lines (canonical mode), not one key";
  return undefined;
}

/** Why the terminal's reader (Actor.pollingReader) is no program taking a bar's keys; undefined when it is one. */
export function readerOfKeys(reader: Awaited<ReturnType<Actor["pollingReader"]>>): string | undefined {
  if (reader === undefined) return "which program reads the terminal cannot be told here";
  if (reader === null) return "no program is reading the terminal now";
  if (!reader.executable || SHELL.test(reader.executable))
    return `the program reading the terminal is a shell (${reader.executable ?? "unknown"})`;
  return undefined;
}

/** How a cell is drawn: bold and reverse, its colours. */
function drawnAs(grid: CellGrid, row: number, col: number): string {
  const i = row * grid.cols + col;
  return `${grid.flags[i]! & (CellFlag.bold | CellFlag.inverse)}/${grid.fg[i]}/${grid.bg[i]}`;
}

/**
 * Whether a pressed hint is a mode's tab made current (hatop's "1-STATUS  2-TRAFFIC … 5-CLI"): before the key it was
 * drawn as another hint of its bar was, after it unlike every other (two others at least), each hint's cells still
 * holding its text.
 */
function tabMadeCurrent(before: Look, after: Look, hint: Hint): boolean {
  const kept = (h: Hint) => rowText(after.grid, h.row).slice(h.col, h.col + h.width) === h.text;
  // (The bar's other hints may change with the mode: "PGUP/PGDOWN=SCROLL" for "H=HELP Q=QUIT". The tabs stay.)
  const others = keyHints(before.grid, before.elements).filter(
    (h) => h.row === hint.row && h.col !== hint.col && kept(h),
  );
  if (others.length < 2 || !kept(hint)) return false;
  const look = (grid: CellGrid, h: Hint) => drawnAs(grid, h.row, h.col);
  return (
    others.some((h) => look(before.grid, h) === look(before.grid, hint)) &&
    others.every((h) => look(after.grid, h) !== look(after.grid, hint))
  );
}

/**
 * The words of a dialog on `after` that `before` did not hold (not at the same place and size), when they hold the
 * hint's words whole (sngrep's "F2 Save": its "Save capture" form): what the key opened, as drawn.
 */
function dialogNaming(before: Look, after: Look, words: string): string | undefined {
  const same = (a: Element, b: Element) =>
    a.kind === b.kind && a.row === b.row && a.col === b.col && a.width === b.width && a.height === b.height;
  const wanted = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(words)}(?![\\p{L}\\p{N}])`, "iu");
  for (const dialog of after.elements) {
    if (dialog.kind !== "dialog" || before.elements.some((old) => same(old, dialog))) continue;
    const inside = Array.from({ length: dialog.height }, (_, i) =>
      rowText(after.grid, dialog.row + i).slice(dialog.col, dialog.col + dialog.width),
    )
      .join(" ")
      .replace(/[\s│┃║─━═┌┐└┘╭╮╰╯]+/g, " ")
      .trim();
    if (wanted.test(`${dialog.label ?? ""} ${inside}`)) return (dialog.label ?? inside).slice(0, 80);
  }
  return undefined;
}
