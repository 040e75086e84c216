import { expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRESETS } from "../agents/registry.ts";
import { daemonClientEnv } from "../session-env.ts";
import { agentHomeMounts } from "./agent-home.ts";

test(
  "kept files are never made as directories (opencode's SQLite WAL hung it); " +
    "kept directories are; t4a's old empty directory in a file's place goes",
  () => {
    const home = mkdtempSync(join(tmpdir(), "t4a-home-"));
    try {
      const data = join(home, ".local/share/opencode");
      mkdirSync(data, { recursive: true });
      writeFileSync(join(data, "opencode.db"), "");
      // What an earlier t4a left: the WAL's name made as a directory, which SQLite cannot unlink.
      mkdirSync(join(data, "opencode.db-wal"));
      const opencode = PRESETS.find((preset) => preset.name === "opencode")!;
      const mounts = agentHomeMounts(daemonClientEnv({ HOME: home }), opencode.home, join(home, "private"));
      // The files: the WAL's empty directory removed; SQLite's files made empty (valid to it) and
      // bound, so what the sandboxed run writes lasts; auth.json, missing, not made nor bound (its
      // writes stay in the tmpfs).
      for (const name of ["opencode.db-wal", "opencode.db-shm"]) expect(statSync(join(data, name)).isFile()).toBe(true);
      expect(existsSync(join(data, "auth.json"))).toBe(false);
      const bound = mounts.filter((mount) => mount.kind === "bind").map((mount) => mount.path);
      expect(bound).toContain(join(data, "opencode.db"));
      expect(bound).toContain(join(data, "opencode.db-wal"));
      expect(bound).not.toContain(join(data, "auth.json"));
      // The directories: made, bound writable.
      expect(statSync(join(data, "storage")).isDirectory()).toBe(true);
      expect(bound).toContain(join(data, "storage"));
      expect(bound).toContain(join(home, ".local/state/opencode"));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);

test("every preset marks its kept directories with a trailing / and its kept files without", () => {
  for (const preset of PRESETS) {
    for (const kept of preset.home.keep) {
      const file = /\.(json|jsonl|db|db-wal|db-shm)$/.test(kept);
      expect(kept.endsWith("/"), `${preset.name}: ${kept}`).toBe(!file);
    }
  }
});

test(
  "a missing configuration file is never made in the real home, " +
    "least of all as a directory; a missing configuration directory is",
  () => {
    const home = mkdtempSync(join(tmpdir(), "t4a-home-"));
    try {
      const claude = PRESETS.find((preset) => preset.name === "claude")!;
      const mounts = agentHomeMounts(daemonClientEnv({ HOME: home }), claude.home, join(home, "private"));
      expect(existsSync(join(home, ".claude.json"))).toBe(false);
      expect(mounts.map((mount) => mount.path)).not.toContain(join(home, ".claude.json"));
      expect(statSync(join(home, ".claude")).isDirectory()).toBe(true);
      expect(mounts).toContainEqual({
        kind: "bind",
        path: join(home, ".claude"),
        source: expect.stringContaining(join(home, "private")),
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);

test("every preset marks its configuration directories with a trailing / and its configuration files without", () => {
  for (const preset of PRESETS) {
    for (const entry of preset.home.config) {
      const file = /\.(json|toml|yaml|db)$/.test(entry);
      expect(entry.endsWith("/"), `${preset.name}: ${entry}`).toBe(!file);
    }
  }
});

test(
  "gemini's history (its project markers and checkpoints' git repository) is an " +
    "empty private tmpfs: writable inside, nothing kept, never bound from the home",
  () => {
    const home = mkdtempSync(join(tmpdir(), "t4a-home-"));
    try {
      const history = join(home, ".gemini", "history");
      mkdirSync(join(history, "work", ".git"), { recursive: true });
      const gemini = PRESETS.find((preset) => preset.name === "gemini")!;
      const mounts = agentHomeMounts(daemonClientEnv({ HOME: home }), gemini.home, join(home, "private"));
      expect(mounts.filter((mount) => mount.path === history)).toEqual([{ kind: "tmpfs", path: history }]);
      expect(mounts.some((mount) => mount.path.startsWith(`${history}/`))).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);

test(
  "a symlink at any component of a kept path below home is refused, " +
    "naming it: kept paths are bound writable, through links (issue 56)",
  () => {
    const home = mkdtempSync(join(tmpdir(), "t4a-home-"));
    try {
      const secret = join(home, ".ssh");
      mkdirSync(secret);
      const claude = PRESETS.find((preset) => preset.name === "claude")!;
      const opencode = PRESETS.find((preset) => preset.name === "opencode")!;
      // The kept directory itself a link.
      mkdirSync(join(home, ".claude"));
      symlinkSync(secret, join(home, ".claude", "projects"));
      expect(() => agentHomeMounts(daemonClientEnv({ HOME: home }), claude.home, join(home, "private"))).toThrow(
        `${join(home, ".claude", "projects")} is a symlink`,
      );
      // A directory above a kept file a link (opencode's database is made empty there when missing).
      mkdirSync(join(home, ".local"));
      symlinkSync(secret, join(home, ".local", "share"));
      expect(() => agentHomeMounts(daemonClientEnv({ HOME: home }), opencode.home, join(home, "private"))).toThrow(
        `${join(home, ".local", "share")} is a symlink`,
      );
      // Nothing was made through either link.
      expect(readdirSync(secret)).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);
