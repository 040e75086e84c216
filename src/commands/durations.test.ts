import { expect, test } from "bun:test";
import { parseDuration } from "./durations.ts";

test("durations take ms, s, m; a bare number is seconds", () => {
  expect(parseDuration("250ms", "x")).toBe(250);
  expect(parseDuration("30s", "x")).toBe(30_000);
  expect(parseDuration("2m", "x")).toBe(120_000);
  expect(parseDuration("1.5", "x")).toBe(1500);
  expect(() => parseDuration("soon", "--timeout")).toThrow("--timeout must be a duration");
});
