// The harness's cleanup leaves nothing to come back: a session a failed test left running (an
// agent, persisted by default) was kept in the manifest by shutdown, and the screen poll of the
// failed test's watch, still running, started a daemon again through request(), which resumed the
// agent in the test's deleted directory, for good: leftover opencodes loaded the machine until the
// real opencode tests timed out.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { livingDaemon } from "../src/client/daemon-pid.ts";
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

test("a request after cleanup (a failed test's watch still polling) starts no daemon again", async () => {
  const sandbox = new Sandbox();
  await sandbox.start();
  await sandbox.ok(["create", "--name", "left", "--", "sleep", "600"]);
  await sandbox.cleanup();
  const late = await sandbox.screen("left").then(
    () => "answered",
    (error: Error) => error.message,
  );
  const revived = livingDaemon(sandbox.socket);
  if (revived) process.kill(revived, "SIGKILL");
  expect(revived, late).toBeUndefined();
  expect(late).toContain("cleaned up");
});

test("cleanup, once begun, lets no request start the daemon again", async () => {
  const sandbox = new Sandbox();
  await sandbox.start();
  const cleaning = sandbox.cleanup();
  const late = sandbox.start().then(
    () => "started",
    (error: Error) => error.message,
  );
  await cleaning;
  expect(await late).toContain("cleaned up");
});
