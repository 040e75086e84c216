// The line reader against cac, which it replaced on the request path: for every command's usage
// and options, the same lines give the same args and options (cac's numbers as the strings typed,
// its short aliases left out), and the same mistakes the same errors.
import { expect, test } from "bun:test";
import { cac } from "cac";
import { commands } from "../commands/index.ts";
import { builtins } from "./builtins.ts";
import { GLOBAL_OPTIONS, readLine, type LineSpec } from "./parse.ts";

/** How cac read a line (or the error it threw), in the reader's shape. */
function cacReads(
  argv: string[],
  spec: LineSpec,
): { args: string[]; options: Record<string, unknown> } | { error: string } {
  const cli = cac("t4a");
  for (const [flags, description] of GLOBAL_OPTIONS) if (!flags.includes("--help")) cli.option(flags, description);
  const entry = cli.command(spec.usage, "");
  for (const [flags, description] of spec.options ?? []) entry.option(flags, description);
  for (const option of entry.options) if (option.negated) option.config.default = undefined;
  cli.help();
  let read: { args: string[]; options: Record<string, unknown> } | undefined;
  entry.action((...args: unknown[]) => {
    const options = args.pop() as Record<string, unknown>;
    const rest = (options["--"] as string[]) ?? [];
    read = {
      args: [
        ...args
          .flat()
          .filter((arg) => arg !== undefined)
          .map(String),
        ...rest,
      ],
      options: {},
    };
    const short = new Set(
      [...GLOBAL_OPTIONS, ...(spec.options ?? [])].flatMap(([flags]) =>
        /^-([a-z]),/.exec(flags) ? [/^-([a-z]),/.exec(flags)![1]!] : [],
      ),
    );
    for (const [key, value] of Object.entries(options)) {
      if (key === "--" || short.has(key) || value === undefined) continue;
      read.options[key] = Array.isArray(value)
        ? value.map((each) => (typeof each === "number" ? String(each) : each))
        : typeof value === "number"
          ? String(value)
          : value;
    }
  });
  try {
    cli.parse(["t4a", "t4a", ...argv], { run: false });
    cli.runMatchedCommand();
  } catch (error) {
    return { error: (error as Error).message };
  }
  return read ?? { error: "no command matched" };
}

function readerReads(
  argv: string[],
  spec: LineSpec,
): { args: string[]; options: Record<string, unknown> } | { error: string } {
  try {
    return readLine(argv, spec);
  } catch (error) {
    // (Its hint on where a word opening with "-" goes is its own: cac's message is the part before it.)
    return { error: (error as Error).message.replace(/ \(a word opening with - goes after --: .*\)$/, "") };
  }
}

/** Lines for a spec: its arguments filled, each option alone in its spellings, and some mistakes. */
function linesFor(spec: LineSpec): string[][] {
  const [name, ...params] = spec.usage.split(" ");
  const filled = params.flatMap((param, i) => (param.startsWith("[...") ? ["x", "-y", "7"] : [`a${i}`]));
  const required = params.filter((param) => param.startsWith("<")).map((_, i) => `a${i}`);
  const lines: string[][] = [
    [name!, ...filled],
    [name!, ...required],
    [name!],
    [name!, ...required, "--bogus"],
    ["--json", name!, ...required],
  ];
  if (!params.some((param) => param.startsWith("[..."))) lines.push([name!, ...filled, "extra"]);
  lines.push([name!, ...required, "--", "-k", "after"]);
  for (const [flags] of spec.options ?? []) {
    const long = flags.split(",").at(-1)!.trim().split(" ")[0]!;
    const short = /^-([a-z]),/.exec(flags)?.[0].slice(0, 2);
    const takes = flags.includes("<") || flags.includes("[");
    lines.push([name!, ...required, long]);
    if (takes) {
      lines.push(
        [name!, ...required, long, "12"],
        [name!, ...required, `${long}=v=w`],
        [name!, ...required, long, "one", long, "two"],
        [name!, ...required, long, "--json"],
      );
      if (short) lines.push([name!, ...required, short, "s"]);
    } else if (!long.slice(2).includes("-")) {
      // cac reads a hyphenated flag followed by a word (`--inherit-env bash`) as taking it for a
      // value, so the flag is lost and the word too: the reader does not (the test below).
      lines.push([name!, ...required, long, "word"]);
    }
  }
  return lines;
}

test("every command's lines read as cac reads them, errors included", () => {
  const specs: LineSpec[] = [
    ...Object.values(builtins),
    ...commands.flatMap((command) => (command.cli ? [command.cli] : [])),
  ];
  let compared = 0;
  for (const spec of specs) {
    for (const argv of linesFor(spec)) {
      const theirs = cacReads(argv, spec);
      expect({ argv, read: readerReads(argv, spec) }).toEqual({ argv, read: theirs });
      compared++;
    }
  }
  expect(compared).toBeGreaterThan(300);
});

test("values: `--x v`, `--x=v`, repeated into a list; `--no-x` is false; an optional value is true when absent", () => {
  const spec: LineSpec = {
    usage: "demo <id> [...rest]",
    options: [
      ["-n, --name <name>", ""],
      ["--env <kv>", ""],
      ["--no-trim", ""],
      ["--persist", ""],
      ["--no-persist", ""],
      ["--idle [duration]", ""],
      ["--limit-pids <n>", ""],
    ],
  };
  expect(
    readLine(
      ["demo", "t1", "-n", "007", "--env=A=1", "--env", "B=2", "--no-trim", "--idle", "--limit-pids", "5"],
      spec,
    ),
  ).toEqual({
    args: ["t1"],
    options: { name: "007", env: ["A=1", "B=2"], trim: false, idle: true, limitPids: "5" },
  });
  expect(readLine(["demo", "t1", "--no-persist", "x", "--", "--name", "y"], spec)).toEqual({
    args: ["t1", "x", "--name", "y"],
    options: { persist: false },
  });
  expect(readLine(["--socket", "/s", "demo", "t1", "--persist", "--idle", "500ms"], spec).options).toEqual({
    socket: "/s",
    persist: true,
    idle: "500ms",
  });
  // Where cac took `bash` for the flag's value (and created a shell without the flag).
  expect(
    readLine(["demo", "--limit-pids", "3", "--persist", "bash"], {
      ...spec,
      options: [...spec.options!, ["--inherit-env", ""]],
    }),
  ).toEqual({ args: ["bash"], options: { limitPids: "3", persist: true } });
  expect(
    readLine(["demo", "--inherit-env", "bash"], { ...spec, options: [...spec.options!, ["--inherit-env", ""]] }),
  ).toEqual({ args: ["bash"], options: { inheritEnv: true } });
  expect(() => readLine(["demo"], spec)).toThrow("missing required args for command `demo <id> [...rest]`");
  expect(() => readLine(["demo", "t1", "--name"], spec)).toThrow("option `-n, --name <name>` value is missing");
  expect(() => readLine(["demo", "t1", "--nmae", "x"], spec)).toThrow("Unknown option `--nmae`");
  expect(() => readLine(["demo", "t1", "--persist=maybe"], spec)).toThrow("takes no value");
  // A negative number is a word (google-authenticator's "Enter code from app (-1 to skip):", t4a send t1 -1);
  // another word opening with "-" says how to pass it.
  expect(readLine(["demo", "t1", "-1"], spec)).toEqual({ args: ["t1", "-1"], options: {} });
  expect(readLine(["demo", "t1", "-2.5", "--persist"], spec)).toEqual({
    args: ["t1", "-2.5"],
    options: { persist: true },
  });
  expect(() => readLine(["demo", "t1", "-x"], spec)).toThrow(
    "Unknown option `-x` (a word opening with - goes after --: `t4a demo t1 -- -x`)",
  );
});

test("no built-in shares a request command's name (the CLI looks requests up first, built-ins only after)", () => {
  const requests = new Set(commands.map((command) => command.name));
  expect(Object.keys(builtins).filter((name) => requests.has(name))).toEqual([]);
});
