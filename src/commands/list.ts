// list: every terminal with its size, pid, liveness and title.
import * as v from "valibot";
import { defineCommand } from "./command.ts";

export const ListParams = v.object({});

export const list = defineCommand({
  name: "list",
  params: ListParams,
  handle(_params, ctx) {
    return { terminals: ctx.pool.list().map((terminal) => terminal.info()) };
  },
  cli: {
    usage: "list",
    summary: "List terminals: id, size, pid, state, title",
    request: () => ({}),
    print(response) {
      const terminals = response.terminals as Array<Record<string, unknown>>;
      for (const t of terminals) {
        const state = t.alive ? "alive" : `exited(${t.signal ?? t.exit_code})`;
        console.log(`${t.id}\t${t.cols}x${t.rows}\t${t.pid}\t${state}\t${t.title}`);
      }
    },
  },
});
