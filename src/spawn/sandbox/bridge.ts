// `t4a sandbox-bridge PORT=SOCKET`: the sandbox's network bridge, started by `t4a sandbox-exec`
// inside bwrap before the seccomp filter (it must reach the allow-list proxy's unix socket, which
// the filter then refuses the program). It listens on 127.0.0.1:PORT of the sandbox's network
// namespace and joins each connection to the socket. It is the program's child, same user,
// unfiltered: so before anything else it makes itself non-dumpable, which (the program having no
// capabilities) refuses the program ptrace, /proc/PID/mem, /proc/PID/fd, pidfd_getfd and
// process_vm_readv/writev on it. (socat did this job before, and could not: exec makes a process
// dumpable again.) Not a protocol command: only sandbox-exec starts it.
import { createConnection, createServer } from "node:net";
import { dlopen, FFIType } from "bun:ffi";

const PR_SET_DUMPABLE = 4;
const PR_GET_DUMPABLE = 3;

export async function sandboxBridge(args: string[]): Promise<number> {
  const [spec = ""] = args;
  const at = spec.indexOf("=");
  const port = Number(spec.slice(0, at));
  const socket = spec.slice(at + 1);
  if (args.length !== 1 || at < 1 || !Number.isInteger(port) || !socket)
    return fail("usage: t4a sandbox-bridge PORT=SOCKET");
  const prctl = openPrctl();
  if (prctl(PR_SET_DUMPABLE, 0) !== 0 || prctl(PR_GET_DUMPABLE, 0) !== 0)
    return fail("sandbox-bridge: cannot make itself non-dumpable; refusing to bridge");
  const server = createServer((client) => {
    const upstream = createConnection(socket);
    client.pipe(upstream);
    upstream.pipe(client);
    // Either side failing ends both: no half-open pair left behind.
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  return new Promise((resolve) => {
    server.on("error", (error) => resolve(fail(`sandbox-bridge: ${error.message}`)));
    server.listen(port, "127.0.0.1");
  });
}

function openPrctl(): (option: number, value: number) => number {
  const symbols = {
    prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
  } as const;
  for (const name of ["libc.so.6", `libc.musl-${process.arch === "arm64" ? "aarch64" : "x86_64"}.so.1`]) {
    try {
      const libc = dlopen(name, symbols);
      return (option, value) => libc.symbols.prctl(option, value, 0, 0, 0);
    } catch {
      // Try the next C library.
    }
  }
  throw new Error("sandbox-bridge: no C library to call (glibc or musl)");
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 126;
}
