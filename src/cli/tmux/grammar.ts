// tmux's command-line grammar: global flags, commands split at `;`, each command's flags read
// getopt-style against tmux 3.3a's own templates, names and unique prefixes resolved as tmux does.
// Also the table of what t4a does with each command and flag (docs/tmux.md is checked against it).
// Sends nothing.

/** A refusal worded as tmux words it; the front end prints it and exits 1. */
export class TmuxError extends Error {}

/**
 * One command t4a answers. `template` is tmux's getopt string (a letter followed by `:` takes a
 * value); `ignored` flags are read and have no effect in t4a (said in docs/tmux.md), `refused`
 * ones fail with a line saying t4a does not implement them. Any other flag is tmux's own
 * "unknown flag".
 */
export interface CommandSpec {
  name: string;
  alias?: string;
  template: string;
  /** Positional arguments: fewest and most (-1: any number). */
  args: [min: number, max: number];
  usage: string;
  ignored?: string;
  refused?: string;
  /** What t4a does, for the docs' table. */
  note: string;
}

export const COMMANDS: CommandSpec[] = [
  {
    name: "new-session",
    alias: "new",
    template: "Ac:dDe:EF:f:n:Ps:t:x:Xy:",
    args: [0, -1],
    usage:
      "[-AdDEPX] [-c start-directory] [-e environment] [-F format] [-f flags] [-n window-name] " +
      "[-s session-name] [-t target-session] [-x width] [-y height] [shell-command]",
    ignored: "DEfX",
    refused: "t",
    note:
      "a t4a session named by -s (else its number); a command of one word " +
      "runs under `$SHELL -c`, of several words as argv; without -d, attaches",
  },
  {
    name: "has-session",
    alias: "has",
    template: "t:",
    args: [0, 0],
    usage: "[-t target-session]",
    note: "exit 0 when the session exists (a session whose program ended is gone unless remain-on-exit)",
  },
  {
    name: "kill-session",
    template: "aCt:",
    args: [0, 0],
    usage: "[-aC] [-t target-session]",
    ignored: "C",
    note: "t4a kill of each of its windows; -a: every other session",
  },
  {
    name: "kill-server",
    template: "",
    args: [0, 0],
    usage: "",
    note:
      "ends the sessions made through tmux; the daemon shuts down too unless sessions made outside " +
      "tmux (t4a create, the page, MCP) live on its socket, which it keeps and names on stderr",
  },
  {
    name: "start-server",
    alias: "start",
    template: "",
    args: [0, 0],
    usage: "",
    note: "starts the t4a daemon of that socket",
  },
  {
    name: "list-sessions",
    alias: "ls",
    template: "F:f:",
    args: [0, 0],
    usage: "[-F format] [-f filter]",
    note: "every t4a session of the socket (made by tmux or not)",
  },
  {
    name: "list-windows",
    alias: "lsw",
    template: "F:f:at:",
    args: [0, 0],
    usage: "[-a] [-F format] [-f filter] [-t target-session]",
    note: "the session's windows, each a t4a session",
  },
  {
    name: "list-panes",
    alias: "lsp",
    template: "asF:f:t:",
    args: [0, 0],
    usage: "[-as] [-F format] [-f filter] [-t target-window]",
    note: "the window's panes (each a t4a session) in tmux's order; -s: the session's, -a: all",
  },
  {
    name: "new-window",
    alias: "neww",
    template: "abc:de:F:kn:PSt:",
    args: [0, -1],
    usage:
      "[-abdkPS] [-c start-directory] [-e environment] [-F format] [-n window-name] [-t target-window] [shell-command]",
    refused: "abS",
    note:
      "another t4a session in the target's tmux session (named SESSION.INDEX), " +
      "at the next free index or -t's (-k: replacing it); current unless -d",
  },
  {
    name: "move-window",
    alias: "movew",
    template: "abdkrs:t:",
    args: [0, 0],
    usage: "[-abdkr] [-s src-window] [-t dst-window]",
    refused: "ab",
    note:
      "the window (its t4a session) to another index or tmux session (`-t s:` the " +
      "next free index); -k replaces, -r renumbers, -d keeps the current window",
  },
  {
    name: "select-layout",
    alias: "selectl",
    template: "Enopt:",
    args: [0, 1],
    usage: "[-Enop] [-t target-pane] [layout-name]",
    ignored: "Enop",
    note:
      "the five named layouts (a unique prefix) as tmux 3.3a lays " +
      "them out, or a layout string; each pane resized to its cell",
  },
  {
    name: "send-keys",
    alias: "send",
    template: "FHKlMN:Rt:X",
    args: [0, -1],
    usage: "[-FHKlMRX] [-N repeat-count] [-t target-pane] key ...",
    ignored: "FKR",
    refused: "M",
    note:
      "t4a send: key names and C-/M-/S- as tmux, other words as text; " +
      "-l text, -H hex bytes; -X cancel only (t4a has no copy mode)",
  },
  {
    name: "capture-pane",
    alias: "capturep",
    template: "ab:CeE:JNpPqS:t:",
    args: [0, 0],
    usage: "[-aCeJNpPq] [-b buffer-name] [-E end-line] [-S start-line] [-t target-pane]",
    ignored: "q",
    refused: "aCP",
    note:
      "t4a text with tmux's trimming, -J joining and -e SGR codes; -S/-E line " +
      "numbers as tmux counts them (- = the start/end); without -p into a buffer",
  },
  {
    name: "display-message",
    alias: "display",
    template: "aCc:d:lINpt:F:v",
    args: [0, 1],
    usage: "[-aIlNpv] [-c target-client] [-d delay] [-F format] [-t target-pane] [message]",
    ignored: "cdNv",
    refused: "aCI",
    note:
      "the message expanded as a format and printed (t4a has no " +
      "status line: printed with or without -p); -l: literally",
  },
  {
    name: "set-option",
    alias: "set",
    template: "aFgopqst:uUw",
    args: [1, 2],
    usage: "[-aFgopqsuUw] [-t target-pane] option [value]",
    note:
      "history-limit -g: t4a's scrollback for new sessions; remain-on-exit honoured; @user " +
      "options kept per session or globally; the other tmux options kept and shown, no effect",
  },
  {
    name: "set-window-option",
    alias: "setw",
    template: "aFgoqt:u",
    args: [1, 2],
    usage: "[-aFgoqu] [-t target-window] option [value]",
    note: "as set-option -w",
  },
  {
    name: "show-options",
    alias: "show",
    template: "AgHpqst:vw",
    args: [0, 1],
    usage: "[-AgHpqsvw] [-t target-pane] [option]",
    ignored: "AH",
    note: "the options set, and tmux's defaults for the common ones",
  },
  {
    name: "show-window-options",
    alias: "showw",
    template: "gvt:",
    args: [0, 1],
    usage: "[-gv] [-t target-window] [option]",
    note: "as show-options -w",
  },
  {
    name: "set-environment",
    alias: "setenv",
    template: "Fhgrt:u",
    args: [1, 2],
    usage: "[-Fhgru] [-t target-session] name [value]",
    ignored: "h",
    note:
      "-g: given to every session made afterwards; a session's own is kept and " +
      "shown (in tmux it reaches that session's new panes, which t4a does not make)",
  },
  {
    name: "show-environment",
    alias: "showenv",
    template: "hgst:",
    args: [0, 1],
    usage: "[-hgs] [-t target-session] [name]",
    ignored: "h",
    refused: "s",
    note: "what set-environment kept",
  },
  {
    name: "wait-for",
    alias: "wait",
    template: "LSU",
    args: [1, 1],
    usage: "[-L | -S | -U] channel",
    note: "channels in the daemon: a signal nobody waits for is kept for the next wait, as in tmux",
  },
  {
    name: "clear-history",
    alias: "clearhist",
    template: "Ht:",
    args: [0, 0],
    usage: "[-H] [-t target-pane]",
    ignored: "H",
    note: "the session's scrollback dropped",
  },
  {
    name: "resize-window",
    alias: "resizew",
    template: "aADLRt:Ux:y:",
    args: [0, 1],
    usage: "[-aADLRU] [-x width] [-y height] [-t target-window] [adjustment]",
    ignored: "aA",
    note: "t4a resize; -U/-D/-L/-R by the adjustment (default 1)",
  },
  {
    name: "resize-pane",
    alias: "resizep",
    template: "DLMRTt:Ux:y:Z",
    args: [0, 1],
    usage: "[-DLMRTUZ] [-x width] [-y height] [-t target-pane] [adjustment]",
    ignored: "Z",
    refused: "MT",
    note:
      "in a window of several panes, the layout changes as tmux's (the neighbours " +
      "give or take); a window's only pane: t4a resize; -x/-y may be a percentage",
  },
  {
    name: "set-buffer",
    alias: "setb",
    template: "ab:t:n:w",
    args: [0, 1],
    usage: "[-aw] [-b buffer-name] [-n new-buffer-name] [-t target-client] data",
    ignored: "tw",
    note: "buffers live in the daemon (50 automatic ones kept, as buffer-limit)",
  },
  {
    name: "load-buffer",
    alias: "loadb",
    template: "b:t:w",
    args: [1, 1],
    usage: "[-w] [-b buffer-name] [-t target-client] path",
    ignored: "tw",
    note: "a file, or - for standard input, into a buffer",
  },
  {
    name: "show-buffer",
    alias: "showb",
    template: "b:",
    args: [0, 0],
    usage: "[-b buffer-name]",
    note: "prints a buffer",
  },
  {
    name: "save-buffer",
    alias: "saveb",
    template: "ab:",
    args: [1, 1],
    usage: "[-a] [-b buffer-name] path",
    note: "a buffer to a file, or - for standard output",
  },
  {
    name: "delete-buffer",
    alias: "deleteb",
    template: "b:",
    args: [0, 0],
    usage: "[-b buffer-name]",
    note: "forgets a buffer",
  },
  {
    name: "list-buffers",
    alias: "lsb",
    template: "F:f:",
    args: [0, 0],
    usage: "[-F format] [-f filter]",
    note: "buffer_name, buffer_size, buffer_sample",
  },
  {
    name: "paste-buffer",
    alias: "pasteb",
    template: "db:prs:t:",
    args: [0, 0],
    usage: "[-dpr] [-s separator] [-b buffer-name] [-t target-pane]",
    note: "t4a send of the buffer (newlines as CR unless -r; -p: bracketed when the program asked); -d deletes it",
  },
  {
    name: "pipe-pane",
    alias: "pipep",
    template: "IOot:",
    args: [0, 1],
    usage: "[-IOo] [-t target-pane] [shell-command]",
    refused: "I",
    note: "a detached helper attaches read-only and writes the output to `sh -c COMMAND`; no command stops it",
  },
  {
    name: "attach-session",
    alias: "attach",
    template: "c:dEf:rt:x",
    args: [0, 0],
    usage: "[-dErx] [-c working-directory] [-f flags] [-t target-session]",
    ignored: "cdEfx",
    note: "t4a attach in this terminal (detach: C-\\, not the C-b d of tmux); -r read-only",
  },
  {
    name: "kill-pane",
    alias: "killp",
    template: "at:",
    args: [0, 0],
    usage: "[-a] [-t target-pane]",
    note: "the pane's t4a session killed, its cell given to a neighbour as tmux does; -a: the window's other panes",
  },
  {
    name: "kill-window",
    alias: "killw",
    template: "at:",
    args: [0, 0],
    usage: "[-a] [-t target-window]",
    note:
      "each of the window's panes (t4a sessions) killed; its tmux session " +
      "lives on while it has other windows; -a: the session's other windows",
  },
  {
    name: "select-pane",
    alias: "selectp",
    template: "DdegLlMmP:RT:t:UZ",
    args: [0, 0],
    usage: "[-DdegLlMmRUZ] [-T title] [-t target-pane]",
    ignored: "deMmPZ",
    refused: "g",
    note:
      "makes the pane its window's active one; -L/-R/-U/-D the one " +
      "beside it (wrapping), -l the last one; -T sets pane_title",
  },
  {
    name: "split-window",
    alias: "splitw",
    template: "bc:de:fF:hIl:p:Pt:vZ",
    args: [0, -1],
    usage: "[-bdefhIPvZ] [-c start-directory] [-e environment] [-F format] [-l size] [-t target-pane] [shell-command]",
    ignored: "Z",
    refused: "fI",
    note:
      "a new pane (a t4a session SESSION.WINDOW.N) cut from the target pane's cell as tmux 3.3a cuts " +
      "it: -h beside, else below; -l lines or N%, -p percent; -b before; -d keeps the active pane",
  },
  {
    name: "rename-session",
    alias: "rename",
    template: "t:",
    args: [1, 1],
    usage: "[-t target-session] new-name",
    note: "the tmux session's name; its panes keep their t4a ids (`t4a list` shows those)",
  },
  {
    name: "select-window",
    alias: "selectw",
    template: "lnpTt:",
    args: [0, 0],
    usage: "[-lnpT] [-t target-window]",
    ignored: "lnpT",
    note: "makes the window its session's current one",
  },
  {
    name: "rename-window",
    alias: "renamew",
    template: "t:",
    args: [1, 1],
    usage: "[-t target-window] new-name",
    note: "sets window_name (on each of its panes)",
  },
  {
    name: "list-clients",
    alias: "lsc",
    template: "F:f:t:",
    args: [0, 0],
    usage: "[-F format] [-f filter] [-t target-session]",
    note: "prints nothing: t4a's viewers are not tmux clients",
  },
  {
    name: "respawn-pane",
    alias: "respawnp",
    template: "c:e:kt:",
    args: [0, -1],
    usage: "[-k] [-c start-directory] [-e environment] [-t target-pane] [shell-command]",
    refused: "ce",
    note: "t4a restart of an ended session (-k: killed first); a new command is refused",
  },
];

/** Every command of tmux 3.3a, for "t4a does not implement" against "unknown command". */
const TMUX_COMMANDS: Record<string, string> = {
  "bind-key": "bind",
  "break-pane": "breakp",
  "choose-buffer": "",
  "choose-client": "",
  "choose-tree": "",
  "clear-prompt-history": "clearphist",
  "clock-mode": "",
  "command-prompt": "",
  "confirm-before": "confirm",
  "copy-mode": "",
  "customize-mode": "",
  "detach-client": "detach",
  "display-menu": "menu",
  "display-panes": "displayp",
  "display-popup": "popup",
  "find-window": "findw",
  "if-shell": "if",
  "join-pane": "joinp",
  "last-pane": "lastp",
  "last-window": "last",
  "link-window": "linkw",
  "list-commands": "lscm",
  "list-keys": "lsk",
  "lock-client": "lockc",
  "lock-server": "lock",
  "lock-session": "locks",
  "move-pane": "movep",
  "next-layout": "nextl",
  "next-window": "next",
  "previous-layout": "prevl",
  "previous-window": "prev",
  "refresh-client": "refresh",
  "respawn-window": "respawnw",
  "rotate-window": "rotatew",
  "run-shell": "run",
  "send-prefix": "",
  "server-access": "",
  "set-hook": "",
  "show-hooks": "",
  "show-messages": "showmsgs",
  "show-prompt-history": "showphist",
  "source-file": "source",
  "suspend-client": "suspendc",
  "swap-pane": "swapp",
  "swap-window": "swapw",
  "switch-client": "switchc",
  "unbind-key": "unbind",
  "unlink-window": "unlinkw",
};

/** Why t4a refuses a tmux command it knows of (docs/tmux.md's refused rows). */
export const NOT_IMPLEMENTED_WHY: Record<string, string> = {
  "join-pane": "a pane cannot move between windows in t4a",
  "break-pane": "a pane cannot move between windows in t4a",
  "swap-pane": "a pane keeps its place in its window in t4a",
  "move-pane": "a pane cannot move between windows in t4a",
  "copy-mode": "t4a has no copy mode (capture-pane reads the history)",
  "source-file": "t4a reads no tmux configuration",
  "bind-key": "t4a has no key table",
  "run-shell": "t4a runs nothing in the server: run it in the calling shell",
  "if-shell": "t4a runs nothing in the server: test in the calling shell",
  "switch-client": "t4a has no tmux clients (attach-session)",
  "detach-client": "t4a has no tmux clients (detach with C-\\)",
};

/** tmux 3.3a's commands t4a does not run, sorted. */
export const tmuxCommandNames = (): string[] => Object.keys(TMUX_COMMANDS).sort();

export interface ParsedCommand {
  spec: CommandSpec;
  /** Each flag given, with its value (the last one, for a flag given twice). */
  flags: Map<string, string | true>;
  /** Every value of each value flag, in order (`-e A=1 -e B=2`). */
  lists: Map<string, string[]>;
  args: string[];
}

/** tmux's command lookup: a full name, an alias, else a unique prefix. */
export function findCommand(word: string): CommandSpec {
  const exact = COMMANDS.find((command) => command.name === word || command.alias === word);
  if (exact) return exact;
  const tmuxName = Object.entries(TMUX_COMMANDS).find(([name, alias]) => name === word || alias === word)?.[0];
  const prefixed = [...COMMANDS.map((command) => command.name), ...Object.keys(TMUX_COMMANDS)].filter((name) =>
    name.startsWith(word),
  );
  const name = tmuxName ?? (prefixed.length === 1 ? prefixed[0] : undefined);
  if (prefixed.length > 1 && !tmuxName)
    throw new TmuxError(`ambiguous command: ${word}, could be: ${prefixed.sort().join(", ")}`);
  const ours = COMMANDS.find((command) => command.name === name);
  if (ours) return ours;
  if (name === undefined) throw new TmuxError(`unknown command: ${word}`);
  const why = NOT_IMPLEMENTED_WHY[name];
  throw new TmuxError(`t4a does not implement tmux's ${name}${why ? `: ${why}` : ""} (see docs/tmux.md)`);
}

/**
 * argv after the global flags, as commands: split where an argument is `;` or ends with an
 * unescaped `;` (`\;` at its end is a literal `;`), as tmux's cmd_parse_from_arguments does.
 */
export function splitCommands(argv: string[]): string[][] {
  const commands: string[][] = [];
  let current: string[] = [];
  for (const arg of argv) {
    let word = arg;
    let end = false;
    if (word.endsWith(";")) {
      word = word.slice(0, -1);
      if (word.endsWith("\\")) word = `${word.slice(0, -1)};`;
      else end = true;
    }
    if (!end || word !== "") current.push(word);
    if (end) {
      if (current.length) commands.push(current);
      current = [];
    }
  }
  if (current.length) commands.push(current);
  return commands;
}

/** One command's words read getopt-style against its template. */
export function parseCommand(words: string[]): ParsedCommand {
  const spec = findCommand(words[0]!);
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (word === "--") {
      i++;
      break;
    }
    if (!word.startsWith("-") || word === "-") break;
    for (let j = 1; j < word.length; j++) {
      const flag = word[j]!;
      const at = spec.template.indexOf(flag);
      if (at < 0 || flag === ":") throw new TmuxError(`command ${spec.name}: unknown flag -${flag}`);
      if (spec.template[at + 1] === ":") {
        const value = j + 1 < word.length ? word.slice(j + 1) : words[++i];
        if (value === undefined) throw new TmuxError(`command ${spec.name}: -${flag} expects an argument`);
        flags.set(flag, value);
        lists.set(flag, [...(lists.get(flag) ?? []), value]);
        break;
      }
      flags.set(flag, true);
    }
  }
  const args = words.slice(i);
  const [min, max] = spec.args;
  if (args.length < min || (max >= 0 && args.length > max))
    throw new TmuxError(`usage: ${spec.name}${spec.usage ? ` ${spec.usage}` : ""}`);
  for (const flag of flags.keys()) {
    if (spec.refused?.includes(flag))
      throw new TmuxError(`t4a does not implement ${spec.name} -${flag} (see docs/tmux.md)`);
  }
  return { spec, flags, lists, args };
}
