// resize: change a terminal's size; the program gets SIGWINCH.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { Dimension, TerminalId } from "../protocol/fields.ts";
import { intOption } from "./cli-helpers.ts";
import { defineCommand } from "./command.ts";

export const ResizeParams = deferred(() =>
  v.object({
    id: TerminalId,
    cols: v.pipe(Dimension, v.description("columns, 1..1000")),
    rows: v.pipe(Dimension, v.description("rows, 1..1000")),
  }),
);

export const ResizeReply = deferred(() => v.object({ cols: v.number(), rows: v.number() }));

export const resize = defineCommand({
  name: "resize",
  params: ResizeParams,
  reply: ResizeReply,
  handle(params, ctx) {
    const terminal = ctx.sessions.get(params.id).alive;
    terminal.resize(params.cols, params.rows);
    return { cols: params.cols, rows: params.rows };
  },
  cli: {
    usage: "resize <id> <cols> <rows>",
    summary: "Resize a terminal (1..1000 each way)",
    request: ([id, cols, rows]) => ({ id, cols: intOption(cols, "cols"), rows: intOption(rows, "rows") }),
  },
  mcp: {
    tool: "terminal_resize",
    description:
      "Change a terminal's size; the program is told (SIGWINCH) and redraws. Use it " +
      "to give a wide table or a TUI more room. Answers the new size as short JSON.",
  },
  http: [{ method: "POST", path: "/api/sessions/:id/resize" }],
});
