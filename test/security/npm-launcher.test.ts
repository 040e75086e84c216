// The npm launcher (npm/t4a/bin/t4a.js) finding the binary it runs (issue 56): only in its own
// install's tree, and only a binary owned by the launcher's owner or root. A project under /tmp
// without its platform package found another user's /tmp/node_modules/@t4a/…/bin/t4a and ran it
// as root. Run as root and as an unprivileged user made for the test; the planted binaries belong
// to a third user (nobody) or sit above the install.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Actor, CAN_MAKE_USERS, IS_ROOT } from "./actor.ts";

const launcher = resolve(import.meta.dir, "../../npm/t4a/bin/t4a.js");
const HAS_NODE = Bun.which("node") !== null;
const musl =
  process.platform === "linux" && existsSync("/usr/bin/ldd") && readFileSync("/usr/bin/ldd", "utf8").includes("musl");
const host = `${process.platform}-${process.arch}${musl ? "-musl" : ""}`;
const VERSION = "9.9.9";
const NOBODY = 65534;

const kinds: Array<"self" | "unprivileged"> = HAS_NODE
  ? ["self", ...(CAN_MAKE_USERS ? (["unprivileged"] as const) : [])]
  : [];
if (!HAS_NODE) console.log("skipped: the launcher attacks need node");
if (HAS_NODE && !CAN_MAKE_USERS) console.log("skipped: the unprivileged-user run and the third user need root");

for (const kind of kinds) {
  describe(`as ${kind === "self" ? (IS_ROOT ? "root" : "this user") : "an unprivileged user"}`, () => {
    let a: Actor;
    /** The project holding the launcher (node_modules/t4a), as `npm install t4a` makes it. */
    let project: string;
    let mark: string;

    beforeAll(async () => {
      a = await Actor.make(kind);
      project = join(a.dir, "proj");
      mark = join(a.dir, "PWNED");
      const own = join(project, "node_modules", "t4a");
      mkdirSync(join(own, "bin"), { recursive: true });
      copyFileSync(launcher, join(own, "bin", "t4a.js"));
      writeFileSync(join(own, "package.json"), JSON.stringify({ name: "t4a", version: VERSION }));
      a.own(project);
    });
    afterAll(() => a.cleanup());

    /** A platform package of the right name and version at `dir` whose binary says `word` (and leaves it in the mark). */
    function plant(dir: string, word: string, uid?: number): void {
      rmSync(join(dir, "@t4a"), { recursive: true, force: true });
      const pkg = join(dir, "@t4a", host);
      mkdirSync(join(pkg, "bin"), { recursive: true });
      writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: `@t4a/${host}`, version: VERSION }));
      writeFileSync(join(pkg, "bin", "t4a"), `#!/bin/sh\necho ${word} >> ${mark}\necho ${word}\n`);
      chmodSync(join(pkg, "bin", "t4a"), 0o755);
      if (uid !== undefined) Bun.spawnSync(["chown", "-R", `${uid}:${uid}`, join(dir, "@t4a")]);
      else a.own(join(dir, "@t4a"));
    }

    const launch = () => a.outside(`node ${join(project, "node_modules", "t4a", "bin", "t4a.js")} --version`, project);
    const marked = () => (existsSync(mark) ? readFileSync(mark, "utf8") : "");

    test("a platform package in a node_modules above the install is never run", () => {
      rmSync(mark, { force: true });
      // Where /tmp/node_modules was: above the project, anyone's to make.
      plant(join(a.dir, "node_modules"), "above");
      const result = launch();
      expect(marked()).toBe("");
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`@t4a/${host}@${VERSION}`);
    });

    test.skipIf(!IS_ROOT)(
      "a platform package beside the launcher owned by another user (not root) is refused, naming it; the owner's own runs",
      () => {
        rmSync(mark, { force: true });
        const beside = join(project, "node_modules");
        plant(beside, "foreign", NOBODY);
        const refused = launch();
        expect(marked()).toBe("");
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain("owned by uid 65534");
        // The same package the launcher's owner installed: it runs.
        plant(beside, "own");
        const ran = launch();
        expect(ran.stdout.trim()).toBe("own");
        expect(marked()).toBe("own\n");
      },
    );
  });
}
