import { expect, test } from "bun:test";
import { commands } from "./index.ts";
import { commandLoaders, loadAll } from "./lazy.ts";

test("the CLI's lazy table names the same commands, in the same order, as the daemon's", async () => {
  expect(Object.keys(commandLoaders)).toEqual(commands.map((command) => command.name));
  expect((await loadAll()).map((command) => command.name)).toEqual(commands.map((command) => command.name));
  for (const command of commands) expect(await commandLoaders[command.name]!()).toBe(command);
});
