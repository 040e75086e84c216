// Issue 56's last section: its rule attacked by someone who had not read the fix. Each test is a
// place where program text (a screen row, a branch a sandbox named, a process's own argv) still
// reached a reader raw after the rule landed, as root and as an unprivileged user made for the test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Actor, CAN_MAKE_USERS, HAS_BWRAP, IS_ROOT } from "./actor.ts";

const kinds: Array<"self" | "unprivileged"> = ["self", ...(CAN_MAKE_USERS ? (["unprivileged"] as const) : [])];
/** A C0 or C1 control (a tab and a newline aside), DEL, or a bidi control. */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

// An agent CLI of the user's own whose dialog row holds a right-to-left override (a cell keeps it).
const DIALOG = String.raw`import sys, time
sys.stdout.write("\x1b[2J\x1b[H Bash(ls)\r\n\r\n Do you want to proceed \u202e? (y/n)\r\n")
sys.stdout.flush()
sys.stdin.readline()
time.sleep(60)
`;

for (const kind of kinds) {
  describe(`as ${kind === "self" ? (IS_ROOT ? "root" : "this user") : "an unprivileged user"}`, () => {
    let a: Actor;
    beforeAll(async () => {
      a = await Actor.make(kind);
      writeFileSync(join(a.dir, "dialog.py"), DIALOG);
      mkdirSync(join(a.config, "t4a"), { recursive: true });
      writeFileSync(
        join(a.config, "t4a", "agents.json"),
        JSON.stringify({
          dialog: {
            cli: "python3",
            waitingPatterns: ["Do you want to proceed"],
            answers: { yes: ["y", "Enter"], no: ["n", "Enter"] },
          },
        }),
      );
      a.own(join(a.dir, "dialog.py"), a.config);
    });
    afterAll(() => a.cleanup());

    test("a need's line (the question read off the screen) reaches list --json without the screen's bidi control", async () => {
      await a.ok(["create", "--name", "asker", "--agent", "dialog", "--direct", "--", join(a.dir, "dialog.py")]);
      await a.ok(["wait", "asker", "--agent", "waiting", "--timeout", "20s"]);
      const listed = JSON.parse(await a.ok(["list", "--json"])).terminals.find((t: { id: string }) => t.id === "asker");
      expect(listed.need.line).toContain("Do you want to proceed");
      expect(listed.need.line).not.toMatch(UNSAFE);
      await a.ok(["kill", "asker"]);
    }, 60_000);
  });
}
