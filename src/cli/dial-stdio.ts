// `t4a dial-stdio`: stdin and stdout joined to the local daemon's socket, byte for byte, until
// either side ends. What `t4a --host` runs on the other machine through ssh.
import type { DaemonConnection } from "../client/connection.ts";

export function dialStdio(connection: DaemonConnection): Promise<number> {
  return new Promise<number>((resolve) => {
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      connection.close();
      resolve(code);
    };
    const link = connection.takeRaw(
      (bytes) => void process.stdout.write(bytes),
      () => finish(0),
    );
    process.stdin.on("data", (chunk: Buffer) => link.write(new Uint8Array(chunk)));
    process.stdin.on("end", () => finish(0));
  });
}
