// The coding-agent CLIs t4a knows, as data (seed 003's provider registry). Every flag here was
// checked against the CLI's own `--help` in shared/agent-cli-help/ (versions in VERSIONS.txt);
// the `help:` note beside each says where. Users add or override entries in
// $XDG_CONFIG_HOME/t4a/agents.json (see agents.ts). No code here beyond the types.

/** How the first prompt reaches the agent. */
export type PromptVia =
  /** As the last positional argument. */
  | { via: "positional" }
  /** After a flag, e.g. `-i PROMPT`. */
  | { via: "flag"; flag: string }
  /** Typed into the TUI once it is ready (a bracketed paste and Enter). */
  | { via: "type" };

/** How a fresh conversation gets t4a's deterministic id, and how a later one resumes. */
export interface Resume {
  /** Flag that starts a conversation with a given UUID (`--session-id <uuid>`). */
  sessionIdFlag?: string;
  /** Arguments that resume that same UUID, `{id}` replaced (`--resume {id}`). */
  byId?: string[];
  /** Arguments that resume the latest conversation in the directory, when there is no id to use. */
  latest?: string[];
  /** How a prompt goes in when resuming, when not as for a new conversation. */
  prompt?: PromptVia;
  /**
   * Screen text that shows the resumed conversation is drawn (its messages). A prompt typed into
   * a resumed session waits for it: the input box a CLI draws before it has loaded the
   * conversation is replaced with it, and what was typed there is lost.
   */
  shownPatterns?: string[];
}

export interface AgentPreset {
  /** The name users pass to --agent. */
  name: string;
  /** The executable (name on PATH, or a path). */
  cli: string;
  /** Always passed, before the auto-approve flag. */
  defaultArgs: string[];
  /** What --yolo adds. */
  autoApprove: string[];
  prompt: PromptVia;
  resume: Resume;
  /** Environment variables the CLI reads (credentials, gateways, its own switches): the env policy passes them. */
  envKeys: string[];
  /** What a sandbox gives the CLI under $HOME (see SandboxHome). */
  home: SandboxHome;
  /** The hosts its API lives on: a sandbox's network allow-list lets these through (`*.` for subdomains). */
  domains: string[];
  /** How it reports its turns by itself: claude's --settings hooks. Without, the screen alone says. */
  hooks?: "claude-settings";
  /**
   * Screen rows that mean it waits for the user (an approval, a login or trust screen), most
   * telling first: the first pattern that matches gives the line reported. The question's own
   * row, never an option row ("❯ 1. Yes"), which a keypress redraws while the question stays. Copied from the
   * real CLI's screens (the versions in test/agents/package.json); the end-to-end tests check them at every step.
   */
  waitingPatterns: string[];
  /** Screen text shown only while a turn runs ("esc to interrupt"): working, however silent a tool is. */
  busyPatterns: string[];
  /**
   * Screen text that means its input box is drawn: before it, the agent is still starting (rows come right-trimmed).
   */
  readyPatterns: string[];
  /** Rows of its own frame (hints, status bars): never the line a state reports, which is the agent's last words. */
  chromePatterns: string[];
  /**
   * The CLI's own line for a turn its API refused (drawn, or in its log): an ask whose turn shows
   * one ended `error`. Copied from the real CLIs' screens against the fake model's refusals.
   */
  errorPatterns?: string[];
  /**
   * The keys (send's names) that answer its permission question: yes once, yes for the rest of
   * the session (or this kind of action), no. Checked against each CLI's real question (see
   * test/real-agents.ts); `always` is absent where the CLI offers none.
   */
  answers: { yes: string[]; always?: string[]; no: string[] };
  /** Where it writes its conversation, and in which format: ask and transcript read it. */
  log?: ConversationLog;
  /**
   * A CLI of any kind, read from what every CLI shares (`--agent auto -- CLI ARGS`): the question
   * and its choices from the screen's elements, working from a busy hint or a screen that keeps
   * changing, idle once it reads its terminal on a still screen. `cli` comes from the command.
   */
  generic?: true;
}

/**
 * A CLI's own conversation log. `paths` are globs under $HOME, `{id}` the conversation id t4a
 * gave it; without `{id}` (a CLI that takes no id of ours) the newest file for the session's
 * directory that was written since the session started.
 */
export interface ConversationLog {
  paths: string[];
  format: "claude" | "codex" | "gemini" | "qwen" | "opencode" | "pi" | "droid" | "copilot";
}

/**
 * A sandboxed CLI under $HOME, paths relative to it. Nothing it later reads as configuration
 * (settings, hooks, MCP servers, plugins) may be writable from inside, or the next unsandboxed
 * run would execute what the sandboxed one wrote.
 */
export interface SandboxHome {
  /**
   * Its configuration, directories and files: seen as they are, but never changed. Each file is a
   * private per-session copy it may rewrite (discarded at the end), each directory read-only, and
   * new entries land in a private, discarded tmpfs. A directory ends in "/" (made, empty, when
   * missing: the tmpfs needs a place); anything else is a file, never made in the real home (a
   * missing one stays missing inside: bwrap cannot place a file in the read-only home, and an
   * empty directory in its place broke the CLI's unsandboxed runs after, `~/.claude.json`).
   */
  config: string[];
  /**
   * What it must keep between sessions (conversation logs to resume from, its login): writable
   * for real. A directory ends in "/" (made when missing); anything else is a file, never made
   * (a missing one is written in the discarded tmpfs: opencode's SQLite WAL, made as a directory
   * when names were guessed, hung it and broke its unsandboxed runs after).
   */
  keep: string[];
  /**
   * Kept files made empty when missing (before the sandbox starts), where an empty file is valid
   * to the CLI: SQLite's database, WAL and shared memory. Else the first sandboxed run writes
   * them in the discarded tmpfs, and neither its conversation nor t4a's reader of it sees them.
   */
  madeEmpty?: string[];
  /**
   * Directories of its runtime state it must write, but whose contents must not outlive the
   * session (codex sources its shell snapshots in later, unsandboxed runs): an empty private tmpfs.
   */
  scratch?: string[];
}

/** Questions any TUI may ask in some form, after each preset's own: proceed, allow, y/n. */
const COMMON_WAITING = [
  "Do you want to (proceed|make this edit|create|run|allow)",
  "\\b(Allow|Approve)\\b.*\\?",
  "\\[[yY]/[nN]\\]|\\([yY]/[nN]\\)",
];

/** A row (the patterns are multi-line) that does not hold the word Tip: a hint it shows is advice, not work. */
const NOT_A_TIP = "^(?!.*\\bTips?\\b)";
/**
 * Busy hints many CLIs draw while a turn runs (claude, codex "esc to interrupt", gemini, qwen "esc
 * to cancel", opencode "esc interrupt").
 */
export const GENERIC_BUSY = [
  // Not on a row of tips: kilo's home screen shows "● Tip Press escape to stop the AI mid-response"
  // at random, and read as busy its typed prompt never went in (auto, once in three full runs).
  `${NOT_A_TIP}.*\\b[Ee]sc(ape)? to (interrupt|cancel|stop|abort)\\b`,
  "\\besc interrupt\\b",
  `${NOT_A_TIP}.*\\b[Cc]trl\\+[Cc] to (interrupt|cancel|stop|abort)\\b`,
  // An icon, then "Working" (pi "⠋ Working...", copilot "◉ Working · 96 B", codex "• Working (0s").
  "^\\s*[^\\s\\w]\\s*Working\\b",
];

/**
 * A turn's error as CLIs draw it: a row that begins (after an icon) with "Error" or "API Error"
 * (claude "● API Error: 400 …", gemini and qwen "✕ [API Error: …]"), or an API's JSON error body
 * (codex "■ {"error":…}").
 */
export const GENERIC_ERRORS = ["^(?:[^A-Za-z0-9\\s]{1,2}\\s*)?\\[?(?:API )?Error\\b", '^\\S{0,2}\\s*\\{"error":'];

export const PRESETS: AgentPreset[] = [
  {
    name: "claude",
    cli: "claude",
    defaultArgs: [],
    // help: "--dangerously-skip-permissions  Bypass all permission checks"
    autoApprove: ["--dangerously-skip-permissions"],
    prompt: { via: "positional" }, // help: "Usage: claude [options] [command] [prompt]"; interactive by default
    // help: "--session-id <uuid>", "-r, --resume [value]  Resume a conversation by session ID"
    resume: { sessionIdFlag: "--session-id", byId: ["--resume", "{id}"] },
    envKeys: [
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_AUTH_TOKEN",
      "ANTHROPIC_BASE_URL",
      "ANTHROPIC_CUSTOM_HEADERS",
      "ANTHROPIC_MODEL",
      "ANTHROPIC_SMALL_FAST_MODEL",
      "ANTHROPIC_DEFAULT_OPUS_MODEL",
      "ANTHROPIC_DEFAULT_SONNET_MODEL",
      "ANTHROPIC_DEFAULT_HAIKU_MODEL",
      "ANTHROPIC_VERTEX_PROJECT_ID",
      "CLOUD_ML_REGION",
      "CLAUDE_CONFIG_DIR",
      "CLAUDE_CODE_USE_BEDROCK",
      "CLAUDE_CODE_USE_VERTEX",
      "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
      "DISABLE_TELEMETRY",
      "DISABLE_AUTOUPDATER",
      "DISABLE_ERROR_REPORTING",
      "IS_SANDBOX",
    ],
    home: {
      config: [".claude/", ".claude.json"],
      keep: [
        ".claude/projects/",
        ".claude/todos/",
        ".claude/file-history/",
        ".claude/plans/",
        ".claude/.credentials.json",
      ],
    },
    domains: ["api.anthropic.com", "statsig.anthropic.com"],
    hooks: "claude-settings", // help: "--settings <file-or-json>  Path to a settings JSON file or a JSON string"
    waitingPatterns: [
      // 2.1.330: "Do you want to create hello.txt?"
      "Do you want to (proceed|make this edit|create|run|allow|overwrite|delete|fetch|use)",
      "Do you trust the files in this folder\\?",
      "Bypass Permissions mode", // as root without IS_SANDBOX, or on first use: option 1 is "No, exit"
      "Make auto mode your default permission mode\\?",
      "Choose the text style",
      "Select login method",
      // 2.1.330 asks this mid-turn (seen under a sandbox, whose writes to .claude.json do not last)
      "Try the new fullscreen renderer\\?",
      "Enter to confirm · Esc to cancel", // the footer of its other select dialogs
      ...COMMON_WAITING,
    ],
    busyPatterns: ["esc to interrupt"], // 2.1.330 footer: "⏸ manual mode on · esc to interrupt"
    readyPatterns: ["^\\s*❯(\\s|$)"],
    // 2.1.330: "● API Error: 400 …", in its log "API Error: 400 …"; a refusal for credit is drawn
    // "⎿  Credit balance too low · Add funds:" (its log: "Credit balance is too low", marked an API error).
    errorPatterns: ["^(● )?API Error: ", "^(⎿\\s+)?Credit balance (is )?too low"],
    chromePatterns: [
      "^[✻✶✢✳✽·*] \\S+ for \\d",
      "^[✻✶✢✳✽·*] \\S+… \\(",
      "for shortcuts",
      "mode on",
      "esc to interrupt",
      "← for agents",
      // 2.1.330's --yolo footer, "⏵⏵ bypass permissions on (shift+tab to cycle)", ends there when the
      // session has no subagents to list (CI, this stop: the idle line was that footer).
      "\\(shift\\+tab to cycle\\)",
      "/effort",
    ],
    // 2.1.330: "❯ 1. Yes", "2. Yes, and switch to accept edits … (shift+tab)", "3. No"; "Esc to cancel".
    answers: { yes: ["1"], always: ["2"], no: ["Escape"] },
    log: { paths: [".claude/projects/*/{id}.jsonl"], format: "claude" },
  },
  {
    name: "codex",
    cli: "codex",
    // Without it codex starts a shared `codex app-server` that outlives the session (and its keys).
    defaultArgs: ["--no-daemon"], // help (codex.txt): "--no-daemon  Run without the shared background server"
    // help (codex.txt): "Skip all confirmation prompts and execute commands without sandboxing"
    autoApprove: ["--dangerously-bypass-approvals-and-sandbox"],
    // help: "Usage: codex [OPTIONS] [PROMPT]", "codex resume [OPTIONS] [SESSION_ID] [PROMPT]"
    prompt: { via: "positional" },
    // No flag gives a new conversation an id of ours; resume the latest one in the directory.
    // help (codex-resume.txt): "--last  Continue the most recent session without showing the picker"
    resume: { latest: ["resume", "--last"] },
    envKeys: [
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "OPENAI_ORGANIZATION",
      "OPENAI_PROJECT",
      "CODEX_HOME",
      "CODEX_API_KEY",
    ],
    home: {
      config: [".codex/"],
      keep: [".codex/sessions/", ".codex/archived_sessions/", ".codex/history.jsonl", ".codex/auth.json"],
      // 0.169 writes these once they exist: read-only, its thread store fails ("Read-only file system").
      scratch: [
        ".codex/thread-writer-locks",
        ".codex/shell_snapshots",
        ".codex/.tmp",
        ".codex/tui-thread-reference-capabilities",
      ],
    },
    domains: ["api.openai.com", "chatgpt.com", "auth.openai.com"],
    // Its notify program also runs for side requests (a title), and its hooks ask for a review
    // on first use: the screen says better. It never goes quiet while working (it animates its
    // title), which is why the screen is read as drawn, not at a pause.
    waitingPatterns: [
      "Would you like to (run|make|apply|allow)", // 0.169: "Would you like to run the following command?"
      "Allow Codex to",
      "Do you trust the contents of this directory",
      "Choose how you want to use Codex", // 0.169 without a login: its question, above "> 1. Sign in with ChatGPT"
      "Sign in with ChatGPT",
      "Hooks need review",
      ...COMMON_WAITING,
    ],
    busyPatterns: ["esc to interrupt"], // "• Working (0s • esc to interrupt)"
    readyPatterns: ["^\\s*›\\s"],
    // 0.169: "■ {\"error\":{…}}" (an interrupt, also drawn with ■, is no error)
    errorPatterns: ["^■ (?!Conversation interrupted)"],
    // Its footer, "MODEL EFFORT · CWD · PROVIDER", wraps when the cwd is long (a worktree under
    // ~/.local/state/t4a/worktrees): the wrapped tail, "repo-feat · fake", is footer too.
    chromePatterns: [
      "^\\s*Worked for",
      "for shortcuts",
      "esc to interrupt",
      "^\\s*\\S+ (default|minimal|low|medium|high|xhigh) · ",
      "^\\s*[^\\s·]+ · [^\\s·]+\\s*$",
      "f2 to view",
    ],
    // 0.169: "1. Yes, proceed (y)", "2. Yes, and don't ask again for commands that start with … (p)", "3. No, … (esc)".
    answers: { yes: ["y"], always: ["p"], no: ["Escape"] },
    log: { paths: [".codex/sessions/*/*/*/rollout-*.jsonl"], format: "codex" },
  },
  {
    name: "gemini",
    cli: "gemini",
    defaultArgs: [],
    autoApprove: ["--yolo"], // help: "-y, --yolo  Automatically accept all actions"
    // help: "-i, --prompt-interactive  Execute the provided prompt and continue in interactive mode"
    prompt: { via: "flag", flag: "--prompt-interactive" },
    // By id when its log is there for this directory (0.61 takes a UUID too: its resolveSession),
    // so the log is found again by the id; else its latest.
    // help: "--session-id  Start a new session with a manually provided UUID", "-r, --resume … Use
    // "latest" for most recent"
    resume: { sessionIdFlag: "--session-id", byId: ["--resume", "{id}"], latest: ["--resume", "latest"] },
    envKeys: [
      "GEMINI_API_KEY",
      "GEMINI_MODEL",
      "GOOGLE_API_KEY",
      "GOOGLE_GEMINI_BASE_URL",
      "GOOGLE_GENAI_USE_VERTEXAI",
      "GOOGLE_CLOUD_PROJECT",
      "GOOGLE_CLOUD_LOCATION",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
    ],
    home: {
      config: [".gemini/"],
      keep: [".gemini/tmp/", ".gemini/oauth_creds.json", ".gemini/google_accounts.json"],
      // 0.61 marks each project it meets in history/<project>/ (read-only: it exits at start,
      // "ENOENT mkdir ~/.gemini/history/<dir>") and keeps its checkpoints' git repository there.
      // Not kept: hooks written into that git dir would run in a later unsandboxed session.
      scratch: [".gemini/history"],
    },
    domains: ["generativelanguage.googleapis.com", "cloudcode-pa.googleapis.com", "oauth2.googleapis.com"],
    waitingPatterns: [
      "Apply this change\\?", // 0.61: a box with "Apply this change?" and "● 1. Allow once"
      "Allow execution of",
      "Do you want to proceed\\?",
      "Do you trust (this folder|the files)",
      "How would you like to authenticate",
      // 0.61 on a spent quota: a box "Usage limit reached for all Pro models." with "1. Keep trying", "2. Stop".
      "Usage limit reached for",
      ...COMMON_WAITING,
    ],
    busyPatterns: ["esc to cancel"], // "⠋ Thinking... (esc to cancel, 0s)"
    readyPatterns: ["Type your message"],
    // "✕ [API Error: {…}]"; the quota's question above is the API's refusal too.
    errorPatterns: ["^✕ \\[API Error: ", "^Usage limit reached for"],
    chromePatterns: [
      "for shortcuts",
      "Shift\\+Tab",
      "^\\s*workspace \\(/directory\\)",
      "no sandbox",
      "[Aa]uto mode",
      "YOLO mode",
      "YOLO Ctrl\\+Y",
    ],
    // 0.61: "● 1. Allow once", "2. Allow for this session", "3. Modify with external editor", "4.
    // No, suggest changes (esc)".
    answers: { yes: ["1"], always: ["2"], no: ["Escape"] },
    log: { paths: [".gemini/tmp/*/chats/session-*-{id8}.jsonl"], format: "gemini" },
  },
  {
    name: "qwen",
    cli: "qwen",
    defaultArgs: [],
    autoApprove: ["--yolo"], // help: "-y, --yolo  Automatically accept all actions"
    // The positional prompt is one-shot for qwen; -i keeps the session interactive.
    // help: "-i, --prompt-interactive  Execute the provided prompt and continue in interactive mode"
    prompt: { via: "flag", flag: "--prompt-interactive" },
    // help: "--session-id  Specify a session ID for this run", "-r, --resume  Resume a specific session by its ID"
    resume: { sessionIdFlag: "--session-id", byId: ["--resume", "{id}"] },
    envKeys: [
      "DASHSCOPE_API_KEY",
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "OPENAI_MODEL",
      "QWEN_MODEL",
      "QWEN_CODE_SYSTEM_SETTINGS_PATH",
      "QWEN_CODE_SYSTEM_DEFAULTS_PATH",
    ],
    home: {
      config: [".qwen/"],
      // Not oauth_creds.json: its resource_url is the host qwen sends its requests and token to.
      keep: [".qwen/tmp/", ".qwen/projects/"],
      // 0.24 locks its extension store at start and waits on it forever ("Initializing...") when read-only.
      scratch: [".qwen/extension-store", ".qwen/sessions"],
    },
    domains: ["dashscope.aliyuncs.com", "dashscope-intl.aliyuncs.com", "chat.qwen.ai", "portal.qwen.ai"],
    waitingPatterns: [
      "Apply this change\\?", // 0.24: as gemini's, "Apply this change?" and "› 1. Yes, allow once"
      "Allow execution of",
      "Do you want to proceed\\?",
      "Do you trust (this folder|the files)",
      "Select Authentication Method",
      "Connect a Provider", // 0.24 without credentials: a provider picker
      ...COMMON_WAITING,
    ],
    busyPatterns: ["esc to cancel"], // "⠙ Initiating thoughtful gaze... (0s · esc to cancel)"
    readyPatterns: ["Type your message"],
    errorPatterns: ["^✕ \\[API Error: "], // "✕ [API Error: {…}]"
    chromePatterns: [
      "for shortcuts",
      "Enter to steer",
      "Ctrl\\+Q to queue",
      "Ask permissions",
      "[Aa]uto mode",
      "YOLO mode",
      "shift \\+ tab",
      "^➜ ",
      "git:\\(",
    ],
    // 0.24: "› 1. Yes, allow once", "2. Yes, allow always", "3. No, suggest changes (esc)".
    answers: { yes: ["1"], always: ["2"], no: ["Escape"] },
    log: { paths: [".qwen/projects/*/chats/{id}.jsonl"], format: "qwen" },
  },
  {
    name: "opencode",
    cli: "opencode",
    defaultArgs: [],
    // help (opencode.txt): "--auto  auto-approve permissions that are not explicitly denied (dangerous!)"
    autoApprove: ["--auto"],
    prompt: { via: "flag", flag: "--prompt" }, // help: "--prompt  prompt to use"
    // Its session ids are its own (no flag sets one): resume the latest.
    // 1.18 ignores --prompt with --continue (reopens the conversation, sends nothing): typed instead.
    // 1.18 draws its home screen's input box (~150 ms, longer on a slow machine) before the
    // conversation, whose messages each end in a "▣  Build · model" row.
    // help: "-c, --continue  continue the last session"
    resume: { latest: ["--continue"], prompt: { via: "type" }, shownPatterns: ["^\\s*▣ "] },
    envKeys: [
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_BASE_URL",
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "GEMINI_API_KEY",
      "OPENCODE_CONFIG",
      "OPENCODE_CONFIG_DIR",
      "OPENCODE_DISABLE_MODELS_FETCH",
      "OPENCODE_DISABLE_AUTOUPDATE",
      "OPENCODE_DISABLE_DEFAULT_PLUGINS",
      "OPENCODE_DISABLE_LSP_DOWNLOAD",
    ],
    home: {
      config: [".config/opencode/", ".local/share/opencode/", ".local/state/opencode/", ".cache/opencode/"],
      // 1.18 keeps its conversations in opencode.db (SQLite, with its WAL), older versions in storage/.
      keep: [
        ".local/share/opencode/storage/",
        ".local/share/opencode/opencode.db",
        ".local/share/opencode/opencode.db-wal",
        ".local/share/opencode/opencode.db-shm",
        // Not auth.json: for each "wellknown" entry opencode fetches <url>/.well-known/opencode and
        // merges that config (MCP servers' commands, plugins) into its own: a sandboxed run that
        // wrote one would choose what its next start runs outside. A login made inside lasts for
        // that session only.
        ".local/state/opencode/",
      ],
      madeEmpty: [
        ".local/share/opencode/opencode.db",
        ".local/share/opencode/opencode.db-wal",
        ".local/share/opencode/opencode.db-shm",
      ],
      // 1.18 opens its log at start (read-only: it exits, "FileSystem.open … opencode.log") and
      // snapshots the work tree into a git dir of its own (read-only: "Failed to send prompt").
      // Not kept: hooks written into that git dir would run in a later unsandboxed session.
      scratch: [".local/share/opencode/log", ".local/share/opencode/snapshot", ".local/share/opencode/repos"],
    },
    domains: ["api.anthropic.com", "api.openai.com", "generativelanguage.googleapis.com", "opencode.ai", "models.dev"],
    waitingPatterns: [
      // 1.18: "△ Permission required", then "→ Edit hello.txt", "Allow once   Allow always   Reject"
      "Permission required",
      "Allow once\\s+Allow always",
      ...COMMON_WAITING,
    ],
    busyPatterns: ["esc interrupt"], // "■■■■■■⬝⬝  esc interrupt"
    readyPatterns: ["ctrl\\+p commands"],
    // It draws the API's refusal bare in its frame; its log keeps it on the message, read as
    // "API Error: 400 …" (session/opencode-log.ts).
    errorPatterns: ["^API Error: "],
    chromePatterns: [
      "ctrl\\+p commands",
      "tab agents",
      "esc interrupt",
      "^(▣\\s+)?(Build|Plan)\\b.* · ",
      "^\\s*Ask anything",
    ],
    // 1.18: "Allow once   Allow always   Reject" in a row, the first selected; Esc rejects.
    answers: { yes: ["Enter"], always: ["Right", "Enter"], no: ["Escape"] },
    // 1.18: a SQLite database (session, message, part), in WAL mode; see session/opencode-log.ts.
    log: { paths: [".local/share/opencode/opencode.db"], format: "opencode" },
  },
  {
    name: "pi",
    cli: "pi",
    defaultArgs: [],
    // It never asks before a tool runs, by design: nothing to approve, no flag for it.
    autoApprove: [],
    // help (pi.txt): "pi [options] [@files...] [messages...]", "# Interactive mode with initial prompt"
    prompt: { via: "positional" },
    // Its session ids are its own: resume the latest in the directory.
    resume: { latest: ["--continue"] }, // help: "--continue, -c  Continue previous session"
    envKeys: [
      "ANTHROPIC_OAUTH_TOKEN",
      "DEEPSEEK_API_KEY",
      "GROQ_API_KEY",
      "OPENROUTER_API_KEY",
      "XAI_API_KEY",
      "PI_CODING_AGENT_DIR",
      "PI_CODING_AGENT_SESSION_DIR",
      "PI_OFFLINE",
      "PI_TELEMETRY",
      "PI_SKIP_VERSION_CHECK",
    ],
    home: {
      // 0.73: models.json, settings.json, auth.json, sessions/ under ~/.pi/agent.
      config: [".pi/agent/"],
      // Not auth.json: pi runs an api_key that starts with "!" as a shell command (its
      // resolveConfigValue), so a sandboxed run that wrote it would run code outside next time.
      // A login made inside lasts only for that session.
      keep: [".pi/agent/sessions/"],
    },
    domains: ["api.anthropic.com", "api.openai.com", "generativelanguage.googleapis.com", "pi.dev"],
    waitingPatterns: [...COMMON_WAITING],
    busyPatterns: ["^\\s*\\S Working\\.\\.\\."], // 0.73: "⠋ Working..."
    // 0.73's footer: the context used ("0.0%/128k (auto)"), drawn once its input is ready.
    readyPatterns: ["%/\\d+k\\b"],
    chromePatterns: [
      "%/\\d+k\\b",
      "^\\s*\\S Working\\.\\.\\.",
      "^\\s*(Took|Elapsed) \\d",
      "^\\s*\\(no output\\)",
      "not found\\. (Offline mode|Downloading)",
      "^Failed to download ",
      "^/\\S* \\([^)]*\\)$",
    ],
    answers: { yes: ["Enter"], no: ["Escape"] },
    // 0.73: sessions/--<directory, "/" as "-">--/<time>_<its id>.jsonl; the session record names the directory.
    log: { paths: [".pi/agent/sessions/*/*.jsonl"], format: "pi" },
  },
  {
    name: "copilot",
    cli: "copilot",
    defaultArgs: [],
    // help (copilot.txt): "--yolo  (alias of --allow-all: --allow-all-tools --allow-all-paths --allow-all-urls)"
    autoApprove: ["--yolo"],
    // help: "-i, --interactive <prompt>  Start interactive mode and automatically execute this prompt"
    prompt: { via: "flag", flag: "--interactive" },
    // help: "--session-id <id>  Resume an existing session or task by ID, or set the UUID for a new
    // session", "--continue  Resume the most recent session"
    resume: { sessionIdFlag: "--session-id", byId: ["--session-id", "{id}"], latest: ["--continue"] },
    envKeys: [
      "COPILOT_GITHUB_TOKEN",
      "COPILOT_HOME",
      "COPILOT_MODEL",
      "COPILOT_OFFLINE",
      "COPILOT_AUTO_UPDATE",
      "COPILOT_ALLOW_ALL",
      "COPILOT_GH_HOST",
      "COPILOT_PROVIDER_BASE_URL",
      "COPILOT_PROVIDER_TYPE",
      "COPILOT_PROVIDER_API_KEY",
      "COPILOT_PROVIDER_BEARER_TOKEN",
      "COPILOT_PROVIDER_WIRE_API",
      "COPILOT_PROVIDER_MODEL_ID",
      "COPILOT_PROVIDER_WIRE_MODEL",
      "COPILOT_PROVIDER_MAX_PROMPT_TOKENS",
      "COPILOT_PROVIDER_MAX_OUTPUT_TOKENS",
      "COPILOT_PROVIDER_AZURE_API_VERSION",
    ], // help (copilot-help-providers.txt, copilot-help-environment.txt)
    home: {
      // 1.0: config.json (trusted folders, settings), session-state/ (its conversations), logs/.
      config: [".copilot/"],
      // Not config.json: its trusted folders are configuration a sandboxed run must not widen.
      keep: [".copilot/session-state/"],
      scratch: [".copilot/logs"],
    },
    domains: ["api.githubcopilot.com", "*.githubcopilot.com", "api.github.com", "github.com"],
    waitingPatterns: [
      "Do you want to (run|allow|create|edit|make|write|delete|fetch)", // 1.0.102: "Do you want to run this command?"
      "Do you trust the files in this folder",
      "Please use /login", // without credentials: "Please use /login to sign in to use Copilot"
      ...COMMON_WAITING,
    ],
    busyPatterns: ["^\\s*\\S Working\\b", "esc interrupt"], // 1.0.102: "◉ Working · 96 B  esc interrupt"
    // its footer: "← open sidebar · Interactive · Manual Approval · / commands · tab next tab"
    readyPatterns: ["/ commands"],
    chromePatterns: [
      "/ commands",
      "^\\s*❯\\s*$",
      "^\\s*\\[Current\\]",
      "\\[⎇ ",
      "^\\s*\\S Working\\b",
      "to navigate · enter to select",
      "^\\s*● (Tip|No copilot-instructions)",
    ],
    // 1.0.102: "❯ 1. Yes", "2. Yes, and don't ask again for `sleep` in this repo", "3. No, and tell
    // Copilot what to do differently (Esc to stop)".
    answers: { yes: ["Enter"], always: ["Down", "Enter"], no: ["Escape"] },
    // 1.0: session-state/<its id, given by --session-id>/events.jsonl.
    log: { paths: [".copilot/session-state/{id}/events.jsonl"], format: "copilot" },
  },
  {
    // opencode's fork (Kilo Code), its TUI and config the same under its own names.
    name: "kilo",
    cli: "kilo",
    defaultArgs: [],
    // help (kilo.txt): "--auto  auto-approve permissions that are not explicitly denied (dangerous!)"
    autoApprove: ["--auto"],
    prompt: { via: "flag", flag: "--prompt" }, // help: "--prompt  prompt to use"
    // Its session ids are its own (-s takes one it made): resume the latest, the prompt typed as opencode's.
    // help: "-c, --continue  continue the last session"
    resume: { latest: ["--continue"], prompt: { via: "type" }, shownPatterns: ["^\\s*▣ "] },
    envKeys: [
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "KILO_API_KEY",
      "KILO_CONFIG",
      "KILO_CONFIG_DIR",
      "KILO_CONFIG_CONTENT",
      "KILO_DISABLE_MODELS_FETCH",
      "KILO_DISABLE_AUTOUPDATE",
      "KILO_DISABLE_DEFAULT_PLUGINS",
      "KILO_DISABLE_LSP_DOWNLOAD",
      "KILO_NO_DAEMON",
      "KILO_TELEMETRY_LEVEL",
    ],
    home: {
      // 7.7: kilo.json under ~/.config/kilo; kilo.db (SQLite + WAL), log/, snapshot/ under ~/.local/share/kilo.
      config: [".config/kilo/", ".local/share/kilo/", ".local/state/kilo/", ".cache/kilo/"],
      keep: [
        ".local/share/kilo/storage/",
        ".local/share/kilo/kilo.db",
        ".local/share/kilo/kilo.db-wal",
        ".local/share/kilo/kilo.db-shm",
        // Not auth.json: as opencode's, a "wellknown" entry makes kilo merge the config its URL serves.
        ".local/state/kilo/",
      ],
      madeEmpty: [".local/share/kilo/kilo.db", ".local/share/kilo/kilo.db-wal", ".local/share/kilo/kilo.db-shm"],
      // As opencode's: its log, and a git dir of its own for snapshots (hooks there must not outlive the session).
      scratch: [".local/share/kilo/log", ".local/share/kilo/snapshot", ".local/share/kilo/repos"],
    },
    domains: ["api.kilo.ai", "app.kilo.ai", "api.anthropic.com", "api.openai.com", "models.dev"],
    waitingPatterns: [
      // 7.7.9: "△ Permission required", then "→ Edit hello.txt" or "$ cmd", "Allow once   Allow always   Reject"
      "Permission required",
      "Allow once\\s+Allow always",
      // 7.7.9, when its first snapshot of the work tree takes long (a loaded machine): "Do you want to disable
      // Snapshots for this repository?" over "1. Continue with snapshots" / "2. Disable for this project"; Enter takes
      // the first, Esc dismisses it.
      "Do you want to disable Snapshots",
      ...COMMON_WAITING,
    ],
    busyPatterns: ["esc interrupt"], // 7.7.9: "⬝⬝⬝⬝⬝⬝⬝⬝  esc interrupt"
    readyPatterns: ["ctrl\\+p commands"],
    errorPatterns: ["^API Error: "],
    chromePatterns: [
      "ctrl\\+p commands",
      "tab agents",
      "esc interrupt",
      "^(▣\\s+)?(Code|Plan|Ask|Debug|Architect|Orchestrator)\\b.* · ",
      "^\\s*Ask anything",
      "^\\s*● Tip\\b",
      "^\\s*\\(no output\\)$",
    ],
    // 7.7.9: "Allow once   Allow always   Reject" in a row, the first selected; Esc rejects.
    answers: { yes: ["Enter"], always: ["Right", "Enter"], no: ["Escape"] },
    // 7.7.9: opencode's SQLite schema (session, message, part) in kilo.db.
    log: { paths: [".local/share/kilo/kilo.db"], format: "opencode" },
  },
  {
    name: "droid",
    cli: "droid",
    defaultArgs: [],
    // Medium-risk commands (edits, writes) run unasked from "--auto medium"; high asks nothing but the riskiest.
    autoApprove: ["--auto", "high"], // help (droid.txt): "--auto <level>  Autonomy level: low|medium|high"
    // help: "Usage: droid [options] [command] [prompt...]", 'droid "review app.tsx"  Start with an initial prompt'.
    // Typed once its input box is drawn: given on the command line, its first turn could start before
    // `--auto high` was applied (a loaded machine: "Command to approve · medium risk" under --yolo).
    prompt: { via: "type" },
    // No flag gives a new session an id of ours: resume the latest in the directory.
    // help: "-r, --resume [sessionId]", "--last  With --resume: skip the picker and resume the most
    // recent session in the current folder"
    resume: { latest: ["--resume", "--last"] },
    envKeys: [
      "FACTORY_API_KEY",
      "FACTORY_API_BASE_URL",
      "FACTORY_AIRGAP_ENABLED",
      "FACTORY_DROID_AUTO_UPDATE_ENABLED",
      "FACTORY_DISABLE_KEYRING",
      "FACTORY_HOME_OVERRIDE",
      "FACTORY_RUNTIME_SETTINGS_PATH",
    ],
    home: {
      // 0.225: settings.json (custom models, trusted folders) is configuration; sessions/ its conversations.
      config: [".factory/"],
      // Not auth.json: droid seeds its identity from the whoami cached there, whose on-prem
      // premBaseHost is where its API calls (and token) go.
      keep: [".factory/sessions/"],
      scratch: [".factory/logs", ".factory/cache", ".factory/state"],
    },
    domains: ["api.factory.ai", "app.factory.ai", "*.factory.ai"],
    waitingPatterns: [
      // 0.225.2: "Command to approve · medium risk", "↳ cmd", then "Yes, allow" / "Yes, and always
      // allow …" / "No, cancel"
      "Command to approve",
      "Trust this folder\\?",
      "Please login with your Factory account", // without FACTORY_AIRGAP_ENABLED or a login: "> Login  Exit"
      ...COMMON_WAITING,
    ],
    // 0.225.2 while a turn runs: "⣠ Executing...  (Press ESC to stop)", its input box "> Enter to
    // steer · Ctrl+Enter to queue".
    busyPatterns: ["Press ESC to stop", "Enter to steer"],
    readyPatterns: ["^\\s*(\\[⏱ \\d+s\\] )?\\? for help"],
    chromePatterns: [
      "\\? for help",
      "Press ESC to stop",
      "Enter to steer",
      "^\\s*Auto \\((Off|Low|Medium|High)\\)",
      "shift\\+tab to cycle modes",
      "ctrl\\+L for autonomy",
      "^\\s*Skills \\(",
      "^\\s*TIP: ",
      "^\\s*v\\d+\\.\\d+\\.\\d+",
      "^\\s*↳ Command completed",
      "^>(\\s|$)", // its input box (unboxed): "> Enter to steer · Ctrl+Enter to queue" while busy
    ],
    // 0.225.2: "Yes, allow" (selected), "Yes, and always allow medium impact commands …", "No, cancel"; "Esc cancel".
    answers: { yes: ["Enter"], always: ["Down", "Enter"], no: ["Escape"] },
    // 0.225: sessions/<directory, "/" as "-">/<its id>.jsonl (beside <id>.settings.json); session_start names it.
    log: { paths: [".factory/sessions/*/*.jsonl"], format: "droid" },
  },
  {
    name: "cline",
    cli: "cline",
    // Without it a prompt runs headless and exits (help: "prompt  Your prompt. Default to start in
    // act mode with auto-approve enabled").
    // help (cline.txt): "-i, --tui  Open the terminal user interface (TUI) for interactive sessions"
    defaultArgs: ["--tui"],
    autoApprove: ["--auto-approve", "true"], // help: "--auto-approve <boolean>  Set tool auto-approval for all tools"
    prompt: { via: "positional" }, // help: "Usage: cline [options] [command] [prompt]"
    // Its session ids are its own ("--id <session-id>  Resume an existing session by ID") and it
    // has no "latest": no resume.
    resume: {},
    envKeys: [
      "CLINE_DIR",
      "CLINE_DATA_DIR",
      "CLINE_API_KEY",
      "CLINE_PROVIDER",
      "CLINE_MODEL",
      "CLINE_NO_AUTO_UPDATE",
      "CLINE_GLOBAL_SETTINGS_PATH",
      "CLINE_PROVIDER_SETTINGS_PATH",
      "CLINE_SESSION_BACKEND_MODE",
      "CLINE_HUB_PORT", // its hub's port: 25463 for every HOME on the machine unless set
      "OPENAI_API_KEY",
      "ANTHROPIC_API_KEY",
    ],
    home: {
      // 3.0: ~/.cline/data/{settings,sessions,db,logs,locks,cache}, hooks in ~/.cline/hooks. Each
      // directory it writes a file in is one of its own: a kept directory two levels down showed
      // an empty data/ around it (no settings: its onboarding), and copies let it write them.
      config: [".cline/", ".cline/data/", ".cline/data/settings/", ".cline/data/db/"],
      // Its conversations (sessions/, indexed in db/sessions.db). Not the rest of db/: cron.db holds
      // scheduled tasks its hub runs later, unsandboxed. Not its login (settings/providers.json): it
      // names the baseUrl the next cline sends its prompts and key to (as qwen's oauth_creds.json).
      keep: [
        ".cline/data/sessions/",
        ".cline/data/db/sessions.db",
        ".cline/data/db/sessions.db-wal",
        ".cline/data/db/sessions.db-shm",
      ],
      madeEmpty: [".cline/data/db/sessions.db", ".cline/data/db/sessions.db-wal", ".cline/data/db/sessions.db-shm"],
      scratch: [".cline/data/logs", ".cline/data/locks", ".cline/data/cache"],
    },
    domains: ["api.cline.bot", "app.cline.bot", "api.openai.com", "api.anthropic.com"],
    waitingPatterns: [
      "Approve tool call\\?", // 3.0.65: "Cline needs permission", "Approve tool call?", "[y] Approve   [n] Deny"
      "Cline needs permission",
      "Press Enter to open, any other key to close", // its first-run notices (ClinePass, Cline Desktop)
      "Connect a model provider to get started", // 3.0.65 with no provider: "Welcome to Cline", then a list of sign-ins
      ...COMMON_WAITING,
    ],
    // 3.0.65: "⠸ Thinking... (esc to cancel)"; still drawn above its question, which comes first.
    busyPatterns: ["esc to cancel"],
    readyPatterns: ["\\bAct \\(Tab\\)"], // its footer: "fake-model (10) $0.00   ○ Plan ● Act (Tab)"
    // 3.0.65 on the API's 400: "* Error: fake model: refused with 400" (a denied tool's result is an "Error: This
    // tool call was rejected by the user" under its call, no bullet: no error of the turn).
    errorPatterns: ["^\\* Error: "],
    chromePatterns: [
      "\\bAct \\(Tab\\)",
      "Auto-approve all (enabled|disabled)",
      "esc to cancel",
      "^\\s*❯ (Ask anything|What can I do for you)",
      "Use / for slash commands",
      // Under its input box, the directory's name and git branch ("work", "repo (main)"): any row
      // of one word alone reads as it (an answer of one word is not reported as the last words).
      "^[^\\s()]+( \\([^()\\s]+\\))?$",
    ],
    // 3.0.65: "[y] Approve   [n] Deny" (no "always").
    answers: { yes: ["y"], no: ["n"] },
  },
  {
    name: "continue",
    cli: "cn",
    defaultArgs: [],
    autoApprove: ["--auto"], // help (cn.txt): "--auto  Start in auto mode (all tools allowed)"
    // help: "Usage: cn [options] [command] [prompt]", "Starts an interactive session by default"
    prompt: { via: "positional" },
    // Its session ids are its own (--fork <sessionId> copies one): resume the latest.
    resume: { latest: ["--resume"] }, // help: "--resume  Resume from last session"
    envKeys: [
      "CONTINUE_GLOBAL_DIR",
      "CONTINUE_API_BASE",
      "CONTINUE_CLI_ENABLE_TELEMETRY",
      "CONTINUE_METRICS_ENABLED",
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
    ],
    home: {
      // 1.5: config.yaml, permissions.yaml ("don't ask again" is written there), sessions/, logs/, index/.
      config: [".continue/"],
      // Not its hub login (auth.json), unread here: a private copy, as the other CLIs' logins that may name a host.
      keep: [".continue/sessions/"],
      scratch: [".continue/logs", ".continue/index"],
    },
    domains: ["api.continue.dev", "hub.continue.dev", "api.anthropic.com", "api.openai.com"],
    waitingPatterns: [
      // 1.5.47: in a box, "> Continue (tab)", "Continue + don't ask again (shift+tab)", "No, … (esc)"
      "Would you like to continue\\?",
      "Enter your Anthropic API key", // with no config: "To get started, enter your Anthropic API key."
      ...COMMON_WAITING,
    ],
    busyPatterns: ["esc to interrupt"], // 1.5.47: "⠫⠺⠷  ( 11s • esc to interrupt )"
    // its input box: "● ▋Ask anything, @ for context, / for slash commands, ! for shell mode"
    readyPatterns: ["Ask anything, @ for context"],
    errorPatterns: ["^Error: "], // 1.5.47 on the API's 400: "Error: 400 fake model: refused with 400"
    chromePatterns: ["Ask anything, @ for context", "◉ Continue CLI", "esc to interrupt", "^\\s*(Config|Model): "],
    answers: { yes: ["Enter"], always: ["Down", "Enter"], no: ["Escape"] },
  },
  // The vendor-login CLIs (issue 60): each needs its vendor's login, which no fake model gives, so
  // each was seen here only up to its login screen (a question: waiting, so a user sees why it
  // stopped). Flags from their --help (test/agents/help/); their TUI past the login, unseen, is read
  // from what every CLI shares (ready when it reads its terminal, the common busy hints).
  {
    name: "auggie",
    cli: "auggie",
    defaultArgs: [],
    // No flag approves every tool (only "--permission <rule>" per tool): nothing for --yolo.
    autoApprove: [],
    // help (auggie.txt): "Usage: auggie [instruction] [options]", "[instruction]  Positional instruction"
    prompt: { via: "positional" },
    // help: "-c, --continue  Continue from the most recent session", "-r, --resume [sessionId]
    // Resume a specific session by ID or prefix"
    resume: { latest: ["--continue"] },
    envKeys: [
      "AUGMENT_SESSION_AUTH",
      "AUGMENT_API_TOKEN",
      "AUGMENT_API_URL",
      "AUGMENT_DISABLE_AUTO_UPDATE",
      "GITHUB_API_TOKEN",
    ],
    home: {
      // 0.36: ~/.augment (--augment-cache-dir's default), its login in session.json (help:
      // "AUGMENT_SESSION_AUTH … same format as ~/.augment/session.json").
      config: [".augment/"],
      // Nothing kept writable: never seen past its login here, what its next start outside does
      // with its stores was not reviewed (test/security/wave5.test.ts); a sandbox's login is a private copy.
      keep: [],
    },
    domains: ["augmentcode.com", "*.augmentcode.com"],
    waitingPatterns: [
      "Login to continue", // 0.36.0 without a login: "→ Login to continue", "Press return to open your browser"
      ...COMMON_WAITING,
    ],
    busyPatterns: GENERIC_BUSY,
    readyPatterns: [],
    chromePatterns: ["^Press return to open your browser", "You can create an account from the login page"],
    answers: { yes: ["Enter"], no: ["Escape"] },
  },
  {
    name: "amp",
    cli: "amp",
    defaultArgs: [],
    // Only its settings' "amp.dangerouslyAllowAll" approves everything; no flag: nothing for --yolo.
    autoApprove: [],
    // help (amp.txt): no prompt argument for its TUI ("echo … | amp" or -x, which runs one turn and exits): typed.
    prompt: { via: "type" },
    resume: { latest: ["last"] }, // help: "last  [alias: l] Continue the last thread"
    // help: "Environment variables:"
    envKeys: ["AMP_API_KEY", "AMP_URL", "AMP_SETTINGS_FILE", "AMP_LOG_LEVEL", "AMP_LOG_FILE"],
    home: {
      // help: settings in ~/.config/amp/settings.json, its log in ~/.cache/amp/logs/cli.log;
      // threads live on its server.
      config: [".config/amp/"],
      keep: [], // as auggie's: unreviewed, nothing kept writable
      scratch: [".cache/amp"],
    },
    domains: ["ampcode.com", "*.ampcode.com"],
    waitingPatterns: [
      // 0.0.1790142911 without AMP_API_KEY: "Would you like to log in to Amp? [(y)es, (n)o]:"
      "Would you like to log in to Amp\\?",
      ...COMMON_WAITING,
    ],
    busyPatterns: GENERIC_BUSY,
    readyPatterns: [],
    chromePatterns: ["^No API key found"],
    answers: { yes: ["y", "Enter"], no: ["n", "Enter"] },
  },
  {
    name: "qoder",
    cli: "qodercli",
    defaultArgs: [],
    // help (qoder.txt): "--dangerously-skip-permissions  Bypass all permission checks"
    autoApprove: ["--dangerously-skip-permissions"],
    // help: "-i, --prompt-interactive <text>  Execute prompt and continue in interactive mode"
    prompt: { via: "flag", flag: "--prompt-interactive" },
    // help: "--session-id <id>  Use a specific session ID", "-r, --resume [id]  Resume a previous
    // session by identifier", "-c, --continue"
    resume: { sessionIdFlag: "--session-id", byId: ["--resume", "{id}"], latest: ["--continue"] },
    envKeys: ["QODER_CONFIG_DIR", "QODER_USER_CONFIG_DIR"],
    home: {
      // 1.1.52: ~/.qoder/settings.json (trusted directories), .auth/ (its login), projects/ (sessions), logs/.
      config: [".qoder/"],
      keep: [], // as auggie's: unreviewed (its login in .auth/, sessions under projects/), nothing kept writable
      scratch: [".qoder/logs"],
    },
    domains: ["qoder.com", "*.qoder.com"],
    waitingPatterns: [
      // 1.1.52 without a login: "Welcome to Qoder CLI", "Sign in to get started, or exit the
      // application.", "❯ 1. Sign in to continue"
      "Sign in to get started",
      // before it, in a folder not in settings.json's permissions.trustDirectories
      "Do you trust the files in this folder\\?",
      ...COMMON_WAITING,
    ],
    busyPatterns: GENERIC_BUSY,
    readyPatterns: [],
    chromePatterns: ["↑/↓ navigate · Enter select", "Not Login Please Auth"],
    // 1.1.52's questions: "❯ 1. …" selected first, "↑/↓ navigate · Enter select · Esc back".
    answers: { yes: ["Enter"], no: ["Escape"] },
  },
];

/**
 * Any CLI: `t4a create --agent auto -- CLI ARGS`. No flags of its own: its prompt is typed once it
 * is idle, and approve and deny pick the question's own choices (see session/generic-agent.ts).
 * Not among PRESETS: it names no CLI to look for.
 */
export const AUTO: AgentPreset = {
  name: "auto",
  cli: "",
  generic: true,
  defaultArgs: [],
  autoApprove: [],
  prompt: { via: "type" },
  resume: {},
  envKeys: [],
  home: { config: [], keep: [] },
  domains: [],
  waitingPatterns: [],
  busyPatterns: GENERIC_BUSY,
  readyPatterns: [],
  chromePatterns: [],
  errorPatterns: GENERIC_ERRORS,
  answers: { yes: [], no: ["Escape"] },
};
