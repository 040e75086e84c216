import { afterAll, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { directoryUnder, readUnder, writeNewUnder } from "./tainted-files.ts";

const dir = mkdtempSync(join(tmpdir(), "t4a-tainted-"));
const root = join(dir, "root");
const outside = join(dir, "outside");
mkdirSync(join(root, "sub"), { recursive: true });
mkdirSync(outside);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test(
  "reads a regular file; refuses a symlink (at the end or on the way), " +
    "a FIFO without blocking, a file past the cap, a path leaving the root",
  () => {
    writeFileSync(join(root, "sub", "ok"), "hello");
    writeFileSync(join(outside, "secret"), "secret");
    symlinkSync(join(outside, "secret"), join(root, "link"));
    symlinkSync(outside, join(root, "dirlink"));
    expect(Bun.spawnSync(["mkfifo", join(root, "fifo")]).exitCode).toBe(0);
    const read = readUnder(root, "sub/ok", 100);
    expect("bytes" in read && read.bytes.toString()).toBe("hello");
    expect(readUnder(root, "link", 100)).toEqual({ skipped: "not a regular file" });
    expect(readUnder(root, "dirlink/secret", 100)).toEqual({ skipped: "outside its root" });
    expect(readUnder(root, "fifo", 100)).toEqual({ skipped: "not a regular file" });
    expect(readUnder(root, "sub/ok", 4)).toEqual({ skipped: "too big" });
    expect(readUnder(root, "../outside/secret", 100)).toEqual({ skipped: "outside its root" });
    expect(readUnder(root, "missing", 100)).toEqual({ skipped: "missing" });
  },
);

test("writes a new file with its mode; never through a symlinked directory, a dangling link or a file", () => {
  expect(writeNewUnder(root, "new/deep/file", Buffer.from("x"), 0o640)).toBe(true);
  expect(readFileSync(join(root, "new", "deep", "file"), "utf8")).toBe("x");
  expect(statSync(join(root, "new", "deep", "file")).mode & 0o777).toBe(0o640);
  expect(writeNewUnder(root, "dirlink/planted", Buffer.from("x"), 0o755)).toBe(false);
  expect(existsSync(join(outside, "planted"))).toBe(false);
  symlinkSync(join(outside, "dangling"), join(root, "dangling"));
  expect(writeNewUnder(root, "dangling", Buffer.from("x"), 0o644)).toBe(false);
  expect(existsSync(join(outside, "dangling"))).toBe(false);
  expect(writeNewUnder(root, "new/deep/file", Buffer.from("y"), 0o644)).toBe(false);
  expect(directoryUnder(root, "dirlink/x")).toBeUndefined();
  expect(directoryUnder(root, "sub")).toBe(join(root, "sub"));
});
