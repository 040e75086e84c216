// attach: after its JSON answer the connection carries frames both ways (stream/frames.ts): the
// screen replayed, then every output byte, while the client sends keys and its size. Several
// clients may attach at once; the last to resize sets the size (tmux's window-size latest).
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { Dimension, TerminalId } from "../protocol/fields.ts";
import { defineCommand, DuplexReply } from "./command.ts";

export const AttachParams = deferred(() =>
  v.object({
    id: TerminalId,
    cols: v.optional(
      v.pipe(Dimension, v.description("the client's columns: the terminal is resized to them (not when read_only)")),
    ),
    rows: v.optional(v.pipe(Dimension, v.description("the client's rows"))),
    read_only: v.optional(v.pipe(v.boolean(), v.description("watch only: input and resize frames are ignored")), false),
    scrollback: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(100_000),
        v.description("rows of scrollback replayed above the screen"),
      ),
      0,
    ),
  }),
);

export const AttachReply = deferred(() =>
  v.object({
    id: v.string(),
    cols: v.number(),
    rows: v.number(),
    alive: v.boolean(),
    framing: v.literal("t4a-frames-1"),
  }),
);

export const attach = defineCommand({
  name: "attach",
  params: AttachParams,
  reply: AttachReply,
  async handle(params, ctx) {
    const session = ctx.sessions.get(params.id);
    const terminal = session.terminal;
    const [{ frameViewer }, { FrameReader }] = await Promise.all([
      import("../stream/attachment.ts"),
      import("../protocol/frames.ts"),
    ]);
    if (!params.read_only && terminal.alive && params.cols !== undefined && params.rows !== undefined)
      terminal.resize(params.cols, params.rows);
    const fields = {
      id: params.id,
      cols: terminal.screen.cols,
      rows: terminal.screen.rows,
      alive: terminal.alive,
      framing: "t4a-frames-1" as const,
    };
    return new DuplexReply(fields, (transport) => {
      const attachment = session.view(frameViewer(transport), {
        readOnly: params.read_only,
        scrollback: params.scrollback,
      });
      const reader = new FrameReader();
      return {
        receive(bytes) {
          try {
            for (const frame of reader.push(bytes)) attachment.receive(frame.type, frame.payload);
          } catch {
            attachment.close(); // a broken peer: drop it, the terminal goes on
          }
        },
        closed: () => attachment.close(),
      };
    });
  },
  cli: {
    usage: "attach <id>",
    summary: "Show a terminal here and type into it (detach: C-\\); the session goes on after",
    options: [
      ["--read-only", "watch only: keys and size are not sent"],
      ["--detach-key <key>", "the key that detaches (default C-\\); e.g. C-] or C-q"],
    ],
    examples: ["t4a attach t1", "t4a attach t1 --read-only"],
    request: ([id], options) => ({
      id,
      read_only: options.readOnly === true ? true : undefined,
      // The session takes the caller's size, as tmux attach does.
      cols: process.stdout.isTTY ? process.stdout.columns : undefined,
      rows: process.stdout.isTTY ? process.stdout.rows : undefined,
    }),
    attachUi: (options) => ({
      readOnly: options.readOnly === true,
      detachKey: options.detachKey === undefined ? "C-\\" : String(options.detachKey),
    }),
  },
});
