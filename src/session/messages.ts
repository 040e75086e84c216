// A conversation's messages as transcript and ask give them, whichever CLI's log they come from.

export interface Message {
  role: "user" | "assistant" | "tool_call" | "tool_result";
  text: string;
}

/** A tool call's or result's one line: this long at most. */
const ONE_LINE = 200;

const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > ONE_LINE ? `${flat.slice(0, ONE_LINE - 1)}…` : flat;
};

export const call = (name: string, args: unknown): Message => ({
  role: "tool_call",
  text: oneLine(`${name} ${typeof args === "string" ? args : JSON.stringify(args ?? {})}`),
});
export const result = (output: unknown): Message => ({
  role: "tool_result",
  text: oneLine(typeof output === "string" ? output : JSON.stringify(output ?? "")),
});
