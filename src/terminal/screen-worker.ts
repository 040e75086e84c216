// A worker thread of the screen pool (screen-pool.ts): its screens parse here, off the daemon's
// event loop. Requests come on the port it was given; after each answer to a call it bumps the
// shared counter, which is what a daemon thread blocked on a read waits on.
import { workerData, type MessagePort } from "node:worker_threads";
import { ScreenHost, type HostRequest } from "./screen-host.ts";

const { port, answered } = workerData as { port: MessagePort; answered: SharedArrayBuffer };
const counter = new Int32Array(answered);
const host = new ScreenHost((event) => {
  port.postMessage(event);
  if (event.ev === "return") {
    Atomics.add(counter, 0, 1);
    Atomics.notify(counter, 0);
  }
});
port.on("message", (request: HostRequest) => host.handle(request));
