// `--env-file` and connector.json's env_file: the dotenv format (KEY=VALUE per line, `export`
// allowed, # comments, single quotes literal, double quotes with \n \t \" \\ escapes). No expansion
// of $VARS: what the file says is what the program gets. Plain; the CLI loads it.
// The file is tainted (a sandboxed program can write its project's `.env`): read through
// readTainted, so a symlink there never brings another file's secrets into a session's
// environment and a FIFO never hangs the CLI.
import { dirname, resolve } from "node:path";
import { T4aError } from "../protocol/errors.ts";
import { readTainted, TaintedReadError } from "./tainted-files.ts";

/** An env file larger than this is not one. */
const DOTENV_MAX_BYTES = 1024 * 1024;

/** The variables of the dotenv file at `path`; `where` names it in errors (`--env-file`, `sessions[2].env_file`). */
export function readDotenvFile(path: string, where: string): Record<string, string> {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readTainted(absolute, { root: dirname(absolute), maxBytes: DOTENV_MAX_BYTES });
  } catch (error) {
    if (!(error instanceof TaintedReadError)) throw error;
    throw new T4aError(
      "invalid_params",
      error.reason === "missing" ? `${where} ${path}: no such file` : `${where} ${error.message}`,
    );
  }
  return parseDotenv(text, path);
}

export function parseDotenv(text: string, source: string): Record<string, string> {
  const env: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim();
    if (!line || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match)
      throw new T4aError("invalid_params", `${source}:${n + 1}: expected KEY=VALUE, got "${line.slice(0, 60)}"`);
    const [, key, raw] = match as unknown as [string, string, string];
    env[key] = unquote(raw, `${source}:${n + 1}`);
  }
  return env;
}

function unquote(raw: string, where: string): string {
  const quote = raw[0];
  if (quote !== '"' && quote !== "'") return raw.replace(/\s+#.*$/, "").trim();
  const end = raw.lastIndexOf(quote);
  if (end === 0) throw new T4aError("invalid_params", `${where}: unterminated ${quote} quote`);
  const body = raw.slice(1, end);
  if (quote === "'") return body;
  return body.replace(/\\([nrt"\\])/g, (_m, c: string) => ({ n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" })[c]!);
}
