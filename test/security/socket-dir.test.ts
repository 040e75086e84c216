// Another user makes /tmp/t4a-UID (the default socket directory of a user without
// XDG_RUNTIME_DIR) before that user's first t4a call. t4a never uses it (whoever owns it would
// receive every request); it moves to a private directory in the user's own state directory,
// says so once, and works from then on instead of staying unusable until someone removes it.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Actor, CAN_MAKE_USERS } from "./actor.ts";

test.if(CAN_MAKE_USERS)(
  "a default socket directory another user made first is never used; t4a moves to its state directory and says so once",
  async () => {
    const victim = await Actor.make("unprivileged");
    const squatter = await Actor.make("unprivileged");
    const uid = Bun.spawnSync(["id", "-u", victim.user!]).stdout.toString().trim();
    const squatted = `/tmp/t4a-${uid}`;
    // No T4A_SOCKET, no XDG_RUNTIME_DIR: the default path, as on a machine without logind.
    const byDefault = { env: { T4A_SOCKET: "" } };
    const fallback = join(victim.state, "t4a", "run");
    try {
      rmSync(squatted, { recursive: true, force: true }); // a leftover of an earlier user with this uid
      expect(squatter.outside(`mkdir -m 755 ${squatted}`).code).toBe(0);
      const first = await victim.run(["create", "--name", "one", "--", "sleep", "300"], byDefault);
      expect(first.code).not.toBe(0);
      expect(first.stderr).toContain(`${squatted} is not yours`);
      expect(first.stderr).toContain(fallback);
      const second = await victim.run(["create", "--name", "two", "--", "sleep", "300"], byDefault);
      expect({ code: second.code, stderr: second.stderr }).toEqual({ code: 0, stderr: "" });
      const listed = await victim.run(["list", "--json"], byDefault);
      expect(listed.stderr).toBe(""); // said once
      expect(JSON.parse(listed.stdout).terminals.map((t: { id: string }) => t.id)).toEqual(["two"]);
      expect(existsSync(join(fallback, "t4a.sock"))).toBe(true);
      expect(readdirSync(squatted)).toEqual([]); // nothing of the victim's went there
    } finally {
      await victim.run(["shutdown"], byDefault);
      rmSync(squatted, { recursive: true, force: true });
      await victim.cleanup();
      await squatter.cleanup();
    }
  },
  60_000,
);
