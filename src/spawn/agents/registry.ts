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
  /** Environment variables the CLI reads for its credentials (passed through by the env policy). */
  envKeys: string[];
  /** What a sandbox gives the CLI under $HOME (see SandboxHome). */
  home: SandboxHome;
  /** The hosts its API lives on: a sandbox's network allow-list lets these through (`*.` for subdomains). */
  domains: string[];
  /** How it reports its state by itself: claude's --settings hooks, codex's notify program. */
  hooks?: "claude-settings" | "codex-notify";
  /** Screen text that means the agent waits for the user (an approval question). Heuristics, tested with fake CLIs. */
  waitingPatterns: string[];
  /** Screen text that means the agent's input box is ready for a typed prompt (rows come right-trimmed). */
  readyPatterns: string[];
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
   * new entries land in a private, discarded tmpfs.
   */
  config: string[];
  /** What it must keep between sessions (conversation logs to resume from, its login): writable for real. */
  keep: string[];
}

/** Questions every one of these TUIs asks in some form: approve, allow, proceed, y/n. */
const COMMON_WAITING = [
  "Do you want to (proceed|make this edit|create|run|allow)",
  "\\b(Allow|Approve)\\b.*\\?",
  "\\[[yY]/[nN]\\]|\\([yY]/[nN]\\)",
  "❯ 1\\. Yes",
];

export const PRESETS: AgentPreset[] = [
  {
    name: "claude",
    cli: "claude",
    defaultArgs: [],
    autoApprove: ["--dangerously-skip-permissions"], // help: "--dangerously-skip-permissions  Bypass all permission checks"
    prompt: { via: "positional" }, // help: "Usage: claude [options] [command] [prompt]"; interactive by default
    resume: { sessionIdFlag: "--session-id", byId: ["--resume", "{id}"] }, // help: "--session-id <uuid>", "-r, --resume [value]  Resume a conversation by session ID"
    envKeys: ["ANTHROPIC_API_KEY"],
    home: {
      config: [".claude", ".claude.json"],
      keep: [".claude/projects", ".claude/todos", ".claude/file-history", ".claude/plans", ".claude/.credentials.json"],
    },
    domains: ["api.anthropic.com", "statsig.anthropic.com"],
    hooks: "claude-settings", // help: "--settings <file-or-json>  Path to a settings JSON file or a JSON string"
    waitingPatterns: COMMON_WAITING,
    readyPatterns: ["^\\s*[>❯]\\s*$", "│ >"],
  },
  {
    name: "codex",
    cli: "codex",
    defaultArgs: [],
    autoApprove: ["--dangerously-bypass-approvals-and-sandbox"], // help (codex.txt): "Skip all confirmation prompts and execute commands without sandboxing"
    prompt: { via: "positional" }, // help: "Usage: codex [OPTIONS] [PROMPT]", "codex resume [OPTIONS] [SESSION_ID] [PROMPT]"
    // No flag gives a new conversation an id of ours; resume the latest one in the directory.
    resume: { latest: ["resume", "--last"] }, // help (codex-resume.txt): "--last  Continue the most recent session without showing the picker"
    envKeys: ["OPENAI_API_KEY", "OPENAI_BASE_URL"],
    home: { config: [".codex"], keep: [".codex/sessions", ".codex/archived_sessions", ".codex/history.jsonl", ".codex/auth.json"] },
    domains: ["api.openai.com", "chatgpt.com", "auth.openai.com"],
    hooks: "codex-notify", // help: "-c, --config <key=value>  Override a configuration value" (notify = [program, args…])
    waitingPatterns: COMMON_WAITING,
    readyPatterns: ["^\\s*›", "^\\s*>\\s*$"],
  },
  {
    name: "gemini",
    cli: "gemini",
    defaultArgs: [],
    autoApprove: ["--yolo"], // help: "-y, --yolo  Automatically accept all actions"
    prompt: { via: "flag", flag: "--prompt-interactive" }, // help: "-i, --prompt-interactive  Execute the provided prompt and continue in interactive mode"
    resume: { sessionIdFlag: "--session-id", latest: ["--resume", "latest"] }, // help: "--session-id  Start a new session with a manually provided UUID", "-r, --resume … Use "latest" for most recent"
    envKeys: ["GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_APPLICATION_CREDENTIALS"],
    home: { config: [".gemini"], keep: [".gemini/tmp", ".gemini/oauth_creds.json", ".gemini/google_accounts.json"] },
    domains: ["generativelanguage.googleapis.com", "cloudcode-pa.googleapis.com", "oauth2.googleapis.com"],
    waitingPatterns: COMMON_WAITING,
    readyPatterns: ["^\\s*>(\\s|$)", "Type your message"],
  },
  {
    name: "qwen",
    cli: "qwen",
    defaultArgs: [],
    autoApprove: ["--yolo"], // help: "-y, --yolo  Automatically accept all actions"
    // The positional prompt is one-shot for qwen; -i keeps the session interactive.
    prompt: { via: "flag", flag: "--prompt-interactive" }, // help: "-i, --prompt-interactive  Execute the provided prompt and continue in interactive mode"
    resume: { sessionIdFlag: "--session-id", byId: ["--resume", "{id}"] }, // help: "--session-id  Specify a session ID for this run", "-r, --resume  Resume a specific session by its ID"
    envKeys: ["DASHSCOPE_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"],
    home: { config: [".qwen"], keep: [".qwen/tmp", ".qwen/projects", ".qwen/oauth_creds.json"] },
    domains: ["dashscope.aliyuncs.com", "dashscope-intl.aliyuncs.com", "chat.qwen.ai", "portal.qwen.ai"],
    waitingPatterns: COMMON_WAITING,
    readyPatterns: ["^\\s*>(\\s|$)", "Type your message"],
  },
  {
    name: "opencode",
    cli: "opencode",
    defaultArgs: [],
    autoApprove: ["--auto"], // help (opencode.txt): "--auto  auto-approve permissions that are not explicitly denied (dangerous!)"
    prompt: { via: "flag", flag: "--prompt" }, // help: "--prompt  prompt to use"
    // Its session ids are its own (no flag sets one): resume the latest.
    resume: { latest: ["--continue"] }, // help: "-c, --continue  continue the last session"
    envKeys: ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"],
    home: {
      config: [".config/opencode", ".local/share/opencode", ".local/state/opencode", ".cache/opencode"],
      keep: [".local/share/opencode/storage", ".local/share/opencode/auth.json", ".local/state/opencode"],
    },
    domains: ["api.anthropic.com", "api.openai.com", "generativelanguage.googleapis.com", "opencode.ai", "models.dev"],
    waitingPatterns: COMMON_WAITING,
    readyPatterns: ["^\\s*>(\\s|$)", "┃\\s*$"],
  },
];
