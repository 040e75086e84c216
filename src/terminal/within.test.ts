import { expect, test } from "bun:test";
import { within } from "./within.ts";

test("within: the first settle wins, and the listener is stopped", async () => {
  let stopped = 0;
  const value = await within<string>(
    10_000,
    (settle) => {
      queueMicrotask(() => {
        settle("first");
        settle("second");
      });
      return () => stopped++;
    },
    () => "timeout",
  );
  expect(value).toBe("first");
  expect(stopped).toBe(1);
});

test("within: the timeout answers timedOut's value, or rejects with its error", async () => {
  let stopped = 0;
  expect(
    await within<string>(
      1,
      () => () => stopped++,
      () => "late",
    ),
  ).toBe("late");
  await expect(
    within<string>(
      1,
      () => {},
      () => {
        throw new Error("too slow");
      },
    ),
  ).rejects.toThrow("too slow");
  expect(stopped).toBe(1);
});

test("within: settled during listen, the stopper still runs", async () => {
  let stopped = 0;
  const value = await within<number>(
    10_000,
    (settle) => {
      settle(7);
      return () => stopped++;
    },
    () => 0,
  );
  expect(value).toBe(7);
  expect(stopped).toBe(1);
});

test("within: fail rejects", async () => {
  await expect(
    within<number>(
      10_000,
      (settle) => settle.fail(new Error("gone")),
      () => 0,
    ),
  ).rejects.toThrow("gone");
});
