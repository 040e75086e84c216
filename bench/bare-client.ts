// The floor for `t4a list`: a compiled Bun program that only connects to $T4A_SOCKET, sends
// {"cmd":"list"} and prints the reply line (with console.log: touching process.stdout would load
// node:stream, ~18 ms). Built by bench/run.ts with t4a's own build flags.
let reply = "";
const socket = await Bun.connect({
  unix: process.env.T4A_SOCKET!,
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
export {};
