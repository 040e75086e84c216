// Reading a connector.json file on the client: validated whole before anything is sent (errors
// name the JSON path, e.g. `sessions[2].worktree`), `cmd` and `env_file` turned into what create
// takes, paths relative to the file, the caller's environment attached. No daemon code.
import * as v from "valibot";
import { T4aError } from "../protocol/errors.ts";
import { issuePath } from "../protocol/issue-path.ts";
import { ConnectorFile, type ConnectorSession } from "../protocol/session-spec.ts";
import { readDotenvFile } from "../spawn/dotenv.ts";
import { callerEnv } from "../spawn/env-keys.ts";
import { absolutePath } from "./cli-helpers.ts";
import type { Reply } from "./command.ts";

export async function readConnectorFile(path: string): Promise<Reply[]> {
  const file = Bun.file(path);
  if (!(await file.exists())) throw new T4aError("invalid_params", `${path}: no such file`);
  let json: unknown;
  try {
    json = JSON.parse(await file.text());
  } catch (error) {
    throw new T4aError("invalid_params", `${path}: not JSON (${(error as Error).message})`);
  }
  const parsed = v.safeParse(ConnectorFile, json);
  if (!parsed.success) throw new T4aError("invalid_params", `${path}: ${describe(json, parsed.issues)}`);
  const sessions: ConnectorSession[] = Array.isArray(parsed.output)
    ? parsed.output
    : "sessions" in parsed.output
      ? parsed.output.sessions
      : [parsed.output];
  const dir = absolutePath(path.slice(0, Math.max(0, path.lastIndexOf("/"))) || ".");
  return Promise.all(
    sessions.map(async ({ cmd, env_file, ...session }, index) => {
      const fromFile = env_file ? await readEnvFile(absolutePath(env_file, dir), `sessions[${index}].env_file`) : {};
      return {
        ...session,
        cmd_args: session.cmd_args ?? cmd,
        cwd: absolutePath(session.cwd ?? ".", dir),
        env: env_file || session.env ? { ...fromFile, ...session.env } : undefined,
        client_env: callerEnv(session.inherit_env === true),
      };
    }),
  );
}

async function readEnvFile(path: string, where: string): Promise<Record<string, string>> {
  return readDotenvFile(path, `${where}:`);
}

/** The first problem, at the path of the entry a person would look at (the union's branches confuse). */
function describe(json: unknown, issues: v.GenericIssue[]): string {
  // Which form the file took decides which branch's issues matter.
  const list = Array.isArray(json)
    ? ""
    : typeof json === "object" && json !== null && "sessions" in json
      ? "sessions"
      : undefined;
  const flat = issues.flatMap((issue) => [issue, ...(issue.issues ?? [])]);
  const relevant = flat.filter((issue) => {
    const first = issue.path?.[0]?.key;
    return list === undefined
      ? typeof first !== "number" && first !== "sessions"
      : list === ""
        ? typeof first === "number"
        : first === "sessions";
  });
  const issue = relevant.find((candidate) => candidate.path?.length) ?? relevant[0] ?? issues[0]!;
  const where = issuePath(issue);
  const shown = list === "" ? `sessions${where}` : where;
  return shown ? `${shown}: ${issue.message}` : issue.message;
}
