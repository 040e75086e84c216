// The client library's types, made from the command table's own valibot schemas: each command's
// params (v.InferInput) and reply (v.InferOutput), and the events. Types only: nothing imports
// this file at run time. The package's build (scripts/lib.ts) has tsc print `wire` expanded into
// plain object types, so the shipped .d.ts names neither valibot nor any file of src/.
import type * as v from "valibot";
import type { CommandTable } from "../commands/index.ts";
import type { TerminalEvent as EventSchema } from "../protocol/events.ts";

/** Spelled out field by field: tsc's declaration output then prints the structure, not this alias. */
type Expand<T> = T extends readonly (infer U)[] ? Expand<U>[] : T extends object ? { [K in keyof T]: Expand<T[K]> } : T;

type Table = {
  [C in CommandTable as C["name"]]: { params: v.InferInput<C["params"]>; reply: v.InferOutput<C["reply"]> };
};

function expanded<T>(): Expand<T> {
  return undefined as never;
}

/** Every command's params and reply; a value only so that declaration output expands its type. */
export const wire = expanded<Table>();
export const event = expanded<v.InferOutput<typeof EventSchema>>();

export type Wire = typeof wire;
export type CommandName = keyof Wire;
export type Params<N extends CommandName> = Wire[N]["params"];
export type ReplyOf<N extends CommandName> = Wire[N]["reply"];
/** One line of `events`; clients must ignore event types they do not know (protocol.md). */
export type TerminalEvent = typeof event;
