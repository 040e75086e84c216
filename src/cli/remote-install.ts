// `t4a remote install HOST`: t4a onto HOST as ~/.local/bin/t4a, the build for HOST's OS, CPU and
// C library (`uname -sm`, `ldd --version`): --from FILE, or t4a-<target> in --from DIR, when given;
// else this very binary when they match, else the release file for that target (`npm run release`
// leaves them in dist/release/, beside dist/t4a), built there on demand when this binary sits in
// t4a's checkout and the file is missing. The copy is checked against its SHA-256 on the far side,
// and its --version must answer, before it replaces what was there; then it says whether the
// remote's PATH for ssh commands finds it.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isCompiled } from "../client/executable.ts";
import type { RemoteHost } from "../client/connect.ts";
import { parseHost, sshArgv } from "../client/ssh.ts";
import { shownLine, shownLines } from "../protocol/program-text.ts";

/** `uname -sm` (and musl) → a release target name. */
export function targetOf(uname: string, musl: boolean): string | undefined {
  const [system, machine] = uname.trim().split(/\s+/);
  const os = system === "Linux" ? "linux" : system === "Darwin" ? "darwin" : undefined;
  const arch =
    machine === "x86_64" || machine === "amd64"
      ? "x64"
      : machine === "aarch64" || machine === "arm64"
        ? "arm64"
        : undefined;
  if (!os || !arch) return undefined;
  return `${os}-${arch}${os === "linux" && musl ? "-musl" : ""}`;
}

export async function installRemote(
  host: string | RemoteHost,
  controlDir: string,
  ownTarget: string,
  from: string | undefined,
): Promise<number> {
  if (!isCompiled()) {
    console.error("t4a: install from the compiled binary (dist/t4a)");
    return 2;
  }
  // A host of hosts.json is reached as the fleet reaches it: its target and its own ssh options.
  const { target: address, ssh_args: own = [] } = typeof host === "string" ? { target: host } : host;
  const target = parseHost(address);
  mkdirSync(controlDir, { recursive: true, mode: 0o700 }); // ssh's control socket goes there
  const probe = Bun.spawnSync(sshArgv(target, controlDir, ["uname -sm; (ldd --version 2>&1 || true) | head -1"], own), {
    stderr: "pipe",
  });
  if (probe.exitCode !== 0) {
    console.error(
      `t4a: ssh ${target.destination}: ${shownLines(probe.stderr.toString().trim()) || `exited ${probe.exitCode}`}`,
    );
    return 3;
  }
  const [uname = "", libc = ""] = probe.stdout.toString().split("\n");
  const wanted = targetOf(uname, /musl/i.test(libc));
  if (!wanted) {
    console.error(
      `t4a: ${target.destination} is ${shownLine(uname.trim())}: ` +
        "t4a is built for Linux and macOS on x64 and arm64 only",
    );
    return 1;
  }
  // --from is honoured even when this binary would do: the user asked for that file.
  const file =
    from !== undefined
      ? statSync(from, { throwIfNoEntry: false })?.isDirectory()
        ? join(from, `t4a-${wanted}`)
        : from
      : wanted === ownTarget
        ? process.execPath
        : join(dirname(process.execPath), "release", `t4a-${wanted}`);
  // Missing beside a binary built in t4a's checkout: build that target now (Bun cross-compiles).
  const checkout = dirname(dirname(process.execPath));
  if (!existsSync(file) && from === undefined && existsSync(join(checkout, "build.ts"))) {
    console.error(`t4a: building the ${wanted} build for ${target.destination} (bun build.ts --target ${wanted})…`);
    const built = Bun.spawnSync([join(checkout, "node_modules", ".bin", "bun"), "build.ts", "--target", wanted], {
      cwd: checkout,
      stdout: "pipe",
      stderr: "pipe",
    });
    if (built.exitCode !== 0) {
      console.error(
        `t4a: cannot build ${wanted}: ${built.stderr.toString().trim().split("\n").at(-1) ?? `exit ${built.exitCode}`}`,
      );
      return 1;
    }
  }
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) {
    console.error(
      `t4a: ${target.destination} needs the ${wanted} build: no ${file}` +
        (from === undefined ? " (run `npm run release` in t4a's checkout, or give --from DIR)" : ""),
    );
    return 1;
  }
  const bytes = readFileSync(file);
  const sum = createHash("sha256").update(bytes).digest("hex");
  // A release file is checked against the release's own list before it goes anywhere.
  const sums = join(dirname(file), "SHA256SUMS");
  if (file !== process.execPath && existsSync(sums)) {
    const listed = readFileSync(sums, "utf8")
      .split("\n")
      .find((line) => line.endsWith(`  ${basename(file)}`))
      ?.split(" ")[0];
    if (listed !== sum) {
      console.error(`t4a: ${file} does not match ${sums}${listed ? "" : " (not listed)"}: not installing it`);
      return 1;
    }
  }
  const script = [
    'dir="$HOME/.local/bin"',
    'mkdir -p "$dir"',
    'cat > "$dir/t4a.new"',
    `got=$( (sha256sum "$dir/t4a.new" 2>/dev/null || shasum -a 256 "$dir/t4a.new") | cut -d" " -f1)`,
    `if [ "$got" != ${sum} ]; then rm -f "$dir/t4a.new"; echo "checksum mismatch after the copy: $got" >&2; exit 1; fi`,
    'chmod 755 "$dir/t4a.new"',
    'version=$("$dir/t4a.new" --version) || { rm -f "$dir/t4a.new"; echo "the copy does not run there" >&2; exit 1; }',
    'mv "$dir/t4a.new" "$dir/t4a"',
    'echo "$version"',
    // Which t4a an ssh command there finds: the PATH of non-interactive logins often lacks ~/.local/bin.
    'echo "path:$(command -v t4a || true)"',
  ].join(" && ");
  const child = Bun.spawn(sshArgv(target, controlDir, [script], own), {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  const answered = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  await send(child.stdin, bytes, `${basename(file)} to ${target.destination}`);
  const [stdout, stderr, code] = await answered;
  if (code !== 0) {
    console.error(`t4a: copying to ${target.destination}: ${shownLines(stderr.trim()) || `ssh exited ${code}`}`);
    return 3;
  }
  // What the far side printed reaches this terminal: each line through the one stripping function
  // (C1 and bidi controls too: a C0-only filter let U+009B and U+202E through).
  const lines = stdout
    .trim()
    .split("\n")
    .map((line) => shownLine(line).trim());
  const found = lines.find((line) => line.startsWith("path:"))?.slice("path:".length) ?? "";
  const version = lines.filter((line) => !line.startsWith("path:")).join(" ");
  console.log(
    `installed ${version} (${wanted}, sha256 ${sum.slice(0, 12)}…) on ${target.destination} as ~/.local/bin/t4a`,
  );
  const fix =
    'add  export PATH="$HOME/.local/bin:$PATH"  at the top of ~/.bashrc there ' +
    "(above its return for non-interactive shells), or to ~/.zshenv for zsh";
  if (!found)
    console.error(
      `t4a: note: ~/.local/bin is not on ${target.destination}'s PATH for ssh commands ` +
        `(--host finds t4a there anyway); to run \`ssh ${target.destination} t4a\`, ${fix}`,
    );
  else if (!found.endsWith("/.local/bin/t4a"))
    console.error(
      `t4a: note: on ${target.destination}, ssh commands find ${found} before ~/.local/bin/t4a ` +
        `(--host runs that one too); remove it, or ${fix}`,
    );
  return 0;
}

/**
 * Writes `bytes` to ssh's stdin in 1 MiB pieces, saying how far it got (in place on a terminal, at each quarter
 * otherwise).
 */
async function send(stdin: Bun.FileSink, bytes: Uint8Array, what: string): Promise<void> {
  const total = bytes.length;
  const mb = (n: number) => (n / 1e6).toFixed(n < 1e7 ? 1 : 0);
  const tty = process.stderr.isTTY;
  const started = performance.now();
  let quarter = 0;
  console.error(`t4a: copying ${what} (${mb(total)} MB)…`);
  try {
    for (let at = 0; at < total; ) {
      const end = Math.min(total, at + (1 << 20));
      stdin.write(bytes.subarray(at, end));
      await stdin.flush();
      at = end;
      const reached = Math.floor((at * 4) / total);
      if (tty) process.stderr.write(`\r  ${mb(at)} of ${mb(total)} MB`);
      else if (reached > quarter && at < total) {
        quarter = reached;
        console.error(`  ${mb(at)} of ${mb(total)} MB`);
      }
    }
    await stdin.end();
  } catch {
    // ssh ended early (refused, the far side failed): its exit code and stderr say why.
    if (tty) process.stderr.write("\n");
    return;
  }
  const seconds = (performance.now() - started) / 1000;
  if (tty) process.stderr.write("\n");
  console.error(`t4a: sent ${mb(total)} MB in ${seconds.toFixed(1)} s; checking it there`);
}
