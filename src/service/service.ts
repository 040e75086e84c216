// `t4a service install|uninstall|status [--web ADDR] [--print]`: the daemon as a systemd user
// service (Linux) or a launchd agent (macOS), started at login — or at boot with lingering on.
// Where no service manager answers (a container), it says so and exits non-zero; --print writes
// the unit to stdout instead of installing it.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { join } from "node:path";
import { isCompiled } from "../client/executable.ts";
import { LAUNCHD_LABEL, launchdPlist, systemdUnit } from "./units.ts";

export interface ServiceCommand {
  action: string;
  web?: string;
  print: boolean;
}

function run(argv: string[]): { code: number; out: string } {
  const child = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe" });
  return { code: child.exitCode ?? 1, out: `${child.stdout.toString()}${child.stderr.toString()}`.trim() };
}

/** This executable, as a service should start it: the compiled binary's absolute path. */
function executable(): string {
  if (!isCompiled())
    throw new Error("install the service from the compiled binary (dist/t4a), not from `bun src/main.ts`");
  return process.execPath;
}

export function runService(command: ServiceCommand): number {
  const home = homedir();
  const options = {
    exec: command.print && !isCompiled() ? "/usr/local/bin/t4a" : executable(),
    web: command.web,
    home,
  };
  const mac = process.platform === "darwin";
  const text = mac ? launchdPlist(options) : systemdUnit(options);
  if (command.print) {
    process.stdout.write(text);
    return 0;
  }
  return mac ? launchd(command.action, text, home) : systemd(command.action, text, home);
}

function systemd(action: string, unit: string, home: string): number {
  const path = join(process.env.XDG_CONFIG_HOME || join(home, ".config"), "systemd", "user", "t4a.service");
  const probe = run(["systemctl", "--user", "show-environment"]);
  if (probe.code !== 0) {
    console.error(
      `t4a: no systemd user manager answers here (${probe.out.split("\n")[0] || "systemctl failed"}), ` +
        "as in most containers.",
    );
    console.error(
      "t4a: run `t4a daemon` under your own supervisor, or write the unit with `t4a service install --print`.",
    );
    return 1;
  }
  if (action === "install") {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, unit);
    for (const argv of [
      ["systemctl", "--user", "daemon-reload"],
      ["systemctl", "--user", "enable", "--now", "t4a.service"],
    ]) {
      const result = run(argv);
      if (result.code !== 0) {
        console.error(`t4a: ${argv.join(" ")}: ${result.out}`);
        return 1;
      }
    }
    console.log(`installed ${path}; the daemon runs now and at every login (logs: journalctl --user -u t4a)`);
    const linger = run(["loginctl", "show-user", userInfo().username, "-p", "Linger", "--value"]);
    if (linger.out !== "yes")
      console.log(`to start it at boot without a login: loginctl enable-linger ${userInfo().username}`);
    return 0;
  }
  if (action === "uninstall") {
    run(["systemctl", "--user", "disable", "--now", "t4a.service"]);
    rmSync(path, { force: true });
    run(["systemctl", "--user", "daemon-reload"]);
    console.log(`removed ${path}`);
    return 0;
  }
  const status = run(["systemctl", "--user", "status", "t4a.service", "--no-pager"]);
  console.log(existsSync(path) ? status.out : `not installed (${path} does not exist)`);
  return status.code === 0 ? 0 : 3;
}

function launchd(action: string, plist: string, home: string): number {
  const path = join(home, "Library", "LaunchAgents", `${LAUNCHD_LABEL}.plist`);
  if (action === "install") {
    mkdirSync(join(path, ".."), { recursive: true });
    mkdirSync(join(home, "Library", "Logs"), { recursive: true });
    writeFileSync(path, plist);
    const loaded = run(["launchctl", "load", "-w", path]);
    if (loaded.code !== 0) {
      console.error(`t4a: launchctl load: ${loaded.out}`);
      return 1;
    }
    console.log(`installed ${path}; the daemon runs now and at every login (logs: ~/Library/Logs/t4a.log)`);
    return 0;
  }
  if (action === "uninstall") {
    run(["launchctl", "unload", "-w", path]);
    rmSync(path, { force: true });
    console.log(`removed ${path}`);
    return 0;
  }
  const listed = run(["launchctl", "list", LAUNCHD_LABEL]);
  console.log(listed.code === 0 ? listed.out : `not loaded${existsSync(path) ? "" : " (not installed)"}`);
  return listed.code === 0 ? 0 : 3;
}
