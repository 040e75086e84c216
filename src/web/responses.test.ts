// An error body carries no program's escape sequences: a create refused with a setup script's
// output reaches an HTTP client that may print it to a terminal.
import { expect, test } from "bun:test";
import { T4aError } from "../protocol/errors.ts";
import { errorResponse } from "./responses.ts";

test("a refusal quoting a program's output comes without its control characters, its lines kept", async () => {
  const response = errorResponse(
    new T4aError("spawn_failed", "worktree: .t4a/setup failed (exit 1):\n\x1b]52;c;QUJD\x07\x1b[2Jpwned\u202e"),
  );
  expect(response.status).toBe(422);
  const body = (await response.json()) as { error: string };
  expect(body.error).toBe("worktree: .t4a/setup failed (exit 1):\n ]52;c;QUJD  [2Jpwned");
});
