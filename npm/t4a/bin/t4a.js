#!/usr/bin/env node
// The `t4a` npm package's command: runs the binary of the platform package npm installed with it
// (@t4a/<os>-<cpu>[-musl], an optional dependency), passing argv, stdio, exit code and signals.
// Plain CommonJS for Node >= 18 and Bun. It looks only in its own install's tree (its own
// node_modules and the one holding it; never further up, nor NODE_PATH or the cwd) and runs
// nothing but that binary, owned by the launcher's owner or root.
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

/**
 * The platform package's binary, of this version, in this install's own tree only: this package's
 * own node_modules, or the node_modules holding this package (npm, npm -g, npx and pnpm put it
 * there). Never a node_modules further up: a project under /tmp without its platform package
 * found another user's /tmp/node_modules/@t4a/… and ran it. And only a binary owned by this
 * launcher's owner or root. Answers the binary, or why none was taken.
 */
function findBinary(pkg) {
  // __dirname is the real path (Node resolves the bin symlink): the install's own directory.
  const own = path.dirname(__dirname);
  const places = [path.join(own, "node_modules", pkg)];
  if (path.basename(path.dirname(own)) === "node_modules") places.push(path.join(path.dirname(own), pkg));
  const owner = fs.statSync(__filename).uid;
  let refused;
  for (const root of places) {
    let binary;
    let stats;
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
      if (manifest.name !== pkg || manifest.version !== version) continue;
      binary = fs.realpathSync(path.join(root, "bin", "t4a"));
      stats = fs.statSync(binary);
    } catch {
      continue; // not here
    }
    if (!stats.isFile()) continue;
    if (stats.uid !== owner && stats.uid !== 0) {
      refused = `${binary} is owned by uid ${stats.uid}, not by this launcher's owner (uid ${owner}) or root: not run`;
      continue;
    }
    return { binary };
  }
  return { refused };
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
  const { binary, refused } = findBinary(pkg);
  if (!binary) {
    if (refused) process.stderr.write(`t4a: ${refused}\n`);
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
