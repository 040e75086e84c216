// The stand-in for a schema built on first use: nothing is built until something looks, and then
// valibot, the JSON Schema converter and plain object operations see the schema itself.
import { expect, test } from "bun:test";
import { toJsonSchema } from "@valibot/to-json-schema";
import * as v from "valibot";
import { deferred } from "./deferred.ts";

test("built once, on the first look; parses, converts, spreads and enumerates as the schema", () => {
  let builds = 0;
  const Id = deferred(() => (builds++, v.pipe(v.string(), v.minLength(1), v.description("an id"))));
  const Params = deferred(() => v.object({ id: Id, rows: v.optional(v.number(), 24) }));
  expect(builds).toBe(0);
  expect(v.parse(Params, { id: "t1" })).toEqual({ id: "t1", rows: 24 });
  expect(builds).toBe(1);
  expect(v.safeParse(Params, { id: "" }).success).toBe(false);
  const direct = v.object({
    id: v.pipe(v.string(), v.minLength(1), v.description("an id")),
    rows: v.optional(v.number(), 24),
  });
  expect(toJsonSchema(Params)).toEqual(toJsonSchema(direct));
  expect(Object.keys(Params)).toEqual(Object.keys(direct));
  expect({ ...v.omit(Params, ["rows"]).entries }).toEqual({ id: Id });
  expect("entries" in Params).toBe(true);
  expect(builds).toBe(1);
});
