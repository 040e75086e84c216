// Loaded before every test file (bunfig.toml): daemons the tests start, directly or through the
// CLI's auto-start, check each reply against its command's schema (src/daemon/dispatch.ts).
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";

process.env.T4A_CHECK_REPLIES = "1";
// The suite owns its environment: a caller's XDG directories (its agents.json, its state) or a
// t4a session it runs inside (T4A_SOCKET, T4A_SESSION…) must not reach the daemons it starts.
const KEPT = /^T4A_(CHECK_REPLIES|SOAK|TEST_.*|SCREEN_WORKERS)$/;
for (const name of Object.keys(process.env)) {
  if ((name.startsWith("XDG_") || name.startsWith("T4A_")) && !KEPT.test(name)) delete process.env[name];
}
// A home of the suite's own: the shells its sessions start must not source this machine's startup
// files (a ~/.bashrc running `pyenv init`, whose rehash lock a killed session leaves behind, made
// every later interactive shell hang a minute). Git's identity and npm's settings come along.
{
  const real = process.env.HOME;
  const home = mkdtempSync(`${tmpdir()}/t4a-test-home-`);
  for (const file of [".gitconfig", ".npmrc"])
    if (real && existsSync(`${real}/${file}`)) copyFileSync(`${real}/${file}`, `${home}/${file}`);
  process.env.HOME = home;
  process.on("exit", () => rmSync(home, { recursive: true, force: true }));
}
