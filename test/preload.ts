// Loaded before every test file (bunfig.toml): daemons the tests start, directly or through the
// CLI's auto-start, check each reply against its command's schema (src/daemon/dispatch.ts).
process.env.T4A_CHECK_REPLIES = "1";
// The suite owns its environment: a caller's XDG directories (its agents.json, its state) or a
// t4a session it runs inside (T4A_SOCKET, T4A_SESSION…) must not reach the daemons it starts.
const KEPT = /^T4A_(CHECK_REPLIES|SOAK|TEST_.*|SCREEN_WORKERS)$/;
for (const name of Object.keys(process.env)) {
  if ((name.startsWith("XDG_") || name.startsWith("T4A_")) && !KEPT.test(name)) delete process.env[name];
}
