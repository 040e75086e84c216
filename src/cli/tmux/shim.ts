// `t4a tmux-shim DIR`: DIR/tmux becomes a symbolic link to this t4a, so a tool that runs `tmux`
// with DIR first on its PATH drives t4a. Never replaces a file that is not already such a link.
import { lstatSync, mkdirSync, readlinkSync, realpathSync, symlinkSync } from "node:fs";
import { resolve } from "node:path";

export function makeShim(dir: string): number {
  const target = realpathSync(process.execPath);
  const link = resolve(dir, "tmux");
  mkdirSync(resolve(dir), { recursive: true });
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(link);
  } catch {}
  if (existing) {
    const ours = existing.isSymbolicLink() && safeRealpath(link) === target;
    if (!ours) {
      const what = existing.isSymbolicLink() ? `a link to ${readlinkSync(link)}` : "a file";
      console.error(`t4a: ${link} is already ${what}; not replaced (a real tmux stays where it is)`);
      return 1;
    }
    console.log(`${link} -> ${target} (already)`);
    return 0;
  }
  symlinkSync(target, link);
  console.log(`${link} -> ${target}`);
  console.log(`put ${resolve(dir)} first on PATH for tools to find it: export PATH="${resolve(dir)}:$PATH"`);
  return 0;
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
