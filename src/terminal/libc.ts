// The host's C library through bun:ffi: the only file that touches bun:ffi. What it offers
// (wcwidth, a tty's unread input, its output flow) is optional: on a platform or libc it cannot
// open, each function answers undefined (or false) and its caller uses its own fallback.
// Daemon-only.
import { dlopen, FFIType, ptr, read } from "bun:ffi";

/** glibc: LC_CTYPE is category 0, so its mask is 1 << 0. */
const LC_CTYPE_MASK = 1;
/** Linux ioctl: bytes in a tty's input queue not yet read by the program. */
const FIONREAD = 0x541b;
const O_RDONLY_NOCTTY_NONBLOCK = 0o0 | 0o400 | 0o4000;

const symbols = {
  wcwidth: { args: [FFIType.i32], returns: FFIType.i32 },
  newlocale: { args: [FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.ptr },
  uselocale: { args: [FFIType.ptr], returns: FFIType.ptr },
  open: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
  ioctl: { args: [FFIType.i32, FFIType.u64, FFIType.ptr], returns: FFIType.i32 },
  tcflow: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  close: { args: [FFIType.i32], returns: FFIType.i32 },
  flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
  __errno_location: { args: [], returns: FFIType.ptr },
} as const;

type Libc = ReturnType<typeof dlopen<typeof symbols>>["symbols"];

let libc: Libc | null | undefined;
let utf8Locale = false;

function open(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== "linux") return libc;
  for (const name of ["libc.so.6", "libc.so"]) {
    try {
      libc = dlopen(name, symbols).symbols;
      break;
    } catch {
      // Not glibc (musl names itself differently), or no such file: try the next name.
    }
  }
  if (libc) {
    // wcwidth answers by the calling thread's LC_CTYPE; the daemon never called setlocale, so it
    // is "C" (no wide characters). Every UTF-8 locale of glibc shares one width table: use C.UTF-8
    // for this thread alone, leaving the process's locale as it is.
    const locale = libc.newlocale(LC_CTYPE_MASK, ptr(Buffer.from("C.UTF-8\0")), null);
    if (locale) {
      libc.uselocale(locale);
      utf8Locale = true;
    }
  }
  return libc;
}

/** libc's wcwidth for one code point in a UTF-8 locale; undefined when there is none to ask. */
export function libcWcwidth(codepoint: number): number | undefined {
  const c = open();
  if (!c || !utf8Locale) return undefined;
  return c.wcwidth(codepoint);
}

/**
 * Bytes waiting in a tty's input queue that its program has not read (FIONREAD on the slave
 * side); undefined when it cannot be asked. Opens and closes the tty each time: holding it
 * open would keep the PTY from reporting EOF when the program ends.
 */
const count = new Int32Array(1);

export function unreadInput(ttyPath: string): number | undefined {
  return onTty(ttyPath, (c, fd) => (c.ioctl(fd, FIONREAD, ptr(count)) === 0 ? count[0] : undefined));
}

/** `use` on the tty opened without becoming its controlling process; undefined when it cannot be opened. */
function onTty<T>(ttyPath: string, use: (c: Libc, fd: number) => T): T | undefined {
  const c = open();
  if (!c) return undefined;
  const fd = c.open(ptr(Buffer.from(`${ttyPath}\0`)), O_RDONLY_NOCTTY_NONBLOCK);
  if (fd < 0) return undefined;
  try {
    return use(c, fd);
  } finally {
    c.close(fd);
  }
}

/** tcflow actions: suspend and restart a terminal's output. */
const TCOOFF = 0;
const TCOON = 1;

/**
 * Suspends (`on` false) or restarts a tty's output, as tcflow(3) does on its slave side: the
 * program blocks in write() until restarted. Unlike an XOFF typed into it, nothing the program
 * does or is sent restarts it (neither IXANY, nor an XON, nor clearing IXON in raw mode).
 * Answers false when it cannot be done here.
 */
export function setOutputFlow(ttyPath: string, on: boolean): boolean {
  return onTty(ttyPath, (c, fd) => c.tcflow(fd, on ? TCOON : TCOOFF) === 0) ?? false;
}

/** flock(2) operations: an exclusive lock, without waiting for it. */
const LOCK_EX_NB = 2 | 4;
/** Linux: this file cannot be locked at all (a filesystem without locks), not "held by another". */
const CANNOT_LOCK = new Set([22 /* EINVAL */, 37 /* ENOLCK */, 95 /* EOPNOTSUPP */]);

/**
 * Takes an exclusive flock(2) on an open file without waiting: true when taken (held until the
 * fd closes or the process ends, even by SIGKILL), false when another open file holds it,
 * undefined when this system cannot lock it (no glibc; a filesystem without locks: ENOLCK).
 */
export function lockExclusive(fd: number): boolean | undefined {
  const c = open();
  if (!c) return undefined;
  if (c.flock(fd, LOCK_EX_NB) === 0) return true;
  // Anything else (EWOULDBLOCK, or an errno read too late) counts as held: never a second daemon.
  const errno = c.__errno_location();
  return errno && CANNOT_LOCK.has(read.i32(errno)) ? undefined : false;
}
