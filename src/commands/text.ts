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
  /** A token from an earlier text reply: answer only rows changed or scrolled in since then. */
  since: v.optional(v.pipe(v.string(), v.regex(/^\d+\.\d+\.-?\d+$/, "since must be a token from an earlier text reply"))),
});

export const text = defineCommand({
  name: "text",
  params: TextParams,
  async handle(params, ctx) {
    const terminal = ctx.pool.get(params.id);
    await terminal.settled();
    const screen = terminal.screen;
    const total = screen.regionLength(params.region);
    const token = screen.changeToken();
    if (params.since !== undefined) {
      // Delta read: the changed rows alone, each with its index from the bottom of the region.
      const changed = screen.changedSince(params.since, params.region);
      const lines = changed.rows.map((row) => screen.row(row)?.text ?? "");
      return {
        lines: params.trim ? lines : lines.map((line) => line.padEnd(screen.cols)),
        rows: changed.rows.map((row) => screen.fromBottom(row, params.region)),
        full: !changed.partial,
        region: params.region,
        total_lines: total,
        token,
      };
    }
    const start = Math.min(params.start ?? 0, total);
    const end = Math.min(params.end ?? total, total);
    if (start > end) throw new T4aError("invalid_params", `start (${start}) is past end (${end})`);
    return { lines: screen.lines(params.region, start, end, params.trim), region: params.region, start, end, total_lines: total, token };
  },
  cli: {
    usage: "text <id> [range]",
    summary: "Print screen rows; range is start:end counted from the bottom (0 = last row), e.g. 0:5",
    options: [
      ["--scrollback", "read the scrollback instead of the viewport"],
      ["--all", "read scrollback and viewport together"],
      ["--no-trim", "keep trailing blanks"],
      ["--since <token>", "only rows changed since an earlier read (its token: see --json)"],
    ],
    examples: ["t4a text t1", "t4a text t1 0:5      # the last five rows", "t4a text t1 --all"],
    request([id, range], options) {
      const region = options.all ? "all" : options.scrollback ? "scrollback" : "viewport";
      const since = options.since === undefined ? undefined : String(options.since);
      return { id, region, trim: options.trim !== false, since, ...parseRange(range) };
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
