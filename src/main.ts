// Entry point of the t4a executable: every invocation is the CLI; `t4a daemon` becomes the daemon.
// Keep this file tiny: whatever it imports, every shell-loop call pays for.
import { runCli } from "./cli/cli.ts";

const args = process.argv.slice(2);
// Run as `tmux` (a symlink `tmux -> t4a`, `t4a tmux-shim DIR`), or `t4a tmux …`: tmux's command line.
const invokedAs = process.argv0.slice(process.argv0.lastIndexOf("/") + 1);
if (invokedAs === "tmux" || args[0] === "tmux" || args[0] === "tmux-pipe")
  process.exit(
    await (await import("./cli/tmux/entry.ts")).tmuxEntry(
      invokedAs === "tmux" ? args : args.slice(1),
      args[0] === "tmux-pipe" && invokedAs !== "tmux",
    ),
  );
// What bwrap runs first inside a sandbox (not a CLI command: no parsing, no daemon).
if (args[0] === "sandbox-exec")
  process.exit(await (await import("./spawn/sandbox/exec.ts")).sandboxExec(args.slice(1)));
if (args[0] === "sandbox-bridge")
  process.exit(await (await import("./spawn/sandbox/bridge.ts")).sandboxBridge(args.slice(1)));
process.exit(await runCli(args));
