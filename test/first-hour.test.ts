// Issue 62's rough edges, each as a new user met it in the first hour: the help, the waits, the
// event stream, the names of a fleet's hosts, a snapshot of an ended program, the page's labels.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BIN, Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(async () => {
  await sandbox.cleanup();
});

async function shellAtPrompt(): Promise<string> {
  const id = await sandbox.ok(["create", "--", "bash", "--norc"]);
  await sandbox.ok(["wait", id, "--input", "--timeout", "20s"]);
  return id;
}

test("edge 8: a text wait that times out on text already on screen says so, and --screen matches it", async () => {
  const id = await shellAtPrompt();
  await sandbox.ok(["send", id, "echo $((6*7))-done\\n"]);
  await waitFor(async () => (await sandbox.ok(["text", id])).includes("\n42-done"), 10_000, "the output");
  for (const condition of [
    ["--text", "42-done"],
    ["--regex", "^4[0-9]-done$"],
  ]) {
    const late = await sandbox.run(["wait", id, ...condition, "--timeout", "300ms"]);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain("nothing matched within 300 ms");
    expect(late.stderr).toContain("is on the screen already");
    expect(late.stderr).toContain("--screen");
    expect(await sandbox.ok(["wait", id, ...condition, "--screen", "--timeout", "5s"])).toBe("42-done");
  }
  // The typed echo is never a match, --screen or not: a line typed and not run stays unmatched.
  await sandbox.ok(["send", id, "echo never-run-$((1))"]);
  const echo = await sandbox.run(["wait", id, "--text", "never-run", "--screen", "--timeout", "300ms"]);
  expect(echo.code).toBe(1);
  expect(echo.stderr).not.toContain("on the screen already");
  // Text that is nowhere on screen times out as before, with no hint.
  const absent = await sandbox.run(["wait", id, "--text", "not-there-at-all", "--timeout", "300ms"]);
  expect(absent.stderr.trim()).toBe("t4a: nothing matched within 300 ms");
  await sandbox.ok(["kill", id]);
});

test("t4a events ends once its reader has gone (`t4a events | head -n 1`)", async () => {
  const id = await shellAtPrompt();
  const events = Bun.spawn(["bash", "-c", `"${BIN}" events ${id} | head -n 1`], {
    env: sandbox.env,
    stdout: "pipe",
    stderr: "pipe",
  });
  // head takes the first event and leaves; the next events find the pipe closed.
  await waitFor(
    async () => {
      await sandbox.ok(["send", id, "true\\n"]);
      return events.exitCode !== null;
    },
    15_000,
    "t4a events to end after head left",
  );
  expect(await new Response(events.stdout).text()).toContain('"terminal"');
  await sandbox.ok(["kill", id]);
});
