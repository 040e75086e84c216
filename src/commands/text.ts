// text: rendered rows of the viewport, the scrollback or both, counted from the bottom (0 = last row).
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import { TerminalId } from "../protocol/fields.ts";
import { defineCommand } from "./command.ts";

const RowIndex = v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0, "must not be negative"));

export const TextParams = v.object({
  id: TerminalId,
  start: v.optional(RowIndex),
  end: v.optional(RowIndex),
  trim: v.optional(v.boolean(), true),
  region: v.optional(v.picklist(["viewport", "scrollback", "all"]), "viewport"),
});

export const text = defineCommand({
  name: "text",
  params: TextParams,
  async handle(params, ctx) {
    const terminal = ctx.pool.get(params.id);
    await terminal.settled();
    const total = terminal.screen.regionLength(params.region);
    const start = Math.min(params.start ?? 0, total);
    const end = Math.min(params.end ?? total, total);
    if (start > end) throw new T4aError("invalid_params", `start (${start}) is past end (${end})`);
    return {
      lines: terminal.screen.lines(params.region, start, end, params.trim),
      region: params.region,
      start,
      end,
      total_lines: total,
    };
  },
  cli: {
    usage: "text <id> [range]",
    summary: "Print screen rows; range is start:end counted from the bottom (0 = last row), e.g. 0:5",
    options: [
      ["--scrollback", "read the scrollback instead of the viewport"],
      ["--all", "read scrollback and viewport together"],
      ["--no-trim", "keep trailing blanks"],
    ],
    examples: ["t4a text t1", "t4a text t1 0:5      # the last five rows", "t4a text t1 --all"],
    request([id, range], options) {
      const region = options.all ? "all" : options.scrollback ? "scrollback" : "viewport";
      return { id, region, trim: options.trim !== false, ...parseRange(range) };
    },
    print(response) {
      const lines = response.lines as string[];
      if (lines.length) console.log(lines.join("\n"));
    },
  },
});

/** `start:end`, `:end`, `start:` or a single row `n`. */
function parseRange(range: string | undefined): { start?: number; end?: number } {
  if (range === undefined) return {};
  const match = /^(\d*)(?::(\d*))?$/.exec(range);
  if (!match) throw new T4aError("invalid_params", `range must look like start:end, got "${range}"`);
  const start = match[1] ? Number(match[1]) : undefined;
  if (match[2] === undefined) return start === undefined ? {} : { start, end: start + 1 };
  return { start, end: match[2] ? Number(match[2]) : undefined };
}
