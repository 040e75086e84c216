#!/bin/sh
# install.sh: puts the t4a release file for this OS, CPU and C library in ~/.local/bin/t4a (or
# --prefix DIR), after checking it against the release's SHA256SUMS. POSIX sh; it runs nothing it
# downloads before the sum matches, and replaces an existing t4a only with one that answers --version.
#   curl -fsSL https://github.com/t4a/t4a/releases/latest/download/install.sh | sh
#   sh install.sh --prefix /usr/local/bin
# T4A_INSTALL_BASE: where the release files are (default: the latest GitHub release).
# T4A_INSTALL_LIBC: glibc or musl, when the C library is not the one detected.
set -eu

# The project's repository; release.yml writes the real one into the copy attached to a release.
T4A_REPO=t4a/t4a
base=${T4A_INSTALL_BASE:-https://github.com/$T4A_REPO/releases/latest/download}
prefix=

say() { printf '%s\n' "$*"; }
die() {
  printf 't4a install: %s\n' "$*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case $1 in
    --prefix)
      [ $# -ge 2 ] || die "--prefix needs a directory"
      prefix=$2
      shift 2
      ;;
    --prefix=*)
      prefix=${1#--prefix=}
      shift
      ;;
    -h | --help)
      say "usage: install.sh [--prefix DIR]   (default DIR: ~/.local/bin)"
      exit 0
      ;;
    *) die "unknown option $1 (usage: install.sh [--prefix DIR])" ;;
  esac
done

[ -n "$prefix" ] || prefix=${HOME:?HOME is not set: give --prefix DIR}/.local/bin

os=$(uname -s)
arch=$(uname -m)
case $os in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) die "no t4a build for $os; there are builds for Linux and macOS" ;;
esac
case $arch in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "no t4a build for the $arch CPU; there are builds for x86_64 and arm64" ;;
esac
# A shell under Rosetta says x86_64 on an arm64 Mac: the native build is the one to run.
if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
  arch=arm64
fi
target=$os-$arch
if [ "$os" = linux ]; then
  libc=${T4A_INSTALL_LIBC:-}
  if [ -z "$libc" ]; then
    # musl's ldd names itself (on stderr); so does glibc's, as "GNU libc" or "GLIBC".
    if (ldd --version 2>&1 || true) | grep -qi musl; then
      libc=musl
    elif ! command -v ldd >/dev/null 2>&1 && ls /lib/ld-musl-*.so.1 >/dev/null 2>&1; then
      libc=musl
    else
      libc=glibc
    fi
  fi
  case $libc in
    musl) target=$target-musl ;;
    glibc) ;;
    *) die "T4A_INSTALL_LIBC must be glibc or musl, not $libc" ;;
  esac
fi
file=t4a-$target

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  die "neither sha256sum nor shasum is installed: the download cannot be checked"
fi

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t t4a)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

say "t4a install: $file from $base"
fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS" || die "cannot download $base/SHA256SUMS"
expected=$(awk -v name="$file" '$2 == name || $2 == "*" name { print $1; exit }' "$tmp/SHA256SUMS")
[ -n "$expected" ] || die "$file is not listed in $base/SHA256SUMS"
fetch "$base/$file" "$tmp/t4a" || die "cannot download $base/$file"
actual=$(sha256 "$tmp/t4a")
if [ "$actual" != "$expected" ]; then
  die "$file does not match SHA256SUMS (expected $expected, got $actual); nothing was installed"
fi
say "t4a install: SHA-256 $actual matches SHA256SUMS"
chmod 755 "$tmp/t4a"
if ! version=$("$tmp/t4a" --version 2>&1); then
  hint=""
  [ "$os" = linux ] && hint=" (the $libc build; T4A_INSTALL_LIBC=glibc or musl picks the other)"
  die "$file does not run on this machine$hint: $version; nothing was installed"
fi

mkdir -p "$prefix"
# Copied beside the old one, then renamed over it: a running t4a keeps its file.
cp "$tmp/t4a" "$prefix/.t4a.new.$$"
mv -f "$prefix/.t4a.new.$$" "$prefix/t4a"
say "t4a install: $version installed as $prefix/t4a"
case ":$PATH:" in
  *":$prefix:"*) ;;
  *)
    say "$prefix is not on PATH; to add it, put this line in ~/.profile (or your shell's rc file) and open a new shell:"
    say "  export PATH=\"$prefix:\$PATH\""
    ;;
esac
