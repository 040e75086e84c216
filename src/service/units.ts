// The daemon as an OS service: a systemd user unit (Linux) or a launchd agent (macOS), written
// from this binary's absolute path. Plain text generation; installing is service.ts's job.

export interface ServiceOptions {
  /** Absolute path of this executable. */
  exec: string;
  /** Serve the web page too (host:port). */
  web?: string;
  home: string;
}

/** A string as one systemd ExecStart word: quoted when it has spaces, with % and " escaped. */
function systemdWord(word: string): string {
  const escaped = word.replace(/%/g, "%%").replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  return /[\s"'\\]/.test(word) ? `"${escaped}"` : escaped;
}

export function systemdUnit(options: ServiceOptions): string {
  const argv = [options.exec, "daemon", ...(options.web ? ["--web", options.web] : [])];
  const header =
    "# t4a: terminal daemon for LLM agents. Written by `t4a service install`; `t4a service uninstall` removes it.";
  return `${header}
[Unit]
Description=t4a terminal daemon
Documentation=https://www.npmjs.com/package/t4a

[Service]
Type=simple
ExecStart=${argv.map(systemdWord).join(" ")}
# The socket every client of this user finds by default ($XDG_RUNTIME_DIR/t4a/t4a.sock).
Environment=T4A_SOCKET=%t/t4a/t4a.sock
Restart=on-failure
RestartSec=2
# SIGTERM to the daemon alone: it hangs up its sessions itself, then SIGKILLs what is left.
KillMode=mixed
TimeoutStopSec=15

[Install]
WantedBy=default.target
`;
}

const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const LAUNCHD_LABEL = "dev.t4a.daemon";

export function launchdPlist(options: ServiceOptions): string {
  const argv = [options.exec, "daemon", ...(options.web ? ["--web", options.web] : [])];
  const log = `${options.home}/Library/Logs/t4a.log`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${argv.map((arg) => `    <string>${xml(arg)}</string>`).join("\n")}
  </array>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <true/>
  <key>StandardOutPath</key>
  <string>${xml(log)}</string>
  <key>StandardErrorPath</key>
  <string>${xml(log)}</string>
</dict>
</plist>
`;
}
