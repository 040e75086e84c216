import { expect, test } from "bun:test";
import { codepointWidth } from "./unicode-width.ts";

test("ASCII is one cell, CJK and emoji two, combining marks zero", () => {
  expect(codepointWidth(0x41)).toBe(1);
  expect(codepointWidth(0x4e2d)).toBe(2); // 中
  expect(codepointWidth(0x1f600)).toBe(2); // 😀 (Unicode 6 tables say 1)
  expect(codepointWidth(0x301)).toBe(0); // combining acute
  expect(codepointWidth(0x2502)).toBe(1); // │
  expect(codepointWidth(0x07)).toBe(0);
});

test("item 12: widths are libc's wcwidth (C.UTF-8) for every assigned code point it knows", () => {
  // The oracle is another process: python3's ctypes asks the same libc, in a UTF-8 locale.
  const oracle = Bun.spawnSync([
    "python3",
    "-c",
    'import ctypes, locale, sys\nlocale.setlocale(locale.LC_CTYPE, "C.UTF-8")\nw = ctypes.CDLL("libc.so.6").wcwidth\n' +
      "sys.stdout.buffer.write(bytes((w(c) & 0xff) for c in range(0x110000)))",
  ]);
  expect(oracle.exitCode).toBe(0);
  const libc = new Uint8Array(oracle.stdout);
  expect(libc.length).toBe(0x110000);
  const assigned = /\P{Cn}/u;
  const differ: string[] = [];
  let asked = 0;
  for (let cp = 0xa0; cp < 0x110000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue; // surrogates: never a code point in UTF-8
    if (libc[cp] === 0xff || !assigned.test(String.fromCodePoint(cp))) continue; // libc has no width: our table decides
    asked++;
    if (codepointWidth(cp) !== libc[cp])
      differ.push(`U+${cp.toString(16).toUpperCase()} t4a ${codepointWidth(cp)} libc ${libc[cp]}`);
  }
  expect(asked).toBeGreaterThan(100_000);
  // No listed exceptions: where libc answers, t4a counts exactly as the programs do.
  expect(differ).toEqual([]);
  // The cases that were wrong with Bun.stringWidth alone.
  expect(codepointWidth(0x20e3)).toBe(0); // combining enclosing keycap
  expect(codepointWidth(0x093f)).toBe(1); // Devanagari vowel sign I (spacing mark)
  expect(codepointWidth(0x00ad)).toBe(1); // soft hyphen
  expect(codepointWidth(0x0600)).toBe(1); // Arabic number sign
});
