// The sandbox's seccomp filter: no new AF_UNIX sockets (so no host unix socket, D-Bus, docker,
// ssh-agent or X11 can be reached, whatever the filesystem shows), no io_uring (which could
// open sockets past the filter), and no reaching into another process (ptrace,
// process_vm_readv/writev, pidfd_getfd): the network bridge runs unfiltered beside the program,
// and a process taken over, or a socket taken from it, would be a way past the filter (the bridge
// is non-dumpable too, which also closes /proc/PID/mem; pidfd_open stays: runtimes wait on it). Classic BPF, built here
// as bytes: the model of Anthropic's
// sandbox-runtime, without its prebuilt helper binaries. Applied by `t4a sandbox-exec` (exec.ts)
// inside bwrap, after what must still make unix sockets (the proxy bridge) has started.

const AF_UNIX = 1;
const EPERM = 1;
const ENOSYS = 38;

/** Native syscall numbers of what the filter refuses, per architecture. */
const ARCHES: Record<string, { audit: number; socket: number; x32: boolean; intrusive: number[] }> = {
  // ptrace, process_vm_readv, process_vm_writev, pidfd_getfd
  x64: { audit: 0xc000003e, socket: 41, x32: true, intrusive: [101, 310, 311, 438] },
  arm64: { audit: 0xc00000b7, socket: 198, x32: false, intrusive: [117, 270, 271, 438] },
};
const IO_URING = [425, 426, 427]; // io_uring_setup, io_uring_enter, io_uring_register (same on both)

// Classic BPF opcodes and seccomp's return values (linux/filter.h, linux/seccomp.h).
const LOAD = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff0000;
const ERRNO = 0x00050000;
// Offsets in struct seccomp_data: nr, arch, then args[0] (its low 32 bits: little-endian).
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The filter as struct sock_filter[] bytes, for this machine's architecture. */
export function unixSocketFilter(arch: string = process.arch): Uint8Array {
  const native = ARCHES[arch];
  if (!native) throw new Error(`the sandbox's seccomp filter does not know ${arch}`);
  const program: Instruction[] = [
    [LOAD, 0, 0, ARCH],
    [JEQ, 1, 0, native.audit],
    [RET, 0, 0, ERRNO | EPERM], // another ABI (32-bit socketcall cannot be inspected): refused
    [LOAD, 0, 0, NR],
    // x32 syscalls (nr | 0x40000000) on x86-64: refused; on arm64 no syscall is that high.
    [JGE, 0, 1, 0x40000000],
    [RET, 0, 0, ERRNO | EPERM],
    // Each refused call: "equal? then the next instruction (its answer), else skip it".
    ...IO_URING.flatMap((nr): Instruction[] => [
      [JEQ, 0, 1, nr],
      [RET, 0, 0, ERRNO | ENOSYS],
    ]),
    ...native.intrusive.flatMap((nr): Instruction[] => [
      [JEQ, 0, 1, nr],
      [RET, 0, 0, ERRNO | EPERM],
    ]),
    [JEQ, 1, 0, native.socket],
    [RET, 0, 0, ALLOW],
    [LOAD, 0, 0, ARG0],
    [JEQ, 0, 1, AF_UNIX],
    [RET, 0, 0, ERRNO | EPERM],
    [RET, 0, 0, ALLOW],
  ];
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach(([code, jt, jf, k], i) => {
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k, true);
  });
  return bytes;
}
