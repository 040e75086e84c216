// A worker thread for one read of opencode's database (opencode-log.ts), off the daemon's thread:
// a planted database of a million tiny rows held `t4a list` for 3.3 s when it was read there.
// Answers the messages, or the TaintedReadError's fields (a class does not cross threads).
import { parentPort } from "node:worker_threads";
import { TaintedReadError } from "../spawn/tainted-files.ts";
import { type OpencodePlace, readOpencode } from "./opencode-log.ts";

type Request = { path: string; root: string; maxBytes: number; place: OpencodePlace; copyDir: string };

parentPort?.once("message", (request: Request) => {
  try {
    parentPort?.postMessage({
      messages: readOpencode(request.path, request.root, request.maxBytes, request.place, request.copyDir),
    });
  } catch (error) {
    if (error instanceof TaintedReadError)
      parentPort?.postMessage({ tainted: { path: error.path, reason: error.reason, message: error.message } });
    else parentPort?.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  }
});
