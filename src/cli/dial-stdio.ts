// `t4a dial-stdio`: stdin and stdout joined to the local daemon's socket, byte for byte, until
// either side ends. What `t4a --host` runs on the other machine through ssh. Once joined it says
// so on stderr (DIAL_READY), so the caller tells a t4a that answers from a login that never ran one.
import type { DaemonConnection } from "../client/connection.ts";
import { DIAL_READY } from "../client/ssh.ts";

export function dialStdio(connection: DaemonConnection): Promise<number> {
  process.stderr.write(`${DIAL_READY}\n`);
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
