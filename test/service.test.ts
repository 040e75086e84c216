// The daemon as a service: the systemd unit passes systemd-analyze verify and its ExecStart runs
// a daemon; the launchd plist parses as a plist with the keys launchd needs; where no service
// manager answers (a container), install says so and exits non-zero.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { launchdPlist, systemdUnit } from "../src/service/units.ts";
import { BIN, Sandbox, isAlive, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

test.if(Bun.which("systemd-analyze") !== null)(
  "the systemd unit verifies, and its ExecStart runs the daemon",
  async () => {
    const printed = await sandbox.ok(["service", "install", "--print", "--web", "127.0.0.1:0"]);
    expect(printed).toContain(`ExecStart=${BIN} daemon --web 127.0.0.1:0`);
    expect(printed).toContain("Restart=on-failure");
    expect(printed).toContain("Environment=T4A_SOCKET=%t/t4a/t4a.sock");
    const unit = join(sandbox.dir, "t4a.service");
    writeFileSync(unit, printed);
    const verify = Bun.spawnSync(["systemd-analyze", "verify", unit], { stderr: "pipe" });
    expect({ code: verify.exitCode, stderr: verify.stderr.toString() }).toEqual({ code: 0, stderr: "" });
    // A broken one does not pass: the check can fail.
    writeFileSync(unit, printed.replace(`ExecStart=${BIN}`, "ExecStart=/no/such/t4a"));
    expect(Bun.spawnSync(["systemd-analyze", "verify", unit], { stderr: "pipe" }).exitCode).not.toBe(0);
    // What ExecStart says, run by hand: a daemon that answers.
    const execStart = /^ExecStart=(.*)$/m.exec(printed)![1]!.split(" ");
    const daemon = Bun.spawn(execStart, { env: { ...sandbox.env }, stdio: ["ignore", "ignore", "ignore"] });
    await waitFor(async () => (await sandbox.run(["info"])).code === 0, 10_000, "the service's daemon");
    await sandbox.ok(["shutdown"]);
    await waitFor(() => !isAlive(daemon.pid), 5000, "it to stop");
  },
);

test("the launchd plist is a valid plist with RunAtLoad, KeepAlive and the program", () => {
  const plist = launchdPlist({ exec: "/Users/me/bin/t4a & co", web: "127.0.0.1:7681", home: "/Users/me" });
  const parsed = Bun.spawnSync(
    ["python3", "-c", "import plistlib, sys, json; print(json.dumps(plistlib.loads(sys.stdin.buffer.read())))"],
    {
      stdin: new TextEncoder().encode(plist),
      stderr: "pipe",
    },
  );
  expect(parsed.exitCode).toBe(0);
  expect(JSON.parse(parsed.stdout.toString())).toEqual({
    Label: "dev.t4a.daemon",
    ProgramArguments: ["/Users/me/bin/t4a & co", "daemon", "--web", "127.0.0.1:7681"],
    RunAtLoad: true,
    KeepAlive: true,
    StandardOutPath: "/Users/me/Library/Logs/t4a.log",
    StandardErrorPath: "/Users/me/Library/Logs/t4a.log",
  });
  expect(systemdUnit({ exec: "/opt/my t4a/t4a", home: "/h" })).toContain('ExecStart="/opt/my t4a/t4a" daemon');
});

const noUserManager = Bun.spawnSync(["systemctl", "--user", "show-environment"], { stderr: "ignore" }).exitCode !== 0;
test.if(noUserManager && process.platform === "linux")(
  "without a service manager, install says so plainly and exits non-zero",
  async () => {
    const result = await sandbox.run(["service", "install"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("no systemd user manager answers here");
    expect(result.stderr).toContain("t4a service install --print");
  },
);
