// `t4a remote install HOST`: this very binary onto HOST as ~/.local/bin/t4a, after checking that
// HOST runs the same OS and CPU (`uname -sm`), so `t4a --host HOST …` finds it there.
import { isCompiled } from "../client/executable.ts";
import { parseHost, sshArgv } from "../client/ssh.ts";

export async function installRemote(host: string, controlDir: string): Promise<number> {
  if (!isCompiled()) {
    console.error("t4a: install from the compiled binary (dist/t4a)");
    return 2;
  }
  const target = parseHost(host);
  const here = Bun.spawnSync(["uname", "-sm"]).stdout.toString().trim();
  const probe = Bun.spawnSync(sshArgv(target, controlDir, ["uname -sm"]), { stderr: "pipe" });
  if (probe.exitCode !== 0) {
    console.error(`t4a: ssh ${target.destination}: ${probe.stderr.toString().trim() || `exited ${probe.exitCode}`}`);
    return 3;
  }
  const there = probe.stdout.toString().trim();
  if (there !== here) {
    console.error(`t4a: ${target.destination} is ${there}, this binary is for ${here}: build one for it`);
    return 1;
  }
  const copy = Bun.spawnSync(
    sshArgv(target, controlDir, ['mkdir -p "$HOME/.local/bin" && cat > "$HOME/.local/bin/t4a.new" && chmod 755 "$HOME/.local/bin/t4a.new" && mv "$HOME/.local/bin/t4a.new" "$HOME/.local/bin/t4a" && "$HOME/.local/bin/t4a" --version']),
    { stdin: Bun.file(process.execPath), stderr: "pipe" },
  );
  if (copy.exitCode !== 0) {
    console.error(`t4a: copying to ${target.destination}: ${copy.stderr.toString().trim()}`);
    return 3;
  }
  console.log(`installed ${copy.stdout.toString().trim()} on ${target.destination} as ~/.local/bin/t4a`);
  return 0;
}
