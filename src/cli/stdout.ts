// One line to stdout, said whether its reader is still there: a stream (`t4a events --all`) ends
// once nobody reads it (`| head -n 1`), where console.log drops a write to a closed pipe silently.
import { writeSync } from "node:fs";

/** Writes `text` and a newline now; false when stdout's reader has gone (EPIPE). */
export function writeLine(text: string): boolean {
  let bytes = Buffer.from(`${text}\n`);
  try {
    while (bytes.length > 0) bytes = bytes.subarray(writeSync(1, bytes));
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EPIPE") return false;
    if (code !== "EAGAIN") throw error;
    // A non-blocking stdout whose reader is slow: the rest goes through Bun's buffered writer.
    process.stdout.write(bytes);
    return true;
  }
}
