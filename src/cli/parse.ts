// Reading a CLI line against a command's usage and options, shared by the command line (cli.ts)
// and batch lines (batch.ts). It reads what cac reads (the same flag syntax, the same errors) but
// without cac: every shell-loop call pays for the reading, and cac cost ~1.2 ms of a 13 ms call
// (loading it, building its option objects, parsing the line once per registered command).
// cac still renders --help (help.ts), from the same usages and options. Sends nothing.
import type { CliOptions, Reply } from "../commands/command.ts";
import { commandLoaders } from "../commands/lazy.ts";

/** What a line is read against: `name <required> [optional] [...rest]` and `[flags, description]` pairs. */
export interface LineSpec {
  usage: string;
  options?: ReadonlyArray<readonly [flags: string, description: string]>;
}

/** A line read: positional args (variadic ones spread, what follows `--` last) and options by camelCase name. */
export interface Line {
  args: string[];
  options: CliOptions;
}

/** The options every command takes (cli.ts hands the same list to cac for help). */
export const GLOBAL_OPTIONS: ReadonlyArray<readonly [string, string]> = [
  ["--socket <path>", "daemon socket (default: $T4A_SOCKET, $XDG_RUNTIME_DIR/t4a/t4a.sock or /tmp/t4a-$UID/t4a.sock)"],
  ["--json", "print the daemon's JSON reply instead of the short form"],
  ["--host <target>", "a daemon on another machine, over ssh: [ssh://][user@]host[:port] (default: $T4A_HOST)"],
  ["-h, --help", "Display this message"],
  ["-v, --version", "print the version"],
];

interface OptionSpec {
  /** The camelCase key in CliOptions. */
  key: string;
  /** Spellings without dashes: `n`, `name`, `no-trim`. */
  names: string[];
  /** "flag": no value; "required": `<value>`; "optional": `[value]` (true when absent). */
  takes: "flag" | "required" | "optional";
  negated: boolean;
  flags: string;
}

/**
 * One CLI line as the request it stands for, without sending it (batch mode): the same reading,
 * options and checks as the command line. Throws on a usage error.
 */
export async function requestFor(argv: string[]): Promise<Reply> {
  const name = commandName(argv);
  const command = name !== undefined && Object.hasOwn(commandLoaders, name) ? await commandLoaders[name]!() : undefined;
  if (!command?.cli) throw usage(`unknown command "${argv[0] ?? ""}"`);
  const { args, options } = readLine(argv, command.cli);
  return { cmd: name, ...withoutUndefined(await command.cli.request(args, options)) };
}

/**
 * Reads `argv` (the command's name among it) against `spec` and the global options. Throws a
 * usage error as cac words it: an unknown option, an option without its value, a missing or an
 * extra argument.
 */
/** `-1`, `-2.5`: a word, not an option. */
const NEGATIVE_NUMBER = /^-\d+(?:\.\d+)?$/;

export function readLine(argv: string[], spec: LineSpec): Line {
  // Only the options a line names are read from their specs: `--socket` must not cost reading
  // every option the command has (0.3 ms of a call). A command's own option wins over a global one.
  const lookup = (name: string): OptionSpec | undefined => {
    for (const list of [spec.options ?? [], GLOBAL_OPTIONS]) {
      for (const entry of list) {
        if (!entry[0].includes(name)) continue;
        const option = optionSpec(entry);
        if (option.names.indexOf(name) >= 0) return option;
      }
    }
    return undefined;
  };
  const options: CliOptions = {};
  const words: string[] = [];
  let rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest = argv.slice(i + 1);
      break;
    }
    // (A negative number is a word: no option is named by digits, and `t4a send t1 -1` answers "-1 to skip".)
    if (!arg.startsWith("-") || arg === "-" || NEGATIVE_NUMBER.test(arg)) {
      words.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.slice(arg.startsWith("--") ? 2 : 1, equals < 0 ? undefined : equals);
    const inline = equals < 0 ? undefined : arg.slice(equals + 1);
    const option = lookup(name);
    if (!option) {
      // `--no-x` turns off any option x (as cac's parser does), declared negated or not.
      const negated = name.startsWith("no-") ? lookup(name.slice(3)) : undefined;
      if (!negated || inline !== undefined)
        throw usage(
          `Unknown option \`${arg.startsWith("--") ? `--${name}` : `-${name}`}\`` +
            ` (a word opening with - goes after --: \`t4a ${words.join(" ")} -- ${arg}\`)`,
        );
      set(options, negated.key, false);
      continue;
    }
    if (option.negated && option.names.includes(name)) {
      set(options, option.key, false);
      continue;
    }
    if (option.takes === "flag") {
      if (inline !== undefined && inline !== "true" && inline !== "false")
        throw usage(`option \`${option.flags}\` takes no value`);
      set(options, option.key, inline !== "false");
      continue;
    }
    // A value is the rest of `--x=value`, else the next word unless that is another option.
    const next = argv[i + 1];
    const value = inline ?? (next !== undefined && !next.startsWith("-") ? (i++, next) : undefined);
    if (value === undefined && option.takes === "required") throw usage(`option \`${option.flags}\` value is missing`);
    set(options, option.key, value ?? true);
  }
  if (words.length) words.shift(); // the command's own name
  // Plain loops on this path: in a fresh process each array method's first call costs tens of µs.
  const params = spec.usage.split(" "); // [name, ...params]
  let required = 0;
  let variadic = false;
  for (let i = 1; i < params.length; i++) {
    if (params[i]!.startsWith("<")) required++;
    else if (params[i]!.startsWith("[...")) variadic = true;
  }
  if (words.length < required) throw usage(`missing required args for command \`${spec.usage}\``);
  if (!variadic && words.length > params.length - 1)
    throw usage(
      `Unused args: ${words
        .slice(params.length - 1)
        .map((word) => `\`${word}\``)
        .join(", ")}`,
    );
  for (const word of rest) words.push(word);
  return { args: words, options };
}

/** `-n, --name <name>` as the reader uses it. */
function optionSpec([flags]: readonly [string, string]): OptionSpec {
  const names: string[] = [];
  let takes: OptionSpec["takes"] = "flag";
  for (const word of flags.split(" ")) {
    if (word.startsWith("<") || word.startsWith("[")) {
      takes = word.startsWith("<") ? "required" : "optional";
      break;
    }
    const name = word.endsWith(",") ? word.slice(0, -1) : word;
    if (name) names.push(name.slice(name.startsWith("--") ? 2 : 1));
  }
  const long = names[names.length - 1]!;
  const negated = long.startsWith("no-");
  return { key: camelCase(negated ? long.slice(3) : long), names, takes, negated, flags };
}

/** A repeated option becomes a list, as with cac. */
function set(options: CliOptions, key: string, value: unknown): void {
  const old = options[key];
  options[key] = old === undefined ? value : Array.isArray(old) ? [...old, value] : [old, value];
}

/** `scrollback-bytes` → `scrollbackBytes`, as cac names it (a dash between two letters). */
function camelCase(name: string): string {
  // No regex: compiling one cost a measurable part of a call that passes any option.
  let out = "";
  let matchedUpTo = -1; // as with a global regex, a letter joins at most one match
  for (let i = 0; i < name.length; i++) {
    const char = name[i]!;
    if (char === "-" && i - 1 > matchedUpTo && isLower(name[i - 1] ?? "") && isLower(name[i + 1] ?? "")) {
      out += name[++i]!.toUpperCase();
      matchedUpTo = i;
    } else out += char;
  }
  return out;
}

function isLower(char: string): boolean {
  return char >= "a" && char <= "z";
}

/**
 * The subcommand a line names, before it is read: the first argument that is neither an option
 * nor --socket's or --host's value.
 */
export function commandName(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length && argv[i] !== "--"; i++) {
    const arg = argv[i]!;
    if (arg === "--socket" || arg === "--host") i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

/** Whether the line asks for help (`-h`, `--help`), before any `--`. */
export function asksForHelp(argv: string[]): boolean {
  for (const arg of argv) {
    if (arg === "--") return false;
    if (arg === "-h" || arg === "--help") return true;
  }
  return false;
}

export function withoutUndefined(fields: Reply): Reply {
  const out: Reply = {};
  for (const key in fields) if (fields[key] !== undefined) out[key] = fields[key];
  return out;
}

export function usage(message: string): Error & { usage: true } {
  return Object.assign(new Error(message), { usage: true as const });
}
