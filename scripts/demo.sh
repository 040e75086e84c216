#!/usr/bin/env bash
# The main job in one minute: auto-start the daemon, run a real shell, type a command,
# read the screen, list, kill. Uses a private socket so it never touches another daemon,
# and leaves nothing behind in $TMPDIR on any exit path.
set -euo pipefail
cd "$(dirname "$0")/.."
t4a="$PWD/dist/t4a"
echo "using $t4a (to type plain \`t4a\`: export PATH=\"$PWD/dist:\$PATH\", or npm link)"
if [ -z "${T4A_SOCKET:-}" ]; then
  private=$(mktemp -d)
  export T4A_SOCKET="$private/t4a.sock"
fi
cleanup() {
  "$t4a" shutdown >/dev/null 2>&1 || true # returns once the daemon has exited
  if [ -n "${private:-}" ]; then rm -rf "$private"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "\$ id=\$(t4a create -- bash --norc)      # auto-starts the daemon"
id=$("$t4a" create --cols 80 --rows 12 -- bash --norc --noprofile)
echo "$id"
echo "\$ t4a send $id 'echo \"hello from \$(uname -s)\"; seq 1 3\\n'"
"$t4a" send "$id" 'echo "hello from $(uname -s)"; seq 1 3\n'
for _ in $(seq 1 100); do "$t4a" text "$id" | grep -q '^3$' && break; sleep 0.05; done
echo "\$ t4a text $id --tail 6"
"$t4a" text "$id" --tail 6
shot="$PWD/demo-screenshot.png"
echo "\$ t4a screenshot $id -o demo-screenshot.png"
"$t4a" screenshot "$id" -o "$shot"
echo "wrote $shot ($(wc -c < "$shot") bytes): the screen above as a PNG, for a vision model"
echo "\$ t4a list"
"$t4a" list
echo "\$ t4a kill $id"
"$t4a" kill "$id"
"$t4a" list
echo "demo done"
