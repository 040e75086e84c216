// `t4a tmux ARGS…`, and t4a run under the name `tmux`: tmux's command line over t4a's sessions.
// Global flags pick the server (`-L`/`-S`: a t4a socket each), the rest is commands split at `;`,
// run in order over one connection; the first refusal stops the line with tmux's exit code 1.
// Loaded only when asked for (main.ts), so t4a's own calls pay nothing for it.
import { writeSync } from "node:fs";
import { parentDir, socketPath } from "../../client/socket-path.ts";
import { parseCommand, splitCommands, TmuxError } from "./grammar.ts";
import { Server } from "./server.ts";

/** tmux's own global flags (getopt "2c:CDdf:lL:NqS:T:uUvV"). */
const GLOBAL_TEMPLATE = "2c:CDdf:lL:NqS:T:uUvV";
const GLOBAL_REFUSED: Record<string, string> = {
  c: "-c (run a shell command as tmux's login shell)",
  C: "-C (control mode)",
  D: "-D (a server in the foreground: `t4a daemon` is t4a's)",
};

export interface TmuxInvocation {
  version: string;
  /** argv that runs this executable again (the pipe-pane helper). */
  self: string[];
}

export async function runTmux(argv: string[], invocation: TmuxInvocation): Promise<number> {
  const out: string[] = [];
  let server: Server | undefined;
  try {
    const globals = new Map<string, string | true>();
    let i = 0;
    for (; i < argv.length; i++) {
      const word = argv[i]!;
      if (word === "--") {
        i++;
        break;
      }
      if (!word.startsWith("-") || word === "-") break;
      for (let j = 1; j < word.length; j++) {
        const flag = word[j]!;
        const at = GLOBAL_TEMPLATE.indexOf(flag);
        if (at < 0 || flag === ":") throw new TmuxError(`unknown option -- ${flag}\n${USAGE}`);
        if (GLOBAL_TEMPLATE[at + 1] === ":") {
          const value = j + 1 < word.length ? word.slice(j + 1) : argv[++i];
          if (value === undefined) throw new TmuxError(`option requires an argument -- ${flag}\n${USAGE}`);
          globals.set(flag, value);
          break;
        }
        globals.set(flag, true);
      }
    }
    if (globals.has("V")) {
      console.log(`tmux 3.3a (t4a ${invocation.version})`);
      return 0;
    }
    for (const flag of Object.keys(GLOBAL_REFUSED))
      if (globals.has(flag))
        throw new TmuxError(`t4a does not implement tmux ${GLOBAL_REFUSED[flag]} (see docs/tmux.md)`);
    server = await pickServer(globals);
    const words = argv.slice(i);
    // No command: tmux's is new-session.
    let commands: ReturnType<typeof parseCommand>[];
    try {
      commands = splitCommands(words.length ? words : ["new-session"]).map(parseCommand);
    } catch (error) {
      // tmux parses in the server: with none to reach, the line fails on connecting first.
      await server.connect();
      throw error;
    }
    // The commands' code loads only once the line is read (`tmux -V` needs none of it).
    const { HANDLERS } = await import("./commands.ts");
    const run = { server, out, self: invocation.self };
    for (const command of commands) {
      await HANDLERS[command.spec.name]!(command, run);
    }
    return 0;
  } catch (error) {
    if (out.length) writeSync(1, out.splice(0).join(""));
    const message = error instanceof TmuxError ? error.message : `t4a: ${(error as Error).message ?? String(error)}`;
    writeSync(2, `${message}\n`);
    return 1;
  } finally {
    if (out.length) writeSync(1, out.join(""));
    server?.close();
  }
}

const USAGE =
  "usage: tmux [-2CDlNuvV] [-c shell-command] [-f file] [-L socket-name]\n" +
  "            [-S socket-path] [-T features] [command [flags]]";

/**
 * The t4a socket that is this tmux server: `-S PATH` itself when its directory is private (t4a's
 * sockets live only in 0700 directories), else a private one named after PATH; `-L NAME` one
 * beside t4a's default socket (`default`: that socket); neither: t4a's own, which inside a pane
 * is the pane's daemon ($T4A_SOCKET), as tmux reads $TMUX.
 */
async function pickServer(globals: Map<string, string | true>): Promise<Server> {
  const path = globals.get("S");
  const label = globals.get("L");
  const base = socketPath();
  if (typeof path === "string") {
    const { checkSocketDir } = await import("../../client/socket-path.ts");
    const absolute = path.startsWith("/") ? path : `${process.cwd()}/${path}`;
    const privateDir = await checkSocketDir(parentDir(absolute)).catch(() => false);
    if (privateDir) return new Server(absolute, absolute);
    const { createHash } = await import("node:crypto");
    const digest = createHash("sha256").update(absolute).digest("hex").slice(0, 16);
    return new Server(`${parentDir(base)}/tmux-S-${digest}.sock`, absolute);
  }
  if (typeof label === "string" && label !== "default") {
    if (label.includes("/") || label === "" || label.length > 64) throw new TmuxError(`invalid socket name: ${label}`);
    const socket = `${parentDir(base)}/tmux-${label}.sock`;
    return new Server(socket, socket);
  }
  return new Server(base, base);
}
