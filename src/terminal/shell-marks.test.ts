import { expect, test } from "bun:test";
import { parseOsc133, parseOsc7777 } from "./shell-marks.ts";

test("OSC 133 and 7777 payloads become marks with code and nonce", () => {
  expect(parseOsc133("A;t4a=n1")).toEqual({ kind: "prompt", nonce: "n1" });
  expect(parseOsc133("C")).toEqual({ kind: "command_start" });
  expect(parseOsc133("D;130;t4a=n1")).toEqual({ kind: "command_done", code: 130, nonce: "n1" });
  expect(parseOsc133("D")).toEqual({ kind: "command_done" });
  expect(parseOsc133("A;cl=m;aid=5")).toEqual({ kind: "prompt" });
  expect(parseOsc133("Z")).toBeUndefined();
  expect(parseOsc7777("done;2;t4a=x")).toEqual({ kind: "command_done", code: 2, nonce: "x" });
  expect(parseOsc7777("more;t4a=x")).toEqual({ kind: "continuation", nonce: "x" });
  expect(parseOsc7777("other;2")).toBeUndefined();
});
