// Who has the terminal: the program a session's leader (a wrapper shell) started in the
// foreground, found once while it runs and then followed by pid and start time (a reused pid is
// not it), and whether it still has the terminal, has it no more, or is gone. Linux /proc;
// elsewhere every answer is undefined (not known). Knows processes, nothing of agents.
import { readdirSync } from "node:fs";
import { canTellInputWanted, procStat, terminalReader } from "./input-wanted.ts";

/** Where the followed program is: it has the terminal, something else has it, or it has ended. */
export type Place = "foreground" | "elsewhere" | "gone";

export class ForegroundChild {
  readonly #leader: () => number;
  #found: { pid: number; start: number } | undefined;
  #lastScanAt = -Infinity;

  constructor(leader: () => number) {
    this.#leader = leader;
  }

  /**
   * Where the program is. Until it was found, `find` lets this look for it among the leader's
   * children in the foreground group (only when the caller knows the program is drawn, so a login
   * profile's command is never taken for it); the leader itself reading the terminal means a
   * shell took it back (the wrapper execs one after the program ends): gone.
   */
  place(find: boolean): Place | undefined {
    if (!canTellInputWanted) return undefined;
    const leader = this.#leader();
    const leaderStat = procStat(leader);
    if (!leaderStat || leaderStat.state === "Z") return "gone";
    const found = this.#found;
    if (found) {
      const stat = procStat(found.pid);
      if (!stat || stat.state === "Z" || stat.start !== found.start) return "gone";
      return stat.pgrp === leaderStat.tpgid ? "foreground" : "elsewhere";
    }
    if (find && performance.now() - this.#lastScanAt >= 200) {
      this.#lastScanAt = performance.now();
      const child = foregroundChildren(leader, leaderStat.tpgid)[0];
      if (child) {
        this.#found = child;
        return "foreground";
      }
    }
    if (terminalReader(leader)?.pid === leader) return "gone";
    return "elsewhere";
  }
}

/**
 * The topmost processes of the foreground group other than the leader (whose parent is outside
 * the group: the program a wrapper shell started, not what that program runs), oldest first.
 */
function foregroundChildren(leader: number, tpgid: number): Array<{ pid: number; start: number }> {
  const members = new Map<number, { ppid: number; start: number }>();
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === leader) continue;
    const stat = procStat(pid);
    if (stat && stat.pgrp === tpgid && stat.state !== "Z") members.set(pid, { ppid: stat.ppid, start: stat.start });
  }
  return [...members]
    .filter(([, member]) => !members.has(member.ppid))
    .map(([pid, member]) => ({ pid, start: member.start }))
    .sort((a, b) => a.start - b.start || a.pid - b.pid);
}
