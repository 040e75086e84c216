import { expect, test } from "bun:test";
import { AnsweredQueryFilter } from "./answered-queries.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const whole = (text: string) => {
  const filter = new AnsweredQueryFilter();
  return decode(filter.filter(encode(text))) + decode(filter.flush());
};

test("the queries xterm.js answers are taken out; others, and everything else, pass as they came", () => {
  const answered = [
    "\x1b[c",
    "\x1b[0c",
    "\x1b[>c",
    "\x1b[>0c",
    "\x1b[5n",
    "\x1b[6n",
    "\x1b[?6n",
    "\x1b[?12$p",
    "\x1b[4$p",
    '\x1bP$q"p\x1b\\',
    "\x1bP$qm\x1b\\",
  ];
  for (const query of answered) expect(whole(`a${query}b`)).toBe("ab");
  const kept = [
    "\x1b[1c",
    "\x1b[=c",
    "\x1b[?15n",
    "\x1b[18t",
    "\x1b[1;32m",
    "\x1b]11;?\x07",
    "\x1b]0;t\x1b\\",
    "\x1bP1$r0m\x1b\\",
    "\x1bPq#0;2;0;0;0\x1b\\",
    "\x1b7",
    "\x1b(B",
    "\x1b[?u",
    "\x1b[>q",
  ];
  for (const sequence of kept) expect(whole(`a${sequence}b`)).toBe(`a${sequence}b`);
});

test("output with no escape is the very chunk; a string passes unread up to its end", () => {
  const chunk = encode("plain text\r\n");
  expect(new AnsweredQueryFilter().filter(chunk)).toBe(chunk);
  expect(whole("\x1b]2;\x1b[c title\x07")).toBe("\x1b]2; title\x07"); // ESC ends the OSC for xterm.js too
  expect(whole("\x1b]2;[c 5n\x07\x1b[6n")).toBe("\x1b]2;[c 5n\x07");
  expect(whole("\x1b_\x1b[c\x1b\\x")).toBe("\x1b_\x1b\\x");
  expect(whole("\x1b\x1b[c")).toBe("\x1b");
  expect(whole("\x1b[12\x1b[c")).toBe("\x1b[12"); // a CSI cut short by ESC, then DA1
  expect(whole('\x1bP$q"p\x1b[cX')).toBe('\x1bP$q"pX'); // DECRQSS cut short, then DA1
  expect(whole(`\x1b[${"1;".repeat(40)}c`)).toBe(`\x1b[${"1;".repeat(40)}c`); // too long to hold: as it came
});

test("split anywhere, byte by byte included, the output is the same; a sequence cut at the end is flushed", () => {
  const text =
    "ls\r\n\x1b[1;31mred\x1b[0m\x1b[c\x1b]0;t\x07\x1b[>0c mid \x1bP$qr\x1b\\\x1b[?12$p\x1b]11;?\x1b\\end\x1b[6n\x1b[";
  const expected = "ls\r\n\x1b[1;31mred\x1b[0m\x1b]0;t\x07 mid \x1b]11;?\x1b\\end\x1b[";
  expect(whole(text)).toBe(expected);
  const bytes = encode(text);
  for (let cut = 0; cut <= bytes.length; cut++) {
    const filter = new AnsweredQueryFilter();
    const parts = [filter.filter(bytes.subarray(0, cut)), filter.filter(bytes.subarray(cut)), filter.flush()];
    expect(parts.map(decode).join("")).toBe(expected);
  }
  const filter = new AnsweredQueryFilter();
  let out = "";
  for (const byte of bytes) out += decode(filter.filter(Uint8Array.of(byte)));
  expect(out + decode(filter.flush())).toBe(expected);
});
