// Where in a request or file a valibot issue points, written as a person would: sessions[2].worktree.
import type * as v from "valibot";

export function issuePath(issue: v.GenericIssue): string {
  return (issue.path ?? []).map((item, i) => (typeof item.key === "number" ? `[${item.key}]` : `${i ? "." : ""}${String(item.key)}`)).join("");
}

/** `path: message`, or the message alone for the whole value. */
export function describeIssue(issue: v.GenericIssue): string {
  const path = issuePath(issue);
  return path ? `${path}: ${issue.message}` : issue.message;
}
