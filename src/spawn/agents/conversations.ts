// Which conversation id a session name last used, per agent: a fresh create under a name used
// before needs a fresh id (claude, gemini and qwen refuse "Session ID … is already in use"), and
// --resume (or a restore) must find the latest one. Ids stay deterministic: the name's, then the
// name's with a generation number. Kept in the state dir beside the session manifest, one file
// per socket as it (the daemon names it).
import { writePrivateFile } from "../../client/private-file.ts";
import { readFileSync } from "node:fs";
import { deterministicUuid } from "./launch.ts";

type Record_ = { id: string; generation: number };

function load(path: string): Record<string, Record_> {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return {};
  }
}

/**
 * The id for this session's conversation: with `resume`, the one the name used last (the name's
 * own id when none is known); else a fresh one, remembered as the latest.
 */
export function conversationId(path: string, agent: string, name: string, resume: boolean): string {
  const known = load(path);
  const key = `${agent}/${name}`;
  const last = known[key];
  if (resume) return last?.id ?? deterministicUuid(name);
  const generation = last ? last.generation + 1 : 0;
  const id = generation === 0 ? deterministicUuid(name) : deterministicUuid(`${name}\n${generation}`);
  known[key] = { id, generation };
  try {
    writePrivateFile(path, JSON.stringify(known));
  } catch {
    // Unwritable state dir: the id is still fresh for this create; the next one may repeat it.
  }
  return id;
}
