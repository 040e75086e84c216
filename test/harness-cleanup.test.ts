// The harness's cleanup leaves nothing to come back: a session a failed test left running (an
// agent, persisted by default) was kept in the manifest by shutdown, and the first t4a command
// after it (the agent's own wrapper reporting its exit) started a daemon that resumed the agent in
// the test's deleted directory, for good: leftover opencodes loaded the machine until the real
// opencode tests timed out.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { manifestPath } from "../src/service/manifest-path.ts";
import { Sandbox } from "./harness.ts";

test("cleanup after a test that left a persisted session running keeps no session to bring back", async () => {
  const sandbox = new Sandbox();
  await sandbox.start();
  // As a failed agent test leaves it: persisted, alive, never killed by the test.
  await sandbox.ok(["create", "--name", "left", "--persist", "--", "sleep", "600"]);
  const manifest = manifestPath(process.env, sandbox.socket);
  expect(existsSync(manifest)).toBe(true);
  await sandbox.cleanup();
  // Nothing here for a later command (the wrapper's `t4a notify … exited`) to start a daemon for.
  expect(existsSync(manifest)).toBe(false);
});
