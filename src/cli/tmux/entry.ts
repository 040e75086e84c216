// Where main.ts hands over when t4a runs as tmux (or `t4a tmux …`), and the pipe-pane helper.
import { version } from "../cli.ts";
import { runTmux } from "./tmux.ts";

export async function tmuxEntry(args: string[], pipeHelper: boolean): Promise<number> {
  if (pipeHelper) return (await import("./pipe.ts")).runPipeHelper(args);
  // The executable itself, whatever name it runs under (a compiled t4a is its own process.execPath).
  const self = process.execPath.endsWith("/bun") ? [process.execPath, process.argv[1]!] : [process.execPath];
  return runTmux(args, { version, self });
}
