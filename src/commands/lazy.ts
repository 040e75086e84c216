// The command table for the CLI, one module per command loaded on demand: a shell loop's
// `t4a list` loads list.ts and its schema, not every command's (index.ts loads them all, for the
// daemon, MCP and the web). A test checks the two tables name the same commands in the same order.
import type { Command } from "./command.ts";

export const commandLoaders: Record<string, () => Promise<Command>> = {
  create: async () => (await import("./create.ts")).create as Command,
  list: async () => (await import("./list.ts")).list as Command,
  send: async () => (await import("./send.ts")).send as Command,
  text: async () => (await import("./text.ts")).text as Command,
  screenshot: async () => (await import("./screenshot.ts")).screenshot as Command,
  cursor: async () => (await import("./cursor.ts")).cursor as Command,
  snapshot: async () => (await import("./snapshot.ts")).snapshot as Command,
  choose: async () => (await import("./choose.ts")).choose as Command,
  click: async () => (await import("./click.ts")).click as Command,
  fill: async () => (await import("./fill.ts")).fill as Command,
  wait: async () => (await import("./wait.ts")).wait as Command,
  run: async () => (await import("./run.ts")).run as Command,
  exec: async () => (await import("./exec.ts")).exec as Command,
  resize: async () => (await import("./resize.ts")).resize as Command,
  events: async () => (await import("./events.ts")).events as Command,
  attach: async () => (await import("./attach.ts")).attach as Command,
  record: async () => (await import("./record.ts")).record as Command,
  kill: async () => (await import("./kill.ts")).kill as Command,
  restore: async () => (await import("./restore.ts")).restore as Command,
  restart: async () => (await import("./restart.ts")).restart as Command,
  up: async () => (await import("./up.ts")).up as Command,
  down: async () => (await import("./down.ts")).down as Command,
  agents: async () => (await import("./agents.ts")).agents as Command,
  ask: async () => (await import("./ask.ts")).ask as Command,
  approve: async () => (await import("./approve.ts")).approve as Command,
  deny: async () => (await import("./approve.ts")).deny as Command,
  transcript: async () => (await import("./transcript.ts")).transcript as Command,
  diff: async () => (await import("./diff.ts")).diff as Command,
  trust: async () => (await import("./trust.ts")).trust as Command,
  notify: async () => (await import("./notify.ts")).notify as Command,
  web: async () => (await import("./web.ts")).web as Command,
  config: async () => (await import("./config.ts")).config as Command,
  info: async () => (await import("./info.ts")).info as Command,
  shutdown: async () => (await import("./shutdown.ts")).shutdown as Command,
  tmux_state: async () => (await import("./tmux-state.ts")).tmuxState as Command,
};

/** Every command, in table order (help, unknown names): loads them all. */
export async function loadAll(): Promise<Command[]> {
  return Promise.all(Object.values(commandLoaders).map((load) => load()));
}
