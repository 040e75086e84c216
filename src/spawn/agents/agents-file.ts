// Where the user's agents.json lives. Its own file: the client reads it for the variable names to
// send, without the validation (and valibot) the daemon loads.
import { join } from "node:path";

export function agentsFile(env: Record<string, string | undefined>): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || "/", ".config"), "t4a", "agents.json");
}
