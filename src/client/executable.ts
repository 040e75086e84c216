// How this program calls itself again: the compiled binary by its path, or (in development)
// bun with the entry file. The daemon's auto-start, agents' hooks and the service unit use it.

/** True in the compiled binary (its modules live in Bun's embedded /$bunfs). */
export function isCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs/");
}

/** The argv that runs this program. */
export function selfArgv(): string[] {
  return isCompiled() ? [process.execPath] : [process.execPath, Bun.main];
}
