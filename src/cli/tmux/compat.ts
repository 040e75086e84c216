// docs/tmux.md's compatibility tables, made from the tables the front end runs on (grammar.ts's
// commands and flags, the refused commands, panes.ts's format variables, options.ts's options):
// test/tmux-docs.test.ts fails when the page says anything else. Pure text.
import { COMMANDS, NOT_IMPLEMENTED_WHY, tmuxCommandNames } from "./grammar.ts";
import { HONOURED_OPTIONS, OPTION_DEFAULTS } from "./options.ts";
import { variableNames } from "./panes.ts";

const flags = (letters: string) => (letters ? [...letters].map((letter) => `-${letter}`).join(" ") : "");

export function compatibilityMarkdown(): string {
  const lines: string[] = [];
  lines.push("### Commands", "");
  lines.push("| command | supported | accepted, no effect | refused | what t4a does |");
  lines.push("|---|---|---|---|---|");
  for (const command of COMMANDS) {
    const all = command.template.replace(/:/g, "");
    const ignored = command.ignored ?? "";
    const refused = command.refused ?? "";
    const supported = [...all].filter((letter) => !ignored.includes(letter) && !refused.includes(letter)).join("");
    const name = command.alias ? `${command.name} (${command.alias})` : command.name;
    const note = command.note.replace(/\|/g, "\\|");
    lines.push(`| ${name} | ${flags(supported)} | ${flags(ignored)} | ${flags(refused)} | ${note} |`);
  }
  lines.push("", "Any other flag: tmux's own `command NAME: unknown flag -X`, exit 1.", "");
  lines.push("### tmux commands t4a refuses", "");
  lines.push("Each fails with exit 1 and `t4a does not implement tmux's NAME` (and why, where a line says).", "");
  lines.push("| command | why |");
  lines.push("|---|---|");
  for (const name of tmuxCommandNames()) lines.push(`| ${name} | ${NOT_IMPLEMENTED_WHY[name] ?? ""} |`);
  lines.push("", "### Format variables", "");
  lines.push(
    variableNames()
      .map((name) => `\`${name}\``)
      .join(" "),
  );
  lines.push(
    "",
    "and `@user` options (the pane's session's, else the global ones). Any other name expands to nothing, as in tmux.",
  );
  lines.push("", "### Options", "");
  lines.push(`Honoured: ${HONOURED_OPTIONS.map((name) => `\`${name}\``).join(", ")}.`);
  lines.push(
    `Shown with tmux's defaults by \`show-options -g\`: ${Object.keys(OPTION_DEFAULTS)
      .map((name) => `\`${name}\``)
      .join(", ")}.`,
  );
  return `${lines.join("\n")}\n`;
}
