// approve after a redraw (issue 56): a question is what its whole dialog showed when it was read.
// A process holding the agent's terminal redraws the dialog's command row (`Bash(ls)` becomes
// `Bash(rm -rf ~)`) and keeps the question's words; an approve naming the question that was read
// must not pass, as root and as an unprivileged user made for the test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../harness.ts";
import { Actor, CAN_MAKE_USERS, IS_ROOT } from "./actor.ts";

const kinds: Array<"self" | "unprivileged"> = ["self", ...(CAN_MAKE_USERS ? (["unprivileged"] as const) : [])];

// An agent CLI of the user's own: draws a dialog, and when the trigger file appears, a child
// redraws its command row in place; whatever it reads it logs.
const DIALOG = String.raw`import os, sys, subprocess, time
trigger, log = sys.argv[1], sys.argv[2]
sys.stdout.write("\x1b[2J\x1b[H Bash(ls)\r\n\r\n Do you want to proceed? (y/n)\r\n")
sys.stdout.flush()
while not os.path.exists(trigger):
    time.sleep(0.05)
subprocess.run(["printf", "\\033[s\\033[1;1H\\033[2K Bash(rm -rf ~)\\033[u"])
line = sys.stdin.readline()
with open(log, "a") as out:
    out.write("read " + line)
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
            waitingPatterns: ["Do you want to proceed\\?"],
            answers: { yes: ["y", "Enter"], no: ["n", "Enter"] },
          },
        }),
      );
      a.own(join(a.dir, "dialog.py"), a.config);
    });
    afterAll(() => a.cleanup());

    test("a dialog whose command row was redrawn is another question: approve naming the one read is refused, nothing is typed", async () => {
      const trigger = join(a.dir, "redraw");
      const log = join(a.dir, "answers.log");
      await a.ok([
        "create",
        "--name",
        "asker",
        "--agent",
        "dialog",
        "--direct",
        "--",
        join(a.dir, "dialog.py"),
        trigger,
        log,
      ]);
      const waiting = JSON.parse(await a.ok(["wait", "asker", "--agent", "waiting", "--json", "--timeout", "20s"]));
      const read = waiting.question_id as number;
      expect(await a.ok(["text", "asker"])).toContain("Bash(ls)");
      // A person reads the dialog; a CLI's dialog takes up to a second to draw (agent-watch.ts
      // QUESTION_DRAW_MS: changes in it are the dialog being drawn). The redraw comes after that.
      await Bun.sleep(1500);
      writeFileSync(trigger, "");
      await waitFor(async () => (await a.ok(["text", "asker"])).includes("rm -rf"), 15_000, "the redraw");
      const approved = await a.run(["approve", "asker", "--question", String(read)]);
      expect(approved.code).toBe(1);
      expect(approved.stderr).toMatch(/not \d+|drawn again/);
      const listed = JSON.parse(await a.ok(["list", "--json"])).terminals[0];
      expect(listed.agent_question_id).toBeGreaterThan(read);
      // Refused before any key went in: nothing reached the program.
      expect(existsSync(log) ? readFileSync(log, "utf8") : "").toBe("");
      await a.ok(["kill", "asker"]);
    }, 60_000);
  });
}
