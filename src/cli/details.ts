// What each command does beyond its one-line summary: printed by `t4a help CMD` / `t4a CMD --help`
// and in docs/cli.md's reference (scripts/gen-docs.ts), so the two say the same. Plain text with
// `code` in backticks; keyed by command name (the table's and the built-ins'). Loaded with help only.
export const DETAILS: Record<string, string> = {
  create:
    "start a program (default `$SHELL`) or a coding agent in the " +
    "current directory, through the session plugins; prints its id",
  list:
    "one line per terminal: id, size, pid, `alive`/`exited(code)`, title, and what it does: an " +
    'agent\'s state, for how long and its line (`claude waiting 33s "Do you want to proceed?"`), ' +
    "or `reading input (python3)`; `--needs` keeps those that need you: waiting agents first, " +
    "then programs reading input, then non-zero exits; `--all`: every host in hosts.json too, a " +
    "host column first and ids as `HOST:ID` (docs/fleet-and-remotes.md#a-fleet)",
  send:
    "type input (C escapes interpreted), then named keys; reads stdin when neither is " +
    "given. A mouse click or wheel turn (cells 0-based, as `cursor` counts) comes " +
    "first, in the mouse mode the program turned on; none on: nothing sent, `no_mouse`",
  choose:
    "pick a menu item or a question's answer, toggle a checkbox or radio, press a button, " +
    "named by a `snapshot` ref (`e3.2`) or its text: a click where the program turned the " +
    "mouse on, else arrows from the selected item (or its key) and Enter; waits for the " +
    "effect (default 10s) and prints it: `selected`, `checked`, `gone`, `exited`, `changed`",
  click:
    "press a button or a function-key bar entry (`10Quit`): a click, else its " +
    "F-key, else Tab until it is highlighted and Enter; text no element holds " +
    "is clicked where it shows (mouse only); waits until the screen changes; a menu bar's " +
    "button whose drop-down then shows under it is `opened`",
  fill:
    "put text in an input field in place of its value (focus by click " +
    "or Tab, erase, type; no Enter); waits until the field shows it",
  text:
    "print rows, counted from the bottom (`0:5` = the bottom five); `--tail 5` = the last " +
    "five rows that hold text or the cursor; `--since` = only rows changed since a read",
  screenshot: "PNG of the screen (stdout unless `-o`); default 66% of 10x20 px per cell (80x24 → 528x317)",
  cursor: "`row col visible|hidden` (0-based from the top left)",
  snapshot:
    "the screen as elements with refs: menus and their selected item, questions, buttons, inputs, " +
    "checkboxes, radios, progress, tables, status lines, dialogs, text (see Operate any TUI)",
  wait:
    "block until the first condition holds; prints the matching line (or the exit code; for `--agent`, the state " +
    "and its line, and after input the agent has not reacted to yet, the state that input brings; for `--input`, " +
    "the process reading the terminal and its prompt line); exit 1 on timeout (saying so when the text was on the " +
    "screen already). `--screen`: text already on the screen counts for `--text`/`--regex` too, never a typed " +
    "echo. Durations: `500ms`, `30s`, `2m`, bare number = seconds. `--any`, every terminal at once: block until " +
    "one needs you — an agent waiting on a question, a program reading its terminal, a non-zero exit — and print " +
    "`ID<TAB>why<TAB>line` (`t3\twaiting\tDo you want to proceed?`, `t5\tinput\tpython3`, `t2\tfailed\texited " +
    "1`); at once when one already does, the most pressing first, so a loop acts on it before waiting again. With " +
    "`--agent`: the first agent in one of those states (`t4a wait --any --agent idle`: whichever agent finished " +
    "its turn). `--any --all`: every host in hosts.json too, printing `HOST:ID<TAB>why<TAB>line`",
  run: "run a command in the terminal's shell; prints its output, exits with its exit code",
  exec:
    "run a command in the terminal's shell and return when it ends, asks for input, or the yield " +
    "(default 10s) passes: its output so far (16000 characters at most, the middle cut and counted) " +
    "on stdout, the status and a token on stderr; `--continue` types `--input` and prints what came " +
    "since; a full-screen program (`vi`, `less`, `git commit`'s editor) is answered with its " +
    "screen, marked as such, and once it quits the output goes on from where it was (orchestrators)",
  resize: "resize (1..1000); the program gets SIGWINCH; resizes within 50 ms of one applied collapse into the last",
  events:
    "stream events as JSON lines until interrupted; `--all`: every host in hosts.json too, each " +
    "event with its `host` and its `terminal` as `HOST:ID`, a dropped link joined again and " +
    "resumed; `--since SEQ --instance ID`: first the events after that `seq` (docs/protocol.md)",
  kill:
    "SIGHUP the program's process group, SIGKILL whatever is left " +
    "after a grace period; says on stderr what a worktree session kept",
  restart:
    "an ended session started again as it was made (same id, command or agent, directory, worktree, " +
    "plugins, environment); an agent resumes its conversation; the page's ended cards have it as **Restart**",
  attach: "show the terminal here and type into it; the detach key (`C-\\` by default) leaves it running",
  record: "record the terminal to an asciicast file (`asciinema play FILE`)",
  web: "serve the sessions to a browser; prints a one-time login URL; `--logout-all` ends every browser login",
  batch:
    'many requests over one connection: CLI lines (`send t1 "ls\\n"`) ' +
    "or wire JSON on stdin, one JSON reply line each on stdout",
  service: "the daemon as a systemd user service (launchd agent on macOS)",
  doctor:
    "what works here and what does not, each with its fix: socket directory, daemon, sandbox " +
    "(bwrap, user namespaces, the seccomp filter), service (systemd user manager, lingering), " +
    "agent CLIs and versions, character widths (glibc's `wcwidth` or Bun's table), web server, " +
    "a `--host` (its t4a answering through ssh); exit 1 when something asked for does not",
  hosts:
    "the fleet's hosts, in `$XDG_CONFIG_HOME/t4a/hosts.json` (mode 600); then `NAME:ID` wherever " +
    "an id goes, and `list`/`wait --any`/`events` `--all` (docs/fleet-and-remotes.md#a-fleet)",
  remote:
    "put the build for HOST's OS and CPU in its `~/.local/bin/t4a` " +
    "/ join stdio to the local daemon (what `--host` runs over ssh)",
  agents:
    "the coding-agent presets: installed or missing, path, version; `--check` runs each " +
    "installed CLI's `--help` and names the preset flags it no longer lists (exit 1)",
  ask:
    "type a prompt into an agent session, wait for its turn to end, print the agent's answer (from its " +
    "CLI's log, else its screen); exit 0 idle, 4 waiting on a question (printed on stderr), 5 the CLI's " +
    "own error line (its API refused the turn), 1 exited or timeout (with `--json` too); asks take " +
    "turns: one made during another's turn queues behind it, or with `--no-wait` fails `busy` at once",
  approve:
    "answer the question an agent waits on with the keys its CLI wants (yes; `--always`: yes " +
    "for the session); prints the question; refused with `not_waiting` when it waits on none, " +
    "when that question was answered already, or when it is not question N (its `question_id`)",
  deny: "the same, with the key for no",
  transcript:
    "the agent's conversation from its CLI's log (claude, codex, gemini, qwen; " +
    "opencode's SQLite database, read from a private copy): `user:`/`agent:` lines, " +
    "tool calls `→` and results `←` one line each; `--json` answers `next` for `--since`",
  diff:
    "what a session changed in its worktree (or, unsandboxed, its repository): branch, commits beyond " +
    "its base, uncommitted files, and one diff of the base against the working tree plus the new files",
  trust:
    "approve the repository's worktree setup script (`.t4a/setup`) " +
    "as its bytes are now: new worktrees run it until it changes",
  notify: "report an agent's state (`working`, `waiting`, `idle`, `exited`); its CLI's hooks call it",
  up: "create / end every session a connector.json describes",
  schema: "print the JSON Schema of connector.json (for editors)",
  config: "show or change settings (`--scrollback-bytes`: a byte budget per new terminal, oldest rows dropped first)",
};
