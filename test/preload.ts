// Loaded before every test file (bunfig.toml): daemons the tests start, directly or through the
// CLI's auto-start, check each reply against its command's schema (src/daemon/dispatch.ts).
process.env.T4A_CHECK_REPLIES = "1";
