// tmux's format language (FORMATS in tmux(1)), the part scripts use: `#{name}`, the short aliases
// (`#S`, `#D`…), `#{?cond,a,b}`, comparisons (`==`, `!=`, `<`, `>`, `<=`, `>=`), `||` `&&` `!`, `m:`
// (fnmatch; `m/r:` regex), `#{=N:…}` / `#{=-N:…}` truncation, `#{t:…}` times, `#{l:…}` literals, `#{E:…}`
// / `#{T:…}` (expanded again), `#{s/from/to/:…}` and `##` `#,` `#}`. Pure: values come from a lookup.

/** What a variable name expands to; undefined: unknown (tmux expands those to nothing). */
export type Lookup = (name: string) => string | undefined;

const ALIASES: Record<string, string> = {
  D: "pane_id",
  F: "window_flags",
  H: "host",
  h: "host_short",
  I: "window_index",
  P: "pane_index",
  S: "session_name",
  T: "pane_title",
  W: "window_name",
};

/** Every variable name a format may read (for fetching only what it needs). */
export function namesIn(format: string): Set<string> {
  const names = new Set<string>();
  for (const match of format.matchAll(/[a-z_][a-z0-9_]*/g)) names.add(match[0]);
  for (const match of format.matchAll(/#([DFHhIPSTW])/g)) names.add(ALIASES[match[1]!]!);
  return names;
}

export function expand(format: string, lookup: Lookup): string {
  let out = "";
  for (let i = 0; i < format.length; i++) {
    const char = format[i]!;
    if (char !== "#" || i + 1 >= format.length) {
      out += char;
      continue;
    }
    const next = format[i + 1]!;
    if (next === "#" || next === "," || next === "}") {
      out += next;
      i++;
    } else if (next === "{") {
      const end = closingBrace(format, i + 2);
      if (end < 0) {
        out += format.slice(i);
        break;
      }
      out += expandBrace(format.slice(i + 2, end), lookup);
      i = end;
    } else if (next in ALIASES) {
      out += lookup(ALIASES[next]!) ?? "";
      i++;
    } else {
      out += char;
    }
  }
  return out;
}

/** Index of the `}` closing a `#{` whose body starts at `from` (tmux's format_skip). */
function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === "#" && i + 1 < text.length && ",#{}:".includes(text[i + 1]!)) {
      if (text[i + 1] === "{") depth++;
      i++;
      continue;
    }
    if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

/** Splits at top-level commas (not inside a nested `#{…}`, not `#,`). */
function splitTop(text: string, max = Number.POSITIVE_INFINITY): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "#" && i + 1 < text.length && ",#{}:".includes(text[i + 1]!)) {
      if (text[i + 1] === "{") depth++;
      i++;
      continue;
    }
    if (char === "}") depth--;
    else if (char === "," && depth === 0 && parts.length < max - 1) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const truthy = (value: string) => value !== "" && value !== "0";

/** A condition or operand: a bare variable name is looked up, anything else expanded. */
function value(text: string, lookup: Lookup): string {
  if (/^@?[A-Za-z_][A-Za-z0-9_-]*$/.test(text)) return lookup(text) ?? "";
  return expand(text, lookup);
}

function expandBrace(body: string, lookup: Lookup): string {
  if (body.startsWith("?")) {
    const [condition = "", ...branches] = splitTop(body.slice(1));
    // #{?c1,a,c2,b,else}: conditions and values in pairs, the last alone is the else.
    const parts = [condition, ...branches];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      if (truthy(value(parts[i]!, lookup))) return expand(parts[i + 1]!, lookup);
    }
    return parts.length % 2 === 1 ? expand(parts[parts.length - 1]!, lookup) : "";
  }
  const colon = modifierEnd(body);
  if (colon > 0) {
    const modifier = body.slice(0, colon);
    const rest = body.slice(colon + 1);
    const comparison = /^(==|!=|<=|>=|<|>)$/.exec(modifier);
    if (comparison) {
      const [a = "", b = ""] = splitTop(rest, 2).map((part) => expand(part, lookup));
      const op = comparison[1];
      const result =
        op === "=="
          ? a === b
          : op === "!="
            ? a !== b
            : op === "<"
              ? a < b
              : op === ">"
                ? a > b
                : op === "<="
                  ? a <= b
                  : a >= b;
      return result ? "1" : "0";
    }
    if (modifier === "m" || modifier === "m/r" || modifier === "m/ri" || modifier === "m/i") {
      // #{m:pattern,string}: an fnmatch pattern (m/r: a regular expression; i: any case).
      const [pattern = "", text = ""] = splitTop(rest, 2).map((part) => expand(part, lookup));
      const flags = modifier.endsWith("i") ? "i" : "";
      const source = modifier.startsWith("m/r") ? pattern : `^${fnmatchSource(pattern)}$`;
      try {
        return new RegExp(source, flags).test(text) ? "1" : "0";
      } catch {
        return "0";
      }
    }
    if (modifier === "||" || modifier === "&&") {
      const [a = "", b = ""] = splitTop(rest, 2).map((part) => value(part, lookup));
      return (modifier === "||" ? truthy(a) || truthy(b) : truthy(a) && truthy(b)) ? "1" : "0";
    }
    if (modifier === "!") return truthy(value(rest, lookup)) ? "0" : "1";
    if (modifier === "l") return rest;
    const inner = value(rest, lookup);
    if (modifier === "E" || modifier === "T") return expand(inner, lookup);
    if (modifier === "t") return ctime(Number(inner));
    if (modifier === "b") return inner.slice(inner.lastIndexOf("/") + 1);
    if (modifier === "d")
      return inner.slice(0, Math.max(inner.lastIndexOf("/"), 0)) || (inner.startsWith("/") ? "/" : ".");
    if (modifier === "q") return inner.replace(/[^A-Za-z0-9_./@:=+-]/g, (c) => `\\${c}`);
    const truncate = /^=(-?)(\d+)$/.exec(modifier);
    if (truncate) {
      const chars = [...inner];
      const n = Number(truncate[2]);
      return truncate[1] ? chars.slice(Math.max(chars.length - n, 0)).join("") : chars.slice(0, n).join("");
    }
    const substitute = /^s\/((?:[^/\\]|\\.)*)\/((?:[^/\\]|\\.)*)\/(i?)$/.exec(modifier);
    if (substitute) {
      try {
        return inner.replace(new RegExp(substitute[1]!, substitute[3] ? "gi" : "g"), substitute[2]!);
      } catch {
        return inner;
      }
    }
    return inner;
  }
  return value(body, lookup);
}

/** Where a modifier before `:` ends, or -1 when the body is a plain name or format. */
function modifierEnd(body: string): number {
  const match =
    /^(==|!=|<=|>=|<|>|\|\||&&|!|m\/ri|m\/r|m\/i|[lEtTbdqm]|=-?\d+|s\/(?:[^/\\]|\\.)*\/(?:[^/\\]|\\.)*\/i?):/.exec(
      body,
    );
  return match ? match[1]!.length : -1;
}

/** An fnmatch(3) pattern as a regular expression's source: `*`, `?`, `[…]`. */
function fnmatchSource(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "*") out += ".*";
    else if (char === "?") out += ".";
    else if (char === "[") {
      const end = pattern.indexOf("]", i + 1);
      if (end < 0) out += "\\[";
      else {
        out += `[${pattern
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else out += char.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return out;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A Unix time as ctime(3) writes it, without its newline: `Sun Dec  6 12:19:09 2026` (local time). */
export function ctime(seconds: number): string {
  if (!Number.isFinite(seconds)) return "";
  const date = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  const day = `${DAYS[date.getDay()]} ${MONTHS[date.getMonth()]} ${String(date.getDate()).padStart(2, " ")}`;
  const time = `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
  return `${day} ${time} ${date.getFullYear()}`;
}
