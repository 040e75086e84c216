// `t4a doctor`: what works on this machine and what does not, each with its fix. Every check runs
// the real thing where it can (bwrap makes a sandbox, sandbox-exec installs its filter, the
// daemon answers). Exit 0 when everything asked for works: the basics always, the sandbox,
// the service or a --host when asked (--sandbox, --service, --host); the rest is reported only.
import { statSync } from "node:fs";
import type { RemoteHost } from "../client/connect.ts";
import { DaemonConnection } from "../client/connection.ts";
import { selfArgv } from "../client/executable.ts";
import { parseHost, remoteT4a, sshArgv } from "../client/ssh.ts";
import { ensureSocketDir } from "../client/socket-dir.ts";
import { parentDir, socketDirProblem } from "../client/socket-path.ts";
import { shownLine } from "../protocol/program-text.ts";
import { PRESETS } from "../spawn/agents/registry.ts";
import { bwrapArgs, probeBwrap } from "../spawn/sandbox/bwrap.ts";

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** How to make it work, when it does not. */
  fix?: string;
  /** Its failure fails the doctor (asked for, or a basic). */
  required: boolean;
}

export interface DoctorOptions {
  socket: string;
  sandbox: boolean;
  service: boolean;
  /** An ssh target, or a host of hosts.json (its target and its own ssh options). */
  host?: string | RemoteHost;
  json: boolean;
}

/** A program's run that never throws: a missing program (ENOENT) is an answer like any other. */
function probe(
  argv: string[],
  timeoutMs = 10_000,
): { code: number | null; stdout: string; stderr: string; missing?: string } {
  try {
    const run = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe", timeout: timeoutMs });
    return { code: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
  } catch (error) {
    return { code: null, stdout: "", stderr: (error as Error).message, missing: `${argv[0]} is not on PATH` };
  }
}

export async function runDoctor(options: DoctorOptions): Promise<number> {
  const checks: Check[] = [];
  const add = (check: Omit<Check, "required"> & { required?: boolean }) => checks.push({ required: false, ...check });
  /** A check that throws is a failed line with what it said, never the end of the doctor. */
  const guard = async (name: string, required: boolean, fix: string, body: () => unknown) => {
    try {
      await body();
    } catch (error) {
      add({ name, ok: false, detail: `the check could not run: ${(error as Error).message}`, fix, required });
    }
  };

  // The socket directory and the daemon.
  const dir = parentDir(options.socket);
  let dirOk = true;
  try {
    const problem = socketDirProblem(statSync(dir));
    dirOk = problem === undefined;
    add({
      name: "socket directory",
      ok: dirOk,
      detail: problem ? `${dir}: ${problem}` : `${dir} (private)`,
      fix: problem ? `chmod 700 ${dir}, or set T4A_SOCKET elsewhere` : undefined,
      required: true,
    });
  } catch {
    add({
      name: "socket directory",
      ok: true,
      detail: `${dir} does not exist yet (made at the first create)`,
      required: true,
    });
  }
  const daemon = await DaemonConnection.open(options.socket)
    .then(
      async (connection) => {
        try {
          return (await connection.request({ cmd: "info" })).reply;
        } finally {
          connection.close();
        }
      },
      () => undefined,
    )
    .catch(() => undefined);
  add({
    name: "daemon",
    ok: true,
    detail: daemon
      ? `running: pid ${daemon.pid}, t4a ${daemon.version}, ${daemon.sessions ?? 0} sessions on ${options.socket}`
      : `not running (the first \`t4a create\` starts it, on ${options.socket})`,
  });

  // The sandbox: bwrap, user namespaces, the seccomp filter (its allow-list bridge is t4a itself).
  await guard("sandbox", options.sandbox, "install bubblewrap (apt install bubblewrap)", async () => {
    const bwrap = Bun.which("bwrap");
    if (process.platform !== "linux") {
      add({
        name: "sandbox",
        ok: false,
        detail: `not available on ${process.platform} yet`,
        required: options.sandbox,
      });
    } else if (!bwrap) {
      add({
        name: "sandbox",
        ok: false,
        detail: "bwrap is not on PATH",
        fix: "install bubblewrap (apt install bubblewrap)",
        required: options.sandbox,
      });
    } else {
      // T4A_TEST_NO_USERNS: the tests' seam for a kernel that refuses user namespaces.
      const broken = process.env.T4A_TEST_NO_USERNS ? "setting up uid map: Permission denied" : await probeBwrap(bwrap);
      if (broken) {
        add({
          name: "sandbox",
          ok: false,
          detail: `bwrap cannot make a sandbox here: ${broken}`,
          fix:
            "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on " +
            "Ubuntu kernel.apparmor_restrict_unprivileged_userns=0), or run where they are allowed",
          required: options.sandbox,
        });
      } else {
        // The very command line a session gets (bwrapArgs), with sandbox-exec's filter, running `true`.
        // This binary is shown again over the private /tmp (a checkout under /tmp), as sessions do.
        const self = selfArgv()
          .filter((arg) => arg.startsWith("/"))
          .map((path) => ({ kind: "ro-bind" as const, path }));
        const argv = [
          ...bwrapArgs(bwrap, { cwd: "/", mounts: self, net: "none", exec: [...selfArgv(), "sandbox-exec", "--"] }),
          "true",
        ];
        const filter = probe(argv);
        add({
          name: "sandbox",
          ok: filter.code === 0,
          detail:
            filter.code === 0
              ? `bwrap ${bwrap}: user namespaces, no capabilities, the seccomp filter`
              : `the seccomp filter failed: ${filter.stderr.trim()}`,
          fix: filter.code === 0 ? undefined : "a kernel with seccomp filters (CONFIG_SECCOMP_FILTER)",
          required: options.sandbox,
        });
      }
    }
  });

  // The service: a user manager to run the daemon at login and keep it after logout.
  if (process.platform === "linux") {
    const manager = probe(["systemctl", "--user", "is-system-running"]);
    const state = manager.stdout.trim();
    const running = state === "running" || state === "degraded";
    const user = process.env.USER ?? "";
    const lingering = probe(["loginctl", "show-user", user, "-p", "Linger", "--value"]);
    const linger = lingering.stdout.trim();
    const lingeringState =
      linger === "yes"
        ? "on (runs without a login)"
        : lingering.missing
          ? `unknown (${lingering.missing})`
          : "off (stops at logout)";
    const why = manager.missing ?? "no systemd user manager here (a container?)";
    add({
      name: "service",
      ok: running,
      detail: running ? `systemd user manager ${state}; lingering ${lingeringState}` : why,
      fix: running
        ? linger === "yes"
          ? undefined
          : `loginctl enable-linger ${user}`
        : "run the daemon yourself: `nohup t4a daemon >/dev/null 2>&1 &` " +
          "(or under your init); `t4a service install` needs a user manager",
      required: options.service,
    });
  }

  // The agent CLIs on PATH, with their versions.
  for (const preset of PRESETS) {
    const path = Bun.which(preset.cli);
    const version = path ? probe([path, "--version"], 5000).stdout.trim().split("\n")[0] : undefined;
    add({
      name: `agent ${preset.name}`,
      ok: path !== null,
      detail: path ? `${path}${version ? ` (${version})` : ""}` : "not on PATH",
      fix: path ? undefined : `install ${preset.cli} to use --agent ${preset.name}`,
    });
  }

  // Character widths: the C library's table (what programs here count with), or Bun's.
  const { libcWcwidth } = await import("../terminal/libc.ts");
  let libcWidths = false;
  try {
    libcWidths = libcWcwidth(0x4e00) === 2 && libcWcwidth(0x1f600) === 2;
  } catch {
    // No C library to ask: Bun's table, as below.
  }
  add({
    name: "character widths",
    ok: libcWidths,
    detail: libcWidths
      ? "the C library's wcwidth (glibc, C.UTF-8): wide and emoji cells counted as the programs here count them"
      : "no glibc with a C.UTF-8 locale here: Bun's Unicode table is used, and " +
        "a program counting with another table may disagree on emoji widths",
    fix: libcWidths
      ? undefined
      : "run the daemon on a glibc system (musl's wcwidth is not asked), or accept rare misplaced emoji",
  });

  // A web server, when the daemon runs one.
  if (daemon) {
    const web = daemon.web as { url?: string } | undefined;
    add({ name: "web", ok: true, detail: web?.url ? `serving ${web.url}` : "not serving (t4a web starts it)" });
  }

  // Another machine, when asked.
  if (options.host) {
    const named = typeof options.host === "string" ? { target: options.host } : options.host;
    const host = named.target;
    await guard(`host ${host}`, true, "install ssh, and check the host's name", () => {
      const target = parseHost(host);
      // ssh's control socket lives in the socket directory: it must exist (made private) first.
      ensureSocketDir(options.socket);
      const answer = probe(sshArgv(target, dir, [remoteT4a("--version")], named.ssh_args), 30_000);
      const answered = answer.stdout.trim();
      add({
        name: `host ${target.destination}`,
        ok: answer.code === 0 && answered.startsWith("t4a "),
        detail:
          answer.code === 0 ? answered : (answer.missing ?? (answer.stderr.trim() || `ssh exited ${answer.code}`)),
        fix:
          answer.code === 0
            ? undefined
            : answer.missing
              ? "install an ssh client (apt install openssh-client)"
              : `check \`ssh ${target.destination}\` works without a password, then \`t4a remote install ${host}\``,
        required: true,
      });
    });
  }

  const failed = checks.filter((check) => check.required && !check.ok);
  // A detail may be what a program printed (an agent CLI's --version, a host's answer or ssh's stderr).
  const shown = checks.map((check) => ({ ...check, detail: shownLine(check.detail) }));
  if (options.json) console.log(JSON.stringify({ ok: failed.length === 0, checks: shown }));
  else {
    for (const check of shown)
      console.log(
        `${check.ok ? "ok  " : check.required ? "FAIL" : "no  "} ${check.name}: ${check.detail}` +
          (check.fix ? `\n       fix: ${check.fix}` : ""),
      );
  }
  return failed.length ? 1 : 0;
}
