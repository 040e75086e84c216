// The command table: every protocol command, in the order the CLI help lists them.
// Adding a command = one file + one line here. CLI (and later MCP/HTTP) are generated from it.
import { agents } from "./agents.ts";
import { approve, deny } from "./approve.ts";
import { ask } from "./ask.ts";
import { transcript } from "./transcript.ts";
import { trust } from "./trust.ts";
import { attach } from "./attach.ts";
import type { Command } from "./command.ts";
import { config } from "./config.ts";
import { create } from "./create.ts";
import { cursor } from "./cursor.ts";
import { snapshot } from "./snapshot.ts";
import { choose } from "./choose.ts";
import { click } from "./click.ts";
import { fill } from "./fill.ts";
import { diff } from "./diff.ts";
import { events } from "./events.ts";
import { exec } from "./exec.ts";
import { info } from "./info.ts";
import { kill } from "./kill.ts";
import { restart } from "./restart.ts";
import { restore } from "./restore.ts";
import { list } from "./list.ts";
import { notify } from "./notify.ts";
import { record } from "./record.ts";
import { resize } from "./resize.ts";
import { run } from "./run.ts";
import { screenshot } from "./screenshot.ts";
import { send } from "./send.ts";
import { shutdown } from "./shutdown.ts";
import { text } from "./text.ts";
import { tmuxState } from "./tmux-state.ts";
import { down } from "./down.ts";
import { up } from "./up.ts";
import { wait } from "./wait.ts";
import { web } from "./web.ts";

const table = [
  create,
  list,
  send,
  text,
  screenshot,
  cursor,
  snapshot,
  choose,
  click,
  fill,
  wait,
  run,
  exec,
  resize,
  events,
  attach,
  record,
  kill,
  restore,
  restart,
  up,
  down,
  agents,
  ask,
  approve,
  deny,
  transcript,
  diff,
  trust,
  notify,
  web,
  config,
  info,
  shutdown,
  tmuxState,
] as const;

export const commands: Command[] = [...table] as Command[];

/** Every command with its own schemas' types (src/lib/wire.ts makes the client library's types of them). */
export type CommandTable = (typeof table)[number];

export const commandsByName = new Map(commands.map((command) => [command.name, command]));
