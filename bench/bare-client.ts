// The floor for `t4a list`: a compiled Bun program that only connects to $T4A_SOCKET, sends
// {"cmd":"list"} and prints the reply line (with console.log: touching process.stdout would load
// node:stream, ~18 ms). Built by bench/run.ts with t4a's own build flags. With `--check` it first
// checks the socket's directory as t4a does (Bun.file().stat(): the one stat Bun offers without
// node:fs, answered by Bun's thread pool), to show what that check costs on its own.
import { parentDir, socketDirProblem } from "../src/client/socket-path.ts";

const path = process.env.T4A_SOCKET!;
if (process.argv.includes("--check")) {
  const problem = socketDirProblem(await Bun.file(parentDir(path)).stat());
  if (problem) throw new Error(`unsafe socket directory: ${problem}`);
}
let reply = "";
const socket = await Bun.connect({
  unix: path,
  socket: {
    data(socket, chunk) {
      reply += chunk.toString();
      if (!reply.endsWith("\n")) return;
      console.log(reply.trimEnd());
      socket.end();
    },
  },
});
socket.write('{"cmd":"list"}\n');
