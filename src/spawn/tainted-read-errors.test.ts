import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTainted, TaintedReadError } from "./tainted-files.ts";

const dir = mkdtempSync(join(tmpdir(), "t4a-tainted-"));
const root = join(dir, "kept");
mkdirSync(join(root, "sub"), { recursive: true });
writeFileSync(join(dir, "secret"), "outside\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reason = (path: string, options = { root, maxBytes: 1024 }) => {
  try {
    readTainted(path, options);
    return "read";
  } catch (error) {
    if (error instanceof TaintedReadError) return error.reason;
    throw error;
  }
};

test("a regular file under the root is read; its head or tail when it is over the cap", () => {
  writeFileSync(join(root, "sub", "log.jsonl"), "0123456789");
  expect(readTainted(join(root, "sub", "log.jsonl"), { root, maxBytes: 1024 })).toBe("0123456789");
  expect(reason(join(root, "sub", "log.jsonl"), { root, maxBytes: 4 })).toBe("too_large");
  expect(readTainted(join(root, "sub", "log.jsonl"), { root, maxBytes: 4, over: "head" })).toBe("0123");
  expect(readTainted(join(root, "sub", "log.jsonl"), { root, maxBytes: 4, over: "tail" })).toBe("6789");
});

test(
  "a FIFO answers at once, refused (never a blocking read); a " +
    "symlink is never followed, a symlinked directory never leads out",
  () => {
    const fifo = join(root, "fifo.jsonl");
    expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
    expect(reason(fifo)).toBe("not_regular");
    symlinkSync(join(dir, "secret"), join(root, "link.jsonl"));
    expect(reason(join(root, "link.jsonl"))).toBe("symlink");
    symlinkSync(dir, join(root, "up"));
    expect(reason(join(root, "up", "secret"))).toBe("outside_root");
    expect(reason(join(root, "sub"))).toBe("not_regular");
    expect(reason(join(root, "missing.jsonl"))).toBe("missing");
    expect(reason(join(dir, "secret"))).toBe("outside_root");
  },
);
