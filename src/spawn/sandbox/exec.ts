// `t4a sandbox-exec [--bridge PORT=SOCKET] [--env NAME=VALUE]… -- PROGRAM ARGS…`: the first thing
// bwrap runs inside a sandbox. It starts the network bridge (`t4a sandbox-bridge`, bridge.ts: a
// TCP port in the sandbox's own network namespace that leads to the allow-list proxy's unix
// socket, non-dumpable so the program cannot take it over), then locks itself down: no new
// privileges, the seccomp filter (no AF_UNIX sockets, no ptrace), and only then the loader variables
// (LD_PRELOAD…) of the session, so they never run in bwrap or before the filter. Then it becomes
// the program (execve: same PID, same PTY). Not a protocol command: only bwrap calls it.
import { dlopen, FFIType, ptr } from "bun:ffi";
import { selfArgv } from "../../client/executable.ts";
import { unixSocketFilter } from "./seccomp.ts";

const PR_SET_NO_NEW_PRIVS = 38;
const PR_SET_SECCOMP = 22;
const SECCOMP_MODE_FILTER = 2;

export async function sandboxExec(args: string[]): Promise<number> {
  const split = args.indexOf("--");
  const program = split < 0 ? [] : args.slice(split + 1);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  const bridges: Array<{ port: number; socket: string }> = [];
  const options = split < 0 ? args : args.slice(0, split);
  for (let i = 0; i < options.length; i += 2) {
    const [flag, value = ""] = [options[i], options[i + 1]];
    const at = value.indexOf("=");
    if (at < 1) return fail(`sandbox-exec: ${flag} needs NAME=VALUE`);
    if (flag === "--env") env[value.slice(0, at)] = value.slice(at + 1);
    else if (flag === "--bridge") bridges.push({ port: Number(value.slice(0, at)), socket: value.slice(at + 1) });
    else return fail(`sandbox-exec: unknown option ${flag}`);
  }
  if (!program.length)
    return fail("usage: t4a sandbox-exec [--bridge PORT=SOCKET] [--env NAME=VALUE]… -- PROGRAM ARGS…");
  for (const bridge of bridges) await startBridge(bridge.port, bridge.socket);

  const libc = openLibc();
  if (libc.symbols.prctl(PR_SET_NO_NEW_PRIVS, 1, null, 0, 0) !== 0)
    return fail("sandbox-exec: prctl(PR_SET_NO_NEW_PRIVS) failed");
  const filter = unixSocketFilter();
  // struct sock_fprog: unsigned short len, then (aligned) the pointer to the instructions.
  const fprog = new BigUint64Array(2);
  new DataView(fprog.buffer).setUint16(0, filter.length / 8, true);
  fprog[1] = BigInt(ptr(filter));
  if (libc.symbols.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ptr(fprog), 0, 0) !== 0)
    return fail("sandbox-exec: installing the seccomp filter failed; refusing to run unfiltered");

  const path = program[0]!.includes("/") ? program[0]! : Bun.which(program[0]!, { PATH: env.PATH ?? "/usr/bin:/bin" });
  if (!path) return fail(`${program[0]}: command not found`, 127);
  const keep: Uint8Array[] = [];
  const cString = (text: string) => {
    const bytes = new TextEncoder().encode(`${text}\0`);
    keep.push(bytes);
    return BigInt(ptr(bytes));
  };
  const pointers = (items: string[]) => {
    const array = new BigUint64Array(items.length + 1);
    items.forEach((item, i) => (array[i] = cString(item)));
    keep.push(new Uint8Array(array.buffer));
    return ptr(array);
  };
  libc.symbols.execve(
    ptr(new TextEncoder().encode(`${path}\0`)),
    pointers(program),
    pointers(Object.entries(env).map(([key, value]) => `${key}=${value}`)),
  );
  return fail(`${program[0]}: cannot execute (execve failed)`, 126);
}

function openLibc() {
  const symbols = {
    prctl: { args: [FFIType.i32, FFIType.u64, FFIType.ptr, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
    execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  } as const;
  for (const name of ["libc.so.6", `libc.musl-${process.arch === "arm64" ? "aarch64" : "x86_64"}.so.1`]) {
    try {
      return dlopen(name, symbols);
    } catch {
      // Try the next C library.
    }
  }
  throw new Error("sandbox-exec: no C library to call (glibc or musl)");
}

/**
 * Starts `t4a sandbox-bridge PORT=SOCKET` beside the program and waits until its port accepts (the
 * program's first request must not race it). It ends with the sandbox: once the program exits
 * bwrap does, and its init (--die-with-parent) takes every process of the namespace with it. Its
 * environment is empty: nothing of the session's (BUN_OPTIONS…) acts on it.
 */
async function startBridge(port: number, socket: string): Promise<void> {
  // Nothing of it reaches the session's terminal: its words would land in the program's screen
  // (a broken pipe printed into an agent's TUI reached an `ask` answer). Its exit code says enough.
  const child = Bun.spawn([...selfArgv(), "sandbox-bridge", `${port}=${socket}`], {
    stdio: ["ignore", "ignore", "ignore"],
    env: {},
  });
  child.unref();
  for (let i = 0; i < 1000; i++) {
    const reached = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
      (connection) => (connection.end(), true),
      () => false,
    );
    if (reached) return;
    if (child.exitCode !== null) throw new Error(`sandbox-exec: the network bridge exited ${child.exitCode}`);
    await Bun.sleep(10);
  }
  throw new Error("sandbox-exec: the network bridge did not start");
}

function fail(message: string, code = 126): number {
  process.stderr.write(`${message}\n`);
  return code;
}
