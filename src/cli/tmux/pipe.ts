// pipe-pane's helper (`t4a tmux-pipe SOCKET ID COMMAND`, started detached by pipe-pane): attaches
// read-only to the session and writes every byte of its output from now on into `sh -c COMMAND`,
// until the session ends, the command exits, or pipe-pane stops it (SIGTERM).
import { connectDaemon } from "../../client/connect.ts";
import { Frame, FrameReader } from "../../protocol/frames.ts";
import { PROTOCOL_VERSION } from "../../protocol/fields.ts";

export async function runPipeHelper([socket, id, command]: string[]): Promise<number> {
  if (socket === undefined || id === undefined || command === undefined) return 2;
  const child = Bun.spawn(["/bin/sh", "-c", command], { stdin: "pipe", stdout: "ignore", stderr: "ignore" });
  const connection = await connectDaemon(socket, false);
  const { reply } = await connection.request({ cmd: "attach", id, read_only: true, protocol: PROTOCOL_VERSION });
  if (reply.ok !== true) {
    child.stdin.end();
    return 1;
  }
  const reader = new FrameReader();
  // pipe-pane waits for this line: from here on, no output is missed.
  const { writeSync, closeSync } = await import("node:fs");
  writeSync(1, "ok\n");
  closeSync(1);
  const stop = () => {
    connection.close();
    try {
      child.stdin.end();
    } catch {}
  };
  process.on("SIGTERM", stop);
  return new Promise<number>((resolve) => {
    void child.exited.then(() => {
      connection.close();
      resolve(0);
    });
    connection.takeRaw(
      (bytes) => {
        for (const frame of reader.push(bytes)) {
          // The screen as it was is not output: tmux pipes only what comes after.
          if (frame.type === Frame.output) {
            child.stdin.write(frame.payload);
            void child.stdin.flush();
          } else if (frame.type === Frame.event) {
            const event = JSON.parse(new TextDecoder().decode(frame.payload)) as { event?: string };
            if (event.event === "exit") stop();
          }
        }
      },
      () => stop(),
    );
  });
}
