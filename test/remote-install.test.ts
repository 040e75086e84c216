// `t4a remote install` says what it does, through a real sshd on localhost: --from (a file or a
// directory) is what gets installed even when the host matches this machine, a --from that is not
// there is an error with nothing installed, the copy reports its progress, and a remote whose PATH
// for ssh commands does not reach ~/.local/bin is told so with the fix.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox } from "./harness.ts";
import { SSHD, startSshd, type LocalSshd } from "./fixtures/sshd.ts";

let sandbox: Sandbox;
let sshd: LocalSshd | undefined;
let host = "";
let homes = 0;
// This binary's own target: the far side answers uname as this machine would.
const uname = `${process.platform === "darwin" ? "Darwin" : "Linux"} ${process.arch === "x64" ? "x86_64" : "aarch64"}`;

beforeAll(async () => {
  sandbox = new Sandbox();
  sshd = await startSshd(join(sandbox.dir, "ssh"));
  if (sshd) host = `ssh://${process.env.USER ?? "root"}@127.0.0.1:${sshd.port}`;
});
afterAll(async () => {
  sshd?.stop();
  await sandbox.cleanup();
});

/** Runs `t4a remote install HOST args…` through a wrapper that answers the probe and gives the far side its own HOME (and `extra` shell first: inside bash's double quotes, so `\\$` for the far side's `$`). */
async function install(args: string[], extra = "") {
  const home = join(sandbox.dir, `home${++homes}`);
  mkdirSync(home);
  const wrapper = join(sandbox.dir, `ssh-${homes}`);
  writeFileSync(
    wrapper,
    [
      "#!/bin/bash",
      'cmd="${@: -1}"; rest=("${@:1:$#-1}")',
      `case "$cmd" in "uname -sm;"*) printf "%s\\n%s\\n" "${uname}" "ldd (GNU libc) 2.36"; exit 0;; esac`,
      `exec ssh -F ${sshd!.config} "\${rest[@]}" "HOME=${home}; ${extra}$cmd"`,
    ].join("\n"),
    { mode: 0o755 },
  );
  const child = Bun.spawn([BIN, "remote", "install", host, ...args], {
    env: { ...sandbox.env, T4A_SSH_COMMAND: wrapper },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  const installed = join(home, ".local", "bin", "t4a");
  return {
    code,
    stdout: stdout.trim(),
    stderr: stderr.trim(),
    installed: existsSync(installed) ? readFileSync(installed, "utf8") : undefined,
  };
}

test.if(SSHD !== undefined)(
  "--from FILE is installed even when the host matches this machine, with progress and a PATH note",
  async () => {
    // 6 MB, so the copy reports quarters; it answers --version as t4a would.
    const file = join(sandbox.dir, "my-t4a");
    const body = `#!/bin/sh\necho t4a-from-file\n#${"x".repeat(6_000_000)}\n`;
    writeFileSync(file, body, { mode: 0o755 });
    const done = await install(["--from", file]);
    expect(done.code).toBe(0);
    expect(done.installed).toBe(body); // not this binary
    expect(done.stdout).toContain("installed t4a-from-file (");
    expect(done.stderr).toContain("copying my-t4a to");
    expect(done.stderr).toContain("(6.0 MB)");
    expect(done.stderr).toMatch(/ 3\.\d of 6\.0 MB/);
    expect(done.stderr).toMatch(/sent 6\.0 MB in [\d.]+ s; checking it there/);
    // sshd's PATH for commands has no ~/.local/bin.
    expect(done.stderr).toContain("~/.local/bin is not on");
    expect(done.stderr).toContain('export PATH="$HOME/.local/bin:$PATH"');
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "--from DIR gives t4a-<target> from it (checked against its SHA256SUMS) even when the host matches",
  async () => {
    const dir = join(sandbox.dir, "release");
    mkdirSync(dir);
    const target = `${process.platform}-${process.arch}`;
    const body = "#!/bin/sh\necho t4a-from-dir\n";
    writeFileSync(join(dir, `t4a-${target}`), body, { mode: 0o755 });
    writeFileSync(
      join(dir, "SHA256SUMS"),
      `${new Bun.CryptoHasher("sha256").update(body).digest("hex")}  t4a-${target}\n`,
    );
    const done = await install(["--from", dir], "PATH=\\$HOME/.local/bin:\\$PATH; ");
    expect(done).toMatchObject({ code: 0, installed: body });
    expect(done.stdout).toContain("installed t4a-from-dir (");
    expect(done.stderr).not.toContain("note:"); // on PATH there: nothing to say
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "a --from that is not there is an error, and nothing is installed",
  async () => {
    const missing = join(sandbox.dir, "no-such-t4a");
    const done = await install(["--from", missing]);
    expect(done.code).toBe(1);
    expect(done.stderr).toContain(`no ${missing}`);
    expect(done.stdout).not.toContain("installed");
    expect(done.installed).toBeUndefined();
  },
  60_000,
);

test.if(SSHD !== undefined)(
  "another t4a first on the remote's PATH is named; what the far side prints comes without control characters",
  async () => {
    const file = join(sandbox.dir, "small-t4a");
    // Its --version answers with a terminal title sequence: what reaches this terminal has none.
    writeFileSync(file, "#!/bin/sh\nprintf 't4a-\\033]0;title\\007small\\n'\n", { mode: 0o755 });
    const other = join(sandbox.dir, "other-bin");
    mkdirSync(other);
    writeFileSync(join(other, "t4a"), "#!/bin/sh\n", { mode: 0o755 });
    const done = await install(["--from", file], `PATH=${other}:\\$HOME/.local/bin:\\$PATH; `);
    expect(done.code).toBe(0);
    expect(done.stderr).toContain(`ssh commands find ${join(other, "t4a")} before ~/.local/bin/t4a`);
    // Through the one stripping function: each control character a space, as everywhere else.
    expect(done.stdout).toContain("installed t4a- ]0;title small (");
  },
  60_000,
);
