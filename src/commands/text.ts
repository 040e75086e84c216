// text: rendered rows of the viewport, the scrollback or both, counted from the bottom (0 = last row).
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { shownRows, shownStyledRows } from "../protocol/program-text.ts";
import { TerminalId } from "../protocol/fields.ts";
import { intOption } from "./cli-helpers.ts";
import { defineCommand, textContent } from "./command.ts";

const RowIndex = deferred(() =>
  v.pipe(v.number(), v.integer("must be an integer"), v.minValue(0, "must not be negative")),
);

export const TextParams = deferred(() =>
  v.object({
    id: TerminalId,
    start: v.optional(
      v.pipe(RowIndex, v.description("first row to read, counted from the bottom (0 = last row); inclusive")),
    ),
    end: v.optional(
      v.pipe(
        RowIndex,
        v.description("row to stop before, counted from the bottom; omit start and end to read the whole region"),
      ),
    ),
    trim: v.optional(v.pipe(v.boolean(), v.description("drop trailing blanks of each row")), true),
    region: v.optional(
      v.pipe(
        v.picklist(["viewport", "scrollback", "all"]),
        v.description("viewport (the screen), scrollback (rows that scrolled off above it) or all"),
      ),
      "viewport",
    ),
    tail: v.optional(
      v.pipe(
        v.number(),
        v.integer("must be an integer"),
        v.minValue(1, "must be at least 1"),
        v.description(
          "the last N rows that hold something: ending at the last non-blank " +
            "row or the cursor row, whichever is lower; overrides start/end",
        ),
      ),
    ),
    trim_rows: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "drop the blank rows below the last non-blank row and " +
            "the cursor row; the reply says how many in trimmed_rows",
        ),
      ),
      false,
    ),
    styles: v.optional(
      v.pipe(v.boolean(), v.description("each style change as the SGR codes tmux's capture-pane -e writes")),
    ),
    join_wrapped: v.optional(
      v.pipe(v.boolean(), v.description("soft-wrapped rows as one line, their trailing spaces kept (tmux -J)")),
    ),
    keep_spaces: v.optional(
      v.pipe(
        v.boolean(),
        v.description("trailing spaces the program wrote kept; cells never written left out (tmux -N)"),
      ),
    ),
    since: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d+\.\d+\.-?\d+$/, "since must be a token from an earlier text reply"),
        v.description("a token from an earlier read: answer only the rows changed or scrolled in since then"),
      ),
    ),
  }),
);

export const TextReply = deferred(() =>
  v.object({
    lines: v.array(v.string()),
    region: v.picklist(["viewport", "scrollback", "all"]),
    total_lines: v.number(),
    /** Hand it back as `since` for the rows changed after this read. */
    token: v.string(),
    start: v.optional(v.number()),
    end: v.optional(v.number()),
    trimmed_rows: v.optional(v.number()),
    /** Delta reads: each line's row from the bottom, and whether every row came (the token was too old). */
    rows: v.optional(v.array(v.number())),
    full: v.optional(v.boolean()),
  }),
);

export const text = defineCommand({
  name: "text",
  params: TextParams,
  reply: TextReply,
  async handle(params, ctx) {
    const terminal = ctx.sessions.get(params.id).terminal;
    await terminal.settled();
    const screen = terminal.screen;
    const total = screen.regionLength(params.region);
    const token = screen.changeToken();
    const captured = params.styles || params.join_wrapped || params.keep_spaces;
    if (captured && params.since !== undefined)
      throw new T4aError("invalid_params", "styles, join_wrapped and keep_spaces do not go with since");
    if (params.since !== undefined) {
      // Delta read: the changed rows alone, each with its index from the bottom of the region.
      const changed = screen.changedSince(params.since, params.region);
      // A row's index from the region's bottom is that bottom's stable number minus its own.
      const bottom = screen.fromBottom(0, params.region);
      return {
        lines: shownRows(params.trim ? changed.lines : changed.lines.map((line) => line.padEnd(screen.cols))),
        rows: changed.rows.map((row) => bottom - row),
        full: !changed.partial,
        region: params.region,
        total_lines: total,
        token,
      };
    }
    // Rows count from the bottom (seed 004), but a fresh screen's text sits at the top: "the last
    // few lines" a script means are the last few above the blank rows.
    const blank = params.tail !== undefined || params.trim_rows ? screen.blankRowsBelow(params.region) : 0;
    let start = Math.min(params.start ?? 0, total);
    let end = Math.min(params.end ?? total, total);
    if (params.tail !== undefined) {
      start = Math.min(blank, total);
      end = Math.min(blank + params.tail, total);
    } else if (params.trim_rows && params.start === undefined) {
      start = Math.min(blank, end);
    }
    if (start > end) throw new T4aError("invalid_params", `start (${start}) is past end (${end})`);
    if (captured) {
      const options = {
        styles: params.styles === true,
        join: params.join_wrapped === true,
        keepSpaces: params.keep_spaces === true,
      };
      // The program's rows still: t4a's SGR kept when styled, a cell's bidi control out either way.
      const rows = screen.capture(params.region, start, end, options);
      const lines = options.styles ? shownStyledRows(rows) : shownRows(rows);
      return { lines, region: params.region, start, end, total_lines: total, token };
    }
    // The program's rows: a bidi control in a cell would reorder the reader's terminal.
    const lines = shownRows(screen.lines(params.region, start, end, params.trim));
    const trimmed = params.trim_rows ? { trimmed_rows: start - (params.start ?? 0) } : {};
    return { lines, region: params.region, start, end, total_lines: total, token, ...trimmed };
  },
  cli: {
    usage: "text <id> [range]",
    summary: "Print screen rows; range is start:end counted from the bottom (0 = last row), e.g. 0:5",
    options: [
      ["--scrollback", "read the scrollback instead of the viewport"],
      ["--all", "read scrollback and viewport together"],
      ["--tail <n>", "the last n rows that hold something (blank rows below the text and the cursor skipped)"],
      ["--no-trim", "keep trailing blanks of each row"],
      ["--since <token>", "only rows changed since an earlier read (its token: see --json)"],
    ],
    examples: [
      "t4a text t1",
      "t4a text t1 --tail 5  # the last five rows with text in them",
      "t4a text t1 0:5      # the bottom five rows of the screen, blank or not",
      "t4a text t1 --all",
    ],
    request([id, range], options) {
      const region = options.all ? "all" : options.scrollback ? "scrollback" : "viewport";
      const since = options.since === undefined ? undefined : String(options.since);
      return {
        id,
        region,
        trim: options.trim !== false,
        since,
        tail: intOption(options.tail, "--tail"),
        ...parseRange(range),
      };
    },
    print(response) {
      const lines = response.lines as string[];
      if (lines.length) console.log(lines.join("\n"));
    },
  },
  mcp: {
    tool: "terminal_read",
    description:
      "A terminal's screen as plain text, one line per row: exact characters. " +
      "Rows count from the bottom (0 = last row): start 0, end " +
      "5 is the bottom five; tail 5 the last five holding text. " +
      "The header line's token, passed as `since`, gets only the " +
      'rows changed since ("row: text"): the cheapest way to follow. ' +
      "~1 token per 4 characters: 80x24 up to ~500.",
    // tmux's capture-pane forms (the tmux front end's): a model has no use for SGR codes.
    hide: ["styles", "join_wrapped", "keep_spaces"],
    // An agent pays tokens for every blank row of an empty screen: leave them out unless asked.
    request: (args) => ({ trim_rows: true, ...args }),
    result(response) {
      const lines = response.lines as string[];
      const { region, total_lines: total, token } = response;
      if (response.rows === undefined) {
        const span = lines.length ? `, rows ${(response.end as number) - 1}..${response.start} from the bottom` : "";
        const trimmed = response.trimmed_rows ? `, ${response.trimmed_rows} blank rows below left out` : "";
        return textContent(
          [`[${lines.length} of ${total} ${region} lines${span}${trimmed}; token ${token}]`, ...lines].join("\n"),
        );
      }
      const rows = response.rows as number[];
      const what = response.full
        ? `layout changed: all ${total} ${region} lines`
        : `${lines.length} of ${total} ${region} lines changed`;
      return textContent(
        [
          `[${what}, as "row: text", 0 = bottom; token ${token}]`,
          ...lines.map((line, i) => `${rows[i]}: ${line}`),
        ].join("\n"),
      );
    },
  },
  http: [{ method: "GET", path: "/api/sessions/:id/text" }],
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
