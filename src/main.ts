// Entry point of the t4a executable: every invocation is the CLI; `t4a daemon` becomes the daemon.
// Keep this file tiny: whatever it imports, every shell-loop call pays for.
import { runCli } from "./cli/cli.ts";

process.exit(await runCli(process.argv.slice(2)));
