import { expect, test } from "bun:test";
import { replyBoundMs } from "./ssh.ts";

test(
  "a call over ssh is bounded by its own timeout_ms or yield_ms, else 10 min; " +
    "a create 30 min (its timeout_ms is its session's life, not the call's)",
  () => {
    const grace = 30_000; // T4A_CONNECT_TIMEOUT's default
    expect(replyBoundMs({ cmd: "wait", timeout_ms: 500 })).toBe(500 + grace);
    expect(replyBoundMs({ cmd: "exec", yield_ms: 3_600_000 })).toBe(3_600_000 + grace);
    expect(replyBoundMs({ cmd: "create", timeout_ms: 5 })).toBe(1_800_000 + grace);
    expect(replyBoundMs({ cmd: "list" })).toBe(600_000 + grace);
  },
);
