// screenshot: the screen as a PNG drawn from the embedded bitmap font. Answers a header line with
// `len`, then exactly that many PNG bytes; or, with encoding "base64", the PNG inside the JSON line.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { TerminalId } from "../protocol/fields.ts";
import { intOption } from "./cli-helpers.ts";
import { BinaryReply, defineCommand } from "./command.ts";

/** Larger images take seconds and gigabytes, stalling every session: 1000x1000 cells at 100% is 200 Mpx. */
const MAX_PIXELS = 40_000_000;

export const ScreenshotParams = deferred(() =>
  v.object({
    id: TerminalId,
    cursor: v.optional(v.pipe(v.boolean(), v.description("draw the cursor (a hidden cursor is never drawn)")), true),
    pad: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(10),
        v.description("border around the screen, in cells"),
      ),
      0,
    ),
    scale: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(10),
        v.maxValue(400),
        v.description("size in percent of 10x20 px per cell: 66 draws 80x24 as 528x317 px"),
      ),
      66,
    ),
    encoding: v.optional(v.picklist(["binary", "base64"]), "binary"),
  }),
);

/** The PNG follows the line as `len` raw bytes, or comes inline as base64 `png`. */
export const ScreenshotReply = deferred(() => v.object({ len: v.number(), png: v.optional(v.string()) }));

export const screenshot = defineCommand({
  name: "screenshot",
  params: ScreenshotParams,
  reply: ScreenshotReply,
  async handle(params, ctx) {
    const terminal = ctx.sessions.get(params.id).terminal;
    const pixels =
      (((terminal.screen.cols + 2 * params.pad) * 10 * params.scale) / 100) *
      (((terminal.screen.rows + 2 * params.pad) * 20 * params.scale) / 100);
    if (pixels > MAX_PIXELS) {
      throw new T4aError(
        "invalid_params",
        `a ${terminal.screen.cols}x${terminal.screen.rows} screen at ${params.scale}% ` +
          `is ${Math.round(pixels / 1e6)} Mpx, over ${MAX_PIXELS / 1e6}; lower the scale`,
      );
    }
    await terminal.settled();
    const grid = terminal.screen.cellGrid();
    // The renderer (font, rasteriser, PNG) loads on the first screenshot: CLI calls never pay for it.
    const { renderScreenshot } = await import("../render/screenshot.ts");
    const png = renderScreenshot(grid, { cursor: params.cursor, pad: params.pad, scale: params.scale });
    if (params.encoding === "base64") return { len: png.length, png: Buffer.from(png).toString("base64") };
    return new BinaryReply({ len: png.length }, png);
  },
  cli: {
    usage: "screenshot <id>",
    summary: "Render the screen as PNG (to stdout, or -o file)",
    options: [
      ["-o, --output <file>", "write the PNG here instead of stdout"],
      ["--scale <percent>", "size in percent of 10x20 px per cell (default 66)"],
      ["--pad <cells>", "border around the screen, in cells (default 0)"],
      ["--no-cursor", "do not draw the cursor"],
    ],
    examples: ["t4a screenshot t1 -o screen.png", "t4a screenshot t1 --scale 100 > big.png"],
    async request([id], options) {
      // PNG bytes on a terminal are garbage on the screen (and may be read as escape sequences).
      if (typeof options.output !== "string" && (await import("node:tty")).isatty(1)) {
        throw new T4aError(
          "invalid_params",
          "screenshot: stdout is a terminal; write the PNG to a file with -o screen.png, or redirect it (> screen.png)",
        );
      }
      return {
        id,
        scale: intOption(options.scale, "--scale"),
        pad: intOption(options.pad, "--pad"),
        cursor: options.cursor === false ? false : undefined,
      };
    },
    async print(_response, options, payload) {
      const { writeFileSync, writeSync } = await import("node:fs");
      if (typeof options.output === "string") writeFileSync(options.output, payload!);
      else writeSync(1, payload!);
    },
  },
  mcp: {
    tool: "terminal_screenshot",
    description:
      "Look at a terminal as a person would: a PNG of the screen, colours, attributes and cursor. " +
      "The best first look at full-screen programs (vim, htop, TUIs). " +
      "~225 image tokens at the default size (80x24: 528x317 px), ~510 at scale 100. " +
      "Exact characters: terminal_read; to act on a TUI: terminal_snapshot.",
    // The image always travels inline in the tool result.
    hide: ["encoding"],
    result: (_response, payload) => [
      { type: "image", data: Buffer.from(payload!).toString("base64"), mimeType: "image/png" },
    ],
  },
  http: [{ method: "GET", path: "/api/sessions/:id/screenshot.png" }],
});
