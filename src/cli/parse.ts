// A CLI line as cac reads it, shared by the command line (cli.ts) and batch lines (batch.ts):
// registering a command's flags, finding the subcommand, positional args, and the request a line
// stands for. Sends nothing.
import { cac } from "cac";
import type { CliOptions, CliSpec, Reply } from "../commands/command.ts";
import { commandLoaders } from "../commands/lazy.ts";

/**
 * One CLI line as the request it stands for, without sending it (batch mode): the same parsing,
 * options and checks as the command line. Throws on a usage error.
 */
export async function requestFor(argv: string[]): Promise<Reply> {
  const name = requestedCommand(argv);
  const command = name !== undefined && Object.hasOwn(commandLoaders, name) ? await commandLoaders[name]!() : undefined;
  if (!command?.cli) throw usage(`unknown command "${argv[0] ?? ""}"`);
  const spec = command.cli!;
  const cli = cac("t4a");
  const entry = register(cli, spec);
  let built: Promise<Reply> | undefined;
  entry.action((...args: unknown[]) => {
    const options = args.pop() as CliOptions;
    built = Promise.resolve(spec.request(positional(args, options), options));
  });
  cli.parse(["t4a", "t4a", ...argv], { run: false });
  if (!cli.matchedCommand) throw usage(`cannot read "${argv.join(" ")}"`);
  await cli.runMatchedCommand();
  return { cmd: name, ...withoutUndefined(await built!) };
}

/** A command and its options in cac, as both the command line and batch lines read them. */
export function register(cli: ReturnType<typeof cac>, spec: CliSpec) {
  const entry = cli.command(spec.usage, spec.summary);
  for (const [flags, description] of spec.options ?? []) entry.option(flags, description);
  // cac gives `--no-x` flags a default of true and prints "(default: true)" beside "--no-x",
  // which reads as the opposite of what it does; the command files treat absent as "not given".
  for (const option of entry.options) if (option.negated) option.config.default = undefined;
  return entry;
}

/** The subcommand name: the first argument that is neither an option nor --socket's value. */
export function requestedCommand(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--socket" || argv[i] === "--host") i++;
    else if (!argv[i]!.startsWith("-")) return argv[i];
  }
  return undefined;
}

/** cac hands positional args (variadic ones as arrays) and puts what follows `--` in options. */
export function positional(args: unknown[], options: CliOptions): string[] {
  const flat = args.flat().filter((arg) => arg !== undefined).map(String);
  const afterDashes = (options["--"] as string[] | undefined) ?? [];
  return [...flat, ...afterDashes];
}

export function withoutUndefined(fields: Reply): Reply {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export function usage(message: string): Error & { usage: true } {
  return Object.assign(new Error(message), { usage: true as const });
}
