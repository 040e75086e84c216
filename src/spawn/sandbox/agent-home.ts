// A sandboxed agent CLI's home (SandboxHome in the registry): its configuration seen but never
// changed (a configuration directory is a private per-session directory holding copies of its
// files, so the CLI may rewrite them, even by write-then-rename; its subdirectories read-only;
// everything written there is removed with the session), and only what it must keep between
// sessions writable for real. The home is the client's (never the session's HOME, which an env
// file names), and a kept path is bound only when no component of it below home is a symlink:
// bwrap binds through symlinks, and a link there would make its target writable.
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmdirSync,
  statSync,
} from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { SandboxHome } from "../agents/registry.ts";
import type { Mount } from "../plan.ts";
import type { ClientEnv } from "../session-env.ts";

/** Mounts for the CLI's home (the client's HOME); private copies go into `privateDir` (removed with the session). */
export function agentHomeMounts(client: ClientEnv, layout: SandboxHome, privateDir: string): Mount[] {
  const home = client.HOME ?? "/";
  const mounts: Mount[] = [];
  // Paths without the trailing "/" that marks a kept directory.
  const keep = layout.keep.map((relative) => join(home, relative.replace(/\/+$/, "")));
  for (const path of keep) refuseSymlinkBelow(home, path);
  const keptDirs = new Set(keep.filter((_, index) => layout.keep[index]!.endsWith("/")));
  const scratch = (layout.scratch ?? []).map((relative) => join(home, relative));
  let copies = 0;
  const privatePath = (path: string) => {
    mkdirSync(privateDir, { recursive: true, mode: 0o700 });
    return join(privateDir, `${copies++}-${path.split("/").at(-1)}`);
  };
  const privateCopy = (path: string) => {
    const copy = privatePath(path);
    copyFileSync(path, copy);
    mounts.push({ kind: "bind", path, source: copy });
  };
  for (const relative of layout.config) {
    const path = join(home, relative.replace(/\/+$/, ""));
    if (existsSync(path) && !statSync(path).isDirectory()) {
      if (!keep.includes(path)) privateCopy(path);
      continue;
    }
    if (!existsSync(path)) {
      // A missing file is never made, least of all as a directory (nothing to copy, no place to
      // bind it in the read-only home); a missing directory is (empty, the CLI's own name) so
      // the tmpfs has a place to go.
      if (!relative.endsWith("/")) continue;
      mkdirSync(path, { recursive: true, mode: 0o700 });
    }
    // Its files copied into a directory of ours, not bound one by one: a file bound in place
    // cannot be renamed over (EBUSY), and CLIs save by writing a temporary file and renaming it
    // (gemini's projects.json). Mount points for what follows are made there by bwrap.
    const copy = privatePath(path);
    mkdirSync(copy, { mode: 0o700 });
    mounts.push({ kind: "bind", path, source: copy });
    for (const name of readdirSync(path)) {
      const entry = join(path, name);
      if (keep.some((kept) => kept === entry || kept.startsWith(`${entry}/`))) continue;
      if (scratch.includes(entry)) mounts.push({ kind: "tmpfs", path: entry });
      else if (lstatSync(entry).isFile()) copyFileSync(entry, join(copy, name));
      else if (existsSync(entry)) mounts.push({ kind: "ro-bind", path: entry });
    }
  }
  // After the tmpfs, so kept paths show through it. A missing kept directory is made; a missing
  // kept file cannot be (its writes are discarded), unless the preset makes it empty. An empty
  // directory where a file is kept was made by t4a when it guessed by the name (opencode.db-wal):
  // removed, or the CLI fails on it.
  const madeEmpty = (layout.madeEmpty ?? []).map((relative) => join(home, relative));
  for (const path of keep) {
    if (keptDirs.has(path)) {
      if (!existsSync(path)) mkdirSync(path, { recursive: true, mode: 0o700 });
    } else if (existsSync(path) && statSync(path).isDirectory() && readdirSync(path).length === 0) {
      rmdirSync(path);
    }
    if (
      madeEmpty.includes(path) &&
      !lstatSync(path, { throwIfNoEntry: false }) &&
      lstatSync(dirname(path), { throwIfNoEntry: false })?.isDirectory()
    ) {
      // O_EXCL: never through a symlink put in its place meanwhile.
      closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
    }
    if (existsSync(path)) mounts.push({ kind: "bind", path });
  }
  return mounts;
}

/** Throws when a component of `path` below `home` is a symlink (a missing one is made later, as a directory). */
function refuseSymlinkBelow(home: string, path: string): void {
  let at = home;
  for (const part of relative(home, path).split(sep)) {
    at = join(at, part);
    const stats = lstatSync(at, { throwIfNoEntry: false });
    if (!stats) return;
    if (stats.isSymbolicLink())
      throw new Error(
        `${at} is a symlink; what an agent keeps is bound writable, ` +
          `so every directory of ${path} below ${home} must be a real one`,
      );
  }
}
