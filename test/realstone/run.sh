#!/usr/bin/env bash
# test/realstone/run.sh -- the real-stone integration test. Against the stone gs-env.sh resolves,
# it installs, starts the server, drives it as an MCP client (realstone_test.go: every tool, a
# compile/commit round trip, a conflicting commit from a second session, refresh keeping
# uncommitted work, DELETE), stops it and checks that no gem of it is left on the stone.
#
# It needs a GemStone host. Where GEMSTONE is unset, or names a directory without bin/topaz (the
# test stand-in), it prints one line saying it skipped and why, and exits 0. Anywhere else a
# failure is a failure. MCP_REALSTONE_PORT picks the port (default 8011).
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"

if [ -z "${GEMSTONE:-}" ]; then
  echo "realstone: SKIPPED: GEMSTONE is not set, and this test needs a GemStone host (a stone and a netldi)."
  exit 0
fi
if [ ! -x "$GEMSTONE/bin/topaz" ]; then
  echo "realstone: SKIPPED: GEMSTONE=$GEMSTONE has no bin/topaz, so it is not a GemStone product directory (the test stand-in?)."
  exit 0
fi

cd "$ROOT" || exit 1
# shellcheck source=SCRIPTDIR/../../gs-env.sh
. "$ROOT/gs-env.sh"
fail() { echo "realstone: FAILED: $*"; exit 1; }
gs_env_load || fail "the environment (above)"
gs_env_require_password || fail "no password"
gs_env_require_netldi "the server" || fail "no netldi"
PORT="${MCP_REALSTONE_PORT:-8011}"
LOGDIR="$ROOT/build/realstone"
mkdir -p "$LOGDIR"

# The stone's session ids, to tell afterwards whether the server left a gem behind.
sessions() {
  gs_env_smalltalk realstone-sessions | { gs_env_topaz "$LOGDIR/sessions.log" >/dev/null || true; }
  gs_env_marked "$LOGDIR/sessions.log" | sed -n 's/^session //p' | sort -n
}

echo "realstone: install"
./install.sh || fail "install.sh"
before="$(sessions)"
echo "realstone: start on port $PORT"
MCP_PORT="$PORT" ./run-server.sh || fail "run-server.sh"
echo "realstone: drive it"
rc=0
MCP_URL="http://127.0.0.1:$PORT/mcp" go test -tags realstone -count=1 -v -timeout 15m ./test/realstone/ || rc=1
echo "realstone: stop"
./stop-server.sh "$PORT"; stop_rc=$?
[ "$stop_rc" -eq 0 ] || { echo "realstone: stop-server.sh exited $stop_rc, want 0 (a graceful stop)"; rc=1; }
left=""
for _ in $(seq 1 20); do
  left="$(comm -13 <(echo "$before") <(sessions) | tr '\n' ' ')"
  [ -z "${left// /}" ] && break
  sleep 0.5
done
if [ -n "${left// /}" ]; then echo "realstone: sessions left on the stone after the stop: $left"; rc=1; fi
[ "$rc" -eq 0 ] || fail "see above"
echo "realstone: PASSED"
