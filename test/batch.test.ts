// `t4a batch`: CLI lines and wire requests on stdin, one reply line each, in order, over one
// connection; bad lines answered, not fatal.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { splitWords } from "../src/cli/batch.ts";
import { Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

test("CLI lines and JSON requests, one reply line each, in order; a bad line gets its error", async () => {
  const id = await sandbox.ok(["create", "--", "bash", "--norc", "--noprofile"]);
  await waitFor(async () => /[$#] ?$/.test(await sandbox.ok(["text", id, "--tail", "1"])), 5000, "the prompt");
  const input = [
    `send ${id} 'echo from batch $((1+2))\\n'`,
    `wait ${id} --regex '^from batch 3$' --timeout 2s`,
    // Untagged, so it runs after the lines before it (a tagged one would run at once).
    `{"cmd":"text","id":"${id}","tail":2}`,
    "frobnicate now",
    `screenshot ${id} --scale 10`,
    "# a comment, skipped",
    `cursor ${id}`,
  ].join("\n");
  const out = await sandbox.run(["batch"], `${input}\n`);
  const replies = out.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(replies).toHaveLength(6);
  expect(replies[0]).toEqual({ ok: true });
  // The wait may start after the line came (pipelined): it then times out, which is an answer too.
  expect(replies[1].ok === true ? replies[1].condition : replies[1].code).toMatch(/^(regex|timeout)$/);
  expect(replies[2]).toMatchObject({ ok: true });
  expect(replies[2].lines).toContain("from batch 3");
  expect(replies[3]).toMatchObject({ ok: false, code: "bad_request", error: 'unknown command "frobnicate"' });
  expect(replies[4]).toMatchObject({ ok: true, png: expect.any(String) });
  expect(replies[5]).toMatchObject({ ok: true, visible: true });
  expect(out.code).toBe(1); // one line failed
  await sandbox.ok(["kill", id]);
}, 30_000);

test("splitWords reads lines the way a shell would", () => {
  expect(splitWords(`send t1 "a \\"b\\" c" 'd e' f\\ g ""`)).toEqual(["send", "t1", 'a "b" c', "d e", "f g", ""]);
  expect(() => splitWords(`send "open`)).toThrow("unterminated");
});

test("an interactive client (a coproc) gets each reply while its stdin stays open", async () => {
  const id = await sandbox.ok(["create", "--", "sleep", "100"]);
  const batch = Bun.spawn([`${import.meta.dir}/../dist/t4a`, "batch"], {
    env: sandbox.env,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
  });
  const reader = batch.stdout.getReader();
  let out = "";
  const nextLine = async () => {
    while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
    const [line, ...rest] = out.split("\n");
    out = rest.join("\n");
    return JSON.parse(line!);
  };
  // One line, one answer, and only then the next line: as `coproc t4a batch` is used.
  for (const [line, expected] of [
    [`send ${id} ''`, { ok: true }],
    ["list", { ok: true }],
    [`info`, { ok: true }],
  ] as const) {
    batch.stdin.write(`${line}\n`);
    batch.stdin.flush();
    expect(await waitFor(nextLine, 10_000, `the reply to ${line}`)).toMatchObject(expected);
  }
  batch.stdin.end();
  expect(await batch.exited).toBe(0);
  await sandbox.ok(["kill", id]);
}, 30_000);
