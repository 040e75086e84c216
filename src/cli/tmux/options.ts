// tmux 3.3a's option names and the defaults shown for the common ones: set-option accepts these
// (and @user options) and refuses any other name with tmux's "invalid option". Data only.

/** Options with their tmux defaults, as `show-options -g` prints them. */
export const OPTION_DEFAULTS: Record<string, string> = {
  "activity-action": "other",
  "aggressive-resize": "off",
  "allow-rename": "off",
  "alternate-screen": "on",
  "assume-paste-time": "1",
  "automatic-rename": "on",
  "base-index": "0",
  "bell-action": "any",
  "buffer-limit": "50",
  "default-command": "''",
  "default-terminal": "screen",
  "destroy-unattached": "off",
  "detach-on-destroy": "on",
  "display-time": "750",
  "escape-time": "500",
  "exit-empty": "on",
  "exit-unattached": "off",
  "focus-events": "off",
  "history-limit": "2000",
  "mode-keys": "emacs",
  mouse: "off",
  "pane-base-index": "0",
  prefix: "C-b",
  "remain-on-exit": "off",
  "renumber-windows": "off",
  "repeat-time": "500",
  "set-clipboard": "external",
  "set-titles": "off",
  status: "on",
  "status-interval": "15",
  "status-keys": "emacs",
  "synchronize-panes": "off",
  "window-size": "latest",
};

/** Every other option name tmux 3.3a knows. */
const OTHER_OPTIONS = [
  "allow-passthrough",
  "automatic-rename-format",
  "backspace",
  "clock-mode-colour",
  "clock-mode-style",
  "command-alias",
  "copy-command",
  "copy-mode-current-match-style",
  "copy-mode-mark-style",
  "copy-mode-match-style",
  "cursor-colour",
  "cursor-style",
  "default-shell",
  "default-size",
  "display-panes-active-colour",
  "display-panes-colour",
  "display-panes-time",
  "editor",
  "extended-keys",
  "fill-character",
  "history-file",
  "key-table",
  "lock-after-time",
  "lock-command",
  "main-pane-height",
  "main-pane-width",
  "message-command-style",
  "message-limit",
  "message-style",
  "monitor-activity",
  "monitor-bell",
  "monitor-silence",
  "other-pane-height",
  "other-pane-width",
  "pane-active-border-style",
  "pane-border-format",
  "pane-border-indicators",
  "pane-border-lines",
  "pane-border-status",
  "pane-border-style",
  "pane-colours",
  "popup-border-lines",
  "popup-border-style",
  "popup-style",
  "prefix2",
  "prompt-history-limit",
  "remain-on-exit-format",
  "scroll-on-clear",
  "set-titles-string",
  "silence-action",
  "status-bg",
  "status-fg",
  "status-format",
  "status-justify",
  "status-left",
  "status-left-length",
  "status-left-style",
  "status-position",
  "status-right",
  "status-right-length",
  "status-right-style",
  "status-style",
  "terminal-features",
  "terminal-overrides",
  "update-environment",
  "user-keys",
  "visual-activity",
  "visual-bell",
  "visual-silence",
  "window-active-style",
  "window-status-activity-style",
  "window-status-bell-style",
  "window-status-current-format",
  "window-status-current-style",
  "window-status-format",
  "window-status-last-style",
  "window-status-separator",
  "window-status-style",
  "window-style",
  "word-separators",
  "wrap-search",
  "xterm-keys",
];

const KNOWN = new Set([...Object.keys(OPTION_DEFAULTS), ...OTHER_OPTIONS]);

/** An option tmux knows, a user option, or an array option's element (`name[0]`). */
export function isKnownOption(name: string): boolean {
  if (name.startsWith("@")) return name.length > 1;
  return KNOWN.has(name.replace(/\[\d+\]$/, ""));
}

/**
 * tmux's options_match: an exact name, else a unique prefix of one; several: "ambiguous"; none:
 * undefined (the caller says "invalid option").
 */
export function matchOption(name: string): { name: string } | { ambiguous: true } | undefined {
  if (isKnownOption(name)) return { name };
  const base = name.replace(/\[\d+\]$/, "");
  const found = [...KNOWN].filter((known) => known.startsWith(base));
  if (found.length === 1) return { name: found[0]! + name.slice(base.length) };
  return found.length > 1 ? { ambiguous: true } : undefined;
}

/** The options whose value t4a acts on (the docs' table says what each does). */
export const HONOURED_OPTIONS = ["history-limit", "remain-on-exit"];
