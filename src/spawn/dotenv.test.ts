import { expect, test } from "bun:test";
import { parseDotenv } from "./dotenv.ts";

test("dotenv: export, comments, quotes and escapes; no $ expansion", () => {
  const text =
    '# a comment\n\nexport A=1\nB = two words # trailing\nC=\'$HOME literal\'\nD="line\\nnext \\"q\\""\nE=\n';
  expect(parseDotenv(text, ".env")).toEqual({ A: "1", B: "two words", C: "$HOME literal", D: 'line\nnext "q"', E: "" });
  expect(() => parseDotenv("not a pair\n", ".env")).toThrow('.env:1: expected KEY=VALUE, got "not a pair"');
  expect(() => parseDotenv("A='open\n", ".env")).toThrow(".env:1: unterminated ' quote");
});
