// --help, and the list shown for a bare `t4a` or an unknown command: cac renders it from the same
// usages, options and examples the line reader (parse.ts) reads. Loaded only when help is asked.
import { cac } from "cac";
import type { Command } from "../commands/command.ts";
import type { Builtin } from "./builtins.ts";
import { DETAILS } from "./details.ts";
import { GLOBAL_OPTIONS, type LineSpec } from "./parse.ts";

/** The commands listed first, in this order. */
const EVERYDAY = [
  "create",
  "list",
  "send",
  "text",
  "wait",
  "run",
  "exec",
  "ask",
  "approve",
  "deny",
  "attach",
  "web",
  "screenshot",
  "kill",
];

/** The table's commands as help lists them: the everyday ones first, the rest in table order. */
export function helpOrder(commands: Command[]): Command[] {
  const everyday = EVERYDAY.flatMap((wanted) => commands.filter((command) => command.name === wanted));
  return [...everyday, ...commands.filter((command) => !everyday.includes(command))];
}

/** Prints the help for `name` (one command), or for every command when `name` is undefined. */
export function printHelp(builtins: Record<string, Builtin>, commands: Command[], name?: string): void {
  const cli = cac("t4a");
  const [help, versionFlag] = [
    GLOBAL_OPTIONS.find(([flags]) => flags.endsWith("--help"))!,
    GLOBAL_OPTIONS.find(([flags]) => flags.endsWith("--version"))!,
  ];
  for (const option of GLOBAL_OPTIONS) if (option !== help && option !== versionFlag) cli.option(...option);
  const add = (spec: LineSpec & { summary: string; examples?: string[] }) => {
    const entry = cli.command(spec.usage, spec.summary);
    for (const [flags, description] of spec.options ?? []) entry.option(flags, description);
    // cac gives `--no-x` flags a default of true and prints "(default: true)" beside "--no-x",
    // which reads as the opposite of what it does; the command files treat absent as "not given".
    for (const option of entry.options) if (option.negated) option.config.default = undefined;
    for (const example of spec.examples ?? []) entry.example(example);
  };
  // What people use every day first, the rest of the table after it, plumbing (daemon, mcp,
  // batch, dial-stdio…) last.
  for (const command of helpOrder(commands)) if (command.cli) add(command.cli);
  for (const builtin of Object.values(builtins)) add(builtin);
  // One command's help says what it does (cac shows only its usage): the summary, then the
  // details docs/cli.md shows too (details.ts).
  const one = name === undefined ? undefined : [...commands.map((command) => command.cli), ...Object.values(builtins)];
  const spec = one?.find((candidate) => candidate && candidate.usage.split(" ")[0] === name);
  cli.help((sections) => {
    const shown = sections.map((section) =>
      // cac ends the list with one "t4a X --help" line per command: one line says it.
      section.title?.startsWith("For more info")
        ? { body: "Run `t4a help <command>` (or `t4a <command> --help`) for a command's options and examples." }
        : { ...section, body: section.body.replace("Display this message", "print this help") },
    );
    if (!spec) return shown;
    const about = [spec.summary, DETAILS[name!]].filter(Boolean).map((text) => wrap(text!, 100));
    const usage = shown.findIndex((section) => section.title === "Usage");
    shown.splice(usage + 1, 0, { body: about.join("\n\n") });
    return shown;
  });
  cli.option(...versionFlag);
  cli.parse(["t4a", "t4a", ...(name ? [name] : [])], { run: false });
  cli.outputHelp();
}

/** Text broken at spaces into lines of at most `width` characters (a word longer stays whole). */
export function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join("\n");
}
