// Entry point of the t4a executable: every invocation is the CLI; `t4a daemon` becomes the daemon.
// Keep this file tiny: whatever it imports, every shell-loop call pays for.
import { runCli } from "./cli/cli.ts";

const args = process.argv.slice(2);
// What bwrap runs first inside a sandbox (not a CLI command: no parsing, no daemon).
if (args[0] === "sandbox-exec")
  process.exit(await (await import("./spawn/sandbox/exec.ts")).sandboxExec(args.slice(1)));
if (args[0] === "sandbox-bridge")
  process.exit(await (await import("./spawn/sandbox/bridge.ts")).sandboxBridge(args.slice(1)));
process.exit(await runCli(args));
