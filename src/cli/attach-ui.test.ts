import { expect, test } from "bun:test";
import { allowedFrom, OutputFilter } from "./attach-ui.ts";

const ESC = "\x1b";
const run = (input: string, filter = new OutputFilter(), splitEvery = 0) => {
  const bytes = new TextEncoder().encode(input);
  const parts: Uint8Array[] = [];
  if (splitEvery === 0) parts.push(filter.push(bytes));
  else
    for (let at = 0; at < bytes.length; at += splitEvery) parts.push(filter.push(bytes.subarray(at, at + splitEvery)));
  return new TextDecoder().decode(Uint8Array.from(parts.flatMap((part) => [...part])));
};

test("clipboard writes, titles and DCS/APC/PM/SOS strings never reach the user's terminal; the rest does", () => {
  const attack = [
    `${ESC}]52;c;ZWNobyBwd25lZA==\x07`, // OSC 52, BEL
    `${ESC}]52;c;ZWNobyBwd25lZA==${ESC}\\`, // OSC 52, ST
    "\u009d52;c;eA==\u009c", // C1 forms in UTF-8
    `${ESC}]0;t0\x07${ESC}]1;t1\x07${ESC}]2;pwned-title${ESC}\\`,
    `${ESC}P+q544e${ESC}\\`, // XTGETTCAP
    `${ESC}P$qm${ESC}\\`, // DECRQSS
    "\u0090+q636f\u009c",
    `${ESC}_Gf=100;AAAA${ESC}\\`, // APC (kitty graphics)
    `${ESC}^pm${ESC}\\${ESC}Xsos${ESC}\\`,
  ].join("");
  const link = `${ESC}]8;;https://example.com${ESC}\\link${ESC}]8;;${ESC}\\`;
  const cwd = `${ESC}]7;file:///tmp${ESC}\\`;
  const kept = `plain \x1b[31mred\x1b[0m é ${link} ${cwd}\r\n`;
  for (const split of [0, 1, 2, 3, 7]) {
    const out = run(attack + kept, new OutputFilter(), split);
    expect(out).toBe(kept);
  }
});

test("asked for (T4A_ATTACH_ALLOW=title,clipboard), titles and clipboard writes pass; DCS never does", () => {
  const filter = new OutputFilter(allowedFrom({ T4A_ATTACH_ALLOW: "title,clipboard" }));
  expect(run(`${ESC}]2;hi\x07${ESC}]52;c;eA==\x07${ESC}P+q544e${ESC}\\x`, filter)).toBe(
    `${ESC}]2;hi${ESC}\\${ESC}]52;c;eA==${ESC}\\x`,
  );
  expect(allowedFrom({})).toEqual({ title: false, clipboard: false });
});

test("an unterminated string ends at CAN, SUB or another escape sequence, as a terminal's parser ends it", () => {
  expect(run(`${ESC}]52;c;eA==\x18after`)).toBe("after");
  expect(run(`${ESC}P+q544e${ESC}[1mbold`)).toBe(`${ESC}[1mbold`);
  expect(run(`a${ESC}${ESC}[Kb`)).toBe(`a${ESC}${ESC}[Kb`);
});
