// --help, and the list shown for a bare `t4a` or an unknown command: cac renders it from the same
// usages, options and examples the line reader (parse.ts) reads. Loaded only when help is asked.
import { cac } from "cac";
import type { Command } from "../commands/command.ts";
import type { Builtin } from "./builtins.ts";
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
  const everyday = EVERYDAY.flatMap((wanted) => commands.filter((command) => command.name === wanted));
  for (const command of [...everyday, ...commands.filter((command) => !everyday.includes(command))])
    if (command.cli) add(command.cli);
  for (const builtin of Object.values(builtins)) add(builtin);
  cli.help((sections) =>
    // cac ends the list with one "t4a X --help" line per command: one line says it.
    sections.map((section) =>
      section.title?.startsWith("For more info")
        ? { body: "Run `t4a <command> --help` for a command's options and examples." }
        : { ...section, body: section.body.replace("Display this message", "print this help") },
    ),
  );
  cli.option(...versionFlag);
  cli.parse(["t4a", "t4a", ...(name ? [name] : [])], { run: false });
  cli.outputHelp();
}
