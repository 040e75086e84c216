// qwen's hooks file: t4a's state hooks added to the user's own system defaults, never replacing them.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeQwenHooksFile } from "./hooks-file.ts";

const notify = { t4a: "/opt/t4a", id: "q1" };

test("t4a's hooks follow the user's own, whose other defaults are kept; an unreadable file of theirs means no hooks file", () => {
  const dir = mkdtempSync(join(tmpdir(), "t4a-hooks-"));
  try {
    const theirs = join(dir, "theirs.json");
    const ours = join(dir, "ours.json");
    writeFileSync(theirs, JSON.stringify({ model: { name: "m" }, hooks: { Stop: [{ hooks: [{ type: "command", command: "my-stop" }] }] } }));
    expect(writeQwenHooksFile(ours, { QWEN_CODE_SYSTEM_DEFAULTS_PATH: theirs }, notify)).toBe(true);
    const written = JSON.parse(readFileSync(ours, "utf8"));
    expect(written.model).toEqual({ name: "m" });
    expect(written.hooks.Stop.map((entry: { hooks: Array<{ command: string }> }) => entry.hooks[0]!.command)).toEqual(["my-stop", "/opt/t4a notify q1 idle"]);
    expect(written.hooks.PermissionRequest[0].hooks[0].command).toBe("/opt/t4a notify q1 waiting");
    // Beside the settings file its variable names, when the defaults have no variable of their own.
    writeFileSync(join(dir, "system-defaults.json"), "{ not json");
    expect(writeQwenHooksFile(join(dir, "again.json"), { QWEN_CODE_SYSTEM_SETTINGS_PATH: join(dir, "settings.json") }, notify)).toBe(false);
    // None at all: ours alone.
    expect(writeQwenHooksFile(ours, { QWEN_CODE_SYSTEM_DEFAULTS_PATH: join(dir, "missing.json") }, notify)).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(ours, "utf8")))).toEqual(["hooks"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
