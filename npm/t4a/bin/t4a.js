#!/usr/bin/env node
// The `t4a` npm package's command: runs the binary of the platform package npm installed with it
// (@t4a/<os>-<cpu>[-musl], an optional dependency), passing argv, stdio, exit code and signals.
// Plain CommonJS for Node >= 18 and Bun. It looks only in node_modules above its own package
// (Node's own walk, without NODE_PATH or the cwd) and runs nothing but that binary.
// biome-ignore lint/suspicious/noRedundantUseStrict: this file is CommonJS (the package scripts/pack.ts writes has no "type"), where it is not redundant
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const version = require("../package.json").version;

/** musl or glibc, for Linux: the ldd script names its C library (detect-libc's way, and cheap);
 * else Node's report names the glibc it runs on (Bun's does not); else musl's loader is looked for. */
function isMusl() {
  try {
    const ldd = fs.readFileSync("/usr/bin/ldd", "utf8");
    if (ldd.includes("musl")) return true;
    if (/GNU C Library|GLIBC/i.test(ldd)) return false;
  } catch {
    // no ldd script: ask the runtime
  }
  if (!process.versions.bun && process.report && typeof process.report.getReport === "function") {
    const header = process.report.getReport().header;
    if (header) return !header.glibcVersionRuntime;
  }
  return fs.existsSync(`/lib/ld-musl-${process.arch === "x64" ? "x86_64" : "aarch64"}.so.1`);
}

function target() {
  const name = `${process.platform}-${process.arch}`;
  if (!["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"].includes(name)) return undefined;
  return process.platform === "linux" && isMusl() ? `${name}-musl` : name;
}

/** The platform package's binary: in node_modules beside or above this package, of this version. */
function findBinary(pkg) {
  // __dirname is the real path (Node resolves the bin symlink), so this walks the install's own tree.
  let dir = path.dirname(__dirname);
  for (;;) {
    if (path.basename(dir) !== "node_modules") {
      const root = path.join(dir, "node_modules", pkg);
      try {
        const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
        const binary = path.join(root, "bin", "t4a");
        if (manifest.name === pkg && manifest.version === version && fs.statSync(binary).isFile()) return binary;
      } catch {
        // not here: go on up
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function main() {
  const name = target();
  if (!name) {
    process.stderr.write(
      `t4a: no build for ${process.platform}-${process.arch}; t4a runs on Linux and macOS, x64 and arm64\n`,
    );
    return process.exit(1);
  }
  const pkg = `@t4a/${name}`;
  const binary = findBinary(pkg);
  if (!binary) {
    process.stderr.write(
      `t4a: the package ${pkg}@${version} that holds t4a for this machine is not installed (npm skips it with --omit=optional or --no-optional).\n` +
        `Install it beside t4a: npm install ${pkg}@${version}\n`,
    );
    return process.exit(1);
  }
  // A signal sent to this process (an MCP client stopping its server, kill) goes on to t4a; one
  // typed at the terminal reaches both already, as they share the process group. The handlers come
  // first: t4a exists as soon as spawn has forked, and a signal then must not leave it orphaned.
  const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
  let child;
  for (const signal of forwarded) process.on(signal, () => child.kill(signal));
  child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
  child.on("error", (error) => {
    process.stderr.write(`t4a: cannot run ${binary}: ${error.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      // Die of the same signal, so the caller sees what t4a saw.
      for (const s of forwarded) process.removeAllListeners(s);
      process.exitCode = 128 + (os.constants.signals[signal] || 0);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}

main();
