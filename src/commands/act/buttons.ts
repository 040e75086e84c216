// Pressing a button (a click, its F-key, or Tab to it and Enter) and words no element holds (a click), then what the
// press did: the button gone, a menu bar's drop-down opened, the program exited, or `uncertain`. Claims no other state.
import { T4aError } from "../../protocol/errors.ts";
import type { Element } from "../../terminal/elements.ts";
import { cellOf, findAgain, functionKeyOf, nameOf, type Target } from "../../terminal/targets.ts";
import { type ActReply, type Actor, SETTLE_MS } from "./actor.ts";
import { promptHolds, readerOfKeys } from "./key-hints.ts";
import { type Look, sameLook, tableChanged } from "./look.ts";

/** Press a button (or a function-key bar's entry): a click, its F-key, or Tab to it and Enter; then see its effect. */
export async function press(actor: Actor, look: Look, target: Target): Promise<ActReply> {
  const { element } = target;
  if (actor.mouseOn(look)) {
    await actor.click(cellOf(target));
    return pressed(actor, look, target);
  }
  const key = functionKeyOf(look.grid, element);
  if (key) {
    // An F-key is taken by whatever reads the terminal: a menu bar drawn on the alternate screen before a REPL or a
    // shell took it (the bar left over it, the cursor hidden under it) had F2 typed into python's, bc's, cat's and
    // bash's line (attack round of session 14). Only a program reading keys one by one that is no shell, and no
    // prompt where the cursor waits, as for a key hint's key.
    const why = promptHolds(actor, look, key) ?? readerOfKeys(await actor.pollingReader());
    if (why) throw new T4aError("unsupported", `${nameOf(target)}'s key ${key}: ${why}; nothing was sent`);
    await actor.keys(key);
  } else {
    if (!element.selected) await actor.tabTo(target, (again) => again.element.selected === true, "its highlight");
    await actor.keys("Enter");
  }
  return pressed(actor, look, target);
}

/**
 * The effect of pressing a button: `target` gone from the screen, or the program exited. A screen
 * that changed with the button still there is uncertain (a press that moved the focus, or did nothing).
 */
async function pressed(actor: Actor, before: Look, target: Target): Promise<ActReply> {
  let changedAt = 0;
  let last: Look | undefined;
  const seen = await actor.until((look) => {
    if (!findAgain(look.elements, target)) return "gone" as const;
    if (look.text === before.text && sameLook(look, before)) return undefined;
    changedAt ||= performance.now();
    last = look;
    return performance.now() - changedAt > SETTLE_MS ? ("uncertain" as const) : undefined;
  });
  if (seen === "gone") return actor.reply("gone");
  const opened = seen === "uncertain" && last ? menuOpened(before, last, target) : undefined;
  if (opened) {
    const names = opened.items!.map((item) => JSON.stringify(item.label));
    return actor.reply(
      "opened",
      `a menu opened under ${nameOf(target)}, ${opened.ref}: ${names.slice(0, 6).join(", ")}` +
        (names.length > 6 ? `, … (${names.length} items)` : ""),
    );
  }
  if (actor.exited) return actor.reply("exited");
  if (seen === "uncertain" || changedAt) {
    // (Said, not claimed: a button that stays names no state to check, whatever a table then shows.)
    const changed = last ? tableChanged(before, before, last, -1) : undefined;
    return actor.reply(
      "uncertain",
      `the screen changed, but ${nameOf(target)} is still there${changed ? `; ${changed}` : ""}`,
    );
  }
  throw new T4aError(
    "timeout",
    `${actor.sent.join(" ")}: the screen did not change within the wait (the program may not have taken it)`,
  );
}

/**
 * A drop-down a menu bar's button opened: a menu on the settled screen that the screen before the press did not hold,
 * its first row under the button's within a few rows, over or beside the button's columns, and the button still on
 * its row (drawn open or not). What was seen, nothing more: the menu is the program's, its items named as drawn.
 */
function menuOpened(before: Look, after: Look, target: Target): Element | undefined {
  const button = findAgain(after.elements, target)?.element;
  if (button?.kind !== "button" || target.element.row > 1) return undefined;
  const was = (menu: Element) =>
    before.elements.some(
      (old) =>
        old.kind === "menu" &&
        old.row === menu.row &&
        old.col === menu.col &&
        old.items?.map((i) => i.label).join("\n") === menu.items?.map((i) => i.label).join("\n"),
    );
  return after.elements.find(
    (menu) =>
      menu.kind === "menu" &&
      (menu.items?.length ?? 0) > 0 &&
      menu.row > button.row &&
      menu.row <= button.row + 3 &&
      menu.col <= button.col + button.width &&
      menu.col + menu.width >= button.col &&
      !was(menu),
  );
}

/**
 * Click words on the screen that no element holds (a button the detector did not read): only by
 * mouse, since keys need to know what the words are. What it did is not known: a change of the
 * screen is `uncertain`.
 */
export async function clickText(actor: Actor, look: Look, cell: { row: number; col: number }): Promise<ActReply> {
  await actor.click(cell);
  const seen = await actor.until((now) => (now.text !== look.text || !sameLook(now, look) ? true : undefined));
  if (seen) return actor.reply("uncertain", "the screen changed after the click; nothing names what the words did");
  if (actor.exited) return actor.reply("exited");
  throw new T4aError(
    "timeout",
    `${actor.sent.join(" ")}: the screen did not change within the wait (the program may not have taken it)`,
  );
}
