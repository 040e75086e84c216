// cursor: where the cursor is (row from the top of the viewport, col from the left) and whether it shows.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { TerminalId } from "../protocol/fields.ts";
import { defineCommand } from "./command.ts";

export const CursorParams = deferred(() => v.object({ id: TerminalId }));

export const CursorReply = deferred(() =>
  v.object({ row: v.number(), col: v.number(), visible: v.boolean(), style: v.string() }),
);

export const cursor = defineCommand({
  name: "cursor",
  params: CursorParams,
  reply: CursorReply,
  async handle(params, ctx) {
    const terminal = ctx.sessions.get(params.id).terminal;
    await terminal.settled();
    const { row, col, visible, style } = terminal.screen.cursor();
    return { row, col, visible, style };
  },
  cli: {
    usage: "cursor <id>",
    summary: "Print the cursor position as 'row col' (0-based, from the top left) and its visibility",
    request: ([id]) => ({ id }),
    print(response) {
      console.log(`${response.row} ${response.col} ${response.visible ? "visible" : "hidden"}`);
    },
  },
  mcp: {
    tool: "terminal_cursor",
    description:
      "Where the cursor is (0-based row, col from the top left), whether it shows and its style, as short JSON.",
  },
  http: [{ method: "GET", path: "/api/sessions/:id/cursor" }],
});
