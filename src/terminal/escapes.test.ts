import { expect, test } from "bun:test";
import { unescapeInput } from "./escapes.ts";

test("C escapes are interpreted, unknown ones kept as typed", () => {
  expect(unescapeInput("ls\\n")).toBe("ls\n");
  expect(unescapeInput("\\e[A\\x03\\r\\t")).toBe("\x1b[A\x03\r\t");
  expect(unescapeInput("a\\\\n")).toBe("a\\n");
  expect(unescapeInput("\\u00e9\\u{1F600}")).toBe("é😀");
  expect(unescapeInput("\\q \\x4")).toBe("\\q \\x4");
  expect(unescapeInput("trailing\\")).toBe("trailing\\");
});
