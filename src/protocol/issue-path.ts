// Where in a request or file a valibot issue points, and what is wrong there, written as a person
// would: `sessions[2].worktree: must be a string, got 3`.
import type * as v from "valibot";

export function issuePath(issue: v.GenericIssue): string {
  return (issue.path ?? [])
    .map((item, i) => (typeof item.key === "number" ? `[${item.key}]` : `${i ? "." : ""}${String(item.key)}`))
    .join("");
}

/** `path: message`, or the message alone for the whole value. */
export function describeIssue(issue: v.GenericIssue): string {
  const path = issuePath(issue);
  const message = plainMessage(issue);
  return path ? `${path}: ${message}` : message;
}

/**
 * valibot's own wording ("Invalid value: Expected <=400 but received 900") as a person says it;
 * a schema's own message is kept as it is.
 */
function plainMessage(issue: v.GenericIssue): string {
  if (!issue.message.startsWith("Invalid ")) return issue.message;
  if (issue.message.startsWith("Invalid key:") || (issue.kind === "schema" && issue.received === "undefined"))
    return "is required";
  const got = issue.received === "undefined" ? "nothing" : issue.received;
  const requirement = (issue as { requirement?: unknown }).requirement;
  switch (issue.type) {
    case "max_value":
      return `must be at most ${requirement}, got ${got}`;
    case "min_value":
      return `must be at least ${requirement}, got ${got}`;
    case "integer":
      return `must be a whole number, got ${got}`;
    case "max_length":
      return `must be at most ${requirement} long`;
    case "min_length":
      return `must be at least ${requirement} long`;
    case "picklist":
      return `must be one of ${issue.expected?.replace(/^\((.*)\)$/, "$1").replace(/ \| /g, ", ")}, got ${got}`;
    default:
      return issue.kind === "schema"
        ? `must be ${issue.expected === "Object" ? "an object" : `a ${issue.expected}`}, got ${got}`
        : `is not valid (${issue.message})`;
  }
}
